"""Leduc Hold'em env: the PettingZoo API and seeding, the docstring spec held to the code,
check_game on every registered variant, rewards in chips through the env, records, saved states
and hidden information, bad config. Rules: test_leduc_holdem_rules.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from card_envs import leduc_holdem_v0
from card_envs.core.errors import ConfigError, StateError
from card_envs.core.records import GameRecord, record_of, replay
from card_envs.leduc_holdem import HeuristicBot, make_game
from card_envs.leduc_holdem.constants import A_CALL, A_RAISE
from card_envs.leduc_holdem.observation import ENTITIES, OBSERVATION
from card_envs.testing import check_game
from card_envs.testing.variants import VARIANTS, variant_id

C, R = A_CALL, A_RAISE


def test_pettingzoo_api_and_seed():
    api_test(leduc_holdem_v0.env(), num_cycles=300)
    seed_test(leduc_holdem_v0.env, num_cycles=300)


def test_docstring_holds_the_layout_tables():
    game = make_game()
    doc = leduc_holdem_v0.__doc__
    assert game.observation_layout is OBSERVATION and OBSERVATION.markdown() in doc
    assert game.entity_layout is ENTITIES and ENTITIES.markdown() in doc
    assert game.action_layout.markdown() in doc and "Discrete(3)" in doc
    assert "float32 (45,)" in doc and game.observation_shape == (45,)
    for field in ("ante=1", "first_raise=2", "second_raise=4", "max_raises=2", "[-13, 13]"):
        assert field in doc, field


@pytest.mark.parametrize("config", VARIANTS["leduc_holdem"], ids=variant_id)
def test_check_game_passes_on_every_variant(config):
    """The whole conformance suite on 60 games (2-8 decisions each): the mid-game save/reload
    runs in every game and the mutation walk once, on this short game too."""
    counts = check_game(make_game(**config), games=60, seed=5,
                        env_factory=lambda: leduc_holdem_v0.env(**config))
    assert counts["terminal"] == 60 and counts["mid_game_reloads"] == 60
    assert counts["mutation_walks"] == 1 and 2 * 60 <= counts["decisions"] <= 60 * 10


def test_rewards_through_the_env_are_chips():
    """LH-5.1: the seat that wins a raised and called round 1 and a checked round 2 gets +3
    through the env; the AEC rewards are the game's returns, zero-sum."""
    env = leduc_holdem_v0.env()
    env.reset(seed=0)
    state = env.unwrapped.state_obj
    state.hands, state.public = [4, 2], 0  # seat 0 king, seat 1 queen, public jack
    for a in [R, C, C, C]:
        env.step(a)
    rewards = {agent: env._cumulative_rewards[agent] for agent in env.possible_agents}
    assert rewards == {"player_0": 3.0, "player_1": -3.0}
    assert all(env.terminations.values()) and not any(env.truncations.values())


def test_game_record_replays_exactly(tmp_path):
    game = make_game()
    state = game.new_state(77)
    rng = random.Random(2)
    actions = []
    while not game.is_terminal(state):
        a = rng.choice(game.legal_actions(state))
        actions.append(a)
        game.apply_action(state, a)
    rec = record_of(game, 77, actions, state)
    path = tmp_path / "game.json"
    rec.save(path)
    game2, state2 = replay(GameRecord.load(path))
    assert game2.state_to_dict(state2) == game.state_to_dict(state)
    assert rec.outcome == game.returns(state)


def test_a_saved_state_contradicting_its_history_names_the_field():
    game = make_game()
    state = game.new_state(3)
    game.apply_action(state, R)
    saved = game.state_to_dict(state)
    saved["pot"] = [1, 1]  # the raise put 3 in (LH-3.4)
    with pytest.raises(StateError, match=r"^pot: \[1, 1\] is not what the betting history gives "
                                         r"\(\[3, 1\]; history\[0\] = \[2, -1"):
        game.state_from_dict(saved)
    saved = game.state_to_dict(state)
    saved["history"][0][1] = 0  # seat 1 folds to the raise: legal (LH-3.2), and it loads
    loaded = game.state_from_dict({**saved, "phase": 2, "folded": 1, "player": 1})
    assert game.returns(loaded) == [1.0, -1.0]
    saved["history"][0][0] = 0  # a fold with nothing to match (LH-3.2)
    with pytest.raises(StateError, match=r"history\[0\]\[0\]: 0 is a fold although no raise"):
        game.state_from_dict(saved)

def test_sample_hidden_redraws_the_opponents_card_and_the_face_down_public_card():
    game = make_game()
    state = game.new_state(4)
    seen = {(s.hands[1], s.public) for s in
            (game.sample_hidden(state, 0, random.Random(k)) for k in range(200))}
    mine = state.hands[0]
    # every ordered pair of two different cards other than seat 0's: 5 · 4 = 20
    assert len(seen) == 20 and all(mine not in pair for pair in seen)
    game.apply_action(state, C)
    game.apply_action(state, C)  # round 2: the public card is face up, only the hand is redrawn
    sampled = {game.sample_hidden(state, 0, random.Random(k)).public for k in range(50)}
    assert sampled == {state.public}


def test_the_observation_never_shows_a_hidden_card():
    """Seat 0's observation is the same whatever seat 1 holds and whatever lies face down."""
    game = make_game()
    for seed in range(40):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not game.is_terminal(state):
            for p in (0, 1):
                other = game.sample_hidden(state, p, rng)
                assert np.array_equal(game.observe(other, p), game.observe(state, p))
            game.apply_action(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("config, pattern", [
    ({"ante": 0}, "'ante': 0 is out of range"),
    ({"max_raises": 4}, "'max_raises': 4 is out of range"),
    ({"first_raise": 2.0}, "'first_raise': expected an int"),
    ({"num_players": 3}, "num_players"),
])
def test_bad_config_values_name_the_field(config, pattern):
    with pytest.raises(ConfigError, match=pattern):
        make_game(**config)


def test_the_heuristic_plays_inside_the_env_from_its_own_seat():
    env = leduc_holdem_v0.env()
    env.reset(seed=9)
    bot, game = HeuristicBot(), env.unwrapped.game
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = env.unwrapped.state_obj
        env.step(bot.act(game, state, game.current_player(state)))
    assert sum(env._cumulative_rewards.values()) == 0.0
