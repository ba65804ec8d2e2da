"""Malformed action values at every entry point (issue "The Game contract in code"): the Game
API, ``env()`` and ``SingleAgentEnv`` refuse them with IllegalActionError naming the value, the
state unchanged (compared as JSON); numpy integers and 0-d arrays play as the int."""

from __future__ import annotations

import json

import numpy as np
import pytest

from card_envs.bots.base import RandomBot
from card_envs.core.errors import IllegalActionError
from card_envs.core.registry import make_game
from card_envs.wrappers.single_agent import SingleAgentEnv
from env_helpers import env_mid_game, mid_game_state, registered_games

BAD = [3.0, float("inf"), float("nan"), True, "3", np.array([0]), None, -1]
GAME_NAMES = registered_games()


def _named(exc_info, value) -> None:
    assert repr(value) in str(exc_info.value) or str(value) in str(exc_info.value)


def _mid_game(game, seed=3, decisions=8):
    return mid_game_state(game, seed, decisions)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("bad", BAD, ids=repr)
def test_game_api_refuses_malformed_actions(name, bad):
    game = make_game(name)
    state = _mid_game(game)
    before = json.dumps(game.state_to_dict(state))
    with pytest.raises(IllegalActionError) as info:
        game.apply_action(state, bad)
    _named(info, bad)
    assert "phase" in str(info.value)  # the state's phase is named
    assert json.dumps(game.state_to_dict(state)) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_api_numpy_actions_play_as_ints(name):
    game = make_game(name)
    for value_of in (np.int64, np.array, np.int8):
        a, b = _mid_game(game), _mid_game(game)
        k = game.legal_actions(a)[-1]
        game.apply_action(a, value_of(k))
        game.apply_action(b, k)
        text = json.dumps(game.state_to_dict(a))  # still JSON-serialisable
        assert text == json.dumps(game.state_to_dict(b))


def _env_mid_game(name, seed=3, decisions=8):
    return env_mid_game(name, seed, decisions, illegal_action="raise")


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
def test_env_refuses_malformed_actions(name, illegal_action):
    env = _env_mid_game(name)
    env.illegal_action = illegal_action
    before = json.dumps(env.save_state())
    for bad in BAD:
        with pytest.raises(IllegalActionError) as info:
            env.step(bad)
        _named(info, bad)
        assert json.dumps(env.save_state()) == before
    assert not any(env.terminations.values())  # an out-of-space action never ends the game


@pytest.mark.parametrize("name", GAME_NAMES)
def test_env_numpy_actions_play_as_ints(name):
    for value_of in (np.int64, np.array):
        a, b = _env_mid_game(name), _env_mid_game(name)
        k = int(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])[-1])
        a.step(value_of(k))
        b.step(k)
        assert json.dumps(a.save_state()) == json.dumps(b.save_state())


def _single_agent(name):
    env = SingleAgentEnv(make_game(name), RandomBot(0), learner_seat=0, seed=4)
    env.reset(seed=4)
    return env


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_single_agent_env_refuses_malformed_actions(name, illegal_action):
    env = _single_agent(name)
    env.illegal_action = illegal_action
    game = env.game
    before = json.dumps(game.state_to_dict(env.state))
    for bad in BAD:
        with pytest.raises(IllegalActionError) as info:
            env.step(bad)
        _named(info, bad)
        assert json.dumps(game.state_to_dict(env.state)) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_single_agent_env_numpy_actions_play_as_ints(name):
    for value_of in (np.int64, np.array):
        a, b = _single_agent(name), _single_agent(name)
        k = int(np.flatnonzero(a.action_masks())[-1])
        ra = a.step(value_of(k))
        rb = b.step(k)
        assert json.dumps(a.game.state_to_dict(a.state)) == json.dumps(
            b.game.state_to_dict(b.state))
        assert ra[1:4] == rb[1:4]


@pytest.mark.parametrize("bad", [np.ma.masked_array(0, mask=True), np.ma.masked_array(1),
                                 np.timedelta64(1), np.float64(1.0), np.array(1.0),
                                 np.array(1, dtype=object), 1 + 0j, b"1"], ids=repr)
def test_odd_action_types_are_refused(bad):
    game = make_game("garda3")
    state = game.new_state(0)
    before = json.dumps(game.state_to_dict(state))
    with pytest.raises(IllegalActionError, match="is not an action id"):
        game.apply_action(state, bad)
    assert json.dumps(game.state_to_dict(state)) == before


def test_int_subclasses_play_their_int_value():
    import enum

    class Pick(enum.IntEnum):
        SECOND = 1

    class Odd(int):
        def __int__(self):  # an int subclass overriding __int__ still plays its value
            return 99

    game = make_game("garda3")
    a, b, c = game.new_state(0), game.new_state(0), game.new_state(0)
    game.apply_action(a, Pick.SECOND)
    game.apply_action(b, Odd(1))
    game.apply_action(c, 1)
    assert game.state_to_dict(a) == game.state_to_dict(b) == game.state_to_dict(c)


def test_a_broken_repr_does_not_hide_the_refusal():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    game = make_game("garda3")
    with pytest.raises(IllegalActionError, match="Broken"):
        game.apply_action(game.new_state(0), Broken())
