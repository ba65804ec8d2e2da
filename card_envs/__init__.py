"""card-envs: PettingZoo AEC environments for Czech card games over one shared core: Garda3,
Scratch Wars (duel), Dirt and Glory and Rust Brawl.

``from card_envs import garda3_v1`` then ``garda3_v1.env(...)``. Env modules import lazily, so
``import card_envs`` stays cheap (the names come from the game records of
:mod:`card_envs.core.registry`, read at the first lookup). Versions follow PettingZoo's
convention: a default that changes how a game plays bumps the module's ``_vN``; an old name
raises an ImportError that names its replacement and where its version history is.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"


def _env_names() -> list[str]:
    """The env modules of the registered games (``garda3_v1``...), registry order."""
    from card_envs.core.registry import ENTRIES

    return [entry.env_name for entry in ENTRIES.values()]


def __getattr__(name: str):
    if name == "__all__":
        return _env_names()
    if name.startswith("__"):
        raise AttributeError(f"module 'card_envs' has no attribute {name!r}")
    if name in _env_names():
        return importlib.import_module(f"card_envs.{name}")
    from card_envs.core.registry import retired_env_names

    new = retired_env_names().get(name)
    if new is not None:
        raise ImportError(f"card_envs.{name} was replaced by card_envs.{new} (a rules default "
                          f"changed how the game plays, or its observation changed; see the "
                          f"version history in card_envs.{new}'s docstring)")
    raise AttributeError(f"module 'card_envs' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_env_names()})
