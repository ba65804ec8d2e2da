"""Toy Nim as a PettingZoo AEC environment (``toy_nim_v0``) — the template of an env module:
this docstring is the env's spec, and a test asserts its tables against the code.

Usage::

    from card_envs.testing import toy_nim_v0
    env = toy_nim_v0.env(num_players=2, pile=10, render_mode="ansi")
    env.reset(seed=42)

Agents: ``player_0 … player_{n-1}`` (``num_players`` 2–4); ``player_0`` starts.

Observation
-----------
``{"observation": float32 (6,), "action_mask": int8 (3,)}``; every observation value lies in
[0, 1]. The bonus card's position is never encoded. The mask is all zeros for an agent that is
not to act.

| indices | name | meaning |
|---|---|---|
| 0 | `pile` | cards left / 40 |
| 1 | `my_turn` | 1 if I am to take |
| 2 | `seat` | my seat / 3 |
| 3 | `seats` | number of seats / 4 |
| 4 | `decisions` | decisions made / max_rounds |
| 5 | `bonus_mine` | 1 if I took the bonus card |

Observation modes
-----------------
``observation_mode="flat"`` (default), ``"dict"`` or ``"entities"``: what each holds is in
:mod:`card_envs.core.observation_modes` (every mode shows what the flat vector shows, no more).
Here a row is one card of the pile's top or one seat (declared beside the encoder,
``toy_game/observation.py``); the entity layout:

| key | shape | rows | meaning |
|---|---|---|---|
| `top_cards` | (3, 1) | 0–2 | the top 3 cards of the pile (which one is the bonus card is not shown); features: a card |
| `top_cards_mask` | (3,) | | 1 for a row holding one (feature 0 non-zero) |
| `seats` | (4, 3) | 3–6 | seats 0–3; features: seat exists; me; to take |
| `seats_mask` | (4,) | | 1 for a row holding one (feature 0 non-zero) |
| `globals` | (3,) | | the flat pieces `pile`, `decisions`, `bonus_mine` in that order |
| `action_targets` | (3, 1) | | per action id the row(s) it refers to, -1 for none (table below) |

| actions | column | refers to |
|---|---|---|
| `take` (0–2) | 0 | `top_cards` row i (action i of the piece) |

Actions
-------
``Discrete(3)``:

| indices | name | meaning |
|---|---|---|
| 0–2 | `take` | take k+1 cards from the pile (never more than are left) |

Rewards
-------
At the end only: +1 to the seat that takes the last card, ``-1/(n-1)`` to every other seat.
A game reaching ``max_rounds`` decisions ends with 0 for all, reported as ``truncated``.

Arguments
---------
``num_players=2`` (2–4), ``pile=10`` (1–40), ``max_rounds=100``, ``hidden_bonus=True``;
``render_mode=None`` | ``"ansi"`` | ``"human"`` | ``"rgb_array"``; ``render_seat=None`` |
``"player_k"``; ``illegal_action="terminate"`` | ``"raise"``; ``observation_mode="flat"`` |
``"dict"`` | ``"entities"``.

Version history
---------------
- v0: first release.
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from card_envs.testing.toy_game import make_game

raw_env, env = make_env_functions(make_game, "toy_nim_v0")

#: the same names in every env module: the PettingZoo pair and the game factory they wrap
__all__ = ["env", "make_game", "raw_env"]
