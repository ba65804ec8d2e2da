"""Gymnasium single-agent view of any game of the suite against opponent policies.

:class:`SingleAgentEnv` drives the :mod:`Game API <card_envs.core.game>` directly (no AEC env in
between: it is the hot loop of training). One *learner* seat is played through ``step``; every
other seat is played, inside ``step``/``reset``, by an opponent policy until it is the learner's
turn again or the game is over.

==================  ==========================================================================
Observation         ``Box(observation_low, observation_high, game.observation_shape, float32)``:
                    ``game.observe(state, learner_seat)`` — always the *learner's* own view,
                    also on the final step (the reward is paired with it). With
                    ``observation_mode="dict"`` a ``Dict`` of the observation layout's named
                    pieces (``game.observe_dict``: SB3's ``MultiInputPolicy``), with
                    ``"entities"`` the per-entity view (``game.observe_entities``: zones of card
                    rows with masks, ``globals``, ``action_targets``;
                    :mod:`card_envs.core.observation_modes`)
Action              ``Discrete(game.num_actions)``: an int, numpy integer or 0-d integer array
                    (anything else, e.g. ``3.0``, ``"3"``, ``True``, or an out-of-range id raises
                    :class:`~card_envs.core.errors.IllegalActionError`, the state unchanged:
                    :meth:`GameBase.check_action`). An in-range action the mask forbids, by
                    ``illegal_action``: ``"lose"`` (default) ends the episode as a loss, reward
                    −1, ``terminated=True``, info ``illegal_action=True`` (PettingZoo's
                    ``TerminateIllegalWrapper`` convention, the AEC env's default); ``"random_legal"``
                    plays a uniformly random legal action instead (drawn from ``self.np_random``,
                    seeded by ``reset(seed=...)`` or ``seed``), info ``illegal_action=True`` and
                    ``played_action`` (the id played); ``"raise"`` raises
                    :class:`~card_envs.core.errors.NotLegalError` (an ``IllegalActionError``)
                    naming it, the state unchanged (for masked learners: a masking bug shows at
                    once). Legality is the core's alone: the move goes to
                    ``game.apply_action``, whose ``NotLegalError`` is turned into the above, and
                    the mask is ``game.legal_action_mask`` (the env keeps only the array it
                    handed out, never consults it)
``action_masks()``  int8 ``(num_actions,)`` legal actions of the learner (for sb3-contrib
                    ``MaskablePPO``). Never all zeros: when the game is over (SB3 auto-resets
                    before it asks again) it is all ones
Reward              0 until the game ends, then ``reward_mode="returns"``: the game's return
                    for the learner's seat (±1 in two-player games); ``"win_loss"``: +1 strictly
                    best, 0 tied best, −1 otherwise. 0 when truncated. With ``shaping=c > 0``
                    (potential-based shaping, Ng et al. 1999) every step also gets
                    ``c·(shaping_gamma·Φ(s') − Φ(s))`` with ``Φ = game.potential(state, seat)``
                    in [−1, 1] at the learner's decisions and ``Φ = 0`` once the game is over,
                    so an episode's rewards sum to its return − ``c·Φ(s₀)`` (``shaping_gamma``
                    1); the optimal policy is unchanged
terminated          the game ended by its rules
truncated           the game's rule cap (``game.is_truncated``) or ``max_steps`` decisions
                    (all seats together, default ``game.max_game_length``)
info                ``seat`` (learner's seat), ``opponent`` (league kind or name),
                    ``action_mask`` (int8 ``(num_actions,)``, the same array as
                    ``action_masks()``: on every reset and step, for loops that read the mask
                    from the info, as AgileRL's; a new array at every decision and at every
                    episode end, so editing a kept mask changes no later one); at the end also ``outcome`` (1 win, 0.5 draw,
                    0 loss: :func:`card_envs.core.outcome.outcome_of`) and ``returns`` (all
                    seats)
==================  ==========================================================================

Why ``illegal_action="lose"`` by default: Gymnasium's and SB3's ``check_env`` step the env with
``action_space.sample()`` (mostly masked-out actions here), so the default must accept every id of
the action space. Ending the episode as a loss keeps the action the learner chose as the action
played: a policy trained without masks (plain SB3 ``PPO``) is taught the rules by the −1, and
scores the same way in training as in :mod:`card_envs.evaluation`, where an illegal move forfeits
the game. ``"random_legal"`` never ends a game early (every episode is a whole game), but the
learner is then credited with a move it did not choose and never learns to avoid illegal ones.
MaskablePPO (``action_masks()``) never picks a masked-out action; the trainer passes
``illegal_action="raise"``. Evaluate a masked model with its masks:
``sb3_contrib.common.maskable.evaluation.evaluate_policy`` (and ``MaskableEvalCallback``);
Stable-Baselines3's own ``evaluate_policy`` / ``EvalCallback`` predict without them, so every
game ends in a forfeit (−1). The first forfeit under ``"lose"`` in a process warns
(:class:`IllegalActionWarning`, once) and names the masked evaluation.

Privileged observations (``privileged=True``, training only): the observation is then a
``Dict`` of ``"observation"`` (the learner's own view, as above) and ``"privileged"``
(``game.observe_privileged(state, seat)``: what every other seat sees, float32
``game.privileged_shape``), for a critic that sees the hidden state while the actor sees only
its own information (:class:`card_envs.training.networks.PrivilegedCriticPolicy`). Never hand
such an env's observations to a policy that acts: the evaluation tools give policies
``game.observe`` only.

Seats: ``learner_seat=None`` (default) rotates the learner through every seat, one seat per
episode (episode ``k`` plays seat ``k % num_players``), so the agent learns every position.

Opponents (``opponents``): a policy (``act(game, state, player) -> int``), a plain
``(observation, action_mask) -> action`` callable, or an :class:`OpponentSource` — an object
with ``sample()`` returning an opponent (with ``policy``, ``kind`` and ``name``) and
``record(kind, outcome)`` — from which one opponent is sampled per episode (it then plays every
other seat of that episode, and the episode's outcome is recorded under the opponent's kind).
The training league (:class:`card_envs.training.league.League`) is such a source; this module
does not import it.
"""

