"""Ablation of the training recipe: every arm x every seed at an equal wall-clock budget, at most
``--parallel`` trainings side by side, then a table (per seed the policy alone against the
heuristic over the final evaluation's duplicate deals with its 95 % Wilson interval, the mean)
and one picture of every run's learning curve.

    python scripts/ablation.py --game garda3 --minutes 5 --seeds 1 2 3 \
        --arms old anchor entropy privileged combined --out runs/ablation-garda3

Each arm is a set of ``training/ppo.py`` flags (:data:`ARMS`; ``--flags 'ARM=--x 1 --y 2'`` adds
one). The machine's load average is recorded at the start and the end of every run (a figure
measured on a loaded machine is not comparable: the budget is wall clock). Outputs in ``--out``:
``<arm>-s<seed>/`` run folders, ``ablation.json``, ``ablation.md`` (the table) and
``ablation.png``. A run folder that already holds a ``summary.json`` is not run again (resume an
interrupted ablation by running the same command); a run folder without one (a run that was
interrupted) is deleted and run again from the start, as its budget is wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the arms: "old" is the recipe before issue 18's changes (its flags pin the old defaults); each
#: other arm changes one thing ("anchor": the hand-off, KL anchor + critic warm-up; "entropy": the
#: IIG-RL benchmark's direction, higher entropy and learning rate, clipped value loss;
#: "privileged": the critic sees the other seats' views); "combined" all of them; "recipe" the
#: trainer's defaults
OLD = ("--bc-teacher heuristic --bc-decisions 200000 --anchor-coef 0 --critic-warmup-steps 0 "
       "--ent-coef 0.001 --clip-range-vf 0 --learning-rate 1e-4 --no-privileged-critic")
ARMS = {
    "old": OLD,
    "anchor": OLD + " --anchor-coef 0.5 --anchor-decay-steps 1000000 --critic-warmup-steps 50000",
    "entropy": OLD + " --ent-coef 0.01 --learning-rate 3e-4 --clip-range-vf 0.2",
    "privileged": OLD + " --privileged-critic",
    "combined": ("--bc-teacher heuristic --bc-decisions 200000 --anchor-coef 0.5 "
                 "--anchor-decay-steps 1000000 --critic-warmup-steps 50000 --ent-coef 0.01 "
                 "--learning-rate 3e-4 --clip-range-vf 0.2 --privileged-critic"),
    "lookahead_teacher": OLD + " --bc-teacher heuristic+lookahead:8 --bc-decisions 60000",
    "recipe": "",  # the trainer's defaults (the main job)
}


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def run_arm(arm: str, flags: str, game: str, game_config: str, seed: int, minutes: float,
            out: Path) -> subprocess.Popen | None:
    run_dir = out / f"{arm}-s{seed}"
    if (run_dir / "summary.json").exists():
        return None
    if run_dir.exists():  # an interrupted run: started again whole (its budget is wall clock)
        print(f"ablation: {run_dir} has no summary.json (interrupted): running it again from "
              "the start", flush=True)
        shutil.rmtree(run_dir)
    cmd = [sys.executable, str(ROOT / "training" / "ppo.py"), "--game", game,
           "--game-config", game_config, "--minutes", str(minutes), "--seed", str(seed),
           "--run-dir", str(run_dir), "--final-eval-games", "400", "--final-eval-lookahead",
           "0", "--no-progress", *shlex.split(flags)]
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "load.json").write_text(json.dumps({"start": _load(), "cmd": cmd}))
    with open(run_dir / "train.log", "w") as log:  # the child keeps its own copy of the file
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)


def collect(out: Path, arms: list[str], seeds: list[int]) -> list[dict]:
    from card_envs.evaluation.stats import wilson_interval

    rows = []
    for arm in arms:
        for seed in seeds:
            run_dir = out / f"{arm}-s{seed}"
            path = run_dir / "summary.json"
            if not path.exists():
                continue
            summary = json.loads(path.read_text())
            final = summary["final_eval"].get("heuristic")
            load = json.loads((run_dir / "load.json").read_text())
            if final is None:
                continue
            lo, hi = wilson_interval(final["wins"], final["games"])
            rows.append({"arm": arm, "seed": seed, "win_rate": final["win_rate"],
                         "wins": final["wins"], "games": final["games"], "wilson95": [lo, hi],
                         "timesteps": summary["timesteps"], "sps": summary["charts/SPS"],
                         "bc_seconds": summary["behaviour_cloning"].get("bc/seconds", 0),
                         "load_start": load.get("start"), "load_end": load.get("end"),
                         "curve": [(p["timesteps"], p["train_seconds"],
                                    p.get("eval/win_rate_vs_heuristic"))
                                   for p in summary["curve"]]})
    return rows


def table(rows: list[dict], arms: list[str], title: str) -> str:
    lines = [f"### {title}", "",
             ("| arm | seed | policy alone vs heuristic (400 duplicate-deal games) | timesteps "
              "| steps/s | BC s | load 1/5 min start → end |"), "|---|---|---|---|---|---|---|"]
    for arm in arms:
        mine = [r for r in rows if r["arm"] == arm]
        for r in mine:
            lo, hi = r["wilson95"]
            lines.append(f"| {arm} | {r['seed']} | {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] | "
                         f"{r['timesteps']:,} | {r['sps']:.0f} | {r['bc_seconds']:.0f} | "
                         f"{r['load_start']} → {r['load_end']} |")
        if mine:
            wins = sum(r["wins"] for r in mine)
            games = sum(r["games"] for r in mine)
            mean = sum(r["win_rate"] for r in mine) / len(mine)
            from card_envs.evaluation.stats import wilson_interval

            lo, hi = wilson_interval(wins, games)
            lines.append(f"| **{arm}** | mean of {len(mine)} | **{mean:.1%}** (pooled "
                         f"{wins}/{games}: [{lo:.1%}, {hi:.1%}]) | | | | |")
    return "\n".join(lines) + "\n"


def picture(rows: list[dict], arms: list[str], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    present = [a for a in arms if any(r["arm"] == a for r in rows)]
    panels = max(1, len(present))
    # at least 6.4 inches wide (two panels), so the two-line title fits over one arm
    fig, axes = plt.subplots(1, panels, figsize=(max(6.4, 3.2 * panels), 3.8), sharex=True,
                             sharey=True, squeeze=False)
    # 0.2-0.8 unless a point lies outside: no point is cut off the panel
    values = [w for r in rows for _, _, w in r["curve"] if w is not None]
    values += [r["win_rate"] for r in rows]
    low = min([0.2, *(v - 0.05 for v in values)])
    high = max([0.8, *(v + 0.05 for v in values)])
    for ax, arm in zip(axes[0], present):
        mine = [r for r in rows if r["arm"] == arm]
        for i, r in enumerate(mine):
            pts = [(s / 60, w) for _, s, w in r["curve"] if w is not None]
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", lw=1,
                            label=f"seed {r['seed']}")
            # the final dots side by side (hollow), so equal figures do not hide each other
            shift = (i - (len(mine) - 1) / 2) * 0.02 * pts[-1][0]
            ax.plot([pts[-1][0] + shift], [r["win_rate"]], "o", color=line.get_color(), ms=5,
                    mfc="none", mew=1.5)
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.set_title(arm, fontsize=11)
        ax.set_xlabel("wall-clock minutes", fontsize=10)
        ax.set_ylim(max(0.0, low), min(1.0, high))
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("policy alone vs heuristic", fontsize=10)
    axes[0][0].legend(fontsize=9)
    fig.suptitle(title + "\n(lines: the curve on 200 fixed duplicate deals; dots: the final 400 "
                 "games)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="garda3")
    parser.add_argument("--game-config", default="{}")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--arms", nargs="+", default=["old", "anchor", "entropy", "privileged", "combined"])
    parser.add_argument("--flags", action="append", default=[],
                        help="an extra arm: 'NAME=--flag value ...'")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--out", default="runs/ablation")
    args = parser.parse_args()
    arms = dict(ARMS)
    for extra in args.flags:
        name, _, flags = extra.partition("=")
        arms[name] = flags
        if name not in args.arms:
            args.arms.append(name)
    unknown = [a for a in args.arms if a not in arms]
    if unknown:
        parser.error(f"unknown arm(s) {unknown}; known: {', '.join(arms)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from tqdm import tqdm

    jobs = [(arm, seed) for seed in args.seeds for arm in args.arms]
    running: list[tuple[subprocess.Popen, Path]] = []
    with tqdm(total=len(jobs), desc=f"ablation {args.game}", unit="run") as bar:
        for arm, seed in jobs:
            while len(running) >= args.parallel:
                for proc, rd in list(running):
                    if proc.poll() is not None:
                        _finish(proc, rd)
                        running.remove((proc, rd))
                        bar.update(1)
                time.sleep(2)
            proc = run_arm(arm, arms[arm], args.game, args.game_config, seed, args.minutes, out)
            if proc is None:
                bar.update(1)
            else:
                running.append((proc, out / f"{arm}-s{seed}"))
        for proc, rd in running:
            proc.wait()
            _finish(proc, rd)
            bar.update(1)
    rows = collect(out, args.arms, args.seeds)
    config = f" {args.game_config}" if args.game_config != "{}" else ""
    title = f"{args.game}{config}, {args.minutes:g} minutes per run"
    (out / "ablation.json").write_text(json.dumps(rows, indent=1))
    (out / "ablation.md").write_text(table(rows, args.arms, title))
    picture(rows, args.arms, out / "ablation.png", title)
    print(table(rows, args.arms, title))
    return 0


def _finish(proc: subprocess.Popen, run_dir: Path) -> None:
    meta = json.loads((run_dir / "load.json").read_text())
    meta["end"] = _load()
    meta["returncode"] = proc.returncode
    (run_dir / "load.json").write_text(json.dumps(meta))
    if proc.returncode != 0:
        print(f"[ablation] {run_dir} failed (exit {proc.returncode}); see its train.log",
              file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
