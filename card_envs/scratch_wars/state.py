"""The Scratch Wars state, declared once (clone, JSON and strict validation come from
:mod:`card_envs.core.state`), and the invariants of a state of one game config
(:func:`check_state`, which :meth:`ScratchWarsGame.check_state` calls). Its records (the weapon
slots, spins, the attack) are declared in :mod:`card_envs.scratch_wars.records` and re-exported
here.

Everything in Scratch Wars is public; the only chance is the spin. Per-seat lists are indexed by
seat 0/1, weapon lists by slot ``0..WEAPON_SLOTS-1`` (the loadout's order), bonus lists by the
bonus slot of the current time of day.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from card_envs.core.state import GameState, check_len, check_range, fail
from card_envs.scratch_wars.constants import (
    ABSENT,
    ACTIONS_MAX,
    ATTACK_MAX,
    BONUS_MIN,
    BONUS_SLOTS,
    BROKEN,
    COMBO,
    DAY_LENGTH,
    ENERGY,
    ENERGY_MAX,
    GREEN,
    HERO_ATTACK,
    HP_MAX,
    HP_MIN,
    PERMANENT,
    PH_BONUS,
    PH_DETONATE,
    PH_INIT_ORDER,
    PH_INIT_WEAPON,
    PH_MAIN,
    PH_OVER,
    PH_RESULT,
    PH_SHIELD,
    PH_TARGET,
    READY,
    RED,
    REPAIRING,
    ROUNDS_MAX,
    SEGMENT_VALUE_MAX,
    SEGMENTS,
    SHIELD,
    STATUS_NAMES,
    STORABLE,
    STORED,
    TIMES_OF_DAY,
    UNIVERSAL,
    WEAPON_ATTACK,
    WEAPON_SLOTS,
)
from card_envs.scratch_wars.records import (  # noqa: F401 - re-exported: the state's records
    ABSENT_SLOT,
    BROKEN_SLOT,
    READY_SLOT,
    REPAIRING_SLOT,
    Attack,
    AttackSource,
    BonusEvent,
    Seat,
    SeatOrNone,
    SegmentIndex,
    Slot,
    SlotOrNone,
    Spin,
    SpinResult,
    StoredEffect,
    WeaponSlot,
)


@dataclass(slots=True, eq=False)
class ScratchWarsState(GameState):
    """The whole game state (public).

    Attributes:
        rng: the chance RNG (the spins).
        forced_spins: segment indices the next spins take before the RNG (a test hook, saved;
            set with :func:`check_forced_spins`).
        heroes, weapon_names: per seat the hero and the 1..5 weapons in slot order (SW-2.1).
        hp, energy: per seat (SW-3.4, SW-5.1).
        weapon_slots: per seat, ``WEAPON_SLOTS`` :class:`WeaponSlot` (absent past the loadout).
        bonus_used: per seat, the bonus slots used this turn (SW-4.2, SW-6.5).
        round: 0-based round (SW-4.1; :func:`time_of_day`, :func:`day`); second_half: the
            round's second turn is being played; turn: the seat whose turn it is (-1 before
            the first turn); starter: the starting player (SW-2.2; -1 before); player: the seat
            deciding now (-1 once over); phase: a :class:`~card_envs.scratch_wars.constants.Phase`.
        actions_left: actions left in the turn (SW-3.1).
        initiative_slot, initiative_value: per seat the weapon slot chosen for the initiative
            spin and the value it spun (-1: none yet; SW-2.2).
        last_spin: the latest spin (initiative included), ``None`` before any.
        spin_result: the turn's latest spin (:class:`SpinResult`), ``None`` before the turn's
            first spin.
        attack: the attack being resolved, ``None`` when none is.
        bonus_event, bonus_offer: in a ``bonus`` decision, what it is about and the offered
            bonus slots; ``None`` and ``[]`` otherwise.
        permanent_queue: at a turn end, the slots of the stored permanent attacks still to
            fire, in slot order; the first is the one firing now (SW-5.11, SW-5.14).
        end_of_turn_stage: how many end-of-turn stages (SW-5.14) have begun (0..2).
        winner: -1 (none), a seat, or 2 (a draw); truncated: ended by ``max_rounds``.
    """

    rng: random.Random
    forced_spins: list[SegmentIndex]
    heroes: list[str]
    weapon_names: list[list[str]]
    hp: list[Annotated[int, Field(ge=HP_MIN, le=HP_MAX)]]
    energy: list[Annotated[int, Field(ge=0, le=ENERGY_MAX)]]
    weapon_slots: list[list[WeaponSlot]]
    bonus_used: list[list[bool]]
    round: Annotated[int, Field(ge=0, le=ROUNDS_MAX)]
    second_half: bool
    turn: SeatOrNone
    starter: SeatOrNone
    player: SeatOrNone
    phase: Annotated[int, Field(ge=PH_INIT_WEAPON, le=PH_OVER)]
    actions_left: Annotated[int, Field(ge=0, le=ACTIONS_MAX)]
    initiative_slot: list[SlotOrNone]
    initiative_value: list[Annotated[int, Field(ge=-1, le=SEGMENT_VALUE_MAX)]]
    last_spin: Spin | None
    spin_result: SpinResult | None
    attack: Attack | None
    bonus_event: BonusEvent | None
    bonus_offer: list[Annotated[int, Field(ge=0, le=BONUS_SLOTS - 1)]]
    permanent_queue: list[Slot]
    end_of_turn_stage: Annotated[int, Field(ge=0, le=2)]
    winner: Annotated[int, Field(ge=-1, le=2)]
    truncated: bool


def time_of_day(state: ScratchWarsState) -> int:
    """0 morning, 1 noon, 2 evening, 3 night (SW-4.1): the round counter drives it."""
    return state.round % DAY_LENGTH


def day(state: ScratchWarsState) -> int:
    """The 1-based day (``DAY_LENGTH`` rounds a day; SW-4.4 sudden death from day 3)."""
    return state.round // DAY_LENGTH + 1


def check_forced_spins(segments: Any) -> list[int]:
    """``segments`` as a fresh list of segment indices (plain ints ``0..SEGMENTS-1``).

    Raises:
        TypeError: not a list (or tuple).
        ValueError: naming the first entry that is not a segment index.
    """
    if not isinstance(segments, (list, tuple)):
        raise TypeError(f"forced spins must be a list of segment indices, got {segments!r}")
    for i, x in enumerate(segments):
        if x.__class__ is not int or not 0 <= x < SEGMENTS:
            raise ValueError(f"forced spin [{i}] {x!r} is not a segment index 0..{SEGMENTS - 1}")
    return list(segments)


# ---------------------------------------------------------------------------------------------
# the invariants of a state of one config (a message names the path of every fact it relied on)
SPIN_PATHS = "last_spin.seat, last_spin.slot, last_spin.segment"


def _slot_paths(s: ScratchWarsState, p: int, *fields: str) -> str:
    """``weapon_slots[p][k].<field>`` for every field and every slot of seat ``p``'s loadout."""
    return ", ".join(f"weapon_slots[{p}][{k}].{f}" for k in range(len(s.weapon_names[p]))
                     for f in fields)


