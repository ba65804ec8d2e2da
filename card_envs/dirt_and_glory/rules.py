"""Dirt and Glory rules engine (2–5 players): config, state and the ``Game`` (DG-2 … DG-4).

Rules as implemented: ``docs/rules/dirt_and_glory.md`` (rule ids ``DG-…``). The engine is pure
Python (ints and lists); numpy is used only in :meth:`DirtAndGloryGame.observe`.

Cards are integer ids: unit-deck cards ``0 .. D-1`` (one id per copy), then player ``p``'s
starting cards ``D + p*S .. D + (p+1)*S - 1``. Every card has a *kind* (values + ability, see
:class:`~card_envs.dirt_and_glory.content.Kind`); actions that choose a card (play from reserve,
stash, mix, take, draft, place) name a kind, since cards of one kind are interchangeable.

Decks are lists with the top at the end (``pop()`` draws, ``insert(0, c)`` puts on the bottom).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from card_envs.core.config import check_bool, check_choice, check_int, config_from_kwargs
from card_envs.core.errors import CardDataError, ConfigError, StateError
from card_envs.core.game import GameBase, lead
from card_envs.core.rng import make_rng, reseed
from card_envs.core.state import GameState, check_cards, check_len, check_range, fail
from card_envs.dirt_and_glory.content import (
    AB_FUEL,
    AB_NONE,
    AB_SCOUT,
    AB_STASH,
    AB_ZERO,
    Content,
    kind_of,
    load_content,
)

# -- phases --------------------------------------------------------------------------------------
DRAFT, MIX, SETUP, VALUE, ABILITY, MAIN, AFTER, TAKE, END = range(9)
PHASE_NAMES = ("draft", "mix", "setup", "value", "ability", "main", "after", "take", "end")

# -- fixed action ids (kind ranges follow, see ``action_layout``) --------------------------------
A_PLAY_TOP, A_PASS, A_END_TURN, A_FUEL_RESERVE, A_VALUE_LOW, A_VALUE_HIGH = range(6)
A_ABILITY_USE, A_ABILITY_SKIP, A_MIX_DONE = 6, 7, 8
N_FIXED = 9
#: kind-indexed action ranges, in order after the fixed actions
KIND_RANGES = ("play_reserve", "stash", "mix", "take", "draft_return", "place")

DRAFT_DRAW = 3  # DG-2.1: draw 3, keep 2
SETUP_DRAW = 2  # DG-3.1


@dataclass(frozen=True)
class DirtAndGloryConfig:
    """Configuration of a Dirt and Glory game; every DECISION of the rules is a field.

    Attributes:
        num_players: 2–5 seats.
        reward: DG-4.2 ``"win"`` (default; W_i = 1/k for each of k winners,
            reward_i = (W_i − 1/n)·n/(n−1)) or ``"score"`` (own final score minus the mean of
            the others').
        content: DG-1.4 path of a content TOML file; ``None`` = shipped designed content.
        num_rounds: DG-2.3/DG-4.1 rounds (= territories drawn), default 6.
        starting_fuel: DG-2.1 fuel tokens each player starts with (1).
        draft_return: DG-2.1 DECISION where the draft card not kept goes: ``"bottom"`` of the
            unit deck (default) or ``"discard"`` (out of the game).
        territory_selection: DG-2.3 DECISION ``"random"`` (default: six at random, random order,
            by seed) or ``"first"`` (the first ``num_rounds`` of the file, in file order).
        first_card_value: DG-3.1 DECISION for a two-value first caravan card: ``"choose"``
            (default: the player chooses), ``"low"`` or ``"high"``.
        first_card_ability: DG-3.1 DECISION whether the first caravan card's ability may be
            resolved (default ``False``: it was placed, not played).
        first_player: DG-3.2 DECISION ``"rotate"`` (default: round r starts with seat r mod n)
            or ``"fixed"`` (seat 0 always).
        fuel_cost: DG-3.3 DECISION tokens one fuel use costs (1).
        fuel_uses_per_turn: DG-3.3 DECISION fuel uses allowed per turn in total (1).
        bust_fuel_rescue: DG-3.3 DECISION a player who just exceeded the target may spend fuel
            to move that card to the reserve and stay in (default ``True``).
        empty_deck: DG-3.4 DECISION with an empty deck: ``"reserve_or_pass"`` (default: play
            from the reserve with fuel, or pass) or ``"forced_pass"``.
        ties: DG-3.5 DECISION ``"share_skip"`` (default: tied players share the better place,
            each gets its reward, the next place is skipped) or ``"share_dense"`` (no skip).
        consolation_fuel: DG-3.5 fuel for 4th/5th place and for exceeding the target (2).
        caravan_return: DG-3.6 DECISION caravan cards go back to the owner's ``"deck"``
            (default) or ``"reserve"``.
        reserve_mix: DG-3.6 DECISION ``"choose"`` (default: card by card, the player picks the
            reserve cards to mix into the deck), ``"all"`` or ``"none"``.
        fuel_per_point: DG-4.1 unused fuel tokens per end-game point (2).
        tie_break: DG-4.1 DECISION ``"fuel"`` (default: most fuel left wins a tie, then shared)
            or ``"none"`` (ties shared).
    """

    num_players: int = 2
    reward: str = "win"
    content: str | None = None
    num_rounds: int = 6
    starting_fuel: int = 1
    draft_return: str = "bottom"
    territory_selection: str = "random"
    first_card_value: str = "choose"
    first_card_ability: bool = False
    first_player: str = "rotate"
    fuel_cost: int = 1
    fuel_uses_per_turn: int = 1
    bust_fuel_rescue: bool = True
    empty_deck: str = "reserve_or_pass"
    ties: str = "share_skip"
    consolation_fuel: int = 2
    caravan_return: str = "deck"
    reserve_mix: str = "choose"
    fuel_per_point: int = 2
    tie_break: str = "fuel"

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 5)
        check_choice("reward", self.reward, ["win", "score"])
        if self.content is not None and not isinstance(self.content, str):
            object.__setattr__(self, "content", str(self.content))
        check_int("num_rounds", self.num_rounds, 1, 20)
        check_int("starting_fuel", self.starting_fuel, 0, 20)
        check_choice("draft_return", self.draft_return, ["bottom", "discard"])
        check_choice("territory_selection", self.territory_selection, ["random", "first"])
        check_choice("first_card_value", self.first_card_value, ["choose", "low", "high"])
        check_bool("first_card_ability", self.first_card_ability)
        check_choice("first_player", self.first_player, ["rotate", "fixed"])
        check_int("fuel_cost", self.fuel_cost, 1, 5)
        check_int("fuel_uses_per_turn", self.fuel_uses_per_turn, 0, 3)
        check_bool("bust_fuel_rescue", self.bust_fuel_rescue)
        check_choice("empty_deck", self.empty_deck, ["reserve_or_pass", "forced_pass"])
        check_choice("ties", self.ties, ["share_skip", "share_dense"])
        check_int("consolation_fuel", self.consolation_fuel, 0, 10)
        check_choice("caravan_return", self.caravan_return, ["deck", "reserve"])
        check_choice("reserve_mix", self.reserve_mix, ["choose", "all", "none"])
        check_int("fuel_per_point", self.fuel_per_point, 1, 10)
        check_choice("tie_break", self.tie_break, ["fuel", "none"])

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


#: static bounds of the state declaration (config-dependent bounds are ``check_state``'s)
MAX_SEATS = 5
MAX_ROUNDS = 20
MAX_CARD_ID = 100_000
MAX_TERRITORY = 10_000
MAX_TOKENS = 100_000  # fuel tokens or points one seat can hold (far above any reachable value)

Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
CardId = Annotated[int, Field(ge=0, le=MAX_CARD_ID)]
Tokens = Annotated[int, Field(ge=0, le=MAX_TOKENS)]


@dataclass(slots=True, eq=False)
class DGState(GameState):
    """A Dirt and Glory position, declared once (clone / JSON / validation come from the core,
    :mod:`card_envs.core.state`; :meth:`DirtAndGloryGame.check_state` adds the config's
    invariants).

    Seats ``0..n-1``; card ids as in the module docstring; every per-seat list has ``n`` entries.
    """

    rng: random.Random
    #: one of ``DRAFT … END`` (:data:`PHASE_NAMES`)
    phase: Annotated[int, Field(ge=0, le=END)]
    #: seat to decide (-1 at the end)
    player: Annotated[int, Field(ge=-1, le=MAX_SEATS - 1)]
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


class DirtAndGloryGame(GameBase[DGState]):
    """The Dirt and Glory ``Game`` (contract: :mod:`card_envs.core.game`).

    Raises (construction): ConfigError for a wrong config value (named field), also for a
    ``num_rounds`` above the content's territory count; CardDataError for malformed content or
    content that cannot host the configured game.
    """

    name = "dirt_and_glory"
    version = 1
    state_class = DGState
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, config: DirtAndGloryConfig):
        self.config = config
        c: Content = load_content(config.content)
        self.content = c
        n = self.num_players = config.num_players
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
        # check_state: bounds of tokens, and whether a placed first card always fits the target
        self._max_points = max(max(pts) for pts in self.terr_points)
        self._max_reward_fuel = max(config.consolation_fuel, *(max(f) for f in self.terr_fuel))
        self._totals_fit = max(self.card_high) <= min(self.terr_target)
        self.base = {name: N_FIXED + i * K for i, name in enumerate(KIND_RANGES)}
        self.num_actions = N_FIXED + len(KIND_RANGES) * K
        self.max_game_length = 50 + n * config.num_rounds * (
            self.max_owned * 6 + 4 * config.fuel_uses_per_turn + 40)
        from card_envs.dirt_and_glory.observation import Encoder

        self.encoder = Encoder(self)
        self.observation_shape = (self.encoder.layout.size,)

    # -- layouts (documentation) -----------------------------------------------------------------
    def action_layout(self):
        from card_envs.dirt_and_glory.observation import action_layout

        return action_layout(self.num_kinds, [k.label() for k in self.kinds])

    @property
    def observation_layout(self):
        return self.encoder.layout

    # -- set-up (DG-2) ---------------------------------------------------------------------------
    def new_state(self, seed: int) -> DGState:
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
        s = DGState(
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

    def _draw_unit(self, s: DGState, k: int) -> list[int]:
        deck = s.unit_deck
        out = []
        for _ in range(min(k, len(deck))):
            out.append(deck.pop())
        return out

    # -- contract: queries -----------------------------------------------------------------------
    def current_player(self, state: DGState) -> int:
        return state.player

    def is_terminal(self, state: DGState) -> bool:
        return state.phase == END

    def is_truncated(self, state: DGState) -> bool:
        return False

    def target(self, state: DGState) -> int:
        """Target of the current territory (DG-1.2)."""
        return self.terr_target[state.territories[min(state.round, len(state.territories) - 1)]]

    def total(self, state: DGState, p: int) -> int:
        """Caravan total of seat ``p`` (counted values, DG-3.2)."""
        return sum(state.values[p])

    def _kinds_in(self, cards: list[int]) -> list[int]:
        ck = self.card_kind
        return sorted({ck[c] for c in cards})

    def _legal_actions(self, s: DGState) -> list[int]:
        ph, p, cfg = s.phase, s.player, self.config
        if ph == MAIN:
            out = []
            if s.decks[p]:
                out.append(A_PLAY_TOP)
            out.append(A_PASS)
            if (s.reserves[p] and s.fuel[p] >= cfg.fuel_cost
                    and s.fuel_used < cfg.fuel_uses_per_turn
                    and not (cfg.empty_deck == "forced_pass" and not s.decks[p])):
                b = self.base["play_reserve"]
                out += [b + k for k in self._kinds_in(s.reserves[p])]
            return out
        if ph == VALUE:
            return [A_VALUE_LOW, A_VALUE_HIGH]
        if ph == ABILITY:
            if self.card_ab[s.pending] == AB_STASH:
                b = self.base["stash"]
                return [A_ABILITY_SKIP] + [b + k for k in self._kinds_in(s.caravans[p][:-1])]
            return [A_ABILITY_USE, A_ABILITY_SKIP]
        if ph == AFTER:
            bust = sum(s.values[p]) > self.target(s)
            return [A_PASS if bust else A_END_TURN, A_FUEL_RESERVE]
        if ph == TAKE:
            b = self.base["take"]
            return [b + k for k in self._kinds_in(s.offer)]
        if ph == MIX:
            b = self.base["mix"]
            return [A_MIX_DONE] + [b + k for k in self._kinds_in(s.reserves[p])]
        if ph == SETUP:
            b = self.base["place"]
            return [b + k for k in self._kinds_in(s.hand)]
        if ph == DRAFT:
            b = self.base["draft_return"]
            return [b + k for k in self._kinds_in(s.hand)]
        return []

    # -- contract: transitions -------------------------------------------------------------------
    def _apply_action(self, state: DGState, action: int) -> None:
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
                c = self._remove_kind(state.reserves[p], action - self.base["play_reserve"])
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
            c = self._remove_kind(state.offer, action - self.base["take"])
            state.decks[p].insert(0, c)
            self._end_turn(state, p)
        elif ph == MIX:  # DG-3.6 card by card
            if action == A_MIX_DONE:
                self._begin_setup(state, p)
            else:
                c = self._remove_kind(state.reserves[p], action - self.base["mix"])
                state.decks[p].append(c)
                if not state.reserves[p]:
                    self._begin_setup(state, p)
        elif ph == SETUP:  # DG-3.1 one card to the caravan, the other to the reserve
            c = self._remove_kind(state.hand, action - self.base["place"])
            state.reserves[p] += state.hand
            state.hand = []
            self._place(state, p, c)
        elif ph == DRAFT:  # DG-2.1 keep 2 of 3
            c = self._remove_kind(state.hand, action - self.base["draft_return"])
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
    def _start_round(self, s: DGState) -> None:
        n = self.num_players
        s.first = s.round % n if self.config.first_player == "rotate" else 0  # DG-3.2
        for p in range(n):
            s.passed[p] = False
            s.busted[p] = False
            s.zero_next[p] = False
        s.prep_pos = 0
        s.ctx = "setup"
        self._begin_prep(s)

    def _begin_prep(self, s: DGState) -> None:
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

    def _begin_setup(self, s: DGState, p: int) -> None:
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

    def _place(self, s: DGState, p: int, c: int) -> None:
        """DG-3.1: ``c`` opens the caravan; its ability (``first_card_ability``) is resolved
        before its value is chosen, as for a played card (DG-3.2)."""
        s.caravans[p].append(c)
        s.values[p].append(self.card_low[c])  # the low value until the value is chosen
        s.pending = c
        if self.config.first_card_ability and self._ability_available(s, p):
            s.phase = ABILITY
            return
        self._after_ability(s, p)

    def _play(self, s: DGState, p: int, c: int) -> None:
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
        if self._ability_available(s, p):
            s.phase = ABILITY
        else:
            self._after_ability(s, p)

    def _ability_available(self, s: DGState, p: int) -> bool:
        ab = self.card_ab[s.pending]
        if ab == AB_NONE:
            return False
        if ab == AB_STASH:
            return len(s.caravans[p]) > 1
        if ab == AB_SCOUT:
            return bool(s.decks[p])
        return True

    def _after_ability(self, s: DGState, p: int) -> None:
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

    def _after_value(self, s: DGState, p: int) -> None:
        if s.ctx == "setup":
            self._next_prep(s)
        else:
            self._post_play(s, p)

    def _next_prep(self, s: DGState) -> None:
        s.pending = -1
        s.prep_pos += 1
        if s.prep_pos < self.num_players:
            self._begin_prep(s)
        else:
            s.ctx = "play"
            self._begin_turn(s, s.first)

    def _begin_turn(self, s: DGState, p: int) -> None:
        s.player = p
        s.phase = MAIN
        s.pending = -1
        s.fuel_used = 0
        s.from_reserve = False

    def _resolve_ability(self, s: DGState, p: int, action: int) -> None:
        ab = self.card_ab[s.pending]
        if ab == AB_FUEL:
            s.fuel[p] += 1
        elif ab == AB_SCOUT:
            s.peek[p] = True
        elif ab == AB_ZERO:
            s.zero_next[p] = True
        elif ab == AB_STASH:
            # the caravan card of that kind (not the stash card itself) counting the most
            kind = action - self.base["stash"]
            car, vals, ck = s.caravans[p], s.values[p], self.card_kind
            best = -1
            for i in range(len(car) - 1):
                if ck[car[i]] == kind and (best < 0 or vals[i] >= vals[best]):
                    best = i
            s.reserves[p].append(car.pop(best))
            vals.pop(best)

    def _post_play(self, s: DGState, p: int) -> None:
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

    def _pass(self, s: DGState, p: int, busted: bool) -> None:
        s.passed[p] = True
        s.busted[p] = busted
        s.pending = -1
        if s.offer:
            s.phase = TAKE
        else:
            self._end_turn(s, p)

    def _end_turn(self, s: DGState, p: int) -> None:
        n = self.num_players
        for i in range(1, n + 1):
            q = (p + i) % n
            if not s.passed[q]:
                self._begin_turn(s, q)
                return
        self._end_round(s)

    def round_places(self, s: DGState) -> list[int]:
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

    def _end_round(self, s: DGState) -> None:
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

    def _end_game(self, s: DGState) -> None:
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

    def returns(self, state: DGState) -> list[float]:
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
    def potential(self, state: DGState, player: int) -> float:
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

    def lookahead_horizon(self, state: DGState) -> int | None:
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

    # -- observation -----------------------------------------------------------------------------
    def observe(self, state: DGState, player: int):
        """float32 ``observation_shape`` vector in [0, 1] from ``player``'s seat (see the env
        module docstring for the layout). Never another seat's reserve or any deck order."""
        return self.encoder.encode(state, player)

    # -- strings ---------------------------------------------------------------------------------
    def _action_name(self, a: int) -> str:
        fixed = ("play top card", "pass", "end turn", "fuel: move played card to reserve",
                 "count low value", "count high value", "use ability", "skip ability",
                 "done mixing")
        if not isinstance(a, int) or a < 0 or a >= self.num_actions:
            return "outside the action space"
        if a < N_FIXED:
            return fixed[a]
        r, k = divmod(a - N_FIXED, self.num_kinds)
        verb = {"play_reserve": "fuel: play from reserve", "stash": "stash to reserve",
                "mix": "mix into deck", "take": "take from offer",
                "draft_return": "draft: return", "place": "place in caravan"}[KIND_RANGES[r]]
        return f"{verb} [{self.kinds[k].label()}]"

    def action_to_string(self, state: DGState, action: int) -> str:
        return self._action_name(action)

    def card_label(self, c: int) -> str:
        return self.kinds[self.card_kind[c]].label()

    def render(self, state: DGState) -> str:
        s, n = state, self.num_players
        t = s.territories[min(s.round, len(s.territories) - 1)]
        terr = self.content.territories[t]
        lines = [
            f"Dirt and Glory — round {min(s.round + 1, self.config.num_rounds)}/"
            f"{self.config.num_rounds}, phase {PHASE_NAMES[s.phase]}, to act: seat {s.player}",
            f"territory {terr.name}: target {terr.target}, points {terr.points}, fuel {terr.fuel}",
            f"offer: {[self.card_label(c) for c in s.offer]}  unit deck: {len(s.unit_deck)}",
        ]
        for p in range(n):
            flag = " busted" if s.busted[p] else (" passed" if s.passed[p] else "")
            lines.append(
                f"seat {p}: score {s.scores[p]} fuel {s.fuel[p]} total {sum(s.values[p])}{flag} | "
                f"caravan {[self.card_label(c) + '=' + str(v) for c, v in zip(s.caravans[p], s.values[p])]}"
                f" | reserve {[self.card_label(c) for c in s.reserves[p]]}"
                f" | deck {len(s.decks[p])} (top first: {[self.card_label(c) for c in reversed(s.decks[p])]})"
            )
        if s.hand:
            lines.append(f"hand of seat {s.player}: {[self.card_label(c) for c in s.hand]}")
        if s.phase == END:
            lines.append(f"winners: {s.winners}")
        return "\n".join(lines)

    # -- state invariants (the declaration's static ranges are checked by the core) -------------
    def phase_name(self, state: DGState) -> str:
        """``"draft"``, ``"mix"``, ``"setup"``, ``"value"``, ``"ability"``, ``"main"``,
        ``"after"``, ``"take"`` or ``"end"`` (a value / ability decision of the round set-up is
        named ``"setup value"`` / ``"setup ability"``)."""
        name = PHASE_NAMES[state.phase]
        if state.phase in (VALUE, ABILITY) and state.ctx == "setup":
            return "setup " + name
        return name

    def check_state(self, state: DGState) -> None:
        """StateError naming the field path and value unless ``state`` is a consistent position
        of this config: seat counts, card ids of this content and the card multiset over every
        zone (nothing created or lost; starting cards only in their owner's zones), counted
        values matching the caravans, the territories, round / first seat / preparation position
        / phase / seat to act consistent with each other, the phase's own fields (hand, pending
        card, turn fields), passes and busts against the totals, the offer size, the tokens,
        the last round's result and the winners."""
        s, cfg, n = state, self.config, self.num_players
        D, S = self.deck_size, self.start_size
        low, high, ab = self.card_low, self.card_high, self.card_ab
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
                        f"a round of this game in phase {PHASE_NAMES[ph]!r}")
            check_range("player", s.player, 0, n - 1, f"a seat in phase {PHASE_NAMES[ph]!r}")
        last = min(s.round, cfg.num_rounds - 1)  # the round being played (or the last one)
        want_first = last % n if cfg.first_player == "rotate" else 0
        if ph == DRAFT:
            want_first = 0
        if s.first != want_first:
            fail("first", s.first, f"is not the first seat ({want_first}) of round {s.round} "
                 f"in phase {PHASE_NAMES[ph]!r} (first_player={cfg.first_player!r})")
        check_range("fuel_used", s.fuel_used, 0, cfg.fuel_uses_per_turn, "a fuel use count")
        # -- territories ------------------------------------------------------------------------
        nt = len(self.terr_target)
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
        check_cards(zones, range(self.num_cards), "card")
        for name, cards in zones.items():
            owner = owners.get(name)
            for i, c in enumerate(cards):
                if c >= D and (c - D) // S != owner:
                    where = (f" (the hand of phase {self.phase_name(s)!r} is player {p}'s set-up "
                             "draw)" if owner is not None else
                             f" (the hand of phase {self.phase_name(s)!r} is drawn from the "
                             "unit deck)" if name == "hand" else "")
                    fail(f"{name}[{i}]", c, f"is a starting card of seat {(c - D) // S} outside "
                         "that seat's deck, reserve and caravan (starting cards never change "
                         "owner)" + where)
        if cfg.draft_return == "bottom":
            check_len("discarded", s.discarded, 0, why="draft_return='bottom'")
        else:
            check_len("discarded", s.discarded, p if ph == DRAFT else n,
                      why=f"one returned draft card per seat that drafted, draft_return="
                      f"'discard', phase {PHASE_NAMES[ph]!r}, player {p}")
        # -- counted values ------------------------------------------------------------------------
        for q in range(n):
            car, vals = s.caravans[q], s.values[q]
            zero_ok = any(ab[c] == AB_ZERO for c in car) or any(ab[c] == AB_ZERO
                                                                for c in s.reserves[q])
            for i, (c, v) in enumerate(zip(car, vals)):
                if v != low[c] and v != high[c] and not (v == 0 and zero_ok):
                    why = (" or 0 (after a zero_next card of this seat)" if zero_ok else "")
                    fail(f"values[{q}][{i}]", v, f"is not a value of card {c} "
                         f"({self.card_label(c)}) in caravans[{q}][{i}]: {low[c]}"
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
                fail("ctx", s.ctx, f"is not {want_ctx!r} in phase {PHASE_NAMES[ph]!r}")
        want_hand = 3 if ph == DRAFT else (2 if ph == SETUP else 0)
        check_len("hand", s.hand, want_hand, why=f"phase {self.phase_name(s)!r}")
        if ph in (VALUE, ABILITY, AFTER):
            if not s.caravans[p] or s.pending != s.caravans[p][-1]:
                fail("pending", s.pending, f"is not the last card of caravans[{p}] (the card "
                     f"player {p} just played) in phase {self.phase_name(s)!r}")
        elif s.pending != -1:
            fail("pending", s.pending, f"is not -1 in phase {self.phase_name(s)!r}")
        if s.from_reserve and s.fuel_used < 1:
            fail("from_reserve", True, "is set but fuel_used is 0 (playing from the reserve "
                 "is a fuel use, DG-3.3)")
        if not play or ph == MAIN or (ph == TAKE and not s.busted[p]):
            if s.fuel_used != 0:
                fail("fuel_used", s.fuel_used, f"is not 0 in phase {self.phase_name(s)!r}")
            if s.from_reserve:
                fail("from_reserve", True, f"is set in phase {self.phase_name(s)!r}")
        if ph == VALUE:
            c = s.pending
            if low[c] == high[c]:
                fail("phase", ph, f"is 'value' but card {c} ({self.card_label(c)}) has one value")
            if s.values[p][-1] != low[c]:
                fail(f"values[{p}][{len(s.values[p]) - 1}]", s.values[p][-1],
                     f"is not the low value {low[c]} of card {c} while its value is chosen")
            if s.ctx == "setup" and cfg.first_card_value != "choose":
                fail("phase", ph, f"is 'value' of a placed card with "
                     f"first_card_value={cfg.first_card_value!r}")
        elif ph == ABILITY:
            c = s.pending
            if not self._ability_available(s, p):
                fail("phase", ph, f"is 'ability' but card {c} ({self.card_label(c)}) has no "
                     "ability usable now")
            if s.values[p][-1] not in (low[c], 0):
                fail(f"values[{p}][{len(s.values[p]) - 1}]", s.values[p][-1],
                     f"is not the low value {low[c]} (or 0) of card {c} before its ability")
            if s.ctx == "setup" and not cfg.first_card_ability:
                fail("ctx", s.ctx, "is 'setup' in phase 'ability' with first_card_ability=False")
        elif ph == AFTER:
            bust = sum(s.values[p]) > self.target(s)
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
                 f"{self.phase_name(s)!r}")
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
                                 f"card ({self.card_label(c)}, first_card_value={mode!r})")
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
            target = self.target(s)
            terr = f"territories[{last}]"
            for q in range(n):
                tot = sum(s.values[q])
                if q == p and ph in (VALUE, ABILITY, AFTER):
                    tot -= s.values[q][-1]  # before the card just played
                    if tot > target and self._totals_fit:
                        fail(f"values[{q}]", s.values[q], f"total {tot} before the card just "
                             f"played exceeds the target {target} of {terr}")
                    continue
                if s.busted[q] and tot <= target:
                    fail(f"busted[{q}]", True, f"is set but the caravan total {tot} of "
                         f"values[{q}] does not exceed the target {target} of {terr}")
                if not s.busted[q] and tot > target and self._totals_fit:
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
                         f"{s.round}, passed[{q}] {s.passed[q]}, phase {self.phase_name(s)!r}, "
                         f"player {p})")
        # -- tokens, the last result, the winners --------------------------------------------------
        scored = s.round if ph != DRAFT else 0
        fuel_cards = sum(1 for a in ab if a == AB_FUEL)
        fuel_most = (cfg.starting_fuel + scored * self._max_reward_fuel
                     + (scored + 1) * fuel_cards)
        for q in range(n):
            check_range(f"fuel[{q}]", s.fuel[q], 0, fuel_most, "a reachable fuel count")
            pts_most = scored * self._max_points + (fuel_most // cfg.fuel_per_point
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
                want = ([self.terr_points[t][pl - 1], self.terr_fuel[t][pl - 1]]
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
            places = self.round_places(s)
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

    # -- hidden information ------------------------------------------------------------------------
    def sample_hidden(self, state: DGState, player: int, rng: random.Random) -> DGState:
        """A state consistent with ``player``'s observation: the cards ``player`` cannot locate
        (other seats' reserves, decks and undecided hands, the other seats' discarded draft
        cards, and the unit deck) are shuffled together and dealt back into zones of the same
        sizes, each starting card staying with its owner (starting cards never change hands,
        DG-2.1); ``player``'s own deck order is reshuffled (its known top card, after a scout,
        stays on top); the chance RNG is reseeded. Approximation: it does not use memory of past
        public events (e.g. which offer card a seat took)."""
        s = self.clone(state)
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
        reseed(s.rng, rng)
        s.legal_cache = None
        return s


def make_game(**config: Any) -> DirtAndGloryGame:
    """Build a Dirt and Glory game from config keywords (see :class:`DirtAndGloryConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (named).
        CardDataError: malformed content (file and entry/field named).
    """
    return DirtAndGloryGame(config_from_kwargs(DirtAndGloryConfig, config))
