"""Garda3 fighter sets: data files of 9 fighters validated against G-1.1 / G-1.4.

A set file is TOML::

    set_name = "My set"
    set_id = "my_set"          # ASCII
    [[fighter]]
    id = "rytir"               # ASCII id, unique in the set
    name = "Rytíř"             # as printed (any script)
    attack_bonus = 1           # 0..2  (G-1.1)
    defence_bonus = 2          # 0..2  (G-1.1)
    hp = 5                     # 3..7  (G-1.1)
    # ... exactly 9 [[fighter]] entries (G-1.4)

:func:`load_fighter_set` raises :class:`~card_envs.core.errors.CardDataError` naming the file and
the entry/field for a value out of range, a missing or unknown field, or a wrong count (expected
vs actual).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic

from card_envs.core.cards import StrictModel, check_unique, load_tables, validate_entries
from card_envs.core.errors import CardDataError

DATA_DIR = Path(__file__).parent / "data"
SET_SIZE = 9  # G-1.4
ASCII_ID = r"^[a-z0-9_]+$"


class Fighter(StrictModel):
    """One fighter card (G-1.1)."""

    id: str = pydantic.Field(pattern=ASCII_ID, description="ASCII id, unique within the set")
    name: str = pydantic.Field(min_length=1, description="name as printed")
    attack_bonus: int = pydantic.Field(ge=0, le=2)
    defence_bonus: int = pydantic.Field(ge=0, le=2)
    hp: int = pydantic.Field(ge=3, le=7)


class FighterSet(StrictModel):
    """A set of exactly 9 fighters (G-1.4)."""

    set_id: str = pydantic.Field(pattern=ASCII_ID)
    set_name: str
    fighters: tuple[Fighter, ...]

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def load_fighter_set(path: str | Path) -> FighterSet:
    """Load and validate a fighter-set TOML file (see module docstring)."""
    top, tables = load_tables(path, {"fighter": Fighter}, unique=("id",),
                              expected_count=SET_SIZE)
    fighters = tables["fighter"]
    try:
        return FighterSet(
            set_id=top.get("set_id", Path(path).stem), set_name=top.get("set_name", Path(path).stem),
            fighters=tuple(fighters),
        )
    except pydantic.ValidationError as exc:
        raise CardDataError(f"{path}: set header: {exc.errors()[0]['msg']} "
                            f"(field {exc.errors()[0]['loc'][0]!r})") from None


def fighter_set_from_dict(data: dict[str, Any], source: str = "fighter set") -> FighterSet:
    """Build a set from ``{"set_id", "set_name", "fighters": [...]}`` (as ``to_dict`` writes)."""
    if not isinstance(data, dict) or "fighters" not in data:
        raise CardDataError(f"{source}: expected a table with a 'fighters' list")
    fighters = validate_entries(source, list(data["fighters"]), Fighter, key="fighter",
                                expected_count=SET_SIZE)
    check_unique(source, "fighter", fighters)
    return FighterSet(set_id=data.get("set_id", "custom"), set_name=data.get("set_name", "custom"),
                      fighters=tuple(fighters))


def shipped_sets() -> list[str]:
    """Names of the fighter sets shipped in ``card_envs/garda3/data``."""
    return sorted(p.stem for p in DATA_DIR.glob("*.toml"))


def resolve_fighter_set(spec: Any) -> FighterSet:
    """A FighterSet from a shipped set name (``"default"``), a path to a TOML file, a dict as
    written by ``FighterSet.to_dict``, or a FighterSet. CardDataError/ConfigError otherwise."""
    if isinstance(spec, FighterSet):
        return spec
    if isinstance(spec, dict):
        return fighter_set_from_dict(spec)
    if isinstance(spec, (str, Path)):
        p = Path(spec)
        if isinstance(spec, str) and (DATA_DIR / f"{spec}.toml").exists() and p.suffix != ".toml":
            return load_fighter_set(DATA_DIR / f"{spec}.toml")
        if p.is_dir():
            raise CardDataError(f"fighter set {spec!r} is a directory, not a .toml file")
        if p.suffix == ".toml" or p.exists():
            return load_fighter_set(p)
        raise CardDataError(
            f"fighter set {spec!r} is neither a shipped set {shipped_sets()} nor a .toml file"
        )
    raise CardDataError(f"fighter set must be a name, a path or a dict, got {type(spec).__name__}")
