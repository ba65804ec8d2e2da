"""Registry of the games: one :class:`GameEntry` record per game, the public registration API
(:func:`register_game`), the discovery of games in other installed packages (the
``card_envs.games`` entry-point group) and the name resolution built on it.

``make_game("garda3", variant="royale")`` builds a configured ``Game``; game records replay by
it. Games register by import path (strings), so importing the core imports no game.

Everything the package knows about a game by its name is in its record: the factory, the env
module (and its retired names), the heuristic bot, the pip extra of an optional game and the
variants the default test run checks (:mod:`card_envs.testing.variants`). Every list of the
games reads the records: ``card_envs.<env module>``, the CLI (``card-envs games``, ``--game``,
``play``, ``replay``), game records, the Gymnasium ids (:mod:`card_envs.wrappers`), the variants
and the generic tests. Three ways in, all ending in :func:`register`:

- the suite's own games: :data:`BUILTIN_GAMES` (a new game of this package is one more record
  there);
- :func:`register_game` at run time (a script, a notebook, a test);
- a game in its own package declares an entry point in the group :data:`ENTRY_POINT_GROUP`
  (``card_envs.games``), named as the game, whose object is its :class:`GameEntry` (or a function
  without arguments returning it), as Gymnasium's plugins declare ``gymnasium.envs``. In its
  ``pyproject.toml``::

      [project.entry-points."card_envs.games"]
      my_game = "my_game:GAME_ENTRY"

  The group is read once, at the first lookup of the registry (:func:`load_plugins`); a plugin
  that fails to load (its module raises, its object is no ``GameEntry``, its name is taken) is
  skipped with one :class:`PluginWarning` naming the entry point and its distribution, and the
  unknown-game error for that name repeats why (:func:`plugin_errors`).

The mappings ``ENTRIES`` (name -> :class:`GameEntry`), ``GAMES`` (name -> factory),
``ENV_MODULES`` (name -> env module), ``HEURISTICS`` (name -> heuristic bot) and ``GAME_EXTRAS``
(name -> pip extra of an optional game) are views of the records in registration order, kept by
:func:`register` (a test may patch them); reading one of them (``registry.GAMES``, ``from
card_envs.core.registry import GAMES``) loads the plugins first.

Game specs (:func:`resolve_game`): a registry name (``"garda3"``) or ``"package.module:factory"``
for a game outside the registry (the factory takes the config keywords, like ``make_game``);
:func:`import_attr` resolves a ``"package.module:name"``.
"""

from __future__ import annotations

import importlib
import re
import warnings
from dataclasses import dataclass, field, replace
from typing import Any

from card_envs.core.errors import CardEnvsError, ConfigError, first_line

#: the entry-point group a package declares its games in (module docstring)
ENTRY_POINT_GROUP = "card_envs.games"

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*\Z")
_TARGET = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*\Z")


class PluginWarning(UserWarning):
    """A game plugin (an entry point of :data:`ENTRY_POINT_GROUP`) failed to load and was
    skipped; the message names the entry point, its distribution and the error."""


