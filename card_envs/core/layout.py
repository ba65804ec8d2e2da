"""Named index ranges over one flat vector: observation pieces and action ranges.

A :class:`Layout` is declared once per game (plain data: a list of ``(name, size, meaning)``) and
gives each piece a ``slice``. Its :meth:`Layout.markdown` table is pasted into the env module
docstring, and a test asserts the docstring still contains it, so the documented layout cannot
drift from the code.
"""

from __future__ import annotations

from dataclasses import dataclass


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
        return self._by_name[name].start

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
