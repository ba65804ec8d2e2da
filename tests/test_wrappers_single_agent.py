"""The Gymnasium single-agent view: rewards per seat, masks, observation pairing, league."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from card_envs.bots.base import RandomBot
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.registry import make_game
from card_envs.wrappers.single_agent import OpponentSource, SingleAgentEnv
from env_helpers import registered_games, test_games
from toy_game import PerfectBot, ScriptedBot
from toy_game import make_game as make_toy

with test_games():  # the games of two seats, the tests' own among them
    TWO_SEATS = [g for g in registered_games() if make_game(g).num_players == 2]

TAKE1, TAKE2, TAKE3 = 0, 1, 2


def _play(env, learner_actions, seat):
    obs, info = env.reset(options={"seat": seat})
    assert info["seat"] == seat
    for a in learner_actions:
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            return reward, terminated, info
    raise AssertionError("script did not finish the game")


@pytest.mark.parametrize(
    "seat, opponent_script, learner_script, expected",
    [
        # pile 4. seat 0: learner takes 3, opponent takes the last card -> learner loses
        (0, [TAKE1], [TAKE3], -1.0),
        # seat 0: learner 1 (3 left), opponent 1 (2 left), learner takes 2 -> learner wins
        (0, [TAKE1], [TAKE1, TAKE2], 1.0),
        # seat 1: opponent 1 (3 left), learner takes 3 -> learner wins
        (1, [TAKE1], [TAKE3], 1.0),
        # seat 1: opponent 1, learner 1 (2 left), opponent takes 2 -> learner loses
        (1, [TAKE1, TAKE2], [TAKE1], -1.0),
    ],
)
def test_scripted_win_is_plus_one_and_loss_minus_one_from_any_seat(
    seat, opponent_script, learner_script, expected
):
    env = SingleAgentEnv(make_toy(pile=4), ScriptedBot(opponent_script), seed=0)
    reward, terminated, info = _play(env, learner_script, seat)
    assert reward == expected
    assert terminated
    assert info["outcome"] == (1.0 if expected > 0 else 0.0)
    assert info["seat"] == seat


def test_three_player_rewards_returns_and_win_loss_modes():
    # 3 seats, pile 5: learner (seat 0) takes 1, seat 1 takes 1, seat 2 takes the last 3
    for mode, expected in (("returns", -0.5), ("win_loss", -1.0)):
        env = SingleAgentEnv(make_toy(num_players=3, pile=5), ScriptedBot([TAKE1, TAKE3]),
                             learner_seat=0, reward_mode=mode)
        env.reset()
        _, r, term, _, info = env.step(TAKE1)
        assert (r, term, info["outcome"]) == (expected, True, 0.0)
    # learner at seat 1 takes the last 3 -> +1 in both modes
    for mode in ("returns", "win_loss"):
        env = SingleAgentEnv(make_toy(num_players=3, pile=4), ScriptedBot([TAKE1]),
                             learner_seat=1, reward_mode=mode)
        env.reset()
        _, r, term, _, info = env.step(TAKE3)
        assert (r, term, info["outcome"]) == (1.0, True, 1.0)


def test_game_over_before_learner_acts_is_redealt():
    # seat 2 of 3, pile 3: seat 0 takes 1, seat 1 takes 2 -> over before the learner decides;
    # the env deals again instead of handing SB3 a finished game
    env = SingleAgentEnv(make_toy(num_players=3, pile=3), ScriptedBot([TAKE1, TAKE2]),
                         learner_seat=2)
    env.reset()
    assert env.game.current_player(env.state) == 2
    assert env.action_masks().any()


def _random_rollouts(env, episodes, seed):
    rng = random.Random(seed)
    seats = []
    for _ in range(episodes):
        obs, info = env.reset()
        seat = info["seat"]
        seats.append(seat)
        while True:
            mask = env.action_masks()
            assert mask.dtype == np.int8 and mask.shape == (env.game.num_actions,)
            assert mask.any(), "all-zero mask handed to the learner"
            # the observation the learner acts on is its own view of the current state
            assert np.array_equal(obs, env.game.observe(env.state, seat))
            assert env.game.current_player(env.state) == seat
            legal = np.flatnonzero(mask)
            assert sorted(legal.tolist()) == env.game.legal_actions(env.state)
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal.tolist())))
            # every reward is paired with the learner's own observation
            assert np.array_equal(obs, env.game.observe(env.state, seat))
            if terminated or truncated:
                if terminated:
                    assert reward == env.game.returns(env.state)[seat]
                else:
                    assert reward == 0.0
                assert env.action_masks().any()
                break
            assert reward == 0.0
    return seats


def test_masks_never_all_zero_and_rewards_pair_with_learner_observation_toy():
    for n in (2, 3, 4):
        env = SingleAgentEnv(make_toy(num_players=n, pile=13), RandomBot(1), seed=3)
        seats = _random_rollouts(env, 60, seed=n)
        assert set(seats) == set(range(n))  # the learner rotates through every seat
        assert seats[:n] == list(range(n))


@pytest.mark.parametrize("name", registered_games())
def test_every_game_single_agent_view(name):
    game = make_game(name)
    env = SingleAgentEnv(game, RandomBot(2), seed=5)
    seats = _random_rollouts(env, 2 * game.num_players, seed=7)
    assert set(seats) == set(range(game.num_players))


@pytest.mark.parametrize("name", registered_games())
def test_every_game_passes_gymnasium_and_sb3_checkers_with_default_arguments(name):
    """Both checkers, each with its own defaults, on SingleAgentEnv with its defaults: they step
    with ``action_space.sample()`` (mostly masked-out ids), which the default
    ``illegal_action="lose"`` accepts."""
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no checker warning either...
        # ...but the one about render modes of an env built without gymnasium.make (no spec;
        # tests/test_gymnasium_registration.py checks the registered ids)
        warnings.filterwarnings("ignore", message=".*not having a spec.*")
        # ...and our one-time note on the first forfeit under "lose": the checkers step
        # masked-out actions on purpose (its own test: the SB3 evaluate_policy one below)
        from card_envs.wrappers.single_agent import IllegalActionWarning
        warnings.filterwarnings("ignore", category=IllegalActionWarning)
        check_env(SingleAgentEnv(make_game(name), RandomBot(0)))
        sb3_check_env(SingleAgentEnv(make_game(name), RandomBot(0)))
        check_env(SingleAgentEnv(make_game(name), RandomBot(0), illegal_action="random_legal"))


def test_toy_passes_gymnasium_checker():
    check_env(SingleAgentEnv(make_toy(), RandomBot(0), seed=1), skip_render_check=True)


def test_illegal_learner_action_lose_random_legal_and_raise():
    # pile 2, seat 0 to act: TAKE3 is masked out
    env = SingleAgentEnv(make_toy(pile=2), RandomBot(0), learner_seat=0)
    assert env.illegal_action == "lose"  # the default
    _, info = env.reset()
    assert info["action_mask"].tolist() == [1, 1, 0]
    _, r, term, trunc, info = env.step(TAKE3)
    assert (r, term, trunc, info["illegal_action"], info["outcome"]) == (-1.0, True, False,
                                                                         True, 0.0)
    assert info["action_mask"].tolist() == [1, 1, 1]  # as action_masks(): never all zeros
    assert env.state.pile == 2  # the illegal move was not played
    raising = SingleAgentEnv(make_toy(pile=2), RandomBot(0), learner_seat=0,
                             illegal_action="raise")
    raising.reset()
    with pytest.raises(IllegalActionError, match="action 2"):
        raising.step(TAKE3)
    assert raising.state.pile == 2
    # random_legal: one of TAKE1 / TAKE2 is played instead; TAKE2 takes the last card and wins
    played = set()
    for seed in range(12):
        sub = SingleAgentEnv(make_toy(pile=2), RandomBot(0), learner_seat=0,
                             illegal_action="random_legal")
        sub.reset(seed=seed)
        _, r, term, _, info = sub.step(TAKE3)
        assert info["illegal_action"] is True and info["played_action"] in (TAKE1, TAKE2)
        played.add(info["played_action"])
        if info["played_action"] == TAKE2:
            assert (r, term, sub.state.pile) == (1.0, True, 0)
        else:  # 1 left: the opponent takes it and wins
            assert (r, term, sub.state.pile) == (-1.0, True, 0)
        again = SingleAgentEnv(make_toy(pile=2), RandomBot(0), learner_seat=0,
                               illegal_action="random_legal")
        again.reset(seed=seed)
        assert again.step(TAKE3)[4]["played_action"] == info["played_action"]  # seeded
    assert played == {TAKE1, TAKE2}
    with pytest.raises(ConfigError, match="illegal_action"):
        SingleAgentEnv(make_toy(), RandomBot(0), illegal_action="ignore")


@pytest.mark.parametrize("name", registered_games())
def test_info_action_mask_on_every_reset_and_step(name):
    game = make_game(name)
    env = SingleAgentEnv(game, RandomBot(3), seed=4)
    rng = random.Random(5)
    for _episode in range(2):
        _, info = env.reset()
        done = False
        while not done:
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
            assert np.array_equal(mask, env.action_masks())
            assert np.array_equal(mask, game.legal_action_mask(env.state))
            _, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
            done = terminated or truncated
            assert "illegal_action" not in info
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].all()


def test_callable_opponent_and_seed_determinism():
    calls = []

    def first_legal(obs, mask):
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    env = SingleAgentEnv(make_toy(pile=9), first_legal, seed=0)
    a = [env.reset(seed=4, options={"seat": 1})[0] for _ in range(3)]
    b = [env.reset(seed=4, options={"seat": 1})[0] for _ in range(3)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert calls and calls[0] == (6,)


class CountingSource:
    """An opponent source (not the training league): ``sample()`` / ``record(...)`` only."""

    def __init__(self, policy):
        self.policy, self.samples, self.outcomes = policy, 0, []

    def sample(self):
        self.samples += 1
        return type("Sampled", (), {"policy": self.policy, "kind": "toy", "name": "perfect"})()

    def record(self, kind, outcome):
        self.outcomes.append((kind, outcome))


def test_an_opponent_source_is_sampled_per_episode_and_told_each_outcome():
    source = CountingSource(PerfectBot())
    assert isinstance(source, OpponentSource) and not isinstance(PerfectBot(), OpponentSource)
    # pile 8: the second seat wins with perfect play, so the learner at seat 0 always loses
    env = SingleAgentEnv(make_toy(pile=8), source, learner_seat=0, seed=0)
    for episode in range(1, 4):
        _, info = env.reset()
        assert info["opponent"] == "toy" and source.samples == episode
        done = False
        while not done:
            _, reward, done, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = done or truncated
        assert (reward, info["outcome"]) == (-1.0, 0.0)
    assert source.outcomes == [("toy", 0.0)] * 3


@pytest.mark.parametrize("name", TWO_SEATS)
def test_two_player_games_reward_is_the_seats_return_from_both_seats(name):
    """Random play until a win and a loss were seen from each seat: the final reward is the
    learner's return in the game's declared units (``facts.utility``: +1 / -1 for a win or a
    loss in a win/loss game, the chips won or lost in Toy Chips), whichever seat the learner
    has; ``outcome`` 1 for a win, 0 for a loss."""
    game = make_game(name)
    facts = game.facts
    env = SingleAgentEnv(game, RandomBot(4), seed=11)
    rng = random.Random(0)
    seen = set()
    for _ in range(400):
        _, info = env.reset()
        seat = info["seat"]
        while True:
            legal = np.flatnonzero(env.action_masks()).tolist()
            _, reward, terminated, truncated, info = env.step(rng.choice(legal))
            if terminated or truncated:
                break
        if not terminated:
            continue
        returns = game.returns(env.state)
        won = returns[seat] > returns[1 - seat]
        lost = returns[seat] < returns[1 - seat]
        assert reward == returns[seat] and facts.min_utility <= reward <= facts.max_utility
        if facts.utility == "win/loss" and (won or lost):
            assert reward == (1.0 if won else -1.0), (name, seat, returns)
        if won:
            assert info["outcome"] == 1.0, (name, seat, returns)
            seen.add((seat, "win"))
        elif lost:
            assert info["outcome"] == 0.0, (name, seat, returns)
            seen.add((seat, "loss"))
        if len(seen) == 4:
            break
    assert seen == {(0, "win"), (0, "loss"), (1, "win"), (1, "loss")}, seen


def test_potential_based_shaping_telescopes_to_the_game_return():
    """Each step's reward is c·(Φ(s') − Φ(s)) on the learner's potential (shaping_gamma 1), the
    last one also carries the return and −c·Φ(s_last) (a finished game's potential is 0): the
    episode's sum is the return minus c·Φ(s_0) (Ng, Harada & Russell 1999)."""
    game = make_game("garda3")
    c = 0.5
    env = SingleAgentEnv(game, RandomBot(1), shaping=c, shaping_gamma=1.0, seed=3)
    for episode in range(4):
        env.reset()
        phi0 = prev = game.potential(env.state, env.seat)
        total, moved = 0.0, False
        rng = np.random.default_rng(episode)
        while True:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, terminated, truncated, info = env.step(action)
            total += reward
            if terminated or truncated:
                ret = info["returns"][env.seat]
                assert reward == pytest.approx(ret - c * prev)
                break
            phi = game.potential(env.state, env.seat)
            assert reward == pytest.approx(c * (phi - prev))
            moved |= phi != prev
            prev = phi
        assert total == pytest.approx(ret - c * phi0)
        assert moved  # HP changed during the game, so the shaping was not all zeros


def test_shaping_needs_a_potential_and_a_non_negative_weight():
    with pytest.raises(ConfigError, match="potential"):
        SingleAgentEnv(make_toy(), PerfectBot(), shaping=1.0)
    with pytest.raises(ConfigError, match="shaping"):
        SingleAgentEnv(make_game("garda3"), PerfectBot(), shaping=-1.0)


def test_shaping_on_an_illegal_move_ends_with_the_potential_removed():
    game = make_game("garda3", fighter_selection="random")  # fighters (and HP) from the start
    env = SingleAgentEnv(game, RandomBot(1), shaping=0.5, illegal_action="lose", seed=2)
    env.reset()
    phi0 = game.potential(env.state, env.seat)
    assert phi0 != 0.0  # unequal random fighters: the term is visible
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"]
    assert reward == pytest.approx(-1.0 - 0.5 * phi0)


def test_core_lead_helper_hand_computed():
    from card_envs.core.game import lead

    assert lead([5, 1, 3], 0, 4) == pytest.approx((5 - 2) / 4)  # mean of the others: 2
    assert lead([5, 1, 3], 1, 4) == pytest.approx((1 - 4) / 4)
    assert lead([10, 0], 0, 5) == 1.0 and lead([0, 10], 0, 5) == -1.0  # clipped


# -- issue 21: every keyword checked at construction, the error naming it ------------------------
def _take1(observation, action_mask):
    return TAKE1


class _ActWithoutPlayer:
    def act(self, game, state):
        return 0


@pytest.mark.parametrize("kwargs, message", [
    ({"learner_seat": True}, "config field 'learner_seat': expected None or a seat 0..1, got the "
                             "bool True"),
    ({"learner_seat": 2}, "config field 'learner_seat': 2 is not one of [None, 0, 1]"),
    ({"learner_seat": "0"}, "config field 'learner_seat': expected None or a seat 0..1, got "
                            "'0'"),
    ({"learner_seat": 1.0}, "config field 'learner_seat': expected None or a seat 0..1, got 1.0"),
    ({"max_steps": -1}, "config field 'max_steps': -1 is out of range >= 1"),
    ({"max_steps": 0}, "config field 'max_steps': 0 is out of range >= 1"),
    ({"max_steps": "abc"}, "config field 'max_steps': expected an int, got 'abc'"),
    ({"max_steps": 2.5}, "config field 'max_steps': expected an int, got 2.5"),
    ({"max_steps": True}, "config field 'max_steps': expected an int, got True"),
    ({"seed": -1}, "config field 'seed': -1 is out of range >= 0"),
    ({"seed": "7"}, "config field 'seed': expected an int, got '7'"),
    ({"shaping": "abc"}, "config field 'shaping': expected a number >= 0, got 'abc'"),
    ({"shaping_gamma": 1.5}, "config field 'shaping_gamma': expected a number in [0, 1], got "
                             "1.5"),
])
def test_a_wrong_keyword_is_a_config_error_naming_it(kwargs, message):
    with pytest.raises(ConfigError) as err:
        SingleAgentEnv(make_toy(), PerfectBot(), **kwargs)
    assert str(err.value) == message


@pytest.mark.parametrize("opponent, why", [
    (42, "42 is neither a policy with act(game, state, player) nor an (observation, action_mask)"
         " -> action callable"),
    (lambda observation: 0, "the callable <lambda> takes (observation): an opponent callable "
                            "takes (observation, action_mask)"),
    (lambda a, b, c: 0, "the callable <lambda> takes (a, b, c): an opponent callable takes "
                        "(observation, action_mask)"),
    (_ActWithoutPlayer(), "its act takes (game, state): a policy's act takes (game, state, "
                          "player)"),
    (RandomBot, "its act takes (self, game, state, player): a policy's act takes (game, state, "
                "player) (a class? pass an instance)"),
])
def test_an_opponent_of_the_wrong_kind_or_signature_is_refused_at_construction(opponent, why):
    with pytest.raises(ConfigError) as err:
        SingleAgentEnv(make_toy(), opponent)
    assert str(err.value) == f"config field 'opponents': {why}"
    env = SingleAgentEnv(make_toy(), PerfectBot())
    with pytest.raises(ConfigError) as err:
        env.reset(options={"opponent": opponent})
    assert str(err.value) == f"options['opponent']: {why}"
    SingleAgentEnv(make_toy(), _take1).reset(seed=0)  # the right signature plays


def test_gymnasium_make_with_a_wrong_opponent_is_a_config_error_naming_it():
    import gymnasium

    import card_envs.wrappers  # noqa: F401 - registers the ids

    with pytest.raises(ConfigError) as err:
        gymnasium.make("card_envs/Garda3-v0", opponent=42)
    assert str(err.value) == ("config field 'opponent': 42 is neither a policy with act(game, "
                              "state, player) nor an (observation, action_mask) -> action "
                              "callable")
    with pytest.raises(ConfigError, match="config field 'max_steps': -1 is out of range"):
        gymnasium.make("card_envs/Garda3-v0", max_steps=-1)


def test_a_kept_end_of_episode_mask_is_the_users_own_array():
    """issue 21: the all-ones ``info["action_mask"]`` of a finished episode was one shared
    writable array, so a user who zeroed a kept mask turned every later end-of-episode mask (and
    ``action_masks()``) to zeros. Each episode end now gives a fresh array."""
    env = SingleAgentEnv(make_toy(pile=2), RandomBot(0), learner_seat=0)
    kept = []
    for _ in range(3):
        _, info = env.reset()
        _, _, terminated, _, info = env.step(TAKE3)  # masked out: the episode ends ("lose")
        assert terminated and info["action_mask"].tolist() == [1, 1, 1]
        kept.append(info["action_mask"])
        info["action_mask"][:] = 0  # the user edits the mask they kept
    _, info = env.reset()
    _, _, terminated, _, info = env.step(TAKE2)  # takes the last 2 cards: a win
    assert terminated and info["outcome"] == 1.0
    assert info["action_mask"].tolist() == [1, 1, 1]
    assert env.action_masks().tolist() == [1, 1, 1]
    assert len({id(m) for m in kept + [info["action_mask"]]}) == 4


def test_plain_sb3_evaluate_policy_of_a_masked_model_warns_once_naming_the_masked_one(
        monkeypatch):
    """issue 21: SB3's own ``evaluate_policy`` (``EvalCallback`` calls it) predicts without the
    masks, so under the default ``illegal_action="lose"`` a MaskablePPO model forfeited every
    game (-1.000) without a word. Now the first such forfeit warns once per process
    (:class:`IllegalActionWarning`), naming sb3-contrib's masked ``evaluate_policy`` and
    ``MaskableEvalCallback``; that masked evaluation plays every game to its end."""
    pytest.importorskip("sb3_contrib")
    import gymnasium
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy as masked_evaluate
    from stable_baselines3.common.evaluation import evaluate_policy

    import card_envs.wrappers  # noqa: F401  (registers the ids)
    from card_envs.wrappers import single_agent

    monkeypatch.setattr(single_agent, "_WARNED", set())
    env = gymnasium.make("card_envs/Garda3-v0", opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    forfeits = []

    def count(local_vars, _globals):
        if local_vars["done"]:
            forfeits.append(bool(local_vars["info"].get("illegal_action")))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mean, _ = evaluate_policy(model, env, n_eval_episodes=4, callback=count)
    assert forfeits == [True] * 4 and mean == -1.0  # every game forfeited by a masked-out move
    ours = [w for w in caught if issubclass(w.category, single_agent.IllegalActionWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]  # once, not once per forfeit
    message = str(ours[0].message)
    assert "sb3_contrib.common.maskable.evaluation.evaluate_policy" in message
    assert "MaskableEvalCallback" in message and "illegal_action='lose'" in message
    forfeits.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        masked_evaluate(model, env, n_eval_episodes=4, callback=count)
    assert forfeits == [False] * 4
    assert not [w for w in caught if issubclass(w.category, single_agent.IllegalActionWarning)]
