"""Rust Brawl rules engine (2 players): the ``Game`` (RB-3 … RB-8).

Rules as implemented: ``docs/rules/rust_brawl.md`` (rule ids ``RB-…``). The engine is pure
Python (ints and lists, per-card tables built once per game object); numpy is used only by the
observation encoder (:mod:`.observation`).

A turn (RB-4) runs inside :meth:`RustBrawlGame._apply_action` from one decision to the next:
the draw, every table card's action in position order (a forced action with one target, a
melee attack, a heal-all, a hit-all attack or going into cover need no decision), the play
step, the discard above 4 cards, the end-of-turn removal and shifting, the victory checks, and
the next player's turn. A decision is asked only when there are two or more choices (a ranged
or heal target, which card to play or pass, which character an equipment goes to, which card
to discard); a decision with one choice is taken by the engine.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from typing import Any

from card_envs.core.balance import BalanceMixin
from card_envs.core.config import config_from_kwargs
from card_envs.core.game import lead
from card_envs.core.rng import make_rng
from card_envs.rust_brawl.config import RustBrawlConfig
from card_envs.rust_brawl.constants import (
    A_EQUIP,
    A_HEAL,
    A_PASS,
    A_PLAY,
    A_RANGED,
    CHARACTER,
    DISCARD,
    END,
    EQUIP_TARGET,
    EQUIPMENT,
    EXPLOSIVE,
    HAND_KEEP,
    HEAL,
    HEAL_TARGET,
    MELEE,
    NUM_SEATS,
    OTHER_DRAW,
    PLAY,
    PLAY_OR_DISCARD,
    POSITIONS,
    RANGED_TARGET,
    STARTER_DRAW,
)
from card_envs.rust_brawl.decks import copies_allowed, random_deck
from card_envs.rust_brawl.queries import (F_HEAL_ALL, F_HIT_ALL, F_IMMUNE, F_PARALYSE,
                                           F_RETURN, NOT_AN_ATTACK, Profile, RustBrawlQueries,
                                           dealt, extra_dmg, hit)
from card_envs.rust_brawl.state import (RANDOM_DECK, UNKNOWN_DECK, HltBoost, RustBrawlState,
                                        mark_counts, table_mark)

__all__ = ["Profile", "RustBrawlState", "RustBrawlConfig", "RustBrawlGame", "make_game"]

# the stages a turn goes through inside one call of _apply_action (RB-4)
_ACT, _PLAY, _DISCARD, _END = range(4)


class RustBrawlGame(BalanceMixin, RustBrawlQueries):
    """The Rust Brawl ``Game`` (contract: :mod:`card_envs.core.game`), 2 seats: the rules on top
    of :class:`~card_envs.rust_brawl.queries.RustBrawlQueries` (the card tables, the decks, the
    position queries; its construction errors)."""

    name = "rust_brawl"
    version = 1
    num_players = NUM_SEATS
    # -- declared facts (card_envs.core.game.GameFacts) --
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"  # +1 / -1, 0 a draw or the turn cap
    zero_sum = True
    chance = True  # shuffled decks
    provides_potential = provides_lookahead_horizon = True

    # -- set-up (RB-3) ----------------------------------------------------------------------------
    def new_state(self, seed: int) -> RustBrawlState:
        rng = make_rng(seed)
        decklists, names = [], []
        for p in range(NUM_SEATS):
            if self.fixed_decks is not None and self.fixed_decks[p] is not None:
                name, cards = self.fixed_decks[p]
            elif self.deck_choices:  # decks=None: a shipped deck by the seed (RB-3.4)
                name, cards = self.deck_choices[rng.randrange(len(self.deck_choices))]
            else:  # decks="random", or this seat's spec is "random"
                deck = random_deck(self.db, rng, self.config.deck_point_limit)
                name, cards = RANDOM_DECK, sorted(self.db.by_id(i).index for i in deck.cards)
            decklists.append(list(cards))
            names.append(name)
        decks = [d[:] for d in decklists]
        for d in decks:
            rng.shuffle(d)
        starter = rng.randrange(NUM_SEATS)  # RB-3.2 by lot
        blank = [[0] * POSITIONS for _ in range(NUM_SEATS)]
        s = RustBrawlState(
            rng=rng, phase=PLAY, player=starter, starter=starter, turn=0,
            decklists=decklists, deck_names=names, decks=decks, hands=[[], []],
            graveyards=[[], []], table=[[-1] * POSITIONS for _ in range(NUM_SEATS)],
            hlt=[r[:] for r in blank], max_hlt=[r[:] for r in blank],
            cover=[[False] * POSITIONS for _ in range(NUM_SEATS)],
            paralysed_until=[r[:] for r in blank], serial=[r[:] for r in blank],
            equipment=[[[] for _ in range(POSITIONS)] for _ in range(NUM_SEATS)],
            granted=[[[] for _ in range(POSITIONS)] for _ in range(NUM_SEATS)],
            next_serial=1, acting=POSITIONS, pending=-1, changed=False, quiet_turns=0,
            table_marks=[[], []], marks_from=0, winner=-1, end_reason="",
        )
        self._draw(s, starter, STARTER_DRAW)
        self._draw(s, 1 - starter, OTHER_DRAW)
        if not any(self.is_character[c] for d in decklists for c in d):
            self._finish(s, -1, "no_characters")  # RB-7.3: nobody can ever play a character
            return s
        self._start_turn(s, starter)
        if s.phase != END:
            self._continue(s, _ACT)
        return s

    # -- contract: queries ----------------------------------------------------------------------
    def is_truncated(self, state: RustBrawlState) -> bool:
        """Over by the turn cap (RB-7.4 ``max_turns``)."""
        return state.end_reason == "turn_cap"

    def returns(self, state: RustBrawlState) -> list[float]:
        """+1 for the winner, -1 for the loser; 0 / 0 for a draw, a truncation or mid-game."""
        if state.phase != END or state.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if state.winner == 0 else [-1.0, 1.0]

    def _legal_actions(self, s: RustBrawlState) -> list[int]:
        ph, p = s.phase, s.player
        if ph == PLAY:
            return [A_PASS] + [A_PLAY + i for i in self._play_slots(s, p)]
        if ph == RANGED_TARGET:
            return [A_RANGED + t for t in self.ranged_targets(s, p)]
        if ph == HEAL_TARGET:
            return [A_HEAL + t for t in self.heal_targets(s, p, s.acting)]
        if ph == DISCARD:
            return [self.a_discard + i for i in self._distinct_slots(s.hands[p])]
        if ph == PLAY_OR_DISCARD:
            return ([A_PLAY + i for i in self._play_slots(s, p)]
                    + [self.a_discard + i for i in self._distinct_slots(s.hands[p])])
        if ph == EQUIP_TARGET:
            return [A_EQUIP + t for t in self.equip_targets(s, p)]
        return []

    @staticmethod
    def _distinct_slots(hand: list[int]) -> list[int]:
        """The first hand slot of each distinct card (copies are interchangeable)."""
        return [i for i, c in enumerate(hand) if i == 0 or hand[i - 1] != c]

    def _play_slots(self, s: RustBrawlState, p: int) -> list[int]:
        hand = s.hands[p]
        out = []
        prev = -1
        free = s.table[p][POSITIONS - 1] < 0
        can_equip = None
        kind = self.kind
        for i, c in enumerate(hand):
            if c == prev:
                continue
            prev = c
            k = kind[c]
            if k == EXPLOSIVE:
                out.append(i)
            elif k == EQUIPMENT:
                if can_equip is None:
                    can_equip = bool(self.equip_targets(s, p))
                if can_equip:
                    out.append(i)
            elif free:
                out.append(i)
        return out

    # -- contract: transitions --------------------------------------------------------------------
    def _apply_action(self, s: RustBrawlState, action: int) -> None:
        """One legal decision of the seat to act, then the turn runs on to the next decision
        (the core has checked the action)."""
        ph, p = s.phase, s.player
        if ph == RANGED_TARGET:
            self._attack(s, p, s.acting, [action - A_RANGED])
            s.acting += 1
            self._continue(s, _ACT)
        elif ph == HEAL_TARGET:
            self._heal(s, p, s.acting, [action - A_HEAL])
            s.acting += 1
            self._continue(s, _ACT)
        elif ph == EQUIP_TARGET:
            c = s.pending
            s.pending = -1
            self._attach(s, p, action - A_EQUIP, c)
            self._on_play(s, p, c)
            self._continue(s, _DISCARD)
        elif ph == DISCARD:
            self._discard(s, p, action - self.a_discard)
            self._continue(s, _END)
        else:  # PLAY, PLAY_OR_DISCARD (RB-4.3)
            if action >= self.a_discard:
                self._discard(s, p, action - self.a_discard)
            elif action != A_PASS:
                if self._play(s, p, action - A_PLAY):
                    return  # the equipment's character is chosen next
            self._continue(s, _DISCARD)

    def _continue(self, s: RustBrawlState, stage: int) -> None:
        """Run the turn from ``stage`` on until a decision with two or more choices or the end
        of the game (the next player's turns included)."""
        while True:
            p = s.player
            if stage == _ACT:
                if self._action_step(s, p):
                    return
                stage = _PLAY
            if stage == _PLAY:
                if self._play_step(s, p):
                    return
                stage = _DISCARD
            if stage == _DISCARD:
                if self._discard_step(s, p):
                    return
            self._end_turn(s, p)
            if s.phase == END:
                return
            self._start_turn(s, 1 - p)
            if s.phase == END:
                return
            stage = _ACT

    def _start_turn(self, s: RustBrawlState, p: int) -> None:
        """RB-4.1: the turn begins; draw 1 card (``empty_deck``: nothing happens, or the player
        who cannot draw loses)."""
        s.player = p
        s.turn += 1
        s.changed = False
        s.acting = 0
        if not s.decks[p] and self.config.empty_deck == "lose":
            self._finish(s, 1 - p, "empty_deck")
            return
        self._draw(s, p, 1)

    def _draw(self, s: RustBrawlState, p: int, n: int) -> None:
        """Draw ``n`` cards (fewer from a short deck); a card beyond ``max_hand`` goes straight
        to the graveyard (RB-4.4)."""
        deck, hand = s.decks[p], s.hands[p]
        limit = self.config.max_hand
        for _ in range(n):
            if not deck:
                return
            c = deck.pop()
            if len(hand) >= limit:
                s.graveyards[p].append(c)
            else:
                insort(hand, c)

    # -- RB-4.2 the action step --------------------------------------------------------------------
    def _action_step(self, s: RustBrawlState, p: int) -> bool:
        """Every own table card acts in position order (RB-4.2) from ``s.acting``; True when a
        target decision is pending (phase set)."""
        row = s.table[p]
        while s.acting < POSITIONS:
            j = s.acting
            if row[j] < 0:
                break
            if self._act(s, p, j):
                return True
            s.acting = j + 1
        s.acting = POSITIONS
        return False

    def _act(self, s: RustBrawlState, p: int, j: int) -> bool:
        """The action of the card at ``(p, j)`` (RB-5): a destroyed, paralysed, vehicle or
        support card does nothing (RB-6.1, RB-6.4, RB-5.6); a character performs its action
        when it has a valid target, else goes into cover (RB-5.4). True when its target is
        a decision (phase set)."""
        c = s.table[p][j]
        if self.kind[c] != CHARACTER or s.hlt[p][j] <= 0 or s.paralysed_until[p][j]:
            return False
        eq = s.equipment[p][j]
        flags = self.profile_of(c, eq).flags if eq else self.profile0[c].flags
        ic = self.icon[c]
        if ic == MELEE and not flags & F_HIT_ALL:  # RB-5.1: the same position
            q = 1 - p
            if s.table[q][j] >= 0 and s.hlt[q][j] > 0:
                self._attack(s, p, j, [j])
            else:
                s.cover[p][j] = True
            return False
        if ic == HEAL:
            targets = self.heal_targets(s, p, j)
            if not targets:
                s.cover[p][j] = True
                return False
            if len(targets) == 1 or flags & F_HEAL_ALL:
                self._heal(s, p, j, targets)
                return False
            s.phase = HEAL_TARGET
            return True
        targets = self.attack_targets(s, p, j)
        if not targets:
            s.cover[p][j] = True
            return False
        if len(targets) > 1 and not flags & F_HIT_ALL:
            s.phase = RANGED_TARGET
            return True
        self._attack(s, p, j, targets)
        return False

    def _heal(self, s: RustBrawlState, p: int, j: int, targets: list[int]) -> None:
        """RB-5.3: heal each target up to the healer's DMG with boosts (RB-6.16), never above
        its maximum; the healer leaves cover (RB-5.4)."""
        amount = self.slot_dmg(s, p, j)
        s.cover[p][j] = False
        hlt, mx = s.hlt[p], s.max_hlt[p]
        for t in targets:
            gain = min(amount, mx[t] - hlt[t])
            if gain > 0:
                hlt[t] += gain
                s.changed = True

    def _attack(self, s: RustBrawlState, p: int, j: int, targets: list[int]) -> None:
        """The attack of the card at ``(p, j)`` on the opposing ``targets`` (RB-5.1, RB-5.2,
        RB-2.4), all at the same time (RB-6.11): every hit and every returned strike is
        computed from the table before the attack, then applied.

        The attacker leaves cover as the attack starts (RB-6.8; ``attacker_leaves_cover_first``).
        Each hit deals the attacker's DMG with boosts and extra DMG against the target's
        traits (RB-6.13), halved in cover, less the target's reductions (RB-6.1, RB-6.2); a
        removes-HLT attacker removes its printed amount instead (RB-6.3, RB-6.13: the amount
        stated with the ability, else its printed DMG). A paralysing attacker
        paralyses every target not immune (RB-6.4, RB-6.12). A character target with return
        strike that was not paralysed before the attack deals its DMG back (RB-6.7, RB-6.10:
        not an attack, no melee/ranged reductions) and leaves cover unless the attack
        paralysed it (RB-6.9)."""
        q = 1 - p
        c = s.table[p][j]
        eq = s.equipment[p][j]
        prof0, tmask = self.profile0, self.tmask
        prof = self.profile_of(c, eq) if eq else prof0[c]
        if self._first:
            s.cover[p][j] = False
        para = prof.flags & F_PARALYSE
        atype = self.icon[c]
        tm_c = tmask[c]
        base = self.slot_dmg(s, p, j)
        printed = self.printed_dmg[c]
        qrow, qpar, qeq, qcover = s.table[q], s.paralysed_until[q], s.equipment[q], s.cover[q]
        hits = []
        for t in targets:
            tc = qrow[t]
            tprof = self.profile_of(tc, qeq[t]) if qeq[t] else prof0[tc]
            d = hit(base, prof, printed, tm_c, atype, tprof, tmask[tc], qcover[t])
            paralysed = bool(para) and not tprof.flags & F_IMMUNE
            ret = -1
            if tprof.flags & F_RETURN and self.kind[tc] == CHARACTER and not qpar[t]:
                sdmg = self.slot_dmg(s, q, t) + extra_dmg(tprof, tm_c)  # RB-6.7: not an attack
                ret = dealt(sdmg, s.cover[p][j], prof, tmask[tc], NOT_AN_ATTACK)
            hits.append((t, d, paralysed, ret))
        if not self._first:
            s.cover[p][j] = False
        turn_q = self.turns_of(s, q) + self.config.paralysis_turns
        qhlt = s.hlt[q]
        for t, d, paralysed, ret in hits:
            if d:
                qhlt[t] -= d
                s.changed = True
            if paralysed and qpar[t] < turn_q:
                qpar[t] = turn_q
            if ret >= 0:
                if ret:
                    s.hlt[p][j] -= ret
                    s.changed = True
                if not paralysed:
                    qcover[t] = False

    # -- RB-4.3 the play step --------------------------------------------------------------------
    def _play_step(self, s: RustBrawlState, p: int) -> bool:
        """True when the play decision is pending (phase set). Nothing to decide: no hand;
        a non-empty table and nothing playable (a pass); an empty table and one possible
        move (it is made)."""
        hand = s.hands[p]
        if not hand:
            return False
        if s.table[p][0] >= 0:
            if not self._play_slots(s, p):
                return False
            s.phase = PLAY
            return True
        s.phase = PLAY_OR_DISCARD  # RB-4.3, RB-4.6: no card on the table
        legal = self._legal_actions(s)
        if len(legal) > 1:
            return True
        # one move: every hand card may be discarded (RB-4.6), so a playable card would make two;
        # the one move is the discard of a hand of one distinct card that cannot be played
        self._discard(s, p, legal[0] - self.a_discard)
        return False

    def _play(self, s: RustBrawlState, p: int, i: int) -> bool:
        """Play hand slot ``i`` (RB-4.3). True when an equipment's character is to be chosen
        (phase set)."""
        c = s.hands[p].pop(i)
        s.changed = True
        k = self.kind[c]
        if k == EQUIPMENT:
            targets = self.equip_targets(s, p)
            if len(targets) > 1:
                s.pending = c
                s.phase = EQUIP_TARGET
                return True
            self._attach(s, p, targets[0], c)
        elif k == EXPLOSIVE:
            self._explode(s, p, c)
            s.graveyards[p].append(c)
        else:
            self._place(s, p, c)
        self._on_play(s, p, c)
        return False

    def _place(self, s: RustBrawlState, p: int, c: int) -> None:
        """A character, vehicle or support goes in cover to the lowest free position (RB-4.3,
        RB-6.2); HLT boosts are granted (RB-6.14)."""
        j = s.table[p].index(-1)
        s.table[p][j] = c
        s.hlt[p][j] = s.max_hlt[p][j] = self.printed_hlt[c]
        s.cover[p][j] = True
        s.serial[p][j] = s.next_serial
        s.next_serial += 1
        self._grant_hlt(s, p)

    def _attach(self, s: RustBrawlState, p: int, j: int, e: int) -> None:
        """Equipment ``e`` goes to the character at ``(p, j)`` (RB-5.7): its HLT is gained once
        (current and maximum), its abilities are granted (a granted paralysis immunity ends a
        running paralysis, RB-6.18 ``immunity_ends_paralysis``); HLT boosts are granted
        (RB-6.14)."""
        s.equipment[p][j].append(e)
        gain = self.printed_hlt[e]
        s.hlt[p][j] += gain
        s.max_hlt[p][j] += gain
        if (s.paralysed_until[p][j] and self.config.immunity_ends_paralysis
                and self.slot_profile(s, p, j).flags & F_IMMUNE):
            s.paralysed_until[p][j] = 0  # RB-6.18: the gained immunity ends the paralysis
        self._grant_hlt(s, p)

    def _grant_hlt(self, s: RustBrawlState, p: int) -> None:
        """RB-6.14: every living booster of seat ``p`` grants each other living friendly card
        matching its filter its HLT boost once per (booster, card) pair."""
        row, hlt = s.table[p], s.hlt[p]
        live = [j for j in range(POSITIONS) if row[j] >= 0 and hlt[j] > 0]
        for b in live:
            boosts = self.slot_profile(s, p, b).boost_hlt
            if not boosts:
                continue
            serial = s.serial[p][b]
            for boost in boosts:
                source, k, amount = boost.source, boost.ability, boost.amount
                for t in live:
                    if t == b or not self._boost_matches(row[t], boost.tmask, boost.icon):
                        continue
                    grants = s.granted[p][t]
                    if any(g.booster == serial and g.source == source and g.ability == k
                           for g in grants):
                        continue
                    insort(grants, HltBoost(serial, source, k, amount),
                           key=lambda g: (g.booster, g.source, g.ability))
                    hlt[t] += amount
                    s.max_hlt[p][t] += amount
                    s.changed = True

    def _explode(self, s: RustBrawlState, p: int, x: int) -> None:
        """RB-5.5, RB-6.17: explosive ``x`` deals its DMG, raised by the unfiltered and
        trait-matching DMG boosts of the living own table cards and by its extra DMG against
        a target's trait, to every living opposing table card (cover, flat and trait reductions
        apply; it is not an attack)."""
        q = 1 - p
        row, hlt = s.table[p], s.hlt[p]
        boost = 0
        tmx = self.tmask[x]
        for b in range(POSITIONS):
            if row[b] < 0:
                break
            if hlt[b] <= 0:
                continue
            for bd in self.slot_profile(s, p, b).boost_dmg:
                if bd.icon < 0 and (not bd.tmask or tmx & bd.tmask):
                    boost += bd.amount
        base = self.printed_dmg[x] + boost
        prof = self.profile0[x]
        qrow = s.table[q]
        hits = [(t, self._deal(s, base + extra_dmg(prof, self.tmask[qrow[t]]), q, t, tmx,
                               NOT_AN_ATTACK))
                for t in self.living(s, q)]
        for t, d in hits:
            if d:
                s.hlt[q][t] -= d
                s.changed = True

    def _on_play(self, s: RustBrawlState, p: int, c: int) -> None:
        """The played card's on-play abilities in card order: lottery (RB-6.6) and draw
        (RB-8)."""
        for ab in self.on_play[c]:
            if ab.kind == "draw":
                self._draw(s, p, ab.amount)
            elif self.lottery(s, p):
                if ab.reward == "draw":
                    self._draw(s, p, ab.amount)
                else:  # deal amount DMG to every opposing table card (not an attack)
                    q = 1 - p
                    tmc = self.tmask[c]
                    hits = [(t, self._deal(s, ab.amount, q, t, tmc, NOT_AN_ATTACK))
                            for t in self.living(s, q)]
                    for t, d in hits:
                        if d:
                            s.hlt[q][t] -= d
                            s.changed = True

    def lottery(self, s: RustBrawlState, caller: int) -> bool:
        """RB-6.6: each player reveals the top card of their deck; the higher point value
        wins, a tie goes to ``caller``, an empty deck counts 0; both decks are then shuffled
        (the revealed cards stay in them). Returns whether ``caller`` won."""
        top = [d[-1] if d else -1 for d in s.decks]
        value = [self.points[c] if c >= 0 else 0 for c in top]
        s.rng.shuffle(s.decks[0])
        s.rng.shuffle(s.decks[1])
        return value[caller] >= value[1 - caller]

    # -- RB-4.4 discard --------------------------------------------------------------------------
    def _discard_step(self, s: RustBrawlState, p: int) -> bool:
        """RB-4.4: with more than 4 cards in hand, discard 1 (a decision unless all copies of
        one card)."""
        hand = s.hands[p]
        if len(hand) <= HAND_KEEP:
            return False
        if hand[0] == hand[-1]:
            self._discard(s, p, 0)
            return False
        s.phase = DISCARD
        return True

    def _discard(self, s: RustBrawlState, p: int, i: int) -> None:
        c = s.hands[p].pop(i)
        s.graveyards[p].append(c)

    # -- RB-4.5 end of turn, RB-7 victory --------------------------------------------------------
    def _end_turn(self, s: RustBrawlState, p: int) -> None:
        """RB-4.5: destroyed cards go to their owners' graveyards with their equipment, the
        others shift down keeping their order; the player's expired paralyses end (RB-6.4);
        then the victory checks (RB-7.4) and the turn cap."""
        isc = self.is_character
        has = [False, False]
        for x in range(NUM_SEATS):
            row, hlt = s.table[x], s.hlt[x]
            destroyed = False
            for j in range(POSITIONS):
                c = row[j]
                if c < 0:
                    break
                if hlt[j] <= 0:
                    destroyed = True
                elif isc[c]:
                    has[x] = True
            if destroyed:
                self._remove_destroyed(s, x)
                s.changed = True
        tp = self.turns_of(s, p)
        par = s.paralysed_until[p]
        for j in range(POSITIONS):
            if par[j] and par[j] <= tp:
                par[j] = 0
        s.acting = POSITIONS
        # RB-7.4 (a), (b) (has: a living character on the table, after the removal)
        if has[0] != has[1]:
            y = 0 if has[1] else 1
            if not self._can_play_character(s, y):
                self._finish(s, 1 - y, "last_character")
                return
        elif not has[0] and not self._can_play_character(s, 0) \
                and not self._can_play_character(s, 1):
            self._finish(s, -1, "no_characters")
            return
        # RB-7.4 (c), RB-7.5; stalemate_repeats: the table repeats the one at the end of this
        # player's previous turn; stalemate_cycles (RB-7.6): the one at the end of any earlier
        # turn of this player since a card was last played, discarded or destroyed (a
        # heal-vs-damage cycle of any period, RB-7.2)
        empty = not s.decks[0] and not s.decks[1]
        quiet = empty and not s.changed
        cfg = self.config
        if empty and (cfg.stalemate_repeats or cfg.stalemate_cycles):
            mark = table_mark(s, [self.turns_of(s, 0), self.turns_of(s, 1)])
            marks = s.table_marks
            kept = marks[0] or marks[1]
            if kept and mark_counts(kept[0]) != mark_counts(mark):
                marks[0].clear()  # a card was played, discarded or destroyed since
                marks[1].clear()
                kept = []
            if not kept:
                s.marks_from = s.turn
            own = marks[p]
            if cfg.stalemate_cycles:
                quiet = quiet or mark in own
                own.append(mark)
            else:
                quiet = quiet or (bool(own) and own[-1] == mark)
                own[:] = [mark]
        if quiet:
            s.quiet_turns += 1
        else:
            s.quiet_turns = 0
        if s.quiet_turns >= 2 * self.config.stalemate_turns:
            a, b = self.table_points(s, 0), self.table_points(s, 1)
            self._finish(s, 0 if a > b else (1 if b > a else -1), "stalemate")
            return
        if s.turn >= self.config.max_turns:
            self._finish(s, -1, "turn_cap")

    def _can_play_character(self, s: RustBrawlState, p: int) -> bool:
        isc = self.is_character
        return any(isc[c] for c in s.hands[p]) or any(isc[c] for c in s.decks[p])

    def _remove_destroyed(self, s: RustBrawlState, x: int) -> None:
        """RB-4.5: seat ``x``'s destroyed cards (and their equipment) to its graveyard, the
        others down to the lowest positions in their order."""
        keep = []
        grave = s.graveyards[x]
        row, hlt, eqs = s.table[x], s.hlt[x], s.equipment[x]
        for j in range(POSITIONS):
            c = row[j]
            if c < 0:
                break
            if hlt[j] > 0:
                keep.append(j)
            else:
                grave.append(c)
                grave.extend(eqs[j])
        pad = POSITIONS - len(keep)
        s.table[x] = [row[j] for j in keep] + [-1] * pad
        s.hlt[x] = [hlt[j] for j in keep] + [0] * pad
        mx, cv, par, ser, gr = (s.max_hlt[x], s.cover[x], s.paralysed_until[x], s.serial[x],
                                s.granted[x])
        s.max_hlt[x] = [mx[j] for j in keep] + [0] * pad
        s.cover[x] = [cv[j] for j in keep] + [False] * pad
        s.paralysed_until[x] = [par[j] for j in keep] + [0] * pad
        s.serial[x] = [ser[j] for j in keep] + [0] * pad
        s.equipment[x] = [eqs[j] for j in keep] + [[] for _ in range(pad)]
        s.granted[x] = [gr[j] for j in keep] + [[] for _ in range(pad)]

    def _finish(self, s: RustBrawlState, winner: int, reason: str) -> None:
        s.phase = END
        s.player = -1
        s.winner = winner
        s.end_reason = reason
        s.pending = -1
        s.acting = POSITIONS

    # -- the card-balance report (card_envs.evaluation.balance, docs/balance.md) ----------------
    def balance_deal(self, seed: int) -> list[list[str]]:
        """Two random legal decks (RB-1.1, RB-1.2: ``decks.random_deck`` at
        ``deck_point_limit``), seat 0's then seat 1's from one ``random.Random(seed)``; each a
        sorted list of card ids, one per copy."""
        rng = random.Random(seed)
        limit = self.config.deck_point_limit
        return [list(random_deck(self.db, rng, limit).cards) for _seat in range(NUM_SEATS)]

    def balance_config(self, sets: list) -> dict[str, Any]:
        """``{"decks": sets}``: seat ``i`` plays the deck ``sets[i]`` (RB-3.4)."""
        return {"decks": [list(deck) for deck in sets]}

    def cards_in_set(self, card_set) -> tuple[str, ...]:
        """A deck's card ids (one per copy)."""
        return tuple(card_set)

    def card_played(self, state: RustBrawlState, action: int) -> str | None:
        """The id of the hand card a ``play`` action plays, attaches or explodes (RB-4.3);
        ``None`` for every other action."""
        if state.phase in (PLAY, PLAY_OR_DISCARD) and A_PLAY <= action < self.a_discard:
            return self.db.cards[state.hands[state.player][action - A_PLAY]].id
        return None

    def starting_player(self, state: RustBrawlState) -> int:
        """The starting player chosen by lot (RB-3.2)."""
        return state.starter

    def balance_card_names(self) -> dict[str, str]:
        """Every card of the database: id -> printed name."""
        return {c.id: c.name for c in self.db.cards}

    # -- optional hooks --------------------------------------------------------------------------
    def potential(self, state: RustBrawlState, player: int) -> float:
        """``player``'s standing in [-1, 1] from public facts: the own living table point sum
        (RB-7.2) minus the opponent's, over 100, clipped."""
        return lead([self.table_points(state, 0), self.table_points(state, 1)], player, 100.0)

    def lookahead_horizon(self, state: RustBrawlState) -> int | None:
        """The turn number (a lookahead plays to the end of the current turn); ``None`` at the
        end."""
        return None if state.phase == END else state.turn

    # -- state invariants ------------------------------------------------------------------------

    # -- hidden information ----------------------------------------------------------------------
    def _resample_hidden(self, s: RustBrawlState, player: int, rng: random.Random) -> None:
        """A state consistent with ``player``'s information (RB-3.3): the opponent's hand and
        deck are redealt (sizes kept) from its unseen cards: with open decklists its decklist
        minus every card shown (table, equipment, graveyard, an equipment being attached);
        with ``open_decklists=False`` cards drawn from the card pool (at most 2 copies, a
        unique card once, within the point limit with the cards shown), which also replaces
        its decklist (named ``"unknown"``; the lottery's revealed cards are not remembered:
        the observation gives only counts, RB-3.3). ``player``'s own
        deck order is reshuffled; the core then reseeds the chance RNG."""
        q = 1 - player
        hand_n, deck_n = len(s.hands[q]), len(s.decks[q])
        if self.config.open_decklists:
            unseen = sorted(s.hands[q] + s.decks[q])
        else:
            shown = [c for c in s.table[q] if c >= 0] + s.graveyards[q]
            for eq in s.equipment[q]:
                shown += eq
            if s.phase == EQUIP_TARGET and s.player == q:
                shown.append(s.pending)
            unseen = sorted(self._pool_cards(shown, hand_n + deck_n, rng))
            s.decklists[q] = sorted(shown + unseen)
            s.deck_names[q] = UNKNOWN_DECK
        rng.shuffle(unseen)
        s.hands[q] = sorted(unseen[:hand_n])
        s.decks[q] = unseen[hand_n:]
        own = sorted(s.decks[player])
        rng.shuffle(own)
        s.decks[player] = own

    def _pool_cards(self, fixed: list[int], k: int, rng: random.Random) -> list[int]:
        """``k`` cards drawn from the card pool to complete a deck holding ``fixed``: copies
        within RB-1.1, the points within the limit when it can be kept (the cheapest
        remaining copies are reserved for the cards still to draw)."""
        count = Counter(fixed)
        budget = self.config.deck_point_limit - sum(self.points[c] for c in fixed)
        avail = []
        for card in self.db.cards:
            avail += [card.index] * max(0, copies_allowed(card) - count[card.index])
        out = []
        pts = self.points
        for left in range(k, 0, -1):
            costs = sorted(pts[c] for c in avail)
            r_less, r_all = sum(costs[:left - 1]), sum(costs[:left])
            edge = costs[left - 2] if left >= 2 else -1
            fits = [i for i, c in enumerate(avail)
                    if pts[c] + r_less <= budget or (pts[c] <= edge and r_all <= budget)]
            if not fits:  # cannot happen for a legal deck; keep drawing within the copies
                fits = list(range(len(avail)))
            i = fits[rng.randrange(len(fits))]
            c = avail.pop(i)
            out.append(c)
            budget -= pts[c]
        return out


def make_game(**config: Any) -> RustBrawlGame:
    """Build a Rust Brawl game from config keywords (see :class:`RustBrawlConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (named).
        CardDataError: a malformed card database (file and entry/field named).
        DeckError: a deck that breaks RB-1 or names an unknown card (card and rule named).
    """
    return RustBrawlGame(config_from_kwargs(RustBrawlConfig, config))
