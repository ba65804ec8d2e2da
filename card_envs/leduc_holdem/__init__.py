"""Leduc Hold'em: the small poker of research (OpenSpiel's ``leduc_poker``, RLCard's and
PettingZoo's ``leduc_holdem_v4``), a short game with chance, hidden cards and returns in chips:
the suite's worked example of a game added by following ``docs/adding_a_game.md``.

**Leduc Hold'em** (2 seats; rules with ids: ``docs/rules/leduc_holdem.md``): six cards (jack,
queen and king in two suits); each seat antes 1 and gets one private card; two betting rounds
(raises of 2, then 4; at most 2 raises a round), a public card turned between them; a pair with
the public card beats a high card. Returns are the chips won or lost (zero-sum, in [-13, 13]).

The folder has the module set of every game of the suite: :mod:`.constants` (facts, phases, the
action layout), :mod:`.cards` (the ranks from ``data/cards.toml``), :mod:`.config`,
:mod:`.state` (the declaration, the betting arithmetic and the invariants), :mod:`.rules` (the
Game), :mod:`.observation` (the encoder), :mod:`.view` (what a seat is shown), :mod:`.bot` (the
heuristic bot).
"""

from card_envs.leduc_holdem.bot import HeuristicBot
from card_envs.leduc_holdem.config import LeducHoldemConfig
from card_envs.leduc_holdem.rules import LeducHoldemGame, make_game
from card_envs.leduc_holdem.state import LeducHoldemState

__all__ = ["HeuristicBot", "LeducHoldemConfig", "LeducHoldemGame", "LeducHoldemState",
           "make_game"]
