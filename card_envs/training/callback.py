"""The trainer's one SB3 callback: the clock and the progress bar.

:class:`ClockCallback` stops ``model.learn`` when the wall-clock deadline or the step budget is
reached, or when ``stop()`` says so (Ctrl-C: :mod:`card_envs.training.interrupt`), and keeps a
tqdm bar (elapsed / budget, steps per second, the last evaluation) across the trainer's chunks of
``learn``; after each rollout it logs ``charts/SPS`` and the league's recent win rates. Snapshots, evaluations and checkpoints are not its business: the trainer's loop
(:func:`card_envs.training.ppo.train`) does them between chunks. Importing this module imports
stable-baselines3.
"""

from __future__ import annotations

import time

from stable_baselines3.common.callbacks import BaseCallback


class ClockCallback(BaseCallback):
    """Budget and progress bar of a training run that calls ``model.learn`` in chunks.

    Args:
        league: its training win rates are logged after every rollout
            (``train/win_rate_vs_<kind>``, beside ``charts/SPS``); ``None``: none.
        deadline: ``time.time()`` at which training stops, or ``None``.
        step_budget: total timesteps at which training stops, or ``None``.
        progress: show the bar (on stderr).
        desc: the bar's label.
        stop: ``() -> bool``, asked after every step: ``True`` ends ``learn`` (e.g. Ctrl-C
            was pressed); ``None``: never.
    """

    def __init__(self, league=None, deadline: float | None = None,
                 step_budget: int | None = None, progress: bool = True, desc: str = "train",
                 stop=None):
        super().__init__()
        self.stop = stop
        self.final_sps: float | None = None
        self.league = league
        self.deadline = deadline
        self.step_budget = step_budget
        self.progress = progress
        self.desc = desc
        self.bar = None
        self.t0: float | None = None
        self.steps0 = 0
        self.postfix: dict[str, str] = {}
        self._shown = 0

    # -- what the loop asks ----------------------------------------------------------------------
    def out_of_budget(self, timesteps: int) -> bool:
        """True once the deadline has passed or ``timesteps`` reached the step budget."""
        if self.deadline is not None and time.time() >= self.deadline:
            return True
        return self.step_budget is not None and timesteps >= self.step_budget

    def show(self, **postfix: str) -> None:
        """Put ``postfix`` (e.g. the last evaluation) on the bar."""
        self.postfix.update(postfix)

    def close(self) -> float:
        """Close the bar; returns the run's one throughput figure, learner timesteps per second
        of the PPO loop (:meth:`sps` now, also put on the bar as it closes, so the bar's last
        ``sps`` and the trainer's final line agree)."""
        if self.final_sps is None:
            self.final_sps = self.sps() if self.t0 is not None else 0.0
        if self.bar is not None:
            self.bar.set_postfix(steps=self.num_timesteps, sps=f"{self.final_sps:.0f}",
                                 **self.postfix, refresh=True)
            self.bar.close()
            self.bar = None
        return self.final_sps

    # -- SB3 hooks ---------------------------------------------------------------------------------
    def _on_training_start(self) -> None:  # every chunk of learn()
        if self.t0 is None:
            self.t0 = time.time()
            self.steps0 = self.num_timesteps
        if self.bar is None and self.progress:
            from tqdm import tqdm

            if self.deadline is not None:
                self.bar = tqdm(total=max(1, round(self.deadline - self.t0)), unit="s",
                                desc=self.desc, dynamic_ncols=True,
                                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                                           "s [{elapsed}<{remaining}{postfix}]")
            else:
                self.bar = tqdm(total=self.step_budget - self.num_timesteps, unit="step",
                                desc=self.desc, dynamic_ncols=True)

    def sps(self) -> float:
        """Learner timesteps per second since the first ``learn`` chunk started (the PPO loop:
        rollouts, updates and the loop's evaluations, snapshots and checkpoints; not the warm
        start before it nor the final evaluation after it)."""
        return (self.num_timesteps - self.steps0) / max(time.time() - (self.t0 or time.time()),
                                                        1e-9)

    def _on_step(self) -> bool:
        n = self.num_timesteps
        if self.bar is not None:
            done = (round(time.time() - self.t0) if self.deadline is not None
                    else n - self.steps0)
            if done > self._shown:
                if done > self.bar.total:  # a rollout overran the deadline: 100 %, not "?"
                    self.bar.total = done
                self.bar.update(done - self._shown)
                self._shown = done
                self.bar.set_postfix(steps=n, sps=f"{self.sps():.0f}", **self.postfix,
                                     refresh=False)
        if self.stop is not None and self.stop():  # Ctrl-C: end learn() after this step
            return False
        return not self.out_of_budget(n)

    def _on_rollout_end(self) -> None:
        self.logger.record("charts/SPS", int(self.sps()))
        if self.league is not None:
            for kind, rate in self.league.win_rates().items():
                self.logger.record(f"train/win_rate_vs_{kind}", rate)
