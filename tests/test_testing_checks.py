"""The conformance checker itself: the toy game passes it, and small broken toy games fail it, each
with a message naming the broken property."""

from __future__ import annotations

import random

import numpy as np
import pytest

from card_envs.core.errors import StateError
from card_envs.testing import ConformanceError, check_game, check_state_mutations
from card_envs.testing.toy_game import MAX_PILE, PerfectBot, ToyNimConfig, ToyNimGame


def test_the_toy_game_passes():
    for cfg in (ToyNimConfig(), ToyNimConfig(num_players=3), ToyNimConfig(hidden_bonus=False)):
        counts = check_game(ToyNimGame(cfg), games=8, heuristic=PerfectBot)
        assert counts["games"] == 8 and counts["terminal"] == 8 and counts["decisions"] >= 8 * 3


@pytest.mark.parametrize("pile", [10, 15, 20, 25, 30])
def test_the_toy_game_passes_with_the_guides_configs(pile):
    """docs/adding_a_game.md's example, ``check_game(make_game(num_players=3, pile=25))``, and
    its neighbours: the state check names both fields of a bonus card taken but owned by nobody
    (once, with ``pile=25``, the mutation walk's refusal named ``bonus_at`` only)."""
    counts = check_game(ToyNimGame(ToyNimConfig(num_players=3, pile=pile)), games=20)
    assert counts["games"] == 20 and counts["terminal"] == 20


def test_a_short_game_gets_the_mutation_walk_and_the_mid_game_reload():
    """Games of 2-4 decisions (a pile of 4, at most 3 cards a take) end before decision 10:
    check_game saves each at its middle decision, replays the rest on the loaded copy, and runs
    the mutation walk there; the counts say so."""
    counts = check_game(ToyNimGame(ToyNimConfig(pile=4)), games=6)
    assert counts["decisions"] < 6 * 10
    assert counts["mutation_walks"] == 1 and counts["mid_game_reloads"] == 6


class VagueStateCheck(ToyNimGame):
    """A bug only the mutation walk sees: the state check refuses a broken state without naming
    the field it found broken."""

    def check_state(self, state):
        try:
            super().check_state(state)
        except StateError:
            raise StateError("invalid state") from None


def test_a_bug_in_a_short_game_fails_check_game():
    game = VagueStateCheck(ToyNimConfig(pile=4))
    with pytest.raises(ConformanceError, match=r"middle of a \d-decision game.*does not name"):
        check_game(game, games=3, heuristic=PerfectBot)
    # the same game passes with the walk switched off: only the walk sees this bug
    assert check_game(game, games=3, heuristic=PerfectBot,
                      mutations=False)["mutation_walks"] == 0


def test_the_toy_game_passes_the_mutation_walk():
    game = ToyNimGame(ToyNimConfig())
    state = game.new_state(1)
    game.apply_action(state, 0)
    counts = check_state_mutations(game, state)
    assert counts["mutations"] == counts["refused"] + counts["loaded"] > 3000


class SharedListClone(ToyNimGame):
    def clone(self, state):
        c = super().clone(state)
        c.taken = state.taken  # shares a list
        return c


class ReadsHiddenObservation(ToyNimGame):
    def observe(self, state, player):
        obs = super().observe(state, player)
        obs[5] = max(state.bonus_at, 0) / MAX_PILE  # where the hidden bonus card lies
        return obs


class PeekingSampleHidden(ToyNimGame):
    def sample_hidden(self, state, player, rng):
        s = super().sample_hidden(state, player, rng)
        if state.bonus_owner < 0 and state.bonus_at > 0 and state.pile > 1:
            # a "resample" that starts from the real hidden position (shuffling a pool in its
            # true order, in a card game): the result depends on what the seat cannot know
            s.bonus_at = 1 + (state.bonus_at + rng.randrange(2)) % state.pile
        return s


class NotZeroSum(ToyNimGame):
    def returns(self, state):
        r = super().returns(state)
        return [max(x, 0.0) for x in r]  # losers get 0: not zero-sum


