"""MaskablePPO self-play in a league on a card-envs game (CleanRL-style entry point).

Run from the repository root::

    python training/ppo.py                          # Garda3, 15 min wall clock, then evaluation
    python training/ppo.py --game garda3 --game-config '{"variant": "classic"}' --minutes 5
    python training/ppo.py --game scratch_wars --total-timesteps 200000 --minutes 0
    python training/ppo.py --resume runs/garda3-20250101-120000 --minutes 5
    python training/ppo.py --help                   # every Args field with its docstring

What happens (details and the Args dataclass: ``card_envs/training.py``, also ``card-envs train``):

1. the game and its heuristic bot; the policy is first fitted to 200k of the heuristic's
   decisions (behaviour cloning, counted in the budget); a league of opponents mixing random
   (5 %), the heuristic (65 %) and frozen snapshots of the learner (30 %, a new one every 50k
   steps);
2. 8 single-agent views of the game (the learner takes every seat in turn, one league opponent
   per episode) in a DummyVecEnv, ``torch.set_num_threads(1)``;
3. MaskablePPO (MLP 128-128 tanh, n_steps 512 x 8 envs = 4096 per rollout, batch 512, 5 epochs,
   lr 1e-4, ent_coef 0.001, gamma 0.99) learns until the budget is spent, evaluating deterministically
   against random and the heuristic every 50k steps (``eval/win_rate_vs_random``,
   ``eval/win_rate_vs_heuristic``; ``charts/SPS`` and SB3's ``train/*`` losses go to progress.csv);
4. writes model.zip, learning_curve.png, summary.json, checkpoints/ into the run folder;
5. plays 400 seat-swapped deterministic games against random and against the heuristic and prints
   win/draw/loss with 95 % Wilson intervals.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from card_envs.training import Args, main, parse_args, train  # noqa: F401
except ModuleNotFoundError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from card_envs.training import Args, main, parse_args, train  # noqa: F401


if __name__ == "__main__":
    sys.exit(main(prog="training/ppo.py"))
