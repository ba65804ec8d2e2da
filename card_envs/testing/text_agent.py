"""A scripted text agent: reads the legal-move list of a text observation
(:func:`card_envs.core.text.observation_text`) and replies with one move, chosen at random.

It sees only the string, as a language agent does: the test of the text env plays whole games
with it (``tests/test_text_env.py``) and the local chat-completions server of the ``llm:`` policy
tests answers with it (``tests/test_llm_policy.py``).
"""

from __future__ import annotations

import random
import re
import unicodedata

#: the heading of the move list in a text observation
MOVES_HEADING = "Your moves (reply with the number or the name of one):"
_LINE = re.compile(r"  (\d+)\. (.+)")
#: the reply styles: the short name, the number, the whole line, the short name in capitals
#: without accents, or one of these at random
STYLES = ("name", "number", "line", "shouting", "mixed")


def listed_moves(observation: str) -> list[tuple[int, str]]:
    """``(number, line)`` of every listed move (``[]`` when the observation lists none)."""
    head, found, tail = observation.rpartition(MOVES_HEADING + "\n")
    if not found:
        return []
    out = []
    for line in tail.splitlines():
        match = _LINE.fullmatch(line)
        if not match:
            break
        out.append((int(match.group(1)), match.group(2)))
    return out


def short_name(line: str) -> str:
    """The canonical short name of a listed line: before ``" — "`` or ``": "``, else all."""
    for sep in (" — ", ": "):
        if sep in line:
            return line.partition(sep)[0]
    return line


class ScriptedTextAgent:
    """Replies to a text observation with a random listed move.

    Args:
        seed: seed of its ``random.Random``.
        style: how it names the move (:data:`STYLES`; ``"mixed"`` draws one per reply).
    """

    def __init__(self, seed: int | None = None, style: str = "name"):
        if style not in STYLES:
            raise ValueError(f"style must be one of {STYLES}, got {style!r}")
        self.rng = random.Random(seed)
        self.style = style

    def reply(self, observation: str) -> str:
        """One move of the observation's list, named in the agent's style.

        Raises:
            ValueError: the observation lists no move.
        """
        moves = listed_moves(observation)
        if not moves:
            raise ValueError("the observation lists no move:\n" + observation[-400:])
        number, line = self.rng.choice(moves)
        style = self.style if self.style != "mixed" else self.rng.choice(STYLES[:-1])
        if style == "number":
            return str(number)
        if style == "line":
            return line
        name = short_name(line)
        if style == "shouting":
            plain = unicodedata.normalize("NFKD", name)
            return "".join(c for c in plain if not unicodedata.combining(c)).upper()
        return name
