"""The OpenSpiel bridge (card_envs.wrappers.openspiel): OpenSpiel's random simulation test on
every game, the bridge in lockstep with our Game API, the perfect-recall information state,
resampling, errors, and OpenSpiel's ISMCTS through it (slow: the 50-game match).

Needs the ``openspiel`` extra; under ``CI=true`` a missing pyspiel fails these tests (never a
silent skip)."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import pickle
import random
import re
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("CI", "").lower() == "true":
    import pyspiel  # CI installs every extra: a missing one is a failure
else:
    pyspiel = pytest.importorskip(
        "pyspiel",
        reason='the openspiel extra is not installed: pip install "card-envs[openspiel]"')

from card_envs.bots import RandomBot
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.extras import MissingExtraError
from card_envs.core.registry import available_games, make_game
from card_envs.evaluation import play_game, play_match
from card_envs.wrappers import openspiel as osb
from env_helpers import registered_games

GAMES = registered_games()
#: every game with its default config, and configs that change the seat count or the reward
CONFIGS = [(name, {}) for name in GAMES] + [
    ("garda3", {"variant": "free_for_all+night"}),
    ("garda3", {"variant": "royale+resurrection"}),
    ("dirt_and_glory", {"num_players": 4, "reward": "score"}),
]


def test_module_docstring_is_the_spec():
    """The parameter table lists the parameters and defaults the games declare; the observation
    table names the tensor pieces the observers give."""
    doc = osb.__doc__
    table = doc.split("Game parameters")[1].split("Game type and info")[0]
    rows = re.findall(r"^``(\w+)``\s+(\w+), ``([^`]+)``", table, flags=re.MULTILINE)
    assert {name: (kind, default) for name, kind, default in rows} == {
        name: (type(value).__name__, str(value)) for name, value in osb._DEFAULT_PARAMS.items()}
    game = osb.load_game("garda3")
    by_name = {t.short_name: t for t in pyspiel.registered_games()}
    assert by_name["card_envs_garda3"].parameter_specification == osb._DEFAULT_PARAMS
    default = game.make_py_observer()
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert list(default.dict) == ["observation"] and list(info.dict) == [
        "observation", "own_actions"]
    for piece in ("``\"observation\"``", "``\"own_actions\"``"):
        assert piece in doc
    assert "chance_mode`` **SAMPLED_STOCHASTIC**" in doc
    # the extra's pin (pyproject.toml) is the version named here and the one installed
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    (pin,) = pyproject["project"]["optional-dependencies"]["openspiel"]
    assert pin == f"open_spiel=={importlib.metadata.version('open_spiel')}"
    assert f"``{pin}``" in doc


def test_missing_extra_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "card_envs.wrappers.openspiel")
    with pytest.raises(MissingExtraError, match=re.escape(
            'card_envs.wrappers.openspiel needs the "openspiel" extra: '
            'pip install "card-envs[openspiel]" (not installed: pyspiel)')):
        importlib.import_module("card_envs.wrappers.openspiel")


def _id(case):
    name, config = case
    return name + "".join(f"-{k}={v}" for k, v in config.items())


def test_every_registry_game_is_registered_with_openspiel_at_import():
    assert {f"card_envs_{name}" for name in available_games()} <= set(osb.registered_names())


@pytest.mark.parametrize("name", GAMES)
def test_the_openspiel_game_of_every_game_reads_its_declared_facts(name):
    """The game type and info of every game: its utility range and zero-sum from its declared
    facts (Toy Chips: ±3 chips), never assumed ±1. A game registered after the bridge's import
    (the tests' Toy Chips) is registered by ``register``, then known to ``pyspiel``."""
    assert osb.register(name) == f"card_envs_{name}"
    by_name = {t.short_name: t for t in pyspiel.registered_games()}
    card = make_game(name)
    game_type = by_name[f"card_envs_{name}"]
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.utility == (pyspiel.GameType.Utility.ZERO_SUM if card.facts.zero_sum
                                 else pyspiel.GameType.Utility.GENERAL_SUM)
    # every game, Scratch Wars (every card public) too: the bridge state holds the future
    # chance outcomes (module docstring)
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    game = pyspiel.load_game(f"card_envs_{name}")
    assert game.num_distinct_actions() == card.num_actions
    assert game.num_players() == card.num_players
    assert game.max_game_length() == card.max_game_length
    assert game.max_chance_outcomes() == 0
    assert game.observation_tensor_shape() == list(card.observation_shape)
    assert game.information_state_tensor_shape() == [
        card.observation_shape[0] + osb.DEFAULT_HISTORY_SLOTS * card.num_actions]
    assert (game.min_utility(), game.max_utility()) == (card.facts.min_utility,
                                                        card.facts.max_utility)
    if card.facts.utility == "win/loss":  # a win/loss game: exactly ±1
        assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    if name == "toy_chips":  # the tests' chip game: up to 3 chips won or lost
        assert (game.min_utility(), game.max_utility()) == (-3.0, 3.0)


def test_the_game_type_reads_the_declared_zero_sum_fact():
    """``utility`` is ZERO_SUM from ``facts.zero_sum`` (every shipped game declares it), and a
    game declaring it false is GENERAL_SUM; the seat range is the named wide one."""
    from card_envs.testing.toy_game import ToyNimConfig, ToyNimGame

    class GeneralSum(ToyNimGame):
        zero_sum = False

    utility = pyspiel.GameType.Utility
    assert osb._game_type("toy", ToyNimGame(ToyNimConfig())).utility == utility.ZERO_SUM
    general = osb._game_type("toy", GeneralSum(ToyNimConfig()))
    assert general.utility == utility.GENERAL_SUM
    assert (general.min_num_players, general.max_num_players) == (
        osb.TYPE_MIN_PLAYERS, osb.TYPE_MAX_PLAYERS) == (1, 16)


@pytest.mark.parametrize("case", CONFIGS, ids=_id)
def test_openspiel_random_simulation_test(case):
    """OpenSpiel's own checks of a game (clone equality, legal actions sorted and empty for the
    other seats, the legal-action mask, tensor sizes, returns inside the utility bounds, game
    length); serialize=False: a SAMPLED_STOCHASTIC Python game cannot give OpenSpiel the game
    RNG state its game-and-state serialization asks for (state.serialize() works: below)."""
    name, config = case
    game = osb.load_game(name, **config)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("case", CONFIGS, ids=_id)
def test_bridge_and_game_api_stay_in_sync(case):
    """An OpenSpiel state and our state dealt with the same seed, driven by the same random
    actions: the same seat to act, legal actions, every seat's observation (bit for bit), the
    same saved state at every decision and the same returns at the end."""
    name, config = case
    game = osb.load_game(name, **config)
    card = make_game(name, **config)
    for seed in range(2):
        ours = card.new_state(seed)
        theirs = game.new_initial_state_for_seed(seed)
        rng = random.Random(seed)
        while True:
            cp = card.current_player(ours)
            assert theirs.current_player() == (pyspiel.PlayerId.TERMINAL if cp == -1 else cp)
            assert theirs.is_terminal() == card.is_terminal(ours)
            assert theirs.legal_actions() == card.legal_actions(ours)
            for p in range(card.num_players):
                obs = np.asarray(theirs.observation_tensor(p), dtype=np.float32)
                assert np.array_equal(obs, card.observe(ours, p))
            assert card.state_to_dict(theirs.game_state) == card.state_to_dict(ours)
            if card.is_terminal(ours):
                break
            action = rng.choice(card.legal_actions(ours))
            assert theirs.action_to_string(cp, action) == card.action_to_string(ours, action)
            card.apply_action(ours, action)
            theirs.apply_action(action)
        assert theirs.returns() == card.returns(ours)
        assert theirs.rewards() == card.returns(ours)
        if card.facts.zero_sum:
            assert sum(theirs.returns()) == pytest.approx(0.0)


class _FirstLegal:
    """Our policy: the lowest legal action."""

    name = "first"

    def act(self, game, state, player):
        return game.legal_actions(state)[0]


class _FirstLegalBot(pyspiel.Bot):
    """An OpenSpiel bot: the lowest legal action of the OpenSpiel state."""

    def step(self, state):
        return state.legal_actions()[0]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_bot_as_an_evaluation_policy(name):
    """card_envs.evaluation plays an OpenSpiel bot through OpenSpielPolicy: a bot that takes the
    lowest legal action of the OpenSpiel state plays the game our lowest-legal policy plays
    (same returns, same final state), and a match against random counts every game."""
    game = osb.load_game(name)
    card = game.card_game
    bot = osb.OpenSpielPolicy(_FirstLegalBot(), game, name="first-openspiel")
    for seed in (3, 4):
        r1, s1, n1 = play_game(card, [bot] + [_FirstLegal()] * (card.num_players - 1), seed)
        r2, s2, n2 = play_game(card, [_FirstLegal()] * card.num_players, seed)
        assert (r1, n1) == (r2, n2)
        assert card.state_to_dict(s1) == card.state_to_dict(s2)
    result = play_match(card, bot, RandomBot(0), n_games=4)
    assert result.n == 4 and sorted(result.per_seat) == list(range(card.num_players))


def test_openspiel_rl_environment_and_evaluate_bots_run_a_game():
    """OpenSpiel's RL environment plays a Garda3 deal to the end with the info-state tensor of
    the documented size and the game's returns as the final rewards; evaluate_bots returns the
    returns of the state it played."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    game = osb.load_game("garda3", rng_seed=3)
    card = game.card_game
    env = rl_environment.Environment(game)
    step = env.reset()
    rng = np.random.RandomState(0)
    mirror, actions = card.new_state(3), 0
    while not step.last():
        p = step.observations["current_player"]
        assert step.observations["legal_actions"][p] == card.legal_actions(mirror)
        assert len(step.observations["info_state"][p]) == \
            card.observation_shape[0] + osb.DEFAULT_HISTORY_SLOTS * card.num_actions
        a = int(rng.choice(step.observations["legal_actions"][p]))
        card.apply_action(mirror, a)
        step = env.step([a])
        actions += 1
    assert step.rewards == card.returns(mirror) and actions > 20
    bots = [uniform_random.UniformRandomBot(p, np.random.RandomState(p)) for p in range(2)]
    state = game.new_initial_state_for_seed(8)
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(5))
    assert sorted(returns) == [-1.0, 1.0]


@pytest.mark.parametrize("name", GAMES)
def test_rllibs_openspiel_env_plays_a_bridged_game_with_illegal_actions(name):
    """issue 21: RLlib's ``OpenSpielEnv`` catches only ``pyspiel.SpielError`` for an illegal
    action (it then plays a random legal one and gives the mover -0.1); the bridge raised our
    IllegalActionError, so RLlib's OpenSpiel path failed on every bridged game. The bridge's
    error is now both (:class:`~card_envs.wrappers.openspiel.SpielIllegalActionError`): RLlib
    plays a few episodes with random actions over the whole action space, its penalty on every
    illegal one, the game's returns at the end."""
    pytest.importorskip("ray", reason='the rllib extra is not installed: '
                                      'pip install "card-envs[rllib]"')
    from ray.rllib.env.wrappers.open_spiel import OpenSpielEnv

    game = osb.load_game(name, rng_seed=4)
    env = OpenSpielEnv(game)
    rng = np.random.RandomState(0)
    np.random.seed(1)  # RLlib draws its replacement action from numpy's global generator
    illegal = 0
    for episode in range(30):  # two episodes, more while none had an illegal action
        if episode >= 2 and illegal:
            break
        obs, _ = env.reset()
        while True:
            (player,) = obs
            assert obs[player].shape == (game.observation_tensor_size(),)
            legal = env.state.legal_actions()
            action = int(rng.randint(game.num_distinct_actions()))
            obs, rewards, terminateds, _, _ = env.step({player: action})
            penalty = rewards[player] - (env.state.returns()[player])
            if action in legal:
                assert penalty == 0.0
            else:
                illegal += 1
                assert penalty == pytest.approx(-0.1)  # RLlib's illegal-action penalty
            if terminateds["__all__"]:
                break
        assert env.state.is_terminal() and obs == {}
        assert sorted(env.state.returns()) == sorted(game.card_game.returns(
            env.state.game_state))
    assert illegal > 0
    with pytest.raises(pyspiel.SpielError, match=f"^{game.card_game.name}: action 999 is "
                                                  "outside the action space"):
        game.new_initial_state().apply_action(999)


def test_openspiel_ismcts_plays_whole_scratch_wars_games():
    """issue 21: OpenSpiel's ISMCTS bot asserts an IMPERFECT_INFORMATION game, and Scratch Wars
    (every card public) was registered PERFECT_INFORMATION, so its first search hit a bare
    AssertionError. The bridge state holds the game's seeded RNG (the future spins, which no seat
    knows; ``resample_from_infostate`` reseeds it), so every game is registered
    IMPERFECT_INFORMATION: ISMCTS plays whole Scratch Wars games (level 3, both seats)."""
    game = osb.load_game("scratch_wars", rng_seed=2)
    for k in range(2):
        bots = [_ismcts(game, 10 * k + seat, simulations=4) for seat in range(2)]
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        assert decisions > 20 and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_deal_seeds_map_to_new_state():
    """rng_seed=s: the k-th state dealt plays new_state(s + k), in the order of first use; a
    clone taken before the first use is the same deal (not the next one)."""
    game = osb.load_game("garda3", rng_seed=40)
    card = game.card_game
    first, second = game.new_initial_state(), game.new_initial_state()
    copy_of_second = second.clone()  # second is dealt here: seed 40
    assert card.state_to_dict(second.game_state) == card.state_to_dict(card.new_state(40))
    assert card.state_to_dict(copy_of_second.game_state) == \
        card.state_to_dict(card.new_state(40))
    assert card.state_to_dict(first.game_state) == card.state_to_dict(card.new_state(41))
    # a pickled game deals on from the same counter
    copy_game = pickle.loads(pickle.dumps(game))
    assert card.state_to_dict(copy_game.new_initial_state().game_state) == \
        card.state_to_dict(card.new_state(42))
    assert card.state_to_dict(game.new_initial_state().game_state) == \
        card.state_to_dict(card.new_state(42))
    # equal games, equal deals
    a, b = osb.load_game("garda3", rng_seed=7), osb.load_game("garda3", rng_seed=7)
    assert str(a.new_initial_state()) == str(b.new_initial_state())


def _play(state, actions):
    for a in actions:
        state.apply_action(a)
    return state


def test_information_state_string_is_each_seats_record():
    """Garda3 (rule G3-2: the draft): seat p's information state is one line per event as p sees
    it, the digest of p's observation after it, and p's own actions in the tensor."""
    game = osb.load_game("garda3")
    card = game.card_game
    state = game.new_initial_state_for_seed(5)
    mirror = card.new_state(5)
    lines = {p: [f"seat {p} start obs={osb._digest(card.observe(mirror, p))}"] for p in (0, 1)}
    own = {0: [], 1: []}
    rng = random.Random(1)
    for _ in range(12):
        actor = card.current_player(mirror)
        a = rng.choice(card.legal_actions(mirror))
        seen = {p: card.action_seen_by(mirror, a, p) for p in (0, 1)}
        card.apply_action(mirror, a)
        state.apply_action(a)
        own[actor].append(a)
        for p in (0, 1):
            lines[p].append(f"seat {actor}: {seen[p]} obs={osb._digest(card.observe(mirror, p))}")
    for p in (0, 1):
        assert state.information_state_string(p) == "\n".join(lines[p])
        tensor = np.asarray(state.information_state_tensor(p), dtype=np.float32)
        size = card.observation_shape[0]
        assert np.array_equal(tensor[:size], card.observe(mirror, p))
        rows = tensor[size:].reshape(osb.DEFAULT_HISTORY_SLOTS, card.num_actions)
        assert rows.sum() == len(own[p])
        assert [int(np.flatnonzero(r)[0]) for r in rows[:len(own[p])]] == own[p]
    # the draft picks are public (G3-2): seat 1 sees seat 0's first pick named as seat 0 does
    assert lines[1][1].split(" obs=")[0] == lines[0][1].split(" obs=")[0]
    assert lines[1][1].startswith("seat 0: pick ")
    assert state.observation_string(1) == card.render_view(mirror, 1)


def test_information_state_tensor_keeps_the_first_history_slots():
    game = osb.load_game("garda3", history_slots=2)
    state = _play(game.new_initial_state_for_seed(0), [])
    card = game.card_game
    mine = []
    while len(mine) < 4:
        p = state.current_player()
        a = state.legal_actions()[-1]
        if p == 0:
            mine.append(a)
        state.apply_action(a)
    tensor = np.asarray(state.information_state_tensor(0), dtype=np.float32)
    rows = tensor[card.observation_shape[0]:].reshape(2, card.num_actions)
    assert [int(np.flatnonzero(r)[0]) for r in rows] == mine[:2]


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_the_seats_information(name):
    """resample_from_infostate(p): p's information-state string and tensor and observation are
    unchanged, the state is sample_hidden's for p (a function of p's information: resampling a
    resampled state with the same sampler seed gives the same state), the real state is
    untouched, and the other seats' records restart there."""
    game = osb.load_game(name)
    card = game.card_game
    state = game.new_initial_state_for_seed(11)
    rng = random.Random(2)
    for _ in range(9):  # up to 9 moves: never the last one of a short game
        ahead = state.clone()
        ahead.apply_action(rng.choice(state.legal_actions()))
        if ahead.is_terminal():
            break
        state = ahead
    before = card.state_to_dict(state.game_state)
    p = state.current_player()
    other = (p + 1) % card.num_players
    sampled = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert card.state_to_dict(state.game_state) == before
    assert sampled.information_state_string(p) == state.information_state_string(p)
    assert sampled.information_state_tensor(p) == state.information_state_tensor(p)
    assert sampled.observation_tensor(p) == state.observation_tensor(p)
    assert sampled.legal_actions() == state.legal_actions()
    assert sampled.information_state_string(other) == (
        f"seat {other} resampled for seat {p} "
        f"obs={osb._digest(card.observe(sampled.game_state, other))}")
    s1 = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    s2 = s1.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))
    s3 = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))
    assert card.state_to_dict(s2.game_state) == card.state_to_dict(s3.game_state)
    # both play on
    a = sampled.legal_actions()[0]
    sampled.apply_action(a)
    state.apply_action(a)
    assert sampled.information_state_string(p).splitlines()[-1].split(" obs=")[0] == \
        state.information_state_string(p).splitlines()[-1].split(" obs=")[0]


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_action_or_player_id_raises_a_named_error_in_every_game(name):
    """apply_action checks the action (range, legality) before the bridge reads it, as the Game
    API does: IllegalActionError naming it, the state and its records unchanged (Rust Brawl's
    action_seen_by used to raise IndexError on 999); resample_from_infostate names a player id
    outside the seats and the valid range instead of a bare IndexError."""
    game = osb.load_game(name)
    card = game.card_game
    state = game.new_initial_state_for_seed(5)
    state.apply_action(state.legal_actions()[0])
    before = (card.state_to_dict(state.game_state), state.history(),
              [state.information_state_string(p) for p in range(card.num_players)])
    illegal = next(a for a in range(card.num_actions) if a not in state.legal_actions())
    for action, message in [(999, f"action 999 is outside the action space Discrete"
                                  f"\\({card.num_actions}\\)"),
                            (card.num_actions, f"action {card.num_actions} is outside"),
                            (illegal, f"action {illegal} .* is not legal in phase")]:
        with pytest.raises(IllegalActionError, match=f"^{card.name}: {message}"):
            state.apply_action(action)
        assert (card.state_to_dict(state.game_state), state.history(),
                [state.information_state_string(p) for p in range(card.num_players)]) == before
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    n = card.num_players
    for player_id in (7, n, -1, True, "0"):
        with pytest.raises(ValueError,
                           match=f"player_id {re.escape(repr(player_id))} is not a seat; "
                                 f"valid player ids are 0..{n - 1}"):
            state.resample_from_infostate(player_id, sampler)
    assert state.resample_from_infostate(n - 1, sampler).history() == state.history()


