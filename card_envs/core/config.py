"""Small helpers for validating game config dataclasses.

Every game's config is a frozen dataclass whose fields are the documented DECISION defaults of its
rules file; ``__post_init__`` calls these helpers so a wrong value fails with a
:class:`~card_envs.core.errors.ConfigError` that names the field and the value.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable
from typing import Any

from card_envs.core.errors import ConfigError


def check_choice(field: str, value: Any, choices: Iterable[Any]) -> None:
    """Raise ConfigError unless ``value`` is one of ``choices``."""
    choices = tuple(choices)
    if value not in choices:
        raise ConfigError(f"config field {field!r}: {value!r} is not one of {list(choices)}")


def check_int(field: str, value: Any, lo: int, hi: int | None = None) -> None:
    """Raise ConfigError unless ``value`` is an int in ``[lo, hi]`` (``hi=None``: unbounded)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"config field {field!r}: expected an int, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        rng = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise ConfigError(f"config field {field!r}: {value} is out of range {rng}")


def check_bool(field: str, value: Any) -> None:
    """Raise ConfigError unless ``value`` is a bool."""
    if not isinstance(value, bool):
        raise ConfigError(f"config field {field!r}: expected true/false, got {value!r}")


def config_from_kwargs(cls: type, kwargs: dict[str, Any]):
    """Build config dataclass ``cls`` from keyword arguments, naming any unknown field."""
    names = {f.name for f in dataclasses.fields(cls) if f.init}  # derived fields are not set
    unknown = sorted(set(kwargs) - names)
    if unknown:
        raise ConfigError(
            f"unknown config field(s) {unknown} for {cls.__name__}; known fields: {sorted(names)}"
        )
    return cls(**kwargs)


#: the deepest nesting of lists/objects a command-line JSON value may have (a game config needs
#: a handful of levels; deeper values would hit Python's recursion limit in later checks)
MAX_JSON_DEPTH = 100


def _depth(value: Any) -> int:
    """How deeply ``value``'s lists and dicts nest (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_JSON_DEPTH:
                return deepest
            stack.extend((v, level) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _cut(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to ``limit`` characters (a 5000-digit flag value stays one short line)."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def parse_json_value(flag: str, text: str) -> Any:
    """Parse a command-line flag's JSON value.

    Raises:
        ConfigError: naming ``flag`` and (cut) ``text``: not valid JSON, lists/objects nested
            more than :data:`MAX_JSON_DEPTH` levels, or an integer of more digits than Python
            converts (``sys.get_int_max_str_digits()``, 4300 by default).
    """
    too_deep = ConfigError(f"{flag} is not a usable JSON value: lists/objects nested more than "
                           f"{MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH) ({_cut(text, 40)})")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{flag} is not valid JSON: {_cut(text)} ({exc})") from None
    except RecursionError:
        raise too_deep from None
    except ValueError:  # int("1" * 5000) while decoding
        raise ConfigError(f"{flag} is not a usable JSON value: an integer of more than "
                          f"{sys.get_int_max_str_digits()} digits ({_cut(text, 40)})") from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise too_deep
    return value


def parse_json_config(text: str, flag: str = "--game-config") -> dict[str, Any]:
    """A ``--game-config`` JSON object as a dict (see :func:`parse_json_value`).

    Raises:
        ConfigError: naming ``flag``: bad JSON (as :func:`parse_json_value`) or not an object.
    """
    config = parse_json_value(flag, text)
    if not isinstance(config, dict):
        raise ConfigError(f"{flag} must be a JSON object, got {_cut(text)}")
    return config
