"""State declaration: a game declares its state's fields once; copying and saving derive from it.

A game's state is a slotted dataclass deriving from :class:`GameState`, each field annotated with
its type and, where the bound does not depend on the config, its range::

    @dataclass(slots=True, eq=False)
    class NimState(GameState):
        rng: random.Random
        phase: Annotated[int, Field(ge=0, le=1)]
        player: Annotated[int, Field(ge=0, le=3)]
        pile: Annotated[int, Field(ge=0, le=40)]
        taken: list[list[Annotated[int, Field(ge=0, le=39)]]]

Every state has ``phase`` and ``player`` (declared in :class:`GameState`, redeclared by the
game with its ranges; :meth:`card_envs.core.game.GameBase.current_player` and ``is_terminal``
read them).

Supported field types: ``int``, ``bool``, ``str``, ``float`` and ``None`` (alone, in unions,
``Literal`` or ``Annotated`` with pydantic constraints), *records* (below), ``list[...]`` of those
to any depth, and ``random.Random`` (the state's chance RNG).

A record is a frozen dataclass (``@dataclass(frozen=True, slots=True)``; the fastest to read) or
a ``typing.NamedTuple`` (the fastest to build) whose fields are atoms (as above), records or
``Record | None``; never lists, so a record is immutable and shared by ``clone`` like an int
(change one by replacing it: ``dataclasses.replace`` / ``record._replace``)::

    @dataclass(frozen=True, slots=True)
    class Attack:
        value: Annotated[int, Field(ge=0, le=60)]
        target: Literal["hero", "weapon"] | None

    @dataclass(slots=True, eq=False)
    class DuelState(GameState):
        attack: Attack | None

From the declaration the core derives, once per class:

- ``clone``: generated straight-line copy code (lists copied to their depth, the RNG copied,
  records and cache fields shared), as fast as a hand-written copy;
- ``to_dict``: a JSON-able dict of the saved fields (the RNG as ``[version, [625 ints],
  gauss_next]``, see :mod:`card_envs.core.rng`; a record as an object of its named fields);
- ``from_dict``: strict validation with pydantic (no coercion: ``1`` is not a bool, ``1.0`` not an
  int, unknown and missing fields refused) whose errors become one :class:`StateError` naming the
  field path (``hands[1][3]``, ``attack.value``) and the offending value; records are rebuilt
  from their objects (exactly their fields). Config-dependent invariants (card ids of
  this config, the card multiset, seat counts, a consistent phase) are the game's
  ``check_state``; the helpers below (:func:`fail`, :func:`check_range`, :func:`check_len`,
  :func:`check_cards`) name the path the same way.

A field declared with ``field(default=None, metadata={"cache": True})`` is a cache: shared by
``clone`` (caches are replaced, never mutated), not saved, reset to its default on load. Every
state has one such field, ``legal_cache``: the core's legal-action cache
(:meth:`card_envs.core.game.GameBase.legal_actions`).
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, NoReturn

from pydantic import ConfigDict, Field, ValidationError, create_model

from card_envs.core.errors import StateError, short_repr
from card_envs.core.rng import rng_from_json, rng_to_json

__all__ = [
    "GameState", "StateCodec", "codec_of", "is_record", "fail", "check_range", "check_len",
    "check_cards", "Seat", "SeatOrNone",
    "format_path", "short_repr",
]

#: A seat field of a game whose seat count varies with its config: only the lower bound is
#: declared; the game's ``check_state`` range-checks it with its own count
#: (:func:`check_range`) before anything indexes with it, so a bad seat is named against that
#: count (``player: 7 is not a seat (0..1)``), not against the largest seat of any config.
Seat = Annotated[int, Field(ge=0, description="a seat: 0 up to the number of players - 1")]
#: :data:`Seat` or ``-1`` (nobody).
SeatOrNone = Annotated[int, Field(ge=-1, description="a seat (0 up to the number of players - 1) "
                                                     "or -1 for nobody")]


@dataclasses.dataclass(slots=True, eq=False)
class GameState:
    """Base of every game's state dataclass (declare the subclass with
    ``@dataclass(slots=True, eq=False)``; ``kw_only=True`` is allowed). Holds the core's
    legal-action cache (``None`` = not computed; a list of sorted ints otherwise, never mutated)
    and the two fields every game has:

    Attributes:
        phase: the phase, an index into the game's ``phases``; the game's ``over_phase`` once
            the game is over (:meth:`card_envs.core.game.GameBase.is_terminal`).
        player: the seat to decide (:meth:`card_envs.core.game.GameBase.current_player`, which
            gives ``-1`` once over whatever this holds then; the game's ``check_state`` says
            what it holds then).

    A game redeclares ``phase`` and ``player`` with their ranges
    (``phase: Annotated[int, Field(ge=0, le=len(PHASES) - 1)]``); they keep their place first
    among the fields, after the cache.
    """

    legal_cache: list[int] | None = dataclasses.field(
        default=None, init=False, repr=False, metadata={"cache": True})
    phase: int
    player: int

    def __getstate__(self) -> dict[str, Any]:
        """Every slot's value (pickle, every protocol; ``copy.deepcopy``)."""
        return {name: getattr(self, name) for name in _slot_names(type(self))}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            object.__setattr__(self, name, value)


