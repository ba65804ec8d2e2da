"""with_opponents: bots or policies playing some seats inside an AEC env of the suite."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from card_envs.bots.base import RandomBot
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.registry import env_module
from card_envs.testing import toy_nim_v0
from card_envs.wrappers import OpponentsEnv, with_opponents
from env_helpers import registered_games
from toy_game import PerfectBot, ScriptedBot

TAKE1, TAKE2, TAKE3 = 0, 1, 2
TOY = "card_envs.testing.toy_game:make_game"


@pytest.mark.parametrize("name", registered_games())
def test_every_game_passes_api_test_and_seed_test_for_the_learning_agents(name):
    module = env_module(name)
    env = with_opponents(module.env(), {"player_1": "heuristic"})
    assert env.possible_agents == [a for a in module.env().possible_agents if a != "player_1"]
    api_test(env, num_cycles=200)
    seed_test(lambda: with_opponents(module.env(), {"player_1": "random"}), num_cycles=100)


def test_more_seats_two_learners_and_a_search_bot_opponent():
    env = with_opponents(env_module("dirt_and_glory").env(num_players=3),
                         {"player_1": "heuristic+lookahead:2"})
    assert env.possible_agents == ["player_0", "player_2"]
    api_test(env, num_cycles=100)


def _play(env, script, seed=0):
    """Play the learning agents from ``script`` (agent -> actions) to the end; returns the list
    of ``(agent, reward, terminated)`` that ``last()`` gave at each agent's terminating step."""
    env.reset(seed=seed)
    moves = {a: list(actions) for a, actions in script.items()}
    finals = []
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finals.append((agent, reward, terminated))
            env.step(None)
        else:
            env.step(moves[agent].pop(0))
    return finals


def test_the_final_reward_reaches_the_learner_when_the_opponents_move_ends_the_game():
    # pile 4, player_0 learns: it takes 1 (3 left), the perfect bot takes the last 3 and wins
    env = with_opponents(toy_nim_v0.env(pile=4), {"player_1": PerfectBot()})
    assert _play(env, {"player_0": [TAKE1]}) == [("player_0", -1.0, True)]
    # player_1 learns, player_0 (the bot, moving first) takes 1 of 5 -> 4 left; the learner
    # takes 1 (3 left), the bot takes 3: -1 for the learner, after the bot's move
    env = with_opponents(toy_nim_v0.env(pile=5), {"player_0": PerfectBot()})
    env.reset(seed=0)
    assert env.agent_selection == "player_1"  # the bot's opening move was played in reset
    assert env.unwrapped.state_obj.pile == 4
    assert _play(env, {"player_1": [TAKE1]}) == [("player_1", -1.0, True)]


def test_the_learners_own_winning_move_and_three_seats_with_two_learners():
    env = with_opponents(toy_nim_v0.env(pile=3), {"player_1": PerfectBot()})
    assert _play(env, {"player_0": [TAKE3]}) == [("player_0", 1.0, True)]
    # 3 seats, pile 6: p0 takes 1 (5), bot p1 takes 2 (3), p2 takes 1 (2), p0 takes 1 (1),
    # bot takes the last: +1 for p1, -1/2 for each learner, each at its terminating step
    env = with_opponents(toy_nim_v0.env(num_players=3, pile=6),
                         {"player_1": ScriptedBot([TAKE2, TAKE1])})
    finals = _play(env, {"player_0": [TAKE1, TAKE1], "player_2": [TAKE1]})
    assert sorted(finals) == [("player_0", -0.5, True), ("player_2", -0.5, True)]
    assert env.agents == []
    assert env.unwrapped.record().outcome is not None


def test_rewards_sum_the_moves_since_the_learners_last_step():
    env = with_opponents(toy_nim_v0.env(pile=4), {"player_1": PerfectBot()})
    env.reset(seed=0)
    env.step(TAKE1)  # the bot answers and wins inside this step
    assert env.rewards == {"player_0": -1.0}
    assert env.terminations == {"player_0": True}
    assert env.last()[1] == -1.0
    env.step(None)
    assert env.agents == [] and env.rewards == {}


