"""Dirt and Glory bots: the heuristic's choices in scripted situations, its legality for every
player count and its strength; the lookahead hooks (``potential``, ``lookahead_horizon``) and the
decision-time lookahead on them.

Values are hand-computed from positions scripted with ``dirt_and_glory_helpers.scripted`` (as in
``test_dirt_and_glory_rules.py``), rule ids cited. The lookahead scores are exact because the
rollouts they need contain no chance.
"""

from __future__ import annotations

import pytest

from card_envs.bots.base import RandomBot
from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.core.registry import make_game, make_heuristic
from card_envs.dirt_and_glory import constants as D
from card_envs.dirt_and_glory.bot import HeuristicBot
from card_envs.evaluation import play_match
from dirt_and_glory_helpers import T15, Cards, game, scripted


def test_heuristic_registered_and_legal_for_all_player_counts():
    bot = make_heuristic("dirt_and_glory")
    assert isinstance(bot, HeuristicBot)
    for n in (2, 3, 4, 5):
        res = play_match(game(num_players=n), bot, RandomBot(0), n_games=2 * n, seed=n)
        assert res.n == 2 * n


def test_heuristic_rescues_a_bust_and_stops_near_the_target():
    g = game(num_players=2)
    cards = Cards(g)
    bot = HeuristicBot()
    # 14 of 15 with a deck of 3s, 4s and 5s: passing is right (any card busts)
    s = scripted(g, cards, decks=[cards("3", "4", "5"), cards("1")],
                 caravans=[[(cards("5")[0], 5), (cards("5")[0], 5), (cards("4")[0], 4)], []])
    assert bot.act(g, s, 0) == D.A_PASS
    # 4 of 15 with a deck of 1s and 2s: playing on is right
    s = scripted(g, cards, decks=[cards("1", "2", "2"), cards("1")], caravans=[[(cards("4")[0], 4)], []])
    assert bot.act(g, s, 0) == D.A_PLAY_TOP
    # exceeded with fuel left: rescue
    s = scripted(g, cards, decks=[cards("5"), cards("1")], fuel=[1, 0],
                 caravans=[[(cards("5")[0], 5), (cards("3")[0], 3), (cards("3")[0], 3)], []])
    g.apply_action(s, D.A_PLAY_TOP)
    assert s.phase == D.AFTER and bot.act(g, s, 0) == D.A_FUEL_RESERVE


def test_heuristic_chooses_the_value_after_its_scout():
    """DG-3.2: the scout of a 1/4+scout is resolved before its value is chosen, and the bot's
    value choice uses the card it has just seen (own seat only). At 5 + 5 = 10 of 15 (T15, no
    fuel): with a 4 on top, low (11) lets the 4 reach exactly 15; with a 5 on top, low would
    leave 11 and a sure bust, so high (14, 1 short) is taken."""
    bot = HeuristicBot()
    for top_label, expected in (("4", D.A_VALUE_LOW), ("5", D.A_VALUE_HIGH)):
        g = game(num_players=2)
        cards = Cards(g)
        sc, below, top = cards("1/4+scout", "2", top_label)
        s = scripted(g, cards, decks=[[below, top, sc], cards("1")], fuel=[0, 0],
                     caravans=[[(cards("5")[0], 5), (cards("5")[0], 5)], []])
        g.apply_action(s, D.A_PLAY_TOP)
        assert s.phase == D.ABILITY and bot.act(g, s, 0) == D.A_ABILITY_USE
        g.apply_action(s, D.A_ABILITY_USE)
        assert s.phase == D.VALUE and s.peek[0]
        assert bot.act(g, s, 0) == expected
        # what seat 1 holds does not matter (the bot reads its own seat's information)
        s.decks[1] = cards("5")
        assert bot.act(g, s, 0) == expected


@pytest.mark.slow
def test_heuristic_beats_random_two_players():
    """400 seat-swapped 2-player games: Wilson lower bound of the win rate >= 75 %."""
    res = play_match(game(num_players=2), HeuristicBot(), RandomBot(7), n_games=400, seed=123)
    lo, hi = res.wilson()
    print(res.summary())
    assert lo >= 0.75, res.summary()


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
    bot = HeuristicBot()
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
    look = LookaheadPolicy(HeuristicBot(), samples=3, seed=0)
    scores = look.action_scores(game, s, 0)
    assert scores == {D.A_PLAY_TOP: pytest.approx(0.0), D.A_PASS: pytest.approx(-2 / 54)}
    assert look.act(game, s, 0) == D.A_PLAY_TOP
    assert s.scores == [0, 0] and s.decks[0] == [two]  # the real state is untouched
