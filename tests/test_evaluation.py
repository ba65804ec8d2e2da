"""Evaluation: Wilson intervals against hand-computed values, seat swapping, policy specs."""

from __future__ import annotations

import math

import pytest

from card_envs.bots.base import RandomBot
from card_envs.core.errors import ConfigError
from card_envs.evaluation import evaluate, play_match, wilson_interval
from card_envs.evaluation.match import MatchResult, outcome_of
from card_envs.evaluation.policies import resolve_policy
from toy_game import PerfectBot
from toy_game import make_game as make_toy


def test_wilson_interval_hand_computed():
    # 5/10, z = 1.96: centre (0.5 + 0.19208)/1.38416 = 0.5, half 1.96*sqrt(0.034604)/1.38416
    lo, hi = wilson_interval(5, 10, z=1.96)
    half = 1.96 * math.sqrt(0.025 + 1.96**2 / 400) / (1 + 1.96**2 / 10)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    assert (lo, hi) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    # 0/20: low 0, high = (z^2/n) / (1 + z^2/n) = 0.19208/1.19208
    assert wilson_interval(0, 20, z=1.96) == pytest.approx((0.0, 0.161130), abs=1e-6)
    # 8/10 -> [0.4902, 0.9433] (the textbook value)
    assert wilson_interval(8, 10, z=1.96) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    # 400 games at 60 %: [0.5512, 0.6469]
    assert wilson_interval(240, 400) == pytest.approx((0.5512, 0.6469), abs=1e-4)
    with pytest.raises(ValueError):
        wilson_interval(1, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_outcome_of_is_the_one_win_draw_loss_rule():
    assert outcome_of([1, -1], 0) == 1.0
    assert outcome_of([1, -1], 1) == 0.0
    assert outcome_of([0, 0], 1) == 0.5
    assert outcome_of([0.5, 0.5, -1], 0) == 0.5
    assert outcome_of([0.5, 0.5, -1], 2) == 0.0
    assert outcome_of([-0.5, 1, -0.5], 1) == 1.0
    r = MatchResult()
    for seat, outcome in ((0, 1.0), (1, 0.5), (1, 0.0), (0, 0.0)):
        r.record(seat, outcome)
    assert (r.wins, r.draws, r.losses) == (1, 1, 2)
    assert r.per_seat == {0: [1, 0, 1], 1: [0, 1, 1]}


def test_play_match_reports_every_game_to_on_game():
    seen = []
    res = play_match(make_toy(pile=8), PerfectBot(), PerfectBot(), 6, seed=0, paired=True,
                     on_game=lambda seat, outcome: seen.append((seat, outcome)))
    # pile 8: the second seat wins with perfect play
    assert seen == [(0, 0.0), (1, 1.0)] * 3
    assert (res.wins, res.losses) == (3, 3)


def test_match_result_rates_and_intervals():
    r = MatchResult(wins=6, draws=2, losses=2)
    assert (r.win_rate, r.draw_rate, r.loss_rate, r.score) == (0.6, 0.2, 0.2, 0.7)
    iv = r.intervals()
    assert iv["win"] == wilson_interval(6, 10)
    assert iv["draw"] == wilson_interval(2, 10)
    d = r.to_dict()
    assert d["games"] == 10 and d["wilson95"]["loss"] == list(wilson_interval(2, 10))
    assert "win 60.0%" in r.long_summary()


class SeatRecorder:
    """A policy that records the seats it is asked to play (acts: take 1)."""

    name = "recorder"

    def __init__(self):
        self.seats = []

    def act(self, game, state, player):
        if not self.seats or self.seats[-1] != (state.decisions == 0, player):
            self.seats.append((state.decisions == 0, player))
        return 0


@pytest.mark.parametrize("n_players", [2, 3])
def test_play_match_swaps_seats(n_players):
    game = make_toy(num_players=n_players, pile=6)
    res = play_match(game, PerfectBot(), RandomBot(0), 6 * n_players, seed=1)
    assert sorted(res.per_seat) == list(range(n_players))
    assert all(sum(t) == 6 for t in res.per_seat.values())  # every seat equally often


def test_paired_deals_are_replayed_in_every_seat():
    seeds = []
    game = make_toy(pile=7)
    original = game.new_state

    def spy(seed):
        seeds.append(seed)
        return original(seed)

    game.new_state = spy
    play_match(game, PerfectBot(), PerfectBot(), 6, seed=2, paired=True)
    assert seeds[0::2] == seeds[1::2] and len(set(seeds)) == 3
    seeds.clear()
    play_match(game, PerfectBot(), PerfectBot(), 6, seed=2)
    assert len(set(seeds)) == 6


def test_toy_seat_advantage_is_visible_per_seat():
    # pile 8 (a multiple of 4): the second seat wins with perfect play
    res = play_match(make_toy(pile=8), PerfectBot(), PerfectBot(), 20, seed=0, paired=True)
    assert res.per_seat[0] == [0, 0, 10] and res.per_seat[1] == [10, 0, 0]
    assert res.wins == res.losses == 10


def test_evaluate_with_specs():
    res = evaluate("toy_game:make_game", "toy_game:PerfectBot", "random", games=40,
                   config={"pile": 9})
    assert res.n == 40 and res.win_rate > 0.8
    res2 = evaluate(make_toy(pile=9), PerfectBot(), RandomBot(3), games=40)
    assert res2.n == 40
    with pytest.raises(ConfigError, match="unknown policy"):
        resolve_policy("no-such-policy", "toy_game:make_game")
    with pytest.raises(ValueError):
        evaluate(make_toy(), PerfectBot(), PerfectBot(), games=0)
    heuristic = resolve_policy("heuristic", "toy_game:make_game")
    assert heuristic.name == "heuristic"
    callable_policy = resolve_policy(lambda obs, mask: 0, "toy_game:make_game")
    assert callable_policy.act(make_toy(), make_toy().new_state(0), 0) == 0


def test_round_robin_ratings_order_and_pairs():
    from card_envs.evaluation.tournament import round_robin

    t = round_robin("toy_game:make_game", ["toy_game:PerfectBot", "random"], games=40,
                    config={"pile": 9})
    best, worst = t.standings()
    assert best.name == "toy_game:PerfectBot" and worst.name == "random"
    r = t.pairs[("toy_game:PerfectBot", "random")]
    assert r.n == 40 and r.win_rate > 0.8
    assert "| 1 | toy_game:PerfectBot |" in t.markdown()
    with pytest.raises(ConfigError, match="at least two"):
        round_robin("toy_game:make_game", ["random"], games=4)


# -- the mean return for games whose returns are not ±1 (issue 23) ------------------------------
def test_mean_interval_is_the_normal_interval_of_the_mean():
    from card_envs.evaluation.stats import mean_interval

    # mean 2.5, sample variance 5/3, half width 1.96 · sqrt(5/3 / 4) = 1.2651
    mean, lo, hi = mean_interval([1, 2, 3, 4])
    assert mean == 2.5 and lo == pytest.approx(1.23485, abs=1e-5)
    assert hi == pytest.approx(3.76515, abs=1e-5)
    assert mean_interval([7.0]) == (7.0, -float("inf"), float("inf"))
    with pytest.raises(ValueError, match="at least one"):
        mean_interval([])


def test_the_mean_return_is_reported_only_for_returns_that_are_not_win_loss():
    from card_envs.core.registry import make_game
    from card_envs.evaluation.stats import return_units

    assert return_units(make_game("garda3").facts) == ""
    assert return_units(make_game("dirt_and_glory", num_players=3).facts) == ""
    assert return_units(make_game("dirt_and_glory", num_players=3, reward="score").facts) == \
        "score"
    assert return_units(make_game("leduc_holdem").facts) == "chips"
    assert return_units(None) == ""
    result = evaluate("garda3", "heuristic", "random", games=4, seed=0)
    assert result.units == "" and "mean_return" not in result.to_dict()
    assert "mean return" not in result.long_summary()
