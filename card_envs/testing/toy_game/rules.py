"""Toy Nim rules on the core contract (:class:`card_envs.core.game.GameBase`): the game writes
its transitions; the core checks every action, caches the legal actions, copies, saves, loads,
names actions from :data:`~card_envs.testing.toy_game.constants.ACTIONS` and observes through
the encoder."""

from __future__ import annotations

import random
from typing import Any

from card_envs.core.config import config_from_kwargs
from card_envs.core.game import GameBase
from card_envs.testing.toy_game.cards import load_cards
from card_envs.testing.toy_game.config import ToyNimConfig
from card_envs.testing.toy_game.constants import A_TAKE, MAX_TAKE, Phase
from card_envs.testing.toy_game.state import ToyNimState


class ToyNimGame(GameBase[ToyNimState]):
    """The Toy Nim ``Game`` (rules: the package docstring). ``GameBase[ToyNimState]`` names
    its state class; the core wires the rest from this folder by convention
    (:mod:`card_envs.core.wiring`: ``check_state``, ``ToyNimEncoder``, ``ToyNimView``,
    ``ACTIONS``, ``PHASES`` with the game-over phase last)."""

    name = "toy_nim"
    version = 0
    # -- declared facts (card_envs.core.game.GameFacts) --
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"  # +1 the winner, -1/(n-1) others
    zero_sum = True
    chance = True  # the bonus card's position (no chance without hidden_bonus: __init__)

    def __init__(self, config: ToyNimConfig):
        self.config = config
        self.num_players = config.num_players
        self.max_game_length = config.max_rounds
        self.chance = config.hidden_bonus
        self.cards = load_cards()

    def new_state(self, seed: int) -> ToyNimState:
        rng = random.Random(seed)
        bonus = rng.randint(1, self.config.pile) if self.config.hidden_bonus else -1
        # a state holds plain values: int(Phase.TAKE), not the enum member (check_game)
        return ToyNimState(rng=rng, phase=int(Phase.TAKE), pile=self.config.pile, player=0,
                           decisions=0, bonus_at=bonus, bonus_owner=-1, winner=-1,
                           taken=[0] * self.num_players)

    def _legal_actions(self, state: ToyNimState) -> list[int]:
        if state.phase == Phase.OVER:
            return []
        return [A_TAKE + k for k in range(min(MAX_TAKE, state.pile))]

    def _apply_action(self, state: ToyNimState, action: int) -> None:
        take = action - A_TAKE + 1
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
        if state.winner >= 0 or state.decisions >= self.config.max_rounds:
            state.phase = int(Phase.OVER)

    def is_truncated(self, state: ToyNimState) -> bool:
        return state.phase == Phase.OVER and state.winner < 0

    def returns(self, state: ToyNimState) -> list[float]:
        n = self.num_players
        if state.winner < 0:
            return [0.0] * n
        return [1.0 if p == state.winner else -1.0 / (n - 1) for p in range(n)]

    def _resample_hidden(self, s: ToyNimState, player: int, rng: random.Random) -> None:
        """The bonus card's hidden position redrawn from ``rng``: what ``player`` could not have
        seen (the core reseeds the chance RNG)."""
        if s.bonus_owner < 0 and s.bonus_at > 0 and s.pile > 0:
            s.bonus_at = rng.randint(1, s.pile)


def make_game(**config: Any) -> ToyNimGame:
    """Build Toy Nim from :class:`ToyNimConfig` fields (ConfigError naming a bad one)."""
    return ToyNimGame(config_from_kwargs(ToyNimConfig, config))
