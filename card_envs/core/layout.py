"""Named index ranges over one flat vector: observation pieces and action ranges.

A :class:`Layout` is declared once per game (plain data: a list of ``(name, size, meaning)``) and
gives each piece a ``slice``. Its :meth:`Layout.markdown` table is pasted into the env module
docstring, and a test asserts the docstring still contains it, so the documented layout cannot
drift from the code.

Code names a piece's place the one way: ``layout.at.<piece>`` (:class:`Offsets`), the start of
that piece; an encoder holds its layout's offsets as ``self.at`` and writes
``buf[at.hand + card] = 1.0`` (a local ``at = self.at`` first: an attribute read of a plain
object, as fast as a module constant on the hot path).
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from functools import cached_property, lru_cache


@dataclass(frozen=True)
class Piece:
    """One named range: ``start`` (inclusive) .. ``stop`` (exclusive) and what it means."""

    name: str
    start: int
    stop: int
    meaning: str

    @property
    def size(self) -> int:
        return self.stop - self.start

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


class Offsets:
    """The start of every piece of a :class:`Layout` as an attribute: ``offsets.hand`` is
    ``layout["hand"].start`` (an ``int``). Read-only; ``dir()`` lists the piece names. Built by
    :attr:`Layout.at` (one class per set of piece names, its ``__slots__`` the names: slot reads
    are what CPython specialises best, as fast as a module constant).

    Raises:
        AttributeError: reading a name that is no piece (the plain message naming it) or
            setting any attribute.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"layout offsets are read-only (setting {name!r})")

    def __dir__(self) -> list[str]:
        return list(self.__slots__)

    def starts(self) -> tuple[tuple[str, int], ...]:
        """``((piece name, start), ...)`` in layout order."""
        return tuple((n, getattr(self, n)) for n in self.__slots__)

    def __repr__(self) -> str:
        return "Offsets(" + ", ".join(f"{n}={v}" for n, v in self.starts()) + ")"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Offsets) and self.starts() == other.starts()

    def __hash__(self) -> int:
        return hash(self.starts())

    def __reduce__(self):  # rebuilt from the starts (the class is made per set of names)
        return make_offsets, (self.starts(),)


@lru_cache(maxsize=None)
def _offsets_class(names: tuple[str, ...]) -> type[Offsets]:
    for name in names:
        if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") \
                or name in dir(Offsets):
            raise ValueError(f"layout piece {name!r} cannot be an offset name (not a public "
                             "Python identifier, or an Offsets method)")
    return type("Offsets", (Offsets,), {"__slots__": names, "__module__": __name__})


def make_offsets(starts: tuple[tuple[str, int], ...]) -> Offsets:
    """An :class:`Offsets` with the attribute ``name = start`` for every pair of ``starts``."""
    offsets = object.__new__(_offsets_class(tuple(n for n, _ in starts)))
    for name, start in starts:
        object.__setattr__(offsets, name, start)
    return offsets


class Layout:
    """Consecutive named ranges. ``layout["hand"]`` is the :class:`Piece`; ``layout.size`` the
    total length; ``layout.markdown()`` the documentation table (asserted against docstrings)."""

    def __init__(self, pieces: list[tuple[str, int, str]]):
        self.pieces: list[Piece] = []
        self._by_name: dict[str, Piece] = {}
        start = 0
        for name, size, meaning in pieces:
            if size <= 0:
                raise ValueError(f"layout piece {name!r} has size {size}")
            if name in self._by_name:
                raise ValueError(f"duplicate layout piece {name!r}")
            piece = Piece(name, start, start + size, meaning)
            self.pieces.append(piece)
            self._by_name[name] = piece
            start += size
        self.size = start

    def __getitem__(self, name: str) -> Piece:
        return self._by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def start(self, name: str) -> int:
        """The flat index where piece ``name`` starts; KeyError for an unknown piece."""
        return self._by_name[name].start

    def starts(self, *names: str) -> tuple[int, ...]:
        """The starts of the pieces ``names``, in the order given: a game's action ids read off
        its action layout in one statement (``A_PICK, A_SLOT = ACTIONS.starts("pick", "slot")``);
        KeyError for an unknown piece."""
        return tuple(self._by_name[name].start for name in names)

    @cached_property
    def at(self) -> Offsets:
        """Every piece's start by name (:class:`Offsets`): ``layout.at.hand`` is
        ``layout.start("hand")``; the one way encoders name their offsets."""
        return make_offsets(tuple((p.name, p.start) for p in self.pieces))

    def piece_of(self, index: int) -> Piece:
        """The piece that holds flat index ``index``; IndexError outside ``[0, size)``."""
        for p in self.pieces:
            if p.start <= index < p.stop:
                return p
        raise IndexError(f"index {index} outside layout of size {self.size}")

    def markdown(self) -> str:
        """A markdown table ``| indices | name | meaning |`` (one row a piece)."""
        rows = ["| indices | name | meaning |", "|---|---|---|"]
        for p in self.pieces:
            idx = f"{p.start}" if p.size == 1 else f"{p.start}–{p.stop - 1}"
            rows.append(f"| {idx} | `{p.name}` | {p.meaning} |")
        return "\n".join(rows)
