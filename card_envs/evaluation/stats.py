"""Evaluation statistics: Wilson score intervals of win rates, and the mean return with its
normal interval for games whose returns are not ±1 (chips, scores: :func:`return_units`)."""

from __future__ import annotations

import math


def wilson_interval(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Args:
        successes: number of successes (a draw may count as 0.5), ``0 <= successes <= n``.
        n: number of trials (> 0).
        z: normal quantile (default: 95 % two-sided).

    Returns:
        ``(low, high)`` in ``[0, 1]``.

    Raises:
        ValueError: ``n <= 0`` or ``successes`` outside ``[0, n]``.
    """
    if n <= 0:
        raise ValueError(f"wilson_interval needs n > 0, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside [0, {n}]")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low, high = centre - half, centre + half
    # p = 0 or 1 leaves float dust (5.6e-17) at the bound it touches
    return (0.0 if low < 1e-12 else low), (1.0 if high > 1 - 1e-12 else high)


#: the 95 % two-sided normal quantile
Z95 = 1.959963984540054


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation interval (95 % by default):
    ``mean ± z · s / √n``, ``s`` the sample standard deviation (``n - 1`` in the denominator).
    A normal (not Student t) interval: at the few hundred games an evaluation plays the two
    differ by under 0.5 % of the width.

    Args:
        values: the per-game returns (floats), at least one.
        z: normal quantile (default: 95 % two-sided).

    Returns:
        ``(mean, low, high)``; with one value ``(x, -inf, inf)`` (no spread to estimate).

    Raises:
        ValueError: ``values`` is empty.
    """
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        raise ValueError("mean_interval needs at least one value")
    mean = math.fsum(xs) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def return_units(facts) -> str:
    """The units of a game's returns when a report should print their mean beside win/draw/loss
    (:class:`card_envs.core.game.GameFacts`: ``"chips"``, ``"score"``), else ``""``: a game of
    ``"win/loss"`` utility in [-1, 1] (its mean return is the win rate minus the loss rate) or
    an object without facts (a game outside the contract)."""
    if facts is None:
        return ""
    if facts.utility == "win/loss" and (facts.min_utility, facts.max_utility) == (-1.0, 1.0):
        return ""
    return facts.utility
