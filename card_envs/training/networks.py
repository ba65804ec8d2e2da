"""The trainer's policy networks beyond SB3's plain MLP.

:class:`CardsExtractor` — a card-aware features extractor over the per-entity view
(``observation_mode="entities"``, :mod:`card_envs.core.entities`): every zone's rows (the cards
in hand, on the table, in the discard pile...) go through one small MLP shared by the rows of
that zone, are pooled over the rows the mask marks (mean and max), and the pooled vectors of all
zones are concatenated with the ``globals`` vector; SB3's MLP heads (``net_arch``) then give the
policy and the value. The pooling makes the features independent of the order of the rows and
of how many are empty (a set network, as Deep Sets). Pooled features alone cannot tell which
hand slot holds which card, so :class:`CardsPolicy` adds a per-action head: each action's logit
also gets a score of the row(s) it names (``action_targets``: the card a play puts down, the
position an attack aims at) from one small MLP shared by every action, a pointer over the cards.
The trainer's ``--network cards`` uses :class:`CardsPolicy`
(:func:`card_envs.training.model.make_model`); such a model plays through
:class:`card_envs.bots.sb3.FrozenPolicy` from the seat's own entity view.

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

from functools import partial

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor

#: the observation keys the actor reads and the ones the critic reads
ACTOR_KEYS = ("observation",)
CRITIC_KEYS = ("observation", "privileged")


class CardsExtractor(BaseFeaturesExtractor):
    """Features of an entity view (module docstring): per zone a shared row MLP
    (``Linear(features, hidden)``, ReLU, ``Linear(hidden, row_dim)``, ReLU), the masked mean and
    the masked max of its rows (zeros for a zone with no row), concatenated with ``globals``:
    ``pooled_dim = globals + 2 · zones · row_dim``. With ``targets``, the encodings of the rows
    each action names (``action_targets``: ``num_actions × columns`` rows, zeros for ``-1``)
    follow, flattened: ``features_dim = pooled_dim + targets_dim``.

    Args:
        observation_space: the entity view's ``Dict`` space (per zone ``"<zone>"`` (rows,
            features) and ``"<zone>_mask"`` (rows,) in row-numbering order, ``"globals"``,
            ``"action_targets"``).
        row_dim: the width of a row's encoding (>= 1).
        hidden: the hidden width of the row MLP (>= 1).
        targets: also output the encodings of the rows each action names.

    Raises:
        ValueError: the space is not such a ``Dict`` (what is missing is named), or a width < 1.
    """

    def __init__(self, observation_space: spaces.Space, row_dim: int = 32, hidden: int = 64,
                 targets: bool = False):
        if not isinstance(observation_space, spaces.Dict) or "globals" not in \
                observation_space.spaces or "action_targets" not in observation_space.spaces:
            got = list(getattr(observation_space, "spaces", {}) or {}) or \
                type(observation_space).__name__
            raise ValueError(f"CardsExtractor needs the entity view's Dict space (zones, their "
                             f"masks, 'globals', 'action_targets'; observation_mode="
                             f"'entities'), got {got}")
        if row_dim < 1 or hidden < 1:
            raise ValueError(f"CardsExtractor: row_dim {row_dim} and hidden {hidden} must be >= 1")
        zones = [k for k in observation_space.spaces if k + "_mask" in observation_space.spaces]
        if not zones:
            raise ValueError("CardsExtractor: the space has no zone (a key with a '<key>_mask')")
        globals_dim = int(np.prod(observation_space["globals"].shape))
        self.pooled_dim = globals_dim + 2 * len(zones) * row_dim
        self.num_actions, self.columns = observation_space["action_targets"].shape
        self.targets_dim = self.num_actions * self.columns * row_dim if targets else 0
        super().__init__(observation_space, features_dim=self.pooled_dim + self.targets_dim)
        self.zones = tuple(zones)
        self.row_dim = row_dim
        self.targets = bool(targets)
        self.encoders = th.nn.ModuleDict({
            z: th.nn.Sequential(th.nn.Linear(observation_space[z].shape[-1], hidden),
                                th.nn.ReLU(), th.nn.Linear(hidden, row_dim), th.nn.ReLU())
            for z in zones})

    def forward(self, observations: dict[str, th.Tensor]) -> th.Tensor:
        out = [observations["globals"].flatten(start_dim=1)]
        encoded = []
        for z in self.zones:
            mask = observations[z + "_mask"].float().unsqueeze(-1)  # (batch, rows, 1)
            kept = self.encoders[z](observations[z]) * mask  # (batch, rows, row_dim), >= 0
            encoded.append(kept)
            out.append(kept.sum(dim=1) / mask.sum(dim=1).clamp(min=1.0))
            out.append(kept.max(dim=1).values)  # >= 0: an empty row (0) never adds anything
        if self.targets:  # the row each (action, column) names: gathered, zeros for -1
            rows = th.cat(encoded, dim=1)  # (batch, total rows, row_dim), rows numbered in order
            named = observations["action_targets"].long().flatten(start_dim=1)  # (batch, A·C)
            index = named.clamp(min=0).unsqueeze(-1).expand(-1, -1, self.row_dim)
            picked = th.gather(rows, 1, index) * (named >= 0).unsqueeze(-1).float()
            out.append(picked.flatten(start_dim=1))
        return th.cat(out, dim=1)


class _PointerMlp(th.nn.Module):
    """SB3's ``MlpExtractor`` on the pooled features; the actor's latent also carries the target
    rows' encodings (for :class:`_PointerHead`), the critic reads the pooled part only."""

    def __init__(self, pooled_dim: int, targets_dim: int, net_arch, activation_fn):
        super().__init__()
        mlp = MlpExtractor(pooled_dim, net_arch, activation_fn)
        self.policy_net, self.value_net = mlp.policy_net, mlp.value_net
        self.pooled_dim = pooled_dim
        self.latent_dim_h = mlp.latent_dim_pi
        self.latent_dim_pi = mlp.latent_dim_pi + targets_dim
        self.latent_dim_vf = mlp.latent_dim_vf

    def forward(self, features: th.Tensor):
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return th.cat([self.policy_net(features[:, :self.pooled_dim]),
                       features[:, self.pooled_dim:]], dim=1)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value_net(features[:, :self.pooled_dim])


