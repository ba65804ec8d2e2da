"""MaskablePPO self-play in a league on a card-envs game (CleanRL-style entry point).

Run from the repository root::

    python training/ppo.py                          # Garda3, 15 min wall clock, then evaluation
    python training/ppo.py --game garda3 --game-config '{"variant": "classic"}' --minutes 5
    python training/ppo.py --game scratch_wars --total-timesteps 200000 --minutes 0
    python training/ppo.py --resume runs/garda3-20250101-120000 --minutes 5
    python training/ppo.py --help                   # every Args field with its docstring

The job is :func:`card_envs.training.ppo.train` (it reads top to bottom; ``card-envs train`` runs
the same); its flags are the fields of :class:`card_envs.training.args.Args`. The defaults and
what one run with them measured: ``docs/training.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from card_envs.training.ppo import main
except ModuleNotFoundError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from card_envs.training.ppo import main


if __name__ == "__main__":
    sys.exit(main(prog="training/ppo.py"))
