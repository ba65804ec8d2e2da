"""The observation modes every env of the suite offers (``observation_mode=``), one observer each:

============  ===================================================================================
``"flat"``     (default) ``game.observe``: one float32 vector (the layout's pieces one after the
               other), ``Box(observation_low, observation_high, observation_shape, float32)``
``"dict"``     ``game.observe_dict``: a ``Dict`` of the layout's named pieces, each
               ``Box(observation_low, observation_high, (piece size,), float32)``, views into
               the flat buffer (SB3's ``MultiInputPolicy`` trains on it)
``"entities"`` ``game.observe_entities``: per zone (hand, table positions, discard, offer...)
               rows of card features with a row mask, the ``globals`` vector and the
               ``action_targets`` table (:mod:`card_envs.core.entities`; the layout of each
               game is in its env module docstring)
============  ===================================================================================

In ``"entities"`` every zone is a float32 array ``(rows, features)`` (one card, card kind,
fighter, weapon or seat a row) with an int8 row mask ``<zone>_mask``; ``globals`` is a float32
vector of the flat pieces that are no zone; ``action_targets`` is int32 ``(actions, columns)``,
naming for every action id the row(s) it refers to (rows numbered across the zones in their
order; -1 for none, and where the row is empty). Each env module's docstring (section
"Observation modes") has its game's table of keys and shapes.

Each mode shows exactly what the flat vector shows a seat (the conformance checks hold every
mode to it: :func:`card_envs.testing.check_game`). :func:`view_space` imports Gymnasium; the
rest needs numpy only.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from card_envs.core.config import check_choice
from card_envs.core.errors import ConfigError

#: the observation modes, the default first
OBSERVATION_MODES = ("flat", "dict", "entities")


def check_observation_mode(game, mode: Any, field: str = "observation_mode") -> str:
    """``mode`` if ``game`` offers it.

    Raises:
        ConfigError: naming ``field``: not one of :data:`OBSERVATION_MODES`, or ``"entities"``
            for a game that declares no entity view.
    """
    check_choice(field, mode, OBSERVATION_MODES)
    if mode == "entities" and game.entity_layout is None:
        raise ConfigError(f"config field {field!r}: {game.name} declares no entity view "
                          "(observation_mode 'flat' or 'dict')")
    return mode


def observer(game, mode: str) -> Callable[[Any, int], Any]:
    """The function ``(state, seat) -> observation`` of ``mode`` (``game.observe``,
    ``game.observe_dict`` or ``game.observe_entities``)."""
    return {"flat": game.observe, "dict": game.observe_dict,
            "entities": game.observe_entities}[mode]


def observe_view(game, state, player: int, mode: str):
    """Seat ``player``'s observation of ``state`` in ``mode``."""
    return observer(game, mode)(state, player)


def view_shapes(game, mode: str) -> tuple | dict[str, tuple[int, ...]]:
    """The shape of ``mode``'s observation: a tuple for ``"flat"``, else ``{key: shape}`` in
    key order (what a model trained on that view takes)."""
    if mode == "flat":
        return tuple(game.observation_shape)
    if mode == "dict":
        return {p.name: (p.size,) for p in game.observation_layout.pieces}
    return {key: shape for key, (shape, _) in game.entity_layout.shapes().items()}


def view_space(game, mode: str):
    """The Gymnasium space of ``mode``'s observation of ``game`` (module docstring)."""
    from gymnasium import spaces

    low, high = game.observation_low, game.observation_high
    if mode == "flat":
        return spaces.Box(low=low, high=high, shape=tuple(game.observation_shape),
                          dtype=np.float32)
    if mode == "dict":  # an OrderedDict: the space keeps the layout's order
        return spaces.Dict(OrderedDict((p.name, spaces.Box(low=low, high=high, shape=(p.size,),
                                                           dtype=np.float32))
                                       for p in game.observation_layout.pieces))
    return game.entity_layout.space(low, high)


def stack_views(observations: list) -> np.ndarray | dict[str, np.ndarray]:
    """A batch of observations of one mode: arrays stacked, dicts stacked key by key."""
    first = observations[0]
    if isinstance(first, dict):
        return {key: np.stack([o[key] for o in observations]) for key in first}
    return np.stack(observations)
