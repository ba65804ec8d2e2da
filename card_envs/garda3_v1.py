"""Garda3 as a PettingZoo AEC environment (``garda3_v1``) — this docstring is the env's spec.

Garda3 (Lionel Korzár & DanQ, CC BY-SA 4.0) is a duel of guards of three fighters: each round the
attacker sends a fighter and plays one or two battle cards high/low, the defender answers with
defence cards, hits cost HP, and a surviving defender may counter-attack. Rules as implemented,
with rule ids: ``docs/rules/garda3.md``.

Usage::

    from card_envs import garda3_v1
    env = garda3_v1.env(variant="classic", fighter_set="default", render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(
            np.flatnonzero(obs["action_mask"])[0])
        env.step(action)

Agents: ``player_0``, ``player_1`` (``player_2`` with ``free_for_all``). The starting player is
drawn by lot from the seed (G-2.2).

Observation
-----------
``{"observation": float32 (294,), "action_mask": int8 (56,)}``; every
observation value lies in [0, 1]. Seats are relative to the observer ("me", +1, +2 clockwise).
Another player's hand, the deck order and a face-down night attack card are never encoded.
The mask is all zeros for an agent that is not to act.

| indices | name | meaning |
|---|---|---|
| 0–10 | `phase` | one-hot phase: draft, target, attacker_fighter, defender_fighter, attack_cards, attack_bonus, defence_cards, defence_bonus, counter_choice, resurrect_choice, over |
| 11–14 | `role` | [I am to act, I am the striker, I am the blocker, I am this round's attacker] |
| 15–17 | `battle_flags` | [this battle is the counter-attack, a face-down attack card is hidden from me (night), a resurrection was declared this round] |
| 18–53 | `hand` | my hand: 1 per battle-card id held |
| 54–89 | `attack_cards` | attack cards of the current battle that I can see |
| 90–125 | `defence_cards` | defence cards of the current battle |
| 126–161 | `discard` | the public discard pile (G-4.9) |
| 162–163 | `attack_bonus_side` | chosen attack-bonus side one-hot [high, low] |
| 164–165 | `defence_bonus_side` | chosen defence-bonus side one-hot [high, low] |
| 166–228 | `fighters` | seats (me, +1, +2 clockwise) × slots 0–2 × [chosen, alive, hp/7, max_hp/7, attack_bonus/2, defence_bonus/2, in battle] |
| 229–264 | `draft_pool` | the 9 fighters of the set I draft from × [available, attack_bonus/2, defence_bonus/2, hp/7] |
| 265–267 | `hand_sizes` | hand size / 36 for seats me, +1, +2 |
| 268 | `deck_size` | deck size / 36 |
| 269 | `round` | round / max_rounds |
| 270–275 | `seat_roles` | for seats me, +1, +2: [is this round's attacker, is the target] |
| 276–278 | `players_in` | for seats me, +1, +2: still has a fighter (seat exists and is in) |
| 279–286 | `battle` | the current battle as I can see it (derived, G-4.3–G-4.8): [striker's attack bonus/2, blocker's defence bonus/2, attack high/8, attack low/8, defence high/8, defence low/8, damage if resolved now/8 (capped at 1), cards played by the striker/2] |
| 287–293 | `hand_summary` | my hand (derived): [best attack value high/3, best attack value low/3, best defence value high/3, best defence value low/3, white, black, piebald cards/3 (capped at 1)] |

Battle-card ids: ``id = (value-1)*12 + attack_dir*6 + defence_dir*3 + colour`` (dirs high=0,
low=1; colours white=0, black=1, piebald=2), each of the 36 combinations once (G-1.3).

Observation modes
-----------------
``observation_mode="flat"`` (default), ``"dict"`` or ``"entities"``: what each holds is in
:mod:`card_envs.core.observation_modes` (every mode shows what the flat vector shows, no more).
Here a row is one battle card, fighter or draft-pool fighter; the entity layout for 2-player games
without ``royale`` (with ``royale`` the hand has 36 rows):

| key | shape | rows | meaning |
|---|---|---|---|
| `hand` | (3, 8) | 0–2 | my hand, sorted by card id (36 rows with `royale`); features: value / 3; attack high; attack low; defence high; defence low; white; black; piebald |
| `hand_mask` | (3,) | | 1 for a row holding one (feature 0 non-zero) |
| `attack_cards` | (2, 8) | 3–4 | the current battle's attack cards I can see, in play order; features: the 8 battle-card features |
| `attack_cards_mask` | (2,) | | 1 for a row holding one (feature 0 non-zero) |
| `defence_cards` | (2, 8) | 5–6 | the current battle's defence cards; features: the 8 battle-card features |
| `defence_cards_mask` | (2,) | | 1 for a row holding one (feature 0 non-zero) |
| `discard` | (36, 8) | 7–42 | the public discard pile, sorted by card id; features: the 8 battle-card features |
| `discard_mask` | (36,) | | 1 for a row holding one (feature 0 non-zero) |
| `own_fighters` | (3, 7) | 43–45 | my fighter slots 0–2 (a view of the flat piece `fighters`); features: chosen; alive; hp / 7; max_hp / 7; attack_bonus / 2; defence_bonus / 2; in battle |
| `own_fighters_mask` | (3,) | | 1 for a row holding one (feature 0 non-zero) |
| `opponent_fighters` | (6, 7) | 46–51 | fighter slots 0–2 of the seat +1 clockwise, then of the seat +2 (zero in 2-player games) (a view of the flat piece `fighters`); features: as `own_fighters` |
| `opponent_fighters_mask` | (6,) | | 1 for a row holding one (feature 0 non-zero) |
| `draft_pool` | (9, 4) | 52–60 | the 9 fighters of the set I draft from (a row is empty once taken) (a view of the flat piece `draft_pool`); features: available; attack_bonus / 2; defence_bonus / 2; hp / 7 |
| `draft_pool_mask` | (9,) | | 1 for a row holding one (feature 0 non-zero) |
| `globals` | (51,) | | the flat pieces `phase`, `role`, `battle_flags`, `attack_bonus_side`, `defence_bonus_side`, `hand_sizes`, `deck_size`, `round`, `seat_roles`, `players_in`, `battle`, `hand_summary` in that order |
| `action_targets` | (56, 1) | | per action id the row(s) it refers to, -1 for none (table below) |

| actions | column | refers to |
|---|---|---|
| `pick` (0–8) | 0 | `draft_pool` row i (action i of the piece) |
| `slot` (9–11) | 0 | `own_fighters` row i (action i of the piece) |
| `card` (14–49) | 0 | `hand`: the row holding card id c |

Actions
-------
``Discrete(56)``; a turn is a sequence of small decisions, each with its own mask:

| indices | name | meaning |
|---|---|---|
| 0–8 | `pick` | draft: take fighter k (0–8) of the set being drafted (G-2.3) |
| 9–11 | `slot` | choose own fighter slot k (0–2): the fighter sent into battle (G-4.1), or the eliminated fighter to bring back (G-7.2) |
| 12–13 | `target` | free_for_all: attack the opponent k+1 seats clockwise (G-7.4) |
| 14–49 | `card` | play battle card id c (0–35) from hand as attack or defence (G-4.2, G-4.6) |
| 50 | `done` | stop after one card (play a single card); an empty defence only under `allow_empty_defence` (G-4.6) |
| 51–52 | `bonus` | give the fighter's bonus to the high (0) / low (1) direction (G-4.5, G-4.6) |
| 53 | `counter` | counter-attack (G-5.1) |
| 54 | `decline` | decline the counter-attack (G-5.2) |
| 55 | `resurrect` | declare a resurrection instead of attacking (G-7.2, `resurrection` variant) |

Flow of one round: (``target``, free_for_all) → attacker ``slot`` → defender ``slot`` → attack
``card`` (then a same-colour second ``card`` or ``done``; or ``resurrect`` → ``slot`` of the
eliminated fighter) → ``bonus`` side if the two attack cards differ in direction and the fighter
has an attack bonus → defence ``card`` (then a same-colour second ``card`` or ``done``; against a
one-direction attack the second card must defend in the first one's direction, G-4.6) → ``bonus``
side if two defence directions both face an attack → ``counter``/``decline`` → the counter-attack
runs the same card steps with roles swapped. A play of one card ends by itself when no second card
could join it; night plays are always one card.

Rewards
-------
At the end only: +1 to the winner, −1 to the loser (2 players); free_for_all: +1 to the winner
and −1/2 to each other player (G-7.4). A game reaching ``max_rounds`` (G-6.2) ends as a draw
with 0 for all and is reported as ``truncated``. An in-range action the mask forbids ends the game
with −1 for the offender and 0 for the others (PettingZoo convention), or raises with
``illegal_action="raise"``; an out-of-range action always raises ``IllegalActionError``.

Arguments
---------
``garda3_v1.env(**kwargs)`` / ``garda3_v1.raw_env(**kwargs)`` (the same env: PettingZoo's
safety checks are built in):

- ``variant="classic"``: or a ``+``-joined combination of ``royale``, ``resurrection``,
  ``night``, ``free_for_all`` (G-7.1–G-7.6), e.g. ``"royale+night"``.
- ``fighter_selection="draft"`` | ``"own_sets"`` | ``"random"`` (G-2.1, G-2.3).
- ``fighter_set="default"``: a shipped set name, a TOML file path, or a dict (G-1.4).
- ``own_fighter_sets=None``: per-player sets under ``own_sets``.
- ``piebald_is_wild=False`` (G-1.5), ``allow_empty_defence=False`` (G-4.6),
  ``split_defence_needs_split_attack=True`` (G-4.6: two defence cards of different directions
  only against a two-direction attack), ``attacker_must_play=True`` (G-4.2),
  ``counter_attack_optional=True`` (G-5.2), ``max_rounds=200`` (G-6.2).
- ``render_mode=None`` | ``"ansi"`` | ``"human"`` | ``"rgb_array"`` (a picture of the table,
  ``uint8`` 1280×1022, 2 seats); ``render_seat=None`` | ``"player_k"`` (only that seat's view);
  ``illegal_action="terminate"`` | ``"raise"``; ``illegal_reward=-1.0`` (the offender's reward
  when an illegal move ends the game); ``observation_mode="flat"`` | ``"dict"`` |
  ``"entities"`` (the section "Observation modes"); ``max_steps=None`` (decision cap, default
  ``Garda3Game.max_game_length``).

Version history
---------------
- v0: first release.
- v1: rule amendment G-4.6 (the Czech "Pokud útočník použil útok ze dvou směrů, může se také
  bránit, pokud má dvě karty různých směrů"): a defence of two cards with *different* defence
  directions is legal only against a two-direction attack (new config field
  ``split_defence_needs_split_attack``, default ``True``; ``False`` restores v0's rule). The
  state is declared once (``Garda3State``), saved states are validated field by field
  (``StateError`` naming the path), and v0 saved states / records (``version`` 0, no ``seed``
  field in v1 states) do not load. Observation and action layouts are unchanged.
- Later within v1 (the flat observation, the action layout and play unchanged):
  ``observation_mode="dict"`` and ``"entities"`` (the section "Observation modes").
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from card_envs.garda3.rules import make_game

raw_env, env = make_env_functions(make_game, "garda3_v1")

#: the same names in every env module: the PettingZoo pair and the game factory they wrap
__all__ = ["env", "make_game", "raw_env"]
