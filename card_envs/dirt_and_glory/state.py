"""Dirt and Glory state: the declaration (:class:`DirtAndGloryState`) and the invariant check
:func:`check_state` (rule ids ``DG-…`` of ``docs/rules/dirt_and_glory.md``).

Cards are integer ids: unit-deck cards ``0 .. D-1`` (one id per copy), then player ``p``'s
starting cards ``D + p*S .. D + (p+1)*S - 1`` (``D = game.deck_size``, ``S = game.start_size``).
Every card has a *kind* (values + ability, :class:`~card_envs.dirt_and_glory.cards.Kind`).
Decks are lists with the top at the end (``pop()`` draws, ``insert(0, c)`` puts on the bottom).

Loading a state checks the declaration's static ranges (the core), then :func:`check_state`
(the game's ``state_checks``): the bounds of this config and content, read from the
:class:`~card_envs.dirt_and_glory.rules.DirtAndGloryGame` it is handed (its public attributes
and methods; this module does not import the rules).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from card_envs.core.errors import StateError
from card_envs.core.state import (
    GameState,
    Seat,
    SeatOrNone,
    check_cards,
    check_len,
    check_range,
    fail,
)
from card_envs.dirt_and_glory.constants import (
    AB_FUEL,
    AB_ZERO,
    ABILITY,
    AFTER,
    DRAFT,
    DRAFT_DRAW,
    END,
    MAIN,
    MIX,
    PHASES,
    SETUP,
    TAKE,
    VALUE,
    Phase,
)

#: static bounds of the state declaration (config-dependent bounds are ``check_state``'s)
MAX_SEATS = 5
MAX_ROUNDS = 20
MAX_CARD_ID = 100_000
MAX_TERRITORY = 10_000
MAX_TOKENS = 100_000  # fuel tokens or points one seat can hold (far above any reachable value)

CardId = Annotated[int, Field(ge=0, le=MAX_CARD_ID)]
Tokens = Annotated[int, Field(ge=0, le=MAX_TOKENS)]


@dataclass(slots=True, eq=False)
class DirtAndGloryState(GameState):
    """A Dirt and Glory position, declared once (clone / JSON / validation come from the core,
    :mod:`card_envs.core.state`; :func:`check_state` adds the config's invariants).

    Seats ``0..n-1``; card ids as in the module docstring; every per-seat list has ``n`` entries.
    """

    rng: random.Random
    #: a :class:`~card_envs.dirt_and_glory.constants.Phase` (stored as a plain int)
    phase: Annotated[int, Field(ge=0, le=len(Phase) - 1)]
    #: seat to decide (-1 at the end)
    player: SeatOrNone
    #: 0-based round (``num_rounds`` once the game is over)
    round: Annotated[int, Field(ge=0, le=MAX_ROUNDS)]
    #: first seat of this round (DG-3.2)
    first: Seat
    #: position in turn order during the round preparation (``n`` once it is over)
    prep_pos: Annotated[int, Field(ge=0, le=MAX_SEATS)]
    #: the shared unit deck (top = end)
    unit_deck: list[CardId]
    #: the offer (DG-2.2)
    offer: list[CardId]
    #: draft cards out of the game (``draft_return="discard"``), in seat order
    discarded: list[CardId]
    #: territory indices of the content; ``territories[round]`` is the current one
    territories: list[Annotated[int, Field(ge=0, le=MAX_TERRITORY)]]
    #: per seat: the own deck (top = end), the reserve, the caravan (in play order)
    decks: list[list[CardId]]
    reserves: list[list[CardId]]
    caravans: list[list[CardId]]
    #: per seat, the counted value of each caravan card (0 after zero_next; a two-value card
    #: counts its low value until its value is chosen)
    values: list[list[Annotated[int, Field(ge=0, le=5)]]]
    fuel: list[Tokens]
    scores: list[Tokens]
    #: per seat flags of the round: passed, exceeded the target (a forced pass), DG-1.5
    #: zero_next pending, knows the own deck's top card (scout)
    passed: list[bool]
    busted: list[bool]
    zero_next: list[bool]
    peek: list[bool]
    #: cards drawn for the current draft / set-up decision (seat ``player``)
    hand: list[CardId]
    #: the card just played or placed, while its decisions last (-1 none)
    pending: Annotated[int, Field(ge=-1, le=MAX_CARD_ID)]
    #: the card just played came from the reserve (DG-3.3)
    from_reserve: bool
    #: fuel uses this turn (DG-3.3)
    fuel_used: Annotated[int, Field(ge=0, le=3)]
    #: what a value / ability decision continues: the set-up (DG-3.1) or a turn (DG-3.2)
    ctx: Literal["setup", "play"]
    #: per seat ``[place (0 = over the target or none), points, fuel]`` of the last scored round
    last_result: list[list[Annotated[int, Field(ge=0, le=99)]]]
    #: seats that won (only at the end)
    winners: list[Seat]


def check_state(game: Any, state: DirtAndGloryState) -> None:
    """StateError naming the field path and value unless ``state`` is a consistent position
    of this config: seat counts, card ids of this content and the card multiset over every
    zone (nothing created or lost; starting cards only in their owner's zones), counted
    values matching the caravans, the territories, round / first seat / preparation position
    / phase / seat to act consistent with each other, the phase's own fields (hand, pending
    card, turn fields), passes and busts against the totals, the offer size, the tokens,
    the last round's result and the winners."""
    s, cfg, n = state, game.config, game.num_players
    D, S = game.deck_size, game.start_size
    low, high, ab = game.card_low, game.card_high, game.card_ab
    ph, p = s.phase, s.player
    # -- seat counts and list shapes --------------------------------------------------------
    for name in ("decks", "reserves", "caravans", "values", "fuel", "scores", "passed",
                 "busted", "zero_next", "peek", "last_result"):
        check_len(name, getattr(s, name), n, why=f"one entry per seat of {n}")
    for q in range(n):
        check_len(f"last_result[{q}]", s.last_result[q], 3, why="[place, points, fuel]")
        if len(s.values[q]) != len(s.caravans[q]):
            fail(f"values[{q}]", s.values[q], f"has {len(s.values[q])} entries but "
                 f"caravans[{q}] holds {len(s.caravans[q])} cards (one value per card)")
    check_len("territories", s.territories, cfg.num_rounds, why="num_rounds")
    # -- scalars ------------------------------------------------------------------------------
    if ph == END:
        if s.round != cfg.num_rounds:
            fail("round", s.round, f"is not num_rounds ({cfg.num_rounds}) in phase 'end'")
        if s.player != -1:
            fail("player", s.player, "is not -1 in phase 'end'")
    else:
        check_range("round", s.round, 0, cfg.num_rounds - 1,
                    f"a round of this game in phase {PHASES[ph]!r}")
        check_range("player", s.player, 0, n - 1, f"a seat in phase {PHASES[ph]!r}")
    last = min(s.round, cfg.num_rounds - 1)  # the round being played (or the last one)
    want_first = last % n if cfg.first_player == "rotate" else 0
    if ph == DRAFT:
        want_first = 0
    if s.first != want_first:
        fail("first", s.first, f"is not the first seat ({want_first}) of round {s.round} "
             f"in phase {PHASES[ph]!r} (first_player={cfg.first_player!r})")
    check_range("fuel_used", s.fuel_used, 0, cfg.fuel_uses_per_turn, "a fuel use count")
    # -- territories ------------------------------------------------------------------------
    nt = len(game.terr_target)
    for i, t in enumerate(s.territories):
        check_range(f"territories[{i}]", t, 0, nt - 1, "a territory of this content")
        if t in s.territories[:i]:
            fail(f"territories[{i}]", t, "is drawn twice")
    if cfg.territory_selection == "first" and s.territories != list(range(cfg.num_rounds)):
        fail("territories", s.territories, "are not the first territories of the file in "
             "order (territory_selection='first')")
    # -- the card multiset and ownership ----------------------------------------------------
    hand_owner = p if ph == SETUP else None  # a draft hand is drawn from the unit deck
    zones: dict[str, list[int]] = {"unit_deck": s.unit_deck, "offer": s.offer,
                                   "discarded": s.discarded, "hand": s.hand}
    owners: dict[str, int | None] = {"hand": hand_owner}
    for name in ("decks", "reserves", "caravans"):
        for q in range(n):
            zones[f"{name}[{q}]"] = getattr(s, name)[q]
            owners[f"{name}[{q}]"] = q
    check_cards(zones, range(game.num_cards), "card")
    for name, cards in zones.items():
        owner = owners.get(name)
        for i, c in enumerate(cards):
            if c >= D and (c - D) // S != owner:
                where = (f" (the hand of phase {game.phase_name(s)!r} is player {p}'s set-up "
                         "draw)" if owner is not None else
                         f" (the hand of phase {game.phase_name(s)!r} is drawn from the "
                         "unit deck)" if name == "hand" else "")
                fail(f"{name}[{i}]", c, f"is a starting card of seat {(c - D) // S} outside "
                     "that seat's deck, reserve and caravan (starting cards never change "
                     "owner)" + where)
    if cfg.draft_return == "bottom":
        check_len("discarded", s.discarded, 0, why="draft_return='bottom'")
    else:
        check_len("discarded", s.discarded, p if ph == DRAFT else n,
                  why=f"one returned draft card per seat that drafted, draft_return="
                  f"'discard', phase {PHASES[ph]!r}, player {p}")
    # -- counted values ------------------------------------------------------------------------
    for q in range(n):
        car, vals = s.caravans[q], s.values[q]
        zero_ok = any(ab[c] == AB_ZERO for c in car) or any(ab[c] == AB_ZERO
                                                            for c in s.reserves[q])
        for i, (c, v) in enumerate(zip(car, vals)):
            if v != low[c] and v != high[c] and not (v == 0 and zero_ok):
                why = (" or 0 (after a zero_next card of this seat)" if zero_ok else "")
                fail(f"values[{q}][{i}]", v, f"is not a value of card {c} "
                     f"({game.card_label(c)}) in caravans[{q}][{i}]: {low[c]}"
                     + (f" or {high[c]}" if high[c] != low[c] else "") + why)
        if s.zero_next[q] and not zero_ok:
            fail(f"zero_next[{q}]", True, f"is set but seat {q} has no zero_next card in "
                 "its caravan or reserve (DG-1.5)")
        if s.peek[q] and not s.decks[q]:
            fail(f"peek[{q}]", True, f"is set but decks[{q}] is empty (a scout sees the top "
                 "card)")
        if s.busted[q] and not s.passed[q]:
            fail(f"busted[{q}]", True, f"is set but passed[{q}] is not (exceeding the "
                 "target is a forced pass)")
    # -- the phase and its own fields ---------------------------------------------------------
    prep = ph in (MIX, SETUP) or (ph in (VALUE, ABILITY) and s.ctx == "setup")
    play = ph in (MAIN, AFTER, TAKE) or (ph in (VALUE, ABILITY) and s.ctx == "play")
    if ph in (DRAFT, MIX, SETUP, MAIN, AFTER, TAKE, END):
        want_ctx = "setup" if ph in (DRAFT, MIX, SETUP) else "play"
        if s.ctx != want_ctx:
            fail("ctx", s.ctx, f"is not {want_ctx!r} in phase {PHASES[ph]!r}")
    want_hand = 3 if ph == DRAFT else (2 if ph == SETUP else 0)
    check_len("hand", s.hand, want_hand, why=f"phase {game.phase_name(s)!r}")
    if ph in (VALUE, ABILITY, AFTER):
        if not s.caravans[p] or s.pending != s.caravans[p][-1]:
            fail("pending", s.pending, f"is not the last card of caravans[{p}] (the card "
                 f"player {p} just played) in phase {game.phase_name(s)!r}")
    elif s.pending != -1:
        fail("pending", s.pending, f"is not -1 in phase {game.phase_name(s)!r}")
    if s.from_reserve and s.fuel_used < 1:
        fail("from_reserve", True, "is set but fuel_used is 0 (playing from the reserve "
             "is a fuel use, DG-3.3)")
    if not play or ph == MAIN or (ph == TAKE and not s.busted[p]):
        if s.fuel_used != 0:
            fail("fuel_used", s.fuel_used, f"is not 0 in phase {game.phase_name(s)!r}")
        if s.from_reserve:
            fail("from_reserve", True, f"is set in phase {game.phase_name(s)!r}")
    if ph == VALUE:
        c = s.pending
        if low[c] == high[c]:
            fail("phase", ph, f"is 'value' but card {c} ({game.card_label(c)}) has one value")
        if s.values[p][-1] != low[c]:
            fail(f"values[{p}][{len(s.values[p]) - 1}]", s.values[p][-1],
                 f"is not the low value {low[c]} of card {c} while its value is chosen")
        if s.ctx == "setup" and cfg.first_card_value != "choose":
            fail("phase", ph, f"is 'value' of a placed card with "
                 f"first_card_value={cfg.first_card_value!r}")
    elif ph == ABILITY:
        c = s.pending
        if not game.ability_available(s, p):
            fail("phase", ph, f"is 'ability' but card {c} ({game.card_label(c)}) has no "
                 "ability usable now")
        if s.values[p][-1] not in (low[c], 0):
            fail(f"values[{p}][{len(s.values[p]) - 1}]", s.values[p][-1],
                 f"is not the low value {low[c]} (or 0) of card {c} before its ability")
        if s.ctx == "setup" and not cfg.first_card_ability:
            fail("ctx", s.ctx, "is 'setup' in phase 'ability' with first_card_ability=False")
    elif ph == AFTER:
        bust = sum(s.values[p]) > game.target(s)
        if (s.fuel[p] < cfg.fuel_cost or s.fuel_used >= cfg.fuel_uses_per_turn
                or (bust and not cfg.bust_fuel_rescue)):
            fail("phase", ph, f"is 'after' but seat {p} cannot use fuel now (fuel "
                 f"{s.fuel[p]}, fuel_used {s.fuel_used})")
    elif ph == TAKE:
        if not s.passed[p]:
            fail(f"passed[{p}]", False, f"is not set in phase 'take' (player {p} passed)")
        if not s.offer:
            fail("offer", s.offer, "is empty in phase 'take'")
    elif ph == MIX:
        if cfg.reserve_mix != "choose" or s.round == 0 or not s.reserves[p]:
            fail("phase", ph, f"is 'mix' in round {s.round} with reserves[{p}] "
                 f"{s.reserves[p]} (reserve_mix={cfg.reserve_mix!r})")
    if play and ph != TAKE and s.passed[p]:
        fail(f"passed[{p}]", True, f"is set but player {p} acts in phase "
             f"{game.phase_name(s)!r}")
    # -- the round: preparation order, passes, totals -----------------------------------------
    if ph == DRAFT:
        if s.round != 0 or s.prep_pos != 0:
            fail("round" if s.round else "prep_pos", s.round or s.prep_pos,
                 "is not 0 during the draft")
        for q in range(n):
            own = S + (DRAFT_DRAW - 1) if q < p else S
            check_len(f"decks[{q}]", s.decks[q], own, why=f"the draft: starting cards plus "
                      f"the 2 kept by the seats before player {p}")
            for name in ("reserves", "caravans", "passed", "busted", "zero_next", "peek"):
                if getattr(s, name)[q]:
                    fail(f"{name}[{q}]", getattr(s, name)[q], "is not empty during the draft")
            if s.fuel[q] != cfg.starting_fuel or s.scores[q] != 0:
                bad = "fuel" if s.fuel[q] != cfg.starting_fuel else "scores"
                fail(f"{bad}[{q}]", getattr(s, bad)[q], "is not the starting value during "
                     "the draft")
        if s.offer:
            fail("offer", s.offer, "is laid before the draft is over (DG-2.2)")
    elif prep:
        check_range("prep_pos", s.prep_pos, 0, n - 1, "a position of the round preparation")
        order = [(s.first + i) % n for i in range(n)]
        if p != order[s.prep_pos]:
            fail("player", p, f"is not the seat at prep_pos {s.prep_pos} of the round's "
                 f"preparation ({order[s.prep_pos]})")
        done = set(order[:s.prep_pos + (ph in (VALUE, ABILITY))])
        for q in range(n):
            if s.passed[q] or s.busted[q]:
                bad = "passed" if s.passed[q] else "busted"
                fail(f"{bad}[{q}]", True, "is set during the round preparation")
            if q in done:
                check_len(f"caravans[{q}]", s.caravans[q], 0, 1,
                          why="a prepared seat's caravan holds its first card")
                deciding = q == p and ph in (VALUE, ABILITY)  # counts its low value so far
                for i, (c, v) in enumerate(zip(s.caravans[q], s.values[q])):
                    mode = cfg.first_card_value
                    if (v == 0 or (mode == "low" and v != low[c])
                            or (mode == "high" and v != high[c] and not deciding)):
                        fail(f"values[{q}][{i}]", v, f"is not the value of a placed first "
                             f"card ({game.card_label(c)}, first_card_value={mode!r})")
                if (s.zero_next[q] or s.peek[q]) and not cfg.first_card_ability:
                    bad = "zero_next" if s.zero_next[q] else "peek"
                    fail(f"{bad}[{q}]", True, "is set during the preparation with "
                         "first_card_ability=False")
            else:
                for name in ("caravans", "zero_next", "peek"):
                    if getattr(s, name)[q]:
                        fail(f"{name}[{q}]", getattr(s, name)[q], f"is set for seat {q}, "
                             "not yet prepared this round")
    else:  # the turns and the end
        if s.prep_pos != n:
            fail("prep_pos", s.prep_pos, f"is not {n} after the round preparation")
        if ph == END and not all(s.passed):
            fail("passed", s.passed, "are not all set at the end")
        if ph == MAIN and all(s.passed):
            fail("passed", s.passed, "are all set in a turn")
        target = game.target(s)
        terr = f"territories[{last}]"
        for q in range(n):
            tot = sum(s.values[q])
            if q == p and ph in (VALUE, ABILITY, AFTER):
                tot -= s.values[q][-1]  # before the card just played
                if tot > target and game.totals_fit:
                    fail(f"values[{q}]", s.values[q], f"total {tot} before the card just "
                         f"played exceeds the target {target} of {terr}")
                continue
            if s.busted[q] and tot <= target:
                fail(f"busted[{q}]", True, f"is set but the caravan total {tot} of "
                     f"values[{q}] does not exceed the target {target} of {terr}")
            if not s.busted[q] and tot > target and game.totals_fit:
                fail(f"busted[{q}]", False, f"is not set but the caravan total {tot} of "
                     f"values[{q}] exceeds the target {target} of {terr} (a forced pass, "
                     "DG-3.2)")
    # -- the offer and what each seat owns -----------------------------------------------------
    if ph != DRAFT:
        takers = sum(s.passed) - (ph == TAKE)
        room = n - takers
        if (len(s.offer) != room) if s.unit_deck else (len(s.offer) > room):
            fail("offer", s.offer, f"holds {len(s.offer)} cards: {n} were laid (fewer only "
                 f"when the unit deck ran out) and {takers} passed seat(s) took one")
        for q in range(n):
            owned = (len(s.decks[q]) + len(s.reserves[q]) + len(s.caravans[q])
                     + (len(s.hand) if q == hand_owner else 0))
            # one offer card per round scored and one if passed this round (in phase take
            # the player has not taken it yet)
            most = (S + DRAFT_DRAW - 1 + s.round
                    + (play and s.passed[q] and not (ph == TAKE and q == p)))
            if not S + DRAFT_DRAW - 1 <= owned <= most:
                fail(f"decks[{q}]", s.decks[q], f"with reserves[{q}] and caravans[{q}]: seat "
                     f"{q} owns {owned} cards, expected {S + DRAFT_DRAW - 1}..{most} "
                     f"(starting cards, 2 drafted, one offer card per pass; round "
                     f"{s.round}, passed[{q}] {s.passed[q]}, phase {game.phase_name(s)!r}, "
                     f"player {p})")
    # -- tokens, the last result, the winners --------------------------------------------------
    scored = s.round if ph != DRAFT else 0
    fuel_cards = sum(1 for a in ab if a == AB_FUEL)
    fuel_most = (cfg.starting_fuel + scored * game.max_reward_fuel
                 + (scored + 1) * fuel_cards)
    for q in range(n):
        check_range(f"fuel[{q}]", s.fuel[q], 0, fuel_most, "a reachable fuel count")
        pts_most = scored * game.max_territory_points + (fuel_most // cfg.fuel_per_point
                                                if ph == END else 0)
        check_range(f"scores[{q}]", s.scores[q], 0, pts_most, "a reachable score")
    if scored == 0:
        for q in range(n):
            if s.last_result[q] != [0, 0, 0]:
                fail(f"last_result[{q}]", s.last_result[q], "is not [0, 0, 0] before the "
                     "first scoring")
    else:
        t = s.territories[scored - 1]
        places = [r[0] for r in s.last_result]
        for q in range(n):
            pl, gp, gf = s.last_result[q]
            check_range(f"last_result[{q}][0]", pl, 0, n, "a place (0: not placed)")
            want = ([game.terr_points[t][pl - 1], game.terr_fuel[t][pl - 1]]
                    if 1 <= pl <= 3 else [0, cfg.consolation_fuel])
            if [gp, gf] != want:
                fail(f"last_result[{q}]", s.last_result[q], f"does not pay place {pl} of "
                     f"the last round's territory territories[{scored - 1}] = {t}: "
                     f"[points, fuel] {want} (DG-3.5)")
            if gp > s.scores[q]:
                fail(f"scores[{q}]", s.scores[q], f"is below the last round's points {gp} "
                     f"(last_result[{q}])")
        for q in range(n):
            pl = places[q]
            if cfg.ties == "share_skip":  # place = 1 + the placed seats closer
                ok = not pl or sum(1 for x in places if 0 < x < pl) == pl - 1
            else:  # the places used are 1, 2, ... without a gap
                ok = not pl or sorted({x for x in places if 0 < x < pl}) == list(range(1, pl))
            if not ok:
                raise StateError(
                    ", ".join(f"last_result[{r}][0]" for r in range(n)) + f": the places "
                    f"{places} are not a ranking (ties={cfg.ties!r}, DG-3.5)")
    if ph == END:
        places = game.round_places(s)
        for q in range(n):
            if s.last_result[q][0] != places[q]:
                fail(f"last_result[{q}][0]", s.last_result[q][0], f"is not seat {q}'s place "
                     f"{places[q]} in the last round (values[{q}], busted[{q}])")
        best = max(s.scores)
        win = [q for q in range(n) if s.scores[q] == best]
        if cfg.tie_break == "fuel" and len(win) > 1:
            most = max(s.fuel[q] for q in win)
            win = [q for q in win if s.fuel[q] == most]
        if s.winners != win:
            fail("winners", s.winners, f"are not the winners {win} of the scores and fuel "
                 "(DG-4.1)")
    elif s.winners:
        fail("winners", s.winners, "are set before the end")
