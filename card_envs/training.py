"""MaskablePPO self-play training in a league, on any game of the suite (the reusable part of
``training/ppo.py`` and ``card-envs train``).

One run, CleanRL-style (:func:`train` reads top to bottom):

1. build the game from ``--game`` + its config, the heuristic bot, and a :class:`League` of
   opponents: random, the heuristic (fixed, never trained) and ``self`` — frozen snapshots of the
   learner taken every ``--snapshot-every`` steps (mix ``--opponent-mix``, default
   ``random=0.05,heuristic=0.65,self=0.3``), after a behaviour-cloning warm start on the
   heuristic's decisions (``--bc-decisions``, :mod:`card_envs.wrappers.imitation`);
2. ``n_envs`` :class:`~card_envs.wrappers.single_agent.SingleAgentEnv` copies (learner seat
   rotating per episode, one opponent sampled from the league per episode) in a ``DummyVecEnv``;
3. ``MaskablePPO`` learns until the wall-clock budget (``--minutes``) or the step budget
   (``--total-timesteps``) is spent, whichever comes first; every ``--eval-every`` steps the
   current policy plays ``--eval-games`` deterministic, seat-swapped games against random and
   against the heuristic (``eval/win_rate_vs_*``); checkpoints every ``--checkpoint-every`` steps;
4. the run folder gets ``model.zip``, ``learning_curve.png`` (win rate vs each opponent type over
   time), ``summary.json``, ``progress.csv`` (every named metric: ``charts/SPS``,
   ``eval/win_rate_vs_random``, ``train/approx_kl``...), ``checkpoints/`` and ``league/``;
5. the final model plays ``--final-eval-games`` seat-swapped games against random and against the
   heuristic; both results are printed with 95 % Wilson intervals and stored in the summary. For
   games with a lookahead hook (Garda3) the same games are also played by the trained policy
   improved at decision time by ``--final-eval-lookahead`` determinized rollouts per decision
   (:class:`card_envs.bots.lookahead.LookaheadPolicy`, the policy itself playing the rollouts):
   "agent+lookahead".

``--resume PATH`` (a run folder or a checkpoint ``.zip``) continues a run: model, optimizer,
timestep count, league snapshots, the learning curve, and the game with its config (from the
checkpoint, whatever ``--game`` says) come back; the wall-clock budget counts anew, the step budget
(``--total-timesteps``) is the total including the resumed steps.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import datetime as _dt
import inspect
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from card_envs.bots.base import RandomBot
from card_envs.core.config import parse_json_config, parse_json_value
from card_envs.core.errors import ConfigError
from card_envs.evaluation.match import MatchResult, play_match
from card_envs.evaluation.policies import MAX_LOOKAHEAD_SAMPLES, resolve_game, resolve_heuristic
from card_envs.wrappers.league import League, parse_mix


@dataclass
class Args:
    game: str = "garda3"
    """game to train on: a registry name (garda3, scratch_wars, dirt_and_glory) or 'module:factory'"""
    game_config: str = "{}"
    """the game's config as JSON, e.g. '{"variant": "classic"}'"""
    set: list[str] = dataclasses.field(default_factory=list)
    """config fields as key=value (value parsed as JSON, else a string); repeatable; wins over --game-config"""
    minutes: float = 15.0
    """wall-clock training budget of this invocation in minutes (0: none)"""
    total_timesteps: int = 0
    """step budget: stop after this many learner timesteps in total (0: none)"""
    seed: int = 1
    """seed of the envs, the league and torch"""
    run_dir: str = ""
    """output folder (default runs/<game>-<timestamp>; when resuming, the resumed run's folder)"""
    resume: str = ""
    """continue from a run folder (its latest checkpoint) or a checkpoint .zip (game and config from it)"""
    threads: int = 1
    """torch threads (1 is fastest for these small MLPs on a shared 2-core machine)"""
    n_envs: int = 8
    """parallel single-agent envs in one DummyVecEnv (batched policy inference)"""
    opponent_mix: str = "random=0.05,heuristic=0.65,self=0.3"
    """league weights per opponent kind: random, heuristic, self (frozen snapshots of the learner);
    after the behaviour-cloning start, mostly the heuristic (0.15/0.5/0.35 without cloning
    measured worse vs the heuristic on Garda3)"""
    snapshot_every: int = 50_000
    """add a frozen copy of the learner to the league every this many timesteps"""
    max_pool: int = 20
    """keep at most this many self snapshots in the league (oldest dropped)"""
    shaping: float = 0.0
    """weight of potential-based reward shaping on the game's potential() (0: off; on Garda3 1.0
    measured no better vs the heuristic: 50.5 %, one 15-minute run)"""
    reward_mode: str = "returns"
    """'returns' (the game's return for the learner's seat) or 'win_loss' (+1/0/-1)"""
    learning_rate: float = 1e-4
    """Adam learning rate (1e-4 keeps more of the cloned play than 3e-4)"""
    n_steps: int = 512
    """steps per env per rollout (rollout size = n_steps * n_envs; 512 x 8 beat 256 x 8 against
    the Garda3 heuristic in equal wall clock: 52.5 % vs 48.5 %, one run each)"""
    batch_size: int = 512
    """minibatch size"""
    n_epochs: int = 5
    """optimisation epochs per rollout (5 measured better than 10 under a wall-clock budget)"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clip range"""
    ent_coef: float = 0.001
    """entropy bonus coefficient (small: the cloned start already explores)"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient clipping norm"""
    net_arch: str = "128,128"
    """hidden layer sizes of the policy and value MLPs, comma-separated (128,128 trains ~2x the
    steps/s of 256,256 here and learned faster per minute)"""
    activation: str = "tanh"
    """hidden activation: tanh or relu"""
    eval_every: int = 50_000
    """evaluate against random and the heuristic every this many timesteps (0: only at the start
    and the end)"""
    eval_games: int = 100
    """seat-swapped games per opponent in each periodic evaluation"""
    final_eval_games: int = 400
    """seat-swapped games per opponent in the final evaluation (0: skip)"""
    final_eval_lookahead: int = 8
    """also evaluate the trained policy with decision-time lookahead: deals sampled per decision,
    the policy playing the rollouts (card_envs.bots.lookahead; games with a lookahead_horizon
    hook only; 0: skip)"""
    bc_decisions: int = 200_000
    """behaviour-cloning warm start: teacher (heuristic) decisions to imitate before self-play
    (0: off; skipped for games without a heuristic and when resuming); counts in the budget"""
    bc_epochs: int = 12
    """epochs of behaviour cloning over those decisions"""
    bc_learning_rate: float = 1e-3
    """Adam learning rate of behaviour cloning (PPO's own rate is restored afterwards)"""
    checkpoint_every: int = 100_000
    """save a checkpoint every this many timesteps (and always at the end)"""
    progress: bool = True
    """show a progress bar"""


