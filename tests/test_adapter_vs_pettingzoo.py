"""The one adapter builds in PettingZoo's three safety wrappers; this checks it behaves as the same
env wrapped in OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(env, -1)))."""

import re

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from card_envs.core import registry
from card_envs.core.errors import IllegalActionError
from env_helpers import registered_games

GAMES = [(g, {}) for g in registered_games()] + [("garda3", {"variant": "free_for_all"})]


def pz_wrapped(name, config, illegal_reward=-1):
    inner = registry.env_module(name).raw_env(illegal_action="raise", **config)
    env = wrappers.TerminateIllegalWrapper(inner, illegal_reward=illegal_reward)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def ours(name, config, **kwargs):
    return registry.env_module(name).env(**config, **kwargs)


def snapshot(env):
    """Everything an agent loop sees. One deliberate difference: after an illegal move our mask is
    all zeros (the game is over), while the wrapped env still shows the inner env's stale mask;
    so masks are compared only while nobody is done."""
    done = any(env.terminations.values()) or any(env.truncations.values())
    obs = {a: {k: v.tobytes() for k, v in env.observe(a).items()
               if not (done and k == "action_mask")} for a in env.agents}
    return (list(env.agents), env.agent_selection if env.agents else None,
            dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations),
            dict(env.truncations), obs)


@pytest.mark.parametrize("name,config", GAMES)
def test_same_behaviour_as_pettingzoo_wrapped_env(name, config):
    for seed in range(6):
        a, b = ours(name, config), pz_wrapped(name, config)
        a.reset(seed=seed)
        b.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while a.agents:
            assert snapshot(a) == snapshot(b)
            agent = a.agent_selection
            if a.terminations[agent] or a.truncations[agent]:
                action = None
            else:
                mask = a.observe(agent)["action_mask"]
                illegal = np.flatnonzero(mask == 0)
                # now and then an in-range action the mask forbids
                if steps > 5 and rng.random() < 0.03 and len(illegal):
                    action = int(rng.choice(illegal))
                else:
                    action = int(rng.choice(np.flatnonzero(mask)))
            a.step(action)
            b.step(action)
            steps += 1
        assert snapshot(a) == snapshot(b)
        assert not b.agents


@pytest.mark.parametrize("name,config", GAMES[:1])
def test_same_errors_as_pettingzoo_wrapped_env(name, config):
    a, b = ours(name, config), pz_wrapped(name, config)
    for env in (a, b):
        with pytest.raises(AttributeError, match="before reset"):
            env.agents  # noqa: B018
        with pytest.raises(AssertionError, match="reset"):
            env.step(0)
        with pytest.raises(AssertionError, match="reset"):
            env.observe("player_0")
    a.reset(seed=0)
    b.reset(seed=0)
    n = a.action_space("player_0").n
    with pytest.raises(AssertionError):
        b.step(n)
    with pytest.raises(IllegalActionError):  # ours names the action instead
        a.step(n)
    # a dead agent may only step with None
    a.reset(seed=0)
    b.reset(seed=0)
    bad = int(np.flatnonzero(a.observe(a.agent_selection)["action_mask"] == 0)[0])
    a.step(bad)
    b.step(bad)
    for env in (a, b):
        with pytest.raises(ValueError, match="None"):
            env.step(0)


def test_illegal_reward_as_pettingzoos_wrapper_parameter():
    # a game paying chips: an illegal move costs the worst return, -13 chips (LH-5.3), as
    # TerminateIllegalWrapper(env, illegal_reward=-13) gives
    worst = registry.make_game("leduc_holdem").facts.min_utility
    assert worst == -13.0
    a = ours("leduc_holdem", {}, illegal_reward=worst)
    b = pz_wrapped("leduc_holdem", {}, illegal_reward=worst)
    for env in (a, b):
        env.reset(seed=1)
    offender = a.agent_selection
    bad = int(np.flatnonzero(a.observe(offender)["action_mask"] == 0)[0])  # fold with nothing owed
    a.step(bad)
    b.step(bad)
    assert snapshot(a) == snapshot(b)
    assert a.rewards == {offender: -13.0, ("player_1" if offender == "player_0" else
                                           "player_0"): 0.0}


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "-1", True, None])
def test_a_bad_illegal_reward_is_refused_naming_the_field(bad):
    from card_envs.core.errors import ConfigError

    with pytest.raises(ConfigError, match="config field 'illegal_reward': expected a finite "
                                          "number, got"):
        ours("garda3", {}, illegal_reward=bad)


@pytest.mark.parametrize("bad", ["a", 1.5, True, -1])
def test_a_reset_seed_gymnasium_refuses_is_refused_naming_it(bad):
    from gymnasium.utils import seeding

    from card_envs.core.errors import ConfigError

    if bad is not True:  # Gymnasium takes True as 1; we refuse a bool, as for actions
        with pytest.raises(Exception):  # noqa: B017 - Gymnasium's refusal (gymnasium.error.Error)
            seeding.np_random(bad)
    env = ours("garda3", {})
    with pytest.raises(ConfigError, match=r"^reset\(seed=\.\.\.\): expected None or an int >= 0, "
                                          rf"got {re.escape(repr(bad))} \({type(bad).__name__}\)$"):
        env.reset(seed=bad)
    env.reset(seed=np.int64(3))  # a numpy integer is a seed, as in Gymnasium
    first = env.state_seed
    env.reset(seed=3)
    assert env.state_seed == first
