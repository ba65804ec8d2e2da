"""OpenSpiel view of every game of the suite: a ``pyspiel`` Python game over the Game API.

Importing this module registers one OpenSpiel game per game of the registry
(:data:`card_envs.core.registry.GAMES`, those whose modules import here): ``"card_envs_garda3"``,
``"card_envs_scratch_wars"``, ``"card_envs_dirt_and_glory"``, … (nothing here names a game). A
game added to the registry after this import is registered by :func:`register` or on its first
:func:`load_game` (``pyspiel.load_game("card_envs_<name>")`` knows it only from then on). OpenSpiel's algorithms then run on
them: its ISMCTS bot (``open_spiel.python.algorithms.ismcts``), ``evaluate_bots``, random
simulation, its RL environment. Needs the ``openspiel`` extra (``pip install
"card-envs[openspiel]"``, ``open_spiel==2.0.2``); without it the import raises
:class:`~card_envs.core.extras.MissingExtraError` (an ImportError) with that one-line hint.

.. code-block:: python

    import pyspiel
    from card_envs.wrappers import openspiel          # registers the games
    game = openspiel.load_game("garda3", variant="royale", rng_seed=7)
    # or: pyspiel.load_game("card_envs_garda3", {"config": '{"variant": "royale"}', "rng_seed": 7})
    state = game.new_initial_state()                  # plays make_game("garda3", ...).new_state(7)

Game parameters (OpenSpiel's ``parameter_specification``)
=========================================================

=================  ===========  ===================================================================
``config``         str, ``{}``   the game's config as a JSON object (``make_game(name, **config)``;
                                 e.g. ``'{"variant": "royale+night"}'``); a bad value raises the
                                 game's ``ConfigError`` naming the field
``rng_seed``       int, ``0``    seed of the deals: the ``k``-th state this game object deals
                                 (``k = 0, 1, …``, in the order the states are first used) plays
                                 ``new_state(rng_seed + k)``; ``-1``: a base drawn from the OS
                                 (not reproducible). :meth:`CardEnvsGame.new_initial_state_for_seed`
                                 deals a given seed
``history_slots``  int, ``128``  own decisions recorded in the information-state tensor
=================  ===========  ===================================================================

Game type and info
==================

* ``dynamics`` SEQUENTIAL; ``chance_mode`` **SAMPLED_STOCHASTIC**: there are no chance nodes;
  every chance event (shuffles, draws, dice) happens inside ``apply_action`` from the state's own
  RNG (``state.rng`` of our state, seeded by the deal seed above), so ``clone()`` copies the RNG
  and a clone plays on exactly as the original; ``max_chance_outcomes`` 0.
* ``information`` IMPERFECT_INFORMATION for every game, Scratch Wars (every card public) too:
  an OpenSpiel state here holds the game's seeded RNG, so the future shuffles, draws and spins
  are part of it and no seat knows them (``resample_from_infostate`` reseeds them). OpenSpiel's
  ISMCTS requires the type (it asserts it); a perfect-information algorithm that reads a clone
  (plain MCTS, minimax) would see the future chance outcomes. ``utility`` ZERO_SUM
  (``utility_sum`` 0) when the game declares ``facts.zero_sum`` (every game of the suite does),
  else GENERAL_SUM;
  ``reward_model`` TERMINAL: ``returns()`` = our ``Game.returns`` in the game's declared units
  (``facts.utility``: ±1 a win or a loss, chips, a score difference; zeros mid-game),
  ``rewards()`` the same at the end and zeros before.
* ``min_utility``/``max_utility``: the game's declared facts (``card_game.facts.min_utility``,
  ``max_utility``; nothing else is read): −1 / 1 for every win/loss reward; the chips at stake
  in a chip game; a score reward (Dirt and Glory's ``reward="score"``, a score difference): the
  declared static bound of a score.
* ``num_distinct_actions`` = ``num_actions`` (our action ids unchanged), ``num_players`` from the
  config (the game type's ``min_num_players``/``max_num_players`` are :data:`TYPE_MIN_PLAYERS` /
  :data:`TYPE_MAX_PLAYERS`, 1/16: the config decides),
  ``max_game_length`` = our ``max_game_length``; ``current_player()`` our seat, or
  ``pyspiel.PlayerId.TERMINAL`` once over.

Observations (``make_py_observer``; OpenSpiel's default and info-state observation types)
======================================================================================

=====================================  ===========================================================
``observation_tensor(p)``              float32 ``(observation_size,)``: exactly our
                                       ``Game.observe(state, p)`` (same entries, same bounds
                                       ``observation_low .. observation_high``; the env module's
                                       observation table is its layout); one piece named
                                       ``"observation"``
``observation_string(p)``              our ``Game.render_view(state, p)``: seat ``p``'s text view
``information_state_tensor(p)``        float32 ``(observation_size + history_slots ×
                                       num_actions,)``: pieces ``"observation"`` (our observation)
                                       then ``"own_actions"`` ``(history_slots, num_actions)``: row
                                       ``i`` one-hot of ``p``'s ``i``-th own decision (zeros after
                                       the last; decisions past ``history_slots`` are not in the
                                       tensor). Past observations are in it only as far as our
                                       observation keeps them (a tensor of every past
                                       observation would be ``max_game_length × observation_size``)
``information_state_string(p)``        perfect recall: one line per event ``p`` has seen, in
                                       order: ``"seat p start obs=<digest>"``, then for every
                                       decision ``"seat k: <action as p sees it> obs=<digest>"``
                                       (``Game.action_seen_by``: a card played face down stays
                                       unnamed; the digest is a 64-bit BLAKE2b of ``p``'s
                                       observation after the move), so two histories ``p`` can
                                       tell apart give different strings
=====================================  ===========================================================

Other observation types (public-only, all players' private information) raise ``ValueError``.

``resample_from_infostate(p, sampler)`` (used by OpenSpiel's ISMCTS): a state consistent with
seat ``p``'s information, ``Game.sample_hidden(state, p, random.Random(seed))`` with ``seed =
int(sampler() × 2**53)`` (OpenSpiel's ISMCTS passes a randomly seeded sampler; give it
:func:`seeded_resampler` to repeat its searches); ``p``'s records are kept (the same
information-state string and tensor); the other seats' records restart at that point (``"seat k
resampled for seat p obs=<digest>"``, no own actions): their past views belong to the real deal
and are not ``p``'s to know. A ``p`` that is not a seat ``0..num_players-1`` raises ``ValueError``
naming it and the range.

``apply_action(a)`` checks ``a`` as our ``Game.apply_action`` does (an action id in
``[0, num_actions)``, legal now) before anything reads it, so a bad ``a`` raises
:class:`SpielIllegalActionError` naming it in every game, the state unchanged: both OpenSpiel's
``pyspiel.SpielError`` (what OpenSpiel's tools catch: RLlib's ``OpenSpielEnv`` then plays a
random legal action and gives the mover −0.1) and our ``IllegalActionError`` (a ``ValueError``),
with our message (OpenSpiel itself refuses ``-1``, its ``kInvalidAction``, with a plain
``SpielError``).

:func:`from_game_state` wraps a state of our Game API (its records starting there), and
:class:`OpenSpielPolicy` plays an OpenSpiel bot as a policy of :mod:`card_envs.evaluation`.

Version history: 1 (first release: every registered game; SAMPLED_STOCHASTIC; perfect-recall
information state). 2: every game IMPERFECT_INFORMATION (Scratch Wars was PERFECT_INFORMATION,
so OpenSpiel's ISMCTS refused it with a bare AssertionError); a bad action raises
:class:`SpielIllegalActionError`, a ``pyspiel.SpielError`` (was our ``IllegalActionError`` alone,
which RLlib's ``OpenSpielEnv`` does not catch).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np

from card_envs.core.extras import require_extra

# MissingExtraError (an ImportError): 'card_envs.wrappers.openspiel needs the "openspiel" extra:
# pip install "card-envs[openspiel]" (not installed: pyspiel)'
require_extra("openspiel", "card_envs.wrappers.openspiel")

import pyspiel

from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.game import GameBase
from card_envs.core.registry import GAMES, available_games, make_game

__all__ = ["PREFIX", "CardEnvsGame", "CardEnvsState", "OpenSpielPolicy", "SpielIllegalActionError",
           "from_game_state", "load_game", "register", "registered_names", "seeded_resampler",
           "short_name"]


class SpielIllegalActionError(IllegalActionError, pyspiel.SpielError):
    """A bad action given to a bridged state's ``apply_action``: OpenSpiel's ``SpielError`` (so
    OpenSpiel's tools and RLlib's ``OpenSpielEnv`` handle it as any OpenSpiel game's) and our
    :class:`~card_envs.core.errors.IllegalActionError`, with the game's message naming the
    action (``"garda3: action 44 (...) is not legal in phase 'draft'; legal: [...]"``)."""

#: OpenSpiel short names are ``PREFIX + <registry name>``
PREFIX = "card_envs_"
#: own decisions recorded in the information-state tensor by default
DEFAULT_HISTORY_SLOTS = 128
#: ``rng_seed`` value that draws the base seed from the OS
RANDOM_SEED = -1
#: the seat range of every registered game type: wide, because a game's config decides its seats
#: (``GameInfo.num_players``); above every game's own limit (Dirt and Glory's 5 the largest)
TYPE_MIN_PLAYERS, TYPE_MAX_PLAYERS = 1, 16

_REGISTERED: dict[str, Any] = {}
#: the game parameters and their defaults (module docstring)
_DEFAULT_PARAMS: dict[str, Any] = {"config": "{}", "rng_seed": 0,
                                   "history_slots": DEFAULT_HISTORY_SLOTS}


def short_name(game_name: str) -> str:
    """``"card_envs_<game_name>"``: the OpenSpiel name of registry game ``game_name``."""
    return PREFIX + game_name


def registered_names() -> list[str]:
    """The OpenSpiel short names this module registered (one per game of the registry)."""
    return sorted(_REGISTERED)


def _digest(obs: np.ndarray) -> str:
    return hashlib.blake2b(obs.tobytes(), digest_size=8).hexdigest()


class _Shared:
    """What every state of one OpenSpiel game shares: our game, the deal seeds, the settings
    (never copied by ``clone``: ``deepcopy`` returns it)."""

    def __init__(self, card_game, rng_seed: int, history_slots: int):
        self.game = card_game
        self.base_seed = rng_seed
        self.dealt = 0
        self.history_slots = history_slots

    def next_seed(self) -> int:
        seed = self.base_seed + self.dealt
        self.dealt += 1
        return seed

    def __deepcopy__(self, memo):
        return self


class _Play:
    """One game in progress: our state (dealt on first use) and every seat's records (the
    information-state string lines and own actions)."""

    __slots__ = ("_state", "lines", "own", "shared")

    def __init__(self, shared: _Shared, state=None, lines=None, own=None):
        self.shared = shared
        self._state = state
        self.lines = lines
        self.own = own
        if state is not None and lines is None:
            self._start()

    def _start(self, prefix: str = "start") -> None:
        game, n = self.shared.game, self.shared.game.num_players
        self.lines = [[f"seat {p} {prefix} obs={_digest(game.observe(self._state, p))}"]
                      for p in range(n)]
        self.own = [[] for _ in range(n)]

    @property
    def state(self):
        if self._state is None:  # dealt now: the deal order is the order of first use
            self._state = self.shared.game.new_state(self.shared.next_seed())
            self._start()
        return self._state

    def apply(self, action: int) -> None:
        game, state = self.shared.game, self.state
        # the Game API's checks first (type, range, legality), so every game raises its
        # IllegalActionError before action_seen_by reads the action; raised on as a SpielError
        try:
            action = game.check_action(state, action)
            if action not in game.legal_actions(state):
                game.apply_action(state, action)  # raises IllegalActionError; state unchanged
                raise AssertionError(f"{game.name}: apply_action took illegal action {action}")
        except IllegalActionError as exc:
            raise SpielIllegalActionError(str(exc)) from None
        actor = game.current_player(state)
        seen = [game.action_seen_by(state, action, p) for p in range(game.num_players)]
        game.apply_action(state, action)
        self.own[actor].append(action)
        for p, text in enumerate(seen):
            self.lines[p].append(f"seat {actor}: {text} obs={_digest(game.observe(state, p))}")

    def __deepcopy__(self, memo):
        return _Play(self.shared, self.shared.game.clone(self.state),
                     [list(x) for x in self.lines], [list(x) for x in self.own])

    def __getstate__(self):
        return {"shared": self.shared, "state": self.state, "lines": self.lines, "own": self.own}

    def __setstate__(self, data):
        self.shared, self._state = data["shared"], data["state"]
        self.lines, self.own = data["lines"], data["own"]


class CardEnvsState(pyspiel.State):
    """An OpenSpiel state over one of our game states (the module docstring lists the mapping).

    ``game_state`` is our state (read it, do not change it: play through ``apply_action``)."""

    def __init__(self, game: CardEnvsGame, play: _Play | None = None):
        super().__init__(game)
        self._play = play if play is not None else _Play(game.shared)

    @property
    def game_state(self):
        """Our Game API state (``game.card_game``'s state type)."""
        return self._play.state

    def current_player(self):
        p = self._play.shared.game.current_player(self._play.state)
        return pyspiel.PlayerId.TERMINAL if p == -1 else p

    def _legal_actions(self, player):
        return list(self._play.shared.game.legal_actions(self._play.state))

    def _apply_action(self, action):
        self._play.apply(int(action))

    def _action_to_string(self, player, action):
        return self._play.shared.game.action_to_string(self._play.state, int(action))

    def is_terminal(self):
        return self._play.shared.game.is_terminal(self._play.state)

    def returns(self):
        return [float(r) for r in self._play.shared.game.returns(self._play.state)]

    def rewards(self):
        return self.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with seat ``player_id``'s information (``Game.sample_hidden``
        with ``random.Random(int(probability_sampler() * 2**53))``); ``player_id``'s records
        kept, the other seats' restarted (module docstring).

        Raises:
            ValueError: ``player_id`` is not a seat ``0..num_players-1`` (named, with the range).
        """
        play = self._play
        game = play.shared.game
        n = game.num_players
        if (isinstance(player_id, (bool, np.bool_))
                or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < n):
            raise ValueError(f"{game.name}: resample_from_infostate: player_id {player_id!r} is "
                             f"not a seat; valid player ids are 0..{n - 1}")
        player_id = int(player_id)
        seed = int(probability_sampler() * 2**53)
        sampled = game.sample_hidden(play.state, int(player_id), random.Random(seed))
        new = self.clone()
        fresh = _Play(play.shared, sampled)
        fresh._start(prefix=f"resampled for seat {player_id}")
        fresh.lines[player_id] = list(play.lines[player_id])
        fresh.own[player_id] = list(play.own[player_id])
        new._play = fresh
        return new

    def __str__(self):
        return self._play.shared.game.render(self._play.state)

    def __reduce__(self):
        # OpenSpiel pickles a state with SerializeGameAndState, which a SAMPLED_STOCHASTIC Python
        # game cannot give (it asks the game for an RNG state); the state's own serialize() (its
        # pickled attributes: our state, the records) carries everything
        game = self.get_game()
        return _load_state, (game.get_type().short_name, game.get_parameters(), self.serialize())


def _load_state(name: str, params: dict, serialized: str) -> CardEnvsState:
    return pyspiel.load_game(name, params).deserialize_state(serialized)


class _Observer:
    """OpenSpiel's PyObserver interface (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, game: CardEnvsGame, perfect_recall: bool):
        card, slots = game.card_game, game.shared.history_slots
        size = int(np.prod(card.observation_shape))
        self.perfect_recall = perfect_recall
        self.slots = slots
        self.tensor = np.zeros(size + (slots * card.num_actions if perfect_recall else 0),
                               np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[size:].reshape(slots, card.num_actions)

    def set_from(self, state: CardEnvsState, player: int) -> None:
        play = state._play
        self.dict["observation"][:] = play.shared.game.observe(play.state, int(player))
        if self.perfect_recall:
            own = self.dict["own_actions"]
            own.fill(0.0)
            actions = play.own[player][:self.slots]
            if actions:
                own[np.arange(len(actions)), actions] = 1.0

    def string_from(self, state: CardEnvsState, player: int) -> str:
        play = state._play
        play.state  # noqa: B018 - dealt on first use
        if self.perfect_recall:
            return "\n".join(play.lines[player])
        return play.shared.game.render_view(play.state, int(player))


class CardEnvsGame(pyspiel.Game):
    """The OpenSpiel game of one of our games and configs (module docstring: parameters).

    Attributes:
        card_game: our configured Game (``make_game(name, **config)``).
    """

    #: the registry name of the game (set on the class registered for each game)
    card_game_name: str = ""

    def __init__(self, params: dict | None = None):
        name = self.card_game_name
        params = dict(params or {})
        params = {**_DEFAULT_PARAMS, **params}
        config = _config_from_param(params["config"])
        rng_seed, slots = params["rng_seed"], params["history_slots"]
        if rng_seed < RANDOM_SEED:
            raise ConfigError(f"rng_seed: {rng_seed} is not a seed (>= 0, or -1: from the OS)")
        if slots < 1:
            raise ConfigError(f"history_slots: {slots} must be >= 1")
        card = make_game(name, **config)
        if rng_seed == RANDOM_SEED:
            rng_seed = random.SystemRandom().randrange(2**62)
        self.card_game = card
        self.shared = _Shared(card, rng_seed, slots)
        facts = card.facts
        info = pyspiel.GameInfo(
            num_distinct_actions=card.num_actions, max_chance_outcomes=0,
            num_players=card.num_players, min_utility=facts.min_utility,
            max_utility=facts.max_utility, utility_sum=0.0 if facts.zero_sum else None,
            max_game_length=card.max_game_length)
        super().__init__(_game_type(name, card), info, params)

    def __reduce__(self):
        # OpenSpiel pickles a game with its RNG state, which a Python game cannot give: a copy is
        # the same game with the same deal counter (its next state is dealt as this one's)
        return _load_game, (self.get_type().short_name, self.get_parameters(),
                            self.shared.base_seed, self.shared.dealt)

    def new_initial_state(self, *args):
        """A fresh state, dealt on first use with the next deal seed (module docstring)."""
        return CardEnvsState(self)

    def new_initial_state_for_seed(self, seed: int) -> CardEnvsState:
        """A fresh state playing our ``new_state(seed)`` (the deal counter is not advanced)."""
        return CardEnvsState(self, _Play(self.shared, self.card_game.new_state(seed)))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Our observation (default type) or the perfect-recall information state.

        Raises:
            ValueError: observation parameters, or a type other than OpenSpiel's default and
                info-state types (public-only or all players' private information)."""
        if params:
            raise ValueError(f"{self.get_type().short_name}: observation parameters are not "
                             f"supported, got {params}")
        if iig_obs_type is None:
            return _Observer(self, perfect_recall=False)
        if not iig_obs_type.public_info or \
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                f"{self.get_type().short_name}: observation type {iig_obs_type} is not supported "
                "(only one seat's own view: public_info=True, private_info=SINGLE_PLAYER)")
        return _Observer(self, perfect_recall=iig_obs_type.perfect_recall)


def _load_game(name: str, params: dict, base_seed: int, dealt: int) -> CardEnvsGame:
    game = pyspiel.load_game(name, params)
    game.shared.base_seed, game.shared.dealt = base_seed, dealt
    return game


def _config_from_param(value: Any) -> dict:
    if not isinstance(value, str):
        raise ConfigError(f"config: expected a JSON object as a string, got {value!r}")
    try:
        config = json.loads(value) if value.strip() else {}
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config: {value!r} is not JSON ({exc.msg} at char {exc.pos})") \
            from None
    if not isinstance(config, dict):
        raise ConfigError(f"config: {value!r} is not a JSON object")
    return config


def load_game(name: str, rng_seed: int = 0, history_slots: int = DEFAULT_HISTORY_SLOTS,
              **config: Any) -> CardEnvsGame:
    """``pyspiel.load_game`` of registry game ``name`` with config fields as keyword arguments
    (``load_game("garda3", variant="royale", rng_seed=7)``).

    A registry game not registered with OpenSpiel yet (added to the registry after this
    module's import) is registered first (:func:`register`).

    Raises:
        ConfigError: an unknown game (naming the known ones) or a bad config value."""
    if short_name(name) not in _REGISTERED:
        if name not in GAMES:
            raise ConfigError(f"unknown game {name!r}; registered with OpenSpiel: "
                              f"{sorted(n[len(PREFIX):] for n in _REGISTERED)}")
        register(name)
    return pyspiel.load_game(short_name(name), {"config": json.dumps(config),
                                                "rng_seed": rng_seed,
                                                "history_slots": history_slots})


def from_game_state(game: CardEnvsGame, state) -> CardEnvsState:
    """An OpenSpiel state over a copy of our state ``state`` of ``game.card_game``; every seat's
    records start there (``"seat p start obs=..."``, no own actions)."""
    return CardEnvsState(game, _Play(game.shared, game.card_game.clone(state)))


def seeded_resampler(seed: int):
    """A resampler for OpenSpiel's ISMCTS (``bot.set_resampler(seeded_resampler(7))``) whose
    deals come from one ``pyspiel.UniformProbabilitySampler(seed, 0, 1)``: the bot's own default
    builds a fresh, randomly seeded sampler every simulation, so its searches do not repeat."""
    sampler = pyspiel.UniformProbabilitySampler(int(seed), 0.0, 1.0)

    def resample(state, player):
        return state.resample_from_infostate(player, sampler)

    return resample


class OpenSpielPolicy:
    """An OpenSpiel bot (``step(state) -> action``) as a policy of :mod:`card_envs.bots.base`
    (``act(game, state, player)``), e.g. for :func:`card_envs.evaluation.play_match`.

    Each decision wraps our state with :func:`from_game_state` (the bot searches from there; a
    bot that keeps a tree across moves, like ISMCTS, rebuilds it every move anyway).

    Args:
        bot: the OpenSpiel bot (``pyspiel.Bot`` or anything with ``step``).
        game: the :class:`CardEnvsGame` whose ``card_game`` the match plays.
        name: shown in match summaries.
    """

    def __init__(self, bot, game: CardEnvsGame, name: str = "openspiel"):
        self.bot = bot
        self.game = game
        self.name = name

    def act(self, game, state, player: int) -> int:
        return int(self.bot.step(from_game_state(self.game, state)))


def _game_type(name: str, card: GameBase) -> pyspiel.GameType:
    """The OpenSpiel game type of registry game ``name`` configured as ``card`` (module
    docstring): ``utility`` ZERO_SUM when the game declares ``facts.zero_sum``, else
    GENERAL_SUM."""
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"card-envs {name} (v{card.version})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        # the state holds the future chance outcomes (its RNG): hidden from every seat
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if card.facts.zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=TYPE_MAX_PLAYERS,
        min_num_players=TYPE_MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULT_PARAMS),
        default_loadable=True,
        provides_factored_observation_string=False)


def register(name: str) -> str:
    """Register registry game ``name`` with OpenSpiel (done at import for every game available
    then; again for the same name: nothing). Returns its OpenSpiel short name.

    Raises:
        ConfigError: ``name`` is not a registry game (naming the known ones)."""
    if short_name(name) not in _REGISTERED:
        _register(name)
    return short_name(name)


def _register(name: str) -> None:
    registered = _game_type(name, make_game(name))  # the default config's type
    _REGISTERED[registered.short_name] = registered
    # a class per game, as OpenSpiel's own Python games register (a class, unlike a closure, is
    # not freed during interpreter shutdown after Python's thread state is gone)
    cls = type(f"CardEnvsGame_{name}", (CardEnvsGame,), {"card_game_name": name,
                                                         "__module__": __name__})
    pyspiel.register_game(registered, cls)


for _name in available_games():
    if short_name(_name) not in _REGISTERED:
        _register(_name)
