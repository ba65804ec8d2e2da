"""The one observation-encoder base every game's ``observation.py`` builds on.

A game's encoder lays its observation out as named pieces of one flat float32 vector (a
:class:`~card_envs.core.layout.Layout`) and writes :meth:`Encoder.encode`. The one caching
strategy of the suite lives here: pieces that stay fixed for a whole game (a fighter set's
statistics, a weapon's wheel, a hero card) are built once per *key* by the game's
:meth:`Encoder.static_part` and kept by the encoder (one encoder per game object, so per config),
in a bounded least-recently-used table of :attr:`Encoder.static_cache_size` entries. Nothing is
cached on the state, so states stay plain data (clone, save and load never see a cache).

A game object builds its encoder once, on first use (:attr:`card_envs.core.game.GameBase.encoder`);
``observation_shape`` is ``(encoder.layout.size,)``.

The other views of the same observation are built here from the flat vector: the named dict view
(:meth:`Encoder.encode_dict`: one entry per layout piece, each a view into the flat buffer) and,
for a game that declares one (:meth:`Encoder.make_entities`, beside its encoder), the per-entity
view (:meth:`Encoder.encode_entities`, :mod:`card_envs.core.entities`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import numpy as np

from card_envs.core.entities import EntityLayout
from card_envs.core.layout import Layout


class Encoder:
    """Base of a game's observation encoder.

    A game writes:

    - :meth:`make_layout` (or a class attribute ``LAYOUT``): the observation :class:`Layout`; it
      may depend on the config (Dirt and Glory: seats and card kinds);
    - :meth:`encode`: seat ``player``'s view of ``state`` as a fresh float32 array of shape
      ``(layout.size,)``, every entry inside the game's ``observation_low .. observation_high``,
      never another seat's hidden cards;
    - optionally :meth:`static_part`: the entries fixed for a whole game under a hashable key
      (read back with :meth:`static`).

    Offsets are named one way in every game: ``self.at`` is the layout's
    :class:`~card_envs.core.layout.Offsets` (``self.at.hand`` = where the piece ``hand`` starts);
    :meth:`encode` reads it into a local (``at = self.at``) and writes ``buf[at.hand + c]``.

    Attributes:
        game: the game object the encoder serves.
        layout: the observation layout (``layout.size`` entries).
        at: ``layout.at``, every piece's start by name.
    """

    #: the observation layout when it does not depend on the config
    LAYOUT: Layout | None = None
    #: the game's entity view when it does not depend on the config (else :meth:`make_entities`)
    ENTITIES: EntityLayout | None = None
    #: how many static parts (keys) one encoder keeps; the least recently used one goes first
    static_cache_size: int = 256

    def __init__(self, game: Any):
        self.game = game
        self.layout: Layout = self.make_layout(game)
        self._static: OrderedDict[Hashable, Any] = OrderedDict()
        self._prepare_views()
        self.bind()

    def _prepare_views(self) -> None:
        self.at = self.layout.at
        self._pieces = [(p.name, p.slice) for p in self.layout.pieces]
        self._entities: EntityLayout | None = None
        self._entities_built = False

    def bind(self) -> None:
        """Precompute what :meth:`encode` needs from ``self.game`` and ``self.layout`` (sizes,
        per-card tables; the piece offsets are :attr:`at` already); called after construction
        and after unpickling (a pickled encoder carries only the game and the layout).
        Default: nothing."""

    def make_layout(self, game: Any) -> Layout:
        """The observation layout for ``game``'s config (default: the class's ``LAYOUT``)."""
        if self.LAYOUT is None:
            raise NotImplementedError(f"{type(self).__name__}: set LAYOUT or write make_layout")
        return self.LAYOUT

    def static(self, key: Hashable) -> Any:
        """:meth:`static_part` of ``key``, built on first use and kept (bounded LRU). The value
        is shared between calls: copy it before writing into it."""
        table = self._static
        try:
            value = table[key]
        except KeyError:
            value = table[key] = self.static_part(key)
            if len(table) > self.static_cache_size:
                table.popitem(last=False)
            return value
        table.move_to_end(key)
        return value

    def static_part(self, key: Hashable) -> Any:
        """The observation entries that stay fixed for a whole game under ``key`` (the game
        chooses the key and the value: a list of floats, an array...)."""
        raise NotImplementedError(f"{type(self).__name__} has no static parts")

    def encode(self, state: Any, player: int) -> np.ndarray:  # pragma: no cover - interface
        """Seat ``player``'s observation of ``state``: float32, shape ``(layout.size,)``."""
        raise NotImplementedError

    # -- the other views of the observation -------------------------------------------------------
    def encode_dict(self, state: Any, player: int) -> dict[str, np.ndarray]:
        """The named dict view: ``{piece name: entries}`` in layout order, each entry a view
        into one fresh flat vector (float32 ``(piece.size,)``)."""
        flat = self.encode(state, player)
        return {name: flat[where] for name, where in self._pieces}

    def make_entities(self, game: Any) -> EntityLayout | None:
        """The game's entity view for ``game``'s config (default: the class's ``ENTITIES``;
        ``None``: the game offers none). Built on first use, after the game is complete."""
        return self.ENTITIES

    @property
    def entity_layout(self) -> EntityLayout | None:
        """The entity view's :class:`~card_envs.core.entities.EntityLayout` (``None`` if the
        game declares none)."""
        if not self._entities_built:
            self._entities = self.make_entities(self.game)
            self._entities_built = True
        return self._entities

    def encode_entities(self, state: Any, player: int) -> dict[str, np.ndarray]:
        """The per-entity view (keys and shapes: ``entity_layout.shapes()``): the flat vector
        encoded, the ``source`` zones viewed in it, :meth:`fill_entities` writing the rest,
        the masks and targets finished by the layout.

        Raises:
            NotImplementedError: the game declares no entity view.
        """
        entities = self.entity_layout
        if entities is None:
            raise NotImplementedError(f"{type(self).__name__} declares no entity view")
        flat = self.encode(state, player)
        out = entities.start(flat)
        self.fill_entities(state, player, flat, out)
        return entities.finish(out)

    def fill_entities(self, state: Any, player: int, flat: np.ndarray,
                      out: dict[str, np.ndarray]) -> None:
        """Write the zones that are not views of the flat vector (``out[zone]``, zeros, float32
        ``(rows, features)``) and the dynamic action targets (``out["action_targets"]``) of seat
        ``player``'s view, from what that seat may know only. Default: nothing."""

    def __getstate__(self) -> dict[str, Any]:  # pickled games carry no cache
        return {"game": self.game, "layout": self.layout}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.game = data["game"]
        self.layout = data["layout"]
        self._static = OrderedDict()
        self._prepare_views()
        self.bind()