# ---------------------------------------------------------------------------------------------
# command line: argparse built from Args (help text = the field docstrings)
def _field_docs(cls) -> dict[str, str]:
    """Attribute docstrings (the string literal after each field) of a dataclass."""
    docs: dict[str, str] = {}
    try:
        tree = ast.parse(inspect.getsource(cls))
    except (OSError, TypeError):  # pragma: no cover - source unavailable
        return docs
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, nxt in zip(body, body[1:]):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            docs[node.target.id] = nxt.value.value
    return docs


def make_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Train MaskablePPO by self-play in a league on a card-envs game, then "
        "evaluate it against random and the heuristic.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    docs = _field_docs(Args)
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        help_ = " ".join(docs.get(f.name, "").split()).replace("%", "%%")  # argparse formats %
        if f.type in ("bool", bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default,
                                help=help_)
        elif f.name == "set":
            parser.add_argument(flag, action="append", default=[], metavar="KEY=VALUE", help=help_)
        else:
            typ = {"int": int, "float": float, "str": str}.get(str(f.type), str)
            parser.add_argument(flag, type=typ, default=f.default, help=help_)
    return parser


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> Args:
    ns = make_parser(prog).parse_args(argv)
    return Args(**vars(ns))


_AT_LEAST = {  # field: smallest allowed value (ints and floats)
    "seed": 0, "minutes": 0, "total_timesteps": 0, "threads": 1, "n_envs": 1, "snapshot_every": 1,
    "max_pool": 1, "shaping": 0, "n_steps": 2, "batch_size": 2, "n_epochs": 1, "ent_coef": 0,
    "vf_coef": 0, "eval_every": 0, "eval_games": 1, "final_eval_games": 0,
    "final_eval_lookahead": 0, "bc_decisions": 0, "bc_epochs": 1, "checkpoint_every": 1,
}
_POSITIVE = ("learning_rate", "clip_range", "max_grad_norm", "bc_learning_rate")


