"""Rust Brawl (2 players): a collectible card game with a 4-position table per player
(rules ``docs/rules/rust_brawl.md``, ids ``RB-…``).

``make_game(**config)`` builds the rules engine (:mod:`.rules`, config :mod:`.config`); the
PettingZoo env is :mod:`card_envs.rust_brawl_v1`; the heuristic bot is :class:`.bot.HeuristicBot`.
Modules (``docs/adding_a_game.md``): :mod:`.constants` (vocabulary, phases, the one action
layout), :mod:`.cards` (card data and decks), :mod:`.config`, :mod:`.state` (declaration and
invariants), :mod:`.observation` (encoder), :mod:`.rules` (the Game), :mod:`.bot`.
"""

from card_envs.rust_brawl.bot import HeuristicBot
from card_envs.rust_brawl.config import RustBrawlConfig
from card_envs.rust_brawl.rules import RustBrawlGame, make_game

__all__ = ["HeuristicBot", "RustBrawlConfig", "RustBrawlGame", "make_game"]
