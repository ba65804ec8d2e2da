"""The Rust Brawl heuristic bot (``act(game, state, player) -> int``).

It reads only what its seat may know: the legal actions, the phase, its own hand
(``hands[player]``), both tables (public: cards, ``hlt``, ``max_hlt``, ``cover``,
``paralysed_until``, ``equipment``), the acting position (``acting``) and the equipment being
attached (``pending``, its own card). Never a deck (order or contents) nor the opponent's hand.

Cards are ranked by the documented **strength score** of the card data
(:func:`card_envs.rust_brawl.cards.strength_score`: the formula the designed point values
follow). The rules, in the phases of RB-4:

- **play** (RB-4.3, phases ``play`` and ``play_or_discard``): **keep a character on the table**:
  with no living own character on the table, the highest-score character in hand if one can be
  played; otherwise the playable card with the **highest strength score**. An explosive counts
  only when the opponent has a living table card to hit (RB-5.5); with nothing else worth
  playing the bot passes (``play``) or discards (``play_or_discard``).
- **equipment target** (RB-5.7): the living own character with the highest strength score
  (then the most HLT, then the lowest position).
- **ranged target** (RB-5.2): the **weakest enemy it can destroy**: of the targets whose HLT the
  hit would bring to 0 or below, the one with the least HLT left (then the highest score); if
  none, the **most valuable one it can damage most**: the most damage, then the highest score.
  The damage is the engine's RB-6.1/6.2/6.3/6.13 rule (:func:`card_envs.rust_brawl.queries.hit`,
  the one the rules apply) read from the public table: DMG with boosts and extra DMG against the
  target's traits, halved in cover (rounded down), less the target's flat, trait and
  melee/ranged reductions; a removes-HLT attacker removes its printed amount (RB-6.13).
- **heal target** (RB-5.3): the **most damaged ally** (the largest ``max_hlt - hlt``; then the
  highest score).
- **discard** (RB-4.3, RB-4.4): the **lowest-score** card, never the last character in hand while
  no living own character is on the table (if another card can go).

Ties go to the lowest action id, so the bot is deterministic.
"""

from __future__ import annotations

from card_envs.rust_brawl.cards import strength_score
from card_envs.rust_brawl.constants import (
    A_EQUIP,
    A_HEAL,
    A_PASS,
    A_PLAY,
    A_RANGED,
    CHARACTER,
    DISCARD,
    EQUIP_TARGET,
    EXPLOSIVE,
    HEAL_TARGET,
    PLAY,
    PLAY_OR_DISCARD,
    POSITIONS,
    RANGED_TARGET,
)
from card_envs.rust_brawl.queries import hit


def card_scores(game) -> list[float]:
    """The strength score of every card of ``game``'s database, by card index (cached on the
    database object)."""
    db = game.db
    cached = _SCORES.get(id(db))
    if cached is None or cached[0] is not db:
        cached = (db, [strength_score(c) for c in db.cards])
        _SCORES[id(db)] = cached
    return cached[1]


_SCORES: dict[int, tuple] = {}


def hit_damage(game, s, p: int, j: int, t: int) -> int:
    """The HLT the attack of seat ``p``'s card at position ``j`` takes from the opposing card at
    position ``t`` (RB-6.1, RB-6.2, RB-6.3, RB-6.13): the engine's own rule
    (:func:`card_envs.rust_brawl.queries.hit`) on the public table; an int >= 0."""
    q = 1 - p
    c, tc = s.table[p][j], s.table[q][t]
    tmask = game.tmask
    return hit(game.slot_dmg(s, p, j), game.slot_profile(s, p, j), game.printed_dmg[c],
               tmask[c], game.icon[c], game.slot_profile(s, q, t), tmask[tc], s.cover[q][t])


class HeuristicBot:
    """The documented Rust Brawl heuristic (module docstring); deterministic."""

    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.seed = seed  # deterministic; kept for a uniform bot signature

    def act(self, game, state, player: int) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        s, ph = state, state.phase
        score = card_scores(game)
        if ph == RANGED_TARGET:
            return self._ranged(game, s, player, legal, score)
        if ph == HEAL_TARGET:
            hlt, mx, row = s.hlt[player], s.max_hlt[player], s.table[player]
            return max(legal, key=lambda a: (mx[a - A_HEAL] - hlt[a - A_HEAL],
                                             score[row[a - A_HEAL]], -a))
        if ph == EQUIP_TARGET:
            row, hlt = s.table[player], s.hlt[player]
            return max(legal, key=lambda a: (score[row[a - A_EQUIP]], hlt[a - A_EQUIP], -a))
        if ph in (PLAY, PLAY_OR_DISCARD):
            play = self._play(game, s, player, legal, score)
            if play is not None:
                return play
            if ph == PLAY:
                return A_PASS
        if ph in (PLAY_OR_DISCARD, DISCARD):
            return self._discard(game, s, player, legal, score)
        return legal[0]

    # -- the decisions -----------------------------------------------------------------------
    @staticmethod
    def _has_character(game, s, p: int) -> bool:
        row, hlt = s.table[p], s.hlt[p]
        return any(row[j] >= 0 and hlt[j] > 0 and game.kind[row[j]] == CHARACTER
                   for j in range(POSITIONS))

    def _play(self, game, s, p: int, legal: list[int], score: list[float]) -> int | None:
        """The play action (module docstring), or ``None``: nothing worth playing."""
        hand, kind = s.hands[p], game.kind
        a_discard = game.a_discard
        plays = [a for a in legal if A_PLAY <= a < a_discard]
        targets = bool(game.living(s, 1 - p))
        plays = [a for a in plays if kind[hand[a - A_PLAY]] != EXPLOSIVE or targets]
        if not plays:
            return None
        if not self._has_character(game, s, p):
            chars = [a for a in plays if kind[hand[a - A_PLAY]] == CHARACTER]
            if chars:
                plays = chars
        return max(plays, key=lambda a: (score[hand[a - A_PLAY]], -a))

    def _discard(self, game, s, p: int, legal: list[int], score: list[float]) -> int:
        hand, kind = s.hands[p], game.kind
        a_discard = game.a_discard
        options = [a for a in legal if a >= a_discard]
        if not self._has_character(game, s, p):
            chars = [a for a in options if kind[hand[a - a_discard]] == CHARACTER]
            if len(chars) == 1 and len(options) > 1:
                options = [a for a in options if a != chars[0]]
        return min(options, key=lambda a: (score[hand[a - a_discard]], a))

    @staticmethod
    def _ranged(game, s, p: int, legal: list[int], score: list[float]) -> int:
        q, j = 1 - p, s.acting
        hlt, row = s.hlt[q], s.table[q]
        hits = {a: hit_damage(game, s, p, j, a - A_RANGED) for a in legal}
        kills = [a for a in legal if hits[a] >= hlt[a - A_RANGED]]
        if kills:
            return min(kills, key=lambda a: (hlt[a - A_RANGED], -score[row[a - A_RANGED]], a))
        return max(legal, key=lambda a: (hits[a], score[row[a - A_RANGED]], -a))
