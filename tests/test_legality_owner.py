"""Legality has one owner (issue 19): ``GameBase.apply_action`` alone decides whether a move is
legal (``NotLegalError`` for an action id the rules forbid now, ``IllegalActionError`` for a value
that is no action id); the env adapters keep no legal-action list of their own: a move goes to
``apply_action`` and the mask is read from the core's ``legal_actions``, the list the core caches
on the state (``state.legal_cache``) until the next move."""

from __future__ import annotations

import random

import numpy as np
import pytest

from card_envs.bots.base import RandomBot
from card_envs.core import registry
from card_envs.core.errors import IllegalActionError, NotLegalError
from card_envs.wrappers.single_agent import SingleAgentEnv
from env_helpers import env_mid_game, registered_games

GAMES = registered_games()


def _midgame_env(name: str, seed: int = 3, moves: int = 6):
    """An AEC env of ``name`` after up to ``moves`` random legal moves (seeded; fewer in a game
    that ends sooner), not over."""
    env = env_mid_game(name, seed, moves)
    assert env.agents and not env.terminations[env.agent_selection]
    return env


def test_not_legal_error_is_an_illegal_action_error():
    assert issubclass(NotLegalError, IllegalActionError)


@pytest.mark.parametrize("name", GAMES)
def test_apply_action_tells_a_forbidden_action_from_a_non_action(name):
    game = registry.make_game(name)
    state = game.new_state(5)
    legal = game.legal_actions(state)
    forbidden = next(a for a in range(game.num_actions) if a not in legal)
    before = game.state_to_dict(state)
    with pytest.raises(NotLegalError, match=f"action {forbidden} .*is not legal in phase"):
        game.apply_action(state, forbidden)
    with pytest.raises(IllegalActionError, match="outside the action space") as info:
        game.apply_action(state, game.num_actions)
    assert not isinstance(info.value, NotLegalError)  # a non-action is not a rules question
    assert game.state_to_dict(state) == before  # unchanged either way
    game.random_playout(state, random.Random(0))
    with pytest.raises(NotLegalError, match="the game is over"):
        game.apply_action(state, legal[0])


@pytest.mark.parametrize("name", GAMES)
def test_the_aec_adapter_holds_no_legal_action_list(name):
    env = _midgame_env(name)
    state = env.state_obj
    legal = env.game.legal_actions(state)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert np.flatnonzero(mask).tolist() == legal
    assert state.legal_cache is legal  # the core's cache, filled by the mask's read
    for key, value in vars(env).items():
        if key not in ("illegal_action", "illegal_reward"):  # "terminate"/"raise"; a number
            assert "legal" not in key.lower(), f"CardGameEnv.{key}: a legal-action field"
        assert value is not legal, f"CardGameEnv.{key} holds the core's legal-action list"
        if key == "actions_taken":  # the game's history, not a legality list
            continue
        if isinstance(value, (list, tuple, set, frozenset)) and value and \
                all(isinstance(v, int) for v in value):
            assert sorted(value) != legal, f"CardGameEnv.{key} = {value!r} copies the legal list"
        if isinstance(value, np.ndarray) and value.shape == mask.shape:
            assert not np.array_equal(value, mask), f"CardGameEnv.{key} is a kept mask"


@pytest.mark.parametrize("name", GAMES)
def test_the_aec_mask_and_legality_follow_the_core(name, monkeypatch):
    env = _midgame_env(name)
    game, state, agent = env.game, env.state_obj, env.agent_selection
    legal = list(game.legal_actions(state))
    assert len(legal) >= 2, legal
    # the mask is read through game.legal_actions each time it is asked for
    monkeypatch.setattr(game, "legal_actions", lambda s: [legal[-1]])
    assert np.flatnonzero(env.observe(agent)["action_mask"]).tolist() == [legal[-1]]
    monkeypatch.undo()
    # the core's cache decides: narrowed to the first legal action, the last one is refused by
    # apply_action (the adapter does not check it) and the offender is terminated with -1
    state.legal_cache = [legal[0]]
    assert np.flatnonzero(env.observe(agent)["action_mask"]).tolist() == [legal[0]]
    env.step(legal[-1])
    assert env.terminations[agent] and env.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != agent)


@pytest.mark.parametrize("name", GAMES)
def test_the_aec_adapter_raises_the_cores_not_legal_error(name):
    env = _midgame_env(name)
    env.illegal_action = "raise"
    game, state, agent = env.game, env.state_obj, env.agent_selection
    legal = game.legal_actions(state)
    forbidden = next(a for a in range(game.num_actions) if a not in legal)
    before = game.state_to_dict(state)
    with pytest.raises(NotLegalError, match=f"action {forbidden} .*is not legal for {agent} in "
                                            "phase"):
        env.step(forbidden)
    assert game.state_to_dict(state) == before and env.agent_selection == agent


def test_the_single_agent_env_leaves_legality_to_the_core():
    game = registry.make_game("garda3")
    env = SingleAgentEnv(game, RandomBot(0), illegal_action="lose", seed=1)
    _, info = env.reset(seed=1)
    legal = game.legal_actions(env.state)
    assert np.flatnonzero(info["action_mask"]).tolist() == legal
    assert len(legal) >= 2, legal
    env.state.legal_cache = [legal[0]]  # the core's cache narrowed: the core refuses legal[-1]
    _, reward, terminated, _, info = env.step(legal[-1])
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