def check_state(game: Any, s: ScratchWarsState) -> None:
    """StateError (naming the field path and value) unless ``s`` is a consistent state of
    ``game``'s config (a :class:`~card_envs.scratch_wars.rules.ScratchWarsGame`).

    Checked: the seats and list lengths; heroes and weapons of the catalogue and the configured
    (or a valid random) loadout; HP (SW-1.1, SW-3.4) and energy (SW-5.1) bounds; slot statuses
    and every stored effect a storable segment of its weapon (SW-5.10); the initiative (SW-2.2);
    the turn order (SW-2.3), who decides, actions and energy left, the end-of-turn stage
    (SW-5.14); the turn's spin against ``last_spin``'s segment; the attack, its target and the
    shield window (SW-5.6, SW-5.7, SW-5.12); the bonuses offered and used (SW-4.2, SW-6); the
    permanent attacks still to fire (SW-5.11) and a detonation (SW-5.13, SW-6.3); ``winner`` /
    ``truncated`` (SW-3.4, SW-4.4); a legal action whenever the game is not over.
    """
    _check_seats(game, s)
    _check_slots(game, s)
    _check_end(game, s)
    if s.phase in (PH_INIT_WEAPON, PH_INIT_ORDER):
        _check_initiative(game, s)
    else:
        _check_play(game, s)
    if s.phase != PH_OVER and not game.legal_actions(s):  # pragma: no cover - a safety net
        fail("phase", s.phase, "has no legal action although the game is not over")


