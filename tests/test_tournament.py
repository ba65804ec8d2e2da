"""Tournaments: Bradley–Terry against hand-computed fits, the bootstrap, the schedule, the game
score, forfeits, gauntlets, more seats, and parallel runs equal to serial ones."""

from __future__ import annotations

import math

import numpy as np
import pytest

from card_envs.core.errors import ConfigError
from card_envs.evaluation.ratings import (
    bootstrap_bradley_terry,
    bradley_terry,
    deal_tables,
    openskill_ratings,
    percentile_interval,
)
from card_envs.evaluation.runner import GameRecord, duel_score, policy_seed
from card_envs.evaluation.tournament import round_robin, schedule, tournament

TOY = "toy_game:make_game"


# -- Bradley–Terry ------------------------------------------------------------------------------
def test_bradley_terry_two_players_is_the_odds_ratio():
    # 3 of 4 won: p0 / p1 = 3, so the gap is 400 log10 3 = 190.85 Elo, centred on 0
    elo = bradley_terry([[0, 3], [1, 0]], [[0, 4], [4, 0]], prior=0)
    assert elo == pytest.approx([200 * math.log10(3), -200 * math.log10(3)], abs=1e-6)
    assert elo[0] - elo[1] == pytest.approx(190.848501887865, abs=1e-6)


def test_bradley_terry_three_players_hand_computed():
    # strengths 1, 2, 4 and 15 games a pair with the expected wins (5/15 = 1/(1+2), 3/15 =
    # 1/(1+4), 5/15 = 2/(2+4)): the likelihood equations hold exactly at (1, 2, 4), so the fit
    # is 400 log10 (1, 2, 4) minus the mean = (-120.41, 0, +120.41)
    wins = np.array([[0, 5, 3], [10, 0, 5], [12, 10, 0]])
    games = np.where(np.eye(3) == 1, 0, 15)
    elo = bradley_terry(wins, games, prior=0)
    step = 400 * math.log10(2)  # 120.412
    assert elo == pytest.approx([-step, 0.0, step], abs=1e-6)


def test_bradley_terry_prior_is_virtual_draws():
    # 4-0 with one virtual draw: 4.5 to 0.5, a ratio of 9: 400 log10 9 = 381.7 Elo apart
    elo = bradley_terry([[0, 4], [0, 0]], [[0, 4], [4, 0]], prior=1.0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(9), abs=1e-6)
    with pytest.raises(ValueError, match="nothing or everything"):
        bradley_terry([[0, 4], [0, 0]], [[0, 4], [4, 0]], prior=0)


def test_bradley_terry_is_vectorised_over_leading_dimensions():
    one = bradley_terry([[0, 3], [1, 0]], [[0, 4], [4, 0]], prior=0)
    many = bradley_terry(np.array([[[0, 3], [1, 0]], [[0, 1], [3, 0]]]),
                         np.array([[[0, 4], [4, 0]]] * 2), prior=0)
    assert many.shape == (2, 2)
    assert many[0] == pytest.approx(one) and many[1] == pytest.approx(-one)


def test_bootstrap_over_identical_deals_collapses_to_the_fit():
    # every deal the same: every resample is the full data, so the interval is the point
    records = [GameRecord(i, 0, 1, d, i % 2, 1.0 if i % 2 == 0 else 0.5, (), 1)
               for d in range(6) for i in range(2)]
    scores, games = deal_tables(records, 2, list(range(6)))
    assert scores.sum(axis=0).tolist() == [[0, 9], [3, 0]]  # 6 wins + 6 draws for entrant 0
    fit = bradley_terry(scores.sum(axis=0), games.sum(axis=0))
    boot = bootstrap_bradley_terry(scores, games, resamples=50, seed=1)
    low, high = percentile_interval(boot)
    assert low == pytest.approx(fit) and high == pytest.approx(fit)


def test_openskill_ranks_the_winner_first():
    (mu0, s0), (mu1, s1) = openskill_ratings([(0, 1, 1.0)] * 5 + [(0, 1, 0.5)], 2)
    assert mu0 > 25 > mu1 and s0 < 25 / 3


# -- the game score and the schedule ------------------------------------------------------------
def test_duel_score_is_outcome_of_against_each_other_seat():
    assert duel_score([1, -1], 0) == 1.0 and duel_score([1, -1], 1) == 0.0
    assert duel_score([0, 0], 1) == 0.5
    assert duel_score([1, 0, 0.5], 0) == 1.0  # above both B seats
    assert duel_score([1, 0, 0.5], 2) == 0.5  # above seat 1, below seat 0
    assert duel_score([1, 1, -2], 1) == 0.75  # tied with seat 0 (½), above seat 2 (1)


