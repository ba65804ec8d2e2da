"""Expert iteration (ExIt; Anthony, Tian & Barber 2017; AlphaZero): a search improves the network's
choices, the network learns the search's choices, and the better network guides the next search.
``card-envs train --method exit`` and ``python -m card_envs.training.exit`` run :func:`main`;
:func:`train` reads top to bottom.

0. the network: a MaskablePPO ``MlpPolicy`` (:func:`card_envs.training.model.make_model`, so every
   saved ``model.zip`` is an ordinary policy spec), warm-started by behaviour cloning of the
   game's heuristic (``--bc-decisions``; :func:`card_envs.training.imitation.warm_start`), or the
   checkpoint's with ``--resume``;
1. each round, **label**: ``--games-per-round`` self-play games in which every decision is an
   ISMCTS search (:class:`card_envs.bots.ismcts.ISMCTSBot`, ``--iterations`` per decision, the
   current network as its PUCT prior, playouts by ``--rollout``) playing the most visited
   action; every decision with more than one legal action is recorded from the deciding seat's
   view as (observation, action mask, root visit distribution, seat), and each record gets the
   seat's final return (a decision the search leaves to the rollout policy, such as Garda3's
   draft, is labelled with that move, one-hot). Games run in ``--workers`` spawned processes, or
   as Ray tasks on the cluster at ``--address`` (``auto``, ``HOST:6379``; ``local`` starts a
   local Ray): the backend of the tournaments (:class:`~card_envs.evaluation.pool.GamePool`,
   one game per task, the labels gathered in game order, so the same for every backend); a
   progress bar shows games, rate and time left;
2. **fit**: the policy head by cross-entropy to the visit distributions (masked), the value head
   by squared error to the returns, ``--fit-epochs`` over the last ``--replay-rounds`` rounds'
   records;
3. **gate**: the fitted network plays the previous one (both alone, deterministic) on
   ``--gate-deals`` duplicate deals (each deal in every seat, the same deals every round); the
   new network is kept if it scores at least ``--gate-threshold``, else the previous weights
   (and optimizer) come back;
4. **evaluate**: the kept network alone against the heuristic on ``--eval-deals`` duplicate deals,
   the same deals every round: a learning-curve point (``timesteps`` = decisions labelled so
   far, ``train_seconds``, ``eval/win_rate_vs_heuristic`` with its Wilson interval, and the
   round's costs);
5. **checkpoint**: ``checkpoints/round_<k>.zip`` (model and optimizer), ``round_<k>.json`` (the
   round, counters, curve, arguments) and ``round_<k>.npz`` (the replay records), so
   ``--resume RUN_DIR`` continues after an interruption.

Rounds run until ``--minutes`` (no round starts after it; a round's labelling stops at it and the
round goes on with what it has) or ``--rounds`` is spent. Outputs in the run folder:
``model.zip`` (plays as ``runs/x/model.zip``, and as the prior of ``ismcts:400@runs/x``),
``learning_curve.png``, ``summary.json``, ``checkpoints/``; then the final evaluation: the
network alone against the heuristic and random on ``--final-eval-games`` duplicate-deal games,
printed with 95 % Wilson intervals.

torch, SB3, tyro and ray are imported inside the functions that need them. Measured costs and
a run: ``docs/training.md`` ("Expert iteration").
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import io
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.core.errors import ConfigError

DESCRIPTION = ("Expert iteration on a card-envs game: ISMCTS self-play guided by the network "
               "labels decisions, the network is fitted to the search's visit distributions and "
               "the outcomes, gated against its previous version, and evaluated against the "
               "heuristic every round.")

#: seeds of the fixed duplicate deals: the gate, the per-round evaluation, the final evaluation
GATE_SEED = 50_021
EVAL_SEED = 70_001
FINAL_SEED = 123_456
#: what ``--rollout`` may name: the game's heuristic, the current network, uniform random
ROLLOUTS = ("heuristic", "model", "random")


@dataclass
class ExItArgs:
    game: str = "garda3"
    """game to train on: a registered game's name ('card-envs games' lists them) or 'module:factory'"""
    game_config: str = "{}"
    """the game's config as JSON, e.g. '{"variant": "classic"}'"""
    set: list[str] = dataclasses.field(default_factory=list)
    """config fields as key=value (value parsed as JSON, else a string), one per --set; wins over --game-config"""
    minutes: float = 10.0
    """wall-clock budget of this invocation in minutes, warm start included (0: none); no round starts after it, and a round's labelling stops at it"""
    rounds: int = 0
    """stop after this many rounds in total, resumed ones included (0: no round limit)"""
    games_per_round: int = 24
    """self-play games labelled per round"""
    iterations: int = 100
    """ISMCTS iterations per searched decision while labelling"""
    c_puct: float = 1.0
    """PUCT exploration weight of the search (units of the value spread; card_envs.bots.ismcts)"""
    rollout: str = "heuristic"
    """who plays the search's playouts: heuristic (the game's bot), model (the current network, deterministic) or random"""
    workers: int | None = None
    """labelling processes on this machine (spawned; None: 1, in this process); with --address, Ray tasks at once (None: every CPU of the Ray); the labels equal the serial run's"""
    address: str = ""
    """label on a Ray cluster: 'auto', HOST:6379 (from `ray start --head`), ray://HOST:10001, or 'local' (a Ray started here); empty: worker processes (needs the rllib extra for Ray); the backend of card-envs tournament, sprt and balance (card_envs.evaluation.pool)"""
    seed: int = 1
    """seed of the network, the deals and the searches"""
    run_dir: str = ""
    """output folder (default runs/<game>-exit-<timestamp>; when resuming, the resumed run's folder)"""
    resume: str = ""
    """continue from a run folder (its latest checkpoints/round_<k>) or a round_<k>.json (game, config and network from it)"""
    threads: int = 1
    """torch threads"""
    net_arch: str = "128,128"
    """hidden layer sizes of the policy and value MLPs, comma-separated"""
    activation: str = "tanh"
    """hidden activation: tanh or relu"""
    bc_decisions: int = 30_000
    """behaviour-cloning warm start: heuristic decisions to imitate before the first round (0: off; fresh runs only); counts in the budget"""
    bc_epochs: int = 8
    """epochs of behaviour cloning"""
    bc_learning_rate: float = 1e-3
    """Adam learning rate of behaviour cloning"""
    fit_epochs: int = 4
    """epochs over the replay records per round"""
    fit_learning_rate: float = 3e-4
    """Adam learning rate of the per-round fit"""
    fit_batch_size: int = 256
    """minibatch size of the fit"""
    value_coef: float = 0.5
    """weight of the value loss (squared error to the returns) beside the policy cross-entropy"""
    replay_rounds: int = 2
    """fit on the records of this many most recent rounds"""
    gate_deals: int = 100
    """duplicate deals (each played in every seat) of the new network against the previous one per round (0: keep every fit)"""
    gate_threshold: float = 0.5
    """keep the new network if its score (win 1, draw 1/2) against the previous one is at least this"""
    eval_deals: int = 100
    """duplicate deals of the network alone against the heuristic per round (the same deals every round)"""
    final_eval_games: int = 400
    """duplicate-deal games of the network alone against the heuristic and random at the end (0: skip)"""
    progress: bool = True
    """show progress bars"""


