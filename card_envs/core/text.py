"""Text for language agents: a seat's decision as a string, a reply string as an action.

Built only from the :mod:`Game API <card_envs.core.game>` (``render_view``,
``action_to_string``, ``action_seen_by``, ``legal_actions``), so what a game improves in its
views reaches the text agents. The text env (:mod:`card_envs.wrappers.text`) and the
``llm:`` policy (:mod:`card_envs.bots.llm`) both use it.

A text observation of seat ``p`` (:func:`observation_text`), its sections in this order:

==========================  ==================================================================
``Rules in brief``          the game's summary (:func:`rules_brief`), only while ``p`` has not
                            decided yet in this game
``Your view``               ``game.render_view(state, p)``: only what ``p`` may know
``Moves since ...``         every move since ``p``'s last decision, ``p``'s own last move first
                            (``you: ...``), the others' as ``p`` sees them
                            (``seat 1: ...``, ``game.action_seen_by``): :class:`MoveLog`
``Your moves``              when ``p`` is to act: the legal moves, numbered from 1, each with
                            its canonical short name (:class:`MoveList`); with
                            ``list_moves=False`` only the request for a move's name. Else who is
                            to act, or the game's end and ``p``'s result
==========================  ==================================================================

A reply (:meth:`MoveList.parse`) is a move's number (``3``, ``3.``, ``#3``), its canonical short
name (``spin 0``), its whole line (``spin 0: Bone Wand``) or, when no other move shares it, the
part after the colon (``Bone Wand``) or the game's action name (``game.action_name``). Case,
accents (Unicode NFKD, combining marks dropped), ``_`` against a space, repeated spaces,
surrounding quotes, backticks or asterisks and a final full stop are ignored. Anything else
raises :class:`InvalidReply` whose message names the problem.

A game gives its summary as ``data/rules_brief.md`` in its package folder (or a ``rules_brief``
attribute, a string or a method returning one).
"""

from __future__ import annotations

import importlib.resources
import re
import unicodedata
import weakref
from dataclasses import dataclass

from card_envs.core.errors import CardEnvsError

#: the characters a text observation or a reply may hold (the ``charset`` of the text env's
#: ``spaces.Text``): tab, newline, printable ASCII, Latin-1 and Latin Extended-A (Czech card
#: names), general punctuation (dashes, quotes, ellipsis), arrows and mathematical operators;
#: no control or format character (bidirectional overrides, line separators)
CHARSET: str = "\t\n" + "".join(chr(c) for c in (
    *range(0x20, 0x7F), *range(0xA0, 0x180), *range(0x2010, 0x205F), *range(0x2190, 0x2300))
    if unicodedata.category(chr(c)) not in ("Cc", "Cf", "Zl", "Zp"))

#: the file of a game's package folder that holds its rules in brief
RULES_FILE = "data/rules_brief.md"

_NUMBER = re.compile(r"#?(\d+)[.)]?")
_NUMBERED = re.compile(r"(\d+)[.)]\s+(.+)")
_WRAPPERS = "\"'`*“”‘’"
_PUNCTUATION = re.compile(r"[^\w:/+\-.]")
#: game -> the normalized names of all its actions (for the "not legal now" hint)
_ACTION_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class InvalidReply(CardEnvsError, ValueError):
    """A reply that names no legal move; the message is the problem, for the replying agent."""


