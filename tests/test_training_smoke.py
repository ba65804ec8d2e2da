"""Subprocess smoke test: training/ppo.py trains, checkpoints, resumes, and the CLI evaluates the
model, on the toy game and on every game of the suite available (new games join automatically).

Tiny budgets (a few hundred steps); the point is that the whole path runs end to end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from env_helpers import TEST_GAMES, game_spec, registered_games

from card_envs.core.registry import make_game

pytest.importorskip("sb3_contrib")

ROOT = Path(__file__).resolve().parents[1]
TINY = [
    "--minutes", "0", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
    "--net-arch", "32,32", "--eval-every", "128", "--eval-deals", "2", "--eval-random-deals", "2", "--snapshot-every", "128",
    "--checkpoint-every", "128", "--final-eval-games", "4", "--no-progress",
    "--bc-decisions", "200", "--bc-epochs", "1",
]


def _run(args, timeout=120):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, f"{args}\nSTDOUT:\n{proc.stdout}\nSTDERR:\n{proc.stderr[-4000:]}"
    return proc.stdout


@pytest.mark.parametrize("game", ["toy_game:make_game", *map(game_spec, registered_games())])
def test_train_checkpoint_resume_evaluate(game, tmp_path):
    run = tmp_path / "run"
    out = _run(["training/ppo.py", "--game", game, "--total-timesteps", "256",
                "--run-dir", str(run), *TINY])
    assert "final evaluation" in out and "agent vs random" in out
    for name in ("model.zip", "learning_curve.png", "summary.json", "progress.csv"):
        assert (run / name).is_file(), name
    first = json.loads((run / "summary.json").read_text())
    assert first["timesteps"] >= 256
    if ":" not in game:  # every registered game has a heuristic to clone
        assert "behaviour cloning of the heuristic on" in out
        assert 0.0 <= first["behaviour_cloning"]["bc/accuracy"] <= 1.0
    assert first["final_eval"]["random"]["games"] == 4
    assert list((run / "checkpoints").glob("ckpt_*.zip"))

    # resume from the run folder (game and config come from the checkpoint): the step count
    # and the learning curve carry on
    _run(["training/ppo.py", "--total-timesteps", "512", "--resume", str(run), *TINY])
    second = json.loads((run / "summary.json").read_text())
    assert second["timesteps"] >= 512 > first["timesteps"]
    assert len(second["curve"]) > len(first["curve"])
    assert second["curve"][: len(first["curve"]) - 1] == first["curve"][:-1]
    assert second["game"] == first["game"]

    # the CLI evaluates the saved model against random, seat-swapped, with intervals
    out = _run(["-m", "card_envs.cli", "evaluate", "--game", game, "--a", str(run / "model.zip"),
                "--b", "random", "--games", "6", "--json", str(tmp_path / "eval.json")])
    assert "95% Wilson" in out
    result = json.loads((tmp_path / "eval.json").read_text())
    assert result["games"] == 6 and sum(sum(v) for v in result["per_seat"].values()) == 6

    if game == "garda3":  # a model of another game: a clear error, no traceback
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
        proc = subprocess.run([sys.executable, "-m", "card_envs.cli", "evaluate", "--game",
                               "dirt_and_glory", "--a", str(run / "model.zip"), "--b", "random",
                               "--games", "2"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 2
        assert "trained on another game or config" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_the_new_recipe_runs_and_resumes_with_its_anchor_and_privileged_critic(tmp_path):
    """The issue-18 recipe flags end to end: a search teacher cloned in 2 worker processes, the
    KL anchor (saved as anchor.zip and set again on resume), the critic warm-up, the clipped
    value loss and the privileged critic (the resumed run keeps it, whatever the flags say); the
    saved model plays in card-envs evaluate from its own observation."""
    run = tmp_path / "run"
    recipe = ["--bc-teacher", "heuristic+lookahead:2", "--bc-workers", "2", "--anchor-coef",
              "0.5", "--anchor-decay-steps", "1000", "--critic-warmup-steps", "128",
              "--clip-range-vf", "0.2", "--privileged-critic"]
    out = _run(["training/ppo.py", "--game", "garda3", "--total-timesteps", "256",
                "--run-dir", str(run), *TINY, *recipe], timeout=240)
    assert "behaviour cloning of heuristic+lookahead:2 on" in out
    assert (run / "anchor.zip").is_file()
    first = json.loads((run / "summary.json").read_text())
    assert first["args"]["privileged_critic"] is True
    # the periodic evaluation: the same 2 duplicate deals (4 games) against the heuristic
    point = first["curve"][0]
    assert point["eval/wilson95_vs_heuristic"][0] <= point["eval/win_rate_vs_heuristic"]
    import csv

    rows = list(csv.DictReader(open(run / "progress.csv")))
    assert any(r.get("train/anchor_coef") not in (None, "") for r in rows)
    assert any(r.get("train/critic_warmup") == "1" for r in rows)
    assert list(run.glob("events.out.tfevents.*"))  # TensorBoard scalars beside the csv

    # a model setting given with --resume is the saved model's: warned, and recorded as used
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    proc = subprocess.run([sys.executable, "training/ppo.py", "--total-timesteps", "512",
                           "--resume", str(run), "--learning-rate", "0.01", *TINY], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "--learning-rate 0.01 ignored: the resumed model keeps its 0.0001" in proc.stderr
    assert "timesteps (total" in proc.stdout
    second = json.loads((run / "summary.json").read_text())
    assert second["timesteps"] >= 512 and second["args"]["privileged_critic"] is True
    assert second["args"]["learning_rate"] == 1e-4 and second["args"]["anchor_coef"] == 0.5
    out = _run(["-m", "card_envs.cli", "evaluate", "--game", "garda3", "--a",
                str(run / "model.zip"), "--b", "heuristic", "--games", "4"])
    assert "95% Wilson" in out


@pytest.mark.slow  # the package's games; Toy Chips (the tests' own) is too short to need it
@pytest.mark.parametrize("game", [g for g in registered_games() if g not in TEST_GAMES])
def test_learning_beats_random_after_a_minute(game, tmp_path):
    """Learning happens: one minute of default training wins >= 75 % against random in a game
    scored win/loss; in a game paying chips (Leduc Hold'em, issue 23: its heuristic wins 43.5 %
    of its games against random while gaining +1.17 chips a game, as folding small pots is
    right) the mean return against random over 2,000 games is above 0 by its 95 % interval
    (one run measured +0.55 chips [-0.13, +1.23] over 200 games, and +0.44 [+0.01, +0.86]
    against the heuristic it was cloned from).

    The assertion is on the trained policy itself, so the final evaluation skips the
    decision-time lookahead (``--final-eval-lookahead 0``): its 2 x 200 searched games are not
    checked here and took most of the 300 s budget on Dirt and Glory (~150 s on a loaded
    2-CPU machine); the lookahead evaluation path is run by the smoke test above, the lookahead
    itself by tests/test_lookahead*.py."""
    run = tmp_path / "run"
    win_loss = make_game(game).facts.utility == "win/loss"
    games = 200 if win_loss else 2000  # a chip's mean needs more games than a win rate
    _run(["training/ppo.py", "--game", game, "--minutes", "1", "--eval-every", "50000",
          "--bc-decisions", "20000", "--bc-epochs", "4", "--final-eval-lookahead", "0",
          "--final-eval-games", str(games), "--no-progress", "--run-dir", str(run)], timeout=300)
    summary = json.loads((run / "summary.json").read_text())
    final = summary["final_eval"]
    assert set(final) == {"random", "heuristic"}, sorted(final)  # the plain policy, no search
    assert final["random"]["games"] == games
    if win_loss:
        assert final["random"]["win_rate"] >= 0.75, final
    else:
        assert final["random"]["mean_return95"][0] > 0, final


@pytest.mark.parametrize("game", ["garda3", "rust_brawl"])
def test_the_card_aware_network_trains_resumes_and_plays(game, tmp_path):
    """``--network cards``: the entity view, CardsExtractor, the behaviour-cloning start on the
    teacher's entity views; the resumed run keeps the network (a model field) without the flag;
    card-envs evaluate plays the model from each seat's own entity view."""
    run = tmp_path / "run"
    out = _run(["training/ppo.py", "--game", game, "--network", "cards", "--total-timesteps",
                "256", "--run-dir", str(run), *TINY, "--final-eval-lookahead", "0"], timeout=240)
    assert "behaviour cloning of the heuristic on" in out
    first = json.loads((run / "summary.json").read_text())
    assert first["args"]["network"] == "cards" and first["timesteps"] >= 256
    _run(["training/ppo.py", "--total-timesteps", "512", "--resume", str(run), *TINY,
          "--final-eval-lookahead", "0"], timeout=240)
    second = json.loads((run / "summary.json").read_text())
    assert second["args"]["network"] == "cards" and second["timesteps"] >= 512
    out = _run(["-m", "card_envs.cli", "evaluate", "--game", game, "--a", str(run / "model.zip"),
                "--b", "heuristic", "--games", "4", "--json", str(tmp_path / "eval.json")])
    assert json.loads((tmp_path / "eval.json").read_text())["games"] == 4


