"""Toy Nim observation encoder (the core :class:`~card_envs.core.observation.Encoder`): six
floats in [0, 1] from one seat's view; the bonus card's position is never encoded. Its per-entity
view (:data:`ENTITIES`, :mod:`card_envs.core.entities`) is declared here too: the pile's top
cards and the seats as rows, the take actions pointing at the cards they take."""

from __future__ import annotations

import numpy as np

from card_envs.core.entities import EntityLayout, Target, Zone
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.testing.toy_game.constants import ACTIONS, MAX_PILE, MAX_SEATS, MAX_TAKE, Phase

OBSERVATION = Layout([
    ("pile", 1, "cards left / 40"),
    ("my_turn", 1, "1 if I am to take"),
    ("seat", 1, "my seat / 3"),
    ("seats", 1, "number of seats / 4"),
    ("decisions", 1, "decisions made / max_rounds"),
    ("bonus_mine", 1, "1 if I took the bonus card"),
])

#: the per-entity view: zones of rows, globals from the flat pieces, the action targets
ENTITIES = EntityLayout(OBSERVATION, ACTIONS, zones=[
    Zone("top_cards", MAX_TAKE, ("a card",), "the top 3 cards of the pile (which one is the "
         "bonus card is not shown)"),
    Zone("seats", MAX_SEATS, ("seat exists", "me", "to take"), "seats 0–3"),
], globals=("pile", "decisions", "bonus_mine"), targets=[Target("take", "top_cards")])


class ToyNimEncoder(Encoder):
    """Seat ``player``'s view: float32 ``(6,)`` (layout :data:`OBSERVATION`)."""

    LAYOUT = OBSERVATION
    ENTITIES = ENTITIES

    def fill_entities(self, state, player: int, flat: np.ndarray, out: dict) -> None:
        out["top_cards"][:min(MAX_TAKE, state.pile), 0] = 1.0
        seats = out["seats"]
        seats[:self.game.num_players, 0] = 1.0
        seats[player, 1] = 1.0
        if state.phase == Phase.TAKE:
            seats[state.player, 2] = 1.0

    def encode(self, state, player: int) -> np.ndarray:
        game, at = self.game, self.at
        v = [0.0] * OBSERVATION.size
        v[at.pile] = state.pile / MAX_PILE
        if state.player == player and state.phase == Phase.TAKE:
            v[at.my_turn] = 1.0
        v[at.seat] = player / (MAX_SEATS - 1)
        v[at.seats] = game.num_players / MAX_SEATS
        v[at.decisions] = min(1.0, state.decisions / game.config.max_rounds)
        if state.bonus_owner == player:
            v[at.bonus_mine] = 1.0
        return np.array(v, dtype=np.float32)
