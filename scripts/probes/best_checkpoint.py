"""Probe (issue 18): would keeping the best checkpoint instead of the last one help?

For each finished PPO run folder: the checkpoint (``checkpoints/ckpt_<n>.zip``) whose learning
curve point (among the points with a checkpoint: every point but the cloned start) (the policy alone against the heuristic on the curve's fixed duplicate deals) is the
highest, then that checkpoint alone against the heuristic on the final evaluation's deals (other
deals than the curve's: a held-out test), printed beside the last model's final figure. One JSON
line per run::

    python scripts/probes/best_checkpoint.py runs/garda3-20261203-061000 runs/rust_brawl-...

Needs the ``train`` extra. Runs with ``--final-eval-games 400`` (the default) are compared on the
same 200 deals; deterministic (the same deals and a deterministic policy).
"""

import json
import sys
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO

from card_envs.bots.specs import resolve_game
from card_envs.training.model import FINAL_EVAL_SEED, evaluate_model, heuristic_or_none


def main(run_dirs: list[str]) -> int:
    if not run_dirs or run_dirs[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if not run_dirs else sys.stdout)
        return 2 if not run_dirs else 0
    torch.set_num_threads(1)
    for run_dir in map(Path, run_dirs):
        try:
            summary = json.loads((run_dir / "summary.json").read_text())
        except (OSError, ValueError) as exc:
            print(f"best_checkpoint.py: {run_dir}: no readable summary.json of a finished PPO run "
                  f"({exc})", file=sys.stderr)
            return 2
        if not any((run_dir / "checkpoints" / f"ckpt_{p['timesteps']}.zip").exists()
                   for p in summary.get("curve", [])):
            print(f"best_checkpoint.py: {run_dir}: no checkpoint of a curve point in "
                  f"{run_dir / 'checkpoints'}", file=sys.stderr)
            return 2
        game_spec = summary["args"]["game"]
        game = resolve_game(game_spec, summary["game_config"])
        heuristic = heuristic_or_none(game_spec, "this probe")
        points = [p for p in summary["curve"]
                  if (run_dir / "checkpoints" / f"ckpt_{p['timesteps']}.zip").exists()]
        best = max(points, key=lambda p: (p["eval/win_rate_vs_heuristic"], p["timesteps"]))
        model = MaskablePPO.load(run_dir / "checkpoints" / f"ckpt_{best['timesteps']}.zip",
                                 device="cpu")
        deals = max(1, summary["args"]["final_eval_games"] // game.num_players)
        result = evaluate_model(model, game, heuristic, deals, seed=FINAL_EVAL_SEED,
                                random_deals=1)["heuristic"].to_dict()
        print(json.dumps({
            "run": str(run_dir), "last_model_final": summary["final_eval"]["heuristic"]["win_rate"],
            "best_checkpoint_timesteps": best["timesteps"],
            "best_curve_point": best["eval/win_rate_vs_heuristic"],
            # the curve's points with a checkpoint (the cloned start, timestep 0, has none)
            "curve_points_with_checkpoint": f"{len(points)} of {len(summary['curve'])}",
            "best_checkpoint_final": result["win_rate"],
            "best_checkpoint_wilson95": result["wilson95"]["win"]}), flush=True)
    return 0


if __name__ == "__main__":
    from card_envs.cli import run_script

    run_script(main)  # a reader leaving the pipe (... | head) ends it quietly
