"""The ``Game`` contract every card game of the suite implements (pure rules, no spaces).

A game object is built from one config (variant, card set, player count) and holds no per-game
state; all of that lives in a state object it creates. Each game names its classes alike:
``<Game>Game`` (a :class:`GameBase`; ``Garda3Game``, ``RustBrawlGame``, the template
``ToyNimGame``), ``<Game>State``, ``<Game>Encoder``, ``<Game>View`` and ``<Game>Config``. Rules code never imports Gymnasium or
PettingZoo: the one generic adapter (:mod:`card_envs.core.aec`) turns any ``Game`` into a
PettingZoo AEC env.

Contract (``S`` is the game's state type):

=========================================  ===================================================
``name: str``, ``version: int``            registry name (``"garda3"``) and env version
``config``                                  the frozen config dataclass with ``to_dict()``
                                            (JSON-able; ``config_to_dict`` returns it)
``num_players: int``, ``num_actions: int``  seats ``0..num_players-1``; flat ``Discrete`` size
``observation_shape: tuple[int]``           shape of ``observe``'s float32 vector
``observation_low/high: float``             bounds of every observation entry
``max_game_length: int``                    upper bound on decisions in one game (the adapter
                                            truncates there)
``min_utility``, ``max_utility: float``,    declared facts (stated by every game class; a
``utility: str``, ``zero_sum: bool``,       config may change them in ``__init__``; only
``chance: bool``,                           ``perfect_information`` defaults to ``False``):
``perfect_information: bool``               every return in the range, in ``"win/loss"`` or
                                            ``"score"`` units, summing to 0, chance from
                                            ``state.rng``, nothing hidden from any seat
``provides_potential: bool``,               capabilities (default ``False``): the game writes
``provides_lookahead_horizon: bool``        the optional hook of that name
``facts -> GameFacts``                      all of the above as one frozen record (name,
                                            version, seats, length included) that tools read
                                            instead of probing the game; ``check_game``
                                            asserts each fact on random play
``new_state(seed) -> S``                    a fresh game; all chance comes from ``state.rng``
                                            (abstract, as every method the game writes)
``current_player(S) -> int``                seat to decide, ``-1`` once the game is over
``legal_actions(S) -> list[int]``           sorted legal action ids (ints inside the engine)
``legal_action_mask(S) -> ndarray``         int8 ``(num_actions,)`` built from the list
``apply_action(S, a) -> None``              in place; ``IllegalActionError`` naming ``a`` if
                                            ``a`` is not legal
``is_terminal(S) -> bool``                  game over (by the rules or by a rule cap)
``is_truncated(S) -> bool``                 game over by a rule cap (e.g. ``max_rounds``)
``returns(S) -> list[float]``               final reward per seat, in ``[min_utility,
                                            max_utility]`` (zero-sum if declared); zeros
                                            mid-game
``observe(S, p) -> ndarray``                float32 ``observation_shape``, seat ``p``'s view,
                                            never another seat's hidden cards
``observe_dict(S, p)``,                     the same view as a dict of the layout's named
``observe_entities(S, p)``                  pieces, and as rows of cards per zone
                                            (:mod:`card_envs.core.entities`; a game declares
                                            its ``entity_layout`` beside its encoder)
``action_to_string(S, a) -> str``           readable name of action ``a`` in state ``S``
``render(S) -> str``                        a text picture of the whole state (debug; the view's)
``clone(S) -> S``                           an independent copy (RNG included)
``state_to_dict(S) / state_from_dict(d)``   JSON-able round trip; play goes on identically
``sample_hidden(S, p, rng) -> S``           a full state consistent with seat ``p``'s
                                            observations: hidden cards and deck orders
                                            resampled, chance RNG reseeded; a function of
                                            ``p``'s information and ``rng`` only
=========================================  ===================================================

Optional hooks (``GameBase`` defines each with a "none" default; a game that writes one
declares its capability, and the tools read ``facts``, never probe):

=========================================  ===================================================
``potential(S, p) -> float``                seat ``p``'s standing in [−1, 1] from public facts
                                            (Garda3: material lead); used by reward shaping
                                            (``SingleAgentEnv(shaping=...)``, refused without
                                            ``provides_potential``) and as the leaf score of
                                            the decision-time lookahead. Default ``0.0``
``lookahead_horizon(S) -> key | None``      how far a lookahead plays out (a rollout stops
                                            when the key changes, e.g. the round), ``None``
                                            where it should not decide; ``None`` also stops a
                                            rollout, so keep the key inside the horizon
                                            (:mod:`card_envs.bots.lookahead`); hashable, the
                                            same on a clone. Default ``None`` (without
                                            ``provides_lookahead_horizon`` a lookahead plays to
                                            the end of the game)
``view_class`` (the game's ``view.py``)     what a seat is shown, declared once
                                            (:mod:`card_envs.core.view`): ``render(S)``,
                                            ``render_view(S, p)`` (seat ``p``'s text view: only
                                            what ``p`` may know), ``table_view(S, p)`` (the
                                            ``rgb_array`` picture's content),
                                            ``describe_action(S, piece, i)``,
                                            ``action_seen_by(S, a, p)`` (a card played face
                                            down stays unnamed), ``effects_seen_by(S, a, S2,
                                            p)`` (what a move did); the game's methods of these
                                            names hand over to it; the default view builds a
                                            text view from the seat's observation (the whole
                                            ``render`` with ``perfect_information``)
=========================================  ===================================================

The card-balance report's protocol (``balance_deal``, ``balance_config``, ``cards_in_set``,
``card_played``, ``starting_player``, ``balance_card_names``) is not part of ``GameBase``: a game
opts in by inheriting :class:`card_envs.core.balance.BalanceMixin` (``facts.provides_balance``).

What each game writes and what the core does once (:class:`GameBase`):

=========================================  ===================================================
the game writes                             the core derives
=========================================  ===================================================
``GameBase[<Game>State]``: its state        ``clone``, ``state_to_dict``, ``state_from_dict``
dataclass (:mod:`card_envs.core.state`)     (strict validation naming the field path); the
as the generic parameter                    wiring from the state's folder by convention
                                            (:mod:`card_envs.core.wiring`: ``state_class``,
                                            ``state_checks``, ``encoder_class``,
                                            ``view_class``, ``action_layout``, ``phases``,
                                            ``over_phase``; a piece declared on the class wins)
``_legal_actions(S) -> list[int]``          ``legal_actions`` (cached on the state in
                                            ``legal_cache``), ``legal_action_mask``
``_apply_action(S, a: int)``: the           ``apply_action``: the action checked (type, range,
transition of one legal action              legality; refusals leave the state unchanged), the
                                            cache cleared, then ``_apply_action``
``check_state(game, S)`` in ``state.py``:   ``check_state(S)`` (the game's ``state_checks``),
the config invariants (card ids,            which ``state_from_dict`` calls after the
multiset, seats, phase)                     declaration check
``phase``/``player`` fields (declared in    ``current_player`` (``player``; ``-1`` once over),
``GameState``), ``PHASES`` (the last one    ``is_terminal`` (``phase == over_phase``),
is game over)                               ``phase_name(S)``, named in every refused-action
                                            message
``_resample_hidden(S, p, rng)``: redeal     ``sample_hidden``: a clone, the redeal, the chance
on a clone what ``p`` cannot see            RNG reseeded from ``rng``, the cache cleared
=========================================  ===================================================

Actions: a Python ``int`` (not ``bool``; an ``IntEnum`` member is fine), a numpy integer scalar
or a 0-d integer numpy array (what SB3's ``predict`` returns for one observation); anything else
(floats even if integral, ``inf``, ``nan``, strings, ``None``, arrays with a dimension) is refused
with :class:`~card_envs.core.errors.IllegalActionError` (:func:`action_id`). Plain ints are
stored. The conformance suite :func:`card_envs.testing.check_game` checks every part of this.
"""