def _slot_names(cls: type) -> list[str]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in getattr(klass, "__slots__", ()):
            if name not in names and name not in ("__dict__", "__weakref__"):
                names.append(name)
    return names


# ---------------------------------------------------------------------------------------------
# paths and the check helpers every game's check_state uses
def format_path(loc: Iterable[Any]) -> str:
    """``("hands", 1, 3)`` -> ``"hands[1][3]"``; ``("config", "variant")`` ->
    ``"config.variant"``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "<state>"


_short = short_repr


def fail(path: str, value: Any, problem: str) -> NoReturn:
    """Raise :class:`StateError` ``"<path>: <value> <problem>"``."""
    raise StateError(f"{path}: {_short(value)} {problem}")


def check_range(path: str, value: int, lo: int, hi: int, what: str = "in range") -> None:
    """StateError unless ``lo <= value <= hi`` (e.g. ``what="a battle card id"``)."""
    if not lo <= value <= hi:
        fail(path, value, f"is not {what} ({lo}..{hi})")


def check_len(path: str, seq: Sequence[Any], lo: int, hi: int | None = None,
              why: str = "") -> None:
    """StateError unless ``lo <= len(seq) <= hi`` (``hi=None``: exactly ``lo``)."""
    hi = lo if hi is None else hi
    if not lo <= len(seq) <= hi:
        want = str(lo) if lo == hi else f"{lo}..{hi}"
        fail(path, seq, f"has {len(seq)} entries, expected {want}" + (f" ({why})" if why else ""))


def check_cards(zones: Mapping[str, Iterable[int]], expected: Iterable[int],
                name: str = "card") -> None:
    """The card multiset rule: the cards found in ``zones`` (path -> card ids) must be exactly
    ``expected`` (no card created, none lost). StateError naming the path of every copy of an
    extra card, or, for a missing card, every zone it could be in."""
    want = Counter(expected)
    where: dict[int, list[str]] = {}
    for path, cards in zones.items():
        for i, c in enumerate(cards):
            where.setdefault(c, []).append(f"{path}[{i}]")
    for c, paths in where.items():
        if len(paths) > want.get(c, 0):
            if c not in want:
                fail(paths[0], c, f"is not a {name} of this game")
            raise StateError(f"{', '.join(paths)}: {name} {c!r} appears {len(paths)} times, "
                             f"the game has {want[c]} (no {name} may be created)")
    for c, k in want.items():
        if len(where.get(c, ())) < k:
            raise StateError(f"{name} {c!r} is missing: it is in none of {', '.join(zones)} "
                             f"(no {name} may be lost)")


# ---------------------------------------------------------------------------------------------
# the codec derived from a declaration
_ATOMS = (int, bool, str, float, type(None))


def _strip(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def is_record(tp: Any) -> bool:
    """Is ``tp`` a record type: a frozen dataclass or a NamedTuple (a state field value shared,
    never mutated)?"""
    if not isinstance(tp, type):
        return False
    if dataclasses.is_dataclass(tp):
        return tp.__dataclass_params__.frozen  # type: ignore[attr-defined]
    return issubclass(tp, tuple) and hasattr(tp, "_fields")


def _list_depth(tp: Any, where: str) -> int:
    """0 for an immutable atom or record type, k for k nested lists of those; TypeError
    otherwise."""
    tp = _strip(tp)
    origin = typing.get_origin(tp)
    if tp in _ATOMS or origin is typing.Literal:
        return 0
    if is_record(tp):
        _record_info(tp)  # checks its fields
        return 0
    if origin in (typing.Union, types.UnionType):
        depths = {_list_depth(a, where) for a in typing.get_args(tp)}
        if depths != {0}:
            raise TypeError(f"{where}: unions of lists are not supported in a state declaration")
        return 0
    if origin is list:
        (item,) = typing.get_args(tp)
        return 1 + _list_depth(item, where)
    raise TypeError(f"{where}: type {tp!r} is not supported in a state declaration "
                    "(int, bool, str, float, None, Literal, a frozen dataclass record, list[...], "
                    "random.Random)")


class _RecordInfo:
    """A record type's fields and the strict pydantic model its saved objects validate with."""

    def __init__(self, cls: type):
        hints = typing.get_type_hints(cls, include_extras=True)
        names = ([f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls)
                 else list(cls._fields))  # type: ignore[attr-defined]
        self.fields: list[tuple[str, Any]] = []
        model_fields: dict[str, Any] = {}
        for name in names:
            where = f"{cls.__name__}.{name}"
            tp = hints[name]
            if _list_depth(tp, where) != 0:
                raise TypeError(f"{where}: a record field may not be a list (records are "
                                "immutable; declare the list on the state)")
            self.fields.append((name, tp))
            model_fields[name] = (_model_type(tp), ...)
        self.model = create_model(f"{cls.__name__}Saved",
                                  __config__=ConfigDict(strict=True, extra="forbid"),
                                  **model_fields)


