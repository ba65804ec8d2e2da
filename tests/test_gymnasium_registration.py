"""Gymnasium ids: one per registry game, registered by importing card_envs.wrappers; the Game API
and ``import card_envs`` import no Gymnasium."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from card_envs.core.errors import ConfigError
from card_envs.core.registry import GAMES, available_games
from card_envs.wrappers import GYMNASIUM_IDS, SingleAgentEnv, gymnasium_id

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_one_id_per_registry_game():
    assert GYMNASIUM_IDS == {name: gymnasium_id(name) for name in GAMES}
    assert gymnasium_id("garda3") == "card_envs/Garda3-v0"
    assert gymnasium_id("scratch_wars") == "card_envs/ScratchWars-v0"
    assert gymnasium_id("dirt_and_glory") == "card_envs/DirtAndGlory-v0"
    assert gymnasium_id("rust_brawl") == "card_envs/RustBrawl-v0"
    for env_id in GYMNASIUM_IDS.values():
        assert env_id in gymnasium.registry


def test_make_in_a_fresh_interpreter_with_the_module_prefix():
    out = _run(
        "import sys, gymnasium\n"
        "assert 'card_envs' not in sys.modules\n"
        "env = gymnasium.make('card_envs.wrappers:card_envs/Garda3-v0', opponent='heuristic')\n"
        "obs, info = env.reset(seed=0)\n"
        "u = env.unwrapped\n"
        "print(type(u).__name__, u.spec.id, obs.shape, obs.dtype, info['action_mask'].shape,\n"
        "      type(u._opponent).__name__, u.game.name)\n")
    assert out.split() == ["SingleAgentEnv", "card_envs/Garda3-v0", "(294,)", "float32",
                           "(56,)", "HeuristicBot", "garda3"]


@pytest.mark.parametrize("name", available_games())
def test_every_id_makes_and_passes_both_checkers(name):
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make(GYMNASIUM_IDS[name])
    assert isinstance(env.unwrapped, SingleAgentEnv) and env.unwrapped.game.name == name
    check_env(env.unwrapped)
    sb3_check_env(env)
    obs, info = env.reset(seed=1)
    done = False
    while not done:  # a whole episode through the Gymnasium wrappers, masked random play
        action = int(np.random.default_rng(0).choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert reward == (0.0 if truncated else info["returns"][env.unwrapped.seat])


def test_make_passes_env_keywords_config_fields_and_policy_specs():
    env = gymnasium.make("card_envs/Garda3-v0", opponent="random", variant="royale",
                         reward_mode="win_loss", learner_seat=1, seed=3)
    u = env.unwrapped
    assert (u.game.config.variant, u.reward_mode, u.learner_seat) == ("royale", "win_loss", 1)
    assert type(u._opponent).__name__ == "RandomBot"
    d = gymnasium.make("card_envs/DirtAndGlory-v0", num_players=3)
    assert d.unwrapped.game.num_players == 3
    with pytest.raises(ConfigError, match="champion"):
        gymnasium.make("card_envs/Garda3-v0", opponent="champion")
    with pytest.raises(ConfigError, match="no_such_field"):
        gymnasium.make("card_envs/Garda3-v0", no_such_field=1)


def test_the_game_api_imports_no_gymnasium_and_the_env_modules_only_through_pettingzoo():
    out = _run(
        "import sys\n"
        "import card_envs\n"
        "from card_envs.core.registry import GAMES, make_game\n"
        "for name in GAMES:\n"
        "    game = make_game(name)\n"
        "    state = game.new_state(0)\n"
        "    game.apply_action(state, game.legal_actions(state)[0])\n"
        "    game.observe(state, 0)\n"
        "print('gymnasium' in sys.modules, 'pettingzoo' in sys.modules)\n"
        "import pettingzoo\n"
        "print('gymnasium' in sys.modules)\n")
    # the Game API: neither; PettingZoo itself imports Gymnasium (its spaces), so an env module
    # (card_envs.garda3_v1 -> pettingzoo) has it loaded whatever our code does
    assert out.split() == ["False", "False", "True"]
