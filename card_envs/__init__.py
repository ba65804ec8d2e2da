"""card-envs: PettingZoo AEC environments for Czech card games over one shared core: Garda3,
Scratch Wars (duel), Dirt and Glory and Rust Brawl — and any game registered beside them.

``from card_envs import garda3_v1`` then ``garda3_v1.env(...)``. Env modules import lazily, so
``import card_envs`` stays cheap (the names come from the game records of
:mod:`card_envs.core.registry`, read at the first lookup; a game of another package registered
through the ``card_envs.games`` entry point is ``card_envs.<its env module's name>`` too).
Versions follow PettingZoo's convention: a default that changes how a game plays bumps the
module's ``_vN``; an old name raises an ImportError that names its replacement and where its
version history is.

The registration API, re-exported from :mod:`card_envs.core.registry`:
``card_envs.register_game(name, factory, env_module, heuristic, variants=...)``,
``card_envs.GameEntry`` and ``card_envs.registered_games()`` (``docs/adding_a_game.md``).
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: the registry's public names served from here (imported on first use)
_REGISTRY_API = ("GameEntry", "register_game", "registered_games")


def _env_modules() -> dict[str, str]:
    """Env-module name (``garda3_v1``...) -> its module path, registry order."""
    from card_envs.core.registry import env_modules_by_name

    return env_modules_by_name()


def __getattr__(name: str):
    if name == "__all__":  # the env modules (``from card_envs import *``)
        return list(_env_modules())
    if name.startswith("__"):
        raise AttributeError(f"module 'card_envs' has no attribute {name!r}")
    if name in _REGISTRY_API:
        from card_envs.core import registry

        return getattr(registry, name)
    module = _env_modules().get(name)
    if module is not None:
        return importlib.import_module(module)
    from card_envs.core.registry import retired_env_names

    new = retired_env_names().get(name)
    if new is not None:
        raise ImportError(f"card_envs.{name} was replaced by card_envs.{new} (a rules default "
                          f"changed how the game plays, or its observation changed; see the "
                          f"version history in card_envs.{new}'s docstring)")
    raise AttributeError(f"module 'card_envs' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_env_modules(), *_REGISTRY_API})