@dataclass(frozen=True)
class GameEntry:
    """One game of the registry (checked when built: :class:`ConfigError` naming the entry and
    the field).

    Attributes:
        name: the registry name (``"garda3"``): lower-case letters, digits and ``_``, starting
            with a letter; also ``Game.name`` (records replay by it; :func:`make_game` checks).
        factory: ``"package.module:function"`` building the Game from config keyword arguments.
        env_module: the PettingZoo env module exposing ``env()`` / ``raw_env``
            (``"card_envs.garda3_v1"``; a game of another package names its own,
            ``"my_game.my_game_v0"``), or ``""``: none (``card_envs.<name>_vN`` and
            :func:`env_module` then name the game as having none).
        heuristic: ``"package.module:Class"`` of the rule-based bot (``act(game, state,
            player)``), or ``None``.
        variants: the configs (a dict each; ``{}`` the defaults) the default test run checks
            (conformance, golden playthroughs, text views), a tuple.
        retired: former env-module names (``"garda3_v0"``); ``card_envs.<old>`` raises an
            ImportError naming :attr:`env_module`.
        extra: the pip extra (``pip install "card-envs[<extra>]"``) an optional game's modules
            need; ``""``: a core game (its import failing is an error).
        origin: who registered it, for messages: ``""`` the code (this package or a
            :func:`register_game` call); for a plugin, its entry point and distribution (set
            by :func:`load_plugins`, as is ``distribution``, the plugin's distribution name).

    Raises:
        ConfigError: a name, import path, variant or retired name of the wrong form, naming the
            entry (and its origin) and the field.
    """

    name: str
    factory: str
    env_module: str = ""
    heuristic: str | None = None
    variants: tuple[dict, ...] = ({},)
    retired: tuple[str, ...] = ()
    extra: str = ""
    origin: str = field(default="", compare=False)
    distribution: str = field(default="", compare=False)

    def __post_init__(self):
        def bad(what: str) -> ConfigError:
            return ConfigError(f"game entry {self.name!r}{_from(self.origin)}: {what}")

        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ConfigError(f"game entry{_from(self.origin)}: name {self.name!r} must be "
                              "lower-case letters, digits and _, starting with a letter "
                              "(e.g. 'my_game')")
        if not isinstance(self.factory, str) or not _TARGET.match(self.factory):
            raise bad(f"factory {self.factory!r} is not of the form 'package.module:function' "
                      "(e.g. 'my_game.rules:make_game')")
        if not isinstance(self.env_module, str) or (
                self.env_module and not _MODULE.match(self.env_module)):
            raise bad(f"env_module {self.env_module!r} is not a module path such as "
                      "'my_game.my_game_v0' (or '' for none)")
        if self.heuristic is not None and (
                not isinstance(self.heuristic, str) or not _TARGET.match(self.heuristic)):
            raise bad(f"heuristic {self.heuristic!r} is not of the form 'package.module:Class' "
                      "(or None)")
        if isinstance(self.variants, (str, bytes, dict)) or not hasattr(self.variants, "__iter__"):
            raise bad(f"variants {self.variants!r} must be a tuple of config dicts, e.g. "
                      "({}, {'num_players': 3})")
        variants = tuple(self.variants)
        for i, config in enumerate(variants):
            if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
                raise bad(f"variants[{i}] = {config!r} is not a config dict (field name -> "
                          "value)")
        retired = (self.retired,) if isinstance(self.retired, str) else tuple(self.retired)
        for old in retired:
            if not isinstance(old, str) or not _NAME.match(old):
                raise bad(f"retired name {old!r} is not an env-module name such as "
                          "'my_game_v0'")
        if not isinstance(self.extra, str):
            raise bad(f"extra {self.extra!r} must be a pip extra's name or ''")
        object.__setattr__(self, "variants", tuple(dict(c) for c in variants))
        object.__setattr__(self, "retired", retired)

    @property
    def env_name(self) -> str:
        """The env module's own name (``"garda3_v1"``; ``""`` without an env module)."""
        return self.env_module.rpartition(".")[2]

    @property
    def described(self) -> str:
        """``"game 'x'"`` and, for a plugin, where it comes from: how messages name it."""
        return f"game {self.name!r}{_from(self.origin)}"


def _from(origin: str) -> str:
    return f" (from {origin})" if origin else ""


