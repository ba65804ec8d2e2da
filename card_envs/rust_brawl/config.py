"""Rust Brawl configuration: every DECISION of the rules (``docs/rules/rust_brawl.md``, rule ids
``RB-…``) that a player may want to change is a named field with its default; a wrong value is a
:class:`~card_envs.core.errors.ConfigError` naming the field.

The decks and the card database are checked when the game is built (they need the card data):
an unknown card or an illegal deck is a ``DeckError`` / ``CardDataError`` naming the card and
the rule (:mod:`.cards`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from card_envs.core.config import GameConfig, setting
from card_envs.core.errors import ConfigError
from card_envs.rust_brawl.constants import (
    MAX_EQUIPMENT_LIMIT,
    MAX_HAND_LIMIT,
    NUM_SEATS,
)

#: the largest ``max_turns`` a config may ask for (the state's static bound)
MAX_TURNS_LIMIT = 10_000


def _deck_spec(where: str, spec: Any) -> str | tuple[str, ...]:
    """One seat's deck spec: a shipped deck name or a deck file path (a string), or the card
    names / ids of the deck, one per copy (a list of strings)."""
    if isinstance(spec, str):
        if not spec:
            raise ConfigError(f"config field {where!r}: an empty deck name")
        return spec
    if hasattr(spec, "__fspath__"):  # a pathlib.Path
        return str(spec)
    if isinstance(spec, (list, tuple)):
        if not all(isinstance(x, str) for x in spec):
            bad = next(x for x in spec if not isinstance(x, str))
            raise ConfigError(f"config field {where!r}: {bad!r} is not a card name or id "
                              "(a deck list holds strings, one per copy)")
        return tuple(spec)
    raise ConfigError(f"config field {where!r}: {spec!r} is not a deck (a shipped deck name, a "
                      "deck file path, or a list of card names / ids)")


@dataclass(frozen=True)
class RustBrawlConfig(GameConfig):
    """Configuration of a Rust Brawl game (always 2 seats, RB-3.1).

    Attributes:
        decks: RB-3.4 DECISION deck choice. ``None`` (default): each seat gets one of the
            shipped decks, chosen by the reset seed (each seat independently, so a mirror match
            can happen); ``"random"``: each seat gets a random legal deck
            (``decks.random_deck``) drawn from the reset seed; or a pair ``(seat 0, seat 1)``
            of deck specs, each a shipped deck name, a path to a deck file, a list of card
            names / ids (one per copy), or ``"random"`` (that seat gets a random legal deck
            drawn from the reset seed).
        card_db: RB-2.4 DECISION path of a card-database TOML file replacing the shipped one
            (``None``: the shipped ``data/cards.toml``).
        deck_point_limit: RB-1.2 the most points a deck may have (250); every deck is checked
            against it (RB-1.1, RB-1.2).
        open_decklists: RB-3.3 DECISION each player knows the cards the opponent's deck was
            built from (default ``True``); ``False``: the observation gives only the counts of
            the opponent's hidden cards, and ``sample_hidden`` draws the opponent's unseen
            cards from the card pool.
        empty_deck: RB-4.1 DECISION a draw from an empty deck: ``"nothing"`` (default: nothing
            happens) or ``"lose"`` (the player who cannot draw loses at once).
        equipment_per_character: RB-4.3 DECISION how many equipment cards one character may
            hold (1; 1–3).
        max_hand: RB-4.4 DECISION the hard hand limit (10; 5–20): a card drawn beyond it goes
            straight to the graveyard. The action and observation layouts have one slot per
            hand card.
        heal_self: RB-5.3 DECISION a healer may heal itself (default ``True``).
        paralysis_turns: RB-6.4 DECISION paralysis lasts until the end of the paralysed card's
            owner's ``paralysis_turns``-th next turn (1; 1–5).
        immunity_ends_paralysis: RB-6.18 DECISION immunity to paralysis that a paralysed card
            gains (an equipment granting ``paralysis_immune`` attached to it) ends the running
            paralysis at once (default ``True``); ``False``: the running paralysis lasts its
            full time and the immunity only prevents new ones. Immunity lost later never
            brings a paralysis back.
        attacker_leaves_cover_first: RB-6.8 DECISION an attacker leaves cover as its attack
            starts, so a strike returned to it is not halved (default ``True``; ``False``: it
            leaves cover after the attack and a returned strike is halved).
        table_points_with_equipment: RB-7.5 DECISION the table point sum of RB-7.2 counts the
            attached equipment too (default ``True``).
        stalemate_turns: RB-7.4(c) DECISION full quiet turns of each player (both decks empty,
            no HLT changed, no card played or destroyed) that end the game by the point sums
            of RB-7.2 (3: 6 quiet player turns in a row; 1–50).
        stalemate_repeats: RB-7.4(c) DECISION (the project's settlement of heal-vs-damage
            loops, RB-7.2 "neither can remove the other's last character"): with both decks
            empty, a player's turn also counts as quiet when the whole public table (every
            position's card, current and maximum HLT, cover, paralysis left, equipment) at
            its end equals the table at the end of the same player's previous turn and no
            card was played, discarded or destroyed since (default ``True``; ``False``: only
            turns where no HLT changed are quiet).
        stalemate_cycles: RB-7.6 DECISION (a repeating table is a stalemate, RB-7.2): with
            both decks empty, a player's turn also counts as quiet when the whole public table
            at its end equals the table at the end of *any* earlier turn of the same player
            since a card was last played, discarded or destroyed, so a heal-vs-damage cycle of
            any period ends the game by RB-7.2 (default ``True``; it includes the previous
            turn, so it covers ``stalemate_repeats``; ``False``: only the previous turn, as
            ``stalemate_repeats`` alone, the ``rust_brawl_v0`` rule, under which cycles of
            period 2 or more ran to the turn cap).
        max_turns: RB-7.4 DECISION the turn cap (500 player turns in all): the game ends
            there as a truncation.
    """

    decks: Any = None
    card_db: str | None = None
    deck_point_limit: int = setting(250, between=(1, 100_000))
    open_decklists: bool = True
    empty_deck: str = setting("nothing", one_of=("nothing", "lose"))
    equipment_per_character: int = setting(1, between=(1, MAX_EQUIPMENT_LIMIT))
    max_hand: int = setting(10, between=(5, MAX_HAND_LIMIT))
    heal_self: bool = True
    paralysis_turns: int = setting(1, between=(1, 5))
    immunity_ends_paralysis: bool = True
    attacker_leaves_cover_first: bool = True
    table_points_with_equipment: bool = True
    stalemate_turns: int = setting(3, between=(1, 50))
    stalemate_repeats: bool = True
    stalemate_cycles: bool = True
    max_turns: int = setting(500, between=(1, MAX_TURNS_LIMIT))

    def __post_init__(self) -> None:
        super().__post_init__()  # every field's declared values (GameConfig)
        decks = self.decks
        if decks is not None and decks != "random":
            if isinstance(decks, str) or not isinstance(decks, (list, tuple)):
                raise ConfigError(f"config field 'decks': {decks!r} is not None, 'random' or a "
                                  f"pair of deck specs (one per seat)")
            if len(decks) != NUM_SEATS:
                raise ConfigError(f"config field 'decks': {len(decks)} deck specs given, "
                                  f"Rust Brawl has {NUM_SEATS} seats (one deck each)")
            object.__setattr__(self, "decks", tuple(_deck_spec(f"decks[{i}]", d)
                                                    for i, d in enumerate(decks)))
        if self.card_db is not None:
            if hasattr(self.card_db, "__fspath__"):
                object.__setattr__(self, "card_db", str(self.card_db))
            if not isinstance(self.card_db, str) or not self.card_db:
                raise ConfigError(f"config field 'card_db': {self.card_db!r} is not a path")

    def to_dict(self) -> dict[str, Any]:
        """The config as JSON-able data (deck lists as lists)."""
        out = dataclasses.asdict(self)
        if isinstance(self.decks, tuple):
            out["decks"] = [list(d) if isinstance(d, tuple) else d for d in self.decks]
        return out