from __future__ import annotations

import random
import warnings
from typing import Any, Protocol, runtime_checkable

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from card_envs.bots.base import as_policy, check_opponent, reseed_policy
from card_envs.core.config import check_choice, check_int
from card_envs.core.errors import ConfigError, NotLegalError
from card_envs.core.outcome import outcome_of
from card_envs.core.observation_modes import check_observation_mode, observer, view_space
from card_envs.core.picture import TableCamera


#: the choices of ``SingleAgentEnv(illegal_action=...)``, the default first
ILLEGAL_ACTIONS = ("lose", "random_legal", "raise")


class IllegalActionWarning(UserWarning):
    """A masked-out learner action ended an episode as a loss (``illegal_action="lose"``);
    shown once per process (filter it with ``warnings.filterwarnings("ignore",
    category=IllegalActionWarning)``)."""


#: the first forfeit under "lose" warns (once per process): SB3's own ``evaluate_policy`` and
#: ``EvalCallback`` predict without masks, so a masked model forfeits every game there
ILLEGAL_LOSS_WARNING = (
    "SingleAgentEnv: the learner's action {action} is masked out; illegal_action='lose' ended the "
    "episode as a loss (-1, info['illegal_action']=True). A masked model (sb3_contrib's "
    "MaskablePPO) forfeits this way under stable_baselines3's evaluate_policy and EvalCallback, "
    "which predict without the masks: evaluate it with "
    "sb3_contrib.common.maskable.evaluation.evaluate_policy or MaskableEvalCallback. Env checkers "
    "and a plain PPO (taught the rules by this -1) forfeit on purpose. illegal_action='raise' makes "
    "it an error. (Shown once per process.)")
#: the warnings of this module already shown in this process
_WARNED: set[str] = set()


class SampledOpponent(Protocol):
    """What :meth:`OpponentSource.sample` returns."""

    policy: Any  # a policy: act(game, state, player) -> int
    kind: str  # the slot its results are recorded under (e.g. "random", "self")
    name: str


@runtime_checkable
class OpponentSource(Protocol):
    """Opponents sampled per episode, with the episode outcomes reported back.

    Optional: ``reseed(seed)`` (called by ``reset(seed=...)``) restarts the source's sampling and
    its policies' RNGs.
    """

    def sample(self) -> SampledOpponent: ...

    def record(self, kind: str, outcome: float) -> None: ...


