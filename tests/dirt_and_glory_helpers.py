"""Helpers for the Dirt and Glory tests: build scripted positions directly."""

from __future__ import annotations

from card_envs.dirt_and_glory import make_game
from card_envs.dirt_and_glory import constants as R

# territory indices of the designed content (data/designed.toml, file order)
T12, T13, T14, T15, T16, T17, T18, T19, T21 = range(9)


class Cards:
    """Hands out distinct card ids of a requested kind label (``"5"``, ``"2/5"``, ``"3+fuel"``)."""

    def __init__(self, game):
        self.game = game
        self.used: set[int] = set()

    def __call__(self, *labels: str) -> list[int]:
        out = []
        for label in labels:
            for c in range(self.game.num_cards):
                if c not in self.used and self.game.card_label(c) == label:
                    self.used.add(c)
                    out.append(c)
                    break
            else:
                raise KeyError(f"no free card of kind {label!r}")
        return out


def kind(game, label: str) -> int:
    return [k.label() for k in game.kinds].index(label)


def act(game, rng_name: str, label: str) -> int:
    """Action id of a kind range (``act(g, "take", "5")``)."""
    return game.action_layout.start(rng_name) + kind(game, label)


def scripted(game, cards: Cards, *, territory=T15, player=0, decks=None, reserves=None,
             caravans=None, fuel=None, offer=(), passed=None, scores=None, round_=0, first=0):
    """A MAIN-phase position for ``player``. ``caravans[p]`` is a list of ``(card, value)``;
    decks list the top card LAST. Cards not placed anywhere stay out of play (unit deck empty
    unless given)."""
    n = game.num_players
    s = game.new_state(0)
    s.phase, s.player, s.round, s.first, s.ctx = R.MAIN, player, round_, first, "play"
    s.territories = [territory] * game.config.num_rounds
    s.hand, s.pending, s.fuel_used, s.from_reserve = [], -1, 0, False
    s.decks = [list(d) for d in (decks or [[] for _ in range(n)])]
    s.reserves = [list(r) for r in (reserves or [[] for _ in range(n)])]
    car = caravans or [[] for _ in range(n)]
    s.caravans = [[c for c, _ in row] for row in car]
    s.values = [[v for _, v in row] for row in car]
    s.fuel = list(fuel if fuel is not None else [0] * n)
    s.scores = list(scores if scores is not None else [0] * n)
    s.offer = list(offer)
    s.passed = list(passed if passed is not None else [False] * n)
    s.busted = [False] * n
    s.zero_next = [False] * n
    s.peek = [False] * n
    s.unit_deck = []
    s.legal_cache = None
    return s


def game(**kw):
    return make_game(**kw)
