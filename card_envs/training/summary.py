"""The trainer's outputs: learning-curve points, the learning curve PNG, the final-evaluation
report, ``summary.json`` and the versions of the libraries a run used.

matplotlib is imported inside :func:`plot_curve`.
"""

from __future__ import annotations

import json
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
    path.write_text(json.dumps({**summary, "versions": versions()}, indent=1))


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