def test_an_opponent_is_asked_for_its_own_seat_as_the_evaluation_asks():
    """policy.act(game, state, its seat) with the env's own game and live state, only when its
    seat is to act (:func:`card_envs.evaluation.match.play_game` asks the same way)."""
    calls = []

    class SeatSpy(RandomBot):
        def act(self, game, state, player):
            calls.append((player, game is env.unwrapped.game, state is env.unwrapped.state_obj,
                          game.current_player(state)))
            return super().act(game, state, player)

    env = with_opponents(env_module("garda3").env(), {"player_0": SeatSpy(0)})
    env.reset(seed=1)
    while env.agents:
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    assert len(calls) > 10 and set(calls) == {(0, True, True, 0)}


def test_an_observation_callable_opponent_receives_its_seats_observation():
    records = []

    def spy(observation, action_mask):
        records.append((observation.copy(), action_mask.copy()))
        return int(np.flatnonzero(action_mask)[0])

    inner = toy_nim_v0.env(pile=9)
    env = with_opponents(inner, {"player_1": spy})
    env.reset(seed=0)
    env.step(TAKE2)  # player_0 takes 2 of 9; the spy (player_1) sees 7 left, its turn
    obs, mask = records[0]
    assert obs[0] == pytest.approx(7 / 40) and obs[1] == 1.0  # pile / 40, my_turn
    assert obs[2] == pytest.approx(1 / 3)  # my seat / 3: seat 1's own view
    assert mask.tolist() == [1, 1, 1]


def test_specs_resolve_as_the_evaluation_resolves_them():
    env = with_opponents(toy_nim_v0.env(pile=4), {"player_1": "heuristic"}, game_spec=TOY)
    assert type(env.opponents["player_1"]).__name__ == "HeuristicBot"
    assert _play(env, {"player_0": [TAKE1]}) == [("player_0", -1.0, True)]  # plays perfectly
    env = with_opponents(env_module("garda3").env(), {"player_1": "ismcts:20"}, seed=0)
    assert type(env.opponents["player_1"]).__name__ == "ISMCTSBot"


def test_equal_seeds_give_equal_games_with_a_random_opponent():
    def actions(seed):
        env = with_opponents(env_module("scratch_wars").env(), {"player_1": "random"})
        env.reset(seed=seed)
        while env.agents:
            _, _, terminated, truncated, _ = env.last()
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
        return env.unwrapped.record().actions

    assert actions(5) == actions(5)
    assert actions(5) != actions(6)


def test_refusals_name_the_problem():
    with pytest.raises(ConfigError, match="'player_7' is not an agent"):
        with_opponents(toy_nim_v0.env(), {"player_7": PerfectBot()})
    with pytest.raises(ConfigError, match="leave at least one learning agent"):
        with_opponents(toy_nim_v0.env(), {"player_0": PerfectBot(), "player_1": PerfectBot()})
    with pytest.raises(ConfigError, match=r"opponents\['player_1'\]: unknown policy 'champion'"):
        with_opponents(env_module("garda3").env(), {"player_1": "champion"})
    with pytest.raises(ConfigError, match="not a card-envs AEC env"):
        with_opponents(object(), {"player_1": "random"})
    with pytest.raises(ConfigError, match="opponents must map agents"):
        with_opponents(toy_nim_v0.env(), ["player_1"])
    # an opponent's illegal move is its bug: it raises, naming the policy and the seat
    env = with_opponents(toy_nim_v0.env(pile=4), {"player_1": ScriptedBot([TAKE3], "bad")})
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="opponent player_1 .policy 'bad'. chose illegal "
                                                 "action 2"):
        env.step(TAKE2)  # 2 left: taking 3 is illegal
    assert isinstance(env, OpponentsEnv)


@pytest.mark.parametrize("name", registered_games())
def test_last_rewards_equal_the_inner_envs_accumulated_rewards(name):
    """What last() gives a learning agent is what the inner AEC env accumulated for it (its
    rewards since its own last move), at every step of random games."""
    for seed in range(3):
        inner = env_module(name).env()
        env = with_opponents(inner, {"player_1": "random"}, seed=seed)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            agent = env.agent_selection
            _, reward, terminated, truncated, _ = env.last()
            assert reward == inner._cumulative_rewards[agent]
            assert set(env.rewards) == set(env.agents)
            mask = env.observe(agent)["action_mask"]
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
        assert inner.agents == []
