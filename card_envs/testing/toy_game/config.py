"""Toy Nim configuration: every rule choice a named, documented field with its default and the
values it allows (checked by the core: :class:`~card_envs.core.config.GameConfig`)."""

from __future__ import annotations

from dataclasses import dataclass

from card_envs.core.config import GameConfig, setting
from card_envs.testing.toy_game.constants import MAX_PILE, MAX_SEATS


@dataclass(frozen=True)
class ToyNimConfig(GameConfig):
    """Attributes:
        num_players: seats, 2..4.
        pile: cards in the pile at the start, 1..40.
        max_rounds: decisions before the game ends truncated (>= 1).
        hidden_bonus: one card of the pile is the bonus card, at a hidden position.

    Raises:
        ConfigError: naming the field and value.
    """

    num_players: int = setting(2, between=(2, MAX_SEATS))
    pile: int = setting(10, between=(1, MAX_PILE))
    max_rounds: int = setting(100, at_least=1)
    hidden_bonus: bool = True