def flag(field: str) -> str:
    """The command-line flag of an :class:`ExItArgs` field: ``c_puct`` -> ``--c-puct``."""
    return "--" + field.replace("_", "-")


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> ExItArgs:
    """:class:`ExItArgs` from the command line by tyro (a bad value or unknown flag: tyro's error
    naming the flag, exit 2; ``--help`` lists every field with its docstring)."""
    import tyro

    return tyro.cli(ExItArgs, args=argv, prog=prog, description=DESCRIPTION,
                    config=(tyro.conf.UseAppendAction,))


_AT_LEAST = {"minutes": 0, "rounds": 0, "games_per_round": 1, "iterations": 1, "c_puct": 0,
             "workers": 1, "seed": 0, "threads": 1, "bc_decisions": 0, "bc_epochs": 1,
             "fit_epochs": 1, "fit_batch_size": 1, "value_coef": 0, "replay_rounds": 1,
             "gate_deals": 0, "eval_deals": 1, "final_eval_games": 0}
_POSITIVE = ("bc_learning_rate", "fit_learning_rate")


def validate_args(args: ExItArgs) -> None:
    """Check every field before anything runs (no run folder is made for a bad flag).

    Raises:
        ConfigError: ``--flag 'value': why``: a number below its bound (``_AT_LEAST``,
            ``_POSITIVE``; ``--iterations`` at most ``MAX_ITERATIONS``), ``--gate-threshold``
            outside [0, 1], ``--rollout`` not in :data:`ROLLOUTS`, a bad ``--net-arch`` /
            ``--activation`` / ``--address``, no budget (``--minutes`` and ``--rounds`` both 0),
            a ``--run-dir`` that is a file or cannot be created, or that already holds a run
            without ``--resume`` (:func:`~card_envs.training.args.check_run_dir`,
            :func:`~card_envs.training.args.check_no_run_in`).
    """
    from card_envs.bots.ismcts import MAX_ITERATIONS
    from card_envs.evaluation.pool import check_address
    from card_envs.training.args import check_no_run_in, check_run_dir

    def bad(field: str, why: str):
        return ConfigError(f"{flag(field)} {getattr(args, field)!r}: {why}")

    for field, low in _AT_LEAST.items():
        value = getattr(args, field)
        if value is None and field == "workers":  # 1, or the Ray's CPUs with --address
            continue
        if not (value >= low and math.isfinite(value)):
            raise bad(field, f"must be a finite number >= {low}")
    for field in _POSITIVE:
        value = getattr(args, field)
        if not (value > 0 and math.isfinite(value)):
            raise bad(field, "must be a finite number > 0")
    if args.iterations > MAX_ITERATIONS:
        raise bad("iterations", f"must be <= {MAX_ITERATIONS}")
    if not 0 <= args.gate_threshold <= 1:
        raise bad("gate_threshold", "must be in [0, 1]")
    if args.rollout not in ROLLOUTS:
        raise bad("rollout", f"must be one of {', '.join(ROLLOUTS)}")
    parts = [x.strip() for x in args.net_arch.split(",")]
    if not all(x.isascii() and x.isdigit() and int(x) > 0 for x in parts):
        raise bad("net_arch", "must be comma-separated positive layer sizes, e.g. 128,128")
    if args.activation not in ("tanh", "relu"):
        raise bad("activation", "must be tanh or relu")
    check_address(args.address)
    if args.minutes <= 0 and args.rounds <= 0:
        raise ConfigError("no budget: set --minutes > 0 and/or --rounds > 0")
    check_run_dir(args.run_dir)
    if not args.resume:
        check_no_run_in(args.run_dir, method="exit")


