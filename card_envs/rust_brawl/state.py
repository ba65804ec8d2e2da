"""Rust Brawl state: the declaration (:class:`RustBrawlState`) and the invariant check
:func:`check_state` (rule ids ``RB-…`` of ``docs/rules/rust_brawl.md``).

Cards are card-database indices (``Card.index``, ``0 .. len(db)-1``); every copy of a card is the
same int. Per seat: ``decklists[p]`` is the deck the seat was dealt (sorted), ``decks[p]`` its
draw pile (top = end: ``pop()`` draws), ``hands[p]`` its hand (sorted, so hand slot ``i`` of the
action layout is ``hands[p][i]``), ``graveyards[p]`` in the order cards arrived.

The table of seat ``p`` is 4 positions (index ``j`` = position ``j+1``), one entry per position
in each of the parallel per-slot lists (a slot's record spelled out by field):
``table`` (card, ``-1`` empty), ``hlt`` (current HLT; a card at 0 or less is destroyed and stays
until the end of the turn, RB-6.1), ``max_hlt``, ``cover``, ``paralysed_until`` (0: not
paralysed; else the owner's turn number at whose end the paralysis ends, RB-6.4), ``serial``
(the card's arrival number on the table: the identity of a booster, 0 for an empty slot),
``equipment`` (attached equipment cards, RB-5.7) and ``granted`` (the HLT boosts already
granted to the card, one :class:`HltBoost` per (booster, card) pair, RB-6.14). Occupied positions always form a prefix
(positions fill from the lowest, RB-4.3, and shift down at the end of a turn, RB-4.5; a
destroyed card keeps its position until then, RB-4.6).

The declaration's static ranges are checked by the core when a state is loaded; the bounds that
depend on the config and the card data are :func:`check_state`'s, which reads them from the game
object it is handed (public attributes and methods of
:class:`~card_envs.rust_brawl.rules.RustBrawlGame`; this module does not import the rules).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from card_envs.core.errors import StateError
from card_envs.core.state import GameState, check_cards, check_len, check_range, fail
from card_envs.rust_brawl.config import MAX_TURNS_LIMIT
from card_envs.rust_brawl.constants import (
    CHARACTER,
    DISCARD,
    END,
    EQUIP_TARGET,
    EQUIPMENT,
    EXPLOSIVE,
    HAND_KEEP,
    HEAL_TARGET,
    MAX_ABILITIES,
    MAX_EQUIPMENT_LIMIT,
    NUM_SEATS,
    PHASES,
    PLAY,
    PLAY_OR_DISCARD,
    POSITIONS,
    RANGED_TARGET,
    SUPPORT,
    VEHICLE,
)
from card_envs.rust_brawl.decks import deck_problem as rb_deck_problem

#: static bounds of the declaration (config- and data-dependent bounds are check_state's)
MAX_CARD_ID = 9_999
MAX_HLT = 10_000
MAX_SERIAL = 1_000_000

Seat = Annotated[int, Field(ge=0, le=NUM_SEATS - 1)]
CardId = Annotated[int, Field(ge=0, le=MAX_CARD_ID)]
SlotCard = Annotated[int, Field(ge=-1, le=MAX_CARD_ID)]
Hlt = Annotated[int, Field(ge=-MAX_HLT, le=MAX_HLT)]
Serial = Annotated[int, Field(ge=0, le=MAX_SERIAL)]
#: the deck name of a random legal deck (``decks="random"``)
RANDOM_DECK = "random"
#: the deck name of an opponent deck ``sample_hidden`` redealt from the card pool
#: (``open_decklists=False``)
UNKNOWN_DECK = "unknown"
EndReason = Literal["", "last_character", "no_characters", "stalemate", "empty_deck",
                    "turn_cap"]


@dataclass(frozen=True, slots=True)
class HltBoost:
    """One HLT boost granted to a table card (RB-6.14): the booster's ``serial`` (its arrival
    number on the table), the ``source`` of the ability (0: the booster card itself, ``1 + m``:
    its ``m``-th equipment), the ability's ``ability`` index on that card, and the ``amount``
    of current and maximum HLT gained (kept after the booster leaves, RB-6.5)."""

    booster: Serial
    source: Annotated[int, Field(ge=0, le=MAX_EQUIPMENT_LIMIT)]
    ability: Annotated[int, Field(ge=0, le=MAX_ABILITIES - 1)]
    amount: Annotated[int, Field(ge=1, le=MAX_HLT)]


@dataclass(slots=True, eq=False)
class RustBrawlState(GameState):
    """A Rust Brawl position (2 seats), declared once (clone / JSON / validation come from the
    core, :mod:`card_envs.core.state`; :func:`check_state` adds the config's invariants).

    Attributes:
        rng: the game's chance (deck shuffles, the starting player, lottery reshuffles; in
            ``decks="random"`` / ``decks=None`` also the deck choice).
        phase: a :class:`~card_envs.rust_brawl.constants.Phase` (a plain int).
        player: the seat whose turn it is (-1 once the game is over).
        starter: the starting player (RB-3.2).
        turn: player turns started so far (1 = the starter's first turn).
        decklists, deck_names: each seat's deck (sorted card indices) and its name.
        decks, hands, graveyards: per seat (see the module docstring).
        table, hlt, max_hlt, cover, paralysed_until, serial, equipment, granted: per seat, per
            position (see the module docstring).
        next_serial: the serial the next card entering a table gets.
        acting: the position acting in the action step (RB-4.2) while a target is chosen;
            ``POSITIONS`` (4) once the action step is over.
        pending: the equipment card being attached (``EQUIP_TARGET``), else -1.
        changed: an HLT changed, or a card was played or destroyed, this turn (RB-7.4(c)).
        quiet_turns: consecutive player turns with both decks empty and nothing changed.
        table_marks: per seat, the public tables (with the hand and graveyard sizes) at the
            ends of that seat's turns from turn ``marks_from`` on, as text keys
            (:func:`table_mark`) in turn order, for ``stalemate_cycles`` (RB-7.6: all of them)
            and ``stalemate_repeats`` (RB-7.4(c): only the last, the seat's previous turn; with
            ``stalemate_cycles=False`` only that one is kept).
        marks_from: the first turn whose end table ``table_marks`` holds (0: none): the last
            turn in which a card was played, discarded or destroyed, or the first turn that
            ended with both decks empty, whichever came later.
        winner: the winning seat once over (-1: a draw, a truncation, or still going).
        end_reason: why the game ended (``""`` while it goes on).
    """

    rng: random.Random
    phase: Annotated[int, Field(ge=0, le=len(PHASES) - 1)]
    player: Annotated[int, Field(ge=-1, le=NUM_SEATS - 1)]
    starter: Seat
    turn: Annotated[int, Field(ge=0, le=MAX_TURNS_LIMIT)]
    decklists: list[list[CardId]]
    deck_names: list[str]
    decks: list[list[CardId]]
    hands: list[list[CardId]]
    graveyards: list[list[CardId]]
    table: list[list[SlotCard]]
    hlt: list[list[Hlt]]
    max_hlt: list[list[Annotated[int, Field(ge=0, le=MAX_HLT)]]]
    cover: list[list[bool]]
    paralysed_until: list[list[Annotated[int, Field(ge=0, le=MAX_TURNS_LIMIT + 10)]]]
    serial: list[list[Serial]]
    equipment: list[list[list[CardId]]]
    granted: list[list[list[HltBoost]]]
    next_serial: Annotated[int, Field(ge=1, le=MAX_SERIAL)]
    acting: Annotated[int, Field(ge=0, le=POSITIONS)]
    pending: SlotCard
    changed: bool
    quiet_turns: Annotated[int, Field(ge=0, le=200)]
    table_marks: list[list[str]]
    marks_from: Annotated[int, Field(ge=0, le=MAX_TURNS_LIMIT)]
    winner: Annotated[int, Field(ge=-1, le=NUM_SEATS - 1)]
    end_reason: EndReason


#: a table mark (:func:`table_mark`): the counts, then each seat's occupied positions
_MARK = re.compile(r"(\d+),(\d+),(\d+),(\d+)\|([^/]*)/([^/]*)")
_MARK_SLOT = re.compile(r"(\d+):([1-9]\d*):(\d+):([01]):(\d+):((?:\d+(?:\.\d+)*)?)")


def table_mark(state: RustBrawlState, turns: list[int]) -> str:
    """The public table at the end of a turn as a text key (RB-7.6, RB-7.4(c)
    ``stalemate_repeats``): ``"h0,h1,g0,g1|seat 0/seat 1"`` with each seat's hand and graveyard
    sizes (with both decks empty they change exactly when a card is played, discarded or
    destroyed) and per occupied position ``card:hlt:max_hlt:cover:paralysis:equipment``
    (positions ``;``-separated, equipment ``.``-separated; paralysis as the owner's turns left,
    ``turns[p]`` being the turns seat ``p`` has started, so a repeat compares equal)."""
    s = state
    seats = []
    for x in range(NUM_SEATS):
        row, par, tx = s.table[x], s.paralysed_until[x], turns[x]
        seats.append(";".join(
            f"{row[j]}:{s.hlt[x][j]}:{s.max_hlt[x][j]}:{int(s.cover[x][j])}:"
            f"{par[j] - tx if par[j] else 0}:{'.'.join(map(str, s.equipment[x][j]))}"
            for j in range(POSITIONS) if row[j] >= 0))
    return (f"{len(s.hands[0])},{len(s.hands[1])},{len(s.graveyards[0])},"
            f"{len(s.graveyards[1])}|" + "/".join(seats))


def mark_counts(mark: str) -> str:
    """The hand and graveyard sizes part of a :func:`table_mark` (``"h0,h1,g0,g1"``)."""
    return mark.partition("|")[0]


def mark_problem(game: Any, mark: str) -> str | None:
    """Why ``mark`` is not a :func:`table_mark` of ``game``'s cards, or ``None``."""
    m = _MARK.fullmatch(mark)
    if m is None:
        return ("is not a table mark 'h0,h1,g0,g1|seat 0/seat 1' (positions "
                "card:hlt:max_hlt:cover:paralysis:equipment)")
    nc = game.num_cards
    for seat in (m.group(5), m.group(6)):
        slots = seat.split(";") if seat else []
        if len(slots) > POSITIONS:
            return f"holds {len(slots)} positions of a seat ({POSITIONS} at most)"
        for slot in slots:
            sm = _MARK_SLOT.fullmatch(slot)
            if sm is None:
                return (f"has a position {slot!r} that is not card:hlt:max_hlt:cover:"
                        "paralysis:equipment (a living card)")
            cards = [int(sm.group(1))] + [int(e) for e in sm.group(6).split(".") if e]
            if any(c >= nc for c in cards):
                return f"names a card outside this database (0..{nc - 1}) in {slot!r}"
            if int(sm.group(2)) > int(sm.group(3)):
                return f"has an HLT above its maximum in {slot!r}"
            if int(sm.group(5)) > game.config.paralysis_turns:
                return (f"has more paralysis turns left than paralysis_turns "
                        f"({game.config.paralysis_turns}) in {slot!r}")
    return None


#: the per-slot fields of an empty position and their blank values
_BLANK_SLOT = (("hlt", 0), ("max_hlt", 0), ("cover", False), ("paralysed_until", 0),
               ("serial", 0), ("equipment", []), ("granted", []))


def _slot_paths(seats) -> str:
    """The per-slot paths a decision phase is read from (named when it is refused)."""
    return ", ".join(f"{name}[{p}][{j}]" for p in seats for j in range(POSITIONS)
                     for name in ("table", "hlt", "max_hlt", "paralysed_until", "equipment"))


def deck_problem(game: Any, cards: list[int]) -> str | None:
    """Why the card list ``cards`` (card indices of ``game.db``) is not a legal deck of ``game``
    at ``deck_point_limit``, or ``None``: :func:`card_envs.rust_brawl.decks.deck_problem`
    (RB-1.1, RB-1.2; the text names the card and the rule)."""
    db_cards = game.db.cards
    return rb_deck_problem(Counter(db_cards[c] for c in cards), game.config.deck_point_limit)


def check_state(game: Any, state: RustBrawlState) -> None:
    """StateError naming the field path and value unless ``state`` is a consistent position of
    this config: seat and position counts, card indices of this database, the decks the config
    deals (legal by RB-1), each seat's cards over its zones exactly its decklist, hands sorted
    and within ``max_hand``, the table (a prefix of occupied positions, the card kinds each list
    may hold, HLT within the maximum, vehicles and support in cover, paralysis within
    ``paralysis_turns``, equipment only on characters within ``equipment_per_character``,
    unique serials below ``next_serial``, empty slots blank), the turn and the seat to act, the
    phase and its own fields (a decision phase has at least two choices: the engine resolves a
    single one itself), the stalemate counter and the result."""
    s, cfg, n = state, game.config, NUM_SEATS
    nc = game.num_cards
    for name in ("decklists", "deck_names", "decks", "hands", "graveyards", "table", "hlt",
                 "max_hlt", "cover", "paralysed_until", "serial", "equipment", "granted",
                 "table_marks"):
        check_len(name, getattr(s, name), n, why=f"one entry per seat of {n}")
    for name in ("table", "hlt", "max_hlt", "cover", "paralysed_until", "serial", "equipment",
                 "granted"):
        for p in range(n):
            check_len(f"{name}[{p}]", getattr(s, name)[p], POSITIONS,
                      why=f"one entry per table position of {POSITIONS}")
    # -- card indices ---------------------------------------------------------------------------
    for name in ("decklists", "decks", "hands", "graveyards"):
        for p in range(n):
            for i, c in enumerate(getattr(s, name)[p]):
                check_range(f"{name}[{p}][{i}]", c, 0, nc - 1, "a card of this database")
    for p in range(n):
        for j in range(POSITIONS):
            check_range(f"table[{p}][{j}]", s.table[p][j], -1, nc - 1,
                        "a card of this database or -1 (empty)")
            for i, c in enumerate(s.equipment[p][j]):
                check_range(f"equipment[{p}][{j}][{i}]", c, 0, nc - 1, "a card of this database")
    if s.pending != -1:
        check_range("pending", s.pending, 0, nc - 1, "a card of this database or -1")
    # -- the decks dealt ------------------------------------------------------------------------
    for p in range(n):
        dl = s.decklists[p]
        if dl != sorted(dl):
            fail(f"decklists[{p}]", dl, "is not sorted")
        name = s.deck_names[p]
        want = game.expected_deck(p)
        if name == UNKNOWN_DECK and not cfg.open_decklists:
            pass  # redealt from the card pool by sample_hidden (RB-3.3): any legal deck
        elif want is not None:
            if (name, dl) != want:
                fail(f"decklists[{p}]", dl, f"is not the deck {want[0]!r} the config deals to "
                     f"seat {p} (deck_names[{p}] = {name!r})")
        elif cfg.decks is None:
            if game.shipped_deck(name) != dl:
                fail(f"deck_names[{p}]", name, f"is not a shipped deck whose cards are "
                     f"decklists[{p}] (decks=None deals shipped decks)")
        elif name != RANDOM_DECK:
            fail(f"deck_names[{p}]", name, f"is not {RANDOM_DECK!r} (the config deals seat {p} a "
                 "random deck)")
        problem = deck_problem(game, dl)
        if problem:
            fail(f"decklists[{p}]", dl, problem)
    # -- each seat's cards ----------------------------------------------------------------------
    kind = game.kind
    for p in range(n):
        zones = {f"decks[{p}]": s.decks[p], f"hands[{p}]": s.hands[p],
                 f"graveyards[{p}]": s.graveyards[p],
                 f"table[{p}]": [c for c in s.table[p] if c >= 0]}
        for j in range(POSITIONS):
            zones[f"equipment[{p}][{j}]"] = s.equipment[p][j]
        if s.phase == EQUIP_TARGET and s.player == p and s.pending >= 0:
            zones["pending"] = [s.pending]
        try:
            check_cards(zones, s.decklists[p], "card")
        except StateError as exc:
            raise StateError(f"{exc} (seat {p}'s cards over its zones must be decklists[{p}])") \
                from None
        hand = s.hands[p]
        if hand != sorted(hand):
            fail(f"hands[{p}]", hand, "is not sorted (hand slots index the sorted hand)")
        check_len(f"hands[{p}]", hand, 0, cfg.max_hand, why=f"max_hand {cfg.max_hand}")
    # -- the tables -----------------------------------------------------------------------------
    serials: dict[int, str] = {}
    tq = [game.turns_of(s, p) for p in range(n)]
    for p in range(n):
        row = s.table[p]
        for j in range(POSITIONS):
            c = row[j]
            at = f"[{p}][{j}]"
            if c < 0:
                if any(row[k] >= 0 for k in range(j + 1, POSITIONS)):
                    fail(f"table{at}", c, "is empty below an occupied position (positions "
                         "fill from 1 and shift down, RB-4.3, RB-4.5)")
                for name, blank in _BLANK_SLOT:
                    value = getattr(s, name)[p][j]
                    if value != blank or value.__class__ is not blank.__class__:
                        fail(f"{name}{at}", value, f"is not {blank!r} at an empty position")
                continue
            k = kind[c]
            if k in (EQUIPMENT, EXPLOSIVE):
                fail(f"table{at}", c, f"is a {game.kind_name(c)} card ({game.card_name(c)!r}); "
                     "only characters, vehicles and support stand on the table")
            grants = s.granted[p][j]
            eq_hlt = sum(game.printed_hlt[e] for e in s.equipment[p][j])
            want_max = game.printed_hlt[c] + eq_hlt + sum(g.amount for g in grants)
            if s.max_hlt[p][j] != want_max:
                parts = ", ".join(f"granted{at}[{i}].amount = {g.amount}"
                                  for i, g in enumerate(grants))
                fail(f"max_hlt{at}", s.max_hlt[p][j], f"is not the printed HLT "
                     f"{game.printed_hlt[c]} of {game.card_name(c)!r} + equipment{at} HLT "
                     f"{eq_hlt} + the HLT boosts granted{at}" + (f" ({parts})" if parts else
                                                                  " (none)"))
            if s.hlt[p][j] > s.max_hlt[p][j]:
                fail(f"hlt{at}", s.hlt[p][j], f"is above max_hlt{at} ({s.max_hlt[p][j]})")
            if k in (VEHICLE, SUPPORT) and not s.cover[p][j]:
                fail(f"cover{at}", False, "vehicles and support stay in cover (RB-5.6)")
            until = s.paralysed_until[p][j]
            if until:
                if not tq[p] <= until <= tq[p] + cfg.paralysis_turns:
                    fail(f"paralysed_until{at}", until, f"is not 0 or a turn of seat {p} in "
                         f"{tq[p]}..{tq[p] + cfg.paralysis_turns} (paralysis_turns "
                         f"{cfg.paralysis_turns}, seat {p} has started {tq[p]} turns)")
                # RB-6.18: with immunity_ends_paralysis=False an immunity granted by equipment
                # attached while paralysed leaves the paralysis running; the card's own never
                if (game.slot_immune(s, p, j) if cfg.immunity_ends_paralysis
                        else game.card_immune(c)):
                    fail(f"paralysed_until{at}", until, "is set on a card immune to "
                         "paralysis (RB-8 paralysis_immune, RB-6.18)")
            eq = s.equipment[p][j]
            if eq:
                if k != CHARACTER:
                    fail(f"equipment{at}", eq, "is attached to a card that is not a character "
                         "(RB-4.3)")
                check_len(f"equipment{at}", eq, 0, cfg.equipment_per_character,
                          why="equipment_per_character")
                for i, e in enumerate(eq):
                    if kind[e] != EQUIPMENT:
                        fail(f"equipment{at}[{i}]", e, f"is not an equipment card "
                             f"({game.card_name(e)!r})")
            sr = s.serial[p][j]
            if not 1 <= sr < s.next_serial:
                fail(f"serial{at}", sr, f"is not a serial in 1..{s.next_serial - 1} "
                     "(below next_serial)")
            if sr in serials:
                fail(f"serial{at}", sr, f"is also serial{serials[sr]} (serials are unique)")
            serials[sr] = at
            keys = [(g.booster, g.source, g.ability) for g in grants]
            if keys != sorted(set(keys)):
                fail(f"granted{at}", grants, "is not sorted by (booster, source, ability) "
                     "without repeats (one boost per pair, RB-6.14)")
            for i, g in enumerate(grants):
                if not 1 <= g.booster < s.next_serial:
                    fail(f"granted{at}[{i}].booster", g.booster, "does not name a card that has "
                         "been on the table (a serial below next_serial)")
                if g.booster == sr:
                    fail(f"granted{at}[{i}].booster", g.booster, f"is serial{at}, the card's "
                         "own: a boost is never to the booster itself (RB-6.5)")
                if g.source > cfg.equipment_per_character:
                    fail(f"granted{at}[{i}].source", g.source, "is not 0 (the booster) or "
                         "1 + an equipment slot (equipment_per_character)")
    # -- turn, seat to act, phase ---------------------------------------------------------------
    ph = s.phase
    if ph == END:
        if s.player != -1:
            fail("player", s.player, "is not -1 once the game is over")
        if not s.end_reason:
            fail("end_reason", s.end_reason, "is empty once the game is over")
        if s.pending != -1:
            fail("pending", s.pending, "is not -1 once the game is over")
        if s.end_reason in ("no_characters", "turn_cap") and s.winner != -1:
            fail("winner", s.winner, f"is not -1 after {s.end_reason!r}")
        if s.end_reason in ("last_character", "empty_deck") and s.winner == -1:
            fail("winner", s.winner, f"is -1 after {s.end_reason!r} (there is a winner)")
        if s.end_reason == "turn_cap" and s.turn != cfg.max_turns:
            fail("turn", s.turn, f"is not max_turns ({cfg.max_turns}) after the turn cap")
        check_range("turn", s.turn, 0, cfg.max_turns, "a turn count within max_turns")
        return
    if s.end_reason:
        fail("end_reason", s.end_reason, "is set while the game goes on")
    if s.winner != -1:
        fail("winner", s.winner, "is set while the game goes on")
    check_range("turn", s.turn, 1, cfg.max_turns, "a turn of a game going on (max_turns)")
    want = (s.starter + s.turn - 1) % n
    if s.player != want:
        fail("player", s.player, f"is not the seat of turn {s.turn} (seat {want}: the starter "
             f"{s.starter} plays the odd turns)")
    if s.quiet_turns >= 2 * cfg.stalemate_turns:
        fail("quiet_turns", s.quiet_turns, f"is not below 2 x stalemate_turns "
             f"({2 * cfg.stalemate_turns}): the game would be over")
    if s.quiet_turns and (s.decks[0] or s.decks[1]):
        fail("quiet_turns", s.quiet_turns, "is not 0 while a deck holds cards (RB-7.4(c))")
    _check_table_marks(game, s)
    p = s.player
    if ph in (RANGED_TARGET, HEAL_TARGET):
        check_range("acting", s.acting, 0, POSITIONS - 1, f"a position in phase {PHASES[ph]!r}")
    elif s.acting != POSITIONS:
        fail("acting", s.acting, f"is not {POSITIONS} (the action step is over) in phase "
             f"{PHASES[ph]!r}")
    if ph == EQUIP_TARGET:
        if s.pending < 0 or kind[s.pending] != EQUIPMENT:
            fail("pending", s.pending, "is not an equipment card in phase 'equip_target'")
    elif s.pending != -1:
        fail("pending", s.pending, f"is not -1 in phase {PHASES[ph]!r}")
    if ph == RANGED_TARGET and not game.ranged_decision(s, p, s.acting):
        fail("phase", ph, f"is 'ranged_target' but the card at table[{p}][{s.acting}] (acting "
             f"{s.acting}) is not a living, unparalysed ranged character with two or more "
             f"targets (read from {_slot_paths(range(NUM_SEATS))})")
    if ph == HEAL_TARGET and not game.heal_decision(s, p, s.acting):
        fail("phase", ph, f"is 'heal_target' but the card at table[{p}][{s.acting}] (acting "
             f"{s.acting}) is not a living, unparalysed healer with two or more targets (read "
             f"from {_slot_paths((p,))})")
    if ph == EQUIP_TARGET and len(game.equip_targets(s, p)) < 2:
        fail("phase", ph, f"is 'equip_target' but seat {p} has fewer than two characters the "
             f"equipment can go to (read from {_slot_paths((p,))})")
    empty = s.table[p][0] < 0
    if ph == PLAY_OR_DISCARD and not empty:
        fail("phase", ph, f"is 'play_or_discard' but seat {p}'s table is not empty "
             f"(table[{p}][0]; RB-4.3)")
    if ph == PLAY and empty:
        fail("phase", ph, f"is 'play' but seat {p}'s table is empty (table[{p}][0]; play or "
             "discard, RB-4.3)")
    if ph == PLAY_OR_DISCARD and not s.hands[p]:
        fail("phase", ph, f"is 'play_or_discard' but hands[{p}] is empty")
    if ph == DISCARD and len(s.hands[p]) <= HAND_KEEP:
        fail("phase", ph, f"is 'discard' but hands[{p}] holds {len(s.hands[p])} cards "
             f"(RB-4.4: more than {HAND_KEEP})")


def _check_table_marks(game: Any, s: RustBrawlState) -> None:
    """``table_marks`` and ``marks_from`` (RB-7.6 ``stalemate_cycles``, RB-7.4(c)
    ``stalemate_repeats``): kept only while both decks are empty and a table comparison is on;
    one mark per turn each seat ended from turn ``marks_from`` on (the last one only with
    ``stalemate_cycles=False``); well-formed; all with the same hand and graveyard sizes (no
    card played, discarded or destroyed since ``marks_from``), no smaller hands and no larger
    graveyards than now (with both decks empty hands only shrink and graveyards only grow)."""
    cfg = game.config
    marks, start = s.table_marks, s.marks_from
    if not marks[0] and not marks[1]:
        if start:
            fail("marks_from", start, "is not 0 while table_marks holds no mark")
        return
    if not cfg.stalemate_repeats and not cfg.stalemate_cycles:
        fail("table_marks", marks, "is not empty with stalemate_repeats and stalemate_cycles "
             "both False (no table is compared)")
    if s.decks[0] or s.decks[1]:
        fail("table_marks", marks, "is not empty while a deck holds cards (RB-7.4(c), RB-7.6)")
    check_range("marks_from", start, 1, s.turn - 1, f"a turn that has ended (turn {s.turn} "
                "is being played) while table_marks holds marks")
    hands = [len(h) for h in s.hands]
    graves = [len(g) for g in s.graveyards]
    first = None
    for p in range(NUM_SEATS):
        path = f"table_marks[{p}]"
        ended = sum(1 for t in range(start, s.turn) if (s.starter + t - 1) % NUM_SEATS == p)
        want = ended if cfg.stalemate_cycles else min(ended, 1)
        if len(marks[p]) != want:
            fail(path, marks[p], f"has {len(marks[p])} marks, but seat {p} ended {ended} turns "
                 f"from marks_from ({start}) to turn {s.turn - 1}: one mark a turn"
                 + ("" if cfg.stalemate_cycles else ", the last one only "
                    "(stalemate_cycles=False)"))
        for i, mark in enumerate(marks[p]):
            at = f"{path}[{i}]"
            problem = mark_problem(game, mark)
            if problem:
                fail(at, mark, problem)
            counts = mark_counts(mark)
            if first is None:
                first = (at, counts)
                h0, h1, g0, g1 = map(int, counts.split(","))
                if h0 < hands[0] or h1 < hands[1] or g0 > graves[0] or g1 > graves[1]:
                    fail(at, mark, f"has hand sizes below or graveyard sizes above the present "
                         f"ones ({hands[0]},{hands[1]},{graves[0]},{graves[1]}): with both "
                         "decks empty hands only shrink and graveyards only grow")
            elif counts != first[1]:
                fail(at, mark, f"has hand and graveyard sizes {counts} unlike {first[0]} "
                     f"({first[1]}): the marks are cleared when a card is played, discarded "
                     "or destroyed (RB-7.6)")
