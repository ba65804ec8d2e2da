"""Registry of the suite's games: one :class:`GameEntry` record per game, and the name resolution
built on it.

``make_game("garda3", variant="royale")`` builds a configured ``Game``; game records use it to
replay. Games register lazily (by import path) so importing the core imports no game.

Everything the package knows about a game by its name is in its record (:data:`ENTRIES`): the
factory, the env module (and its retired names), the heuristic bot, the pip extra of an optional
game and the variants the default test run checks (:mod:`card_envs.testing.variants`). The
dicts :data:`GAMES`, :data:`ENV_MODULES`, :data:`HEURISTICS` and :data:`GAME_EXTRAS` are views
of the records, built once by :func:`register` (kept for callers; a test may patch them).

Game specs (:func:`resolve_game`): a registry name (``"garda3"``) or ``"package.module:factory"``
for a game outside the registry (the factory takes the config keywords, like ``make_game``);
:func:`import_attr` resolves a ``"package.module:name"``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from card_envs.core.errors import CardEnvsError, ConfigError, first_line


@dataclass(frozen=True)
class GameEntry:
    """One game of the registry.

    Attributes:
        name: the registry name (``"garda3"``), also ``Game.name``.
        factory: ``"module:function"`` building the Game from config keyword arguments.
        env_module: the PettingZoo env module exposing ``env()`` / ``raw_env``
            (``"card_envs.garda3_v1"``).
        heuristic: ``"module:class"`` of the rule-based bot (``act(game, state, player)``), or
            ``None``.
        variants: the configs (a dict each) the default test run checks (conformance, golden
            playthroughs, text views).
        retired: former env-module names (``"garda3_v0"``); ``card_envs.<old>`` raises an
            ImportError naming :attr:`env_module`.
        extra: the pip extra (``pip install "card-envs[<extra>]"``) an optional game's modules
            need; ``""``: a core game (its import failing is an error).
    """

    name: str
    factory: str
    env_module: str
    heuristic: str | None = None
    variants: tuple[dict, ...] = ({},)
    retired: tuple[str, ...] = ()
    extra: str = ""

    @property
    def env_name(self) -> str:
        """The env module's own name (``"garda3_v1"``)."""
        return self.env_module.rpartition(".")[2]


#: every game of the suite, one record each (the variants: the configs the default run checks)
ENTRIES: dict[str, GameEntry] = {}

#: game name -> "module:function" that builds the Game from config keyword arguments
GAMES: dict[str, str] = {}
#: game name -> env module exposing ``env()`` / ``raw_env``
ENV_MODULES: dict[str, str] = {}
#: game name -> "module:class" of the game's rule-based heuristic bot (``act(game, state, player)``)
HEURISTICS: dict[str, str] = {}
#: game name -> the pip extra (``pip install "card-envs[<extra>]"``) its modules need, for games
#: that are optional; empty: every game of the suite is core (its import failing is an error)
GAME_EXTRAS: dict[str, str] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add ``entry`` to :data:`ENTRIES` and the views (:data:`GAMES`...).

    Raises:
        ConfigError: a game of that name is registered already.
    """
    if entry.name in ENTRIES:
        raise ConfigError(f"game {entry.name!r} is registered already")
    ENTRIES[entry.name] = entry
    GAMES[entry.name] = entry.factory
    ENV_MODULES[entry.name] = entry.env_module
    if entry.heuristic is not None:
        HEURISTICS[entry.name] = entry.heuristic
    if entry.extra:
        GAME_EXTRAS[entry.name] = entry.extra
    return entry


register(GameEntry(
    "garda3", "card_envs.garda3.rules:make_game", "card_envs.garda3_v1",
    "card_envs.garda3.bot:HeuristicBot",
    variants=(
        {"variant": "classic"}, {"variant": "royale"}, {"variant": "resurrection"},
        {"variant": "night"}, {"variant": "free_for_all"}, {"variant": "royale+night"},
        {"variant": "resurrection+night+royale"}, {"variant": "free_for_all+resurrection"},
        {"fighter_selection": "random"}, {"fighter_selection": "own_sets"},
        {"fighter_selection": "own_sets", "variant": "free_for_all"},
        {"piebald_is_wild": True, "allow_empty_defence": True},
        {"split_defence_needs_split_attack": False},
        {"attacker_must_play": False, "counter_attack_optional": True},
        {"max_rounds": 3},
    ),
    retired=("garda3_v0",)))
register(GameEntry(
    "scratch_wars", "card_envs.scratch_wars.rules:make_game", "card_envs.scratch_wars_v2",
    "card_envs.scratch_wars.bot:HeuristicBot",
    variants=({"level": 1}, {"level": 2}, {"level": 2, "effects": "attack_only"}, {"level": 3}),
    retired=("scratch_wars_v0", "scratch_wars_v1")))
register(GameEntry(
    "dirt_and_glory", "card_envs.dirt_and_glory.rules:make_game", "card_envs.dirt_and_glory_v1",
    "card_envs.dirt_and_glory.bot:HeuristicBot",
    variants=(
        {"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
        {"num_players": 3, "reward": "score"},
        {"num_players": 5, "first_card_value": "high"},
        {"num_players": 3, "draft_return": "discard"},
        {"num_players": 2, "first_card_ability": False, "territory_selection": "first"},
    ),
    retired=("dirt_and_glory_v0",)))
register(GameEntry(
    "rust_brawl", "card_envs.rust_brawl.rules:make_game", "card_envs.rust_brawl_v1",
    "card_envs.rust_brawl.bot:HeuristicBot",
    variants=(
        {}, {"decks": "random"},
        {"decks": "random", "open_decklists": False, "equipment_per_character": 2,
         "paralysis_turns": 2},
        {"empty_deck": "lose", "heal_self": False, "attacker_leaves_cover_first": False,
         "stalemate_turns": 1, "stalemate_repeats": False},
    ),
    retired=("rust_brawl_v0",)))

register(GameEntry(
    "leduc_holdem", "card_envs.leduc_holdem.rules:make_game", "card_envs.leduc_holdem_v0",
    "card_envs.leduc_holdem.bot:HeuristicBot",
    variants=({}, {"max_raises": 1}, {"ante": 2, "first_raise": 3, "second_raise": 6,
                                       "max_raises": 3})))


def retired_env_names() -> dict[str, str]:
    """Retired env-module name -> the registered env module's name that replaced it."""
    return {old: e.env_name for e in ENTRIES.values() for old in e.retired}


