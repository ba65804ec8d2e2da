"""The trainer's arguments: :class:`Args` (one field per flag, its docstring the flag's help),
parsed by `tyro <https://brentyi.github.io/tyro/>`_ (``--game-config`` for ``game_config``,
``--progress/--no-progress`` for a boolean, ``--set`` repeatable), and the checks every field
passes before anything runs (:func:`validate_args`, :func:`game_config`).

tyro is imported inside :func:`parse_args`: the dataclass and the checks need only the standard
library.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from card_envs.bots.specs import MAX_LOOKAHEAD_SAMPLES
from card_envs.core.config import parse_json_config, parse_json_value
from card_envs.core.errors import ConfigError
from card_envs.training.league import OPPONENT_KINDS, parse_mix

#: the choices of ``--network`` and the observation mode each trains on
NETWORKS = ("mlp", "cards")
OBSERVATION_MODE = {"mlp": "flat", "cards": "entities"}

DESCRIPTION = ("Train MaskablePPO by self-play in a league on a card-envs game, then evaluate it "
               "against random and the heuristic.")


@dataclass
class Args:
    game: str = "garda3"
    """game to train on: a registered game's name ('card-envs games' lists them) or
    'module:factory'"""
    game_config: str = "{}"
    """the game's config as JSON, e.g. '{"variant": "classic"}'"""
    set: list[str] = dataclasses.field(default_factory=list)
    """config fields as key=value (value parsed as JSON, else a string), one per --set; wins over --game-config"""
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
    """torch threads"""
    n_envs: int = 8
    """parallel single-agent envs in one DummyVecEnv (batched policy inference)"""
    opponent_mix: str = "random=0.05,heuristic=0.65,self=0.3"
    """league weights per opponent kind: random, heuristic, self (frozen snapshots of the learner); after the behaviour-cloning start, mostly the heuristic"""
    snapshot_every: int = 50_000
    """add a frozen copy of the learner to the league every this many timesteps"""
    max_pool: int = 20
    """keep at most this many self snapshots in the league (oldest dropped)"""
    league_keep: int = 20
    """keep the newest this many league snapshot files (league/self_*.zip) in the run folder, deleting older ones (0: keep all; else at least --max-pool)"""
    shaping: float = 0.0
    """weight of potential-based reward shaping on the game's potential() (0: off)"""
    reward_mode: str = "returns"
    """'returns' (the game's return for the learner's seat) or 'win_loss' (+1/0/-1)"""
    learning_rate: float = 1e-4
    """Adam learning rate (low, to keep the cloned play)"""
    n_steps: int = 512
    """steps per env per rollout (rollout size = n_steps * n_envs)"""
    batch_size: int = 512
    """minibatch size"""
    n_epochs: int = 5
    """optimisation epochs per rollout"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clip range"""
    clip_range_vf: float = 0.0
    """clip the value update to this distance from the rollout's values (0: off; the IIG-RL benchmark's tuned PPO clips it; 0.2 with ent 0.01 and lr 3e-4 gave no gain in the ablation of docs/training.md)"""
    ent_coef: float = 0.001
    """entropy bonus coefficient (small: the cloned start already explores; 0.01 with lr 3e-4 gave no gain in the ablation of docs/training.md)"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient clipping norm"""
    net_arch: str = "128,128"
    """hidden layer sizes of the policy and value MLPs, comma-separated"""
    activation: str = "tanh"
    """hidden activation: tanh or relu"""
    network: str = "mlp"
    """policy network: mlp (an MLP on the flat observation) or cards (card-aware: the per-entity view, each zone's card rows through one shared row encoder, masked mean and max pooling, the MLP heads, and a per-action score of the rows each action names; card_envs.training.networks.CardsPolicy); its comparison with the MLP, and why the default stays mlp: docs/training.md)"""
    anchor_coef: float = 0.0
    """KL anchor toward the behaviour-cloned policy: the starting coefficient of KL(cloned || learner) in the PPO loss (0: off; card_envs.training.anchored_ppo); off by default: 0.5 with a 50k-step critic warm-up gave no gain in the ablation of docs/training.md)"""
    anchor_decay_steps: int = 1_000_000
    """PPO timesteps over which the anchor's coefficient falls linearly to 0 (0: constant)"""
    critic_warmup_steps: int = 0
    """PPO timesteps at the start during which only the critic is trained (0: off)"""
    privileged_critic: bool = False
    """the critic also sees what every other seat sees (training only; the actor never does: card_envs.training.networks); off by default: no gain in the ablation of docs/training.md, and fewer timesteps per second (the other seats' observations are encoded at every step)"""
    eval_every: int = 100_000
    """evaluate the policy alone against random and the heuristic every this many timesteps (0: only at the start and the end)"""
    eval_deals: int = 200
    """duplicate deals against the heuristic in each periodic evaluation: each deal played once in every seat, the same deals every time (200 deals = 400 games, Wilson band about +-5 points)"""
    eval_random_deals: int = 50
    """duplicate deals against random in each periodic evaluation"""
    final_eval_games: int = 400
    """seat-swapped games per opponent in the final evaluation (0: skip)"""
    final_eval_lookahead: int = 8
    """also evaluate the trained policy with decision-time lookahead: deals sampled per decision, the policy playing the rollouts (card_envs.bots.lookahead; games with a lookahead_horizon hook only; 0: skip)"""
    bc_decisions: int = 200_000
    """behaviour-cloning warm start: teacher (heuristic) decisions to imitate before self-play (0: off; skipped for games without a heuristic and when resuming); counts in the budget"""
    bc_teacher: str = "heuristic"
    """the policy cloned by the warm start, a policy spec: heuristic, or a search around it such as heuristic+lookahead:8 (slower to collect, stronger to clone)"""
    bc_workers: int = 1
    """processes collecting the teacher's decisions (the cloning itself runs here)"""
    bc_epochs: int = 12
    """epochs of behaviour cloning over those decisions"""
    bc_learning_rate: float = 1e-3
    """Adam learning rate of behaviour cloning (PPO's own rate is restored afterwards)"""
    bc_dagger_rounds: int = 0
    """DAgger rounds after the cloning (0: off): the clone plays, the teacher labels the states it reaches, the clone is refitted on all demonstrations; counts in the budget but, like the cloning, is not cut by --minutes (each round refits on everything so far)"""
    bc_dagger_decisions: int = 50_000
    """decisions the clone plays (and the teacher labels) in each DAgger round, in this process whatever --bc-workers"""
    bc_dagger_epochs: int = 4
    """epochs over all demonstrations after each DAgger round"""
    bc_temperature: float = 1.0
    """after cloning, divide the cloned policy's action logits by this (> 0): the deterministic policy is unchanged, the sampled one (PPO's rollouts, the league's snapshots) tries the other legal actions more often (1: off; off by default: 10 gave no gain at 15 minutes on Garda3 or Rust Brawl in docs/training.md)"""
    checkpoint_every: int = 100_000
    """save a checkpoint every this many timesteps (and always at the end)"""
    progress: bool = True
    """show a progress bar"""


