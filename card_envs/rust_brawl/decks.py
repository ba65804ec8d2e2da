"""Rust Brawl decks (RB-1): deck files, the one statement of deck legality, shipped and random
decks.

A deck list is a small TOML file a player writes by hand (``data/decks/*.toml`` are the shipped
ones)::

    name = "Šrotmistrova garda"            # optional (default: the file's stem)
    description = "Miners and mechs."      # optional
    [cards]                                # card name as printed, or its id = number of copies
    "Šrotmistr Majlosh" = 1
    elitni_sekernik = 2

(or on one line: ``cards = { "Šrotmistr Majlosh" = 1, elitni_sekernik = 2 }``). A name matches
exactly, or ignoring case and accents when only one card has it.

Deck legality is stated once, in :func:`deck_problem` (RB-1.1: at least 1 card, at most 2
copies of a card, a unique card once; RB-1.2: the point total at most the point limit, config
``deck_point_limit``, default 250), with :func:`copies_allowed` / :func:`copies_problem` for
one card; every check uses them: :func:`validate_deck` (raising :class:`DeckError` naming the
deck, the card and the rule), the deck-file reader (a copy count is refused before the copy
list is built), :func:`random_deck`, the engine's redeal of hidden cards and the state check
(:func:`card_envs.rust_brawl.state.deck_problem`). An unknown name raises
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pydantic

from card_envs.core.cards import StrictModel, read_toml
from card_envs.core.errors import CardDataError, ConfigError
from card_envs.rust_brawl.cards import (
    DATA_DIR,
    Card,
    CardDb,
    DeckError,
    UnknownCardError,
    load_card_db,
)
from card_envs.rust_brawl.constants import MAX_COPIES

__all__ = [
    "DECKS_DIR", "DEFAULT_POINT_LIMIT", "MAX_COPIES", "Deck", "copies_allowed", "copies_problem",
    "deck_points", "deck_problem", "load_deck", "random_deck", "read_deck_file",
    "shipped_deck_files", "shipped_decks", "validate_deck",
]

#: the shipped deck lists (one TOML file a deck)
DECKS_DIR = DATA_DIR / "decks"
#: RB-1.2: the default point limit of a deck (config ``deck_point_limit``)
DEFAULT_POINT_LIMIT = 250


# -- deck legality (RB-1.1, RB-1.2), stated once ---------------------------------------------------
def copies_allowed(card: Card) -> int:
    """RB-1.1: the most copies of ``card`` a deck may hold: 1 for a unique card, else
    :data:`MAX_COPIES` (2)."""
    return 1 if card.unique else MAX_COPIES


def copies_problem(card: Card, n: int) -> str | None:
    """Why ``n`` copies of ``card`` break RB-1.1 (the text names the card and the rule), or
    ``None``."""
    if card.unique and n > 1:
        return f"{n} copies of {card.label}, a unique card: RB-1.1 allows a unique card once"
    if n > MAX_COPIES:
        return (f"{n} copies of {card.label}: RB-1.1 allows at most {MAX_COPIES} copies of a "
                "card")
    return None


def deck_problem(counts: Mapping[Card, int], point_limit: int) -> str | None:
    """Why a deck holding ``counts[card]`` copies of each card is not legal, or ``None``: no card
    (RB-1.1), a card over its copies (:func:`copies_problem`, RB-1.1), a point total over
    ``point_limit`` (RB-1.2, with the total, the excess and the three most expensive cards). The
    text names the card and the rule id; callers prefix the deck."""
    if not counts or sum(counts.values()) < 1:
        return "a deck needs at least 1 card (RB-1.1)"
    for card, n in counts.items():
        problem = copies_problem(card, n)
        if problem:
            return problem
    total = sum(card.points * n for card, n in counts.items())
    if total > point_limit:
        top = sorted(counts, key=lambda c: (-c.points, c.id))[:3]
        listed = ", ".join(f"{c.name} ({c.points} x {counts[c]})" for c in top)
        return (f"{total} points, over the point limit {point_limit} by {total - point_limit} "
                f"(RB-1.2); the most expensive cards: {listed}")
    return None


# -- deck lists ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deck:
    """A deck: ``name``, ``cards`` (card ids, one per copy, sorted), ``source`` (the file, or
    ``"list"`` / ``"random"``), ``description``."""

    name: str
    cards: tuple[str, ...]
    source: str
    description: str = ""

    def counts(self) -> dict[str, int]:
        """Copies per card id, in id order."""
        return dict(sorted(Counter(self.cards).items()))


class _DeckFile(StrictModel):
    name: str | None = pydantic.Field(default=None, min_length=1, max_length=80)
    description: str = pydantic.Field(default="", max_length=2000)
    cards: dict[str, int]


def _check_limit(point_limit: Any) -> int:
    if isinstance(point_limit, bool) or not isinstance(point_limit, int) or point_limit < 1:
        raise ConfigError(f"the deck point limit (deck_point_limit, --point-limit) must be an int "
                          f">= 1, got {point_limit!r}")
    return point_limit


def deck_points(deck: Deck, db: CardDb) -> int:
    """The deck's point total (RB-1.2): the sum of its cards' point values."""
    return sum(db.by_id(c).points for c in deck.cards)


def validate_deck(deck: Deck, db: CardDb, point_limit: int = DEFAULT_POINT_LIMIT) -> None:
    """Check RB-1.1 and RB-1.2.

    Raises:
        DeckError: naming the deck and the rule: no card (RB-1.1); a card with more than 2
            copies, or a unique card with more than 1 (RB-1.1, naming the card); a total over
            ``point_limit`` (RB-1.2, with the total and the most expensive cards).
        UnknownCardError: a card id not in ``db``.
        ConfigError: ``point_limit`` not an int >= 1.
    """
    point_limit = _check_limit(point_limit)
    problem = deck_problem(Counter(db.by_id(c) for c in deck.cards), point_limit)
    if problem:
        raise DeckError(f"deck {deck.name!r} ({deck.source}): {problem}")


def _resolve(entries: Iterable[tuple[str, int]], db: CardDb, where: str) -> tuple[str, ...]:
    """Card ids (one per copy) of (name-or-id, count) pairs; a card named twice, or a count over
    RB-1.1's copy limit (checked before any copy list is built), is an error."""
    named: dict[str, str] = {}
    ids: list[str] = []
    for key, count in entries:
        try:
            card = db.lookup(key)
        except UnknownCardError as exc:
            raise UnknownCardError(f"{where}: {exc}") from None
        if card.id in named:
            raise DeckError(f"{where}: {card.label} is listed twice (as {named[card.id]!r} and "
                            f"{key!r}); give it once with its count")
        named[card.id] = key
        # RB-1.1 before the copy list is built: a count of 10**9 or 10**30 is refused at once
        # (not a MemoryError / OverflowError, nor seconds and GBs spent on the list)
        problem = copies_problem(card, count)
        if problem:
            raise DeckError(f"{where}: {problem}")
        ids.extend([card.id] * count)
    return tuple(sorted(ids))


