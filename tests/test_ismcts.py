"""Information-set MCTS (card_envs.bots.ismcts): exact small searches, no hidden information read,
determinism and reseeding, budgets, settings and policy specs.

Exact values: with as many iterations as the root has legal actions, each root child is expanded
once and played out by the rollout policy, so its (visits, mean) is the rollout's value, computed
by hand (Toy Nim with the perfect bot; a scripted Garda3 round whose end is reached without
chance, as in ``test_lookahead.py``).
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from card_envs.bots.base import RandomBot, reseed_policy
from card_envs.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from card_envs.core.errors import ConfigError
from card_envs.core.registry import make_game, make_heuristic
from card_envs.evaluation.match import play_game
from card_envs.garda3 import constants as R
from test_lookahead import FirstLegal, _garda3_defence_state
from toy_game import PerfectBot
from toy_game import make_game as make_toy


# -- exact small searches ---------------------------------------------------------------------
def test_each_root_child_once_gives_the_rollout_values():
    # pile 5, seat 0; PerfectBot rollouts for both seats (leave a multiple of 4):
    # take 1 -> 4 left: seat 1 takes 1, seat 0 takes 3 and the last card: +1 x win_value 3
    # take 2 -> 3 left: seat 1 takes all 3: -3; take 3 -> 2 left: seat 1 takes both: -3
    game = make_toy(pile=5)
    state = game.new_state(0)
    bot = ISMCTSBot(iterations=3, rollout=PerfectBot(), seed=1)
    assert bot.action_stats(game, state, 0) == {0: (1, 3.0), 1: (1, -3.0), 2: (1, -3.0)}
    assert bot.act(game, state, 0) == 0  # visits tie: the higher mean
    assert bot.searched == 2 and bot.total_iterations == 6
    assert state.pile == 5 and game.current_player(state) == 0  # the real state is untouched


def test_three_seats_back_up_each_seats_own_return():
    # 3 seats, pile 2: take 2 wins at once (+3); take 1 lets seat 1 take the last card: seat 0
    # gets -1/2 x 3 = -1.5
    game = make_toy(pile=2, num_players=3)
    state = game.new_state(0)
    bot = ISMCTSBot(iterations=2, rollout=PerfectBot(), seed=0)
    assert bot.action_stats(game, state, 0) == {0: (1, -1.5), 1: (1, 3.0)}


@pytest.mark.parametrize("pile,winning", [(5, 0), (6, 1), (7, 2), (9, 0)])
def test_random_rollouts_find_the_nim_move_that_leaves_a_multiple_of_four(pile, winning):
    # the opponent nodes are chosen for the opponent's return: only the move leaving 4k wins
    game = make_toy(pile=pile)
    state = game.new_state(0)
    bot = ISMCTSBot(iterations=400, rollout="random", seed=pile)
    stats = bot.action_stats(game, state, 0)
    assert sum(v for v, _ in stats.values()) == 400
    assert max(stats, key=lambda a: stats[a][0]) == winning
    assert stats[winning][0] > 300
    assert bot.act(game, state, 0) == winning


def test_round_horizon_scores_the_round_end_by_potential():
    """test_lookahead's scripted defence (seat 1 defends OBR's 3-high attack): FirstLegal plays
    the round out; at its end the material lead is 0 after the strong (high-defending) card and
    -1/30 after the weak one (hand-computed there, G-4.7, G-4.8, G-5.1)."""
    game = make_game("garda3")
    s = _garda3_defence_state(game)
    weak, strong = R.A_CARD + R.card_id(1, R.HIGH, R.LOW, R.WHITE), \
        R.A_CARD + R.card_id(3, R.LOW, R.HIGH, R.BLACK)
    assert game.legal_actions(s) == [weak, strong]
    bot = ISMCTSBot(iterations=2, rollout=FirstLegal(), horizon="round", seed=0)
    assert bot.action_stats(game, s, 1) == {weak: (1, pytest.approx(-1 / 30)), strong: (1, 0.0)}
    assert bot.act(game, s, 1) == strong
    # to the end of the game instead: FirstLegal wins it for seat 1 both ways (+1 x 3)
    full = ISMCTSBot(iterations=2, rollout=FirstLegal(), horizon="game", seed=0)
    assert full.action_stats(game, s, 1) == {weak: (1, 3.0), strong: (1, 3.0)}
    assert s.phase == R.PH_DEFENCE_CARDS and s.hp == [[7, 6, 4], [6, 5, 4]]


class TakeOne:
    """Toy Nim: always take 1."""

    name = "take_one"

    def act(self, game, state, player):
        return game.legal_actions(state)[0]


def test_progressive_bias_steers_towards_the_rollout_policys_move():
    """Pile 6, TakeOne rollouts: whoever faces an odd pile takes the last card, so take 1 (5
    left) -1 x 3, take 2 (4 left) +3, take 3 (3 left) -3. After those three expansions (spread 6)
    UCB1 alone picks take 2 for the 4th iteration: its exploration term differs from the others'
    by at most 0.3 x 6 x (sqrt(ln 4) - sqrt(ln 2)) = 0.62 < 6. With bias 3, TakeOne's move gets
    3 x 6 / (1 + 1) = 9 more: -3 + 9 > 3 + 0.3 x 6 x sqrt(ln 4), so take 1 gets the 2nd visit."""
    game = make_toy(pile=6)
    state = game.new_state(0)
    plain = ISMCTSBot(iterations=4, rollout=TakeOne(), c=0.3, bias=0.0, seed=0)
    stats = plain.action_stats(game, state, 0)
    assert [v for v, _ in stats.values()] == [1, 2, 1]
    assert stats[0] == (1, -3.0) and stats[2] == (1, -3.0)
    biased = ISMCTSBot(iterations=4, rollout=TakeOne(), c=0.3, bias=3.0, seed=0)
    stats = biased.action_stats(game, state, 0)
    assert [v for v, _ in stats.values()] == [2, 1, 1]
    assert stats[1] == (1, 3.0) and stats[2] == (1, -3.0)


def test_outside_the_horizon_the_rollout_policy_plays():
    """Garda3's draft has no horizon key (lookahead_horizon None): by default the heuristic's
    pick is played unsearched; outside_horizon="search" searches it with playouts to the end."""
    game = make_game("garda3")
    s = game.new_state(4)
    assert s.phase == R.PH_DRAFT and game.lookahead_horizon(s) is None
    p = game.current_player(s)
    bot = ISMCTSBot(iterations=10)
    assert bot.act(game, s, p) == make_heuristic("garda3").act(game, s, p)
    assert bot.searched == 0
    rand = ISMCTSBot(iterations=10, rollout="random", seed=3)
    assert rand.act(game, s, p) == random.Random(3).choice(game.legal_actions(s))
    searching = ISMCTSBot(iterations=10, outside_horizon="search")
    assert searching.act(game, s, p) in game.legal_actions(s) and searching.searched == 1
    full = ISMCTSBot(iterations=10, horizon="game")
    full.act(game, s, p)
    assert full.searched == 1


def test_a_single_legal_action_is_played_without_search():
    game = make_toy(pile=1)
    state = game.new_state(0)
    bot = ISMCTSBot(iterations=50)
    assert bot.act(game, state, 0) == 0 and bot.searched == 0


# -- hidden information -----------------------------------------------------------------------
def _garda3_positions(game, count):
    """Seat-0 decisions of random Garda3 games (fighter choices, attack, defence and bonus
    cards), each with a second state seat 0 cannot tell apart: seat 1's hand and the deck dealt
    anew from their union."""
    rng = random.Random(5)
    out = []
    for seed in range(200):
        s = game.new_state(seed)
        bot = RandomBot(seed)
        skip = seed % 11
        while not game.is_terminal(s):
            p = game.current_player(s)
            if p == 0 and s.phase != R.PH_DRAFT and s.hands[1] and \
                    len(game.legal_actions(s)) > 1:
                if skip == 0:
                    break
                skip -= 1
            game.apply_action(s, bot.act(game, s, p))
        if game.is_terminal(s):
            continue
        other = game.clone(s)
        pool = other.hands[1] + other.deck
        rng.shuffle(pool)
        other.hands[1], other.deck = pool[:len(other.hands[1])], pool[len(other.hands[1]):]
        other.legal_cache = None
        if other.hands[1] == s.hands[1]:
            continue
        out.append((s, other))
        if len(out) == count:
            break
    return out


def test_garda3_search_reads_only_the_deciding_seats_information():
    game = make_game("garda3")
    positions = _garda3_positions(game, 12)
    assert len(positions) == 12
    assert len({s.phase for s, _ in positions}) >= 3
    for s, other in positions:
        assert np.array_equal(game.observe(s, 0), game.observe(other, 0))
        a = ISMCTSBot(iterations=24, seed=9).action_stats(game, s, 0)
        b = ISMCTSBot(iterations=24, seed=9).action_stats(game, other, 0)
        assert a == b
        resampled = game.sample_hidden(s, 0, random.Random(3))
        assert ISMCTSBot(iterations=24, seed=2).act(game, s, 0) == \
            ISMCTSBot(iterations=24, seed=2).act(game, resampled, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_dirt_and_glory_choice_is_the_same_on_another_consistent_deal(players):
    game = make_game("dirt_and_glory", num_players=players)
    bot = make_heuristic("dirt_and_glory")
    checked = 0
    for seed in range(6):
        s = game.new_state(seed)
        for _ in range(25 + 9 * seed):
            if game.is_terminal(s):
                break
            game.apply_action(s, bot.act(game, s, game.current_player(s)))
        if game.is_terminal(s) or len(game.legal_actions(s)) < 2:
            continue
        p = game.current_player(s)
        deal = game.sample_hidden(s, p, random.Random(seed))
        assert game.state_to_dict(deal) != game.state_to_dict(s)  # hidden cards redealt
        assert np.array_equal(game.observe(s, p), game.observe(deal, p))
        kwargs = {"iterations": 12, "rollout": "random", "seed": 4}
        assert ISMCTSBot(**kwargs).action_stats(game, s, p) == \
            ISMCTSBot(**kwargs).action_stats(game, deal, p)
        checked += 1
    assert checked >= 4


# -- determinism, seeding, budgets ------------------------------------------------------------
def _game_with(bot, seed=11):
    game = make_game("garda3")
    returns, final, decisions = play_game(game, [bot, make_heuristic("garda3")], seed=seed)
    return returns, game.state_to_dict(final), decisions


def test_equal_seeds_give_equal_games_and_reseed_restarts_the_bot():
    first = _game_with(ISMCTSBot(iterations=8, seed=4))
    assert _game_with(ISMCTSBot(iterations=8, seed=4)) == first
    used = ISMCTSBot(iterations=8, seed=99)
    _game_with(used, seed=3)
    used.reseed(4)
    assert used.seed == 4 and _game_with(used) == first
    _game_with(used, seed=3)
    reseed_policy(used, 4)  # the tournament's helper restarts the same RNG
    assert _game_with(used) == first


def test_reseed_restarts_a_rollout_policys_own_rng_too():
    game = make_toy(pile=9)
    state = game.new_state(0)
    bot = ISMCTSBot(iterations=30, rollout=RandomBot(1), seed=1)
    first = bot.action_stats(game, state, 0)
    bot.action_stats(game, state, 0)
    bot.reseed(1)
    assert bot.action_stats(game, state, 0) == first
    with pytest.raises(ConfigError, match="seed"):
        bot.reseed("1")


def test_time_limit_budget():
    game = make_game("garda3")
    s = _garda3_defence_state(game)
    bot = ISMCTSBot(time_limit=0.05, seed=0)
    start = time.perf_counter()
    assert bot.act(game, s, 1) in game.legal_actions(s)
    assert time.perf_counter() - start < 1.0
    assert bot.total_iterations >= 1
    both = ISMCTSBot(iterations=5, time_limit=30.0, seed=0)  # the iterations end it first
    both.act(game, s, 1)
    assert both.total_iterations == 5
    assert ISMCTSBot().iterations == DEFAULT_ITERATIONS


@pytest.mark.parametrize("name,config", [("scratch_wars", {"level": 3}),
                                         ("dirt_and_glory", {"num_players": 3})])
def test_other_games_play_legally_for_a_few_decisions(name, config):
    game = make_game(name, **config)
    bots = [ISMCTSBot(iterations=6, rollout=r, horizon="round", seed=p)
            for p, r in enumerate(["heuristic", "random", "heuristic"][:game.num_players])]
    s = game.new_state(2)
    searched = 0
    while not game.is_terminal(s) and searched < 8:
        p = game.current_player(s)
        searched += len(game.legal_actions(s)) > 1
        a = bots[p].act(game, s, p)
        assert a in game.legal_actions(s)
        game.apply_action(s, a)
    assert searched == 8


# -- settings and specs -----------------------------------------------------------------------
@pytest.mark.parametrize("kwargs,named", [
    ({"iterations": 0}, "iterations"), ({"iterations": 2.0}, "iterations"),
    ({"iterations": True}, "iterations"), ({"iterations": 10**7}, "iterations"),
    ({"time_limit": 0}, "time_limit"), ({"time_limit": float("inf")}, "time_limit"),
    ({"time_limit": "1"}, "time_limit"), ({"rollout": "greedy"}, "rollout"),
    ({"rollout": 3}, "rollout"), ({"horizon": "turn"}, "horizon"), ({"horizon": None}, "horizon"),
    ({"outside_horizon": "skip"}, "outside_horizon"), ({"c": -0.1}, "c"),
    ({"c": float("nan")}, "c"), ({"bias": -1.0}, "bias"), ({"bias": float("inf")}, "bias"),
    ({"win_value": 0}, "win_value"), ({"seed": 1.5}, "seed"),
])
def test_bad_settings_are_refused_by_name(kwargs, named):
    with pytest.raises(ConfigError, match=named):
        ISMCTSBot(**kwargs)


def test_heuristic_rollouts_need_a_registered_heuristic():
    game = make_toy(pile=5)
    with pytest.raises(ConfigError, match="'toy_nim'.*rollout='random'"):
        ISMCTSBot(iterations=3).act(game, game.new_state(0), 0)


def test_policy_specs():
    from card_envs.evaluation.policies import MAX_ISMCTS_ITERATIONS, resolve_policy
    from card_envs.garda3.bot import HeuristicBot

    p = resolve_policy("ismcts", "garda3", seed=7)
    assert isinstance(p, ISMCTSBot) and p.iterations == DEFAULT_ITERATIONS
    assert isinstance(p.rollout, HeuristicBot) and p.seed == 7 and p.name == "ismcts"
    p = resolve_policy("ismcts:50:random", "garda3")
    assert (p.iterations, p.rollout, p.name) == (50, "random", "ismcts:50:random")
    assert resolve_policy("ismcts:12:heuristic", "toy_game:make_game").rollout.name == "heuristic"
    assert resolve_policy(f"ismcts:{MAX_ISMCTS_ITERATIONS}", "garda3").iterations == 10**6
    for spec, message in [
        ("ismcts:0", r"'ismcts:0'.*N in 1\.\.1000000"),
        (f"ismcts:{MAX_ISMCTS_ITERATIONS + 1}", "N in 1..1000000"),
        ("ismcts:x", "'ismcts:x'.*whole number.*'x'"), ("ismcts:", "whole number"),
        ("ismcts:-4", "whole number"), ("ismcts:9" + "9" * 40, "N in 1..1000000"),
        ("ismcts:10:greedy", r"'ismcts:10:greedy'.*\['heuristic', 'random'\].*'greedy'"),
        ("ismcts:10:random:more", "at most two fields"),
    ]:
        with pytest.raises(ConfigError, match=message):
            resolve_policy(spec, "garda3")
    with pytest.raises(ConfigError, match="'ismcts:5'.*heuristic.*'ismcts:5:random'"):
        resolve_policy("ismcts:5", "tests_no_such_module:make_game")


def test_cli_evaluate_with_ismcts(capsys):
    from card_envs.cli import main

    assert main(["evaluate", "--game", "garda3", "--a", "ismcts:4", "--b", "random",
                 "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "ismcts:4" in out and "2 games" in out


# -- strength (slow) --------------------------------------------------------------------------
@pytest.mark.slow
def test_ismcts_beats_the_garda3_heuristic():
    """The default budget against the heuristic, 100 duplicate games (figures on 400:
    docs/evaluation.md)."""
    from card_envs.evaluation.evaluate import evaluate

    result = evaluate("garda3", "ismcts", "heuristic", games=100, seed=0)
    assert result.win_rate > 0.55, result.long_summary()


def test_the_tuned_preset_is_a_policy_spec():
    from card_envs.evaluation.policies import resolve_policy

    bot = resolve_policy("card_envs.bots.ismcts:tuned", "garda3")
    assert (bot.iterations, bot.horizon, bot.c, bot.bias, bot.outside_horizon) == (
        300, "round", 0.7, 3.0, "rollout")
    default = ISMCTSBot()  # the defaults are the tuned search
    assert (default.iterations, default.horizon, default.c, default.bias,
            default.outside_horizon) == (300, "round", 0.7, 3.0, "rollout")


def test_the_strength_benchmark_script_runs(tmp_path, capsys):
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "ismcts_strength.py"
    spec = importlib.util.spec_from_file_location("ismcts_strength", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(["--games", "2", "--ismcts", '{"iterations": 3}', "--json",
                       str(tmp_path / "r.json")])
    assert out["games"] == 2 and out["searched_decisions"] > 10
    assert 0 < out["seconds_per_decision_mean"] <= out["seconds_per_decision_max"]
    assert json.loads((tmp_path / "r.json").read_text())["games"] == 2
    assert "2 games" in capsys.readouterr().out