def _check_seats(game: Any, s: ScratchWarsState) -> None:
    cfg = game.config
    for name in ("heroes", "weapon_names", "hp", "energy", "weapon_slots", "bonus_used",
                 "initiative_slot", "initiative_value"):
        check_len(name, getattr(s, name), 2, why="one entry per seat")
    for p in (0, 1):
        check_len(f"weapon_slots[{p}]", s.weapon_slots[p], WEAPON_SLOTS,
                  why="one entry per weapon slot")
        check_len(f"bonus_used[{p}]", s.bonus_used[p], BONUS_SLOTS,
                  why="the bonus slots of a time of day")
    n_random = min(cfg.random_weapons, len(game.catalogue.weapon_names))
    for p in (0, 1):
        hero, ws = s.heroes[p], s.weapon_names[p]
        if hero not in game.hero_cards:
            fail(f"heroes[{p}]", hero, "is not a hero of this game's catalogue")
        check_len(f"weapon_names[{p}]", ws, 1, WEAPON_SLOTS,
                  f"a hero equips 1-{WEAPON_SLOTS} weapons, SW-2.1")
        for k, w in enumerate(ws):
            if w not in game.weapon_cards:
                fail(f"weapon_names[{p}][{k}]", w, "is not a weapon of this game's catalogue")
        if cfg.loadouts is not None:
            want_hero, want_ws = cfg.loadouts[p]
            if hero != want_hero:
                fail(f"heroes[{p}]", hero, f"is not seat {p}'s configured hero {want_hero!r}")
            if len(ws) != len(want_ws):
                fail(f"weapon_names[{p}]", ws, f"is not seat {p}'s configured weapons "
                                               f"{list(want_ws)}")
            for k, (w, want) in enumerate(zip(ws, want_ws)):
                if w != want:
                    fail(f"weapon_names[{p}][{k}]", w, f"is not seat {p}'s configured weapon "
                                                       f"{want!r} in slot {k}")
        else:
            check_len(f"weapon_names[{p}]", ws, n_random,
                      why=f"a random loadout has random_weapons = {n_random} weapons")
            for k, w in enumerate(ws):
                if w in ws[:k]:
                    fail(f"weapon_names[{p}][{k}]", w, "is equipped twice (a random loadout "
                                                       "draws distinct weapons, SW-2.1)")
        hp_max = game.hero_cards[hero].hp
        check_range(f"hp[{p}]", s.hp[p], HP_MIN, hp_max,
                    f"an HP of {hero!r} (at most its printed {hp_max}, SW-1.1)")
        check_range(f"energy[{p}]", s.energy[p], 0, cfg.energy_cap if game.uses_energy else 0,
                    "an energy of this config (energy_cap, SW-5.1; none below level 3)")
    check_range("round", s.round, 0, cfg.max_rounds, "a round of this config (max_rounds)")
    check_range("actions_left", s.actions_left, 0, cfg.actions_per_turn,
                "an action count of this config (actions_per_turn, SW-3.1)")


def _check_slots(game: Any, s: ScratchWarsState) -> None:
    for p in (0, 1):
        ws = s.weapon_names[p]
        for k, slot in enumerate(s.weapon_slots[p]):
            path, st = f"weapon_slots[{p}][{k}]", slot.status
            if (k < len(ws)) != (st != ABSENT):
                fail(f"{path}.status", st, f"({STATUS_NAMES[st]}) does not match the "
                                           f"{len(ws)} weapon(s) of weapon_names[{p}]")
            if st in (BROKEN, REPAIRING, STORED) and not game.full_effects:
                fail(f"{path}.status", st, f"({STATUS_NAMES[st]}) needs the SW-5 effects "
                                           "(level 3, or level 2 with effects='full')")
            stored = slot.stored
            if st != STORED:
                if stored is not None:
                    fail(f"{path}.status, {path}.stored", stored,
                         f"must be null: the slot's status {st} ({STATUS_NAMES[st]}) is not "
                         f"stored")
            elif stored is None:
                fail(f"{path}.status, {path}.stored", None, "is missing: the slot's status is "
                                                            "stored")
            elif (stored.effect, stored.value, stored.durability) not in \
                    game.weapon_cards[ws[k]].storable:
                fail(f"{path}.stored.effect, {path}.stored.value, {path}.stored.durability",
                     stored, f"is not a storable segment (effect, value, durability) of "
                             f"{ws[k]!r}, the weapon holding it (SW-5.10)")
    ls = s.last_spin
    if ls is not None:
        check_range("last_spin.seat, last_spin.slot", ls.slot, 0,
                    len(s.weapon_names[ls.seat]) - 1,
                    f"a weapon slot of seat {ls.seat} (weapon_names[{ls.seat}])")


def _check_end(game: Any, s: ScratchWarsState) -> None:
    """SW-3.4 / SW-4.4: ``winner`` and ``truncated`` against the HP, the round and the phase."""
    cfg = game.config
    hp, w = s.hp, s.winner
    dead = (hp[0] <= 0, hp[1] <= 0)
    if s.phase != PH_OVER:
        where = f"the game is not over (phase {s.phase} = {game.phase_name(s)})"
        if w != -1:
            fail("winner", w, f"is set although {where}")
        if s.truncated:
            fail("truncated", True, f"is set although {where}")
        for p in (0, 1):
            if dead[p]:
                fail(f"hp[{p}]", hp[p], f"is 0 or below: that hero has lost (SW-3.4), yet "
                                        f"{where}")
        if s.round >= cfg.max_rounds:
            fail("round", s.round, f"has reached max_rounds {cfg.max_rounds} (the game is "
                                   f"truncated there), yet {where}")
        if s.player not in (0, 1):
            fail("player", s.player, f"is not a seat although {where}")
        return
    if s.player != -1:
        fail("player", s.player, "must be -1 once the game is over (phase over)")
    for name, empty in (("attack", None), ("bonus_event", None), ("bonus_offer", []),
                        ("permanent_queue", [])):
        if getattr(s, name) != empty:
            fail(name, getattr(s, name), f"must be {empty!r} once the game is over")
    if s.truncated:
        if w != -1:
            fail("winner", w, "is set although the game was truncated (truncated is True)")
        if s.round != cfg.max_rounds:
            fail("round", s.round, f"is not max_rounds {cfg.max_rounds} although truncated is "
                                   "True (SW-4.4 DECISION: the round cap truncates)")
        for p in (0, 1):
            if dead[p]:
                fail(f"hp[{p}]", hp[p], "is 0 or below: that hero lost, the game was not "
                                        "truncated (truncated is True)")
        return
    expect = 2 if dead[0] and dead[1] else (1 if dead[0] else (0 if dead[1] else -1))
    if expect == -1:
        fail("winner", w, f"the game is over but neither hero is at 0 HP or below (hp {hp}) "
                          f"and truncated is False")
    if w != expect:
        fail("winner", w, f"does not match hp {hp} (SW-3.4: a hero at 0 or below loses, both "
                          f"at once is a draw = 2): expected {expect}")
    if s.round >= cfg.max_rounds:
        fail("round", s.round, f"is max_rounds {cfg.max_rounds} or more: the game would have "
                               "been truncated before a hero fell (winner)")


