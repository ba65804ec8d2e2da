"""Text in, text out: any game of the suite for language agents (Gymnasium and PettingZoo).

:class:`TextEnv` is the single-agent Gymnasium view (one seat played through ``step``, the others
by opponent policies, as :class:`~card_envs.wrappers.single_agent.SingleAgentEnv`);
:class:`TextAECEnv` the multi-agent PettingZoo AEC view (every seat a text agent; with
``opponents`` some seats are bots, as :func:`~card_envs.wrappers.opponents.with_opponents`).

==================  ==========================================================================
Observation         ``spaces.Text(max_length=OBSERVATION_MAX, charset=CHARSET)``: the seat's
                    text observation (:func:`card_envs.core.text.observation_text`): the rules
                    in brief until the seat's first decision of the game (``rules=True``), its
                    view (``game.render_view``), the moves since its last decision (its own
                    last one, then the other seats' as it sees them), and, when it is to act,
                    its legal moves numbered from 1 with their canonical short names
                    (``list_moves=False``: not listed); at the end the result
Action              ``spaces.Text(max_length=REPLY_MAX, min_length=0)``: a reply string: a
                    move's number or name, case and accents ignored
                    (:meth:`card_envs.core.text.MoveList.parse`); a non-string raises
                    :class:`~card_envs.core.errors.IllegalActionError` (:class:`TextAECEnv`
                    also takes an action id, as the bots of ``opponents`` give)
Invalid reply       an empty, unparseable or illegal reply: the next observation starts with a
                    message naming the problem and the tries left, reward 0, nothing played;
                    info ``invalid=True``, ``problem``, ``invalid_left``. After ``max_invalid``
                    such replies in one decision (default 2) the next invalid one meets
                    ``illegal_action``: ``"lose"`` (:class:`TextEnv` default) ends the episode,
                    reward −1, ``terminated=True``, info ``illegal_action=True``;
                    ``"terminate"`` (:class:`TextAECEnv` default; PettingZoo's
                    ``TerminateIllegalWrapper``: every agent done, −1 for the offender, 0 for
                    the others); ``"random_legal"`` plays a uniformly random legal move (info
                    ``illegal_action=True``, ``played_action``); ``"raise"`` raises
                    :class:`~card_envs.core.errors.IllegalActionError` naming the reply
Reward, ends        as ``SingleAgentEnv`` (:class:`TextEnv`: ``reward_mode`` ``"returns"`` or
                    ``"win_loss"``; ``max_steps`` decisions of all seats truncate) and the AEC
                    env (:class:`TextAECEnv`)
info                ``seat``; ``moves``: the canonical names of the legal moves when the seat
                    is to act; ``action``: the id the reply was read as; at the end ``outcome``
                    (1 win, 0.5 draw, 0 loss) and ``returns``
Record              ``record()``: the game's :class:`~card_envs.core.records.GameRecord` with
                    its ``transcript`` (every reply: the observation shown, the reply, the
                    action read, the problem named); ``record_dir=PATH`` also writes each
                    finished game there as ``text-<game>-<seed>.json`` (``card-envs replay``
                    reads it)
==================  ==========================================================================

The opponents of :class:`TextEnv` (a policy, an ``(observation, action_mask) -> action``
callable or, in :func:`make_text_env`, a policy spec such as ``"heuristic"`` or
``"llm:http://localhost:8000/v1:my-model"``) hear every move through ``observe_move``
(:mod:`card_envs.bots.base`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import gymnasium
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

from card_envs.bots.base import as_policy, move_watchers, reseed_policy
from card_envs.core.config import check_choice
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.game import action_id
from card_envs.core.records import GameRecord, TranscriptTurn, record_of
from card_envs.core.text import CHARSET, InvalidReply, MoveList, MoveLog, observation_text
from card_envs.core.outcome import outcome_of

#: the longest text observation (characters; the games' longest are a few thousand)
OBSERVATION_MAX = 100_000
#: the longest reply the action space holds (longer replies are read all the same)
REPLY_MAX = 2_000
#: ``TextEnv(illegal_action=...)`` choices, the default first
ILLEGAL_ACTIONS = ("lose", "random_legal", "raise")
#: ``TextAECEnv(illegal_action=...)`` choices, the default first
AEC_ILLEGAL_ACTIONS = ("terminate", "random_legal", "raise")


def observation_space() -> spaces.Text:
    """The text observation space: 1..:data:`OBSERVATION_MAX` characters of :data:`CHARSET`."""
    return spaces.Text(max_length=OBSERVATION_MAX, min_length=1, charset=CHARSET)


def action_space() -> spaces.Text:
    """The reply space: 0..:data:`REPLY_MAX` characters of :data:`CHARSET`."""
    return spaces.Text(max_length=REPLY_MAX, min_length=0, charset=CHARSET)


def _check_max_invalid(max_invalid) -> int:
    if max_invalid.__class__ is not int or max_invalid < 0:
        raise ConfigError(f"max_invalid must be an int >= 0 (the invalid replies allowed per "
                          f"decision), got {max_invalid!r}")
    return max_invalid


def _check_flag(name: str, value) -> bool:
    if value.__class__ is not bool:
        raise ConfigError(f"{name} must be True or False, got {value!r}")
    return value


def _check_record_dir(record_dir) -> Path | None:
    if record_dir is None:
        return None
    path = Path(record_dir)
    if not path.is_dir():
        raise ConfigError(f"record_dir {str(record_dir)!r} is not an existing folder")
    return path


def _problem_text(problem: str, left: int) -> str:
    tries = f"{left} more invalid repl{'y' if left == 1 else 'ies'} allowed"
    return f"Your last reply was not played: {problem}. ({tries} in this decision.)"


def _reply_text(reply: Any) -> str:
    """``reply`` if it is a string; IllegalActionError naming its type otherwise."""
    if isinstance(reply, str):
        return reply
    raise IllegalActionError(f"a text env's action is a str (a move's number or name), got "
                             f"{type(reply).__name__} {reply!r:.60}")


class TextEnv(gymnasium.Env):
    """One seat of ``game`` played by a text agent, the others by ``opponents`` (module
    docstring).

    Args:
        game: a configured game (``card_envs.core.registry.make_game(...)``).
        opponents: a policy (``act(game, state, player)``) or an ``(observation, action_mask) ->
            action`` callable; it plays every other seat.
        learner_seat: a fixed seat, or ``None`` to rotate through the seats per episode.
        max_invalid: invalid replies allowed per decision before ``illegal_action`` (>= 0).
        illegal_action: ``"lose"`` (default), ``"random_legal"`` or ``"raise"``.
        list_moves: list the legal moves in the observation (default ``True``).
        rules: the rules in brief until the learner's first decision (default ``True``).
        reward_mode: ``"returns"`` (default) or ``"win_loss"``.
        max_steps: truncate after this many decisions of all seats (default
            ``game.max_game_length``).
        seed: seed of the game seeds, the seat rotation, the opponents and ``"random_legal"``.
        record_dir: an existing folder: each finished game's record is written there.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the last observation).

    Raises:
        ConfigError: a bad choice or value (named), a ``record_dir`` that is not a folder.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, opponents, learner_seat: int | None = None, max_invalid: int = 2,
                 illegal_action: str = "lose", list_moves: bool = True, rules: bool = True,
                 reward_mode: str = "returns", max_steps: int | None = None,
                 seed: int | None = None, record_dir: str | Path | None = None,
                 render_mode: str | None = None):
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        check_choice("reward_mode", reward_mode, ["returns", "win_loss"])
        check_choice("render_mode", render_mode, [None, "ansi"])
        if learner_seat is not None:
            check_choice("learner_seat", learner_seat, range(game.num_players))
        self.game = game
        self.opponent = as_policy(opponents)
        self.learner_seat = learner_seat
        self.max_invalid = _check_max_invalid(max_invalid)
        self.illegal_action = illegal_action
        self.list_moves = _check_flag("list_moves", list_moves)
        self.rules = _check_flag("rules", rules)
        self.reward_mode = reward_mode
        self.max_steps = int(max_steps if max_steps is not None else game.max_game_length)
        self.record_dir = _check_record_dir(record_dir)
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._seeder = random.Random(seed)
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        self.log = MoveLog(game)
        self.episode = 0
        self.state = None
        self.seat = 0
        self._done = True
        self._text = ""

    # -- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a game (``options={"seat": i}`` forces the seat) and play the opponents up to
        the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeder = random.Random(seed)
            self.episode = 0
            reseed_policy(self.opponent, seed * 7919)
        options = options or {}
        game = self.game
        for _attempt in range(100):
            if "seat" in options:
                seat = options["seat"]
                if seat.__class__ is not int or not 0 <= seat < game.num_players:
                    raise ConfigError(f"options['seat']: {seat!r} is not a seat "
                                      f"(0..{game.num_players - 1})")
            elif self.learner_seat is not None:
                seat = self.learner_seat
            else:
                seat = self.episode % game.num_players
            self.seat = seat
            self.episode += 1
            self.game_seed = self._seeder.getrandbits(63)
            self.state = game.new_state(self.game_seed)
            self.log.reset()
            self.actions: list[int] = []
            self.transcript: list[TranscriptTurn] = []
            self._invalid = 0
            self._done = False
            if not self._play_opponents():
                break
        else:  # pragma: no cover - a game that never lets the learner act
            raise RuntimeError(f"{game.name}: the learner's seat never got a decision in 100 games")
        return self._observe(), self._info()

    def step(self, action):
        """Read the reply ``action`` (a str), play it (or name its problem), then the opponents
        up to the learner's next decision."""
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset()")
        reply = _reply_text(action)
        game, state = self.game, self.state
        shown = self._text
        try:
            a, problem = self._moves.parse(reply), None
        except InvalidReply as exc:
            a, problem = None, str(exc)
        self.transcript.append(TranscriptTurn(seat=self.seat, observation=shown, reply=reply,
                                              action=a, problem=problem))
        info: dict[str, Any] = {}
        if problem is not None:
            self._invalid += 1
            left = self.max_invalid - self._invalid + 1
            if left > 0:
                obs = self._observe(_problem_text(problem, left))
                return obs, 0.0, False, False, {**self._info(), "invalid": True,
                                                "problem": problem, "invalid_left": left}
            if self.illegal_action == "raise":
                raise IllegalActionError(f"text env: reply {reply!r:.80} at seat {self.seat}: "
                                         f"{problem} (after {self.max_invalid} invalid replies)")
            info.update(invalid=True, problem=problem, illegal_action=True)
            if self.illegal_action == "lose":
                self._done = True
                self._save_record()
                obs = self._observe(f"Your reply was not played: {problem}.",
                                    status="The game is over: you made no legal move after "
                                    f"{self.max_invalid} invalid replies, so you lost (-1).")
                return obs, -1.0, True, False, {**info, "seat": self.seat, "outcome": 0.0}
            legal = game.legal_actions(state)
            a = int(legal[int(self.np_random.integers(len(legal)))])
            info["played_action"] = a
        self._apply(a)
        self._invalid = 0
        finished = self._play_opponents()
        info.update(seat=self.seat, action=a)
        if not finished:
            obs = self._observe()
            return obs, 0.0, False, False, {**self._info(), **info}
        self._done = True
        obs = self._observe()
        truncated = not game.is_terminal(state) or game.is_truncated(state)
        returns = [0.0] * game.num_players if truncated else [float(r) for r in
                                                              game.returns(state)]
        outcome = 0.5 if truncated else outcome_of(returns, self.seat)
        if truncated:
            reward = 0.0
        elif self.reward_mode == "returns":
            reward = returns[self.seat]
        else:
            reward = {1.0: 1.0, 0.5: 0.0, 0.0: -1.0}[outcome]
        info.update(outcome=outcome, returns=returns)
        self._save_record()
        return obs, float(reward), not truncated, truncated, info

    def render(self) -> str | None:
        """``"ansi"``: the learner's last observation; else ``None``."""
        return self._text if self.render_mode == "ansi" and self.state is not None else None

    def record(self) -> GameRecord:
        """The game so far with its transcript (outcome ``None`` unless it ended by its rules)."""
        if self.state is None:
            raise RuntimeError("no game yet: call reset()")
        return record_of(self.game, self.game_seed, self.actions, self.state,
                         transcript=self.transcript)

    # -- internals -----------------------------------------------------------------------------
    def _observe(self, problem: str | None = None, status: str | None = None) -> str:
        game, state, seat = self.game, self.state, self.seat
        to_act = not self._done and game.current_player(state) == seat
        self._moves = MoveList(game, state) if to_act else None
        rules = self.rules and not self.log.decided[seat]
        if status is None and self._done and not game.is_terminal(state):
            status = "The game is over: cut off at the decision cap (a draw)."
        self._text = observation_text(game, state, seat, self.log.since(seat), rules=rules,
                                      list_moves=self.list_moves, problem=problem,
                                      move_list=self._moves, status=status)
        return self._text

    def _info(self) -> dict[str, Any]:
        moves = [m.name for m in self._moves] if self._moves is not None else []
        return {"seat": self.seat, "moves": moves}

    def _apply(self, a: int) -> None:
        game, state = self.game, self.state
        for watcher in move_watchers([self.opponent]):
            watcher.observe_move(game, state, a, game.current_player(state))
        self.log.record(state, a)
        game.apply_action(state, a)
        self.actions.append(a)

    def _play_opponents(self) -> bool:
        """Opponents move until the learner is to act (False) or the game is over or capped
        (True)."""
        game, state = self.game, self.state
        while True:
            if game.is_terminal(state) or len(self.actions) >= self.max_steps:
                return True
            p = game.current_player(state)
            if p == self.seat:
                return False
            a = self.opponent.act(game, state, p)
            if a not in game.legal_actions(state):
                raise IllegalActionError(
                    f"opponent {getattr(self.opponent, 'name', self.opponent)!r} at seat {p} "
                    f"chose illegal action {a!r}; legal: {game.legal_actions(state)}")
            self._apply(int(a))

    def _save_record(self) -> None:
        if self.record_dir is not None:
            path = self.record_dir / f"text-{self.game.name}-{self.game_seed}.json"
            self.record().save(path)


