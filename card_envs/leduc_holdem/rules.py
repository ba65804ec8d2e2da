"""Leduc Hold'em rules on the core contract (:class:`card_envs.core.game.GameBase`); the rules
with their ids are ``docs/rules/leduc_holdem.md`` (LH-), the standard game of OpenSpiel's
``leduc_poker``, RLCard's and PettingZoo's ``leduc_holdem_v4``."""

from __future__ import annotations

import random
from typing import Any

from card_envs.core.config import config_from_kwargs
from card_envs.core.game import GameBase
from card_envs.leduc_holdem.cards import load_ranks
from card_envs.leduc_holdem.config import LeducHoldemConfig
from card_envs.leduc_holdem.constants import (
    A_CALL,
    A_FOLD,
    A_RAISE,
    NO_ACTION,
    NUM_CARDS,
    NUM_SEATS,
    SLOTS,
    Phase,
)
from card_envs.leduc_holdem.state import LeducHoldemState, hand_strength, public_shown


def max_decisions(config: LeducHoldemConfig) -> int:
    """The most decisions one game can take under ``config``: ``2 * (max_raises + 2)``, two
    rounds of a check, ``max_raises`` raises and a call (LH-3.3, LH-3.5); 8 in the standard
    game, as OpenSpiel's ``max_game_length``."""
    return 2 * (config.max_raises + 2)


class LeducHoldemGame(GameBase[LeducHoldemState]):
    """The Leduc Hold'em ``Game`` (rules: ``docs/rules/leduc_holdem.md``)."""

    name = "leduc_holdem"
    version = 0
    num_players = NUM_SEATS
    # -- declared facts (card_envs.core.game.GameFacts) --
    min_utility, max_utility, utility = -13.0, 13.0, "chips"  # LH-5.3; __init__: the config's
    zero_sum = True  # LH-5.1: the winner takes what the loser put in
    chance = True  # the deal (LH-2.3)

    def __init__(self, config: LeducHoldemConfig):
        self.config = config
        top = float(config.max_chips)
        self.min_utility, self.max_utility = -top, top
        self.max_game_length = max_decisions(config)
        self.ranks = load_ranks()

    def new_state(self, seed: int) -> LeducHoldemState:
        """A fresh deal (LH-2.3): a shuffled deck; seat 0, seat 1 and the face-down public card
        take its first three cards; both seats ante (LH-2.2); seat 0 acts (LH-3.1)."""
        rng = random.Random(seed)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        ante = self.config.ante
        return LeducHoldemState(
            rng=rng, phase=int(Phase.ROUND_1), player=0, hands=deck[:2], public=deck[2],
            pot=[ante, ante], raises=0, history=[[NO_ACTION] * SLOTS, [NO_ACTION] * SLOTS],
            folded=-1)

    def _legal_actions(self, state: LeducHoldemState) -> list[int]:
        if state.phase == Phase.OVER:
            return []
        p = state.player
        legal = [A_FOLD, A_CALL] if state.pot[p] < state.pot[1 - p] else [A_CALL]  # LH-3.2
        if state.raises < self.config.max_raises:  # LH-3.3
            legal.append(A_RAISE)
        return legal

    def _apply_action(self, state: LeducHoldemState, action: int) -> None:
        p, r = state.player, state.phase
        other = 1 - p
        row = state.history[r]
        slot = row.index(NO_ACTION)
        row[slot] = action
        if action == A_FOLD:  # LH-3.2
            state.folded = p
            state.phase = int(Phase.OVER)
            return
        if action == A_CALL:
            state.pot[p] = state.pot[other]
            if slot >= 1:  # LH-3.5: a call after the first action closes the round
                if r == Phase.ROUND_1:
                    state.phase, state.player, state.raises = int(Phase.ROUND_2), 0, 0  # LH-2.4
                else:
                    state.phase = int(Phase.OVER)  # LH-4.1: the showdown
                return
        else:  # LH-3.4
            state.pot[p] = state.pot[other] + self.config.raise_sizes[r]
            state.raises += 1
        state.player = other

    def is_truncated(self, state: LeducHoldemState) -> bool:
        """Never: every game ends by a fold or a showdown within ``max_game_length``."""
        return False

    def returns(self, state: LeducHoldemState) -> list[float]:
        """Chips won, per seat (LH-5.1): the winner gets what the loser put in, the loser loses
        it; a split pot gives 0 each (LH-4.4); zeros before the end."""
        if state.phase != Phase.OVER:
            return [0.0, 0.0]
        if state.folded >= 0:
            loser = state.folded
        else:
            s0 = hand_strength(state.hands[0], state.public)
            s1 = hand_strength(state.hands[1], state.public)
            if s0 == s1:
                return [0.0, 0.0]
            loser = 0 if s0 < s1 else 1
        chips = float(state.pot[loser])
        return [-chips, chips] if loser == 0 else [chips, -chips]

    def _resample_hidden(self, s: LeducHoldemState, player: int, rng: random.Random) -> None:
        """The opponent's card (unless shown at a showdown) and the public card (until turned)
        redrawn from ``rng`` among the cards ``player`` has not seen."""
        other = 1 - player
        showdown = s.phase == Phase.OVER and s.folded < 0
        shown = public_shown(s)
        if showdown:
            return
        seen = {s.hands[player]} | ({s.public} if shown else set())
        pool = [c for c in range(NUM_CARDS) if c not in seen]
        rng.shuffle(pool)
        s.hands[other] = pool[0]
        if not shown:
            s.public = pool[1]


def make_game(**config: Any) -> LeducHoldemGame:
    """Build Leduc Hold'em from :class:`LeducHoldemConfig` fields (ConfigError naming a bad
    one)."""
    return LeducHoldemGame(config_from_kwargs(LeducHoldemConfig, config))
