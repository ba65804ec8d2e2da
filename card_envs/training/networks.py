"""The trainer's policy networks beyond SB3's plain MLP.

:class:`PrivilegedCriticPolicy` — a MaskablePPO actor-critic whose **critic** reads the learner's
observation *and* the privileged part of a ``SingleAgentEnv(privileged=True)`` observation (what
every other seat sees: ``game.observe_privileged``), while the **actor** reads the learner's own
observation only (perfect-training-imperfect-execution, as in PerfectDou; a centralised value as
in MAPPO). The value then does not have to guess the hidden hands, so the advantages PPO learns
from carry less of the deal's luck; the policy that acts is an ordinary imperfect-information
policy: :class:`card_envs.bots.sb3.FrozenPolicy` plays it from ``game.observe`` alone (its actor
reads the ``"observation"`` key only, tested), so ``card-envs evaluate`` and the tournaments
never hand it privileged data.

torch and SB3 are imported at module level: importing this module needs the ``train`` extra.
"""

from __future__ import annotations

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor

#: the observation keys the actor reads and the ones the critic reads
ACTOR_KEYS = ("observation",)
CRITIC_KEYS = ("observation", "privileged")


class KeysExtractor(BaseFeaturesExtractor):
    """Features: the named keys of a ``Dict`` observation, flattened and concatenated in order.

    Args:
        observation_space: a ``gymnasium.spaces.Dict`` holding every key of ``keys``.
        keys: the keys to read (default :data:`ACTOR_KEYS`).

    Raises:
        ValueError: the space is not a ``Dict`` or lacks one of the keys (named).
    """

    def __init__(self, observation_space: spaces.Space, keys: tuple[str, ...] = ACTOR_KEYS):
        if not isinstance(observation_space, spaces.Dict):
            raise ValueError(f"KeysExtractor needs a Dict observation space, got "
                             f"{type(observation_space).__name__} (use "
                             "SingleAgentEnv(privileged=True))")
        missing = [k for k in keys if k not in observation_space.spaces]
        if missing:
            raise ValueError(f"KeysExtractor: the observation space has no key(s) {missing}; it "
                             f"has {list(observation_space.spaces)}")
        dim = sum(int(np.prod(observation_space[k].shape)) for k in keys)
        super().__init__(observation_space, features_dim=dim)
        self.keys = tuple(keys)

    def forward(self, observations: dict[str, th.Tensor]) -> th.Tensor:
        return th.cat([th.flatten(observations[k], start_dim=1) for k in self.keys], dim=1)


class _SplitMlp(th.nn.Module):
    """SB3's ``MlpExtractor`` with an actor and a critic of different input sizes."""

    def __init__(self, pi_dim: int, vf_dim: int, net_arch, activation_fn):
        super().__init__()
        actor = MlpExtractor(pi_dim, net_arch, activation_fn)
        critic = MlpExtractor(vf_dim, net_arch, activation_fn)
        self.policy_net = actor.policy_net
        self.value_net = critic.value_net
        self.latent_dim_pi = actor.latent_dim_pi
        self.latent_dim_vf = critic.latent_dim_vf

    def forward(self, features):  # pragma: no cover - the policy never shares features
        pi, vf = features
        return self.forward_actor(pi), self.forward_critic(vf)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self.policy_net(features)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value_net(features)


class PrivilegedCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy for ``{"observation", "privileged"}`` observations: the actor MLP reads
    ``"observation"`` only (:data:`ACTOR_KEYS`), the critic MLP reads both (:data:`CRITIC_KEYS`).
    Same constructor as ``MaskableActorCriticPolicy`` (``net_arch``, ``activation_fn``...); the
    feature extractors are fixed (:class:`KeysExtractor`)."""

    def __init__(self, observation_space, action_space, lr_schedule, **kwargs):
        kwargs["features_extractor_class"] = KeysExtractor
        kwargs["features_extractor_kwargs"] = {"keys": ACTOR_KEYS}
        kwargs["share_features_extractor"] = False
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        # called by _build, after the (actor-keyed) extractors exist: the critic reads more
        self.vf_features_extractor = KeysExtractor(self.observation_space, CRITIC_KEYS)
        self.mlp_extractor = _SplitMlp(self.features_dim,
                                       self.vf_features_extractor.features_dim,
                                       self.net_arch, self.activation_fn)