def test_dagger_rounds_run_in_the_trainer_and_are_named_or_refused_without_cloning(tmp_path):
    """``--bc-dagger-rounds``: the rounds' decisions join the cloning's (the line says so);
    without a clone to refit (``--bc-decisions 0``) the flag is ignored with a warning."""
    run = tmp_path / "run"
    out = _run(["training/ppo.py", "--game", "garda3", "--total-timesteps", "128", "--run-dir",
                str(run), *TINY, "--final-eval-lookahead", "0", "--bc-dagger-rounds", "2",
                "--bc-dagger-decisions", "100"])
    assert "decisions (2 DAgger rounds included): accuracy" in out
    summary = json.loads((run / "summary.json").read_text())
    assert summary["behaviour_cloning"]["bc/decisions"] >= 200 + 2 * 100
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    args = [arg if arg != "200" else "0" for arg in TINY]  # --bc-decisions 0
    proc = subprocess.run([sys.executable, "training/ppo.py", "--game", "garda3",
                           "--total-timesteps", "128", "--run-dir", str(tmp_path / "none"),
                           *args, "--final-eval-lookahead", "0", "--bc-dagger-rounds", "2"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert ("warning: --bc-dagger-rounds 2 ignored: no policy was cloned (--bc-decisions 0, or "
            "no heuristic to clone)") in proc.stderr
    assert "behaviour cloning" not in proc.stdout