def validate_args(args: Args) -> None:
    """Check every field before anything runs (no run folder is made for a bad flag).

    Raises:
        ConfigError: naming the flag and the bad value (ranges: ``_AT_LEAST``, ``_POSITIVE``,
            ``gamma`` in (0, 1], ``gae_lambda`` in [0, 1], ``final_eval_lookahead`` at most
            ``MAX_LOOKAHEAD_SAMPLES``, ``net_arch`` comma-separated positive
            ints, ``activation`` tanh/relu, ``reward_mode`` returns/win_loss, ``opponent_mix``
            kinds random/heuristic/self, a budget).
    """
    def bad(field: str, value, why: str):
        return ConfigError(f"--{field.replace('_', '-')} {value!r}: {why}")

    for field, low in _AT_LEAST.items():
        value = getattr(args, field)
        if not value >= low:
            raise bad(field, value, f"must be >= {low}")
    for field in _POSITIVE:
        value = getattr(args, field)
        if not value > 0:
            raise bad(field, value, "must be > 0")
    if not 0 < args.gamma <= 1:
        raise bad("gamma", args.gamma, "must be in (0, 1]")
    if not 0 <= args.gae_lambda <= 1:
        raise bad("gae_lambda", args.gae_lambda, "must be in [0, 1]")
    parts = [x.strip() for x in args.net_arch.split(",")]
    if not parts or not all(x.isascii() and x.isdigit() and int(x) > 0 for x in parts):
        raise bad("net_arch", args.net_arch, "must be comma-separated positive layer sizes, "
                  "e.g. 128,128")
    if args.activation not in ("tanh", "relu"):
        raise bad("activation", args.activation, "must be tanh or relu")
    if args.reward_mode not in ("returns", "win_loss"):
        raise bad("reward_mode", args.reward_mode, "must be returns or win_loss")
    try:
        weights = parse_mix(args.opponent_mix)
    except ValueError as exc:
        raise bad("opponent_mix", args.opponent_mix, str(exc)) from None
    unknown = set(weights) - {"random", "heuristic", "self"}
    if unknown:
        raise bad("opponent_mix", args.opponent_mix,
                  f"unknown kind(s) {sorted(unknown)}; kinds: random, heuristic, self")
    if any(not w >= 0 for w in weights.values()) or not any(w > 0 for w in weights.values()):
        raise bad("opponent_mix", args.opponent_mix,
                  "weights must be >= 0 with at least one > 0")
    if args.final_eval_lookahead > MAX_LOOKAHEAD_SAMPLES:
        raise bad("final_eval_lookahead", args.final_eval_lookahead,
                  f"must be <= {MAX_LOOKAHEAD_SAMPLES} (MAX_LOOKAHEAD_SAMPLES) deals per decision")
    if args.minutes <= 0 and args.total_timesteps <= 0:
        raise ConfigError("no budget: set --minutes > 0 and/or --total-timesteps > 0")


def game_config(args: Args) -> dict[str, Any]:
    """The game config dict from ``--game-config`` JSON and ``--set key=value`` entries.

    Raises:
        ConfigError: malformed JSON or entry (names it): see
            :func:`card_envs.core.config.parse_json_config` (bad JSON, not an object, nested too
            deeply, an integer too long); a ``--set`` value that is not JSON is taken as a string,
            one that is JSON but nested too deeply or holding an integer too long is refused.
    """
    config = parse_json_config(args.game_config or "{}", "--game-config")
    for entry in args.set:
        if "=" not in entry:
            raise ConfigError(f"--set {entry!r} is not KEY=VALUE")
        key, value = entry.split("=", 1)
        key = key.strip()
        try:
            json.loads(value)
        except json.JSONDecodeError:  # not JSON: the value is a string
            config[key] = value
            continue
        except (RecursionError, ValueError):  # JSON, but unusable: parse_json_value names it
            pass
        config[key] = parse_json_value(f"--set {key}", value)
    return config


