"""Ratings from a tournament's games: Bradley–Terry (Elo scale) with bootstrap intervals, and
openskill.

**Bradley–Terry.** Entrant ``i`` beats ``j`` with probability ``p_i / (p_i + p_j)``; a draw
counts half a win to each (so ``wins[i, j]`` is i's *score* against j: wins + draws / 2). The
strengths are fitted by Hunter's MM algorithm (D. R. Hunter, "MM algorithms for generalized
Bradley–Terry models", Ann. Statist. 32, 2004): ``p_i ← W_i / Σ_j n_ij / (p_i + p_j)``, which
climbs the likelihood monotonically to the maximum-likelihood fit. On the Elo scale ``elo_i =
400 log10 p_i`` (a 100-point gap ≈ a 64 % expected score), shifted to mean 0 over the
entrants. A *prior* of ``prior`` virtual drawn games between every pair that played (as
BayesElo's virtual draws) keeps the fit finite when an entrant won or lost every game.

**Bootstrap.** The intervals resample *deals* with replacement (every pair played the same deals,
each in every seat arrangement, so a deal's games stay together and the correlation the shared
cards bring is kept) and refit; the 2.5 and 97.5 percentiles of each entrant's Elo are its 95 %
interval (B. Efron & R. Tibshirani, *An Introduction to the Bootstrap*, 1993: the percentile
method).

**openskill.** Plackett–Luce ratings updated game by game in schedule order (``mu`` ± ``sigma``,
conservative ``ordinal = mu − 3 sigma``): a second, online estimate beside the batch fit.
"""

from __future__ import annotations

import numpy as np

#: virtual drawn games added between every pair that played (see the module docstring)
DEFAULT_PRIOR = 1.0
ELO_PER_NATURAL_LOG = 400.0 / np.log(10.0)


def format_elo(value: float) -> str:
    """``+123`` / ``-45``; ``-∞`` / ``+∞`` for an unbounded interval side (ASCII ``-``/``+`` signs
    throughout, like the finite sides)."""
    return f"{value:+.0f}" if np.isfinite(value) else ("-∞" if value < 0 else "+∞")


def bradley_terry(wins, games, prior: float = DEFAULT_PRIOR, tol: float = 1e-10,
                  max_iter: int = 100_000) -> np.ndarray:
    """Bradley–Terry Elo ratings by MM, vectorised over leading dimensions.

    Args:
        wins: ``(..., k, k)`` score of row i against column j (wins + half the draws), >= 0.
        games: ``(..., k, k)`` games between i and j (symmetric; 0 where they did not play).
        prior: virtual drawn games between every pair with ``games > 0`` (>= 0).
        tol: stop when no log-strength moves more than this.
        max_iter: iteration cap.

    Returns:
        ``(..., k)`` Elo ratings with mean 0 over the entrants.

    Raises:
        ValueError: shapes that differ or are not square, negative values, a negative prior, or
            (with prior 0) an entrant that scored nothing or everything (no finite fit).
    """
    w = np.asarray(wins, dtype=float)
    n = np.asarray(games, dtype=float)
    if w.shape != n.shape or w.ndim < 2 or w.shape[-1] != w.shape[-2]:
        raise ValueError(f"wins and games must be equal (..., k, k) arrays, got {w.shape} and "
                         f"{n.shape}")
    if (w < 0).any() or (n < 0).any() or prior < 0:
        raise ValueError("wins, games and prior must be >= 0")
    played = n > 0
    w = w + 0.5 * prior * played
    n = n + prior * played
    score = w.sum(axis=-1)
    total = n.sum(axis=-1)
    if ((score <= 0) | (score >= total)).any():
        raise ValueError("an entrant scored nothing or everything: the Bradley-Terry fit is "
                         "infinite (use prior > 0)")
    logp = np.zeros(score.shape)
    for _ in range(max_iter):
        p = np.exp(logp)
        denom = (n / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        new = np.log(score) - np.log(denom)
        new -= new.mean(axis=-1, keepdims=True)
        done = np.abs(new - logp).max() < tol
        logp = new
        if done:
            break
    return ELO_PER_NATURAL_LOG * logp


def deal_tables(records, k: int, deals: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per-deal score and game tables ``(D, k, k)`` from game records (``a``, ``b``, ``deal``,
    ``score`` attributes; ``deals`` lists the deal numbers in row order)."""
    row = {d: i for i, d in enumerate(deals)}
    scores = np.zeros((len(deals), k, k))
    games = np.zeros((len(deals), k, k))
    for r in records:
        i = row[r.deal]
        scores[i, r.a, r.b] += r.score
        scores[i, r.b, r.a] += 1.0 - r.score
        games[i, r.a, r.b] += 1
        games[i, r.b, r.a] += 1
    return scores, games


def bootstrap_bradley_terry(deal_scores, deal_games, resamples: int = 1000, seed: int = 0,
                            prior: float = DEFAULT_PRIOR) -> np.ndarray:
    """Bradley–Terry Elo refitted on ``resamples`` bootstrap resamples of the deals.

    Args:
        deal_scores: ``(D, k, k)`` per-deal score table (:func:`deal_tables`).
        deal_games: ``(D, k, k)`` per-deal game counts (:func:`deal_tables`).
        resamples: bootstrap resamples (>= 1).
        seed: seed of the resampling.
        prior: as in :func:`bradley_terry`.

    Returns:
        ``(resamples, k)`` Elo ratings.
    """
    s = np.asarray(deal_scores, dtype=float)
    g = np.asarray(deal_games, dtype=float)
    d, k, _ = s.shape
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(d, np.full(d, 1.0 / d), size=resamples).astype(float)  # (B, D)
    ws = (weights @ s.reshape(d, -1)).reshape(resamples, k, k)
    wg = (weights @ g.reshape(d, -1)).reshape(resamples, k, k)
    # a pair the resample left out still gets its prior if it played in the full data
    played = g.sum(axis=0) > 0
    wg_prior = np.where(played & (wg == 0), 1e-12, wg)
    return bradley_terry(ws, wg_prior, prior=prior)


def percentile_interval(samples, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The ``(low, high)`` percentile interval of each column of ``samples`` ``(B, k)``."""
    tail = 50.0 * (1.0 - level)
    return (np.percentile(samples, tail, axis=0), np.percentile(samples, 100.0 - tail, axis=0))


def openskill_ratings(games, k: int) -> list[tuple[float, float]]:
    """Plackett–Luce ratings ``[(mu, sigma)]`` of ``k`` entrants after ``games`` ``[(a, b,
    score)]`` in order (A's score in [0, 1]: above ½ A ranks first, below ½ B does, ½ ties)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(k)]
    for a, b, score in games:
        ranks = [1, 2] if score > 0.5 else [2, 1] if score < 0.5 else [1, 1]
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    return [(float(r.mu), float(r.sigma)) for r in ratings]
