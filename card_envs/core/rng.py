"""Seeded chance: every game draws chance from its state's own ``random.Random``.

Equal seeds and equal actions therefore give equal games, and the RNG state travels with the
game state through ``state_to_dict`` / ``state_from_dict`` (as plain JSON lists).
"""

from __future__ import annotations

import random
from typing import Any

#: a game seed (a record's ``seed``, a saved env state's, ``card-envs play --seed``) is an int in
#: ``0 .. GAME_SEEDS - 1``; ``random.Random`` would take any int, but ``-1`` deals as ``1``
GAME_SEEDS = 2**64
#: how a seed outside the game seeds is refused (after the field's name)
NOT_A_GAME_SEED = "not a game seed (an int in 0..2**64-1)"


def is_game_seed(seed: object) -> bool:
    """``seed`` is an int (not a bool) in ``0 .. GAME_SEEDS - 1``."""
    return seed.__class__ is int and 0 <= seed < GAME_SEEDS  # type: ignore[operator]


def check_reset_seed(seed: object, where: str = "reset") -> int | None:
    """``seed`` of an env's ``reset(seed=...)`` as a Python int (``None`` stays ``None``), as
    Gymnasium accepts it: an int >= 0 (a numpy integer too), never a bool, float or string.

    Raises:
        ConfigError: naming ``where`` and the value.
    """
    import numbers

    from card_envs.core.errors import ConfigError

    if seed is None:
        return None
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and int(seed) >= 0:
        return int(seed)
    raise ConfigError(f"{where}(seed=...): expected None or an int >= 0, got {seed!r} "
                      f"({type(seed).__name__})")


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
