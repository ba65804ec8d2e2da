"""A (frozen) MaskablePPO model as a policy of the suite.

:class:`FrozenPolicy` plays with a copy of a ``MaskablePPO`` model's actor network taken when it
was made (``FrozenPolicy(model.policy)``, or :func:`card_envs.training.model.snapshot` while
training) or loaded from a ``.zip`` (:func:`load_policy`); later training does not change it. It
is a policy (``act(game, state, player) -> int``, see :mod:`card_envs.bots.base`), an
``(observation, action_mask) -> action`` callable, and it offers SB3's
``predict(obs, action_masks=mask, deterministic=...)``.

Speed: for the standard MLP actor (``Flatten`` features, ``Linear`` + ``Tanh``/``ReLU`` layers,
linear action head) the weights are copied into numpy and the forward pass runs without torch;
any other architecture falls back to the torch policy. Both give the same actions
(``tests/test_bots_sb3.py``). The batched numpy pass runs with one BLAS thread
(``threadpoolctl``): these matrices are small, and BLAS threads competing with other processes
on a busy machine slow batched passes down (``docs/training.md``).

torch, SB3 and sb3-contrib are imported inside the functions that need them: importing this module
costs numpy only.
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np

from card_envs.core.errors import ConfigError

_ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}
_BLAS = None


def _one_blas_thread():
    """Context manager limiting numpy's BLAS to one thread (a cached threadpoolctl controller)."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _numpy_actor(policy):
    """``[(W, b, activation or None), ...]`` of ``policy``'s actor, or ``None`` if it is not the
    plain MLP this module can run in numpy."""
    import torch.nn as nn
    from stable_baselines3.common.torch_layers import FlattenExtractor

    extractor = getattr(policy, "pi_features_extractor", policy.features_extractor)
    if not (isinstance(extractor, FlattenExtractor) or _reads_own_observation_only(policy)):
        return None
    layers = []
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append(
                [
                    module.weight.detach().cpu().numpy().T.astype(np.float32).copy(),
                    module.bias.detach().cpu().numpy().astype(np.float32).copy(),
                    None,
                ]
            )
        elif type(module).__name__ in _ACTIVATIONS and layers and layers[-1][2] is None:
            layers[-1][2] = _ACTIVATIONS[type(module).__name__]
        else:
            return None
    head = policy.action_net
    if not isinstance(head, nn.Linear):
        return None
    layers.append(
        [
            head.weight.detach().cpu().numpy().T.astype(np.float32).copy(),
            head.bias.detach().cpu().numpy().astype(np.float32).copy(),
            None,
        ]
    )
    return [tuple(layer) for layer in layers]


def _reads_own_observation_only(policy) -> bool:
    """True for a policy on ``{"observation", "privileged"}`` dicts whose actor reads the
    ``"observation"`` key alone (:class:`card_envs.training.networks.PrivilegedCriticPolicy`)."""
    extractor = getattr(policy, "pi_features_extractor", None)
    return getattr(extractor, "keys", None) == ("observation",)


def _actor_observation_space(policy):
    """The space of what the actor reads: the ``"observation"`` entry of a privileged-critic
    policy's ``Dict`` space, else the policy's observation space."""
    if _reads_own_observation_only(policy):
        return policy.observation_space["observation"]
    return policy.observation_space