#: the keywords of :func:`make_text_env` that configure the env; the rest are config fields
ENV_KEYWORDS = ("learner_seat", "max_invalid", "illegal_action", "list_moves", "rules",
                "reward_mode", "max_steps", "seed", "record_dir", "render_mode")


def make_text_env(game: str = "garda3", opponent: Any = "random", **kwargs: Any) -> TextEnv:
    """A :class:`TextEnv` from names: ``make_text_env("rust_brawl", "heuristic", seed=0)``.

    Args:
        game: a registry name or ``"package.module:factory"``.
        opponent: a policy spec (``"random"``, ``"heuristic"``, ``"llm:URL:MODEL"``...,
            :func:`card_envs.bots.specs.resolve_policy`) or a policy object.
        **kwargs: :data:`ENV_KEYWORDS` go to :class:`TextEnv`; the rest are the game's config
            fields (``variant="night"``, ``num_players=3``).

    Raises:
        ConfigError: an unknown game, config field or policy spec (named).
    """
    from card_envs.bots.specs import resolve_game, resolve_policy

    env_kwargs = {k: kwargs.pop(k) for k in ENV_KEYWORDS if k in kwargs}
    built = resolve_game(game, kwargs)
    if isinstance(opponent, str):
        opponent = resolve_policy(opponent, game, seed=env_kwargs.get("seed"), game=built)
    return TextEnv(built, opponent, **env_kwargs)


