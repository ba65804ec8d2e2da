"""No training work lost (issue 21): Ctrl-C saves a resumable checkpoint and prints one line;
checkpoints and the run's files are written atomically; ``--resume`` falls back past a
half-written newest checkpoint; resuming an older checkpoint never overwrites newer work; league
snapshots are pruned to the newest ``--league-keep``; every long step shows a bar with its rate
and time left, and the run has one throughput figure.

Tiny budgets (as tests/test_training_smoke.py): 64-step rollouts of 2 envs, 200 cloned decisions.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from card_envs.core.errors import ConfigError  # noqa: E402
from card_envs.training.args import Args  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--minutes", "0", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "32,32", "--eval-every", "128", "--eval-deals", "2",
        "--eval-random-deals", "2", "--snapshot-every", "128", "--checkpoint-every", "128",
        "--final-eval-games", "4", "--final-eval-lookahead", "0", "--no-progress",
        "--bc-decisions", "200", "--bc-epochs", "1"]
TINY_ARGS = dict(minutes=0.0, n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch="32,32",
                 eval_every=128, eval_deals=2, eval_random_deals=2, snapshot_every=128,
                 checkpoint_every=128, final_eval_games=4, final_eval_lookahead=0,
                 progress=False, bc_decisions=200, bc_epochs=1)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}


def _train(**kwargs):
    from card_envs.training.ppo import train

    return train(Args(**{**TINY_ARGS, **kwargs}))


def _ckpts(run: Path) -> list[int]:
    return sorted(int(p.stem.split("_")[1]) for p in (run / "checkpoints").glob("ckpt_*.zip"))


def test_ctrl_c_saves_a_checkpoint_that_resumes_where_it_stopped(tmp_path):
    run = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "training/ppo.py", "--game", "garda3",
                             "--total-timesteps", "1000000", "--run-dir", str(run), *TINY],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.time() + 240
        while not (run / "checkpoints" / "ckpt_256.json").exists():  # PPO is running
            assert proc.poll() is None and time.time() < deadline, proc.communicate()
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, naming where the work is and how to continue
    n = int(re.fullmatch(r"training/ppo\.py: interrupted during (?:PPO|the loop's snapshot, "
                         r"evaluation or checkpoint) at (\d+) timesteps: checkpoint (\S+) saved; "
                         r"continue with: training/ppo\.py --resume (\S+)", lines[0]).group(1))
    assert n >= 256
    assert lines[0].endswith(f"checkpoint {run}/checkpoints/ckpt_{n}.zip saved; continue with: "
                             f"training/ppo.py --resume {run}")
    saved = json.loads((run / "checkpoints" / f"ckpt_{n}.json").read_text())
    assert saved["timesteps"] == n and saved["warm_start_done"] is True
    assert not list(run.rglob("*.partial"))
    assert not (run / "summary.json").exists()

    # resumed from the interrupted checkpoint: no step lost, the curve carried on
    done = subprocess.run([sys.executable, "training/ppo.py", "--resume", str(run),
                           "--total-timesteps", str(n + 128), *TINY], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((run / "summary.json").read_text())
    assert f"{summary['timesteps'] - n} timesteps (total {summary['timesteps']})" in done.stdout
    assert summary["timesteps"] >= n + 128
    assert summary["curve"][:len(saved["curve"])] == saved["curve"]


def test_ctrl_c_in_the_warm_start_saves_a_checkpoint_that_starts_afresh(tmp_path, monkeypatch):
    import card_envs.training.ppo as ppo
    from card_envs.training.interrupt import TrainingInterrupted

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt  # Ctrl-C while the teacher's decisions are collected

    run = tmp_path / "run"
    monkeypatch.setattr(ppo, "warm_start", interrupted)
    with pytest.raises(TrainingInterrupted) as info:
        _train(game="garda3", total_timesteps=128, run_dir=str(run))
    assert (info.value.timesteps, info.value.during) == (0, "behaviour cloning")
    assert info.value.line("training/ppo.py") == (
        f"interrupted during behaviour cloning at 0 timesteps: checkpoint "
        f"{run}/checkpoints/ckpt_0.zip saved; continue with: training/ppo.py --resume {run}")
    assert json.loads((run / "checkpoints" / "ckpt_0.json").read_text())["warm_start_done"] \
        is False
    monkeypatch.undo()
    # the resumed run clones the heuristic anew (the warm start had not finished), then trains
    summary = _train(resume=str(run), total_timesteps=128)
    assert summary["behaviour_cloning"]["bc/decisions"] >= 200
    assert summary["timesteps"] >= 128 and summary["curve"][0]["timesteps"] == 0


def test_a_half_written_newest_checkpoint_falls_back_and_older_work_is_never_overwritten(
        tmp_path, capsys):
    from card_envs.training.checkpoints import plan_resume

    run = tmp_path / "run"
    first = _train(game="garda3", total_timesteps=384, run_dir=str(run))
    assert _ckpts(run) == [128, 256, 384] and first["timesteps"] == 384
    newest = run / "checkpoints" / "ckpt_384.zip"
    newest.write_bytes(newest.read_bytes()[:1000])  # half-written (a crash of an older version)

    # the run folder's summary.json and model.zip are at 384: resuming 256 there is refused
    with pytest.raises(ConfigError) as err:
        plan_resume(Args(resume=str(run)))
    assert str(err.value) == (
        f"--resume: '{run}/checkpoints/ckpt_256.zip' is at 256 timesteps, but the run folder "
        f"'{run}' holds newer work (summary.json and model.zip at 384 timesteps) that resuming "
        "there would overwrite; continue in another folder with --run-dir NEW_FOLDER")
    assert "skipping checkpoints/ckpt_384.zip, not a complete checkpoint" in capsys.readouterr().err
    kept = (run / "model.zip").read_bytes()

    # ... but into another folder it branches off (league snapshots and all), the old one kept
    branch = tmp_path / "branch"
    summary = _train(resume=str(run / "checkpoints" / "ckpt_256.zip"), run_dir=str(branch),
                     total_timesteps=384)
    assert summary["timesteps"] == 384 and _ckpts(branch) == [384]
    assert (run / "model.zip").read_bytes() == kept and _ckpts(run) == [128, 256, 384]
    assert all((branch / rel).is_file() for rel in summary["league"]["snapshots"])

    # a run killed while writing its last checkpoint has no summary.json or model.zip from it:
    # --resume FOLDER then falls back to the newest complete checkpoint, with one warning line
    (run / "summary.json").unlink()
    (run / "model.zip").unlink()
    capsys.readouterr()
    summary = _train(resume=str(run), total_timesteps=512)
    err = capsys.readouterr().err
    assert err == (f"[card-envs] warning: --resume: skipping checkpoints/ckpt_384.zip, not a "
                   f"complete checkpoint (checkpoint '{newest}' is not a saved MaskablePPO model "
                   "(not a .zip archive)); resuming ckpt_256.zip\n")
    assert summary["timesteps"] == 512
    assert [p["timesteps"] for p in summary["curve"]] == [0, 128, 256, 384, 512]
    assert not list(run.rglob("*.partial"))


def test_files_are_written_whole_or_not_at_all(tmp_path):
    from card_envs.training.checkpoints import write_atomic, write_json_atomic

    path = tmp_path / "summary.json"
    write_json_atomic(path, {"timesteps": 1})

    def broken(f):
        f.write(b'{"timest')
        raise KeyboardInterrupt  # Ctrl-C in the middle of writing

    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, broken)
    assert json.loads(path.read_text()) == {"timesteps": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


def test_league_snapshots_are_pruned_to_the_newest_league_keep(tmp_path, capsys):
    from card_envs.training.args import validate_args

    run = tmp_path / "run"
    summary = _train(game="garda3", total_timesteps=512, run_dir=str(run), max_pool=2,
                     league_keep=2)
    # snapshots at 0, 128, ..., 512: the newest 2 files are kept, and listed
    assert sorted(p.name for p in (run / "league").iterdir()) == ["self_384.zip", "self_512.zip"]
    assert summary["league"]["snapshots"] == ["league/self_384.zip", "league/self_512.zip"]
    with pytest.raises(ConfigError, match=r"^--league-keep 3: must be 0 \(keep all\) or >= "
                                          r"--max-pool 20"):
        validate_args(Args(league_keep=3))
    validate_args(Args(league_keep=0))

    # the checkpoint before the newest lists self_256, deleted since: falling back to it, the
    # league resumes with the snapshot kept (self_384), said in one line
    newest = run / "checkpoints" / "ckpt_512.zip"
    newest.write_bytes(b"")
    (run / "summary.json").unlink()
    (run / "model.zip").unlink()
    assert json.loads((run / "checkpoints" / "ckpt_384.json").read_text())["snapshots"] == \
        ["league/self_256.zip", "league/self_384.zip"]
    capsys.readouterr()
    summary = _train(resume=str(run), total_timesteps=512, max_pool=2, league_keep=2)
    err = capsys.readouterr().err
    assert ("[card-envs] warning: --resume: 1 league snapshot(s) of ckpt_384.zip were deleted "
            "since (--league-keep 2): the league resumes with the 1 kept") in err
    assert summary["league"]["snapshots"] == ["league/self_384.zip", "league/self_512.zip"]


def test_every_long_step_shows_its_rate_and_time_left_and_one_throughput_figure(tmp_path,
                                                                                capsys):
    # the warm start and the final evaluation used to be silent (no bar), and the loop's bar
    # ended on another sps than the last line's steps/s
    summary = _train(game="garda3", total_timesteps=256, run_dir=str(tmp_path / "run"),
                     progress=True, final_eval_games=8)
    captured = capsys.readouterr()
    err, out = captured.err, captured.out
    for bar, unit in [("behaviour cloning: collecting", "decision/s"),
                      ("behaviour cloning: fitting 1 epochs", "batch/s"),
                      ("evaluation at the start", "game/s"),
                      ("evaluation at 128 timesteps", "game/s"),
                      ("final evaluation", "game/s")]:
        shown = [line for line in re.split(r"[\r\n]", err) if line.startswith(bar + ":")]
        assert shown, (bar, err[-2000:])
        assert unit in shown[-1] and "<" in shown[-1], shown[-1]  # rate, elapsed<left
    bar_sps = re.findall(r"sps=(\d+)", err)[-1]
    line_sps = re.search(r"; (\d+) steps/s in the PPO loop, as on the bar;", out).group(1)
    assert bar_sps == line_sps
    assert abs(int(line_sps) - summary["charts/SPS"]) <= 0.55  # the same figure, to 0.1 there


def test_resuming_a_finished_run_keeps_its_summary_curve_and_model(tmp_path, capsys):
    run = tmp_path / "run"
    first = _train(game="garda3", total_timesteps=128, run_dir=str(run), bc_decisions=0,
                   final_eval_games=2)
    assert first["timesteps"] == 128 and first["final_eval"]["heuristic"]["games"] == 2
    before = {name: (run / name).read_bytes()
              for name in ("summary.json", "learning_curve.png", "model.zip")}
    capsys.readouterr()

    second = _train(resume=str(run), total_timesteps=256, bc_decisions=0, final_eval_games=0)
    kept = run / "resumed_at_128"
    assert f"[card-envs] resuming: the previous summary.json, learning_curve.png, model.zip kept " \
           f"in {kept}\n" in capsys.readouterr().out
    assert second["timesteps"] == 256 and second["final_eval"] == {}
    # the previous files, byte for byte, beside the resumed run's own progress.csv
    assert {name: (kept / name).read_bytes() for name in before} == before
    assert json.loads((kept / "summary.json").read_text())["final_eval"]["heuristic"]["games"] == 2
    assert (kept / "progress.csv").is_file()
    assert json.loads((run / "summary.json").read_text())["timesteps"] == 256
    assert (run / "model.zip").read_bytes() != before["model.zip"]
    assert not list(run.rglob("*.partial"))


def test_one_model_file_of_garda3_is_the_size_docs_training_md_gives(tmp_path):
    # weights + Adam's two moments per weight (float32): 3 * 4 bytes a parameter, once Adam has
    # stepped; docs/training.md's run-folder sizes are multiples of this file
    import dataclasses
    import zipfile

    from card_envs.bots.base import RandomBot
    from card_envs.bots.specs import resolve_game
    from card_envs.training.model import make_model, make_vec_env

    args = dataclasses.replace(Args(game="garda3"), n_steps=8, batch_size=64, n_epochs=1)
    vec = make_vec_env(resolve_game("garda3", {}), RandomBot(0), args, 1)  # 8 envs, as default
    model = make_model(vec, args)
    obs, actions, hidden = 294, 56, 128  # Garda3's flat observation and actions; 128-128 net
    layers = (obs * hidden + hidden) + (hidden * hidden + hidden)  # one tower (pi, or vf)
    params = 2 * layers + (hidden * actions + actions) + (hidden + 1)
    assert params == 115_897 == sum(p.numel() for p in model.policy.parameters())
    model.learn(64)  # one update: Adam's state exists from here on
    path = tmp_path / "model.zip"
    model.save(path)
    vec.close()
    sizes = {i.filename: i.file_size for i in zipfile.ZipFile(path).infolist()}
    assert 4 * params < sizes["policy.pth"] < 4 * params * 1.02  # 468 kB
    assert 8 * params < sizes["policy.optimizer.pth"] < 8 * params * 1.02  # 937 kB
    # the zip's own overhead may move a little with the library versions: within 1 %
    assert abs(path.stat().st_size - 1.44e6) < 0.0144e6
    docs = " ".join((ROOT / "docs" / "training.md").read_text().split())
    assert "is 1.44 MB for Garda3" in docs
    assert "17 model files, and 20 snapshots of 0.50 MB, about 35 MB" in docs  # 17 x 1.44 + 20 x 0.50 MB

    # a league snapshot keeps the weights and drops Adam's moments (a third of the file); the
    # learner's own optimizer state is untouched, and the snapshot plays as the learner does
    import numpy as np
    import torch

    from card_envs.bots.sb3 import load_policy
    from card_envs.training.league import League
    from card_envs.training.model import save_snapshot, snapshot

    moments = [(p, {k: t.clone() for k, t in v.items()})
               for p, v in model.policy.optimizer.state.items()]
    assert len(moments) == 12  # every weight and bias: 2 towers x 2 layers, 2 heads (x 2)
    league = League({"self": 1.0})
    (tmp_path / "league").mkdir()  # the trainer makes it at the start
    rel = save_snapshot(model, league, tmp_path, 64, seed=1)
    assert rel == "league/self_64.zip" and len(league.pools["self"]) == 1
    sizes = {i.filename: i.file_size for i in zipfile.ZipFile(tmp_path / rel).infolist()}
    assert 4 * params < sizes["policy.pth"] < 4 * params * 1.02
    assert sizes["policy.optimizer.pth"] < 5_000  # the param groups, no moments
    assert abs((tmp_path / rel).stat().st_size - 0.50e6) < 0.005e6  # "snapshots of 0.50 MB"
    assert all(torch.equal(model.policy.optimizer.state[p][k], t)
               for p, v in moments for k, t in v.items())
    frozen, learner = load_policy(tmp_path / rel), snapshot(model, "learner")
    rows = np.random.default_rng(0).random((16, obs), dtype=np.float32)
    assert np.allclose(frozen.logits_batch(rows), learner.logits_batch(rows), atol=1e-6)
