"""Per-seat text views (``Game.render_view``) and the names of other seats' moves as a seat sees
them (``Game.action_seen_by``): a seat sees its own hidden cards, never another seat's.

``check_game`` (tests/test_conformance.py) checks for every game and variant at every decision
that both are unchanged by ``sample_hidden`` for the viewing seat. What each game's view shows:
``test_<game>_view.py``; here: the core's default view and the env's ``render_view``.
"""

from __future__ import annotations

import pytest

from card_envs.garda3.constants import card_name
from card_envs.testing.toy_game.rules import make_game as make_toy


def test_core_default_view_is_the_seat_observation_by_piece():
    game = make_toy(hidden_bonus=True)  # the bonus card's position is hidden
    state = game.new_state(3)
    view = game.render_view(state, 1)
    lines = view.splitlines()
    assert lines[0] == "toy_nim: you are seat 1; phase take, to act: seat 0"
    assert [line.split(":")[0].strip() for line in lines[1:]] == \
        [p.name for p in game.observation_layout.pieces]
    obs = game.observe(state, 1)
    assert f"  pile: {float(obs[game.observation_layout['pile'].slice][0]):.3g}" in lines
    # over: the returns in the header
    game.apply_action(state, game.legal_actions(state)[-1])
    while not game.is_terminal(state):
        game.apply_action(state, game.legal_actions(state)[-1])
    ret = game.returns(state)
    assert game.render_view(state, 0).splitlines()[0] == (
        f"toy_nim: you are seat 0; game over (returns seat 0: {ret[0]:+g}, seat 1: {ret[1]:+g})")


def test_the_env_renders_one_agent_view():
    from card_envs import garda3_v1

    env = garda3_v1.env(variant="classic")
    env.reset(seed=3)
    for _ in range(20):  # into the battles: the hands are dealt
        env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    state = env.unwrapped.state_obj
    view = env.render_view("player_1")
    assert view == env.game.render_view(state, 1) and state.hands[0]
    assert all(card_name(c) not in view for c in state.hands[0])
    with pytest.raises(KeyError, match="player_7"):
        env.render_view("player_7")
