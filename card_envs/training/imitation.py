"""Behaviour cloning: warm-start a MaskablePPO policy from a teacher bot's decisions.

Used by the trainer before self-play (``--bc-decisions``): the teacher (a game's rule-based
heuristic) plays games against itself and against random players; every decision it takes is
recorded from its own seat's view as ``(observation, action_mask, action, final return)``. The
policy network is then fitted to those actions (masked cross-entropy) and its value head to the
returns, so PPO starts from the teacher's play instead of from random play (the same idea as the
supervised start of AlphaGo / AlphaStar).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from card_envs.bots.base import RandomBot


@dataclass
class Demonstrations:
    """``observations`` float32 (N, obs_dim); ``masks`` bool (N, num_actions); ``actions`` int64
    (N,); ``returns`` float32 (N,): the final return of the seat that decided."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def collect_demonstrations(game, teacher, n_decisions: int, seed: int = 0,
                           vs_random_share: float = 0.3) -> Demonstrations:
    """Play games until ``n_decisions`` teacher decisions are recorded.

    A share ``vs_random_share`` of the games seat the teacher against random players (one seat
    teacher, the others random, the teacher's seat rotating); the rest are teacher self-play.
    Only the teacher's decisions are recorded.

    Raises:
        ValueError: ``n_decisions < 1``.
    """
    if n_decisions < 1:
        raise ValueError(f"n_decisions must be >= 1, got {n_decisions}")
    rng = random.Random(seed)
    randbot = RandomBot(seed)
    obs, masks, actions, returns = [], [], [], []
    n = game.num_players
    g = 0
    while len(actions) < n_decisions:
        state = game.new_state(rng.getrandbits(63))
        if rng.random() < vs_random_share:
            policies = [randbot] * n
            policies[g % n] = teacher
        else:
            policies = [teacher] * n
        first = len(actions)
        seats = []
        steps = 0
        while not game.is_terminal(state) and steps < game.max_game_length:
            p = game.current_player(state)
            pol = policies[p]
            a = pol.act(game, state, p)
            if pol is teacher:
                obs.append(game.observe(state, p))
                masks.append(game.legal_action_mask(state).astype(bool))
                actions.append(a)
                seats.append(p)
            game.apply_action(state, a)
            steps += 1
        final = game.returns(state) if game.is_terminal(state) else [0.0] * n
        returns.extend(float(final[p]) for p in seats)
        assert len(returns) == len(actions) and first <= len(actions)
        g += 1
    return Demonstrations(np.asarray(obs, dtype=np.float32), np.asarray(masks, dtype=bool),
                          np.asarray(actions, dtype=np.int64), np.asarray(returns, dtype=np.float32))


def behaviour_clone(model, demos: Demonstrations, epochs: int = 10, batch_size: int = 512,
                    value_coef: float = 0.5, seed: int = 0,
                    learning_rate: float | None = 1e-3) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO policy) to ``demos`` with its own optimizer, at
    ``learning_rate`` (restored to PPO's afterwards; ``None`` keeps the optimizer's).

    Loss per batch: ``-log π(a|s, mask) + value_coef · (V(s) - return)²``.

    Returns:
        ``{"bc/loss": ..., "bc/accuracy": ...}`` of the last epoch (accuracy: the argmax of the
        masked policy equals the teacher's action).
    """
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    opt = policy.optimizer
    saved_lr = [g["lr"] for g in opt.param_groups]
    if learning_rate is not None:
        for g in opt.param_groups:
            g["lr"] = learning_rate
    n = len(demos)
    gen = np.random.default_rng(seed)
    obs_t = torch.as_tensor(demos.observations)
    act_t = torch.as_tensor(demos.actions)
    ret_t = torch.as_tensor(demos.returns)
    mask_t = torch.as_tensor(demos.masks)
    loss_sum = correct = 0.0
    for _ in range(epochs):
        order = gen.permutation(n)
        loss_sum = correct = 0.0
        for start in range(0, n, batch_size):
            idx = torch.as_tensor(order[start:start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs_t[idx], act_t[idx],
                                                          action_masks=mask_t[idx])
            loss = -log_prob.mean() + value_coef * ((values.flatten() - ret_t[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            loss_sum += float(loss.detach()) * len(idx)
            with torch.no_grad():
                dist = policy.get_distribution(obs_t[idx], action_masks=demos.masks[idx.numpy()])
                pred = dist.distribution.probs.argmax(dim=1)
                correct += float((pred == act_t[idx]).sum())
    policy.set_training_mode(False)
    for g, lr in zip(opt.param_groups, saved_lr):
        g["lr"] = lr
    return {"bc/loss": loss_sum / n, "bc/accuracy": correct / n}


def warm_start(model, game, teacher, decisions: int, epochs: int, learning_rate: float,
               seed: int = 0) -> dict[str, float]:
    """Collect ``decisions`` of the teacher's decisions and clone them into ``model``
    (:func:`collect_demonstrations`, then :func:`behaviour_clone`).

    Returns:
        ``bc/loss``, ``bc/accuracy``, ``bc/decisions`` and ``bc/seconds`` (wall clock of both).
    """
    t0 = time.time()
    demos = collect_demonstrations(game, teacher, decisions, seed=seed)
    metrics = behaviour_clone(model, demos, epochs=epochs, seed=seed, learning_rate=learning_rate)
    metrics["bc/decisions"] = len(demos)
    metrics["bc/seconds"] = round(time.time() - t0, 1)
    return metrics
