"""The Garda3 state, declared once (clone, JSON and type/range validation come from the core,
:mod:`card_envs.core.state`), the battle roles read off it, and :func:`check_state`: this
config's invariants (card multiset, seats, phase and the seat to act), which
``Garda3Game.check_state`` runs on every loaded state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from card_envs.core.state import (
    GameState,
    Seat,
    SeatOrNone,
    check_cards,
    check_len,
    check_range,
    fail,
)
from card_envs.garda3.constants import (
    CARD_DEFENCE_DIR,
    NUM_CARDS,
    PH_ATTACK_BONUS,
    PH_ATTACK_CARDS,
    PH_ATTACKER_FIGHTER,
    PH_COUNTER_CHOICE,
    PH_DEFENCE_BONUS,
    PH_DEFENCE_CARDS,
    PH_DEFENDER_FIGHTER,
    PH_DRAFT,
    PH_OVER,
    PH_RESURRECT_CHOICE,
    PH_TARGET,
    PHASES,
)

# ---------------------------------------------------------------------------------------------
#: static bounds of the state's fields (config-dependent ones are checked by ``check_state``)
Card = Annotated[int, Field(ge=0, le=NUM_CARDS - 1)]  # a battle-card id (G-1.3)
SlotOrNone = Annotated[int, Field(ge=-1, le=2)]  # a fighter slot 0..2, -1: none
FighterIndex = Annotated[int, Field(ge=0, le=8)]  # index into a set of 9 (G-1.4)
#: HP: at most 7 (G-1.1); a living fighter has at least 1 and one battle takes at most
#: 3 + 3 + 2 = 8 (two value-3 cards and a +2 attack bonus against no defence, G-4.4/G-4.5/G-4.8),
#: so an eliminated fighter ends between 1 - 8 = -7 and 0 (G-4.10)
MIN_HP, MAX_HP = -7, 7
HP = Annotated[int, Field(ge=MIN_HP, le=MAX_HP)]
Side = Annotated[int, Field(ge=-1, le=1)]  # a bonus direction HIGH/LOW, -1: not chosen
PhaseId = Annotated[int, Field(ge=0, le=len(PHASES) - 1)]


@dataclass(slots=True, eq=False)
class Garda3State(GameState):
    """All of one game's state, declared once (clone, JSON and the type/range checks come from
    the core; :meth:`Garda3Game.check_state` adds the config's invariants).

    Attributes (seats ``0..n-1``):
        rng: the game's chance (deck shuffles).
        phase: index into :data:`PHASES`; player: the seat to decide (``-1`` when over).
        round: 1-based round number (0 during the draft; ``max_rounds + 1`` once truncated);
            first_player: the starting player (G-2.2).
        deck: battle-card ids, drawn from the end; discard: the public discard pile (G-4.9).
        hands: per seat, card ids in hand (hidden from the others).
        fighters: per seat, the set indices of the chosen fighters (up to 3, G-2.3).
        hp: per seat, current HP of each chosen fighter (<= 0: eliminated, G-4.10).
        available: per drafted set, which of its 9 fighters are still free to pick.
        draft_order / draft_pos: seats in picking order and the next pick.
        round_attacker, target: the round's attacker and the opponent attacked.
        striker / blocker: who attacks / defends in the current battle (swapped in a counter;
            outside a battle: those of the last battle).
        atk_slot / def_slot: the round attacker's / target's fighter slot in battle.
        counter: True while the counter-attack is played; resurrected: a resurrection was
            declared this round (G-7.2).
        atk_cards / def_cards: cards played in the current battle; atk_bonus / def_bonus: the
            chosen bonus direction (-1: none yet); revealed: the (night) attack card is face up.
        winner: winning seat, or -1; truncated: ended by ``max_rounds`` (G-6.2).
    """

    rng: random.Random
    phase: PhaseId
    player: SeatOrNone
    round: Annotated[int, Field(ge=0)]
    first_player: Seat
    deck: list[Card]
    discard: list[Card]
    hands: list[list[Card]]
    fighters: list[list[FighterIndex]]
    hp: list[list[HP]]
    available: list[list[bool]]
    draft_order: list[Seat]
    draft_pos: Annotated[int, Field(ge=0, le=9)]
    round_attacker: SeatOrNone
    target: SeatOrNone
    striker: SeatOrNone
    blocker: SeatOrNone
    atk_slot: SlotOrNone
    def_slot: SlotOrNone
    counter: bool
    resurrected: bool
    atk_cards: list[Card]
    def_cards: list[Card]
    atk_bonus: Side
    def_bonus: Side
    revealed: bool
    winner: SeatOrNone
    truncated: bool


def striker_slot(state: Garda3State) -> int:
    """The fighter slot of the seat attacking in the current battle (``state.striker``): the
    round attacker's fighter, the target's in a counter-attack (G-5.1); ``-1`` before one is
    sent."""
    return state.def_slot if state.counter else state.atk_slot


def blocker_slot(state: Garda3State) -> int:
    """The fighter slot of the seat defending in the current battle (``state.blocker``)."""
    return state.atk_slot if state.counter else state.def_slot


def check_state(game: Any, state: Garda3State) -> None:
    """StateError (naming the field path, the value and every field the broken rule reads)
    unless ``state`` is a consistent Garda3 state of this config: seat counts and list
    lengths, the 36-card multiset over deck / discard / hands / atk_cards / def_cards
    (G-1.3), the fighters chosen (each fighter of a set once, matching ``available`` and the
    picks ``draft_order[:draft_pos]``, G-2.3), HP within ``-7..max HP`` of each fighter
    (G-1.1, G-4.10), the round within ``max_rounds`` (G-6.2), and the phase with its
    player (the seat to act), roles, fighter slots, played cards and chosen bonus sides (G-3 … G-7). Hand *contents*
    are not checked beyond the multiset: ``sample_hidden`` deals them anew."""
    s, cfg, n = state, game.config, game.num_players
    # shapes and seats
    check_len("hands", s.hands, n, why=f"one hand per seat, {n} seats")
    check_len("fighters", s.fighters, n, why=f"one guard per seat, {n} seats")
    check_len("hp", s.hp, n, why=f"one guard per seat, {n} seats")
    check_len("available", s.available, len(game.sets),
              why=f"one list per fighter set drafted from (fighter_selection "
                  f"{cfg.fighter_selection!r})")
    for i, avail in enumerate(s.available):
        check_len(f"available[{i}]", avail, 9, why="a fighter set has 9 fighters, G-1.4")
    check_len("draft_order", s.draft_order, 3 * n, why="3 picks per seat, G-2.3")
    check_range("first_player", s.first_player, 0, n - 1, "a seat")
    for name in ("player", "round_attacker", "target", "striker", "blocker", "winner"):
        check_range(name, getattr(s, name), -1, n - 1, "a seat or -1")
    for i, p in enumerate(s.draft_order):
        if p != (s.first_player + i) % n:
            fail(f"draft_order[{i}]", p, f"is not seat (first_player {s.first_player} + {i}) "
                 f"mod {n} = {(s.first_player + i) % n}: the starting player picks first, "
                 "then clockwise (G-2.3, G-7.4)")
    check_range("draft_pos", s.draft_pos, 0, 3 * n, "a pick index")
    check_range("round", s.round, 0, cfg.max_rounds + 1, "a round of this config (0 during "
                "the draft, max_rounds + 1 only once truncated)")
    # the battle cards: each of the 36 exactly once (G-1.3)
    zones: dict[str, list[int]] = {"deck": s.deck, "discard": s.discard}
    for p in range(n):
        zones[f"hands[{p}]"] = s.hands[p]
    zones["atk_cards"], zones["def_cards"] = s.atk_cards, s.def_cards
    check_cards(zones, range(NUM_CARDS), "battle card")
    # the fighters: picks so far, each fighter of a set once, `available` the rest
    picks = [0] * n
    for p in s.draft_order[:s.draft_pos]:
        picks[p] += 1
    for p in range(n):
        if len(s.fighters[p]) != picks[p]:
            fail(f"fighters[{p}]", s.fighters[p],
                 f"holds {len(s.fighters[p])} fighters, but draft_order[:draft_pos] "
                 f"(draft_pos {s.draft_pos}) gives seat {p} {picks[p]} picks")
        check_len(f"hp[{p}]", s.hp[p], len(s.fighters[p]),
                  why=f"one HP per fighter of fighters[{p}]")
    holder: dict[tuple[int, int], str] = {}
    for p in range(n):
        si = game.set_of(p)
        for j, k in enumerate(s.fighters[p]):
            here = f"fighters[{p}][{j}]"
            if (si, k) in holder:
                fail(here, k, f"is chosen twice ({holder[si, k]} too): a fighter of a set "
                     "is chosen once (G-2.3)")
            holder[si, k] = here
            if s.available[si][k]:
                fail(here, k, f"is chosen but available[{si}][{k}] is True")
    for si, avail in enumerate(s.available):
        for k, free in enumerate(avail):
            if not free and (si, k) not in holder:
                fail(f"available[{si}][{k}]", free, f"but no seat's fighters hold fighter "
                     f"{k} of set {si}: fighters {s.fighters}")
    drafting = s.phase == PH_DRAFT
    for p in range(n):
        stats = game.stats[game.set_of(p)]
        for j, h in enumerate(s.hp[p]):
            top = stats[s.fighters[p][j]][2]
            if h > top:
                fail(f"hp[{p}][{j}]", h, f"exceeds the max HP {top} of fighters[{p}][{j}] "
                     f"= {s.fighters[p][j]} (G-1.1)")
            if drafting and h != top:
                fail(f"hp[{p}][{j}]", h, f"is not the full HP {top} of fighters[{p}][{j}] in "
                     "phase 'draft' (no battle yet)")
    # the draft
    if (s.draft_pos < 3 * n) != drafting:
        fail("phase", s.phase, f"({PHASES[s.phase]}) with draft_pos {s.draft_pos} of "
             f"{3 * n} picks: the phase is 'draft' exactly while picks are left")
    if drafting:
        _check_draft(game, s)
        return
    _check_play(game, s)

def _check_draft(game, s: Garda3State) -> None:
    if game.config.fighter_selection == "random":
        fail("phase", s.phase, "is 'draft', but fighter_selection 'random' has no draft")
    if s.player != s.draft_order[s.draft_pos]:
        fail("player", s.player, f"is not the picking seat draft_order[draft_pos "
             f"{s.draft_pos}] = {s.draft_order[s.draft_pos]} in phase 'draft'")
    for name in ("round_attacker", "target", "striker", "blocker", "atk_slot", "def_slot",
                 "atk_bonus", "def_bonus", "winner"):
        if getattr(s, name) != -1:
            fail(name, getattr(s, name), "is not -1 in phase 'draft' (no round yet)")
    for name in ("counter", "resurrected", "revealed", "truncated"):
        if getattr(s, name):
            fail(name, True, "is set in phase 'draft' (no round yet)")
    if s.round != 0:
        fail("round", s.round, "is not 0 in phase 'draft' (round 1 starts after the draft)")
    for p, hand in enumerate(s.hands):
        if hand:
            fail(f"hands[{p}]", hand, "holds cards in phase 'draft': the deal follows the "
                 "draft (G-2.4)")
    for name in ("discard", "atk_cards", "def_cards"):
        if getattr(s, name):
            fail(name, getattr(s, name), "is not empty in phase 'draft' (no card is dealt "
                 "or played before round 1, G-2.4)")

def _check_play(game, s: Garda3State) -> None:
    """The invariants once the fighters are chosen (phase after the draft)."""
    cfg, n, ph = game.config, game.num_players, s.phase
    where = f"in phase {PHASES[ph]!r}"
    over = ph == PH_OVER
    hp = s.hp
    alive = [any(h > 0 for h in hp[p]) for p in range(n)]
    # the round and the end (G-6)
    if s.round < 1:
        fail("round", s.round, f"is not a round (1..{cfg.max_rounds}) {where}")
    if s.truncated != (s.round > cfg.max_rounds):
        fail("round", s.round, f"with truncated {s.truncated}: round max_rounds + 1 = "
             f"{cfg.max_rounds + 1} is reached exactly when the game is truncated (G-6.2)")
    if s.truncated and not over:
        fail("truncated", True, f"{where}: a truncated game is over")
    if over and (s.winner >= 0) == s.truncated:
        fail("winner", s.winner, f"with truncated {s.truncated} {where}: a game over has "
             "a winner or was truncated, not both")
    if not over and s.winner >= 0:
        fail("winner", s.winner, f"is set {where} (the game goes on)")
    for p in range(n):
        if not alive[p] and s.hands[p]:
            fail(f"hands[{p}]", s.hands[p], f"is not empty although hp[{p}] {hp[p]} has no "
                 "living fighter (a player out discards the hand, G-6.1 / G-7.4)")
        if len(s.hands[p]) > 3 and not game.royale:
            fail(f"hands[{p}]", s.hands[p], "holds more than 3 cards without 'royale' "
                 "(G-3.1: draw up to 3)")
    out = [f"hp[{p}]" for p in range(n) if not alive[p]]
    if s.winner >= 0:
        if not alive[s.winner]:
            fail(f"hp[{s.winner}]", hp[s.winner], f"has no living fighter although winner "
                 f"is seat {s.winner}")
        if n - len(out) > 1:
            fail(", ".join(f"hp[{p}]" for p in range(n) if alive[p] and p != s.winner),
                 hp, f"a seat other than winner {s.winner} has a living fighter (G-6.1)")
    elif n - len(out) < 2:
        fail(", ".join(out), hp, f"only {n - len(out)} seat(s) have a living fighter {where} "
             "with no winner (the game ends when one is left, G-6.1 / G-7.4)")
    # roles
    ra, t = s.round_attacker, s.target
    if ra < 0:
        fail("round_attacker", ra, f"is not a seat {where}")
    if n == 2:  # G-3.2: the roles swap every round
        r = s.round - 1 if s.truncated else s.round
        if ra != (s.first_player + r - 1) % 2:
            fail("round_attacker", ra, f"is not the attacker of round {r}: first_player "
                 f"{s.first_player} attacks in odd rounds (G-3.2; truncated {s.truncated})")
    elif s.round == 1 and ra != s.first_player:
        fail("round_attacker", ra, f"is not first_player {s.first_player} in round 1 (G-3.2)")
    if not over and not alive[ra]:
        fail("round_attacker", ra, f"has no living fighter (hp[{ra}] {hp[ra]}) {where}")
    if ph == PH_TARGET:
        if not game.ffa:
            fail("phase", ph, "(target) exists only in free_for_all (G-7.4)")
        if t != -1:
            fail("target", t, f"is chosen already {where}")
    else:
        if t < 0 or t == ra:
            fail("target", t, f"is not an opponent of round_attacker {ra} {where}")
        if not game.ffa and t != 1 - ra:
            fail("target", t, f"is not the opponent 1 - round_attacker {ra} {where}")
        if not over and not alive[t]:
            fail("target", t, f"has no living fighter (hp[{t}] {hp[t]}) {where}")
    if s.def_bonus != -1:
        fail("def_bonus", s.def_bonus, "is set: the defence bonus side is chosen and the "
             "battle resolved in one step (a saved state holds -1)")
    if s.resurrected and not game.resurrection:
        fail("resurrected", True, "without the 'resurrection' variant (G-7.2)")
    if game.night:
        for name in ("atk_cards", "def_cards"):
            check_len(name, getattr(s, name), 0, 1, why="'night': one card a side, G-7.3")
    if over:
        _check_over(game, s, alive)
        return
    if ph in (PH_TARGET, PH_ATTACKER_FIGHTER, PH_DEFENDER_FIGHTER):
        _check_before_battle(game, s, where)
        return
    # a battle, its counter-attack choice or a resurrection (atk_slot, def_slot chosen)
    _alive_slot(game, s, "atk_slot", s.atk_slot, "round_attacker", ra, where)
    _alive_slot(game, s, "def_slot", s.def_slot, "target", t, where)
    roles = (t, ra) if s.counter else (ra, t)
    if (s.striker, s.blocker) != roles:
        fail("striker", s.striker, f"and blocker {s.blocker} are not (round_attacker, target)"
             f" = ({ra}, {t}), swapped in a counter-attack (counter {s.counter}; G-5.1) "
             f"{where}")
    if s.counter and ph not in (PH_ATTACK_CARDS, PH_ATTACK_BONUS, PH_DEFENCE_CARDS,
                                PH_DEFENCE_BONUS):
        fail("counter", True, f"{where}: the counter-attack is a battle")
    if s.resurrected and not s.counter and ph != PH_COUNTER_CHOICE:
        fail("resurrected", True, f"{where}: a resurrection replaces the attack, then comes "
             "the counter-attack choice (G-7.2)")
    if ph == PH_COUNTER_CHOICE or ph == PH_RESURRECT_CHOICE:
        _check_no_battle_cards(game, s, where)
        if ph == PH_COUNTER_CHOICE:
            if s.player != t:
                fail("player", s.player, f"is not target {t} {where} (G-5.1)")
            if not s.hands[t]:
                fail(f"hands[{t}]", s.hands[t], f"of target {t} is empty {where}: the "
                     "counter-attack is offered only with a card (G-5.2)")
            if s.revealed == s.resurrected:
                fail("revealed", s.revealed, f"with resurrected {s.resurrected} {where}: "
                     "the battle before was resolved (revealed) unless a resurrection "
                     "replaced it")
        else:
            if not game.resurrection:
                fail("phase", ph, "(resurrect_choice) without the 'resurrection' variant")
            if s.player != ra:
                fail("player", s.player, f"is not round_attacker {ra} {where} (G-7.2)")
            if s.resurrected or s.revealed:
                fail("resurrected" if s.resurrected else "revealed", True,
                     f"is set {where} (the resurrection is being declared)")
            if all(h > 0 for h in hp[ra]):
                fail(f"hp[{ra}]", hp[ra], f"of round_attacker {ra} has no eliminated "
                     f"fighter to bring back {where} (G-7.2 DECISION)")
        return
    _check_battle(game, s, where)

def _check_over(game, s: Garda3State, alive: list[bool]) -> None:
    """A game ends after a battle (or a resurrection, G-7.2): its roles, slots and the
    counter flag stay as they were (G-6)."""
    where = "in phase 'over'"
    ra, t = s.round_attacker, s.target
    if s.player != -1:
        fail("player", s.player, f"is not -1 {where}")
    _check_no_battle_cards(game, s, where)
    for name in ("atk_slot", "def_slot"):
        if getattr(s, name) < 0:
            fail(name, getattr(s, name), f"is not the slot of the last battle {where}")
    roles = (t, ra) if s.counter else (ra, t)
    if (s.striker, s.blocker) != roles:
        fail("striker", s.striker, f"and blocker {s.blocker} are not the last battle's "
             f"(round_attacker, target) = ({ra}, {t}), swapped after a counter-attack "
             f"(counter {s.counter}) {where}")
    slot_name = "def_slot" if s.counter else "atk_slot"
    _alive_slot(game, s, slot_name, striker_slot(s), "striker", s.striker, where)
    if not s.revealed and not s.resurrected:
        fail("revealed", False, f"with resurrected False {where}: the last battle was "
             "resolved, its cards face up")
    if s.winner >= 0 and s.striker != s.winner:
        fail("striker", s.striker, f"is not winner {s.winner}: the game is won by the last "
             "battle's striker eliminating the blocker's last fighter (G-6.1)")

def _alive_slot(game, s: Garda3State, path: str, slot: int, who: str, seat: int,
                where: str) -> None:
    if slot < 0 or s.hp[seat][slot] <= 0:
        fail(path, slot, f"is not a living fighter slot of {who} {seat} (hp[{seat}] "
             f"{s.hp[seat]}) {where}")

def _check_no_battle_cards(game, s: Garda3State, where: str) -> None:
    for name in ("atk_cards", "def_cards"):
        if getattr(s, name):
            fail(name, getattr(s, name), f"is not empty {where} (played cards are "
                 "discarded when the battle is resolved, G-4.9)")
    if s.atk_bonus != -1:
        fail("atk_bonus", s.atk_bonus, f"is not -1 {where} (no attack on the table)")

def _check_before_battle(game, s: Garda3State, where: str) -> None:
    ph, ra = s.phase, s.round_attacker
    _check_no_battle_cards(game, s, where)
    if s.player != (s.target if ph == PH_DEFENDER_FIGHTER else ra):
        fail("player", s.player, f"is not the seat choosing {where} (round_attacker {ra}, "
             f"target {s.target}; G-4.1)")
    if ph == PH_DEFENDER_FIGHTER:
        _alive_slot(game, s, "atk_slot", s.atk_slot, "round_attacker", ra, where)
    elif s.atk_slot != -1:
        fail("atk_slot", s.atk_slot, f"is chosen already {where}")
    if s.def_slot != -1:
        fail("def_slot", s.def_slot, f"is chosen already {where}")
    for name in ("counter", "resurrected"):
        if getattr(s, name):
            fail(name, True, f"is set {where} (before this round's battle)")
    if s.round == 1:  # the last battle's roles stay until the next battle; none yet
        if s.striker != -1 or s.blocker != -1 or s.revealed:
            fail("striker", s.striker, f"blocker {s.blocker}, revealed {s.revealed}: there "
                 f"was no battle before round 1's {where} (expected -1, -1, False)")
    elif s.striker < 0 or s.blocker < 0 or s.striker == s.blocker:
        fail("striker", s.striker, f"and blocker {s.blocker} are not two seats (those of "
             f"the last battle) {where}, round {s.round}")

def _check_battle(game, s: Garda3State, where: str) -> None:
    """attack_cards, attack_bonus, defence_cards, defence_bonus (G-4.2 … G-4.7)."""
    ph, atk, dfn = s.phase, s.atk_cards, s.def_cards
    striker_field = "def_slot" if s.counter else "atk_slot"
    blocker_field = "atk_slot" if s.counter else "def_slot"
    a_bonus = game.fighter_stats(s, s.striker, striker_slot(s))[0]
    d_bonus = game.fighter_stats(s, s.blocker, blocker_slot(s))[1]
    attacking = ph in (PH_ATTACK_CARDS, PH_ATTACK_BONUS)
    if s.player != (s.striker if attacking else s.blocker):
        fail("player", s.player, f"is not the {'striker' if attacking else 'blocker'} {where} "
             f"(striker {s.striker}, blocker {s.blocker})")
    if len(atk) == 2 and not game.pairs(atk[0], atk[1]):
        fail("atk_cards", atk, "are two cards of different colours (G-1.5, piebald_is_wild "
             f"{game.config.piebald_is_wild})")
    split = game.split_attack(s)
    if ph == PH_ATTACK_CARDS:
        check_len("atk_cards", atk, 0, 0 if game.night else 1,
                  why=f"the attack ends with its last card {where}")
    elif ph == PH_ATTACK_BONUS:
        if not split:
            fail("atk_cards", atk, f"are not a two-direction attack {where} (G-4.5)")
    else:
        check_len("atk_cards", atk, 1, 2, why=f"the attack is on the table {where}")
    if attacking:
        if dfn:
            fail("def_cards", dfn, f"is not empty {where} (the defence follows the attack)")
        if s.revealed:
            fail("revealed", True, f"{where}: the attack is revealed once the defence is "
                 "played (G-7.3)")
        if s.atk_bonus != -1:
            fail("atk_bonus", s.atk_bonus, f"is chosen already {where}")
        if ph == PH_ATTACK_CARDS and not s.hands[s.striker]:
            fail(f"hands[{s.striker}]", s.hands[s.striker], f"of striker {s.striker} is "
                 f"empty {where} (a battle without cards resolves at once, G-4.6)")
    else:
        want = split and a_bonus > 0
        if (s.atk_bonus >= 0) != want:
            fail("atk_bonus", s.atk_bonus, f"{where}: the attacker chooses a side exactly for "
                 f"a two-direction attack ({split}) by a fighter with an attack bonus (striker "
                 f"{s.striker}'s {striker_field} fighter: +{a_bonus}; G-4.5)")
    if ph == PH_ATTACK_BONUS and a_bonus == 0:
        fail(striker_field, striker_slot(s), f"{where}: striker {s.striker}'s fighter "
             "has no attack bonus to place (G-4.5)")
    if ph == PH_DEFENCE_CARDS:
        check_len("def_cards", dfn, 0, 0 if game.night else 1,
                  why=f"the defence ends with its last card {where}")
        if s.revealed:
            fail("revealed", True, f"{where}: the attack is revealed once the defence is "
                 "played (G-7.3)")
        if not s.hands[s.blocker]:
            fail(f"hands[{s.blocker}]", s.hands[s.blocker], f"of blocker {s.blocker} is "
                 f"empty {where} (without a card the defence is 0 at once, G-4.6)")
    elif ph == PH_DEFENCE_BONUS:
        check_len("def_cards", dfn, 2, why=f"two defence cards {where}")
        if not game.pairs(dfn[0], dfn[1]):
            fail("def_cards", dfn, "are two cards of different colours (G-1.5, "
                 f"piebald_is_wild {game.config.piebald_is_wild})")
        if CARD_DEFENCE_DIR[dfn[0]] == CARD_DEFENCE_DIR[dfn[1]] or not split:
            fail("def_cards", dfn, f"with atk_cards {atk} {where}: the defender chooses the "
                 "bonus side only when two attacked directions are both defended (G-4.6)")
        if d_bonus == 0:
            fail(blocker_field, blocker_slot(s), f"{where}: blocker {s.blocker}'s "
                 "fighter has no defence bonus to place (G-4.6)")
        if not s.revealed:
            fail("revealed", False, f"{where}: the defence is played, the attack is face up")

# -- hidden information -----------------------------------------------------------------
