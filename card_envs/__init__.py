"""card-envs: PettingZoo AEC environments for four Czech card games over one shared core.

``from card_envs import garda3_v1`` then ``garda3_v1.env(...)``. Env modules import lazily, so
``import card_envs`` stays cheap and a game that is not built yet does not break the others.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_ENV_MODULES = ("garda3_v1", "scratch_wars_v1", "dirt_and_glory_v1")

__all__ = list(_ENV_MODULES)


def __getattr__(name: str):
    if name in _ENV_MODULES:
        return importlib.import_module(f"card_envs.{name}")
    raise AttributeError(f"module 'card_envs' has no attribute {name!r}")
