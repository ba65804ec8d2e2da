"""One record per game (issue 19): ``card_envs.core.registry.ENTRIES`` holds each game's name,
factory, env module, heuristic, variants and retired env names; every other list of the games is
read from it."""

from __future__ import annotations

import pytest

import card_envs
from card_envs.core import registry
from card_envs.core.errors import ConfigError
from card_envs.core.registry import ENTRIES, GameEntry
from card_envs.testing.variants import VARIANTS


def test_every_list_of_the_games_is_a_view_of_the_records():
    names = ["garda3", "scratch_wars", "dirt_and_glory", "rust_brawl", "leduc_holdem"]
    assert list(ENTRIES) == names
    assert registry.GAMES == {n: e.factory for n, e in ENTRIES.items()}
    assert registry.ENV_MODULES == {n: e.env_module for n, e in ENTRIES.items()}
    assert registry.HEURISTICS == {n: e.heuristic for n, e in ENTRIES.items()}
    assert registry.GAME_EXTRAS == {}  # every game of the suite is core
    assert VARIANTS == {n: [dict(c) for c in e.variants] for n, e in ENTRIES.items()}
    assert card_envs.__all__ == ["garda3_v1", "scratch_wars_v2", "dirt_and_glory_v1",
                                 "rust_brawl_v1", "leduc_holdem_v0"]
    assert registry.retired_env_names() == {
        "garda3_v0": "garda3_v1", "scratch_wars_v0": "scratch_wars_v2",
        "scratch_wars_v1": "scratch_wars_v2", "dirt_and_glory_v0": "dirt_and_glory_v1",
        "rust_brawl_v0": "rust_brawl_v1"}


@pytest.mark.parametrize("name", list(ENTRIES))
def test_a_record_builds_its_game_env_and_bot(name):
    entry = ENTRIES[name]
    game = registry.make_game(name)
    assert game.name == entry.name
    assert registry.env_module(name).__name__ == entry.env_module
    assert registry.env_module(name).raw_env().game.name == name
    assert callable(registry.make_heuristic(name).act)
    for config in entry.variants:  # each variant the default run checks is a valid config
        registry.make_game(name, **config)


def test_a_game_registers_once():
    with pytest.raises(ConfigError, match="game 'garda3' is registered already"):
        registry.register(GameEntry("garda3", "x:y", "card_envs.x_v0"))
    assert registry.GAMES["garda3"] == "card_envs.garda3.rules:make_game"


def test_the_specs_resolve_below_the_evaluation():
    from card_envs.bots import specs
    from card_envs.evaluation import policies

    assert policies.resolve_policy is specs.resolve_policy  # the old import path still works
    assert policies.resolve_game is registry.resolve_game is specs.resolve_game
    assert policies.import_attr is registry.import_attr
    assert registry.resolve_game("card_envs.garda3.rules:make_game").name == "garda3"
    with pytest.raises(ConfigError, match="'json:loads' did not build a card-envs Game"):
        registry.resolve_game("json:loads", {"s": "1"})


def test_registered_games_lists_the_records_with_their_facts():
    entries = registry.registered_games()
    assert [e.name for e in entries] == list(ENTRIES)
    assert all(e is ENTRIES[e.name] for e in entries)
    facts = registry.game_facts("dirt_and_glory", num_players=3, reward="score")
    assert (facts.name, facts.num_players, facts.utility) == ("dirt_and_glory", 3, "score")
    assert registry.game_facts("garda3").utility == "win/loss"


def test_the_suite_registers_its_own_games_from_one_list_and_exports_the_api():
    assert list(ENTRIES.values())[:len(registry.BUILTIN_GAMES)] == list(registry.BUILTIN_GAMES)
    assert all(entry.origin == "" for entry in registry.BUILTIN_GAMES)
    assert card_envs.register_game is registry.register_game
    assert card_envs.GameEntry is GameEntry
    assert card_envs.registered_games is registry.registered_games
    assert list(registry.env_modules_by_name()) == card_envs.__all__
    with pytest.raises(ConfigError, match="register\\(\\) takes a GameEntry, got dict"):
        registry.register({"name": "x"})
