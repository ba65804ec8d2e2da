"""MaskablePPO self-play training, one concern a module:

- :mod:`~card_envs.training.ppo`: the main job (:func:`train`, :func:`main`), composing the parts
  below in order; ``training/ppo.py`` and ``card-envs train`` run it;
- :mod:`~card_envs.training.args`: :class:`Args` (the flags, parsed by tyro) and their checks;
- :mod:`~card_envs.training.league`: the self-play league of opponents (``League``);
- :mod:`~card_envs.training.imitation`: the behaviour-cloning warm start;
- :mod:`~card_envs.training.model`: the model and what it plays in — model factory, vectorised
  envs, logger, snapshots, seeding, the duplicate-deal evaluation of the current model;
- :mod:`~card_envs.training.anchored_ppo`: MaskablePPO with a KL anchor toward the cloned policy
  and a critic warm-up;
- :mod:`~card_envs.training.networks`: the privileged-critic policy (the critic sees the other
  seats' views in training, the actor never);
- :mod:`~card_envs.training.checkpoints`: checkpoints and the resume plan;
- :mod:`~card_envs.training.callback`: the SB3 callback (the clock and the progress bar);
- :mod:`~card_envs.training.summary`: curve points, the learning-curve plot, ``summary.json``,
  ``versions()``.

torch, SB3 and tyro are imported only where they are used, so importing this package is cheap.
"""

from card_envs.training.args import Args, parse_args


def __getattr__(name: str):
    # main and train load card_envs.training.ppo on first use, so `python -m
    # card_envs.training.ppo` runs a module not imported yet (no runpy warning)
    if name in ("main", "train"):
        from card_envs.training import ppo

        return getattr(ppo, name)
    raise AttributeError(f"module 'card_envs.training' has no attribute {name!r}")


__all__ = ["Args", "main", "parse_args", "train"]
