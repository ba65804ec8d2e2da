"""Toy Nim card data: ``data/cards.toml``, one ``[[card]]`` table a card kind, validated with
pydantic (:class:`~card_envs.core.errors.CardDataError` naming the file, the entry and the
field)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field

from card_envs.core.cards import StrictModel, load_tables
from card_envs.core.errors import CardDataError

DATA_DIR = Path(__file__).parent / "data"
KINDS = ("stone", "bonus")  # the ids the rules use, in this order


class CardKind(StrictModel):
    """One kind of card: an ASCII ``id`` and its ``name`` as printed."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)


@lru_cache(maxsize=4)
def load_cards(path: str | Path = DATA_DIR / "cards.toml") -> dict[str, CardKind]:
    """The card kinds of ``path`` by id. Raises CardDataError naming the file when an entry is
    malformed or the ids are not exactly :data:`KINDS`."""
    _, tables = load_tables(path, {"card": CardKind}, expected_count=len(KINDS))
    entries = tables["card"]
    ids = tuple(e.id for e in entries)
    if ids != KINDS:
        raise CardDataError(f"{path}: [[card]] ids are {list(ids)}, expected {list(KINDS)}")
    return {e.id: e for e in entries}