from __future__ import annotations

import abc
import json
import random
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from card_envs.core.balance import BalanceMixin
from card_envs.core.entities import EntityLayout
from card_envs.core.errors import IllegalActionError, NotLegalError, StateError
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.core.rng import reseed
from card_envs.core.state import codec_of, format_path, short_repr
from card_envs.core.table import Table
from card_envs.core.view import View
from card_envs.core.wiring import Missing, wire

S = TypeVar("S")


def lead(values, player: int, scale: float) -> float:
    """``player``'s lead in [-1, 1] for ``potential`` hooks: ``values[player]`` minus the mean of
    the other seats' values, over ``scale``, clipped to [-1, 1] (``values``: one number per seat,
    at least two seats; ``scale > 0``)."""
    others = (sum(values) - values[player]) / (len(values) - 1)
    x = (values[player] - others) / scale
    return -1.0 if x < -1.0 else (1.0 if x > 1.0 else float(x))


def action_id(action: Any) -> int | None:
    """``action`` as a plain ``int`` if it is an action value at all, else ``None``.

    Accepted: ``int`` (not ``bool``; ``IntEnum`` members), numpy integer scalars, 0-d integer
    numpy arrays. Everything else gives ``None`` (the caller raises, naming the value)."""
    cls = action.__class__
    if cls is int:
        return action
    if cls is bool or cls is np.bool_:
        return None
    if isinstance(action, int):  # IntEnum and other int subclasses (bool excluded above)
        return int.__index__(action)  # the int value itself, whatever the subclass overrides
    if isinstance(action, np.integer) and not isinstance(action, np.timedelta64):
        return int(action)
    if cls is np.ndarray and action.ndim == 0 and action.dtype.kind in "iu":
        return int(action)  # a plain 0-d integer array (not a masked or other subclass)
    return None


