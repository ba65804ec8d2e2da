"""Pebbles as a PettingZoo AEC environment (``pebbles_v0``), in its own package.

Agents ``player_0``, ``player_1``. Observation ``{"observation": float32 (3,), "action_mask":
int8 (2,)}``: ``[left / 20, my_turn, seat]``. Actions ``Discrete(2)``: ``take 0`` takes 1 pebble,
``take 1`` takes 2. Rewards at the end: -1 to the seat that took the last pebble, +1 to the other.
Arguments: ``pebbles=7`` (2..20) and the env keywords of every card-envs env.

Version history: v0, first release.
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from cardenvs_pebbles.rules import make_game

raw_env, env = make_env_functions(make_game, "pebbles_v0")

__all__ = ["env", "make_game", "raw_env"]
