"""The ``Game`` contract every card game of the suite implements (pure rules, no spaces).

A game object is built from one config (variant, card set, player count) and holds no per-game
state; all of that lives in a state object it creates. Rules code never imports Gymnasium or
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
``new_state(seed) -> S``                    a fresh game; all chance comes from ``state.rng``
``current_player(S) -> int``                seat to decide, ``-1`` once the game is over
``legal_actions(S) -> list[int]``           sorted legal action ids (ints inside the engine)
``legal_action_mask(S) -> ndarray``         int8 ``(num_actions,)`` built from the list
``apply_action(S, a) -> None``              in place; ``IllegalActionError`` naming ``a`` if
                                            ``a`` is not legal
``is_terminal(S) -> bool``                  game over (by the rules or by a rule cap)
``is_truncated(S) -> bool``                 game over by a rule cap (e.g. ``max_rounds``)
``returns(S) -> list[float]``               final reward per seat (zero-sum); zeros mid-game
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

Optional hooks (a game may leave them out; the tools that need them say so):

=========================================  ===================================================
``potential(S, p) -> float``                seat ``p``'s standing in [−1, 1] from public facts
                                            (Garda3: material lead); used by reward shaping
                                            (``SingleAgentEnv(shaping=...)``) and as the leaf
                                            score of the decision-time lookahead
``lookahead_horizon(S) -> key | None``      how far a lookahead plays out (a rollout stops
                                            when the key changes, e.g. the round), ``None``
                                            where it should not decide; ``None`` also stops a
                                            rollout, so keep the key inside the horizon
                                            (:mod:`card_envs.bots.lookahead`)
``perfect_information: bool``               ``True``: nothing is hidden from any seat, so the
                                            default ``render_view`` shows ``render``
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
                                            text view from the seat's observation
``balance_deal(seed) -> list``,             the card-balance report's protocol
``balance_config(sets) -> dict``,           (:mod:`card_envs.evaluation.balance`,
``cards_in_set(set) -> tuple[str, ...]``,   ``docs/balance.md``): random legal card sets per
``card_played(S, a) -> str | None``,        seat from a seed, the config overrides seating
``balance_card_names() -> dict[str, str]``, them, a set's card ids, the card an action puts
``starting_player(S) -> int | None``        into play, the pool, the rules' starting player;
                                            the first three default to
                                            ``NotImplementedError`` ("not supported")
=========================================  ===================================================

What each game writes and what the core does once (:class:`GameBase`):

=========================================  ===================================================
the game writes                             the core derives
=========================================  ===================================================
``state_class``: its state dataclass        ``clone``, ``state_to_dict``, ``state_from_dict``
(:mod:`card_envs.core.state`)               (strict validation naming the field path)
``_legal_actions(S) -> list[int]``          ``legal_actions`` (cached on the state in
                                            ``legal_cache``), ``legal_action_mask``
``_apply_action(S, a: int)``: the           ``apply_action``: the action checked (type, range,
transition of one legal action              legality; refusals leave the state unchanged), the
                                            cache cleared, then ``_apply_action``
``state_checks = check_state``: the         ``check_state(S)``, which ``state_from_dict``
config invariants ``(game, S)`` (card       calls after the declaration check
ids, multiset, seats, phase)
``phase``/``player`` fields (declared in    ``current_player`` (``player``; ``-1`` once over),
``GameState``), ``over_phase``              ``is_terminal`` (``phase == over_phase``)
``phases``                                  ``phase_name(S)``, named in every refused-action
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

import json
import random
from functools import cached_property
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import numpy as np

from card_envs.core.entities import EntityLayout
from card_envs.core.errors import IllegalActionError, StateError
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.core.rng import reseed
from card_envs.core.state import codec_of, format_path, short_repr
from card_envs.core.table import Table
from card_envs.core.view import View

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


class GameBase(Generic[S]):
    """The generic part of every game, written once (module docstring: what a game writes and
    what this class derives). Nothing here knows any game's rules."""

    name: str = "game"
    version: int = 0
    num_players: int
    observation_low: float = 0.0
    observation_high: float = 1.0
    max_game_length: int = 10_000
    #: the game's declared state dataclass (a :class:`card_envs.core.state.GameState`)
    state_class: type
    #: the game's state invariants, a function ``(game, state) -> None`` raising
    #: :class:`~card_envs.core.errors.StateError` (its ``state.py``'s ``check_state``; a plain
    #: function declared on the class, so it binds as a method); :meth:`check_state` runs it
    state_checks: Callable[[Any, Any], None]
    #: the game's observation encoder class (:class:`card_envs.core.observation.Encoder`)
    encoder_class: type[Encoder]
    #: the one action :class:`~card_envs.core.layout.Layout` (the game's ``constants.py``); a
    #: game whose layout depends on its config sets it on the instance
    action_layout: Layout
    #: phase names, indexed by ``state.phase`` (the game's ``constants.py``: ``PHASES``)
    phases: tuple[str, ...] = ()
    #: the ``state.phase`` value of a finished game (:meth:`is_terminal`, :meth:`current_player`)
    over_phase: int

    @_Derived
    def num_actions(self) -> int:
        """Size of the flat ``Discrete`` action space: ``action_layout.size``."""
        return self.action_layout.size

    @cached_property
    def encoder(self) -> Encoder:
        """The game's observation encoder, built once per game object from ``encoder_class``."""
        return self.encoder_class(self)

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

    @cached_property
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

    # -- the card-balance report's protocol (card_envs.evaluation.balance) -----------------------
    def balance_deal(self, seed: int) -> list:
        """One random legal card set per seat (JSON-able: a deck's card ids, a loadout), drawn
        from ``seed`` (an int >= 0) alone; equal seeds deal equal sets. Default: not supported.

        Raises:
            NotImplementedError: the game does not take part in the balance report.
        """
        raise NotImplementedError(f"{self.name}: no card-balance report (the game does not "
                                  "implement balance_deal; see docs/balance.md)")

    def balance_config(self, sets: list) -> dict[str, Any]:
        """The config overrides that seat ``sets[i]`` (from :meth:`balance_deal`, in any seat
        order) at seat ``i``: merged over the game's config, ``make_game(name, **merged)``.
        Default: not supported (``NotImplementedError``)."""
        raise NotImplementedError(f"{self.name}: no card-balance report (balance_config)")

    def cards_in_set(self, card_set) -> tuple[str, ...]:
        """The card ids of one set of :meth:`balance_deal` (a card held twice may appear twice).
        Default: not supported (``NotImplementedError``)."""
        raise NotImplementedError(f"{self.name}: no card-balance report (cards_in_set)")

    def starting_player(self, state: S) -> int | None:
        """The rules' starting player of the game ``state`` (called on the final state: a game
        may settle it after some decisions, e.g. by initiative), ``None`` if it has none.
        Default: ``None`` (the report then counts the first seat to decide)."""
        return None

    def card_played(self, state: S, action: int) -> str | None:
        """The id of the card legal ``action`` puts into play in ``state`` (called before the
        action is applied; the acting seat is ``current_player(state)``), ``None`` for an action
        that plays no card. Default: ``None`` (plays are not counted)."""
        return None

    def balance_card_names(self) -> dict[str, str]:
        """Every card id of the pool the sets are dealt from, with its printed name (the report
        lists cards never dealt too). Default: ``{}`` (only the dealt ids, named by id)."""
        return {}

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

        Raises:
            IllegalActionError: not an action value, out of range, or not legal now (the game is
                over, or the rules forbid it); the message names the value and the phase, and the
                state is unchanged.
        """
        if action.__class__ is not int:
            action = self.check_action(state, action)
        legal = state.legal_cache
        if legal is None:
            legal = state.legal_cache = self._legal_actions(state)
        if action not in legal:
            self.check_action(state, action)  # out of range: say so
            if not legal:
                raise IllegalActionError(
                    f"{self.name}: action {action} refused: the game is over")
            raise IllegalActionError(
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

    # -- to be implemented by each game ---------------------------------------------------------
    def check_state(self, state: S) -> None:
        """StateError (naming the field path) unless ``state`` satisfies the game's invariants
        for this config: card ids, the card multiset, seat counts, a consistent phase and
        current player (the game's declared :attr:`state_checks`). Public:
        :func:`card_envs.testing.check_game` calls it at every step."""
        self.state_checks(state)

    def phase_name(self, state: S) -> str:
        """The state's phase as a readable name (named in refused-action messages):
        ``phases[state.phase]`` when the game declares :attr:`phases`."""
        if self.phases:
            return self.phases[state.phase]  # type: ignore[attr-defined]
        return "game over" if self.is_terminal(state) else "play"

    def _legal_actions(self, state: S) -> list[int]:  # pragma: no cover - interface
        """Sorted legal action ids, ``[]`` when the game is over (uncached: the core caches)."""
        raise NotImplementedError

    def _apply_action(self, state: S, action: int) -> None:  # pragma: no cover - interface
        """The transition of one legal action (a plain int the core has checked)."""
        raise NotImplementedError

    def new_state(self, seed: int) -> S:  # pragma: no cover - interface
        raise NotImplementedError

    def current_player(self, state: S) -> int:
        """The seat to decide: ``state.player`` (the common field of
        :class:`~card_envs.core.state.GameState`), ``-1`` once ``state.phase`` is
        :attr:`over_phase`."""
        return -1 if state.phase == self.over_phase else state.player  # type: ignore[attr-defined]

    def is_terminal(self, state: S) -> bool:
        """Game over: ``state.phase`` is the game's declared :attr:`over_phase` (by the rules or
        by a rule cap)."""
        return state.phase == self.over_phase  # type: ignore[attr-defined]

    def is_truncated(self, state: S) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def returns(self, state: S) -> list[float]:  # pragma: no cover - interface
        raise NotImplementedError

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

    def _resample_hidden(self, state: S, player: int,
                         rng: random.Random) -> None:  # pragma: no cover - interface
        """Redeal, in place on a clone, what seat ``player`` cannot see (hidden cards, deck
        orders), drawing only from ``rng``; the core reseeds the chance RNG and clears the
        cache afterwards (:meth:`sample_hidden`). A game with nothing hidden writes a no-op."""
        raise NotImplementedError


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
