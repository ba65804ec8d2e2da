"""The Ray backend of card_envs.evaluation.pool (the ``rllib`` extra): ``card-envs tournament``,
``sprt`` and ``balance`` with ``--address local`` give exactly what ``--workers 2`` gives for the
same seeds; the games come back in job order whatever order they end in; the progress bar counts
them with rate and time left; a worker's error, or a job it cannot load, arrives as one named
error; expert iteration labels the same games on Ray as in this process.

One local Ray (``num_cpus=2``) for all of them: the session fixture ``ray_session`` of
conftest.py, which test_rllib.py shares. A missing extra: under ``CI=true`` these tests fail,
except in the core-install run of ``.ci/run`` (``CARD_ENVS_CORE_ONLY=1``), where they skip with
the reason (as test_rllib.py).
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
from dataclasses import dataclass

import numpy as np
import pytest

REASON = 'the rllib extra is not installed: pip install "card-envs[rllib]"'
if importlib.util.find_spec("ray") is None:
    if os.environ.get("CARD_ENVS_CORE_ONLY") != "1" and \
            os.environ.get("CI", "").lower() == "true":
        raise ImportError(REASON + " (CI installs every extra)")
    pytest.skip(REASON, allow_module_level=True)

from test_pool import Job, _ends_last_first

from card_envs.cli import main
from card_envs.core.errors import ConfigError
from card_envs.evaluation.pool import GamePool
from card_envs.evaluation.tournament import tournament

TOY = ["--game", "toy_game:make_game", "--game-config", '{"pile": 9}']


def _json_of(argv, path) -> dict:
    assert main([*argv, "--json", str(path)]) == 0
    return json.loads(path.read_text())


def test_tournament_on_ray_equals_two_workers(ray_session, tmp_path, capsys):
    argv = ["tournament", *TOY, "--policies", "random,random+lookahead:1,fuzz_forfeits:Crasher",
            "--gauntlet", "toy_game:PerfectBot", "--deals", "6", "--bootstrap", "50",
            "--no-progress"]
    on_ray = _json_of([*argv, "--address", "local"], tmp_path / "ray.json")
    assert re.search(r"^\(\d+\.\ds, Ray at local\)$", capsys.readouterr().out, re.MULTILINE)
    workers = _json_of([*argv, "--workers", "2"], tmp_path / "w2.json")
    assert on_ray == workers
    # 6 deals x 2 seats against each of the three others, every game listed in schedule order
    assert [p["games"] for p in on_ray["pairs"]] == [12, 12, 12]
    assert len(on_ray["games_played"]) == 36
    assert [g[2:4] for g in on_ray["games_played"][:6]] == [[0, 0], [0, 1]] * 3
    assert on_ray["forfeits"]["fuzz_forfeits:Crasher"]["games"] >= 1


def test_sprt_on_ray_equals_two_workers(ray_session, tmp_path):
    argv = ["sprt", *TOY, "--a", "random", "--b", "random+lookahead:1", "--elo1", "5",
            "--max-games", "60", "--seed", "4", "--no-progress"]
    on_ray = _json_of([*argv, "--address", "local"], tmp_path / "ray.json")
    assert on_ray == _json_of([*argv, "--workers", "2"], tmp_path / "w2.json")
    assert on_ray == _json_of(argv, tmp_path / "serial.json")
    assert on_ray["games"] == 2 * on_ray["pairs"] <= 60


def test_balance_on_ray_equals_two_workers(ray_session, tmp_path):
    pytest.importorskip("tyro")
    argv = ["balance", "test_balance:make_duel", "--games", "24", "--seed", "5", "--policy",
            "random", "--min-decks", "4", "--no-progress"]
    on_ray = _json_of([*argv, "--address", "local"], tmp_path / "ray.json")
    workers = _json_of([*argv, "--workers", "2"], tmp_path / "w2.json")
    for report in (on_ray, workers):
        report.pop("seconds")
    assert (on_ray.pop("workers"), workers.pop("workers")) == (2, 2)  # the Ray's 2 CPUs
    assert on_ray == workers
    assert on_ray["games"] == 24 and on_ray["deals"] == 12


def test_the_progress_bar_counts_ray_games_with_rate_and_time_left(ray_session, capsys):
    t = tournament("toy_game:make_game", ["random", "toy_game:PerfectBot"], deals=10,
                   config={"pile": 9}, resamples=5, progress=True, address="local")
    assert len(t.records) == 20
    err = capsys.readouterr().err
    # tqdm: count/total [elapsed<time left, rate]
    assert re.search(r"tournament: 100%\|[^|]*\| 20/20 \[\d\d:\d\d<00:00, +[\d.]+(game/s|s/game)\]",
                     err), err


def test_ray_returns_the_games_in_job_order(ray_session, tmp_path):
    with GamePool(address="local") as pool:
        assert pool.parallelism == 2 and pool.describe() == "Ray at local (2 tasks at once)"
        _ends_last_first(pool, tmp_path)
    with GamePool(workers=1, address="local") as pool:  # --workers caps the tasks at once
        assert not pool.serial and pool.parallelism == 1
    import ray

    assert ray.is_initialized()  # a Ray the pool did not start is left running


@dataclass(frozen=True)
class BrokenSetup:
    def build(self):
        raise ConfigError("game 'broken': built only in the worker")


def test_an_error_in_a_ray_worker_arrives_as_itself(ray_session):
    with GamePool(address="local") as pool, \
            pytest.raises(ConfigError, match="^game 'broken': built only in the worker$"):
        pool.run(BrokenSetup(), [Job(0, 0)])


def test_a_ray_worker_that_cannot_load_the_job_names_the_module(ray_session):
    from test_pool import ghost_setup

    from card_envs.evaluation.pool import WorkerImportError

    with GamePool(address="local") as pool, pytest.raises(WorkerImportError) as info:
        pool.run(ghost_setup(), [Job(0, 0)])
    assert "No module named 'ghost_module'; every machine of the Ray cluster needs this " \
        "card-envs installed" in str(info.value)


def test_expert_iteration_labels_the_same_on_ray_as_here(ray_session):
    # worker processes against this process: the same pool code path as Ray's but for the
    # transport (tests/test_pool.py); here the network travels to Ray as saved bytes, while this
    # process searches with the live one
    pytest.importorskip("sb3_contrib")
    from tqdm import tqdm

    from card_envs.bots.base import RandomBot
    from card_envs.core.registry import make_game
    from card_envs.evaluation.runner import deal_seed
    from card_envs.training.args import Args
    from card_envs.training.exit import (
        LabelJob,
        LabelSetup,
        _model_factory,
        label_round,
    )

    make_model, make_vec_env, seed_everything = _model_factory()
    seed_everything(3)
    game = make_game("garda3")
    args = Args(n_envs=1, net_arch="8,8")
    model = make_model(make_vec_env(game, RandomBot(0), args, 0), args)
    setup = LabelSetup("garda3", {}, iterations=4, c_puct=1.0, rollout="heuristic")
    jobs = [LabelJob(g, 1, deal_seed(7, g)) for g in range(2)]
    runs = []
    for backend in ({"address": "local"}, {}):
        with GamePool(**backend) as pool, tqdm(total=2, file=io.StringIO()) as bar:
            runs.append(label_round(pool, setup, game, model, jobs, None, bar))
            assert bar.n == 2
    (ray_labels, ray_games, ray_searched), (labels, games, searched) = runs
    assert (ray_games, ray_searched) == (games, searched) and games == 2 and searched > 0
    assert len(ray_labels) == len(labels) == 2
    for mine, theirs in zip(ray_labels, labels):
        for field in ("observations", "masks", "targets", "returns", "seats", "rounds"):
            np.testing.assert_array_equal(getattr(mine, field), getattr(theirs, field))
