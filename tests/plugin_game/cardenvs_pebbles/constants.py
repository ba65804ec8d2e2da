"""Pebbles facts as data: sizes, the phases, the one action layout."""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases

MAX_PEBBLES = 20  # the longest row a config may ask for
MAX_TAKE = 2  # pebbles one turn may take (PB-3)


class Phase(IntEnum):
    """``state.phase``: taking, or over."""

    TAKE = 0
    OVER = 1


PHASES = declare_phases(Phase).names

ACTIONS = Layout([
    ("take", MAX_TAKE, "take k+1 pebbles from the row (never more than are left)"),
])
A_TAKE = ACTIONS.start("take")
