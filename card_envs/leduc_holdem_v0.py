"""Leduc Hold'em as a PettingZoo AEC environment (``leduc_holdem_v0``): this docstring is the
env's spec, and tests assert its tables against the code. The rules, with their ids (LH-):
``docs/rules/leduc_holdem.md``; they are OpenSpiel's ``leduc_poker`` (a test walks the whole game
tree of both in lockstep) and RLCard's / PettingZoo's ``leduc_holdem_v4``.

Usage::

    from card_envs import leduc_holdem_v0
    env = leduc_holdem_v0.env(render_mode="ansi")
    env.reset(seed=42)

Agents: ``player_0``, ``player_1``; ``player_0`` acts first in both betting rounds (LH-3.1).

Observation
-----------
``{"observation": float32 (45,), "action_mask": int8 (3,)}``; every observation value lies in
[0, 1]. The opponent's card is encoded only after a showdown, the public card only once it is
turned (round 2). The betting history is encoded whole, so the observation has perfect recall
(OpenSpiel's information state holds the same). The mask is all zeros for an agent that is not
to act.

| indices | name | meaning |
|---|---|---|
| 0–2 | `my_card` | my card's rank, one-hot (jack, queen, king) |
| 3–5 | `public_card` | the public card's rank, one-hot (all 0 in round 1) |
| 6–8 | `opponent_card` | the opponent's rank, one-hot (all 0 unless the game ended in a showdown) |
| 9 | `seat` | my seat (0 or 1) |
| 10 | `my_turn` | 1 if I am to act |
| 11–12 | `round` | the betting round, one-hot (all 0 once over) |
| 13–14 | `chips` | chips in the pot: mine, the opponent's, each / the config's max_chips |
| 15–44 | `history` | per round, 5 slots of the actions taken in order, one-hot (fold, call, raise); 0 if empty |

Observation modes
-----------------
``observation_mode="flat"`` (default), ``"dict"`` or ``"entities"``: what each holds is in
:mod:`card_envs.core.observation_modes` (every mode shows what the flat vector shows, no more).
Here a row is one of the three cards (declared beside the encoder,
``leduc_holdem/observation.py``); no action refers to a card, so every action target is -1:

| key | shape | rows | meaning |
|---|---|---|---|
| `cards` | (3, 4) | 0–2 | row 0 my card, row 1 the public card (once turned), row 2 the opponent's card (after a showdown); features: shown; jack; queen; king |
| `cards_mask` | (3,) | | 1 for a row holding one (feature 0 non-zero) |
| `globals` | (36,) | | the flat pieces `seat`, `my_turn`, `round`, `chips`, `history` in that order |
| `action_targets` | (3, 1) | | per action id the row(s) it refers to, -1 for none (table below) |

| actions | column | refers to |
|---|---|---|

Actions
-------
``Discrete(3)`` (the ids of OpenSpiel's ``leduc_poker``):

| indices | name | meaning |
|---|---|---|
| 0 | `fold` | give up the pot (only when facing a raise) |
| 1 | `call` | match the opponent's chips (a check when there is nothing to match) |
| 2 | `raise` | match, then put in the round's raise size more (at most max_raises a round) |

Rewards
-------
At the end only, in **chips** (``game.facts.utility == "chips"``): the winner gets the chips the
loser put into the pot, the loser loses them (zero-sum, LH-5.1); a split pot gives 0 to both
(LH-4.4). With the default config a return lies in [-13, 13] (``facts.min_utility``,
``facts.max_utility``: the ante and two raises in each round, LH-5.3), so ``card-envs
evaluate`` reports the mean return with its interval beside win/draw/loss. No game is
truncated: every game ends within 8 decisions (``max_game_length``).

Arguments
---------
``ante=1`` (1–10), ``first_raise=2`` (1–20), ``second_raise=4`` (1–20), ``max_raises=2`` (1–3)
(:class:`~card_envs.leduc_holdem.config.LeducHoldemConfig`; variants: any of these changed, e.g.
``max_raises=1``; the utility range is ±(ante + max_raises·(first_raise + second_raise)) and the
game lasts at most 2·(max_raises + 2) decisions; the observation layout stays the same);
``render_mode=None`` | ``"ansi"`` | ``"human"`` | ``"rgb_array"``; ``render_seat=None`` |
``"player_k"``; ``illegal_action="terminate"`` | ``"raise"``; ``illegal_reward=-1.0`` (the
offender's reward when an illegal move ends the game: PettingZoo's default; pass
``facts.min_utility``, -13, so that no illegal move pays better than a legal loss);
``observation_mode="flat"`` |
``"dict"`` | ``"entities"``.

Version history
---------------
- v0: first release (issue 23: the guide's worked example of a short game with chip rewards).
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from card_envs.leduc_holdem import make_game

raw_env, env = make_env_functions(make_game, "leduc_holdem_v0")

#: the same names in every env module: the PettingZoo pair and the game factory they wrap
__all__ = ["env", "make_game", "raw_env"]
