"""The lookahead hooks of Scratch Wars and Dirt and Glory (``potential``, ``lookahead_horizon``).

Values are hand-computed from scripted positions (rule ids cited): Scratch Wars with a small
fixture catalogue and forced spins (as in ``test_scratch_wars_rules.py``), Dirt and Glory with
``dirt_and_glory_helpers.scripted`` (as in ``test_dirt_and_glory_rules.py``). The lookahead scores
are exact because the rollouts they need contain no chance. Full games of
``LookaheadPolicy(HeuristicBot(), samples=2)`` check legality and determinism.
"""

from __future__ import annotations

import pytest

from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.core.registry import make_game
from card_envs.dirt_and_glory import constants as D
from card_envs.dirt_and_glory.bot import HeuristicBot as DGHeuristic
from card_envs.scratch_wars.bot import HeuristicBot as SWHeuristic
from dirt_and_glory_helpers import T15, Cards, scripted


# -- Dirt and Glory ---------------------------------------------------------------------------
def test_dg_potential_is_the_score_lead_with_fuel_at_its_end_value():
    # scale: num_rounds 6 x the largest 1st-place reward of the designed territories, 9 points
    # (Blue Oasis, DG-1.4) = 54; standing = score + fuel / 2 (DG-4.1, fuel_per_point 2)
    g2 = make_game("dirt_and_glory", num_players=2)
    s = scripted(g2, Cards(g2), scores=[10, 4], fuel=[3, 0])
    assert g2.potential(s, 0) == pytest.approx((11.5 - 4) / 54)
    assert g2.potential(s, 1) == pytest.approx((4 - 11.5) / 54)
    g3 = make_game("dirt_and_glory", num_players=3)
    s = scripted(g3, Cards(g3), scores=[10, 4, 7], fuel=[3, 0, 2])  # standings 11.5, 4, 8
    assert g3.potential(s, 0) == pytest.approx((11.5 - (4 + 8) / 2) / 54)
    assert g3.potential(s, 1) == pytest.approx((4 - (11.5 + 8) / 2) / 54)
    assert sum(g3.potential(s, p) for p in range(3)) == pytest.approx(0.0)
    g5 = make_game("dirt_and_glory", num_players=5, num_rounds=3)  # scale 3 x 9 = 27
    s = scripted(g5, Cards(g5), scores=[9, 0, 0, 0, 3], fuel=[0, 2, 0, 0, 0])
    assert g5.potential(s, 0) == pytest.approx((9 - (1 + 0 + 0 + 3) / 4) / 27)
    s.scores = [200, 0, 0, 0, 0]  # clipped to [-1, 1]
    assert g5.potential(s, 0) == 1.0 and g5.potential(s, 1) == -1.0  # 200/27, -50/27


def test_dg_horizon_is_the_round_and_none_during_the_draft():
    game = make_game("dirt_and_glory", num_players=2)
    s = game.new_state(4)
    assert s.phase == D.DRAFT and game.lookahead_horizon(s) is None  # DG-2.1
    bot = DGHeuristic()
    seen = {}
    while not game.is_terminal(s):
        key = game.lookahead_horizon(s)
        if s.phase == D.DRAFT:
            assert key is None
        else:  # DG-3.1 .. DG-3.6: every decision of a round carries the round
            assert key == s.round
        seen.setdefault(D.PHASES[s.phase], set()).add(key)
        game.apply_action(s, bot.act(game, s, game.current_player(s)))
    assert game.lookahead_horizon(s) is None
    assert seen["main"] == set(range(6)) and seen["setup"] == set(range(6))
    assert {"take", "mix"} <= set(seen)  # the take choice keeps the round (rollouts go on)


def test_dg_lookahead_scores_the_round_end():
    """T15 (target 15, 6 / 4 / 2 points, DG-1.4). Seat 1 has passed at 14; seat 0 stands at 12
    with one card left in its deck, a 2, no fuel. play: 14 ties seat 1, both share 1st (DG-3.5
    share_skip) and score 6: potential 0. pass: seat 0 is 2nd at 12 and scores 4, seat 1 6:
    (4 - 6) / 54. The round's end is reached without chance: the scores are exact."""
    game = make_game("dirt_and_glory", num_players=2)
    cards = Cards(game)
    a5, a4, a3, two = cards("5", "4", "3", "2")
    b5, b4, b5b = cards("5", "4", "5")
    s = scripted(game, cards, territory=T15, decks=[[two], []],
                 caravans=[[(a5, 5), (a4, 4), (a3, 3)], [(b5, 5), (b4, 4), (b5b, 5)]],
                 passed=[False, True])
    assert game.legal_actions(s) == [D.A_PLAY_TOP, D.A_PASS]
    assert game.lookahead_horizon(s) == 0
    look = LookaheadPolicy(DGHeuristic(), samples=3, seed=0)
    scores = look.action_scores(game, s, 0)
    assert scores == {D.A_PLAY_TOP: pytest.approx(0.0), D.A_PASS: pytest.approx(-2 / 54)}
    assert look.act(game, s, 0) == D.A_PLAY_TOP
    assert s.scores == [0, 0] and s.decks[0] == [two]  # the real state is untouched


# -- full games -------------------------------------------------------------------------------
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
