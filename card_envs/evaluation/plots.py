"""A tournament as a PNG: a heat map of pairwise scores beside the ratings with their intervals.

matplotlib is imported only inside :func:`tournament_png` (it is an optional dependency: the
``train`` extra), with the non-interactive Agg backend.
"""

from __future__ import annotations

import math
from pathlib import Path

from card_envs.core.errors import ConfigError
from card_envs.evaluation.ratings import format_elo
from card_envs.evaluation.report import seats_phrase


def short_label(name: str, limit: int = 28) -> str:
    """A plot label for a policy spec: a model path keeps its run folder and file
    (``runs/garda3-20261201-120402/model.zip`` → ``garda3-20261201-120402``), long specs are cut
    in the middle to ``limit`` characters."""
    base, plus, suffix = name.partition("+")
    p = Path(base)
    if base.endswith(".zip") and p.parent.name:
        base = p.parent.name if p.name == "model.zip" else f"{p.parent.name}/{p.name}"
    label = base + plus + suffix
    if len(label) > limit:
        keep = (limit - 1) // 2
        label = label[:keep] + "…" + label[-(limit - 1 - keep):]
    return label


def tournament_png(t, path: str | Path, title: str | None = None) -> Path:
    """Write the heat map (row's mean score against column, with Wilson 95 % intervals) and the
    Bradley–Terry Elo ratings (with their 95 % bootstrap intervals) of tournament ``t``
    (:class:`~card_envs.evaluation.tournament.Tournament`) to ``path``; returns the path.

    Raises:
        ConfigError: matplotlib is not installed, or the file cannot be written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError("--png needs matplotlib (pip install matplotlib, or the package's "
                          "'train' extra)") from None
    names = t.names
    k = len(names)
    labels = [short_label(n) for n in names]
    m = t.score_matrix()
    cell = 1.25  # inches per heat-map cell: room for "62%" and "52–71%"
    heat_w, rate_w = cell * k + 3.2, 7.5
    height = cell * k + 2.6
    fig, (ax_m, ax_r) = plt.subplots(1, 2, figsize=(heat_w + rate_w, height),
                                     gridspec_kw={"width_ratios": [heat_w, rate_w]})
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#e4e4e4")
    image = ax_m.imshow(m, cmap=cmap, vmin=0.0, vmax=1.0)
    for i in range(k):
        for j in range(k):
            if i == j or math.isnan(m[i, j]):
                continue
            r = t.result(names[i], names[j])
            lo, hi = r.wilson()
            dark = abs(m[i, j] - 0.5) > 0.3
            ax_m.text(j, i, f"{m[i, j]:.0%}", ha="center", va="bottom", fontsize=11,
                      fontweight="bold", color="white" if dark else "black")
            ax_m.text(j, i + 0.08, f"{100 * lo:.0f}–{100 * hi:.0f}%", ha="center", va="top",
                      fontsize=8, color="white" if dark else "#333333")
    ax_m.set_xticks(range(k), labels, rotation=30, ha="right", fontsize=9)
    ax_m.set_yticks(range(k), labels, fontsize=9)
    ax_m.set_xlabel("opponent (column)")
    ax_m.set_ylabel("policy (row)")
    ax_m.set_title("row's mean score vs column\n(draw = ½; below: 95 % Wilson interval)",
                   fontsize=10)
    fig.colorbar(image, ax=ax_m, fraction=0.046, pad=0.04, label="score")

    ranked = t.standings()
    ys = list(range(len(ranked)))[::-1]
    finite = [v for r in ranked for v in (r.elo_low, r.elo_high) if math.isfinite(v)]
    lo_x, hi_x = min(finite + [r.elo for r in ranked]), max(finite + [r.elo for r in ranked])
    pad = 0.3 * max(hi_x - lo_x, 50.0)  # room for the centred labels at the ends
    # an unbounded side gets room for its arrow
    lo_x -= pad * (2 if any(not math.isfinite(r.elo_low) for r in ranked) else 1)
    hi_x += pad * (2 if any(not math.isfinite(r.elo_high) for r in ranked) else 1)
    for y, r in zip(ys, ranked):
        low = r.elo_low if math.isfinite(r.elo_low) else lo_x
        high = r.elo_high if math.isfinite(r.elo_high) else hi_x
        ax_r.plot([low, high], [y, y], color="#1f4e99", lw=2, solid_capstyle="butt")
        for end, bounded in ((low, math.isfinite(r.elo_low)), (high, math.isfinite(r.elo_high))):
            ax_r.plot([end], [y], marker="|" if bounded else ("<" if end == lo_x else ">"),
                      ms=12 if bounded else 8, color="#1f4e99")
        ax_r.plot([r.elo], [y], "o", color="#1f4e99", ms=7)
        text = f"{r.elo:+.0f}  [{format_elo(r.elo_low)}, {format_elo(r.elo_high)}]"
        ax_r.annotate(text, (r.elo, y), textcoords="offset points", xytext=(0, 9), ha="center",
                      fontsize=9)
    ax_r.set_yticks(ys, [short_label(r.name) for r in ranked], fontsize=9)
    ax_r.axvline(0.0, color="grey", lw=0.8, ls=":")
    ax_r.set_xlabel("Elo (mean of the field = 0)")
    ax_r.set_ylim(-0.7, len(ranked) - 0.4)
    ax_r.set_xlim(lo_x, hi_x)
    ax_r.grid(axis="x", alpha=0.3)
    ax_r.set_title(f"ratings ({t.deals} deals per pair, {seats_phrase(t.seats)})",
                   fontsize=10)
    ax_r.text(0.99, 0.01, "Bradley–Terry Elo, 95 % bootstrap interval over deals\n"
              "(an arrow: no bound on that side, the entrant lost or won every game)",
              transform=ax_r.transAxes, ha="right", va="bottom", fontsize=7.5, color="#555555")
    kind = f"gauntlet of {short_label(t.gauntlet)}" if t.gauntlet else "round robin"
    fig.suptitle(title or f"{t.game}: {kind}", fontsize=12)
    fig.tight_layout()
    path = Path(path)
    try:
        fig.savefig(path, dpi=120, bbox_inches="tight", pad_inches=0.15)
    except OSError as exc:
        raise ConfigError(f"--png {str(path)!r}: cannot write the plot: "
                          f"{exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    return path
