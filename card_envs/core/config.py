"""Small helpers for validating game config dataclasses.

Every game's config is a frozen dataclass whose fields are the documented DECISION defaults of its
rules file; ``__post_init__`` calls these helpers so a wrong value fails with a
:class:`~card_envs.core.errors.ConfigError` that names the field and the value.
"""

from __future__ import annotations

import dataclasses
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
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(kwargs) - names)
    if unknown:
        raise ConfigError(
            f"unknown config field(s) {unknown} for {cls.__name__}; known fields: {sorted(names)}"
        )
    return cls(**kwargs)