def normalize(text: str) -> str:
    """``text`` for matching: NFKD without combining marks, case-folded, ``_`` as a space,
    runs of whitespace as one space, stripped (``"Lučištnice"`` -> ``"lucistnice"``,
    ``"End_Turn"`` -> ``"end turn"``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().replace("_", " ").split())


def rules_brief(game) -> str:
    """The game's rules in brief: its ``rules_brief`` (a string, or a method returning one),
    else ``data/rules_brief.md`` of the package its class lives in, else one sentence saying
    there is none."""
    brief = getattr(game, "rules_brief", None)
    if callable(brief):
        brief = brief()
    if isinstance(brief, str) and brief.strip():
        return brief.strip()
    package = type(game).__module__.rpartition(".")[0]
    if package:
        try:
            text = importlib.resources.files(package).joinpath(RULES_FILE).read_text("utf-8")
        except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
            text = ""
        if text.strip():
            return text.strip()
    return (f"{getattr(game, 'name', 'game')}: no rules summary ships with this game "
            f"({RULES_FILE}); the view and the legal moves below show what you can do.")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


@dataclass(frozen=True)
class Move:
    """One legal move: ``number`` (1-based, in the order of ``legal_actions``), its ``action``
    id, its canonical short ``name`` (unique in the decision) and its ``line`` as listed."""

    number: int
    action: int
    name: str
    line: str


class MoveList:
    """The legal moves of the seat to act in ``state`` with their names, and the reply parser.

    Canonical short name: the part of ``game.action_to_string`` before ``": "`` (the whole string
    when it has none); where two legal moves share it (after :func:`normalize`), where it is
    empty or only digits, the game's ``action_name`` (``"card 5"``) instead, and where that too
    is shared, ``"action <id>"``. So the names of one decision are unique, and each parses back
    to its move.
    """

    def __init__(self, game, state):
        self.game = game
        legal = list(game.legal_actions(state))
        lines = [_one_line(game.action_to_string(state, a)) for a in legal]
        names = [line.partition(": ")[0] if ": " in line else line for line in lines]
        names = self._unique(names, lambda i: _one_line(game.action_name(legal[i])))
        names = self._unique(names, lambda i: f"action {legal[i]}")
        if len({normalize(n) for n in names}) < len(names):
            names = [f"action {a}" for a in legal]
        self.moves = [
            Move(i + 1, a, name, line if normalize(line).startswith(normalize(name))
                 else f"{name} — {line}")
            for i, (a, name, line) in enumerate(zip(legal, names, lines))]
        self._keys: dict[str, set[int]] = {}
        for k, move in enumerate(self.moves):  # first the names and lines, then the aliases
            for key in (move.name, move.line, lines[k]):
                self._keys.setdefault(normalize(key), set()).add(k)
        taken = set(self._keys)
        aliases: dict[str, set[int]] = {}
        for k, move in enumerate(self.moves):
            detail = lines[k].partition(": ")[2]
            for key in (detail, game.action_name(move.action)):
                key = normalize(key)
                if key and not key.isdigit() and key not in taken:
                    aliases.setdefault(key, set()).add(k)
        self._keys.update(aliases)

    @staticmethod
    def _unique(names: list[str], fallback) -> list[str]:
        keys = [normalize(n) for n in names]
        counts: dict[str, int] = {}
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
        return [fallback(i) if (counts[k] > 1 or not k or k.isdigit()) else names[i]
                for i, k in enumerate(keys)]

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self):
        return iter(self.moves)

    def lines(self) -> list[str]:
        """The listing: ``"  3. spin 0: Bone Wand"`` per move."""
        return [f"  {m.number}. {m.line}" for m in self.moves]

    def _lookup(self, text: str) -> int | None:
        """The move index a name-like ``text`` names, ``None`` if none; InvalidReply if it names
        several."""
        hits = self._keys.get(normalize(text))
        if not hits:
            return None
        if len(hits) > 1:
            shown = ", ".join(self.moves[k].name for k in sorted(hits))
            raise InvalidReply(f"{_quote(text)} names {len(hits)} moves ({shown}); reply with "
                               "one move's number or short name")
        return next(iter(hits))

    def parse(self, reply: str) -> int:
        """The action id ``reply`` names (module docstring: numbers, names, what is ignored).

        Raises:
            InvalidReply: naming the problem: an empty reply, a number out of range, a name of
                no legal move (or of a move of the game that is not legal now), a name shared by
                several moves, a number and a name of different moves.
        """
        if not isinstance(reply, str):
            raise InvalidReply(f"a reply is text, got {type(reply).__name__}")
        text = reply.strip().strip(_WRAPPERS).strip()
        if not text:
            raise InvalidReply("the reply is empty; reply with one move's number or name")
        if not self.moves:
            raise InvalidReply("there is no move to make now")
        n = len(self.moves)
        candidates = [text] + ([text[:-1].rstrip()] if text.endswith(".") else [])
        for cand in candidates:
            number = _NUMBER.fullmatch(cand)
            if number:
                k = int(number.group(1)) if len(number.group(1)) < 10 else 0
                if not 1 <= k <= n:
                    raise InvalidReply(f"{_quote(text)} is not a move number: the moves are "
                                       f"numbered 1 to {n}")
                return self.moves[k - 1].action
            found = self._lookup(cand)
            if found is not None:
                return self.moves[found].action
        numbered = _NUMBERED.fullmatch(text)
        if numbered:
            k = int(numbered.group(1)) if len(numbered.group(1)) < 10 else 0
            rest = numbered.group(2).strip().strip(_WRAPPERS).rstrip(".").strip()
            found = self._lookup(rest)
            if found is not None:
                if k != found + 1:
                    raise InvalidReply(f"{_quote(text)}: number {k} and name "
                                       f"{_quote(rest)} are different moves; reply with one")
                return self.moves[found].action
        if self._is_action_name(text):
            raise InvalidReply(f"{_quote(text)} is a move of this game but not a legal one "
                               "now; choose one of the listed moves")
        raise InvalidReply(f"{_quote(text)} is not one of your legal moves; reply with one "
                           f"move's number (1 to {n}) or its name")

    def _is_action_name(self, text: str) -> bool:
        return normalize(text) in _action_names(self.game)

    def find(self, reply: str) -> int:
        """:meth:`parse`, lenient for chatty agents: the reply without ``<think>...</think>``
        blocks; then its lines from the last up, each with a leading ``move:`` / ``answer:``
        label dropped; then the one move whose name or line occurs in the reply (whole words).

        Raises:
            InvalidReply: the problem :meth:`parse` names for the whole reply.
        """
        if not isinstance(reply, str):
            return self.parse(reply)
        text = re.sub(r"<think>.*?</think>", " ", reply, flags=re.S | re.I)
        text = re.sub(r"^.*</think>", " ", text, flags=re.S | re.I)
        try:
            return self.parse(text)
        except InvalidReply as exc:
            first = exc
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        for line in reversed(lines):
            line = re.sub(r"^\W*(final answer|answer|move|my move|reply)\W*[:\-]\s*", "", line,
                          flags=re.I)
            try:
                return self.parse(line)
            except InvalidReply:
                continue
        flat = " " + normalize(_PUNCTUATION.sub(" ", text)) + " "
        keys = [(m.action, normalize(_PUNCTUATION.sub(" ", key))) for m in self.moves
                for key in (m.line, m.name)]
        hits = {a for a, key in keys if len(key) > 2 and not key.isdigit()
                and f" {key} " in flat}
        if len(hits) == 1:
            return hits.pop()
        raise first


def _action_names(game) -> frozenset[str]:
    """The normalized ``action_name`` of every action of ``game`` (empty if it has none)."""
    try:
        return _ACTION_NAMES[game]
    except (KeyError, TypeError):
        pass
    try:
        names = frozenset(normalize(game.action_name(a)) for a in range(game.num_actions))
    except Exception:  # noqa: BLE001 - a game without layout names: no such hint
        names = frozenset()
    try:
        _ACTION_NAMES[game] = names
    except TypeError:  # not weakly referable: computed again next time
        pass
    return names


def _quote(text: str, limit: int = 60) -> str:
    text = _one_line(text)
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


class MoveLog:
    """The moves each seat has not seen since its own last decision.

    Call :meth:`record` with every move *before* it is applied (``game.current_player(state)``
    is the mover): the mover's list restarts with ``"you: <move>"``, every other seat ``p``
    gets ``"seat <mover>: <game.action_seen_by(state, action, p)>"``.
    """

    def __init__(self, game):
        self.game = game
        self.reset()

    def reset(self) -> None:
        """A new game: nothing seen, no seat has decided."""
        n = self.game.num_players
        self.pending: list[list[str]] = [[] for _ in range(n)]
        self.decided = [False] * n

    def record(self, state, action: int) -> None:
        game = self.game
        mover = game.current_player(state)
        for p in range(game.num_players):
            if p == mover:
                self.pending[p] = [f"you: {_one_line(game.action_to_string(state, action))}"]
            else:
                seen = _one_line(game.action_seen_by(state, action, p))
                self.pending[p].append(f"seat {mover}: {seen}")
        self.decided[mover] = True

    def since(self, seat: int) -> list[str]:
        """Seat ``seat``'s unseen moves, oldest first."""
        return list(self.pending[seat])