class SingleAgentEnv(gymnasium.Env):
    """The learner's view of ``game`` against ``opponents`` (see the module docstring).

    Args:
        game: a configured ``Game`` (``card_envs.core.registry.make_game(...)``).
        opponents: a policy, an ``(observation, action_mask) -> action`` callable, or an
            :class:`OpponentSource` (e.g. the training league).
        learner_seat: a fixed seat, or ``None`` to rotate through all seats per episode.
        reward_mode: ``"returns"`` (default) or ``"win_loss"``.
        max_steps: truncate after this many decisions (default ``game.max_game_length``).
        illegal_action: what an in-range action the mask forbids does: ``"lose"`` (default),
            ``"random_legal"`` or ``"raise"`` (see the module docstring).
        shaping: weight ``c >= 0`` of potential-based reward shaping (0, default: off; needs a
            game with ``potential``).
        shaping_gamma: the learner's discount (PPO's ``gamma``) used in the shaping term.
        render_mode: ``None``, ``"ansi"`` (text), ``"human"`` (that text printed to stdout at
            every reset and step) or ``"rgb_array"`` (a picture, ``uint8 (H, W, 3)``;
            ``metadata["render_fps"]`` 2): see :meth:`render`. Through ``gymnasium.make`` also
            ``"ansi_list"`` / ``"rgb_array_list"`` (Gymnasium's ``RenderCollection``: every
            frame since the last ``render()``).
        render_seat: whose view ``render()`` shows: ``None`` (the whole table), ``"learner"``
            (the learner's seat of each episode) or a seat ``0..num_players-1``.
        seed: seed of the env's game-seed sequence (``reset(seed=...)`` reseeds it, the seat
            rotation, the opponent source and the opponents' own ``rng``).
        privileged: ``True``: observations are ``{"observation", "privileged"}`` dicts (see the
            module docstring; training a privileged critic only; flat observations only).
        observation_mode: ``"flat"`` (default), ``"dict"`` or ``"entities"`` (the learner's
            view in that mode; :mod:`card_envs.core.observation_modes`).

    Raises:
        ConfigError: naming the keyword, at construction: an unknown ``reward_mode``,
            ``illegal_action`` or ``render_mode``; a ``learner_seat`` that is not ``None`` or a
            seat (a bool is refused); ``max_steps`` not ``None`` or an int >= 1; ``seed`` not
            ``None`` or an int >= 0; ``opponents`` neither an :class:`OpponentSource`, a policy
            whose ``act`` takes ``(game, state, player)`` nor a callable taking
            ``(observation, action_mask)`` (:func:`card_envs.bots.base.policy_problem`); a
            ``render_seat`` that is not ``None``, ``"learner"`` or a seat (a bool is refused);
            ``shaping`` not a number >= 0, or shaping on a game without ``potential``;
            ``shaping_gamma`` not a number in [0, 1]; an unknown ``observation_mode`` (or
            ``"entities"`` for a game without an entity view, or another mode than ``"flat"``
            with ``privileged``).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game,
        opponents,
        learner_seat: int | None = None,
        reward_mode: str = "returns",
        max_steps: int | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        shaping: float = 0.0,
        shaping_gamma: float = 1.0,
        render_seat: int | str | None = None,
        privileged: bool = False,
        observation_mode: str = "flat",
    ):
        check_choice("reward_mode", reward_mode, ["returns", "win_loss"])
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_action = illegal_action
        if not _is_number(shaping) or not 0.0 <= shaping:
            raise ConfigError(f"config field 'shaping': expected a number >= 0, got {shaping!r}")
        if not _is_number(shaping_gamma) or not 0.0 <= shaping_gamma <= 1.0:
            raise ConfigError(f"config field 'shaping_gamma': expected a number in [0, 1], got "
                              f"{shaping_gamma!r}")
        if shaping and not game.facts.provides_potential:
            raise ConfigError(
                f"shaping={shaping}: game {game.name!r} has no potential() to shape with (its "
                "facts: provides_potential is False)")
        self.shaping = float(shaping)
        self.shaping_gamma = float(shaping_gamma)
        self._phi = 0.0
        check_choice("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        if isinstance(render_seat, bool):  # True == 1: would silently draw seat 1
            raise ConfigError(f"config field 'render_seat': expected None, 'learner' or a seat "
                              f"0..{game.num_players - 1}, got the bool {render_seat!r}")
        check_choice("render_seat", render_seat, [None, "learner", *range(game.num_players)])
        self.render_seat = render_seat
        #: rgb_array frames (card_envs.core.picture): the seat drawn for and the moves since the
        #: last frame (the learner's and the opponents')
        self._camera = TableCamera(game) if render_mode == "rgb_array" else None
        if isinstance(learner_seat, (bool, np.bool_)):  # True == 1: would play seat 1
            raise ConfigError(f"config field 'learner_seat': expected None or a seat "
                              f"0..{game.num_players - 1}, got the bool {learner_seat!r}")
        if learner_seat is not None and not isinstance(learner_seat, (int, np.integer)):
            raise ConfigError(f"config field 'learner_seat': expected None or a seat "
                              f"0..{game.num_players - 1}, got {learner_seat!r}")
        check_choice("learner_seat", learner_seat, [None, *range(game.num_players)])
        learner_seat = None if learner_seat is None else int(learner_seat)
        if max_steps is not None:
            check_int("max_steps", max_steps, 1)
        if seed is not None:
            check_int("seed", seed, 0)
        self.game = game
        self.source = opponents if isinstance(opponents, OpponentSource) else None
        if self.source is None:
            check_opponent(opponents, "config field 'opponents'")
        self._fixed_opponent = None if self.source is not None else as_policy(opponents)
        self.learner_seat = learner_seat
        self.reward_mode = reward_mode
        self.render_mode = render_mode
        self.max_steps = max_steps if max_steps is not None else int(game.max_game_length)
        if privileged.__class__ is not bool:
            raise ConfigError(f"privileged must be True or False, got {privileged!r}")
        self.privileged = privileged
        self.observation_mode = check_observation_mode(game, observation_mode)
        if privileged and observation_mode != "flat":
            raise ConfigError(f"config field 'observation_mode': {observation_mode!r} with "
                              "privileged=True (the privileged critic reads flat observations)")
        #: (state, seat) -> the learner's observation in the mode
        self._view = observer(game, observation_mode)
        own = view_space(game, observation_mode)
        self.observation_space = own if not privileged else spaces.Dict({
            "observation": own,
            "privileged": spaces.Box(low=game.observation_low, high=game.observation_high,
                                     shape=game.privileged_shape, dtype=np.float32)})
        self.action_space = spaces.Discrete(game.num_actions)
        self._seeder = random.Random(seed)
        if seed is not None:  # "random_legal" draws from np_random: seeded with the env
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        self._mask = self._all_ones()
        self.episode = 0
        self.state = None
        self.seat = 0
        self.opponent_kind = "fixed"
        self.opponent_name = getattr(self._fixed_opponent, "name", "opponent")
        self._opponent = self._fixed_opponent
        self._done = True

    # -- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a game (rotating the learner's seat) and play the opponents up to the learner's
        first decision. ``options={"seat": i}`` forces seat ``i`` for this episode;
        ``options={"opponent": policy}`` forces the opponent."""
        super().reset(seed=seed)
        if seed is not None:
            self._reseed(seed)
        options = options or {}
        game = self.game
        for _attempt in range(100):
            if "seat" in options:
                seat = options["seat"]
                if seat.__class__ is not int or not 0 <= seat < game.num_players:
                    raise ConfigError(f"options['seat']: {seat!r} is not a seat "
                                      f"(0..{game.num_players - 1})")
                self.seat = seat
            elif self.learner_seat is not None:
                self.seat = self.learner_seat
            else:
                self.seat = self.episode % game.num_players
            self.episode += 1
            if "opponent" in options:
                check_opponent(options["opponent"], "options['opponent']")
                self._opponent = as_policy(options["opponent"])
                self.opponent_kind = self.opponent_name = getattr(self._opponent, "name", "forced")
            elif self.source is not None:
                opp = self.source.sample()
                self._opponent, self.opponent_kind, self.opponent_name = (
                    opp.policy,
                    opp.kind,
                    opp.name,
                )
            self.state = game.new_state(self._seeder.getrandbits(63))
            if self._camera is not None:
                self._camera.reset(self._render_seat(), keep_seat=False)
            self._decisions = 0
            self._done = False
            finished = self._play_opponents()
            if not finished:
                break
            # the game ended before the learner ever decided: not an episode, deal again
        else:  # pragma: no cover - a game that never lets the learner act
            raise RuntimeError(f"{game.name}: the learner's seat never got a decision in 100 games")
        if self.shaping:
            self._phi = game.potential(self.state, self.seat)
        if self.render_mode == "human":
            self.render()
        return self._observe(), {
            "seat": self.seat,
            "opponent": self.opponent_kind,
            "action_mask": self._mask,
        }

    def step(self, action):
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset()")
        game, state = self.game, self.state
        a = game.check_action(state, action)  # type and range: the core's one check
        substituted = False
        before = game.clone(state) if self._camera is not None else None
        try:
            game.apply_action(state, a)  # legality: the core's one check
        except NotLegalError:
            if self.illegal_action == "random_legal":
                a = int(self.np_random.choice(game.legal_actions(state)))
                substituted = True
                game.apply_action(state, a)
            elif self.illegal_action == "lose":
                if "lose" not in _WARNED:
                    _WARNED.add("lose")
                    warnings.warn(ILLEGAL_LOSS_WARNING.format(action=a), IllegalActionWarning,
                                  stacklevel=2)
                self._done = True
                self._mask = self._all_ones()
                if self.source is not None:
                    self.source.record(self.opponent_kind, 0.0)
                info = {"seat": self.seat, "opponent": self.opponent_kind,
                        "action_mask": self._mask, "outcome": 0.0, "illegal_action": True}
                reward = -1.0 - self.shaping * self._phi  # a finished game's potential is 0
                if self.render_mode == "human":
                    self.render()
                return self._observe(), reward, True, False, info
            else:
                raise NotLegalError(
                    f"learner action {a} ({game.action_to_string(state, a)}) is not "
                    f"legal now; legal actions: {game.legal_actions(state)}"
                ) from None
        if before is not None:  # named as the state before the move showed it
            self._camera.before_move(before, a)
        self._decisions += 1
        finished = self._play_opponents()
        if self.render_mode == "human":
            self.render()
        obs = self._observe()
        info = {"seat": self.seat, "opponent": self.opponent_kind}
        if substituted:
            info["illegal_action"] = True
            info["played_action"] = a
        if not finished:
            shaped = 0.0
            if self.shaping:
                phi = game.potential(state, self.seat)
                shaped = self.shaping * (self.shaping_gamma * phi - self._phi)
                self._phi = phi
            info["action_mask"] = self._mask
            return obs, shaped, False, False, info
        self._done = True
        self._mask = info["action_mask"] = self._all_ones()
        truncated = not game.is_terminal(state) or game.is_truncated(state)
        returns = [0.0] * game.num_players if truncated else [float(r) for r in game.returns(state)]
        if truncated:
            reward, outcome = 0.0, 0.5
        else:
            outcome = outcome_of(returns, self.seat)
            if self.reward_mode == "returns":
                reward = returns[self.seat]
            else:
                reward = {1.0: 1.0, 0.5: 0.0, 0.0: -1.0}[outcome]
        if self.shaping:  # the potential of a finished game is 0 (potential-based shaping)
            reward -= self.shaping * self._phi
        info["outcome"] = outcome
        info["returns"] = returns
        if self.source is not None:
            self.source.record(self.opponent_kind, outcome)
        return obs, float(reward), not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_actions,)``: the learner's legal actions (all ones once the game is over,
        never all zeros)."""
        return self._mask

    def _all_ones(self) -> np.ndarray:
        """A fresh all-ones mask (the mask of a finished episode): each episode end gets its
        own array, so a user who edits a kept mask changes no later one."""
        return np.ones(self.game.num_actions, dtype=np.int8)

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the table as text (``game.render``; with ``render_seat``, that seat's
        ``game.render_view``); ``"human"``: prints that text (also done by every ``reset`` and
        ``step``), returns ``None``; ``"rgb_array"``: its picture, ``uint8 (H, W, 3)``, the size
        fixed by the game config (:mod:`card_envs.core.picture`: cards with their values, HP /
        scores, the seat to act, every move since the previous frame: the learner's and the
        opponents' played inside ``step``), for Gymnasium's ``RecordVideo`` (needs
        ``pip install "card-envs[video]"``, moviepy); ``None`` before the first reset or
        without a render mode. ``render_seat``: ``None`` (default) the whole table, every card
        face up; ``"learner"`` the learner's seat of the episode; an int seat: only what that
        seat may see."""
        if self.state is None:
            return None
        if self._camera is not None:
            return self._camera.frame(self.state)
        if self.render_mode in ("ansi", "human"):
            seat = self._render_seat()
            text = (self.game.render(self.state) if seat is None
                    else self.game.render_view(self.state, seat))
            if self.render_mode == "ansi":
                return text
            print(text)
        return None

    def _render_seat(self) -> int | None:
        return self.seat if self.render_seat == "learner" else self.render_seat

    # -- internals -----------------------------------------------------------------------------
    def _observe(self):
        obs = self._view(self.state, self.seat)
        if not self.privileged:
            return obs
        return {"observation": obs,
                "privileged": self.game.observe_privileged(self.state, self.seat)}

    def _reseed(self, seed: int) -> None:
        """Equal seeds give equal episodes: the game-seed sequence, the seat rotation, and the
        opponent source (its ``reseed``) or the fixed opponent's ``rng`` restart from ``seed``."""
        self._seeder = random.Random(seed)
        self.episode = 0
        if self.source is None:
            reseed_policy(self._fixed_opponent, seed * 7919)
        elif hasattr(self.source, "reseed"):
            self.source.reseed(seed)

    def _play_opponents(self) -> bool:
        """Let opponents move until the learner is to act (returns False, mask ready) or the game
        is over / capped (returns True)."""
        game, state, seat, opponent = self.game, self.state, self.seat, self._opponent
        cap = self.max_steps
        while True:
            if game.is_terminal(state) or self._decisions >= cap:
                return True
            p = game.current_player(state)
            if p == seat:
                mask = game.legal_action_mask(state)
                if not mask.any():  # pragma: no cover - a game contract violation
                    raise RuntimeError(
                        f"{game.name}: no legal action for the seat to act in a live game"
                    )
                self._mask = mask
                return False
            a = opponent.act(game, state, p)
            if self._camera is not None:
                self._camera.before_move(state, a)
            game.apply_action(state, a)
            self._decisions += 1


