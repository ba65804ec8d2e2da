"""Game config dataclasses: each field declared once, with what it allows.

Every game's config is a frozen dataclass (a :class:`GameConfig`) whose fields are the documented
DECISION defaults of its rules file. A field states its allowed values where it is declared, and
the core checks them all (:func:`check_settings`), so a wrong value fails with a
:class:`~card_envs.core.errors.ConfigError` that names the field and the value::

    @dataclass(frozen=True)
    class ToyNimConfig(GameConfig):
        num_players: int = setting(2, between=(2, MAX_SEATS))
        max_rounds: int = setting(100, at_least=1)
        reward: str = setting("win", one_of=("win", "score"))
        hidden_bonus: bool = True  # a field annotated bool must hold a bool

A check that no single field states (one field's values depending on another's, a normalised
spelling) stays in the config's ``__post_init__``, after ``super().__post_init__()``; it uses
the same helpers (:func:`check_int`, :func:`check_choice`, :func:`check_bool`).
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


def setting(default: Any, *, between: tuple[int, int] | None = None,
            at_least: int | None = None, one_of: Iterable[Any] | None = None) -> Any:
    """A config field with its default and the values it allows, for :func:`check_settings`:
    ``between=(lo, hi)`` an int in ``[lo, hi]``, ``at_least=lo`` an int ``>= lo``, ``one_of``
    one of these values (exactly one of the three). Returns a ``dataclasses.field``.

    Raises:
        ValueError: not exactly one of ``between``, ``at_least`` and ``one_of`` given.
    """
    given = [k for k, v in (("between", between), ("at_least", at_least), ("one_of", one_of))
             if v is not None]
    if len(given) != 1:
        raise ValueError(f"setting({default!r}): give exactly one of between, at_least, one_of "
                         f"(got {given or 'none'})")
    if one_of is not None:
        allowed: tuple = ("one_of", tuple(one_of))
    else:
        allowed = ("int", between if between is not None else (at_least, None))
    return dataclasses.field(default=default, metadata={"allowed": allowed})


def check_settings(config: Any) -> None:
    """Check every field of the config dataclass ``config``, in declaration order: a field
    declared with :func:`setting` holds a value it allows, a field annotated ``bool`` a bool.

    Raises:
        ConfigError: naming the first field that does not, and its value (the messages of
            :func:`check_int`, :func:`check_choice`, :func:`check_bool`).
    """
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        kind, allowed = f.metadata.get("allowed", (None, None))
        if kind == "int":
            check_int(f.name, value, *allowed)
        elif kind == "one_of":
            check_choice(f.name, value, allowed)
        elif f.type in ("bool", bool):
            check_bool(f.name, value)


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """Base of every game's frozen config dataclass: ``__post_init__`` runs
    :func:`check_settings` (a config with checks of its own calls ``super().__post_init__()``
    first), and :meth:`to_dict` gives the fields as a dict.

    Raises:
        ConfigError: (construction) naming a field whose value its declaration does not allow.
    """

    def __post_init__(self) -> None:
        check_settings(self)

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-able dict that ``make_game(**d)`` accepts (a config with
        fields of other types converts them here)."""
        return dataclasses.asdict(self)


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