def _check_initiative(game: Any, s: ScratchWarsState) -> None:
    """SW-2.2: before the first turn nothing has happened but the initiative spins."""
    where = f"before the game starts (phase {game.phase_name(s)}, SW-2.2)"
    for name, want in (("turn", -1), ("starter", -1), ("round", 0), ("actions_left", 0),
                       ("end_of_turn_stage", 0), ("second_half", False), ("spin_result", None),
                       ("attack", None), ("bonus_event", None), ("bonus_offer", []),
                       ("permanent_queue", [])):
        if getattr(s, name) != want:
            fail(name, getattr(s, name), f"must be {want!r} {where}")
    for p in (0, 1):
        if s.hp[p] != game.hero_cards[s.heroes[p]].hp:
            fail(f"hp[{p}]", s.hp[p], f"is not the printed HP of heroes[{p}] {where}")
        if s.energy[p] != 0:
            fail(f"energy[{p}]", s.energy[p], f"must be 0 {where}")
        for k, slot in enumerate(s.weapon_slots[p]):
            if slot.status not in (READY, ABSENT):
                fail(f"weapon_slots[{p}][{k}].status", slot.status,
                     f"must be ready (or absent) {where}")
        for j in range(BONUS_SLOTS):
            if s.bonus_used[p][j]:
                fail(f"bonus_used[{p}][{j}]", True, f"must be False {where}")
    chosen, values, ls = s.initiative_slot, s.initiative_value, s.last_spin
    if s.phase == PH_INIT_WEAPON:
        if s.player == 0 and chosen != [-1, -1]:
            fail("initiative_slot", chosen, "must be [-1, -1] while seat 0 chooses (player 0, "
                                            "phase init_weapon)")
        if s.player == 1:
            check_range("initiative_slot[0]", chosen[0], 0, len(s.weapon_names[0]) - 1,
                        "seat 0's chosen weapon slot (seat 1 chooses now: player 1, phase "
                        "init_weapon)")
            if chosen[1] != -1:
                fail("initiative_slot[1]", chosen[1], "must be -1 while seat 1 chooses (player "
                                                      "1, phase init_weapon)")
        if values == [-1, -1]:
            if ls is not None:
                fail("last_spin", ls, "must be null: no initiative spin yet (initiative_value "
                                      "[-1, -1], phase init_weapon)")
            return
        # a tie: both choose and spin again (SW-2.2 DECISION)
        if game.config.initiative_ties != "spin_again" or values[0] != values[1] \
                or values[0] < 0:
            fail("initiative_value", values, "is neither [-1, -1] (no spin yet) nor a tie to "
                                             "spin again (initiative_ties 'spin_again') in "
                                             "phase init_weapon")
        if ls is None or ls.seat != 1 or game.segment(s, 1, ls.slot, ls.segment).value \
                != values[1]:
            fail(SPIN_PATHS, ls, f"is not seat 1's initiative spin of value "
                                  f"initiative_value[1] = {values[1]} (a tie, phase "
                                  f"init_weapon)")
        if not any(values[0] in game.weapon_cards[w].values for w in s.weapon_names[0]):
            fail("initiative_value[0]", values[0], "is not a value on any of seat 0's wheels "
                                                   "(weapon_names[0])")
        return
    for p in (0, 1):
        check_range(f"initiative_slot[{p}]", chosen[p], 0, len(s.weapon_names[p]) - 1,
                    f"seat {p}'s chosen initiative weapon slot (phase init_order; "
                    f"weapon_names[{p}])")
    _check_initiative_values(game, s)
    if ls is None or ls.seat != 1 or ls.slot != chosen[1] or \
            game.segment(s, 1, ls.slot, ls.segment).value != values[1]:
        fail(SPIN_PATHS, ls, f"is not seat 1's initiative spin of weapon slot "
                              f"initiative_slot[1] = {chosen[1]} with value initiative_value[1] "
                              f"= {values[1]} (phase init_order)")
    winner = 0 if values[0] >= values[1] else 1  # a tie reaches init_order only for seat0_decides
    if s.player != winner:
        fail("player", s.player, f"is not the initiative winner {winner} (initiative_value "
                               f"{values}, SW-2.2) who decides who starts (phase init_order)")


