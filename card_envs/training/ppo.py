"""The main job: MaskablePPO self-play in a league on any game of the suite, CleanRL-style
(``training/ppo.py`` and ``card-envs train`` run :func:`main`; :func:`train` reads top to bottom).

1. the game from ``--game`` + its config, its heuristic bot, and a league of opponents: random,
   the heuristic (fixed, never trained) and ``self`` — frozen snapshots of the learner taken every
   ``--snapshot-every`` steps, mixed by ``--opponent-mix``;
2. ``--n-envs`` single-agent views of the game (the learner's seat rotating per episode, one
   league opponent per episode; with ``--privileged-critic`` the observations also carry what the
   other seats see, for the critic only; with ``--network cards`` they are the per-entity view
   the card-aware network reads) in a ``DummyVecEnv``, and the model
   (:class:`~card_envs.training.anchored_ppo.AnchoredMaskablePPO`: new, or the checkpoint's with
   ``--resume``);
3. a behaviour-cloning warm start on ``--bc-decisions`` of the heuristic's decisions; the cloned
   policy becomes the KL anchor (``--anchor-coef``, decaying over ``--anchor-decay-steps``) and
   the first ``--critic-warmup-steps`` of PPO train the critic only;
4. the loop, in chunks of ``model.learn`` until the wall-clock budget (``--minutes``, which also
   counts the warm start) or the step budget (``--total-timesteps``) is spent: learn up to the
   next due event, then a league snapshot every ``--snapshot-every`` steps, an evaluation every
   ``--eval-every`` steps (the policy alone, deterministic, on the same ``--eval-deals`` duplicate
   deals against the heuristic every time and ``--eval-random-deals`` against random:
   ``eval/win_rate_vs_*`` in ``progress.csv`` and TensorBoard), a checkpoint every
   ``--checkpoint-every`` steps; a callback only keeps the clock and the progress bar;
5. the run folder gets ``model.zip``, ``learning_curve.png`` (the win rate against the heuristic
   with its Wilson band over timesteps and over wall-clock time), ``progress.csv`` and TensorBoard
   events (``charts/SPS``, ``eval/win_rate_vs_heuristic``, ``train/anchor_kl``...),
   ``checkpoints/``, ``league/``, and ``summary.json`` with the final evaluation:
   ``--final-eval-games`` games on other duplicate deals than the curve's against random and the
   heuristic, printed with 95 % Wilson intervals — for games with a lookahead hook also by the
   policy improved with ``--final-eval-lookahead`` determinized rollouts per decision
   ("agent+lookahead").

``--resume PATH`` (a run folder: its newest complete checkpoint; or a checkpoint ``.zip``)
continues a run: model, optimizer, timestep count, league snapshots, the learning curve, the
anchor, and the game with its config (from the checkpoint, whatever ``--game`` says) come back;
the wall-clock budget counts anew, the step budget is the total including the resumed steps. The
run folder's previous ``summary.json``, ``learning_curve.png`` and ``model.zip`` are first copied
into ``resumed_at_<n>/`` (where the resumed run logs its ``progress.csv`` and events), where
they stay. A
checkpoint older than the run folder's newer work resumes only into another ``--run-dir``
(:mod:`~card_envs.training.checkpoints`).

Ctrl-C saves a resumable checkpoint and prints one line naming it and the ``--resume`` command
(:mod:`~card_envs.training.interrupt`); every file of the run folder is written whole or not at
all. ``league/`` keeps the newest ``--league-keep`` snapshots. Each long step shows a bar with
its rate and time left; the PPO loop's timesteps per second is the run's one throughput figure
(the bar's last ``sps``, the last line, ``charts/SPS`` in ``summary.json``). The run folder's
files and sizes: ``docs/training.md``.

The parts: :mod:`~card_envs.training.args`, :mod:`~card_envs.training.league`,
:mod:`~card_envs.training.imitation`, :mod:`~card_envs.training.model`,
:mod:`~card_envs.training.anchored_ppo`, :mod:`~card_envs.training.networks`,
:mod:`~card_envs.training.checkpoints`, :mod:`~card_envs.training.callback`,
:mod:`~card_envs.training.summary`. What each default measured: ``docs/training.md``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from card_envs.core import extras
from card_envs.core.errors import CardEnvsError, ConfigError
from card_envs.bots.specs import resolve_game, resolve_policy
from card_envs.training.args import (
    OBSERVATION_MODE,
    Args,
    flag,
    game_config,
    parse_args,
    validate_args,
)
from card_envs.training.checkpoints import (
    ResumePlan,
    keep_previous_outputs,
    plan_resume,
    save_checkpoint,
    save_model_atomic,
)
from card_envs.training.imitation import soften_policy, warm_start
from card_envs.training.interrupt import Interrupt, TrainingInterrupted
from card_envs.training.league import make_league, prune_snapshots
from card_envs.training.model import (
    EVAL_SEED,
    FINAL_EVAL_SEED,
    evaluate_model,
    heuristic_or_none,
    load_model,
    make_model,
    make_vec_env,
    restore_snapshots,
    save_snapshot,
    seed_everything,
    set_logger,
)
from card_envs.training.summary import curve_point, plot_curve, print_final_eval, write_summary

#: the behaviour-cloned policy the KL anchor pulls toward, saved in the run folder for resuming
ANCHOR_FILE = "anchor.zip"


def train(args: Args) -> dict[str, Any]:
    """Run one training job (see the module docstring); returns the summary dict.

    Raises:
        ConfigError: a bad field of ``args`` (:func:`~card_envs.training.args.validate_args`),
            a bad game config or resume path.
    """
    validate_args(args)
    return _run(args)


def _run(args: Args) -> dict[str, Any]:
    """:func:`train` on validated ``args``: the loop of the module docstring, top to bottom.

    Ctrl-C (:mod:`~card_envs.training.interrupt`) saves a resumable checkpoint and raises
    :class:`~card_envs.training.interrupt.TrainingInterrupted`."""
    import torch

    from card_envs.training.anchored_ppo import AnchoredMaskablePPO
    from card_envs.training.callback import ClockCallback

    plan = plan_resume(args)  # resuming: game, config and run folder are the checkpoint's
    args = plan.args
    # a checkpoint saved during the warm start holds no training yet: start afresh, in its folder
    resumed = plan.checkpoint is not None and plan.warm_start_done
    if plan.checkpoint is not None and not resumed:
        plan = ResumePlan(args)
    curve, snapshots = plan.curve, plan.snapshots  # carried on (and saved in every checkpoint)
    if resumed:  # snapshots an older checkpoint lists but --league-keep deleted since
        pruned = [rel for rel in snapshots if not (plan.source_dir / rel).exists()]
        if pruned:
            snapshots = [rel for rel in snapshots if rel not in pruned]
            print(f"[card-envs] warning: --resume: {len(pruned)} league snapshot(s) of "
                  f"{plan.checkpoint.name} were deleted since (--league-keep {args.league_keep}):"
                  f" the league resumes with the {len(snapshots)} kept", file=sys.stderr,
                  flush=True)
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)

    # 1. the game, its heuristic, the league (seeded past the resumed steps)
    config = game_config(args)
    game = resolve_game(args.game, config)
    if args.network == "cards" and game.entity_layout is None:
        raise ConfigError(f"{flag('network')} cards: {game.name} declares no entity view (the "
                          "card-aware network reads it); use --network mlp")
    heuristic = heuristic_or_none(args.game, "training and evaluating without the heuristic "
                                  "opponent")
    teacher = args.bc_teacher.strip()
    if not resumed and args.bc_decisions > 0:
        try:  # a bad spec fails before the run folder exists, naming the flag
            resolve_policy(teacher, args.game, seed=0, game=game)
        except CardEnvsError as exc:
            raise ConfigError(f"{flag('bc_teacher')} {teacher!r}: {exc}") from None
    args = dataclasses.replace(args, run_dir=args.run_dir or str(
        Path("runs") / f"{game.name}-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"))
    run_dir = Path(args.run_dir)
    for sub in ("checkpoints", "league"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    seed = args.seed + plan.timesteps
    league = make_league(args.opponent_mix, args.max_pool, heuristic, seed)

    # 2. the vectorised single-agent views and the model
    vec_env = make_vec_env(game, league, args, seed)
    if not resumed:
        model = make_model(vec_env, args)
        set_logger(model, run_dir)
    else:
        model = AnchoredMaskablePPO.load(str(plan.checkpoint), env=vec_env, device="cpu")
        anchor = plan.source_dir / ANCHOR_FILE
        if anchor.exists():  # the cloned policy the anchor pulls toward
            model.set_anchor(load_model(anchor).policy, restart_schedules=False)
            if anchor.resolve() != (run_dir / ANCHOR_FILE).resolve():
                shutil.copy2(anchor, run_dir / ANCHOR_FILE)  # a new folder: resumable there too
        restore_snapshots(league, snapshots, plan.source_dir, run_dir, args.max_pool)
        resumed_at = run_dir / f"resumed_at_{plan.timesteps}"
        set_logger(model, resumed_at)  # keeps the first csv
        kept = keep_previous_outputs(run_dir, resumed_at)  # before this run writes its own
        if kept:
            print(f"[card-envs] resuming: the previous {', '.join(kept)} kept in {resumed_at}",
                  flush=True)

    def add_snapshot(n: int) -> None:
        if "self" in league.weights:
            snapshots.append(save_snapshot(model, league, run_dir, n, seed=args.seed + n))
            prune_snapshots(run_dir, snapshots, args.league_keep)

    def evaluate(n: int, seconds: float, what: str = "evaluation") -> dict[str, Any]:
        """The policy alone on the same duplicate deals every time (the learning curve)."""
        results = evaluate_model(model, game, heuristic, args.eval_deals, seed=EVAL_SEED,
                                 random_deals=args.eval_random_deals,
                                 progress=args.progress and what)
        curve.append(curve_point(results, n, seconds, league.win_rates()))
        for key, value in curve[-1].items():
            if key.startswith("eval/") and not isinstance(value, list):
                model.logger.record(key, value)
        model.logger.record("time/train_seconds", seconds)
        model.logger.dump(n)
        return curve[-1]

    print(f"[card-envs] training {game.name} {config or ''} -> {run_dir}", flush=True)
    t0 = time.time()  # the wall-clock budget covers the warm start too
    deadline = t0 + args.minutes * 60 if args.minutes > 0 else None
    step_budget = args.total_timesteps if args.total_timesteps > 0 else None
    with Interrupt() as interrupt:
        clock = ClockCallback(league, deadline=deadline, step_budget=step_budget,
                              progress=args.progress, desc=f"train {game.name}",
                              stop=lambda: interrupt.requested)
        phase = {"during": "behaviour cloning" if not resumed and args.bc_decisions > 0
                 else "the first evaluation", "warm_start_done": resumed}
        try:
            bc_metrics = _warm_start_and_loop(args, plan, resumed, model, game, heuristic,
                                              teacher, config, run_dir, curve, snapshots,
                                              league, clock, interrupt, phase, add_snapshot,
                                              evaluate, t0)
        except KeyboardInterrupt:
            clock.close()
            seconds = plan.train_seconds + time.time() - t0
            n = model.num_timesteps if phase["warm_start_done"] else 0
            ckpt = save_checkpoint(model, run_dir, n, seconds, curve, snapshots, args,
                                   warm_start_done=phase["warm_start_done"])
            vec_env.close()
            raise TrainingInterrupted(n, ckpt, run_dir, phase["during"]) from None
    sps = clock.close()  # the one throughput figure: the bar's last sps and the final line's
    seconds = time.time() - t0
    steps = model.num_timesteps
    train_seconds = plan.train_seconds + seconds

    # 5. outputs and the final evaluation (other deals than the curve's)
    with Interrupt():  # Ctrl-C from here: the final checkpoint is kept, the rest not written
        try:
            if not curve or curve[-1]["timesteps"] != steps:
                evaluate(steps, train_seconds, "evaluation at the end")
            ckpt = save_checkpoint(model, run_dir, steps, train_seconds, curve, snapshots, args)
        except KeyboardInterrupt:
            ckpt = save_checkpoint(model, run_dir, steps, train_seconds, curve, snapshots, args)
            vec_env.close()
            raise TrainingInterrupted(steps, ckpt, run_dir, "the evaluation at the end") \
                from None
        try:
            save_model_atomic(model, run_dir / "model.zip")
            plot_curve(curve, run_dir / "learning_curve.png",
                       f"MaskablePPO league self-play on {game.name}",
                       start_label="the cloned policy (warm start)" if args.bc_decisions > 0
                       else "the untrained policy")
            final: dict[str, Any] = {}
            if args.final_eval_games > 0:
                t_eval = time.time()
                deals = max(1, args.final_eval_games // game.num_players)
                results = evaluate_model(model, game, heuristic, deals, seed=FINAL_EVAL_SEED,
                                         lookahead=args.final_eval_lookahead,
                                         progress=args.progress and "final evaluation")
                final = {kind: r.to_dict() for kind, r in results.items()}
                print_final_eval(results, deals * game.num_players, args.final_eval_lookahead,
                                 time.time() - t_eval)
        except KeyboardInterrupt:
            vec_env.close()
            raise TrainingInterrupted(steps, ckpt, run_dir, "the final evaluation") from None
    summary = {
        "game": game.name, "game_config": game.config_to_dict(), "timesteps": steps,
        "train_seconds_this_run": round(seconds, 1), "train_seconds_total": round(train_seconds, 1),
        "charts/SPS": round(sps, 1), "final_eval": final, "behaviour_cloning": bc_metrics,
        "curve": curve, "checkpoint": str(ckpt), "model": str(run_dir / "model.zip"),
        "league": {"weights": league.weights, "snapshots": snapshots, "episodes": league.episodes},
        "args": dataclasses.asdict(args),
    }
    write_summary(run_dir / "summary.json", summary)
    done = (f"{steps - plan.timesteps} timesteps (total {steps})" if resumed
            else f"{steps} timesteps")
    warm = " (the warm start included)" if not resumed and args.bc_decisions > 0 else ""
    print(f"[card-envs] {done} in {seconds:.0f}s{warm}; {sps:.0f} steps/s in the PPO loop, as on "
          f"the bar; model, learning_curve.png and summary.json in {run_dir}", flush=True)
    vec_env.close()
    return summary


def _warm_start_and_loop(args, plan, resumed, model, game, heuristic, teacher, config, run_dir,
                         curve, snapshots, league, clock, interrupt, phase, add_snapshot,
                         evaluate, t0) -> dict[str, float]:
    """Steps 3 and 4 of :func:`train` (the warm start, then PPO in chunks); ``phase`` tells a
    Ctrl-C handler what was running and whether the warm start had finished. Returns the
    behaviour-cloning metrics (empty without cloning)."""
    # 3. behaviour cloning of the heuristic (fresh runs only); the anchor is the cloned policy
    bc_metrics: dict[str, float] = {}
    if not resumed and args.bc_decisions > 0 and (
            heuristic is not None or "heuristic" not in teacher):
        bc_metrics = warm_start(model, game, teacher, args.bc_decisions, args.bc_epochs,
                                args.bc_learning_rate, seed=args.seed,
                                privileged=args.privileged_critic, progress=args.progress,
                                workers=args.bc_workers, game_spec=args.game, config=config,
                                observation_mode=OBSERVATION_MODE[args.network],
                                dagger_rounds=args.bc_dagger_rounds,
                                dagger_decisions=args.bc_dagger_decisions,
                                dagger_epochs=args.bc_dagger_epochs)
        who = "the heuristic" if teacher == "heuristic" else teacher
        dagger = (f" ({args.bc_dagger_rounds} DAgger rounds included)"
                  if args.bc_dagger_rounds else "")
        print(f"[card-envs] behaviour cloning of {who} on {bc_metrics['bc/decisions']} "
              f"decisions{dagger}: accuracy {bc_metrics['bc/accuracy']:.1%} in "
              f"{bc_metrics['bc/seconds']:.0f}s", flush=True)
        if args.bc_temperature != 1:
            soften_policy(model.policy, args.bc_temperature)
            print(f"[card-envs] the cloned policy softened: its action logits divided by "
                  f"{args.bc_temperature:g} (--bc-temperature)", flush=True)
        model.set_anchor()
        if args.anchor_coef > 0:
            save_model_atomic(model, run_dir / ANCHOR_FILE, exclude=["env", "logger"])
    elif not resumed:
        model.set_anchor()  # no cloned policy: the schedules start now, the anchor is the start
    if not resumed and not bc_metrics and args.bc_dagger_rounds:
        print(f"[card-envs] warning: --bc-dagger-rounds {args.bc_dagger_rounds} ignored: no "
              "policy was cloned (--bc-decisions 0, or no heuristic to clone)", file=sys.stderr,
              flush=True)
    if not resumed and not bc_metrics and args.bc_temperature != 1:  # resumed: softened before
        print(f"[card-envs] warning: --bc-temperature {args.bc_temperature:g} ignored: no policy "
              "was cloned (--bc-decisions 0, or no heuristic to clone)", file=sys.stderr,
              flush=True)
    phase.update(warm_start_done=True, during="the first evaluation")
    if not resumed:
        add_snapshot(0)
        evaluate(0, time.time() - t0, "evaluation at the start")
    elif not league.pools.get("self"):
        add_snapshot(plan.timesteps)

    # 4. PPO in chunks until a budget is spent: learn, snapshot, evaluate, checkpoint
    step_budget = clock.step_budget
    every = {"snapshot": args.snapshot_every, "eval": args.eval_every or 10**15,
             "checkpoint": args.checkpoint_every}
    due = {what: model.num_timesteps + k for what, k in every.items()}
    if clock.out_of_budget(model.num_timesteps):
        print(f"[card-envs] warning: the warm start used the whole budget ({time.time() - t0:.0f}"
              f" s of {args.minutes:g} min): no PPO step runs; lower --bc-decisions or raise "
              "--minutes", file=sys.stderr, flush=True)
    while not clock.out_of_budget(model.num_timesteps):
        chunk = min(due.values()) - model.num_timesteps
        if step_budget is not None:
            chunk = min(chunk, step_budget - model.num_timesteps)
        phase["during"] = "PPO"
        with interrupt.softly():  # the first Ctrl-C ends learn() between two updates
            model.learn(total_timesteps=max(chunk, 1), callback=clock, reset_num_timesteps=False)
        if interrupt.requested:
            raise KeyboardInterrupt
        n, seconds = model.num_timesteps, plan.train_seconds + time.time() - t0
        phase["during"] = "the loop's snapshot, evaluation or checkpoint"
        if n >= due["snapshot"]:
            add_snapshot(n)
        if n >= due["eval"]:
            point = evaluate(n, seconds, f"evaluation at {n} timesteps")
            clock.show(vs_heur=f"{point.get('eval/win_rate_vs_heuristic', float('nan')):.0%}")
        if n >= due["checkpoint"]:
            save_checkpoint(model, run_dir, n, seconds, curve, snapshots, args)
        for what in due:
            while due[what] <= n:
                due[what] += every[what]
    return bc_metrics


#: what training imports beyond the core (the ``train`` extra)
TRAIN_MODULES = ("tyro", "torch", "stable_baselines3", "sb3_contrib", "matplotlib", "tensorboard",
                 "threadpoolctl")


def missing_modules(names=TRAIN_MODULES) -> list[str]:
    """The modules of ``names`` this installation cannot import (not imported to find out)."""
    return extras.missing_modules(names)


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Command-line entry: a user error (bad flag, unknown game or config, missing resume path)
    prints one ``error:`` line and returns 2 (no traceback); a missing ``train`` extra prints the
    one-line hint of :func:`card_envs.core.extras.require_extra` and returns 2
    (:func:`card_envs.training.entry.trainer_main`)."""
    from card_envs.training.entry import trainer_main

    return trainer_main(argv, prog or "training/ppo.py", parse_args, validate_args, _run,
                        TRAIN_MODULES)


if __name__ == "__main__":  # python -m card_envs.training.ppo (an installed wheel)
    sys.exit(main(prog="python -m card_envs.training.ppo"))
