"""RLlib (the ``rllib`` extra): the multi-agent env, the action-masking module, one PPO iteration
on every game of the registry through the shipped adapter, the trainer and RLlib checkpoints as
policy specs.

One local Ray for the whole test session (``num_cpus=2``; the ``ray_session`` fixture of
conftest.py, shared with test_ray_evaluation.py), no remote env runners (sampling in the
test process), a small train batch and one epoch; the env runs with ``illegal_action="raise"``,
so an action the mask forbids raises instead of ending a game.

A missing extra: under ``CI=true`` these tests fail, except in the core-install run of
``.ci/run`` (``CARD_ENVS_CORE_ONLY=1``), where they skip with the reason.
"""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

REASON = 'the rllib extra is not installed: pip install "card-envs[rllib]"'
if importlib.util.find_spec("ray") is None:
    if os.environ.get("CARD_ENVS_CORE_ONLY") != "1" and \
            os.environ.get("CI", "").lower() == "true":
        raise ImportError(REASON + " (CI installs every extra)")
    pytest.skip(REASON, allow_module_level=True)

import gymnasium as gym
from ray.rllib.callbacks.callbacks import RLlibCallback

from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.registry import make_game
from card_envs.evaluation.policies import resolve_policy
from card_envs.wrappers.rllib import (
    ACTION_MASK,
    OBSERVATIONS,
    ActionMaskingTorchRLModule,
    CardEnvsMultiAgentEnv,
    LeagueMapping,
    ppo_config,
)
from env_helpers import registered_games, test_games

GAMES = registered_games()
# RLlib registers its env wrapper id anew for every algorithm it builds
pytestmark = pytest.mark.filterwarnings("ignore:.*Overriding environment:UserWarning")


def _masked_random_play(env, rng, seed):
    """Play one episode with random legal actions; returns (steps, the last step's dicts)."""
    obs, infos = env.reset(seed=seed)
    steps = 0
    while True:
        assert len(obs) == 1, f"one agent acts at a time, got {sorted(obs)}"
        (agent, o), = obs.items()
        assert set(infos) == {agent}
        legal = np.flatnonzero(o[ACTION_MASK])
        assert len(legal) > 0
        obs, rewards, terminateds, truncateds, infos = env.step({agent: int(rng.choice(legal))})
        steps += 1
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps, (obs, rewards, terminateds, truncateds)


# -- the env ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_spaces_are_the_masking_modules_keys_and_dtypes(game):
    env = CardEnvsMultiAgentEnv({"game": game})
    g = make_game(game)
    assert env.possible_agents == [f"player_{i}" for i in range(g.num_players)]
    space = env.observation_spaces["player_0"]
    assert isinstance(space, gym.spaces.Dict) and set(space.spaces) == {OBSERVATIONS, ACTION_MASK}
    assert space[OBSERVATIONS].dtype == np.float32
    assert space[OBSERVATIONS].shape == tuple(g.observation_shape)
    assert space[ACTION_MASK].dtype == np.float32 and space[ACTION_MASK].shape == (g.num_actions,)
    assert env.action_spaces["player_1"] == gym.spaces.Discrete(g.num_actions)
    obs, _ = env.reset(seed=3)
    (agent, o), = obs.items()
    assert space.contains(o), "the observation lies in its declared space"
    assert agent == f"player_{g.current_player(g.new_state(0))}" or agent in env.possible_agents


@pytest.mark.parametrize("game", GAMES)
def test_the_terminating_step_gives_every_agent_its_return(game):
    env = CardEnvsMultiAgentEnv({"game": game, "seed": 0})
    rng = np.random.default_rng(1)
    for seed in range(3):
        _, (obs, rewards, terminateds, _) = _masked_random_play(env, rng, seed)
        inner = env.env.unwrapped
        returns = inner.game.returns(inner.state_obj)
        assert set(obs) == set(rewards) == set(env.possible_agents)
        assert terminateds == {**{a: True for a in env.possible_agents}, "__all__": True}
        assert rewards == {a: float(returns[i]) for i, a in enumerate(env.possible_agents)}
        assert not any(o[ACTION_MASK].any() for o in obs.values()), "no moves after the end"