# -- labelling: self-play games searched with the network as prior ------------------------------
@dataclass(frozen=True)
class LabelSetup:
    """What a labelling process needs besides the network: the game (spec and config), the
    search's settings. Picklable (sent to worker processes and Ray tasks)."""

    game: str
    config: dict
    iterations: int
    c_puct: float
    rollout: str


@dataclass
class Labels:
    """Labelled decisions: ``observations`` float32 (N, *obs_shape); ``masks`` bool
    (N, num_actions); ``targets`` float32 (N, num_actions), each row a distribution over the
    legal actions (the root visit shares, or one-hot for an unsearched move); ``returns``
    float32 (N,): the deciding seat's final return; ``seats`` int16 (N,); ``rounds`` int32 (N,):
    the round that labelled it."""

    observations: np.ndarray
    masks: np.ndarray
    targets: np.ndarray
    returns: np.ndarray
    seats: np.ndarray
    rounds: np.ndarray

    def __len__(self) -> int:
        return len(self.returns)

    @classmethod
    def concat(cls, parts: list[Labels]) -> Labels:
        parts = [p for p in parts if len(p)]
        if not parts:
            raise ValueError("Labels.concat: nothing to join")
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts])
                     for f in dataclasses.fields(cls)))

    def where(self, keep: np.ndarray) -> Labels:
        return Labels(*(getattr(self, f.name)[keep] for f in dataclasses.fields(self)))


def label_game(game, bot, seed: int, round_index: int = 0) -> tuple[Labels | None, int]:
    """Play one self-play game (``bot`` in every seat, reseeded from ``seed``; deal ``seed``) and
    label its decisions (module docstring, step 1). Returns ``(labels or None when no decision
    had a choice, searched decisions)``."""
    from card_envs.bots.base import reseed_policy

    reseed_policy(bot, seed)
    state = game.new_state(seed)
    obs, masks, targets, seats = [], [], [], []
    searched, steps = 0, 0
    while not game.is_terminal(state) and steps < game.max_game_length:
        p = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) > 1:
            obs.append(game.observe(state, p))
            masks.append(game.legal_action_mask(state).astype(bool))
            action, stats = bot.decide(game, state, p)
            target = np.zeros(game.num_actions, dtype=np.float32)
            if stats is None:
                target[action] = 1.0
            else:
                searched += 1
                total = sum(v for v, _ in stats.values())
                for a, (v, _) in stats.items():
                    target[a] = v / total
            targets.append(target)
            seats.append(p)
        else:
            action = legal[0]
        game.apply_action(state, action)
        steps += 1
    if not seats:
        return None, 0
    final = game.returns(state) if game.is_terminal(state) else [0.0] * game.num_players
    n = len(seats)
    return Labels(np.asarray(obs, dtype=np.float32), np.asarray(masks, dtype=bool),
                  np.asarray(targets, dtype=np.float32),
                  np.asarray([final[p] for p in seats], dtype=np.float32),
                  np.asarray(seats, dtype=np.int16),
                  np.full(n, round_index, dtype=np.int32)), searched


