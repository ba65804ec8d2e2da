"""Dirt and Glory configuration: every DECISION of the rules (``docs/rules/dirt_and_glory.md``,
rule ids ``DG-…``) is a named field with its default; a wrong value is a
:class:`~card_envs.core.errors.ConfigError` naming the field.

Checks that need the card content (``num_rounds`` against the content's territories, the unit
deck against the draft) are made when the game is built (:class:`.rules.DirtAndGloryGame`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from card_envs.core.config import check_bool, check_choice, check_int


@dataclass(frozen=True)
class DirtAndGloryConfig:
    """Configuration of a Dirt and Glory game; every DECISION of the rules is a field.

    Attributes:
        num_players: 2–5 seats.
        reward: DG-4.2 ``"win"`` (default; W_i = 1/k for each of k winners,
            reward_i = (W_i − 1/n)·n/(n−1)) or ``"score"`` (own final score minus the mean of
            the others').
        content: DG-1.4 path of a content TOML file; ``None`` = shipped designed content.
        num_rounds: DG-2.3/DG-4.1 rounds (= territories drawn), default 6.
        starting_fuel: DG-2.1 fuel tokens each player starts with (1).
        draft_return: DG-2.1 DECISION where the draft card not kept goes: ``"bottom"`` of the
            unit deck (default) or ``"discard"`` (out of the game).
        territory_selection: DG-2.3 DECISION ``"random"`` (default: six at random, random order,
            by seed) or ``"first"`` (the first ``num_rounds`` of the file, in file order).
        first_card_value: DG-3.1 DECISION for a two-value first caravan card: ``"choose"``
            (default: the player chooses), ``"low"`` or ``"high"``.
        first_card_ability: DG-3.1 DECISION whether the first caravan card's ability may be
            resolved (default ``False``: it was placed, not played).
        first_player: DG-3.2 DECISION ``"rotate"`` (default: round r starts with seat r mod n)
            or ``"fixed"`` (seat 0 always).
        fuel_cost: DG-3.3 DECISION tokens one fuel use costs (1).
        fuel_uses_per_turn: DG-3.3 DECISION fuel uses allowed per turn in total (1).
        bust_fuel_rescue: DG-3.3 DECISION a player who just exceeded the target may spend fuel
            to move that card to the reserve and stay in (default ``True``).
        empty_deck: DG-3.4 DECISION with an empty deck: ``"reserve_or_pass"`` (default: play
            from the reserve with fuel, or pass) or ``"forced_pass"``.
        ties: DG-3.5 DECISION ``"share_skip"`` (default: tied players share the better place,
            each gets its reward, the next place is skipped) or ``"share_dense"`` (no skip).
        consolation_fuel: DG-3.5 fuel for 4th/5th place and for exceeding the target (2).
        caravan_return: DG-3.6 DECISION caravan cards go back to the owner's ``"deck"``
            (default) or ``"reserve"``.
        reserve_mix: DG-3.6 DECISION ``"choose"`` (default: card by card, the player picks the
            reserve cards to mix into the deck), ``"all"`` or ``"none"``.
        fuel_per_point: DG-4.1 unused fuel tokens per end-game point (2).
        tie_break: DG-4.1 DECISION ``"fuel"`` (default: most fuel left wins a tie, then shared)
            or ``"none"`` (ties shared).
    """

    num_players: int = 2
    reward: str = "win"
    content: str | None = None
    num_rounds: int = 6
    starting_fuel: int = 1
    draft_return: str = "bottom"
    territory_selection: str = "random"
    first_card_value: str = "choose"
    first_card_ability: bool = False
    first_player: str = "rotate"
    fuel_cost: int = 1
    fuel_uses_per_turn: int = 1
    bust_fuel_rescue: bool = True
    empty_deck: str = "reserve_or_pass"
    ties: str = "share_skip"
    consolation_fuel: int = 2
    caravan_return: str = "deck"
    reserve_mix: str = "choose"
    fuel_per_point: int = 2
    tie_break: str = "fuel"

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 5)
        check_choice("reward", self.reward, ["win", "score"])
        if self.content is not None and not isinstance(self.content, str):
            object.__setattr__(self, "content", str(self.content))
        check_int("num_rounds", self.num_rounds, 1, 20)
        check_int("starting_fuel", self.starting_fuel, 0, 20)
        check_choice("draft_return", self.draft_return, ["bottom", "discard"])
        check_choice("territory_selection", self.territory_selection, ["random", "first"])
        check_choice("first_card_value", self.first_card_value, ["choose", "low", "high"])
        check_bool("first_card_ability", self.first_card_ability)
        check_choice("first_player", self.first_player, ["rotate", "fixed"])
        check_int("fuel_cost", self.fuel_cost, 1, 5)
        check_int("fuel_uses_per_turn", self.fuel_uses_per_turn, 0, 3)
        check_bool("bust_fuel_rescue", self.bust_fuel_rescue)
        check_choice("empty_deck", self.empty_deck, ["reserve_or_pass", "forced_pass"])
        check_choice("ties", self.ties, ["share_skip", "share_dense"])
        check_int("consolation_fuel", self.consolation_fuel, 0, 10)
        check_choice("caravan_return", self.caravan_return, ["deck", "reserve"])
        check_choice("reserve_mix", self.reserve_mix, ["choose", "all", "none"])
        check_int("fuel_per_point", self.fuel_per_point, 1, 10)
        check_choice("tie_break", self.tie_break, ["fuel", "none"])

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
