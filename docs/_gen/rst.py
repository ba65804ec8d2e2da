"""The few reStructuredText habits of the docstrings, turned into Markdown for the site.

The docstrings are Google style with Sphinx cross-reference roles (``:class:`~a.b.C```), literal
blocks introduced by ``::`` and, in three modules, two-column simple tables. mkdocstrings renders
Markdown, so :func:`to_markdown` rewrites those three things (the griffe extension ``roles.py``
applies it to every docstring of the API reference; ``gen_pages.py`` to the env modules' specs).
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: ``:role:`target``` with an optional ``~`` (show the last name only) or ``text <target>``
ROLE = re.compile(r":(?:py:)?(?P<role>mod|class|func|meth|data|attr|exc|obj):`(?P<body>[^`]+)`")
#: the border of a simple table: two or more runs of ``=`` separated by spaces
BORDER = re.compile(r"^(?P<indent>\s*)=+(?:\s+=+)+\s*$")


def _role(match: re.Match, resolve: Callable[[str], str | None]) -> str:
    body = match.group("body").strip()
    text, _, target = body.partition("<")
    if target:  # :class:`shown text <a.b.C>`
        target, shown = target.rstrip(">").strip(), text.strip()
    else:
        target = body.lstrip("~")
        shown = target.rsplit(".", 1)[-1] if body.startswith("~") else target
    if match.group("role") in ("func", "meth") and not shown.endswith(")"):
        shown += "()"
    path = resolve(target.rstrip("()"))
    return f"[`{shown}`][{path}]" if path else f"`{shown}`"


def _literal_blocks(text: str) -> str:
    """``Usage::`` -> ``Usage:``; a ``::`` alone on a line goes (the indented block stays code)."""
    text = re.sub(r"(?m)^[ \t]*::[ \t]*$", "", text)
    return re.sub(r"(?m)(\S)::[ \t]*$", r"\1:", text)


def _simple_tables(text: str) -> str:
    """A two-column simple table (no header row) -> a bullet list ``- first: second``."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        border = BORDER.match(lines[i])
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == lines[i].strip()),
                   None) if border else None
        if border is None or end is None:
            out.append(lines[i])
            i += 1
            continue
        indent = border.group("indent")
        second = lines[i].index(" ", len(indent))  # where the first column's border ends
        second = len(lines[i]) - len(lines[i][second:].lstrip())
        rows: list[list[str]] = []
        for line in lines[i + 1:end]:
            first, rest = line[:second].strip(), line[second:].strip()
            if first or not rows:
                rows.append([first, rest])
            else:
                rows[-1][1] = f"{rows[-1][1]} {rest}".strip()
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}- {first}: {rest}" for first, rest in rows]
        i = end + 1
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)


def to_markdown(text: str, resolve: Callable[[str], str | None] = lambda target: None) -> str:
    """The docstring ``text`` as Markdown: roles become cross-references where ``resolve`` gives
    the documented object's path (else inline code), literal blocks and simple tables Markdown."""
    text = _simple_tables(text)
    text = _literal_blocks(text)
    return ROLE.sub(lambda match: _role(match, resolve), text)