class TextAECEnv(BaseWrapper):
    """Every seat of a suite AEC env (:class:`~card_envs.core.aec.CardGameEnv`) as a text agent:
    ``observe(agent)`` is that agent's text observation, ``step(reply)`` reads a reply string (or
    takes an action id, as bots give). Module docstring: replies, ``illegal_action``
    (``"terminate"`` default, ``"random_legal"``, ``"raise"``), records.

    Args:
        env: the inner AEC env (``card_envs.garda3_v1.env()``...).
        max_invalid: invalid replies allowed per decision before ``illegal_action`` (>= 0).
        illegal_action: ``"terminate"`` (default), ``"random_legal"`` or ``"raise"``.
        list_moves: list the legal moves in the observation (default ``True``).
        rules: the rules in brief until an agent's first decision (default ``True``).
        seed: seed of ``"random_legal"``'s choices (``reset(seed=...)`` reseeds it).
        record_dir: an existing folder: each finished game's record is written there.

    Raises:
        ConfigError: ``env`` is not a card-envs AEC env; a bad option (named).
    """

    def __init__(self, env, max_invalid: int = 2, illegal_action: str = "terminate",
                 list_moves: bool = True, rules: bool = True, seed: int | None = None,
                 record_dir: str | Path | None = None):
        if not hasattr(env, "game") or not hasattr(env, "state_obj"):
            raise ConfigError(f"TextAECEnv: {type(env).__name__} is not a card-envs AEC env "
                              "(e.g. card_envs.garda3_v1.env())")
        super().__init__(env)
        check_choice("illegal_action", illegal_action, AEC_ILLEGAL_ACTIONS)
        self.max_invalid = _check_max_invalid(max_invalid)
        self.illegal_action = illegal_action
        self.list_moves = _check_flag("list_moves", list_moves)
        self.rules = _check_flag("rules", rules)
        self.record_dir = _check_record_dir(record_dir)
        self.game = env.game
        self.possible_agents = list(env.possible_agents)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self.metadata = {**env.metadata, "render_modes": env.metadata.get("render_modes", [])}
        self.log = MoveLog(env.game)
        self._rng = random.Random(seed)
        self.transcript: list[TranscriptTurn] = []
        #: policies that hear every move (``observe_move``): :func:`text_aec_env` puts its bot
        #: opponents with that method here
        self.listeners: list = []

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the inner env (a resumed saved state starts with no moves seen)."""
        self.env.reset(seed=seed, options=options)
        if seed is not None:
            self._rng = random.Random(seed)
        self.log.reset()
        self.transcript = []
        self._problem: dict[str, str] = {}
        self._invalid = {a: 0 for a in self.possible_agents}
        self._moves_key = None
        self._saved = False
        self._ended: str | None = None

    def _move_list(self) -> MoveList:
        env = self.env
        key = (id(env.state_obj), len(env.actions_taken))
        if self._moves_key != key:
            self._moves_key, self._moves = key, MoveList(self.game, env.state_obj)
        return self._moves

    def observe(self, agent: str) -> str:
        if agent not in self._seat:
            raise KeyError(f"no agent {agent!r} (agents: {self.possible_agents})")
        env = self.env
        game, state, seat = self.game, env.state_obj, self._seat[agent]
        to_act = (bool(env.agents) and agent == env.agent_selection
                  and not (env.terminations.get(agent, True) or env.truncations.get(agent, True)))
        return observation_text(
            game, state, seat, self.log.since(seat), rules=self.rules and not
            self.log.decided[seat], list_moves=self.list_moves, problem=self._problem.get(agent),
            move_list=self._move_list() if to_act else None, status=self._ended)

    def step(self, action) -> None:
        """Read ``action`` (a reply string, or an action id) for the agent to act (module
        docstring); a done agent's ``None`` step and steps after the end go to the inner env."""
        env = self.env
        if not env.agents:
            env.step(action)
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(action)
            self._maybe_save()
            return
        game, state = self.game, env.state_obj
        a_id = action_id(action) if not isinstance(action, str) else None
        if a_id is None:
            reply = _reply_text(action)
            shown = self.observe(agent)
            try:
                a, problem = self._move_list().parse(reply), None
            except InvalidReply as exc:
                a, problem = None, str(exc)
            self.transcript.append(TranscriptTurn(seat=self._seat[agent], observation=shown,
                                                  reply=reply, action=a, problem=problem))
        else:
            legal = game.legal_actions(state)
            a, problem = (a_id, None) if a_id in legal else (
                None, f"action id {a_id} is not legal now (legal ids: {legal})")
            reply = str(a_id)
        if problem is not None:
            self._invalid[agent] += 1
            left = self.max_invalid - self._invalid[agent] + 1
            if left > 0:
                self._problem[agent] = _problem_text(problem, left)
                for k in env.rewards:
                    env.rewards[k] = 0.0
                env._cumulative_rewards[agent] = 0.0
                env.infos[agent] = {"invalid": True, "problem": problem, "invalid_left": left}
                return
            if self.illegal_action == "raise":
                raise IllegalActionError(f"text env: reply {reply!r:.80} of {agent}: {problem} "
                                         f"(after {self.max_invalid} invalid replies)")
            if self.illegal_action == "terminate":
                self._problem[agent] = f"Your reply was not played: {problem}."
                self._ended = (f"The game is over: {agent} (seat {self._seat[agent]}) made no "
                               "legal move, so it lost (-1, the others 0).")
                gymnasium.logger.warn("%s", f"{agent} made no legal move in "
                                      f"{self.max_invalid + 1} replies ({problem}); the game "
                                      f"ends, {agent} losing")
                _terminate_quietly(env, agent)
                env.infos[agent] = {"invalid": True, "problem": problem, "illegal_action": True}
                self._maybe_save()
                return
            legal = game.legal_actions(state)
            a = legal[self._rng.randrange(len(legal))]
            info = {"invalid": True, "problem": problem, "illegal_action": True,
                    "played_action": a}
        else:
            info = {"action": a}
        self._problem.pop(agent, None)
        self._invalid[agent] = 0
        for listener in self.listeners:
            listener.observe_move(game, state, a, self._seat[agent])
        self.log.record(state, a)
        env.step(a)
        if agent in env.infos:
            env.infos[agent] = info
        self._maybe_save()

    def record(self) -> GameRecord:
        """The game so far (:meth:`CardGameEnv.record`) with the transcript of every reply."""
        return self.env.record().model_copy(update={"transcript": list(self.transcript)})

    def _maybe_save(self) -> None:
        env = self.env
        if self.record_dir is None or self._saved or not env._game_over:
            return
        self._saved = True
        path = self.record_dir / f"text-{self.game.name}-{env.state_seed}.json"
        self.record().save(path)

    def __str__(self) -> str:
        return f"TextAECEnv<{self.env}>"


