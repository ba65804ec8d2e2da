"""The trainer's flags (card_envs.training.args, parsed by tyro) and the resume plan
(card_envs.training.checkpoints): help for every field, the flag spellings the docs and
scripts use, errors that name the flag, and resuming without changing the given arguments."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tyro")

from card_envs.training import args as args_module  # noqa: E402
from card_envs.training.args import Args, parse_args  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _field_docs() -> dict[str, str]:
    """The docstring under each Args field, read from the source (the test's own oracle)."""
    tree = ast.parse(inspect.getsource(args_module))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Args").body
    return {node.target.id: " ".join(nxt.value.value.split())
            for node, nxt in zip(body, body[1:])
            if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)}


def _help(cmd: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    proc = subprocess.run([sys.executable, *cmd, "--help"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return " ".join(re.sub("[│╭╮╰╯─]", " ", proc.stdout).split())  # tyro's boxes unwrapped


def test_no_experiment_figures_in_the_help():
    """One run's win rates and speeds belong in docs/training.md, not in the flags' help."""
    for name, doc in _field_docs().items():
        assert "%" not in doc and "measured" not in doc and "steps/s" not in doc, (name, doc)


def test_the_flag_spellings_used_in_readme_and_scripts():
    args = parse_args(["--game", "scratch_wars", "--game-config", '{"level": 3}', "--set",
                       "level=2", "--set", "x=y", "--minutes", "0", "--total-timesteps", "256",
                       "--resume", "runs/x", "--opponent-mix", "self=1", "--no-progress",
                       "--final-eval-lookahead", "0", "--n-envs", "2", "--run-dir", "r"])
    assert args == Args(game="scratch_wars", game_config='{"level": 3}', set=["level=2", "x=y"],
                        minutes=0.0, total_timesteps=256, resume="runs/x", opponent_mix="self=1",
                        progress=False, final_eval_lookahead=0, n_envs=2, run_dir="r")
    assert parse_args([]) == Args()
    assert parse_args(["--progress"]).progress is True


@pytest.mark.parametrize("argv, needle", [(["--n-envs", "abc"], "--n-envs"),
                                          (["--minutes", "soon"], "--minutes"),
                                          (["--no-such-flag", "1"], "--no-such-flag")])
def test_a_value_of_the_wrong_type_names_the_flag_without_a_traceback(argv, needle, capsys):
    with pytest.raises(SystemExit) as exc:
        parse_args(argv, prog="training/ppo.py")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_resume_plan_takes_game_and_folder_from_the_checkpoint_without_changing_args(tmp_path,
                                                                                        capsys):
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from card_envs.bots.base import RandomBot
    from card_envs.training.checkpoints import ResumePlan, plan_resume, save_checkpoint
    from card_envs.wrappers.single_agent import SingleAgentEnv
    from toy_game import make_game as make_toy

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(make_toy(pile=9), RandomBot(0), seed=0),
                        n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]}, device="cpu")
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    saved_args = Args(game="toy_game:make_game", game_config='{"pile": 9}', set=["pile=9"])
    curve = [{"timesteps": 0, "eval/win_rate_vs_random": 0.5}]
    ckpt = save_checkpoint(model, run, 64, 1.5, curve, [], saved_args)
    assert ckpt == run / "checkpoints" / "ckpt_64.zip"
    assert json.loads(ckpt.with_suffix(".json").read_text())["args"]["game_config"] == \
        '{"pile": 9}'

    given = Args(game="scratch_wars", resume=str(run), minutes=5.0)
    before = dataclasses.replace(given)
    plan = plan_resume(given)
    assert given == before  # the caller's arguments are not changed
    assert plan.args == dataclasses.replace(given, game="toy_game:make_game",
                                            game_config='{"pile": 9}', set=["pile=9"],
                                            run_dir=str(run))
    assert (plan.checkpoint, plan.source_dir) == (ckpt, run)
    assert (plan.timesteps, plan.train_seconds, plan.curve, plan.snapshots) == (64, 1.5, curve, [])
    assert "--game 'scratch_wars' ignored" in capsys.readouterr().err
    fresh = Args()
    assert plan_resume(fresh) == ResumePlan(fresh) and ResumePlan(fresh).source_dir is None


