"""Card data as TOML files validated with pydantic.

Each game describes one entry (a fighter, a weapon, a unit card...) as a pydantic model and keeps
its shipped data under ``card_envs/<game>/data/*.toml``. :func:`load_tables` is the one loader
every game calls with its models: it reads the file (:func:`read_toml`), refuses unknown
top-level keys and missing or empty ``[[key]]`` arrays, validates each entry
(:func:`validate_entries`) and refuses repeated ids (:func:`check_unique`); every failure becomes
a :class:`~card_envs.core.errors.CardDataError` naming the file, the entry (index and name) and
the field, never a silent default.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping, Sequence
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


def check_unique(source: str, key: str, entries: Sequence[Any],
                 fields: Sequence[str | tuple[str, ...]] = ("id",)) -> None:
    """Refuse a value repeated among ``entries`` (validated models with a ``name``) in any of
    ``fields``: an attribute name, or a tuple of names whose combination must be unique (named by
    its last name: ``("set", "number")`` -> ``number``).

    Raises:
        CardDataError: ``"<source>: [[<key>]] entry <i> ('<name>'): field '<field>': duplicate
            <field> <value> (also entry <j>, '<name>')"`` for the first repeat, fields in the
            order given.
    """
    seen: dict[Any, tuple[str, int]] = {}
    for i, e in enumerate(entries):
        for field in fields:
            names = field if isinstance(field, tuple) else (field,)
            value = tuple(getattr(e, n) for n in names)
            mark = (names, *value)
            if mark in seen:
                shown = value if len(value) > 1 else value[0]
                raise CardDataError(
                    f"{source}: [[{key}]] entry {i} ({e.name!r}): field {names[-1]!r}: duplicate "
                    f"{names[-1]} {shown!r} (also entry {seen[mark][1]}, {seen[mark][0]!r})")
            seen[mark] = (e.name, i)


def load_tables(
    path: str | Path,
    models: Mapping[str, type[pydantic.BaseModel]],
    *,
    header: Collection[str] | None = None,
    unique: Sequence[str | tuple[str, ...]] = (),
    allow_empty: bool = False,
    expected_count: int | None = None,
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Read a card-data TOML file holding one ``[[key]]`` array per entry of ``models`` (key ->
    the pydantic model of one entry) and validate it.

    Args:
        path: the file.
        models: the arrays the file must hold, each with its entry model, in checking order.
        header: the other top-level keys allowed (``None``: any, unchecked).
        unique: the fields whose values no two entries of one array share (:func:`check_unique`).
        allow_empty: accept an empty array.
        expected_count: if given, the exact number of entries of each array.

    Returns:
        ``(the other top-level keys, {key: validated entries in file order})``.

    Raises:
        CardDataError: naming the file: unreadable or not TOML (:func:`read_toml`), an unknown
            top-level key, a missing array, an invalid entry or field (index, name, field path;
            :func:`validate_entries`), a wrong count, an empty array, a repeated value.
    """
    source = str(path)
    data = read_toml(path)
    if header is not None:
        unknown = sorted(set(data) - set(models) - set(header))
        if unknown:
            holds = ", ".join(f"[[{k}]]" for k in models)
            extra = "".join(f", [{k}]" for k in header)
            raise CardDataError(f"{source}: unknown top-level key(s) {unknown} (a card-data file "
                                f"of this game holds {holds}{extra})")
    for key in models:
        if key not in data:
            raise CardDataError(f"{source}: no [[{key}]] entries found")
    out = {key: validate_entries(source, data.pop(key), model, key=key,
                                 expected_count=expected_count)
           for key, model in models.items()}
    for key, entries in out.items():
        if not entries and not allow_empty:
            raise CardDataError(f"{source}: [[{key}]] is empty")
        check_unique(source, key, entries, unique)
    return data, out
