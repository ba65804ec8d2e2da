"""The SB3 callback of the trainer: the budget, the progress bar, and what happens every
``--snapshot-every`` / ``--eval-every`` / ``--checkpoint-every`` timesteps.

The callback only keeps time and counts steps; what a snapshot, an evaluation or a checkpoint
does is given to it as functions (``card_envs/training/ppo.py`` passes them). Importing this
module imports stable-baselines3.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback


class LeagueCallback(BaseCallback):
    """Budget, progress bar, league snapshots, periodic evaluation and checkpoints.

    Args:
        args: the run's :class:`~card_envs.training.args.Args` (``snapshot_every``,
            ``eval_every``, ``checkpoint_every``, ``progress``).
        league: its training win rates are logged after every rollout
            (``train/win_rate_vs_<kind>``, beside ``charts/SPS``).
        on_snapshot: ``f(timesteps)``, every ``snapshot_every`` timesteps.
        on_eval: ``f(timesteps, train_seconds) -> curve point`` (its ``eval/win_rate_vs_*``
            values are logged and shown on the bar), every ``eval_every`` timesteps (0: never).
        on_checkpoint: ``f(timesteps, train_seconds)``, every ``checkpoint_every`` timesteps.
        prior_seconds: training seconds of the run before this invocation (resumed runs).
        deadline: ``time.time()`` at which training stops, or ``None``.
        step_budget: total timesteps at which training stops, or ``None``.
        desc: the progress bar's label.
    """

    def __init__(self, args, league, on_snapshot: Callable[[int], Any],
                 on_eval: Callable[[int, float], dict[str, Any]],
                 on_checkpoint: Callable[[int, float], Any], prior_seconds: float = 0.0,
                 deadline: float | None = None, step_budget: int | None = None,
                 desc: str = "train"):
        super().__init__()
        self.args = args
        self.league = league
        self.on_snapshot, self.on_eval, self.on_checkpoint = on_snapshot, on_eval, on_checkpoint
        self.prior_seconds = prior_seconds
        self.deadline = deadline
        self.step_budget = step_budget
        self.desc = desc
        self.bar = None
        self.postfix: dict[str, str] = {}

    def _on_training_start(self) -> None:
        args = self.args
        self.t0 = time.time()
        self.steps0 = self.num_timesteps
        self.next_snapshot = self.num_timesteps + args.snapshot_every
        self.next_eval = (self.num_timesteps + args.eval_every if args.eval_every > 0
                          else float("inf"))
        self.next_ckpt = self.num_timesteps + args.checkpoint_every
        self.bar = None
        if args.progress:
            from tqdm import tqdm

            if self.deadline is not None:
                self.bar = tqdm(total=round(self.deadline - self.t0), unit="s", desc=self.desc,
                                dynamic_ncols=True, bar_format="{desc}: {percentage:3.0f}%|{bar}| "
                                "{n_fmt}/{total_fmt} s{postfix}")
            else:
                self.bar = tqdm(total=self.step_budget - self.num_timesteps, unit="step",
                                desc=self.desc, dynamic_ncols=True)
        self.last_bar = 0
        self.postfix = {}

    def elapsed(self) -> float:
        return time.time() - self.t0

    def sps(self) -> float:
        return (self.num_timesteps - self.steps0) / max(self.elapsed(), 1e-9)

    def _on_step(self) -> bool:
        n = self.num_timesteps
        if n >= self.next_snapshot:
            self.on_snapshot(n)
            self.next_snapshot += self.args.snapshot_every
        if n >= self.next_eval:
            point = self.on_eval(n, self.prior_seconds + self.elapsed())
            self.postfix = {}
            for kind, short in (("random", "vs_random"), ("heuristic", "vs_heur")):
                key = f"eval/win_rate_vs_{kind}"
                if key in point:
                    self.logger.record(key, point[key])
                    self.postfix[short] = f"{point[key]:.0%}"
            self.next_eval += self.args.eval_every
        if n >= self.next_ckpt:
            self.on_checkpoint(n, self.prior_seconds + self.elapsed())
            self.next_ckpt += self.args.checkpoint_every
        now = time.time()
        if self.bar is not None:
            done = round(now - self.t0) if self.deadline is not None else n - self.steps0
            if done > self.last_bar:
                self.bar.update(done - self.last_bar)
                self.last_bar = done
                self.bar.set_postfix(steps=n, sps=f"{self.sps():.0f}", **self.postfix,
                                     refresh=False)
        if self.deadline is not None and now >= self.deadline:
            return False
        return not (self.step_budget is not None and n >= self.step_budget)

    def _on_rollout_end(self) -> None:
        self.logger.record("charts/SPS", int(self.sps()))
        for kind, rate in self.league.win_rates().items():
            self.logger.record(f"train/win_rate_vs_{kind}", rate)

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()