def _check_initiative_values(game: Any, s: ScratchWarsState) -> None:
    chosen, values = s.initiative_slot, s.initiative_value
    for p in (0, 1):
        name = s.weapon_names[p][chosen[p]]
        if values[p] not in game.weapon_cards[name].values:
            fail(f"initiative_value[{p}]", values[p], f"is not a value on seat {p}'s initiative "
                                                      f"weapon {name!r} (initiative_slot[{p}] = "
                                                      f"{chosen[p]}, SW-2.2)")
    if values[0] == values[1] and game.config.initiative_ties == "spin_again":
        fail("initiative_value", values, "is a tie: both spin again (initiative_ties "
                                         "'spin_again'), nobody won the initiative")


def _context(game: Any, s: ScratchWarsState) -> str:
    """What the current decision belongs to: ``main`` (the turn), ``spin`` (a spun result),
    ``permanent`` / ``detonation`` (a turn end's permanent attack / detonation, SW-5.14)."""
    ph = s.phase
    if ph == PH_MAIN:
        return "main"
    if ph == PH_RESULT:
        return "spin"
    if ph == PH_DETONATE:
        return "detonation"
    if ph == PH_BONUS and s.bonus_event != "shield":
        if s.bonus_event is None:
            fail("bonus_event", None, "is missing although phase bonus decides about a bonus")
        return s.bonus_event
    if s.attack is None:
        fail("attack", None, f"is missing although phase {game.phase_name(s)} decides about an "
                             "attack")
    return s.attack.source


def _check_play(game: Any, s: ScratchWarsState) -> None:
    """The game has started (phases main .. over): turn order, the decision and its data."""
    cfg = game.config
    ph, name = s.phase, game.phase_name(s)
    for p in (0, 1):
        check_range(f"initiative_slot[{p}]", s.initiative_slot[p], 0,
                    len(s.weapon_names[p]) - 1,
                    f"seat {p}'s initiative weapon slot (the game has started)")
    _check_initiative_values(game, s)
    if s.starter not in (0, 1):
        fail("starter", s.starter, f"is not a seat although the game has started (phase "
                                   f"{name})")
    if ph != PH_BONUS and (s.bonus_event is not None or s.bonus_offer):
        fail("bonus_event" if s.bonus_event is not None else "bonus_offer",
             s.bonus_event if s.bonus_event is not None else s.bonus_offer,
             f"must be empty outside a bonus decision (phase {name})")
    if not game.full_effects and s.end_of_turn_stage != 0:
        fail("end_of_turn_stage", s.end_of_turn_stage, "must be 0 without the SW-5 effects (no "
                                                       "end-of-turn stages)")
    if s.turn == -1:  # the start penalty ended the game at once (SW-2.2, SW-3.4)
        if not (ph == PH_OVER and s.round == 0 and not s.second_half
                and s.hp[s.starter] <= 0):
            fail("turn", -1, f"is not a seat although the game has started (starter "
                             f"{s.starter}, phase {name})")
        return
    order = (f"starter {s.starter} plays a round's first turn, the other seat its second "
             f"(second_half {s.second_half}, SW-2.3)")
    if s.turn != (1 - s.starter if s.second_half else s.starter):
        # over at a round's end: the round counter moved on, the last turn's player stays
        if not (ph == PH_OVER and not s.second_half and s.turn == 1 - s.starter):
            fail("turn", s.turn, f"is not the seat to play: {order}")
    if ph == PH_OVER:
        return
    p, q = s.turn, 1 - s.turn
    apt = cfg.actions_per_turn
    ctx = _context(game, s)
    first_turn = s.round == 0 and not s.second_half
    when = (f"(phase {name}, context {ctx}, round {s.round}, second_half {s.second_half}, "
            f"turn {p})")
    if not game.full_effects and (ctx in ("permanent", "detonation")
                                  or ph in (PH_TARGET, PH_SHIELD)):
        fail("phase", ph, f"needs the SW-5 effects (level 3, or level 2 with effects='full') "
                          f"{when}")
    shielding = ph == PH_SHIELD or (ph == PH_BONUS and s.bonus_event == "shield")
    want_player = q if shielding else p
    if s.player != want_player:
        fail("player", s.player, f"is not the deciding seat {want_player} {when}")
    # actions, energy, end-of-turn stage
    if ctx == "main":
        if s.actions_left < 1:
            fail("actions_left", s.actions_left, f"is 0: the turn would have ended (SW-3.1) "
                                                 f"{when}")
        if game.uses_energy and s.energy[p] < 1:
            fail(f"energy[{p}]", s.energy[p], f"is 0: the turn would have ended (SW-5.3) {when}")
    elif ctx == "spin":
        if s.actions_left > apt - 1:
            fail("actions_left", s.actions_left, f"is more than {apt - 1}: a spin this turn "
                                                 f"used an action (SW-3.1) {when}")
    elif s.actions_left != 0:
        fail("actions_left", s.actions_left, f"must be 0 at the end of a turn (context {ctx}) "
                                             f"{when}")
    if game.full_effects:
        if ctx in ("main", "spin"):
            want = 0 if first_turn else 2
        else:
            want = game.end_of_turn_order.index(ctx) + 1
        if s.end_of_turn_stage != want:
            fail("end_of_turn_stage", s.end_of_turn_stage, f"is not {want}: the end-of-turn "
                                                           f"stages begun so far (SW-5.14, "
                                                           f"context {ctx}) {when}")
    # the seat that has not played yet (the first turn of the game)
    if first_turn:
        if s.energy[q] != 0:
            fail(f"energy[{q}]", s.energy[q], f"must be 0: seat {q} has not had a turn yet "
                                              f"(starter {s.starter}) {when}")
        for k, slot in enumerate(s.weapon_slots[q]):
            if slot.status in (STORED, REPAIRING):
                fail(f"weapon_slots[{q}][{k}].status", slot.status,
                     f"({STATUS_NAMES[slot.status]}): seat {q} has not had a turn yet "
                     f"(starter {s.starter}) {when}")
    # weapons under repair this turn (SW-5.9) and the spin: one action each
    repairing = sum(1 for slot in s.weapon_slots[p] if slot.status == REPAIRING)
    spun = 0 if s.spin_result is None else 1
    if repairing + spun > apt - s.actions_left:
        fail(_slot_paths(s, p, "status"), [slot.status for slot in s.weapon_slots[p]],
             f"shows {repairing} weapon(s) repaired and {spun} spin this turn, more than the "
             f"{apt - s.actions_left} action(s) used (actions_left {s.actions_left} of {apt}) "
             f"{when}")
    _check_spin(game, s, p, ctx, when)
    _check_bonuses(game, s, p, q, when)
    _check_attack(game, s, p, q, ctx, shielding, when)
    _check_end_of_turn(game, s, p, ctx, when)


