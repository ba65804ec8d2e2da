"""The toy game for tests (``toy_game:make_game`` specs): it ships in the package as
:mod:`card_envs.testing.toy_game`."""

from card_envs.testing.toy_game import *  # noqa: F401,F403
from card_envs.testing.toy_game import MAX_PILE, HeuristicBot, PerfectBot, ScriptedBot  # noqa: F401