#: the suite's own games, registered in this order when the module is imported (a new game of
#: this package: one more record at the end)
BUILTIN_GAMES: tuple[GameEntry, ...] = (
    GameEntry(
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
        retired=("garda3_v0",)),
    GameEntry(
        "scratch_wars", "card_envs.scratch_wars.rules:make_game", "card_envs.scratch_wars_v2",
        "card_envs.scratch_wars.bot:HeuristicBot",
        variants=({"level": 1}, {"level": 2}, {"level": 2, "effects": "attack_only"},
                  {"level": 3}),
        retired=("scratch_wars_v0", "scratch_wars_v1")),
    GameEntry(
        "dirt_and_glory", "card_envs.dirt_and_glory.rules:make_game",
        "card_envs.dirt_and_glory_v1", "card_envs.dirt_and_glory.bot:HeuristicBot",
        variants=(
            {"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
            {"num_players": 3, "reward": "score"},
            {"num_players": 5, "first_card_value": "high"},
            {"num_players": 3, "draft_return": "discard"},
            {"num_players": 2, "first_card_ability": False, "territory_selection": "first"},
        ),
        retired=("dirt_and_glory_v0",)),
    GameEntry(
        "rust_brawl", "card_envs.rust_brawl.rules:make_game", "card_envs.rust_brawl_v1",
        "card_envs.rust_brawl.bot:HeuristicBot",
        variants=(
            {}, {"decks": "random"},
            {"decks": "random", "open_decklists": False, "equipment_per_character": 2,
             "paralysis_turns": 2},
            {"empty_deck": "lose", "heal_self": False, "attacker_leaves_cover_first": False,
             "stalemate_turns": 1, "stalemate_repeats": False},
        ),
        retired=("rust_brawl_v0",)),
)

# The records and their views (module docstring): served by __getattr__ below, which loads the
# plugins before the first read.
_ENTRIES: dict[str, GameEntry] = {}
_GAMES: dict[str, str] = {}
_ENV_MODULES: dict[str, str] = {}
_HEURISTICS: dict[str, str] = {}
_GAME_EXTRAS: dict[str, str] = {}
_VIEWS = {"ENTRIES": _ENTRIES, "GAMES": _GAMES, "ENV_MODULES": _ENV_MODULES,
          "HEURISTICS": _HEURISTICS, "GAME_EXTRAS": _GAME_EXTRAS}


def __getattr__(name: str):
    view = _VIEWS.get(name)
    if view is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    load_plugins()
    return view


def register(entry: GameEntry) -> GameEntry:
    """Add ``entry`` to the registry (and its views); returns it.

    Raises:
        ConfigError: naming both records: a game of that name is registered already, or its env
            module's name (or a retired name) is another game's.
    """
    if not isinstance(entry, GameEntry):
        raise ConfigError(f"register() takes a GameEntry, got {type(entry).__name__} "
                          f"{entry!r}; or call register_game(name, factory, ...)")
    old = _ENTRIES.get(entry.name)
    if old is not None:
        raise ConfigError(f"{entry.described} is registered already, as {old.described} with "
                          f"factory {old.factory!r}; a game name is registered once")
    names = {entry.env_name, *entry.retired} - {""}
    for other in _ENTRIES.values():
        taken = names & {other.env_name, *other.retired}
        if taken:
            raise ConfigError(f"{entry.described}: env-module name {sorted(taken)[0]!r} is "
                              f"taken by {other.described}")
    _ENTRIES[entry.name] = entry
    _GAMES[entry.name] = entry.factory
    if entry.env_module:
        _ENV_MODULES[entry.name] = entry.env_module
    if entry.heuristic is not None:
        _HEURISTICS[entry.name] = entry.heuristic
    if entry.extra:
        _GAME_EXTRAS[entry.name] = entry.extra
    return entry


def register_game(name: str, factory: str, env_module: str = "", heuristic: str | None = None,
                  *, variants=({},), retired=(), extra: str = "") -> GameEntry:
    """Register a game under ``name`` (the public API; the fields: :class:`GameEntry`). From
    then on the name is a game spec everywhere (``make_game``, ``card-envs evaluate --game``,
    records and their replay, ``card_envs.<env module name>``, the variants the generic tests
    run, the Gymnasium id after ``card_envs.wrappers.register_gymnasium_ids()``). Nothing is
    imported here: the factory is imported and checked when the game is first built
    (:func:`make_game`, :func:`check_entry`). A game of another package registers through the
    ``card_envs.games`` entry point instead, so every process (the CLI too) finds it.

    Example::

        register_game("my_game", "my_game.rules:make_game", "my_game.my_game_v0",
                      "my_game.bot:HeuristicBot", variants=({}, {"num_players": 3}))

    Returns:
        the registered :class:`GameEntry`.

    Raises:
        ConfigError: naming the entry: a field of the wrong form (:class:`GameEntry`), the name
            taken, or its env-module name taken (:func:`register`).
    """
    load_plugins()  # a name a plugin holds is refused here, not later in the plugin
    return register(GameEntry(name, factory, env_module, heuristic, variants=variants,
                              retired=retired, extra=extra))


for _entry in BUILTIN_GAMES:
    register(_entry)
del _entry


# -- plugins: games of other packages (the card_envs.games entry-point group) ------------------
_PLUGINS: dict[str, Any] = {"loaded": False}
_PLUGIN_ERRORS: dict[str, str] = {}


def _entry_point_origin(ep) -> tuple[str, str]:
    """How messages name the entry point ``ep``, and its distribution's name (``""``: none)."""
    dist = getattr(ep, "dist", None)
    where = f" of distribution {dist.name!r} {dist.version}" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value}{where}", dist.name if dist is not None else ""


