"""The conformance checker itself: the toy game passes it, and small broken toy games fail it, each
with a message naming the broken property."""

from __future__ import annotations

import random

import numpy as np
import pytest

from card_envs.core.errors import StateError
from card_envs.testing import ConformanceError, check_game, check_state_mutations
from card_envs.testing.conformance import SkippedCheckWarning
from card_envs.testing.toy_game import MAX_PILE, PerfectBot, ToyNimConfig, ToyNimGame
from card_envs.testing.toy_game.constants import Phase


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
    with pytest.raises(ConformanceError,
                       match=r"middle of a \d-decision game.*(does not name|names no field)"):
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


# -- short games, skipped checks, variable-length state fields (issue 23) ------------------------
def test_a_game_of_one_decision_says_which_checks_it_could_not_run():
    """A pile of 1: every game is one decision (take 1), so no state lies between the start and
    the end to save mid-game or to mutate; check_game says so in its result and warns."""
    with pytest.warns(SkippedCheckWarning) as warned:
        counts = check_game(ToyNimGame(ToyNimConfig(pile=1)), games=3, heuristic=PerfectBot)
    assert (counts["decisions"], counts["mid_game_reloads"], counts["mutation_walks"],
            counts["action_checks"]) == (3, 0, 0, 3)
    assert counts["skipped"] == [
        "mid-game save/reload: ran on 0 of 3 games (the others had fewer than 2 decisions)",
        "mutation walk (check_state_mutations): no game had 2 decisions or more",
        "pickle / deepcopy of the env: no env_factory given"]
    assert [str(w.message) for w in warned] == [
        f"check_game skipped a check: {text}" for text in counts["skipped"][:2]]


def test_checks_switched_off_by_an_argument_are_listed_not_warned(recwarn):
    from card_envs.testing import toy_nim_v0

    game = ToyNimGame(ToyNimConfig(pile=12))
    full = check_game(game, games=2, heuristic=PerfectBot,
                      env_factory=lambda: toy_nim_v0.env())
    assert full["skipped"] == [] and full["mutation_walks"] == 1
    counts = check_game(game, games=2, heuristic=None, mutations=False, max_decisions=2)
    assert counts["terminal"] == 0  # a pile of 12 lasts at least 4 decisions
    assert counts["skipped"] == [
        "mutation walk (check_state_mutations): switched off (mutations=False)",
        "the heuristic bot reads no hidden information: no bot (heuristic=None)",
        "pickle / deepcopy of the env: no env_factory given",
        "end-of-game checks (final returns, zero-sum): 2 of 2 games stopped at max_decisions "
        "before their end"]
    assert not [w for w in recwarn if issubclass(w.category, SkippedCheckWarning)]


def test_the_action_refusals_run_on_games_shorter_than_four_decisions():
    """A bug in the refusal of malformed actions (3.0 taken as 3 % 3 = 0) in games of 1-2
    decisions (a pile of 2): check_game used to check refusals at decision 3 only; it now checks
    them at the last decision of a shorter game."""
    with pytest.raises(ConformanceError, match=r"decision \d \(the last of a short game\): "
                                               r"illegal action 3\.0 was accepted"):
        check_game(CoercesFloats(ToyNimConfig(pile=2)), games=3, heuristic=PerfectBot)