def test_in_env_heuristic_opponent_and_the_learners_final_reward():
    env = CardEnvsMultiAgentEnv({"game": "garda3", "opponents": {"player_1": "heuristic"}})
    rng = np.random.default_rng(0)
    results = []
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        seen = set(obs)
        while True:
            (agent, o), = obs.items()
            obs, rewards, terminateds, _, _ = env.step(
                {agent: int(rng.choice(np.flatnonzero(o[ACTION_MASK])))})
            seen |= set(obs)
            if terminateds["__all__"]:
                break
        assert seen == {"player_0"}, "the heuristic's seat never reaches RLlib"
        inner = env.env.unwrapped
        assert rewards == {"player_0": float(inner.game.returns(inner.state_obj)[0])}
        results.append(rewards["player_0"])
    assert results.count(-1.0) >= 6, f"random play loses to the heuristic: {results}"


def test_set_next_opponents_applies_to_one_episode():
    env = CardEnvsMultiAgentEnv({"game": "garda3", "seed": 0})
    env.set_next_opponents({"player_0": "random"})
    obs, _ = env.reset()
    assert set(obs) == {"player_1"} and env.opponents == {"player_0": "random"}
    obs, _ = env.reset()
    assert env.opponents == {} and set(obs) <= set(env.possible_agents)


def test_equal_seeds_and_actions_give_equal_episodes():
    def episode(seed):
        env = CardEnvsMultiAgentEnv({"game": "scratch_wars"})
        rng = np.random.default_rng(5)
        obs, _ = env.reset(seed=seed)
        trace = []
        while True:
            (agent, o), = obs.items()
            trace.append((agent, o[OBSERVATIONS].tobytes()))
            obs, rewards, term, trunc, _ = env.step(
                {agent: int(rng.choice(np.flatnonzero(o[ACTION_MASK])))})
            if term["__all__"] or trunc["__all__"]:
                return trace, rewards

    assert episode(11) == episode(11)
    assert episode(11)[0] != episode(12)[0]