@dataclass(frozen=True)
class GameFacts:
    """What a configured game declares about itself, as data (OpenSpiel's ``GameType`` and
    ``GameInfo``): :attr:`GameBase.facts` gathers them from the game's declared attributes and
    :func:`card_envs.testing.check_game` asserts every one on random play.

    Attributes:
        name, version: registry name (``"garda3"``) and env version (``garda3_v1``).
        num_players: seats ``0..num_players-1`` (this config's).
        min_utility, max_utility: floats; every final return of every seat lies in
            ``[min_utility, max_utility]``.
        utility: what a return counts, a short label reports print beside a mean return:
            ``"win/loss"`` (+1 a win, −1 a loss, 0 a draw or truncation; a multi-player loss
            may be a fraction) or ``"score"`` (a score difference, Dirt and Glory's
            ``reward="score"``, DG-4.2).
        zero_sum: the final returns of every game sum to 0.
        chance: the rules draw at random (shuffles, deals, dice: ``state.rng``); ``False``: a
            game is a function of the seats' actions alone.
        perfect_information: nothing is hidden from any seat (no hand, no deck order).
        max_game_length: an int >= 1, no game has more decisions (the adapter truncates there).
        provides_potential: the game implements :meth:`GameBase.potential` (else the default
            0.0; reward shaping refuses the game).
        provides_lookahead_horizon: the game implements :meth:`GameBase.lookahead_horizon`
            (else the default ``None``; a lookahead then plays to the end of the game).
        provides_balance: the game opts into the card-balance report
            (:class:`card_envs.core.balance.BalanceMixin`).
    """

    name: str
    version: int
    num_players: int
    min_utility: float
    max_utility: float
    utility: str
    zero_sum: bool
    chance: bool
    perfect_information: bool
    max_game_length: int
    provides_potential: bool
    provides_lookahead_horizon: bool
    provides_balance: bool


#: the facts a game class declares as attributes (GameBase's docstring; no defaults)
DECLARED_FACTS = ("min_utility", "max_utility", "utility", "zero_sum", "chance")


class _Derived:
    """A read-only default computed from the game object; a class attribute or an instance
    attribute of the same name in a game takes precedence (a non-data descriptor)."""

    def __init__(self, fn):
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return self.fn(obj)


class _Cached(_Derived):
    """A :class:`_Derived` value computed on first use and kept as an instance attribute
    (``functools.cached_property`` without its ``obj.__dict__[name] = value``: storing through
    ``__dict__`` turns CPython's inline attribute values of the game into a plain dict, and every
    ``self.x`` of the rules then reads about 5-8 % slower, measured with ``facts``). The stored
    attribute hides this non-data descriptor afterwards; ``del game.<name>`` recomputes."""

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = self.fn(obj)
        setattr(obj, self.name, value)
        return value


