"""Card data as TOML files validated with pydantic.

Each game describes one entry (a fighter, a weapon, a unit card...) as a pydantic model and keeps
its shipped data under ``card_envs/<game>/data/*.toml``. :func:`load_entries` reads a file, checks
the number of entries and validates each one; every failure becomes a
:class:`~card_envs.core.errors.CardDataError` naming the file, the entry (index and name) and the
field, never a silent default.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import pydantic

from card_envs.core.errors import CardDataError, short_repr
from card_envs.core.files import read_text

M = TypeVar("M", bound=pydantic.BaseModel)


class StrictModel(pydantic.BaseModel):
    """Base for card-data models: unknown fields are errors, instances are immutable."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, strict=True)


#: the largest card-data file :func:`read_toml` reads (bytes); the shipped files are a few KiB
MAX_CARD_DATA_BYTES = 4 * 1024 * 1024


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a card-data TOML file.

    Raises:
        CardDataError: naming the file: not found, a directory, unreadable, larger than
            :data:`MAX_CARD_DATA_BYTES`, not UTF-8 text (a binary file), a TOML syntax error,
            tables/arrays nested too deeply to parse, or a decimal integer of more digits than
            Python converts (``sys.get_int_max_str_digits()``, 4300 by default).
    """
    path = Path(path)
    text = read_text(path, "card-data", CardDataError, MAX_CARD_DATA_BYTES)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise CardDataError(f"{path}: not valid card data: TOML nested too deeply") from None
    except ValueError as exc:  # int("1" * 5000): more digits than int_max_str_digits
        raise CardDataError(f"{path}: not valid card data: an integer with too many digits "
                            f"({exc})") from None


def _short(value: Any, limit: int = 100) -> str:
    """:func:`~card_envs.core.errors.short_repr`, 100 characters by default."""
    return short_repr(value, limit)


def _entry_label(index: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, Mapping) else None
    return f"entry {index}" + (f" ({_short(name, 60)})" if name is not None else "")


def validate_entries(
    source: str,
    raw_entries: Any,
    model: type[M],
    *,
    key: str,
    expected_count: int | None = None,
) -> list[M]:
    """Validate a list of raw dict entries against ``model``.

    Args:
        source: what to call the data in errors (usually the file path).
        raw_entries: the list read from ``[[key]]`` tables.
        model: the pydantic model of one entry.
        key: the TOML array-of-tables name (``"fighter"``), used in messages.
        expected_count: if given, the exact number of entries required.

    Raises:
        CardDataError: naming ``source``, the entry index and name, and the failing field(s);
            for a count error, the expected and the actual count.
    """
    if not isinstance(raw_entries, list):
        raise CardDataError(f"{source}: expected an array of [[{key}]] tables, found none")
    if expected_count is not None and len(raw_entries) != expected_count:
        raise CardDataError(
            f"{source}: expected {expected_count} [[{key}]] entries, found {len(raw_entries)}"
        )
    out: list[M] = []
    for i, raw in enumerate(raw_entries):
        try:
            out.append(model.model_validate(raw))
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"field {'.'.join(str(p) for p in err['loc']) or '(entry)'!r}: {err['msg']}"
                + (f" (got {_short(err['input'])})" if err["type"] != "missing" else "")
                for err in exc.errors()
            )
            raise CardDataError(f"{source}: [[{key}]] {_entry_label(i, raw)}: {problems}") from None
    return out


def load_entries(
    path: str | Path, model: type[M], *, key: str, expected_count: int | None = None
) -> tuple[dict[str, Any], list[M]]:
    """Read ``path`` and validate its ``[[key]]`` entries (see :func:`validate_entries`).

    Returns ``(top_level_table_without_key, entries)``.
    """
    data = read_toml(path)
    raw = data.pop(key, None)
    if raw is None:
        raise CardDataError(f"{path}: no [[{key}]] entries found")
    return data, validate_entries(str(path), raw, model, key=key, expected_count=expected_count)
