"""Expert iteration: ISMCTS with a network prior (PUCT, progressive bias), its policy spec
``ismcts[:N[:ROLLOUT]]@MODEL``, and card_envs/training/exit.py end to end (one tiny round, then a
resumed one, in subprocesses), with its flag errors.

The hand-checked search: Toy Nim, pile 5, seat 0, PerfectBot playouts: take 1 (action 0) wins
(+1 x win_value 3), take 2 and take 3 lose (-3); the value spread after the first leaf is 6.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from card_envs.bots.ismcts import ISMCTSBot
from card_envs.core.errors import ConfigError
from card_envs.core.registry import make_game
from toy_game import PerfectBot
from toy_game import make_game as make_toy

ROOT = Path(__file__).resolve().parents[1]


class FixedPrior:
    """Logits ``logits`` whatever the observation; records the observations it was shown."""

    def __init__(self, logits, observation_shape=None, num_actions=None):
        self._logits = np.asarray(logits, dtype=np.float32)
        self.seen: list[np.ndarray] = []
        if observation_shape is not None:
            self.observation_shape, self.num_actions = observation_shape, num_actions

    def logits(self, obs):
        self.seen.append(np.array(obs))
        return self._logits


class LinearPrior:
    """A fixed random linear map of the observation: a prior that depends on the view."""

    def __init__(self, obs_dim: int, num_actions: int, seed: int = 0):
        self.w = np.random.default_rng(seed).normal(size=(obs_dim, num_actions)).astype(np.float32)

    def logits(self, obs):
        return np.asarray(obs, dtype=np.float32).reshape(-1) @ self.w


# -- the search with a prior ---------------------------------------------------------------------
def test_a_prior_concentrated_on_one_action_gets_every_visit():
    """PUCT, logits (0, 10, 20) for take 1, 2, 3 and c_puct 4. At the root P(take 3) = 1 - 5e-5:
    the first iteration takes it (every term 0 but c_puct x 1 x P x sqrt(1) / 1), and seat 1,
    left 2 cards, takes both (PerfectBot playout; in the tree later, the same prior: P(take 2)
    = 1 - 5e-5): -3 for seat 0 every time. Take 3 then scores -3 + 4 x 6 x sqrt(n+1) / (n+1) =
    -3 + 24 / sqrt(n+1) > 4.5 for n < 10 visits, the others at most 24 x 5e-5 x sqrt(10) < 0.004:
    all 10 visits go to the losing move the prior names."""
    game = make_toy(pile=5)
    state = game.new_state(0)
    prior = FixedPrior([0.0, 10.0, 20.0] + [0.0] * (game.num_actions - 3))
    bot = ISMCTSBot(iterations=10, rollout=PerfectBot(), prior=prior, c_puct=4.0, seed=0)
    assert bot.action_stats(game, state, 0) == {0: (0, 0.0), 1: (0, 0.0), 2: (10, -3.0)}
    assert bot.act(game, state, 0) == 2
    # the prior saw seat 0's view of the deal at every tree node (the root: the real view)
    np.testing.assert_array_equal(prior.seen[0], game.observe(state, 0))
    # a uniform prior leaves the choice to the values: the winning take 1 is visited most
    uniform = ISMCTSBot(iterations=60, rollout=PerfectBot(), prior=FixedPrior(
        np.zeros(game.num_actions)), c_puct=4.0, seed=0)
    stats = uniform.action_stats(game, state, 0)
    assert sum(v for v, _ in stats.values()) == 60
    # (the means mix in-tree replies: seat 1 explores below the root too)
    assert max(stats, key=lambda a: stats[a][0]) == 0
    assert stats[0][1] > 0 > max(stats[1][1], stats[2][1])


def test_progressive_bias_mode_expands_the_prior_first():
    """prior_mode="bias": expansion takes the most probable untried action first (take 3),
    then the others in prior order (ties: lower id), each once in 3 iterations."""
    game = make_toy(pile=5)
    state = game.new_state(0)
    prior = FixedPrior([1.0, 0.0, 2.0] + [0.0] * (game.num_actions - 3))
    bot = ISMCTSBot(iterations=3, rollout=PerfectBot(), prior=prior, prior_mode="bias", seed=0)
    assert bot.action_stats(game, state, 0) == {0: (1, 3.0), 1: (1, -3.0), 2: (1, -3.0)}
    assert len(prior.seen) == 3  # one root decision per iteration (the leaves are played out)


def test_search_with_a_prior_is_deterministic_for_a_seed():
    game = make_game("garda3")
    prior = LinearPrior(game.observation_shape[0], game.num_actions)

    def play(seed):
        bot = ISMCTSBot(iterations=15, prior=prior, seed=seed)
        state = game.new_state(3)
        moves, stats = [], []
        while not game.is_terminal(state) and len(moves) < 40:
            p = game.current_player(state)
            a, s = bot.decide(game, state, p)
            moves.append(a)
            stats.append(s)
            game.apply_action(state, a)
        return moves, stats, bot.searched

    first = play(5)
    assert first == play(5)
    assert first[2] >= 10  # searched decisions (the draft is the heuristic's, unsearched)
    searched = [s for s in first[1] if s is not None]
    assert all(sum(v for v, _ in s.values()) == 15 for s in searched)
    # reseed restarts the bot as a fresh one
    bot = ISMCTSBot(iterations=15, prior=prior, seed=99)
    bot.reseed(5)
    state = game.new_state(3)
    assert bot.act(game, state, game.current_player(state)) == first[0][0]


def test_prior_settings_are_checked_by_name():
    with pytest.raises(ConfigError, match="prior .* has no logits"):
        ISMCTSBot(prior=object())
    with pytest.raises(ConfigError, match=r"prior_mode must be one of \['puct', 'bias'\]"):
        ISMCTSBot(prior=FixedPrior([0.0]), prior_mode="ucb")
    with pytest.raises(ConfigError, match="c_puct must be a finite number >= 0"):
        ISMCTSBot(c_puct=-1)
    game = make_toy(pile=5)
    wrong = FixedPrior([0.0] * 3, observation_shape=(7,), num_actions=3)
    with pytest.raises(ConfigError, match=r"takes observations \(7,\) and 3 actions.*toy_nim"):
        ISMCTSBot(iterations=3, rollout="random", prior=wrong).act(game, game.new_state(0), 0)


# -- the policy spec ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def garda3_model(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    from card_envs.bots.base import RandomBot
    from card_envs.training.args import Args
    from card_envs.training.exit import _model_factory

    make_model, make_vec_env, _ = _model_factory()
    game = make_game("garda3")
    args = Args(n_envs=1, net_arch="8,8")
    model = make_model(make_vec_env(game, RandomBot(0), args, 0), args)
    path = tmp_path_factory.mktemp("model") / "model.zip"
    model.save(path)
    return path


def test_ismcts_spec_with_a_model_prior(garda3_model):
    from card_envs.bots.sb3 import FrozenPolicy
    from card_envs.evaluation.policies import resolve_policy

    game = make_game("garda3")
    bot = resolve_policy(f"ismcts:7@{garda3_model}", "garda3", seed=3, game=game)
    assert isinstance(bot, ISMCTSBot) and isinstance(bot.prior, FrozenPolicy)
    assert (bot.iterations, bot.prior_mode, bot.seed) == (7, "puct", 3)
    assert bot.rollout.name == "heuristic"
    run_dir = resolve_policy(f"ismcts:7:model@{garda3_model.parent}", "garda3", game=game)
    assert run_dir.rollout is run_dir.prior  # the network plays the playouts
    state = game.new_state(0)
    while game.lookahead_horizon(state) is None:  # past the draft: a searched decision
        game.apply_action(state, game.legal_actions(state)[0])
    assert run_dir.act(game, state, game.current_player(state)) in game.legal_actions(state)
    assert run_dir.searched == 1


@pytest.mark.parametrize("spec,message", [
    ("ismcts:5@", r"'ismcts:5@': nothing after '@'"),
    ("ismcts:5@no/such/model.zip", r"'ismcts:5@no/such/model.zip': its prior 'no/such/model.zip' "
                                   r"is not a saved MaskablePPO model: no such file"),
    ("ismcts:5:model", r"'ismcts:5:model': rollout 'model' needs a network: name it with "
                       r"'@MODEL'"),
    ("ismcts:5:greedy@x.zip", "no such file"),  # the model is checked first
    ("ismcts:x@{model}", r"whole number N of iterations"),
    ("ismcts:5:greedy@{model}", r"must be one of \['heuristic', 'random'\] \(or 'model' with"),
])
def test_ismcts_model_spec_errors_name_the_spec(spec, message, garda3_model):
    from card_envs.evaluation.policies import resolve_policy

    with pytest.raises(ConfigError, match=message):
        resolve_policy(spec.format(model=garda3_model), "garda3", game=make_game("garda3"))


def test_a_model_of_another_game_is_refused(garda3_model):
    from card_envs.evaluation.policies import resolve_policy

    with pytest.raises(ConfigError, match=r"'ismcts:5@.*': its prior model .* takes observations "
                                          r"\(294,\) and 56 actions, but dirt_and_glory"):
        resolve_policy(f"ismcts:5@{garda3_model}", "dirt_and_glory",
                       game=make_game("dirt_and_glory"))


# -- the trainer end to end --------------------------------------------------------------------
TINY = ["--minutes", "0", "--games-per-round", "2", "--iterations", "8", "--net-arch", "16,16",
        "--bc-decisions", "300", "--bc-epochs", "1", "--fit-epochs", "1", "--gate-deals", "2",
        "--eval-deals", "2", "--final-eval-games", "4", "--no-progress"]


def _run(args, expect=0, timeout=180):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == expect, \
        f"{args}\nSTDOUT:\n{proc.stdout}\nSTDERR:\n{proc.stderr[-4000:]}"
    return proc


def test_exit_trains_a_round_checkpoints_and_resumes(tmp_path):
    pytest.importorskip("sb3_contrib")
    run = tmp_path / "run"
    out = _run(["-m", "card_envs.cli", "train", "--method", "exit", "--game", "garda3",
                "--rounds", "1", "--run-dir", str(run), *TINY]).stdout
    assert "behaviour cloning of the heuristic" in out and "round 1: 2 games" in out
    assert "agent vs heuristic: 4 games" in out
    for name in ("model.zip", "learning_curve.png", "summary.json", "checkpoints/round_1.json",
                 "checkpoints/round_1.zip", "checkpoints/round_1.npz"):
        assert (run / name).is_file(), name
    first = json.loads((run / "summary.json").read_text())
    assert first["method"] == "exit" and first["rounds"] == 1
    assert [p["round"] for p in first["curve"]] == [0, 1]
    point = first["curve"][1]
    assert point["timesteps"] == first["timesteps"] == point["decisions"] > 0
    assert 0 <= point["eval/win_rate_vs_heuristic"] <= 1
    lo, hi = point["eval/wilson95_vs_heuristic"]
    assert 0 <= lo <= point["eval/win_rate_vs_heuristic"] <= hi <= 1
    assert point["searched"] > 0 and point["fit/kl"] >= -1e-4
    assert first["gates"][0]["games"] == 4 and isinstance(first["gates"][0]["accepted"], bool)
    assert first["final_eval"]["heuristic"]["games"] == 4
    assert first["policy_specs"]["as_ismcts_prior"].startswith("ismcts:8@")

    # resume (the module entry point): the round count, decisions and curve carry on
    _run(["-m", "card_envs.training.exit", "--resume", str(run), "--rounds", "2", *TINY])
    second = json.loads((run / "summary.json").read_text())
    assert second["rounds"] == 2 and second["game"] == "garda3"
    assert [p["round"] for p in second["curve"]] == [0, 1, 2]
    assert second["curve"][:2] == first["curve"]
    assert second["timesteps"] > first["timesteps"]
    assert second["behaviour_cloning"] == {}  # no second warm start

    # the trained network as the search's prior, through the CLI
    out = _run(["-m", "card_envs.cli", "evaluate", "--game", "garda3", "--a",
                f"ismcts:4@{run}", "--b", "random", "--games", "2"]).stdout
    assert "2 games" in out


@pytest.mark.parametrize("argv,message", [
    (["train", "--method", "nope"], "--method 'nope': must be one of ppo, exit"),
    (["train", "--method", "exit", "--gate-threshold", "2"], "--gate-threshold 2.0: must be in"),
    (["train", "--method", "exit", "--rollout", "greedy"], "--rollout 'greedy': must be one of"),
    (["train", "--method", "exit", "--address", "nohost"], "--address 'nohost': must be"),
    (["train", "--method", "exit", "--minutes", "0"], "no budget"),
    (["train", "--method", "exit", "--resume", "/no/such/run"], "--resume '/no/such/run'"),
])
def test_bad_flags_are_one_error_line(argv, message):
    pytest.importorskip("tyro")
    proc = _run(["-m", "card_envs.cli", *argv], expect=2)
    assert message in proc.stderr and "Traceback" not in proc.stderr
