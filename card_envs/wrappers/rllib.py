"""RLlib (new API stack) view of any game of the suite: a turn-based ``MultiAgentEnv`` and an
action-masking PPO ``RLModule`` (needs the ``rllib`` extra: ``pip install "card-envs[rllib]"``).

================  ================================================================================
env               :class:`CardEnvsMultiAgentEnv` (``config``: ``game``, a registry name such as
                  ``"garda3"``; ``game_config``, the game's config fields; ``opponents``,
                  ``{agent: policy spec}`` played *inside* the env by
                  :func:`card_envs.wrappers.opponents.with_opponents`; ``illegal_action``,
                  ``"terminate"`` (default) or ``"raise"``)
agents            ``player_0 … player_{n-1}`` (``possible_agents``); the seats the in-env opponents
                  play never appear to RLlib
observation       per agent ``Dict({"observations": Box(low, high, game.observation_shape,
                  float32), "action_mask": Box(0, 1, (num_actions,), float32)})``: the keys and
                  dtypes of RLlib's action-masking example module (``observations`` plural, a
                  float mask), so RLlib's own ``ActionMaskingTorchRLModule`` runs on it too
action            ``Discrete(num_actions)``: the game's action layout (the env module's docstring)
turns             one agent acts at a time: every ``reset``/``step`` returns the observation of the
                  one agent to act next (turn-based, like RLlib's TicTacToe example)
rewards           the game's rewards (zero-sum, at the end only): at the terminating step every
                  learning agent gets an observation, its reward (its return; what it gained in
                  the opponents' moves included), ``terminateds[agent]`` and
                  ``terminateds["__all__"]`` True (``truncateds`` at the game's step cap)
illegal actions   ``illegal_action="terminate"`` (default): an action the mask forbids ends
                  the game, the mover −1 and every other agent 0, all terminated (PettingZoo's
                  ``TerminateIllegalWrapper`` rule, with its warning; what RLlib meets in its
                  PettingZoo envs), so RLlib's default env check passes (it steps an unmasked
                  ``action_space.sample()``); ``"raise"``: it raises
                  :class:`~card_envs.core.errors.IllegalActionError` (a masking bug surfaces at
                  once; RLlib's env check then fails: build with
                  ``.environment(..., disable_env_checking=True)``, as :func:`ppo_config` does;
                  ``docs/libraries/rllib.md``)
seeding           ``reset(seed=s)`` reseeds the env's game sequence (and the in-env opponents);
                  equal seeds and equal actions give equal episodes
================  ================================================================================

:class:`ActionMaskingTorchRLModule` is RLlib's ``DefaultPPOTorchRLModule`` (its MLP encoder,
policy and value heads, its ``model_config`` keys such as ``fcnet_hiddens``) built on the
``observations`` part of the space, with every logit of a masked-out action set to
``FLOAT_MIN`` in inference, exploration and training, and values computed from ``observations``
alone. It follows the pattern of RLlib's example
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) but is ours because that class
lives in RLlib's examples (not an API: it broke in 2.35 and changed since), pops the keys out of
the batch it is given (the same batch then has no mask for a second forward pass), and needs
``compute_values`` to run before ``forward_train``; ours reads the batch without changing it.

Self-play and frozen snapshots are RLlib's policy mapping (``policy_mapping_fn``: which module
plays which agent in an episode): :func:`ppo_config` maps every agent to one shared module
``"main"``; :class:`LeagueMapping` (the trainer's, :mod:`card_envs.training.rllib_ppo`) maps one
random seat to ``"main"`` and the others to ``"main"`` or frozen copies of it, added as modules
while training; :class:`EnvOpponentsCallback` lets a bot play a random seat inside the env in
some episodes (:meth:`CardEnvsMultiAgentEnv.set_next_opponents`, before the env resets).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from card_envs.bots.rllib import require_rllib

# MissingExtraError (an ImportError): 'card_envs.wrappers.rllib needs the "rllib" extra:
# pip install "card-envs[rllib]" (not installed: ray)'; with torch missing, torch first
require_rllib("card_envs.wrappers.rllib")

import gymnasium as gym
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
    DefaultPPOTorchRLModule,
)
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN

from card_envs.core import registry
from card_envs.core.config import check_choice
from card_envs.core.errors import ConfigError
from card_envs.core.rng import check_reset_seed

#: the observation keys RLlib's action-masking module reads
OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"

#: the keys of the env's ``config`` (RLlib's ``env_config``)
CONFIG_KEYS = ("game", "game_config", "opponents", "illegal_action", "seed")


class CardEnvsMultiAgentEnv(MultiAgentEnv):
    """A game of the suite as a turn-based RLlib ``MultiAgentEnv`` (module docstring).

    Args:
        config: RLlib's ``env_config`` (a dict; ``EnvContext`` works): ``game`` (registry name,
            default ``"garda3"``), ``game_config`` (dict of the game's config fields),
            ``opponents`` (``{agent: policy spec}``, seats played inside the env, default none),
            ``illegal_action`` (``"terminate"`` default: a masked-out action ends the game, −1
            for the mover; ``"raise"``: it raises IllegalActionError — module docstring),
            ``seed`` (of the game sequence until a ``reset(seed=...)``).

    Raises:
        ConfigError: an unknown config key, an unknown game, a bad game config field, a bad
            opponent agent or policy spec (each named).
    """

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        config = dict(config or {})
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ConfigError(f"CardEnvsMultiAgentEnv config: unknown key(s) {unknown}; keys: "
                              f"{list(CONFIG_KEYS)}")
        self.game_name = config.get("game", "garda3")
        if not isinstance(self.game_name, str) or self.game_name not in registry.GAMES:
            raise ConfigError(f"CardEnvsMultiAgentEnv config 'game': {self.game_name!r} is not a "
                              f"registered game; known: {sorted(registry.GAMES)}")
        self.game_config = dict(config.get("game_config") or {})
        self.illegal_action = config.get("illegal_action", "terminate")
        check_choice("illegal_action", self.illegal_action, ["terminate", "raise"])
        self._rng = random.Random(config.get("seed"))
        base = self._build({})
        self.game = base.game
        self.possible_agents = list(base.possible_agents)
        self.agents: list[str] = []
        game = self.game
        space = gym.spaces.Dict({
            OBSERVATIONS: gym.spaces.Box(low=game.observation_low, high=game.observation_high,
                                         shape=tuple(game.observation_shape), dtype=np.float32),
            ACTION_MASK: gym.spaces.Box(0.0, 1.0, shape=(game.num_actions,), dtype=np.float32),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(game.num_actions)
                              for a in self.possible_agents}
        self._envs: dict[tuple, Any] = {(): base}
        self._default_opponents = dict(config.get("opponents") or {})
        self._next_opponents: dict[str, Any] | None = None
        self.opponents: dict[str, Any] = {}
        self.env = self._env_for(self._default_opponents)  # checks the specs now
        self._current: str | None = None

    # -- the AEC env behind it -----------------------------------------------------------------
    def _build(self, opponents: Mapping[str, Any]):
        env = registry.env_module(self.game_name).env(illegal_action=self.illegal_action,
                                                      **self.game_config)
        if opponents:
            from card_envs.wrappers.opponents import with_opponents

            env = with_opponents(env, dict(opponents))
        return env

    def _env_for(self, opponents: Mapping[str, Any]):
        key = tuple(sorted((agent, str(spec)) for agent, spec in opponents.items()))
        if key not in self._envs:
            self._envs[key] = self._build(opponents)
        return self._envs[key]

    def set_next_opponents(self, opponents: Mapping[str, Any] | None) -> None:
        """Seats played inside the env from the next ``reset`` on, for one episode
        (``{agent: policy spec}``; ``{}``: all seats learn; ``None``: the config's
        ``opponents``). The trainer's callback sets it per episode; the AEC env of each set is
        built once and kept."""
        self._next_opponents = None if opponents is None else dict(opponents)

    # -- MultiAgentEnv API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a game; returns ``({agent_to_act: observation}, {agent_to_act: {}})``.

        Raises:
            ConfigError: ``seed`` not None or an int >= 0."""
        seed = check_reset_seed(seed)
        if seed is not None:
            self._rng = random.Random(seed)
        opponents = self._default_opponents if self._next_opponents is None \
            else self._next_opponents
        self._next_opponents = None
        self.env = env = self._env_for(opponents)
        self.opponents = dict(opponents)
        env.reset(seed=self._rng.getrandbits(63), options=options)
        self.agents = list(env.possible_agents)
        self._pending = {a: 0.0 for a in self.agents}
        self._collect_rewards()
        if self._game_over():  # a loaded finished state
            obs, _, _, _, infos = self._final()
            return obs, infos
        self._current = env.agent_selection
        return {self._current: self._observe(self._current)}, {self._current: {}}

    def step(self, action_dict: Mapping[str, Any]):
        """Apply the acting agent's action; returns RLlib's five dicts (module docstring).

        Raises:
            ConfigError: ``action_dict`` has no action for the agent to act (named).
            IllegalActionError: an action outside the action space (always), or a masked-out
                one with ``illegal_action="raise"``.
        """
        agent = self._current
        if agent is None or agent not in action_dict:
            raise ConfigError(f"CardEnvsMultiAgentEnv.step: no action for {agent!r}, the agent "
                              f"to act (got actions for {sorted(action_dict)})")
        self.env.step(action_dict[agent])
        self._collect_rewards()
        if self._game_over():
            return self._final()
        self._current = nxt = self.env.agent_selection
        rewards = {agent: self._pending.pop(agent, 0.0)}
        self._pending[agent] = 0.0
        return ({nxt: self._observe(nxt)}, rewards, {"__all__": False}, {"__all__": False},
                {nxt: {}})

    def render(self):
        return self.env.render()

    # -- internals -----------------------------------------------------------------------------
    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        raw = self.env.observe(agent)
        return {OBSERVATIONS: np.asarray(raw["observation"], dtype=np.float32),
                ACTION_MASK: raw["action_mask"].astype(np.float32)}

    def _collect_rewards(self) -> None:
        for a, r in self.env.rewards.items():
            if a in self._pending:
                self._pending[a] += float(r)

    def _game_over(self) -> bool:
        env = self.env
        return not env.agents or all(env.terminations[a] or env.truncations[a]
                                     for a in env.agents)

    def _final(self):
        env = self.env
        terminated = {a: bool(env.terminations.get(a, True)) for a in self.agents}
        truncated = {a: bool(env.truncations.get(a, False)) and not terminated[a]
                     for a in self.agents}
        obs = {a: self._observe(a) for a in self.agents}
        rewards = dict(self._pending)
        self._pending = {a: 0.0 for a in self.agents}
        self._current = None
        return (obs, rewards, {**terminated, "__all__": all(terminated.values())},
                {**truncated, "__all__": any(truncated.values())}, {a: {} for a in self.agents})


def _split(batch: dict) -> tuple[Any, dict]:
    """``(action_mask, batch with Columns.OBS = the observations)``, ``batch`` unchanged."""
    obs = batch[Columns.OBS]
    if isinstance(obs, Mapping):
        if ACTION_MASK not in obs or OBSERVATIONS not in obs:
            raise ValueError(f"ActionMaskingTorchRLModule: the observation must hold "
                             f"{OBSERVATIONS!r} and {ACTION_MASK!r}, it holds {sorted(obs)}")
        return obs[ACTION_MASK], {**batch, Columns.OBS: obs[OBSERVATIONS]}
    if ACTION_MASK in batch:
        return batch[ACTION_MASK], batch
    raise ValueError("ActionMaskingTorchRLModule: no action mask in the batch (the observation "
                     f"must be a dict of {OBSERVATIONS!r} and {ACTION_MASK!r})")


class ActionMaskingTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch module with action masking (module docstring).

    Takes the ``Dict`` space of :class:`CardEnvsMultiAgentEnv` (``observations`` float32
    ``(obs_dim,)``, ``action_mask`` float32 ``(num_actions,)``, 1 = legal); the networks see
    ``observations`` only. Output ``action_dist_inputs``: logits ``(B, num_actions)``, masked-out
    actions at ``FLOAT_MIN`` (their probability underflows to 0).

    Raises:
        ValueError: the observation space is not such a ``Dict``.
    """

    def __init__(self, *, observation_space=None, **kwargs):
        if not isinstance(observation_space, gym.spaces.Dict) or \
                set(observation_space.spaces) != {OBSERVATIONS, ACTION_MASK}:
            raise ValueError(f"ActionMaskingTorchRLModule needs a Dict observation space of "
                             f"{OBSERVATIONS!r} and {ACTION_MASK!r}, got {observation_space}")
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBSERVATIONS], **kwargs)

    def setup(self):
        super().setup()  # networks for the observations' Box
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch, **kwargs):
        mask, inner = _split(batch)
        return _masked(super()._forward_inference(inner, **kwargs), mask)

    def _forward_exploration(self, batch, **kwargs):
        mask, inner = _split(batch)
        return _masked(super()._forward_exploration(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, inner = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        _, inner = _split(batch)
        return super().compute_values(inner, embeddings)


def _masked(out: dict, mask) -> dict:
    import torch

    logits = out[Columns.ACTION_DIST_INPUTS]
    out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0.5, logits,
                                                  torch.full_like(logits, FLOAT_MIN))
    return out


#: the shared module every seat plays in self-play
MAIN = "main"


def all_main(agent_id, episode, **kwargs) -> str:
    """Policy mapping of plain self-play: every agent plays the shared module ``"main"``."""
    return MAIN


def _episode_rng(episode, salt: str) -> random.Random:
    """A generator fixed by the episode's id (so every call for one episode agrees)."""
    return random.Random(zlib.crc32(f"{episode.id_}/{salt}".encode()))


class LeagueMapping:
    """RLlib's policy mapping of the league: ``mapping(agent_id, episode) -> module id``.

    Per episode (the plan is kept in ``episode.custom_data["modules"]``): the seats played inside
    the env (``episode.custom_data["in_env"]``, set by :class:`EnvOpponentsCallback`) never reach
    RLlib; of the others a random one is ``main``, each other one ``main`` with probability
    ``self_play_rate``, else a uniformly drawn snapshot of ``snapshots`` (``main`` if none).
    """

    def __init__(self, agents: list[str], snapshots: list[str], self_play_rate: float):
        self.agents = list(agents)
        self.snapshots = list(snapshots)
        self.self_play_rate = self_play_rate

    def __call__(self, agent_id, episode, **kwargs) -> str:
        data = getattr(episode, "_custom_data", None)
        if data is None:  # RLlib's episode.cut() asks before the episode has its data (and
            return MAIN   # then keeps the module ids it already had)
        plan = data.get("modules")
        if plan is None:
            in_env = data.get("in_env", {})
            learners = [a for a in self.agents if a not in in_env]
            rng = _episode_rng(episode, "modules")
            main_agent = rng.choice(learners)
            plan = {}
            for a in learners:
                if a == main_agent or not self.snapshots or rng.random() < self.self_play_rate:
                    plan[a] = MAIN
                else:
                    plan[a] = rng.choice(self.snapshots)
            data["modules"] = plan
        return plan.get(agent_id, MAIN)


def opponent_kind(episode) -> str:
    """What ``main`` met in an episode: the in-env opponent's spec, ``snapshot`` or ``self``."""
    in_env = episode.custom_data.get("in_env") or {}
    if in_env:
        return "/".join(sorted(str(s) for s in in_env.values()))
    modules = set((episode.custom_data.get("modules") or {}).values())
    return "snapshot" if modules - {MAIN} else "self"


class EnvOpponentsCallback(RLlibCallback):
    """Per episode (``on_episode_created``, before the env resets for it): with probability
    ``rate`` one random seat is played inside the env by policy ``spec``
    (:meth:`~card_envs.wrappers.rllib.CardEnvsMultiAgentEnv.set_next_opponents`); at the end
    ``main``'s result is logged as ``win_rate_vs_<kind>`` (mean of the last 200 episodes)."""

    def __init__(self, agents: list[str], spec: str, rate: float, seed: int):
        super().__init__()
        self.agents, self.spec, self.rate, self.seed = list(agents), spec, rate, seed
        self._rng = None

    def on_episode_created(self, *, episode, env_runner=None, env=None, env_index=0, **kwargs):
        if self._rng is None:
            self._rng = random.Random(self.seed * 7919 + getattr(env_runner, "worker_index", 0))
        in_env = {}
        if self.spec and self._rng.random() < self.rate:
            in_env = {self._rng.choice(self.agents): self.spec}
        episode.custom_data["in_env"] = in_env
        sub = getattr(env, "envs", [env])[env_index]
        sub.unwrapped.set_next_opponents(in_env)

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs):
        plan = episode.custom_data.get("modules") or {}
        mains = [a for a, m in plan.items() if m == MAIN and a in episode.agent_episodes]
        kind = opponent_kind(episode)
        if not mains or kind == "self" or metrics_logger is None:
            return
        ret = episode.agent_episodes[mains[0]].get_return()
        metrics_logger.log_value(f"win_rate_vs_{kind}", float(ret > 0), reduce="mean",
                                 window=200)


