"""Rust Brawl card data (RB-2, RB-8): pydantic models, TOML loading, the card database.

Card data
---------
A card-data file is TOML with one ``[[card]]`` table a card (the shipped database is
``data/cards.toml``, all 174 names of the four set lists; ``data/small.toml`` is a 20-card
database for engine tests)::

    [[card]]
    id = "ospaly_vstupar"      # ASCII [a-z0-9_], unique in the file
    name = "Ospalý Vstupař"    # as printed (the seed's set list)
    set = "RUSTHAVEN 2026"     # "RUSTHAVEN 2026" | "REDNECK 2025" | "RUSTHAVEN 2025" | "RUSTHAVEN 2024"
    number = 1                 # its number in the set list, >= 1; (set, number) unique
    kind = "character"         # RB-2.1: character | vehicle | support | equipment | explosive
    icon = "melee"             # character: melee | ranged | heal; vehicle: wheel;
                               # support: lightning; equipment: clothing; explosive: flame
    dmg = 3                    # 0..99 (explosive: blast DMG; equipment: DMG bonus to its character)
    hlt = 6                    # 1..99 for character / vehicle / support; 0..99 equipment
                               # (HLT gained once when attached); 0 for explosives
    points = 13                # point value (bodová hodnota), 1..999 (RB-1.2, RB-6.6 lottery)
    unique = false             # unikát: at most one copy in a deck (RB-1.1)
    traits = ["Human"]         # from TRAITS, no repeats
    abilities = [{ kind = "return_strike" }]   # RB-8 vocabulary (a kind may repeat, below)
    origin = "designed"        # "designed" (values made up for this project) or "printed"

Ability fields (``kind`` from ABILITY_KINDS; a field a kind does not use must be absent):

=================  ==================================  ==========================================
kind               fields                              holders
=================  ==================================  ==========================================
boost_dmg          amount >= 1, trait?, icon?          character, vehicle, support, equipment
boost_hlt          amount >= 1, trait?, icon?          character, vehicle, support, equipment
reduce             amount >= 1                         character, vehicle, support, equipment
reduce_vs          amount >= 1, against                character, vehicle, support, equipment
paralysis_immune   -                                   character, vehicle, support, equipment
paralyse           -                                   melee/ranged character, equipment
return_strike      -                                   character, equipment
hit_all            -                                   melee/ranged character, equipment
removes_hlt        amount? (RB-6.13)                   melee/ranged character, equipment
heal_all           -                                   heal character, equipment
lottery            reward ("draw" | "damage"), amount  any kind
draw               amount >= 1                         any kind
extra_dmg_vs       amount >= 1, trait                  character, equipment, explosive
=================  ==================================  ==========================================

``trait`` is one of TRAITS; ``icon`` (the aura form) is ``melee``, ``ranged`` or ``heal``;
``against`` is a trait or ``melee`` / ``ranged``; an ``amount`` is 1..99. A card may carry
several abilities of one kind with other filters or amounts (RB-8: e.g. ``reduce_vs`` 1 against
melee and 1 against Mech); they add up. The same ability twice (every field equal) is an error.
``removes_hlt`` without an ``amount`` removes the card's printed DMG, with one that amount
(RB-6.13). The engine's meaning of each kind: RB-8 in
``docs/rules/rust_brawl.md``; :func:`ability_text` renders it in English (the card list
``docs/cards/rust_brawl.md`` is generated from the data with it).

Every failure of a card-data file raises :class:`~card_envs.core.errors.CardDataError` naming the
file, the entry (index and name) and the field; duplicate ids and duplicate (set, number) pairs
are errors too. A user-supplied file replaces the shipped database: ``load_card_db(path)``.

Strength score (the designed point values; the heuristic bot ranks cards by it)
-------------------------------------------------------------------------------
:func:`strength_score` of a card with DMG ``D``, HLT ``H`` and abilities of amount ``a``
(version 2: weights fitted to heuristic-vs-heuristic games over random legal decks, see
``docs/cards/rust_brawl.md``)::

    base   character  3.5*D + H + D*H/4 - 15 + (4.5 if ranged, 2.5 if heal, 0 if melee)
           vehicle    2.5*H - 4        (it draws the opponent's ranged attacks, RB-5.2)
           support    1                (never acts; it takes a table position)
           equipment  2*D + 4*H
           explosive  3.5*D            (hits every opposing table card, RB-5.5)
    + per ability
           boost_dmg         10a to all friendly cards, 3a to an action icon, 0 to a trait
           boost_hlt         6a to all, 1.5a to an action icon, 1a to a trait
           reduce            0.45a*D*H on a character, 3.5a on any other card
           reduce_vs         2.5a
           paralysis_immune  2.5
           paralyse          4.5
           return_strike     1.2*D*H on a character, 11 on equipment
           hit_all           1.5*D*H on a character, 6 on equipment
           removes_hlt       D (a if stated) on a character, 1 on equipment
           heal_all          4.5
           lottery           1a  (either reward)
           draw              1.5a
           extra_dmg_vs      0.5a
    + 3 if unique (a personality)

The shipped designed cards have ``points == max(1, round(strength_score(card)))`` up to
:data:`POINTS_TOLERANCE` (room for balance tuning; a test checks it); a 250-point deck (RB-1.2)
holds about 15 to 22 cards.

Decks (RB-1: deck files, deck legality, random decks) are in :mod:`.decks`; the generated card
list ``docs/cards/rust_brawl.md`` in :mod:`.card_list`. The deck names this module had before
the split (``load_deck``, ``Deck``, ``validate_deck``, ...) are still importable from it.
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pydantic

from card_envs.core.cards import StrictModel, load_tables
from card_envs.core.errors import CardDataError, LoadoutError
from card_envs.core.files import file_stamp
from card_envs.rust_brawl.constants import (
    ABILITY_KINDS,
    ATTACK_TYPES,
    ICONS,
    KIND_ICONS,
    KINDS,
    LOTTERY_REWARDS,
    MAX_ABILITIES,
    TRAITS,
)

DATA_DIR = Path(__file__).parent / "data"
#: the shipped database: every listed name (RB-2.4), designed values
DEFAULT_CARDS = DATA_DIR / "cards.toml"
#: the small database for engine tests (20 cards, every kind and every RB-8 ability)
SMALL_CARDS = DATA_DIR / "small.toml"
#: the action icons of characters (the aura filter ``icon`` of boost_dmg / boost_hlt)
CHARACTER_ICONS = KIND_ICONS["character"]
#: |points - strength score| allowed for the shipped designed cards
POINTS_TOLERANCE = 3

_ANY = tuple(KINDS)
_PASSIVE = ("character", "vehicle", "support", "equipment")
#: per ability kind: the fields it uses besides ``kind`` (required unless marked optional with
#: "?") and the card kinds that may hold it
ABILITY_SPEC: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "boost_dmg": (("amount", "trait?", "icon?"), _PASSIVE),
    "boost_hlt": (("amount", "trait?", "icon?"), _PASSIVE),
    "reduce": (("amount",), _PASSIVE),
    "reduce_vs": (("amount", "against"), _PASSIVE),
    "paralysis_immune": ((), _PASSIVE),
    "paralyse": ((), ("character", "equipment")),
    "return_strike": ((), ("character", "equipment")),
    "hit_all": ((), ("character", "equipment")),
    "removes_hlt": (("amount?",), ("character", "equipment")),  # RB-6.13
    "heal_all": ((), ("character", "equipment")),
    "lottery": (("reward", "amount"), _ANY),
    "draw": (("amount",), _ANY),
    "extra_dmg_vs": (("amount", "trait"), ("character", "equipment", "explosive")),
}
#: abilities a character holds only with these action icons
_ICON_ONLY: dict[str, tuple[str, ...]] = {
    "paralyse": ("melee", "ranged"), "hit_all": ("melee", "ranged"),
    "removes_hlt": ("melee", "ranged"), "heal_all": ("heal",),
}
assert set(ABILITY_SPEC) == set(ABILITY_KINDS), "ABILITY_SPEC must cover constants.ABILITY_KINDS"
assert set(KIND_ICONS) == set(KINDS) and {i for v in KIND_ICONS.values() for i in v} == set(ICONS)

_Id = pydantic.constr(pattern=r"^[a-z0-9_]+$", min_length=1, max_length=60)


# -- errors ------------------------------------------------------------------------------------
class DeckError(CardDataError, LoadoutError):
    """A deck list is malformed or breaks RB-1.1 / RB-1.2; the message names the deck, the card
    and the rule (a :class:`~card_envs.core.errors.CardDataError` and a
    :class:`~card_envs.core.errors.LoadoutError`)."""


class UnknownCardError(DeckError):
    """A card name or id not in the database; the message names it and the closest matches."""


# -- pydantic models of the file ------------------------------------------------------------------
class AbilityModel(StrictModel):
    """One ability of a card (RB-8); see the module docstring for the fields each kind uses."""

    kind: str
    amount: int | None = pydantic.Field(default=None, ge=1, le=99)
    trait: str | None = None
    icon: str | None = None
    against: str | None = None
    reward: str | None = None

    @pydantic.model_validator(mode="after")
    def _fields_of_kind(self) -> AbilityModel:
        if self.kind not in ABILITY_SPEC:
            raise ValueError(f"unknown ability kind {self.kind!r}; the RB-8 kinds are "
                             f"{', '.join(ABILITY_KINDS)}")
        fields, _ = ABILITY_SPEC[self.kind]
        required = {f for f in fields if not f.endswith("?")}
        allowed = {f.rstrip("?") for f in fields}
        for name in ("amount", "trait", "icon", "against", "reward"):
            present = getattr(self, name) is not None
            if present and name not in allowed:
                raise ValueError(f"{self.kind} takes no {name!r} (it uses "
                                 f"{', '.join(sorted(allowed)) or 'no fields'})")
            if not present and name in required:
                raise ValueError(f"{self.kind} needs {name!r}"
                                 + (" >= 1" if name == "amount" else ""))
        if self.trait is not None and self.trait not in TRAITS:
            raise ValueError(f"trait {self.trait!r} is not one of {', '.join(TRAITS)}")
        if self.icon is not None and self.icon not in CHARACTER_ICONS:
            raise ValueError(f"icon {self.icon!r} is not a character icon "
                             f"({', '.join(CHARACTER_ICONS)})")
        if self.trait is not None and self.icon is not None:
            raise ValueError(f"{self.kind}: give a trait or an icon filter, not both")
        if self.against is not None and self.against not in (*TRAITS, *ATTACK_TYPES):
            raise ValueError(f"against {self.against!r} is not a trait ({', '.join(TRAITS)}) "
                             "nor 'melee' / 'ranged'")
        if self.reward is not None and self.reward not in LOTTERY_REWARDS:
            raise ValueError(f"reward {self.reward!r} is not one of {', '.join(LOTTERY_REWARDS)}")
        return self


class CardModel(StrictModel):
    """One ``[[card]]`` entry (RB-2.1, RB-2.2); the module docstring lists the fields."""

    id: _Id  # type: ignore[valid-type]
    name: str = pydantic.Field(min_length=1, max_length=80)
    set: Literal["RUSTHAVEN 2026", "REDNECK 2025", "RUSTHAVEN 2025", "RUSTHAVEN 2024"]
    number: int = pydantic.Field(ge=1, le=999)
    kind: str
    icon: str
    dmg: int = pydantic.Field(ge=0, le=99)
    hlt: int = pydantic.Field(ge=0, le=99)
    points: int = pydantic.Field(ge=1, le=999)
    unique: bool = False
    traits: list[str] = pydantic.Field(default_factory=list, max_length=len(TRAITS))
    abilities: list[AbilityModel] = pydantic.Field(default_factory=list, max_length=MAX_ABILITIES)
    origin: Literal["designed", "printed"]

    @pydantic.field_validator("name")
    @classmethod
    def _name_text(cls, name: str) -> str:
        if name != name.strip() or any(unicodedata.category(ch)[0] == "C" for ch in name):
            raise ValueError("a name has no leading/trailing spaces or control characters")
        return name

    @pydantic.field_validator("kind")
    @classmethod
    def _kind_known(cls, kind: str) -> str:
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r} is not one of {', '.join(KINDS)} (RB-2.1)")
        return kind

    @pydantic.field_validator("traits")
    @classmethod
    def _traits_known(cls, traits: list[str]) -> list[str]:
        for t in traits:
            if t not in TRAITS:
                raise ValueError(f"trait {t!r} is not one of {', '.join(TRAITS)}")
        if len(set(traits)) != len(traits):
            raise ValueError(f"a trait is repeated in {traits}")
        return traits

    @pydantic.model_validator(mode="after")
    def _consistent(self) -> CardModel:
        if self.icon not in KIND_ICONS[self.kind]:
            raise ValueError(f"icon {self.icon!r} does not fit kind {self.kind!r} (a {self.kind} "
                             f"shows {' | '.join(KIND_ICONS[self.kind])}, RB-2.1)")
        if self.kind in ("character", "vehicle", "support") and self.hlt < 1:
            raise ValueError(f"a {self.kind} needs hlt >= 1")
        if self.kind == "explosive" and self.hlt != 0:
            raise ValueError("an explosive has hlt = 0 (it never stays on the table)")
        seen: dict[tuple, int] = {}
        for i, ab in enumerate(self.abilities):
            key = (ab.kind, ab.amount, ab.trait, ab.icon, ab.against, ab.reward)
            if key in seen:  # RB-8: a kind repeats only with other filters or amounts
                raise ValueError(f"abilities[{i}]: the same {ab.kind!r} as abilities[{seen[key]}] "
                                 "(a kind may repeat only with another filter or amount, RB-8; "
                                 "give one with the summed amount)")
            seen[key] = i
            holders = ABILITY_SPEC[ab.kind][1]
            if self.kind not in holders:
                raise ValueError(f"abilities[{i}]: a {self.kind} cannot hold {ab.kind!r} "
                                 f"(holders: {', '.join(holders)})")
            icons = _ICON_ONLY.get(ab.kind)
            if icons and self.kind == "character" and self.icon not in icons:
                raise ValueError(f"abilities[{i}]: {ab.kind!r} needs a {' or '.join(icons)} "
                                 f"character, this one is {self.icon}")
        return self


# -- the runtime records ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ability:
    """One RB-8 ability: ``kind`` from ABILITY_KINDS; ``amount`` (>= 0, 0 when unused; a
    removes_hlt without a stated amount has 0: it removes the card's printed DMG, RB-6.13);
    ``trait`` / ``icon`` filters of boosts, ``trait`` of extra_dmg_vs; ``against`` of reduce_vs;
    ``reward`` of lottery ("draw" | "damage")."""

    kind: str
    amount: int = 0
    trait: str | None = None
    icon: str | None = None
    against: str | None = None
    reward: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a database. ``index`` is its 0-based position in :attr:`CardDb.cards` (the
    engine's card number); the other fields are the file's (module docstring)."""

    index: int
    id: str
    name: str
    set: str
    number: int
    kind: str
    icon: str
    dmg: int
    hlt: int
    points: int
    unique: bool
    traits: tuple[str, ...]
    abilities: tuple[Ability, ...]
    origin: str

    @property
    def is_character(self) -> bool:
        """A card with a melee, ranged or heal icon (RB-2.2: the victory rules' "characters")."""
        return self.kind == "character"

    def has(self, kind: str) -> bool:
        """Whether the card holds the ability ``kind``."""
        return any(a.kind == kind for a in self.abilities)

    def ability(self, kind: str) -> Ability | None:
        """The card's first ability of that kind, or None (a kind may repeat, RB-8)."""
        for a in self.abilities:
            if a.kind == kind:
                return a
        return None

    @property
    def label(self) -> str:
        """``Name (id)`` for messages."""
        return f"{self.name} ({self.id})"


def _fold(text: str) -> str:
    """Lower-case ASCII form of a name: accents dropped, other characters kept."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


@dataclass(frozen=True)
class CardDb:
    """A validated card database: ``cards`` in file order (``cards[i].index == i``) and the
    ``source`` file path."""

    cards: tuple[Card, ...]
    source: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "_ids", {c.id: c for c in self.cards})
        names: dict[str, Card] = {}
        for c in self.cards:
            names.setdefault(c.name, c)
        object.__setattr__(self, "_names", names)
        folded: dict[str, list[Card]] = {}
        for c in self.cards:
            folded.setdefault(_fold(c.name), []).append(c)
        object.__setattr__(self, "_folded", folded)

    def __hash__(self) -> int:  # cached: a database is a cache key (shipped decks, engines)
        try:
            return self._hash  # type: ignore[attr-defined]
        except AttributeError:
            object.__setattr__(self, "_hash", hash((self.cards, self.source)))
            return self._hash  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def by_id(self, card_id: str) -> Card:
        """The card with this id. Raises UnknownCardError naming it and close ids."""
        card = self._ids.get(card_id)  # type: ignore[attr-defined]
        if card is None:
            raise UnknownCardError(f"{self.source}: unknown card id {card_id!r}"
                                   + self._suggest(card_id))
        return card

    def lookup(self, name_or_id: str) -> Card:
        """The card with this id or printed name (exact, or the same name ignoring case and
        accents when only one card has it). Raises UnknownCardError naming it and up to 3 close
        names."""
        if not isinstance(name_or_id, str):
            raise UnknownCardError(f"a card is named by its name or id (a string), got "
                                   f"{type(name_or_id).__name__} {name_or_id!r}")
        card = self._ids.get(name_or_id) or self._names.get(name_or_id)  # type: ignore[attr-defined]
        if card is not None:
            return card
        same = self._folded.get(_fold(name_or_id.strip()), [])  # type: ignore[attr-defined]
        if len(same) == 1:
            return same[0]
        raise UnknownCardError(f"unknown card {name_or_id!r} (not a name or id in "
                               f"{self.source})" + self._suggest(name_or_id))

    def _suggest(self, text: str) -> str:
        pool = {_fold(c.name): c.name for c in self.cards}
        pool.update({c.id: c.name for c in self.cards})
        close = difflib.get_close_matches(_fold(str(text)), list(pool), n=6, cutoff=0.6)
        names = list(dict.fromkeys(pool[k] for k in close))[:3]
        return f"; did you mean {', '.join(repr(n) for n in names)}?" if names else ""


def _to_card(index: int, m: CardModel) -> Card:
    return Card(
        index=index, id=m.id, name=m.name, set=m.set, number=m.number, kind=m.kind, icon=m.icon,
        dmg=m.dmg, hlt=m.hlt, points=m.points, unique=m.unique, traits=tuple(m.traits),
        abilities=tuple(Ability(a.kind, a.amount or 0, a.trait, a.icon, a.against, a.reward)
                        for a in m.abilities),
        origin=m.origin)


def load_card_db(path: str | Path | None = None) -> CardDb:
    """Load and validate a card-data file (``None``: the shipped ``data/cards.toml``). Results are
    cached per (path, modification time, size), so an edited file is read again.

    Raises:
        CardDataError: naming the file and the entry (index, name) and field: unreadable or
            invalid TOML, no ``[[card]]`` entries, an unknown top-level key, a missing, extra or
            out-of-range field, an ability that does not fit its kind or card, a duplicate id,
            name or (set, number).
    """
    p = Path(path) if path is not None else DEFAULT_CARDS
    return _load_card_db(str(p), file_stamp(p))


@functools.lru_cache(maxsize=16)
def _load_card_db(source: str, _stamp: tuple[int, int] | None) -> CardDb:
    """The database of ``source`` (the core's :func:`~card_envs.core.cards.load_tables`: the
    ``[[card]]`` array and an optional ``[meta]`` table; id, name and (set, number) unique)."""
    models = load_tables(source, {"card": CardModel}, header=("meta",),
                         unique=("id", "name", ("set", "number")))[1]["card"]
    return CardDb(tuple(_to_card(i, m) for i, m in enumerate(models)), source)


# -- the strength score ---------------------------------------------------------------------------
def strength_score(card: Card) -> float:
    """The documented strength score of a card (the module docstring's formula, version 2); the
    designed point values follow it and the heuristic bot ranks cards by it. Returns a float
    (below 1 for the weakest cards; their points are 1)."""
    d, h = card.dmg, card.hlt
    if card.kind == "character":
        score = 3.5 * d + h + d * h / 4 - 15 + {"melee": 0, "ranged": 4.5, "heal": 2.5}[card.icon]
    elif card.kind == "vehicle":
        score = 2.5 * h - 4
    elif card.kind == "support":
        score = 1.0
    elif card.kind == "equipment":
        score = 2 * d + 4 * h
    else:
        score = 3.5 * d
    char = card.kind == "character"
    for ab in card.abilities:
        a = ab.amount
        score += {
            "boost_dmg": 0 if ab.trait else (3 if ab.icon else 10) * a,
            "boost_hlt": (1 if ab.trait else 1.5 if ab.icon else 6) * a,
            "reduce": 0.45 * a * d * h if char else 3.5 * a,
            "reduce_vs": 2.5 * a,
            "paralysis_immune": 2.5,
            "paralyse": 4.5,
            "return_strike": 1.2 * d * h if char else 11,
            "hit_all": 1.5 * d * h if char else 6,
            "removes_hlt": (a or d) if char else 1,
            "heal_all": 4.5,
            "lottery": a,
            "draw": 1.5 * a,
            "extra_dmg_vs": 0.5 * a,
        }[ab.kind]
    if card.unique:
        score += 3
    return float(score)


# -- ability texts ------------------------------------------------------------------------------
def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def ability_text(ab: Ability) -> str:
    """The English text of an ability, e.g. ``"+1 DMG to other friendly Miner cards"``."""
    def whom() -> str:
        if ab.trait:
            return f"other friendly {ab.trait} cards"
        if ab.icon:
            return f"other friendly {ab.icon} characters"
        return "other friendly table cards"

    k, a = ab.kind, ab.amount
    if k == "boost_dmg":
        return f"+{a} DMG to {whom()} while this card is on the table"
    if k == "boost_hlt":
        return f"+{a} HLT (current and maximum, kept) to {whom()}"
    if k == "reduce":
        return f"takes {a} less damage (after cover)"
    if k == "reduce_vs":
        src = f"{ab.against} attacks" if ab.against in ("melee", "ranged") else f"{ab.against} cards"
        return f"takes {a} less damage from {src}"
    if k == "paralysis_immune":
        return "cannot be paralysed"
    if k == "paralyse":
        return "its attacks paralyse every card they hit"
    if k == "return_strike":
        return "return strike (deals its DMG to an attacker)"
    if k == "hit_all":
        return "its attack hits every opposing character at full DMG"
    if k == "removes_hlt":
        if a:  # RB-6.13: an amount printed with the ability
            return f"its attack removes {a} HLT (no cover or reductions)"
        return "its attack removes HLT equal to its printed DMG (no cover or reductions)"
    if k == "heal_all":
        return "its heal heals every friendly table card"
    if k == "lottery":
        prize = (f"draw {_plural(a, 'card')}" if ab.reward == "draw"
                 else f"deal {a} DMG to every opposing table card")
        return f"on play: lottery; if you win, {prize}"
    if k == "draw":
        return f"on play: draw {_plural(a, 'card')}"
    if k == "extra_dmg_vs":
        return f"+{a} DMG against {ab.trait} cards"
    raise ValueError(f"unknown ability kind {k!r}")


def card_text(card: Card) -> str:
    """All abilities of a card as one English sentence list ("Unique." first; equipment texts
    say what they grant)."""
    parts = ["Unique." if card.unique else ""]
    texts = [ability_text(a) for a in card.abilities]
    if card.kind == "equipment":
        bonus = [f"+{card.dmg} DMG" if card.dmg else "", f"+{card.hlt} HLT" if card.hlt else ""]
        bonus = [b for b in bonus if b]
        head = "Assign to a character" + (f": {', '.join(bonus)}" if bonus else "")
        parts.append(head + (f"; it gains: {'; '.join(texts)}." if texts else "."))
    elif card.kind == "explosive":
        parts.append(f"On play: deals {card.dmg} DMG to every opposing table card."
                     + "".join(f" {t[0].upper()}{t[1:]}." for t in texts))
    else:
        parts.extend(f"{t[0].upper()}{t[1:]}." for t in texts)
    return " ".join(p for p in parts if p)


# -- the names this module had before decks and the card list moved out ---------------------------
#: name -> the module now defining it (:mod:`.decks`, :mod:`.card_list`); read on first use
#: (PEP 562), since both import this module
_MOVED = {
    **dict.fromkeys(("DECKS_DIR", "DEFAULT_POINT_LIMIT", "MAX_COPIES", "Deck", "deck_points",
                     "load_deck", "random_deck", "read_deck_file", "shipped_deck_files",
                     "shipped_decks", "validate_deck"), "decks"),
    **dict.fromkeys(("main", "render_docs"), "card_list"),
}


def __getattr__(name: str) -> Any:
    """The deck API (:mod:`.decks`) and the card-list generator (:mod:`.card_list`) by their
    old path ``card_envs.rust_brawl.cards.<name>``. Raises AttributeError for any other name."""
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"card_envs.rust_brawl.{home}"), name)
