"""The Toy Nim state, declared once (clone, JSON and type/range validation come from the core),
and :func:`check_state`: the invariants of a config, which ``ToyNimGame.check_state`` runs on every
loaded state."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from card_envs.core.state import GameState, Seat, SeatOrNone, check_len, check_range, fail
from card_envs.testing.toy_game.constants import (
    MAX_PILE,
    MAX_TAKE,
    PHASES,
    Phase,
)



@dataclass(slots=True, eq=False)
class ToyNimState(GameState):
    """The state declaration: one line a field, with its static range.

    Attributes:
        rng: the game's chance (the bonus card's position).
        phase: ``Phase.TAKE`` or ``Phase.OVER``; player: the seat to take.
        pile: cards left; decisions: decisions made so far.
        bonus_at: the pile size at which the bonus card is taken (-1: no bonus card).
        bonus_owner: the seat that took the bonus card, or -1; winner: the winning seat, or -1.
        taken: cards taken so far, per seat.
    """

    rng: random.Random
    phase: Annotated[int, Field(ge=0, le=len(PHASES) - 1)]
    pile: Annotated[int, Field(ge=0, le=MAX_PILE)]
    player: Seat
    decisions: Annotated[int, Field(ge=0, le=10**6)]
    bonus_at: Annotated[int, Field(ge=-1, le=MAX_PILE)]
    bonus_owner: SeatOrNone
    winner: SeatOrNone
    taken: list[Annotated[int, Field(ge=0, le=MAX_PILE)]]


def check_state(game: Any, state: ToyNimState) -> None:
    """StateError (naming the field path) unless ``state`` is consistent with ``game``'s config:
    seats, the pile and the cards taken add up, the winner took the last card, the bonus card's
    position, and the phase."""
    n, cfg = game.num_players, game.config
    check_range("player", state.player, 0, n - 1, "a seat")
    check_range("pile", state.pile, 0, cfg.pile, "a pile size of this config")
    check_range("decisions", state.decisions, 0, cfg.max_rounds, "a decision count")
    check_len("taken", state.taken, n, why="one count per seat")
    if sum(state.taken) != cfg.pile - state.pile:
        fail("taken", state.taken, f"sums to {sum(state.taken)}, but {cfg.pile - state.pile} "
             "cards have left the pile")
    if not sum(state.taken) <= MAX_TAKE * state.decisions:
        fail("decisions", state.decisions, "is too few for the cards taken (at most 3 each)")
    if state.winner >= 0:
        check_range("winner", state.winner, 0, n - 1, "a seat")
        if state.pile != 0:
            fail("winner", state.winner, "is set although cards are left in the pile")
        if state.winner != state.player:
            fail("winner", state.winner, "is not the seat that took the last card (player)")
    elif state.pile == 0:
        fail("winner", state.winner, "is -1 although the pile is empty")
    check_range("bonus_owner", state.bonus_owner, -1, n - 1, "a seat or -1")
    if not cfg.hidden_bonus and state.bonus_at != -1:
        fail("bonus_at", state.bonus_at, "must be -1 without hidden_bonus")
    if not cfg.hidden_bonus and state.bonus_owner != -1:
        fail("bonus_owner", state.bonus_owner, "must be -1 without hidden_bonus")
    if cfg.hidden_bonus:
        if state.bonus_owner < 0 and not 1 <= state.bonus_at <= state.pile:
            fail("bonus_at", state.bonus_at, f"is not a position in the pile (1..{state.pile})"
                 " although bonus_owner is -1 (nobody has taken the bonus card)")
        if state.bonus_owner >= 0 and not state.pile < state.bonus_at <= cfg.pile:
            fail("bonus_at", state.bonus_at, "is not a taken position although bonus_owner "
                 "is set")
    over = state.winner >= 0 or state.decisions >= game.config.max_rounds
    if state.phase != (Phase.OVER if over else Phase.TAKE):
        fail("phase", state.phase, f"is not {'over' if over else 'take'} (winner "
             f"{state.winner}, decisions {state.decisions} of max_rounds "
             f"{game.config.max_rounds})")