def _check_spin(game: Any, s: ScratchWarsState, p: int, ctx: str, when: str) -> None:
    """The turn's spin value is ``last_spin``'s segment value (+ a bonus once used)."""
    ph, result, ls = s.phase, s.spin_result, s.last_spin
    if result is None:
        if ctx == "spin":
            fail("spin_result", None, f"holds no spin although the decision is about one "
                                      f"{when}")
        return
    if ls is None or ls.seat != p:
        fail("last_spin.seat", ls, f"is not seat {p}'s spin although spin_result {result} "
                                   f"holds a spin of this turn {when}")
    seg = game.segment(s, p, ls.slot, ls.segment)
    if (result.effect, result.colour, result.durability) != (seg.effect, seg.colour,
                                                              seg.durability):
        fail("spin_result.effect, spin_result.colour, spin_result.durability", result,
             f"does not match the segment spun on {SPIN_PATHS} {ls}: {seg} {when}")
    value = result.value
    base = 0 if (game.full_effects and seg.effect == ENERGY and not game.uses_energy) \
        else seg.value
    undecided = ph == PH_RESULT or (ph == PH_BONUS and s.bonus_event == "spin")
    if undecided:
        if value != base:
            fail("spin_result.value", value, f"is not the value {base} spun on last_spin.slot, "
                                      f"last_spin.segment {ls} (a bonus is added after the "
                                      f"decision) {when}")
    elif value != base and value - base not in {b.value for b in game.bonuses(s, p)}:
        fail("spin_result.value", value, f"is neither the value {base} spun on last_spin.slot, "
                                  f"last_spin.segment {ls} nor it plus a bonus of heroes[{p}] "
                                  f"at this time of day {when}")
    if ph == PH_MAIN and s.actions_left >= game.config.actions_per_turn:
        fail("actions_left", s.actions_left, f"is all of the turn's actions although "
                                             f"spin_result {result} shows a spin this turn "
                                             f"{when}")
    if ctx == "spin" and s.weapon_slots[p][ls.slot].status != READY:
        fail(f"weapon_slots[{p}][{ls.slot}].status", s.weapon_slots[p][ls.slot].status,
             f"must be ready: the weapon just spun (last_spin.slot {ls.slot}) {when}")
    if ph == PH_RESULT and (seg.colour == RED or (seg.colour == GREEN and game.level == 1)):
        fail(SPIN_PATHS, ls, f"lands on a red field (or a level-1 green one), which applies "
                              f"without a result decision (SW-3.2) {when}")
    if ph == PH_BONUS and s.bonus_event == "spin" and game.full_effects and (
            seg.effect in STORABLE or (seg.effect == ENERGY and not game.uses_energy)):
        fail(SPIN_PATHS, ls, f"shows effect {seg.effect}, which takes no bonus: a stored "
                              f"effect or a level-2 energy (SW-4.3, SW-6.4) {when}")


