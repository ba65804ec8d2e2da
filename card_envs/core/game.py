"""The ``Game`` contract every card game of the suite implements (pure rules, no spaces).

A game object is built from one config (variant, card set, player count) and holds no per-game
state; all of that lives in a state object it creates. Rules code never imports Gymnasium or
PettingZoo: the one generic adapter (:mod:`card_envs.core.aec`) turns any ``Game`` into a
PettingZoo AEC env.

Contract (``S`` is the game's state type):

=========================================  ===================================================
``name: str``, ``version: int``            registry name (``"garda3"``) and env version
``config``                                  the frozen config dataclass (JSON-able via
                                            ``config_to_dict``)
``num_players: int``, ``num_actions: int``  seats ``0..num_players-1``; flat ``Discrete`` size
``observation_shape: tuple[int]``           shape of ``observe``'s float32 vector
``observation_low/high: float``             bounds of every observation entry
``max_game_length: int``                    upper bound on decisions in one game (the adapter
                                            truncates there)
``new_state(seed) -> S``                    a fresh game; all chance comes from ``state.rng``
``current_player(S) -> int``                seat to decide, ``-1`` once the game is over
``legal_actions(S) -> list[int]``           sorted legal action ids (ints inside the engine)
``legal_action_mask(S) -> ndarray``         int8 ``(num_actions,)`` built from the list
``apply_action(S, a) -> None``              in place; ``IllegalActionError`` naming ``a`` if
                                            ``a`` is not legal
``is_terminal(S) -> bool``                  game over (by the rules or by a rule cap)
``is_truncated(S) -> bool``                 game over by a rule cap (e.g. ``max_rounds``)
``returns(S) -> list[float]``               final reward per seat (zero-sum); zeros mid-game
``observe(S, p) -> ndarray``                float32 ``observation_shape``, seat ``p``'s view,
                                            never another seat's hidden cards
``action_to_string(S, a) -> str``           readable name of action ``a`` in state ``S``
``render(S) -> str``                        a text picture of the public + all state (debug)
``clone(S) -> S``                           an independent copy (RNG included)
``state_to_dict(S) / state_from_dict(d)``   JSON-able round trip; play goes on identically
``sample_hidden(S, p, rng) -> S``           a full state consistent with seat ``p``'s
                                            observations: hidden cards and deck orders
                                            resampled, chance RNG reseeded; a function of
                                            ``p``'s information and ``rng`` only
=========================================  ===================================================

Optional hooks (a game may leave them out; the tools that need them say so):

=========================================  ===================================================
``potential(S, p) -> float``                seat ``p``'s standing in [−1, 1] from public facts
                                            (Garda3: material lead); used by reward shaping
                                            (``SingleAgentEnv(shaping=...)``) and as the leaf
                                            score of the decision-time lookahead
``lookahead_horizon(S) -> key | None``      how far a lookahead plays out (a rollout stops
                                            when the key changes, e.g. the round), ``None``
                                            where it should not decide; ``None`` also stops a
                                            rollout, so keep the key inside the horizon
                                            (:mod:`card_envs.bots.lookahead`)
=========================================  ===================================================

:class:`GameBase` supplies the generic parts (mask building, a JSON-based ``clone``, random
playouts) so a game writes only its rules.
"""

from __future__ import annotations

import json
import random
from typing import Any, Generic, TypeVar

import numpy as np

S = TypeVar("S")


def lead(values, player: int, scale: float) -> float:
    """``player``'s lead in [-1, 1] for ``potential`` hooks: ``values[player]`` minus the mean of
    the other seats' values, over ``scale``, clipped to [-1, 1] (``values``: one number per seat,
    at least two seats; ``scale > 0``)."""
    others = (sum(values) - values[player]) / (len(values) - 1)
    x = (values[player] - others) / scale
    return -1.0 if x < -1.0 else (1.0 if x > 1.0 else float(x))


class GameBase(Generic[S]):
    """Generic helpers shared by every game. Games set the class/instance attributes listed in the
    module docstring and implement the rule methods; nothing here knows any game's rules."""

    name: str = "game"
    version: int = 0
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    observation_low: float = 0.0
    observation_high: float = 1.0
    max_game_length: int = 10_000

    # -- generic parts -------------------------------------------------------------------------
    def legal_action_mask(self, state: S) -> np.ndarray:
        """int8 array of shape ``(num_actions,)``: 1 for each legal action, all zeros once over."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self.is_terminal(state):
            mask[self.legal_actions(state)] = 1
        return mask

    def clone(self, state: S) -> S:
        """Independent deep copy (default: through the JSON dict round trip)."""
        return self.state_from_dict(json.loads(json.dumps(self.state_to_dict(state))))

    def config_to_dict(self) -> dict[str, Any]:
        """The config as a JSON-able dict that ``make_game(name, **dict)`` accepts."""
        return self.config.to_dict()  # type: ignore[attr-defined]

    def random_playout(self, state: S, rng: random.Random) -> int:
        """Play uniformly random legal actions until the game ends; returns decisions made."""
        n = 0
        legal_actions, apply_action, choice = self.legal_actions, self.apply_action, rng.choice
        while not self.is_terminal(state):
            apply_action(state, choice(legal_actions(state)))
            n += 1
        return n

    # -- to be implemented by each game ---------------------------------------------------------
    def new_state(self, seed: int) -> S:  # pragma: no cover - interface
        raise NotImplementedError

    def current_player(self, state: S) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[int]:  # pragma: no cover - interface
        raise NotImplementedError

    def apply_action(self, state: S, action: int) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def is_terminal(self, state: S) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def is_truncated(self, state: S) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def returns(self, state: S) -> list[float]:  # pragma: no cover - interface
        raise NotImplementedError

    def observe(self, state: S, player: int) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def action_to_string(self, state: S, action: int) -> str:  # pragma: no cover
        raise NotImplementedError

    def render(self, state: S) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def state_to_dict(self, state: S) -> dict[str, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def state_from_dict(self, data: dict[str, Any]) -> S:  # pragma: no cover - interface
        raise NotImplementedError

    def sample_hidden(self, state: S, player: int, rng: random.Random) -> S:  # pragma: no cover
        raise NotImplementedError
