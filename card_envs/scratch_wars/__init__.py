"""Scratch Wars duel (levels 1–3): rules, card catalogue, observation encoder, heuristic bot.

The PettingZoo env is :mod:`card_envs.scratch_wars_v1`; the rules as implemented are in
``docs/rules/scratch_wars.md``.
"""

from card_envs.scratch_wars.bot import HeuristicBot
from card_envs.scratch_wars.catalogue import Catalogue, load_catalogue
from card_envs.scratch_wars.rules import (
    ACTIONS,
    ScratchWarsConfig,
    ScratchWarsGame,
    ScratchWarsState,
    make_game,
)

__all__ = [
    "ACTIONS",
    "Catalogue",
    "HeuristicBot",
    "ScratchWarsConfig",
    "ScratchWarsGame",
    "ScratchWarsState",
    "load_catalogue",
    "make_game",
]