_RECORDS: dict[type, _RecordInfo] = {}


_BUILDING: set[type] = set()


def _record_info(cls: type) -> _RecordInfo:
    info = _RECORDS.get(cls)
    if info is None:
        if cls in _BUILDING:
            raise TypeError(f"{cls.__name__}: a record may not contain itself")
        _BUILDING.add(cls)
        try:
            info = _RECORDS[cls] = _RecordInfo(cls)
        finally:
            _BUILDING.discard(cls)
    return info


def _has_record(tp: Any) -> bool:
    tp = _strip(tp)
    if is_record(tp):
        return True
    return any(_has_record(a) for a in typing.get_args(tp)
               if typing.get_origin(tp) is not typing.Literal)


def _model_type(tp: Any) -> Any:
    """``tp`` with every record type replaced by its pydantic model (for validation)."""
    if not _has_record(tp):
        return tp
    meta: tuple = ()
    if typing.get_origin(tp) is typing.Annotated:
        meta = tuple(tp.__metadata__)
        tp = _strip(tp)
    if is_record(tp):
        out: Any = _record_info(tp).model
    elif typing.get_origin(tp) is list:
        out = list[_model_type(typing.get_args(tp)[0])]  # type: ignore[misc]
    else:  # a union
        out = typing.Union[tuple(_model_type(a) for a in typing.get_args(tp))]
    return typing.Annotated[(out, *meta)] if meta else out


def _to_json(value: Any) -> Any:
    """Saved form of a value holding records: records as objects of their fields, lists
    copied."""
    if value.__class__ is list:
        return [_to_json(v) for v in value]
    info = _RECORDS.get(value.__class__)
    if info is not None:
        return {name: _to_json(getattr(value, name)) for name, _tp in info.fields}
    return value


