"""Sequential probability ratio tests on paired games: the pentanomial GSPRT of fishtest.

Two policies play *duplicate deals*: every deal twice, each policy once in each seat. A pair of
games scores 0, ½, 1, 1½ or 2 points for policy A (its two results added: loss 0, draw ½, win 1);
the five counts of those pair scores are the *pentanomial* result ``[LL, LD, LW+DD, DW, WW]``
(counts of pair scores 0, ½, 1, 1½, 2). Scoring pairs instead of games counts the correlation
that the shared deal puts between a pair's two games, so the test needs fewer games than one that
treats them as independent (trinomial).

The hypotheses are about A's logistic Elo advantage ``elo``: the expected score per game is
``s(elo) = 1 / (1 + 10^(-elo / 400))``; H0: ``elo = elo0``, H1: ``elo = elo1`` (``elo0 <
elo1``). After every pair the generalised log-likelihood ratio (GSPRT) is compared with Wald's
bounds ``log(beta / (1 - alpha))`` (accept H0 below it) and ``log((1 - beta) / alpha)`` (accept
H1 above it). The LLR is Michel Van den Bergh's (used by fishtest's ``LLRcalc.py``, "Comments on
Normalized Elo", 2020): for the empirical distribution ``p̂`` of the per-game scores ``a_i = i /
4`` of the pairs, ``LLR = N · Σ_i p̂_i · log(p1_i / p0_i)`` where ``p_s`` is the distribution on
the same points with mean ``s`` that is closest to ``p̂`` (its maximum-likelihood fit):
``p_i = p̂_i / (1 + x (a_i − s))`` with ``x`` the root of the secular equation
``Σ_i p̂_i (a_i − s) / (1 + x (a_i − s)) = 0``. Empty categories are counted as 1e-3 pairs
(fishtest's regularisation) so the fit exists from the first pair on.

Everything here is pure numpy (no games): :func:`llr`, :func:`bounds`, :func:`elo_estimate`,
:func:`decide`; the match loop that plays the pairs is :mod:`card_envs.evaluation.sequential`.

References: A. Wald, *Sequential Analysis* (1947); M. Van den Bergh, "A simple way to compute the
GSPRT" / fishtest ``server/fishtest/stats/LLRcalc.py`` and ``stat_util.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: the five per-game scores of a pair (pair score / 2): LL, LD, LW+DD, DW, WW
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
#: an empty pentanomial category counts as this many pairs (fishtest's ``regularize``)
EPSILON = 1e-3
Z95 = 1.959963984540054


def elo_to_score(elo):
    """Expected score per game of a logistic Elo advantage: ``1 / (1 + 10^(-elo/400))`` in (0, 1);
    scalar or array."""
    return 1.0 / (1.0 + np.power(10.0, -np.asarray(elo, dtype=float) / 400.0))


def score_to_elo(score):
    """Inverse of :func:`elo_to_score`: ``400 log10(s / (1 - s))``; −inf at s <= 0, +inf at
    s >= 1; scalar or array."""
    s = np.asarray(score, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 400.0 * np.log10(s / (1.0 - s))
    out = np.where(s <= 0, -np.inf, np.where(s >= 1, np.inf, out))
    return float(out) if out.ndim == 0 else out


def check_hypotheses(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """ValueError naming the bad value unless ``elo0 < elo1`` (both finite) and ``alpha``,
    ``beta`` are in (0, 0.5)."""
    for name, v in (("elo0", elo0), ("elo1", elo1)):
        if not math.isfinite(v):
            raise ValueError(f"{name} must be a finite number, got {v}")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got elo0={elo0:g} >= elo1={elo1:g}")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < v < 0.5:
            raise ValueError(f"{name} must be in (0, 0.5), got {v:g}")


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's LLR bounds ``(log(beta/(1-alpha)), log((1-beta)/alpha))``: below the first accept
    H0, above the second accept H1. ``alpha``, ``beta`` in (0, 0.5) (ValueError otherwise)."""
    check_hypotheses(0.0, 1.0, alpha, beta)
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _secular_root(p: np.ndarray, d: np.ndarray, iterations: int = 64) -> np.ndarray:
    """The root ``x`` of ``Σ_i p_i d_i / (1 + x d_i) = 0`` for rows of ``p`` (weights > 0) and
    ``d`` (``a_i - s``, both signs present), by bisection on the interval where every ``1 + x
    d_i`` is positive (the sum falls monotonically there)."""
    lo = -1.0 / d.max(axis=-1)
    hi = -1.0 / d.min(axis=-1)
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        f = (p * d / (1.0 + mid[..., None] * d)).sum(axis=-1)
        lo = np.where(f > 0, mid, lo)
        hi = np.where(f > 0, hi, mid)
    return 0.5 * (lo + hi)