class FrozenPolicy:
    """A frozen copy of a MaskablePPO actor.

    Args:
        policy: an sb3-contrib ``MaskableActorCriticPolicy`` (copied; the original may keep
            training).
        deterministic: default for :meth:`act`/``__call__``: argmax of the masked logits (True) or
            a sample from the masked distribution (False, the usual choice for self-play
            opponents).
        name: shown in reports.
        seed: seed of the sampling RNG.
    """

    def __init__(
        self, policy, deterministic: bool = True, name: str = "ppo", seed: int | None = None
    ):
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        # a privileged-critic policy's actor reads the seat's own observation only: that is
        # all this policy is ever given (game.observe), never the privileged part
        self._dict_actor = _reads_own_observation_only(policy)
        space = policy.observation_space
        if getattr(space, "shape", None) is None and not self._dict_actor:
            keys = list(getattr(space, "spaces", {}) or {})
            raise ConfigError(
                f"model {name!r}: its actor reads a {type(space).__name__} observation "
                f"({keys}); a model plays here when its actor reads the seat's own observation "
                "vector: an MlpPolicy, or card_envs.training.networks.PrivilegedCriticPolicy "
                "(whose actor reads only the 'observation' key)")
        self.observation_shape = tuple(_actor_observation_space(policy).shape)
        self.num_actions = int(policy.action_space.n)
        self._layers = _numpy_actor(policy)
        self._torch_policy = None
        if self._layers is None:
            self._torch_policy = copy.deepcopy(policy).to("cpu")
            self._torch_policy.set_training_mode(False)

    # -- core ----------------------------------------------------------------------------------
    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits, float32 ``(num_actions,)`` for one observation."""
        if self._layers is not None:  # one row: BLAS stays single-threaded anyway
            return self._mlp(np.asarray(obs, dtype=np.float32).reshape(-1))
        import torch

        with torch.no_grad():
            t = torch.as_tensor(np.asarray(obs, dtype=np.float32)[None])
            dist = self._torch_policy.get_distribution(self._actor_input(t))
            return dist.distribution.logits[0].numpy()

    def _actor_input(self, t):
        return {"observation": t} if self._dict_actor else t

    def _mlp(self, x: np.ndarray) -> np.ndarray:
        """The numpy actor on one row ``(obs_dim,)`` or a batch ``(N, obs_dim)``."""
        for w, b, act in self._layers:
            x = x @ w + b
            if act is not None:
                x = act(x)
        return x

    def logits_batch(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits, float32 ``(N, num_actions)`` for observations ``(N, ...)``."""
        x = np.asarray(obs, dtype=np.float32).reshape(len(obs), -1)
        if self._layers is not None:
            with _one_blas_thread():
                return self._mlp(x)
        import torch

        with torch.no_grad():
            dist = self._torch_policy.get_distribution(self._actor_input(torch.as_tensor(x)))
            return dist.distribution.logits.numpy()

    def act_batch(self, game, states: list, players: list[int]) -> list[int]:
        """:meth:`act` for many (state, seat) pairs in one batched forward pass (used by
        :class:`card_envs.bots.lookahead.LookaheadPolicy` rollouts)."""
        if not states:
            return []
        self._check_game(game)
        obs = np.stack([game.observe(s, p) for s, p in zip(states, players)])
        masks = np.stack([game.legal_action_mask(s) for s in states]).astype(bool)
        logits = np.where(masks, self.logits_batch(obs).astype(np.float64), -np.inf)
        if self.deterministic:
            return [int(a) for a in np.argmax(logits, axis=1)]
        out = []
        for row in logits:
            z = np.exp(row - row.max())
            out.append(int(self.rng.choice(len(z), p=z / z.sum())))
        return out

    def choose(self, obs: np.ndarray, mask: np.ndarray, deterministic: bool | None = None) -> int:
        """One legal action for ``obs`` under ``mask`` (int8/bool ``(num_actions,)``).

        Raises:
            ValueError: the mask is all zeros.
        """
        det = self.deterministic if deterministic is None else deterministic
        mask = np.asarray(mask).astype(bool)
        if not mask.any():
            raise ValueError("FrozenPolicy.choose: the action mask is all zeros")
        logits = np.where(mask, self.logits(obs).astype(np.float64), -np.inf)
        if det:
            return int(np.argmax(logits))
        z = np.exp(logits - logits.max())
        z /= z.sum()
        return int(self.rng.choice(len(z), p=z))

    # -- the suite's interfaces ----------------------------------------------------------------
    def act(self, game, state, player: int) -> int:
        """Raises ConfigError when the model was trained on another game or config (the
        observation or action sizes differ)."""
        self._check_game(game)
        return self.choose(game.observe(state, player), game.legal_action_mask(state))

    def _check_game(self, game) -> None:
        if (tuple(game.observation_shape) != self.observation_shape
                or game.num_actions != self.num_actions):
            raise ConfigError(
                f"model {self.name!r} takes observations {self.observation_shape} and "
                f"{self.num_actions} actions, but {game.name} gives {tuple(game.observation_shape)} "
                f"and {game.num_actions}: it was trained on another game or config (pass that "
                "game and --game-config)")

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.choose(observation, action_mask)

    def predict(self, observation, state=None, episode_start=None, deterministic: bool = False,
                action_masks=None):
        """SB3-style ``predict`` for one observation or a batch; returns ``(actions, None)``."""
        obs = np.asarray(observation, dtype=np.float32)
        batched = obs.ndim > 1
        obs_b = obs if batched else obs[None]
        if action_masks is None:
            masks = np.ones((len(obs_b), self._num_actions(obs_b[0])), dtype=bool)
        else:
            masks = np.asarray(action_masks).reshape(len(obs_b), -1)
        acts = np.array([self.choose(o, m, deterministic) for o, m in zip(obs_b, masks)])
        return (acts if batched else acts[0]), None

    def _num_actions(self, obs) -> int:
        return len(self.logits(obs))

    def __repr__(self) -> str:
        return f"FrozenPolicy({self.name!r}, deterministic={self.deterministic})"


def load_model(path: str | Path, env=None):
    """``MaskablePPO.load(path)`` on the CPU (``env`` optional, needed to continue training).

    Raises:
        FileNotFoundError: no file at ``path``; ConfigError: the file is not a zip archive.
    """
    from sb3_contrib import MaskablePPO

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no model file {str(path)!r}")
    import zipfile

    if not zipfile.is_zipfile(path):
        raise ConfigError(f"{str(path)!r} is not a saved MaskablePPO model (not a .zip archive)")
    return MaskablePPO.load(str(path), env=env, device="cpu")


def load_policy(
    path: str | Path, deterministic: bool = True, name: str | None = None
) -> FrozenPolicy:
    """A :class:`FrozenPolicy` from a saved ``MaskablePPO`` ``.zip`` (deterministic by default, as
    evaluation wants)."""
    model = load_model(path)
    return FrozenPolicy(model.policy, deterministic=deterministic, name=name or Path(path).stem)