def _terminate_quietly(env, agent: str) -> None:
    """The inner env's ``TerminateIllegalWrapper`` ending without PettingZoo's warning about
    ``obs['action_mask']`` (a text agent has none; the text env warns in its own words)."""
    logger = EnvLogger.get_logger()
    was_disabled, logger.disabled = logger.disabled, True
    try:
        env._terminate_illegal(agent)
    finally:
        logger.disabled = was_disabled
        EnvLogger.flush()


def text_aec_env(game: str = "garda3", opponents: dict[str, Any] | None = None, *,
                 max_invalid: int = 2, illegal_action: str = "terminate", list_moves: bool = True,
                 rules: bool = True, seed: int | None = None,
                 record_dir: str | Path | None = None, **config: Any):
    """A :class:`TextAECEnv` of the named game; with ``opponents`` (``{"player_1":
    "heuristic"}``) those seats are played by bots inside it
    (:func:`~card_envs.wrappers.opponents.with_opponents`) and only the other agents remain.

    Raises:
        ConfigError: an unknown game, config field, option or policy spec (named).
    """
    from card_envs.core.aec import CardGameEnv
    from card_envs.core.registry import resolve_game
    from card_envs.wrappers.opponents import with_opponents

    built = resolve_game(game, config)
    inner = CardGameEnv(built, f"{built.name}_v{built.version}")
    env = TextAECEnv(inner, max_invalid=max_invalid, illegal_action=illegal_action,
                     list_moves=list_moves, rules=rules, seed=seed, record_dir=record_dir)
    if opponents:
        wrapped = with_opponents(env, opponents, seed=seed, game_spec=game)
        env.listeners = move_watchers(wrapped.opponents.values())  # an llm: bot hears the moves
        return wrapped
    return env
