"""Toy Chips: a short betting game with chip returns, registered by the tests only
(:data:`env_helpers.TEST_GAMES`) so the generic tests of the suite run on a game that ends within
2-4 decisions and pays chips, not ±1 (issue 23). Nothing in ``card_envs/`` names it.

Rules (two seats; Kuhn poker with one raise): a deck of three cards ranked 0 < 1 < 2; each seat
antes 1 chip and is dealt one card face down (``state.rng``). Seat 0 acts first. A seat not
facing a bet may ``check`` or ``bet`` (1 chip); a seat facing a bet may ``check`` (call: match
it), ``bet`` (raise by 1 chip, while fewer than ``max_bets`` bets were made this hand) or
``fold``. The hand ends when a seat folds (the other wins the folder's chips), calls, or both
check (showdown: both cards are shown, the higher card wins the other's chips). Returns: the
chips won or lost, ±1 to ±(1 + max_bets), zero-sum.

The state keeps the betting as a log of action ids (``log``), declared variable-length
(``field(metadata={"variable_length": True})``, :mod:`card_envs.testing.mutations`): a hand's
log has 2 to 4 entries, and the chips, the seat to act, the phase and the folder are checked
against it (the check names the field that disagrees: ``chips``, ``player``...).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from enum import IntEnum
from typing import Annotated, Any, NamedTuple

import numpy as np
from pydantic import Field

from card_envs.core.config import check_int, config_from_kwargs
from card_envs.core.game import GameBase
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.core.phases import declare_phases
from card_envs.core.state import GameState, check_len, check_range, fail
from card_envs.core.view import View

RANKS = 3  # cards 0, 1, 2
MAX_BETS = 2  # the largest max_bets a config may ask for


class Phase(IntEnum):
    """``state.phase``."""

    BET = 0
    OVER = 1


PHASES = declare_phases(Phase).names
ACTIONS = Layout([
    ("check", 1, "check, or call a bet"),
    ("bet", 1, "bet 1 chip, or raise by 1 (at most max_bets bets a hand)"),
    ("fold", 1, "give up the chips put in (only facing a bet)"),
])
A_CHECK, A_BET, A_FOLD = ACTIONS.start("check"), ACTIONS.start("bet"), ACTIONS.start("fold")


@dataclass(frozen=True)
class ToyChipsConfig:
    """Attributes:
        max_bets: bets (a bet and raises) a hand allows, 1..2: returns ±1..±(1 + max_bets).
    """

    max_bets: int = MAX_BETS

    def __post_init__(self):
        check_int("max_bets", self.max_bets, 1, MAX_BETS)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True, eq=False)
class ToyChipsState(GameState):
    """Attributes:
        rng: the deal; phase: ``Phase``; player: the seat to act.
        cards: each seat's card (0..2, distinct).
        chips: each seat's chips in the pot (1 ante + its bets).
        folded: the seat that folded, or -1.
        log: the hand's actions in order (variable-length: 0 to 1 + 2 * max_bets entries).
    """

    rng: random.Random
    phase: Annotated[int, Field(ge=0, le=len(PHASES) - 1)]
    player: Annotated[int, Field(ge=0, le=1)]
    cards: list[Annotated[int, Field(ge=0, le=RANKS - 1)]]
    chips: list[Annotated[int, Field(ge=1, le=1 + MAX_BETS)]]
    folded: Annotated[int, Field(ge=-1, le=1)]
    log: list[Annotated[int, Field(ge=0, le=ACTIONS.size - 1)]] = field(
        metadata={"variable_length": True})


class Betting(NamedTuple):
    """What a log of actions gives (:func:`replay`)."""

    player: int
    over: bool
    chips: list[int]
    bets: int
    facing: bool
    folded: int


def legal_after(b: Betting, max_bets: int) -> list[int]:
    """The legal action ids after the betting ``b``."""
    if b.over:
        return []
    if b.facing:
        return [A_CHECK] + ([A_BET] if b.bets < max_bets else []) + [A_FOLD]
    return [A_CHECK, A_BET]


def replay(log: list[int], max_bets: int) -> Betting:
    """The betting after ``log``; StateError naming ``log[i]`` for an action not legal there."""
    b = Betting(0, False, [1, 1], 0, False, -1)
    checks = 0
    for i, a in enumerate(log):
        if a not in legal_after(b, max_bets):
            fail(f"log[{i}]", a, f"is not a legal action after log[:{i}] = {log[:i]}")
        p, chips = b.player, list(b.chips)
        bets, facing, folded, over = b.bets, b.facing, -1, False
        if a == A_CHECK:
            if facing:
                chips[p] = chips[1 - p]
                over = True
            else:
                checks += 1
                over = checks == 2
        elif a == A_BET:
            chips[p] = chips[1 - p] + 1
            bets, facing = bets + 1, True
        else:
            folded, over = p, True
        b = Betting(p if over else 1 - p, over, chips, bets, facing, folded)
    return b


def check_state(game: Any, state: ToyChipsState) -> None:
    """StateError naming the field: two distinct cards; a legal log; the chips, the seat to
    act, the phase and the folder are what the log gives."""
    check_len("cards", state.cards, 2, why="one card a seat")
    if state.cards[0] == state.cards[1]:
        fail("cards", state.cards, "holds one card twice (the deck has one of each)")
    check_len("chips", state.chips, 2, why="one count a seat")
    b = replay(state.log, game.config.max_bets)
    if state.chips != b.chips:
        fail("chips", state.chips, f"is not what the betting gives ({b.chips})")
    if state.folded != b.folded:
        fail("folded", state.folded, f"is not what the betting gives ({b.folded})")
    if state.phase != (Phase.OVER if b.over else Phase.BET):
        fail("phase", state.phase, f"is not {'over' if b.over else 'bet'} after the betting")
    check_range("player", state.player, b.player, b.player, "the seat the betting gives")


OBSERVATION = Layout([
    ("my_card", RANKS, "my card, one-hot"),
    ("their_card", RANKS, "the other seat's card, one-hot, once shown (a showdown)"),
    ("my_turn", 1, "1 if I am to act"),
    ("seat", 1, "my seat"),
    ("chips", 2, "my chips in the pot, then theirs, / 3"),
    ("facing", 1, "1 if I face a bet"),
])


class ToyChipsEncoder(Encoder):
    """Seat ``player``'s view: float32 ``(11,)`` in [0, 1] (:data:`OBSERVATION`)."""

    LAYOUT = OBSERVATION

    def encode(self, state: ToyChipsState, player: int) -> np.ndarray:
        at = self.at
        v = np.zeros(OBSERVATION.size, np.float32)
        v[at.my_card + state.cards[player]] = 1.0
        if state.phase == Phase.OVER and state.folded < 0:
            v[at.their_card + state.cards[1 - player]] = 1.0
        b = replay(state.log, self.game.config.max_bets)
        if state.phase == Phase.BET and state.player == player:
            v[at.my_turn] = 1.0
            v[at.facing] = float(b.facing)
        v[at.seat] = float(player)
        v[at.chips] = state.chips[player] / (1 + MAX_BETS)
        v[at.chips + 1] = state.chips[1 - player] / (1 + MAX_BETS)
        return v


