"""RLlib PPO self-play on any game of the suite, on one machine or a Ray cluster
(``training/rllib_ppo.py`` runs :func:`main`; :func:`train` reads top to bottom). Needs the
``rllib`` extra (``pip install "card-envs[rllib]"``).

1. Ray: a local instance (``--num-cpus``), or the cluster at ``--address`` (``auto`` or
   ``HOST:6379``, started with ``ray start --head`` and joined by ``ray start --address=...``);
2. the algorithm: :func:`card_envs.wrappers.rllib.ppo_config` (the game as a
   :class:`~card_envs.wrappers.rllib.CardEnvsMultiAgentEnv`, the masking module ``main``),
   ``--num-env-runners`` sampling actors (0: sample in this process), a PPO batch of
   ``--train-batch-size`` agent steps;
3. who plays whom, per episode (:class:`LeagueMapping`, RLlib's policy mapping, and
   :class:`EnvOpponentsCallback`): with probability ``--env-opponent-rate`` one random seat is
   played *inside the env* by ``--env-opponent`` (a policy spec: ``heuristic``,
   ``heuristic+lookahead:4``, a model ...; RLlib modules see only observations, the bots read
   the game through :func:`card_envs.wrappers.opponents.with_opponents`); of the remaining
   seats a random one plays the shared module ``main`` and every other one ``main`` too
   (self-play, probability ``--self-play-rate``) or a frozen snapshot ``main_vK`` of it (a copy
   taken every ``--snapshot-every`` timesteps, the ``--max-snapshots`` newest kept); only
   ``main`` is trained;
4. PPO iterations until ``--minutes`` or ``--total-timesteps`` is spent, one progress line (bar)
   per iteration with timesteps, steps/s, ETA and ``main``'s recent win rates by opponent kind;
   a checkpoint (``Algorithm.save_to_path``) every ``--checkpoint-every`` timesteps and at the
   end, in ``<run_dir>/checkpoint``;
5. the final evaluation through :func:`card_envs.evaluation.evaluate` on that checkpoint (the
   policy spec ``rllib:<run_dir>/checkpoint``): ``--final-eval-games`` seat-swapped games against
   random and the heuristic, with 95 % Wilson intervals, in ``summary.json``.

ray, torch and tyro are imported inside the functions that need them.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from card_envs.core.config import parse_json_config
from card_envs.core.errors import CardEnvsError, ConfigError
from card_envs.core.registry import GAMES
from card_envs.evaluation.pool import check_address, connect_ray
from card_envs.training.args import check_run_dir  # noqa: F401 - used and re-exported

DESCRIPTION = ("Train a masked PPO policy by self-play with RLlib (one machine or a Ray cluster) "
               "on a card-envs game, then evaluate it against random and the heuristic.")

#: the trained module, and the prefix of its frozen snapshots (main_v1, main_v2, ...)
MAIN = "main"  # card_envs.wrappers.rllib.MAIN


@dataclass
class RLlibArgs:
    game: str = "garda3"
    """game to train on (a registered game's name: 'card-envs games' lists them)"""
    game_config: str = "{}"
    """the game's config as JSON, e.g. '{"variant": "classic"}'"""
    minutes: float = 15.0
    """wall-clock training budget in minutes (0: none)"""
    total_timesteps: int = 0
    """step budget: stop after this many sampled env steps (0: none)"""
    num_env_runners: int = 2
    """Ray actors that sample episodes, one CPU each (0: sample in this process, between updates); at most the Ray's CPUs (fewer are used, with a warning)"""
    num_envs_per_env_runner: int = 4
    """envs each env runner steps together (batched module forward passes)"""
    address: str = ""
    """join this Ray cluster ('auto', HOST:6379 from `ray start --head`, or ray://HOST:10001); 'local' or empty: start a local Ray"""
    num_cpus: int = 0
    """CPUs of the local Ray (0: all of this machine's); ignored with --address"""
    seed: int = 1
    """seed of the envs, the league and torch"""
    run_dir: str = ""
    """output folder (default runs/<game>-rllib-<timestamp>)"""
    env_opponent: str = "heuristic"
    """policy spec that plays one seat inside the env in some episodes (empty: none)"""
    env_opponent_rate: float = 0.5
    """share of episodes in which --env-opponent plays a random seat"""
    self_play_rate: float = 0.5
    """share of the other learner seats that the trained module plays itself (the rest: frozen snapshots)"""
    snapshot_every: int = 100_000
    """freeze a copy of the trained module as an opponent every this many timesteps"""
    max_snapshots: int = 8
    """keep at most this many frozen snapshots (oldest dropped)"""
    learning_rate: float = 3e-4
    """Adam learning rate"""
    train_batch_size: int = 4000
    """agent steps per PPO update"""
    minibatch_size: int = 500
    """SGD minibatch size"""
    num_epochs: int = 4
    """SGD epochs per update"""
    gamma: float = 0.99
    """discount factor"""
    lambda_: float = 0.95
    """GAE lambda"""
    clip_param: float = 0.2
    """PPO clip range"""
    entropy_coeff: float = 0.01
    """entropy bonus coefficient"""
    hidden: str = "256,256"
    """hidden layer sizes of the policy and value MLPs, comma-separated"""
    checkpoint_every: int = 250_000
    """save a checkpoint every this many timesteps (and always at the end)"""
    final_eval_games: int = 400
    """seat-swapped games against random and against the heuristic at the end (0: skip)"""
    progress: bool = True
    """show a progress bar (one update per PPO iteration)"""


def flag(field: str) -> str:
    """``lambda_`` -> ``--lambda``, ``game_config`` -> ``--game-config``."""
    return "--" + field.rstrip("_").replace("_", "-")


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> RLlibArgs:
    """:class:`RLlibArgs` from the command line by tyro (``--help`` lists every field)."""
    import tyro

    return tyro.cli(RLlibArgs, args=argv, prog=prog, description=DESCRIPTION)


_AT_LEAST = {"minutes": 0, "total_timesteps": 0, "num_env_runners": 0,
             "num_envs_per_env_runner": 1, "num_cpus": 0, "seed": 0, "snapshot_every": 1,
             "max_snapshots": 1, "train_batch_size": 2, "minibatch_size": 2, "num_epochs": 1,
             "entropy_coeff": 0, "checkpoint_every": 1, "final_eval_games": 0}


def validate_args(args: RLlibArgs) -> dict[str, Any]:
    """Check every field before Ray starts; returns the game config.

    Raises:
        ConfigError: naming the flag and the bad value (ranges above; rates in [0, 1];
            ``learning_rate``, ``clip_param`` > 0; ``gamma`` in (0, 1], ``lambda`` in [0, 1];
            ``hidden`` positive ints; an unknown game; bad ``--game-config`` JSON; no budget;
            ``--address`` not of a form Ray accepts (:func:`check_address`); ``--run-dir``
            an existing file or under one (:func:`check_run_dir`)).
    """
    def bad(field: str, why: str):
        return ConfigError(f"{flag(field)} {getattr(args, field)!r}: {why}")

    for field, low in _AT_LEAST.items():
        if not getattr(args, field) >= low:
            raise bad(field, f"must be >= {low}")
    for field in ("env_opponent_rate", "self_play_rate", "lambda_"):
        if not 0 <= getattr(args, field) <= 1:
            raise bad(field, "must be in [0, 1]")
    for field in ("learning_rate", "clip_param"):
        if not getattr(args, field) > 0:
            raise bad(field, "must be > 0")
    if not 0 < args.gamma <= 1:
        raise bad("gamma", "must be in (0, 1]")
    if args.minibatch_size > args.train_batch_size:
        raise bad("minibatch_size", f"must be <= --train-batch-size {args.train_batch_size}")
    hidden_sizes(args.hidden)
    if args.game not in GAMES:
        raise bad("game", f"not a registered game; known: {sorted(GAMES)}")
    if args.minutes <= 0 and args.total_timesteps <= 0:
        raise ConfigError("no budget: set --minutes > 0 and/or --total-timesteps > 0")
    check_address(args.address)
    check_run_dir(args.run_dir)
    return parse_json_config(args.game_config or "{}", "--game-config")


def hidden_sizes(text: str) -> tuple[int, ...]:
    """``"256,256"`` -> ``(256, 256)``; ConfigError naming ``--hidden`` otherwise."""
    parts = [x.strip() for x in text.split(",")]
    if not all(x.isascii() and x.isdigit() and 0 < int(x) <= 65536 for x in parts):
        raise ConfigError(f"--hidden {text!r}: must be comma-separated positive layer sizes, "
                          "e.g. 256,256")
    return tuple(int(x) for x in parts)


def build_config(args: RLlibArgs, config: dict[str, Any], agents: list[str]):
    """The ``PPOConfig`` of a run (module docstring, steps 2–3)."""
    from card_envs.wrappers.rllib import EnvOpponentsCallback, LeagueMapping, ppo_config

    env_runners = args.num_env_runners
    return (
        ppo_config(args.game, config, hidden=hidden_sizes(args.hidden),
                   num_env_runners=env_runners, seed=args.seed)
        .env_runners(num_env_runners=env_runners,
                     num_envs_per_env_runner=args.num_envs_per_env_runner,
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies={MAIN}, policy_mapping_fn=LeagueMapping(agents, [], 1.0),
                     policies_to_train=[MAIN])
        .callbacks(functools.partial(EnvOpponentsCallback, agents, args.env_opponent,
                                     args.env_opponent_rate, args.seed))
        .training(lr=args.learning_rate, train_batch_size_per_learner=args.train_batch_size,
                  minibatch_size=args.minibatch_size, num_epochs=args.num_epochs,
                  gamma=args.gamma, lambda_=args.lambda_, clip_param=args.clip_param,
                  entropy_coeff=args.entropy_coeff)
    )


def start_ray(args: RLlibArgs) -> None:
    """Join the cluster at ``--address`` or start a local Ray (``--num-cpus``)."""
    import ray

    if ray.is_initialized():
        return
    if args.address:  # 'local' with --num-cpus; a cluster checked to answer first
        connect_ray(args.address, num_cpus=args.num_cpus or None)
    else:
        # address="local": a new Ray of this process, also where `ray start` left a cluster
        ray.init(address="local", num_cpus=args.num_cpus or None, include_dashboard=False,
                 log_to_driver=False)


def train(args: RLlibArgs) -> dict[str, Any]:
    """Run one training job (module docstring); returns the summary dict.

    Raises:
        ConfigError: a bad field of ``args`` (:func:`validate_args`).
    """
    return _train(args, validate_args(args))


def _train(args: RLlibArgs, config: dict[str, Any]) -> dict[str, Any]:
    """:func:`train` on validated ``args``, ``config`` the game config :func:`validate_args`
    returned."""
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from tqdm import tqdm

    from card_envs.evaluation.evaluate import evaluate
    from card_envs.training.summary import versions, write_summary
    from card_envs.wrappers.rllib import CardEnvsMultiAgentEnv, LeagueMapping

    torch.manual_seed(args.seed)
    env = CardEnvsMultiAgentEnv({"game": args.game, "game_config": config,
                                 "opponents": ({"player_0": args.env_opponent}
                                               if args.env_opponent else {})})
    agents = list(env.possible_agents)  # the specs are checked here, before Ray starts
    game = env.game
    run_dir = Path(args.run_dir or Path("runs") /
                   f"{game.name}-rllib-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}")
    run_dir.mkdir(parents=True, exist_ok=True)
    args = dataclasses.replace(args, run_dir=str(run_dir))

    # 1.-3. Ray, the algorithm, the league
    start_ray(args)
    import ray

    cpus = int(ray.cluster_resources().get("CPU", 1))
    if args.num_env_runners > cpus:
        print(f"[card-envs] warning: --num-env-runners {args.num_env_runners} > the Ray's {cpus} "
              f"CPUs: using {cpus}", file=sys.stderr, flush=True)
        args = dataclasses.replace(args, num_env_runners=cpus)
    algo = build_config(args, config, agents).build_algo()
    snapshots: list[str] = []  # the frozen modules in the league now
    made = [0]
    ckpt_dir = (run_dir / "checkpoint").resolve()

    def add_snapshot(steps: int) -> None:
        made[0] += 1
        module_id = f"{MAIN}_v{made[0]}"
        main_module = algo.get_module(MAIN)
        snapshots.append(module_id)
        dropped = snapshots.pop(0) if len(snapshots) > args.max_snapshots else None
        mapping = LeagueMapping(agents, snapshots, args.self_play_rate)
        algo.add_module(module_id=module_id, module_spec=RLModuleSpec.from_module(main_module),
                        new_agent_to_module_mapping_fn=mapping,
                        new_should_module_be_updated=[MAIN])
        algo.set_state({"learner_group": {"learner": {"rl_module": {
            module_id: main_module.get_state()}}}})
        if dropped:
            algo.remove_module(dropped, new_agent_to_module_mapping_fn=mapping,
                               new_should_module_be_updated=[MAIN])

    where = f"Ray cluster {args.address}" if args.address else "a local Ray"
    print(f"[card-envs] RLlib PPO self-play on {game.name} {config or ''} with "
          f"{args.num_env_runners} env runner(s) on {where} -> {run_dir}", flush=True)

    # 4. PPO iterations until a budget is spent
    t0 = time.time()
    deadline = t0 + args.minutes * 60 if args.minutes > 0 else None
    budget = args.total_timesteps or None
    steps, iteration = 0, 0
    next_snapshot, next_ckpt = args.snapshot_every, args.checkpoint_every
    rates: dict[str, float] = {}
    bar = tqdm(total=int(args.minutes * 60) if deadline else budget, disable=not args.progress,
               unit="s" if deadline else "step", desc=f"rllib {game.name}", dynamic_ncols=True,
               bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} {unit} [{elapsed}<{remaining}] "
                          "{postfix}")
    lines = []
    while True:
        result = algo.train()
        iteration += 1
        runners = result.get("env_runners", {})
        steps = int(runners.get("num_env_steps_sampled_lifetime", steps))
        rates = {k[len("win_rate_vs_"):]: float(v) for k, v in runners.items()
                 if k.startswith("win_rate_vs_")}
        elapsed = time.time() - t0
        sps = steps / max(elapsed, 1e-9)
        line = {"iteration": iteration, "timesteps": steps, "seconds": round(elapsed, 1),
                "steps_per_second": round(sps, 1),
                **{f"train/win_rate_vs_{k}": round(v, 3) for k, v in rates.items()}}
        lines.append(line)
        bar.set_postfix_str(f"it {iteration} {steps} steps {sps:.0f}/s " + " ".join(
            f"vs {k} {v:.0%}" for k, v in sorted(rates.items())), refresh=False)
        bar.update((min(int(elapsed), bar.total) - bar.n) if deadline else (steps - bar.n))
        if not args.progress:
            print(f"[card-envs] {line}", flush=True)
        if steps >= next_snapshot:
            add_snapshot(steps)
            next_snapshot += args.snapshot_every
        if steps >= next_ckpt:
            algo.save_to_path(str(ckpt_dir))
            next_ckpt += args.checkpoint_every
        if (deadline and time.time() >= deadline) or (budget and steps >= budget):
            break
    bar.close()
    seconds = time.time() - t0
    algo.save_to_path(str(ckpt_dir))
    algo.stop()
    sps = steps / max(seconds, 1e-9)
    print(f"[card-envs] {steps} timesteps in {iteration} iterations, {seconds:.0f}s "
          f"({sps:.0f} steps/s); checkpoint {ckpt_dir}", flush=True)

    # 5. the final evaluation on the checkpoint, through card_envs.evaluation
    final: dict[str, Any] = {}
    spec = f"rllib:{ckpt_dir}"
    if args.final_eval_games > 0:
        t_eval = time.time()
        print(f"[card-envs] final evaluation of {spec} ({args.final_eval_games} seat-swapped "
              "games each, deterministic):", flush=True)
        for opponent in ("random", "heuristic"):
            r = evaluate(game.name, spec, opponent, games=args.final_eval_games, seed=123_456,
                         config=config)
            final[opponent] = r.to_dict()
            print(f"  agent vs {opponent:9s}: {r.long_summary()}", flush=True)
        print(f"[card-envs] evaluated in {time.time() - t_eval:.0f}s", flush=True)
    summary = {
        "game": game.name, "game_config": game.config_to_dict(), "timesteps": steps,
        "iterations": iteration, "train_seconds": round(seconds, 1),
        "steps_per_second": round(sps, 1), "num_env_runners": args.num_env_runners,
        "address": args.address or None, "checkpoint": str(ckpt_dir), "policy_spec": spec,
        "snapshots": snapshots, "final_eval": final, "iterations_log": lines,
        "args": dataclasses.asdict(args), "versions": versions(("ray",)),
    }
    write_summary(run_dir / "summary.json", summary)
    print(f"[card-envs] summary.json in {run_dir}", flush=True)
    return summary


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Command-line entry: a user error (bad flag, ``--address``, ``--run-dir`` ...) prints one
    ``error:`` line and returns 2, before Ray starts; a missing ``rllib`` extra prints the
    one-line hint of :func:`card_envs.bots.rllib.require_rllib` and returns 2 (``--help`` works
    without it: ray and torch are imported after the flags are parsed)."""
    from card_envs.bots.rllib import require_rllib
    from card_envs.core.extras import MissingExtraError

    from card_envs.training.entry import parse_in_one_line

    prog = prog or "training/rllib_ppo.py"
    try:  # tyro's error box as one error line (--help passes through)
        args = parse_in_one_line(lambda: parse_args(argv, prog), prog)
    except SystemExit as exc:
        if exc.code in (0, None):
            raise
        return 2
    try:
        config = validate_args(args)  # once: the flags before the extra
        require_rllib(prog)
        _train(args, config)
    except MissingExtraError as exc:  # the hint is the whole line, as in `card-envs`
        print(exc, file=sys.stderr)
        return 2
    except (CardEnvsError, FileNotFoundError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except ConnectionError as exc:  # --address: no Ray cluster there
        print(f"{prog}: error: --address {args.address!r}: {str(exc).strip().splitlines()[0]} "
              "(start one with `ray start --head`, or leave --address out for a local Ray)",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # python -m card_envs.training.rllib_ppo (an installed wheel)
    sys.exit(main(prog="python -m card_envs.training.rllib_ppo"))
