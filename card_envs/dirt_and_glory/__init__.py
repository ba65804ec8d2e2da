"""Dirt and Glory (2–5 players): blackjack-like caravans racing for wasteland territories.

``make_game(**config)`` builds the rules engine (:mod:`.rules`, config :mod:`.config`); the
PettingZoo env is :mod:`card_envs.dirt_and_glory_v1`; the heuristic bot is
:class:`.bot.HeuristicBot`. Modules (``docs/adding_a_game.md``): :mod:`.constants` (phases,
the one action layout), :mod:`.cards` (card data), :mod:`.config`, :mod:`.state` (declaration and
invariants), :mod:`.observation` (encoder), :mod:`.rules` (the Game), :mod:`.bot`.
"""

from card_envs.dirt_and_glory.bot import HeuristicBot
from card_envs.dirt_and_glory.config import DirtAndGloryConfig
from card_envs.dirt_and_glory.rules import DirtAndGloryGame, make_game

__all__ = ["DirtAndGloryConfig", "DirtAndGloryGame", "HeuristicBot", "make_game"]