class OutOfBounds(ToyNimGame):
    def observe(self, state, player):
        obs = super().observe(state, player)
        obs[0] = state.pile / 5  # a pile of 10 shows 2.0 > observation_high
        return obs


class AcceptsIllegal(ToyNimGame):
    def apply_action(self, state, action):  # skips the core's checks
        state.legal_cache = None
        self._apply_action(state, int(action) % 3)


class CoercesFloats(ToyNimGame):
    def apply_action(self, state, action):
        if isinstance(action, float) and action.is_integer():
            action = int(action) % self.num_actions
        super().apply_action(state, action)


class UnsavedField(ToyNimGame):
    """Keeps part of its state outside the declaration: a saved copy plays on differently."""

    def new_state(self, seed):
        s = super().new_state(seed)
        self.extra = random.Random(seed)
        return s

    def _apply_action(self, state, action):
        super()._apply_action(state, action)
        if self.extra.random() < 0.5:
            state.rng.random()


@pytest.mark.parametrize("cls, pattern", [
    (SharedListClone, "clone shares mutable data"),
    (ReadsHiddenObservation, "observation reads hidden information"),
    (PeekingSampleHidden, "sample_hidden.* reads more than seat"),
    (NotZeroSum, "not zero-sum"),
    (OutOfBounds, "outside the declared bounds"),
    (AcceptsIllegal, "was accepted"),
    (CoercesFloats, r"illegal action 3\.0 was accepted"),
    (UnsavedField, "differently"),
])
def test_broken_games_fail_naming_the_property(cls, pattern):
    with pytest.raises(ConformanceError, match=pattern):
        check_game(cls(ToyNimConfig(num_players=3)), games=6, heuristic=PerfectBot)


class WeakCheckState(ToyNimGame):
    def check_state(self, state):  # accepts anything the declaration allows
        return None


def test_a_weak_check_state_fails_the_mutation_walk():
    game = WeakCheckState(ToyNimConfig())
    state = game.new_state(1)
    game.apply_action(state, 0)
    with pytest.raises(ConformanceError, match="loaded, but then|accepted"):
        check_state_mutations(game, state)


def test_bot_reading_hidden_information_fails():
    class Cheat(PerfectBot):
        def act(self, game, state, player):
            return 0 if state.bonus_at % 2 else super().act(game, state, player)

    with pytest.raises(ConformanceError, match="heuristic bot .* reads hidden information"):
        check_game(ToyNimGame(ToyNimConfig()), games=10, heuristic=Cheat)


def test_numpy_actions_are_stored_as_plain_ints():
    game = ToyNimGame(ToyNimConfig())
    state = game.new_state(0)
    game.apply_action(state, np.int64(2))
    assert type(state.pile) is int and state.taken == [3, 0]


def test_auto_heuristic_is_the_game_folders_bot_and_a_game_outside_a_folder_is_told():
    from card_envs.testing import toy_game
    from card_envs.testing.conformance import _heuristic_factory

    assert _heuristic_factory(ToyNimGame(ToyNimConfig()), "auto") is toy_game.bot.HeuristicBot

    class Elsewhere(ToyNimGame):  # defined in a test module, not in a game folder's rules.py
        pass

    with pytest.raises(ConformanceError, match="not a game folder's rules.py"):
        check_game(Elsewhere(ToyNimConfig()), games=1)


def test_the_template_env_module_documents_its_layouts_and_passes_api_test():
    from pettingzoo.test import api_test

    from card_envs.testing import toy_nim_v0
    from card_envs.testing.toy_game.constants import ACTIONS
    from card_envs.testing.toy_game.observation import ENTITIES, OBSERVATION

    doc = toy_nim_v0.__doc__
    assert ACTIONS.markdown() in doc and OBSERVATION.markdown() in doc
    assert ENTITIES.markdown() in doc and "Observation modes" in doc
    assert f"float32 ({OBSERVATION.size},)" in doc and f"Discrete({ACTIONS.size})" in doc
    api_test(toy_nim_v0.env(num_players=3), num_cycles=100)
    api_test(toy_nim_v0.env(num_players=3, observation_mode="entities"), num_cycles=100)