def test_states_serialize_pickle_and_copy():
    game = osb.load_game("garda3", variant="free_for_all+night")
    state = _play(game.new_initial_state(), [0, 1, 2, 3, 4])
    for copy_ in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state)),
                  state.clone()):
        assert type(copy_) is osb.CardEnvsState
        assert str(copy_) == str(state)
        assert [copy_.information_state_string(p) for p in range(3)] == \
            [state.information_state_string(p) for p in range(3)]
        a = copy_.legal_actions()[0]
        copy_.apply_action(a)
        assert copy_.history() == state.history() + [a]
    assert state.history() == [0, 1, 2, 3, 4]


def test_bad_parameters_are_named():
    with pytest.raises(ConfigError, match="variant"):
        osb.load_game("garda3", variant="no_such_variant")
    with pytest.raises(ConfigError, match="unknown game 'chess'.*garda3"):
        osb.load_game("chess")
    with pytest.raises(ConfigError, match="config: .* is not JSON"):
        pyspiel.load_game("card_envs_garda3", {"config": "{variant"})
    with pytest.raises(ConfigError, match="config: .* is not a JSON object"):
        pyspiel.load_game("card_envs_garda3", {"config": json.dumps([1])})
    with pytest.raises(ConfigError, match="rng_seed: -2"):
        pyspiel.load_game("card_envs_garda3", {"rng_seed": -2})
    with pytest.raises(ConfigError, match="history_slots: 0"):
        pyspiel.load_game("card_envs_garda3", {"history_slots": 0})
    game = osb.load_game("garda3")
    public_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="not supported"):
        game.make_py_observer(public_only)
    with pytest.raises(ValueError, match="parameters are not supported"):
        game.make_py_observer(None, {"x": 1})