def make_search(setup: LabelSetup, net, game):
    """The labelling search: :class:`~card_envs.bots.ismcts.ISMCTSBot` with ``net`` (a
    :class:`~card_envs.bots.sb3.FrozenPolicy`) as prior and the setup's rollout."""
    from card_envs.bots.ismcts import ISMCTSBot

    rollout = net if setup.rollout == "model" else setup.rollout
    if rollout == "heuristic":
        from card_envs.bots.loading import resolve_heuristic

        rollout = resolve_heuristic(setup.game)
    bot = ISMCTSBot(iterations=setup.iterations, rollout=rollout, prior=net,
                    c_puct=setup.c_puct, seed=0, name="exit-search")
    bot._check_prior(game)
    return bot


def _net_from_bytes(data: bytes):
    """A deterministic :class:`~card_envs.bots.sb3.FrozenPolicy` from a saved model's bytes."""
    from sb3_contrib import MaskablePPO

    from card_envs.bots.sb3 import FrozenPolicy

    model = MaskablePPO.load(io.BytesIO(data), device="cpu")
    return FrozenPolicy(model.policy, deterministic=True, name="exit-net")


@dataclass(frozen=True)
class LabelJob:
    """One self-play game to label: deal ``seed`` in round ``round_index``; ``index`` orders the
    results."""

    index: int
    round_index: int
    seed: int


@dataclass(frozen=True)
class LabelledGame:
    """A labelled :class:`LabelJob`: its ``labels`` (None when no decision had a choice), the
    ``searched`` decisions and the ``seconds`` it took."""

    index: int
    labels: Labels | None
    searched: int
    seconds: float


@dataclass(frozen=True)
class LabelRound:
    """What a worker needs to label a round's games: the :class:`LabelSetup` and the network
    saved as ``model_bytes`` (``MaskablePPO.save``). A setup of
    :class:`~card_envs.evaluation.pool.GamePool` (:meth:`build`)."""

    setup: LabelSetup
    model_bytes: bytes

    def build(self) -> LabelArena:
        """The game and the search with this round's network (torch on one thread)."""
        import torch

        from card_envs.core.registry import resolve_game

        torch.set_num_threads(1)
        game = resolve_game(self.setup.game, self.setup.config)
        return LabelArena(game, make_search(self.setup, _net_from_bytes(self.model_bytes), game))


class LabelArena:
    """A game and its labelling search (:func:`make_search`); :meth:`play` labels a job."""

    def __init__(self, game, bot):
        self.game, self.bot = game, bot

    def play(self, job: LabelJob) -> LabelledGame:
        t0 = time.perf_counter()
        labels, searched = label_game(self.game, self.bot, job.seed, job.round_index)
        return LabelledGame(job.index, labels, searched, time.perf_counter() - t0)


def label_round(pool, setup: LabelSetup, game, model, jobs: list[LabelJob],
                deadline: float | None, bar) -> tuple[list[Labels], int, int]:
    """Label ``jobs`` with the current network of ``model`` (a MaskablePPO) in ``pool`` (a
    :class:`~card_envs.evaluation.pool.GamePool`: this process, worker processes or Ray tasks,
    one game per task); games not started by ``deadline`` (a ``time.time()``) are dropped.
    Returns ``(labels per game in job order, games played, searched decisions)``; ``bar``
    (tqdm) advances one per game as it ends."""
    decisions = [0]

    def take(done: LabelledGame) -> None:
        decisions[0] += 0 if done.labels is None else len(done.labels)
        bar.update(1)
        bar.set_postfix(decisions=decisions[0], refresh=False)

    buf = io.BytesIO()
    if pool.serial:  # the live network, nothing saved
        from card_envs.bots.sb3 import FrozenPolicy

        net = FrozenPolicy(model.policy, deterministic=True, name="exit-net")
        arena = LabelArena(game, make_search(setup, net, game))
    else:
        model.save(buf)
        arena = None
    done = pool.run(LabelRound(setup, buf.getvalue()), jobs, take, arena=arena, chunk_size=1,
                    deadline=deadline)
    labels = [g.labels for g in done if g.labels is not None]
    return labels, len(done), sum(g.searched for g in done)


