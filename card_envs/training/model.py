"""The trainer's model and what it plays in: seeding, the vectorised single-agent envs, the
MaskablePPO model factory (:class:`~card_envs.training.anchored_ppo.AnchoredMaskablePPO`, with the
privileged critic of :mod:`card_envs.training.networks` on request; also used by
``benchmarks/sps.py``), the TensorBoard + CSV logger, frozen snapshots of the learner for the
league, and the evaluation of the current model on duplicate deals.

torch, SB3 and sb3-contrib are imported inside the functions that need them.
"""

from __future__ import annotations

import collections
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.bots.base import RandomBot
from card_envs.bots.sb3 import FrozenPolicy, load_model, load_policy
from card_envs.evaluation.match import MatchResult, play_match

__all__ = ["EVAL_SEED", "FINAL_EVAL_SEED", "evaluate_model", "heuristic_or_none", "load_model", "make_model",
           "make_vec_env", "restore_snapshots", "save_snapshot", "seed_everything", "set_logger",
           "snapshot"]

#: the deals of every periodic evaluation (the same deals each time, so the curve's points differ
#: by the policy only) and of the final evaluation (other deals: held out from the curve)
EVAL_SEED = 10_000
FINAL_EVAL_SEED = 123_456


def seed_everything(seed: int) -> None:
    """Seed Python, numpy and torch RNGs."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def make_vec_env(game, opponents, args, seed: int):
    """``args.n_envs`` :class:`~card_envs.wrappers.single_agent.SingleAgentEnv` copies of ``game``
    against ``opponents`` (a policy or an opponent source such as the league) in a
    ``DummyVecEnv`` seeded with ``seed``; their observations are the view ``args.network``
    reads (the entity view for ``cards``)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.training.args import OBSERVATION_MODE
    from card_envs.wrappers.single_agent import SingleAgentEnv

    mode = OBSERVATION_MODE[getattr(args, "network", "mlp")]

    def factory(i: int):
        # MaskablePPO never picks a masked-out action: one would be a bug, so it raises
        return lambda: SingleAgentEnv(game, opponents, reward_mode=args.reward_mode,
                                      shaping=args.shaping, shaping_gamma=args.gamma,
                                      seed=seed * 1000 + i, illegal_action="raise",
                                      privileged=bool(getattr(args, "privileged_critic", False)),
                                      observation_mode=mode)

    vec = DummyVecEnv([factory(i) for i in range(args.n_envs)])
    vec.seed(seed)
    return vec


def make_model(vec_env, args):
    """A new :class:`~card_envs.training.anchored_ppo.AnchoredMaskablePPO` (MaskablePPO with the
    KL anchor and critic warm-up of ``args``) on ``vec_env`` with the hyperparameters of ``args``
    (:class:`card_envs.training.args.Args`), on the CPU: an MLP policy, or
    :class:`~card_envs.training.networks.PrivilegedCriticPolicy` with
    ``args.privileged_critic`` (``vec_env`` then gives ``{"observation", "privileged"}``), or
    with ``args.network == "cards"`` :class:`~card_envs.training.networks.CardsPolicy` on the
    entity view (``vec_env`` then gives it)."""
    import torch

    from card_envs.training.anchored_ppo import AnchoredMaskablePPO

    arch = [int(x) for x in args.net_arch.split(",") if x.strip()]
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[args.activation]
    policy: Any = "MlpPolicy"
    policy_kwargs: dict[str, Any] = {"net_arch": arch, "activation_fn": activation}
    if getattr(args, "privileged_critic", False):
        from card_envs.training.networks import PrivilegedCriticPolicy

        policy = PrivilegedCriticPolicy
    elif getattr(args, "network", "mlp") == "cards":
        from card_envs.training.networks import CardsPolicy

        policy = CardsPolicy
    clip_vf = getattr(args, "clip_range_vf", 0.0)
    return AnchoredMaskablePPO(
        policy,
        vec_env,
        anchor_coef=getattr(args, "anchor_coef", 0.0),
        anchor_decay_steps=getattr(args, "anchor_decay_steps", 0),
        critic_warmup_steps=getattr(args, "critic_warmup_steps", 0),
        clip_range_vf=clip_vf if clip_vf > 0 else None,
        learning_rate=args.learning_rate,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        max_grad_norm=args.max_grad_norm,
        policy_kwargs=policy_kwargs,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )


def set_logger(model, log_dir: Path) -> None:
    """Log SB3's metrics (and the trainer's ``eval/*``) as ``progress.csv`` and TensorBoard
    event files in ``log_dir`` (``tensorboard --logdir runs/``)."""
    from stable_baselines3.common.logger import configure

    model.set_logger(configure(str(log_dir), ["csv", "tensorboard"]))