def test_a_variable_length_log_passes_the_mutation_walk(monkeypatch):
    """Toy Chips (tests/toy_chips.py) keeps its betting as a log of 2-4 actions, declared
    variable-length. Deleting an entry is refused by the consistency check naming the field that
    then disagrees (``chips: [1, 2] is not what the betting gives ([2, 1])``), not the log's
    path: accepted with the declaration; without it the walk demands the path."""
    from card_envs.testing import mutations
    from toy_chips import A_BET, A_CHECK, make_game

    game = make_game()
    state = game.new_state(3)
    game.apply_action(state, A_CHECK)
    game.apply_action(state, A_BET)
    assert state.log == [A_CHECK, A_BET] and state.chips == [1, 2]
    assert mutations.variable_length_fields(type(state)) == {"log"}
    counts = check_state_mutations(game, state, rng_leaves=4)
    assert counts["mutations"] == counts["refused"] + counts["loaded"]
    monkeypatch.setattr(mutations, "variable_length_fields", lambda cls: frozenset())
    with pytest.raises(ConformanceError, match=r"^log\[0\] deleted: refused, but the error "
                       r"message does not name the field's path \('log\[0\]' or 'log'\): chips: "
                       r"\[1, 2\] is not what the betting gives \(\[2, 1\]\); a field whose "
                       r"length varies in play is declared with "
                       r"field\(metadata=\{'variable_length': True\}\)$"):  # the declaration removed
        check_state_mutations(game, state, rng_leaves=4)


def test_an_entry_of_a_variable_length_field_may_be_deleted_and_load():
    """A history the rules only read back (here: Toy Chips whose state check does not compare
    the log with the chips) may lose an entry and load: the walk then plays the loaded state to
    the end. Everywhere else a deletion must still be refused."""
    from toy_chips import A_BET, ToyChipsGame, make_game, replay

    class LooseLog(ToyChipsGame):
        def check_state(self, state):
            replay(state.log, self.config.max_bets)  # a legal log, not compared with the rest
            if len(state.cards) != 2 or state.cards[0] == state.cards[1]:
                raise StateError(f"cards: {state.cards} are not two cards")
            if len(state.chips) != 2:
                raise StateError(f"chips: {state.chips} are not two counts")

    game = LooseLog(make_game().config)
    state = game.new_state(1)
    game.apply_action(state, A_BET)
    counts = check_state_mutations(game, state, rng_leaves=4)
    assert counts["loaded"] >= 1

    class LooserLog(LooseLog):  # a deleted count of chips (not variable-length) loads: refused
        def check_state(self, state):
            replay(state.log, self.config.max_bets)

    with pytest.raises(ConformanceError, match=r"^cards\[0\] deleted: accepted"):
        check_state_mutations(LooserLog(game.config), state, rng_leaves=4)


def test_a_variable_length_declaration_on_a_non_list_field_is_named():
    import dataclasses

    from card_envs.core.state import GameState
    from card_envs.testing.mutations import variable_length_fields

    @dataclasses.dataclass(slots=True, eq=False)
    class Bad(GameState):
        pot: int = dataclasses.field(metadata={"variable_length": True})

    with pytest.raises(ConformanceError, match=r"Bad\.pot is declared variable_length but is "
                                               "not a saved list field"):
        variable_length_fields(Bad)


def test_a_refusal_of_a_change_that_may_load_names_some_field():
    """A nudge (``pile`` 10 -> 11) may be refused by a consistency check naming another field
    (``taken``); one naming no field at all (``invalid state``) fails the walk."""

    class Vague(ToyNimGame):
        def check_state(self, state):
            try:
                super().check_state(state)
            except StateError as exc:
                if "sums to" in str(exc):
                    raise StateError("invalid state") from None
                raise

    game = Vague(ToyNimConfig())
    with pytest.raises(ConformanceError, match=r"set to \d+: refused, but the message names no "
                                               "field of the state: invalid state"):
        check_state_mutations(game, game.new_state(1), rng_leaves=4)


class EnumPhase(ToyNimGame):
    """Stores the phase enum member, as the template once did (and a game copied from it): the
    saved state holds the int, so a loaded state and the live one compare differently."""

    def _apply_action(self, state, action):
        super()._apply_action(state, action)
        if state.phase == Phase.OVER:
            state.phase = Phase.OVER


def test_an_enum_member_in_a_state_field_fails_naming_it():
    with pytest.raises(ConformanceError, match=r"state field phase holds <Phase.OVER: 1>, a "
                                               r"Phase: store plain values"):
        check_game(EnumPhase(ToyNimConfig(pile=4)), games=2, heuristic=PerfectBot)
