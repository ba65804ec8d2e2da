"""Probe (issue 18): how much a fair lookahead's choices gain over the heuristic's, measured on
TRUE-state labels. For decisions of heuristic-vs-heuristic games, every legal action is scored by
one rollout from the real state (qregress.TrueState); the mean label (centred per decision) of the
heuristic's pick, of the fair lookahead's pick (``samples`` deals from the seat's view) and of the
per-decision best (the oracle) are printed.

    python scripts/probes/label_gain.py garda3 4000 16
"""
import random, sys, numpy as np, time
from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.evaluation.policies import resolve_game as _rg, resolve_policy
from qregress import TrueState
game = sys.argv[1]; n = int(sys.argv[2]); samples = int(sys.argv[3])
g = _rg(game, None); h = resolve_policy("heuristic", game, seed=0, game=g)
tl = LookaheadPolicy(h, samples=1, seed=1); fl = LookaheadPolicy(h, samples=samples, seed=2)
tg = TrueState(g); rng = random.Random(5)
H=[];F=[];B=[];dif=0;k=0;t0=time.time()
while k < n:
    s = g.new_state(rng.getrandbits(63))
    while not g.is_terminal(s):
        p = g.current_player(s); own = h.act(g, s, p)
        sc = tl.action_scores(tg, s, p)
        if sc is not None:
            fs = fl.action_scores(g, s, p)
            best = own
            for a in fs:
                if fs[a] > fs[best] + 1e-9: best = a
            m = np.mean(list(sc.values()))
            H.append(sc[own]-m); F.append(sc[best]-m); B.append(max(sc.values())-m); dif += best != own; k += 1
        g.apply_action(s, own)
H,F=np.array(H),np.array(F)
d=F-H
print(f"{game} n={k} samples={samples}: heuristic {H.mean():.4f} fair-lookahead {F.mean():.4f} diff {d.mean():.4f} +- {1.96*d.std()/np.sqrt(k):.4f} oracle {np.mean(B):.4f}; lookahead!=heuristic {dif/k:.3f}  {time.time()-t0:.0f}s")
