"""Facts and capabilities as data (issue 19): every game declares its facts
(:class:`card_envs.core.game.GameFacts`), the optional hooks are declared capabilities with
defaults on ``GameBase``, the balance protocol is a mixin, the abstract members are abstract, no
code in ``card_envs/`` probes a game hook with ``getattr``/``hasattr``, and ``check_game`` fails
a game that declares a false fact."""

from __future__ import annotations

import dataclasses
import pathlib
import re

import pytest

from card_envs.core.balance import BalanceMixin
from card_envs.core.game import GameBase, GameFacts
from card_envs.core.registry import make_game
from card_envs.dirt_and_glory.state import MAX_TOKENS
from card_envs.testing import ConformanceError, check_game
from card_envs.testing.facts import check_facts
from card_envs.testing.toy_game import PerfectBot, ToyNimConfig, ToyNimGame

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "card_envs"

#: the hooks of the game contract that code must call, never probe
HOOKS = ("potential", "lookahead_horizon", "balance_deal", "balance_config", "balance_card_names",
         "cards_in_set", "card_played", "starting_player", "is_truncated", "render_view",
         "table_view", "action_seen_by", "sample_hidden", "check_state", "returns",
         "return_bounds", "facts")
PROBE = re.compile(r"\b(?:getattr|hasattr)\(.*[\"'](" + "|".join(HOOKS) + r")[\"']")


def test_no_getattr_or_hasattr_probe_of_a_game_hook_in_the_package():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for i, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if PROBE.search(line) or re.search(r"\bgetattr\(GameBase\b", line):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{i}: {line.strip()}")
    assert not found, "game hooks probed instead of read from game.facts:\n" + "\n".join(found)


def test_the_probe_pattern_catches_the_old_probes():
    # the lines the issue found (bots/lookahead.py, evaluation/balance.py, wrappers/...)
    for line in ('horizon = getattr(game, "lookahead_horizon", None)',
                 "if shaping and not hasattr(game, 'potential'):",
                 'starter = getattr(game, "starting_player", _never)(state)',
                 'truncated = bool(getattr(game, "is_truncated", _never)(state))'):
        assert PROBE.search(line), line
    assert not PROBE.search('name = getattr(policy, "name", "policy")')


FACTS = {  # config, seats, (utility range, units), max_game_length, balance, hooks, perfect info
    "garda3": ({"variant": "free_for_all"}, 3, (-1.0, 1.0, "win/loss"), 20_000, False, True,
               False),
    "scratch_wars": ({}, 2, (-1.0, 1.0, "win/loss"), 20_000, True, True, True),  # no hidden cards
    # None: the game's own bound from its content (checked by check_game)
    "dirt_and_glory": ({"num_players": 3, "reward": "score"}, 3,
                       (-float(MAX_TOKENS), float(MAX_TOKENS), "score"), None, False, True, False),
    # RB-7.4: max_turns (500) × (4 positions + 4) + 10
    "rust_brawl": ({}, 2, (-1.0, 1.0, "win/loss"), 500 * 8 + 10, True, True, False),
    # LH-5.3: ante 1 + two bets of 2 in round 1 + two of 4 in round 2 = 13 chips at most; a round
    # has at most 4 decisions (check, bet, raise, call): 8; no lookahead hooks, no balance
    "leduc_holdem": ({}, 2, (-13.0, 13.0, "chips"), 8, False, False, False),
}


def test_every_game_of_the_package_has_its_hand_computed_facts_here():
    from card_envs.core.registry import GAMES, available_games

    ours = [name for name in available_games() if GAMES[name].startswith("card_envs.")]
    assert sorted(FACTS) == sorted(ours)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_every_game_declares_its_facts(name):
    config, seats, (low, high, units), length, balance, hooks, perfect = FACTS[name]
    game = make_game(name, **config)
    facts = game.facts
    assert isinstance(facts, GameFacts) and facts is game.facts  # built once per game object
    assert (facts.name, facts.num_players) == (name, seats)
    assert (facts.min_utility, facts.max_utility, facts.utility) == (low, high, units)
    assert facts.zero_sum and facts.chance  # shuffles, deals or spins (G-3.1, SW spins, ...)
    assert facts.perfect_information == perfect
    assert facts.max_game_length == (length or game.max_game_length)
    assert facts.provides_potential == facts.provides_lookahead_horizon == hooks
    assert facts.provides_balance == balance == isinstance(game, BalanceMixin)
    with pytest.raises(dataclasses.FrozenInstanceError):
        facts.zero_sum = False  # type: ignore[misc]
    check_facts(game)


def test_win_reward_of_dirt_and_glory_is_a_win_loss_utility():
    # DG-4.2 reward="win": (W_i - 1/n)·n/(n-1) lies in [-1/(n-1), 1]
    facts = make_game("dirt_and_glory", num_players=4).facts
    assert (facts.min_utility, facts.max_utility, facts.utility) == (-1.0, 1.0, "win/loss")


def test_the_toy_game_declares_no_optional_hook_and_chance_with_its_bonus_card():
    game = ToyNimGame(ToyNimConfig())
    assert not game.facts.provides_potential and not game.facts.provides_lookahead_horizon
    assert game.potential(game.new_state(0), 0) == 0.0  # GameBase's "none" defaults
    assert game.lookahead_horizon(game.new_state(0)) is None
    assert game.facts.chance and not ToyNimGame(ToyNimConfig(hidden_bonus=False)).facts.chance
    assert game.facts.max_game_length == ToyNimConfig().max_rounds == 100