# ---------------------------------------------------------------------------------------------
# pieces
def make_league(args: Args, heuristic, seed: int) -> League:
    """The opponent league: random + heuristic pools filled, ``self`` filled during training.
    Without a heuristic bot (``heuristic=None``) its share goes to the other kinds."""
    weights = parse_mix(args.opponent_mix)
    unknown = set(weights) - {"random", "heuristic", "self"}
    if unknown:
        raise ValueError(f"--opponent-mix: unknown kind(s) {sorted(unknown)}; "
                         "kinds: random, heuristic, self")
    if heuristic is None:
        weights.pop("heuristic", None)
    league = League(weights, max_pool=args.max_pool, seed=seed)
    if "random" in weights:
        league.set_pool("random", [("random", RandomBot(seed + 17))])
    if "heuristic" in weights:
        league.set_pool("heuristic", [("heuristic", heuristic)])
    return league


def make_vec_env(game, league: League, args: Args, seed: int):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.wrappers.single_agent import SingleAgentEnv

    def factory(i: int):
        return lambda: SingleAgentEnv(game, league, reward_mode=args.reward_mode, shaping=args.shaping, shaping_gamma=args.gamma,
                                      seed=seed * 1000 + i)

    vec = DummyVecEnv([factory(i) for i in range(args.n_envs)])
    vec.seed(seed)
    return vec


def make_model(vec_env, args: Args):
    import torch
    from sb3_contrib import MaskablePPO

    arch = [int(x) for x in args.net_arch.split(",") if x.strip()]
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[args.activation]
    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=args.learning_rate,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        policy_kwargs={"net_arch": arch, "activation_fn": activation},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )


def evaluate_model(model, game, heuristic, games: int, seed: int,
                   lookahead: int = 0) -> dict[str, MatchResult]:
    """Deterministic, masked, seat-swapped (paired deals) games of the current policy against
    random and against the heuristic (keys ``"random"``, ``"heuristic"``).

    With ``lookahead > 0`` and a game that has a ``lookahead_horizon`` hook, the same deals are
    played again by the policy improved with that many determinized rollouts per decision
    (keys ``"lookahead/random"``, ``"lookahead/heuristic"``)."""
    from card_envs.bots.lookahead import LookaheadPolicy
    from card_envs.wrappers.sb3 import snapshot

    me = snapshot(model, "learner", deterministic=True)
    agents = {"": me}
    if lookahead > 0 and hasattr(game, "lookahead_horizon"):
        agents["lookahead/"] = LookaheadPolicy(me, samples=lookahead, seed=seed)
    out = {}
    for prefix, agent in agents.items():
        out[prefix + "random"] = play_match(game, agent, RandomBot(seed), games, seed=seed,
                                            paired=True)
        if heuristic is not None:
            out[prefix + "heuristic"] = play_match(game, agent, heuristic, games, seed=seed + 1,
                                                   paired=True)
    return out


def _latest_checkpoint(path: Path) -> Path:
    if path.is_file():
        return path
    if not path.is_dir():
        raise ConfigError(f"--resume {str(path)!r}: no such checkpoint .zip or run folder")
    ckpts = sorted((p for p in (path / "checkpoints").glob("ckpt_*.zip")
                    if p.stem.split("_")[1].isdigit()), key=lambda p: int(p.stem.split("_")[1]))
    if not ckpts:
        raise ConfigError(f"--resume {str(path)!r}: no checkpoints/ckpt_*.zip in the run folder")
    return ckpts[-1]