class GameBase(Generic[S], metaclass=abc.ABCMeta):
    """The generic part of every game, written once (module docstring: what a game writes and
    what this class derives). Nothing here knows any game's rules. Abstract: a game class
    implements every ``abc.abstractmethod`` below and declares its facts (:attr:`facts`)."""

    name: str = "game"
    version: int = 0
    num_players: int
    observation_low: float = 0.0
    observation_high: float = 1.0
    max_game_length: int = 10_000
    # -- declared facts (GameFacts; no defaults: every game class states them) -----------------
    #: every final return lies in ``[min_utility, max_utility]``
    min_utility: float
    max_utility: float
    #: what a return counts: ``"win/loss"`` or ``"score"`` (:class:`GameFacts`)
    utility: str
    #: the final returns sum to 0
    zero_sum: bool
    #: the rules draw at random (``state.rng``)
    chance: bool
    #: capabilities: the game implements :meth:`potential` / :meth:`lookahead_horizon`
    provides_potential: bool = False
    provides_lookahead_horizon: bool = False
    # -- the wiring: declared on the class, or found in the game's folder by convention
    # (card_envs.core.wiring, from the generic parameter GameBase[<Game>State]) ---------------
    #: the game's declared state dataclass (a :class:`card_envs.core.state.GameState`)
    state_class: type = Missing()  # type: ignore[assignment]
    #: the game's observation encoder class (:class:`card_envs.core.observation.Encoder`)
    encoder_class: type[Encoder] = Missing()  # type: ignore[assignment]
    #: the one action :class:`~card_envs.core.layout.Layout` (the game's ``constants.py``); a
    #: game whose layout depends on its config sets it on the instance
    action_layout: Layout = Missing()  # type: ignore[assignment]
    #: phase names, indexed by ``state.phase`` (the game's ``constants.py``: ``PHASES``)
    phases: tuple[str, ...] = ()
    #: the ``state.phase`` value of a finished game (:meth:`is_terminal`, :meth:`current_player`)
    over_phase: int = Missing()  # type: ignore[assignment]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wire a game class that names its state class (``GameBase[<Game>State]``) from its
        folder: every piece of :mod:`card_envs.core.wiring`'s table it does not declare."""
        super().__init_subclass__(**kwargs)
        wire(cls, GameBase)

    @_Cached
    def facts(self) -> GameFacts:
        """This game's declared facts (:class:`GameFacts`), gathered once per game object from
        its attributes: ``name``, ``version``, ``num_players``, ``max_game_length``,
        ``perfect_information``, the declared :data:`DECLARED_FACTS`, the capabilities; the
        balance report's support is the :class:`~card_envs.core.balance.BalanceMixin` base.

        Raises:
            TypeError: the game class declares one of :data:`DECLARED_FACTS` not at all.
        """
        try:
            return GameFacts(
                name=self.name, version=self.version, num_players=self.num_players,
                min_utility=float(self.min_utility), max_utility=float(self.max_utility),
                utility=self.utility, zero_sum=bool(self.zero_sum), chance=bool(self.chance),
                perfect_information=bool(self.perfect_information),
                max_game_length=self.max_game_length,
                provides_potential=bool(self.provides_potential),
                provides_lookahead_horizon=bool(self.provides_lookahead_horizon),
                provides_balance=isinstance(self, BalanceMixin))
        except AttributeError as exc:
            raise TypeError(f"{type(self).__name__} ({self.name}) declares no {exc.name!r} (a "
                            "fact of card_envs.core.game.GameFacts: declare it on the class)") \
                from None

    # -- optional hooks (their capability is a declared fact) ------------------------------------
    def potential(self, state: S, player: int) -> float:
        """Seat ``player``'s standing in ``state``, a float in [−1, 1] from public facts only
        (potential-based reward shaping; the leaf score of a lookahead at its horizon). A game
        that implements it declares ``provides_potential = True``. Default: ``0.0``."""
        return 0.0

    def lookahead_horizon(self, state: S) -> Any:
        """How far a lookahead plays out from ``state``: a hashable key (e.g. the round), a
        rollout stops when it changes; ``None`` where a lookahead should not decide (also stops
        a rollout). A game that implements it declares ``provides_lookahead_horizon = True``.
        Default: ``None``."""
        return None

    @_Derived
    def num_actions(self) -> int:
        """Size of the flat ``Discrete`` action space: ``action_layout.size``."""
        return self.action_layout.size

    @_Cached
    def encoder(self) -> Encoder:
        """The game's observation encoder, built once per game object from ``encoder_class``."""
        return self.encoder_class(self)

    def __getstate__(self) -> dict[str, Any]:
        """The game's fields without its built encoder and view (pickle, ``copy.deepcopy``):
        the copy builds them again on first use, from the whole game, so an encoder's ``bind``
        (a view's ``__init__``) may read the game's fields (they would not be back yet while
        the game itself is unpickled)."""
        data = dict(self.__dict__)
        data.pop("encoder", None)
        data.pop("view", None)
        return data

    @_Derived
    def observation_shape(self) -> tuple[int, ...]:
        """``(encoder.layout.size,)``: the shape of :meth:`observe`'s float32 vector."""
        return (self.encoder.layout.size,)

    @property
    def observation_layout(self) -> Layout:
        """The observation :class:`~card_envs.core.layout.Layout` (``encoder.layout``)."""
        return self.encoder.layout

    def observe(self, state: S, player: int) -> np.ndarray:
        """Seat ``player``'s view of ``state``: float32 ``observation_shape``, every entry in
        ``observation_low .. observation_high``, never another seat's hidden cards.

        Raises:
            ValueError: ``player`` is not a seat ``0..num_players-1``.
        """
        if player.__class__ is not int or not 0 <= player < self.num_players:
            player = self._seat(player)
        return self.encoder.encode(state, player)

    def _seat(self, player: Any) -> int:
        """``player`` as a plain int seat; ValueError naming it if it is not one."""
        if not (isinstance(player, (int, np.integer)) and not isinstance(player, bool)
                and 0 <= player < self.num_players):
            raise ValueError(f"{self.name}: no seat {short_repr(player)} "
                             f"(seats 0..{self.num_players - 1})")
        return int(player)

    def observe_dict(self, state: S, player: int) -> dict[str, np.ndarray]:
        """Seat ``player``'s observation as the named dict view: one float32 entry per piece of
        :attr:`observation_layout` (in layout order), each a view into one fresh
        :meth:`observe` vector: the same entries, the same bounds.

        Raises:
            ValueError: ``player`` is not a seat ``0..num_players-1``.
        """
        if player.__class__ is not int or not 0 <= player < self.num_players:
            player = self._seat(player)
        return self.encoder.encode_dict(state, player)

    @property
    def entity_layout(self) -> EntityLayout | None:
        """The game's per-entity view (:class:`~card_envs.core.entities.EntityLayout`, declared
        beside its encoder), ``None`` for a game that declares none."""
        return self.encoder.entity_layout

    def observe_entities(self, state: S, player: int) -> dict[str, np.ndarray]:
        """Seat ``player``'s observation as the per-entity view (:mod:`card_envs.core.entities`:
        per zone float32 ``(rows, features)`` rows and an int8 row mask, float32 ``globals``,
        int32 ``action_targets`` ``(num_actions, columns)``; keys and shapes
        ``entity_layout.shapes()``); only what that seat may know, as :meth:`observe`.

        Raises:
            ValueError: ``player`` is not a seat ``0..num_players-1``.
            NotImplementedError: the game declares no entity view.
        """
        if player.__class__ is not int or not 0 <= player < self.num_players:
            player = self._seat(player)
        return self.encoder.encode_entities(state, player)

    @property
    def privileged_shape(self) -> tuple[int, ...]:
        """``((num_players - 1) * observation size,)``: the shape of
        :meth:`observe_privileged`."""
        return ((self.num_players - 1) * self.encoder.layout.size,)

    def observe_privileged(self, state: S, player: int) -> np.ndarray:
        """**Training only** (a privileged critic, as PerfectDou's perfect-training-imperfect-
        execution or MAPPO's centralised value): what every *other* seat sees, float32
        :attr:`privileged_shape` in ``observation_low .. observation_high`` — the
        :meth:`observe` vectors of seats ``player + 1, player + 2, ...`` (mod ``num_players``)
        concatenated, so the other seats' hands are in it. Built by the core for every game; a
        policy that acts must never read it (``card-envs evaluate`` and the tournaments hand a
        policy :meth:`observe` only).

        Raises:
            ValueError: ``player`` is not a seat ``0..num_players-1``.
        """
        n = self.num_players
        if not (isinstance(player, (int, np.integer)) and not isinstance(player, bool)
                and 0 <= player < n):
            raise ValueError(f"{self.name}: no seat {short_repr(player)} (seats 0..{n - 1})")
        p = int(player)
        if n == 1:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([self.encoder.encode(state, (p + k) % n) for k in range(1, n)])

    # -- action names ----------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """The action's name from :attr:`action_layout`: the piece name, followed by the index
        inside the piece for a piece of several actions (``"card 5"``, ``"done"``).

        Raises:
            IllegalActionError: ``action`` is not an action id in ``[0, num_actions)``.
        """
        a = action_id(action)
        layout = self.action_layout
        if a is None or not 0 <= a < layout.size:
            raise IllegalActionError(f"{self.name}: action {short_repr(action)} is outside the "
                                     f"action space Discrete({layout.size})")
        piece = layout.piece_of(a)
        return piece.name if piece.size == 1 else f"{piece.name} {a - piece.start}"

    def action_to_string(self, state: S, action: int) -> str:
        """:meth:`action_name`, then ``": "`` and the game's :meth:`describe_action` detail
        when it gives one (``"card 5: 2 high→low white"``)."""
        name = self.action_name(action)
        a = action_id(action)
        piece = self.action_layout.piece_of(a)
        detail = self.describe_action(state, piece.name, a - piece.start)
        return f"{name}: {detail}" if detail else name

    def describe_action(self, state: S, piece: str, index: int) -> str | None:
        """Optional detail of action ``index`` of layout piece ``piece`` in ``state`` (the card
        or fighter it names); ``None``: the name alone says it. Hands over to the game's
        :attr:`view` (:meth:`card_envs.core.view.View.describe_action`)."""
        return self.view.describe_action(state, piece, index)

    # -- what a seat is shown: the game's view (card_envs.core.view, the game's view.py) ---------
    #: nothing of the state is hidden from any seat (no hands, no deck order): the default
    #: :meth:`render_view` shows the whole :meth:`render`
    perfect_information: bool = False
    #: the game's view class (its ``view.py``): the text views, the picture's content, the
    #: action descriptions; the default :class:`~card_envs.core.view.View` builds a text view
    #: from the seat's observation
    view_class: type[View] = View

    @_Cached
    def view(self) -> View:
        """The game's :class:`~card_envs.core.view.View`, built once per game object from
        :attr:`view_class`; the methods below hand over to it."""
        return self.view_class(self)

    def render(self, state: S) -> str:
        """The whole state as text (debugging: every hand and deck order): the view's
        :meth:`~card_envs.core.view.View.render`."""
        return self.view.render(state)

    def view_header(self, state: S, player: int) -> str:
        """The first line of a view: game, the viewing seat, phase, the seat to act (or the
        result once over); public facts every game has."""
        return self.view.view_header(state, player)

    def render_view(self, state: S, player: int) -> str:
        """Seat ``player``'s view of ``state`` as text (what a human in that seat sees): only
        what that seat may know: never another seat's hidden cards, a deck order or a face-down
        card (the view's :meth:`~card_envs.core.view.View.render_view`; its default is built
        from the seat's observation)."""
        return self.view.render_view(state, player)

    def table_view(self, state: S, player: int | None) -> Table:
        """What the ``rgb_array`` picture of ``state`` shows to seat ``player`` (``None``: the
        whole table, every card face up), as a :class:`~card_envs.core.table.Table` that
        :mod:`card_envs.core.picture` draws; only what ``player`` may know (the view's
        :meth:`~card_envs.core.view.View.table_view`)."""
        return self.view.table_view(state, player)

    def action_seen_by(self, state: S, action: int, player: int) -> str:
        """Action ``action``, about to be taken in ``state`` by ``current_player(state)``, as
        seat ``player`` sees it (a card played face down stays unnamed; the view's
        :meth:`~card_envs.core.view.View.action_seen_by`)."""
        return self.view.action_seen_by(state, action, player)

    def effects_seen_by(self, before: S, action: int, after: S, player: int) -> list[str]:
        """What the move ``action`` (taken in ``before``, leading to ``after``) did, as seat
        ``player`` sees it, one line per visible change (the view's
        :meth:`~card_envs.core.view.View.effects_seen_by`; default ``[]``)."""
        return self.view.effects_seen_by(before, action, after, player)

    # -- moves -----------------------------------------------------------------------------------
    def check_action(self, state: S, action: Any) -> int:
        """``action`` as a plain int in ``[0, num_actions)``, without looking at legality.

        Raises:
            IllegalActionError: not an action value (see :func:`action_id`) or out of range; the
                message names the value and the state's phase.
        """
        a = action_id(action)
        if a is None:
            raise IllegalActionError(
                f"{self.name}: action {short_repr(action)} ({type(action).__name__}) is not an "
                f"action id "
                f"(an int, a numpy integer or a 0-d integer array) in phase "
                f"{self.phase_name(state)!r}")
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(
                f"{self.name}: action {a} is outside the action space Discrete({self.num_actions})"
                f" in phase {self.phase_name(state)!r}")
        return a

    def legal_actions(self, state: S) -> list[int]:
        """Sorted legal action ids (plain ints; ``[]`` once over), cached on the state until the
        next move. Do not mutate the returned list."""
        legal = state.legal_cache
        if legal is None:
            legal = state.legal_cache = self._legal_actions(state)
        return legal

    def legal_action_mask(self, state: S) -> np.ndarray:
        """int8 array of shape ``(num_actions,)``: 1 for each legal action, all zeros once over."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_actions(state)] = 1
        return mask

    def apply_action(self, state: S, action: Any) -> None:
        """Apply ``action`` for ``current_player(state)``, in place.

        The one owner of legality: every adapter and wrapper leaves the decision to this
        method (and reads ``legal_actions`` for its masks).

        Raises:
            IllegalActionError: not an action value, or out of range (the message names the
                value and the phase).
            NotLegalError: (an ``IllegalActionError``) an action id that is not legal now: the
                game is over, or the rules forbid it (the message names the action and the
                phase). Either way the state is unchanged.
        """
        if action.__class__ is not int:
            action = self.check_action(state, action)
        legal = state.legal_cache
        if legal is None:
            legal = state.legal_cache = self._legal_actions(state)
        if action not in legal:
            self.check_action(state, action)  # out of range: say so
            if not legal:
                raise NotLegalError(
                    f"{self.name}: action {action} refused: the game is over")
            raise NotLegalError(
                f"{self.name}: action {action} ({self.action_to_string(state, action)}) is not "
                f"legal in phase {self.phase_name(state)!r}; legal: {legal}")
        state.legal_cache = None
        self._apply_action(state, action)

    def random_playout(self, state: S, rng: random.Random) -> int:
        """Play uniformly random legal actions until the game ends; returns decisions made."""
        n = 0
        legal_actions, apply_action, choice = self.legal_actions, self.apply_action, rng.choice
        while not self.is_terminal(state):
            apply_action(state, choice(legal_actions(state)))
            n += 1
        return n

    # -- copies and saving -------------------------------------------------------------------------
    def clone(self, state: S) -> S:
        """An independent copy (RNG included; the legal-action cache is shared, it is never
        mutated)."""
        return codec_of(state.__class__).clone(state)

    def config_to_dict(self) -> dict[str, Any]:
        """The config as a JSON-able dict that ``make_game(name, **dict)`` accepts."""
        return self.config.to_dict()  # type: ignore[attr-defined]

    def state_to_dict(self, state: S) -> dict[str, Any]:
        """JSON-able dict: ``game``, ``version``, ``config`` and every declared field."""
        out: dict[str, Any] = {"game": self.name, "version": self.version,
                               "config": json.loads(json.dumps(self.config_to_dict()))}
        out.update(codec_of(state.__class__).to_dict(state))
        return out

    def state_from_dict(self, data: Any) -> S:
        """The state saved by :meth:`state_to_dict`, validated against the declaration and this
        game's config, then :meth:`check_state`.

        Raises:
            StateError: naming the field path and value (another game, version or config, a
                missing or extra field, a wrong type, a value out of range, a broken invariant).
        """
        if not isinstance(data, dict):
            raise StateError(f"{self.name} saved state: expected a JSON object, got "
                             f"{type(data).__name__}")
        for key in ("game", "version", "config"):
            if key not in data:
                raise StateError(f"{key}: field is missing (a {self.name} saved state has game, "
                                 f"version, config and the state's fields)")
        if data["game"] != self.name:
            raise StateError(f"game: {short_repr(data['game'])} is not {self.name!r}")
        if data["version"].__class__ is not int or data["version"] != self.version:
            raise StateError(f"version: {short_repr(data['version'])} is not this game's version "
                             f"{self.version} ({self.name}_v{self.version})")
        self.check_config_dict(data["config"], "config")
        fields = {k: v for k, v in data.items() if k not in ("game", "version", "config")}
        state = codec_of(self.state_class).from_dict(fields, f"{self.name} saved state")
        self.check_state(state)
        return state

    def check_config_dict(self, config: Any, where: str) -> None:
        """StateError unless ``config`` (a saved config dict) equals this game's config; names
        the deepest differing path (``config.fighter_set.fighters[0].hp``)."""
        if not isinstance(config, dict):
            raise StateError(f"{where}: {short_repr(config)} is not a config object")
        _first_difference(json.loads(json.dumps(self.config_to_dict())), config, [where])

    # -- to be implemented by each game (abstract) ----------------------------------------------
    def check_state(self, state: S) -> None:
        """StateError (naming the field path) unless ``state`` satisfies the game's invariants
        for this config: card ids, the card multiset, seat counts, a consistent phase and
        current player (the game's declared :attr:`state_checks`). Public:
        :func:`card_envs.testing.check_game` calls it at every step."""
        self.state_checks(state)

    @abc.abstractmethod
    def state_checks(self, state: S) -> None:
        """The game's invariants of ``state`` for this config, raising
        :class:`~card_envs.core.errors.StateError` naming the field path: by convention the
        function ``check_state(game, state)`` of the state class's module
        (:mod:`card_envs.core.wiring`), or declared (``state_checks = state_module.check_state``;
        a plain function on the class binds as a method); :meth:`check_state` runs it."""

    def phase_name(self, state: S) -> str:
        """The state's phase as a readable name (named in refused-action messages):
        ``phases[state.phase]`` when the game declares :attr:`phases`."""
        if self.phases:
            return self.phases[state.phase]  # type: ignore[attr-defined]
        return "game over" if self.is_terminal(state) else "play"

    @abc.abstractmethod
    def _legal_actions(self, state: S) -> list[int]:
        """Sorted legal action ids, ``[]`` when the game is over (uncached: the core caches)."""

    @abc.abstractmethod
    def _apply_action(self, state: S, action: int) -> None:
        """The transition of one legal action (a plain int the core has checked)."""

    @abc.abstractmethod
    def new_state(self, seed: int) -> S:
        """A fresh game from ``seed``; all chance comes from ``state.rng``."""

    def current_player(self, state: S) -> int:
        """The seat to decide: ``state.player`` (the common field of
        :class:`~card_envs.core.state.GameState`), ``-1`` once ``state.phase`` is
        :attr:`over_phase`."""
        return -1 if state.phase == self.over_phase else state.player  # type: ignore[attr-defined]

    def is_terminal(self, state: S) -> bool:
        """Game over: ``state.phase`` is the game's declared :attr:`over_phase` (by the rules or
        by a rule cap)."""
        return state.phase == self.over_phase  # type: ignore[attr-defined]

    @abc.abstractmethod
    def is_truncated(self, state: S) -> bool:
        """The game is over by a rule cap (e.g. ``max_rounds``)."""

    @abc.abstractmethod
    def returns(self, state: S) -> list[float]:
        """The final return per seat, each in ``[min_utility, max_utility]`` (summing to 0 when
        the game declares ``zero_sum``); zeros mid-game."""

    def sample_hidden(self, state: S, player: int, rng: random.Random) -> S:
        """A full state consistent with seat ``player``'s observations (a function of
        ``player``'s information and ``rng`` only): a clone, the game's
        :meth:`_resample_hidden` on it, then the chance RNG reseeded from ``rng``
        (:func:`~card_envs.core.rng.reseed`, after the resampling's draws) and the
        legal-action cache cleared (the clone shares the original's; the acting seat's
        hidden cards may differ). ``state`` is not changed."""
        s = self.clone(state)
        self._resample_hidden(s, player, rng)
        reseed(s.rng, rng)  # type: ignore[attr-defined]
        s.legal_cache = None  # type: ignore[attr-defined]
        return s

    @abc.abstractmethod
    def _resample_hidden(self, state: S, player: int, rng: random.Random) -> None:
        """Redeal, in place on a clone, what seat ``player`` cannot see (hidden cards, deck
        orders), drawing only from ``rng``; the core reseeds the chance RNG and clears the
        cache afterwards (:meth:`sample_hidden`). A game with nothing hidden writes a no-op."""


def first_difference(mine: Any, theirs: Any, loc: list | None = None) -> \
        tuple[list, str, Any, Any] | None:
    """The first place where the JSON data ``theirs`` differs from ``mine`` (nested dicts in
    sorted key order, lists in order), or ``None`` when they are equal: ``(path, kind, mine's
    value, theirs)`` with ``path`` ``loc`` + the keys and indices down to it (for
    :func:`~card_envs.core.state.format_path`) and ``kind`` one of ``"missing"`` (a key of
    ``mine`` that ``theirs`` lacks), ``"extra"`` (a key only ``theirs`` has), ``"length"``
    (lists of different lengths) or ``"value"`` (another value or type: ``1``, ``True`` and
    ``1.0`` differ)."""
    loc = list(loc or [])
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in sorted(set(mine) | set(theirs), key=str):
            if key not in theirs:
                return loc + [key], "missing", mine[key], None
            if key not in mine:
                return loc + [key], "extra", None, theirs[key]
            found = first_difference(mine[key], theirs[key], loc + [key])
            if found is not None:
                return found
        return None
    if isinstance(mine, list) and isinstance(theirs, list):
        if len(mine) != len(theirs):
            return loc, "length", mine, theirs
        for i, (a, b) in enumerate(zip(mine, theirs)):
            found = first_difference(a, b, loc + [i])
            if found is not None:
                return found
        return None
    if type(mine) is not type(theirs) or mine != theirs:
        return loc, "value", mine, theirs
    return None


def _first_difference(mine: Any, theirs: Any, loc: list) -> None:
    """StateError naming the first path where the saved JSON data ``theirs`` differs from this
    game's ``mine`` (:func:`first_difference`; nested dicts and lists; ``1`` and ``True`` and
    ``1.0`` differ)."""
    found = first_difference(mine, theirs, loc)
    if found is None:
        return
    where, kind, mine, theirs = found
    path = format_path(where)
    if kind == "missing":
        raise StateError(f"{path}: field is missing")
    if kind == "extra":
        raise StateError(f"{path}: {short_repr(theirs)} is not a field of this game's config")
    if kind == "length":
        raise StateError(f"{path}: has {len(theirs)} entries, this game's has {len(mine)} "
                         "(a state loads only into a game of the same config)")
    raise StateError(f"{path}: {short_repr(theirs)} differs from this game's "
                     f"{short_repr(mine)} (a state loads only into a game of the same config)")
