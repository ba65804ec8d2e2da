"""The privileged critic (training only): the core's ``observe_privileged`` is what the other seats
see, the single-agent env offers it as a Dict observation, the critic reads it and the actor never
does — the policy's action distribution does not move when the privileged part changes, and a
saved model plays in the evaluation tools from ``game.observe`` alone."""

import numpy as np
import pytest

from card_envs.core.errors import ConfigError
from card_envs.core.registry import make_game, make_heuristic
from card_envs.wrappers.single_agent import SingleAgentEnv
from env_helpers import registered_games


def _mid_game_state(game, seed=3, decisions=6):
    bot = make_heuristic(game.name)
    state = game.new_state(seed)
    for _ in range(decisions):
        if game.is_terminal(state):
            break
        game.apply_action(state, bot.act(game, state, game.current_player(state)))
    return state


@pytest.mark.parametrize("name", registered_games())
def test_observe_privileged_is_the_other_seats_views_in_seat_order(name):
    game = make_game(name)
    state = _mid_game_state(game)
    n = game.num_players
    for seat in range(n):
        priv = game.observe_privileged(state, seat)
        assert priv.dtype == np.float32 and priv.shape == game.privileged_shape
        assert game.privileged_shape == ((n - 1) * game.observation_shape[0],)
        expected = np.concatenate([game.observe(state, (seat + k) % n) for k in range(1, n)])
        assert np.array_equal(priv, expected)
    with pytest.raises(ValueError, match="no seat"):
        game.observe_privileged(state, n)
    with pytest.raises(ValueError, match="no seat"):
        game.observe_privileged(state, True)


def test_three_seats_order_starts_after_the_learner():
    game = make_game("dirt_and_glory", num_players=3)
    state = _mid_game_state(game)
    size = game.observation_shape[0]
    priv = game.observe_privileged(state, 1)
    assert np.array_equal(priv[:size], game.observe(state, 2))
    assert np.array_equal(priv[size:], game.observe(state, 0))


def test_single_agent_env_privileged_dict_observation():
    game = make_game("garda3")
    env = SingleAgentEnv(game, make_heuristic("garda3"), privileged=True, seed=1)
    obs, info = env.reset(seed=5)
    assert set(obs) == {"observation", "privileged"}
    assert env.observation_space.contains(obs)
    assert np.array_equal(obs["observation"], game.observe(env.state, env.seat))
    assert np.array_equal(obs["privileged"], game.observe_privileged(env.state, env.seat))
    # the same episode without privileged: the same own observations
    plain = SingleAgentEnv(game, make_heuristic("garda3"), seed=1)
    obs2, _ = plain.reset(seed=5)
    assert np.array_equal(obs["observation"], obs2)
    with pytest.raises(ConfigError, match="privileged must be True or False, got 1"):
        SingleAgentEnv(game, make_heuristic("garda3"), privileged=1)


def test_gymnasium_checker_accepts_the_privileged_env():
    from gymnasium.utils.env_checker import check_env

    check_env(SingleAgentEnv(make_game("garda3"), make_heuristic("garda3"), privileged=True,
                             seed=0), skip_render_check=True)


def _privileged_model(tmp_path=None):
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    torch.manual_seed(0)
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.training.args import Args
    from card_envs.training.model import make_model

    game = make_game("garda3")
    env = DummyVecEnv([lambda: SingleAgentEnv(game, make_heuristic("garda3"), privileged=True,
                                              seed=0, illegal_action="raise")])
    return game, make_model(env, Args(seed=0, net_arch="32,32", privileged_critic=True))


def test_the_actor_never_reads_the_privileged_part_and_the_critic_does():
    torch = pytest.importorskip("torch")

    game, model = _privileged_model()
    policy = model.policy
    state = _mid_game_state(game)
    seat = game.current_player(state)
    own = torch.as_tensor(game.observe(state, seat))[None]
    mask = game.legal_action_mask(state).astype(bool)[None]
    rng = np.random.default_rng(0)
    probs, values = [], []
    for _ in range(3):  # three arbitrary privileged parts, the same own observation
        priv = torch.as_tensor(rng.random(game.privileged_shape, dtype=np.float32))[None]
        obs = {"observation": own, "privileged": priv}
        with torch.no_grad():
            probs.append(policy.get_distribution(obs, action_masks=mask).distribution.probs)
            values.append(float(policy.predict_values(obs)))
    assert torch.equal(probs[0], probs[1]) and torch.equal(probs[0], probs[2])
    assert len(set(values)) == 3  # the critic does read it
    # the actor's input layer has the size of the own observation only
    first = policy.mlp_extractor.policy_net[0]
    assert first.in_features == game.observation_shape[0]
    assert policy.mlp_extractor.value_net[0].in_features == (
        game.observation_shape[0] + game.privileged_shape[0])


def test_a_saved_privileged_model_plays_from_its_own_observation_only(tmp_path):
    torch = pytest.importorskip("torch")

    from card_envs.bots.sb3 import FrozenPolicy
    from card_envs.evaluation.policies import resolve_policy

    game, model = _privileged_model()
    path = tmp_path / "priv.zip"
    model.save(path)
    policy = resolve_policy(str(path), "garda3", game=game)
    assert isinstance(policy, FrozenPolicy)
    assert policy.observation_shape == game.observation_shape  # no privileged input
    state = _mid_game_state(game)
    seat = game.current_player(state)
    # the numpy actor equals the torch actor fed the own observation with any privileged part
    own = game.observe(state, seat)
    with torch.no_grad():
        logits = model.policy.get_distribution({
            "observation": torch.as_tensor(own)[None],
            "privileged": torch.zeros((1, *game.privileged_shape))}).distribution.logits
    expected = logits[0].numpy()
    got = policy.logits(own)
    got = got - np.log(np.exp(got - got.max()).sum()) - got.max()
    assert np.allclose(got, expected, atol=1e-5)
    assert policy.act(game, state, seat) in game.legal_actions(state)


def test_a_model_whose_actor_reads_the_privileged_part_is_refused_with_a_reason():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from card_envs.bots.sb3 import FrozenPolicy

    game = make_game("garda3")
    env = SingleAgentEnv(game, make_heuristic("garda3"), privileged=True, seed=0)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=16, device="cpu")
    with pytest.raises(ConfigError, match=r"its actor reads a Dict observation "
                                          r"\(\['observation', 'privileged'\]\)"):
        FrozenPolicy(model.policy, name="mine")
