"""Pictures of the table for ``render_mode="rgb_array"``: any :class:`~card_envs.core.table.Table`
drawn as an ``H×W×3`` ``uint8`` numpy array.

Drawn with **Pillow**: a small, well-kept imaging library with binary wheels for every platform,
that draws off-screen with no display, window system or GUI event loop (pygame opens an SDL
display layer and is a much larger dependency; matplotlib is built for plots, ~10x slower per
frame for boxes and text, and would pull its whole stack into the core install). Text uses the
bundled DejaVu Sans subset (``card_envs/core/fonts/``, Latin-1 and Latin Extended-A, so Czech card
names such as *Čaroděj* or *Kůň* render: Pillow's own default font has no ``ř``, ``ů`` or even
``á``).

- :func:`draw_table` — a ``Table`` (and extra note lines) to a frame;
- :func:`table_frame` — ``game.table_view(state, seat)`` drawn, with the last move;
- :class:`TableCamera` — what an env keeps to draw its frames: the seat it draws for and the moves
  since that seat's last decision as it saw them (``Game.action_seen_by``: a card played face
  down stays unnamed).

A frame depends only on the ``Table`` and the notes, so a seat's frame is byte-identical after
``sample_hidden`` for that seat whenever its ``table_view`` is (``tests/test_render.py``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from card_envs.core.table import CardFace, CardRow, Panel, Table

FONT_DIR = Path(__file__).resolve().parent / "fonts"

#: colours (RGB hex)
FELT, FELT_DARK, PANEL, PANEL_EDGE, INK, MUTED = (
    "#2f6b4f", "#1d4633", "#f6f1e4", "#9a8f74", "#1d1d1d", "#6b6455")
GOLD, MARK, BACK, BACK_LINE = "#f2b705", "#d62828", "#2b4a8b", "#3f63ad"
#: tone -> (fill, text colour) of a card box
TONE_COLOURS = {
    "plain": ("#ffffff", INK), "white": ("#ffffff", INK), "black": ("#2a2a2a", "#f5f5f5"),
    "piebald": ("#a9a9a9", INK), "green": ("#d3ecc8", INK), "orange": ("#ffd9a6", INK),
    "red": ("#f6bcbc", INK), "gold": ("#fff0a0", INK), "blue": ("#d4e3f7", INK),
    "grey": ("#d2d2d2", "#7a7a7a"),
}

MARGIN = 12
TITLE_H = 64
NOTE_H = 24
PANEL_HEAD_H = 30
LINE_H = 22
LABEL_W = 118
GAP = 8
MIN_STEP = 26  # the least visible strip of an overlapped card


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans (bold) at ``size`` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def fit_text(draw: ImageDraw.ImageDraw, text: str, width: int, size: int, bold: bool = False,
             min_size: int = 11) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` and a font that fit ``width`` pixels: the size shrinks to ``min_size``, then
    the text is cut and ends in ``…``."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if draw.textlength(text, font=f) <= width:
            return text, f
    f = font(min_size, bold)
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return (text + "…" if text else ""), f


def _text(draw, xy, text, width, size, fill, bold=False, min_size=11, anchor="la"):
    t, f = fit_text(draw, text, width, size, bold, min_size)
    draw.text(xy, t, font=f, fill=fill, anchor=anchor)


def _row_height(table: Table) -> int:
    return table.card_size[1] + 12


def panel_height(panel: Panel, table: Table) -> int:
    """The natural height of ``panel`` in pixels."""
    return 10 + PANEL_HEAD_H + LINE_H * len(panel.lines) + _row_height(table) * len(panel.rows)


def _grid(table: Table) -> list[list[Panel]]:
    """The panels in grid lines: ``columns`` a line, a wide panel alone."""
    lines: list[list[Panel]] = []
    current: list[Panel] = []
    for p in table.panels:
        if p.wide:
            if current:
                lines.append(current)
                current = []
            lines.append([p])
        else:
            current.append(p)
            if len(current) == max(1, table.columns):
                lines.append(current)
                current = []
    if current:
        lines.append(current)
    return lines


def draw_card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: CardFace,
              visible_width: int | None = None) -> None:
    """One card box at ``box`` (x0, y0, x1, y1); ``visible_width``: the strip left uncovered by
    the next card (its title is fitted to it)."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    strip = min(w, visible_width or w) - 10
    if card.face_down:
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline="#e8e8e8", width=2)
        h = y1 - y0
        for k in range(-h, w, 12):  # a hatched back: lines x - y = k inside the inset box
            ax, ay = max(k, 0), max(-k, 0)
            n = min(w - ax, h - ay)
            if n > 12:
                draw.line([(x0 + ax + 5, y0 + ay + 5), (x0 + ax + n - 5, y0 + ay + n - 5)],
                          fill=BACK_LINE, width=2)
        words = card.title.split(" ", 1)
        cy = (y0 + y1) // 2
        if visible_width is not None and visible_width < w:
            _text(draw, (x0 + 5, y0 + 6), card.title, strip, 15, "#ffffff", bold=True)
        else:
            for i, word in enumerate(words):
                yy = cy - 12 + i * 24 if len(words) == 2 else cy
                _text(draw, (x0 + w // 2, yy), word, w - 10, 20, "#ffffff", bold=True,
                      anchor="mm")
    else:
        fill, ink = TONE_COLOURS[card.tone]
        draw.rounded_rectangle(box, radius=8, fill=fill, outline="#3a3a3a", width=2)
        if card.tone == "piebald":  # half white, half black
            draw.polygon([(x0 + 3, y1 - 3), (x1 - 3, y0 + 3), (x1 - 3, y1 - 3)], fill="#3a3a3a")
        y = y0 + 34
        title, f = fit_text(draw, card.title, strip, 22, bold=True, min_size=14)
        if title != card.title and " " in card.title and strip >= w - 10:
            # a long name on two lines: split at the space nearest the middle
            spaces = [i for i, ch in enumerate(card.title) if ch == " "]
            cut = min(spaces, key=lambda i: abs(i - len(card.title) / 2))
            first, second = card.title[:cut], card.title[cut + 1:]
            size = 16
            while size > 10 and max(draw.textlength(x, font=font(size, True))
                                    for x in (first, second)) > strip:
                size -= 1
            _text(draw, (x0 + 6, y0 + 5), first, strip, size, ink, bold=True, min_size=size)
            _text(draw, (x0 + 6, y0 + 7 + size), second, strip, size, ink, bold=True,
                  min_size=size)
            y = y0 + 14 + 2 * size
        else:
            _text(draw, (x0 + 6, y0 + 5), card.title, strip, 22, ink, bold=True)
        for line in card.details:
            if y + 15 > y1 - 4:
                break
            back = card.tone == "piebald"
            t, f = fit_text(draw, line, w - 12, 14, min_size=9)
            if back:  # a plate so the text reads over both halves
                tw = int(draw.textlength(t, font=f))
                draw.rectangle((x0 + 4, y - 1, x0 + 8 + tw, y + 16), fill="#ffffff")
            draw.text((x0 + 6, y), t, font=f, fill=ink)
            y += 17
    if card.marked:
        draw.rounded_rectangle(box, radius=8, outline=MARK, width=4)


def draw_row(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, row: CardRow,
             table: Table) -> None:
    """A card row at (``x``, ``y``), ``width`` pixels wide: the label and note, then the cards
    (overlapping when they do not fit side by side; a ``+k`` box for the rest)."""
    cw, ch = table.card_size
    _text(draw, (x, y + 4), row.label, LABEL_W - 8, 16, INK, bold=True, min_size=10)
    if row.note:
        for i, part in enumerate(row.note.split("\n")[:4]):
            _text(draw, (x, y + 26 + 18 * i), part, LABEL_W - 8, 14, MUTED, min_size=9)
    cx, avail = x + LABEL_W, width - LABEL_W
    cards = list(row.cards)
    n = len(cards)
    if n == 0:
        return
    step = cw + GAP
    if n * step - GAP > avail:
        fits = 1 + max(0, (avail - cw) // MIN_STEP)
        if n > fits:  # show what fits, then "+k"
            hidden = n - (fits - 1)
            cards = cards[:fits - 1] + [CardFace(f"+{hidden}", ("more",), tone="gold")]
            n = len(cards)
        step = (avail - cw) // (n - 1) if n > 1 else cw
    for i, card in enumerate(cards):
        left = cx + i * step
        visible = step if i < n - 1 and step < cw else None
        draw_card(draw, (left, y + 4, left + cw, y + 4 + ch), card, visible)


def draw_panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], panel: Panel,
               table: Table) -> None:
    """One panel in ``box``: the frame (gold when active), the title, the lines, the rows."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL,
                           outline=GOLD if panel.active else PANEL_EDGE,
                           width=5 if panel.active else 2)
    title = ("▶ " if panel.active else "") + panel.title
    _text(draw, (x0 + 12, y0 + 8), title, x1 - x0 - 24, 19, INK, bold=True)
    y = y0 + 6 + PANEL_HEAD_H
    for line in panel.lines:
        _text(draw, (x0 + 12, y), line, x1 - x0 - 24, 16, INK, min_size=10)
        y += LINE_H
    for row in panel.rows:
        draw_row(draw, x0 + 12, y, x1 - x0 - 24, row, table)
        y += _row_height(table)


def draw_table(table: Table, notes: tuple[str, ...] = ()) -> np.ndarray:
    """``table`` (then the extra ``notes`` lines) as a picture: a C-contiguous ``uint8`` array
    of shape ``(height, table.width, 3)`` (RGB). Its height is the content's, or
    ``table.height`` when set (taller content is scaled down to fit, then centred)."""
    width = table.width
    grid = _grid(table)
    heights = [max(panel_height(p, table) for p in line) for line in grid]
    all_notes = tuple(table.notes) + tuple(notes)
    natural = TITLE_H + sum(h + GAP for h in heights) + NOTE_H * len(all_notes) + MARGIN
    natural += (-natural) % 2  # even sizes for video encoders
    image = Image.new("RGB", (width, natural), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, TITLE_H - 6), fill=FELT_DARK)
    _text(draw, (MARGIN, 6), table.title, width - 2 * MARGIN, 22, "#ffffff", bold=True)
    _text(draw, (MARGIN, 34), table.status, width - 2 * MARGIN, 17, "#ffe9a8")
    y = TITLE_H
    for line, h in zip(grid, heights):
        cols = max(1, table.columns) if not line[0].wide else 1
        pw = (width - 2 * MARGIN - (cols - 1) * GAP) // cols
        for i, panel in enumerate(line):
            x = MARGIN + i * (pw + GAP)
            draw_panel(draw, (x, y, x + pw, y + h), panel, table)
        y += h + GAP
    for note in all_notes:
        _text(draw, (MARGIN, y), note, width - 2 * MARGIN, 16, "#ffffff", min_size=10)
        y += NOTE_H
    if table.height is not None and table.height != natural:
        target = table.height + table.height % 2
        if natural > target:
            scaled = image.resize((max(2, round(width * target / natural)), target),
                                  Image.Resampling.LANCZOS)
        else:
            scaled = image
        canvas = Image.new("RGB", (width, target), FELT)
        canvas.paste(scaled, ((width - scaled.width) // 2, 0))
        image = canvas
    return np.ascontiguousarray(np.asarray(image, dtype=np.uint8))


def move_note(move: tuple[int, str] | None) -> str:
    """The note line of the last move ``(seat, text)`` (``"last move: player_1: done"``)."""
    if move is None:
        return "last move: —"
    seat, text = move
    return f"last move: player_{seat}: {text}"


#: how many note lines a camera's frame gives the moves (a fixed count: equal frame sizes)
MOVE_LINES = 4


def move_notes(moves: list[tuple[int, str]], seat: int | None,
               lines: int = MOVE_LINES) -> tuple[str, ...]:
    """The frame's note lines for ``moves`` (``(seat, text)``, oldest first): a heading (the
    moves since ``seat``'s last decision, or the last moves of the whole table), then the newest
    ``lines - 1`` moves, oldest first; always exactly ``lines`` lines (padded with ``""``)."""
    shown = moves[-(lines - 1):] if lines > 1 else []
    earlier = len(moves) - len(shown)
    if seat is None:
        head = "last moves:"
    else:
        head = (f"moves since player_{seat}'s last decision"
                + (f" ({earlier} earlier not shown)" if earlier else "") + ":")
    out = [head if moves else "last move: —"]
    out += [f"  player_{p}: {text}" for p, text in shown]
    return tuple(out + [""] * (lines - len(out)))


def table_frame(game, state, seat: int | None = None,
                last_move: tuple[int, str] | None = None) -> np.ndarray:
    """``game.table_view(state, seat)`` drawn with the last-move note: ``uint8 (H, W, 3)``.
    ``seat=None``: the whole table, every card face up (as ``render()``); a seat: only what it
    may see."""
    return draw_table(game.table_view(state, seat), (move_note(last_move),))


class TableCamera:
    """Frames of one env's game for one seat (``None``: the whole table).

    The env calls :meth:`reset` at a new game and :meth:`before_move` just before each move is
    applied (the move is named as the seat sees it: ``Game.action_seen_by``; for the whole
    table ``action_to_string``); :meth:`frame` draws the current state with the moves since the
    seat's last decision (its own last move first; for the whole table the last moves), in
    :data:`MOVE_LINES` note lines.

    Attributes:
        moves: ``(seat, text)`` of the moves since the camera seat's last decision, oldest
            first (the seat's own decision starts the list anew).
    """

    def __init__(self, game, seat: int | None = None):
        self.game = game
        self.seat = seat
        self.moves: list[tuple[int, str]] = []

    @property
    def last_move(self) -> tuple[int, str] | None:
        """The latest move ``(seat, text)``, ``None`` before the first."""
        return self.moves[-1] if self.moves else None

    def reset(self, seat: int | None = None, keep_seat: bool = True) -> None:
        """Forget the moves; ``keep_seat=False`` sets the seat drawn for to ``seat``."""
        self.moves = []
        if not keep_seat:
            self.seat = seat

    def before_move(self, state, action: int) -> None:
        """Remember ``action``, about to be taken in ``state`` by its current player."""
        game = self.game
        actor = game.current_player(state)
        text = (game.action_to_string(state, action) if self.seat is None
                else game.action_seen_by(state, action, self.seat))
        if actor == self.seat:
            self.moves = []
        self.moves.append((actor, text))
        if self.seat is None and len(self.moves) > 64:
            del self.moves[:-MOVE_LINES]

    def frame(self, state) -> np.ndarray:
        """The picture of ``state`` for the camera's seat: ``uint8 (H, W, 3)``."""
        return draw_table(self.game.table_view(state, self.seat),
                          move_notes(self.moves, self.seat))
