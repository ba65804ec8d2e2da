"""RLlib PPO self-play on a card-envs game, on one machine or a Ray cluster.

Run from the repository root (needs ``pip install -e ".[rllib]"``)::

    python training/rllib_ppo.py                               # Garda3, 15 min, then evaluation
    python training/rllib_ppo.py --game scratch_wars --game-config '{"level": 3}' --minutes 5
    python training/rllib_ppo.py --num-env-runners 0 --minutes 1   # sampling in this process
    python training/rllib_ppo.py --address auto --num-env-runners 16  # on a running Ray cluster
    python training/rllib_ppo.py --help                        # every flag with its docstring

The job is :func:`card_envs.training.rllib_ppo.train`; its flags are the fields of
:class:`card_envs.training.rllib_ppo.RLlibArgs`. The checkpoint it writes
(``runs/<game>-rllib-<timestamp>/checkpoint``) is a policy spec:
``card-envs evaluate --game garda3 --a rllib:runs/.../checkpoint --b heuristic``.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from card_envs.training.rllib_ppo import main
except ModuleNotFoundError:  # running from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from card_envs.training.rllib_ppo import main


if __name__ == "__main__":
    sys.exit(main(prog="training/rllib_ppo.py"))
