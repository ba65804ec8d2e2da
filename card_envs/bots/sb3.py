"""A (frozen) MaskablePPO model as a policy of the suite.

:class:`FrozenPolicy` plays with a copy of a ``MaskablePPO`` model's actor network taken when it
was made (``FrozenPolicy(model.policy)``, or :func:`card_envs.training.model.snapshot` while
training) or loaded from a ``.zip`` (:func:`load_policy`); later training does not change it. It
is a policy (``act(game, state, player) -> int``, see :mod:`card_envs.bots.base`), an
``(observation, action_mask) -> action`` callable, and it offers SB3's
``predict(obs, action_masks=mask, deterministic=...)``.

What a model reads decides what it is given (:attr:`FrozenPolicy.observation_mode`, from the
model's observation space): a ``Box`` model the seat's flat observation (``game.observe``), a
model of the named dict view (SB3's ``MultiInputPolicy``) ``game.observe_dict``, a model of the
entity view (``card_envs.training.networks.CardsExtractor``: a ``Dict`` with
``"action_targets"``) ``game.observe_entities`` — always the seat's own view, built from the game
and the state (:meth:`FrozenPolicy.observe`), never another seat's; a privileged-critic model's
actor reads the flat observation only.

Speed: for the standard MLP actor (``Flatten`` features, ``Linear`` + ``Tanh``/``ReLU`` layers,
linear action head) the weights are copied into numpy and the forward pass runs without torch;
any other architecture (the dict and entity views included) falls back to the torch policy.
Both give the same actions
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
from card_envs.core.observation_modes import observe_view, stack_views, view_shapes

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


def observation_mode_of(policy) -> str:
    """What ``policy``'s actor reads: ``"flat"`` (a ``Box``, or a privileged-critic policy's
    ``"observation"`` key), ``"entities"`` (a ``Dict`` holding ``"action_targets"``) or
    ``"dict"`` (another ``Dict``: the named pieces of the flat layout)."""
    if _reads_own_observation_only(policy):
        return "flat"
    space = policy.observation_space
    keys = getattr(space, "spaces", None)
    if not isinstance(keys, dict):
        return "flat"
    return "entities" if "action_targets" in keys else "dict"


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
        if "privileged" in (getattr(space, "spaces", None) or {}) and not self._dict_actor:
            keys = list(space.spaces)
            raise ConfigError(
                f"model {name!r}: its actor reads a {type(space).__name__} observation "
                f"({keys}); a model plays here when its actor reads the seat's own observation: "
                "an MlpPolicy, a MultiInputPolicy on the dict or entity view, or "
                "card_envs.training.networks.PrivilegedCriticPolicy (whose actor reads only "
                "the 'observation' key)")
        #: the view the model reads: "flat", "dict" or "entities" (observation_mode_of)
        self.observation_mode = observation_mode_of(policy)
        space = _actor_observation_space(policy)
        #: the observation's shape: a tuple (flat), else ``{key: shape}`` of the view
        self.observation_shape = (tuple(space.shape) if self.observation_mode == "flat" else
                                  {k: tuple(v.shape) for k, v in space.spaces.items()})
        self.num_actions = int(policy.action_space.n)
        self._layers = _numpy_actor(policy)
        self._torch_policy = None
        if self._layers is None:
            # the last forward's distribution (tensors of a graph) is not copied
            last = getattr(getattr(policy, "action_dist", None), "distribution", None)
            memo = {} if last is None else {id(last): None}
            self._torch_policy = copy.deepcopy(policy, memo).to("cpu")
            self._torch_policy.set_training_mode(False)

    # -- core ----------------------------------------------------------------------------------
    def observe(self, game, state, player: int):
        """Seat ``player``'s own observation of ``state`` in the view the model reads
        (:attr:`observation_mode`)."""
        return observe_view(game, state, player, self.observation_mode)

    def logits(self, obs) -> np.ndarray:
        """Unmasked action logits, float32 ``(num_actions,)`` for one observation (an array, or
        a dict of arrays for the dict and entity views)."""
        if self._layers is not None:  # one row: BLAS stays single-threaded anyway
            return self._mlp(np.asarray(obs, dtype=np.float32).reshape(-1))
        import torch

        with torch.no_grad():
            if isinstance(obs, dict):
                t = {k: torch.as_tensor(np.asarray(v)[None]) for k, v in obs.items()}
            else:
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

    def logits_batch(self, obs) -> np.ndarray:
        """Unmasked action logits, float32 ``(N, num_actions)`` for observations ``(N, ...)``
        (for the dict and entity views: a dict of such arrays, or a list of N dicts)."""
        import torch

        if isinstance(obs, list) and obs and isinstance(obs[0], dict):
            obs = stack_views(obs)
        if isinstance(obs, dict):
            with torch.no_grad():
                t = {k: torch.as_tensor(np.asarray(v)) for k, v in obs.items()}
                return self._torch_policy.get_distribution(t).distribution.logits.numpy()
        x = np.asarray(obs, dtype=np.float32).reshape(len(obs), -1)
        if self._layers is not None:
            with _one_blas_thread():
                return self._mlp(x)
        with torch.no_grad():
            dist = self._torch_policy.get_distribution(self._actor_input(torch.as_tensor(x)))
            return dist.distribution.logits.numpy()

    def act_batch(self, game, states: list, players: list[int]) -> list[int]:
        """:meth:`act` for many (state, seat) pairs in one batched forward pass (used by
        :class:`card_envs.bots.lookahead.LookaheadPolicy` rollouts)."""
        if not states:
            return []
        self._check_game(game)
        obs = stack_views([self.observe(game, s, p) for s, p in zip(states, players)])
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
        return self.choose(self.observe(game, state, player), game.legal_action_mask(state))

    def _check_game(self, game) -> None:
        message = fit_error(self, game)
        if message:
            raise ConfigError(f"model {self.name!r} {message}")

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.choose(observation, action_mask)

    def predict(self, observation, state=None, episode_start=None, deterministic: bool = False,
                action_masks=None):
        """SB3-style ``predict`` for one observation or a batch (an array, or for the dict
        and entity views a dict of arrays); returns ``(actions, None)``."""
        if isinstance(observation, dict):
            arrays = {k: np.asarray(v) for k, v in observation.items()}
            key = next(iter(self.observation_shape))
            batched = arrays[key].ndim > len(self.observation_shape[key])
            n = len(arrays[key]) if batched else 1
            rows = [{k: (v[i] if batched else v) for k, v in arrays.items()} for i in range(n)]
        else:
            obs = np.asarray(observation, dtype=np.float32)
            batched = obs.ndim > 1
            rows = list(obs if batched else obs[None])
        if action_masks is None:
            masks = np.ones((len(rows), self.num_actions), dtype=bool)
        else:
            masks = np.asarray(action_masks).reshape(len(rows), -1)
        acts = np.array([self.choose(o, m, deterministic) for o, m in zip(rows, masks)])
        return (acts if batched else acts[0]), None

    def __repr__(self) -> str:
        return f"FrozenPolicy({self.name!r}, deterministic={self.deterministic})"


def fit_error(policy, game) -> str | None:
    """Why ``policy`` (with ``observation_mode``, ``observation_shape`` and ``num_actions``, as
    :class:`FrozenPolicy`) cannot play ``game`` (its view's shapes or its action count differ:
    "takes ... but <game> gives ...: it was trained on another game or config"), or ``None``."""
    mode = getattr(policy, "observation_mode", "flat")
    shape = policy.observation_shape
    if mode == "entities" and game.entity_layout is None:
        expected = None
    else:
        expected = view_shapes(game, mode)
    if (expected != shape if mode == "flat" else dict(expected or {}) != dict(shape)) \
            or game.num_actions != policy.num_actions:
        def show(x):
            if x is None:
                return "no entity view"
            return str(tuple(x)) if mode == "flat" else f"a {mode} view of {len(x)} keys " \
                f"({sum(int(np.prod(s)) for s in x.values())} entries)"
        return (f"takes observations {show(shape)} and {policy.num_actions} actions, but "
                f"{game.name} gives {show(expected)} and {game.num_actions}: it was trained on "
                "another game or config (pass that game and --game-config)")
    return None


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
