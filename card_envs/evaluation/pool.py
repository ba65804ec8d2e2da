"""Play many games: one backend for every job that does (tournaments, the SPRT, the balance
report, expert iteration's labelling, behaviour cloning's demonstrations), on worker processes of
this machine or on a Ray cluster, with the same results either way.

:class:`GamePool` is the backend, chosen the same way by every command:

- ``GamePool(workers=N)``: ``N`` worker processes of this machine (started with ``spawn``);
  ``N == 1`` (the default): the games are played in this process;
- ``GamePool(address=A)``: Ray tasks on the cluster at ``A`` (``"auto"``, ``HOST:6379`` from
  ``ray start --head``, ``ray://HOST:10001``), or ``"local"``: a Ray started in this process
  (``workers`` CPUs, default all of this machine's). ``workers`` then caps the tasks in flight
  (default: every CPU of the Ray). A Ray already initialised in this process is used as it is.
  Ray is in the ``rllib`` extra.

A job kind is a *setup* and its *jobs*. The setup is a picklable object with ``build() ->
arena``; the arena, built once per worker process from the setup (and kept while the setup is
the same), has ``play(job) -> result``; every job and result has an ``index``.
:meth:`GamePool.run` sends the setup (once per process) and the jobs in chunks, calls
``on_result`` in this process as each game ends (any order: progress bars), and returns the
results sorted by ``index``. A result is a function of its job alone (each job carries its own
seeds, fixed before any game is played), so neither the backend, the number of workers nor the
order in which the games end changes what :meth:`~GamePool.run` returns.

Setups here: :class:`card_envs.evaluation.runner.Setup` (tournament and SPRT games),
:class:`card_envs.evaluation.balance.BalanceSetup` (the balance report),
:class:`card_envs.training.exit.LabelRound` (searched self-play games of expert iteration),
:class:`card_envs.training.imitation.CollectSetup` (a teacher's decisions for behaviour cloning).

Code on a Ray cluster: a worker process imports ``card_envs`` and the modules the specs name
(``module:factory``); this process's ``sys.path`` entries are added to each worker's (so a local
Ray finds what this process finds); on other machines install the package there, or submit the
command as a Ray job with its code (``ray job submit --working-dir . -- card-envs tournament
--address auto ...``).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import multiprocessing
import os
import pickle
import re
import socket
import sys
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Self

from card_envs.core.errors import CardEnvsError, ConfigError

#: seconds to wait for a TCP connection to ``--address`` before calling it unreachable
CONNECT_TIMEOUT = 5.0
#: arenas a worker process keeps (the newest setups): a tournament needs one, expert iteration
#: one per round
ARENAS_KEPT = 2

_HOST_PORT = re.compile(r"(?:ray://)?(?P<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>\d+)")


class ClusterUnreachableError(CardEnvsError, ConnectionError):
    """No Ray cluster answers at ``--address``; the message names the address and why (one
    line: unknown host, connection refused, no answer, a missing authentication token, or Ray's
    own reason)."""


class WorkerImportError(CardEnvsError, ImportError):
    """A worker (a Ray worker on another machine, typically) cannot import what a job needs:
    card-envs itself, or a module a spec names; the message names the module."""


#: what to do when a Ray worker lacks the code (the message's tail)
_SHIP_CODE = ("every machine of the Ray cluster needs this card-envs installed (and the modules "
              "the specs name on its path), or submit the command as a Ray job with its code: "
              "ray job submit --working-dir . -- card-envs ...")


def check_address(address: str) -> None:
    """Accept ``""`` (no Ray), ``"auto"``, ``"local"``, ``HOST:PORT`` and ``ray://HOST:PORT``
    (PORT in 1..65535), the forms ``ray.init(address=...)`` takes.

    Raises:
        ConfigError: ``--address '<value>': ...`` naming the accepted forms.
    """
    if not isinstance(address, str):
        raise ConfigError(f"--address must be a string, got {address!r}")
    if address in ("", "auto", "local"):
        return
    match = _HOST_PORT.fullmatch(address)
    if match is None or not 0 < int(match["port"]) <= 65535:
        raise ConfigError(f"--address {address!r}: must be 'auto', 'local', HOST:PORT "
                          "(e.g. 10.0.0.5:6379, from `ray start --head`) or ray://HOST:PORT "
                          "(e.g. ray://10.0.0.5:10001)")


def _unreachable(address: str, why: str) -> ClusterUnreachableError:
    return ClusterUnreachableError(
        f"--address {address!r}: no Ray cluster there ({why}); start one with `ray start "
        "--head`, use --address local for a Ray on this machine, or leave --address out")


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """For ``HOST:PORT`` and ``ray://HOST:PORT``: a TCP connection to it within ``timeout``
    seconds (Ray itself retries for minutes, printing as it goes). ``auto`` and ``local`` pass.

    Raises:
        ConfigError: a malformed address (:func:`check_address`).
        ClusterUnreachableError: unknown host, connection refused, or no answer in time.
    """
    check_address(address)
    if address in ("", "auto", "local"):
        return
    match = _HOST_PORT.fullmatch(address)
    host, port = match["host"].strip("[]"), int(match["port"])
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except socket.gaierror:
        raise _unreachable(address, f"unknown host {host!r}") from None
    except ConnectionRefusedError:
        raise _unreachable(address, f"connection to {host}:{port} refused") from None
    except TimeoutError:
        raise _unreachable(address, f"no answer from {host}:{port} within {timeout:g} s") \
            from None
    except OSError as exc:
        raise _unreachable(address, exc.strerror or type(exc).__name__) from None


@contextlib.contextmanager
def _stderr_held():
    """Hold what is written to file descriptor 2 (Ray's C++ core logs its retries there) and
    yield a function that returns it; nothing is held when descriptor 2 cannot be duplicated."""
    held = {"text": ""}
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield lambda: held["text"]
        return
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield lambda: held["text"]
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            held["text"] = tmp.read().decode("utf-8", "replace")


def connect_ray(address: str, num_cpus: int | None = None) -> bool:
    """Make this process a Ray driver: ``"local"`` starts a Ray here (``num_cpus`` CPUs, all by
    default), any other address joins that cluster. A Ray already initialised in this process
    is kept. Returns whether this call initialised Ray (then :func:`ray.shutdown` is the
    caller's).

    Raises:
        ConfigError: a malformed address.
        ClusterUnreachableError: no cluster answers there (checked before Ray is imported).
        MissingExtraError: ray is not installed (the ``rllib`` extra).
    """
    check_reachable(address)
    from card_envs.core.extras import require_extra

    require_extra("rllib", f"--address {address!r} (games on Ray)", ("ray",))
    import ray

    if ray.is_initialized():
        return False
    if address == "local":
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False,
                 log_to_driver=False, logging_level=logging.ERROR)
        return True
    with _stderr_held() as held:
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except ConnectionError as exc:
            failed = exc
        else:
            failed = None
    if failed is not None:
        text = str(failed).strip()
        if "InvalidAuthToken" in held() or "Unauthenticated" in held():
            raise ClusterUnreachableError(
                f"--address {address!r}: the Ray cluster there refused this process's "
                "authentication token: set RAY_AUTH_MODE=token (and RAY_AUTH_TOKEN to the "
                "head's `ray get-auth-token` on another machine)") from None
        raise _unreachable(address, text.splitlines()[0] if text else "Ray cannot connect") \
            from None
    if held():
        sys.stderr.write(held())
    return True


# -- the worker side ----------------------------------------------------------------------------
_ARENAS: OrderedDict[str, Any] = OrderedDict()  # this worker process's arenas by setup key


def _unpickle(data: bytes):
    try:
        return pickle.loads(data)
    except (ImportError, AttributeError) as exc:  # a module or class missing here
        raise WorkerImportError(f"a worker on {socket.gethostname()} cannot load the job: "
                                f"{type(exc).__name__}: {exc}; {_SHIP_CODE}") from None


def _arena(key: str, load: Callable[[], bytes], paths: Sequence[str]):
    """The arena of the setup with ``key`` (built from ``load()``'s pickle at first use)."""
    arena = _ARENAS.get(key)
    if arena is None:
        for path in paths:  # the driver's module folders (Ray workers start elsewhere)
            if path not in sys.path:
                sys.path.append(path)
        arena = _unpickle(load()).build()
        _ARENAS[key] = arena
        while len(_ARENAS) > ARENAS_KEPT:
            _ARENAS.popitem(last=False)
    _ARENAS.move_to_end(key)
    return arena


def _init_process() -> None:
    import signal

    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # the workers are the parallelism
    # a worker ignores Ctrl-C (the terminal sends it to the whole process group): the main
    # process handles it (training saves a checkpoint), without a traceback from every worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_in_process(key: str, payload: bytes, jobs: list) -> list:
    arena = _arena(key, lambda: payload, ())
    return [arena.play(job) for job in jobs]


def _play_in_ray(key: str, boxed: list, paths: list[str], jobs: bytes) -> list:
    """A Ray task: ``boxed[0]`` is the setup's pickle in the object store (boxed so that Ray
    fetches it only when this worker has no arena for ``key`` yet); ``jobs`` pickled too, so
    that they are loaded after the driver's module folders are on this worker's path."""
    import ray

    arena = _arena(key, lambda: ray.get(boxed[0]), paths)
    return [arena.play(job) for job in _unpickle(jobs)]


_RAY_TASK: dict[str, Any] = {}


def _ray_task():
    if "task" not in _RAY_TASK:
        import ray

        _RAY_TASK["task"] = ray.remote(num_cpus=1)(_play_in_ray)
    return _RAY_TASK["task"]


# -- the backend --------------------------------------------------------------------------------
class GamePool:
    """Plays the jobs of any setup (module docstring) in this process, in ``workers`` local
    processes, or as Ray tasks at ``address``. Use as a context manager (the worker processes,
    and a Ray this pool started, live until :meth:`close`); one pool can serve many runs and
    setups.

    Args:
        workers: without ``address``, processes (>= 1; default 1: this process); with it, Ray
            tasks in flight at once and the CPUs of a ``"local"`` Ray (default: every CPU of
            the Ray).
        address: ``""`` (no Ray), ``"auto"``, ``"local"``, ``HOST:PORT`` or ``ray://HOST:PORT``.

    Raises:
        ConfigError: ``workers`` not None or an int >= 1; a malformed ``address``.
        ClusterUnreachableError: no Ray cluster at ``address``.
        MissingExtraError: ``address`` given and ray not installed (the ``rllib`` extra).
    """

    def __init__(self, workers: int | None = None, address: str = ""):
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or workers < 1):
            raise ConfigError(f"workers must be an int >= 1, got {workers!r}")
        check_address(address)
        self.workers = workers
        self.address = address
        self._executor: ProcessPoolExecutor | None = None
        self._local: tuple[Any, Any] | None = None  # (setup, arena) of the serial path
        self._ray_started = connect_ray(address, workers) if address else False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker processes, and the Ray this pool initialised."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        if self._ray_started:
            import ray

            ray.shutdown()
            self._ray_started = False

    @property
    def serial(self) -> bool:
        """Whether the games are played in this process (no ``address``, one worker)."""
        return not self.address and (self.workers or 1) == 1

    @property
    def parallelism(self) -> int:
        """Games played at once: the workers, or the Ray's CPUs (capped by ``workers``)."""
        if not self.address:
            return self.workers or 1
        import ray

        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        return min(cpus, self.workers) if self.workers else cpus

    def describe(self) -> str:
        """Where the games run: ``"this process"``, ``"2 worker processes"``, ``"Ray at
        local (2 tasks at once)"``."""
        if self.address:
            return f"Ray at {self.address} ({self.parallelism} tasks at once)"
        n = self.workers or 1
        return "this process" if n == 1 else f"{n} worker processes"

    def run(self, setup, jobs: Sequence, on_result: Callable[[Any], None] | None = None, *,
            arena=None, chunk_size: int | None = None,
            deadline: float | None = None) -> list:
        """Play ``jobs`` of ``setup``; returns their results sorted by ``index``.

        Args:
            setup: a picklable object with ``build() -> arena`` (module docstring).
            jobs: objects with an ``index``; sent in this order.
            on_result: called in this process with each result as its game ends (any order).
            arena: this process's arena of ``setup`` if built already (used when
                :attr:`serial`: nothing is built twice).
            chunk_size: jobs per task (default: up to 8, fewer for short runs).
            deadline: a ``time.time()`` after which no further job is started; the results are
                then those of the jobs started before it, which are a prefix of ``jobs``.

        Raises:
            ConfigError: a setup that cannot be sent to worker processes (not picklable).
            Exception: whatever a game raises in a worker (a Ray task's error is re-raised as
                its cause).
        """
        jobs = list(jobs)
        results: list = []

        def take(batch) -> None:
            for result in batch:
                results.append(result)
                if on_result is not None:
                    on_result(result)

        if self.serial:
            if arena is None:
                if self._local is None or self._local[0] is not setup:
                    self._local = (setup, setup.build())
                arena = self._local[1]
            for job in jobs:
                if deadline is not None and time.time() >= deadline:
                    break
                take([arena.play(job)])
        elif jobs:
            width = self.parallelism
            size = chunk_size or max(1, min(8, math.ceil(len(jobs) / (width * 16))))
            chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
            runner = self._run_ray if self.address else self._run_processes
            runner(setup, chunks, 2 * width, deadline, take)
        return sorted(results, key=lambda r: r.index)

    # the two parallel backends: the same loop (at most `in_flight` chunks sent ahead, in job
    # order; none sent after the deadline), with their own submit / wait / cancel
    def _run_processes(self, setup, chunks, in_flight, deadline, take) -> None:
        try:
            payload = pickle.dumps(setup)
        except Exception as exc:  # noqa: BLE001 - name what cannot go to a worker
            from card_envs.bots.loading import first_line

            raise ConfigError(f"workers > 1 need policies given as spec strings or picklable "
                              f"objects: {type(exc).__name__}: {first_line(exc)}") from None
        key = hashlib.sha1(payload).hexdigest()
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_process)
        pending: set = set()
        todo = list(reversed(chunks))
        try:
            while todo or pending:
                while todo and len(pending) < in_flight and \
                        (deadline is None or time.time() < deadline):
                    pending.add(self._executor.submit(_play_in_process, key, payload,
                                                      todo.pop()))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    take(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None
            raise

    def _run_ray(self, setup, chunks, in_flight, deadline, take) -> None:
        import ray
        from ray import cloudpickle

        try:
            payload = cloudpickle.dumps(setup)
        except Exception as exc:  # noqa: BLE001 - name what cannot go to Ray
            from card_envs.bots.loading import first_line

            raise ConfigError(f"--address: the policies cannot be sent to Ray: "
                              f"{type(exc).__name__}: {first_line(exc)}") from None
        key = hashlib.sha1(payload).hexdigest()
        boxed = [ray.put(payload)]
        paths = [p for p in sys.path if isinstance(p, str) and p]
        task = _ray_task()
        pending: list = []
        todo = list(reversed(chunks))
        try:
            while todo or pending:
                while todo and len(pending) < in_flight and \
                        (deadline is None or time.time() < deadline):
                    pending.append(task.remote(key, boxed, paths,
                                               cloudpickle.dumps(todo.pop())))
                if not pending:
                    break
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        batch = ray.get(ref)
                    except ray.exceptions.RayTaskError as err:
                        cause = getattr(err, "cause", None)
                        if isinstance(cause, RuntimeError) and \
                                "failed to import on the worker" in str(cause):
                            missing = re.search(r"No module named '([^']+)'", str(cause))
                            raise WorkerImportError(
                                f"--address {self.address!r}: the Ray workers cannot import "
                                f"{missing[1] if missing else 'card_envs'} ({_SHIP_CODE})") \
                                from None
                        if isinstance(cause, Exception):
                            raise cause from None
                        raise
                    take(batch)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise


def pool_for(pool: GamePool | None, workers: int | None = None, address: str = ""):
    """A context manager giving ``pool`` (left open: the caller's) or a new :class:`GamePool`
    of ``workers`` / ``address`` (closed at the end): how every job that plays many games takes
    its backend.

    Raises:
        ConfigError: ``pool`` together with ``workers`` or ``address``; as :class:`GamePool`.
    """
    if pool is not None:
        if workers is not None or address:
            raise ConfigError("give a pool, or workers / address for a new one, not both")
        return contextlib.nullcontext(pool)
    return GamePool(workers, address)
