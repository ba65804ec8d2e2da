"""Pebbles configuration."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from card_envs.core.config import check_int
from cardenvs_pebbles.constants import MAX_PEBBLES


@dataclass(frozen=True)
class PebblesConfig:
    """Attributes:
        pebbles: pebbles in the row at the start, 2..20 (PB-1).
    """

    pebbles: int = 7

    def __post_init__(self):
        check_int("pebbles", self.pebbles, 2, MAX_PEBBLES)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
