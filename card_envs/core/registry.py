"""Registry of the suite's games: name -> game factory and env module.

``make_game("garda3", variant="royale")`` builds a configured ``Game``; game records use it to
replay. Games register lazily (by import path) so importing the core imports no game.
"""

from __future__ import annotations

import importlib
from typing import Any

from card_envs.core.errors import ConfigError

#: game name -> "module:function" that builds the Game from config keyword arguments
GAMES: dict[str, str] = {
    "garda3": "card_envs.garda3.rules:make_game",
    "scratch_wars": "card_envs.scratch_wars.rules:make_game",
    "dirt_and_glory": "card_envs.dirt_and_glory.rules:make_game",
    "rust_brawl": "card_envs.rust_brawl.rules:make_game",
}

#: game name -> env module exposing ``env()`` / ``raw_env``
ENV_MODULES: dict[str, str] = {
    "garda3": "card_envs.garda3_v1",
    "scratch_wars": "card_envs.scratch_wars_v2",
    "dirt_and_glory": "card_envs.dirt_and_glory_v1",
    "rust_brawl": "card_envs.rust_brawl_v1",
}


#: game name -> "module:class" of the game's rule-based heuristic bot (``act(game, state, player)``)
HEURISTICS: dict[str, str] = {
    "garda3": "card_envs.garda3.bot:HeuristicBot",
    "scratch_wars": "card_envs.scratch_wars.bot:HeuristicBot",
    "dirt_and_glory": "card_envs.dirt_and_glory.bot:HeuristicBot",
    "rust_brawl": "card_envs.rust_brawl.bot:HeuristicBot",
}


def make_heuristic(name: str, **kwargs: Any):
    """The named game's heuristic bot (a policy with ``act(game, state, player)``)."""
    if name not in HEURISTICS:
        raise ConfigError(f"no heuristic bot for game {name!r}; known: {sorted(HEURISTICS)}")
    return _resolve(HEURISTICS[name])(**kwargs)


#: game name -> the pip extra (``pip install "card-envs[<extra>]"``) its modules need, for games
#: that are optional; empty: every game of the suite is core (its import failing is an error)
GAME_EXTRAS: dict[str, str] = {}


def available_games() -> list[str]:
    """Names of the registered games whose modules import in this installation.

    Only a game of :data:`GAME_EXTRAS` whose extra is not installed (a third-party module not
    found) is skipped; any other import failure is a broken installation.

    Raises:
        ImportError: naming the game, its module and the original ImportError.
    """
    out = []
    for name, target in GAMES.items():
        module = target.split(":")[0]
        try:
            importlib.import_module(module)
        except ImportError as exc:
            missing = exc.name if isinstance(exc, ModuleNotFoundError) else None
            if (name in GAME_EXTRAS and missing
                    and missing.partition(".")[0] != "card_envs"):  # the optional extra is absent
                continue
            raise ImportError(f"game {name!r}: module {module!r} failed to import: "
                              f"{type(exc).__name__}: {exc}") from exc
        out.append(name)
    return out


def _resolve(target: str):
    module, func = target.split(":")
    return getattr(importlib.import_module(module), func)


def make_game(name: str, /, **config: Any):
    """Build the named game with the given config fields; ConfigError names an unknown game.

    ``name`` is positional-only, so a config field of any name (even ``name``) goes to the
    game's config, whose check names a field it does not have."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; known games: {sorted(GAMES)}")
    return _resolve(GAMES[name])(**config)


def env_module(name: str):
    """The env module (``garda3_v1``...) of the named game."""
    if name not in ENV_MODULES:
        raise ConfigError(f"unknown game {name!r}; known games: {sorted(ENV_MODULES)}")
    return importlib.import_module(ENV_MODULES[name])