def test_an_illegal_action_raises_and_bad_configs_are_named():
    env = CardEnvsMultiAgentEnv({"game": "garda3", "illegal_action": "raise"})
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    illegal = int(np.flatnonzero(o[ACTION_MASK] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {illegal} "):
        env.step({agent: illegal})
    other = CardEnvsMultiAgentEnv({"game": "garda3"})
    other.reset(seed=0)
    with pytest.raises(ConfigError, match="no action for"):
        other.step({"player_9": 0})
    with pytest.raises(ConfigError, match=r"unknown key\(s\) \['opponent'\]"):
        CardEnvsMultiAgentEnv({"opponent": "heuristic"})
    with pytest.raises(ConfigError, match="'chess' is not a registered game"):
        CardEnvsMultiAgentEnv({"game": "chess"})
    with pytest.raises(ConfigError, match="illegal_action"):
        CardEnvsMultiAgentEnv({"illegal_action": "ignore"})
    with pytest.raises(ConfigError, match="player_7"):
        CardEnvsMultiAgentEnv({"opponents": {"player_7": "heuristic"}})


def test_the_default_illegal_action_ends_the_game_as_pettingzoo_does():
    """``illegal_action="terminate"`` (the default): a masked-out action ends the game, the
    mover -1 and the others 0 (PettingZoo's TerminateIllegalWrapper rule, which RLlib meets in
    its PettingZoo envs), every agent terminated with an observation; the state unchanged."""
    env = CardEnvsMultiAgentEnv({"game": "garda3"})
    assert env.illegal_action == "terminate"
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    illegal = int(np.flatnonzero(o[ACTION_MASK] == 0)[0])
    obs, rewards, terminateds, truncateds, _ = env.step({agent: illegal})
    other = next(a for a in env.possible_agents if a != agent)
    assert rewards == {agent: -1.0, other: 0.0}
    assert terminateds == {agent: True, other: True, "__all__": True}
    assert truncateds["__all__"] is False and set(obs) == {agent, other}


def test_a_ppo_config_from_rllibs_docs_passes_rllibs_default_env_check(ray_session):
    """issue 21: a user's own ``PPOConfig`` (RLlib's documented multi-agent pattern, RLlib's own
    action-masking example module, our env with its defaults) failed RLlib's default env check:
    the checker steps an unmasked ``action_space.sample()``, the old default
    ``illegal_action="raise"`` refused it, and RLlib blamed the env ("does not abide to the new
    gymnasium-style API"). With the default ``"terminate"`` the check passes; one PPO iteration
    then runs with every move masked (no game ends by an illegal move)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    with test_games():  # every game, the tests' own too
        for game in GAMES:  # RLlib's checker itself, its random action drawn from 10 seeds
            for seed in range(10):
                env = CardEnvsMultiAgentEnv({"game": game})
                for space in env.action_spaces.values():
                    space.seed(seed)
                check_multiagent_environments(env)
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule as RLlibsExampleModule,
    )

    class CountForfeits(RLlibCallback):
        forfeits = 0

        def on_episode_end(self, *, episode, **kwargs):
            returns = sorted(a.get_return() for a in episode.agent_episodes.values())
            CountForfeits.forfeits += returns == [-1.0, 0.0]  # the forfeit's rewards

    config = (
        PPOConfig()
        .environment(CardEnvsMultiAgentEnv, env_config={"game": "garda3"})
        .env_runners(num_env_runners=0)
        .multi_agent(policies={"shared"},
                     policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={"shared": RLModuleSpec(module_class=RLlibsExampleModule)}))
        .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1)
        .callbacks(CountForfeits)
    )
    assert config.disable_env_checking is False  # RLlib's default: the env is checked
    algo = config.build_algo()  # runs RLlib's check_multiagent_environments on the env
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 256
    assert CountForfeits.forfeits == 0


# -- the modules -----------------------------------------------------------------------------
def _module(module_class, env):
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(module_class=module_class,
                        observation_space=env.observation_spaces["player_0"],
                        action_space=env.action_spaces["player_0"],
                        model_config={"fcnet_hiddens": [32]}).build()


def _batch(env, seeds):
    import torch

    obs = [next(iter(env.reset(seed=s)[0].values())) for s in seeds]
    return {"obs": {k: torch.as_tensor(np.stack([o[k] for o in obs])) for k in obs[0]}}


@pytest.mark.parametrize("source", ["ours", "rllib example"])
def test_masked_logits_of_our_module_and_of_rllibs_example_module(source):
    """Our observations fit RLlib's own example module too (its KeyError 'observations' on the
    PettingZoo key was the reason for the adapter); ours leaves the batch unchanged."""
    if source == "ours":
        module_class = ActionMaskingTorchRLModule
    else:
        from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
            ActionMaskingTorchRLModule as module_class,
        )
    env = CardEnvsMultiAgentEnv({"game": "garda3"})
    module = _module(module_class, env)
    batch = _batch(env, [0, 1, 2])
    mask = batch["obs"][ACTION_MASK].clone()
    logits = module.forward_inference(batch)["action_dist_inputs"].detach().numpy()
    legal = mask.numpy() > 0.5
    assert logits.shape == (3, 56)
    assert (logits[~legal] < -1e30).all() and (np.abs(logits[legal]) < 1e3).all()
    if source == "ours":
        assert set(batch["obs"]) == {OBSERVATIONS, ACTION_MASK}, "the batch is left as it was"
        values = module.compute_values(batch)
        assert tuple(values.shape) == (3,)


def test_our_module_refuses_a_space_without_the_mask():
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    with pytest.raises(ValueError, match="needs a Dict observation space"):
        RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                     observation_space=gym.spaces.Dict({"observation": gym.spaces.Box(0, 1, (3,))}),
                     action_space=gym.spaces.Discrete(2)).build()


def test_league_mapping_keeps_one_plan_per_episode_and_always_has_main():
    class Episode:
        def __init__(self, id_, in_env=None):
            self.id_ = id_
            self._custom_data = {"in_env": in_env or {}}

        @property
        def custom_data(self):
            return self._custom_data

    agents = ["player_0", "player_1", "player_2"]
    mapping = LeagueMapping(agents, ["main_v1", "main_v2"], self_play_rate=0.0)
    kinds = set()
    for k in range(200):
        ep = Episode(f"ep{k}")
        plan = [mapping(a, ep) for a in agents]
        assert plan == [mapping(a, ep) for a in agents], "one plan per episode"
        assert plan.count("main") == 1 and set(plan) <= {"main", "main_v1", "main_v2"}
        kinds.add(plan.index("main"))
        lone = Episode(f"lone{k}", in_env={"player_0": "heuristic", "player_2": "heuristic"})
        assert mapping("player_1", lone) == "main", "the only learner is always main"
    assert kinds == {0, 1, 2}, "main plays every seat"
    assert LeagueMapping(agents, [], 0.0)("player_2", Episode("x")) == "main"


# -- one PPO iteration on every game through the shipped adapter --------------------------------
class EpisodeChecks(RLlibCallback):
    """At each episode's end: the inner game is over, and every action was legal under the mask
    its agent observed."""

    def on_episode_end(self, *, episode, env=None, env_index=0, metrics_logger=None, **kwargs):
        inner = getattr(env, "envs", [env])[env_index].unwrapped.env.unwrapped
        over = inner.game.is_terminal(inner.state_obj) and not episode.is_truncated
        illegal = 0
        for sa in episode.agent_episodes.values():
            observations = sa.get_observations()
            for t, action in enumerate(sa.get_actions()):
                illegal += int(observations[t][ACTION_MASK][int(action)] < 0.5)
        metrics_logger.log_value("games_at_their_end", int(over), reduce="sum")
        metrics_logger.log_value("illegal_actions", illegal, reduce="sum")


@pytest.mark.parametrize("game", GAMES)
def test_one_masked_ppo_iteration_on_every_game(ray_session, game):
    config = (ppo_config(game, illegal_action="raise", hidden=(32,), seed=1)
              .training(train_batch_size_per_learner=200, minibatch_size=200, num_epochs=1)
              .env_runners(num_env_runners=0, rollout_fragment_length="auto")
              .callbacks(EpisodeChecks))
    algo = config.build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    runners = result["env_runners"]
    assert runners["num_env_steps_sampled"] >= 200
    assert runners["num_episodes"] >= 1
    assert runners["games_at_their_end"] == runners["num_episodes"]
    assert runners["illegal_actions"] == 0
    learner = result["learners"]["main"]
    assert np.isfinite(learner["policy_loss"]) and learner["num_module_steps_trained"] >= 200


# -- the trainer, checkpoints as policy specs ---------------------------------------------------
def test_the_trainer_with_snapshots_in_env_opponent_checkpoint_and_evaluation(ray_session,
                                                                            tmp_path, capsys):
    from card_envs.cli import main as cli_main
    from card_envs.training.rllib_ppo import RLlibArgs, train

    run_dir = tmp_path / "run"
    summary = train(RLlibArgs(
        game="garda3", minutes=0, total_timesteps=400, num_env_runners=0,
        num_envs_per_env_runner=1, run_dir=str(run_dir), env_opponent="heuristic",
        env_opponent_rate=0.5, snapshot_every=200, train_batch_size=200, minibatch_size=200,
        num_epochs=1, hidden="32", final_eval_games=4, progress=False))
    assert summary["timesteps"] >= 400 and summary["iterations"] >= 2
    assert summary["snapshots"] == ["main_v1", "main_v2"][: len(summary["snapshots"])]
    assert len(summary["snapshots"]) >= 1
    assert set(summary["final_eval"]) == {"random", "heuristic"}
    assert summary["final_eval"]["random"]["games"] == 4
    saved = json.loads((run_dir / "summary.json").read_text())
    assert saved["policy_spec"] == f"rllib:{run_dir.resolve() / 'checkpoint'}"
    out = capsys.readouterr().out
    assert "agent vs random" in out and "agent vs heuristic" in out

    game = make_game("garda3")
    for spec in (f"rllib:{run_dir / 'checkpoint'}", str(run_dir / "checkpoint"), str(run_dir),
                 f"rllib:{run_dir}#main_v1"):
        policy = resolve_policy(spec, "garda3", game=game)
        state = game.new_state(4)
        assert policy.act(game, state, game.current_player(state)) in game.legal_actions(state)
    policy = resolve_policy(f"rllib:{run_dir}", "garda3", game=game)
    states = [game.new_state(s) for s in range(6)]
    seats = [game.current_player(s) for s in states]
    assert policy.act_batch(game, states, seats) == [policy.act(game, s, p)
                                                    for s, p in zip(states, seats)]
    assert resolve_policy(f"rllib:{run_dir}+lookahead:2", "garda3", game=game).act(
        game, states[0], seats[0]) in game.legal_actions(states[0])
    assert cli_main(["evaluate", "--game", "garda3", "--a", f"rllib:{run_dir}", "--b", "random",
                     "--games", "4"]) == 0
    assert "4 games" in capsys.readouterr().out
    with pytest.raises(ConfigError, match=r"has no module 'main_v9'; it has \['main'"):
        resolve_policy(f"rllib:{run_dir}#main_v9", "garda3")
    with pytest.raises(ConfigError, match="takes observations"):
        resolve_policy(f"rllib:{run_dir}", "scratch_wars", game=make_game("scratch_wars"))


def test_bad_rllib_specs_and_trainer_flags_are_named(tmp_path):
    from card_envs.training.rllib_ppo import RLlibArgs, validate_args

    with pytest.raises(ConfigError, match="no such folder"):
        resolve_policy(f"rllib:{tmp_path / 'nothing'}", "garda3")
    with pytest.raises(ConfigError, match="not an RLlib checkpoint"):
        resolve_policy(f"rllib:{tmp_path}", "garda3")
    with pytest.raises(ConfigError, match="needs a checkpoint folder"):
        resolve_policy("rllib:", "garda3")
    for args, message in [
        (RLlibArgs(num_env_runners=-1), "--num-env-runners -1: must be >= 0"),
        (RLlibArgs(env_opponent_rate=1.5), "--env-opponent-rate 1.5: must be in"),
        (RLlibArgs(lambda_=2.0), "--lambda 2.0: must be in"),
        (RLlibArgs(hidden="64,x"), "--hidden '64,x'"),
        (RLlibArgs(game="chess"), "--game 'chess': not a registered game"),
        (RLlibArgs(minutes=0), "no budget"),
        (RLlibArgs(minibatch_size=8000), "--minibatch-size 8000: must be <="),
        (RLlibArgs(game_config="{"), "--game-config"),
    ]:
        with pytest.raises(ConfigError, match=message):
            validate_args(args)


def _fail_if_ray_starts(monkeypatch):
    from card_envs.training import rllib_ppo

    def no_ray(args):
        raise AssertionError("Ray was started")

    monkeypatch.setattr(rllib_ppo, "start_ray", no_ray)
    return rllib_ppo


@pytest.mark.parametrize("address", ["nosuch", "host:", ":6379", "10.0.0.5:99999", "http://h:1",
                                     "ray://h"])
def test_a_bad_address_is_one_error_line_before_ray_starts(monkeypatch, capsys, address):
    rllib_ppo = _fail_if_ray_starts(monkeypatch)
    assert rllib_ppo.main(["--address", address, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.startswith(f"training/rllib_ppo.py: error: --address {address!r}: must be 'auto'")
    for good in ("", "auto", "local", "10.0.0.5:6379", "head-node.local:6379",
                 "ray://10.0.0.5:10001", "[::1]:6379"):
        rllib_ppo.check_address(good)  # no error


def test_a_run_dir_that_is_a_file_is_one_error_line_before_ray_starts(monkeypatch, capsys,
                                                                        tmp_path):
    rllib_ppo = _fail_if_ray_starts(monkeypatch)
    file = tmp_path / "results.txt"
    file.write_text("not a folder")
    for run_dir, where in ((file, ""), (file / "run1", f"{str(file)!r} ")):
        assert rllib_ppo.main(["--run-dir", str(run_dir)]) == 2
        err = capsys.readouterr().err.strip()
        assert err == (f"training/rllib_ppo.py: error: --run-dir {str(run_dir)!r}: "
                       f"{where}is a file, not a folder")
    rllib_ppo.check_run_dir(str(tmp_path))  # an existing folder is fine
    rllib_ppo.check_run_dir(str(tmp_path / "new" / "run"))  # so is a new one


@pytest.mark.parametrize("blocked, hint", [
    (("ray",), 'needs the "rllib" extra: pip install "card-envs[rllib]" (not installed: ray)'),
    (("torch",), ('needs torch and the "rllib" extra: pip install torch==2.13.0 first, then '
                  'pip install "card-envs[rllib]" (not installed: torch)')),
    (("ray", "torch"), ('needs torch and the "rllib" extra: pip install torch==2.13.0 first, '
                        'then pip install "card-envs[rllib]" (not installed: ray, torch)')),
])
def test_a_missing_extra_is_the_one_line_hint_exit_2(monkeypatch, capsys, blocked, hint):
    import importlib
    import sys

    from card_envs.core.extras import MissingExtraError

    rllib_ppo = _fail_if_ray_starts(monkeypatch)
    for module in blocked:  # None in sys.modules: Python's way to block an import
        monkeypatch.setitem(sys.modules, module, None)
    assert rllib_ppo.main(["--minutes", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"training/rllib_ppo.py {hint}"
    monkeypatch.delitem(sys.modules, "card_envs.wrappers.rllib", raising=False)
    with pytest.raises(MissingExtraError) as info:
        importlib.import_module("card_envs.wrappers.rllib")
    assert str(info.value) == f"card_envs.wrappers.rllib {hint}"
    assert info.value.name == blocked[0]
    # --help needs neither ray nor torch: they are imported after the flags are parsed
    with pytest.raises(SystemExit) as exit_info:
        rllib_ppo.main(["--help"])
    assert exit_info.value.code == 0
    assert "--address" in capsys.readouterr().out
    # a bad flag: one error line (issue 21), not tyro's box
    assert rllib_ppo.main(["--bogus"]) == 2
    assert capsys.readouterr().err == ("training/rllib_ppo.py: error: Unrecognized options: "
                                       "--bogus (see training/rllib_ppo.py --help)\n")


@pytest.mark.parametrize("module", ["card_envs.training.rllib_ppo", "card_envs.training.ppo"])
def test_the_trainers_run_as_python_dash_m(module):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", module, "--help"], check=False,
                         capture_output=True, text=True, timeout=60, cwd=os.path.dirname(__file__),
                         env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(
                             os.path.abspath(__file__)))})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: python -m {module} [-h] [OPTIONS]")
    assert "--game" in out.stdout
    assert out.stderr == ""  # no runpy warning: the package does not import its trainer first
