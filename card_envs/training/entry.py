"""The one command-line entry of the trainers (``training/ppo.py`` / ``card-envs train``, and
``card-envs train --method exit``): flags, checks, missing extras and user errors handled the same
way for every method."""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Callable
from typing import Any

from card_envs.core import extras
from card_envs.core.errors import CardEnvsError


def trainer_main(argv: list[str] | None, prog: str, parse_args: Callable[..., Any],
                 validate: Callable[[Any], None], run: Callable[[Any], Any],
                 modules: tuple[str, ...],
                 on_error: Callable[[Any, BaseException], str | None] | None = None) -> int:
    """Parse ``argv`` with ``parse_args`` (tyro: ``--help`` prints the help and exits 0 there; a
    bad type, an unknown flag or a missing value prints one ``PROG: error:`` line, not tyro's
    box, and returns 2: :func:`parse_in_one_line`), check them with ``validate`` (and the game
    config), then ``run`` them.

    A user error — a :class:`~card_envs.core.errors.CardEnvsError` or ``ValueError`` from the
    checks, a ``CardEnvsError`` or ``FileNotFoundError`` from the run, or whatever ``on_error``
    turns into a message — prints one ``PROG: error: ...`` line on stderr and returns 2; a
    missing module of the ``train`` extra (``modules``) prints the one-line ``pip install`` hint
    and returns 2. Ctrl-C during the run prints one line — for the main job where its
    checkpoint was saved and the ``--resume`` command that continues it
    (:class:`~card_envs.training.interrupt.TrainingInterrupted`) — and returns 130. Returns 0
    after a run.
    """
    from card_envs.training.args import game_config

    if extras.missing_modules(("tyro",)):  # the flags need it, even --help: name every missing one
        return _missing_extra(prog, extras.missing_modules(dict.fromkeys(("tyro", *modules))))
    try:  # tyro's error box as one error line (--help passes through)
        args = parse_in_one_line(lambda: parse_args(argv, prog), prog)
    except SystemExit as exc:
        if exc.code in (0, None):
            raise
        return 2
    try:
        validate(args)
        game_config(args)
    except (CardEnvsError, ValueError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    missing = extras.missing_modules(modules)
    if missing:
        return _missing_extra(prog, missing)
    try:
        run(args)
    except KeyboardInterrupt as exc:  # Ctrl-C: one line (where the work was saved), exit 130
        line = exc.line(prog) if hasattr(exc, "line") else "interrupted (nothing saved)"
        print(f"{prog}: {line}", file=sys.stderr, flush=True)
        return 130
    except (CardEnvsError, FileNotFoundError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - only what on_error recognises is a user error
        message = on_error(args, exc) if on_error is not None else None
        if message is None:
            raise
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 2
    return 0


def _missing_extra(prog: str, missing: list[str]) -> int:
    print(extras.missing_extra_message("train", prog, missing), file=sys.stderr)
    return 2


#: ANSI colour codes and the box's side walls, removed when tyro's error becomes one line
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_WALLS = "│|┃"
#: a rule of tyro's box: a plain one (``─────`` or ``-----``, corners allowed) or the top border
#: with the box's title in it (``╭─ Value error ───╮``)
_RULE = re.compile(r"^[╭╰+]?[-─]+[╮╯+]?$")
_TITLED_RULE = re.compile(r"^[╭+][-─]+ .* [-─]+[╮+]$")


def one_line_parse_error(text: str) -> str:
    """tyro's error box (``text``, what it printed on stderr; drawn with UTF-8 or ASCII rules)
    as one line: the message rows between the box's title and its first rule (the argument's
    help and the ``--help`` hint below it are left out), joined; the whole text joined when the
    box is not found."""
    blocks: list[list[str]] = [[]]
    titled = False
    for raw in _ANSI.sub("", text).splitlines():
        line = raw.strip().strip(_WALLS).strip()
        if _TITLED_RULE.match(line):
            titled = True
            blocks.append([])
        elif _RULE.match(line):
            blocks.append([])
        elif line:
            blocks[-1].append(line)
    found = [b for b in blocks if b]
    if not titled and len(found) >= 2:  # the ASCII box: its title is a row of its own
        found = found[1:]
    message = " ".join(" ".join(found[0]).split()) if found else ""
    return message or " ".join(_ANSI.sub("", text).split())


def parse_in_one_line(parse: Callable[[], Any], prog: str) -> Any:
    """``parse()`` (a ``tyro.cli`` call) with its error condensed: a bad value, an unknown flag
    or a missing value prints ``PROG: error: <tyro's message> (see PROG --help)`` on stderr (one
    line, instead of tyro's box) and exits 2; ``--help`` and what tyro prints on success pass
    through unchanged."""
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stderr(buffer):
            return parse()
    except SystemExit as exc:
        if exc.code not in (0, None):
            print(f"{prog}: error: {one_line_parse_error(buffer.getvalue())} (see {prog} --help)",
                  file=sys.stderr, flush=True)
            raise SystemExit(2) from None
        raise
    finally:
        if buffer.getvalue() and not sys.exc_info()[0]:
            sys.stderr.write(buffer.getvalue())