def flag(field: str) -> str:
    """The command-line flag of an :class:`Args` field: ``game_config`` -> ``--game-config``."""
    return "--" + field.replace("_", "-")


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> Args:
    """:class:`Args` from the command line (``argv``; default ``sys.argv[1:]``) by tyro: a bad
    value or an unknown flag prints tyro's error naming the flag and exits 2; ``--help`` lists
    every field with its docstring."""
    import tyro

    return tyro.cli(Args, args=argv, prog=prog, description=DESCRIPTION,
                    config=(tyro.conf.UseAppendAction,))


_AT_LEAST = {  # field: smallest allowed value (ints and floats)
    "seed": 0, "minutes": 0, "total_timesteps": 0, "threads": 1, "n_envs": 1, "snapshot_every": 1,
    "max_pool": 1, "shaping": 0, "n_steps": 2, "batch_size": 2, "n_epochs": 1, "ent_coef": 0,
    "vf_coef": 0, "eval_every": 0, "eval_deals": 1, "eval_random_deals": 1, "final_eval_games": 0,
    "anchor_coef": 0, "anchor_decay_steps": 0, "critic_warmup_steps": 0, "clip_range_vf": 0,
    "final_eval_lookahead": 0, "bc_decisions": 0, "bc_epochs": 1, "checkpoint_every": 1,
    "bc_workers": 1, "bc_dagger_rounds": 0, "bc_dagger_decisions": 1, "bc_dagger_epochs": 1,
}
#: the range of ``--bc-temperature``: beyond it the scaled logits overflow (tiny T) or vanish
#: (huge T) and the cloned choices are lost
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.1, 1000.0
_POSITIVE = ("learning_rate", "clip_range", "max_grad_norm", "bc_learning_rate")


