"""Leduc Hold'em facts as data: the deck, the phases (the two betting rounds) and the one action
layout (every other module takes action ids and names from :data:`ACTIONS`).

Card ids are OpenSpiel's ``leduc_poker`` numbering (LH-1.1): card ``c`` has rank ``c // 2``
(0 jack, 1 queen, 2 king) and suit ``c % 2``.
"""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases

NUM_SEATS = 2
NUM_RANKS = 3  # jack, queen, king (LH-1.1)
NUM_SUITS = 2
NUM_CARDS = NUM_RANKS * NUM_SUITS  # 6
SUITS = ("s", "h")  # spades, hearts (poker notation: "Ks"; the text envs' charset)
#: the most raises a config may allow per round (LH-3.3's max_raises)
MAX_RAISES = 3
#: history slots per round: a check, then every raise, then the call (or a fold)
SLOTS = MAX_RAISES + 2
#: the largest ante and raise sizes a config may ask for
MAX_ANTE, MAX_BET = 10, 20
#: the most chips one seat can put in: the ante and every raise of both rounds at their largest
MAX_CHIPS = MAX_ANTE + MAX_RAISES * 2 * MAX_BET


class Phase(IntEnum):
    """``state.phase``: the betting round (LH-2.1) or the end."""

    ROUND_1 = 0
    ROUND_2 = 1
    OVER = 2


PHASES, (PH_ROUND_1, PH_ROUND_2, PH_OVER) = declare_phases(Phase)

ACTIONS = Layout([
    ("fold", 1, "give up the pot (only when facing a raise)"),
    ("call", 1, "match the opponent's chips (a check when there is nothing to match)"),
    ("raise", 1, "match, then put in the round's raise size more (at most max_raises a round)"),
])
A_FOLD, A_CALL, A_RAISE = ACTIONS.starts("fold", "call", "raise")
#: the empty history slot
NO_ACTION = -1


def rank_of(card: int) -> int:
    """The rank of card id ``card`` (0 jack, 1 queen, 2 king; LH-1.1)."""
    return card // NUM_SUITS
