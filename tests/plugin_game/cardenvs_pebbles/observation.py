"""The Pebbles observation: float32 ``(3,)``, ``[left / 20, my_turn, seat]``."""

from __future__ import annotations

import numpy as np

from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from cardenvs_pebbles.constants import MAX_PEBBLES, Phase

OBSERVATION = Layout([
    ("left", 1, "pebbles left / 20"),
    ("my_turn", 1, "1 if I am to take"),
    ("seat", 1, "my seat (0 or 1)"),
])


class PebblesEncoder(Encoder):
    """Seat ``player``'s view (everything is public)."""

    LAYOUT = OBSERVATION

    def bind(self) -> None:
        """The row length scale, read off the game (sound after unpickling too)."""
        self.scale = 1.0 / MAX_PEBBLES if self.game.config.pebbles else 0.0

    def encode(self, state, player: int) -> np.ndarray:
        at = self.at
        v = np.zeros(OBSERVATION.size, dtype=np.float32)
        v[at.left] = state.left * self.scale
        v[at.my_turn] = float(state.phase == Phase.TAKE and state.player == player)
        v[at.seat] = float(player)
        return v