def make_heuristic(name: str, **kwargs: Any):
    """The named game's heuristic bot (a policy with ``act(game, state, player)``)."""
    if name not in HEURISTICS:
        raise ConfigError(f"no heuristic bot for game {name!r}; known: {sorted(HEURISTICS)}")
    return _resolve(HEURISTICS[name])(**kwargs)


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


# -- names given as strings: "package.module:name" and game specs ------------------------------
def import_attr(target: str):
    """The attribute named by ``"package.module:name"``.

    Raises:
        ConfigError: not of that form, the module does not import, or it has no such name.
    """
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise ConfigError(f"{target!r} is not of the form 'package.module:name'")
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"cannot import module {module!r} of {target!r}: "
                          f"{type(exc).__name__}: {exc}") from None
    try:
        return getattr(mod, attr)
    except AttributeError:
        raise ConfigError(f"{target!r}: module {module!r} has no attribute {attr!r}") from None


#: what a game object must have to be played (the Game contract's methods the evaluation uses)
GAME_METHODS = ("new_state", "current_player", "legal_actions", "apply_action", "is_terminal",
                "returns", "num_players", "num_actions")


def resolve_game(spec: str, config: dict[str, Any] | None = None):
    """Build the game named by ``spec`` (a registry name or ``"package.module:factory"``) with
    ``config`` keywords.

    Raises:
        ConfigError: an unknown game name, an unimportable ``module:factory``, a factory that is
            not callable, cannot be called with the config, or does not build a Game, a bad
            config field.
    """
    if config is not None and not isinstance(config, dict):
        raise ConfigError(f"a game config must be a JSON object (dict), got {config!r}")
    config = dict(config or {})
    if ":" in spec:
        factory = import_attr(spec)
        hint = "name a game factory such as card_envs.garda3.rules:make_game"
        if not callable(factory):
            raise ConfigError(f"{spec!r} is a {type(factory).__name__}, not a game factory; {hint}")
        try:
            game = factory(**config)
        except CardEnvsError:
            raise
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{spec!r} is not a game factory taking the config {config}: "
                              f"{type(exc).__name__}: {first_line(exc)}; {hint}") from None
        missing = [m for m in GAME_METHODS if not hasattr(game, m)]
        if missing:
            raise ConfigError(f"{spec!r} did not build a card-envs Game (it has no {missing}); "
                              f"{hint}")
        return game
    return make_game(spec, **config)


__all__ = ["ENTRIES", "ENV_MODULES", "GAMES", "GAME_EXTRAS", "GAME_METHODS", "HEURISTICS",
           "GameEntry", "available_games", "env_module", "import_attr", "make_game",
           "make_heuristic", "register", "resolve_game", "retired_env_names"]
