"""The pentanomial GSPRT: LLRs against closed forms, the Elo estimate, error rates by simulation,
and the match loop (serial = parallel)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from card_envs.core.errors import ConfigError
from card_envs.evaluation import sprt
from card_envs.evaluation.sequential import run_sprt

TOY = "toy_game:make_game"


def test_elo_and_score_are_inverse():
    assert sprt.elo_to_score(0) == 0.5
    assert sprt.elo_to_score(400) == pytest.approx(10 / 11)
    assert sprt.score_to_elo(10 / 11) == pytest.approx(400)
    assert sprt.score_to_elo(0.75) == pytest.approx(400 * math.log10(3))
    assert sprt.score_to_elo(1.0) == math.inf and sprt.score_to_elo(0.0) == -math.inf


def test_bounds_are_walds():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(2.944439, abs=1e-6)
    assert sprt.bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert sprt.decide(3.0, 0.05, 0.05) == "H1" and sprt.decide(-3.0, 0.05, 0.05) == "H0"
    assert sprt.decide(0.0, 0.05, 0.05) is None


def test_llr_on_two_points_is_the_binomial_llr():
    # only LL and WW pairs: the distribution with mean s on {0, 1} is (1 - s, s), so the LLR is
    # the plain binomial one: a log((1-s1)/(1-s0)) + b log(s1/s0)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-40 / 400))
    expected = 3 * math.log((1 - s1) / (1 - s0)) + 5 * math.log(s1 / s0)
    assert sprt.llr([3, 0, 0, 0, 5], 0, 40, regularized=False) == pytest.approx(expected,
                                                                                 abs=1e-12)
    assert expected == pytest.approx(0.177356, abs=1e-6)


def test_llr_on_three_points_by_the_quadratic():
    # counts [1, 0, 2, 0, 1]: per-game scores 0, 1/2, 1 with weights 1/4, 1/2, 1/4. For a mean s
    # the secular equation sum p d / (1 + x d) = 0 with d = (-s, 1/2 - s, 1 - s) is the quadratic
    # sum_i p_i d_i prod_{j != i} (1 + x d_j) = 0; its root between -1/(1-s) and 1/s gives the
    # fitted p_i / (1 + x d_i)
    p = np.array([0.25, 0.5, 0.25])

    def fitted(s):
        d = np.array([0.0, 0.5, 1.0]) - s
        poly = np.zeros(3)
        for i in range(3):
            term = np.array([p[i] * d[i]])
            for j in range(3):
                if j != i:
                    term = np.convolve(term, [d[j], 1.0])  # (1 + x d_j), highest power first
            poly = poly + term
        roots = [r.real for r in np.roots(poly) if abs(r.imag) < 1e-12]
        (x,) = [r for r in roots if -1 / (1 - s) < r < 1 / s]
        return p / (1 + x * d)

    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    q0, q1 = fitted(s0), fitted(s1)
    assert q0 == pytest.approx(p)  # the data's own mean is 1/2
    assert (q1 * [0, 0.5, 1]).sum() == pytest.approx(s1)
    expected = 4 * (p * np.log(q1 / q0)).sum()
    assert sprt.llr([1, 0, 2, 0, 1], 0, 20, regularized=False) == pytest.approx(expected,
                                                                                 abs=1e-10)
    assert expected < 0  # the data sit at H0 exactly


def test_regularized_llr_counts_empty_categories_as_a_thousandth():
    counts = [0, 3, 10, 6, 1]
    assert sprt.llr(counts, 0, 20) == pytest.approx(
        sprt.llr([1e-3, 3, 10, 6, 1], 0, 20, regularized=False), abs=1e-12)
    batch = sprt.llr(np.array([counts, [1, 2, 3, 2, 1]]), 0, 20)
    assert batch.shape == (2,) and batch[0] == pytest.approx(sprt.llr(counts, 0, 20))
    with pytest.raises(ValueError):
        sprt.llr([0, 0, 0, 0, 0], 0, 20)
    with pytest.raises(ValueError):
        sprt.llr([1, 2, 3], 0, 20)


def test_mle_with_mean_keeps_the_mean():
    q = sprt.mle_with_mean([0.1, 0.2, 0.4, 0.2, 0.1], 0.6)
    assert q.sum() == pytest.approx(1) and (q * sprt.PAIR_SCORES).sum() == pytest.approx(0.6)


def test_elo_estimate_hand_computed():
    # two WL/DD pairs and two WW pairs: per-game scores 1/2, 1/2, 1, 1: mean 3/4, variance
    # 1/16, standard error sqrt(1/16 / 4) = 1/8; the interval 3/4 +- 1.96/8
    est = sprt.elo_estimate([0, 0, 2, 0, 2])
    assert est.score == 0.75 and est.score_se == pytest.approx(0.125)
    assert est.elo == pytest.approx(400 * math.log10(3))
    lo, hi = 0.75 - sprt.Z95 / 8, 0.75 + sprt.Z95 / 8
    assert est.low == pytest.approx(400 * math.log10(lo / (1 - lo)))
    assert est.high == pytest.approx(400 * math.log10(hi / (1 - hi)))


def test_pair_category_and_the_independent_model():
    assert [sprt.pair_category(*p) for p in ((0, 0), (0.5, 0), (1, 0), (0.5, 0.5), (1, 0.5),
                                             (1, 1))] == [0, 1, 2, 2, 3, 4]
    with pytest.raises(ValueError):
        sprt.pair_category(0.3, 0)
    p = sprt.pentanomial_from_trinomial(0.5, 0.2)  # win .5, draw .2, loss .3
    assert p == pytest.approx([0.09, 0.12, 0.34, 0.2, 0.25])
    assert (p * sprt.PAIR_SCORES).sum() == pytest.approx(0.6)


@pytest.mark.parametrize("elo0, elo1, alpha, beta, needle", [
    (10, 10, 0.05, 0.05, "elo0 must be below elo1"), (0, 20, 0.5, 0.05, "alpha"),
    (0, 20, 0.05, 0.0, "beta"), (0, math.nan, 0.05, 0.05, "elo1")])
def test_bad_hypotheses(elo0, elo1, alpha, beta, needle):
    with pytest.raises(ValueError, match=needle):
        sprt.check_hypotheses(elo0, elo1, alpha, beta)


def _seat_model(elo: float, draw: float = 0.1, seat_luck: float = 0.3) -> np.ndarray:
    """Pairs whose deal decides both games with chance ``seat_luck`` (the seat-0 player wins
    each: pair score 1), else two independent games; the skill is set so that the mean score per
    game is ``elo_to_score(elo)``: correlated pairs, the case the pentanomial model is for."""
    s = float(sprt.elo_to_score(elo))
    inner = (s - seat_luck / 2) / (1 - seat_luck)
    p = (1 - seat_luck) * sprt.pentanomial_from_trinomial(inner - draw / 2, draw)
    p[2] += seat_luck
    assert (p * sprt.PAIR_SCORES).sum() == pytest.approx(s)
    return p


@pytest.mark.parametrize("model", ["independent", "seat luck"])
def test_error_rates_by_simulation(model):
    """2,000 simulated tests at elo0 and 2,000 at elo1 (alpha = beta = 0.05, checked after every
    pair): the share deciding wrongly is at most 0.07 each way."""
    elo0, elo1 = 0.0, 40.0

    def pentanomial(elo):
        if model == "independent":
            s = float(sprt.elo_to_score(elo))
            return sprt.pentanomial_from_trinomial(s - 0.1, 0.2)
        return _seat_model(elo)

    at_h0 = sprt.simulate(pentanomial(elo0), elo0, elo1, 0.05, 0.05, runs=2000,
                          max_pairs=20_000, seed=11)
    at_h1 = sprt.simulate(pentanomial(elo1), elo0, elo1, 0.05, 0.05, runs=2000,
                          max_pairs=20_000, seed=12)
    assert at_h0["inconclusive"] == at_h1["inconclusive"] == 0.0
    assert at_h0["H1"] <= 0.07, at_h0  # type I
    assert at_h1["H0"] <= 0.07, at_h1  # type II
    assert at_h0["H1"] > 0.01 and at_h1["H0"] > 0.01  # the bounds are not far too wide either


@pytest.mark.slow
def test_error_rates_by_simulation_at_a_smaller_gap():
    """5,000 runs each at elo 0 and 20 against H1 = 20 (alpha 0.05, beta 0.1), correlated pairs."""
    at_h0 = sprt.simulate(_seat_model(0), 0, 20, 0.05, 0.1, runs=5000, max_pairs=100_000,
                          seed=1)
    at_h1 = sprt.simulate(_seat_model(20), 0, 20, 0.05, 0.1, runs=5000, max_pairs=100_000,
                          seed=2)
    assert at_h0["H1"] <= 0.065 and at_h1["H0"] <= 0.12, (at_h0, at_h1)


# -- the match loop -----------------------------------------------------------------------------
def test_run_sprt_decides_for_the_stronger_policy():
    r = run_sprt(TOY, "toy_game:PerfectBot", "random", elo0=0, elo1=40, config={"pile": 9})
    assert r.decision == "H1" and r.llr >= r.bounds[1]
    assert r.games == 2 * r.pairs == r.wins + r.draws + r.losses
    assert r.llr == pytest.approx(sprt.llr(r.pentanomial, 0, 40))
    est = r.elo()
    assert est.low > 0 and r.to_dict()["decision"] == "H1"
    # the weaker side is told no
    r2 = run_sprt(TOY, "random", "toy_game:PerfectBot", elo0=0, elo1=40, config={"pile": 9})
    assert r2.decision == "H0" and r2.elo().high < 0


def test_run_sprt_with_workers_equals_serial():
    kwargs = dict(elo0=0, elo1=5, config={"pile": 11}, max_games=60, seed=4)
    serial = run_sprt(TOY, "random", "random+lookahead:1", **kwargs)
    parallel = run_sprt(TOY, "random", "random+lookahead:1", workers=2, **kwargs)
    assert parallel.to_dict() == serial.to_dict()
    assert serial.games <= 60


def test_run_sprt_stops_inconclusive_at_max_games():
    r = run_sprt(TOY, "random", "random", elo0=-5, elo1=5, config={"pile": 9}, max_games=11)
    assert r.decision is None and r.games == 10
    assert r.to_dict()["decision"] == "inconclusive"


@pytest.mark.parametrize("kwargs, needle", [
    ({"elo0": 5, "elo1": 5}, "elo0 must be below elo1"), ({"alpha": 0.6}, "alpha"),
    ({"max_games": 1}, "max_games"), ({"config": {"pile": 9, "num_players": 3}}, "two-seat"),
])
def test_run_sprt_refuses(kwargs, needle):
    kwargs = {"config": {"pile": 9}, **kwargs}
    with pytest.raises(ConfigError, match=needle):
        run_sprt(TOY, "random", "random", **kwargs)