# -- fitting ---------------------------------------------------------------------------------
def fit(model, data: Labels, epochs: int, learning_rate: float, batch_size: int,
        value_coef: float, seed: int) -> dict[str, float]:
    """Fit ``model.policy`` (MaskablePPO) to ``data``: per minibatch
    ``-Σ_a target(a) log π(a|s, mask) + value_coef · (V(s) - return)²`` with the policy's Adam
    at ``learning_rate`` (restored afterwards).

    Returns (over the last epoch): ``fit/cross_entropy``, ``fit/kl`` (cross-entropy minus the
    targets' entropy, >= 0: 0 when the policy equals the targets), ``fit/value_mse``,
    ``fit/accuracy`` (the masked argmax equals the targets' argmax), ``fit/records``.
    """
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    opt = policy.optimizer
    saved = [g["lr"] for g in opt.param_groups]
    for g in opt.param_groups:
        g["lr"] = learning_rate
    n = len(data)
    obs_t = torch.as_tensor(data.observations)
    tgt_t = torch.as_tensor(data.targets)
    ret_t = torch.as_tensor(data.returns)
    entropy = float(-(tgt_t * torch.log(tgt_t.clamp_min(1e-12))).sum(1).mean())
    gen = np.random.default_rng(seed)
    ce_sum = mse_sum = correct = 0.0
    for _ in range(epochs):
        ce_sum = mse_sum = correct = 0.0
        order = gen.permutation(n)
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            dist = policy.get_distribution(obs_t[idx], action_masks=data.masks[idx])
            logp = dist.distribution.logits  # normalised, masked actions at about -1e8
            tgt = tgt_t[idx]
            ce = -torch.where(tgt > 0, tgt * logp, torch.zeros_like(logp)).sum(1)
            values = policy.predict_values(obs_t[idx]).flatten()
            mse = (values - ret_t[idx]) ** 2
            loss = ce.mean() + value_coef * mse.mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            ce_sum += float(ce.detach().sum())
            mse_sum += float(mse.detach().sum())
            correct += float((logp.detach().argmax(1) == tgt.argmax(1)).sum())
    policy.set_training_mode(False)
    for g, lr in zip(opt.param_groups, saved):
        g["lr"] = lr
    return {"fit/cross_entropy": ce_sum / n, "fit/kl": ce_sum / n - entropy,
            "fit/value_mse": mse_sum / n, "fit/accuracy": correct / n, "fit/records": n}


# -- checkpoints -------------------------------------------------------------------------------
def save_round(model, run_dir: Path, meta: dict[str, Any], replay: Labels | None) -> Path:
    """``checkpoints/round_<k>.zip`` (model and optimizer), ``.json`` (``meta``) and ``.npz``
    (the replay records); returns the ``.json`` path."""
    base = run_dir / "checkpoints" / f"round_{meta['round']}"
    model.save(base.with_suffix(".zip"))
    if replay is not None:
        np.savez_compressed(base.with_suffix(".npz"), **dataclasses.asdict(replay))
    base.with_suffix(".json").write_text(json.dumps(meta, indent=1))
    return base.with_suffix(".json")


def latest_round(path: Path) -> Path:
    """The ``round_<k>.json`` to resume: ``path`` itself, or a run folder's newest.

    Raises:
        ConfigError: no such file or folder, or a folder without ``checkpoints/round_<k>.json``.
    """
    if path.is_file():
        return path
    if not path.is_dir():
        raise ConfigError(f"--resume {str(path)!r}: no such run folder or round_<k>.json")
    rounds = [p for p in (path / "checkpoints").glob("round_*.json")
              if p.stem.split("_")[-1].isdigit()]
    if not rounds:
        raise ConfigError(f"--resume {str(path)!r}: no checkpoints/round_<k>.json in it (not an "
                          "expert-iteration run folder)")
    return max(rounds, key=lambda p: int(p.stem.split("_")[-1]))