@pytest.mark.parametrize("hidden, argv", [("sb3_contrib", ["--minutes", "0.01"]),
                                          ("tyro", ["--help"])])
def test_a_missing_train_extra_is_one_line_naming_it(hidden, argv, monkeypatch, capsys,
                                                     tmp_path):
    import importlib.util

    from card_envs.cli import main as cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == hidden else real(name, *rest))
    assert cli(["train", *argv, "--run-dir", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert err == ('card-envs train needs the "train" extra: pip install "card-envs[train]" '
                   f"(not installed: {hidden})\n")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("argv, line", [
    (["--bogus-flag"], "Unrecognized options: --bogus-flag"),
    (["--total-timesteps", "abc"], "Error parsing --total-timesteps: invalid literal for int() "
                                   "with base 10: 'abc'"),
    (["--total-timesteps"], "Missing value for argument '--total-timesteps'. Expected 1 values."),
])
def test_a_bad_flag_is_one_error_line_not_a_box(argv, line, capsys, tmp_path):
    # issue 21: tyro's error box (11 lines for a bad value) condensed to one line naming the flag
    from card_envs.training.ppo import main

    assert main([*argv, "--run-dir", str(tmp_path / "run")], prog="training/ppo.py") == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"training/ppo.py: error: {line} (see training/ppo.py --help)\n"
    assert not (tmp_path / "run").exists()


def test_the_installed_command_and_the_script_print_one_line_too():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "40"}  # a narrow terminal wraps
    for cmd in (["training/ppo.py"], ["-m", "card_envs.cli", "train"],
                ["-m", "card_envs.cli", "train", "--method", "exit"]):
        proc = subprocess.run([sys.executable, *cmd, "--seed", "abc"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)
        prog = "training/ppo.py" if cmd[0] == "training/ppo.py" else \
            "card-envs train" + (" --method exit" if "exit" in cmd else "")
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr == (f"{prog}: error: Error parsing --seed: invalid literal for int() "
                               f"with base 10: 'abc' (see {prog} --help)\n")
    help_text = _help(["training/ppo.py"])  # --help still shows tyro's help, exit 0
    assert "--total-timesteps INT" in help_text


def _main_error(argv: list[str], capsys, method: str = "ppo") -> str:
    """The one error line of ``card-envs train [--method exit] ARGV`` (exit 2), its prog cut."""
    from card_envs.cli import main as cli

    extra = ["--method", "exit", "--rounds", "1"] if method == "exit" else \
        ["--total-timesteps", "64", "--bc-decisions", "0"]
    assert cli(["train", *extra, *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err
    return captured.err.split(": error: ", 1)[1].rstrip("\n")


@pytest.mark.parametrize("method", ["ppo", "exit"])
def test_a_run_dir_that_is_a_file_or_cannot_be_made_is_one_line_before_any_work(
        method, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    assert _main_error(["--run-dir", str(afile)], capsys, method) == \
        f"--run-dir '{afile}': is a file, not a folder"
    assert _main_error(["--run-dir", str(afile / "sub" / "run")], capsys, method) == \
        f"--run-dir '{afile}/sub/run': '{afile}' is a file, not a folder"
    if Path("/proc/self").is_dir():  # Linux: no folder can be made in /proc
        assert _main_error(["--run-dir", "/proc/nope/run"], capsys, method) == \
            "--run-dir '/proc/nope/run': cannot be created: No such file or directory"
    assert afile.read_text() == "not a folder"


def test_check_run_dir_probes_without_leaving_folders(tmp_path):
    from card_envs.training.args import check_run_dir

    check_run_dir(str(tmp_path / "a" / "b" / "run"))  # can be made: the probe removes it again
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "kept").mkdir()
    check_run_dir(str(tmp_path / "kept"))  # an existing folder stays
    check_run_dir(str(tmp_path / "kept" / "new"))
    assert [p.name for p in tmp_path.rglob("*")] == ["kept"]


@pytest.mark.parametrize("method", ["ppo", "exit"])
def test_a_fresh_run_into_a_folder_holding_a_run_is_refused(method, tmp_path, capsys):
    from card_envs.training.args import check_no_run_in, check_run_dir

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "notes.txt").write_text("mine")  # anything else may be there
    check_no_run_in(str(run))  # an empty (or unrelated) folder is fine
    check_run_dir(str(run))
    (run / "summary.json").write_text("{}")  # no checkpoint: whose run it is, is unknown
    hint = f": continue it with --resume '{run}', or start this one in another --run-dir"
    assert _main_error(["--run-dir", str(run)], capsys, method) == \
        f"--run-dir '{run}' already holds a run (summary.json){hint}"
    (run / "checkpoints" / "ckpt_1024.zip").write_bytes(b"")  # a PPO checkpoint
    (run / "checkpoints" / "ckpt_2048.zip").write_bytes(b"")
    (run / "model.zip").write_bytes(b"")
    held = "(summary.json, model.zip, 2 checkpoints in checkpoints/)"
    if method == "ppo":  # its own kind of run: offered to --resume
        assert _main_error(["--run-dir", str(run)], capsys, method) == \
            f"--run-dir '{run}' already holds a run {held}{hint}"
    else:  # expert iteration cannot resume a PPO run: the hint names the command that can
        assert _main_error(["--run-dir", str(run)], capsys, method) == \
            f"--run-dir '{run}' already holds a PPO run {held}: expert iteration cannot " \
            f"continue it (card-envs train --resume '{run}' does); start this one in another " \
            f"--run-dir"
    assert sorted(p.name for p in run.rglob("*")) == [
        "checkpoints", "ckpt_1024.zip", "ckpt_2048.zip", "model.zip", "notes.txt",
        "summary.json"]  # nothing written


def test_a_fresh_run_of_expert_iteration_finds_its_rounds(tmp_path):
    from card_envs.core.errors import ConfigError
    from card_envs.training.args import check_no_run_in

    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "round_3.json").write_text("{}")
    with pytest.raises(ConfigError, match=r"already holds a run \(checkpoints/round_3.json\)"):
        check_no_run_in(str(tmp_path), method="exit")
    with pytest.raises(ConfigError) as caught:  # PPO meets an expert-iteration run
        check_no_run_in(str(tmp_path), method="ppo")
    assert str(caught.value) == (
        f"--run-dir '{tmp_path}' already holds an expert-iteration run "
        f"(checkpoints/round_3.json): PPO cannot continue it (card-envs train --method exit "
        f"--resume '{tmp_path}' does); start this one in another --run-dir")


@pytest.mark.parametrize("value", ["0", "-1", "1e-9", "0.09", "1001", "inf", "nan"])
def test_a_bc_temperature_outside_its_range_is_one_line_naming_it(value, tmp_path, capsys):
    # beyond [0.1, 1000] the scaled logits overflow or vanish and the cloned choices are lost
    assert _main_error(["--bc-temperature", value, "--run-dir", str(tmp_path / "run")],
                       capsys, "ppo") == \
        f"--bc-temperature {float(value)!r}: must be in [0.1, 1000] (1: off)"
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("argv, line", [
    (["--bc-dagger-rounds", "-1"], "--bc-dagger-rounds -1: must be >= 0"),
    (["--bc-dagger-decisions", "0"], "--bc-dagger-decisions 0: must be >= 1"),
    (["--bc-dagger-epochs", "0"], "--bc-dagger-epochs 0: must be >= 1"),
])
def test_a_dagger_flag_out_of_range_is_one_line_naming_it(argv, line, tmp_path, capsys):
    assert _main_error([*argv, "--run-dir", str(tmp_path / "run")], capsys, "ppo") == line
    assert not (tmp_path / "run").exists()
