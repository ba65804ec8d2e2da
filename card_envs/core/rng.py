"""Seeded chance: every game draws chance from its state's own ``random.Random``.

Equal seeds and equal actions therefore give equal games, and the RNG state travels with the
game state through ``state_to_dict`` / ``state_from_dict`` (as plain JSON lists).
"""

from __future__ import annotations

import random
from typing import Any


def make_rng(seed: int) -> random.Random:
    """A ``random.Random`` seeded with the integer ``seed`` (any Python int)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {seed!r}")
    return random.Random(seed)


def rng_to_json(rng: random.Random) -> list[Any]:
    """The RNG's full internal state as a JSON-able list ``[version, [625 ints], gauss_next]``."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    """Inverse of :func:`rng_to_json`; raises ``ValueError`` on a malformed state."""
    try:
        version, internal, gauss = data
        rng = random.Random()
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed RNG state in saved game: {exc}") from exc
    return rng


def reseed(rng: random.Random, source: random.Random) -> None:
    """Reseed ``rng`` in place from ``source`` (used by ``sample_hidden`` so a search bot never
    sees the real future chance outcomes)."""
    rng.seed(source.getrandbits(64))
