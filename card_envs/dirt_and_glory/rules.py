"""Dirt and Glory rules engine (2–5 players): the ``Game`` (DG-2 … DG-4).

Rules as implemented: ``docs/rules/dirt_and_glory.md`` (rule ids ``DG-…``). The engine is pure
Python (ints and lists); numpy is used only by the observation encoder (:mod:`.observation`).

The config is :mod:`.config`, the state declaration and its invariant check :mod:`.state` (card
ids: see there), the card data :mod:`.cards`, the phases and the one action layout
:mod:`.constants`. Every card has a *kind* (values + ability, see
:class:`~card_envs.dirt_and_glory.cards.Kind`); actions that choose a card (play from reserve,
stash, mix, take, draft, place) name a kind, since cards of one kind are interchangeable.
"""

from __future__ import annotations

import random
from typing import Any

from card_envs.core.config import config_from_kwargs
from card_envs.core.errors import CardDataError, ConfigError
from card_envs.core.game import GameBase, lead
from card_envs.core.rng import make_rng
from card_envs.dirt_and_glory.cards import Content, kind_of, load_content
from card_envs.dirt_and_glory.config import DirtAndGloryConfig
from card_envs.dirt_and_glory.constants import (
    A_ABILITY_SKIP,
    A_ABILITY_USE,
    A_END_TURN,
    A_FUEL_RESERVE,
    A_MIX_DONE,
    A_PASS,
    A_PLAY_TOP,
    A_VALUE_HIGH,
    A_VALUE_LOW,
    AB_FUEL,
    AB_NONE,
    AB_SCOUT,
    AB_STASH,
    AB_ZERO,
    ABILITY,
    AFTER,
    DRAFT,
    DRAFT_DRAW,
    END,
    MAIN,
    MIX,
    SETUP,
    SETUP_DRAW,
    TAKE,
    VALUE,
    action_layout,
)
from card_envs.dirt_and_glory.state import MAX_TOKENS, DirtAndGloryState

__all__ = ["DirtAndGloryConfig", "DirtAndGloryGame", "DirtAndGloryState", "make_game"]


