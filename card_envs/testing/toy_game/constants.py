"""Toy Nim facts as data: sizes, the phases, and the one action layout (every other module takes
action ids and names from :data:`ACTIONS`)."""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases

MAX_PILE = 40  # the largest pile a config may ask for
MAX_SEATS = 4
MAX_TAKE = 3  # cards one decision may take


class Phase(IntEnum):
    """``state.phase``: who decides what."""

    TAKE = 0
    OVER = 1


PHASES = declare_phases(Phase).names

ACTIONS = Layout([
    ("take", MAX_TAKE, "take k+1 cards from the pile (never more than are left)"),
])
A_TAKE = ACTIONS.start("take")
