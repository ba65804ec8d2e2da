"""Dirt and Glory configuration: every DECISION of the rules (``docs/rules/dirt_and_glory.md``,
rule ids ``DG-…``) is a named field with its default; a wrong value is a
:class:`~card_envs.core.errors.ConfigError` naming the field.

Checks that need the card content (``num_rounds`` against the content's territories, the unit
deck against the draft) are made when the game is built (:class:`.rules.DirtAndGloryGame`).
"""

from __future__ import annotations

from dataclasses import dataclass

from card_envs.core.config import GameConfig, setting


@dataclass(frozen=True)
class DirtAndGloryConfig(GameConfig):
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

    num_players: int = setting(2, between=(2, 5))
    reward: str = setting("win", one_of=("win", "score"))
    content: str | None = None
    num_rounds: int = setting(6, between=(1, 20))
    starting_fuel: int = setting(1, between=(0, 20))
    draft_return: str = setting("bottom", one_of=("bottom", "discard"))
    territory_selection: str = setting("random", one_of=("random", "first"))
    first_card_value: str = setting("choose", one_of=("choose", "low", "high"))
    first_card_ability: bool = False
    first_player: str = setting("rotate", one_of=("rotate", "fixed"))
    fuel_cost: int = setting(1, between=(1, 5))
    fuel_uses_per_turn: int = setting(1, between=(0, 3))
    bust_fuel_rescue: bool = True
    empty_deck: str = setting("reserve_or_pass", one_of=("reserve_or_pass", "forced_pass"))
    ties: str = setting("share_skip", one_of=("share_skip", "share_dense"))
    consolation_fuel: int = setting(2, between=(0, 10))
    caravan_return: str = setting("deck", one_of=("deck", "reserve"))
    reserve_mix: str = setting("choose", one_of=("choose", "all", "none"))
    fuel_per_point: int = setting(2, between=(1, 10))
    tie_break: str = setting("fuel", one_of=("fuel", "none"))

    def __post_init__(self) -> None:
        super().__post_init__()  # every field's declared values (GameConfig)
        if self.content is not None and not isinstance(self.content, str):
            object.__setattr__(self, "content", str(self.content))

