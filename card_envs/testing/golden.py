"""Golden playthroughs (OpenSpiel's habit): along one fixed seed and fixed actions, every decision's
observation, action mask and action string, as text. A committed file per game and variant
(``tests/golden/``) pins the rules and the encoders: ``tests/test_golden.py`` replays each and
compares. When an encoding or rule change is intended (and the env's ``_vN`` bumped), regenerate::

    python -m card_envs.testing.golden --write tests/golden

The actions are fixed by the seed: at each decision ``random.Random(seed)`` picks one of the legal
actions (so the file also records a legal, reproducible game).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

from card_envs.core.registry import make_game
from card_envs.testing.variants import VARIANTS, variant_id

__all__ = ["playthrough", "golden_path", "GOLDEN_SEED", "main"]

GOLDEN_SEED = 20261201


def _obs_text(obs: np.ndarray) -> str:
    """Non-zero entries as ``index:value`` (float32 values printed to 6 significant digits)."""
    idx = np.flatnonzero(obs)
    return " ".join(f"{i}:{float(obs[i]):.6g}" for i in idx)


def playthrough(name: str, config: dict, seed: int = GOLDEN_SEED) -> str:
    """The golden text of one game of ``name`` with ``config`` from ``seed``: a header, then one
    block per decision (player, phase, the acting seat's observation, the legal actions, the
    action and its name), then the returns."""
    game = make_game(name, **config)
    state = game.new_state(seed)
    rng = random.Random(seed)
    lines = [f"# {name} v{game.version} {config} seed {seed}",
             f"# observation {tuple(game.observation_shape)} actions {game.num_actions}"]
    step = 0
    while not game.is_terminal(state):
        player = game.current_player(state)
        legal = game.legal_actions(state)
        action = rng.choice(legal)
        lines.append(f"decision {step} player {player} phase {game.phase_name(state)}")
        lines.append(f"  observation {_obs_text(game.observe(state, player))}")
        lines.append(f"  legal {' '.join(map(str, legal))}")
        lines.append(f"  action {action} {game.action_to_string(state, action)}")
        game.apply_action(state, action)
        step += 1
    lines.append(f"returns {[float(r) for r in game.returns(state)]} truncated "
                 f"{game.is_truncated(state)}")
    return "\n".join(lines) + "\n"


def golden_path(directory: str | Path, name: str, config: dict) -> Path:
    """``<directory>/<game>-<variant id>.txt``."""
    return Path(directory) / f"{name}-{variant_id(config)}.txt"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Write or check the golden playthrough files.")
    p.add_argument("--write", metavar="DIR", help="write every game's and variant's file here")
    p.add_argument("--check", metavar="DIR", help="compare with the files here (exit 1 on a "
                   "difference)")
    p.add_argument("--game", action="append", choices=sorted(VARIANTS), default=None,
                   help="only this game's files (repeatable; default: every game)")
    args = p.parse_args(argv)
    if not (args.write or args.check):
        p.error("give --write DIR or --check DIR")
    bad = 0
    for name, configs in VARIANTS.items():
        if args.game and name not in args.game:
            continue
        for cfg in configs:
            text = playthrough(name, cfg)
            path = golden_path(args.write or args.check, name, cfg)
            if args.write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                print(f"wrote {path} ({text.count('decision ')} decisions)")
            elif not path.is_file() or path.read_text() != text:
                print(f"differs: {path}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
