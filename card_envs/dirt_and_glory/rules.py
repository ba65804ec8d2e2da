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
from typing import Any

from card_envs.core.config import check_bool, check_choice, check_int, config_from_kwargs
from card_envs.core.errors import CardDataError, IllegalActionError
from card_envs.core.game import GameBase, lead
from card_envs.core.rng import make_rng, reseed, rng_from_json, rng_to_json
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


class DGState:
    """A Dirt and Glory position (plain Python data; see ``state_to_dict`` for the JSON form).

    Attributes (seats ``0..n-1``; card ids as in the module docstring):
        rng: the chance RNG. phase: one of ``DRAFT … END``. player: seat to decide (-1 at end).
        round: 0-based round. first: first seat of this round. prep_pos: position in turn order
        during the round preparation. unit_deck: shared deck (top = end). offer: offer cards.
        territories: territory indices, ``territories[round]`` is the current one.
        decks / reserves / caravans: per seat card lists (deck top = end).
        values: per seat, the counted value of each caravan card. fuel / scores: per seat ints.
        passed / busted: per seat flags for the round. zero_next: DG-1.5 pending zero per seat.
        peek: per seat, whether the seat knows its deck's top card (scout).
        hand: cards drawn for the current draft / setup decision (seat ``player``).
        pending: card just played this turn (-1 none). from_reserve: it came from the reserve.
        fuel_used: fuel uses this turn. ctx: ``"setup"`` or ``"play"`` (what a value/ability
        decision continues). last_result: per seat ``(place or 0 if busted/unplaced, points,
        fuel)`` of the last scored round. winners: seats that won (end). legal: cached legal
        actions (``None`` = stale).
    """

    __slots__ = (
        "rng", "phase", "player", "round", "first", "prep_pos", "unit_deck", "offer",
        "territories", "decks", "reserves", "caravans", "values", "fuel", "scores", "passed",
        "busted", "zero_next", "peek", "hand", "pending", "from_reserve", "fuel_used", "ctx",
        "last_result", "winners", "legal",
    )

    def copy(self) -> DGState:
        s = DGState.__new__(DGState)
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.phase, s.player, s.round, s.first = self.phase, self.player, self.round, self.first
        s.prep_pos = self.prep_pos
        s.unit_deck = self.unit_deck[:]
        s.offer = self.offer[:]
        s.territories = self.territories[:]
        s.decks = [d[:] for d in self.decks]
        s.reserves = [d[:] for d in self.reserves]
        s.caravans = [d[:] for d in self.caravans]
        s.values = [d[:] for d in self.values]
        s.fuel = self.fuel[:]
        s.scores = self.scores[:]
        s.passed = self.passed[:]
        s.busted = self.busted[:]
        s.zero_next = self.zero_next[:]
        s.peek = self.peek[:]
        s.hand = self.hand[:]
        s.pending, s.from_reserve, s.fuel_used, s.ctx = (
            self.pending, self.from_reserve, self.fuel_used, self.ctx)
        s.last_result = [list(r) for r in self.last_result]
        s.winners = self.winners[:]
        s.legal = None if self.legal is None else self.legal[:]
        return s


_LIST_FIELDS = ("unit_deck", "offer", "territories", "fuel", "scores", "passed", "busted",
                "zero_next", "peek", "hand", "winners")
_NESTED_FIELDS = ("decks", "reserves", "caravans", "values", "last_result")
_SCALAR_FIELDS = ("phase", "player", "round", "first", "prep_pos", "pending", "from_reserve",
                  "fuel_used", "ctx")


