"""Leduc Hold'em card data: ``data/cards.toml``, one ``[[rank]]`` table a rank (LH-1.1),
validated with pydantic (:class:`~card_envs.core.errors.CardDataError` naming the file, the entry
and the field). The deck is every rank in each suit of
:data:`~card_envs.leduc_holdem.constants.SUITS`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field

from card_envs.core.cards import StrictModel, load_tables
from card_envs.core.errors import CardDataError
from card_envs.leduc_holdem.constants import NUM_RANKS, NUM_SUITS, SUITS, rank_of

DATA_DIR = Path(__file__).parent / "data"
RANKS = ("jack", "queen", "king")  # the ids the rules use, lowest first (LH-1.1)


class Rank(StrictModel):
    """One rank: an ASCII ``id``, its ``name`` and its one-letter ``short`` name."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=30)
    short: str = Field(min_length=1, max_length=2)


@lru_cache(maxsize=4)
def load_ranks(path: str | Path = DATA_DIR / "cards.toml") -> tuple[Rank, ...]:
    """The ranks of ``path``, lowest first. Raises CardDataError naming the file when an entry is
    malformed or the ids are not exactly :data:`RANKS` in that order."""
    _, tables = load_tables(path, {"rank": Rank}, expected_count=NUM_RANKS,
                            unique=("id", "short"))
    ranks = tuple(tables["rank"])
    ids = tuple(r.id for r in ranks)
    if ids != RANKS:
        raise CardDataError(f"{path}: [[rank]] ids are {list(ids)}, expected {list(RANKS)}")
    return ranks


def card_name(card: int, ranks: tuple[Rank, ...]) -> str:
    """Card id ``card`` (0..5) as printed: ``"Kh"`` (rank ``card // 2``, suit ``card % 2``)."""
    return ranks[rank_of(card)].short + SUITS[card % NUM_SUITS]