def test_schedule_shares_deals_across_pairs():
    jobs = schedule(3, deals=2, seats=2, seed=5)
    assert len(jobs) == 2 * 3 * 2 and [j.index for j in jobs] == list(range(12))
    first = jobs[:6]  # deal 0: pairs (0,1), (0,2), (1,2), each with A in seat 0 then seat 1
    assert [(j.a, j.b, j.seat) for j in first] == [(0, 1, 0), (0, 1, 1), (0, 2, 0), (0, 2, 1),
                                                  (1, 2, 0), (1, 2, 1)]
    assert {j.seed for j in first} == {5 * 1_000_003}
    assert {j.seed for j in jobs[6:]} == {5 * 1_000_003 + 1}
    gauntlet = schedule(3, deals=1, seats=3, seed=0, gauntlet=True)
    assert [(j.a, j.b, j.seat) for j in gauntlet] == [(0, 1, 0), (0, 1, 1), (0, 1, 2),
                                                     (0, 2, 0), (0, 2, 1), (0, 2, 2)]
    assert policy_seed(7, 0, 0) != policy_seed(7, 0, 1) != policy_seed(7, 1, 1)


# -- tournaments --------------------------------------------------------------------------------
ENTRANTS = ["toy_game:PerfectBot", "random", "random+lookahead:2", "ismcts:20:random"]


def test_round_robin_ratings_order_pairs_and_intervals():
    t = tournament(TOY, ENTRANTS, deals=12, config={"pile": 9}, resamples=200)
    ranked = [r.name for r in t.standings()]
    assert ranked[-1] == "random"
    assert set(t.pairs) == {(a, b) for i, a in enumerate(ENTRANTS) for b in ENTRANTS[i + 1:]}
    for p in t.pairs.values():
        assert p.n == 24 and sum(sum(v) for v in p.per_seat.values()) == 24
    for r in t.ratings:
        assert r.elo_low <= r.elo <= r.elo_high
    assert sum(r.elo for r in t.ratings) == pytest.approx(0.0, abs=1e-6)
    m = t.score_matrix()
    assert np.isnan(np.diag(m)).all()
    assert m + m.T == pytest.approx(np.where(np.eye(4) == 1, np.nan, 1.0), nan_ok=True)
    perfect = t.pairs[("toy_game:PerfectBot", "random")]
    assert m[0, 1] == perfect.mean_score and perfect.wilson()[0] > 0.6


def test_the_same_seeds_give_the_same_tournament():
    a = tournament(TOY, ENTRANTS[:3], deals=4, config={"pile": 9}, seed=3, resamples=20)
    b = tournament(TOY, ENTRANTS[:3], deals=4, config={"pile": 9}, seed=3, resamples=20)
    c = tournament(TOY, ENTRANTS[:3], deals=4, config={"pile": 9}, seed=4, resamples=20)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["games_played"] != c.to_dict()["games_played"]


def test_two_workers_give_exactly_the_serial_results():
    kwargs = dict(deals=6, config={"pile": 11}, seed=2, resamples=100)
    serial = tournament(TOY, ENTRANTS, workers=1, **kwargs)
    parallel = tournament(TOY, ENTRANTS, workers=2, **kwargs)
    assert parallel.to_dict() == serial.to_dict()
    assert len(serial.records) == 6 * 6 * 2


def test_a_policy_that_raises_or_cheats_forfeits_its_games():
    t = tournament(TOY, ["fuzz_forfeits:Crasher", "toy_game:PerfectBot", "fuzz_forfeits:Cheater"],
                   deals=3, config={"pile": 9}, resamples=10)
    forfeits = t.forfeits()
    assert forfeits["fuzz_forfeits:Cheater"][0] == 12  # every game it played (vs 2 others)
    assert forfeits["fuzz_forfeits:Cheater"][1] == "seat 0: illegal action 99" or \
        forfeits["fuzz_forfeits:Cheater"][1].endswith("illegal action 99")
    count, reason = forfeits["fuzz_forfeits:Crasher"]
    assert "ValueError: crashed on purpose" in reason and count >= 1
    crasher_vs_perfect = t.pairs[("fuzz_forfeits:Crasher", "toy_game:PerfectBot")]
    assert crasher_vs_perfect.forfeits_a >= 1 and crasher_vs_perfect.forfeits_b == 0
    # a forfeit loses the game: the cheater scores nothing
    cheater = [r for r in t.records if 2 in (r.a, r.b)]
    assert all((r.score == 0.0) == (r.a == 2) for r in cheater if r.forfeit == 2)
    assert t.to_dict()["forfeits"]["fuzz_forfeits:Cheater"]["games"] == 12


def test_forfeits_are_the_same_in_worker_processes():
    kwargs = dict(deals=2, config={"pile": 9}, resamples=10)
    entrants = ["fuzz_forfeits:Crasher", "random", "fuzz_forfeits:Cheater"]
    assert tournament(TOY, entrants, workers=2, **kwargs).to_dict() == \
        tournament(TOY, entrants, workers=1, **kwargs).to_dict()


