"""Frozen MaskablePPO policies (card_envs.bots.sb3) act as the model would, and stay frozen."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

from card_envs.bots.base import RandomBot  # noqa: E402
from card_envs.bots.sb3 import FrozenPolicy, load_policy  # noqa: E402
from card_envs.wrappers.single_agent import SingleAgentEnv  # noqa: E402
from toy_game import make_game as make_toy  # noqa: E402

torch.set_num_threads(1)


def snapshot(model, name, deterministic=False):
    return FrozenPolicy(model.policy, deterministic=deterministic, name=name)


def _model(activation=torch.nn.Tanh, arch=(32, 32)):
    env = SingleAgentEnv(make_toy(pile=15), RandomBot(0), seed=0)
    return MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                       policy_kwargs={"net_arch": list(arch), "activation_fn": activation},
                       device="cpu")


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU])
def test_numpy_forward_matches_model_predict(activation):
    model = _model(activation)
    frozen = snapshot(model, "s", deterministic=True)
    assert frozen._layers is not None  # the fast numpy path is used for plain MLPs
    rng = np.random.default_rng(0)
    for _ in range(100):
        obs = rng.random(6, dtype=np.float32)
        mask = rng.integers(0, 2, 3).astype(np.int8)
        mask[rng.integers(0, 3)] = 1
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert frozen.choose(obs, mask) == int(expected)
        assert frozen(obs, mask) == int(expected)
        got, _ = frozen.predict(obs, action_masks=mask, deterministic=True)
        assert got == int(expected)
        with torch.no_grad():
            logits = model.policy.get_distribution(torch.as_tensor(obs[None])).distribution.logits
        mine = frozen.logits(obs).astype(np.float64)
        mine -= np.log(np.exp(mine - mine.max()).sum()) + mine.max()  # log-softmax, as torch's
        np.testing.assert_allclose(mine, logits[0].numpy(), rtol=1e-4, atol=1e-5)


def test_snapshot_is_frozen_and_round_trips_through_zip(tmp_path):
    model = _model()
    frozen = snapshot(model, "s", deterministic=True)
    obs = np.full(6, 0.3, dtype=np.float32)
    before = frozen.logits(obs).copy()
    model.learn(128)
    np.testing.assert_array_equal(frozen.logits(obs), before)
    path = tmp_path / "m.zip"
    model.save(path)
    loaded = load_policy(path)
    np.testing.assert_allclose(loaded.logits(obs), snapshot(model, "t").logits(obs), rtol=1e-6)


def test_frozen_policy_acts_legally_and_samples_only_legal_actions():
    model = _model()
    game = make_toy(pile=15)
    stochastic = FrozenPolicy(model.policy, deterministic=False, seed=0)
    state = game.new_state(0)
    state.pile = 2  # only "take 1" and "take 2" are legal
    seen = {stochastic.act(game, state, 0) for _ in range(200)}
    assert seen <= {0, 1}
    with pytest.raises(ValueError, match="all zeros"):
        stochastic.choose(np.zeros(6, np.float32), np.zeros(3, np.int8))
