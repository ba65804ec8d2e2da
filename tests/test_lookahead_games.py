"""Full games of ``LookaheadPolicy(HeuristicBot(), samples=2)`` in Scratch Wars and Dirt and
Glory check legality and determinism. The lookahead hooks of each game (``potential``,
``lookahead_horizon``), hand-computed from scripted positions: ``test_<game>_bot.py``.
"""

from __future__ import annotations

import pytest

from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.core.registry import make_game
from card_envs.dirt_and_glory.bot import HeuristicBot as DGHeuristic
from card_envs.scratch_wars.bot import HeuristicBot as SWHeuristic

GAMES = [
    ("scratch_wars", {"level": 3}, SWHeuristic),
    ("dirt_and_glory", {"num_players": 2}, DGHeuristic),
    ("dirt_and_glory", {"num_players": 3}, DGHeuristic),
]


def _lookahead_game(name, config, heuristic, seed):
    """Every seat plays LookaheadPolicy(heuristic, samples=2) (own seed per seat); each action is
    checked against the legal set. Returns the final state's dict and the decisions searched."""
    game = make_game(name, **config)
    players = [LookaheadPolicy(heuristic(), samples=2, seed=10 + p)
               for p in range(game.num_players)]
    s = game.new_state(seed)
    n = 0
    while not game.is_terminal(s):
        assert n < game.max_game_length
        p = game.current_player(s)
        a = players[p].act(game, s, p)
        assert a in game.legal_actions(s), (name, p, a)
        game.apply_action(s, a)
        n += 1
    assert not game.is_truncated(s)
    assert sum(game.returns(s)) == pytest.approx(0.0)
    return game.state_to_dict(s), sum(pl.searched for pl in players)


@pytest.mark.parametrize("name,config,heuristic", GAMES,
                         ids=["scratch_wars", "dirt_and_glory-2p", "dirt_and_glory-3p"])
def test_lookahead_plays_full_games_legally_and_reproducibly(name, config, heuristic):
    first, searched = _lookahead_game(name, config, heuristic, seed=7)
    assert searched > 10
    again, _ = _lookahead_game(name, config, heuristic, seed=7)
    assert again == first
