"""Probe (issue 18): where the Garda3 lookahead (around the heuristic, N deals) chooses otherwise
than the heuristic, per phase, with the mean score gap between its choice and the heuristic's.

    python scripts/probes/lookahead_phases.py 16
"""

import collections
import random
import sys

from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.evaluation.policies import resolve_game, resolve_policy
from card_envs.garda3 import constants as R

g = resolve_game("garda3", None)
h = resolve_policy("heuristic", "garda3", seed=0, game=g)
la = LookaheadPolicy(h, samples=int(sys.argv[1]), seed=1)
rng = random.Random(5)
ph_names = {v: k for k, v in vars(R).items() if k.startswith("PH_")}
stat = collections.defaultdict(lambda: [0, 0, 0.0])
for _ in range(300):
    s = g.new_state(rng.getrandbits(63))
    while not g.is_terminal(s):
        p = g.current_player(s)
        own = h.act(g, s, p)
        sc = la.action_scores(g, s, p)
        a = own
        if sc is not None:
            best = own
            for x in sc:
                if sc[x] > sc[best] + 1e-9:
                    best = x
            st = stat[ph_names[s.phase]]
            st[0] += 1
            if best != own:
                st[1] += 1
                st[2] += sc[best] - sc[own]
            a = best if p == 0 else own
        g.apply_action(s, a)
for k, (n, d, gap) in sorted(stat.items(), key=lambda kv: -kv[1][0]):
    print(
        f"{k:24s} searched {n:6d} differ {d:5d} ({d / n:.0%}) mean gap {gap / max(d, 1):.3f}"
    )