def snapshot(model, name: str, deterministic: bool = False,
             seed: int | None = None) -> FrozenPolicy:
    """Freeze the current weights of a ``MaskablePPO`` ``model`` as a policy (self-play copy)."""
    return FrozenPolicy(model.policy, deterministic=deterministic, name=name, seed=seed)


def save_snapshot(model, league, run_dir: Path, timesteps: int, seed: int) -> str:
    """Save the learner as ``league/self_<timesteps>.zip`` in ``run_dir`` and add a frozen,
    sampling copy of it to the league's ``self`` pool; returns the file's path relative to
    ``run_dir``.

    The snapshot is an ordinary ``MaskablePPO`` zip (a policy spec) without the Adam moments:
    a snapshot is played, not trained on, and the moments are two thirds of the file (Rust
    Brawl: 1.9 MB instead of 5.7 MB; checkpoints keep them for ``--resume``). Loading one to
    train on starts a fresh Adam state."""
    from card_envs.training.checkpoints import save_model_atomic

    rel = f"league/self_{timesteps}.zip"
    optimizer = model.policy.optimizer
    moments = optimizer.state
    optimizer.state = collections.defaultdict(dict)  # saved as an empty state; restored below
    try:
        save_model_atomic(model, run_dir / rel, exclude=["env", "logger"])
    finally:
        optimizer.state = moments
    league.add("self", f"self_{timesteps}",
               snapshot(model, f"self_{timesteps}", deterministic=False, seed=seed))
    return rel


def restore_snapshots(league, snapshots: list[str], source: Path, run_dir: Path,
                      max_pool: int) -> None:
    """Put the resumed run's newest ``max_pool`` league snapshots (paths relative to its folder
    ``source``) back into the league, copying the files first when ``run_dir`` is a new folder."""
    if source.resolve() != run_dir.resolve():
        for rel in snapshots:
            if (source / rel).exists():
                shutil.copy2(source / rel, run_dir / rel)
    for rel in snapshots[-max_pool:]:
        league.add("self", Path(rel).stem, load_policy(run_dir / rel, deterministic=False))


def evaluate_model(model, game, heuristic, deals: int, seed: int, random_deals: int | None = None,
                   lookahead: int = 0, progress: str | bool = False) -> dict[str, MatchResult]:
    """The current policy alone (deterministic, masked) on duplicate deals: each deal played
    once with the policy in every seat (:func:`card_envs.evaluation.match.play_match` with
    ``paired=True``: ``deals × num_players`` games), against the heuristic (key
    ``"heuristic"``, ``deals`` deals from ``seed``) and against random (key ``"random"``,
    ``random_deals`` deals, default ``deals``). The same ``seed`` deals the same cards, so two
    evaluations differ by the policy only.

    With ``lookahead > 0`` and a game that has a ``lookahead_horizon`` hook, the same deals are
    played again by the policy improved with that many determinized rollouts per decision
    (keys ``"lookahead/random"``, ``"lookahead/heuristic"``).

    ``progress``: a label (e.g. ``"final evaluation"``) shows a bar on stderr over all its games
    (games per second and time left; it disappears when done); ``False`` / ``""``: none."""
    from card_envs.bots.lookahead import LookaheadPolicy
    from card_envs.evaluation.runner import progress_bar

    me = snapshot(model, "learner", deterministic=True)
    agents: dict[str, Any] = {"": me}
    if lookahead > 0 and game.facts.provides_lookahead_horizon:
        agents["lookahead/"] = LookaheadPolicy(me, samples=lookahead, seed=seed)
    n = game.num_players
    random_deals = deals if random_deals is None else random_deals
    total = len(agents) * (random_deals + (deals if heuristic is not None else 0)) * n
    out = {}
    with progress_bar(total, str(progress), enabled=bool(progress), leave=False) as bar:
        def tick(_seat, _outcome):
            bar.update(1)

        for prefix, agent in agents.items():
            out[prefix + "random"] = play_match(game, agent, RandomBot(seed), random_deals * n,
                                                seed=seed, paired=True, on_game=tick)
            if heuristic is not None:
                out[prefix + "heuristic"] = play_match(game, agent, heuristic, deals * n,
                                                       seed=seed + 1, paired=True, on_game=tick)
    return out


def heuristic_or_none(game_spec: str, without: str = "training and evaluating without it"):
    """The game's heuristic bot, or ``None`` with a one-line warning on stderr (naming what the
    trainer then does ``without`` it) for a game that has none."""
    import sys

    from card_envs.bots.loading import resolve_heuristic
    from card_envs.core.errors import ConfigError

    try:
        return resolve_heuristic(game_spec)
    except (ConfigError, ImportError) as exc:
        print(f"[card-envs] warning: no heuristic bot for {game_spec!r} ({exc}); {without}",
              file=sys.stderr, flush=True)
        return None
