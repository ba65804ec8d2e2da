"""Scratch Wars duel (levels 1–3): rules, card catalogue, observation encoder, heuristic bot.

The PettingZoo env is :mod:`card_envs.scratch_wars_v2`; the rules as implemented are in
``docs/rules/scratch_wars.md``. Modules (the suite's folder shape, ``docs/adding_a_game.md``):
``constants`` (facts, phases, the action layout), ``cards`` (card data), ``config``, ``state``
(the state, its records and invariants), ``observation``, ``rules`` (the game), ``bot``.
"""

from card_envs.scratch_wars.bot import HeuristicBot
from card_envs.scratch_wars.cards import Catalogue, load_catalogue
from card_envs.scratch_wars.config import ScratchWarsConfig
from card_envs.scratch_wars.constants import ACTIONS
from card_envs.scratch_wars.observation import OBSERVATION
from card_envs.scratch_wars.rules import ScratchWarsGame, make_game
from card_envs.scratch_wars.state import ScratchWarsState

__all__ = [
    "ACTIONS",
    "OBSERVATION",
    "Catalogue",
    "HeuristicBot",
    "ScratchWarsConfig",
    "ScratchWarsGame",
    "ScratchWarsState",
    "load_catalogue",
    "make_game",
]
