"""Probe (issue 18): regress per-action values onto TRUE-state rollout scores (privileged labels,
fair policy). For each decision of heuristic-vs-heuristic games, every legal action is scored by
one rollout from the real state (the heuristic plays every seat to the horizon / end; potential or
win_value*return). The network sees only the seat's observation; MSE on the per-decision centred
scores => E[A(s,a) | obs], the fair one-step improvement over the heuristic under the on-policy
belief. Policy = argmax.
"""
import argparse, concurrent.futures as cf, os, random, time, tempfile
import numpy as np

from card_envs.bots.lookahead import LookaheadPolicy
import sys, pathlib; sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from distill import HintedGame
from card_envs.evaluation.policies import resolve_game as _rg, resolve_policy


class TrueState:
    def __init__(self, game):
        object.__setattr__(self, "_g", game)
    def __getattr__(self, k):
        return getattr(self._g, k)
    def sample_hidden(self, state, player, rng):
        return self._g.clone(state)


IMIT = 0.5


def collect(game_spec, cfg, n, seed, eps):
    raw = _rg(game_spec, cfg)
    heur = resolve_policy("heuristic", game_spec, seed=seed, game=raw)
    la = LookaheadPolicy(heur, samples=1, seed=seed)
    tg = TrueState(raw)
    rng = random.Random(seed)
    obs, masks, targets, heur_a = [], [], [], []
    OBS = np.zeros((n + 400, raw.observation_shape[0]), np.float16)
    t0 = time.time()
    while len(obs) < n:
        state = raw.new_state(rng.getrandbits(63))
        while not raw.is_terminal(state):
            p = raw.current_player(state)
            own = heur.act(raw, state, p)
            scores = la.action_scores(tg, state, p)
            legal_now = raw.legal_actions(state)
            if scores is None and len(legal_now) > 1:
                scores = {a_: (IMIT if a_ == own else 0.0) for a_ in legal_now}
            if scores is not None:
                t = np.full(raw.num_actions, np.nan, dtype=np.float32)
                m = np.mean(list(scores.values()))
                for a_, v in scores.items():
                    t[a_] = v - m
                OBS[len(obs)] = raw.observe(state, p); obs.append(None)
                masks.append(raw.legal_action_mask(state).astype(bool))
                targets.append(t)
                heur_a.append(own)
            a = own
            if rng.random() < eps:
                a = rng.choice(list(raw.legal_actions(state)))
            raw.apply_action(state, a)
        if len(obs) and len(obs) % 5000 < 30 and seed % 100 == 0:
            print(f"  worker {seed}: {len(obs)} in {time.time()-t0:.0f}s", flush=True)
    return (OBS[:len(obs)], np.array(masks), np.array(targets), np.array(heur_a))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="garda3")
    ap.add_argument("--game-config", default=None)
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--eps", type=float, default=0.05)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--net", default="256,256")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--save", default="")
    ap.add_argument("--hint", type=int, default=0)
    ap.add_argument("--bonus", type=float, default=0.0)
    a = ap.parse_args()
    import json, torch
    torch.set_num_threads(1)
    cfg = json.loads(a.game_config) if a.game_config else None
    t0 = time.time()
    cache = f"{tempfile.gettempdir()}/qreg_{a.game}_{a.n}_{a.seed}_{a.eps}.npz"
    if os.path.exists(cache):
        d = np.load(cache); obs, masks, targets, ha = d["obs"], d["masks"], d["targets"], d["ha"]
    else:
        with cf.ProcessPoolExecutor(a.workers) as ex:
            parts = list(ex.map(collect, [a.game]*a.workers, [cfg]*a.workers,
                                [a.n // a.workers]*a.workers,
                                [a.seed*100 + i for i in range(a.workers)], [a.eps]*a.workers))
        obs, masks, targets, ha = (np.concatenate([p[i] for p in parts]) for i in range(4))
        np.savez(cache, obs=obs, masks=masks, targets=targets, ha=ha)
    t1 = time.time()
    tz = np.nan_to_num(targets, nan=-np.inf)
    best = tz.argmax(1)
    print(f"collected {len(obs)} in {t1-t0:.0f}s; per-sample true-state argmax == heuristic on {(best==ha).mean():.3f}", flush=True)
    raw = _rg(a.game, cfg)
    heur = resolve_policy("heuristic", a.game, seed=0, game=raw)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv
    from card_envs.wrappers.single_agent import SingleAgentEnv
    
    if a.hint:
        oh = np.zeros((len(obs), raw.num_actions), np.float32); oh[np.arange(len(obs)), ha] = 1
        obs = np.concatenate([obs, oh], 1)
        game = HintedGame(raw, heur)
    else:
        game = raw
    env = DummyVecEnv([lambda: SingleAgentEnv(game, opponents=heur, seed=0)])
    net = [int(x) for x in a.net.split(",")]
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": net, "activation_fn": torch.nn.Tanh},
                        seed=a.seed, device="cpu")
    pol = model.policy
    opt = torch.optim.Adam(pol.parameters(), lr=a.lr)
    nv = len(obs)//10
    legal = ~np.isnan(targets)
    T = np.nan_to_num(targets, nan=0.0).astype(np.float32)
    Ov, Mv, Tv, Hv = map(torch.as_tensor, (obs[:nv], legal[:nv], T[:nv], ha[:nv]))
    Tb = T.copy(); Tb[np.arange(len(Tb)), ha] += a.bonus
    O, M, TT = map(torch.as_tensor, (obs[nv:], legal[nv:], Tb[nv:]))
    gen = np.random.default_rng(a.seed)
    def q(x):
        return pol.action_net(pol.mlp_extractor.forward_actor(pol.extract_features(x.float())))
    # validation "regret": mean true-state score lost by argmax vs the per-sample best, vs heuristic's
    def val():
        with torch.no_grad():
            z = q(Ov).masked_fill(~Mv, -1e9)
            pick = z.argmax(1)
            got = Tv.gather(1, pick[:, None])[:, 0].mean()
            hgot = Tv.gather(1, Hv[:, None].long())[:, 0].mean()
            agree = (pick == Hv).float().mean()
            oh = torch.nn.functional.one_hot(Hv.long(), z.shape[1]).float()
            sweep = []
            for d in (0.02, 0.05, 0.1, 0.2):
                pk = (z + d * oh).argmax(1)
                sweep.append(round(float(Tv.gather(1, pk[:, None])[:, 0].mean()), 4))
        return float(got), float(hgot), float(agree), sweep
    print("before: val score of argmax %.4f, heuristic %.4f, agree %.3f %s" % val(), flush=True)
    for ep in range(a.epochs):
        order = gen.permutation(len(O)); tot = 0.0
        for s in range(0, len(O), 512):
            idx = torch.as_tensor(order[s:s+512])
            z = q(O[idx])
            m = M[idx]
            zc = z - (z*m).sum(1, keepdim=True) / m.sum(1, keepdim=True)
            loss = (((zc - TT[idx])**2) * m).sum() / m.sum()
            opt.zero_grad(); loss.backward(); torch.nn.utils.clip_grad_norm_(pol.parameters(), 1.0); opt.step()
            tot += float(loss.detach()) * len(idx)
        print(f"epoch {ep} loss {tot/len(O):.4f}  val argmax-score/heuristic-score/agree %.4f %.4f %.3f %s" % val(), flush=True)
    print(f"fit in {time.time()-t1:.0f}s", flush=True)
    # scale logits so the stochastic policy is sharp
    with torch.no_grad():
        pol.action_net.weight.mul_(20.0); pol.action_net.bias.mul_(20.0)
    from card_envs.training.model import FINAL_EVAL_SEED, evaluate_model
    r = evaluate_model(model, game, heur, a.deals, seed=FINAL_EVAL_SEED, random_deals=10)
    print(f"RESULT {a.game} bonus={a.bonus} n={len(obs)} net={a.net} eps={a.eps}: vs heuristic {r['heuristic']}", flush=True)
    print(f"total {time.time()-t0:.0f}s", flush=True)
    if a.save:
        model.save(a.save)

if __name__ == "__main__":
    main()