def result_line(game, state, seat: int) -> str:
    """The end of the game for ``seat``: won, drawn or lost (by the suite's one rule: the
    strictly highest return wins, a tie for it draws) with every seat's return."""
    returns = [float(r) for r in game.returns(state)]
    truncated = game.is_truncated(state)
    best = max(returns)
    if truncated:
        outcome = "it was cut off at the rule cap (a draw)"
    elif returns[seat] != best:
        outcome = "you lost"
    else:
        outcome = "you won" if returns.count(best) == 1 else "you drew"
    shown = ", ".join(f"seat {i}{' (you)' if i == seat else ''}: {r:+g}"
                      for i, r in enumerate(returns))
    return f"The game is over: {outcome} (returns {shown})."


def observation_text(game, state, seat: int, moves: list[str] | None = None, *,
                     rules: bool = False, list_moves: bool = True,
                     problem: str | None = None, move_list: MoveList | None = None,
                     status: str | None = None) -> str:
    """Seat ``seat``'s text observation (module docstring table).

    Args:
        game: the game.
        state: its state.
        seat: the observing seat ``0..num_players-1``.
        moves: the moves since its last decision (:meth:`MoveLog.since`); ``None`` leaves the
            section out.
        rules: put the rules in brief first.
        list_moves: list the legal moves when ``seat`` is to act.
        problem: a message about the seat's last reply, put first.
        move_list: the :class:`MoveList` of ``state`` if already built.
        status: the last section instead of the moves / who acts / the result (an env that
            ended the game early says so here).

    Returns:
        The text: sections separated by blank lines, no trailing newline.
    """
    parts: list[str] = []
    if problem:
        parts.append(problem)
    if rules:
        parts.append(f"Rules in brief ({game.name}):\n{rules_brief(game)}")
    parts.append(f"Your view (seat {seat}):\n{game.render_view(state, seat)}")
    if moves is not None:
        shown = "\n".join(f"  {m}" for m in moves) if moves else "  (none)"
        parts.append(f"Moves since your last decision:\n{shown}")
    if status is not None:
        parts.append(status)
    elif game.is_terminal(state):
        parts.append(result_line(game, state, seat))
    elif game.current_player(state) == seat:
        if list_moves:
            ml = move_list if move_list is not None else MoveList(game, state)
            parts.append("Your moves (reply with the number or the name of one):\n"
                         + "\n".join(ml.lines()))
        else:
            parts.append("It is your move: reply with the name of one legal move.")
    else:
        parts.append(f"Seat {game.current_player(state)} is to act; not you.")
    return "\n\n".join(parts)
