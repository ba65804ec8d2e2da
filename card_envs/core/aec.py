"""The one generic PettingZoo AEC adapter: any :mod:`Game <card_envs.core.game>` as an ``AECEnv``.

Conventions (PettingZoo classic):

- agents ``player_0 .. player_{n-1}`` (seat ``i`` is ``player_i``);
- ``observe(agent)`` -> ``{"observation": float32 (game.observation_shape),
  "action_mask": int8 (num_actions,)}``; the mask is all zeros for an agent that is not to act
  and for every agent once the game is over. ``observation_mode`` chooses what
  ``"observation"`` holds (:mod:`card_envs.core.observation_modes`): ``"flat"`` (default) the
  vector, ``"dict"`` a ``Dict`` of the observation layout's named pieces (views into the flat
  buffer), ``"entities"`` the per-entity view (zones of card rows with row masks, ``globals``,
  ``action_targets``: the layout is in each env module's docstring);
- rewards only at the end of the game: the game's zero-sum ``returns``; 0 on a truncation;
- ``truncated`` when the game's own rule cap is reached (``Game.is_truncated``) or after
  ``max_steps`` decisions (default ``game.max_game_length``);
- ``render_mode`` ``"ansi"`` (``render()`` returns the text), ``"human"`` (prints it after every
  step) or ``"rgb_array"`` (``render()`` returns a picture of the table: a ``uint8`` array of
  shape ``(H, W, 3)``, the same size for every frame of a game config, drawn by
  :mod:`card_envs.core.picture`: every seat's cards with their values, HP / scores, the seat to
  act, every move since the last frame; ``metadata["render_fps"]`` is 2 for video);
  ``render_seat="player_k"`` draws (or writes) only that seat's view: its own cards, the
  others' hidden cards as face-down counts, another seat's hidden move unnamed; ``None``
  (default) shows the whole table, every card face up. ``render_view(agent)`` is an agent's text view in any mode;
- ``save_state()`` / ``reset(options={"state": saved})`` save and resume a game (checked against the
  env's game and config); ``record()`` gives a replayable :class:`GameRecord`.

The checks PettingZoo stacks as wrappers (``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper``,
``TerminateIllegalWrapper``) are built in, because those wrappers cost more per step than our
engines (see docs/design.md):

- ``step``/``observe``/``render``/``agent_iter`` before ``reset`` raise ``AssertionError``
  (as ``OrderEnforcingWrapper``); ``agents``/``rewards``/... before reset raise AttributeError;
- an action that is not an action id in ``[0, num_actions)`` (an int, a numpy integer or a 0-d
  integer array; not ``3.0``, ``"3"``, ``True``, ``nan``...) raises
  :class:`~card_envs.core.errors.IllegalActionError` naming it, the state unchanged (always:
  the core's :meth:`~card_envs.core.game.GameBase.check_action`; PettingZoo raises
  AssertionError);
- an in-range action that the mask forbids: with ``illegal_action="terminate"`` (default) the
  game ends, every agent is terminated and truncated, the offender gets ``illegal_reward``
  (default −1, as PettingZoo's classic envs) and the others 0, with a warning
  (``TerminateIllegalWrapper(env, illegal_reward)``; for a game paying chips or points, pass the
  game's worst return, ``illegal_reward=game.facts.min_utility``, so no illegal move ever pays
  better than a legal loss); with ``illegal_action="raise"`` it raises
  :class:`~card_envs.core.errors.NotLegalError` (an ``IllegalActionError``) naming the agent and
  leaves the state unchanged.

Legality has one owner, the core: the env keeps no legal-action list of its own. A move goes
straight to :meth:`GameBase.apply_action <card_envs.core.game.GameBase.apply_action>`, whose
``NotLegalError`` becomes the convention above, and ``action_mask`` is read from the game's
``legal_actions`` (the list the core caches on the state until the next move).

``tests/test_adapter_vs_pettingzoo.py`` checks that this adapter behaves as the same env wrapped in
PettingZoo's three wrappers.
"""

from __future__ import annotations

import math
import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from card_envs.core.config import check_choice, check_int
from card_envs.core.errors import (
    ConfigError,
    IllegalActionError,
    NotLegalError,
    RecordError,
    StateError,
)
from card_envs.core.game import first_difference
from card_envs.core.observation_modes import (
    check_observation_mode,
    observer,
    view_space,
)
from card_envs.core.picture import TableCamera
from card_envs.core.records import GameRecord, record_of
from card_envs.core.rng import NOT_A_GAME_SEED, check_reset_seed, is_game_seed
from card_envs.core.state import format_path, short_repr

_BEFORE_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "agents", "num_agents"}
)