def read_deck_file(path: str | Path, db: CardDb) -> Deck:
    """Read a deck-list TOML file (module docstring) without the RB-1 checks of the whole deck
    (:func:`validate_deck`); a card's copy count is checked here already (RB-1.1), before the
    deck's list of copies is built.

    Raises:
        DeckError: naming the file and the field: unreadable or invalid TOML, a missing
            ``[cards]`` table, an unknown key, a count not an int >= 1, a count over RB-1.1's
            copy limit (naming the card); UnknownCardError naming the card and close names.
    """
    path = Path(path)
    try:
        data = read_toml(path)
    except CardDataError as exc:
        raise DeckError(str(exc).replace("card-data file", "deck file")) from None
    try:
        model = _DeckFile.model_validate(data)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "(file)"
        got = "" if err["type"] == "missing" else f" (got {err['input']!r:.60})"
        raise DeckError(f"{path}: deck file field {loc!r}: {err['msg']}{got}") from None
    for key, count in model.cards.items():
        if count < 1:
            raise DeckError(f"{path}: deck file field 'cards.{key}': the number of copies must be "
                            f">= 1, got {count}")
    cards = _resolve(model.cards.items(), db, str(path))
    return Deck(model.name or path.stem, cards, str(path), model.description)


def load_deck(spec: Any, db: CardDb | None = None,
              point_limit: int = DEFAULT_POINT_LIMIT) -> Deck:
    """A validated deck from ``spec``: a :class:`Deck`, the name of a shipped deck
    (:func:`shipped_decks`), a path to a deck file, a mapping ``{name or id: count}`` or an
    iterable of names/ids (one per copy). ``db`` defaults to the shipped database.

    Raises:
        DeckError / UnknownCardError: as :func:`read_deck_file` and :func:`validate_deck`; a
            string that is neither a shipped deck nor an existing file (naming both choices).
        ConfigError: ``point_limit`` not an int >= 1.
    """
    db = load_card_db() if db is None else db
    if isinstance(spec, Deck):
        deck = spec
    elif isinstance(spec, (str, Path)):
        text = str(spec)
        shipped = shipped_deck_files()
        if isinstance(spec, str) and text in shipped:
            deck = read_deck_file(shipped[text], db)
        elif Path(text).is_file() or text.endswith(".toml"):
            deck = read_deck_file(text, db)
        else:
            raise DeckError(f"deck {text!r}: not a shipped deck (shipped: "
                            f"{', '.join(sorted(shipped))}) nor a deck file")
    elif isinstance(spec, Mapping):
        for key, count in spec.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise DeckError(f"deck list: {key!r}: the number of copies must be an int >= 1, "
                                f"got {count!r}")
        deck = Deck("custom", _resolve(spec.items(), db, "deck list"), "list")
    elif isinstance(spec, Iterable):
        items = list(spec)
        ids = []
        for item in items:
            try:
                ids.append(db.lookup(item).id)
            except UnknownCardError as exc:
                raise UnknownCardError(f"deck list: {exc}") from None
        deck = Deck("custom", tuple(sorted(ids)), "list")
    else:
        raise DeckError(f"a deck is a shipped deck name, a deck file, or a list of card names "
                        f"or ids; got {type(spec).__name__}")
    validate_deck(deck, db, point_limit)
    return deck


