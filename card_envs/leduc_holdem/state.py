"""The Leduc Hold'em state, declared once (clone, JSON and type/range validation come from the
core), the betting arithmetic as pure helpers (:func:`replay`, also read by the encoder and the
view), and :func:`check_state`: every derived field must be what the betting history gives.

The history is a fixed ``2 × SLOTS`` grid (one row a betting round, ``-1`` in the unused slots):
a round holds at most a check, ``max_raises`` raises and a call (LH-3.3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple

from pydantic import Field

from card_envs.core.errors import StateError
from card_envs.core.state import GameState, check_len, fail
from card_envs.leduc_holdem.constants import (
    A_CALL,
    A_FOLD,
    A_RAISE,
    MAX_CHIPS,
    MAX_RAISES,
    NO_ACTION,
    NUM_CARDS,
    NUM_SEATS,
    NUM_SUITS,
    PHASES,
    SLOTS,
    Phase,
)

Card = Annotated[int, Field(ge=0, le=NUM_CARDS - 1)]
Seat = Annotated[int, Field(ge=0, le=NUM_SEATS - 1)]
Slot = Annotated[int, Field(ge=NO_ACTION, le=A_RAISE)]


@dataclass(slots=True, eq=False)
class LeducHoldemState(GameState):
    """The state declaration: one line a field, with its static range.

    Attributes:
        rng: the game's chance (the deal, LH-2.3).
        phase: ``Phase.ROUND_1``, ``Phase.ROUND_2`` or ``Phase.OVER``; player: the seat to act
            (the last seat that acted once over).
        hands: each seat's private card id (LH-2.3).
        public: the public card id, dealt with the hands and face down until round 2 (LH-2.4).
        pot: the chips each seat has put in (ante included).
        raises: raises made in the current betting round (LH-3.3).
        history: per round, the actions taken in order, ``-1`` in the unused slots.
        folded: the seat that folded, or -1 (LH-3.2).
    """

    rng: random.Random
    phase: Annotated[int, Field(ge=0, le=len(PHASES) - 1)]
    player: Seat
    hands: list[Card]
    public: Card
    pot: list[Annotated[int, Field(ge=1, le=MAX_CHIPS)]]
    raises: Annotated[int, Field(ge=0, le=MAX_RAISES)]
    history: list[list[Slot]]
    folded: Annotated[int, Field(ge=-1, le=NUM_SEATS - 1)]


class Betting(NamedTuple):
    """What a betting history gives (:func:`replay`): the phase, the seat to act (the last seat
    that acted once over), each seat's chips in the pot, the raises of the current round and the
    seat that folded (-1: none)."""

    phase: int
    player: int
    pot: list[int]
    raises: int
    folded: int


def replay(history: list[list[int]], config: Any) -> Betting:
    """Replay the betting ``history`` (LH-3.1..LH-3.5) under ``config`` (a
    :class:`~card_envs.leduc_holdem.config.LeducHoldemConfig`).

    Raises:
        StateError: naming the slot (``history[r][i]``) of the first action that was not legal
            there, or of an action after the round or game ended.
    """
    pot = [config.ante] * NUM_SEATS
    phase, player, folded = Phase.ROUND_1, 0, -1
    raises = 0
    for r in (0, 1):
        row = history[r]
        for i, a in enumerate(row):
            path = f"history[{r}][{i}]"
            if a == NO_ACTION:
                if any(b != NO_ACTION for b in row[i:]):
                    fail(f"history[{r}]", row, "has an action after an empty slot")
                break
            if phase != r:
                fail(path, a, "is an action after the game ended" if phase == Phase.OVER
                     else "is an action after round 1 ended" if phase > r
                     else "is an action of round 2 before round 1 ended")
            other = 1 - player
            if a == A_FOLD:
                if pot[player] >= pot[other]:
                    fail(path, a, "is a fold although no raise is faced (LH-3.2)")
                folded, phase = player, Phase.OVER
                continue
            if a == A_CALL:
                pot[player] = pot[other]
                if i >= 1:  # a call (or a second check) closes the round (LH-3.5)
                    if r == 0:
                        phase, player, raises = Phase.ROUND_2, 0, 0
                    else:
                        phase = Phase.OVER
                    continue
            else:
                if raises >= config.max_raises:
                    fail(path, a, f"is a raise after {raises} raises this round (max_raises "
                         f"{config.max_raises}, LH-3.3)")
                pot[player] = pot[other] + config.raise_sizes[r]
                raises += 1
            player = other
    return Betting(phase, player, pot, raises, folded)


def check_state(game: Any, state: LeducHoldemState) -> None:
    """StateError (naming the field path) unless ``state`` is consistent with ``game``'s config:
    six distinct cards dealt (LH-1.1, LH-2.3), a history of legal actions, and the phase, seat
    to act, pot, raises and fold being exactly what the history gives."""
    check_len("hands", state.hands, NUM_SEATS, why="one private card per seat")
    check_len("history", state.history, 2, why="one row per betting round")
    for r in (0, 1):
        check_len(f"history[{r}]", state.history[r], SLOTS, why="the slots of a round")
    check_len("pot", state.pot, NUM_SEATS, why="one count per seat")
    if state.hands[0] == state.hands[1]:
        fail("hands", state.hands, "deal the same card as hands[0] and hands[1] (LH-2.3)")
    for seat, card in enumerate(state.hands):
        if card == state.public:
            fail("public", card, f"is both the public card and hands[{seat}] (LH-2.3)")
    # a refusal names the rows too: the slot named or an earlier one may be the wrong one, and a
    # derived field that disagrees may be right while the history is wrong
    rows = f"history[0] = {state.history[0]}, history[1] = {state.history[1]}"
    try:
        got = replay(state.history, game.config)
    except StateError as exc:
        raise StateError(f"{exc} ({rows})") from None
    for name in ("phase", "player", "pot", "raises", "folded"):
        if getattr(state, name) != getattr(got, name):
            fail(name, getattr(state, name), f"is not what the betting history gives "
                 f"({getattr(got, name)!r}; {rows})")



def public_shown(state: LeducHoldemState) -> bool:
    """The public card is face up: round 2 has begun (LH-2.4)."""
    return state.phase == Phase.ROUND_2 or state.history[1][0] != NO_ACTION


def is_showdown(state: LeducHoldemState) -> bool:
    """The game ended in a showdown (nobody folded; LH-4.1): both private cards are shown."""
    return state.phase == Phase.OVER and state.folded < 0


def hand_strength(card: int, public: int) -> tuple[int, int]:
    """A private card's strength at the showdown (LH-4.2, LH-4.3): ``(1 if it pairs the public
    card else 0, its rank)``; the higher tuple wins, equal tuples split the pot (LH-4.4)."""
    rank = card // NUM_SUITS
    return (1 if rank == public // NUM_SUITS else 0), rank
