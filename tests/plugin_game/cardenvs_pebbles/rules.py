"""Pebbles rules on the card-envs core contract (:class:`card_envs.core.game.GameBase`)."""

from __future__ import annotations

import random
from typing import Any

from card_envs.core.config import config_from_kwargs
from card_envs.core.game import GameBase
from cardenvs_pebbles import state as state_module
from cardenvs_pebbles.config import PebblesConfig
from cardenvs_pebbles.constants import A_TAKE, ACTIONS, MAX_TAKE, PHASES, Phase
from cardenvs_pebbles.observation import PebblesEncoder
from cardenvs_pebbles.state import PebblesState
from cardenvs_pebbles.view import PebblesView


class PebblesGame(GameBase[PebblesState]):
    """The Pebbles ``Game`` (rules PB-1..PB-4: the package docstring)."""

    name = "pebbles"
    version = 0
    num_players = 2
    state_class = PebblesState
    state_checks = state_module.check_state
    encoder_class = PebblesEncoder
    view_class = PebblesView
    action_layout = ACTIONS
    phases = PHASES
    over_phase = Phase.OVER
    # -- declared facts --
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"
    zero_sum = True
    chance = False
    perfect_information = True

    def __init__(self, config: PebblesConfig):
        self.config = config
        self.max_game_length = config.pebbles  # a turn takes at least one pebble

    def new_state(self, seed: int) -> PebblesState:
        return PebblesState(rng=random.Random(seed), phase=int(Phase.TAKE), player=0,
                            left=self.config.pebbles, decisions=0, loser=-1)

    def _legal_actions(self, state: PebblesState) -> list[int]:
        if state.phase == Phase.OVER:
            return []
        return [A_TAKE + k for k in range(min(MAX_TAKE, state.left))]  # PB-3

    def _apply_action(self, state: PebblesState, action: int) -> None:
        state.left -= action - A_TAKE + 1
        state.decisions += 1
        if state.left == 0:  # PB-4: the taker of the last pebble loses
            state.loser = state.player
            state.phase = int(Phase.OVER)
        else:
            state.player = 1 - state.player  # PB-2

    def is_truncated(self, state: PebblesState) -> bool:
        return False

    def returns(self, state: PebblesState) -> list[float]:
        if state.loser < 0:
            return [0.0, 0.0]
        return [-1.0 if p == state.loser else 1.0 for p in range(2)]

    def _resample_hidden(self, state: PebblesState, player: int, rng: random.Random) -> None:
        """Nothing is hidden: nothing to redraw."""


def make_game(**config: Any) -> PebblesGame:
    """Build Pebbles from :class:`PebblesConfig` fields (ConfigError naming a bad one)."""
    return PebblesGame(config_from_kwargs(PebblesConfig, config))