class DirtAndGloryGame(GameBase[DGState]):
    """The Dirt and Glory ``Game`` (contract: :mod:`card_envs.core.game`).

    Raises (construction): ConfigError for a wrong config value (named field), CardDataError for
    malformed content or content that cannot host the configured game.
    """

    name = "dirt_and_glory"
    version = 0
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, config: DirtAndGloryConfig):
        self.config = config
        c: Content = load_content(config.content)
        self.content = c
        n = self.num_players = config.num_players
        if len(c.territories) < config.num_rounds:
            raise CardDataError(
                f"{c.path}: [[territory]] has {len(c.territories)} entries, config field "
                f"'num_rounds' needs {config.num_rounds}"
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
        s = DGState.__new__(DGState)
        s.rng = rng = make_rng(seed)
        s.unit_deck = list(range(self.deck_size))
        rng.shuffle(s.unit_deck)
        nt = len(self.terr_target)
        if cfg.territory_selection == "random":  # DG-2.3
            s.territories = rng.sample(range(nt), cfg.num_rounds)
        else:
            s.territories = list(range(cfg.num_rounds))
        D, S = self.deck_size, self.start_size
        s.decks = [list(range(D + p * S, D + (p + 1) * S)) for p in range(n)]
        s.reserves = [[] for _ in range(n)]
        s.caravans = [[] for _ in range(n)]
        s.values = [[] for _ in range(n)]
        s.fuel = [cfg.starting_fuel] * n
        s.scores = [0] * n
        s.passed = [False] * n
        s.busted = [False] * n
        s.zero_next = [False] * n
        s.peek = [False] * n
        s.offer = []
        s.round = 0
        s.first = 0
        s.prep_pos = 0
        s.pending = -1
        s.from_reserve = False
        s.fuel_used = 0
        s.ctx = "setup"
        s.last_result = [[0, 0, 0] for _ in range(n)]
        s.winners = []
        s.legal = None
        s.phase = DRAFT  # DG-2.1: seat 0 drafts first, then 1, ...
        s.player = 0
        s.hand = self._draw_unit(s, DRAFT_DRAW)
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

    def legal_actions(self, state: DGState) -> list[int]:
        legal = state.legal
        if legal is None:
            legal = state.legal = self._compute_legal(state)
        return legal

    def _compute_legal(self, s: DGState) -> list[int]:
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
    def apply_action(self, state: DGState, action: int) -> None:
        """Apply ``action`` for the seat to act (in place).

        Raises:
            IllegalActionError: ``action`` is not legal now (named, with the legal set).
        """
        legal = self.legal_actions(state)
        if action not in legal:
            raise IllegalActionError(
                f"action {action!r} ({self._action_name(action)}) is not legal in phase "
                f"{PHASE_NAMES[state.phase]!r} for seat {state.player}; legal: {legal}"
            )
        state.legal = None
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
        elif ph == VALUE:
            c = state.caravans[p][-1]
            state.values[p][-1] = self.card_low[c] if action == A_VALUE_LOW else self.card_high[c]
            if state.ctx == "setup":
                self._after_setup_value(state, p)
            else:
                self._after_value(state, p)
        elif ph == ABILITY:
            if action != A_ABILITY_SKIP:
                self._resolve_ability(state, p, action)
            if state.ctx == "setup":
                self._next_prep(state)
            else:
                self._post_play(state, p)
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
        s.caravans[p].append(c)
        s.values[p].append(self.card_low[c])
        s.pending = c
        if self.card_low[c] != self.card_high[c]:
            mode = self.config.first_card_value
            if mode == "choose":
                s.phase = VALUE
                return
            if mode == "high":
                s.values[p][-1] = self.card_high[c]
        self._after_setup_value(s, p)

    def _after_setup_value(self, s: DGState, p: int) -> None:
        if self.config.first_card_ability and self._ability_available(s, p):
            s.phase = ABILITY
            return
        self._next_prep(s)

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

    def _play(self, s: DGState, p: int, c: int) -> None:
        s.caravans[p].append(c)
        s.pending = c
        s.ctx = "play"
        if s.zero_next[p]:  # DG-1.5 zero_next
            s.zero_next[p] = False
            s.values[p].append(0)
            self._after_value(s, p)
        elif self.card_low[c] != self.card_high[c]:
            s.values[p].append(self.card_low[c])
            s.phase = VALUE
        else:
            s.values[p].append(self.card_low[c])
            self._after_value(s, p)

    def _ability_available(self, s: DGState, p: int) -> bool:
        ab = self.card_ab[s.pending]
        if ab == AB_NONE:
            return False
        if ab == AB_STASH:
            return len(s.caravans[p]) > 1
        if ab == AB_SCOUT:
            return bool(s.decks[p])
        return True

    def _after_value(self, s: DGState, p: int) -> None:
        if self._ability_available(s, p):
            s.phase = ABILITY
        else:
            self._post_play(s, p)

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

    # -- copies, JSON, hidden information --------------------------------------------------------
    def clone(self, state: DGState) -> DGState:
        return state.copy()

    def state_to_dict(self, state: DGState) -> dict[str, Any]:
        d: dict[str, Any] = {"rng": rng_to_json(state.rng)}
        for f in _SCALAR_FIELDS:
            d[f] = getattr(state, f)
        for f in _LIST_FIELDS:
            d[f] = list(getattr(state, f))
        for f in _NESTED_FIELDS:
            d[f] = [list(x) for x in getattr(state, f)]
        return d

    def state_from_dict(self, data: dict[str, Any]) -> DGState:
        """Inverse of ``state_to_dict``; ValueError names a missing field."""
        s = DGState.__new__(DGState)
        missing = [f for f in ("rng", *_SCALAR_FIELDS, *_LIST_FIELDS, *_NESTED_FIELDS)
                   if f not in data]
        if missing:
            raise ValueError(f"saved dirt_and_glory state is missing field(s) {missing}")
        s.rng = rng_from_json(data["rng"])
        for f in _SCALAR_FIELDS:
            setattr(s, f, data[f])
        for f in _LIST_FIELDS:
            setattr(s, f, list(data[f]))
        for f in _NESTED_FIELDS:
            setattr(s, f, [list(x) for x in data[f]])
        s.from_reserve = bool(s.from_reserve)
        s.legal = None
        return s

    def sample_hidden(self, state: DGState, player: int, rng: random.Random) -> DGState:
        """A state consistent with ``player``'s observation: the cards ``player`` cannot locate
        (other seats' reserves, decks and undecided hands, and the unit deck) are shuffled
        together and dealt back into zones of the same sizes; ``player``'s own deck order is
        reshuffled (its known top card, after a scout, stays on top); the chance RNG is reseeded.
        Approximation: it does not use memory of past public events (e.g. which offer card a
        seat took)."""
        s = state.copy()
        n = self.num_players
        others = [q for q in range(n) if q != player]
        hidden_hand = s.hand and s.player != player and s.phase in (DRAFT, SETUP)
        zones = [s.reserves[q] for q in others] + [s.decks[q] for q in others] + [s.unit_deck]
        if hidden_hand:
            zones.append(s.hand)
        pool = sorted(c for z in zones for c in z)  # canonical order: the result depends only on
        rng.shuffle(pool)  # what ``player`` knows (the multiset), never on the true arrangement
        i = 0
        for z in zones:
            k = len(z)
            z[:] = pool[i:i + k]
            i += k
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
        s.legal = None
        return s


def make_game(**config: Any) -> DirtAndGloryGame:
    """Build a Dirt and Glory game from config keywords (see :class:`DirtAndGloryConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (named).
        CardDataError: malformed content (file and entry/field named).
    """
    return DirtAndGloryGame(config_from_kwargs(DirtAndGloryConfig, config))
