"""Dirt and Glory game facts as data: the phases, the ability vocabulary, draw sizes and the ONE
action layout (rule ids ``DG-…`` of ``docs/rules/dirt_and_glory.md``).

Every action id and action name of the game comes from :func:`action_layout`: the fixed actions
come first, so their ids (``A_PLAY_TOP`` …) are the same whatever the number of card kinds; the
kind-indexed ranges (:data:`KIND_PIECES`) follow, one action per card kind. The game builds its
layout with its content's kind count (``game.action_layout``) and reads the range starts from it.
"""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases


# -- phases --------------------------------------------------------------------------------------
class Phase(IntEnum):
    """The decision phases (``state.phase``; the observation's one-hot ``phase`` piece)."""

    DRAFT = 0  # DG-2.1 keep 2 of 3 drawn unit cards
    MIX = 1  # DG-3.6 mix reserve cards into the deck, card by card
    SETUP = 2  # DG-3.1 place one of the 2 drawn cards as the first caravan card
    VALUE = 3  # DG-3.2 choose the counted value of a two-value card (after its ability)
    ABILITY = 4  # DG-3.2 / DG-1.5 resolve or skip the played card's ability
    MAIN = 5  # DG-3.2 / DG-3.3 play the top card, pass, or play from the reserve with fuel
    AFTER = 6  # DG-3.3 after a play: end the turn (or accept a bust) or use fuel
    TAKE = 7  # DG-3.2 after a pass: take an offer card
    END = 8  # the game is over


#: phase names indexed by ``state.phase`` (``game.phases``), and the phases as plain ints: the
#: state stores plain ints (saved as JSON ints, shown as numbers in error messages) and the rules
#: compare against module globals at int speed
PHASES, (DRAFT, MIX, SETUP, VALUE, ABILITY, MAIN, AFTER, TAKE, END) = declare_phases(Phase)

# -- abilities (DG-1.5) --------------------------------------------------------------------------
#: ability names in code order (index = ability code used by the engine; 0 = none)
ABILITIES: tuple[str, ...] = ("none", "fuel", "scout", "zero_next", "stash")
AB_NONE, AB_FUEL, AB_SCOUT, AB_ZERO, AB_STASH = range(len(ABILITIES))

# -- draws ---------------------------------------------------------------------------------------
DRAFT_DRAW = 3  # DG-2.1: draw 3, keep 2
SETUP_DRAW = 2  # DG-3.1: draw 2, place 1, the other goes to the reserve
PAID_PLACES = 3  # DG-1.2 / DG-3.5: a territory pays points and fuel to the 1st, 2nd and 3rd


# -- the action layout -----------------------------------------------------------------------------
def action_layout(num_kinds: int) -> Layout:
    """The flat ``Discrete`` action layout: 9 fixed actions, then six ranges of one action per
    card kind (index ``i`` = the content's kind ``i``, see ``game.kinds``)."""
    k = num_kinds
    return Layout([
        ("play_top", 1, "MAIN: reveal the top card of the own deck and add it to the caravan "
                        "(DG-3.2)"),
        ("pass", 1, "MAIN: pass (DG-3.2); AFTER: accept exceeding the target (forced pass)"),
        ("end_turn", 1, "AFTER: end the turn without a fuel use"),
        ("fuel_reserve", 1, "AFTER: spend fuel to move the card just played to the reserve "
                            "(DG-3.3)"),
        ("value", 2, "VALUE: count the low / high value of the two-value card, chosen after "
                     "its ability (DG-3.2, DG-3.1)"),
        ("ability_use", 1, "ABILITY: resolve the played card's ability (fuel, scout, "
                           "zero_next), before its value is chosen (DG-3.2)"),
        ("ability_skip", 1, "ABILITY: do not resolve it (abilities are optional)"),
        ("mix_done", 1, "MIX: keep the remaining reserve cards in the reserve (DG-3.6)"),
        ("play_reserve", k, "MAIN: spend fuel to play a reserve card of kind i (DG-3.3)"),
        ("stash", k, "ABILITY (stash): move a caravan card of kind i to the reserve (DG-1.5)"),
        ("mix", k, "MIX: mix one reserve card of kind i into the deck (DG-3.6)"),
        ("take", k, "TAKE: put an offer card of kind i on the bottom of the own deck (DG-3.2)"),
        ("draft_return", k, "DRAFT: of the 3 drawn cards, return one of kind i, keep the other "
                            "2 (DG-2.1)"),
        ("place", k, "SETUP: place the drawn card of kind i as the first caravan card, the "
                     "other goes to the reserve (DG-3.1)"),
    ])


_ONE_KIND, _TWO_KINDS = action_layout(1), action_layout(2)
#: the kind-indexed ranges, in layout order (the pieces whose size is the number of kinds)
KIND_PIECES: tuple[str, ...] = tuple(
    p.name for p, q in zip(_ONE_KIND.pieces, _TWO_KINDS.pieces) if p.size != q.size)

# the fixed actions come first: their ids do not depend on the number of kinds
(
    A_PLAY_TOP, A_PASS, A_END_TURN, A_FUEL_RESERVE, A_ABILITY_USE, A_ABILITY_SKIP, A_MIX_DONE,
) = _ONE_KIND.starts(
    "play_top", "pass", "end_turn", "fuel_reserve", "ability_use", "ability_skip", "mix_done",
)
A_VALUE_LOW = _ONE_KIND.start("value")  # index 0 of the value piece: the low value
A_VALUE_HIGH = A_VALUE_LOW + 1  # index 1: the high value
