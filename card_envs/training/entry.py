"""The one command-line entry of the trainers (``training/ppo.py`` / ``card-envs train``, and
``card-envs train --method exit``): flags, checks, missing extras and user errors handled the same
way for every method."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from card_envs.core import extras
from card_envs.core.errors import CardEnvsError


def trainer_main(argv: list[str] | None, prog: str, parse_args: Callable[..., Any],
                 validate: Callable[[Any], None], run: Callable[[Any], Any],
                 modules: tuple[str, ...],
                 on_error: Callable[[Any, BaseException], str | None] | None = None) -> int:
    """Parse ``argv`` with ``parse_args`` (tyro: ``--help``, a bad type or an unknown flag exits
    2 there), check them with ``validate`` (and the game config), then ``run`` them.

    A user error — a :class:`~card_envs.core.errors.CardEnvsError` or ``ValueError`` from the
    checks, a ``CardEnvsError`` or ``FileNotFoundError`` from the run, or whatever ``on_error``
    turns into a message — prints one ``PROG: error: ...`` line on stderr and returns 2; a
    missing module of the ``train`` extra (``modules``) prints the one-line ``pip install`` hint
    and returns 2. Returns 0 after a run.
    """
    from card_envs.training.args import game_config

    if extras.missing_modules(("tyro",)):  # the flags need it, even --help
        return _missing_extra(prog, ["tyro"])
    args = parse_args(argv, prog)
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
