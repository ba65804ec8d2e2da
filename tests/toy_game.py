"""A tiny card game implementing the full Game contract, for core / wrapper / training tests.

**Toy Nim** (``num_players`` 2–4 seats): a pile of ``pile`` cards lies face down; in turn each seat
takes 1, 2 or 3 cards (action ``k-1`` takes ``k``; never more than are left). Whoever takes the
last card wins (+1); every other seat gets ``-1/(n-1)`` (zero-sum). Chance: with
``hidden_bonus=True`` one card in the pile is a *bonus* card at a position drawn from the state's
RNG; nobody sees where, it only makes ``sample_hidden`` meaningful (it does not change who wins).
``max_rounds`` caps the game: when that many decisions were made the game is over and truncated
(returns all zero) — with the default cap the rules end the game long before.

Observation (float32, ``(6,)``): ``[pile/max_pile, my_turn, seat/3, n/4, decisions/max, bonus
taken by me]``. Actions: ``Discrete(3)``: 0 = take 1, 1 = take 2, 2 = take 3.

:class:`PerfectBot` plays optimal 2-player Nim (leave a multiple of 4), :class:`ScriptedBot`
plays a fixed action list. ``make_game(**config)`` builds the game (the registry signature).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from card_envs.core.config import check_int
from card_envs.core.errors import IllegalActionError
from card_envs.core.game import GameBase

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


@dataclass
class ToyState:
    pile: int
    player: int
    decisions: int
    bonus_at: int  # pile size at which the bonus card is taken (-1: none)
    bonus_owner: int
    winner: int
    rng: random.Random = field(repr=False)


class ToyNim(GameBase[ToyState]):
    name = "toy_nim"
    version = 0
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
        return ToyState(self.config.pile, 0, 0, bonus, -1, -1, rng)

    def current_player(self, state: ToyState) -> int:
        return -1 if self.is_terminal(state) else state.player

    def legal_actions(self, state: ToyState) -> list[int]:
        if self.is_terminal(state):
            return []
        return list(range(min(3, state.pile)))

    def apply_action(self, state: ToyState, action: int) -> None:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"toy_nim: action {action!r} is not legal now")
        take = action + 1
        before = state.pile
        state.pile -= take
        if state.bonus_at > 0 and state.pile < state.bonus_at <= before:
            state.bonus_owner = state.player
        state.decisions += 1
        if state.pile == 0:
            state.winner = state.player
        else:
            state.player = (state.player + 1) % self.num_players

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

    def state_to_dict(self, state: ToyState) -> dict[str, Any]:
        return {
            "pile": state.pile,
            "player": state.player,
            "decisions": state.decisions,
            "bonus_at": state.bonus_at,
            "bonus_owner": state.bonus_owner,
            "winner": state.winner,
            "rng": repr(state.rng.getstate()),
        }

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        import ast

        rng = random.Random()
        rng.setstate(ast.literal_eval(data["rng"]) if isinstance(data["rng"], str) else data["rng"])
        return ToyState(
            data["pile"],
            data["player"],
            data["decisions"],
            data["bonus_at"],
            data["bonus_owner"],
            data["winner"],
            rng,
        )

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
