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
import sys, time
import numpy as np, torch
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from distill import make
from cardnet_garda3 import transforms

path, epochs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
net = [int(x) for x in (sys.argv[4] if len(sys.argv) > 4 else "128,128").split(",")]
torch.set_num_threads(1); torch.manual_seed(seed)
parts = [np.load(f) for f in path.split(",")]
obs, masks, acts = (np.concatenate([d[k] for d in parts]) for k in ("obs", "masks", "acts"))
NA = 56; OD = obs.shape[1] - NA

nv = len(obs) // 10
Ov, Mv, Av = obs[:nv], masks[:nv], acts[:nv]
O, M, A = obs[nv:], masks[nv:], acts[nv:]
TS = transforms(OD) if "--noaug" not in sys.argv else transforms(OD)[:1]
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
