"""Probe (issue 18, docs/training.md "Where the lookahead's gain lies"): fit the network to a
Garda3 label file of ``distill.py`` (``--hint 1``, hard targets) with every decision also seen
under the game's 12 symmetries: the 6 permutations of the three colours (G-1.5, with
``piebald_is_wild`` false) times swapping high and low in both the attack and the defence
directions (G-4.3..G-4.8 treat the two alike). The observation's card pieces, bonus sides, battle
and hand summary, the actions and the hint are mapped together; 10 % of the decisions are held
out before augmenting. Then the network alone against the heuristic on the final evaluation's
400 duplicate-deal games. Each minibatch is seen under one symmetry drawn at random (an epoch
is one pass over the decisions).

    python scripts/probes/augment_garda3.py /tmp/distill_garda3_32_400000_1_1_attack_cards_0.0.npz 6 1 256,256

Arguments: the label file (or several, comma-separated), epochs, seed, hidden sizes (default 128,128); ``--noaug`` fits the
same split without the symmetries.
"""
import itertools, sys, time
import numpy as np, torch
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from distill import make
from card_envs.garda3 import constants as R
from card_envs.garda3.observation import OBSERVATION

path, epochs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
net = [int(x) for x in (sys.argv[4] if len(sys.argv) > 4 else "128,128").split(",")]
torch.set_num_threads(1); torch.manual_seed(seed)
parts = [np.load(f) for f in path.split(",")]
obs, masks, acts = (np.concatenate([d[k] for d in parts]) for k in ("obs", "masks", "acts"))
NA = 56; OD = obs.shape[1] - NA
P = {p.name: (p.start, p.size) for p in OBSERVATION.pieces}

def card_map(pi, sw):
    m = np.zeros(36, int)
    for c in range(36):
        v, ad, dd, col = c // 12, (c // 6) % 2, (c // 3) % 2, c % 3
        m[c] = v * 12 + (ad ^ sw) * 6 + (dd ^ sw) * 3 + pi[col]
    return m

def transforms():
    out = []
    for pi in itertools.permutations(range(3)):
        for sw in (0, 1):
            cm = card_map(pi, sw)
            op = np.arange(OD + NA)  # op[i] = new index of old index i
            for name in ("hand", "attack_cards", "defence_cards", "discard"):
                s0 = P[name][0]; op[s0:s0 + 36] = s0 + cm
            am = np.arange(NA)
            am[R.A_CARD:R.A_CARD + 36] = R.A_CARD + cm
            if sw:
                for name in ("attack_bonus_side", "defence_bonus_side"):
                    s0 = P[name][0]; op[s0], op[s0 + 1] = s0 + 1, s0
                b = P["battle"][0]; op[b + 2], op[b + 3], op[b + 4], op[b + 5] = b + 3, b + 2, b + 5, b + 4
                h = P["hand_summary"][0]; op[h], op[h + 1], op[h + 2], op[h + 3] = h + 1, h, h + 3, h + 2
                am[R.A_BONUS], am[R.A_BONUS + 1] = R.A_BONUS + 1, R.A_BONUS
            h = P["hand_summary"][0]
            for col in range(3): op[h + 4 + col] = h + 4 + pi[col]
            op[OD:] = OD + am
            out.append((op, am))
    return out

nv = len(obs) // 10
Ov, Mv, Av = obs[:nv], masks[:nv], acts[:nv]
O, M, A = obs[nv:], masks[nv:], acts[nv:]
TS = transforms() if "--noaug" not in sys.argv else transforms()[:1]
# the inverse index maps: a transformed batch is o[:, inv_op] (new[:, op] = old)
INV = [(torch.as_tensor(np.argsort(op)), torch.as_tensor(np.argsort(am)), torch.as_tensor(am))
       for op, am in TS]
print("train", len(O), "x", len(TS), "symmetries (one drawn per minibatch), held-out", nv,
      flush=True)
game, raw, heur = make("garda3", 1)
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv
from card_envs.wrappers.single_agent import SingleAgentEnv
env = DummyVecEnv([lambda: SingleAgentEnv(game, opponents=heur, seed=0)])
model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": net, "activation_fn": torch.nn.Tanh}, seed=seed, device="cpu")
pol = model.policy
opt = torch.optim.Adam(pol.parameters(), lr=1e-3)
Ot, Mt, At = map(torch.as_tensor, (O, M, A)); Ovt, Mvt = torch.as_tensor(Ov), torch.as_tensor(Mv)
gen = np.random.default_rng(seed); t1 = time.time()
def logits(o, m):
    return pol.action_net(pol.mlp_extractor.forward_actor(pol.extract_features(o))).masked_fill(~m, -1e9)
for ep in range(epochs):
    order = gen.permutation(len(Ot)); acc = 0
    for s in range(0, len(Ot), 512):
        idx = torch.as_tensor(order[s:s + 512])
        inv_op, inv_am, am = INV[gen.integers(len(INV))]
        lg = logits(Ot[idx][:, inv_op], Mt[idx][:, inv_am])
        target = am[At[idx]]
        loss = torch.nn.functional.cross_entropy(lg, target)
        opt.zero_grad(); loss.backward(); torch.nn.utils.clip_grad_norm_(pol.parameters(), 0.5); opt.step()
        acc += float((lg.argmax(1) == target).sum())
    with torch.no_grad():
        va = float((logits(Ovt, Mvt).argmax(1).numpy() == Av).mean())
    print(f"epoch {ep} acc {acc/len(Ot):.4f} held-out {va:.4f} ({time.time()-t1:.0f}s)", flush=True)
from card_envs.training.model import FINAL_EVAL_SEED, evaluate_model
r = evaluate_model(model, game, heur, 200, seed=FINAL_EVAL_SEED, random_deals=10)["heuristic"]
print("RESULT", path.split("/")[-1], "aug" if len(TS) > 1 else "noaug", r.to_dict()["win_rate"], r.to_dict()["wilson95"]["win"], flush=True)
