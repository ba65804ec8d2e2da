"""Scratch Wars duel as a PettingZoo AEC env: ``scratch_wars_v2`` (levels 1–3).

The rules as implemented: ``docs/rules/scratch_wars.md`` (rule ids ``SW-…``). Rules code:
:mod:`card_envs.scratch_wars.rules` (the game), ``constants`` (the action layout), ``state``,
``observation``; the env is the suite's one generic adapter (:mod:`card_envs.core.aec`).

Usage::

    from card_envs import scratch_wars_v2
    env = scratch_wars_v2.env(level=3, render_mode="ansi")
    env = scratch_wars_v2.env(level=2, effects="attack_only",
                              loadouts=[{"hero": "Published Hero", "weapons": ["Longbow"]},
                                        {"hero": "Sir Bramble", "weapons": ["Diamond Wand"]}])

Agents: ``player_0``, ``player_1``. Every decision of a turn is one step, including the
defender's shield decisions during the opponent's turn (``agent_selection`` moves to the
defender and back). The only chance is the spin (uniform over a wheel's 9 segments, from the
state's seeded RNG).

Observation
-----------
``{"observation": float32 (1534,), "action_mask": int8 (47,)}``; every entry in
``[-1, 1]`` (the declared ``Box``): flags and one-hots 0/1, each number divided by its scale
and clipped to ``[-1, 1]`` — HP, attack values and shield totals / 40 (``HP_MAX``, the largest
printed HP: HP is ``[-1, 1]``, below −40 HP reads −1), printed values (segments, spins, stored
and pending effects, initiative, hero bonuses) / 12 (``SEGMENT_VALUE_MAX``; an initiative not
spun yet is −1), durability / 9, cost / 3, a hero's energy per time of day / 6, and the counters
by the config: energy / ``energy_cap``, actions left / ``actions_per_turn``, round /
``max_rounds``, day / the days of ``max_rounds`` (:mod:`card_envs.scratch_wars.observation`).
Random play keeps the numbers within about ``[-0.2, 0.75]``. Everything is public,
seen from the observer's side (``my_*`` / ``opp_*``):

| indices | name | meaning |
|---|---|---|
| 0 | `my_hp` | my hero's HP / 40 (SW-3.4; <= 0 at the end; below -40 HP reads -1) |
| 1 | `my_hp_max` | my hero's printed duel HP / 40 (SW-1.1) |
| 2 | `my_energy` | my energy / energy_cap (SW-5.1; 0 below level 3) |
| 3 | `opp_hp` | opponent hero's HP / 40 |
| 4 | `opp_hp_max` | opponent hero's printed duel HP / 40 |
| 5 | `opp_energy` | opponent's energy / energy_cap |
| 6–9 | `time_of_day` | one-hot morning/noon/evening/night (SW-4.1; all 0 at level 1) |
| 10 | `round` | round number, 1-based (SW-4.1) / max_rounds (at most 1) |
| 11 | `day` | day number, 1-based (4 rounds a day; SW-4.4 sudden death from day 3) / the days of max_rounds (at most 1) |
| 12 | `is_my_turn` | 1 if the current turn is mine (the shield decider may differ) |
| 13 | `is_my_decision` | 1 if I decide now |
| 14 | `i_started` | 1 if I am the starting player (SW-2.2), 0 otherwise/before |
| 15 | `actions_left` | actions left in the current turn (SW-3.1) / actions_per_turn |
| 16–24 | `phase` | one-hot decision phase: init_weapon, init_order, main, result, bonus, target, shield, detonate, over |
| 25 | `last_spin_mine` | 1 if the last spin was mine |
| 26 | `last_spin_opp` | 1 if the last spin was the opponent's |
| 27–31 | `last_spin_weapon` | one-hot slot of the last spun weapon (of its owner) |
| 32–40 | `last_spin_segment` | one-hot segment index 0..8 the last spin landed on |
| 41–48 | `last_spin_effect` | one-hot effect icon of the last spun segment |
| 49 | `last_spin_value` | printed value of the last spun segment / 12 |
| 50–52 | `last_spin_colour` | one-hot field colour green/orange/red of the last spun segment |
| 53 | `pending_value` | value of the spun effect awaiting apply/decline (incl. bonus) / 12, clipped to [-1, 1] |
| 54 | `my_init_value` | my initiative spin value / 12 (-1 = none yet) |
| 55 | `opp_init_value` | opponent's initiative spin value / 12 (-1 = none yet) |
| 56–80 | `my_weapon_status` | per my slot k (5 each): absent, ready, broken, repairing, holding a stored effect |
| 81–95 | `my_stored_effect` | per my slot k (3 each): stored permanent, shield, combo |
| 96–100 | `my_stored_value` | per my slot: stored effect value / 12, clipped to 1 (0 if none) |
| 101–105 | `my_stored_durability` | per my slot: stored effect durability / 9 (0 if none) |
| 106–130 | `opp_weapon_status` | per opponent slot k: absent, ready, broken, repairing, stored |
| 131–145 | `opp_stored_effect` | per opponent slot k: stored permanent, shield, combo |
| 146–150 | `opp_stored_value` | per opponent slot: stored effect value / 12 |
| 151–155 | `opp_stored_durability` | per opponent slot: stored effect durability / 9 |
| 156–157 | `my_bonus_used` | my bonus slots 0/1 used this turn (SW-4.2) |
| 158–159 | `opp_bonus_used` | opponent's bonus slots 0/1 used this turn |
| 160–161 | `bonus_offered` | bonus slots 0/1 offered in the current bonus decision |
| 162 | `attack_value` | value of the attack being resolved (target/shield decisions) / 40, clipped to 1 |
| 163 | `attack_shielded` | shield total already subtracted from that attack (SW-5.12) / 40, clipped to 1 |
| 164 | `attack_by_me` | 1 if I am the attacker of that attack |
| 165–175 | `attack_target` | one-hot target: hero, weapon slot 0..4, stored effect slot 0..4 (of the defender) |
| 176–210 | `my_weapon_info` | per my slot (7 each): type one-hot bow/axe/sword/wand, energy cost / 3, durability / 9, hero trained in its type |
| 211–245 | `opp_weapon_info` | per opponent slot: type one-hot, cost / 3, durability / 9, trained |
| 246–785 | `my_wheels` | per my slot, per segment (12 each): effect one-hot (8), value / 12, colour one-hot (3) |
| 786–1325 | `opp_wheels` | per opponent slot, per segment: effect one-hot, value / 12, colour |
| 1326–1429 | `my_hero` | my hero card: per time of day (25 each): energy / 6, then 2 bonus slots (bonus effect one-hot 11 incl. blessing/combo_bonus/detonator, value / 12: -5/12..0.75); then trained types (4) |
| 1430–1533 | `opp_hero` | the opponent's hero card, same encoding |

Observation modes
-----------------
``observation_mode="flat"`` (default), ``"dict"`` or ``"entities"``: what each holds is in
:mod:`card_envs.core.observation_modes` (every mode shows what the flat vector shows, no more).
Here a row is one weapon slot or hero, every entry one of the flat vector's (or a product of two of
its flags: in play, spun last, attacked); the entity layout:

| key | shape | rows | meaning |
|---|---|---|---|
| `my_weapons` | (5, 129) | 0–4 | my weapon slots 0–4; features: in play; the slot's entries of `my_weapon_info`, `my_weapon_status`, `my_stored_effect`, `my_stored_value`, `my_stored_durability`, `my_wheels` (its 9 segments); spun last; attacked (the weapon); attacked (its stored effect) |
| `my_weapons_mask` | (5,) | | 1 for a row holding one (feature 0 non-zero) |
| `opp_weapons` | (5, 129) | 5–9 | the opponent's weapon slots 0–4; features: as `my_weapons`, from the `opp_*` pieces |
| `opp_weapons_mask` | (5,) | | 1 for a row holding one (feature 0 non-zero) |
| `heroes` | (2, 111) | 10–11 | my hero, then the opponent's; features: `*_hp`, `*_hp_max`, `*_energy`, `*_bonus_used`, `*_init_value`, `*_hero` (the hero card); attacked |
| `heroes_mask` | (2,) | | 1 for every row |
| `globals` | (48,) | | the flat pieces `time_of_day`, `round`, `day`, `is_my_turn`, `is_my_decision`, `i_started`, `actions_left`, `phase`, `last_spin_mine`, `last_spin_opp`, `last_spin_segment`, `last_spin_effect`, `last_spin_value`, `last_spin_colour`, `pending_value`, `bonus_offered`, `attack_value`, `attack_shielded`, `attack_by_me` in that order |
| `action_targets` | (47, 1) | | per action id the row(s) it refers to, -1 for none (table below) |

| actions | column | refers to |
|---|---|---|
| `init_weapon` (0–4) | 0 | `my_weapons` row i (action i of the piece) |
| `spin` (7–11) | 0 | `my_weapons` row i (action i of the piece) |
| `repair` (12–16) | 0 | `my_weapons` row i (action i of the piece) |
| `cancel` (17–21) | 0 | `my_weapons` row i (action i of the piece) |
| `apply` (23) | 0 | `my_weapons`: the weapon I spun (its effect awaits apply / decline) |
| `decline` (24) | 0 | `my_weapons`: the weapon I spun |
| `target_hero` (28) | 0 | `heroes` row 1: the opposing hero |
| `target_weapon` (29–33) | 0 | `opp_weapons` row i (action i of the piece) |
| `target_effect` (34–38) | 0 | `opp_weapons` row i (action i of the piece) |
| `shield` (39–43) | 0 | `my_weapons` row i (action i of the piece) |

Actions
-------
``Discrete(47)``; ``k`` is a weapon slot 0..4 in the loadout's order, ``j`` a bonus slot
of the current time of day. An action's name is its piece name, with ``k`` / ``j`` for a piece
of several (``"spin 2"``, ``"end_turn"``); ``action_to_string`` adds the weapon it names (the
deciding seat's; the defender's for a target) or the bonus: ``"spin 2: Longbow"``,
``"bonus 0: hero_attack +2"``:

| indices | name | meaning |
|---|---|---|
| 0–4 | `init_weapon` | SW-2.2: spin weapon slot k for initiative |
| 5–6 | `init_order` | SW-2.2 initiative winner: 0 = I start, 1 = the opponent starts |
| 7–11 | `spin` | SW-3.1/SW-5.2: spend an action (and energy) to spin weapon slot k |
| 12–16 | `repair` | SW-5.9: repair broken weapon slot k (1 action + its spin cost) |
| 17–21 | `cancel` | SW-5.10: cancel the own stored effect on weapon slot k (free) |
| 22 | `end_turn` | SW-5.3: end the turn voluntarily |
| 23 | `apply` | SW-3.2: apply (or store) the spun effect |
| 24 | `decline` | SW-3.2: decline the spun effect (green/orange fields) and go on |
| 25–26 | `bonus` | SW-4.2/SW-6: add hero bonus slot j of the current time of day |
| 27 | `no_bonus` | SW-4.2: add no bonus to this spin/use |
| 28 | `target_hero` | SW-5.7/SW-5.13: attack the opposing hero |
| 29–33 | `target_weapon` | SW-5.6: attack opposing weapon slot k (in play) |
| 34–38 | `target_effect` | SW-5.6: attack the stored effect on opposing slot k |
| 39–43 | `shield` | SW-5.12 (defender): use the own stored shield on slot k |
| 44 | `shield_done` | SW-5.12 (defender): use no (more) shields against this attack |
| 45 | `detonate` | SW-5.13/SW-6.3: detonate all stored combos now |
| 46 | `keep_combos` | SW-5.13: keep the stored combos for later |

Rewards
-------
Zero-sum at the end: the winner (the opposing hero at 0 HP or below, SW-3.4) +1, the loser −1;
both heroes down at once (sudden death, SW-4.4) is a draw, 0 each; a truncation (``max_rounds``
rounds, SW-4.4 DECISION) gives 0 to both. No intermediate rewards.

Episode end
-----------
Terminated when a hero falls (or both); truncated after ``max_rounds`` (default 60) rounds or
the adapter's ``max_steps``.

Arguments (config fields, all keyword)
--------------------------------------
``level`` (1, 2, 3; default 3), ``effects`` (level 2 only: ``"full"`` default or
``"attack_only"``), ``loadouts`` (``None`` = random legal loadouts from the seed, or two
``{"hero", "weapons"}`` dicts), ``random_weapons`` (5), ``catalogue_dir`` (``None`` = shipped
catalogue), and every rules DECISION: ``actions_per_turn`` (4), ``start_penalty`` (2),
``initiative_ties`` (``"spin_again"``), ``negative_bonus`` (``"first_match"``),
``attack_only_icon_bonus`` (True), ``level2_repair`` (``"action_only"``), ``sudden_death_round``
(9), ``sudden_death_damage`` (5), ``max_rounds`` (60), ``energy_cap`` (12),
``untrained_surcharge`` (1), ``effect_target_only`` (True), ``shield_before_durability`` (True),
``permanent_fires_when_stored`` (True), ``shield_block_floor`` (True), ``detonation``
(``"all"``), ``end_of_turn_order`` (``"permanent_then_combo"``), ``no_target``
(``"cannot_apply"``) — see
:class:`card_envs.scratch_wars.config.ScratchWarsConfig`. Adapter arguments: ``render_mode``
(``None``/``"ansi"``/``"human"``/``"rgb_array"``: a picture of the table, ``uint8`` 1280×1202),
``render_seat`` (``None`` or ``"player_k"``), ``illegal_action`` (``"terminate"``/``"raise"``), ``illegal_reward`` (-1.0),
``observation_mode`` (``"flat"``/``"dict"``/``"entities"``: the section "Observation modes"),
``max_steps``.

Version history
---------------
- v0: first version (levels 1, 2 attack_only/full, 3; designed catalogue of 13 heroes and
  32 weapons).
- v1: rule amendment SW-5.12 DECISION ``shield_block_floor=True``: each used shield blocks
  ``max(0, value + bonus)``, so a negative shield bonus weakens a shield to 0 at most (v0 let a
  negative bonus larger than the shield add to the attack; the shipped catalogue has no
  negative shield bonus, so only other catalogues play differently; ``False`` restores v0).
  The ``round``, ``day`` and ``attack_shielded`` observation entries are clipped to 64, the
  declared bound (v0 gave 65 from round 64 on, reachable with ``max_rounds`` above 63). Saved
  states are the core's declared state (strictly validated on load, ``check_state``).
  Later within v1 (play, observations and the action layout unchanged): saved states changed
  shape — named records instead of positional lists (``weapon_slots`` of ``{status, stored}``,
  ``last_spin``, ``attack`` with ``target`` / ``target_slot``, ``spin_value``,
  ``bonus_event``, spelled-out field names), so a state saved before does not load; action
  strings are the core's ``"spin 2: Longbow"`` (were ``"spin 2 (Longbow)"``).
- v2: the observation is normalised: every entry in ``[-1, 1]`` (the scales above; v1 gave raw
  numbers in a declared ``[-64, 64]`` that stayed within about ``[-7, 25]``, the round and day
  clipped to 64). Play, rules, the action layout and the observation's layout are unchanged;
  saved states and records of v1 are refused (the version changed). ``scratch_wars_v1``
  raises an ImportError naming this module.
  Later (the flat observation, the action layout and play unchanged): ``observation_mode="dict"``
  and ``"entities"`` (the section "Observation modes").
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from card_envs.scratch_wars.rules import make_game

raw_env, env = make_env_functions(make_game, "scratch_wars_v2")

#: the same names in every env module: the PettingZoo pair and the game factory they wrap
__all__ = ["env", "make_game", "raw_env"]
