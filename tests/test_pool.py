"""The games backend (card_envs.evaluation.pool) without Ray: results in job order whatever order
the games end in, the deadline, the choice of backend; ``--address`` errors of ``card-envs
tournament``, ``sprt``, ``balance`` and ``train --method exit`` as one line before any game (an
address where nothing listens is refused before Ray is imported, so these run without the
``rllib`` extra). The Ray backend itself: tests/test_ray_evaluation.py."""

from __future__ import annotations

import importlib
import socket
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from card_envs.cli import main
from card_envs.core.errors import ConfigError
from card_envs.evaluation.pool import (
    ClusterUnreachableError,
    GamePool,
    check_reachable,
    pool_for,
)

TOY = ["--game", "toy_game:make_game", "--game-config", '{"pile": 9}']


# -- a setup whose first game ends last ---------------------------------------------------------
@dataclass(frozen=True)
class Job:
    index: int
    seed: int


@dataclass(frozen=True)
class Played:
    index: int
    value: int


@dataclass(frozen=True)
class LastFirstSetup:
    """Job 0 waits until every other job has written its marker file in ``folder`` (then 0.2 s
    more): with two workers, the other jobs run one after another on the second worker, and
    all but the last have sent their results before job 0 ends."""

    folder: str
    jobs: int

    def build(self):
        return LastFirstArena(Path(self.folder), self.jobs)


class LastFirstArena:
    def __init__(self, folder: Path, jobs: int):
        self.folder, self.jobs = folder, jobs

    def play(self, job: Job) -> Played:
        if job.index == 0:
            t0 = time.time()
            while not all((self.folder / f"done-{i}").exists() for i in range(1, self.jobs)):
                if time.time() - t0 > 60:
                    raise TimeoutError("the other jobs did not end")
                time.sleep(0.02)
            time.sleep(0.2)
        else:
            (self.folder / f"done-{job.index}").touch()
        return Played(job.index, 10 * job.seed + 1)


def _ends_last_first(pool: GamePool, folder: Path) -> None:
    """The results come back in job order, though job 0 ends after all the others."""
    jobs = [Job(i, 7 - i) for i in range(4)]
    ended: list[int] = []
    results = pool.run(LastFirstSetup(str(folder), 4), jobs,
                       on_result=lambda r: ended.append(r.index), chunk_size=1)
    assert sorted(ended) == [0, 1, 2, 3] and ended.index(0) > max(ended.index(1), ended.index(2))
    assert results == [Played(0, 71), Played(1, 61), Played(2, 51), Played(3, 41)]


def test_two_worker_processes_return_the_games_in_job_order(tmp_path):
    with GamePool(workers=2) as pool:
        assert not pool.serial and pool.parallelism == 2
        assert pool.describe() == "2 worker processes"
        _ends_last_first(pool, tmp_path)


def test_the_serial_backend_and_the_deadline(tmp_path):
    jobs = [Job(i, i) for i in range(1, 4)]  # no job 0: nothing waits
    setup = LastFirstSetup(str(tmp_path), 4)
    with GamePool() as pool:
        assert pool.serial and pool.parallelism == 1 and pool.describe() == "this process"
        assert pool.run(setup, jobs) == [Played(1, 11), Played(2, 21), Played(3, 31)]
        assert pool.run(setup, jobs, deadline=time.time() - 1) == []  # none started
    with GamePool(workers=2) as pool:
        assert pool.run(setup, jobs, deadline=time.time() - 1) == []


def ghost_setup():
    """A setup whose class lives in a module this process made up (in ``sys.modules`` only):
    pickled by reference, it cannot be loaded in a worker."""
    import sys
    import types

    module = sys.modules.setdefault("ghost_module", types.ModuleType("ghost_module"))

    @dataclass(frozen=True)
    class GhostSetup:
        def build(self):
            return None

    GhostSetup.__qualname__ = "GhostSetup"
    GhostSetup.__module__ = "ghost_module"
    module.GhostSetup = GhostSetup
    return GhostSetup()


def test_a_worker_that_cannot_load_the_job_names_the_module():
    from card_envs.evaluation.pool import WorkerImportError

    with GamePool(workers=2) as pool, pytest.raises(WorkerImportError) as info:
        pool.run(ghost_setup(), [Job(0, 0)])
    assert "cannot load the job: ModuleNotFoundError: No module named 'ghost_module'; every " \
        "machine of the Ray cluster needs this card-envs installed" in str(info.value)