def load_resume(path: Path, max_pool: int) -> tuple[Path, dict[str, Any]]:
    """The checkpoint to resume from (``path``: a checkpoint ``.zip`` or a run folder, its latest
    one) and its metadata, all checked before anything runs: the checkpoint loads as a
    MaskablePPO model, its ``.json`` beside it is the metadata ``Trainer.checkpoint`` writes,
    and the league snapshots the resumed run reloads are model files.

    Raises:
        ConfigError: naming the file and what is wrong (missing, not a model, a corrupt archive,
            bad JSON, a missing or wrong-typed metadata field).
    """
    import pydantic

    from card_envs.evaluation.policies import check_model_file, load_model_policy

    ckpt = _latest_checkpoint(path)
    try:
        load_model_policy(ckpt)
    except ConfigError as exc:
        raise ConfigError(f"--resume: checkpoint {exc}") from None
    meta_path = ckpt.with_suffix(".json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"--resume: {str(meta_path)!r} (the checkpoint's metadata beside "
                          f"{ckpt.name}) is missing") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"--resume: {str(meta_path)!r} is not checkpoint metadata "
                          f"({type(exc).__name__}: {exc})") from None

    if not isinstance(meta, dict):
        raise ConfigError(f"--resume: {str(meta_path)!r} is not checkpoint metadata (a JSON "
                          f"object expected, found {type(meta).__name__})")

    class _Args(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True, extra="allow")
        game: str
        game_config: str
        set: list[str]

    class _Meta(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True, extra="allow")
        timesteps: int = pydantic.Field(ge=0)
        train_seconds: float = pydantic.Field(ge=0)
        curve: list[dict[str, Any]]
        snapshots: list[str]
        args: _Args

    try:
        _Meta.model_validate(meta)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(top level)"
        got = "" if err["type"] == "missing" else f" = {str(err['input'])[:60]!r}"
        raise ConfigError(f"--resume: {str(meta_path)!r} is not checkpoint metadata: field "
                          f"{field}{got}: {err['msg']}") from None
    source = ckpt.parent.parent
    for rel in meta["snapshots"][-max_pool:]:
        try:
            check_model_file(source / rel)
        except ConfigError as exc:
            raise ConfigError(f"--resume: league snapshot {exc} (listed in "
                              f"{str(meta_path)!r})") from None
    return ckpt, meta