class DirtAndGloryGame(GameBase[DirtAndGloryState]):
    """The Dirt and Glory ``Game`` (contract: :mod:`card_envs.core.game`).

    Raises (construction): ConfigError for a wrong config value (named field), also for a
    ``num_rounds`` above the content's territory count; CardDataError for malformed content or
    content that cannot host the configured game.
    """

    name = "dirt_and_glory"
    version = 1
    # -- declared facts (card_envs.core.game.GameFacts) --
    # DG-4.2 reward="win" (reward="score": set in __init__)
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"
    zero_sum = True
    chance = True  # shuffled decks (DG-2)
    provides_potential = provides_lookahead_horizon = True

    def __init__(self, config: DirtAndGloryConfig):
        self.config = config
        c: Content = load_content(config.content)
        self.content = c
        n = self.num_players = config.num_players
        if config.reward == "score":  # DG-4.2: a score difference, scores 0..MAX_TOKENS
            self.min_utility, self.max_utility, self.utility = -MAX_TOKENS, MAX_TOKENS, "score"
        if len(c.territories) < config.num_rounds:  # the config asks more than the content has
            raise ConfigError(
                f"config field 'num_rounds': {config.num_rounds} rounds need {config.num_rounds} "
                f"territories, the content {c.path} has {len(c.territories)} ([[territory]] "
                f"entries); use num_rounds <= {len(c.territories)} or content with more territories"
            )
        if c.deck_size < DRAFT_DRAW * n:
            raise CardDataError(
                f"{c.path}: [[unit]] deck has {c.deck_size} cards, the draft of {n} players "
                f"needs at least {DRAFT_DRAW * n}"
            )
        self.kinds = c.kinds
        K = self.num_kinds = len(c.kinds)
        kind_index = {k: i for i, k in enumerate(c.kinds)}
        card_kind: list[int] = []
        for entry in c.units:
            card_kind += [kind_index[kind_of(entry)]] * entry.count
        self.deck_size = len(card_kind)
        start_kinds: list[int] = []
        for entry in c.starting:
            start_kinds += [kind_index[kind_of(entry)]] * entry.count
        self.start_size = len(start_kinds)
        for _ in range(n):
            card_kind += start_kinds
        self.card_kind = card_kind
        self.num_cards = len(card_kind)
        self.k_low = [k.low for k in c.kinds]
        self.k_high = [k.high for k in c.kinds]
        self.k_ab = [k.ability for k in c.kinds]
        self.card_low = [self.k_low[k] for k in card_kind]
        self.card_high = [self.k_high[k] for k in card_kind]
        self.card_ab = [self.k_ab[k] for k in card_kind]
        self.terr_target = [t.target for t in c.territories]
        self.terr_points = [list(t.points) for t in c.territories]
        self.terr_fuel = [list(t.fuel) for t in c.territories]
        # max cards one player can own: starting + 2 drafted + one offer card per round
        self.max_owned = self.start_size + (DRAFT_DRAW - 1) + config.num_rounds
        # bounds check_state reads: the most points / fuel one round pays a seat, and whether
        # every card fits every target (then a placed first card never exceeds it)
        self.max_territory_points = max(max(pts) for pts in self.terr_points)
        self.max_reward_fuel = max(config.consolation_fuel, *(max(f) for f in self.terr_fuel))
        self.totals_fit = max(self.card_high) <= min(self.terr_target)
        #: the one action layout (:func:`~card_envs.dirt_and_glory.constants.action_layout`);
        #: the fixed action ids are constants, the kind ranges start at these ids
        layout = self.action_layout = action_layout(K)
        self.a_play_reserve = layout.start("play_reserve")
        self.a_stash = layout.start("stash")
        self.a_mix = layout.start("mix")
        self.a_take = layout.start("take")
        self.a_draft_return = layout.start("draft_return")
        self.a_place = layout.start("place")
        self.max_game_length = 50 + n * config.num_rounds * (
            self.max_owned * 6 + 4 * config.fuel_uses_per_turn + 40)

    # -- set-up (DG-2) ---------------------------------------------------------------------------
    def new_state(self, seed: int) -> DirtAndGloryState:
        cfg, n = self.config, self.num_players
        rng = make_rng(seed)
        unit_deck = list(range(self.deck_size))
        rng.shuffle(unit_deck)
        nt = len(self.terr_target)
        if cfg.territory_selection == "random":  # DG-2.3
            territories = rng.sample(range(nt), cfg.num_rounds)
        else:
            territories = list(range(cfg.num_rounds))
        D, S = self.deck_size, self.start_size
        s = DirtAndGloryState(
            rng=rng, phase=DRAFT, player=0, round=0, first=0, prep_pos=0,
            unit_deck=unit_deck, offer=[], discarded=[], territories=territories,
            decks=[list(range(D + p * S, D + (p + 1) * S)) for p in range(n)],
            reserves=[[] for _ in range(n)], caravans=[[] for _ in range(n)],
            values=[[] for _ in range(n)], fuel=[cfg.starting_fuel] * n, scores=[0] * n,
            passed=[False] * n, busted=[False] * n, zero_next=[False] * n, peek=[False] * n,
            hand=[], pending=-1, from_reserve=False, fuel_used=0, ctx="setup",
            last_result=[[0, 0, 0] for _ in range(n)], winners=[],
        )
        s.hand = self._draw_unit(s, DRAFT_DRAW)  # DG-2.1: seat 0 drafts first, then 1, ...
        return s

    def _draw_unit(self, s: DirtAndGloryState, k: int) -> list[int]:
        deck = s.unit_deck
        out = []
        for _ in range(min(k, len(deck))):
            out.append(deck.pop())
        return out

    # -- contract: queries -----------------------------------------------------------------------
    def is_truncated(self, state: DirtAndGloryState) -> bool:
        return False

    def target(self, state: DirtAndGloryState) -> int:
        """Target of the current territory (DG-1.2)."""
        return self.terr_target[state.territories[min(state.round, len(state.territories) - 1)]]

    def total(self, state: DirtAndGloryState, p: int) -> int:
        """Caravan total of seat ``p`` (counted values, DG-3.2)."""
        return sum(state.values[p])

    def _kinds_in(self, cards: list[int]) -> list[int]:
        ck = self.card_kind
        return sorted({ck[c] for c in cards})

    def _legal_actions(self, s: DirtAndGloryState) -> list[int]:
        ph, p, cfg = s.phase, s.player, self.config
        if ph == MAIN:
            out = []
            if s.decks[p]:
                out.append(A_PLAY_TOP)
            out.append(A_PASS)
            if (s.reserves[p] and s.fuel[p] >= cfg.fuel_cost
                    and s.fuel_used < cfg.fuel_uses_per_turn
                    and not (cfg.empty_deck == "forced_pass" and not s.decks[p])):
                b = self.a_play_reserve
                out += [b + k for k in self._kinds_in(s.reserves[p])]
            return out
        if ph == VALUE:
            return [A_VALUE_LOW, A_VALUE_HIGH]
        if ph == ABILITY:
            if self.card_ab[s.pending] == AB_STASH:
                b = self.a_stash
                return [A_ABILITY_SKIP] + [b + k for k in self._kinds_in(s.caravans[p][:-1])]
            return [A_ABILITY_USE, A_ABILITY_SKIP]
        if ph == AFTER:
            bust = sum(s.values[p]) > self.target(s)
            return [A_PASS if bust else A_END_TURN, A_FUEL_RESERVE]
        if ph == TAKE:
            b = self.a_take
            return [b + k for k in self._kinds_in(s.offer)]
        if ph == MIX:
            b = self.a_mix
            return [A_MIX_DONE] + [b + k for k in self._kinds_in(s.reserves[p])]
        if ph == SETUP:
            b = self.a_place
            return [b + k for k in self._kinds_in(s.hand)]
        if ph == DRAFT:
            b = self.a_draft_return
            return [b + k for k in self._kinds_in(s.hand)]
        return []

    # -- contract: transitions -------------------------------------------------------------------
    def _apply_action(self, state: DirtAndGloryState, action: int) -> None:
        """The transition of one legal ``action`` of the seat to act (the core has checked it)."""
        ph, p = state.phase, state.player
        if ph == MAIN:
            if action == A_PLAY_TOP:  # DG-3.2 play
                c = state.decks[p].pop()
                state.peek[p] = False
                state.from_reserve = False
                self._play(state, p, c)
            elif action == A_PASS:  # DG-3.2 pass
                self._pass(state, p, False)
            else:  # DG-3.3 play from the reserve with fuel
                c = self._remove_kind(state.reserves[p], action - self.a_play_reserve)
                state.fuel[p] -= self.config.fuel_cost
                state.fuel_used += 1
                state.from_reserve = True
                self._play(state, p, c)
        elif ph == ABILITY:  # DG-3.2 / DG-1.5: resolved before a two-value card's value
            if action != A_ABILITY_SKIP:
                self._resolve_ability(state, p, action)
            self._after_ability(state, p)
        elif ph == VALUE:  # DG-3.2: the value is chosen after the ability
            c = state.caravans[p][-1]
            state.values[p][-1] = self.card_low[c] if action == A_VALUE_LOW else self.card_high[c]
            self._after_value(state, p)
        elif ph == AFTER:
            if action == A_FUEL_RESERVE:  # DG-3.3 move the card just played to the reserve
                state.caravans[p].pop()
                state.values[p].pop()
                state.reserves[p].append(state.pending)
                state.fuel[p] -= self.config.fuel_cost
                state.fuel_used += 1
                if sum(state.values[p]) > self.target(state):
                    self._pass(state, p, True)
                else:
                    self._end_turn(state, p)
            elif action == A_PASS:  # forced pass after exceeding the target
                self._pass(state, p, True)
            else:
                self._end_turn(state, p)
        elif ph == TAKE:  # DG-3.2 pass: offer card to the bottom of the own deck
            c = self._remove_kind(state.offer, action - self.a_take)
            state.decks[p].insert(0, c)
            self._end_turn(state, p)
        elif ph == MIX:  # DG-3.6 card by card
            if action == A_MIX_DONE:
                self._begin_setup(state, p)
            else:
                c = self._remove_kind(state.reserves[p], action - self.a_mix)
                state.decks[p].append(c)
                if not state.reserves[p]:
                    self._begin_setup(state, p)
        elif ph == SETUP:  # DG-3.1 one card to the caravan, the other to the reserve
            c = self._remove_kind(state.hand, action - self.a_place)
            state.reserves[p] += state.hand
            state.hand = []
            self._place(state, p, c)
        elif ph == DRAFT:  # DG-2.1 keep 2 of 3
            c = self._remove_kind(state.hand, action - self.a_draft_return)
            if self.config.draft_return == "bottom":
                state.unit_deck.insert(0, c)
            else:
                state.discarded.append(c)
            state.decks[p] += state.hand
            state.hand = []
            if p + 1 < self.num_players:
                state.player = p + 1
                state.hand = self._draw_unit(state, DRAFT_DRAW)
            else:
                state.offer = self._draw_unit(state, self.num_players)  # DG-2.2
                self._start_round(state)

    def _remove_kind(self, cards: list[int], kind: int) -> int:
        ck = self.card_kind
        for i in range(len(cards) - 1, -1, -1):
            if ck[cards[i]] == kind:
                return cards.pop(i)
        raise AssertionError("kind not present")  # guarded by legal_actions

    # -- round flow ------------------------------------------------------------------------------
    def _start_round(self, s: DirtAndGloryState) -> None:
        n = self.num_players
        s.first = s.round % n if self.config.first_player == "rotate" else 0  # DG-3.2
        for p in range(n):
            s.passed[p] = False
            s.busted[p] = False
            s.zero_next[p] = False
        s.prep_pos = 0
        s.ctx = "setup"
        self._begin_prep(s)

    def _begin_prep(self, s: DirtAndGloryState) -> None:
        p = (s.first + s.prep_pos) % self.num_players
        s.player = p
        mode = self.config.reserve_mix
        if s.round > 0 and s.reserves[p]:
            if mode == "choose":
                s.phase = MIX
                return
            if mode == "all":
                s.decks[p] += s.reserves[p]
                s.reserves[p] = []
        self._begin_setup(s, p)

    def _begin_setup(self, s: DirtAndGloryState, p: int) -> None:
        """DG-3.1: shuffle the deck, draw 2; with fewer cards draw what is there."""
        deck = s.decks[p]
        s.rng.shuffle(deck)
        s.peek[p] = False
        s.hand = [deck.pop() for _ in range(min(SETUP_DRAW, len(deck)))]
        s.ctx = "setup"
        if len(s.hand) == 2:
            s.phase = SETUP
        elif len(s.hand) == 1:
            c = s.hand.pop()
            self._place(s, p, c)
        else:
            self._next_prep(s)

    def _place(self, s: DirtAndGloryState, p: int, c: int) -> None:
        """DG-3.1: ``c`` opens the caravan; its ability (``first_card_ability``) is resolved
        before its value is chosen, as for a played card (DG-3.2)."""
        s.caravans[p].append(c)
        s.values[p].append(self.card_low[c])  # the low value until the value is chosen
        s.pending = c
        if self.config.first_card_ability and self.ability_available(s, p):
            s.phase = ABILITY
            return
        self._after_ability(s, p)

    def _play(self, s: DirtAndGloryState, p: int, c: int) -> None:
        """DG-3.2: ``c`` joins the caravan; its ability may be resolved (DG-1.5), *then* a
        two-value card's value is chosen (the caravan total is announced)."""
        s.caravans[p].append(c)
        s.pending = c
        s.ctx = "play"
        if s.zero_next[p]:  # DG-1.5 zero_next: this card counts 0, no value choice
            s.zero_next[p] = False
            s.values[p].append(0)
        else:
            s.values[p].append(self.card_low[c])  # the low value until the value is chosen
        if self.ability_available(s, p):
            s.phase = ABILITY
        else:
            self._after_ability(s, p)

    def ability_available(self, s: DirtAndGloryState, p: int) -> bool:
        """Whether seat ``p`` may resolve the ability of the card just played or placed
        (``s.pending``) now (DG-1.5: a stash needs another caravan card, a scout a deck)."""
        ab = self.card_ab[s.pending]
        if ab == AB_NONE:
            return False
        if ab == AB_STASH:
            return len(s.caravans[p]) > 1
        if ab == AB_SCOUT:
            return bool(s.decks[p])
        return True

    def _after_ability(self, s: DirtAndGloryState, p: int) -> None:
        """After the ability (resolved, skipped or none): the value choice of a two-value card
        that does not count 0, else the value is settled."""
        c = s.pending
        if self.card_low[c] != self.card_high[c] and s.values[p][-1] != 0:
            mode = self.config.first_card_value if s.ctx == "setup" else "choose"
            if mode == "choose":
                s.phase = VALUE
                return
            if mode == "high":
                s.values[p][-1] = self.card_high[c]
        self._after_value(s, p)

    def _after_value(self, s: DirtAndGloryState, p: int) -> None:
        if s.ctx == "setup":
            self._next_prep(s)
        else:
            self._post_play(s, p)

    def _next_prep(self, s: DirtAndGloryState) -> None:
        s.pending = -1
        s.prep_pos += 1
        if s.prep_pos < self.num_players:
            self._begin_prep(s)
        else:
            s.ctx = "play"
            self._begin_turn(s, s.first)

    def _begin_turn(self, s: DirtAndGloryState, p: int) -> None:
        s.player = p
        s.phase = MAIN
        s.pending = -1
        s.fuel_used = 0
        s.from_reserve = False

    def _resolve_ability(self, s: DirtAndGloryState, p: int, action: int) -> None:
        ab = self.card_ab[s.pending]
        if ab == AB_FUEL:
            s.fuel[p] += 1
        elif ab == AB_SCOUT:
            s.peek[p] = True
        elif ab == AB_ZERO:
            s.zero_next[p] = True
        elif ab == AB_STASH:
            # the caravan card of that kind (not the stash card itself) counting the most
            kind = action - self.a_stash
            car, vals, ck = s.caravans[p], s.values[p], self.card_kind
            best = -1
            for i in range(len(car) - 1):
                if ck[car[i]] == kind and (best < 0 or vals[i] >= vals[best]):
                    best = i
            s.reserves[p].append(car.pop(best))
            vals.pop(best)

    def _post_play(self, s: DirtAndGloryState, p: int) -> None:
        cfg = self.config
        bust = sum(s.values[p]) > self.target(s)
        can_fuel = (s.fuel[p] >= cfg.fuel_cost and s.fuel_used < cfg.fuel_uses_per_turn
                    and (cfg.bust_fuel_rescue or not bust))
        if can_fuel:
            s.phase = AFTER
        elif bust:
            self._pass(s, p, True)
        else:
            self._end_turn(s, p)

    def _pass(self, s: DirtAndGloryState, p: int, busted: bool) -> None:
        s.passed[p] = True
        s.busted[p] = busted
        s.pending = -1
        if s.offer:
            s.phase = TAKE
        else:
            self._end_turn(s, p)

    def _end_turn(self, s: DirtAndGloryState, p: int) -> None:
        n = self.num_players
        for i in range(1, n + 1):
            q = (p + i) % n
            if not s.passed[q]:
                self._begin_turn(s, q)
                return
        self._end_round(s)

    def round_places(self, s: DirtAndGloryState) -> list[int]:
        """DG-3.5 place per seat (1-based) among players within the target; 0 = exceeded."""
        n, target = self.num_players, self.target(s)
        dist = [target - sum(s.values[p]) for p in range(n)]
        ok = [p for p in range(n) if not s.busted[p] and dist[p] >= 0]
        places = [0] * n
        distinct = sorted({dist[p] for p in ok})
        for p in ok:
            if self.config.ties == "share_skip":
                places[p] = 1 + sum(1 for q in ok if dist[q] < dist[p])
            else:
                places[p] = 1 + distinct.index(dist[p])
        return places

    def _end_round(self, s: DirtAndGloryState) -> None:
        cfg, n = self.config, self.num_players
        t = s.territories[s.round]
        pts, fls = self.terr_points[t], self.terr_fuel[t]
        places = self.round_places(s)
        for p in range(n):
            pl = places[p]
            if 1 <= pl <= 3:
                gp, gf = pts[pl - 1], fls[pl - 1]
            else:
                gp, gf = 0, cfg.consolation_fuel
            s.scores[p] += gp
            s.fuel[p] += gf
            s.last_result[p] = [pl, gp, gf]
        s.pending = -1
        s.fuel_used = 0  # the last turn is over
        s.from_reserve = False
        s.round += 1
        if s.round >= cfg.num_rounds:
            self._end_game(s)
            return
        # DG-3.6 preparation
        for p in range(n):
            if cfg.caravan_return == "deck":
                s.decks[p] += s.caravans[p]
            else:
                s.reserves[p] += s.caravans[p]
            s.caravans[p] = []
            s.values[p] = []
            s.peek[p] = False  # the deck changed: the scouted top card is no longer known
        s.unit_deck[0:0] = s.offer  # leftovers (only when the offer was short) to the bottom
        s.offer = self._draw_unit(s, n)
        self._start_round(s)

    def _end_game(self, s: DirtAndGloryState) -> None:
        cfg, n = self.config, self.num_players
        for p in range(n):  # DG-4.1
            s.scores[p] += s.fuel[p] // cfg.fuel_per_point
        best = max(s.scores)
        winners = [p for p in range(n) if s.scores[p] == best]
        if cfg.tie_break == "fuel" and len(winners) > 1:
            most = max(s.fuel[p] for p in winners)
            winners = [p for p in winners if s.fuel[p] == most]
        s.winners = winners
        s.phase = END
        s.player = -1
        s.hand = []

    def returns(self, state: DirtAndGloryState) -> list[float]:
        """DG-4.2 rewards (zeros before the end). ``win``: (W_i − 1/n)·n/(n−1);
        ``score``: own score minus the mean of the others' scores."""
        n = self.num_players
        if state.phase != END:
            return [0.0] * n
        if self.config.reward == "win":
            k = len(state.winners)
            return [((1.0 / k if p in state.winners else 0.0) - 1.0 / n) * n / (n - 1)
                    for p in range(n)]
        tot = sum(state.scores)
        return [state.scores[p] - (tot - state.scores[p]) / (n - 1) for p in range(n)]

    # -- optional hooks (card_envs.core.game): reward shaping and decision-time lookahead --------
    def potential(self, state: DirtAndGloryState, player: int) -> float:
        """``player``'s score lead, float in [-1, 1], from public facts only (scores and fuel,
        DG-5): each seat's standing is its score plus its fuel over ``fuel_per_point`` (what the
        tokens are worth at the end, DG-4.1, unrounded); own standing minus the mean of the other
        seats' (2–5 players), over ``num_rounds ×`` the largest 1st-place points of the content's
        territories (DG-1.2, DG-3.5: the most one seat can score from the territories), clipped
        to [-1, 1]. Used by potential-based reward shaping and as the leaf score of
        :class:`card_envs.bots.lookahead.LookaheadPolicy`."""
        fpp = self.config.fuel_per_point
        stand = [sc + f / fpp for sc, f in zip(state.scores, state.fuel)]
        return lead(stand, player, self.config.num_rounds * max(p[0] for p in self.terr_points))

    def lookahead_horizon(self, state: DirtAndGloryState) -> int | None:
        """The 0-based round (DG-3) during every decision of a round: the reserve mix and the
        caravan set-up of its preparation (DG-3.6, DG-3.1, with the first card's value) and the
        turns (``main``, ``value``, ``ability``, ``after``, ``take``; DG-3.2, DG-3.3): a
        lookahead plays to the round's scoring (DG-3.5). ``None`` during the draft (DG-2.1: its
        effect shows only in the rounds) and at the end. (A ``take`` choice is searched too,
        though its card goes to the bottom of the deck and cannot change the round's scores, so
        its rollouts tie and the base policy's choice stands: a ``None`` there would also stop
        every rollout that reaches a pass mid-round, since rollouts stop when the key changes.)"""
        if state.phase in (DRAFT, END):
            return None
        return state.round

    def card_label(self, c: int) -> str:
        """Card ``c``'s kind label (``"1/4+scout"``; state errors name cards by it)."""
        return self.kinds[self.card_kind[c]].label()

    # -- state invariants (the declaration's static ranges are checked by the core) -------------

    # -- hidden information ------------------------------------------------------------------------
    def _resample_hidden(self, s: DirtAndGloryState, player: int, rng: random.Random) -> None:
        """A state consistent with ``player``'s observation: the cards ``player`` cannot locate
        (other seats' reserves, decks and undecided hands, the other seats' discarded draft
        cards, and the unit deck) are shuffled together and dealt back into zones of the same
        sizes, each starting card staying with its owner (starting cards never change hands,
        DG-2.1); ``player``'s own deck order is reshuffled (its known top card, after a scout,
        stays on top); the core then reseeds the chance RNG. Approximation: it does not use memory of past
        public events (e.g. which offer card a seat took)."""
        n, D, S = self.num_players, self.deck_size, self.start_size
        others = [q for q in range(n) if q != player]
        zones: list[tuple[list[int], int | None]] = []  # (zone, owner seat; None = nobody)
        for q in others:
            zones += [(s.reserves[q], q), (s.decks[q], q)]
        zones.append((s.unit_deck, None))
        if s.hand and s.player != player and s.phase in (DRAFT, SETUP):
            zones.append((s.hand, s.player if s.phase == SETUP else None))
        disc = [c for i, c in enumerate(s.discarded) if i != player]
        zones.append((disc, None))
        pool = sorted(c for z, _ in zones for c in z)  # canonical order: the result depends
        # only on what ``player`` knows. A seat that has resolved a zero_next card this round
        # (zero_next pending or a card counting 0) without one in its (public) caravan holds
        # one in its reserve (DG-1.5): one such card is kept there.
        ab = self.card_ab
        pinned: dict[int, int] = {}
        for q in others:
            if ((s.zero_next[q] or 0 in s.values[q])
                    and not any(ab[c] == AB_ZERO for c in s.caravans[q])):
                cands = [c for c in pool if ab[c] == AB_ZERO and (c < D or (c - D) // S == q)]
                c = cands[rng.randrange(len(cands))]
                pool.remove(c)
                pinned[q] = c
        own_start: dict[int | None, list[int]] = {}
        units = []
        for c in pool:
            if c >= D:
                own_start.setdefault((c - D) // S, []).append(c)
            else:
                units.append(c)
        rng.shuffle(units)
        i = 0
        for owner in [*others, None]:
            mine = [z for z, o in zones if o == owner]
            cards = own_start.get(owner, []) if owner is not None else []
            pin = pinned.get(owner)  # type: ignore[arg-type]
            need = sum(len(z) for z in mine) - len(cards) - (pin is not None)
            cards = cards + units[i:i + need]
            i += need
            if owner is not None:
                rng.shuffle(cards)
            if pin is not None:  # into the reserve's slots (the reserve is dealt first)
                cards.insert(rng.randrange(len(s.reserves[owner])), pin)
            j = 0
            for z in mine:
                k = len(z)
                z[:] = cards[j:j + k]
                j += k
        if disc:
            it = iter(disc)
            s.discarded = [c if i == player else next(it) for i, c in enumerate(s.discarded)]
        own = s.decks[player]
        if s.peek[player] and own:
            top = own.pop()
            own.sort()
            rng.shuffle(own)
            own.append(top)
        else:
            own.sort()
            rng.shuffle(own)


def make_game(**config: Any) -> DirtAndGloryGame:
    """Build a Dirt and Glory game from config keywords (see :class:`DirtAndGloryConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (named).
        CardDataError: malformed content (file and entry/field named).
    """
    return DirtAndGloryGame(config_from_kwargs(DirtAndGloryConfig, config))