def validate_args(args: Args) -> None:
    """Check every field before anything runs (no run folder is made for a bad flag).

    Raises:
        ConfigError: naming the flag and the bad value (ranges: ``_AT_LEAST``, ``_POSITIVE``,
            ``bc_temperature`` in [``MIN_TEMPERATURE``, ``MAX_TEMPERATURE``], ``gamma`` in
            (0, 1], ``gae_lambda`` in [0, 1], ``final_eval_lookahead`` at most
            ``MAX_LOOKAHEAD_SAMPLES``, ``net_arch`` comma-separated positive
            ints, ``activation`` tanh/relu, ``network`` mlp/cards (cards without
            ``privileged_critic``), ``reward_mode`` returns/win_loss, ``opponent_mix``
            kinds random/heuristic/self, a budget); ``run_dir`` a file, under a file or
            impossible to create (:func:`check_run_dir`), or, without ``resume``, a folder that
            already holds a run (:func:`check_no_run_in`).
    """
    def bad(field: str, value, why: str):
        return ConfigError(f"{flag(field)} {value!r}: {why}")

    for field, low in _AT_LEAST.items():
        value = getattr(args, field)
        if not value >= low:
            raise bad(field, value, f"must be >= {low}")
    for field in _POSITIVE:
        value = getattr(args, field)
        if not value > 0:
            raise bad(field, value, "must be > 0")
    if not MIN_TEMPERATURE <= args.bc_temperature <= MAX_TEMPERATURE:  # also refuses nan, inf
        raise bad("bc_temperature", args.bc_temperature,
                  f"must be in [{MIN_TEMPERATURE:g}, {MAX_TEMPERATURE:g}] (1: off)")
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
    if args.network not in NETWORKS:
        raise bad("network", args.network, f"must be {' or '.join(NETWORKS)}")
    if args.network != "mlp" and args.privileged_critic:
        raise bad("network", args.network, "goes with the flat observation only: drop "
                  "--privileged-critic (its critic reads the other seats' flat observations)")
    if args.reward_mode not in ("returns", "win_loss"):
        raise bad("reward_mode", args.reward_mode, "must be returns or win_loss")
    try:
        weights = parse_mix(args.opponent_mix)
    except ValueError as exc:
        raise bad("opponent_mix", args.opponent_mix, str(exc)) from None
    unknown = set(weights) - set(OPPONENT_KINDS)
    if unknown:
        raise bad("opponent_mix", args.opponent_mix,
                  f"unknown kind(s) {sorted(unknown)}; kinds: {', '.join(OPPONENT_KINDS)}")
    if any(not w >= 0 for w in weights.values()) or not any(w > 0 for w in weights.values()):
        raise bad("opponent_mix", args.opponent_mix,
                  "weights must be >= 0 with at least one > 0")
    if args.final_eval_lookahead > MAX_LOOKAHEAD_SAMPLES:
        raise bad("final_eval_lookahead", args.final_eval_lookahead,
                  f"must be <= {MAX_LOOKAHEAD_SAMPLES} (MAX_LOOKAHEAD_SAMPLES) deals per decision")
    if not args.bc_teacher.strip():
        raise bad("bc_teacher", args.bc_teacher, "must be a policy spec, e.g. heuristic or "
                  "heuristic+lookahead:8")
    if args.league_keep < 0 or 0 < args.league_keep < args.max_pool:
        raise bad("league_keep", args.league_keep, f"must be 0 (keep all) or >= --max-pool "
                  f"{args.max_pool} (the league plays the newest --max-pool snapshots, and a "
                  "resumed run reloads them)")
    if args.minutes <= 0 and args.total_timesteps <= 0:
        raise ConfigError("no budget: set --minutes > 0 and/or --total-timesteps > 0")
    check_run_dir(args.run_dir)
    if not args.resume:
        check_no_run_in(args.run_dir)


