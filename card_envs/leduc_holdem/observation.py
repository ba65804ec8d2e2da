"""Leduc Hold'em observation encoder (the core :class:`~card_envs.core.observation.Encoder`):
seat ``player``'s view as float32 ``(45,)`` in [0, 1]: its own card's rank, the public card's
rank once it is turned (LH-2.4), the opponent's rank only after a showdown (LH-4.1), the chips
in the pot and the whole betting history (so the view has perfect recall, as OpenSpiel's
information state). Its per-entity view (:data:`ENTITIES`) is declared here too: the three cards
as rows."""

from __future__ import annotations

import numpy as np

from card_envs.core.entities import EntityLayout, Zone
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.leduc_holdem.constants import (
    ACTIONS,
    NO_ACTION,
    NUM_RANKS,
    NUM_SUITS,
    SLOTS,
    Phase,
)
from card_envs.leduc_holdem.state import LeducHoldemState, is_showdown, public_shown

OBSERVATION = Layout([
    ("my_card", NUM_RANKS, "my card's rank, one-hot (jack, queen, king)"),
    ("public_card", NUM_RANKS, "the public card's rank, one-hot (all 0 in round 1)"),
    ("opponent_card", NUM_RANKS, "the opponent's rank, one-hot (all 0 unless the game ended "
                                 "in a showdown)"),
    ("seat", 1, "my seat (0 or 1)"),
    ("my_turn", 1, "1 if I am to act"),
    ("round", 2, "the betting round, one-hot (all 0 once over)"),
    ("chips", 2, "chips in the pot: mine, the opponent's, each / the config's max_chips"),
    ("history", 2 * SLOTS * ACTIONS.size, f"per round, {SLOTS} slots of the actions taken in "
                                          "order, one-hot (fold, call, raise); 0 if empty"),
])

#: the per-entity view: the three cards as rows, the rest as globals (no action names a card)
ENTITIES = EntityLayout(OBSERVATION, ACTIONS, zones=[
    Zone("cards", 3, ("shown", "jack", "queen", "king"), "row 0 my card, row 1 the public card "
         "(once turned), row 2 the opponent's card (after a showdown)"),
], globals=("seat", "my_turn", "round", "chips", "history"))


class LeducHoldemEncoder(Encoder):
    """Seat ``player``'s view: float32 ``(45,)`` (layout :data:`OBSERVATION`)."""

    LAYOUT = OBSERVATION
    ENTITIES = ENTITIES

    def encode(self, state: LeducHoldemState, player: int) -> np.ndarray:
        at = self.at
        game = self.game
        buf = np.zeros(OBSERVATION.size, dtype=np.float32)
        buf[at.my_card + state.hands[player] // NUM_SUITS] = 1.0
        if public_shown(state):
            buf[at.public_card + state.public // NUM_SUITS] = 1.0
        if is_showdown(state):
            buf[at.opponent_card + state.hands[1 - player] // NUM_SUITS] = 1.0
        buf[at.seat] = player
        if state.phase != Phase.OVER:
            buf[at.my_turn] = state.player == player
            buf[at.round + state.phase] = 1.0
        top = game.config.max_chips
        buf[at.chips] = state.pot[player] / top
        buf[at.chips + 1] = state.pot[1 - player] / top
        h = at.history
        for r, row in enumerate(state.history):
            for i, a in enumerate(row):
                if a == NO_ACTION:
                    break
                buf[h + (r * SLOTS + i) * ACTIONS.size + a] = 1.0
        return buf

    def fill_entities(self, state: LeducHoldemState, player: int, flat: np.ndarray,
                      out: dict) -> None:
        at = self.at
        rows = out["cards"]
        for row, piece in enumerate((at.my_card, at.public_card, at.opponent_card)):
            ranks = flat[piece:piece + NUM_RANKS]
            if ranks.any():
                rows[row, 0] = 1.0
                rows[row, 1:] = ranks