@pytest.mark.parametrize("kwargs, message", [
    ({"workers": 0}, "workers must be an int >= 1, got 0"),
    ({"workers": True}, "workers must be an int >= 1, got True"),
    ({"workers": 2.0}, "workers must be an int >= 1, got 2.0"),
    ({"address": "nohost"}, "--address 'nohost': must be 'auto', 'local', HOST:PORT"),
    ({"address": "h:70000"}, "--address 'h:70000': must be"),
])
def test_bad_backend_arguments_are_named(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        GamePool(**kwargs)


def test_a_pool_is_given_or_made_not_both():
    with GamePool() as pool:
        with pool_for(pool) as same:
            assert same is pool
        with pytest.raises(ConfigError, match="give a pool, or workers / address"):
            pool_for(pool, workers=2)
    with pool_for(None, workers=2) as made:
        assert made.workers == 2


def _closed_port() -> int:
    """A local TCP port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_where_nothing_listens_is_refused_at_once():
    port = _closed_port()
    t0 = time.time()
    with pytest.raises(ClusterUnreachableError) as info:
        check_reachable(f"127.0.0.1:{port}")
    assert str(info.value) == (
        f"--address '127.0.0.1:{port}': no Ray cluster there (connection to 127.0.0.1:{port} "
        "refused); start one with `ray start --head`, use --address local for a Ray on this "
        "machine, or leave --address out")
    with pytest.raises(ClusterUnreachableError, match=r"\(unknown host 'no-such-host.invalid'\)"):
        check_reachable("no-such-host.invalid:6379")
    assert time.time() - t0 < CONNECT_LIMIT
    check_reachable("local")  # nothing to check: started here
    check_reachable("auto")  # Ray finds the address itself


#: seconds the refusals above may take (a refused or unknown address answers at once)
CONNECT_LIMIT = 5.0


@pytest.fixture
def no_games(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the user error was reported")

    monkeypatch.setattr(importlib.import_module("card_envs.evaluation.runner"), "play_game",
                        refuse)


def _one_error_line(capsys, command: str) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"card-envs {command}: error: ")
    return err


@pytest.mark.parametrize("command, argv", [
    ("tournament", ["tournament", *TOY, "--policies", "random,toy_game:PerfectBot"]),
    ("sprt", ["sprt", *TOY, "--a", "random", "--b", "toy_game:PerfectBot"]),
])
def test_a_dead_or_malformed_address_is_one_error_line(command, argv, capsys, no_games):
    port = _closed_port()
    assert main([*argv, "--address", f"127.0.0.1:{port}"]) == 2
    err = _one_error_line(capsys, command)
    assert f"--address '127.0.0.1:{port}': no Ray cluster there (connection to " in err
    assert main([*argv, "--address", "head-node"]) == 2
    assert "--address 'head-node': must be 'auto', 'local', HOST:PORT" in \
        _one_error_line(capsys, command)


def test_balance_and_exit_refuse_a_dead_address_in_one_line(capsys, tmp_path):
    pytest.importorskip("tyro")
    port = _closed_port()
    assert main(["balance", "test_balance:make_duel", "--games", "4", "--no-progress",
                 "--address", f"127.0.0.1:{port}"]) == 2
    assert f"--address '127.0.0.1:{port}': no Ray cluster there" in \
        _one_error_line(capsys, "balance")
    pytest.importorskip("sb3_contrib")
    run_dir = tmp_path / "run"
    assert main(["train", "--method", "exit", "--rounds", "1", "--run-dir", str(run_dir),
                 "--address", f"127.0.0.1:{port}", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"card-envs train --method exit: error: --address '127.0.0.1:{port}': "
                          "no Ray cluster there")
    assert not run_dir.exists()  # refused before anything was written


def test_workers_flag_defaults_and_the_closing_line(capsys):
    # --workers absent: one process (as before); the closing line says where the games ran
    assert main(["tournament", *TOY, "--policies", "random,toy_game:PerfectBot", "--deals", "1",
                 "--bootstrap", "5", "--no-progress"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("s, 1 worker(s))")


@pytest.mark.parametrize("command", ["tournament", "sprt", "balance"])
def test_every_games_command_documents_address_in_its_help(command, capsys):
    if command == "balance":
        pytest.importorskip("tyro")
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # rewrapped: rich and argparse wrap
    for needle in ("--address ADDRESS", "'local'", "ray://HOST:10001", "HOST:6379",
                   "--workers N", "every CPU of the Ray"):
        assert needle in text, needle