def _is_number(value: Any) -> bool:
    """An int or float (numpy's too), not a bool, not NaN."""
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, (bool, np.bool_)) and not np.isnan(value))


#: the keywords of :func:`make_single_agent_env` that configure the env; every other keyword is
#: a field of the game's config
ENV_KEYWORDS = ("learner_seat", "reward_mode", "max_steps", "seed", "render_mode",
                "illegal_action", "shaping", "shaping_gamma", "render_seat", "privileged",
                "observation_mode")


def make_single_agent_env(game: str = "garda3", opponent: Any = "random",
                          **kwargs: Any) -> SingleAgentEnv:
    """A :class:`SingleAgentEnv` from names: the entry point of the Gymnasium ids
    (``gymnasium.make("card_envs/Garda3-v0", opponent="heuristic", variant="royale")``).

    Args:
        game: a registry name (``"garda3"``) or ``"package.module:factory"``
            (:func:`card_envs.core.registry.resolve_game`).
        opponent: a policy spec as ``card-envs evaluate`` takes it (``"random"``, ``"heuristic"``,
            ``"ismcts:100"``, ``"heuristic+lookahead:8"``, ``"runs/x/model.zip"``,
            ``"package.module:name"``: :func:`card_envs.bots.specs.resolve_policy`),
            or a policy / callable / :class:`OpponentSource` object; it plays every other seat.
        **kwargs: :data:`ENV_KEYWORDS` go to :class:`SingleAgentEnv` (``seed`` also seeds a
            spec's policy); the rest are the game's config fields (``variant="royale"``,
            ``level=3``, ``num_players=3``).

    Raises:
        ConfigError: an unknown game, config field or policy spec, an ``opponent`` object that
            is no policy (:func:`card_envs.bots.base.policy_problem`), a bad env keyword (each
            named; see :class:`SingleAgentEnv`).
    """
    from card_envs.bots.specs import resolve_game, resolve_policy

    env_kwargs = {k: kwargs.pop(k) for k in ENV_KEYWORDS if k in kwargs}
    if not isinstance(opponent, str) and not isinstance(opponent, OpponentSource):
        check_opponent(opponent, "config field 'opponent'")  # before any game is built
    built = resolve_game(game, kwargs)
    if isinstance(opponent, str):
        opponent = resolve_policy(opponent, game, seed=env_kwargs.get("seed"), game=built)
    return SingleAgentEnv(built, opponent, **env_kwargs)


#: Gymnasium reads the render modes from the entry point's ``metadata`` (``gymnasium.make``): with
#: it, ``render_mode="rgb_array_list"`` / ``"ansi_list"`` wrap the env in ``RenderCollection``
make_single_agent_env.metadata = SingleAgentEnv.metadata