def module_spec(hidden: tuple[int, ...] = (128, 128), activation: str = "tanh"):
    """``RLModuleSpec`` of :class:`ActionMaskingTorchRLModule` with these hidden layers (for the
    policy and the value MLPs; RLlib's ``fcnet_hiddens`` / ``fcnet_activation``)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": list(hidden),
                                      "fcnet_activation": activation,
                                      "vf_share_layers": False})


def ppo_config(game: str = "garda3", game_config: Mapping[str, Any] | None = None, *,
               opponents: Mapping[str, Any] | None = None, illegal_action: str = "raise",
               hidden: tuple[int, ...] = (128, 128), num_env_runners: int = 0, seed: int = 0):
    """A ``PPOConfig`` of masked PPO self-play on ``game``: :class:`CardEnvsMultiAgentEnv`, one
    shared module ``"main"`` (:class:`ActionMaskingTorchRLModule`) for every agent, ``"main"``
    trained. Chain ``.training(...)``, ``.env_runners(...)`` to change the rest; ``.build_algo()``
    builds it (needs ``ray.init`` or starts a local Ray).

    ``illegal_action="raise"`` (this function's default, the trainer's): a masked-out action is
    an error, so RLlib's env check (which steps an unmasked random action) is turned off here
    (``disable_env_checking=True``; ``tests/test_rllib.py`` checks the env); with
    ``"terminate"`` RLlib checks the env as by default.

    Raises:
        ConfigError: as :class:`CardEnvsMultiAgentEnv` (checked here, before Ray starts).
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    env_config = {"game": game, "game_config": dict(game_config or {}),
                  "opponents": dict(opponents or {}), "illegal_action": illegal_action,
                  "seed": seed}
    CardEnvsMultiAgentEnv(env_config)  # bad names fail here, not inside an env runner
    return (
        PPOConfig()
        # RLlib's env checker steps an unmasked random action, which illegal_action="raise"
        # refuses: the env is then checked by tests/test_rllib.py instead
        .environment(CardEnvsMultiAgentEnv, env_config=env_config,
                     disable_env_checking=illegal_action == "raise")
        .env_runners(num_env_runners=num_env_runners)
        .multi_agent(policies={MAIN}, policy_mapping_fn=all_main, policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={MAIN: module_spec(hidden)}))
        .debugging(seed=seed)
    )