def _from_model(tp: Any, value: Any) -> Any:
    """The state value of declared type ``tp`` from its validated pydantic form."""
    if value is None or value.__class__ in _ATOMS:
        return value
    tp = _strip(tp)
    origin = typing.get_origin(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        return [_from_model(item, v) for v in value]
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            arg = _strip(arg)
            if is_record(arg) and isinstance(value, _record_info(arg).model):
                return _from_model(arg, value)
        return value  # pragma: no cover - an atom of the union, returned above
    info = _record_info(tp)
    return tp(**{name: _from_model(ftp, getattr(value, name)) for name, ftp in info.fields})


_RNG_INTERNAL = 625


class StateCodec:
    """Clone / to_dict / from_dict of one declared state class (built once: :func:`codec_of`).

    Attributes:
        cls: the state class; saved: names of the saved fields in declaration order;
        rng_fields: the ``random.Random`` fields; record_fields: the fields holding records (and
        their declared types); cache_fields: the cache fields.
    """

    def __init__(self, cls: type):
        if not (dataclasses.is_dataclass(cls) and issubclass(cls, GameState)):
            raise TypeError(f"{cls!r} is not a GameState dataclass")
        if "__slots__" not in cls.__dict__:
            raise TypeError(f"{cls.__name__}: declare the state with "
                            "@dataclass(slots=True, eq=False) on GameState (a state keeps only "
                            "its declared fields)")
        hints = typing.get_type_hints(cls, include_extras=True)
        self.cls = cls
        self.saved: list[str] = []
        self.rng_fields: list[str] = []
        self.cache_fields: dict[str, Any] = {}
        depth: dict[str, int] = {}
        self.record_fields: dict[str, Any] = {}  # saved fields holding records: their types
        model_fields: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            where = f"{cls.__name__}.{f.name}"
            if f.metadata.get("cache"):
                if f.default is dataclasses.MISSING:
                    raise TypeError(f"{where}: a cache field needs a default")
                self.cache_fields[f.name] = f.default
                continue
            tp = hints[f.name]
            self.saved.append(f.name)
            if _strip(tp) is random.Random:
                self.rng_fields.append(f.name)
                model_fields[f.name] = (list, ...)  # checked by rng_from_json below
                continue
            depth[f.name] = _list_depth(tp, where)
            if _has_record(tp):
                self.record_fields[f.name] = tp
            model_fields[f.name] = (_model_type(tp), ...)
        self.depth = depth
        self.model = create_model(
            f"{cls.__name__}Saved", __config__=ConfigDict(strict=True, extra="forbid"),
            **model_fields)
        self.clone = self._compile_clone()

    def _compile_clone(self):
        lines = ["def clone(s):", "    c = new(cls)"]
        for name in self.saved:
            if name in self.rng_fields:
                lines.append(f"    r = new_rng(Random); r.setstate(s.{name}.getstate()); "
                             f"c.{name} = r")
                continue
            d = self.depth[name]
            if d == 0:
                expr = f"s.{name}"
            elif d == 1:
                expr = f"s.{name}[:]"
            elif d == 2:
                expr = f"[x[:] for x in s.{name}]"
            else:
                expr = f"_deep(s.{name}, {d})"
            lines.append(f"    c.{name} = {expr}")
        for name in self.cache_fields:
            lines.append(f"    c.{name} = s.{name}")
        lines.append("    return c")
        namespace = {"new": object.__new__, "cls": self.cls, "Random": random.Random,
                     "new_rng": random.Random.__new__,
                     "_deep": _deep_copy}
        exec("\n".join(lines), namespace)  # noqa: S102 - generated from the declaration only
        return namespace["clone"]

    def to_dict(self, state: Any) -> dict[str, Any]:
        """The saved fields as JSON-able data (fresh lists; nothing shared with ``state``)."""
        out: dict[str, Any] = {}
        for name in self.saved:
            value = getattr(state, name)
            if name in self.rng_fields:
                out[name] = rng_to_json(value)
            elif name in self.record_fields:
                out[name] = _to_json(value)
            else:
                d = self.depth[name]
                out[name] = value if d == 0 else _deep_copy(value, d)
        return out

    def from_dict(self, data: Any, where: str = "state") -> Any:
        """A new state from ``data`` (a dict of exactly the saved fields), strictly validated.

        Raises:
            StateError: naming the field path and value of the first problem (how many more
                were found is said too); a missing field beside one the state does not have
                (a field renamed since the state was saved) names both.
        """
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected a JSON object of the state's fields, got "
                             f"{type(data).__name__} {_short(data, 40)}")
        try:
            model = self.model.model_validate(data)
        except ValidationError as exc:
            errors = exc.errors()
            first = errors[0]
            path = format_path(first["loc"])
            more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
            missing = [e for e in errors if e["type"] == "missing"]
            extra = [e for e in errors if e["type"] == "extra_forbidden"
                     and missing and e["loc"][:-1] == missing[0]["loc"][:-1]]
            if extra:  # a field renamed since the state was saved (e.g. actor -> player)
                rest = len(errors) - 2
                raise StateError(
                    f"{format_path(missing[0]['loc'])}: field is missing, and the saved "
                    f"field {format_path(extra[0]['loc'])!r} is not one of this state's (saved "
                    "by another version of the game? save it again with this one)"
                    + (f" (and {rest} more problem(s))" if rest else "")) from None
            if first["type"] == "missing":
                raise StateError(f"{path}: field is missing{more}") from None
            # a top-level field's declared meaning (a seat field's range); an element of a list
            # field (``draft_order[2]``) is named by its path without it
            field = (self.model.model_fields.get(first["loc"][0]) if len(first["loc"]) == 1
                     else None)
            meant = f" ({field.description})" if field is not None and field.description else ""
            raise StateError(f"{path}: {_short(first.get('input'))}: {first['msg']}{meant}{more}") \
                from None
        state = object.__new__(self.cls)
        for name in self.saved:
            value = getattr(model, name)
            if name in self.rng_fields:
                value = _rng_from_saved(name, value)
            elif name in self.record_fields:
                value = _from_model(self.record_fields[name], value)
            setattr(state, name, value)
        for name, default in self.cache_fields.items():
            setattr(state, name, default)
        return state