def load_plugins() -> None:
    """Register the games of the entry-point group :data:`ENTRY_POINT_GROUP`, once per process
    (every lookup of the registry calls this; later calls return at once). Each entry point is
    named as its game and its object is a :class:`GameEntry` or a function without arguments
    returning one; it is registered with its origin (entry point and distribution).

    A plugin that fails is skipped with a :class:`PluginWarning` naming it (its module raising,
    an object of another kind, a name other than its entry point's, a name or env module
    taken); :func:`plugin_errors` keeps why, and the unknown-game error repeats it.
    """
    if _PLUGINS["loaded"]:
        return
    _PLUGINS["loaded"] = True  # first: a plugin reading the registry while it loads
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        origin, distribution = _entry_point_origin(ep)
        try:
            obj = ep.load()
            entry = obj() if callable(obj) and not isinstance(obj, GameEntry) else obj
            if not isinstance(entry, GameEntry):
                raise ConfigError(f"it gave a {type(entry).__name__}, not a "
                                  "card_envs.core.registry.GameEntry (or a function returning "
                                  "one)")
            if entry.name != ep.name:
                raise ConfigError(f"its GameEntry is named {entry.name!r}: the entry point "
                                  "must be named as its game")
            register(replace(entry, origin=origin, distribution=distribution))
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the package
            why = f"{type(exc).__name__}: {first_line(exc, 300)}"
            _skip_plugin(ep.name, f"game plugin {origin} ({ENTRY_POINT_GROUP}) failed to "
                                  f"load and is skipped: {why}")


def _skip_plugin(name: str, message: str) -> None:
    _PLUGIN_ERRORS.setdefault(name, message)
    warnings.warn(message, PluginWarning, stacklevel=3)


def plugin_errors() -> dict[str, str]:
    """Game name -> why its plugin was skipped (loading, or importing its modules in
    :func:`available_games`); empty when every plugin loaded."""
    load_plugins()
    return dict(_PLUGIN_ERRORS)


def registered_games(*, available: bool = True) -> list[GameEntry]:
    """The registered games' records (:class:`GameEntry`), in registration order (the suite's
    own, then :func:`register_game` calls and plugins as they came): what the generic tests and
    tools iterate over (each record's :attr:`~GameEntry.variants` are the configs to check;
    :func:`game_facts` gives a config's declared facts).

    Args:
        available: only the games whose modules import in this installation
            (:func:`available_games`); ``False``: every record.

    Raises:
        ImportError: as :func:`available_games` (a game of this package fails to import).
    """
    load_plugins()
    names = available_games() if available else list(_ENTRIES)
    return [_ENTRIES[name] for name in names if name in _ENTRIES]


