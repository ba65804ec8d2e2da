"""Probe (issue 18): how much of the lookahead's attack-card choice can be learned at all.

``consistency N SEED``: at ``N`` Garda3 attack-card decisions with more than one legal action
(heuristic-against-heuristic games), the heuristic's choice, two 32-deal lookaheads (other seeds)
and one 256-deal lookahead; prints how often each pair agrees. Two 32-deal searches agreeing on
x % of decisions bound what any learner of their labels can agree with one of them.

``trees LABELS ITERATIONS FRACTION``: gradient-boosted trees (scikit-learn's
``HistGradientBoostingClassifier``; ``pip install scikit-learn``) fitted to the attack-card
decisions of a ``distill.py`` label file (``--hint 1``, hard targets), each legal action one row
(the seat's observation, the action's card features, whether it is the heuristic's choice),
the target whether it is the label; the first tenth of the file held out as in the other
probes, ``FRACTION`` of the rest used for fitting. Prints the share of decisions whose
best-scored action is the label, on the fitted and the held-out decisions, and the heuristic's.

    python scripts/probes/attack_learnability.py consistency 1500 1
    python scripts/probes/attack_learnability.py trees /tmp/distill_garda3_32_200000_1_1_attack_cards_0.0.npz 300 1.0
"""
import random
import sys
import time

import numpy as np

from card_envs.cli import run_script

NA = 56
OBS = 294  # the flat Garda3 observation; the hint's 56 columns follow it in the label files


def consistency(n: int, seed: int) -> None:
    from card_envs.bots.lookahead import LookaheadPolicy
    from card_envs.evaluation.policies import resolve_game, resolve_policy

    game = resolve_game("garda3", None)
    heuristic = resolve_policy("heuristic", "garda3", seed=0, game=game)
    phases = dict(enumerate(game.phases))
    searches = [LookaheadPolicy(heuristic, samples=32, seed=seed * 10 + i) for i in range(2)]
    searches.append(LookaheadPolicy(heuristic, samples=256, seed=seed * 10 + 7))
    rng = random.Random(seed)
    rows = []
    t0 = time.time()
    while len(rows) < n:
        state = game.new_state(rng.getrandbits(63))
        while not game.is_terminal(state):
            p = game.current_player(state)
            own = heuristic.act(game, state, p)
            if phases[state.phase] == "attack_cards" and game.legal_action_mask(state).sum() > 1:
                rows.append([own] + [s.act(game, state, p) for s in searches])
            game.apply_action(state, own)
    r = np.array(rows)
    names = ["heuristic", "lookahead 32 (a)", "lookahead 32 (b)", "lookahead 256"]
    print(f"{len(r)} attack-card decisions with a choice, {time.time() - t0:.0f} s")
    for i in range(4):
        for j in range(i + 1, 4):
            print(f"{names[i]} = {names[j]}: {(r[:, i] == r[:, j]).mean():.3f}")


def card_features(action: int) -> np.ndarray:
    f = np.zeros(11, np.float32)
    if action == 50:  # done: a single card
        f[10] = 1
        return f
    c = action - 14
    f[c // 12] = f[3 + (c // 6) % 2] = f[5 + (c // 3) % 2] = f[7 + c % 3] = 1
    return f


def trees(path: str, iterations: int, fraction: float) -> None:
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
    except ImportError:
        sys.exit("trees needs scikit-learn: pip install scikit-learn")
    d = np.load(path)
    obs, masks, acts = d["obs"], d["masks"], d["acts"]
    nv = len(obs) // 10
    attack = np.flatnonzero((obs[:, 4] == 1) & (masks.sum(1) > 1))  # phase attack_cards
    x, y, group = [], [], []
    for i in attack:
        hint = obs[i, -NA:].argmax()
        for action in np.flatnonzero(masks[i]):
            x.append(np.concatenate([obs[i, :OBS], card_features(action), [action == hint]]))
            y.append(action == acts[i])
            group.append(i)
    x, y, group = np.array(x, np.float32), np.array(y), np.array(group)
    held = group < nv
    fit = ~held & (group < nv + fraction * (len(obs) - nv))
    t0 = time.time()
    clf = HistGradientBoostingClassifier(max_iter=iterations, max_leaf_nodes=63, random_state=0)
    clf.fit(x[fit], y[fit])
    score = clf.predict_proba(x)[:, 1]

    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])  # rows of one decision are adjacent

    def agreement(rows, values):
        hits = [y[i + values[i:j].argmax()] for i, j in zip(starts, np.r_[starts[1:], len(y)])
                if rows[i]]
        return np.mean(hits), len(hits)

    print(f"fitted in {time.time() - t0:.0f} s")
    for name, rows, values in (("trees, fitted", fit, score), ("trees, held-out", held, score),
                               ("heuristic, held-out", held, x[:, -1])):
        share, count = agreement(rows, values)
        print(f"{name} decisions: {share:.3f} of {count}")


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "consistency":
        consistency(int(argv[1]), int(argv[2]))
    elif len(argv) == 4 and argv[0] == "trees":
        trees(argv[1], int(argv[2]), float(argv[3]))
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    run_script(main)