def load_round(path: Path) -> tuple[dict[str, Any], Path, Labels | None]:
    """The metadata, model path and replay records of the round checkpoint at ``path`` (see
    :func:`latest_round`), all checked before anything runs.

    Raises:
        ConfigError: naming the file: unreadable or malformed metadata, a missing or damaged
            model, an unreadable replay file.
    """
    from card_envs.bots.loading import check_model_file

    meta_path = latest_round(path)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"--resume: {str(meta_path)!r} is not round metadata "
                          f"({type(exc).__name__}: {exc})") from None
    need = {"round": int, "timesteps": int, "train_seconds": (int, float), "curve": list,
            "args": dict, "gates": list}
    for key, kind in need.items():
        if not isinstance(meta, dict) or not isinstance(meta.get(key), kind):
            raise ConfigError(f"--resume: {str(meta_path)!r} is not round metadata: field "
                              f"{key!r} missing or not a {getattr(kind, '__name__', kind)}")
    model_path = meta_path.with_suffix(".zip")
    try:
        check_model_file(model_path)
    except ConfigError as exc:
        raise ConfigError(f"--resume: checkpoint {exc}") from None
    replay = None
    npz = meta_path.with_suffix(".npz")
    if npz.exists():
        try:
            with np.load(npz) as z:
                replay = Labels(*(z[f.name] for f in dataclasses.fields(Labels)))
        except (OSError, KeyError, ValueError) as exc:
            raise ConfigError(f"--resume: {str(npz)!r} is not a replay file "
                              f"({type(exc).__name__}: {exc})") from None
    return meta, model_path, replay


# -- the loop ----------------------------------------------------------------------------------
def _model_factory():
    """``(make_model, make_vec_env, seed_everything)`` of the PPO trainer's model module
    (:mod:`card_envs.training.model`)."""
    from card_envs.training import model as module

    return module.make_model, module.make_vec_env, module.seed_everything


def train(args: ExItArgs) -> dict[str, Any]:
    """Run one expert-iteration job (module docstring); returns the summary dict.

    Raises:
        ConfigError: a bad flag (:func:`validate_args`), game or resume path;
        ClusterUnreachableError: no Ray cluster at ``--address`` (before anything is written).
    """
    validate_args(args)
    return _train_in_pool(args)


def _train_in_pool(args: ExItArgs) -> dict[str, Any]:
    """:func:`train` on validated ``args`` (what :func:`main` runs after its own check)."""
    from card_envs.evaluation.pool import GamePool

    with GamePool(args.workers, args.address) as pool:  # labels every round's games
        return _train(args, pool)


