"""Behaviour cloning: warm-start a MaskablePPO policy from a teacher's decisions.

Used by the trainer before self-play (``--bc-decisions``): the teacher (``--bc-teacher``, a policy
spec: the game's rule-based heuristic, or a search around it such as ``heuristic+lookahead:8``,
whose choices beat the heuristic) plays games against itself and against random players, in
``--bc-workers`` processes; every decision it takes is
recorded from its own seat's view as ``(observation, action_mask, action, final return)`` —
the view the network reads (``observation_mode``: the flat vector, or the entity view of the
card-aware network). The
policy network is then fitted to those actions (masked cross-entropy) and its value head to the
returns, so PPO starts from the teacher's play instead of from random play (the same idea as the
supervised start of AlphaGo / AlphaStar).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from card_envs.bots.base import RandomBot
from card_envs.core.observation_modes import observer, stack_views


@dataclass
class Demonstrations:
    """``observations`` float32 (N, obs_dim) (for the dict and entity views: a dict of such
    arrays, one per key, ``(N, *shape)``); ``masks`` bool (N, num_actions); ``actions`` int64
    (N,); ``returns`` float32 (N,): the final return of the seat that decided; ``privileged``
    float32 (N, privileged_dim) (``game.observe_privileged`` of the deciding seat, for a
    privileged critic) or ``None``."""

    observations: np.ndarray | dict[str, np.ndarray]
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    privileged: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.actions)


def collect_demonstrations(game, teacher, n_decisions: int, seed: int = 0,
                           vs_random_share: float = 0.3, privileged: bool = False,
                           on_progress=None, observation_mode: str = "flat",
                           actor=None) -> Demonstrations:
    """Play games until ``n_decisions`` teacher decisions are recorded.

    A share ``vs_random_share`` of the games seat the teacher against random players (one seat
    teacher, the others random, the teacher's seat rotating); the rest are teacher self-play.
    With ``actor`` (a policy; DAgger, Ross et al. 2011) the actor plays the teacher's seats and
    the teacher only labels them: each recorded action is the teacher's choice in the state the
    actor's play reached, so the demonstrations cover the states the actor visits.
    Only the teacher's decisions are recorded, as the deciding seat's view in
    ``observation_mode`` (``"flat"``, ``"dict"`` or ``"entities"``); with ``privileged``, also
    ``game.observe_privileged`` of the deciding seat. ``on_progress(n)`` is called with the
    number of decisions recorded so far after every game.

    Raises:
        ValueError: ``n_decisions < 1``.
    """
    if n_decisions < 1:
        raise ValueError(f"n_decisions must be >= 1, got {n_decisions}")
    rng = random.Random(seed)
    randbot = RandomBot(seed)
    view = observer(game, observation_mode)
    obs, masks, actions, returns, priv = [], [], [], [], []
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
            played = a if actor is None or pol is not teacher else actor.act(game, state, p)
            if pol is teacher:
                obs.append(view(state, p))
                if privileged:
                    priv.append(game.observe_privileged(state, p))
                masks.append(game.legal_action_mask(state).astype(bool))
                actions.append(a)
                seats.append(p)
            game.apply_action(state, played)
            steps += 1
        final = game.returns(state) if game.is_terminal(state) else [0.0] * n
        returns.extend(float(final[p]) for p in seats)
        assert len(returns) == len(actions) and first <= len(actions)
        g += 1
        if on_progress is not None:
            on_progress(len(actions))
    observations = stack_views(obs) if observation_mode != "flat" else \
        np.asarray(obs, dtype=np.float32)
    return Demonstrations(observations, np.asarray(masks, dtype=bool),
                          np.asarray(actions, dtype=np.int64), np.asarray(returns, dtype=np.float32),
                          np.asarray(priv, dtype=np.float32) if privileged else None)


def behaviour_clone(model, demos: Demonstrations, epochs: int = 10, batch_size: int = 512,
                    value_coef: float = 0.5, seed: int = 0,
                    learning_rate: float | None = 1e-3, on_epoch=None,
                    on_batch=None) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO policy) to ``demos`` with its own optimizer, at
    ``learning_rate`` (restored to PPO's afterwards; ``None`` keeps the optimizer's).

    Loss per batch: ``-log π(a|s, mask) + value_coef · (V(s) - return)²``.

    A policy on ``{"observation", "privileged"}`` dicts (a privileged critic) is fed both
    (``demos.privileged`` must be there). ``on_epoch(epoch)`` is called after every epoch,
    ``on_batch()`` after every minibatch (``ceil(len(demos) / batch_size)`` an epoch).

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
    if isinstance(demos.observations, dict):
        obs_t = {k: torch.as_tensor(v) for k, v in demos.observations.items()}
    else:
        obs_t = torch.as_tensor(demos.observations)
    priv_t = None if demos.privileged is None else torch.as_tensor(demos.privileged)

    def inputs(idx):
        if isinstance(obs_t, dict):
            return {k: v[idx] for k, v in obs_t.items()}
        if priv_t is None:
            return obs_t[idx]
        return {"observation": obs_t[idx], "privileged": priv_t[idx]}

    act_t = torch.as_tensor(demos.actions)
    ret_t = torch.as_tensor(demos.returns)
    mask_t = torch.as_tensor(demos.masks)
    loss_sum = correct = 0.0
    for epoch in range(epochs):
        order = gen.permutation(n)
        loss_sum = correct = 0.0
        for start in range(0, n, batch_size):
            idx = torch.as_tensor(order[start:start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(inputs(idx), act_t[idx],
                                                          action_masks=mask_t[idx])
            loss = -log_prob.mean() + value_coef * ((values.flatten() - ret_t[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            loss_sum += float(loss.detach()) * len(idx)
            with torch.no_grad():
                dist = policy.get_distribution(inputs(idx),
                                               action_masks=demos.masks[idx.numpy()])
                pred = dist.distribution.probs.argmax(dim=1)
                correct += float((pred == act_t[idx]).sum())
            if on_batch is not None:
                on_batch()
        if on_epoch is not None:
            on_epoch(epoch)
    policy.set_training_mode(False)
    for g, lr in zip(opt.param_groups, saved_lr):
        g["lr"] = lr
    return {"bc/loss": loss_sum / n, "bc/accuracy": correct / n}


#: the minibatch size of the warm start's behaviour cloning
BC_BATCH_SIZE = 512
#: decisions one worker task collects (the progress bar moves a task at a time)
TASK_DECISIONS = 2_000


def _collect_task(game_spec, config: dict, teacher_spec: str, n: int, seed: int,
                  privileged: bool, on_progress=None,
                  observation_mode: str = "flat") -> Demonstrations:
    """One worker task: build the game and the teacher from their specs, collect ``n``
    (``on_progress(k)`` after every game, in this process) as the ``observation_mode`` view."""
    from card_envs.bots.specs import resolve_game, resolve_policy

    game = resolve_game(game_spec, config) if isinstance(game_spec, str) else game_spec
    teacher = resolve_policy(teacher_spec, game_spec if isinstance(game_spec, str) else game.name,
                             seed=seed, game=game)
    return collect_demonstrations(game, teacher, n, seed=seed, privileged=privileged,
                                  on_progress=on_progress, observation_mode=observation_mode)


def _concat(parts: list[Demonstrations]) -> Demonstrations:
    priv = None if parts[0].privileged is None else np.concatenate([d.privileged for d in parts])
    if isinstance(parts[0].observations, dict):
        observations = {k: np.concatenate([d.observations[k] for d in parts])
                        for k in parts[0].observations}
    else:
        observations = np.concatenate([d.observations for d in parts])
    return Demonstrations(observations,
                          np.concatenate([d.masks for d in parts]),
                          np.concatenate([d.actions for d in parts]),
                          np.concatenate([d.returns for d in parts]), priv)


@dataclass(frozen=True)
class CollectSetup:
    """The teacher's demonstrations as a job of the games backend
    (:class:`~card_envs.evaluation.pool.GamePool`): the game (spec or picklable object), its
    config, the teacher spec, ``privileged``, the view recorded (``observation_mode``);
    :meth:`build` gives the arena that collects."""

    game_spec: Any
    config: dict
    teacher_spec: str
    privileged: bool = False
    observation_mode: str = "flat"

    def build(self) -> CollectArena:
        return CollectArena(self)


@dataclass(frozen=True)
class CollectJob:
    """``n`` decisions from seed ``seed``; ``index`` orders the parts."""

    index: int
    n: int
    seed: int


@dataclass(frozen=True)
class CollectedPart:
    index: int
    demonstrations: Demonstrations


class CollectArena:
    """Collects a :class:`CollectJob` (:func:`_collect_task`: the game and the teacher built
    from the specs for each job, as the serial run does)."""

    def __init__(self, setup: CollectSetup):
        self.setup = setup

    def play(self, job: CollectJob) -> CollectedPart:
        s = self.setup
        return CollectedPart(job.index, _collect_task(s.game_spec, s.config, s.teacher_spec,
                                                      job.n, job.seed, s.privileged,
                                                      observation_mode=s.observation_mode))


def collect_in_workers(game_spec: str, config: dict, teacher_spec: str, n_decisions: int,
                       seed: int, workers: int, privileged: bool = False,
                       on_progress=None, observation_mode: str = "flat") -> Demonstrations:
    """:func:`collect_demonstrations` spread over ``workers`` processes (``spawn``; the games
    backend, :class:`~card_envs.evaluation.pool.GamePool`) in tasks of :data:`TASK_DECISIONS`
    decisions, each task seeded from ``(seed, task)``: the result depends on ``seed`` and
    ``n_decisions`` only, not on ``workers``. ``on_progress(n)`` after each task.
    ``observation_mode``: the view recorded (:func:`collect_demonstrations`).

    Raises:
        ConfigError: ``workers < 1``; an unknown game or teacher spec (from the workers).
    """
    from card_envs.evaluation.pool import GamePool

    sizes = [TASK_DECISIONS] * (n_decisions // TASK_DECISIONS)
    if n_decisions % TASK_DECISIONS:
        sizes.append(n_decisions % TASK_DECISIONS)
    seeds = [int(np.random.SeedSequence([seed, k]).generate_state(1)[0]) for k in range(len(sizes))]
    jobs = [CollectJob(k, n, sd) for k, (n, sd) in enumerate(zip(sizes, seeds))]
    done = [0]

    def count(part: CollectedPart) -> None:
        done[0] += len(part.demonstrations)
        if on_progress is not None:
            on_progress(done[0])

    with GamePool(workers) as pool:
        parts = pool.run(CollectSetup(game_spec, config, teacher_spec, privileged,
                                      observation_mode), jobs, count, chunk_size=1)
    return _concat([p.demonstrations for p in parts])


def soften_policy(policy, temperature: float) -> None:
    """Divide the action logits of ``policy`` by ``temperature`` (> 0), in place, by scaling the
    layers that produce them (SB3's linear ``action_net``; for the card-aware network the
    ``output_layers()`` of its pointer head). The masked argmax, so the deterministic
    policy, does not change; the sampled policy spreads its probability over the other legal
    actions (``temperature`` > 1), so PPO's rollouts try them.

    Raises:
        ValueError: ``temperature`` not > 0 and finite, or a policy whose action head is neither
            of those.
    """
    import torch as th

    if not 0 < temperature < float("inf"):
        raise ValueError(f"temperature {temperature!r}: must be > 0 and finite")
    head = policy.action_net
    if isinstance(head, th.nn.Linear):
        layers = [head]
    elif hasattr(head, "output_layers"):  # the card-aware network's pointer head
        layers = head.output_layers()
    else:
        raise ValueError(f"cannot soften an action head of type {type(head).__name__}")
    with th.no_grad():
        for layer in layers:
            layer.weight.div_(temperature)
            layer.bias.div_(temperature)


def warm_start(model, game, teacher, decisions: int, epochs: int, learning_rate: float,
               seed: int = 0, privileged: bool = False, progress: bool = False,
               workers: int = 1, game_spec: str | None = None,
               config: dict | None = None, observation_mode: str = "flat",
               dagger_rounds: int = 0, dagger_decisions: int = 0,
               dagger_epochs: int = 4) -> dict[str, float]:
    """Collect ``decisions`` of the teacher's decisions and clone them into ``model``
    (:func:`collect_demonstrations`, then :func:`behaviour_clone`); then ``dagger_rounds``
    rounds of DAgger (Ross et al. 2011): the clone (argmax) plays ``dagger_decisions`` more
    decisions in the teacher's seats, the teacher labels them, they join the demonstrations and
    the clone is fitted ``dagger_epochs`` more epochs on all of them; ``privileged`` for a model
    with a privileged critic; ``progress`` shows two bars on stderr, each with its rate and time
    left: the decisions collected, then the minibatches of the cloning epochs.
    ``teacher`` is a policy, or a policy spec string; with a spec, ``game_spec`` and ``config``
    (the game's) the decisions are collected in ``workers`` processes
    (:func:`collect_in_workers`). ``observation_mode``: the view ``model`` reads (``"entities"``
    for the card-aware network).

    Returns:
        ``bc/loss``, ``bc/accuracy``, ``bc/decisions`` and ``bc/seconds`` (wall clock of both).
        With DAgger rounds: the loss and accuracy of the last fit, over all demonstrations;
        ``bc/decisions`` counts them all.
    """
    from tqdm import tqdm

    t0 = time.time()
    with tqdm(total=decisions, desc="behaviour cloning: collecting", unit="decision",
              disable=not progress, dynamic_ncols=True, mininterval=0.5, smoothing=0.1) as bar:
        def collected(n):
            bar.update(min(n, decisions) - bar.n)

        if isinstance(teacher, str):
            demos = collect_in_workers(game_spec or game.name, config or {}, teacher, decisions,
                                       seed, workers, privileged=privileged, on_progress=collected,
                                       observation_mode=observation_mode)
        else:
            demos = collect_demonstrations(game, teacher, decisions, seed=seed,
                                           privileged=privileged, on_progress=collected,
                                           observation_mode=observation_mode)
    batches = epochs * -(-len(demos) // BC_BATCH_SIZE)
    with tqdm(total=batches, desc=f"behaviour cloning: fitting {epochs} epochs", unit="batch",
              disable=not progress, dynamic_ncols=True, mininterval=0.5, smoothing=0.1) as bar:
        metrics = behaviour_clone(model, demos, epochs=epochs, batch_size=BC_BATCH_SIZE,
                                  seed=seed, learning_rate=learning_rate,
                                  on_batch=lambda: bar.update(1))
    if dagger_rounds > 0:
        if isinstance(teacher, str):
            from card_envs.bots.specs import resolve_policy
            teacher = resolve_policy(teacher, game_spec or game.name, seed=seed, game=game)
        from card_envs.bots.sb3 import FrozenPolicy
    for r in range(dagger_rounds):
        actor = FrozenPolicy(model.policy, deterministic=True, name="clone")
        with tqdm(total=dagger_decisions, desc=f"DAgger round {r + 1}/{dagger_rounds}: "
                  "the clone plays, the teacher labels", unit="decision", disable=not progress,
                  dynamic_ncols=True, mininterval=0.5, smoothing=0.1) as bar:
            def collected(n):
                bar.update(min(n, dagger_decisions) - bar.n)
            more = collect_demonstrations(game, teacher, dagger_decisions, seed=seed + 1 + r,
                                          privileged=privileged, on_progress=collected,
                                          observation_mode=observation_mode, actor=actor)
        demos = _concat([demos, more])
        batches = dagger_epochs * -(-len(demos) // BC_BATCH_SIZE)
        with tqdm(total=batches, desc=f"DAgger round {r + 1}/{dagger_rounds}: fitting "
                  f"{dagger_epochs} epochs", unit="batch", disable=not progress,
                  dynamic_ncols=True, mininterval=0.5, smoothing=0.1) as bar:
            metrics = behaviour_clone(model, demos, epochs=dagger_epochs,
                                      batch_size=BC_BATCH_SIZE, seed=seed + 1 + r,
                                      learning_rate=learning_rate,
                                      on_batch=lambda: bar.update(1))
    metrics["bc/decisions"] = len(demos)
    metrics["bc/seconds"] = round(time.time() - t0, 1)
    return metrics
