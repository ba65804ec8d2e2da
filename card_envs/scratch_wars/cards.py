"""Scratch Wars card data: heroes and weapons as TOML, validated with pydantic (SW-1.1 … SW-1.4),
and the compiled cards the rules read (:class:`WeaponCard`, :class:`HeroCard`).

Files: ``data/heroes.toml`` (``[[hero]]`` tables) and ``data/weapons.toml`` (``[[weapon]]``
tables); every entry carries ``origin = "designed"`` or ``"published"`` (SW-1.3). A malformed
entry raises :class:`~card_envs.core.errors.CardDataError` naming the file, the entry and the
field (via :mod:`card_envs.core.cards`).

Hero entry::

    [[hero]]
    name = "Published Knight"       # unique
    origin = "published"
    hp = 24                         # duel HP, 1..40
    trained = ["sword", "axe"]      # 1..4 distinct weapon types
    [hero.morning]                  # also noon, evening, night
    energy = 3                      # 0..6
    bonuses = [{effect = "hero_attack", value = 2}]   # 0..2 bonuses, value -5..9

Weapon entry::

    [[weapon]]
    name = "Longbow"
    origin = "published"
    type = "bow"                    # bow | axe | sword | wand
    cost = 1                        # energy per spin, 1..3
    durability = 3                  # 1..9
    segments = [                    # exactly 9
      {effect = "energy", value = 2, colour = "green"},
      {effect = "permanent", value = 2, colour = "green", durability = 1},  # stored effect's own
    ]

Effects (segment icons): ``energy, hero_attack, weapon_attack, universal, heal, permanent,
shield, combo``; bonus effects additionally ``blessing, combo_bonus, detonator`` (SW-6).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal, NamedTuple

import pydantic
from pydantic import Field

from card_envs.core.cards import StrictModel, check_unique, load_tables
from card_envs.core.errors import CardDataError
from card_envs.scratch_wars.constants import (
    BONUS_EFFECTS,
    BONUS_MAX,
    BONUS_MIN,
    BONUS_SLOTS,
    COLOURS,
    COST_MAX,
    DURABILITY_MAX,
    EFFECTS,
    HP_MAX,
    SEGMENT_VALUE_MAX,
    SEGMENTS,
    STORABLE,
    TIME_ENERGY_MAX,
    WEAPON_TYPES,
)

DATA_DIR = Path(__file__).parent / "data"

# the validated names are the constants' tuples (one source, no drifting copy)
EffectName = Literal[EFFECTS]  # type: ignore[valid-type]
BonusName = Literal[BONUS_EFFECTS]  # type: ignore[valid-type]
WeaponType = Literal[WEAPON_TYPES]  # type: ignore[valid-type]
Origin = Literal["designed", "published"]


class Segment(StrictModel):
    """One of a wheel's 9 segments (SW-1.2): effect icon, value, field colour, and for stored
    effects an optional own durability (default: the weapon's, SW-1.3)."""

    effect: EffectName
    value: int = Field(ge=0, le=SEGMENT_VALUE_MAX)
    colour: Literal[COLOURS]  # type: ignore[valid-type]
    durability: int | None = Field(default=None, ge=1, le=DURABILITY_MAX)


class Weapon(StrictModel):
    """A weapon (SW-1.2). ``name`` is its kind (one kind = one name)."""

    name: str = Field(min_length=1)
    origin: Origin
    type: WeaponType
    cost: int = Field(ge=1, le=COST_MAX)
    durability: int = Field(ge=1, le=DURABILITY_MAX)
    segments: list[Segment] = Field(min_length=SEGMENTS, max_length=SEGMENTS)


class Bonus(StrictModel):
    """A hero bonus (SW-1.1, SW-4.2, SW-6): effect icon or special bonus, signed value."""

    effect: BonusName
    value: int = Field(ge=BONUS_MIN, le=BONUS_MAX)


class TimeOfDay(StrictModel):
    """One time-of-day column of a hero card: energy (SW-5.1) and up to two bonuses."""

    energy: int = Field(ge=0, le=TIME_ENERGY_MAX)
    bonuses: list[Bonus] = Field(default_factory=list, max_length=BONUS_SLOTS)


class Hero(StrictModel):
    """A hero card (SW-1.1)."""

    name: str = Field(min_length=1)
    origin: Origin
    hp: int = Field(ge=1, le=HP_MAX)
    trained: list[WeaponType] = Field(min_length=1, max_length=len(WEAPON_TYPES))
    morning: TimeOfDay
    noon: TimeOfDay
    evening: TimeOfDay
    night: TimeOfDay

    @pydantic.field_validator("trained")
    @classmethod
    def _distinct(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"weapon types must be distinct, got {v}")
        return v

    def times(self) -> tuple[TimeOfDay, TimeOfDay, TimeOfDay, TimeOfDay]:
        return (self.morning, self.noon, self.evening, self.night)


class SegmentCard(NamedTuple):
    """A wheel segment as the rules read it: ids of :mod:`constants`, and the durability an
    effect stored from it gets (its own, else the weapon's; SW-1.3)."""

    effect: int
    value: int
    colour: int
    durability: int


class WeaponCard(NamedTuple):
    """A weapon as the rules read it (SW-1.2). ``values``: the values on its wheel (SW-2.2
    initiative); ``storable``: the ``(effect, value, durability)`` it can store (SW-5.10)."""

    name: str
    type: int
    cost: int
    durability: int
    segments: tuple[SegmentCard, ...]
    values: frozenset[int]
    storable: frozenset[tuple[int, int, int]]


class BonusCard(NamedTuple):
    """A hero bonus: an effect id (:class:`~card_envs.scratch_wars.constants.Effect`, special
    bonuses included) and its signed value."""

    effect: int
    value: int


class HeroCard(NamedTuple):
    """A hero card as the rules read it (SW-1.1): printed HP, trained weapon-type ids, and per
    time of day (index 0..3) its energy and its bonuses."""

    name: str
    hp: int
    trained: frozenset[int]
    energy: tuple[int, ...]
    bonuses: tuple[tuple[BonusCard, ...], ...]


def weapon_card(w: Weapon) -> WeaponCard:
    """The compiled :class:`WeaponCard` of a validated weapon entry."""
    segments = tuple(
        SegmentCard(EFFECTS.index(s.effect), s.value, COLOURS.index(s.colour),
                    s.durability if s.durability is not None else w.durability)
        for s in w.segments)
    return WeaponCard(
        name=w.name, type=WEAPON_TYPES.index(w.type), cost=w.cost, durability=w.durability,
        segments=segments, values=frozenset(s.value for s in segments),
        storable=frozenset((s.effect, s.value, s.durability) for s in segments
                           if s.effect in STORABLE))


def hero_card(h: Hero) -> HeroCard:
    """The compiled :class:`HeroCard` of a validated hero entry."""
    return HeroCard(
        name=h.name, hp=h.hp, trained=frozenset(WEAPON_TYPES.index(t) for t in h.trained),
        energy=tuple(t.energy for t in h.times()),
        bonuses=tuple(tuple(BonusCard(BONUS_EFFECTS.index(b.effect), b.value)
                            for b in t.bonuses) for t in h.times()))


class Catalogue:
    """Heroes and weapons by name (insertion order kept), as entries and as compiled cards.

    Args:
        heroes: the hero entries, in file order.
        weapons: the weapon entries, in file order.
        source: what to call the catalogue in errors (its directory).
        hero_source: what to call the hero entries in errors (their file, ``heroes.toml``;
            default ``source``).
        weapon_source: what to call the weapon entries in errors (``weapons.toml``; default
            ``source``).

    Attributes:
        heroes: name -> validated hero entry.
        weapons: name -> validated weapon entry.
        hero_names: the hero names in order.
        weapon_names: the weapon names in order.
        hero_cards: name -> :class:`HeroCard`.
        weapon_cards: name -> :class:`WeaponCard`.

    Raises:
        CardDataError: a duplicate hero or weapon name (naming its file, or the source, the
            ``[[hero]]`` / ``[[weapon]]`` entry index, the name and the earlier entry).
    """

    def __init__(self, heroes: list[Hero], weapons: list[Weapon], source: str = "<memory>",
                 hero_source: str | None = None, weapon_source: str | None = None):
        self.heroes: dict[str, Hero] = _by_name(heroes, "hero", hero_source or source)
        self.weapons: dict[str, Weapon] = _by_name(weapons, "weapon", weapon_source or source)
        if not self.heroes or not self.weapons:
            raise CardDataError(f"{source}: a catalogue needs at least one hero and one weapon")
        self.hero_names = list(self.heroes)
        self.weapon_names = list(self.weapons)
        self.hero_cards = {name: hero_card(h) for name, h in self.heroes.items()}
        self.weapon_cards = {name: weapon_card(w) for name, w in self.weapons.items()}


def _by_name(entries: list, key: str, source: str) -> dict:
    """``entries`` by name; CardDataError naming ``source`` and the entry for a repeated name
    (:func:`~card_envs.core.cards.check_unique`)."""
    check_unique(source, key, entries, ("name",))
    return {e.name: e for e in entries}


def load_catalogue(directory: str | Path | None = None) -> Catalogue:
    """Load ``heroes.toml`` + ``weapons.toml`` from ``directory`` (default: the shipped data).

    Raises:
        CardDataError: a missing/unreadable file, a malformed entry (file + entry + field) or a
            name used twice in a file (file + entry + name).
    """
    if directory is None:
        return _default_catalogue()
    return _load(Path(directory))


@lru_cache(maxsize=1)
def _default_catalogue() -> Catalogue:
    return _load(DATA_DIR)


def _load(directory: Path) -> Catalogue:
    hero_file, weapon_file = directory / "heroes.toml", directory / "weapons.toml"
    heroes = load_tables(hero_file, {"hero": Hero}, allow_empty=True)[1]["hero"]
    weapons = load_tables(weapon_file, {"weapon": Weapon}, allow_empty=True)[1]["weapon"]
    return Catalogue(heroes, weapons, source=str(directory), hero_source=str(hero_file),
                     weapon_source=str(weapon_file))
