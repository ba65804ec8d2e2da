"""Probe (issue 18, docs/training.md "Probes that did not help"): distil the lookahead's
per-action scores into the policy network as soft targets (softmax of score / tau over the legal
actions), optionally with the heuristic's choice as a one-hot input (``--hint 1``), then play the
network alone against the heuristic on the final evaluation's duplicate deals.

    python scripts/probes/distill.py --game garda3 --n 200000 --samples 16 --tau 0.1 --seed 1
    python scripts/probes/distill.py --game garda3 --n 100000 --samples 32 --phases attack_cards \
        --margin 0 --seed 1     # hard targets, the lookahead at the attack cards only

Prints the lookahead's agreement with the heuristic (the hint), the student's training and
held-out agreement with the lookahead's choice per epoch, and ``RESULT ...`` with the 400-game
win rate. Labelled data is cached in the temporary folder (``distill_*.npz``; delete to relabel).
"""

import argparse
import concurrent.futures as cf
import random
import time

import numpy as np

from card_envs.bots.base import RandomBot
from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.evaluation.policies import resolve_game as _rg
from card_envs.evaluation.policies import resolve_policy


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


def make(game_spec, hint):
    g = _rg(game_spec, None)
    h = resolve_policy("heuristic", game_spec, seed=0, game=g)
    return (HintedGame(g, h) if hint else g), g, h


def collect(game_spec, hint, n, samples, seed, phases=(), margin=None, vs_random=0.3):
    """Label ``n`` decisions. ``phases``: search only at decisions of these phases (empty:
    every phase); ``margin``: hard targets, the lookahead's best action where its score beats
    the heuristic's by more than ``margin`` else the heuristic's (``None``: the soft scores)."""
    game, raw, heur = make(game_spec, hint)
    names = dict(enumerate(raw.phases))
    la = LookaheadPolicy(heur, samples=samples, seed=seed)
    rng = random.Random(seed)
    rb = RandomBot(seed)
    obs, masks, targets, acts = [], [], [], []
    k = 0
    while len(obs) < n:
        state = raw.new_state(rng.getrandbits(63))
        np_ = raw.num_players
        pols = [la] * np_
        if rng.random() < vs_random:
            pols = [rb] * np_
            pols[k % np_] = la
        k += 1
        while not raw.is_terminal(state):
            p = raw.current_player(state)
            if pols[p] is la:
                mask = raw.legal_action_mask(state).astype(bool)
                own = heur.act(raw, state, p)
                scores = (la.action_scores(raw, state, p)
                          if not phases or names[state.phase] in phases else None)
                t = np.full(raw.num_actions, np.nan, dtype=np.float32)
                if scores is None:
                    t[own] = 0.0  # one-hot target: only the base's choice
                    a = own
                else:
                    for a_, v in scores.items():
                        t[a_] = v
                    best = own
                    for a_ in scores:
                        if scores[a_] > scores[best] + 1e-9:
                            best = a_
                    a = best
                    if margin is not None:  # a one-hot target (tau makes it hard)
                        a = best if scores[best] > scores[own] + margin else own
                        t[~np.isnan(t)] = -1e3
                        t[a] = 0.0
                obs.append(game.observe(state, p))
                masks.append(mask)
                targets.append(t)
                acts.append(a)
            else:
                a = pols[p].act(raw, state, p)
            raw.apply_action(state, a)
    return np.array(obs, np.float32), np.array(masks), np.array(targets), np.array(acts)