class _PointerHead(th.nn.Module):
    """Action logits: a linear head on the actor's latent ``h`` plus, for every action, a score
    of the rows it names: ``MLP([target rows' encodings ; h])``, one MLP shared by all actions
    (a pointer over the cards)."""

    def __init__(self, latent_dim: int, num_actions: int, target_dim: int, hidden: int):
        super().__init__()
        self.latent_dim, self.num_actions, self.target_dim = latent_dim, num_actions, target_dim
        self.base = th.nn.Linear(latent_dim, num_actions)
        self.score = th.nn.Sequential(th.nn.Linear(target_dim + latent_dim, hidden), th.nn.Tanh(),
                                      th.nn.Linear(hidden, 1))

    def output_layers(self) -> list[th.nn.Linear]:
        """The linear layers whose outputs add up to the logits (scaling both scales them)."""
        return [self.base, self.score[-1]]

    def forward(self, latent: th.Tensor) -> th.Tensor:
        h = latent[:, :self.latent_dim]
        rows = latent[:, self.latent_dim:].reshape(len(latent), self.num_actions,
                                                   self.target_dim)
        both = th.cat([rows, h.unsqueeze(1).expand(-1, self.num_actions, -1)], dim=2)
        return self.base(h) + self.score(both).squeeze(-1)


class CardsPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy on the entity view: :class:`CardsExtractor` (with the target rows), the
    MLP heads of ``net_arch`` on the pooled features, and action logits that add to the linear
    head a score of the rows each action names (``action_targets``: the card a play puts down,
    the position an attack aims at), by one small MLP shared by all actions. The value reads the
    pooled features. Same constructor as ``MaskableActorCriticPolicy`` plus ``row_dim`` and
    ``hidden`` (the row encoder's widths, also the scoring MLP's hidden width)."""

    def __init__(self, observation_space, action_space, lr_schedule, row_dim: int = 32,
                 hidden: int = 64, **kwargs):
        kwargs["features_extractor_class"] = CardsExtractor
        kwargs["features_extractor_kwargs"] = {"row_dim": row_dim, "hidden": hidden,
                                               "targets": True}
        self.pointer_hidden = hidden
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        fx = self.features_extractor
        self.mlp_extractor = _PointerMlp(fx.pooled_dim, fx.targets_dim, self.net_arch,
                                         self.activation_fn)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        fx = self.features_extractor
        self.action_net = _PointerHead(self.mlp_extractor.latent_dim_h, fx.num_actions,
                                       fx.columns * fx.row_dim, self.pointer_hidden)
        if self.ortho_init:  # small first logits, as SB3's own action head
            self.action_net.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


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
