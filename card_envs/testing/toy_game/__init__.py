"""Toy Nim: the worked template of a game folder (``docs/adding_a_game.md`` walks through it).

**Toy Nim** (``num_players`` 2–4 seats): a pile of ``pile`` cards lies face down; in turn each
seat takes 1, 2 or 3 cards (action ``take k-1`` takes ``k``; never more than are left). Whoever
takes the last card wins (+1); every other seat gets ``-1/(n-1)`` (zero-sum). Chance: with
``hidden_bonus=True`` one card in the pile is the *bonus* card (``Poklad``) at a position drawn
from the state's RNG; nobody sees where, it only makes ``sample_hidden`` meaningful (it does not
change who wins). ``max_rounds`` caps the game: when that many decisions were made the game is
over and truncated (returns all zero).

The folder has the module set of every game of the suite: :mod:`.constants` (facts, phases, the
action layout), :mod:`.cards` (card data from ``data/cards.toml``), :mod:`.config`,
:mod:`.state` (the declaration and its invariants), :mod:`.rules` (the Game),
:mod:`.observation` (the encoder), :mod:`.view` (what a seat is shown), :mod:`.bot` (the
heuristic and test bots).

Observation (float32, ``(6,)``): ``[pile/max_pile, my_turn, seat/3, n/4, decisions/max, bonus
taken by me]``. Actions: ``Discrete(3)``: ``take 0`` takes 1 card, ``take 1`` 2, ``take 2`` 3.
"""

from card_envs.testing.toy_game.bot import HeuristicBot, PerfectBot, ScriptedBot
from card_envs.testing.toy_game.config import ToyNimConfig
from card_envs.testing.toy_game.constants import MAX_PILE
from card_envs.testing.toy_game.rules import ToyNimGame, make_game
from card_envs.testing.toy_game.state import ToyNimState

__all__ = ["MAX_PILE", "HeuristicBot", "PerfectBot", "ScriptedBot", "ToyNimConfig", "ToyNimGame",
           "ToyNimState", "make_game"]
