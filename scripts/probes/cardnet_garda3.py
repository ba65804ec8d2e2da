"""Probe (issue 18): fit a card-aware network to a Garda3 label file of ``distill.py`` (``--hint
1``, hard targets) and play it alone against the heuristic on the final evaluation's 400
duplicate-deal games.

The MLP of ``distill.py`` / ``augment_garda3.py`` gives each of the 36 card actions its own output
unit, so what it learns about one card teaches it nothing about another. Here every card is one
row of features (value, attack and defence direction, colour: fixed per card id, G-1.3; its zone:
in my hand, played in attack, in defence, in the discard; the hint bit of its action) and one
shared scorer rates each held card from its row, a pooled summary of my hand and a context vector
of the whole observation: the logit of playing card ``c`` is ``score(row_c, hand, context)``
(a pointer head, as DouZero scores each candidate move from its cards). The other actions come
from the context. ``--aug`` also trains under the 12 symmetries of ``augment_garda3.py``.

    python scripts/probes/cardnet_garda3.py LABELS.npz EPOCHS SEED [--aug] [--nohint] [--deals 200]

Prints per epoch the training and held-out agreement with the label, then ``RESULT``.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from distill import make

from card_envs.bots.base import ObservationPolicy
from card_envs.evaluation.match import play_match
from card_envs.garda3 import constants as R
from card_envs.garda3.observation import OBSERVATION
from card_envs.training.model import FINAL_EVAL_SEED

NA = 56
P = {p.name: (p.start, p.size) for p in OBSERVATION.pieces}
ZONES = ("hand", "attack_cards", "defence_cards", "discard")


def card_features() -> np.ndarray:
    """(36, 10): value one-hot (3), attack high/low, defence high/low, colour one-hot (3)."""
    f = np.zeros((36, 10), np.float32)
    for c in range(36):
        v, ad, dd, col = c // 12, (c // 6) % 2, (c // 3) % 2, c % 3
        f[c, v] = 1
        f[c, 3 + ad] = 1
        f[c, 5 + dd] = 1
        f[c, 7 + col] = 1
    return f


def transforms(od: int):
    """The 12 symmetries (6 colour permutations x swapping high and low), as index maps of the
    hinted observation (``op``, length ``od + 56``) and of the actions (``am``): the same maps as
    ``augment_garda3.py``."""
    import itertools

    out = []
    for pi in itertools.permutations(range(3)):
        for sw in (0, 1):
            cm = np.zeros(36, int)
            for c in range(36):
                v, ad, dd, col = c // 12, (c // 6) % 2, (c // 3) % 2, c % 3
                cm[c] = v * 12 + (ad ^ sw) * 6 + (dd ^ sw) * 3 + pi[col]
            op = np.arange(od + NA)
            for name in ZONES:
                s0 = P[name][0]
                op[s0:s0 + 36] = s0 + cm
            am = np.arange(NA)
            am[R.A_CARD:R.A_CARD + 36] = R.A_CARD + cm
            h = P["hand_summary"][0]
            if sw:
                for name in ("attack_bonus_side", "defence_bonus_side"):
                    s0 = P[name][0]
                    op[s0], op[s0 + 1] = s0 + 1, s0
                b = P["battle"][0]
                op[b + 2], op[b + 3], op[b + 4], op[b + 5] = b + 3, b + 2, b + 5, b + 4
                op[h], op[h + 1], op[h + 2], op[h + 3] = h + 1, h, h + 3, h + 2
                am[R.A_BONUS], am[R.A_BONUS + 1] = R.A_BONUS + 1, R.A_BONUS
            for col in range(3):
                op[h + 4 + col] = h + 4 + pi[col]
            op[od:] = od + am
            out.append((op, am))
    return out


class CardNet(nn.Module):
    def __init__(self, obs_dim: int, width: int = 128, row: int = 64):
        super().__init__()
        self.register_buffer("cf", torch.as_tensor(card_features()))
        self.zone_idx = [P[z][0] for z in ZONES]
        self.obs_dim = obs_dim
        self.context = nn.Sequential(nn.Linear(obs_dim, width), nn.Tanh(),
                                     nn.Linear(width, width), nn.Tanh())
        rin = 10 + len(ZONES) + 1
        self.row = nn.Sequential(nn.Linear(rin + width, row), nn.Tanh(), nn.Linear(row, row),
                                 nn.Tanh())
        self.score = nn.Sequential(nn.Linear(row * 2 + width, row), nn.Tanh(), nn.Linear(row, 1))
        self.other = nn.Linear(width + row, NA)

    def forward(self, o: torch.Tensor) -> torch.Tensor:
        b = o.shape[0]
        ctx = self.context(o)
        zones = torch.stack([o[:, s:s + 36] for s in self.zone_idx], dim=2)  # (b, 36, 4)
        hint = o[:, self.obs_dim - NA + R.A_CARD:self.obs_dim - NA + R.A_CARD + 36, None]
        rows = torch.cat([self.cf.expand(b, 36, 10), zones, hint,
                          ctx[:, None, :].expand(b, 36, ctx.shape[1])], dim=2)
        h = self.row(rows)  # (b, 36, row)
        held = zones[:, :, :1]
        hand = (h * held).sum(1) / held.sum(1).clamp(min=1.0)  # (b, row)
        s = self.score(torch.cat([h, hand[:, None, :].expand_as(h),
                                  ctx[:, None, :].expand(b, 36, ctx.shape[1])], dim=2))[..., 0]
        logits = self.other(torch.cat([ctx, hand], dim=1))
        logits = torch.cat([logits[:, :R.A_CARD], s + logits[:, R.A_CARD:R.A_CARD + 36],
                            logits[:, R.A_CARD + 36:]], dim=1)
        return logits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("labels")
    ap.add_argument("epochs", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--aug", action="store_true")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--save", default="")
    ap.add_argument("--nohint", action="store_true",
                    help="zero the hint columns (the network sees the seat's observation only)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    parts = [np.load(f) for f in a.labels.split(",")]
    obs, masks, acts = (np.concatenate([d[k] for d in parts]) for k in ("obs", "masks", "acts"))
    if a.nohint:
        hint_cols = obs[:, -NA:].copy()
        obs[:, -NA:] = 0.0
    nv = len(obs) // 10
    Ov, Mv, Av = map(torch.as_tensor, (obs[:nv], masks[:nv], acts[:nv]))
    O, M, A = map(torch.as_tensor, (obs[nv:], masks[nv:], acts[nv:]))
    if a.aug:
        inv = [(torch.as_tensor(np.argsort(op)), torch.as_tensor(np.argsort(am)),
                torch.as_tensor(am)) for op, am in transforms(obs.shape[1] - NA)]
    else:
        inv = [None]
    net = CardNet(obs.shape[1])
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    gen = np.random.default_rng(a.seed)
    hint_a = (hint_cols if a.nohint else obs[:, -NA:]).argmax(1)
    print(f"train {len(O)}, held-out {nv}; the hint agrees with the label on "
          f"{(hint_a == acts).mean():.4f} (held-out {(hint_a[:nv] == acts[:nv]).mean():.4f})",
          flush=True)
    t1 = time.time()
    for ep in range(a.epochs):
        order = gen.permutation(len(O))
        acc = 0.0
        net.train()
        for s in range(0, len(O), 512):
            idx = torch.as_tensor(order[s:s + 512])
            o, m, t = O[idx], M[idx], A[idx]
            tr = inv[gen.integers(len(inv))]
            if tr is not None:
                inv_op, inv_am, am = tr
                o, m, t = o[:, inv_op], m[:, inv_am], am[t]
            lg = net(o).masked_fill(~m, -1e9)
            loss = nn.functional.cross_entropy(lg, t)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            acc += float((lg.argmax(1) == t).sum())
        net.eval()
        with torch.no_grad():
            va = float((net(Ov).masked_fill(~Mv, -1e9).argmax(1) == Av).float().mean())
        print(f"epoch {ep} acc {acc / len(O):.4f} held-out {va:.4f} ({time.time() - t1:.0f}s)",
              flush=True)
    if a.save:
        torch.save(net.state_dict(), a.save)
    game, _raw, heur = make("garda3", 1)

    def fn(ob, mask):
        ob = ob.copy()
        if a.nohint:
            ob[-NA:] = 0.0
        with torch.no_grad():
            lg = net(torch.as_tensor(ob[None], dtype=torch.float32))[0]
        lg = lg.masked_fill(~torch.as_tensor(mask.astype(bool)), -1e9)
        return int(lg.argmax())

    me = ObservationPolicy(fn, name="cardnet")
    r = play_match(game, me, heur, a.deals * 2, seed=FINAL_EVAL_SEED + 1, paired=True)
    d = r.to_dict()
    print("RESULT", Path(a.labels).name, "aug" if a.aug else "noaug",
          "nohint" if a.nohint else "hint", d["win_rate"],
          d["wilson95"]["win"], flush=True)


if __name__ == "__main__":
    main()