def _check_bonuses(game: Any, s: ScratchWarsState, p: int, q: int, when: str) -> None:
    """Bonuses used this turn (SW-4.2, SW-6.5) and a bonus decision's offer."""
    for r in (0, 1):
        bonuses = game.bonuses(s, r)
        for j in range(BONUS_SLOTS):
            if not s.bonus_used[r][j]:
                continue
            if not game.uses_bonuses:
                fail(f"bonus_used[{r}][{j}]", True, "no hero bonuses below level 2 (SW-4.2)")
            if j >= len(bonuses):
                fail(f"bonus_used[{r}][{j}]", True, f"heroes[{r}] has no bonus slot {j} at "
                                                    f"{TIMES_OF_DAY[time_of_day(s)]} {when}")
            if r == q and (not game.full_effects or bonuses[j].effect != SHIELD):
                fail(f"bonus_used[{r}][{j}]", True, f"only a shield bonus of the defender is "
                                                    f"used during the opponent's turn {when}")
            if r == p and game.full_effects and bonuses[j].effect == SHIELD:
                fail(f"bonus_used[{r}][{j}]", True, f"a shield bonus is used with an own "
                                                    f"shield, in the opponent's turn only {when}")
    if s.phase != PH_BONUS:
        return
    event, user = s.bonus_event, s.player
    spun = f" of the effect spun on {SPIN_PATHS}" if event == "spin" else ""
    effect = (s.spin_result.effect if event == "spin" else
              {"permanent": PERMANENT, "shield": SHIELD, "detonation": COMBO}[event])
    match = game.matching_bonuses(s, user, event, effect)
    bonuses = game.bonuses(s, user)
    if game.config.negative_bonus == "first_match" and any(bonuses[j].value < 0 for j in match):
        fail(f"bonus_used[{user}]", s.bonus_used[user], f"leaves a matching negative bonus "
                                                        f"unused: it would have been forced "
                                                        f"(SW-4.2), not offered (bonus_event "
                                                        f"{event}{spun}) {when}")
    want = [j for j in match if bonuses[j].value > 0]
    if not want or s.bonus_offer != want:
        fail("bonus_offer", s.bonus_offer, f"is not the offer {want}: the unused positive "
                                           f"bonuses of heroes[{user}] matching bonus_event "
                                           f"{event}{spun} (SW-4.2, SW-6; bonus_used[{user}]) "
                                           f"{when}")


def _check_attack(game: Any, s: ScratchWarsState, p: int, q: int, ctx: str, shielding: bool,
                  when: str) -> None:
    """The attack being resolved, its target (SW-5.6, SW-5.7) and shields (SW-5.12)."""
    ph, attack = s.phase, s.attack
    active = ph in (PH_TARGET, PH_SHIELD) or (
        ph == PH_BONUS and s.bonus_event in ("permanent", "detonation", "shield"))
    if not active:
        if attack is not None:
            fail("attack", attack, f"must be null: no attack is being resolved {when}")
        return
    if attack is None:
        fail("attack", None, f"is missing although an attack is being resolved {when}")
    if attack.attacker != p:
        fail("attack.attacker", attack.attacker, f"is not the turn player {p} {when}")
    if attack.source != ctx:
        fail("attack.source", attack.source, f"is not the source {ctx!r} of this decision "
                                             f"(bonus_event {s.bonus_event}) {when}")
    if attack.source == "spin":
        effect = s.spin_result.effect
        want_kind = {HERO_ATTACK: "hero", WEAPON_ATTACK: "weapon",
                     UNIVERSAL: "universal"}.get(effect)
        if want_kind is None:
            fail(SPIN_PATHS, s.last_spin, f"shows effect {effect}, not an attack, although an "
                                           f"attack of the spin is being resolved {when}")
        if attack.value != s.spin_result.value:
            fail("attack.value", attack.value, f"is not the spun value with its bonus, "
                                               f"spin_result.value = {s.spin_result.value} "
                                               f"{when}")
    else:
        want_kind = "hero" if attack.source == "permanent" else "universal"
    if attack.kind != want_kind:
        spun = f" (the effect spun on {SPIN_PATHS})" if attack.source == "spin" else ""
        fail("attack.kind", attack.kind, f"is not the kind {want_kind!r} of an attack from "
                                         f"source {attack.source!r}{spun}")
    if ph == PH_TARGET and attack.source == "permanent":
        fail("attack.source", attack.source, f"a permanent attack hits the hero, it has no "
                                             f"target decision (SW-5.11) {when}")
    if shielding or attack.source == "permanent":
        _check_target(game, s, q, when)
    elif attack.target is not None or attack.target_slot != -1:
        fail("attack.target, attack.target_slot", attack, f"must have no target (null, -1) "
                                                          f"before the target is chosen {when}")
    if shielding:
        check_range("attack.shielded", attack.shielded,
                    0 if game.config.shield_block_floor else 2 * BONUS_MIN, ATTACK_MAX,
                    "a shield total (SW-5.12; shield_block_floor)")
    elif attack.shielded != 0:
        fail("attack.shielded", attack.shielded, f"must be 0 before shields answer the attack "
                                                 f"{when}")
    if ph == PH_SHIELD:
        if attack.value - attack.shielded <= 0:
            fail("attack.shielded", attack.shielded, f"already stops the attack of "
                                                     f"attack.value = {attack.value}: the "
                                                     f"shield window would have closed "
                                                     f"(SW-5.12)")
        if not game.usable_shields(s, q):
            fail(_slot_paths(s, q, "status", "stored.effect"), s.weapon_slots[q],
                 f"hold no usable stored shield (attack.target, attack.target_slot "
                 f"{attack.target} {attack.target_slot}) although seat {q} decides on shields "
                 f"{when}")
    if ph == PH_TARGET and not game.targets(s):
        relied = _slot_paths(s, q, "status", "stored.durability")
        fail("attack.value, attack.kind", attack, f"has no legal target ({relied}) {when}")


