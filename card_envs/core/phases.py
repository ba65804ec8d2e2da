"""The one way a game declares its phases (who decides what: ``state.phase``).

A game writes its phases once, as an ``IntEnum`` in its ``constants.py`` (values ``0, 1, ...``
in order, a comment per member citing its rule ids), and reads off it with
:func:`declare_phases` the two things the rest of the game uses: the phase names (``PHASES``,
indexed by ``state.phase``: the observation's one-hot ``phase`` piece, ``game.phases``, the
views) and the phases as plain ints (the state stores plain ints, saved as JSON ints, and the
rules compare against module globals at int speed)::

    class Phase(IntEnum):
        DRAFT = 0  # G-2.3 ...
        OVER = 1  # the game is over

    PHASES, (PH_DRAFT, PH_OVER) = declare_phases(Phase)

A test (``tests/test_game_folders.py``) asserts that every game's plain-int constant named after
a member (``DRAFT`` or ``PH_DRAFT``) holds that member's value, so the unpacking order cannot
drift from the enum.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Phases(NamedTuple):
    """What :func:`declare_phases` reads off a phase enum."""

    #: the lower-case member names, indexed by value (``PHASES``)
    names: tuple[str, ...]
    #: the members as plain ``int``, in declaration (= value) order
    ids: tuple[int, ...]


def declare_phases(phase: type[IntEnum]) -> Phases:
    """The names and plain-int values of the phase enum ``phase``.

    Raises:
        ValueError: naming the enum and the member: a member's value is not its position
            (the values must be ``0, 1, ..., n-1`` in declaration order, as the one-hot phase
            piece and ``PHASES[state.phase]`` index by them), or the enum is empty.
    """
    members = list(phase)
    if not members:
        raise ValueError(f"phase enum {phase.__name__} has no members")
    for i, member in enumerate(members):
        if int(member) != i:
            raise ValueError(f"phase enum {phase.__name__}: {member.name} = {int(member)}, "
                             f"expected {i} (phases are numbered 0, 1, ... in order)")
    return Phases(tuple(m.name.lower() for m in members), tuple(int(m) for m in members))
