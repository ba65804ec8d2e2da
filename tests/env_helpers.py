"""Shared test helper: an env of a registered game after a few random legal steps."""

from __future__ import annotations

import random

import numpy as np

from card_envs.core.registry import env_module


def env_mid_game(name: str, seed: int, decisions: int, **env_kwargs):
    """``env_module(name).env(**env_kwargs)`` reset with ``seed``, after ``decisions`` random
    legal steps (drawn from ``random.Random(seed)``)."""
    env = env_module(name).env(**env_kwargs)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env


def states_along(game, seed: int, decisions: int):
    """The states along one random game of ``game`` (at most ``decisions`` of them; each is the
    live state, changed by the next move)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(decisions):
        if game.is_terminal(state):
            return
        yield state
        game.apply_action(state, rng.choice(game.legal_actions(state)))
