"""A tiny card game implementing the full Game contract, for core / wrapper / training tests.

**Toy Nim** (``num_players`` 2–4 seats): a pile of ``pile`` cards lies face down; in turn each seat
takes 1, 2 or 3 cards (action ``k-1`` takes ``k``; never more than are left). Whoever takes the
last card wins (+1); every other seat gets ``-1/(n-1)`` (zero-sum). Chance: with
``hidden_bonus=True`` one card in the pile is a *bonus* card at a position drawn from the state's
RNG; nobody sees where, it only makes ``sample_hidden`` meaningful (it does not change who wins).
``max_rounds`` caps the game: when that many decisions were made the game is over and truncated
(returns all zero) — with the default cap the rules end the game long before.

State: :class:`ToyState`, declared once (clone, JSON and validation come from the core);
:meth:`ToyNim.check_state` adds the config's invariants. ``docs/adding_a_game.md`` walks through
this file.

Observation (float32, ``(6,)``): ``[pile/max_pile, my_turn, seat/3, n/4, decisions/max, bonus
taken by me]``. Actions: ``Discrete(3)``: 0 = take 1, 1 = take 2, 2 = take 3.

:class:`PerfectBot` plays optimal 2-player Nim (leave a multiple of 4), :class:`ScriptedBot`
plays a fixed action list. ``make_game(**config)`` builds the game (the registry signature).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Annotated, Any

import numpy as np
from pydantic import Field

from card_envs.core.config import check_int
from card_envs.core.game import GameBase
from card_envs.core.state import GameState, check_len, check_range, fail

MAX_PILE = 40


@dataclass(frozen=True)
class ToyConfig:
    num_players: int = 2
    pile: int = 10
    max_rounds: int = 100
    hidden_bonus: bool = True

    def __post_init__(self):
        check_int("num_players", self.num_players, 2, 4)
        check_int("pile", self.pile, 1, MAX_PILE)
        check_int("max_rounds", self.max_rounds, 1)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True, eq=False)
class ToyState(GameState):
    """The state declaration: one line a field, with its static range."""

    rng: random.Random
    pile: Annotated[int, Field(ge=0, le=MAX_PILE)]
    player: Annotated[int, Field(ge=0, le=3)]
    decisions: Annotated[int, Field(ge=0, le=10**6)]
    bonus_at: Annotated[int, Field(ge=-1, le=MAX_PILE)]  # pile size at which the bonus is taken
    bonus_owner: Annotated[int, Field(ge=-1, le=3)]
    winner: Annotated[int, Field(ge=-1, le=3)]
    taken: list[Annotated[int, Field(ge=0, le=MAX_PILE)]]  # cards taken so far, per seat


class ToyNim(GameBase[ToyState]):
    name = "toy_nim"
    version = 0
    state_class = ToyState
    observation_shape = (6,)
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, config: ToyConfig):
        self.config = config
        self.num_players = config.num_players
        self.num_actions = 3
        self.max_game_length = config.max_rounds

    def new_state(self, seed: int) -> ToyState:
        rng = random.Random(seed)
        bonus = rng.randint(1, self.config.pile) if self.config.hidden_bonus else -1
        return ToyState(rng=rng, pile=self.config.pile, player=0, decisions=0, bonus_at=bonus,
                        bonus_owner=-1, winner=-1, taken=[0] * self.num_players)

    def current_player(self, state: ToyState) -> int:
        return -1 if self.is_terminal(state) else state.player

    def _legal_actions(self, state: ToyState) -> list[int]:
        if self.is_terminal(state):
            return []
        return list(range(min(3, state.pile)))

    def _apply_action(self, state: ToyState, action: int) -> None:
        take = action + 1
        before = state.pile
        state.pile -= take
        if state.bonus_at > 0 and state.pile < state.bonus_at <= before:
            state.bonus_owner = state.player
        state.decisions += 1
        state.taken[state.player] += take
        if state.pile == 0:
            state.winner = state.player
        else:
            state.player = (state.player + 1) % self.num_players

    def check_state(self, state: ToyState) -> None:
        n, cfg = self.num_players, self.config
        check_range("player", state.player, 0, n - 1, "a seat")
        check_range("pile", state.pile, 0, cfg.pile, "a pile size of this config")
        check_range("decisions", state.decisions, 0, cfg.max_rounds, "a decision count")
        check_len("taken", state.taken, n, why="one count per seat")
        if sum(state.taken) != cfg.pile - state.pile:
            fail("taken", state.taken, f"sums to {sum(state.taken)}, but {cfg.pile - state.pile} "
                 "cards have left the pile")
        if not sum(state.taken) <= 3 * state.decisions:
            fail("decisions", state.decisions, "is too few for the cards taken (at most 3 each)")
        if state.winner >= 0:
            check_range("winner", state.winner, 0, n - 1, "a seat")
            if state.pile != 0:
                fail("winner", state.winner, "is set although cards are left in the pile")
            if state.winner != state.player:
                fail("winner", state.winner, "is not the seat that took the last card (player)")
        elif state.pile == 0:
            fail("winner", state.winner, "is -1 although the pile is empty")
        if state.bonus_owner >= n:
            fail("bonus_owner", state.bonus_owner, f"is not a seat (0..{n - 1}) or -1")
        if not cfg.hidden_bonus and state.bonus_at != -1:
            fail("bonus_at", state.bonus_at, "must be -1 without hidden_bonus")
        if not cfg.hidden_bonus and state.bonus_owner != -1:
            fail("bonus_owner", state.bonus_owner, "must be -1 without hidden_bonus")
        if cfg.hidden_bonus:
            if state.bonus_owner < 0 and not 1 <= state.bonus_at <= state.pile:
                fail("bonus_at", state.bonus_at, f"is not a position in the pile (1..{state.pile})"
                     " although nobody has taken the bonus card")
            if state.bonus_owner >= 0 and not state.pile < state.bonus_at <= cfg.pile:
                fail("bonus_at", state.bonus_at, "is not a taken position although bonus_owner "
                     "is set")

    def phase_name(self, state: ToyState) -> str:
        return "game over" if self.is_terminal(state) else "take"
    def is_terminal(self, state: ToyState) -> bool:
        return state.winner >= 0 or state.decisions >= self.config.max_rounds

    def is_truncated(self, state: ToyState) -> bool:
        return state.winner < 0 and state.decisions >= self.config.max_rounds

    def returns(self, state: ToyState) -> list[float]:
        n = self.num_players
        if state.winner < 0:
            return [0.0] * n
        return [1.0 if p == state.winner else -1.0 / (n - 1) for p in range(n)]

    def observe(self, state: ToyState, player: int) -> np.ndarray:
        return np.array(
            [
                state.pile / MAX_PILE,
                1.0 if (state.player == player and not self.is_terminal(state)) else 0.0,
                player / 3,
                self.num_players / 4,
                min(1.0, state.decisions / self.config.max_rounds),
                1.0 if state.bonus_owner == player else 0.0,
            ],
            dtype=np.float32,
        )

    def action_to_string(self, state: ToyState, action: int) -> str:
        return f"take {action + 1}"

    def render(self, state: ToyState) -> str:
        return f"pile={state.pile} to_move={state.player} winner={state.winner}"

    def sample_hidden(self, state: ToyState, player: int, rng: random.Random) -> ToyState:
        s = self.clone(state)
        if s.bonus_owner < 0 and s.bonus_at > 0 and s.pile > 0:
            s.bonus_at = rng.randint(1, s.pile)
        s.rng = random.Random(rng.getrandbits(63))
        return s


def make_game(**config: Any) -> ToyNim:
    return ToyNim(ToyConfig(**config))


class PerfectBot:
    """Optimal play for 2 seats: leave a multiple of 4 when possible, else take 1."""

    name = "perfect"

    def act(self, game, state, player: int) -> int:
        take = state.pile % 4
        return take - 1 if take else 0


class HeuristicBot(PerfectBot):
    """The toy game's 'heuristic' (the registry-style name)."""

    name = "heuristic"


class ScriptedBot:
    """Plays ``actions`` in order (then action 0); for exact control in tests."""

    def __init__(self, actions: list[int], name: str = "scripted"):
        self.actions = list(actions)
        self.i = 0
        self.name = name

    def act(self, game, state, player: int) -> int:
        a = self.actions[self.i] if self.i < len(self.actions) else 0
        self.i += 1
        return a
