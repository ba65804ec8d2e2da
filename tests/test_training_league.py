"""The self-play league (card_envs.training.league): weighted sampling, pools, results, seeding,
and the league as the opponent source of the single-agent env."""

from __future__ import annotations

import numpy as np
import pytest

from card_envs.bots.base import RandomBot
from card_envs.training.league import League, make_league, parse_mix
from card_envs.wrappers.single_agent import SingleAgentEnv
from toy_game import PerfectBot
from toy_game import make_game as make_toy


def test_league_samples_by_weight_and_records_results():
    league = League({"random": 1.0, "heuristic": 3.0, "self": 2.0}, seed=0)
    league.set_pool("random", [("random", RandomBot(0))])
    league.set_pool("heuristic", [("heuristic", PerfectBot())])
    # "self" has no snapshot yet: its weight is shared out
    assert league.active_weights() == pytest.approx({"random": 0.25, "heuristic": 0.75})
    league.add("self", "s0", RandomBot(1))
    counts = {"random": 0, "heuristic": 0, "self": 0}
    for _ in range(6000):
        counts[league.sample().kind] += 1
    assert counts["random"] / 6000 == pytest.approx(1 / 6, abs=0.03)
    assert counts["heuristic"] / 6000 == pytest.approx(3 / 6, abs=0.03)
    env = SingleAgentEnv(make_toy(), league, seed=0)
    for _ in range(30):
        env.reset()
        done = False
        while not done:
            _, _, te, tr, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = te or tr
    assert sum(league.episodes.values()) == 30
    assert set(league.win_rates()) <= {"random", "heuristic", "self"}
    assert parse_mix("random=0.15, heuristic=0.5,self=0.35") == {
        "random": 0.15, "heuristic": 0.5, "self": 0.35}
    with pytest.raises(ValueError, match="bogus"):
        parse_mix("bogus")


def test_league_pool_is_trimmed():
    league = League({"self": 1.0}, max_pool=3, seed=0)
    for i in range(5):
        league.add("self", f"s{i}", RandomBot(i))
    assert [n for n, _ in league.pools["self"]] == ["s2", "s3", "s4"]


def test_make_league_fills_random_and_heuristic_and_drops_a_missing_heuristic():
    league = make_league("random=1,heuristic=3,self=2", 5, PerfectBot(), seed=0)
    assert [n for n, _ in league.pools["random"]] == ["random"]
    assert [n for n, _ in league.pools["heuristic"]] == ["heuristic"]
    assert league.pools["self"] == [] and league.max_pool == 5
    without = make_league("random=1,heuristic=3,self=2", 5, None, seed=0)
    assert without.weights == {"random": 1.0, "self": 2.0}
    with pytest.raises(ValueError, match="unknown kind"):
        make_league("random=1,bogus=1", 5, None, seed=0)


def test_reseed_restarts_sampling_and_every_members_rng():
    def draws(league):
        kinds = [league.sample().kind for _ in range(20)]
        bot = league.pools["random"][0][1]
        return kinds, [bot.rng.random() for _ in range(3)]

    league = League({"random": 1.0, "self": 1.0}, seed=3)
    league.set_pool("random", [("random", RandomBot(0))])
    league.add("self", "s0", RandomBot(1))
    league.reseed(11)
    first = draws(league)
    league.reseed(11)
    assert draws(league) == first
    # the env's reset(seed=...) reseeds its league the same way
    env = SingleAgentEnv(make_toy(), league, seed=0)
    env.reset(seed=11)
    league.reseed(11)
    assert draws(league) == first
