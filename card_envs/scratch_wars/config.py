"""Scratch Wars configuration: every **DECISION** of the rules (``docs/rules/scratch_wars.md``)
is a named, documented field of :class:`ScratchWarsConfig` with its default; the loadouts are
checked against a catalogue by :func:`check_loadout` (SW-2.1).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from card_envs.core.config import GameConfig, check_choice, setting
from card_envs.core.errors import ConfigError, LoadoutError
from card_envs.scratch_wars.cards import Catalogue
from card_envs.scratch_wars.constants import (
    ACTIONS_MAX,
    ENERGY_MAX,
    ROUNDS_MAX,
    WEAPON_SLOTS,
)


@dataclass(frozen=True)
class ScratchWarsConfig(GameConfig):
    """Scratch Wars duel configuration. Every **DECISION** of the rules is a field here.

    Attributes:
        level: 1 (basic: every result attacks the hero), 2 (times of day, hero bonuses) or
            3 (full duel with energy) (SW-3, SW-4, SW-5).
        effects: level 2 only: ``"full"`` (SW-5 effects; energy is an empty action) or
            ``"attack_only"`` (every effect attacks the hero). ``None`` = ``"full"`` at level 2;
            any value at level 1 or 3 is a ConfigError (SW-4.4 DECISION).
        loadouts: ``None`` = a random legal loadout per seat drawn from the game seed, or two
            ``{"hero": name, "weapons": [1..5 names]}`` (seat 0, seat 1) checked against SW-2.1
            (:class:`~card_envs.core.errors.LoadoutError` names the offence).
        random_weapons: number of weapons in a random loadout (1..5).
        catalogue_dir: directory with ``heroes.toml`` + ``weapons.toml`` (``None`` = the shipped
            designed catalogue, SW-1.3 DECISION).
        actions_per_turn: actions per turn (SW-3.1, 4).
        start_penalty: HP the starting player loses at once (SW-2.2, 2).
        initiative_ties: SW-2.2 DECISION ``"spin_again"`` (default; both choose and spin again)
            or ``"seat0_decides"``.
        negative_bonus: SW-4.2 DECISION ``"first_match"`` (a negative bonus is forced on the first
            matching applied effect of the turn, then used) or ``"ignore"``.
        attack_only_icon_bonus: SW-4.3 DECISION: in ``attack_only`` mode a bonus whose icon
            matches the spun icon adds to the attack (True).
        level2_repair: SW-4.3 DECISION ``"action_only"``: at level 2 a repair costs 1 action.
        sudden_death_round: SW-4.4: 1-based round from whose start both heroes lose
            ``sudden_death_damage`` HP each round (9 = morning of day 3), levels 2–3.
        sudden_death_damage: SW-4.4 (5).
        max_rounds: SW-4.4 DECISION: the game is truncated (a draw, returns 0) after this many
            rounds (60; the level-1 end and a safety net at levels 2–3).
        energy_cap: SW-5.1 (12).
        untrained_surcharge: SW-5.2 extra energy for a weapon type the hero is not trained in (1).
        effect_target_only: SW-5.6 DECISION: a weapon holding a stored effect can be attacked
            only through its effect (True).
        shield_before_durability: SW-5.6 DECISION: the shield reduces a weapon/effect attack
            before the comparison with durability (True); False: shields only protect the hero.
        permanent_fires_when_stored: SW-5.11 DECISION: a permanent attack also fires at the end
            of the turn it was stored in (True).
        shield_block_floor: SW-5.12 DECISION: each used shield blocks ``max(0, value + bonus)``
            (True, since ``scratch_wars_v1``): a negative shield bonus of the defender's hero can
            weaken a shield to 0 but never turn it into extra damage. False: the shield blocks
            ``value + bonus`` unclamped, so a negative bonus larger than the shield adds to the
            attack (the ``scratch_wars_v0`` behaviour).
        detonation: SW-5.13 DECISION ``"all"``: a detonation uses every stored combo.
        end_of_turn_order: SW-5.14 DECISION ``"permanent_then_combo"`` or
            ``"combo_then_permanent"``.
        no_target: SW-5.15 DECISION ``"cannot_apply"``: an effect without a legal target cannot
            be applied (decline only; a red field ends the turn without effect).

    Raises:
        ConfigError: naming the field and value.
    """

    level: int = setting(3, between=(1, 3))
    effects: str | None = None
    loadouts: Any = None
    random_weapons: int = setting(5, between=(1, WEAPON_SLOTS))
    catalogue_dir: str | None = None
    actions_per_turn: int = setting(4, between=(1, ACTIONS_MAX))
    start_penalty: int = setting(2, between=(0, 10))
    initiative_ties: str = setting("spin_again", one_of=("spin_again", "seat0_decides"))
    negative_bonus: str = setting("first_match", one_of=("first_match", "ignore"))
    attack_only_icon_bonus: bool = True
    level2_repair: str = setting("action_only", one_of=("action_only",))
    sudden_death_round: int = setting(9, at_least=1)
    sudden_death_damage: int = setting(5, between=(0, 40))
    max_rounds: int = setting(60, between=(1, ROUNDS_MAX))
    energy_cap: int = setting(12, between=(1, ENERGY_MAX))
    untrained_surcharge: int = setting(1, between=(0, 5))
    effect_target_only: bool = True
    shield_before_durability: bool = True
    permanent_fires_when_stored: bool = True
    shield_block_floor: bool = True
    detonation: str = setting("all", one_of=("all",))
    end_of_turn_order: str = setting("permanent_then_combo",
                                     one_of=("permanent_then_combo", "combo_then_permanent"))
    no_target: str = setting("cannot_apply", one_of=("cannot_apply",))

    def __post_init__(self) -> None:
        super().__post_init__()  # every field's declared values (GameConfig)
        if self.level == 2:
            if self.effects is not None:
                check_choice("effects", self.effects, ["full", "attack_only"])
        elif self.effects is not None:
            raise ConfigError(
                f"config field 'effects': {self.effects!r} is only allowed at level 2 "
                f"(level is {self.level})"
            )
        if self.catalogue_dir is not None and not isinstance(self.catalogue_dir, str):
            raise ConfigError(f"config field 'catalogue_dir': expected a path string, got "
                              f"{self.catalogue_dir!r}")
        object.__setattr__(self, "loadouts", _normalise_loadouts(self.loadouts))

    @property
    def mode(self) -> str:
        """``"basic"`` (level 1), ``"attack_only"`` or ``"full"``."""
        if self.level == 1:
            return "basic"
        if self.level == 2 and self.effects == "attack_only":
            return "attack_only"
        return "full"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if self.loadouts is not None:
            d["loadouts"] = [{"hero": h, "weapons": list(ws)} for h, ws in self.loadouts]
        return d


def _normalise_loadouts(value: Any):
    """``None`` or a tuple of two ``(hero, (weapon, ...))``; ConfigError on a wrong shape."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ConfigError(
            f"config field 'loadouts': expected a list of 2 loadouts (seat 0, seat 1), got {value!r}"
        )
    out = []
    for seat, lo in enumerate(value):
        if isinstance(lo, dict):
            extra = set(lo) - {"hero", "weapons"}
            if extra or "hero" not in lo or "weapons" not in lo:
                raise ConfigError(
                    f"config field 'loadouts'[{seat}]: expected keys 'hero' and 'weapons', got "
                    f"{sorted(lo)}"
                )
            hero, weapons = lo["hero"], lo["weapons"]
        elif isinstance(lo, (list, tuple)) and len(lo) == 2:
            hero, weapons = lo
        else:
            raise ConfigError(f"config field 'loadouts'[{seat}]: not a loadout: {lo!r}")
        if not isinstance(hero, str) or not isinstance(weapons, (list, tuple)) or not all(
            isinstance(w, str) for w in weapons
        ):
            raise ConfigError(
                f"config field 'loadouts'[{seat}]: hero must be a name and weapons a list of "
                f"names, got {lo!r}"
            )
        out.append((hero, tuple(weapons)))
    return tuple(out)


def check_loadout(catalogue: Catalogue, level: int, hero: str, weapons, seat: int = 0) -> None:
    """SW-2.1: a known hero and 1–5 known weapons, each kind at most once from level 2 on.

    Raises:
        LoadoutError: naming the seat and the offending hero/weapon/count.
    """
    if hero not in catalogue.heroes:
        raise LoadoutError(f"seat {seat}: unknown hero {hero!r}")
    if not 1 <= len(weapons) <= WEAPON_SLOTS:
        raise LoadoutError(
            f"seat {seat}: a hero equips 1–{WEAPON_SLOTS} weapons (SW-2.1), got {len(weapons)}: "
            f"{list(weapons)}"
        )
    seen = set()
    for w in weapons:
        if w not in catalogue.weapons:
            raise LoadoutError(f"seat {seat}: unknown weapon {w!r}")
        if level >= 2 and w in seen:
            raise LoadoutError(
                f"seat {seat}: weapon kind {w!r} equipped twice; from level 2 each kind at most "
                f"once (SW-2.1)"
            )
        seen.add(w)