def game_facts(name: str, /, **config: Any):
    """The declared facts (:class:`card_envs.core.game.GameFacts`: seats, utility range and
    units, zero-sum, chance, perfect information, maximum game length, capabilities) of the
    named game built with ``config`` (a config may change a fact: Dirt and Glory's
    ``reward="score"`` its utility).

    Raises:
        ConfigError: an unknown game or a bad config field (as :func:`make_game`).
    """
    return make_game(name, **config).facts

register(GameEntry(
    "leduc_holdem", "card_envs.leduc_holdem.rules:make_game", "card_envs.leduc_holdem_v0",
    "card_envs.leduc_holdem.bot:HeuristicBot",
    variants=({}, {"max_raises": 1}, {"ante": 2, "first_raise": 3, "second_raise": 6,
                                       "max_raises": 3})))


def retired_env_names() -> dict[str, str]:
    """Retired env-module name -> the registered env module's name that replaced it."""
    load_plugins()
    return {old: e.env_name for e in _ENTRIES.values() for old in e.retired}


def env_modules_by_name() -> dict[str, str]:
    """Env-module name (``"garda3_v1"``) -> its module path (``"card_envs.garda3_v1"``; a
    plugin's is in its own package), every registered game that has one, registry order: what
    ``card_envs.<name>`` imports."""
    load_plugins()
    return {e.env_name: e.env_module for e in _ENTRIES.values() if e.env_module}


def _described(name: str) -> str:
    entry = _ENTRIES.get(name)
    return entry.described if entry is not None else f"game {name!r}"


def _unknown(name: str) -> ConfigError:
    why = _PLUGIN_ERRORS.get(name)
    if why is not None:
        return ConfigError(f"unknown game {name!r}: its {why}")
    return ConfigError(f"unknown game {name!r}; known games: {sorted(_GAMES)} (a game of "
                       f"another package is found through its {ENTRY_POINT_GROUP!r} entry "
                       "point once that package is installed)")


def _resolve_entry(name: str, what: str, target: str):
    """``target`` (the ``what`` of game ``name``) imported; ConfigError naming the game, its
    origin and the target otherwise."""
    try:
        return import_attr(target)
    except ConfigError as exc:
        raise ConfigError(f"{_described(name)}: its {what} {target!r} does not resolve: "
                          f"{exc}") from None
    except Exception as exc:  # another package's module raising on import: name it, no traceback
        if not _is_plugin(name):
            raise
        raise ConfigError(f"{_described(name)}: importing its {what} {target!r} raised "
                          f"{type(exc).__name__}: {first_line(exc)}") from None


def _is_plugin(name: str) -> bool:
    entry = _ENTRIES.get(name)
    return entry is not None and bool(entry.origin)


def make_heuristic(name: str, **kwargs: Any):
    """The named game's heuristic bot (a policy with ``act(game, state, player)``).

    Raises:
        ConfigError: the game has none, or its ``heuristic`` path does not import (naming the
            game and the path).
    """
    load_plugins()
    if name not in _HEURISTICS:
        raise ConfigError(f"no heuristic bot for game {name!r}; known: {sorted(_HEURISTICS)}")
    return _resolve_entry(name, "heuristic", _HEURISTICS[name])(**kwargs)


def available_games() -> list[str]:
    """Names of the registered games whose modules import in this installation, in
    registration order.

    Skipped: a game of :data:`GAME_EXTRAS` whose extra is not installed (a third-party module
    not found), and a plugin's game whose module fails to import (with a
    :class:`PluginWarning` naming the game and its entry point, kept by
    :func:`plugin_errors`). Any other import failure is a broken installation.

    Raises:
        ImportError: naming the game, its module and the original ImportError.
    """
    load_plugins()
    out = []
    for name, target in _GAMES.items():
        module = target.split(":")[0]
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 - a plugin's module may raise anything
            entry = _ENTRIES.get(name)
            why = f"module {module!r} failed to import: {type(exc).__name__}: {first_line(exc)}"
            if entry is not None and entry.origin:  # another package's game: skip it, say why
                _skip_plugin(name, f"{entry.described} is skipped: its {why}")
                continue
            if not isinstance(exc, ImportError):
                raise
            missing = exc.name if isinstance(exc, ModuleNotFoundError) else None
            if (name in _GAME_EXTRAS and missing
                    and missing.partition(".")[0] != "card_envs"):  # the optional extra is absent
                continue
            raise ImportError(f"game {name!r}: module {module!r} failed to import: "
                              f"{type(exc).__name__}: {exc}") from exc
        out.append(name)
    return out


