"""Leduc Hold'em configuration: every rule choice a named, documented field with its default
(the defaults are the standard game, OpenSpiel's ``leduc_poker`` and PettingZoo's
``leduc_holdem_v4``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from card_envs.core.config import check_int
from card_envs.leduc_holdem.constants import MAX_ANTE, MAX_BET, MAX_RAISES


@dataclass(frozen=True)
class LeducHoldemConfig:
    """Attributes:
        ante: chips each seat puts into the pot before the deal (LH-2.2), 1..10.
        first_raise: the raise size of round 1 (LH-3.4), 1..20.
        second_raise: the raise size of round 2 (LH-3.4), 1..20.
        max_raises: the most raises in one betting round (LH-3.3), 1..3.
    """

    ante: int = 1
    first_raise: int = 2
    second_raise: int = 4
    max_raises: int = 2

    def __post_init__(self):
        check_int("ante", self.ante, 1, MAX_ANTE)
        check_int("first_raise", self.first_raise, 1, MAX_BET)
        check_int("second_raise", self.second_raise, 1, MAX_BET)
        check_int("max_raises", self.max_raises, 1, MAX_RAISES)

    @property
    def raise_sizes(self) -> tuple[int, int]:
        """The raise size of round 1 and of round 2 (LH-3.4)."""
        return self.first_raise, self.second_raise

    @property
    def max_chips(self) -> int:
        """The most chips one seat can put in: the ante and ``max_raises`` raises in each round
        (13 in the standard game: the utility range is [-13, 13], LH-5.3)."""
        return self.ante + self.max_raises * (self.first_raise + self.second_raise)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
