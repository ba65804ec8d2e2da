"""Toy Nim observation encoder (the core :class:`~card_envs.core.observation.Encoder`): six
floats in [0, 1] from one seat's view; the bonus card's position is never encoded."""

from __future__ import annotations

import numpy as np

from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.testing.toy_game.constants import MAX_PILE, MAX_SEATS, Phase

OBSERVATION = Layout([
    ("pile", 1, "cards left / 40"),
    ("my_turn", 1, "1 if I am to take"),
    ("seat", 1, "my seat / 3"),
    ("seats", 1, "number of seats / 4"),
    ("decisions", 1, "decisions made / max_rounds"),
    ("bonus_mine", 1, "1 if I took the bonus card"),
])


class ToyEncoder(Encoder):
    """Seat ``player``'s view: float32 ``(6,)`` (layout :data:`OBSERVATION`)."""

    LAYOUT = OBSERVATION

    def encode(self, state, player: int) -> np.ndarray:
        game = self.game
        return np.array([
            state.pile / MAX_PILE,
            1.0 if (state.player == player and state.phase == Phase.TAKE) else 0.0,
            player / (MAX_SEATS - 1),
            game.num_players / MAX_SEATS,
            min(1.0, state.decisions / game.config.max_rounds),
            1.0 if state.bonus_owner == player else 0.0,
        ], dtype=np.float32)
