"""A trained RLlib module (a checkpoint of :mod:`card_envs.training.rllib_ppo`) as a policy of
the suite: the policy spec ``rllib:PATH`` (or a ``PATH`` folder that is such a checkpoint or
holds one) in :func:`card_envs.bots.specs.resolve_policy`, like a MaskablePPO ``.zip``.

``PATH`` may be: an algorithm checkpoint (``Algorithm.save_to_path``: it holds
``rllib_checkpoint.json`` and ``learner_group/``), a run folder of the trainer (its
``checkpoint/``), or one module's folder (``.../learner_group/learner/rl_module/main``). The
module played is ``main`` (the trainer's shared self-play module) unless ``rllib:PATH#MODULE``
names another (e.g. a frozen snapshot ``main_v3``).

The module is loaded with RLlib's ``RLModule.from_checkpoint`` (which imports the module class
the checkpoint names, :class:`card_envs.wrappers.rllib.ActionMaskingTorchRLModule`); it sees only
the deciding seat's observation and legal-action mask, as in training. torch and ray are imported
only when a checkpoint is loaded (the ``rllib`` extra).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from card_envs.core.errors import ConfigError
from card_envs.core.extras import (
    EXTRAS,
    MissingExtraError,
    missing_extra_message,
    missing_modules,
)

#: how torch is installed before the ``rllib`` extra (else pip lets ray pull another torch)
TORCH_INSTALL = "pip install torch==2.13.0"


def require_rllib(what: str) -> None:
    """Raise :class:`~card_envs.core.extras.MissingExtraError` (the one-line install hint) unless
    the ``rllib`` extra's modules (ray, torch) are installed; checked without importing them.

    With torch missing the hint says torch comes first: ``<what> needs torch and the "rllib"
    extra: pip install torch==2.13.0 first, then pip install "card-envs[rllib]" (not installed:
    ray, torch)``; otherwise it is :func:`card_envs.core.extras.missing_extra_message`'s.
    """
    missing = missing_modules(EXTRAS["rllib"])
    if not missing:
        return
    if "torch" in missing:
        raise MissingExtraError(
            f'{what} needs torch and the "rllib" extra: {TORCH_INSTALL} first, then '
            f'pip install "card-envs[rllib]" (not installed: {", ".join(missing)})',
            name=missing[0])
    raise MissingExtraError(missing_extra_message("rllib", what, missing), name=missing[0])

#: the policy-spec prefix of an RLlib checkpoint
PREFIX = "rllib:"
#: the trainer's shared module
DEFAULT_MODULE = "main"
#: where an algorithm checkpoint keeps its modules
MODULES_DIR = Path("learner_group", "learner", "rl_module")


def is_algorithm_checkpoint(path: Path) -> bool:
    """Whether folder ``path`` is an RLlib algorithm checkpoint (``rllib_checkpoint.json`` and
    ``learner_group/``)."""
    return (path / "rllib_checkpoint.json").is_file() and (path / "learner_group").is_dir()


def looks_like_rllib(path: str | Path) -> bool:
    """Whether ``path`` is a folder holding an RLlib checkpoint (itself, or ``checkpoint/`` of a
    run folder) — what makes a bare folder spec an RLlib policy."""
    path = Path(path)
    return path.is_dir() and (is_algorithm_checkpoint(path) or
                              is_algorithm_checkpoint(path / "checkpoint"))


def module_dir(path: str | Path, module_id: str = DEFAULT_MODULE) -> Path:
    """The folder of module ``module_id`` in checkpoint ``path`` (see the module docstring).

    Raises:
        ConfigError: naming the path: no such folder, not an RLlib checkpoint, or no such module
            (the modules it has are listed).
    """
    path = Path(path)
    what = f"{str(path)!r} is not an RLlib checkpoint"
    if not path.exists():
        raise ConfigError(f"{what}: no such folder")
    if not path.is_dir():
        raise ConfigError(f"{what}: it is a file (give the checkpoint folder)")
    if (path / "module_state.pkl").is_file() or (path / "module_state.pt").is_file():
        return path
    ckpt = path if is_algorithm_checkpoint(path) else path / "checkpoint"
    if not is_algorithm_checkpoint(ckpt):
        raise ConfigError(f"{what} (no rllib_checkpoint.json and learner_group/ in it or in its "
                          "checkpoint/)")
    modules = ckpt / MODULES_DIR
    have = sorted(p.name for p in modules.iterdir() if p.is_dir()) if modules.is_dir() else []
    if module_id not in have:
        raise ConfigError(f"RLlib checkpoint {str(ckpt)!r} has no module {module_id!r}; it has "
                          f"{have}")
    return modules / module_id


def split_spec(spec: str) -> tuple[str, str]:
    """``"rllib:PATH#MODULE"`` (or ``PATH``) -> ``(PATH, MODULE)`` (default ``main``)."""
    body = spec.removeprefix(PREFIX)
    path, _, module = body.partition("#")
    if not path:
        raise ConfigError(f"policy {spec!r}: 'rllib:' needs a checkpoint folder, e.g. "
                          "'rllib:runs/garda3-rllib-20260101-120000/checkpoint'")
    return path, module or DEFAULT_MODULE


class RLlibPolicy:
    """A policy (``act(game, state, player) -> int``) playing an RLlib action-masking module.

    Args:
        module: an RLModule taking ``{"obs": {"observations": float32 (B, obs_dim),
            "action_mask": float32 (B, num_actions)}}`` and returning ``action_dist_inputs``
            (masked logits), such as :class:`card_envs.wrappers.rllib.ActionMaskingTorchRLModule`.
        deterministic: argmax of the masked logits (True, the evaluation default) or a sample.
        name: shown in reports.
        seed: seed of the sampling RNG.
    """

    def __init__(self, module, deterministic: bool = True, name: str = "rllib",
                 seed: int | None = None):
        self.module = module
        self.deterministic = deterministic
        self.name = name
        self.rng = np.random.default_rng(seed)
        space = getattr(module, "observation_space", None)
        inner = space["observations"] if space is not None and "observations" in getattr(
            space, "spaces", {}) else None
        self.observation_shape = tuple(inner.shape) if inner is not None else None
        self.num_actions = int(module.action_space.n)

    def reseed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def logits(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The module's masked logits, float64 ``(num_actions,)`` (masked-out: ``-inf``)."""
        return self.logits_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0]

    def logits_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Masked logits, float64 ``(N, num_actions)``, for observations ``(N, obs_dim)`` and
        masks ``(N, num_actions)`` in one forward pass."""
        import torch

        n = len(observations)
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32).reshape(n, -1))
        mask = np.asarray(action_masks).reshape(n, -1).astype(np.float32)
        with torch.inference_mode():
            out = self.module.forward_inference(
                {"obs": {"observations": obs, "action_mask": torch.as_tensor(mask)}})
        logits = out["action_dist_inputs"].numpy().astype(np.float64)
        return np.where(mask > 0.5, logits, -np.inf)

    def act_batch(self, game, states: list, players: list[int]) -> list[int]:
        """:meth:`act` for many (state, seat) pairs in one forward pass (the lookahead's
        rollouts: :class:`card_envs.bots.lookahead.LookaheadPolicy`)."""
        if not states:
            return []
        self._check_game(game)
        obs = np.stack([game.observe(s, p) for s, p in zip(states, players)])
        masks = np.stack([game.legal_action_mask(s) for s in states])
        logits = self.logits_batch(obs, masks)
        if self.deterministic:
            return [int(a) for a in np.argmax(logits, axis=1)]
        out = []
        for row in logits:
            z = np.exp(row - row.max())
            out.append(int(self.rng.choice(len(z), p=z / z.sum())))
        return out

    def choose(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """One legal action (``action_mask`` int8/bool/float ``(num_actions,)``).

        Raises:
            ValueError: the mask is all zeros.
        """
        if not np.asarray(action_mask).any():
            raise ValueError("RLlibPolicy.choose: the action mask is all zeros")
        logits = self.logits(observation, action_mask)
        if self.deterministic:
            return int(np.argmax(logits))
        z = np.exp(logits - logits.max())
        return int(self.rng.choice(len(z), p=z / z.sum()))

    def act(self, game, state, player: int) -> int:
        """Raises ConfigError when the module was trained on another game or config."""
        self._check_game(game)
        return self.choose(game.observe(state, player), game.legal_action_mask(state))

    def _check_game(self, game) -> None:
        if (self.observation_shape is not None
                and tuple(game.observation_shape) != self.observation_shape) or \
                game.num_actions != self.num_actions:
            raise ConfigError(
                f"RLlib module {self.name!r} takes observations {self.observation_shape} and "
                f"{self.num_actions} actions, but {game.name} gives "
                f"{tuple(game.observation_shape)} and {game.num_actions}: it was trained on "
                "another game or config (pass that game and --game-config)")

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.choose(observation, action_mask)

    def __repr__(self) -> str:
        return f"RLlibPolicy({self.name!r}, deterministic={self.deterministic})"


def load_rllib_policy(spec: str, deterministic: bool = True, name: str | None = None,
                      seed: int | None = None) -> RLlibPolicy:
    """An :class:`RLlibPolicy` from ``rllib:PATH[#MODULE]`` or a checkpoint folder ``PATH``.

    Raises:
        ConfigError: naming the path: not a checkpoint or no such module (:func:`module_dir`),
            the ``rllib`` extra missing (the install hint), or a module RLlib cannot load.
    """
    path, module_id = split_spec(spec)
    folder = module_dir(path, module_id)
    try:
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ModuleNotFoundError as exc:
        raise ConfigError(f"policy {spec!r}: loading an RLlib checkpoint needs the 'rllib' extra "
                          f"(pip install \"card-envs[rllib]\"); not installed: {exc.name}") from None
    try:
        module = RLModule.from_checkpoint(str(folder.resolve()))
    except Exception as exc:  # noqa: BLE001 - RLlib/pickle raise anything for a damaged folder
        text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
        raise ConfigError(f"{str(folder)!r} is not a loadable RLlib module: "
                          f"{type(exc).__name__}: {text}") from None
    if hasattr(module, "eval"):
        module.eval()
    return RLlibPolicy(module, deterministic=deterministic, name=name or spec, seed=seed)