def check_run_dir(run_dir: str) -> None:
    """``--run-dir`` must be a writable folder, or a folder that can be created: checked before
    anything runs by making its missing folders and removing them again (those only).

    Raises:
        ConfigError: ``--run-dir '<value>': is a file, not a folder``, ``--run-dir '<value>':
            '<parent>' is a file, not a folder`` (a path under a file), ``--run-dir '<value>':
            cannot be created: <the system's reason>`` or ``--run-dir '<value>': is not a
            writable folder``.
    """
    if not run_dir:
        return
    path = Path(run_dir)
    missing: list[Path] = []
    for part in (path, *path.parents):
        if part.exists() or part.is_symlink():
            if not part.is_dir():
                where = "" if part == path else f"{str(part)!r} "
                raise ConfigError(f"{flag('run_dir')} {run_dir!r}: {where}is a file, not a "
                                  "folder")
            break
        missing.append(part)
    if not missing:
        if not os.access(path, os.W_OK | os.X_OK):
            raise ConfigError(f"{flag('run_dir')} {run_dir!r}: is not a writable folder")
        return
    made: list[Path] = []
    try:
        for part in reversed(missing):  # outermost first
            part.mkdir()
            made.append(part)
    except OSError as exc:
        raise ConfigError(f"{flag('run_dir')} {run_dir!r}: cannot be created: "
                          f"{exc.strerror or exc}") from None
    finally:
        for part in reversed(made):  # the run makes them when it starts
            part.rmdir()


#: what marks a folder as holding a run (the PPO trainer's and expert iteration's)
RUN_FILES = ("summary.json", "model.zip")
RUN_CHECKPOINTS = ("ckpt_*.zip", "round_*.json")


def check_no_run_in(run_dir: str, method: str = "ppo") -> None:
    """A fresh run (no ``--resume``) starts in a new or empty folder, never beside another run's
    files: its checkpoints, league snapshots and a later ``--resume`` (the highest timestep
    wins) would mix the two runs. A folder holding :data:`RUN_FILES` or checkpoints
    (``checkpoints/``: :data:`RUN_CHECKPOINTS`) is refused; anything else in it is left alone.

    Args:
        run_dir: the ``--run-dir`` value ("" for none).
        method: the method starting the run, ``"ppo"`` or ``"exit"``: a folder whose
            checkpoints are the other method's (``ckpt_*.zip`` PPO, ``round_*.json`` expert
            iteration) is not offered to ``--resume`` under this method.

    Raises:
        ConfigError: ``--run-dir '<value>' already holds a run (<what>): continue it with
            --resume '<value>', or start this one in another --run-dir``; for the other method's
            run, ``... already holds a PPO run (<what>): expert iteration cannot continue it
            (card-envs train --resume '<value>' does); start this one in another --run-dir``
            (and the reverse).
    """
    path = Path(run_dir) if run_dir else None
    if path is None or not path.is_dir():
        return
    held = [name for name in RUN_FILES if (path / name).exists()]
    found = {pattern: sorted(p.name for p in (path / "checkpoints").glob(pattern))
             for pattern in RUN_CHECKPOINTS}
    ckpts = sorted(name for names in found.values() for name in names)
    if ckpts:
        held.append(f"checkpoints/{ckpts[0]}" if len(ckpts) == 1 else
                    f"{len(ckpts)} checkpoints in checkpoints/")
    if not held:
        return
    ppo_ckpt, exit_ckpt = RUN_CHECKPOINTS
    other = ("exit" if method == "ppo" and found[exit_ckpt] and not found[ppo_ckpt] else
             "ppo" if method == "exit" and found[ppo_ckpt] and not found[exit_ckpt] else None)
    if other is not None:
        names = {"ppo": "a PPO run", "exit": "an expert-iteration run"}
        resume = ("card-envs train --resume" if other == "ppo" else
                  "card-envs train --method exit --resume")
        raise ConfigError(f"{flag('run_dir')} {run_dir!r} already holds {names[other]} "
                          f"({', '.join(held)}): {'PPO' if method == 'ppo' else 'expert iteration'} "
                          f"cannot continue it ({resume} {run_dir!r} does); start this one in "
                          f"another {flag('run_dir')}")
    raise ConfigError(f"{flag('run_dir')} {run_dir!r} already holds a run "
                      f"({', '.join(held)}): continue it with {flag('resume')} {run_dir!r}, "
                      f"or start this one in another {flag('run_dir')}")


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
