"""The saved-state mutation walk (:func:`check_state_mutations`): every leaf of a saved state
broken in a few ways, each broken payload refused by ``state_from_dict`` with a
:class:`~card_envs.core.errors.StateError` or loaded into a state that plays on.

A list field whose length the rules let grow and shrink (a betting log, a history of moves: no
card multiset or seat count fixes it) is declared variable-length on the state class, on the
field's own line, as a cache field is declared (:mod:`card_envs.core.state`)::

    @dataclass(slots=True, eq=False)
    class PokerState(GameState):
        ...
        bets: list[Annotated[int, Field(ge=0, le=4)]] = field(
            metadata={"variable_length": True})

The walk then lets an entry of that field (at any depth) be deleted and loaded, as a nudged
value may be: ``check_state`` and a random playout must pass on the loaded state; everywhere
else a deleted entry must be refused.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from typing import Any

from card_envs.core.errors import StateError
from card_envs.core.state import codec_of, format_path
from card_envs.testing.facts import ConformanceError

__all__ = ["VARIABLE_LENGTH", "check_state_mutations", "leaf_paths", "variable_length_fields"]

#: the field metadata key declaring a variable-length list field (module docstring)
VARIABLE_LENGTH = "variable_length"


def variable_length_fields(state_class: type) -> frozenset[str]:
    """The saved fields of ``state_class`` declared variable-length
    (``field(metadata={"variable_length": True})``, module docstring).

    Raises:
        ConformanceError: the declaration is on a field that is not a saved list (an int, an
            RNG, a cache field), naming the field.
    """
    out = set()
    for f in dataclasses.fields(state_class):
        if not f.metadata.get(VARIABLE_LENGTH):
            continue
        codec = codec_of(state_class)
        if f.name not in codec.depth or codec.depth[f.name] < 1:
            raise ConformanceError(
                f"{state_class.__name__}.{f.name} is declared variable_length but is not a saved "
                "list field (only a list's length can vary)")
        out.add(f.name)
    return frozenset(out)


def leaf_paths(data: Any, loc: tuple = ()) -> list[tuple]:
    """Every leaf location in nested dicts / lists (a leaf: a scalar or an empty container)."""
    if isinstance(data, dict) and data:
        return [p for k, v in data.items() for p in leaf_paths(v, loc + (k,))]
    if isinstance(data, list) and data:
        return [p for i, v in enumerate(data) for p in leaf_paths(v, loc + (i,))]
    return [loc]


def _get(data, loc):
    for part in loc:
        data = data[part]
    return data


def _json(game, state) -> str:
    try:
        return json.dumps(game.state_to_dict(state), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"state_to_dict is not JSON-serialisable: {exc}") from None


def _names_any(message: str, fields) -> bool:
    """Whether ``message`` names one of ``fields`` as a word (``pot``, not ``spot``)."""
    return any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", message) for f in fields)


def check_state_mutations(game, state, rng_leaves: int | None = None,
                          playout_seed: int = 0) -> dict[str, int]:
    """Walk every leaf path of ``state_to_dict(state)`` and apply each of: delete it, change its
    type, put an out-of-range value (``±2**70`` for ints, an unknown name for strings),
    nudge it (``±1``, ``not``), add a card (append a copy of the leaf to its list).

    Must be refused: deleting (but an entry of a list field declared variable-length: the
    module docstring), changing the type, out-of-range values, an unknown name; the
    :class:`StateError` must name the changed path (or, for a list element, its list): the
    declaration's validation and the range checks know it. May load: a nudge, an added card, a
    deleted entry of a variable-length field; then ``check_state`` and a random playout to the
    end must pass. Refused, their StateError must name *a* field of the state, not necessarily
    the changed one: a consistency check (a pot that is not the sum of the bets) names the
    fields it compares, and either may be the wrong one. Any other exception is a failure.

    Args:
        game: the game (``state_from_dict``, ``check_state``, ``random_playout``).
        state: a state of ``game`` (not changed).
        rng_leaves: test only this many of the RNG's 625 internal ints (default: all).
        playout_seed: seed of the random playouts of loaded states.

    Returns:
        counts ``{"mutations", "refused", "loaded"}``.

    Raises:
        ConformanceError: naming the path, the mutation and what happened (or a
            variable-length declaration on a field that is not a list).
    """
    variable = variable_length_fields(type(state))
    text = _json(game, state)
    base = json.loads(text)
    # what a refusal of a change that may load names: a saved field (not "game", "version")
    fields = list(codec_of(type(state)).saved) + [
        format_path(("config", k)) for k in base.get("config", {})]
    paths = leaf_paths(base)
    if rng_leaves is not None:
        rng_paths = [p for p in paths if len(p) == 3 and p[0] == "rng" and p[1] == 1]
        keep = set(map(tuple, random.Random(0).sample(rng_paths, min(rng_leaves,
                                                                     len(rng_paths)))))
        paths = [p for p in paths if p not in rng_paths or p in keep]
    counts = {"mutations": 0, "refused": 0, "loaded": 0}

    def attempt(loc, what, payload, must_refuse, name_locs):
        counts["mutations"] += 1
        label = f"{format_path(loc)} {what}"
        try:
            loaded = game.state_from_dict(payload)
        except StateError as exc:
            msg = str(exc)
            named = any(format_path(n) in msg for n in name_locs)
            if must_refuse and not named:
                shown = " or ".join(repr(format_path(n)) for n in name_locs)
                hint = ("; a field whose length varies in play is declared with "
                        "field(metadata={'variable_length': True})" if what == "deleted" else "")
                raise ConformanceError(f"{label}: refused, but the error message does not name "
                                       f"the field's path ({shown}): {msg}{hint}") from None
            if not named and not _names_any(msg, fields):
                raise ConformanceError(f"{label}: refused, but the message names no field of "
                                       f"the state: {msg}") from None
            counts["refused"] += 1
            return
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError(f"{label}: raised {type(exc).__name__} instead of "
                                   f"StateError: {exc}") from None
        if must_refuse:
            raise ConformanceError(f"{label}: accepted (expected a StateError naming the path)")
        counts["loaded"] += 1
        try:
            game.check_state(loaded)
            game.random_playout(loaded, random.Random(playout_seed))
            game.check_state(loaded)
        except Exception as exc:  # noqa: BLE001
            raise ConformanceError(f"{label}: loaded, but then {type(exc).__name__}: {exc}") \
                from None

    for loc in paths:
        value = _get(base, loc)
        parent = loc[:-1]
        in_list = bool(parent) and isinstance(loc[-1], int)
        names = [loc, parent] if in_list else [loc]
        # delete it (an entry of a variable-length list may go)
        payload = json.loads(text)
        del _get(payload, parent)[loc[-1]]
        attempt(loc, "deleted", payload, must_refuse=not (in_list and loc[0] in variable),
                name_locs=names)
        # change its type
        other: Any = "x" if not isinstance(value, str) else 7
        if isinstance(value, (list, dict)):  # an empty container
            other = 7
        payload = json.loads(text)
        _get(payload, parent)[loc[-1]] = other
        attempt(loc, f"set to {other!r} (another type)", payload, must_refuse=True,
                name_locs=names)
        # out of range
        if value.__class__ is int:
            for big in (2**70, -(2**70)):
                payload = json.loads(text)
                _get(payload, parent)[loc[-1]] = big
                attempt(loc, f"set to {big}", payload, must_refuse=True, name_locs=names)
            for nudge in (value + 1, value - 1):
                payload = json.loads(text)
                _get(payload, parent)[loc[-1]] = nudge
                attempt(loc, f"set to {nudge}", payload, must_refuse=False, name_locs=names)
        elif value.__class__ is str:
            payload = json.loads(text)
            _get(payload, parent)[loc[-1]] = value + "-no-such-name"
            attempt(loc, "renamed", payload, must_refuse=loc[0] != "config", name_locs=names)
        elif value.__class__ is bool:
            payload = json.loads(text)
            _get(payload, parent)[loc[-1]] = not value
            attempt(loc, f"set to {not value}", payload, must_refuse=False, name_locs=names)
        # add a card: a copy of the leaf appended to its list
        if in_list and loc[-1] == 0:
            payload = json.loads(text)
            _get(payload, parent).append(copy.deepcopy(value))
            attempt(loc, "copied to the end of its list", payload, must_refuse=False,
                    name_locs=[parent, loc])
    return counts