# ---------------------------------------------------------------------------------------------
# the run
class Trainer:
    """State of one run shared by the SB3 callback and the outputs."""

    def __init__(self, args: Args):
        self.args = args
        self.curve: list[dict[str, Any]] = []
        self.snapshots: list[str] = []  # league snapshot files (relative to run_dir)
        self.start_timesteps = 0
        self.prior_seconds = 0.0
        resume_ckpt = None
        if args.resume:
            resume_ckpt, meta = load_resume(Path(args.resume), args.max_pool)
            self.curve = meta["curve"]
            self.snapshots = meta["snapshots"]
            self.start_timesteps = meta["timesteps"]
            self.prior_seconds = meta["train_seconds"]
            # the game and its config are the checkpoint's (the model's spaces depend on them)
            for key in ("game", "game_config", "set"):
                if getattr(args, key) not in (meta["args"][key], "garda3", "{}", []):
                    print(f"[card-envs] warning: --{key.replace('_', '-')} {getattr(args, key)!r} "
                          f"ignored: resuming the checkpoint's {meta['args'][key]!r}",
                          file=sys.stderr, flush=True)
                setattr(args, key, meta["args"][key])
            if not args.run_dir:
                args.run_dir = str(resume_ckpt.parent.parent)
        self.config = game_config(args)
        self.game = resolve_game(args.game, self.config)
        try:
            self.heuristic = resolve_heuristic(args.game)
        except (ConfigError, ImportError) as exc:  # a game without a heuristic bot (yet)
            print(f"[card-envs] warning: no heuristic bot for {args.game!r} ({exc}); training "
                  "and evaluating without the heuristic opponent", file=sys.stderr, flush=True)
            self.heuristic = None
        if not args.run_dir:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            args.run_dir = str(Path("runs") / f"{self.game.name}-{stamp}")
        self.run_dir = Path(args.run_dir)
        (self.run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
        (self.run_dir / "league").mkdir(parents=True, exist_ok=True)
        self.league = make_league(args, self.heuristic, args.seed + self.start_timesteps)
        self.vec_env = make_vec_env(self.game, self.league, args, args.seed + self.start_timesteps)
        if resume_ckpt is not None:
            from card_envs.wrappers.sb3 import load_model, load_policy

            self.model = load_model(resume_ckpt, env=self.vec_env)
            source = resume_ckpt.parent.parent
            if source.resolve() != self.run_dir.resolve():  # resumed into a new folder
                import shutil

                for rel in self.snapshots:
                    if (source / rel).exists():
                        shutil.copy2(source / rel, self.run_dir / rel)
            for rel in self.snapshots[-args.max_pool:]:
                self.league.add("self", Path(rel).stem,
                                load_policy(self.run_dir / rel, deterministic=False))
        else:
            self.model = make_model(self.vec_env, args)
        from stable_baselines3.common.logger import configure

        # a resumed run logs into its own folder so the first progress.csv is kept
        log_dir = self.run_dir if resume_ckpt is None else (
            self.run_dir / f"resumed_at_{self.start_timesteps}")
        self.model.set_logger(configure(str(log_dir), ["csv"]))

    # -- snapshots, checkpoints, evaluation ----------------------------------------------------
    def add_snapshot(self, timesteps: int) -> None:
        from card_envs.wrappers.sb3 import snapshot

        if "self" not in self.league.weights:
            return
        rel = f"league/self_{timesteps}.zip"
        self.model.save(self.run_dir / rel, exclude=["env", "logger"])
        self.snapshots.append(rel)
        self.league.add("self", f"self_{timesteps}",
                        snapshot(self.model, f"self_{timesteps}", deterministic=False,
                                 seed=self.args.seed + timesteps))

    def checkpoint(self, timesteps: int, train_seconds: float) -> Path:
        path = self.run_dir / "checkpoints" / f"ckpt_{timesteps}.zip"
        self.model.save(path)
        meta = {"timesteps": timesteps, "train_seconds": train_seconds, "curve": self.curve,
                "snapshots": self.snapshots, "args": dataclasses.asdict(self.args)}
        path.with_suffix(".json").write_text(json.dumps(meta, indent=1))
        return path

    def evaluate(self, timesteps: int, train_seconds: float) -> dict[str, Any]:
        res = evaluate_model(self.model, self.game, self.heuristic, self.args.eval_games,
                             seed=10_000 + len(self.curve))
        point: dict[str, Any] = {"timesteps": timesteps, "train_seconds": round(train_seconds, 2)}
        for kind, r in res.items():
            point[f"eval/win_rate_vs_{kind}"] = r.win_rate
            point[f"eval/score_vs_{kind}"] = r.score
            point[f"eval/wilson95_vs_{kind}"] = list(r.wilson())
        for kind, rate in self.league.win_rates().items():
            point[f"train/win_rate_vs_{kind}"] = rate
        self.curve.append(point)
        return point


def _make_callback(trainer: Trainer, deadline: float | None, step_budget: int | None):
    from stable_baselines3.common.callbacks import BaseCallback

    args = trainer.args

    class LeagueCallback(BaseCallback):
        """Budget, progress bar, league snapshots, periodic evaluation and checkpoints."""

        def _on_training_start(self) -> None:
            self.t0 = time.time()
            self.steps0 = self.num_timesteps
            self.next_snapshot = self.num_timesteps + args.snapshot_every
            self.next_eval = (self.num_timesteps + args.eval_every if args.eval_every > 0
                              else float("inf"))
            self.next_ckpt = self.num_timesteps + args.checkpoint_every
            self.bar = None
            if args.progress:
                from tqdm import tqdm

                if deadline is not None:
                    self.bar = tqdm(total=round(deadline - self.t0), unit="s",
                                    desc=f"train {trainer.game.name}", dynamic_ncols=True,
                                    bar_format="{desc}: {percentage:3.0f}%|{bar}| "
                                    "{n_fmt}/{total_fmt} s{postfix}")
                else:
                    self.bar = tqdm(total=step_budget - self.num_timesteps, unit="step",
                                    desc=f"train {trainer.game.name}", dynamic_ncols=True)
            self.last_bar = 0
            self.postfix: dict[str, str] = {}

        def elapsed(self) -> float:
            return time.time() - self.t0

        def sps(self) -> float:
            return (self.num_timesteps - self.steps0) / max(self.elapsed(), 1e-9)

        def _on_step(self) -> bool:
            n = self.num_timesteps
            if n >= self.next_snapshot:
                trainer.add_snapshot(n)
                self.next_snapshot += args.snapshot_every
            if n >= self.next_eval:
                point = trainer.evaluate(n, trainer.prior_seconds + self.elapsed())
                self.postfix = {}
                for kind, short in (("random", "vs_random"), ("heuristic", "vs_heur")):
                    key = f"eval/win_rate_vs_{kind}"
                    if key in point:
                        self.logger.record(key, point[key])
                        self.postfix[short] = f"{point[key]:.0%}"
                self.next_eval += args.eval_every
            if n >= self.next_ckpt:
                trainer.checkpoint(n, trainer.prior_seconds + self.elapsed())
                self.next_ckpt += args.checkpoint_every
            now = time.time()
            if self.bar is not None:
                done = round(now - self.t0) if deadline is not None else n - self.steps0
                if done > self.last_bar:
                    self.bar.update(done - self.last_bar)
                    self.last_bar = done
                    self.bar.set_postfix(steps=n, sps=f"{self.sps():.0f}", **self.postfix,
                                         refresh=False)
            if deadline is not None and now >= deadline:
                return False
            return not (step_budget is not None and n >= step_budget)

        def _on_rollout_end(self) -> None:
            self.logger.record("charts/SPS", int(self.sps()))
            for kind, rate in trainer.league.win_rates().items():
                self.logger.record(f"train/win_rate_vs_{kind}", rate)

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return LeagueCallback()


def plot_curve(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    """Win rate vs each opponent type over timesteps: evaluation (solid, with 95 % Wilson band)
    and training episodes (dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs = [p["timesteps"] for p in curve]
    colours = {"random": "tab:blue", "heuristic": "tab:red", "self": "tab:green"}
    for kind in ("random", "heuristic"):
        key = f"eval/win_rate_vs_{kind}"
        pts = [(p["timesteps"], p[key], p[f"eval/wilson95_vs_{kind}"]) for p in curve if key in p]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=colours[kind],
                    label=f"eval vs {kind}")
            ax.fill_between([p[0] for p in pts], [p[2][0] for p in pts], [p[2][1] for p in pts],
                            color=colours[kind], alpha=0.15)
    for kind in ("random", "heuristic", "self"):
        key = f"train/win_rate_vs_{kind}"
        pts = [(p["timesteps"], p[key]) for p in curve if key in p]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "--", color=colours[kind],
                    alpha=0.7, label=f"training episodes vs {kind}")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_ylim(0, 1)
    if xs:
        ax.set_xlim(0, max(xs) * 1.02 or 1)
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def train(args: Args) -> dict[str, Any]:
    """Run one training job (see the module docstring); returns the summary dict."""
    import torch

    from card_envs.wrappers.sb3 import seed_everything

    validate_args(args)
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)
    trainer = Trainer(args)
    model = trainer.model
    print(f"[card-envs] training {trainer.game.name} {trainer.config or ''} -> {trainer.run_dir}",
          flush=True)
    t0 = time.time()  # the wall-clock budget covers the warm start too
    bc_metrics: dict[str, float] = {}
    if not args.resume and args.bc_decisions > 0 and trainer.heuristic is not None:
        from card_envs.wrappers.imitation import behaviour_clone, collect_demonstrations

        demos = collect_demonstrations(trainer.game, trainer.heuristic, args.bc_decisions,
                                       seed=args.seed)
        bc_metrics = behaviour_clone(model, demos, epochs=args.bc_epochs, seed=args.seed,
                                     learning_rate=args.bc_learning_rate)
        bc_metrics["bc/seconds"] = round(time.time() - t0, 1)
        print(f"[card-envs] behaviour cloning of the heuristic on {len(demos)} decisions: "
              f"accuracy {bc_metrics['bc/accuracy']:.1%} in {bc_metrics['bc/seconds']:.0f}s",
              flush=True)
    if not args.resume:
        trainer.add_snapshot(0)
        trainer.evaluate(0, 0.0)
    elif not trainer.league.pools.get("self") and "self" in trainer.league.weights:
        trainer.add_snapshot(trainer.start_timesteps)

    deadline = t0 + args.minutes * 60 if args.minutes > 0 else None
    step_budget = args.total_timesteps if args.total_timesteps > 0 else None
    learn_steps = (step_budget - model.num_timesteps) if step_budget else 10**12
    callback = _make_callback(trainer, deadline, step_budget)
    if learn_steps > 0:
        model.learn(total_timesteps=learn_steps, callback=callback, reset_num_timesteps=False)
    seconds = time.time() - t0
    steps = model.num_timesteps
    train_seconds = trainer.prior_seconds + seconds
    sps = (steps - trainer.start_timesteps) / max(seconds, 1e-9)

    if not trainer.curve or trainer.curve[-1]["timesteps"] != steps:
        trainer.evaluate(steps, train_seconds)
    ckpt = trainer.checkpoint(steps, train_seconds)
    model.save(trainer.run_dir / "model.zip")
    plot_curve(trainer.curve, trainer.run_dir / "learning_curve.png",
               f"MaskablePPO league self-play on {trainer.game.name}")

    final: dict[str, Any] = {}
    if args.final_eval_games > 0:
        t_eval = time.time()
        res = evaluate_model(model, trainer.game, trainer.heuristic, args.final_eval_games,
                             seed=123_456, lookahead=args.final_eval_lookahead)
        final = {kind: r.to_dict() for kind, r in res.items()}
        print(f"[card-envs] final evaluation ({args.final_eval_games} seat-swapped games each, "
              f"deterministic, {time.time() - t_eval:.0f}s):", flush=True)
        for kind, r in res.items():
            who, _, opp = kind.rpartition("/")
            label = f"agent+lookahead({args.final_eval_lookahead})" if who else "agent"
            print(f"  {label} vs {opp:9s}: {r.long_summary()}", flush=True)
    summary = {
        "game": trainer.game.name,
        "game_config": trainer.game.config_to_dict(),
        "timesteps": steps,
        "train_seconds_this_run": round(seconds, 1),
        "train_seconds_total": round(train_seconds, 1),
        "charts/SPS": round(sps, 1),
        "final_eval": final,
        "behaviour_cloning": bc_metrics,
        "curve": trainer.curve,
        "league": {"weights": trainer.league.weights, "snapshots": trainer.snapshots,
                   "episodes": trainer.league.episodes},
        "checkpoint": str(ckpt),
        "model": str(trainer.run_dir / "model.zip"),
        "args": dataclasses.asdict(args),
        "versions": versions(),
    }
    (trainer.run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"[card-envs] {steps} timesteps in {seconds:.0f}s ({sps:.0f} steps/s); model, "
          f"learning_curve.png and summary.json in {trainer.run_dir}", flush=True)
    trainer.vec_env.close()
    return summary


def versions(extra: tuple[str, ...] = ()) -> dict[str, str]:
    """Python and library versions (for summaries and benchmarks); ``extra``: more distributions."""
    from importlib import metadata

    out = {"python": sys.version.split()[0], "platform": platform.platform(),
           "cpus": str(os.cpu_count())}
    for dist in ("card-envs", "torch", "stable-baselines3", "sb3-contrib", "gymnasium",
                 "pettingzoo", "numpy", *extra):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "n/a"
    return out


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Command-line entry: a user error (bad flag, unknown game or config, missing resume path)
    prints one ``error:`` line and returns 2 (no traceback)."""
    from card_envs.core.errors import CardEnvsError

    args = parse_args(argv, prog)
    try:
        validate_args(args)
        game_config(args)
    except (CardEnvsError, ValueError) as exc:
        print(f"{prog or 'training/ppo.py'}: error: {exc}", file=sys.stderr)
        return 2
    try:
        train(args)
    except (CardEnvsError, FileNotFoundError) as exc:
        print(f"{prog or 'training/ppo.py'}: error: {exc}", file=sys.stderr)
        return 2
    return 0


__all__ = ["Args", "Trainer", "main", "parse_args", "plot_curve", "train"]
