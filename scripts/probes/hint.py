"""Probe (issue 18, docs/training.md "Probes that did not help"): the main job with the heuristic's
own choice appended to every observation as a one-hot of the action ids (a residual policy on
the heuristic: the cloned start copies the hint, PPO may learn where to deviate).

    python scripts/probes/hint.py --game garda3 --minutes 5 --seed 1 --final-eval-lookahead 0

Takes every flag of ``training/ppo.py``. The heuristic reads only the deciding seat's
information, so the hint leaks nothing; the saved model needs the same hint to play and is not
a policy spec of the suite (a probe, not a feature).
"""

import sys

import numpy as np

from card_envs.evaluation.policies import resolve_game as _resolve_game
from card_envs.evaluation.policies import resolve_policy
from card_envs.training import ppo


class HintedGame:
    def __init__(self, game, bot):
        object.__setattr__(self, "_g", game)
        object.__setattr__(self, "_bot", bot)

    def __getattr__(self, k):
        return getattr(self._g, k)

    @property
    def observation_shape(self):
        return (self._g.observation_shape[0] + self._g.num_actions,)

    def observe(self, state, seat):
        obs = self._g.observe(state, seat)
        hint = np.zeros(self._g.num_actions, dtype=np.float32)
        if not self._g.is_terminal(state) and self._g.current_player(state) == seat:
            hint[self._bot.act(self._g, state, seat)] = 1.0
        return np.concatenate([obs, hint])


def resolve_game(spec, config=None):
    g = _resolve_game(spec, config)
    bot = resolve_policy("heuristic", spec, seed=0, game=g)
    return HintedGame(g, bot)


ppo.resolve_game = resolve_game
import card_envs.training.imitation as imi

_GAMES = {}


def _task(game_spec, config, teacher_spec, n, seed, privileged):
    game = resolve_game(game_spec, config)
    teacher = resolve_policy(teacher_spec, game_spec, seed=seed, game=game._g)
    return imi.collect_demonstrations(
        game, teacher, n, seed=seed, privileged=privileged
    )


def collect_in_workers(
    game_spec,
    config,
    teacher_spec,
    n,
    seed,
    workers,
    privileged=False,
    on_progress=None,
):
    import concurrent.futures as cf
    import time

    t = time.time()
    sizes = [n // workers + (i < n % workers) for i in range(workers)]
    with cf.ProcessPoolExecutor(workers) as ex:
        parts = list(
            ex.map(
                _task,
                [game_spec] * workers,
                [config] * workers,
                [teacher_spec] * workers,
                sizes,
                [seed * 1000 + i for i in range(workers)],
                [privileged] * workers,
            )
        )
    print(
        f"[proto] collected {n} decisions of {teacher_spec} in {time.time() - t:.0f}s",
        flush=True,
    )
    cat = lambda k: np.concatenate([getattr(p, k) for p in parts])
    return imi.Demonstrations(
        cat("observations") if hasattr(parts[0], "observations") else cat("obs"),
        *[cat(k) for k in ("masks", "actions", "returns")],
        None,
    )


imi.collect_in_workers = collect_in_workers
sys.exit(ppo.main(sys.argv[1:]))