def test_gamebase_keeps_no_balance_stubs_and_is_abstract():
    for hook in ("balance_deal", "balance_config", "cards_in_set", "card_played",
                 "balance_card_names", "starting_player"):
        assert not hasattr(GameBase, hook), hook
    with pytest.raises(TypeError, match="abstract"):
        GameBase()  # type: ignore[abstract]
    assert {"new_state", "is_truncated", "returns", "_resample_hidden", "_legal_actions",
            "_apply_action", "state_checks"} <= GameBase.__abstractmethods__
    # derived by the core from the common state fields and the declared hooks
    assert not {"current_player", "is_terminal", "sample_hidden", "check_state"} & \
        GameBase.__abstractmethods__

    class Unfinished(GameBase):
        def new_state(self, seed):
            return None

    with pytest.raises(TypeError, match="_apply_action"):
        Unfinished()  # type: ignore[abstract]


def test_a_game_without_a_declared_fact_is_named():
    abstract = {name: (lambda self, *args: None) for name in GameBase.__abstractmethods__}
    bare = type("Bare", (GameBase,), {**abstract, "name": "bare", "num_players": 2})()
    with pytest.raises(TypeError, match="Bare .bare. declares no 'min_utility'"):
        bare.facts  # noqa: B018
    with pytest.raises(ConformanceError, match="facts: Bare .bare. declares no 'min_utility'"):
        check_facts(bare)


# -- false facts fail check_game ---------------------------------------------------------------
class ClaimsZeroSum(ToyNimGame):
    """Declares zero_sum (the default claim) while the losers get 0."""

    def returns(self, state):
        return [max(r, 0.0) for r in super().returns(state)]


class NarrowUtility(ToyNimGame):
    """The winner gets +1, the declared range ends at 0.5."""

    max_utility = 0.5


class ShortGame(ToyNimGame):
    """A pile of 10 taken 1..3 at a time lasts at least 4 decisions; declares 3."""

    def __init__(self, config):
        super().__init__(config)
        self.max_game_length = 3


class NoChance(ToyNimGame):
    """Declares no chance although the bonus card's position is drawn from the seed."""

    def __init__(self, config):
        super().__init__(config)
        self.chance = False


class PotentialNotDeclared(ToyNimGame):
    """Implements potential() but does not declare it."""

    def potential(self, state, player):
        return 0.0


class PotentialOutOfRange(ToyNimGame):
    provides_potential = True

    def potential(self, state, player):
        return float(state.pile)  # 10 at the start: outside [-1, 1]


class UnhashableHorizon(ToyNimGame):
    provides_lookahead_horizon = True

    def lookahead_horizon(self, state):
        return [state.decisions]


class UnstableHorizon(ToyNimGame):
    provides_lookahead_horizon = True

    def lookahead_horizon(self, state):
        self.calls = getattr(self, "calls", 0) + 1
        return self.calls


class UnknownUnits(ToyNimGame):
    utility = "points"


@pytest.mark.parametrize("cls, config, pattern", [
    (ClaimsZeroSum, ToyNimConfig(num_players=3), r"not zero-sum \(the game declares zero_sum\)"),
    (NarrowUtility, ToyNimConfig(), r"outside the declared utility range \[-1.0, 0.5\]"),
    (ShortGame, ToyNimConfig(pile=10), "goes on after max_game_length = 3 decisions"),
    (NoChance, ToyNimConfig(pile=12), "facts.chance = False, but seeds 0 and 1 play differently"),
    (PotentialNotDeclared, ToyNimConfig(), "provides_potential = False, but the game implements"),
    (PotentialOutOfRange, ToyNimConfig(), r"potential\(state, 0\) = 10.0 is not a number in"),
    (UnhashableHorizon, ToyNimConfig(), "lookahead_horizon = .0. is not hashable"),
    (UnstableHorizon, ToyNimConfig(), "lookahead_horizon is not stable"),
    (UnknownUnits, ToyNimConfig(), "facts.utility = 'points'"),
])
def test_a_false_fact_fails_check_game(cls, config, pattern):
    with pytest.raises(ConformanceError, match=pattern):
        check_game(cls(config), games=6, heuristic=PerfectBot)


#: Garda3 (whatever its class is named) declaring perfect information
OpenGarda3 = type("OpenGarda3", (type(make_game("garda3")),),
                  {"perfect_information": True, "__module__": __name__})


def test_hidden_hands_declared_perfect_information_fail_check_game():
    # Garda3 hands are hidden from the other seats (G-3.1): sampling them for seat p changes
    # the other seat's observation
    with pytest.raises(ConformanceError, match="declares perfect_information, but sample_hidden "
                                               "for seat . changes seat .'s observation"):
        check_game(OpenGarda3(make_game("garda3").config), games=1, heuristic=None,
                   mutations=False)


def test_the_true_facts_pass_check_game():
    for config in (ToyNimConfig(), ToyNimConfig(hidden_bonus=False), ToyNimConfig(num_players=4)):
        assert check_game(ToyNimGame(config), games=4, heuristic=PerfectBot)["terminal"] == 4
