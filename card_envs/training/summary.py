"""The trainer's outputs: learning-curve points, the learning curve PNG, the final-evaluation
report, ``summary.json`` and the versions of the libraries a run used.

matplotlib is imported inside :func:`plot_curve`.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path
from typing import Any

from card_envs.evaluation.match import MatchResult


def curve_point(results: dict[str, MatchResult], timesteps: int, train_seconds: float,
                league_rates: dict[str, float]) -> dict[str, Any]:
    """One learning-curve point: ``eval/win_rate_vs_<kind>``, ``eval/score_vs_<kind>`` and
    ``eval/wilson95_vs_<kind>`` of each evaluation result, and the league's recent
    ``train/win_rate_vs_<kind>``."""
    point: dict[str, Any] = {"timesteps": timesteps, "train_seconds": round(train_seconds, 2)}
    for kind, r in results.items():
        point[f"eval/win_rate_vs_{kind}"] = r.win_rate
        point[f"eval/score_vs_{kind}"] = r.score
        point[f"eval/wilson95_vs_{kind}"] = list(r.wilson())
    for kind, rate in league_rates.items():
        point[f"train/win_rate_vs_{kind}"] = rate
    return point


def plot_curve(curve: list[dict[str, Any]], path: Path, title: str,
               x_label: str = "learner timesteps", step_name: str = "PPO",
               start_label: str = "the cloned policy (warm start)") -> None:
    """The learning curve, two panels side by side: the evaluation win rate of the policy alone
    against each opponent (solid, with its 95 % Wilson band; on the same duplicate deals at
    every point) and the training episodes' win rates (dashed), over learner timesteps (left)
    and over training wall-clock minutes (right, from ``train_seconds``). ``x_label`` names what
    ``timesteps`` counts (expert iteration: decisions labelled).

    A curve whose every point is at 0 timesteps (no ``step_name`` step ran: the warm start used
    the whole budget) says so on both panels, and its point is labelled as the evaluation of
    ``start_label``, not as a learning curve."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    no_steps = all(p.get("timesteps", 0) == 0 for p in curve)
    who = f"{start_label}, evaluated" if no_steps else "policy alone"
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), sharey=True)
    colours = {"random": "tab:blue", "heuristic": "tab:red", "self": "tab:green"}
    for ax, (xkey, xlabel, scale) in zip(axes, (("timesteps", x_label, 1.0),
                                              ("train_seconds", "wall-clock minutes", 1 / 60))):
        xs = [p.get(xkey, 0) * scale for p in curve]
        for kind in ("heuristic", "random"):
            key = f"eval/win_rate_vs_{kind}"
            pts = [(p.get(xkey, 0) * scale, p[key], p[f"eval/wilson95_vs_{kind}"])
                   for p in curve if key in p]
            if pts:
                ax.plot([q[0] for q in pts], [q[1] for q in pts], "o-", ms=3,
                        color=colours[kind], label=f"{who} vs {kind} (duplicate deals, 95 % Wilson band)")
                ax.fill_between([q[0] for q in pts], [q[2][0] for q in pts],
                                [q[2][1] for q in pts], color=colours[kind], alpha=0.15)
        for kind in ("random", "heuristic", "self"):
            key = f"train/win_rate_vs_{kind}"
            pts = [(p.get(xkey, 0) * scale, p[key]) for p in curve if key in p]
            if pts:
                ax.plot([q[0] for q in pts], [q[1] for q in pts], "--", color=colours[kind],
                        alpha=0.6, lw=1, label=f"training episodes vs {kind}",
                        marker="x" if len(pts) < 2 else None, ms=5)  # one point: drawn
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.set_ylim(0, 1)
        if xs and max(xs) > 0:
            ax.set_xlim(0, max(xs) * 1.02)
        if no_steps:
            if xkey == "timesteps":
                ax.set_xlim(-1, 1)
                ax.set_xticks([0])
            ax.set_title(f"no {step_name} step ran: the warm start used the whole budget\n"
                         f"the point is {start_label}'s evaluation", fontsize=9,
                         color="darkred")  # above the panel: never over a point
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate")
    axes[0].legend(fontsize=7, loc="best", framealpha=0.6)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def print_final_eval(results: dict[str, MatchResult], games: int, lookahead: int,
                     seconds: float) -> None:
    """The final evaluation, one line per opponent: ``agent vs random: 400 games: win ...``
    (``agent+lookahead(N)`` for the ``lookahead/`` results)."""
    print(f"[card-envs] final evaluation ({games} seat-swapped games each, deterministic, "
          f"{seconds:.0f}s):", flush=True)
    for kind, r in results.items():
        who, _, opp = kind.rpartition("/")
        label = f"agent+lookahead({lookahead})" if who else "agent"
        print(f"  {label} vs {opp:9s}: {r.long_summary()}", flush=True)


def write_summary(path: Path, summary: dict[str, Any]) -> None:
    """``summary.json`` (with :func:`versions` added under ``"versions"``)."""
    from card_envs.training.checkpoints import write_json_atomic

    write_json_atomic(path, {**summary, "versions": versions()})  # whole or not at all


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
