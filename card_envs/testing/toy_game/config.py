"""Toy Nim configuration: every rule choice a named, documented field with its default."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from card_envs.core.config import check_bool, check_int
from card_envs.testing.toy_game.constants import MAX_PILE, MAX_SEATS


@dataclass(frozen=True)
class ToyNimConfig:
    """Attributes:
        num_players: seats, 2..4.
        pile: cards in the pile at the start, 1..40.
        max_rounds: decisions before the game ends truncated (>= 1).
        hidden_bonus: one card of the pile is the bonus card, at a hidden position.
    """

    num_players: int = 2
    pile: int = 10
    max_rounds: int = 100
    hidden_bonus: bool = True

    def __post_init__(self):
        check_int("num_players", self.num_players, 2, MAX_SEATS)
        check_int("pile", self.pile, 1, MAX_PILE)
        check_int("max_rounds", self.max_rounds, 1)
        check_bool("hidden_bonus", self.hidden_bonus)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