def make_game(name: str, /, **config: Any):
    """Build the named game with the given config fields.

    ``name`` is positional-only, so a config field of any name (even ``name``) goes to the
    game's config, whose check names a field it does not have.

    Raises:
        ConfigError: an unknown game (a plugin skipped for that name: why); its factory does
            not import, or builds a game whose ``name`` is not the registry name (records
            replay by it) or that declares not every fact
            (:class:`~card_envs.core.game.GameFacts`), each naming the game and its origin; a
            bad config field (the game's config check).
    """
    load_plugins()
    if name not in _GAMES:
        raise _unknown(name)
    factory = _resolve_entry(name, "factory", _GAMES[name])
    try:
        game = factory(**config)
    except CardEnvsError:
        raise
    except Exception as exc:  # noqa: BLE001 - another package's factory: named, no traceback
        if not _is_plugin(name):
            raise
        raise ConfigError(f"{_described(name)}: its factory {_GAMES[name]!r} raised "
                          f"{type(exc).__name__}: {first_line(exc)} (config {config})") from None
    built = getattr(game, "name", None)
    if built != name:
        raise ConfigError(f"{_described(name)}: its factory {_GAMES[name]!r} built a game named "
                          f"{built!r}: a registered game's Game.name must be its registry name "
                          "(game records replay by it)")
    try:
        game.facts
    except (TypeError, AttributeError) as exc:
        raise ConfigError(f"{_described(name)}: {first_line(exc)}") from None
    return game


def check_entry(name: str) -> GameEntry:
    """Import every path of the named game's record and build its default game and every
    variant (:func:`make_game`'s checks), the heuristic bot and the env module: what a test of
    a new registration runs. Returns the record.

    Raises:
        ConfigError: the first path that does not resolve or config that does not build,
            naming the game, its origin and the path or variant.
    """
    load_plugins()
    if name not in _ENTRIES:
        raise _unknown(name)
    entry = _ENTRIES[name]
    for config in ({}, *entry.variants):
        try:
            make_game(name, **config)
        except ConfigError as exc:
            raise ConfigError(f"{entry.described}: variant {config}: {exc}") from None
    if entry.heuristic is not None:
        make_heuristic(name)
    if entry.env_module:
        env_module(name)
    return entry


def env_module(name: str):
    """The env module (``garda3_v1``...) of the named game.

    Raises:
        ConfigError: an unknown game, a game without an env module, or one that does not import
            (naming the game, its origin and the module).
    """
    load_plugins()
    if name not in _GAMES:
        raise _unknown(name)
    if name not in _ENV_MODULES:
        raise ConfigError(f"{_described(name)} declares no env module (GameEntry.env_module); "
                          "wrap it with card_envs.core.aec.make_env_functions")
    module = _ENV_MODULES[name]
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ConfigError(f"{_described(name)}: its env module {module!r} failed to import: "
                          f"{type(exc).__name__}: {first_line(exc)}") from None


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


__all__ = ["BUILTIN_GAMES", "ENTRIES", "ENTRY_POINT_GROUP", "ENV_MODULES", "GAMES", "GAME_EXTRAS",
           "GAME_METHODS", "HEURISTICS", "GameEntry", "PluginWarning", "available_games",
           "check_entry", "env_module", "env_modules_by_name", "game_facts", "import_attr",
           "load_plugins", "make_game", "make_heuristic", "plugin_errors", "register",
           "register_game", "registered_games", "resolve_game", "retired_env_names"]