def _ismcts(game, seed: int, simulations: int):
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0,
                           max_simulations=simulations,
                           random_state=np.random.RandomState(seed + 1))
    bot.set_resampler(osb.seeded_resampler(seed + 2))
    return bot


def test_openspiel_ismcts_decides_through_the_bridge():
    """OpenSpiel's ISMCTS searches a Garda3 decision: every simulation resamples through
    sample_hidden (its own check: the root's information-state key is unchanged), and the move
    is legal; the same seed gives the same move."""
    game = osb.load_game("garda3")
    state = game.new_initial_state_for_seed(3)
    rng = random.Random(0)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    moves = {int(_ismcts(game, 5, 20).step(state)) for _ in range(2)}
    assert len(moves) == 1 and moves <= set(state.legal_actions())


def ismcts_vs_random(games: int = 50, simulations: int = 50, seed: int = 0) -> tuple[int, int]:
    """OpenSpiel's ISMCTS (random-rollout evaluator, ``simulations`` per decision, UCT c = 2)
    against OpenSpiel's uniform random bot in Garda3 through the bridge, seats swapped every
    game, each game a fresh deal (rng_seed = 1000 + seed); returns (ISMCTS wins, games)."""
    from open_spiel.python.bots import uniform_random

    game = osb.load_game("garda3", rng_seed=1000 + seed)
    wins = 0
    for k in range(games):
        seat = k % 2
        bots = [None, None]
        bots[seat] = _ismcts(game, seed * 100_003 + k, simulations)
        bots[1 - seat] = uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(k))
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        wins += returns[seat] > returns[1 - seat]
    return wins, games


@pytest.mark.slow
def test_openspiel_ismcts_beats_random_in_garda3():
    """The issue's gate: OpenSpiel's ISMCTS wins >= 80 % of 50 seat-swapped Garda3 games against
    random through the bridge (measured: docs/libraries/openspiel.md)."""
    wins, games = ismcts_vs_random()
    print(f"OpenSpiel ISMCTS (50 simulations) vs random, Garda3: {wins} of {games} won")
    assert wins >= 0.8 * games, f"ISMCTS won {wins} of {games}"
