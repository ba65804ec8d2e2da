"""Scripted Garda3 situations for tests (default fighter set indices below)."""

from __future__ import annotations

from card_envs.garda3 import constants as R
from card_envs.garda3.constants import card_id as C  # noqa: F401  (re-exported for tests)

# default set: index -> (id, attack_bonus, defence_bonus, hp)
RYTIR, LUCISTNICE, OBR, ZLODEJ, MNICH, VALECNICE, STRAZNY, CARODEJ, KOVAR = range(9)
H, L = R.HIGH, R.LOW
W, B, P = R.WHITE, R.BLACK, R.PIEBALD


def scripted(game, fighters, hands, *, hp=None, attacker=0, seed=0, round_=1):
    """A state after fighter selection, at the start of ``round_`` with ``attacker`` to choose a
    fighter; ``fighters[p]`` are set indices, ``hands[p]`` card ids; the deck holds every other
    card (shuffled by the seed)."""
    s = game.new_state(seed)
    n = game.num_players
    s.fighters = [list(f) for f in fighters]
    s.hp = [list(h) for h in hp] if hp else [
        [game.stats[game.set_of(p)][k][2] for k in fighters[p]] for p in range(n)]
    for avail in s.available:
        for p in range(n):
            for k in fighters[p]:
                avail[k] = False
    s.draft_pos = len(s.draft_order)
    s.hands = [list(h) for h in hands]
    used = {c for h in hands for c in h}
    s.deck = [c for c in s.deck if c not in used]
    s.discard = []
    s.first_player = attacker
    s.round = round_
    s.round_attacker = attacker
    s.target = -1 if game.ffa else 1 - attacker
    s.phase = R.PH_TARGET if game.ffa else R.PH_ATTACKER_FIGHTER
    s.player = attacker
    s.legal_cache = None
    return s


def play(game, s, *actions):
    for a in actions:
        game.apply_action(s, a)
    return s


def card(c):
    return R.A_CARD + c


def slot(k):
    return R.A_SLOT + k
