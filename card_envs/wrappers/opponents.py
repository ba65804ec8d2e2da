"""Bots or policies playing some seats inside a PettingZoo AEC env of the suite.

``with_opponents(garda3_v1.env(), {"player_1": "heuristic"})`` is an AEC env whose agents are
only the *learning* agents (here ``player_0``); whenever an opponent seat is to act, its policy
moves inside ``step``/``reset`` until a learning agent is to act or the game is over. So a
multi-agent learner (TorchRL, Tianshou, RLlib) meets our heuristics, lookahead and ISMCTS bots or
frozen models without knowing about them.

================  ================================================================================
agents            the inner env's agents minus the opponent seats (``possible_agents`` likewise),
                  in seat order
observe / spaces  the inner env's (``{"observation", "action_mask"}`` per agent, int8 mask)
opponents         ``{agent: spec}``: a policy spec as :mod:`card_envs.bots.specs`
                  takes it (``"random"``, ``"heuristic"``, ``"ismcts[:N[:ROLLOUT]]"``,
                  ``"<spec>+lookahead[:N]"``, a model ``.zip`` or run folder,
                  ``"package.module:name"``) or a policy object (``act(game, state, player)``)
                  or an ``(observation, action_mask) -> action`` callable
information       an opponent is asked exactly as the evaluation asks it
                  (:func:`card_envs.evaluation.match.play_game`): ``policy.act(game, state,
                  seat)`` for its own seat, and the suite's policies read only that seat's
                  information (``game.observe``, the legal actions, public facts,
                  ``sample_hidden`` deals: :mod:`card_envs.bots.base`)
rewards           PettingZoo's AEC rules: ``last()`` gives a learning agent the rewards of every
                  move since its own last one, opponents' moves included; the game's final
                  rewards reach every learning agent at its terminating step, also when an
                  opponent's move ended the game
seeding           ``reset(seed=s)`` reseeds the inner env and every opponent (from ``s`` and its
                  seat), so equal seeds and equal learner actions give equal games
errors            an opponent that returns an illegal action raises
                  :class:`~card_envs.core.errors.IllegalActionError` naming the policy and seat
                  (a bot bug is not the learner's win); a learner's illegal action does what the
                  inner env's ``illegal_action`` says (default: the game ends, −1 for it)
================  ================================================================================

The inner env is one of the suite's AEC envs (:class:`card_envs.core.aec.CardGameEnv`: it has
``game`` and the live ``state_obj``); ``wrapped.unwrapped`` is it (``save_state``, ``record``,
``render_view``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from card_envs.bots.base import as_policy, reseed_policy
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.bots.specs import resolve_policy


class OpponentsEnv(AECEnv):
    """The AEC view of ``env`` for its learning agents (see the module docstring).

    Args:
        env: an AEC env of the suite (``garda3_v1.env(...)``, any ``CardGameEnv``).
        opponents: ``{agent: policy spec or policy}`` for the seats the bots play.
        seed: seed of the opponents' own randomness until the first ``reset(seed=...)``.
        game_spec: the game's spec for ``"heuristic"`` and ISMCTS rollouts (default: the game's
            registry name, ``env.game.name``).

    Raises:
        ConfigError: ``env`` is not a card-envs AEC env; an opponent agent that is not one of
            ``env.possible_agents``; every agent an opponent (no learning agent left); a bad
            policy spec (named).
    """

    def __init__(self, env, opponents: Mapping[str, Any], seed: int | None = None,
                 game_spec: str | None = None):
        super().__init__()
        if not hasattr(env, "game") or not hasattr(env, "possible_agents"):
            raise ConfigError(f"with_opponents: {type(env).__name__} is not a card-envs AEC env "
                              "(e.g. card_envs.garda3_v1.env())")
        if not isinstance(opponents, Mapping):
            raise ConfigError(f"with_opponents: opponents must map agents to policy specs, e.g. "
                              f"{{'player_1': 'heuristic'}}, got {type(opponents).__name__}")
        self.env = env
        game = env.game
        game_spec = game_spec or game.name
        self._seat = {a: i for i, a in enumerate(env.possible_agents)}
        unknown = [a for a in opponents if a not in self._seat]
        if unknown:
            raise ConfigError(f"with_opponents: {unknown[0]!r} is not an agent of "
                              f"{env.metadata.get('name', game.name)} (agents: "
                              f"{env.possible_agents})")
        self.possible_agents = [a for a in env.possible_agents if a not in opponents]
        if not self.possible_agents:
            raise ConfigError(f"with_opponents: every agent ({env.possible_agents}) is an "
                              "opponent; leave at least one learning agent")
        self.opponents: dict[str, Any] = {}
        self.opponent_specs: dict[str, Any] = dict(opponents)
        for agent, spec in opponents.items():
            seat_seed = None if seed is None else _seat_seed(seed, self._seat[agent])
            try:
                policy = (resolve_policy(spec, game_spec, seed=seat_seed, game=game)
                          if isinstance(spec, str) else as_policy(spec))
            except (ConfigError, TypeError) as exc:
                raise ConfigError(f"with_opponents: opponents[{agent!r}]: {exc}") from None
            self.opponents[agent] = policy
        self.metadata = env.metadata
        self.render_mode = getattr(env, "render_mode", None)
        self.observation_spaces = {a: env.observation_space(a) for a in self.possible_agents}
        self.action_spaces = {a: env.action_space(a) for a in self.possible_agents}

    # -- spaces and views ----------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    @property
    def unwrapped(self):
        return self.env.unwrapped

    @property
    def game(self):
        return self.env.game

    def observe(self, agent: str):
        return self.env.observe(agent)

    def render(self):
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    def __str__(self) -> str:
        return f"with_opponents<{self.env}, {self.opponent_specs}>"

    # -- episode -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the inner env (same ``seed`` / ``options``), reseed the opponents from ``seed``,
        and let them play up to the first learning agent's turn."""
        self.env.reset(seed=seed, options=options)
        if seed is not None:
            for agent, policy in self.opponents.items():
                reseed_policy(policy, _seat_seed(seed, self._seat[agent]))
        self._gained = {a: 0.0 for a in self.possible_agents}
        self._cumulative = {a: 0.0 for a in self.possible_agents}
        self._play_opponents()
        self._sync()

    def step(self, action) -> None:
        """Step the learning agent to act, then the opponents up to the next learning agent's
        turn (or the game's end). ``rewards`` holds what each learning agent gained in all
        those moves."""
        env = self.env
        if not env.agents:  # PettingZoo: a step after the end warns and does nothing
            env.step(action)
            return
        self._gained = {a: 0.0 for a in self.agents}
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            self._cumulative[agent] = 0.0  # AEC: last() gives the rewards since its own move
        env.step(action)
        self._add_rewards()
        self._play_opponents()
        self._sync()

    # -- internals -----------------------------------------------------------------------------
    def _add_rewards(self) -> None:
        rewards = self.env.rewards
        for a in self._gained:
            if a in rewards:
                self._gained[a] += rewards[a]
                self._cumulative[a] += rewards[a]

    def _play_opponents(self) -> None:
        """Opponents move (and done opponents step ``None``) until a learning agent is selected
        or no agent is left."""
        env = self.env
        game = env.game
        while env.agents and env.agent_selection in self.opponents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                seat = self._seat[agent]
                state = env.state_obj
                policy = self.opponents[agent]
                a = policy.act(game, state, seat)
                if a not in game.legal_actions(state):
                    raise IllegalActionError(
                        f"opponent {agent} (policy {getattr(policy, 'name', policy)!r}) chose "
                        f"illegal action {a!r}; legal actions: {game.legal_actions(state)}")
                env.step(a)
            self._add_rewards()

    def _sync(self) -> None:
        """Mirror the inner env's dicts for the learning agents still in the game."""
        env = self.env
        self.agents = [a for a in env.agents if a not in self.opponents]
        self.rewards = {a: float(self._gained.get(a, 0.0)) for a in self.agents}
        self._cumulative_rewards = {a: float(self._cumulative[a]) for a in self.agents}
        self.terminations = {a: env.terminations[a] for a in self.agents}
        self.truncations = {a: env.truncations[a] for a in self.agents}
        self.infos = {a: env.infos[a] for a in self.agents}
        if self.agents:
            self.agent_selection = env.agent_selection
        elif not hasattr(self, "agent_selection"):
            self.agent_selection = self.possible_agents[0]


def _seat_seed(seed: int, seat: int) -> int:
    """An opponent's seed from the episode seed and its seat (distinct seats, distinct seeds)."""
    return (int(seed) * 1_000_003 + 7919 * (seat + 1)) % 2**63


def with_opponents(env, opponents: Mapping[str, Any], seed: int | None = None,
                   game_spec: str | None = None) -> OpponentsEnv:
    """``env`` with ``opponents`` (``{agent: policy spec or policy}``) playing their seats inside
    it: :class:`OpponentsEnv` (see the module docstring)."""
    return OpponentsEnv(env, opponents, seed=seed, game_spec=game_spec)