def test_gauntlet_plays_one_entrant_against_the_others():
    t = tournament(TOY, ["random", "toy_game:HeuristicBot"], gauntlet="toy_game:PerfectBot",
                   deals=5, config={"pile": 9}, resamples=20)
    assert t.names[0] == "toy_game:PerfectBot" and t.gauntlet == "toy_game:PerfectBot"
    assert set(t.pairs) == {("toy_game:PerfectBot", "random"),
                            ("toy_game:PerfectBot", "toy_game:HeuristicBot")}
    assert t.result("random", "toy_game:HeuristicBot") is None
    assert math.isnan(t.score_matrix()[1, 2])
    # the gauntlet entrant may also be one of the policies
    t2 = tournament(TOY, ["random", "toy_game:PerfectBot"], gauntlet="toy_game:PerfectBot",
                    deals=2, config={"pile": 9}, resamples=5)
    assert t2.names == ["toy_game:PerfectBot", "random"]


def test_three_seats_rotate_the_entrant_through_every_seat():
    t = tournament(TOY, ["toy_game:PerfectBot", "random"], deals=4,
                   config={"pile": 10, "num_players": 3}, resamples=20)
    p = t.pairs[("toy_game:PerfectBot", "random")]
    assert p.n == 12 and sorted(p.per_seat) == [0, 1, 2]
    assert all(sum(v) == 4 for v in p.per_seat.values())
    # Nim: one winner (+1), two tied losers (-1/2). A wins: above both B seats (1); A loses:
    # below the winner, tied with the other loser (1/4); with equal play 1/3 + 2/3 * 1/4 = 1/2
    assert {r.score for r in t.records} == {0.25, 1.0}
    assert p.wins == sum(r.score == 1.0 for r in t.records) and p.losses == 0


def test_round_robin_keeps_its_games_per_pair():
    t = round_robin(TOY, ["toy_game:PerfectBot", "random"], games=40, config={"pile": 9})
    assert t.deals == 20 and t.pairs[("toy_game:PerfectBot", "random")].n == 40
    assert t.standings()[0].name == "toy_game:PerfectBot"
    assert "| 1 | toy_game:PerfectBot |" in t.markdown()


@pytest.mark.parametrize("policies, kwargs, error, needle", [
    (["random"], {}, ConfigError, "at least two"),
    (["random", "random"], {}, ConfigError, "named twice"),
    (["random", "nope"], {}, ConfigError, "unknown policy 'nope'"),
    (["random", "heuristic"], {"deals": 0}, ValueError, "deals"),
    (["random", "heuristic"], {"workers": 0}, ConfigError, "workers"),
])
def test_tournament_refuses_bad_arguments(policies, kwargs, error, needle):
    with pytest.raises(error, match=needle):
        tournament(TOY, policies, config={"pile": 9}, **kwargs)


def test_unpicklable_policies_need_one_worker():
    class Local:
        def act(self, game, state, player):
            return 0

    with pytest.raises(ConfigError, match="picklable"):
        tournament(TOY, {"a": Local(), "b": Local()}, deals=1, workers=2)
    t = tournament(TOY, {"a": Local(), "b": Local()}, deals=1, config=None, resamples=5)
    assert t.pairs[("a", "b")].n == 2


def test_a_tournament_of_bots_needs_neither_torch_nor_matplotlib():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = ("import sys\n"
            "from card_envs.evaluation.tournament import tournament\n"
            "t = tournament('garda3', ['random', 'heuristic'], deals=2, resamples=10)\n"
            "print(t.standings()[0].name)\n"
            "print(sorted(m for m in ('gymnasium', 'torch', 'matplotlib', 'stable_baselines3') "
            "if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[1] == "[]"


def test_format_elo_uses_one_minus_sign_for_finite_and_unbounded_sides():
    # an interval like "[−∞, -370]" mixed U+2212 with ASCII '-': one style, ASCII
    from card_envs.evaluation.ratings import format_elo

    assert f"[{format_elo(-np.inf)}, {format_elo(-370.4)}]" == "[-∞, -370]"
    assert (format_elo(np.inf), format_elo(12.6), format_elo(0.0)) == ("+∞", "+13", "+0")


def test_a_zero_width_interval_is_explained_under_the_ratings():
    from card_envs.evaluation.report import tournament_tables

    # two perfect players: every deal is won by the seat the pile favours, so each deal of the
    # pair ends 1-1 when played twice, seats swapped; resampling the deals changes nothing
    t = tournament(TOY, ["toy_game:PerfectBot", "toy_game:PerfectBot+lookahead:2"], deals=4,
                   config={"pile": 9}, resamples=50)
    pair = t.pairs[("toy_game:PerfectBot", "toy_game:PerfectBot+lookahead:2")]
    assert (pair.wins, pair.draws, pair.losses) == (4, 0, 4)
    for r in t.ratings:
        assert r.elo_low == r.elo == r.elo_high == pytest.approx(0.0, abs=1e-9)
    lines = [x for x in tournament_tables(t) if isinstance(x, str)]
    assert ("a zero-width interval (toy_game:PerfectBot, toy_game:PerfectBot+lookahead:2): each "
            "of their pairs gave the same result on every deal, so resampling the deals cannot "
            "show the uncertainty; play more deals (the Wilson intervals of the matrix still "
            "hold)") in lines
