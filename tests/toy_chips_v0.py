"""Toy Chips as a PettingZoo AEC environment (``toy_chips_v0``), the env module of the tests'
short chip game (:mod:`toy_chips`; registered by the tests only: ``env_helpers.TEST_GAMES``).

Agents ``player_0``, ``player_1``; observation ``float32 (11,)`` in [0, 1] with an int8 ``(3,)``
action mask; actions ``Discrete(3)``: ``check`` (or call), ``bet`` (or raise), ``fold``;
rewards at the end only: the chips won or lost (±1 to ±3). Arguments: ``max_bets=2`` (1–2) and
the adapter's (``render_mode``, ``render_seat``, ``illegal_action``, ``observation_mode``
``"flat"`` | ``"dict"``: no entity view).
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from toy_chips import make_game

raw_env, env = make_env_functions(make_game, "toy_chips_v0")

__all__ = ["env", "make_game", "raw_env"]
