"""Dirt and Glory (2–5 players): blackjack-like caravans racing for wasteland territories.

``make_game(**config)`` builds the rules engine (:mod:`.rules`); the PettingZoo env is
:mod:`card_envs.dirt_and_glory_v1`; the heuristic bot is :class:`.bot.HeuristicBot`.
"""

from card_envs.dirt_and_glory.rules import DirtAndGloryConfig, DirtAndGloryGame, make_game

__all__ = ["DirtAndGloryConfig", "DirtAndGloryGame", "make_game"]