def _deep_copy(value: list, depth: int) -> list:
    if depth <= 1:
        return value[:]
    return [_deep_copy(v, depth - 1) for v in value]


def _rng_from_saved(name: str, value: list) -> random.Random:
    """Validate a saved RNG ``[3, [625 ints in 0..2**32-1, the last 1..624], float | None]``."""
    if len(value) != 3:
        fail(name, value, "is not an RNG state [version, [625 ints], gauss_next]")
    version, internal, gauss = value
    if version.__class__ is not int or version != 3:
        fail(f"{name}[0]", version, "is not RNG state version 3")
    if internal.__class__ is not list or len(internal) != _RNG_INTERNAL:
        fail(f"{name}[1]", internal, f"is not a list of {_RNG_INTERNAL} ints")
    for i, x in enumerate(internal):
        hi = 2**32 - 1 if i < _RNG_INTERNAL - 1 else _RNG_INTERNAL - 1
        lo = 0 if i < _RNG_INTERNAL - 1 else 1
        if x.__class__ is not int or not lo <= x <= hi:
            fail(f"{name}[1][{i}]", x, f"is not an int in {lo}..{hi}")
    if gauss is not None and gauss.__class__ is not float:
        fail(f"{name}[2]", gauss, "is not a float or null")
    try:
        return rng_from_json(value)
    except ValueError as exc:  # pragma: no cover - all cases checked above
        raise StateError(f"{name}: {exc}") from None


_CODECS: dict[type, StateCodec] = {}


def codec_of(cls: type) -> StateCodec:
    """The (cached) codec of a declared state class."""
    codec = _CODECS.get(cls)
    if codec is None:
        codec = _CODECS[cls] = StateCodec(cls)
    return codec