def _train(args: ExItArgs, pool) -> dict[str, Any]:
    import torch

    from card_envs.bots.base import RandomBot
    from card_envs.bots.sb3 import FrozenPolicy
    from card_envs.evaluation.match import play_match
    from card_envs.core.registry import resolve_game
    from card_envs.evaluation.runner import deal_seed, progress_bar
    from card_envs.training.args import Args, game_config
    from card_envs.bots.sb3 import load_model
    from card_envs.training.imitation import warm_start
    from card_envs.training.summary import curve_point, plot_curve, versions

    make_model, make_vec_env, seed_everything = _model_factory()

    t0 = time.time()  # the budget covers the warm start too
    deadline = t0 + args.minutes * 60 if args.minutes > 0 else None

    # 0. resume: the run's game, config and network come back with its counters
    meta: dict[str, Any] = {"round": 0, "timesteps": 0, "train_seconds": 0.0, "curve": [],
                            "gates": []}
    model_path, replay = None, None
    if args.resume:
        meta, model_path, replay = load_round(Path(args.resume))
        saved = meta["args"]
        args = dataclasses.replace(
            args, game=saved["game"], game_config=saved["game_config"], set=list(saved["set"]),
            net_arch=saved["net_arch"], activation=saved["activation"],
            run_dir=args.run_dir or str(model_path.parent.parent))
    torch.set_num_threads(args.threads)
    seed_everything(args.seed + meta["round"])
    config = game_config(args)
    game = resolve_game(args.game, config)
    from card_envs.training.model import heuristic_or_none

    heuristic = heuristic_or_none(args.game, "no warm start, no evaluation against it")
    opponent = heuristic if heuristic is not None else RandomBot(args.seed)
    run_dir = Path(args.run_dir or Path("runs") /
                   f"{game.name}-exit-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}")
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    args = dataclasses.replace(args, run_dir=str(run_dir))
    curve, gates = list(meta["curve"]), list(meta["gates"])
    round_index, timesteps = meta["round"], meta["timesteps"]
    train_seconds = float(meta["train_seconds"])

    # the network: a MaskablePPO MlpPolicy (the PPO trainer's factory), new or resumed
    ppo_args = Args(game=args.game, seed=args.seed, n_envs=1, net_arch=args.net_arch,
                    activation=args.activation, learning_rate=args.fit_learning_rate)
    vec_env = make_vec_env(game, opponent, ppo_args, args.seed)
    model = make_model(vec_env, ppo_args) if model_path is None else \
        load_model(model_path, env=vec_env)
    print(f"[card-envs] expert iteration on {game.name} {config or ''} -> {run_dir}", flush=True)

    def evaluate(n_deals: int, seed: int, against) -> Any:
        me = FrozenPolicy(model.policy, deterministic=True, name="exit-net")
        return play_match(game, me, against, n_deals * game.num_players, seed=seed, paired=True)

    def add_point(extra: dict[str, Any]) -> None:
        if heuristic is None:
            return
        result = evaluate(args.eval_deals, EVAL_SEED, heuristic)
        point = curve_point({"heuristic": result}, timesteps, train_seconds + time.time() - t0, {})
        curve.append({**point, "round": round_index, **extra})

    bc_metrics: dict[str, Any] = {}
    if model_path is None:
        if args.bc_decisions > 0 and heuristic is not None:
            bc_metrics = warm_start(model, game, heuristic, args.bc_decisions, args.bc_epochs,
                                    args.bc_learning_rate, seed=args.seed)
            print(f"[card-envs] behaviour cloning of the heuristic on "
                  f"{bc_metrics['bc/decisions']} decisions: accuracy "
                  f"{bc_metrics['bc/accuracy']:.1%} in {bc_metrics['bc/seconds']:.0f}s",
                  flush=True)
        add_point({})
        if curve:
            print(f"[card-envs] round 0: alone vs heuristic "
                  f"{curve[-1]['eval/win_rate_vs_heuristic']:.1%}", flush=True)

    setup = LabelSetup(args.game, config, args.iterations, args.c_puct, args.rollout)
    print(f"[card-envs] labelling {args.games_per_round} games per round, {args.iterations} "
          f"iterations per decision, in {pool.describe()}", flush=True)
    while (args.rounds <= 0 or round_index < args.rounds) and \
            (deadline is None or time.time() < deadline):
        round_index += 1
        costs: dict[str, float] = {}
        # 1. label: self-play searched with the current network as prior
        t = time.time()
        jobs = [LabelJob(g, round_index, deal_seed(args.seed * 10_007 + round_index, g))
                for g in range(args.games_per_round)]
        with progress_bar(len(jobs), f"round {round_index} label",
                          enabled=args.progress) as bar:
            labels, games, searched = label_round(pool, setup, game, model, jobs, deadline,
                                                  bar)
        costs["seconds/label"] = time.time() - t
        if not labels:
            print(f"[card-envs] round {round_index}: no game labelled before the deadline",
                  flush=True)
            round_index -= 1
            break
        new = Labels.concat(labels)
        timesteps += len(new)
        replay = new if replay is None else Labels.concat([replay, new])
        replay = replay.where(replay.rounds > round_index - args.replay_rounds)

        # 2. fit the policy to the visit distributions, the value to the outcomes
        t = time.time()
        before = (
            {k: v.clone() for k, v in model.policy.state_dict().items()},
            model.policy.optimizer.state_dict())
        previous = FrozenPolicy(model.policy, deterministic=True, name="previous")
        metrics = fit(model, replay, args.fit_epochs, args.fit_learning_rate,
                      args.fit_batch_size, args.value_coef, seed=args.seed + round_index)
        costs["seconds/fit"] = time.time() - t

        # 3. gate: the new network against the previous one on duplicate deals
        t = time.time()
        gate: dict[str, Any] = {"round": round_index, "accepted": True}
        if args.gate_deals > 0:
            result = evaluate(args.gate_deals, GATE_SEED, previous)
            gate.update(score=result.score, games=result.n,
                        accepted=result.score >= args.gate_threshold)
            if not gate["accepted"]:
                model.policy.load_state_dict(before[0])
                model.policy.optimizer.load_state_dict(before[1])
        gates.append(gate)
        costs["seconds/gate"] = time.time() - t

        # 4. evaluate alone against the heuristic (same deals every round)
        t = time.time()
        add_point({"games": games, "decisions": len(new), "searched": searched,
                   "gate/score": gate.get("score"), "gate/accepted": gate["accepted"],
                   **metrics, **{k: round(v, 2) for k, v in costs.items()}})
        costs["seconds/eval"] = time.time() - t
        if curve:
            curve[-1]["seconds/eval"] = round(costs["seconds/eval"], 2)
        rate = curve[-1]["eval/win_rate_vs_heuristic"] if curve else float("nan")
        score = f"{gate['score']:.1%}" if "score" in gate else "-"
        print(f"[card-envs] round {round_index}: {games} games, {len(new)} decisions "
              f"({searched} searched) in {costs['seconds/label']:.0f}s; fit KL "
              f"{metrics['fit/kl']:.3f}, accuracy {metrics['fit/accuracy']:.1%}; gate "
              f"{score} -> {'kept' if gate['accepted'] else 'rejected'}; alone vs "
              f"heuristic {rate:.1%}", flush=True)

        # 5. checkpoint
        seconds_now = train_seconds + time.time() - t0
        save_round(model, run_dir, {
            "round": round_index, "timesteps": timesteps,
            "train_seconds": round(seconds_now, 2), "curve": curve, "gates": gates,
            "args": dataclasses.asdict(args)}, replay)

    # outputs and the final evaluation
    seconds = time.time() - t0
    train_seconds += seconds
    model.save(run_dir / "model.zip")
    if curve:
        plot_curve(curve, run_dir / "learning_curve.png",
                   f"Expert iteration (ISMCTS {args.iterations} it., PUCT prior) on {game.name}",
                   x_label="decisions labelled", step_name="expert-iteration")
    final: dict[str, Any] = {}
    if args.final_eval_games > 0:
        t_eval = time.time()
        me = FrozenPolicy(model.policy, deterministic=True, name="exit-net")
        opponents = {"random": RandomBot(FINAL_SEED)}
        if heuristic is not None:
            opponents["heuristic"] = heuristic
        results = {kind: play_match(game, me, opp, args.final_eval_games, seed=FINAL_SEED,
                                    paired=True) for kind, opp in opponents.items()}
        final = {kind: r.to_dict() for kind, r in results.items()}
        print(f"[card-envs] final evaluation ({args.final_eval_games} duplicate-deal games each, "
              f"the network alone, deterministic, {time.time() - t_eval:.0f}s):", flush=True)
        for kind, r in results.items():
            print(f"  agent vs {kind:9s}: {r.long_summary()}", flush=True)
    summary = {
        "method": "exit", "game": game.name, "game_config": game.config_to_dict(),
        "rounds": round_index, "timesteps": timesteps,
        "train_seconds_this_run": round(seconds, 1), "train_seconds_total": round(train_seconds, 1),
        "final_eval": final, "behaviour_cloning": bc_metrics, "curve": curve, "gates": gates,
        "model": str(run_dir / "model.zip"),
        "policy_specs": {"alone": str(run_dir / "model.zip"),
                         "as_ismcts_prior": f"ismcts:{args.iterations}@{run_dir / 'model.zip'}"},
        "args": dataclasses.asdict(args), "versions": versions(),
    }
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"[card-envs] {round_index} rounds, {timesteps} labelled decisions in {seconds:.0f}s; "
          f"model.zip, learning_curve.png and summary.json in {run_dir}", flush=True)
    vec_env.close()
    return summary


#: what expert iteration imports beyond the core (the ``train`` extra)
TRAIN_MODULES = ("tyro", "torch", "stable_baselines3", "sb3_contrib", "matplotlib",
                 "threadpoolctl")


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Command-line entry: a user error (bad flag, unknown game or config, a resume path that is
    not a run, no Ray at ``--address``) prints one ``error:`` line and returns 2 (no traceback);
    a missing extra prints the one-line ``pip install`` hint and returns 2
    (:func:`card_envs.training.entry.trainer_main`)."""
    from card_envs.training.entry import trainer_main

    def no_ray(args, exc: BaseException) -> str | None:
        if not isinstance(exc, ConnectionError):  # --address: no Ray cluster there
            return None
        return (f"--address {args.address!r}: {str(exc).strip().splitlines()[0]} (start one with "
                "`ray start --head`, or leave --address out)")

    return trainer_main(argv, prog or "python -m card_envs.training.exit", parse_args,
                        validate_args, _train_in_pool, TRAIN_MODULES, on_error=no_ray)


if __name__ == "__main__":  # python -m card_envs.training.exit
    sys.exit(main())
