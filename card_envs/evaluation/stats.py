"""Win-rate statistics: Wilson score intervals."""

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