def cache_path(a):
    import tempfile

    return f"{tempfile.gettempdir()}/distill_{a.game}_{a.samples}_{a.n}_{a.seed}_{a.hint}_{a.phases}_{a.margin}.npz"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="garda3")
    ap.add_argument("--hint", type=int, default=1)
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--tau", type=float, default=0.1)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--net", default="128,128")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--save", default="")
    ap.add_argument("--phases", default="", help="search only at these phases (comma-separated)")
    ap.add_argument("--margin", type=float, default=None,
                    help="hard targets: deviate from the heuristic only by more than this")
    a = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    t0 = time.time()
    sizes = [a.n // a.workers] * a.workers
    import os

    if os.path.exists(cache_path(a)):
        sizes = [1] * a.workers
    with cf.ProcessPoolExecutor(a.workers) as ex:
        parts = list(
            ex.map(
                collect,
                [a.game] * a.workers,
                [a.hint] * a.workers,
                sizes,
                [a.samples] * a.workers,
                [a.seed * 100 + i for i in range(a.workers)],
                [[x for x in a.phases.split(",") if x]] * a.workers,
                [a.margin] * a.workers,
            )
        )
    import os

    cache = cache_path(a)
    if os.path.exists(cache):
        d = np.load(cache)
        obs, masks, targets, acts = d["obs"], d["masks"], d["targets"], d["acts"]
    else:
        obs, masks, targets, acts = (
            np.concatenate([p[i] for p in parts]) for i in range(4)
        )
        np.savez(cache, obs=obs, masks=masks, targets=targets, acts=acts)
    t1 = time.time()
    print(f"collected {len(obs)} in {t1 - t0:.0f}s", flush=True)
    # soft targets over legal actions
    tg = np.where(np.isnan(targets), -np.inf, targets / a.tau)
    tg = tg - tg.max(axis=1, keepdims=True)
    p = np.exp(tg)
    p /= p.sum(axis=1, keepdims=True)
    game, raw, heur = make(a.game, a.hint)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.wrappers.single_agent import SingleAgentEnv

    env = DummyVecEnv([lambda: SingleAgentEnv(game, opponents=heur, seed=0)])
    net = [int(x) for x in a.net.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs={"net_arch": net, "activation_fn": torch.nn.Tanh},
        seed=a.seed,
        device="cpu",
    )
    pol = model.policy
    opt = torch.optim.Adam(pol.parameters(), lr=1e-3)
    nv = len(obs) // 10
    hold = slice(0, nv)
    if a.hint:
        hint_a = obs[:, -raw.num_actions :].argmax(1)
        print(
            f"hint agrees with the lookahead on {(hint_a == acts).mean():.3f}",
            flush=True,
        )
    Ov, Mv, Av = map(torch.as_tensor, (obs[hold], masks[hold], acts[hold]))
    obs, masks, p, acts = obs[nv:], masks[nv:], p[nv:], acts[nv:]
    O, M, P, A = map(torch.as_tensor, (obs, masks, p.astype(np.float32), acts))
    gen = np.random.default_rng(a.seed)
    for ep in range(a.epochs):
        order = gen.permutation(len(O))
        tot = acc = 0.0
        for s in range(0, len(O), 512):
            idx = torch.as_tensor(order[s : s + 512])
            feats = pol.extract_features(O[idx])
            lat = pol.mlp_extractor.forward_actor(feats)
            logits = pol.action_net(lat).masked_fill(~M[idx], -1e9)
            logp = torch.log_softmax(logits, dim=1)
            loss = -(P[idx] * logp.clamp(min=-1e8)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(pol.parameters(), 0.5)
            opt.step()
            tot += float(loss.detach()) * len(idx)
            acc += float((logits.argmax(1) == A[idx]).sum())
        with torch.no_grad():
            lv = pol.action_net(
                pol.mlp_extractor.forward_actor(pol.extract_features(Ov))
            ).masked_fill(~Mv, -1e9)
            va = float((lv.argmax(1) == Av).float().mean())
        print(
            f"epoch {ep} loss {tot / len(O):.4f} acc {acc / len(O):.3f} held-out acc {va:.3f}",
            flush=True,
        )
    print(f"fit in {time.time() - t1:.0f}s", flush=True)
    from card_envs.training.model import FINAL_EVAL_SEED, evaluate_model

    r = evaluate_model(
        model, game, heur, a.deals, seed=FINAL_EVAL_SEED, random_deals=10
    )
    h = r["heuristic"]
    print(
        f"RESULT {a.game} hint={a.hint} samples={a.samples} n={len(O)} tau={a.tau}: vs heuristic {h.to_dict() if hasattr(h, 'to_dict') else h}",
        flush=True,
    )
    print(f"total {time.time() - t0:.0f}s")
    if a.save:
        model.save(a.save)


if __name__ == "__main__":
    main()
