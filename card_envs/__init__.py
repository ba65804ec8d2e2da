"""card-envs: PettingZoo AEC environments for Czech card games over one shared core: Garda3,
Scratch Wars (duel), Dirt and Glory and Rust Brawl.

``from card_envs import garda3_v1`` then ``garda3_v1.env(...)``. Env modules import lazily, so
``import card_envs`` stays cheap. Versions follow PettingZoo's convention: a default that changes
how a game plays bumps the module's ``_vN``; an old name raises an ImportError that names its
replacement and where its version history is.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_ENV_MODULES = ("garda3_v1", "scratch_wars_v2", "dirt_and_glory_v1", "rust_brawl_v1")

#: retired env names -> the module that replaced them
_RETIRED = {"garda3_v0": "garda3_v1", "scratch_wars_v0": "scratch_wars_v2",
            "scratch_wars_v1": "scratch_wars_v2", "dirt_and_glory_v0": "dirt_and_glory_v1",
            "rust_brawl_v0": "rust_brawl_v1"}

__all__ = list(_ENV_MODULES)


def __getattr__(name: str):
    if name in _ENV_MODULES:
        return importlib.import_module(f"card_envs.{name}")
    if name in _RETIRED:
        new = _RETIRED[name]
        raise ImportError(f"card_envs.{name} was replaced by card_envs.{new} (a rules default "
                          f"changed how the game plays, or its observation changed; see the "
                          f"version history in card_envs.{new}'s docstring)")
    raise AttributeError(f"module 'card_envs' has no attribute {name!r}")