class ToyChipsView(View):
    """The whole state as text; a seat's view is the core's default (from its observation)."""

    def describe_action(self, state: ToyChipsState, piece: str, index: int) -> str | None:
        return None

    def render(self, state: ToyChipsState) -> str:
        return (f"cards={state.cards} chips={state.chips} log={state.log} "
                f"folded={state.folded}")


class ToyChipsGame(GameBase[ToyChipsState]):
    """The Toy Chips ``Game`` (rules: the module docstring)."""

    name = "toy_chips"
    version = 0
    state_class = ToyChipsState
    state_checks = check_state
    encoder_class = ToyChipsEncoder
    view_class = ToyChipsView
    action_layout = ACTIONS
    phases = PHASES
    over_phase = Phase.OVER
    utility = "chips"
    zero_sum = True
    chance = True  # the deal
    num_players = 2

    def __init__(self, config: ToyChipsConfig):
        self.config = config
        self.max_game_length = 2 + config.max_bets  # check, bet, raises, call
        self.min_utility = -float(1 + config.max_bets)
        self.max_utility = float(1 + config.max_bets)

    def new_state(self, seed: int) -> ToyChipsState:
        rng = random.Random(seed)
        return ToyChipsState(rng=rng, phase=int(Phase.BET), player=0,
                             cards=rng.sample(range(RANKS), 2),
                             chips=[1, 1], folded=-1, log=[])

    def _legal_actions(self, state: ToyChipsState) -> list[int]:
        return legal_after(replay(state.log, self.config.max_bets), self.config.max_bets)

    def _apply_action(self, state: ToyChipsState, action: int) -> None:
        state.log.append(action)
        b = replay(state.log, self.config.max_bets)
        state.chips, state.folded, state.player = b.chips, b.folded, b.player
        if b.over:
            state.phase = int(Phase.OVER)

    def is_truncated(self, state: ToyChipsState) -> bool:
        return False

    def returns(self, state: ToyChipsState) -> list[float]:
        if state.phase != Phase.OVER:
            return [0.0, 0.0]
        if state.folded >= 0:
            winner = 1 - state.folded
        else:
            winner = 0 if state.cards[0] > state.cards[1] else 1
        won = float(state.chips[1 - winner])
        return [won, -won] if winner == 0 else [-won, won]

    def _resample_hidden(self, s: ToyChipsState, player: int, rng: random.Random) -> None:
        """The other seat's card, unless shown at a showdown, redrawn from the two cards
        ``player`` does not hold."""
        if s.phase == Phase.OVER and s.folded < 0:
            return
        s.cards[1 - player] = rng.choice([c for c in range(RANKS) if c != s.cards[player]])


class HeuristicBot:
    """Bets or raises with the best card, calls or checks with the middle one, folds the worst
    facing a bet (reads only its own card and the public betting)."""

    name = "heuristic"

    def act(self, game: ToyChipsGame, state: ToyChipsState, player: int) -> int:
        legal = game.legal_actions(state)
        card = state.cards[player]
        if card == RANKS - 1 and A_BET in legal:
            return A_BET
        if card == 0 and A_FOLD in legal:
            return A_FOLD
        return A_CHECK


def make_game(**config: Any) -> ToyChipsGame:
    """Build Toy Chips from :class:`ToyChipsConfig` fields (ConfigError naming a bad one)."""
    return ToyChipsGame(config_from_kwargs(ToyChipsConfig, config))
