"""Shared test helpers: the games the generic tests run on (:func:`registered_games`, the one
place the tests list games), the tests' own registered games (:data:`TEST_GAMES`), and states or
envs part way through a game."""

from __future__ import annotations

import contextlib
import random

import numpy as np

from card_envs.core import registry
from card_envs.core.registry import GameEntry, env_module

#: games the tests register besides the package's, for the generic tests to run on too: Toy Chips
#: (tests/toy_chips.py) ends within 2-4 decisions and pays chips (±1 to ±3), has no entity view.
#: Registered only while a test whose parameters name it runs (conftest.py, :func:`test_games`)
TEST_GAMES: dict[str, GameEntry] = {
    "toy_chips": GameEntry("toy_chips", "toy_chips:make_game", "toy_chips_v0",
                           "toy_chips:HeuristicBot", variants=({}, {"max_bets": 1})),
}


def registered_games() -> list[str]:
    """The games every generic test runs on: the registered games whose modules import here
    (``registry.available_games()``, in registry order), then :data:`TEST_GAMES`. The one list
    of games of the tests: nothing else names the suite's games to iterate over them."""
    names = registry.available_games()
    return names + [name for name in TEST_GAMES if name not in names]


def game_spec(name: str) -> str:
    """What a subprocess (a training script, the CLI) is given for game ``name``: the name, or
    for a game of :data:`TEST_GAMES` (registered in this process only) its ``module:factory``
    (``toy_chips:make_game``; tests/ on the subprocess's ``PYTHONPATH``)."""
    return TEST_GAMES[name].factory if name in TEST_GAMES else name


def game_variants(name: str) -> list[dict]:
    """The configs (a dict each) the default run checks for ``name`` (its registry entry's
    ``variants``)."""
    entry = TEST_GAMES[name] if name in TEST_GAMES else registry.ENTRIES[name]
    return [dict(config) for config in entry.variants]


def registered_cases() -> list[tuple[str, dict]]:
    """``(name, config)`` for every variant of every game of :func:`registered_games`."""
    return [(name, config) for name in registered_games() for config in game_variants(name)]


@contextlib.contextmanager
def test_games():
    """:data:`TEST_GAMES` registered (``make_game``, ``env_module``, the heuristic bots) for the
    body of the ``with``, removed after it (conftest.py enters it for every test whose
    parameters name a test game)."""
    added = [entry for name, entry in TEST_GAMES.items() if name not in registry.ENTRIES]
    for entry in added:
        registry.register(entry)
    try:
        yield
    finally:
        for entry in added:
            for table in (registry.ENTRIES, registry.GAMES, registry.ENV_MODULES,
                          registry.HEURISTICS, registry.GAME_EXTRAS):
                table.pop(entry.name, None)


test_games.__test__ = False  # a context manager, not a test


def names_a_test_game(value) -> bool:
    """Whether a test parameter names a game of :data:`TEST_GAMES`: the name, or a tuple (a
    case) whose first item is the name."""
    if isinstance(value, (tuple, list)) and value:
        value = value[0]
    return isinstance(value, str) and value in TEST_GAMES


def env_mid_game(name: str, seed: int, decisions: int, **env_kwargs):
    """``env_module(name).env(**env_kwargs)`` reset with ``seed``, after ``decisions`` random
    legal steps (drawn from ``random.Random(seed)``), or fewer: never the step that would end
    the game (a short game stops before its last decision), so the env is mid-game."""
    env = env_module(name).env(**env_kwargs)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        ahead = env.game.clone(env.state_obj)
        env.game.apply_action(ahead, action)
        if env.game.is_terminal(ahead):
            break
        env.step(action)
    return env


def states_along(game, seed: int, decisions: int):
    """The states along one random game of ``game`` (at most ``decisions`` of them; each is the
    live state, changed by the next move)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(decisions):
        if game.is_terminal(state):
            return
        yield state
        game.apply_action(state, rng.choice(game.legal_actions(state)))


def mid_game_state(game, seed: int = 3, decisions: int = 8):
    """A state of ``game`` still going after random decisions: the first of seeds ``seed``,
    ``seed + 1``... whose game lasts past ``decisions`` decisions gives its state there; a game
    whose games are all shorter (Toy Chips: 2-4 decisions) gives the state before the last
    decision of its longest game among 20 seeds. Never terminal."""
    best = None
    for s in range(seed, seed + 20):
        rng = random.Random(s)
        state = game.new_state(s)
        history = [game.clone(state)]
        while not game.is_terminal(state) and len(history) <= decisions:
            game.apply_action(state, rng.choice(game.legal_actions(state)))
            history.append(game.clone(state))
        if not game.is_terminal(state):
            return state
        if best is None or len(history) > len(best):
            best = history
    return best[-2]