def mle_with_mean(pdf, s, values=PAIR_SCORES) -> np.ndarray:
    """The distribution on ``values`` with mean ``s`` closest to ``pdf`` (its maximum-likelihood
    fit, Van den Bergh): ``pdf_i / (1 + x (values_i - s))``.

    Args:
        pdf: probabilities ``(..., K)`` (rows sum to 1, every entry > 0).
        s: target mean(s) in (min(values), max(values)), broadcast against the rows.
        values: the ``K`` support points (ascending).

    Returns:
        ``(..., K)`` probabilities with mean ``s``.
    """
    pdf = np.asarray(pdf, dtype=float)
    d = np.asarray(values, dtype=float) - np.asarray(s, dtype=float)[..., None]
    d = np.broadcast_to(d, pdf.shape)
    x = _secular_root(pdf, d)
    return pdf / (1.0 + x[..., None] * d)


def regularize(counts) -> np.ndarray:
    """Counts ``(..., K)`` as floats with every zero replaced by :data:`EPSILON`."""
    c = np.asarray(counts, dtype=float)
    return np.where(c == 0, EPSILON, c)


def llr(counts, elo0: float, elo1: float, regularized: bool = True):
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for pentanomial
    ``counts``.

    Args:
        counts: ``[LL, LD, LW+DD, DW, WW]`` pair counts, shape ``(5,)`` or ``(R, 5)`` for R tests
            at once (non-negative).
        elo0: logistic Elo of H0.
        elo1: logistic Elo of H1.
        regularized: count empty categories as :data:`EPSILON` pairs (fishtest; needed unless
            the counts straddle both expected scores).

    Returns:
        a float (or ``(R,)`` array): ``N · Σ p̂_i log(p1_i / p0_i)``; positive favours H1.

    Raises:
        ValueError: not 5 categories, negative counts, or no pairs.
    """
    c = np.asarray(counts, dtype=float)
    if c.shape[-1] != len(PAIR_SCORES):
        raise ValueError(f"pentanomial counts need {len(PAIR_SCORES)} categories, got shape "
                         f"{c.shape}")
    if (c < 0).any():
        raise ValueError(f"pentanomial counts must be >= 0, got {counts}")
    if (c.sum(axis=-1) <= 0).any():
        raise ValueError("llr needs at least one pair")
    if regularized:
        c = regularize(c)
    n = c.sum(axis=-1)
    keep = c > 0  # without regularisation, empty categories drop out of the fit and the sum
    pdf = c / n[..., None]
    logs = []
    for s in (float(elo_to_score(elo0)), float(elo_to_score(elo1))):
        d = np.where(keep, PAIR_SCORES - s, 0.0)
        above = np.where(keep, d, -np.inf).max(axis=-1)
        below = np.where(keep, d, np.inf).min(axis=-1)
        if (above <= 0).any() or (below >= 0).any():
            raise ValueError(f"the counts {counts} do not straddle the expected score {s:.4f}; "
                             "use regularized=True")
        x = _secular_root(pdf, d)
        logs.append(np.log(np.where(keep, 1.0 + x[..., None] * d, 1.0)))
    # p_s,i = p̂_i / (1 + x_s d_s,i), so log(p1_i / p0_i) = log(1 + x0 d0_i) - log(1 + x1 d1_i)
    out = n * (pdf * (logs[0] - logs[1])).sum(axis=-1)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class EloEstimate:
    """A logistic Elo estimate from pair scores: ``elo`` and its 95 % interval ``(low, high)``,
    the mean score per game ``score`` in [0, 1] and its standard error ``score_se``."""

    elo: float
    low: float
    high: float
    score: float
    score_se: float


def elo_estimate(counts) -> EloEstimate:
    """A's Elo advantage from pentanomial ``counts`` ``[LL, LD, LW+DD, DW, WW]`` (no
    regularisation): the mean per-game score ``s̄`` with the standard error of the mean over
    pairs (``sqrt(var_pair / N)``: the pairs are the independent units), the normal 95 % interval
    ``s̄ ± 1.96 se`` mapped through :func:`score_to_elo` (±inf where it leaves (0, 1)).

    Raises:
        ValueError: not 5 non-negative counts or no pairs.
    """
    c = np.asarray(counts, dtype=float)
    if c.shape != (len(PAIR_SCORES),) or (c < 0).any() or c.sum() <= 0:
        raise ValueError(f"elo_estimate needs 5 non-negative counts with a pair, got {counts}")
    n = c.sum()
    p = c / n
    mean = float((p * PAIR_SCORES).sum())
    var = float((p * (PAIR_SCORES - mean) ** 2).sum())
    se = math.sqrt(var / n)
    return EloEstimate(score_to_elo(mean), score_to_elo(mean - Z95 * se),
                       score_to_elo(mean + Z95 * se), mean, se)


def decide(value: float, alpha: float, beta: float) -> str | None:
    """``"H0"`` at or below the lower bound, ``"H1"`` at or above the upper one, else ``None``."""
    lower, upper = bounds(alpha, beta)
    if value <= lower:
        return "H0"
    if value >= upper:
        return "H1"
    return None


def pair_category(score_first: float, score_second: float) -> int:
    """The pentanomial category 0..4 of a pair whose two games scored ``score_first`` and
    ``score_second`` for A (each 0, 0.5 or 1): twice their sum."""
    total = 2 * (score_first + score_second)
    k = int(round(total))
    if abs(total - k) > 1e-9 or not 0 <= k <= 4:
        raise ValueError(f"pair scores {score_first}, {score_second} are not game results")
    return k


def pentanomial_from_trinomial(win: float, draw: float) -> np.ndarray:
    """The pentanomial probabilities of two *independent* games each won with ``win``, drawn
    with ``draw`` (and lost with the rest): the convolution of the trinomial with itself.
    Shape ``(5,)``; a model for tests and simulations."""
    loss = 1.0 - win - draw
    if min(win, draw, loss) < 0:
        raise ValueError(f"win {win} and draw {draw} are not probabilities summing to <= 1")
    t = np.array([loss, draw, win])
    return np.convolve(t, t)


def simulate(pentanomial, elo0: float, elo1: float, alpha: float, beta: float, runs: int,
             max_pairs: int, seed: int = 0) -> dict[str, float]:
    """Run ``runs`` GSPRTs at once on pairs drawn from ``pentanomial`` (5 probabilities),
    checking after every pair as the match loop does (vectorised).

    Returns:
        ``{"H0": share accepting H0, "H1": share accepting H1, "inconclusive": share still open
        after max_pairs, "mean_pairs": mean pairs played}``.
    """
    p = np.asarray(pentanomial, dtype=float)
    p = p / p.sum()
    rng = np.random.default_rng(seed)
    lower, upper = bounds(alpha, beta)
    check_hypotheses(elo0, elo1, alpha, beta)
    counts = np.zeros((runs, 5))
    decision = np.zeros(runs, dtype=np.int8)  # 0 open, -1 H0, +1 H1
    played = np.zeros(runs)
    active = np.arange(runs)
    for step in range(1, max_pairs + 1):
        if not active.size:
            break
        draws = rng.choice(5, size=active.size, p=p)
        counts[active, draws] += 1
        played[active] = step
        value = llr(counts[active], elo0, elo1)
        decision[active[value <= lower]] = -1
        decision[active[value >= upper]] = 1
        active = active[(value > lower) & (value < upper)]
    return {"H0": float((decision == -1).mean()), "H1": float((decision == 1).mean()),
            "inconclusive": float((decision == 0).mean()), "mean_pairs": float(played.mean())}