def _check_target(game: Any, s: ScratchWarsState, q: int, when: str) -> None:
    attack = s.attack
    kind, target, k = attack.kind, attack.target, attack.target_slot
    if kind == "hero" and target != "hero":
        fail("attack.target", target, f"a hero attack targets the hero (attack.kind {kind!r})")
    if target == "hero":
        if kind == "weapon":
            fail("attack.target", target, "a weapon attack cannot target the hero (SW-5.6, "
                                          "attack.kind 'weapon')")
        if k != -1:
            fail("attack.target_slot", k, "must be -1 for the hero as the target")
        return
    if target is None:
        fail("attack.target", None, f"no target chosen although shields answer the attack "
                                    f"{when}")
    if not 0 <= k < len(s.weapon_names[q]):
        fail("attack.target_slot", k, f"is not a weapon slot of seat {q} (weapon_names[{q}]) "
                                      f"for the {target} target")
    slot = s.weapon_slots[q][k]
    if target == "weapon":
        if not (slot.status == READY or (slot.status == STORED
                                         and not game.config.effect_target_only)):
            fail(f"attack.target_slot, weapon_slots[{q}][{k}].status", k,
                 f"targets weapon slot {k} of seat {q}, which is {STATUS_NAMES[slot.status]} "
                 f"(attack.target {target!r}; SW-5.6)")
        durability = game.weapon(s, q, k).durability
    else:
        if slot.status != STORED:
            fail(f"attack.target_slot, weapon_slots[{q}][{k}].status", k,
                 f"targets the stored effect on slot {k} of seat {q}, which holds none "
                 f"(attack.target {target!r})")
        durability = slot.stored.durability
    if durability > attack.value:
        fail("attack.target_slot", k, f"targets durability {durability} > the attack value "
                                      f"attack.value = {attack.value} (SW-5.6; attack.target "
                                      f"{target!r}, weapon_slots[{q}][{k}].stored.durability)")


def _check_end_of_turn(game: Any, s: ScratchWarsState, p: int, ctx: str, when: str) -> None:
    """The permanent attacks still to fire (SW-5.11) and a detonation decision (SW-5.13)."""
    firing = game.firing_permanents(s, p)
    queue = s.permanent_queue
    relied = _slot_paths(s, p, "status", "stored.effect", "stored.stored_this_turn")
    if queue and ctx != "permanent":
        fail("permanent_queue", queue, f"must be empty outside the permanent attacks of a turn "
                                       f"end (SW-5.11) {when}")
    if ctx == "permanent":
        if not queue:
            fail("permanent_queue", queue, f"is empty although a permanent attack is firing "
                                           f"(the queue's first slot; attack.source) {when}")
        want = [k for k in firing if k >= queue[0]]
        if queue != want:
            fail("permanent_queue", queue, f"is not the stored permanent attacks {want} from "
                                           f"slot {queue[0]}, the one firing now, on (they fire "
                                           f"in slot order, each once, SW-5.14; "
                                           f"{relied}) {when}")
        value = s.weapon_slots[p][queue[0]].stored.value
        attack = s.attack
        if s.phase == PH_BONUS and s.bonus_event == "permanent":
            ok = attack.value == value  # the bonus decision comes first (SW-6.4)
        else:
            ok = attack.value == value or any(
                s.bonus_used[p][j] and b.effect == PERMANENT and attack.value == value + b.value
                for j, b in enumerate(game.bonuses(s, p)))
        if not ok:
            fail("attack.value", attack.value, f"is not the value {value} (weapon_slots[{p}]"
                                               f"[{queue[0]}].stored.value) of the permanent "
                                               f"attack firing now from slot {queue[0]} "
                                               f"(permanent_queue {queue}), nor it plus a used "
                                               f"permanent bonus (bonus_used[{p}]) {when}")
    if s.phase == PH_DETONATE and not game.can_detonate(s, p):
        fail(_slot_paths(s, p, "status", "stored.effect"), s.weapon_slots[p],
             f"hold no 2 stored combos, nor 1 and an unused detonator bonus (bonus_used[{p}], "
             f"round {s.round}): nothing to detonate (SW-5.13, SW-6.3) {when}")
