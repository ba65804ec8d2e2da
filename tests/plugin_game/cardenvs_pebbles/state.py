"""The Pebbles state and its invariants (:func:`check_state`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from card_envs.core.state import GameState, check_range, fail
from cardenvs_pebbles.constants import MAX_PEBBLES, MAX_TAKE, PHASES, Phase


@dataclass(slots=True, eq=False)
class PebblesState(GameState):
    """Attributes:
        rng: unused (Pebbles has no chance); kept as every state's own RNG.
        phase: ``Phase.TAKE`` or ``Phase.OVER``; player: the seat to take.
        left: pebbles left in the row; decisions: turns taken so far.
        loser: the seat that took the last pebble (PB-4), or -1.
    """

    rng: random.Random
    phase: Annotated[int, Field(ge=0, le=len(PHASES) - 1)]
    player: Annotated[int, Field(ge=0, le=1)]
    left: Annotated[int, Field(ge=0, le=MAX_PEBBLES)]
    decisions: Annotated[int, Field(ge=0, le=MAX_PEBBLES)]
    loser: Annotated[int, Field(ge=-1, le=1)]


def check_state(game: Any, state: PebblesState) -> None:
    """StateError (naming the field, and the fields it was checked against) unless ``state``
    fits ``game``'s config."""
    taken = game.config.pebbles - state.left
    check_range("left", state.left, 0, game.config.pebbles, "a row length of this config")
    if not state.decisions <= taken <= MAX_TAKE * state.decisions:
        fail("decisions", state.decisions, f"turns cannot leave {state.left} pebbles left of "
             f"{game.config.pebbles} (1 or 2 a turn, PB-3)")
    if state.player != state.decisions % 2 and state.left > 0:
        fail("player", state.player, f"is not the seat to take after {state.decisions} "
             "decisions (PB-2)")
    if (state.loser >= 0) != (state.left == 0):
        fail("loser", state.loser, f"must be set exactly when the row is empty ({state.left} "
             "left)")
    if state.loser >= 0 and state.loser != (state.decisions - 1) % 2:
        fail("loser", state.loser, f"is not the seat that took the last pebble (after "
             f"{state.decisions} decisions)")
    if state.phase != (Phase.OVER if state.left == 0 else Phase.TAKE):
        fail("phase", state.phase, f"does not match {state.left} pebbles left")
