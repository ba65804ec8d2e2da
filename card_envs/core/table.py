"""What a picture of the table shows: plain frozen records a game fills in, no drawing here.

A game describes one moment of play for one seat with :meth:`Game.table_view(state, player)
<card_envs.core.game.GameBase.table_view>` as a :class:`Table`; :mod:`card_envs.core.picture`
draws any ``Table`` (card boxes, text, the layout grid) with Pillow. The game decides *what* is
visible, the core *how* it looks, so a new game writes only the description (or nothing: the
default ``table_view`` draws the seat's text view ``render_view``).

Shape of a table, top to bottom::

    title bar      Table.title, Table.status (phase, whose turn, the result)
    panels         a grid of Table.columns columns; a Panel with wide=True takes a whole line.
                   Panel: title (a seat: "player 1 (you)"), lines of text (HP, score, ...), and
                   rows of cards (CardRow: a label, a note under it, the cards left to right)
    notes          Table.notes, then what the env adds (the last move)

Hidden cards are never put into a ``Table`` for a seat that may not see them: a hidden zone is a
face-down :class:`CardFace` whose title is its size (``"5 cards"``), so the picture of a seat
depends only on that seat's information (``tests/test_render.py`` checks it, frame against frame,
after ``sample_hidden``).

A frame's size must not change during an episode (video encoders need equal frames): give every
panel the same number of lines and rows in every state (an empty row is drawn with its note), or
set :attr:`Table.height` (the picture is then scaled to fit it).
"""

from __future__ import annotations

from dataclasses import dataclass

#: the card tones the painter knows (fill and text colour): a game picks one per card
TONES = ("plain", "white", "black", "piebald", "green", "orange", "red", "gold", "blue", "grey")


@dataclass(frozen=True, slots=True)
class CardFace:
    """One card box.

    Attributes:
        title: the big text at the top (a value ``"2"``, a name ``"Obr"``); stays readable when
            cards overlap.
        details: smaller lines under the title (``"atk ↑ high"``, ``"HP 5/7"``); as many as fit.
        tone: one of :data:`TONES` (``"black"``: a dark card with light text; ``"grey"``: out
            of play, e.g. an eliminated fighter).
        face_down: a card back; ``title`` is then what the seat knows of it (``"5 cards"``).
        marked: drawn with a thick red border (in battle, just played, last spun).
    """

    title: str
    details: tuple[str, ...] = ()
    tone: str = "plain"
    face_down: bool = False
    marked: bool = False

    def __post_init__(self):
        if self.tone not in TONES:
            raise ValueError(f"CardFace.tone: {self.tone!r} is not one of {TONES}")


@dataclass(frozen=True, slots=True)
class CardRow:
    """A labelled row of cards (``label`` and ``note`` left, the cards after them; many cards
    overlap, too many end in a ``+k`` box)."""

    label: str
    cards: tuple[CardFace, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class Panel:
    """A seat's area or the middle of the table.

    Attributes:
        title: the heading (``"player 0 (you)"``).
        lines: one text line each (long ones shrink, then end in ``…``).
        rows: card rows.
        active: this seat is to act (a gold frame and ``▶`` before the title).
        wide: takes a whole line of the grid, whatever :attr:`Table.columns` is.
    """

    title: str
    lines: tuple[str, ...] = ()
    rows: tuple[CardRow, ...] = ()
    active: bool = False
    wide: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """The whole picture's content (see the module docstring).

    Attributes:
        title / status: the title bar's two lines.
        panels: in reading order.
        notes: lines at the bottom.
        columns: panels per grid line (``wide`` panels take a line alone).
        card_size: ``(width, height)`` of a card box in pixels.
        width: the picture's width in pixels.
        height: ``None``: as tall as the content; an int: exactly this tall (taller content is
            scaled down to fit, shorter is padded).
    """

    title: str
    status: str
    panels: tuple[Panel, ...] = ()
    notes: tuple[str, ...] = ()
    columns: int = 1
    card_size: tuple[int, int] = (92, 124)
    width: int = 1280
    height: int | None = None


def cards(k: int) -> str:
    """``"1 card"``, ``"5 cards"``: a count of cards for a note or a face-down stack."""
    return f"{k} card{'' if k == 1 else 's'}"


def counted(names, key=None) -> list[str]:
    """Names with their copies counted, sorted (by ``key`` of a name when given):
    ``["Obr", "Obr", "Kůň"]`` -> ``["Kůň", "Obr ×2"]``."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    order = sorted(counts, key=key)
    return [name if counts[name] == 1 else f"{name} ×{counts[name]}" for name in order]


def split_list(head: str, items: list[str], parts: int, line_chars: int = 120) -> tuple[str, ...]:
    """``head`` then ``items`` joined by ``", "`` on exactly ``parts`` lines: one line when it
    has at most ``line_chars`` characters (a full-width panel line at its size holds about
    140), else lines of about equal length (a break only between two items); empty lines at the
    end. A long list stays readable at a panel line's size in a fixed number of lines (the frame
    keeps one size)."""
    text = head + ", ".join(items)
    if len(text) <= line_chars:
        return (text,) + ("",) * (parts - 1)
    target = len(text) / parts
    lines, current = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i + 1 < len(items) else "")
        if current.strip() and len(current) + len(piece) > target * 1.15 \
                and len(lines) < parts - 1:
            lines.append(current.rstrip())
            current = ""
        current += piece + " "
    lines.append(current.rstrip())
    return tuple(lines) + ("",) * (parts - len(lines))


def text_table(title: str, status: str, text: str, height: int = 720) -> Table:
    """A table of one panel holding ``text`` line by line: the default picture of a game
    without its own ``table_view`` (``GameBase.table_view`` passes the seat's ``render_view``).
    Fixed ``height`` (default 720 px), so the frame size never changes."""
    return Table(title=title, status=status,
                 panels=(Panel(title="view", lines=tuple(text.splitlines()), wide=True),),
                 height=height)
