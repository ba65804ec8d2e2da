"""Our AEC envs in TorchRL and Tianshou (the ``interop`` extra): TorchRL's
``PettingZooWrapper(use_mask=True)`` with ``check_env_specs`` for every game, with and without
bots inside the env, and a Tianshou masked random-vs-heuristic collection.

Under ``CI=true`` a missing torchrl or tianshou fails these tests (never a silent skip)."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

REASON = 'the interop extra is not installed: pip install "card-envs[interop]"'
if os.environ.get("CI", "").lower() == "true":
    import tianshou  # noqa: F401 - CI installs every extra: a missing one is a failure
    import torchrl  # noqa: F401
else:
    pytest.importorskip("torchrl", reason=REASON)
    pytest.importorskip("tianshou", reason=REASON)

from card_envs.core.registry import env_module  # noqa: E402
from card_envs.wrappers import with_opponents  # noqa: E402
from env_helpers import registered_games  # noqa: E402

GAMES = registered_games()


def _torchrl(env):
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    with warnings.catch_warnings():  # "tested with PettingZoo 1.24.3": we run 1.27
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return PettingZooWrapper(env=env, use_mask=True, seed=0)


def _check_env_specs(env, inner) -> None:
    """TorchRL's ``check_env_specs``: a 3-step random rollout checked against the specs, then
    one more random action drawn from the action spec. When the rollout reached the game's end
    (a game of 2-3 steps: Toy Chips) the acting agent's mask is all zeros there (PettingZoo's
    convention after the end: no legal action) and TorchRL's draw fails (``torch.multinomial``:
    "invalid multinomial distribution"), a limitation of TorchRL for any env whose games can be
    that short. Then the rollout's data had passed the spec comparison already; the failure is
    accepted only there, at the game's end."""
    from torchrl.envs.utils import check_env_specs

    try:
        check_env_specs(env)
    except RuntimeError as exc:
        if "invalid multinomial distribution" not in str(exc):
            raise
        assert inner.game.is_terminal(inner.state_obj), f"not at the game's end: {exc}"


@pytest.mark.parametrize("name", GAMES)
def test_torchrl_pettingzoo_wrapper_with_masks_every_game(name):
    inner = env_module(name).env(illegal_action="raise")  # a masked-out action would raise
    env = _torchrl(inner)
    assert sorted(env.group_map) == inner.possible_agents
    _check_env_specs(env, inner)
    rollout = env.rollout(5000, break_when_any_done=True)  # random actions within the masks
    record = inner.record()
    assert record.outcome is not None  # the game reached its end by its rules
    assert rollout.batch_size[0] == len(record.actions)  # one TorchRL step per decision
    for i, agent in enumerate(inner.possible_agents):
        last = rollout["next", agent, "reward"][-1].item()
        assert last == record.outcome[i]  # every seat's final reward, at the final step


@pytest.mark.parametrize("name", GAMES)
def test_torchrl_with_a_heuristic_playing_inside_the_env(name):
    inner = env_module(name).env(illegal_action="raise")
    env = _torchrl(with_opponents(inner, {"player_1": "heuristic"}))
    assert "player_1" not in env.group_map and "player_0" in env.group_map
    import torch

    torch.manual_seed(0)  # the rollout's random masked actions and the reset seed: repeatable
    env.set_seed(0)
    _check_env_specs(env, inner)
    rollout = env.rollout(5000, break_when_any_done=True)
    record = inner.record()
    assert record.outcome is not None
    learner_moves = rollout.batch_size[0]
    assert 0 < learner_moves < len(record.actions)  # the heuristic's moves happened inside
    assert rollout["next", "player_0", "reward"][-1].item() == record.outcome[0]
    assert rollout["next", "player_0", "done"][-1].item()


def test_tianshou_masked_random_against_the_heuristic_garda3():
    """Tianshou's masked random policy (player_0) against our heuristic, which plays player_1
    inside the env: 10 whole episodes, every action within the mask, each episode's return the
    learner's final reward; the heuristic (about 98 % against random over 400 games) wins most."""
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    from card_envs import garda3_v1

    def make():
        return PettingZooEnv(with_opponents(garda3_v1.env(illegal_action="raise"),
                                            {"player_1": "heuristic"}))

    env = make()
    assert env.agents == ["player_0"]
    random_player = MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[random_player], env=env)
    venv = DummyVectorEnv([make, make])
    venv.seed(0)
    np.random.seed(0)  # Tianshou's random policy draws from numpy's global RNG
    buffer = VectorReplayBuffer(4000, 2)
    collector = Collector(algorithm.policy, venv, buffer)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Sequence has shape")
        stats = collector.collect(n_episode=10, reset_before_collect=True)
    assert stats.n_collected_episodes == 10
    assert stats.n_collected_steps == int(stats.lens.sum()) > 10 * 5
    returns = stats.returns.reshape(-1)
    assert set(returns.tolist()) <= {-1.0, 0.0, 1.0}
    assert (returns == -1.0).sum() >= 8
    data = buffer.sample(0)[0]  # every stored transition
    chosen = data.obs.mask[np.arange(len(data)), data.act]
    assert len(data) == stats.n_collected_steps and chosen.all()
    assert set(data.obs.agent_id.tolist()) == {"player_0"}
