"""The conformance checks every game of the suite passes (the Game-level counterpart of
PettingZoo's ``api_test`` and OpenSpiel's random-simulation test).

:func:`check_game` plays random games and checks the contract of :mod:`card_envs.core.game` at
every decision; :func:`check_state_mutations` walks every leaf of a saved state and checks that
each broken variant is refused with a :class:`~card_envs.core.errors.StateError` or loads into a
state that plays on (:mod:`card_envs.testing.mutations`).
Both raise :class:`ConformanceError` (an ``AssertionError``) naming the broken property.
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import pickle
import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from card_envs.core.errors import IllegalActionError, StateError
from card_envs.core.observation_modes import observer, view_shapes
from card_envs.core.state import codec_of
from card_envs.testing.facts import UTILITY_UNITS, ConformanceError, check_facts, check_facts_at
from card_envs.testing.mutations import check_state_mutations, leaf_paths, variable_length_fields

__all__ = ["ConformanceError", "SkippedCheckWarning", "check_facts", "check_game", "check_state_mutations",
           "check_views", "MALFORMED_ACTIONS", "UTILITY_UNITS", "leaf_paths", "variable_length_fields",
           "view_modes"]


#: action values every game refuses with IllegalActionError (state unchanged)
MALFORMED_ACTIONS: tuple[Any, ...] = (
    3.0, float("inf"), float("nan"), True, False, "3", np.array([0]), None, -1, 10**9,
    np.float64(1.0), np.array([[1]]), [1], b"1",
)


def _json(game, state) -> str:
    try:
        return json.dumps(game.state_to_dict(state), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"state_to_dict is not JSON-serialisable: {exc}") from None


def _heuristic_factory(game, heuristic):
    if heuristic is None or callable(heuristic) and not isinstance(heuristic, str):
        return heuristic
    if heuristic != "auto":
        raise ValueError(f"heuristic: expected 'auto', None or a factory, got {heuristic!r}")
    from card_envs.core.registry import GAMES, HEURISTICS, make_heuristic

    if game.name in HEURISTICS and GAMES.get(game.name, "").partition(":")[0] == \
            type(game).__module__:
        return lambda: make_heuristic(game.name)
    # a game folder of the one shape: <package>.rules holds the Game, <package>.bot the bot
    package, _, module = type(game).__module__.rpartition(".")
    if module != "rules":
        raise ConformanceError(
            f"heuristic='auto': {type(game).__name__} is not a registered game and its module "
            f"{type(game).__module__!r} is not a game folder's rules.py (docs/adding_a_game.md);"
            " pass heuristic=<a zero-argument bot factory> or heuristic=None to skip the check")
    try:
        bot_module = importlib.import_module(f"{package}.bot")
    except ModuleNotFoundError as exc:
        raise ConformanceError(f"heuristic='auto': the game folder {package!r} has no bot.py "
                               f"({exc}); pass heuristic=None to skip the check") from None
    if not hasattr(bot_module, "HeuristicBot"):
        raise ConformanceError(f"heuristic='auto': {package}.bot defines no HeuristicBot")
    return bot_module.HeuristicBot


def check_game(game, games: int = 10, seed: int = 0, heuristic: Any = "auto",
               env_factory: Callable[[], Any] | None = None,
               max_decisions: int | None = None, mutations: bool = True) -> dict[str, Any]:
    """Play ``games`` random games of ``game`` (seeds ``seed .. seed+games-1``) and check the
    Game contract at every decision, and every fact the game declares (:func:`check_facts`).

    Checked at every decision: ``current_player == -1`` exactly when terminal; legal actions
    plain ints, sorted, unique, in range, non-empty while not terminal, matching
    ``legal_action_mask``; every seat's observation of ``observation_shape``, float32, finite
    and inside ``[observation_low, observation_high]``, and its other views
    (:func:`check_views`: the named dict view, the entity view of a game that declares one) of
    their declared keys, shapes, dtypes and bounds, the dict view holding exactly the flat
    entries; returns of length ``num_players``, zeros mid-game, each in the declared
    ``[min_utility, max_utility]``, summing to 0 at the end when the game declares ``zero_sum``;
    ``potential`` of every seat in [-1, 1] and ``lookahead_horizon`` ``None`` or hashable, the
    same key twice and on a clone (games that provide them); no game longer than
    ``max_game_length``; with ``perfect_information``, ``sample_hidden`` changes no seat's
    observation; ``check_state`` passes; ``state_to_dict`` holds plain JSON values only (no
    enum member: a loaded state holds the int); ``clone`` independent of the original (both
    ways); the JSON round trip gives the same dict and plays the next move identically (and a copy saved at
    the first and a middle decision plays the whole game on identically); ``sample_hidden(s, p,
    R(k))`` equals ``sample_hidden(sample_hidden(s, p, R(1)), p, R(k))`` as JSON (a function of
    ``p``'s information only), keeps ``p``'s observation (in every view: flat, dict, entities),
    its text view ``render_view``, its picture's content ``table_view`` and the names
    ``action_seen_by`` gives ``p`` of another seat's actions (unless the move shows ``p`` the
    difference: all ``p`` is shown after the move, its observation, text view and picture,
    differs, and is itself unchanged by ``sample_hidden``; a card played face up is public from
    then on, also where the observation encodes it by features alone) (and legal actions when
    ``p`` acts) and passes ``check_state``; the heuristic bot (``"auto"``: the registry's, else
    the game folder's ``bot.HeuristicBot`` (ConformanceError when there is none); ``None``:
    skip; or a zero-argument factory) chooses the same action after ``sample_hidden`` for the
    seat to act. Once per game (at decision 3, or at the last decision of a shorter game):
    :data:`MALFORMED_ACTIONS` and a masked-out action are refused with ``IllegalActionError``
    naming the value, the state unchanged; ``np.int64(k)`` and ``np.array(k)`` play ``k``;
    ``state_from_dict`` refuses a few mutated payloads. Once: equal seeds give equal states,
    ``pickle`` / ``copy.deepcopy`` of the game (and of ``env_factory()``'s env after a reset)
    work and play on identically; a field declared variable-length
    (:mod:`card_envs.testing.mutations`) is a saved list.

    Args:
        game: a configured game (:class:`card_envs.core.game.GameBase`).
        games: number of random games (>= 1); seed: first seed.
        max_decisions: stop a game after this many decisions (default, and at most,
            ``game.max_game_length``: a game still going there fails).
        mutations: run :func:`check_state_mutations` on the first game's state at decision 10
            (every saved leaf deleted, retyped, put out of range, nudged: ``state_from_dict``
            must refuse the broken ones naming the path, or load a state that plays on).

    Short games: a game that ends by decision 10 gets its mid-game save (and, the first
    such game when no walk has run yet, the mutation walk) at its middle decision
    (``length // 2``) after it ends: the state saved there is loaded and the rest of the game's
    moves replayed on it, which must end in the same final state. So every check runs on games
    of any length; the counts say how often.

    Returns:
        ``{"games", "decisions", "terminal", "mid_game_reloads", "mutation_walks",
        "action_checks", "skipped"}``: ints but the last. The mid-game save/reload runs once
        per game of 2 decisions or more, the mutation walk once per call when ``mutations``
        (``mutation_walks`` 0: it was not run), the action and payload refusals once per game
        of 1 decision or more (``action_checks``). ``skipped`` lists, one sentence each, every
        check that did not run on every game and why: switched off by an argument
        (``mutations=False``, ``heuristic=None``, no ``env_factory``), games cut at
        ``max_decisions`` (their end-of-game checks), or games too short for it (0 or 1
        decision). The last kind is also warned (:class:`SkippedCheckWarning`): nothing the
        caller asked for, a check that did not run. ``[]``: every check ran on every game.

    Raises:
        ConformanceError: naming the broken property, the seed and the decision index.
    """
    make_bot = _heuristic_factory(game, heuristic)
    cap = game.max_game_length
    limit = min(max_decisions or cap, cap)
    check_facts(game, seed)
    _check_static(game, seed, env_factory)
    decisions = terminal = reloads = walks = action_checks = 0
    for g in range(games):
        gseed = seed + g
        rng = random.Random(gseed * 7919 + 1)
        state = game.new_state(gseed)
        if _json(game, state) != _json(game, game.new_state(gseed)):
            raise ConformanceError(f"seed {gseed}: new_state(seed) twice gives different states")
        shadows = [game.state_from_dict(json.loads(_json(game, state)))]
        saved: list[str] = []  # the state's JSON before each of the first 10 decisions
        moves: list[int] = []  # every action played, for a short game's replay
        step = 0
        checked_actions = False  # the once-per-game checks of _check_decision ran
        reloaded = False  # a copy saved at decision 10 played along
        while True:
            where = f"seed {gseed}, decision {step}"
            try:
                checked_actions |= _check_decision(game, state, rng, make_bot, where,
                                                   once=step == 3)
            except ConformanceError:
                raise
            except Exception as exc:  # noqa: BLE001 - any crash is a conformance failure
                raise ConformanceError(f"{where}: {type(exc).__name__}: {exc}") from exc
            if game.is_terminal(state) or step >= limit:
                if step >= cap and not game.is_terminal(state):
                    raise ConformanceError(
                        f"{where}: the game goes on after max_game_length = {cap} decisions "
                        "(the declared fact is no upper bound on a game's length)")
                break
            if step == 10:
                shadows.append(game.state_from_dict(json.loads(_json(game, state))))
                reloads += 1
                reloaded = True
                if mutations and not walks:  # a mid-game state: every saved leaf mutated
                    check_state_mutations(game, game.clone(state), rng_leaves=4)
                    walks += 1
            elif step < 10:
                saved.append(_json(game, state))
            action = rng.choice(game.legal_actions(state))
            moves.append(action)
            # the JSON round trip plays the next move identically (chance included)
            rt = game.state_from_dict(json.loads(_json(game, state)))
            game.apply_action(state, action)
            game.apply_action(rt, action)
            if _json(game, rt) != _json(game, state):
                raise ConformanceError(f"{where}: a state loaded from its JSON plays action "
                                       f"{action} differently from the original")
            for sh in shadows:
                game.apply_action(sh, action)
            step += 1
            decisions += 1
        terminal += game.is_terminal(state)
        if not checked_actions and moves:  # a game of 1-3 decisions: its last one
            last = game.state_from_dict(json.loads(saved[len(moves) - 1]))
            where = f"seed {gseed}, decision {len(moves) - 1} (the last of a short game)"
            _check_actions(game, last, game.legal_actions(last), saved[len(moves) - 1], where)
            _check_refusals(game, last, where)
            checked_actions = True
        action_checks += checked_actions
        if not reloaded and step >= 2:  # a short game: its middle decision is the mid-game save
            mid = step // 2
            where = f"seed {gseed}, decision {mid} (the middle of a {step}-decision game)"
            sh = game.state_from_dict(json.loads(saved[mid]))
            if mutations and not walks:
                try:
                    check_state_mutations(game, game.clone(sh), rng_leaves=4)
                except ConformanceError as exc:
                    raise ConformanceError(f"{where}: {exc}") from None
                walks += 1
            for action in moves[mid:]:
                game.apply_action(sh, action)
            shadows.append(sh)
            reloads += 1
        for sh in shadows:
            if _json(game, sh) != _json(game, state):
                raise ConformanceError(f"seed {gseed}: a state saved to JSON and loaded again "
                                       "did not play on identically to the end")
    skipped = _skipped(games, terminal, reloads, walks, action_checks, mutations, make_bot,
                       env_factory)
    return {"games": games, "decisions": decisions, "terminal": terminal,
            "mid_game_reloads": reloads, "mutation_walks": walks,
            "action_checks": action_checks, "skipped": skipped}


class SkippedCheckWarning(UserWarning):
    """:func:`check_game` could not run a check on every game (its games were too short); the
    message names the check (the result's ``skipped`` holds the same sentences)."""


def _skipped(games, terminal, reloads, walks, action_checks, mutations, make_bot,
             env_factory) -> list[str]:
    """The sentences of :func:`check_game`'s ``skipped`` (its docstring); warns the checks that
    the games' lengths left out."""
    short: list[str] = []
    if reloads < games:
        short.append(f"mid-game save/reload: ran on {reloads} of {games} games (the others had "
                     "fewer than 2 decisions)")
    if mutations and not walks:
        short.append("mutation walk (check_state_mutations): no game had 2 decisions or more")
    if action_checks < games:
        short.append(f"refusals of malformed actions and payloads: ran on {action_checks} of "
                     f"{games} games (the others had no decision)")
    for text in short:
        warnings.warn(f"check_game skipped a check: {text}", SkippedCheckWarning, stacklevel=3)
    chosen = []
    if not mutations:
        chosen.append("mutation walk (check_state_mutations): switched off (mutations=False)")
    if make_bot is None:
        chosen.append("the heuristic bot reads no hidden information: no bot (heuristic=None)")
    if env_factory is None:
        chosen.append("pickle / deepcopy of the env: no env_factory given")
    if terminal < games:
        chosen.append(f"end-of-game checks (final returns, zero-sum): {games - terminal} of "
                      f"{games} games stopped at max_decisions before their end")
    return short + chosen


def _check_static(game, seed: int, env_factory) -> None:
    try:
        codec_of(game.state_class)
    except (TypeError, AttributeError) as exc:
        raise ConformanceError(f"state_class: {exc}") from None
    variable_length_fields(game.state_class)
    for blob in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        a, b = game.new_state(seed), blob.new_state(seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        for _ in range(30):
            if game.is_terminal(a):
                break
            game.apply_action(a, r1.choice(game.legal_actions(a)))
            blob.apply_action(b, r2.choice(blob.legal_actions(b)))
        if _json(game, a) != _json(blob, b):
            raise ConformanceError("a pickled / deep-copied game plays differently")
    state = game.new_state(seed)
    if _json(game, pickle.loads(pickle.dumps(state))) != _json(game, state):
        raise ConformanceError("pickle of a state changes it")
    if env_factory is not None:
        env = env_factory()
        env.reset(seed=seed)
        for blob in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
            o1, o2 = env.observe(env.agent_selection), blob.observe(blob.agent_selection)
            if not np.array_equal(o1["observation"], o2["observation"]):
                raise ConformanceError("a pickled / deep-copied env observes differently")


_PLAIN = (int, float, str, bool, type(None))


def _check_plain(data: Any, loc: tuple, where: str) -> None:
    """ConformanceError unless ``data`` (a ``state_to_dict``) holds plain JSON values only:
    dicts, lists, ``int``, ``float``, ``str``, ``bool``, ``None`` (an ``IntEnum`` member in an
    int field dumps as its number, but a loaded state holds the int: the live and the saved
    state compare differently, e.g. a saved game's history check)."""
    if data.__class__ is dict:
        for key, value in data.items():
            _check_plain(value, loc + (key,), where)
    elif data.__class__ is list:
        if loc != ("rng",):  # the RNG's 625 ints come from rng_to_json
            for i, value in enumerate(data):
                _check_plain(value, loc + (i,), where)
    elif data.__class__ not in _PLAIN:
        from card_envs.core.state import format_path

        raise ConformanceError(
            f"{where}: state field {format_path(loc)} holds {data!r}, a "
            f"{type(data).__name__}: store plain values (int(Phase.X), not the enum member), "
            "as a state loaded from JSON holds them")


def _check_observations(game, state, where: str) -> list[np.ndarray]:
    out = []
    lo, hi = game.observation_low, game.observation_high
    for p in range(game.num_players):
        obs = game.observe(state, p)
        if not isinstance(obs, np.ndarray) or obs.shape != tuple(game.observation_shape):
            raise ConformanceError(f"{where}: observation of seat {p} has shape "
                                   f"{getattr(obs, 'shape', None)}, declared "
                                   f"{tuple(game.observation_shape)}")
        if obs.dtype != np.float32:
            raise ConformanceError(f"{where}: observation dtype {obs.dtype}, expected float32")
        if not np.all(np.isfinite(obs)):
            raise ConformanceError(f"{where}: observation of seat {p} is not finite")
        bad = np.flatnonzero((obs < lo) | (obs > hi))
        if bad.size:
            i = int(bad[0])
            raise ConformanceError(f"{where}: observation of seat {p} entry {i} = {obs[i]} is "
                                   f"outside the declared bounds [{lo}, {hi}]")
        out.append(obs)
    return out


def view_modes(game) -> tuple[str, ...]:
    """The observation modes besides ``"flat"`` that ``game`` offers: ``"dict"``, and
    ``"entities"`` when it declares an entity view."""
    return ("dict", "entities") if game.entity_layout is not None else ("dict",)


def check_views(game, state, p: int, mode: str, flat: np.ndarray, where: str) -> dict:
    """Seat ``p``'s observation of ``state`` in ``mode`` (``"dict"`` or ``"entities"``), checked
    against what the mode declares (:func:`card_envs.core.observation_modes.view_shapes`): a
    dict of exactly the declared keys in order, each a numpy array of its shape and dtype;
    float entries finite and inside ``[observation_low, observation_high]``; entity row masks
    0/1, action targets in ``-1 .. total_rows - 1`` naming only rows whose mask is 1; the dict
    view's pieces concatenated equal to the flat observation ``flat``. Returns the view.

    Raises:
        ConformanceError: naming the mode, the seat, the key and what is wrong.
    """
    view = observer(game, mode)(state, p)
    what = f"{where}: the {mode} view of seat {p}"
    shapes = view_shapes(game, mode)
    if not isinstance(view, dict) or list(view) != list(shapes):
        keys = list(view) if isinstance(view, dict) else type(view).__name__
        raise ConformanceError(f"{what} has keys {keys}, declared {list(shapes)}")
    lo, hi = game.observation_low, game.observation_high
    entities = game.entity_layout if mode == "entities" else None
    for key, shape in shapes.items():
        x = view[key]
        if not isinstance(x, np.ndarray) or x.shape != shape:
            raise ConformanceError(f"{what}: {key!r} has shape {getattr(x, 'shape', None)}, "
                                   f"declared {shape}")
        if key.endswith("_mask") and entities is not None:
            if x.dtype != np.int8 or not np.isin(x, (0, 1)).all():
                raise ConformanceError(f"{what}: row mask {key!r} is not int8 0/1: {x}")
        elif key == "action_targets" and entities is not None:
            if x.dtype != np.int32 or x.min() < -1 or x.max() >= entities.total_rows:
                raise ConformanceError(f"{what}: action_targets ({x.dtype}) outside -1.."
                                       f"{entities.total_rows - 1}")
        else:
            if x.dtype != np.float32 or not np.all(np.isfinite(x)):
                raise ConformanceError(f"{what}: {key!r} is {x.dtype}, not finite float32")
            bad = np.argwhere((x < lo) | (x > hi))
            if len(bad):
                i = tuple(int(k) for k in bad[0])
                raise ConformanceError(f"{what}: {key!r}{list(i)} = {x[i]} is outside the "
                                       f"declared bounds [{lo}, {hi}]")
    if mode == "dict" and not np.array_equal(np.concatenate(list(view.values())), flat):
        raise ConformanceError(f"{what}: its pieces differ from the flat observation")
    if entities is not None:
        every = np.concatenate([view[z.mask_key] for z in entities.zones])
        targets = view["action_targets"]
        named = targets[targets >= 0]
        if len(named) and not every[named].all():
            raise ConformanceError(f"{what}: action_targets name an empty row "
                                   f"({int(named[every[named] == 0][0])})")
    return view


def _same_view(seen: dict, real: dict, mode: str, p: int, where: str) -> None:
    """ConformanceError unless seat ``p``'s ``mode`` view after ``sample_hidden`` (``seen``)
    equals the real one, naming the first key and entry that differ."""
    for key, x in real.items():
        y = seen.get(key)
        if y is None or y.shape != x.shape or not np.array_equal(x, y):
            i = "" if y is None or y.shape != x.shape else \
                f" entry {[int(k) for k in np.argwhere(x != y)[0]]}"
            raise ConformanceError(
                f"{where}: seat {p}'s {mode} view changes after sample_hidden for seat {p} "
                f"({key!r}{i}): the view reads hidden information (or sample_hidden changes "
                "what the seat knows)")


def _check_decision(game, state, rng, make_bot, where, once: bool) -> bool:
    """The per-decision checks of :func:`check_game`; with ``once`` (and a legal move) also the
    once-per-game action and payload refusals. Returns whether those ran."""
    n = game.num_players
    term = game.is_terminal(state)
    cp = game.current_player(state)
    if term != (cp == -1):
        raise ConformanceError(f"{where}: current_player is {cp} while is_terminal is {term} "
                               "(-1 exactly when the game is over)")
    legal = game.legal_actions(state)
    if any(a.__class__ is not int for a in legal):
        raise ConformanceError(f"{where}: legal actions are not plain ints: {legal}")
    if legal != sorted(set(legal)):
        raise ConformanceError(f"{where}: legal actions are not sorted and unique: {legal}")
    if legal and not (0 <= legal[0] and legal[-1] < game.num_actions):
        raise ConformanceError(f"{where}: legal action out of range: {legal}")
    if term == bool(legal):
        raise ConformanceError(f"{where}: legal actions {legal} while is_terminal is {term} "
                               "(non-empty exactly while the game goes on)")
    mask = game.legal_action_mask(state)
    if mask.dtype != np.int8 or mask.shape != (game.num_actions,) or \
            np.flatnonzero(mask).tolist() != legal:
        raise ConformanceError(f"{where}: legal_action_mask does not match legal_actions")
    observations = _check_observations(game, state, where)
    views: dict[tuple[str, int], dict] = {}  # (mode, seat) -> the checked view

    def view_of(mode: str, p: int) -> dict:
        if (mode, p) not in views:
            views[mode, p] = check_views(game, state, p, mode, observations[p], where)
        return views[mode, p]

    ret = game.returns(state)
    if len(ret) != n or not all(math.isfinite(float(r)) for r in ret):
        raise ConformanceError(f"{where}: returns {ret} (expected {n} finite numbers)")
    if not term and any(r != 0 for r in ret):
        raise ConformanceError(f"{where}: returns {ret} mid-game (expected zeros)")
    check_facts_at(game, state, term, ret, where)
    try:
        game.check_state(state)
    except StateError as exc:
        raise ConformanceError(f"{where}: check_state refuses a state reached by play: {exc}") \
            from None
    before = _json(game, state)
    _check_plain(game.state_to_dict(state), (), where)
    # clone: equal, and independent both ways
    c = game.clone(state)
    if _json(game, c) != before:
        raise ConformanceError(f"{where}: clone differs from the original")
    if legal:
        game.apply_action(c, legal[-1])
        if _json(game, state) != before:
            raise ConformanceError(f"{where}: playing on a clone changed the original (clone "
                                   "shares mutable data)")
        c2 = game.clone(state)
        c2_json = _json(game, c2)
        game.apply_action(state, legal[0])
        changed = _json(game, c2) != c2_json
        _restore(game, state, before)
        if changed:
            raise ConformanceError(f"{where}: playing on the original changed its clone (clone "
                                   "shares mutable data)")
    # sample_hidden: a function of the seat's information only
    seats = sorted({cp, rng.randrange(n)} - {-1}) or [0]
    for p in seats:
        k = rng.randrange(1 << 30)
        a = game.sample_hidden(state, p, random.Random(k))
        b = game.sample_hidden(game.sample_hidden(state, p, random.Random(1)), p,
                               random.Random(k))
        if _json(game, state) != before:
            raise ConformanceError(f"{where}: sample_hidden changed the state it was given")
        if _json(game, a) != _json(game, b):
            raise ConformanceError(
                f"{where}: sample_hidden(s, {p}, R(k)) differs from sample_hidden(sample_hidden("
                f"s, {p}, R(1)), {p}, R(k)): it reads more than seat {p}'s information (the real "
                "hidden cards?)")
        seen = game.observe(a, p)
        if not np.array_equal(seen, observations[p]):
            i = int(np.flatnonzero(seen != observations[p])[0])
            piece = _piece_name(game, i)
            raise ConformanceError(
                f"{where}: seat {p}'s observation changes after sample_hidden for seat {p} (entry "
                f"{i}{piece}: {observations[p][i]} -> {seen[i]}): the observation reads hidden "
                "information (or sample_hidden changes what the seat knows)")
        for mode in view_modes(game):
            _same_view(observer(game, mode)(a, p), view_of(mode, p), mode, p, where)
        _check_view(game, state, a, p, cp, legal, where)
        if game.perfect_information:  # p knows all any seat knows: every view stays
            for q in range(n):
                if not np.array_equal(game.observe(a, q), observations[q]):
                    raise ConformanceError(
                        f"{where}: the game declares perfect_information, but sample_hidden for "
                        f"seat {p} changes seat {q}'s observation (it hides something from {p})")
        if isinstance(getattr(state, "rng", None), random.Random) and \
                a.rng.getstate() == state.rng.getstate():
            raise ConformanceError(
                f"{where}: sample_hidden keeps the real chance RNG (state.rng): the sampled game "
                "would draw the real future cards; give it a fresh random.Random from rng")
        fresh = game.clone(a)
        fresh.legal_cache = None
        if game.legal_actions(a) != game.legal_actions(fresh):
            raise ConformanceError(
                f"{where}: after sample_hidden the cached legal actions "
                f"{game.legal_actions(a)} are stale (recomputed: {game.legal_actions(fresh)}): "
                "set legal_cache = None on the sampled state when it changes what is legal")
        try:
            game.check_state(a)
        except StateError as exc:
            raise ConformanceError(f"{where}: sample_hidden gives an invalid state: {exc}") \
                from None
        if p == cp:
            if game.legal_actions(a) != legal:
                raise ConformanceError(f"{where}: sample_hidden changes the acting seat's legal "
                                       "actions")
            if make_bot is not None:
                x = make_bot().act(game, game.clone(state), p)
                y = make_bot().act(game, a, p)
                if x != y:
                    raise ConformanceError(
                        f"{where}: the heuristic bot chooses {x} in the real state and {y} after "
                        f"sample_hidden for seat {p}: it reads hidden information")
    for mode in view_modes(game):
        for p in range(n):
            view_of(mode, p)
    if once and legal:
        _check_actions(game, state, legal, before, where)
        _check_refusals(game, state, where)
        return True
    return False


def _check_view(game, state, sampled, p, cp, legal, where: str) -> None:
    """Seat ``p``'s text view (``render_view``) and the names of the acting seat's actions as
    ``p`` sees them (``action_seen_by``) are the same in the real state and in a state
    ``sample_hidden`` drew for ``p``: they show nothing ``p`` cannot know."""
    real, other = game.render_view(state, p).splitlines(), \
        game.render_view(sampled, p).splitlines()
    if real != other:
        i = next((k for k, (x, y) in enumerate(zip(real, other)) if x != y),
                 min(len(real), len(other)))
        raise ConformanceError(
            f"{where}: seat {p}'s render_view changes after sample_hidden for seat {p} "
            f"(line {i}: {real[i] if i < len(real) else '(none)'!r} -> "
            f"{other[i] if i < len(other) else '(none)'!r}): the view shows hidden "
            "information")
    real_table, other_table = game.table_view(state, p), game.table_view(sampled, p)
    if real_table != other_table:
        raise ConformanceError(
            f"{where}: seat {p}'s table_view (the rgb_array picture's content) changes "
            f"after sample_hidden for seat {p}: {_table_difference(real_table, other_table)}"
            ": the picture shows hidden information")
    if p != cp:
        seen_by = game.action_seen_by
        for x in sorted(set(legal) & set(game.legal_actions(sampled))):
            # a name may differ only by what the move shows ``p`` (a card played face up is
            # named): then what ``p`` is shown after the move (observation, text view,
            # picture) differs too
            if seen_by(state, x, p) != seen_by(sampled, x, p) \
                    and _same_view_after(game, state, sampled, x, p, where):
                raise ConformanceError(
                    f"{where}: action {x} as seat {p} sees it is {seen_by(state, x, p)!r}, after "
                    f"sample_hidden for seat {p} {seen_by(sampled, x, p)!r}: action_seen_by "
                    "names hidden information")


def _shown(game, state, p: int) -> tuple:
    """Everything seat ``p`` is shown in ``state``: its observation in every mode (flat, dict,
    entities), its text view ``render_view`` and its picture's content ``table_view``."""
    shown: list = [game.observe(state, p).tobytes()]
    for mode in view_modes(game):
        shown.append([(key, np.asarray(value).tobytes())
                      for key, value in observer(game, mode)(state, p).items()])
    shown.append(game.render_view(state, p))
    shown.append(game.table_view(state, p))
    return tuple(shown)


def _same_view_after(game, state, sampled, action: int, p: int, where: str) -> bool:
    """Whether all seat ``p`` is shown (:func:`_shown`: the observation, the text view, the
    picture) is the same after ``action`` in ``state`` and in the state ``sampled`` for ``p``:
    then a name of the action that differs between them leaks. When it differs, the move shows
    ``p`` the difference: a card played face up is public from then on, even where the
    observation encodes it by its features only and two cards of equal features differ in the
    text view alone (Rust Brawl: Bláznivý Kejklíř and Trouble Maker).

    Raises:
        ConformanceError: when what ``p`` is shown after the move in ``state`` is itself
            changed by ``sample_hidden`` for ``p`` (then the difference is no fact the move made
            public but a leak of the view after it).
    """
    real, other = game.clone(state), game.clone(sampled)
    game.apply_action(real, action)
    game.apply_action(other, action)
    shown = _shown(game, real, p)
    if shown == _shown(game, other, p):
        return True
    if _shown(game, game.sample_hidden(real, p, random.Random(0)), p) != shown:
        raise ConformanceError(
            f"{where}: after action {action} seat {p}'s view (observation, render_view or "
            f"table_view) changes after sample_hidden for seat {p}: the view after the move "
            "shows hidden information")
    return False


def _table_difference(a, b) -> str:
    """Where two :class:`~card_envs.core.table.Table` differ first (``panels[1].rows[0]: ...``)."""
    if a.panels == b.panels:
        return (f"title/status/notes {(a.title, a.status, a.notes)!r} -> "
                f"{(b.title, b.status, b.notes)!r}")
    for i, (x, y) in enumerate(zip(a.panels, b.panels)):
        if x == y:
            continue
        for j, (r, q) in enumerate(zip(x.rows, y.rows)):
            if r != q:
                return f"panels[{i}] ({x.title!r}) rows[{j}] ({r.label!r}): {r!r} -> {q!r}"
        return f"panels[{i}] ({x.title!r}): {x!r} -> {y!r}"
    return f"{len(a.panels)} panels -> {len(b.panels)}"


def _piece_name(game, index: int) -> str:
    """``" (piece 'hand')"`` for an observation entry, when the game has a layout."""
    try:
        return f" (piece {game.observation_layout.piece_of(index).name!r})"
    except Exception:  # noqa: BLE001 - a game without an encoder layout
        return ""


def _restore(game, state, saved_json: str) -> None:
    """Put ``state`` back to ``saved_json`` in place (used after probing a move)."""
    fresh = game.state_from_dict(json.loads(saved_json))
    for name in type(state).__slots__:
        setattr(state, name, getattr(fresh, name))
    for cls in type(state).__mro__[1:]:
        for name in getattr(cls, "__slots__", ()):
            setattr(state, name, getattr(fresh, name))


def _check_actions(game, state, legal, before: str, where: str) -> None:
    for bad in MALFORMED_ACTIONS + tuple(a for a in range(game.num_actions)
                                         if a not in legal)[:3]:
        try:
            game.apply_action(state, bad)
        except IllegalActionError as exc:
            shown = repr(bad)
            if shown not in str(exc) and str(bad) not in str(exc):
                raise ConformanceError(f"{where}: the refusal of action {shown} does not name "
                                       f"it: {exc}") from None
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError(f"{where}: action {bad!r} raised {type(exc).__name__}, "
                                   f"expected IllegalActionError: {exc}") from None
        else:
            raise ConformanceError(f"{where}: illegal action {bad!r} was accepted")
        if _json(game, state) != before:
            raise ConformanceError(f"{where}: the refused action {bad!r} changed the state")
    k = legal[0]
    for value in (np.int64(k), np.array(k), np.int32(k)):
        a, b = game.clone(state), game.clone(state)
        game.apply_action(a, value)
        game.apply_action(b, k)
        if _json(game, a) != _json(game, b):
            raise ConformanceError(f"{where}: action {value!r} plays differently from {k}")


def _check_refusals(game, state, where: str) -> None:
    d = json.loads(_json(game, state))
    fields = [k for k in d if k not in ("game", "version", "config")]
    tries = [("an unknown game", {**d, "game": "no_such_game"}),
             ("another version", {**d, "version": d["version"] + 1}),
             ("an extra field", {**d, "no_such_field": 1}),
             ("a JSON list", [d])]
    for f in fields[:6]:
        tries.append((f"field {f!r} deleted", {k: v for k, v in d.items() if k != f}))
        tries.append((f"field {f!r} of the wrong type", {**d, f: {"x": 1}}))
    for what, payload in tries:
        try:
            game.state_from_dict(payload)
        except StateError:
            continue
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError(f"{where}: state_from_dict with {what} raised "
                                   f"{type(exc).__name__} instead of StateError: {exc}") from None
        raise ConformanceError(f"{where}: state_from_dict accepted a payload with {what}")
