"""Dirt and Glory card data (DG-1.1, DG-1.2, DG-1.4): pydantic models and TOML loading.

A content file is one TOML file with three arrays of tables:

- ``[[starting]]``: one player's starting unit cards (every player gets the same set, DG-2.1);
- ``[[unit]]``: the shared unit deck (``count`` copies of each entry);
- ``[[territory]]``: the territory cards (DG-1.2).

Unit card fields: ``id`` (ASCII), ``name``, ``values`` (one or two ints 1–5), ``ability`` (one of
:data:`ABILITIES`), ``count`` (>= 1), ``origin`` (``"designed"`` or ``"printed"``).
Territory fields: ``id``, ``name``, ``target`` (1–60), ``points`` (3 ints >= 0: 1st/2nd/3rd),
``fuel`` (3 ints >= 0, fuel tokens for 1st/2nd/3rd, default zeros), ``origin``.

The shipped ``data/designed.toml`` is *designed* content (DG-1.4, every entry
``origin = "designed"``); pass ``content="path/to/printed.toml"`` to play with the printed cards.
Any malformed file raises :class:`~card_envs.core.errors.CardDataError` naming the file and the
entry or field.

Ability vocabulary (rule ids in ``docs/rules/dirt_and_glory.md``, DG-1.5; codes:
:data:`~card_envs.dirt_and_glory.constants.ABILITIES`):

=============  =============================================================================
``none``       no ability
``fuel``       gain 1 fuel token from the supply
``scout``      look at the top card of your deck (you know it until it leaves the top)
``zero_next``  the next card you play this round counts 0 (whatever its values)
``stash``      move another card of your caravan to your reserve, without fuel
=============  =============================================================================
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pydantic

from card_envs.core.cards import StrictModel, load_tables
from card_envs.core.errors import CardDataError
from card_envs.core.files import file_stamp
from card_envs.dirt_and_glory.constants import AB_NONE, ABILITIES

DEFAULT_CONTENT = Path(__file__).parent / "data" / "designed.toml"

_Id = pydantic.constr(pattern=r"^[a-z0-9_]+$", min_length=1, max_length=40)


class UnitCardModel(StrictModel):
    """One unit card entry (DG-1.1)."""

    id: _Id  # type: ignore[valid-type]
    name: str
    values: list[pydantic.conint(ge=1, le=5)] = pydantic.Field(min_length=1, max_length=2)  # type: ignore[valid-type]
    ability: Literal["none", "fuel", "scout", "zero_next", "stash"] = "none"
    count: pydantic.conint(ge=1, le=60) = 1  # type: ignore[valid-type]
    origin: Literal["designed", "printed"]


class TerritoryModel(StrictModel):
    """One territory card entry (DG-1.2)."""

    id: _Id  # type: ignore[valid-type]
    name: str
    target: pydantic.conint(ge=1, le=60)  # type: ignore[valid-type]
    points: list[pydantic.conint(ge=0, le=99)] = pydantic.Field(min_length=3, max_length=3)  # type: ignore[valid-type]
    fuel: list[pydantic.conint(ge=0, le=9)] = pydantic.Field(  # type: ignore[valid-type]
        default_factory=lambda: [0, 0, 0], min_length=3, max_length=3
    )
    origin: Literal["designed", "printed"]


@dataclass(frozen=True)
class Kind:
    """A distinct card kind: values (low, high; equal for a one-value card) and ability code."""

    low: int
    high: int
    ability: int

    @property
    def two_valued(self) -> bool:
        return self.low != self.high

    def label(self) -> str:
        v = f"{self.low}/{self.high}" if self.two_valued else f"{self.low}"
        return v if self.ability == AB_NONE else f"{v}+{ABILITIES[self.ability]}"


@dataclass(frozen=True)
class Content:
    """Validated content: starting cards, unit deck, territories, and the derived card kinds.

    ``kinds`` is the sorted list of distinct :class:`Kind` over all cards; the engine refers to
    cards by integer id and to kinds by their index in ``kinds`` (observation and action ranges).
    """

    path: str
    starting: tuple[UnitCardModel, ...]
    units: tuple[UnitCardModel, ...]
    territories: tuple[TerritoryModel, ...]
    kinds: tuple[Kind, ...]

    @property
    def deck_size(self) -> int:
        return sum(c.count for c in self.units)


def kind_of(card: UnitCardModel) -> Kind:
    vals = sorted(card.values)
    return Kind(vals[0], vals[-1], ABILITIES.index(card.ability))


def load_content(path: str | None = None) -> Content:
    """Load and validate a content file (``None``: the shipped designed content). Results are
    cached per (path, modification time, size), so an edited file is read again.

    Raises:
        CardDataError: unreadable/invalid TOML, a missing array, an invalid entry or field
            (named), a duplicate id, an unknown top-level key, or too few territories/cards.
    """
    p = Path(path) if path is not None else DEFAULT_CONTENT
    return _load_content(str(p), file_stamp(p))


@functools.lru_cache(maxsize=16)
def _load_content(source: str, _stamp) -> Content:
    _, tables = load_tables(source, {"starting": UnitCardModel, "unit": UnitCardModel,
                                     "territory": TerritoryModel}, header=("meta",), unique=("id",))
    starting, units, territories = tables["starting"], tables["unit"], tables["territory"]
    if sum(c.count for c in starting) < 2:
        raise CardDataError(f"{source}: [[starting]] must hold at least 2 cards in total")
    kinds = sorted({kind_of(c) for c in (*starting, *units)}, key=lambda k: (k.ability, k.low, k.high))
    return Content(source, tuple(starting), tuple(units), tuple(territories), tuple(kinds))
