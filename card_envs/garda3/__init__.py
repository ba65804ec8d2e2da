"""Garda3, in the suite's folder shape: facts and the action layout (:mod:`.constants`), fighter
sets (:mod:`.cards`), config (:mod:`.config`), state (:mod:`.state`), rules (:mod:`.rules`),
observation encoder (:mod:`.observation`), heuristic bot (:mod:`.bot`). The env is
:mod:`card_envs.garda3_v1`."""

from card_envs.garda3.bot import HeuristicBot
from card_envs.garda3.config import Garda3Config
from card_envs.garda3.rules import Garda3Game, make_game

__all__ = ["Garda3Config", "Garda3Game", "HeuristicBot", "make_game"]
