"""Errors raised by card-envs. Each names the offending thing (card, file, field, action, value)."""

from __future__ import annotations

import reprlib
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxstring, _REPR.maxother = 3, 12, 6, 60, 60


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for an error message: at most ``limit`` characters and 3 levels deep; safe
    for deeply nested or huge payloads, for ints of more digits than Python prints
    (``sys.get_int_max_str_digits()``) and for objects whose ``repr`` raises."""
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            text = repr(value)
        except ValueError:
            return f"<int of {value.bit_length()} bits, too long to print>"
    else:
        try:
            text = _REPR.repr(value)
        except ValueError:
            return f"<{type(value).__name__} holding an int too long to print>"
        except Exception:  # noqa: BLE001 - a broken __repr__ must not replace the real error
            return f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def first_line(exc: BaseException, limit: int = 160) -> str:
    """The first line of ``exc``'s message (its type's name if empty), cut to ``limit``
    characters: how an error message quotes the error it replaces."""
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    return line if len(line) <= limit else line[: limit - 3] + "..."


class CardEnvsError(Exception):
    """Base class of every error card-envs raises on purpose."""


class ConfigError(CardEnvsError, ValueError):
    """A game or env config value is wrong (unknown variant, out-of-range count, bad combination).

    The message names the config field and the offending value.
    """


class CardDataError(CardEnvsError, ValueError):
    """A card-data file (TOML) is malformed: unreadable, a missing/extra field, a value out of
    range, or a wrong number of entries. The message names the file and the entry or field
    (for a count error: expected vs actual)."""


class IllegalActionError(CardEnvsError, ValueError):
    """An action outside the action space (not an action id, out of range), or (as its subclass
    :class:`NotLegalError`) an in-range action that is not legal in the current state. The
    message names the action."""


class NotLegalError(IllegalActionError):
    """An action id of the action space that the rules forbid now (not among
    ``legal_actions(state)``, or the game is over): raised by
    :meth:`GameBase.apply_action <card_envs.core.game.GameBase.apply_action>`, the one owner of
    legality, with the state unchanged. The env adapters turn it into their convention for an
    illegal move (PettingZoo's: terminate the offender with −1, or raise). The message names the
    action and the phase."""


class LoadoutError(CardEnvsError, ValueError):
    """A deck / loadout / fighter choice breaks the game's construction rules; the message names
    the offending card or rule."""


class StateError(CardEnvsError, ValueError):
    """A saved state (``state_from_dict``, ``env.reset(options={"state": ...})``) or a state given
    to ``check_state`` is malformed or inconsistent: a missing or extra field, a wrong type, a value
    out of range, a card created or lost, a wrong seat count, another game, version or config.
    The message names the field path (``hands[1][3]``) and the offending value."""


class RecordError(CardEnvsError, ValueError):
    """A game-record file is unreadable, not a record, of an unknown format or another game
    version, or holds a malformed field; the message names the file and the problem."""