def shipped_decks(db: CardDb | None = None) -> dict[str, Deck]:
    """The shipped decks (``data/decks/*.toml``) by name, validated against ``db`` (default: the
    shipped database) and the default point limit. Raises DeckError naming the deck file and
    the card when ``db`` lacks one of their cards."""
    db = load_card_db() if db is None else db
    return dict(_shipped_decks(db))


@functools.lru_cache(maxsize=8)
def _shipped_decks(db: CardDb) -> tuple[tuple[str, Deck], ...]:
    out: dict[str, Deck] = {}
    for name, path in shipped_deck_files().items():
        deck = read_deck_file(path, db)
        validate_deck(deck, db, DEFAULT_POINT_LIMIT)
        out[name] = deck
    return tuple(out.items())


@functools.lru_cache(maxsize=1)
def _shipped_deck_files() -> tuple[tuple[str, Path], ...]:
    out: dict[str, Path] = {}
    for path in sorted(DECKS_DIR.glob("*.toml")):
        name = read_toml(path).get("name", path.stem)
        if name in out:
            raise DeckError(f"{path}: deck name {name!r} is also the name of {out[name]}")
        out[str(name)] = path
    return tuple(out.items())


def shipped_deck_files() -> dict[str, Path]:
    """The shipped deck files (``data/decks/*.toml``) by deck name."""
    return dict(_shipped_deck_files())


def random_deck(db: CardDb, rng: Any, point_limit: int = DEFAULT_POINT_LIMIT, *,
                min_characters: int = 4) -> Deck:
    """A random legal deck (RB-1.1, RB-1.2): cards are drawn one by one among those that still
    fit (copies and points), a character with probability 0.6 (always until ``min_characters``
    characters are in), until no card fits. Equal seeds give equal decks.

    Args:
        rng: a ``numpy.random.Generator`` or a ``random.Random``.
        point_limit: the deck's point limit (>= the cheapest card's points).

    Raises:
        ConfigError: ``point_limit`` not an int >= 1, or below the cheapest card.
    """
    point_limit = _check_limit(point_limit)
    if hasattr(rng, "integers"):
        def pick(n: int) -> int:
            return int(rng.integers(n))

        def coin() -> float:
            return float(rng.random())
    elif isinstance(rng, random.Random):
        pick, coin = rng.randrange, rng.random
    else:
        raise ConfigError(f"rng must be a numpy.random.Generator or random.Random, got "
                          f"{type(rng).__name__}")
    if min(c.points for c in db.cards) > point_limit:
        raise ConfigError(f"deck_point_limit {point_limit} is below the cheapest card's points")
    counts: Counter[str] = Counter()
    left, chars = point_limit, 0
    while True:
        fits = [c for c in db.cards
                if c.points <= left and counts[c.id] < copies_allowed(c)]
        if not fits:
            break
        characters = [c for c in fits if c.is_character]
        pool = characters if characters and (chars < min_characters or coin() < 0.6) else fits
        card = pool[pick(len(pool))]
        counts[card.id] += 1
        left -= card.points
        chars += card.is_character
    deck = Deck("random", tuple(sorted(counts.elements())), "random")
    validate_deck(deck, db, point_limit)
    return deck
