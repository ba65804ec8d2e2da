"""Leduc Hold'em configuration: every rule choice a named, documented field with its default
(the defaults are the standard game, OpenSpiel's ``leduc_poker`` and PettingZoo's
``leduc_holdem_v4``)."""

from __future__ import annotations

from dataclasses import dataclass

from card_envs.core.config import GameConfig, setting
from card_envs.leduc_holdem.constants import MAX_ANTE, MAX_BET, MAX_RAISES


@dataclass(frozen=True)
class LeducHoldemConfig(GameConfig):
    """Attributes:
        ante: chips each seat puts into the pot before the deal (LH-2.2), 1..10.
        first_raise: the raise size of round 1 (LH-3.4), 1..20.
        second_raise: the raise size of round 2 (LH-3.4), 1..20.
        max_raises: the most raises in one betting round (LH-3.3), 1..3.
    """

    ante: int = setting(1, between=(1, MAX_ANTE))
    first_raise: int = setting(2, between=(1, MAX_BET))
    second_raise: int = setting(4, between=(1, MAX_BET))
    max_raises: int = setting(2, between=(1, MAX_RAISES))

    @property
    def raise_sizes(self) -> tuple[int, int]:
        """The raise size of round 1 and of round 2 (LH-3.4)."""
        return self.first_raise, self.second_raise

    @property
    def max_chips(self) -> int:
        """The most chips one seat can put in: the ante and ``max_raises`` raises in each round
        (13 in the standard game: the utility range is [-13, 13], LH-5.3)."""
        return self.ante + self.max_raises * (self.first_raise + self.second_raise)
