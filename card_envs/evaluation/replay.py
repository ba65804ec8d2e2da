"""Step through a saved game record in the terminal (``card-envs replay``).

::

    card-envs replay game-garda3-7.json            # Enter: next move, q: quit
    card-envs replay game-garda3-7.json --to-end   # every move at once, no waiting
    card-envs replay game-garda3-7.json --seat 1   # only what seat 1 saw

The record (:mod:`card_envs.core.records`) is checked before the first move is shown: a file
that is not a record, of another game version, with an illegal action, or whose replay ends
with another outcome than the recorded one is refused with one
:class:`~card_envs.core.errors.RecordError` line (the command exits 2). Then every move is shown
with the text render of the position after it: the whole state (``Game.render``, every card)
or, with ``seat``, that seat's view (``Game.render_view``) and the moves as that seat saw them
(``Game.action_seen_by``: a card played face down stays unnamed), each with what it did as
that seat saw it (``Game.effects_seen_by``). At the end: whether the
replay reproduces the recorded outcome, and the final state's digest (:func:`state_digest`),
the one ``card-envs play`` prints at the end of the game it saved.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable

from card_envs.core.errors import ConfigError
from card_envs.core.records import GameRecord, replay


def state_digest(game, state) -> str:
    """A short fingerprint of the whole state: the first 16 hex digits of the SHA-256 of
    ``game.state_to_dict(state)`` as canonical JSON (keys sorted). Equal states, equal digests
    (the chance RNG's state included)."""
    text = json.dumps(game.state_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def check_seat(game, seat: int | None, flag: str = "--seat") -> None:
    """ConfigError naming ``flag`` unless ``seat`` is ``None`` or a seat of ``game``."""
    if seat is not None and not 0 <= seat < game.num_players:
        raise ConfigError(f"{flag} {seat}: {game.name} has seats 0..{game.num_players - 1} "
                          f"in this config")


def outcome_text(returns, seat: int | None = None, truncated: bool = False) -> str:
    """``"seat 0 won (returns: seat 0 +1, seat 1 -1)"``; ``seat``: said from that seat's side
    (``"you (seat 0) won"``); a tie for the best return is a draw (``truncated``: the game was
    cut off by a rule cap)."""
    best = max(returns)
    top = [p for p, r in enumerate(returns) if r == best]
    ret = ", ".join(f"seat {p} {r:+g}" for p, r in enumerate(returns))
    if len(top) > 1:
        head = "a draw" + (" (cut off by a rule cap)" if truncated else "")
    elif seat is None:
        head = f"seat {top[0]} won"
    elif top[0] == seat:
        head = f"you (seat {seat}) won"
    else:
        head = f"you (seat {seat}) lost: seat {top[0]} won"
    return f"{head} (returns: {ret})"


def replay_in_terminal(path: str, seat: int | None = None, to_end: bool = False,
                       input_fn: Callable[[str], str] = input, out=None,
                       game: str | None = None) -> int:
    """Show the game of the record file ``path`` move by move (module docstring).

    Args:
        path: the record file (``card-envs play`` writes one).
        seat: show only this seat's view (``None``: the whole state).
        to_end: print every move without waiting; else wait for Enter (``q`` quits) before
            each move.
        input_fn: where the answers come from (``input``).
        out: where the text goes (stdout).
        game: a game spec (``"module:factory"``) for a record of a game not registered here
            (:func:`card_envs.core.records.replay`); ``None``: the registered game.

    Returns:
        0 (also when the viewer quits early).

    Raises:
        RecordError: the file is not a readable record, is of another version, or does not
            replay (an illegal action, another outcome) — one line naming the file.
        ConfigError: ``seat`` is not a seat of the record's game.
    """
    out = out or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    record = GameRecord.load(path)
    game, _ = replay(record, game)  # every check before the first move is shown
    check_seat(game, seat)
    n = len(record.actions)
    say(f"{path}: {record.game} v{record.version}, config "
        f"{json.dumps(record.config, ensure_ascii=False)}, seed {record.seed}, {n} "
        f"move{'' if n == 1 else 's'}" + ("" if record.outcome is not None else " (unfinished)"))
    if not to_end:
        say("Enter: the next move, q: quit")
    show = (lambda s: game.render(s)) if seat is None else (lambda s: game.render_view(s, seat))
    state = game.new_state(record.seed)
    say(show(state))
    for i, action in enumerate(record.actions):
        if not to_end:
            try:
                answer = input_fn(f"[move {i + 1}/{n}] ")
            except (EOFError, KeyboardInterrupt):
                answer = "q"
            if answer.strip().lower() in ("q", "quit"):
                say(f"stopped before move {i + 1} of {n}")
                return 0
        p = game.current_player(state)
        name = game.action_to_string(state, action) if seat is None or p == seat \
            else game.action_seen_by(state, action, seat)
        who = f"seat {p}" + (" (you)" if p == seat else "")
        say(f"\nmove {i + 1}/{n}: {who}: {name}")
        before = game.clone(state) if seat is not None else None
        game.apply_action(state, action)
        if before is not None:  # what the move did, as the seat saw it
            for line in game.effects_seen_by(before, action, state, seat):
                say(f"  → {line}")
        say(show(state))
    if record.outcome is None:
        say(f"\nthe record is unfinished: {n} moves replayed, no outcome to check")
    else:
        say(f"\nthe replay reproduces the recorded outcome {record.outcome}: "
            f"{outcome_text(record.outcome, truncated=game.is_truncated(state))}")
    say(f"state digest: {state_digest(game, state)}")
    return 0
