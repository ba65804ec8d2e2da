"""The per-entity observation view: the cards (fighters, seats...) a seat sees, as rows.

A game declares its entity view once, beside its encoder (the game's ``observation.py``), as an
:class:`EntityLayout` — plain data, like the flat :class:`~card_envs.core.layout.Layout`:

- **zones** (:class:`Zone`): the hand, the table positions, the discard pile, the offer... each a
  fixed number of rows of the same features (float32 ``(rows, features)``) with a row mask (int8
  ``(rows,)``: 1 for a row that holds an entity). A zone whose rows already lie one after the
  other in the flat observation (a piece of ``rows × features`` entries, as Rust Brawl's table
  positions) is declared with ``source`` and is a *view* into the flat buffer; the others are
  written by the game's encoder (:meth:`card_envs.core.observation.Encoder.fill_entities`);
- **globals**: named pieces of the flat observation (phase, scores, sizes...) concatenated into
  one float32 vector;
- **action targets** (:class:`Target`): for every action id the row(s) it refers to (a play of a
  hand card → that card's row), int32 ``(num_actions, columns)``, rows numbered across the zones
  in their declared order (zone ``k``'s rows follow zone ``k-1``'s), ``-1`` where there is none
  and where the row it would name is empty (masked). A target is static (action ``i`` of a piece
  → row ``i``, or one fixed row) or *dynamic*: written by the encoder at every step (the row of
  the card with this id in the sorted hand).

The observation is a dict, in this order: per zone ``"<zone>"`` and ``"<zone>_mask"``, then
``"globals"`` and ``"action_targets"`` (:meth:`EntityLayout.shapes`); its Gymnasium space is
:meth:`EntityLayout.space`. :meth:`EntityLayout.markdown` gives the two documentation tables
(keys; targets) that the env module docstring holds (a test asserts it). Nothing here imports
Gymnasium until :meth:`EntityLayout.space` is called.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from card_envs.core.layout import Layout

#: the keys an entity observation holds besides its zones and their masks
GLOBALS, ACTION_TARGETS = "globals", "action_targets"
#: where :meth:`EntityLayout.start` keeps the buffer of the written zones (not an observation key)
WRITTEN = "_written"
#: dtypes of the row masks and of the action targets
MASK_DTYPE, TARGET_DTYPE = np.int8, np.int32


@dataclass(frozen=True)
class Zone:
    """One zone of an entity view.

    Attributes:
        name: the observation key (its mask is ``"<name>_mask"``).
        rows: how many rows (the most entities the zone can hold in this config).
        features: the name of each feature of a row.
        meaning: what the zone holds and in which row order.
        source: the flat observation piece whose entries are these rows (row-major, starting at
            row ``source_row`` of the piece): the zone is then a view into the flat buffer.
        source_row: the first row of ``source`` that belongs to the zone.
        present: the feature whose non-zero value marks a row holding an entity (the row mask);
            ``None``: every row always holds one.
        features_doc: the documentation of the features, when a list of names would be too long
            (e.g. "the 50 card features of the table above"); default: the names.
    """

    name: str
    rows: int
    features: tuple[str, ...]
    meaning: str
    source: str | None = None
    source_row: int = 0
    present: int | None = 0
    features_doc: str = ""

    @property
    def mask_key(self) -> str:
        return self.name + "_mask"


@dataclass(frozen=True)
class Target:
    """Action targets of one action piece, in one column of ``action_targets``.

    Attributes:
        actions: the action piece (a name of the game's action layout).
        zone: the zone whose rows the actions refer to.
        column: the column of ``action_targets`` written (``0 .. columns-1``).
        row: ``None``: action ``i`` of the piece refers to row ``i`` of the zone; an int: every
            action of the piece refers to that row.
        dynamic: the row changes with the state: the encoder writes it at every step
            (``meaning`` says how); ``row`` is then ignored.
        meaning: the documentation of a dynamic target (or a note on a static one).
    """

    actions: str
    zone: str
    column: int = 0
    row: int | None = None
    dynamic: bool = False
    meaning: str = ""


class EntityLayout:
    """A game's entity view (see the module docstring).

    Args:
        observation_layout: the game's flat observation layout (for ``source`` zones and the
            globals).
        action_layout: the game's action layout (for the targets).
        zones: the zones, in row-numbering order.
        globals: the names of the flat observation pieces concatenated into ``"globals"``.
        targets: the action targets.
        columns: the columns of ``action_targets`` (the most rows one action refers to).

    Raises:
        ValueError: a zone or piece name unknown or repeated, a zone without rows or features, a
            ``source`` piece too small for the zone's rows, a target column or row out of range.
    """

    def __init__(self, observation_layout: Layout, action_layout: Layout, zones: list[Zone],
                 globals: tuple[str, ...] | list[str], targets: list[Target] = (),
                 columns: int = 1):
        self.zones = list(zones)
        self.columns = int(columns)
        self.globals = tuple(globals)
        self.targets = list(targets)
        self.num_actions = action_layout.size
        self._actions = action_layout
        names: set[str] = set()
        self.row_start: dict[str, int] = {}
        rows = 0
        for z in self.zones:
            if z.name in names or z.mask_key in names or z.name in (GLOBALS, ACTION_TARGETS):
                raise ValueError(f"entity zone {z.name!r}: the name is taken")
            names.update((z.name, z.mask_key))
            if z.rows <= 0 or not z.features:
                raise ValueError(f"entity zone {z.name!r}: {z.rows} rows of {len(z.features)} "
                                 "features")
            if z.present is not None and not 0 <= z.present < len(z.features):
                raise ValueError(f"entity zone {z.name!r}: present feature {z.present} is not "
                                 "one of its features")
            if z.source is not None:
                piece = observation_layout[z.source]
                need = (z.source_row + z.rows) * len(z.features)
                if need > piece.size:
                    raise ValueError(f"entity zone {z.name!r}: {z.rows} rows from row "
                                     f"{z.source_row} of piece {z.source!r} need {need} entries, "
                                     f"it has {piece.size}")
            self.row_start[z.name] = rows
            rows += z.rows
        #: rows of all zones together (action targets number them 0 .. total_rows-1)
        self.total_rows = rows
        self._zone = {z.name: z for z in self.zones}
        #: flat indices of the globals (a slice when they are one range of the flat vector)
        index = np.concatenate([np.arange(observation_layout[g].start, observation_layout[g].stop)
                                for g in self.globals]) if self.globals else np.zeros(0, int)
        self.globals_size = len(index)
        contiguous = len(index) and np.array_equal(index,
                                                   np.arange(index[0], index[0] + len(index)))
        self._globals = slice(int(index[0]), int(index[-1]) + 1) if contiguous else index
        # the zones the encoder writes: one buffer per observation, cut into the zones
        self._written = [(z.name, z.rows, len(z.features)) for z in self.zones if z.source is None]
        self._written_size = sum(r * f for _, r, f in self._written)
        self._views = []
        for z in self.zones:
            if z.source is not None:
                start = observation_layout[z.source].start + z.source_row * len(z.features)
                self._views.append((z.name, start, start + z.rows * len(z.features), z.rows,
                                    len(z.features)))
        # the masks: a run of written zones of one width and one present feature lies in one
        # range of the buffer and of the row numbering: one comparison for the run
        self._offset: dict[str, int] = {}
        o = 0
        for name, rows, features in self._written:
            self._offset[name] = o
            o += rows * features
        self._mask_runs: list[tuple] = []  # (zone name, rows, features, present, a, b)
        for z in self.zones:
            a = self.row_start[z.name]
            run = self._mask_runs[-1] if self._mask_runs else None
            if run is not None and z.source is None and run[0] in self._offset and \
                    (run[2], run[3]) == (len(z.features), z.present) and run[5] == a:
                self._mask_runs[-1] = run[:1] + (run[1] + z.rows,) + run[2:5] + (a + z.rows,)
            else:
                self._mask_runs.append((z.name, z.rows, len(z.features), z.present, a,
                                        a + z.rows))
        self._keys = [(z.name, z.mask_key, self.row_start[z.name],
                       self.row_start[z.name] + z.rows) for z in self.zones]
        self.static_targets = np.full((self.num_actions, self.columns), -1, dtype=TARGET_DTYPE)
        for t in self.targets:
            if t.zone not in self._zone:
                raise ValueError(f"action target of {t.actions!r}: no zone {t.zone!r}")
            if not 0 <= t.column < self.columns:
                raise ValueError(f"action target of {t.actions!r}: column {t.column} outside "
                                 f"0..{self.columns - 1}")
            piece = action_layout[t.actions]
            if t.dynamic:
                continue
            zone = self._zone[t.zone]
            for i in range(piece.size):
                row = i if t.row is None else t.row
                if not 0 <= row < zone.rows:
                    raise ValueError(f"action {t.actions} {i}: row {row} outside zone "
                                     f"{t.zone!r} (rows 0..{zone.rows - 1})")
                self.static_targets[piece.start + i, t.column] = self.row_start[t.zone] + row

    def __getitem__(self, name: str) -> Zone:
        return self._zone[name]

    def row(self, zone: str, row: int) -> int:
        """The number of ``zone``'s row ``row`` in ``action_targets`` (rows counted across the
        zones)."""
        return self.row_start[zone] + row

    # -- the observation -------------------------------------------------------------------------
    def shapes(self) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
        """Every key of the observation with its shape and dtype, in order."""
        out: dict[str, tuple[tuple[int, ...], np.dtype]] = {}
        for z in self.zones:
            out[z.name] = ((z.rows, len(z.features)), np.dtype(np.float32))
            out[z.mask_key] = ((z.rows,), np.dtype(MASK_DTYPE))
        out[GLOBALS] = ((self.globals_size,), np.dtype(np.float32))
        out[ACTION_TARGETS] = ((self.num_actions, self.columns), np.dtype(TARGET_DTYPE))
        return out

    def space(self, low: float, high: float):
        """The Gymnasium ``Dict`` space of the observation (keys in :meth:`shapes` order, kept:
        the zones' order numbers their rows): zones
        and globals ``Box(low, high, float32)``, masks ``Box(0, 1, int8)``, targets
        ``Box(-1, total_rows - 1, int32)``."""
        from collections import OrderedDict

        from gymnasium import spaces

        out: OrderedDict = OrderedDict()  # the zones in row-numbering order (Dict keeps it)
        for key, (shape, dtype) in self.shapes().items():
            if key == ACTION_TARGETS:
                out[key] = spaces.Box(-1, self.total_rows - 1, shape=shape, dtype=TARGET_DTYPE)
            elif dtype == MASK_DTYPE:
                out[key] = spaces.Box(0, 1, shape=shape, dtype=MASK_DTYPE)
            else:
                out[key] = spaces.Box(low, high, shape=shape, dtype=np.float32)
        return spaces.Dict(out)

    def start(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """A new observation around the flat vector ``flat`` (which it keeps views into): the
        ``source`` zones as views, the written zones zero, the globals gathered, the static
        targets; the encoder then writes its zones and dynamic targets, and :meth:`finish`
        sets the masks. (Masks are filled in by :meth:`finish`.)"""
        out: dict[str, np.ndarray] = {}
        buf = np.zeros(self._written_size, dtype=np.float32)
        o = 0
        for name, rows, features in self._written:
            out[name] = buf[o:o + rows * features].reshape(rows, features)
            o += rows * features
        for name, a, b, rows, features in self._views:
            out[name] = flat[a:b].reshape(rows, features)
        out[GLOBALS] = flat[self._globals]
        out[ACTION_TARGETS] = self.static_targets.copy()
        out[WRITTEN] = buf
        return out

    def block(self, out: dict[str, np.ndarray], first: str, zones: int) -> np.ndarray:
        """The ``zones`` written zones from ``first`` on (consecutive, of one shape) as one
        ``(zones, rows, features)`` view of ``out`` (as :meth:`start` made it), so an encoder
        can write them in one operation.

        Raises:
            ValueError: they are not consecutive written zones of one shape.
        """
        names = [name for name, _, _ in self._written]
        i = names.index(first)
        shapes = {(rows, features) for _, rows, features in self._written[i:i + zones]}
        if len(shapes) != 1 or i + zones > len(names):
            raise ValueError(f"entity zones from {first!r}: {zones} written zones of one shape "
                             "expected")
        (rows, features), = shapes
        o = self._offset[first]
        return out[WRITTEN][o:o + zones * rows * features].reshape(zones, rows, features)

    def finish(self, out: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Set the row masks from the ``present`` features, clear every target that names an
        empty row (to ``-1``), and return the observation in key order (:meth:`shapes`). The
        masks are int8 views into one buffer of ``total_rows`` entries."""
        result: dict[str, np.ndarray] = {}
        every = np.empty(self.total_rows, dtype=np.bool_)
        masks = every.view(MASK_DTYPE)
        written = out[WRITTEN]
        for name, rows, features, present, a, b in self._mask_runs:
            if present is None:
                every[a:b] = True
            elif name in self._offset:  # a run of written zones: one range of the buffer
                o = self._offset[name]
                np.not_equal(written[o + present:o + rows * features:features], 0,
                             out=every[a:b])
            else:
                np.not_equal(out[name][:, present], 0, out=every[a:b])
        for name, key, a, b in self._keys:
            result[name] = out[name]
            result[key] = masks[a:b]
        targets = out[ACTION_TARGETS]
        named = targets >= 0
        named &= ~every[np.where(named, targets, 0)]
        targets[named] = -1
        result[GLOBALS] = out[GLOBALS]
        result[ACTION_TARGETS] = targets
        return result

    # -- documentation ---------------------------------------------------------------------------
    def markdown(self) -> str:
        """Two markdown tables: the keys (``| key | shape | rows | meaning |``, a zone's rows
        numbered as in ``action_targets``) and the action targets (``| actions | column | refers
        to |``)."""
        keys = ["| key | shape | rows | meaning |", "|---|---|---|---|"]
        for z in self.zones:
            start = self.row_start[z.name]
            span = f"{start}" if z.rows == 1 else f"{start}–{start + z.rows - 1}"
            features = z.features_doc or "; ".join(z.features)
            where = f" (a view of the flat piece `{z.source}`)" if z.source else ""
            keys.append(f"| `{z.name}` | ({z.rows}, {len(z.features)}) | {span} | {z.meaning}"
                        f"{where}; features: {features} |")
            present = ("1 for every row" if z.present is None else
                       f"1 for a row holding one (feature {z.present} non-zero)")
            keys.append(f"| `{z.mask_key}` | ({z.rows},) | | {present} |")
        keys.append(f"| `{GLOBALS}` | ({self.globals_size},) | | the flat pieces "
                    + ", ".join(f"`{g}`" for g in self.globals) + " in that order |")
        keys.append(f"| `{ACTION_TARGETS}` | ({self.num_actions}, {self.columns}) | | per action "
                    "id the row(s) it refers to, -1 for none (table below) |")
        targets = ["| actions | column | refers to |", "|---|---|---|"]
        for t in self.targets:
            piece = self._actions[t.actions]
            ids = f"{piece.start}" if piece.size == 1 else f"{piece.start}–{piece.stop - 1}"
            if t.dynamic:
                what = f"`{t.zone}`: {t.meaning}"
            elif t.row is None:
                what = f"`{t.zone}` row i (action i of the piece)"
            else:
                what = f"`{t.zone}` row {t.row}"
            if t.meaning and not t.dynamic:
                what += f": {t.meaning}"
            targets.append(f"| `{t.actions}` ({ids}) | {t.column} | {what} |")
        return "\n".join(keys) + "\n\n" + "\n".join(targets)