class CardGameEnv(AECEnv):
    """PettingZoo AEC env over a ``Game``.

    Args:
        game: a configured game object (see :mod:`card_envs.core.game`).
        env_name: PettingZoo name, e.g. ``"garda3_v1"`` (``metadata["name"]``).
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
        render_seat: ``None`` (the whole table) or an agent (``"player_0"``) whose view alone
            ``render()`` shows, as text or picture.
        illegal_action: ``"terminate"`` (PettingZoo convention, default) or ``"raise"``.
        illegal_reward: the offender's reward when an illegal move ends the game (a finite
            number; default -1.0, PettingZoo's ``TerminateIllegalWrapper`` default).
        max_steps: truncate after this many decisions (default ``game.max_game_length``).
        observation_mode: ``"flat"`` (default), ``"dict"`` or ``"entities"`` (module
            docstring).

    Raises:
        ConfigError: an unknown ``render_mode``, ``render_seat``, ``illegal_action`` or
            ``observation_mode``, an ``illegal_reward`` that is not a finite number (or ``"entities"`` for a game that declares no entity view).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2,
                "is_parallelizable": False, "name": "card_env"}

    def __init__(
        self,
        game,
        env_name: str,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        max_steps: int | None = None,
        render_seat: str | None = None,
        observation_mode: str = "flat",
        illegal_reward: float = -1.0,
    ):
        super().__init__()
        check_choice("render_mode", render_mode, [None, "ansi", "human", "rgb_array"])
        check_choice("illegal_action", illegal_action, ["terminate", "raise"])
        self.game = game
        self.metadata = {**CardGameEnv.metadata, "name": env_name}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        if (isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float))
                or not math.isfinite(illegal_reward)):
            raise ConfigError(f"config field 'illegal_reward': expected a finite number, got "
                              f"{illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        if max_steps is not None:
            check_int("max_steps", max_steps, 1)
        self.max_steps = int(max_steps if max_steps is not None else game.max_game_length)
        n = game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        if isinstance(render_seat, bool):
            raise ConfigError(f"config field 'render_seat': expected None or an agent "
                              f"'player_0'..'player_{n - 1}', got the bool {render_seat!r}")
        check_choice("render_seat", render_seat, [None, *self.possible_agents])
        self.render_seat = render_seat
        seat = None if render_seat is None else self.possible_agents.index(render_seat)
        #: draws the rgb_array frames; keeps the moves since the last one as render_seat saw them
        self._camera = TableCamera(game, seat) if render_mode == "rgb_array" else None
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = game.num_actions
        self.observation_mode = check_observation_mode(game, observation_mode)
        #: (state, seat) -> the observation of the mode (game.observe for "flat")
        self._view = observer(game, observation_mode)
        obs_space = spaces.Dict(
            {
                "observation": view_space(game, observation_mode),
                "action_mask": spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._zero_mask = np.zeros(game.num_actions, dtype=np.int8)
        self._has_reset = False
        self._seeder = random.Random()
        self.state_obj = None

    # -- PettingZoo attributes guarded before reset (as OrderEnforcingWrapper) ------------------
    def __getattr__(self, name: str) -> Any:
        if name in _BEFORE_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episode -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` reseeds the env's seed sequence (equal seeds give equal
        games; each game's own seed, the one ``record()`` stores, is drawn from that sequence);
        ``options={"state": d}`` resumes a dict made by :meth:`save_state` (the seed then only
        reseeds the sequence for the games after it).

        Raises:
            ConfigError: ``options`` is not a dict. (Other keys than ``"state"`` are ignored:
                PettingZoo's ``api_test`` passes its own.)
            StateError: a malformed or inconsistent saved state (see :meth:`_load_saved`).
        """
        if options is not None and not isinstance(options, dict):
            raise ConfigError(f"options: expected a dict, got {type(options).__name__}")
        seed = check_reset_seed(seed)
        if seed is not None:
            self._seeder = random.Random(seed)
        game = self.game
        self.state_seed = self._seeder.getrandbits(63)
        self.actions_taken: list[int] = []
        self._history_known = True
        if options and "state" in options:
            self.state_obj = self._load_saved(options["state"])
        else:
            self.state_obj = game.new_state(self.state_seed)
        self._steps = 0
        if self._camera is not None:
            self._camera.reset()
        self._has_reset = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._game_over = False
        if game.is_terminal(self.state_obj):  # a loaded finished state
            self._finish(self.possible_agents[0])
        else:
            self.agent_selection = self.possible_agents[game.current_player(self.state_obj)]

    def save_state(self) -> dict[str, Any]:
        """The game so far as a JSON-able dict ``{game, version, config, seed, actions, state}``;
        ``reset(options={"state": d})`` resumes it in an env of the same game and config (the
        seed and actions are checked to replay to the state), and ``record()`` of the resumed env
        still replays from the original seed. (A game resumed from a state without seed and
        actions saves none.)"""
        self._require_reset()
        game = self.game
        out = {"game": game.name, "version": game.version, "config": game.config_to_dict()}
        if self._history_known:
            out["seed"] = self.state_seed
            out["actions"] = list(self.actions_taken)
        out["state"] = game.state_to_dict(self.state_obj)
        return out

    def _load_saved(self, saved: Any):
        """Check a :meth:`save_state` dict against this env's game and config, then load it.

        Raises:
            StateError: not a save_state dict, saved under another game, version or config (the
                differing config field is named), a malformed state (its field path named:
                :meth:`GameBase.state_from_dict`), a seed outside 0..2**64-1, an action the
                replay of seed and actions refuses (``actions[i]``), or a state other than the
                one seed and actions replay to (the first differing field path named, with both
                values: :func:`~card_envs.core.game.first_difference`).
        """
        game = self.game
        if not isinstance(saved, dict):
            raise StateError(f"options['state']: expected the dict made by env.save_state(), got "
                             f"{type(saved).__name__}")
        for key in ("game", "version", "config", "state"):
            if key not in saved:
                raise StateError(f"options['state'].{key}: field is missing (a dict made by "
                                 "env.save_state() has game, version, config, seed, actions, "
                                 "state)")
        if saved["game"] != game.name:
            raise StateError(f"options['state'].game: {short_repr(saved['game'])} is not "
                             f"{game.name!r}")
        if saved["version"] != game.version or saved["version"].__class__ is not int:
            raise StateError(f"options['state'].version: {short_repr(saved['version'])} is "
                             f"not this env's "
                             f"version {game.version}")
        game.check_config_dict(saved["config"], "options['state'].config")
        extra = sorted(set(saved) - {"game", "version", "config", "seed", "actions", "state"})
        if extra:
            raise StateError(f"options['state'].{extra[0]}: not a field of a saved env state "
                             "(game, version, config, seed, actions, state)")
        try:
            state = game.state_from_dict(saved["state"])
        except StateError as exc:  # name the path from the top of what the caller passed
            raise StateError(f"options['state'].state.{exc}") from None
        if ("seed" in saved) != ("actions" in saved):
            raise StateError("options['state']: seed and actions go together (the history "
                             "record() replays); give both or neither")
        self._history_known = "seed" in saved
        if self._history_known:
            seed, actions = saved["seed"], saved["actions"]
            if not is_game_seed(seed):
                raise StateError(f"options['state'].seed: {short_repr(seed)} is "
                                 f"{NOT_A_GAME_SEED}")
            if not isinstance(actions, list):
                raise StateError(f"options['state'].actions: {short_repr(actions)} is not a "
                                 "list of action ids")
            replayed = game.new_state(seed)
            for i, a in enumerate(actions):
                try:
                    game.apply_action(replayed, a)
                except IllegalActionError as exc:
                    raise StateError(f"options['state'].actions[{i}]: {short_repr(a)}: {exc}") \
                        from None
            found = first_difference(game.state_to_dict(replayed), game.state_to_dict(state),
                                     ["options['state'].state"])
            if found is not None:  # name the first field where the state and history part
                where, kind, mine, theirs = found
                history = f"what seed {seed} and its {len(actions)} actions replay to"
                if kind == "length":
                    what = f"{len(theirs)} entries, {history} has {len(mine)}"
                else:
                    what = (f"{'absent' if kind == 'missing' else short_repr(theirs)} differs "
                            f"from {'absent' if kind == 'extra' else short_repr(mine)}, {history}")
                raise StateError(f"{format_path(where)}: {what} (drop seed and actions to load "
                                 "the state without its history)")
            self.state_seed = seed
            self.actions_taken = list(actions)
        return state

    def _require_reset(self) -> None:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before this (no game yet)")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        mask = self._zero_mask.copy()
        if not self._game_over and agent == self.agent_selection:
            mask[self.game.legal_actions(self.state_obj)] = 1  # the core's cached list
        return {
            "observation": self._view(self.state_obj, self._index[agent]),
            "action_mask": mask,
        }

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # type and range: the core's one check (IllegalActionError naming the value, always)
        if action.__class__ is int and 0 <= action < self._num_actions:
            a = action  # the common case, without a call
        else:
            a = self.game.check_action(self.state_obj, action)
        game, state = self.game, self.state_obj
        before = game.clone(state) if self._camera is not None else None
        try:
            game.apply_action(state, a)  # the one legality check (the core's)
        except NotLegalError:
            if self.illegal_action == "raise":
                raise NotLegalError(
                    f"action {a} ({game.action_to_string(state, a)}) is not legal "
                    f"for {agent} in phase {game.phase_name(state)!r}; legal "
                    f"actions: {game.legal_actions(state)}"
                ) from None
            self._terminate_illegal(agent)
            return
        if before is not None:  # named as the state before the move showed it
            self._camera.before_move(before, a)
        self._cumulative_rewards[agent] = 0.0
        self.actions_taken.append(a)
        self._steps += 1
        if game.is_terminal(state):
            self._finish(agent)
        elif self._steps >= self.max_steps:
            self._finish(agent, cap=True)
        else:
            self.agent_selection = self.possible_agents[game.current_player(state)]
            rewards = self.rewards
            for k in rewards:
                rewards[k] = 0.0
        if self.render_mode == "human":
            self.render()

    def _finish(self, last_agent: str, cap: bool = False) -> None:
        """Game over: rewards from the game's returns (0 on truncation), everyone done."""
        game, state = self.game, self.state_obj
        self._game_over = True
        truncated = cap or game.is_truncated(state)
        returns = [0.0] * game.num_players if truncated else game.returns(state)
        for i, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = float(returns[i])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        self._accumulate_rewards()
        idx = (self._index[last_agent] + 1) % game.num_players
        self.agent_selection = self.possible_agents[idx]

    def _terminate_illegal(self, agent: str) -> None:
        """PettingZoo ``TerminateIllegalWrapper`` semantics."""
        EnvLogger.warn_on_illegal_move()
        self._game_over = True
        self._cumulative_rewards[agent] = 0.0
        self.terminations = {d: True for d in self.agents}
        self.truncations = {d: True for d in self.agents}
        self.rewards = {d: 0.0 for d in self.truncations}
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._deads_step_first()

    # -- extras --------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the text (:meth:`Game.render <card_envs.core.game.GameBase.render>`, or
        ``render_seat``'s :meth:`render_view`); ``"human"``: prints it, returns ``None``;
        ``"rgb_array"``: the picture, ``uint8 (H, W, 3)``; ``None``: warns, returns ``None``."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self._camera is not None:
            return self._camera.frame(self.state_obj)
        if self.render_seat is not None:
            text = self.render_view(self.render_seat)
        else:
            text = self.game.render(self.state_obj)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_view(self, agent: str) -> str:
        """``agent``'s own view as text (:meth:`Game.render_view
        <card_envs.core.game.GameBase.render_view>`): what that seat may know, never another
        seat's hidden cards (``render()`` shows the whole state, every card). Works in any
        ``render_mode``."""
        self._require_reset()
        if agent not in self._index:
            raise KeyError(f"no agent {agent!r} (agents: {self.possible_agents})")
        return self.game.render_view(self.state_obj, self._index[agent])

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)

    def close(self) -> None:
        pass

    def record(self) -> GameRecord:
        """The game so far as a replayable :class:`GameRecord` (JSON via ``to_json``). A game
        ended by an illegal move records the legal actions before it (outcome ``None``)."""
        self._require_reset()
        if not self._history_known:
            raise RecordError("no record: this game was resumed from a saved state without its "
                              "seed and actions (env.save_state() keeps them)")
        return record_of(self.game, self.state_seed, self.actions_taken, self.state_obj)

    def action_to_string(self, action: int) -> str:
        """Readable name of ``action`` in the current state."""
        game = self.game
        return game.action_to_string(self.state_obj, game.check_action(self.state_obj, action))

    def __str__(self) -> str:
        return self.metadata["name"]


def make_env_functions(make_game, env_name: str):
    """Build the ``raw_env`` / ``env`` pair of a game's env module.

    ``raw_env(render_mode=None, illegal_action="terminate", max_steps=None, render_seat=None,
    observation_mode="flat", illegal_reward=-1.0, **config)`` builds ``CardGameEnv(make_game(**config), ...)``;
    ``env(**kwargs)`` is the same env (the PettingZoo safety wrappers are built in, see this
    module's docstring).
    """

    def raw_env(
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        max_steps: int | None = None,
        render_seat: str | None = None,
        observation_mode: str = "flat",
        illegal_reward: float = -1.0,
        **config: Any,
    ) -> CardGameEnv:
        return CardGameEnv(
            make_game(**config),
            env_name,
            render_mode=render_mode,
            illegal_action=illegal_action,
            max_steps=max_steps,
            render_seat=render_seat,
            observation_mode=observation_mode,
            illegal_reward=illegal_reward,
        )

    def env(**kwargs: Any) -> CardGameEnv:
        return raw_env(**kwargs)

    raw_env.__doc__ = f"The {env_name} AEC env (config keywords: see the module docstring)."
    env.__doc__ = raw_env.__doc__
    return raw_env, env
