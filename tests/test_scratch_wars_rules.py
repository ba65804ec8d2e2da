"""Scratch Wars duel: scripted-spin tests with hand-computed outcomes (rule ids in names).

A small fixture catalogue is built in code so the arithmetic is clear; ``state.forced_spins``
(the documented test hook) fixes the segment every spin lands on.
"""

from __future__ import annotations

import pytest

from card_envs.core.errors import IllegalActionError
from card_envs.scratch_wars import constants as C
from card_envs.scratch_wars.cards import Catalogue, Hero, Weapon
from card_envs.scratch_wars.config import ScratchWarsConfig
from card_envs.scratch_wars.observation import OBSERVATION as OBS
from card_envs.scratch_wars.rules import ScratchWarsGame
from card_envs.scratch_wars.state import BROKEN_SLOT, StoredEffect, WeaponSlot


def seg(effect, value, colour, durability=None):
    d = {"effect": effect, "value": value, "colour": colour}
    if durability is not None:
        d["durability"] = durability
    return d


G, O, RED = "green", "orange", "red"
SWORD = Weapon(
    name="Sword A", origin="designed", type="sword", cost=1, durability=3,
    segments=[
        seg("energy", 2, G),          # 0
        seg("hero_attack", 3, G),     # 1
        seg("hero_attack", 4, O),     # 2
        seg("hero_attack", 5, RED),   # 3
        seg("weapon_attack", 3, G),   # 4
        seg("permanent", 2, G, 2),    # 5
        seg("shield", 3, G, 2),       # 6
        seg("combo", 2, G, 2),        # 7
        seg("universal", 4, O),       # 8
    ],
)
AXE = Weapon(
    name="Axe B", origin="designed", type="axe", cost=2, durability=2,
    segments=[
        seg("energy", 5, G),          # 0
        seg("hero_attack", 2, G),     # 1
        seg("heal", 2, G),            # 2
        seg("combo", 3, G),           # 3 (durability: the weapon's, 2)
        seg("shield", 2, G),          # 4
        seg("weapon_attack", 2, O),   # 5
        seg("hero_attack", 6, RED),   # 6
        seg("energy", 1, O),          # 7
        seg("universal", 1, G),       # 8
    ],
)
WAND = Weapon(
    name="Wand C", origin="designed", type="wand", cost=3, durability=4,
    segments=[seg("hero_attack", 1, G)] * 4 + [seg("weapon_attack", 9, RED)] + [seg("shield", 3, G)] * 4,
)
TESTER = Hero(
    name="Tester", origin="designed", hp=20, trained=["sword", "bow"],
    morning={"energy": 3, "bonuses": [{"effect": "hero_attack", "value": 2},
                                      {"effect": "heal", "value": -1}]},
    noon={"energy": 4, "bonuses": [{"effect": "blessing", "value": 1}]},
    evening={"energy": 2, "bonuses": [{"effect": "combo_bonus", "value": 3},
                                      {"effect": "detonator", "value": 1}]},
    night={"energy": 6, "bonuses": [{"effect": "shield", "value": 2},
                                    {"effect": "permanent", "value": 1}]},
)
PLAIN = Hero(
    name="Plain", origin="designed", hp=20, trained=["sword", "bow", "axe", "wand"],
    morning={"energy": 3}, noon={"energy": 3}, evening={"energy": 3}, night={"energy": 3},
)
CAT = Catalogue([TESTER, PLAIN], [SWORD, AXE, WAND])
ALL = ["Sword A", "Axe B", "Wand C"]


def setup(level=3, effects=None, w0=ALL, w1=ALL, starter=0, **cfg):
    """Game + state after initiative (SW-2.2): seat 0 spins Sword A segment 3 (value 5), seat 1
    segment 0 (value 2); seat 0 wins and lets ``starter`` start."""
    config = ScratchWarsConfig(
        level=level, effects=effects,
        loadouts=[{"hero": "Tester", "weapons": list(w0)}, {"hero": "Plain", "weapons": list(w1)}],
        **cfg,
    )
    game = ScratchWarsGame(config, catalogue=CAT)
    s = game.new_state(0)
    game.set_forced_spins(s, [3, 0])
    game.apply_action(s, C.A_INIT_WEAPON + 0)
    game.apply_action(s, C.A_INIT_WEAPON + 0)
    assert s.initiative_value[0] == 5 and s.initiative_value[1] < 5 and game.current_player(s) == 0
    game.apply_action(s, C.A_INIT_ORDER + (0 if starter == 0 else 1))
    return game, s


def spin(game, s, slot, segment):
    s.forced_spins.append(segment)
    game.apply_action(s, C.A_SPIN + slot)


def store(s, p, k, eff, val, dur):
    """Place a stored effect directly (a position for the test)."""
    s.weapon_slots[p][k] = WeaponSlot(C.STORED, StoredEffect(eff, val, dur, False))
    s.legal_cache = None


def status(s):
    """Per seat, per weapon slot: the slot status."""
    return [[slot.status for slot in row] for row in s.weapon_slots]


def stored(s, p, k):
    """The stored effect on seat ``p``'s slot ``k`` as ``(effect, value, durability)``, or
    ``-1`` when the slot holds none."""
    e = s.weapon_slots[p][k].stored
    return -1 if e is None else (e.effect, e.value, e.durability)


# -- set-up and initiative --------------------------------------------------------------------
def test_sw_2_2_starting_player_loses_2_hp():
    game, s = setup(level=1, starter=1)
    assert s.starter == 1 and s.turn == 1 and game.current_player(s) == 1
    assert s.hp == [20, 18]
    game, s = setup(level=1, starter=0)
    assert s.hp == [18, 20] and s.actions_left == 4


def test_sw_2_2_initiative_tie_spins_again():
    config = ScratchWarsConfig(level=1, loadouts=[("Tester", ["Sword A"]), ("Plain", ["Sword A"])])
    game = ScratchWarsGame(config, catalogue=CAT)
    s = game.new_state(1, forced_spins=[0, 0, 1, 3])  # 2 vs 2 (tie), then 3 vs 5
    game.apply_action(s, C.A_INIT_WEAPON)
    assert game.current_player(s) == 1
    game.apply_action(s, C.A_INIT_WEAPON)
    assert s.phase == C.PH_INIT_WEAPON and game.current_player(s) == 0
    assert s.initiative_value == [2, 2]
    game.apply_action(s, C.A_INIT_WEAPON)
    game.apply_action(s, C.A_INIT_WEAPON)
    assert s.initiative_value == [3, 5]
    assert s.phase == C.PH_INIT_ORDER and game.current_player(s) == 1


# -- level 1: field colours -------------------------------------------------------------------
def test_sw_3_2_orange_decline_and_continue_then_apply_ends_turn():
    game, s = setup(level=1)
    spin(game, s, 0, 2)  # hero attack 4, orange: decide
    assert s.phase == C.PH_RESULT and game.legal_actions(s) == [C.A_APPLY, C.A_DECLINE]
    game.apply_action(s, C.A_DECLINE)
    assert s.hp[1] == 20 and s.actions_left == 3 and s.phase == C.PH_MAIN and s.turn == 0
    spin(game, s, 0, 1)  # 3 green: applied at once at level 1, go on
    assert s.hp[1] == 17 and s.actions_left == 2 and s.phase == C.PH_MAIN
    spin(game, s, 0, 2)
    game.apply_action(s, C.A_APPLY)  # orange applied: 17 - 4 = 13, turn over
    assert s.hp[1] == 13 and s.turn == 1 and s.actions_left == 4


def test_sw_3_2_red_stops_with_actions_left():
    game, s = setup(level=1)
    spin(game, s, 0, 3)  # 5 red on the first action
    assert s.hp[1] == 15 and s.turn == 1 and s.actions_left == 4 and game.current_player(s) == 1


def test_sw_5_3_no_voluntary_end_below_level_3():
    game, s = setup(level=1)
    assert C.A_END_TURN not in game.legal_actions(s)
    game, s = setup(level=3)
    assert C.A_END_TURN in game.legal_actions(s)


def test_sw_3_4_hero_at_zero_loses():
    game, s = setup(level=1)
    s.hp[1] = 5
    spin(game, s, 0, 3)  # 5 red: 5 - 5 = 0
    assert game.is_terminal(s) and game.returns(s) == [1.0, -1.0] and not game.is_truncated(s)
    assert game.current_player(s) == -1 and game.legal_actions(s) == []


# -- level 2: bonuses -------------------------------------------------------------------------
def test_sw_4_2_bonus_once_per_turn_and_only_in_its_time_of_day():
    game, s = setup(level=2, effects="full")
    spin(game, s, 0, 1)  # hero attack 3 green
    game.apply_action(s, C.A_APPLY)
    assert s.phase == C.PH_BONUS and game.legal_actions(s) == [C.A_BONUS + 0, C.A_NO_BONUS]
    game.apply_action(s, C.A_BONUS + 0)  # morning hero_attack +2
    assert s.hp[1] == 15 and s.bonus_used[0] == [True, False]
    spin(game, s, 0, 1)
    game.apply_action(s, C.A_APPLY)  # bonus already used this turn: no bonus decision
    assert s.hp[1] == 12 and s.phase == C.PH_MAIN
    spin(game, s, 0, 3)  # 5 red: forced, ends the turn
    assert s.hp[1] == 7 and s.turn == 1
    spin(game, s, 0, 3)  # Plain (no bonuses) 5 red on Tester: 18 - 5
    assert s.hp[0] == 13 and s.turn == 0 and game.time_of_day(s) == 1  # noon
    spin(game, s, 0, 1)
    game.apply_action(s, C.A_APPLY)
    # noon: the hero_attack +2 bonus is gone, the blessing +1 (slot 0) is offered instead
    assert s.phase == C.PH_BONUS and game.legal_actions(s) == [C.A_BONUS + 0, C.A_NO_BONUS]
    game.apply_action(s, C.A_BONUS + 0)
    assert s.hp[1] == 3


def test_sw_4_2_negative_bonus_is_forced_once():
    game, s = setup(level=2, effects="full")
    s.hp[0] = 10
    spin(game, s, 1, 2)  # Axe heal 2 green; morning heal -1 is forced
    game.apply_action(s, C.A_APPLY)
    assert s.hp[0] == 11 and s.bonus_used[0] == [False, True] and s.phase == C.PH_MAIN
    spin(game, s, 1, 2)  # the negative bonus counted as used: full 2
    game.apply_action(s, C.A_APPLY)
    assert s.hp[0] == 13


def test_sw_4_3_attack_only_every_effect_hits_the_hero_with_icon_bonus():
    """SW-4.3 ``effects="attack_only"``: a heal and a permanent are attacks on the hero."""
    game, s = setup(level=2, effects="attack_only")
    spin(game, s, 1, 2)  # heal 2 -> an attack of 2, heal -1 icon bonus forced: 1
    game.apply_action(s, C.A_APPLY)
    assert s.hp == [18, 19]
    spin(game, s, 0, 5)  # permanent 2 -> attack 2, no storing
    game.apply_action(s, C.A_APPLY)
    assert s.hp[1] == 17 and status(s)[0][0] == C.READY


def test_sw_4_3_level2_energy_is_an_empty_action():
    """SW-4.3 ``effects="full"`` at level 2: energy is an empty action."""
    game, s = setup(level=2, effects="full")
    spin(game, s, 1, 0)  # energy 5: nothing happens, 1 action spent
    game.apply_action(s, C.A_APPLY)
    assert s.energy == [0, 0] and s.actions_left == 3 and s.hp == [18, 20]


# -- level 3: energy --------------------------------------------------------------------------
def test_sw_5_1_energy_cap_12_and_sw_5_2_untrained_surcharge():
    """SW-5.1, SW-5.2; SW-5.4: an energy result gains its value, capped at 12."""
    game, s = setup(level=3)
    assert s.energy[0] == 3  # morning value
    assert game.spin_cost(s, 0, 0) == 1  # sword: trained
    assert game.spin_cost(s, 0, 1) == 3  # axe: cost 2 + 1 untrained
    assert game.spin_cost(s, 0, 2) == 4  # wand: cost 3 + 1 untrained
    assert game.spin_cost(s, 1, 1) == 2  # Plain is trained in axes
    assert C.A_SPIN + 2 not in game.legal_actions(s)  # 4 > 3 energy: can't be paid
    spin(game, s, 1, 0)  # 3 - 3 = 0, +5 energy green
    game.apply_action(s, C.A_APPLY)
    assert s.energy[0] == 5 and s.actions_left == 3
    s.energy[0] = 10
    spin(game, s, 0, 0)  # 10 - 1 = 9, +2 -> 11
    game.apply_action(s, C.A_APPLY)
    assert s.energy[0] == 11
    spin(game, s, 1, 0)  # 11 - 3 = 8, +5 -> 13 capped at 12
    game.apply_action(s, C.A_APPLY)
    assert s.energy[0] == 12
    game.apply_action(s, C.A_END_TURN)
    assert s.turn == 1 and s.energy[1] == 3
    game.apply_action(s, C.A_END_TURN)
    assert s.energy[0] == 12  # 12 + noon 4 capped at 12


def test_sw_5_3_turn_ends_when_energy_runs_out():
    game, s = setup(level=3)
    spin(game, s, 1, 1)  # 3 - 3 = 0 energy; hero attack 2 green
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_NO_BONUS)
    assert s.hp[1] == 18 and s.turn == 1 and s.actions_left == 4


# -- SW-5.6 weapon attack, SW-5.9 repair --------------------------------------------------------
def test_sw_5_6_weapon_attack_breaks_only_at_durability_le_value():
    game, s = setup(level=3)
    store(s, 1, 0, C.SHIELD, 3, 2)  # opponent's Sword A holds a shield (durability 2)
    spin(game, s, 0, 4)  # weapon attack 3 green
    game.apply_action(s, C.A_APPLY)
    # Axe B (dur 2) may be broken; Wand C (dur 4) not; Sword A only through its effect (dur 2)
    assert game.legal_actions(s) == [C.A_TARGET_WEAPON + 1, C.A_TARGET_EFFECT + 0]
    game.apply_action(s, C.A_TARGET_WEAPON + 1)
    assert s.phase == C.PH_SHIELD and game.current_player(s) == 1
    shielded = game.clone(s)
    game.apply_action(s, C.A_SHIELD_DONE)  # 3 >= durability 2: broken
    assert status(s)[1] == [C.STORED, C.BROKEN, C.READY, C.ABSENT, C.ABSENT]
    # SW-5.6 DECISION: the shield (3) reduces the attack before the durability comparison
    game.apply_action(shielded, C.A_SHIELD + 0)
    assert status(shielded)[1] == [C.READY, C.READY, C.READY, C.ABSENT, C.ABSENT]


def test_sw_5_6_targeted_shield_cannot_shield_itself():
    game, s = setup(level=3, w1=["Sword A", "Wand C"])
    store(s, 1, 0, C.SHIELD, 3, 2)
    spin(game, s, 0, 4)
    game.apply_action(s, C.A_APPLY)
    assert game.legal_actions(s) == [C.A_TARGET_EFFECT + 0]
    game.apply_action(s, C.A_TARGET_EFFECT + 0)  # no other shield: resolved at once
    assert status(s)[1][0] == C.READY and s.turn == 0 and s.phase == C.PH_MAIN


def test_sw_5_6_weapon_attack_cancels_a_stored_effect_instead():
    game, s = setup(level=3)
    store(s, 1, 0, C.PERMANENT, 3, 2)
    spin(game, s, 0, 4)
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_TARGET_EFFECT + 0)
    assert status(s)[1][0] == C.READY and stored(s, 1, 0) == -1  # cancelled, weapon back, unbroken


def test_sw_5_15_weapon_attack_without_target_cannot_be_applied():
    game, s = setup(level=3, w1=["Wand C"])  # only durability 4 > 3
    spin(game, s, 0, 4)
    assert game.legal_actions(s) == [C.A_DECLINE]


def test_sw_5_9_repair_restores_at_the_start_of_the_next_turn():
    game, s = setup(level=3)
    s.weapon_slots[1][1] = BROKEN_SLOT
    game.apply_action(s, C.A_END_TURN)
    assert s.turn == 1 and s.energy[1] == 3
    legal = game.legal_actions(s)
    assert C.A_REPAIR + 1 in legal and C.A_SPIN + 1 not in legal
    game.apply_action(s, C.A_REPAIR + 1)  # 1 action + 2 energy (Plain trained in axes)
    assert status(s)[1][1] == C.REPAIRING and s.actions_left == 3 and s.energy[1] == 1
    assert C.A_SPIN + 1 not in game.legal_actions(s)
    game.apply_action(s, C.A_END_TURN)
    assert status(s)[1][1] == C.REPAIRING  # still during seat 0's turn
    game.apply_action(s, C.A_END_TURN)
    assert s.turn == 1 and status(s)[1][1] == C.READY


# -- stored effects -----------------------------------------------------------------------------
def test_sw_5_11_permanent_attack_fires_at_turn_end_reduced_by_shield():
    game, s = setup(level=3)
    store(s, 1, 2, C.SHIELD, 1, 3)
    spin(game, s, 0, 5)  # permanent 2 green (durability 2): stored
    game.apply_action(s, C.A_APPLY)
    assert status(s)[0][0] == C.STORED and stored(s, 0, 0) == (C.PERMANENT, 2, 2)
    assert C.A_SPIN + 0 not in game.legal_actions(s)
    game.apply_action(s, C.A_END_TURN)
    # SW-5.14: the permanent attack fires; the defender decides on shields
    assert s.phase == C.PH_SHIELD and game.current_player(s) == 1
    assert game.legal_actions(s) == [C.A_SHIELD + 2, C.A_SHIELD_DONE]
    game.apply_action(s, C.A_SHIELD + 2)
    assert s.hp[1] == 19 and status(s)[1][2] == C.READY  # 2 - 1; the shield is spent
    assert s.turn == 1 and game.current_player(s) == 1 and s.phase == C.PH_MAIN
    game.apply_action(s, C.A_END_TURN)
    game.apply_action(s, C.A_END_TURN)  # it fires again at seat 0's next turn end
    assert s.hp[1] == 17 and status(s)[0][0] == C.STORED


def test_sw_5_11_decision_permanent_not_firing_in_its_storing_turn():
    game, s = setup(level=3, permanent_fires_when_stored=False)
    spin(game, s, 0, 5)
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_END_TURN)
    assert s.hp[1] == 20 and s.turn == 1
    game.apply_action(s, C.A_END_TURN)
    game.apply_action(s, C.A_END_TURN)
    assert s.hp[1] == 18


def test_sw_6_4_stored_effect_bonus_when_used_at_night():
    game, s = setup(level=3)
    for _ in range(6):  # to the night round, seat 0's turn
        game.apply_action(s, C.A_END_TURN)
    assert game.time_of_day(s) == 3
    store(s, 0, 0, C.PERMANENT, 2, 2)
    store(s, 1, 2, C.SHIELD, 1, 3)
    game.apply_action(s, C.A_END_TURN)
    # the permanent fires: Tester's night permanent +1 bonus (slot 1) is offered at use time
    assert s.phase == C.PH_BONUS and game.legal_actions(s) == [C.A_BONUS + 1, C.A_NO_BONUS]
    game.apply_action(s, C.A_BONUS + 1)
    assert s.attack.value == 3 and game.current_player(s) == 1
    game.apply_action(s, C.A_SHIELD_DONE)
    assert s.hp[1] == 17


def test_sw_5_12_two_shields_summed_against_one_attack():
    game, s = setup(level=3)
    store(s, 1, 0, C.SHIELD, 2, 2)
    store(s, 1, 2, C.SHIELD, 3, 2)
    spin(game, s, 1, 6)  # Axe hero attack 6 red: applied at once (bonus +2 declined)
    game.apply_action(s, C.A_NO_BONUS)
    assert s.phase == C.PH_SHIELD and game.current_player(s) == 1 and s.attack.value == 6
    game.apply_action(s, C.A_SHIELD + 0)
    assert s.phase == C.PH_SHIELD and s.attack.shielded == 2
    game.apply_action(s, C.A_SHIELD + 2)
    assert s.hp[1] == 19  # 6 - (2 + 3)
    assert s.turn == 1 and status(s)[1][0] == C.READY and status(s)[1][2] == C.READY


BRITTLE = Hero(
    name="Brittle", origin="designed", hp=20, trained=["sword", "axe"],
    morning={"energy": 6, "bonuses": [{"effect": "shield", "value": -3}]},
    noon={"energy": 3}, evening={"energy": 3}, night={"energy": 3},
)


def _two_shields_against_a_5(**cfg):
    """Seat 1 (Brittle: morning shield bonus -3) stores a shield of 2 (Axe B) and one of 3
    (Sword A) in its first turn; seat 0 (Plain, no bonuses) then spins a red hero attack of 5
    (Sword A segment 3): the shield window opens for seat 1 (SW-5.12)."""
    config = ScratchWarsConfig(
        level=3, loadouts=[{"hero": "Plain", "weapons": ["Sword A"]},
                           {"hero": "Brittle", "weapons": ["Axe B", "Sword A"]}], **cfg)
    game = ScratchWarsGame(config, catalogue=Catalogue([PLAIN, BRITTLE], [SWORD, AXE, WAND]))
    s = game.new_state(0, forced_spins=[3, 0])  # initiative 5 (seat 0) vs 2 (seat 1's Sword A)
    game.apply_action(s, C.A_INIT_WEAPON + 0)
    game.apply_action(s, C.A_INIT_WEAPON + 1)
    game.apply_action(s, C.A_INIT_ORDER + 1)  # seat 0 won and lets seat 1 start: 20 - 2 = 18 HP
    assert s.turn == 1 and s.hp == [20, 18] and s.energy[1] == 6
    spin(game, s, 0, 4)  # Axe B: shield 2 green (6 - 2 = 4 energy)
    game.apply_action(s, C.A_APPLY)  # stored (SW-5.10): storing takes no bonus
    spin(game, s, 1, 6)  # Sword A: shield 3 green (4 - 1 = 3 energy)
    game.apply_action(s, C.A_APPLY)
    assert [(status(s)[1][k], *stored(s, 1, k)[:2]) for k in (0, 1)] == [
        (C.STORED, C.SHIELD, 2), (C.STORED, C.SHIELD, 3)]
    game.apply_action(s, C.A_END_TURN)
    assert s.turn == 0 and s.round == 0 and game.time_of_day(s) == 0  # still morning
    spin(game, s, 0, 3)  # hero attack 5 red: applied at once, no bonus for Plain
    assert s.phase == C.PH_SHIELD and game.current_player(s) == 1 and s.attack.value == 5
    game.check_state(s)
    return game, s


@pytest.mark.parametrize("floor, shield_sum, hp", [(True, 0, 13), (False, -1, 12)])
def test_sw_5_12_decision_negative_shield_bonus_weakens_a_shield_to_0_at_most(floor, shield_sum,
                                                                             hp):
    """SW-5.12 DECISION (``shield_block_floor``, default True): the shield of 2 used with the
    forced morning shield bonus -3 (SW-4.2, SW-6.4) blocks max(0, 2 - 3) = 0, and the attack
    of 5 hits in full: 18 - 5 = 13. Without the floor (scratch_wars_v0) it blocked 2 - 3 = -1,
    i.e. added 1 damage: 18 - 6 = 12."""
    game, s = _two_shields_against_a_5(**({} if floor else {"shield_block_floor": False}))
    game.apply_action(s, C.A_SHIELD + 0)
    assert s.bonus_used[1] == [True, False] and status(s)[1][0] == C.READY  # the shield is spent
    assert s.phase == C.PH_SHIELD and s.attack.shielded == shield_sum  # the shield of 3 is left
    game.apply_action(s, C.A_SHIELD_DONE)
    assert s.hp == [20, hp] and s.turn == 1  # the red field ended seat 0's turn


@pytest.mark.parametrize("floor, hp", [(True, 16), (False, 15)])
def test_sw_5_12_decision_each_used_shield_is_floored_not_the_total(floor, hp):
    """SW-5.12 DECISION: each used shield blocks max(0, value + bonus). The shield of 2 takes
    the forced -3 and blocks 0; the shield of 3 (the bonus is used up, once per turn, SW-6.5)
    blocks 3: 5 - 3 = 2 damage, 18 -> 16. Unfloored the total was 2 - 3 + 3 = 2: 3 damage,
    18 -> 15, although the total itself is not negative."""
    game, s = _two_shields_against_a_5(shield_block_floor=floor)
    game.apply_action(s, C.A_SHIELD + 0)
    game.apply_action(s, C.A_SHIELD + 1)
    assert s.hp == [20, hp] and status(s)[1][:2] == [C.READY, C.READY] and s.turn == 1


def test_sw_5_12_cancelling_own_stored_effect_is_free():
    game, s = setup(level=3)
    store(s, 0, 1, C.SHIELD, 2, 2)
    game.apply_action(s, C.A_CANCEL + 1)
    assert status(s)[0][1] == C.READY and s.actions_left == 4 and s.energy[0] == 3


def test_sw_5_13_detonation_of_two_combos():
    game, s = setup(level=3)
    s.energy[0] = 8
    spin(game, s, 0, 7)  # combo 2 stored on Sword A (8 - 1 = 7 energy)
    game.apply_action(s, C.A_APPLY)
    spin(game, s, 1, 3)  # combo 3 stored on Axe B (7 - 3 = 4)
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_END_TURN)
    assert s.phase == C.PH_DETONATE and game.legal_actions(s) == [C.A_DETONATE, C.A_KEEP_COMBOS]
    game.apply_action(s, C.A_DETONATE)
    # 2 + 3 = 5 against the hero (or a weapon/effect of durability <= 5)
    assert game.legal_actions(s) == [C.A_TARGET_HERO] + [C.A_TARGET_WEAPON + k for k in range(3)]
    game.apply_action(s, C.A_TARGET_HERO)
    assert s.hp[1] == 15 and status(s)[0][:2] == [C.READY, C.READY] and s.turn == 1


def _to_evening(game, s):
    for _ in range(4):  # morning + noon rounds, both seats end at once
        game.apply_action(s, C.A_END_TURN)
    assert game.time_of_day(s) == 2 and s.turn == 0


def test_sw_6_3_single_combo_detonated_with_detonator_bonus():
    game, s = setup(level=3)
    _to_evening(game, s)
    spin(game, s, 0, 7)  # one combo 2
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_END_TURN)
    assert s.phase == C.PH_DETONATE
    game.apply_action(s, C.A_DETONATE)
    game.apply_action(s, C.A_TARGET_HERO)
    assert s.hp[1] == 17  # 2 + detonator 1; then seat 1's turn
    assert s.turn == 1


def test_sw_6_3_single_combo_without_detonator_stays():
    game, s = setup(level=3)
    spin(game, s, 0, 7)
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_END_TURN)  # morning: no detonator -> no decision
    assert s.turn == 1 and status(s)[0][0] == C.STORED


def test_sw_6_2_combo_bonus_adds_to_a_detonation():
    game, s = setup(level=3)
    _to_evening(game, s)
    s.energy[0] = 10
    spin(game, s, 0, 7)
    game.apply_action(s, C.A_APPLY)
    spin(game, s, 1, 3)
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_END_TURN)
    game.apply_action(s, C.A_DETONATE)
    assert s.phase == C.PH_BONUS and game.legal_actions(s) == [C.A_BONUS + 0, C.A_NO_BONUS]
    game.apply_action(s, C.A_BONUS + 0)
    game.apply_action(s, C.A_TARGET_HERO)
    assert s.hp[1] == 12  # 2 + 3 + combo bonus 3


# -- sudden death, draws ------------------------------------------------------------------------
def test_sw_4_4_sudden_death_from_day_3():
    game, s = setup(level=3)
    for _ in range(15):  # 7.5 rounds of ending at once
        game.apply_action(s, C.A_END_TURN)
    assert s.round == 7 and s.hp == [18, 20]
    game.apply_action(s, C.A_END_TURN)  # round 9 = morning of day 3: both lose 5 first
    assert s.round == 8 and game.time_of_day(s) == 0 and s.hp == [13, 15]
    game.apply_action(s, C.A_END_TURN)
    game.apply_action(s, C.A_END_TURN)
    assert s.hp == [8, 10]


def test_sw_4_4_simultaneous_death_is_a_draw():
    game, s = setup(level=3)
    for _ in range(15):
        game.apply_action(s, C.A_END_TURN)
    s.hp = [5, 3]
    game.apply_action(s, C.A_END_TURN)
    assert game.is_terminal(s) and not game.is_truncated(s)
    assert s.winner == 2 and game.returns(s) == [0.0, 0.0]


def test_sw_4_4_level1_truncates_after_max_rounds():
    game, s = setup(level=1, max_rounds=1)
    spin(game, s, 0, 3)
    spin(game, s, 0, 3)
    assert game.is_terminal(s) and game.is_truncated(s) and game.returns(s) == [0.0, 0.0]


# -- errors ---------------------------------------------------------------------------------
def test_illegal_action_is_named():
    game, s = setup(level=1)
    with pytest.raises(IllegalActionError, match=r"action 28 \(target_hero\)"):
        game.apply_action(s, C.A_TARGET_HERO)


# -- observations ---------------------------------------------------------------------------
def _get(obs, name):
    return obs[OBS[name].slice]


def test_observation_decodes_every_public_fact_for_both_seats():
    game, s = setup(level=3)
    store(s, 1, 2, C.SHIELD, 3, 2)
    s.weapon_slots[1][1] = BROKEN_SLOT
    spin(game, s, 0, 5)  # permanent 2 stored on seat 0's slot 0
    game.apply_action(s, C.A_APPLY)
    o0, o1 = game.observe(s, 0), game.observe(s, 1)
    assert o0.shape == (OBS.size,) and o0.dtype.name == "float32"
    # scratch_wars_v2 scales: HP / 40, energy / energy_cap 12, actions / 4, values / 12,
    # durability / 9, hero energy / 6
    approx = pytest.approx
    for o, me, opp in ((o0, 0, 1), (o1, 1, 0)):
        assert _get(o, "my_hp")[0] == approx(s.hp[me] / 40)
        assert _get(o, "opp_hp")[0] == approx(s.hp[opp] / 40)
        assert _get(o, "my_energy")[0] == approx(s.energy[me] / 12)
        assert _get(o, "opp_energy")[0] == approx(s.energy[opp] / 12)
        assert list(_get(o, "time_of_day")) == [1, 0, 0, 0]
        assert _get(o, "actions_left")[0] == approx(3 / 4)
        assert _get(o, "is_my_turn")[0] == (1 if me == 0 else 0)
        # last spin: seat 0, Sword A (slot 0), segment 5 = permanent 2 green
        assert _get(o, "last_spin_mine")[0] == (1 if me == 0 else 0)
        assert _get(o, "last_spin_opp")[0] == (1 if me == 1 else 0)
        assert list(_get(o, "last_spin_weapon")).index(1) == 0
        assert list(_get(o, "last_spin_segment")).index(1) == 5
        assert list(_get(o, "last_spin_effect")).index(1) == C.PERMANENT
        assert _get(o, "last_spin_value")[0] == approx(2 / 12)
        assert list(_get(o, "last_spin_colour")) == [1, 0, 0]
    assert (s.hp, s.energy) == ([18, 20], [2, 0])
    # weapon and stored-effect states, from each side
    ws0 = _get(o0, "my_weapon_status").reshape(5, 5)
    assert ws0.argmax(axis=1).tolist() == [C.STORED, C.READY, C.READY, C.ABSENT, C.ABSENT]
    assert (_get(o1, "opp_weapon_status") == _get(o0, "my_weapon_status")).all()
    ws1 = _get(o0, "opp_weapon_status").reshape(5, 5)
    assert ws1.argmax(axis=1).tolist() == [C.READY, C.BROKEN, C.STORED, C.ABSENT, C.ABSENT]
    assert _get(o0, "my_stored_effect").reshape(5, 3)[0].tolist() == [1, 0, 0]  # permanent
    assert _get(o0, "my_stored_value")[0] == approx(2 / 12)
    assert _get(o0, "my_stored_durability")[0] == approx(2 / 9)
    assert _get(o1, "my_stored_effect").reshape(5, 3)[2].tolist() == [0, 1, 0]  # shield
    assert _get(o1, "my_stored_value")[2] == approx(3 / 12)
    assert _get(o0, "opp_stored_value")[2] == approx(3 / 12)
    assert _get(o0, "opp_stored_durability")[2] == approx(2 / 9)
    assert _get(o0, "is_my_decision")[0] == 1 and _get(o1, "is_my_decision")[0] == 0
    assert _get(o0, "phase")[C.PH_MAIN] == 1
    assert _get(o0, "i_started")[0] == 1 and _get(o1, "i_started")[0] == 0
    assert _get(o0, "my_init_value")[0] == approx(5 / 12)
    assert _get(o1, "my_init_value")[0] == approx(2 / 12)
    assert _get(o0, "my_hp_max")[0] == approx(20 / 40)
    # static pieces: seat 0's Sword A wheel segment 3 = hero attack 5 red; Tester morning
    wheel = _get(o0, "my_wheels").reshape(5, 9, 12)
    assert wheel[0, 3, C.HERO_ATTACK] == 1 and wheel[0, 3, 8] == approx(5 / 12)
    assert wheel[0, 3, 11] == 1
    assert (_get(o1, "opp_wheels") == _get(o0, "my_wheels")).all()
    hero = _get(o0, "my_hero")
    assert hero[0] == approx(3 / 6) and hero[1 + C.HERO_ATTACK] == 1
    assert hero[1 + 11] == approx(2 / 12)
    assert o0.min() >= -1 and o0.max() <= 1


def test_observation_bonus_used_and_attack_pieces():
    game, s = setup(level=3)
    store(s, 1, 2, C.SHIELD, 1, 3)
    s.energy[0] = 5
    spin(game, s, 0, 1)
    game.apply_action(s, C.A_APPLY)
    o = game.observe(s, 0)
    assert list(_get(o, "bonus_offered")) == [1, 0] and _get(o, "phase")[C.PH_BONUS] == 1
    game.apply_action(s, C.A_BONUS)  # 3 + 2 = 5 at the hero, seat 1 may shield
    o1 = game.observe(s, 1)
    assert game.current_player(s) == 1 and _get(o1, "is_my_decision")[0] == 1
    assert _get(o1, "attack_value")[0] == pytest.approx(5 / 40)  # HP points / 40
    assert _get(o1, "attack_by_me")[0] == 0
    assert list(_get(o1, "attack_target")).index(1) == 0
    assert list(_get(o1, "opp_bonus_used")) == [1, 0]
    assert list(_get(game.observe(s, 0), "my_bonus_used")) == [1, 0]


# -- saved states: check_state ------------------------------------------------------------------
def _loaded(game, s, **changes):
    """``state_from_dict`` of ``s`` saved with some fields replaced (path -> value)."""
    d = game.state_to_dict(s)
    for path, value in changes.items():
        d[path] = value
    return game.state_from_dict(d)


def test_check_state_accepts_played_states_and_names_the_broken_field():
    from card_envs.core.errors import StateError

    game, s = setup(level=3)
    spin(game, s, 0, 5)  # permanent 2 green (durability 2) on Sword A
    game.apply_action(s, C.A_APPLY)
    game.check_state(s)
    game.check_state(game.state_from_dict(game.state_to_dict(s)))
    slots = game.state_to_dict(s)["weapon_slots"]
    slots[0][0]["stored"]["value"] = 3  # SW-5.10: Sword A has no permanent of 3 on its wheel
    with pytest.raises(StateError, match=r"weapon_slots\[0\]\[0\]\.stored.*'Sword A'"):
        _loaded(game, s, weapon_slots=slots)
    with pytest.raises(StateError, match=r"heroes\[1\]: 'Nobody' is not a hero"):
        _loaded(game, s, heroes=["Tester", "Nobody"])
    with pytest.raises(StateError, match=r"heroes\[1\]: 'Tester' is not seat 1's configured"):
        _loaded(game, s, heroes=["Tester", "Tester"])
    with pytest.raises(StateError, match=r"hp\[1\]: 21 is not an HP of 'Plain'"):
        _loaded(game, s, hp=[18, 21])  # SW-1.1: printed HP 20
    with pytest.raises(StateError, match=r"hp\[1\]: 0 is 0 or below"):
        _loaded(game, s, hp=[18, 0])  # SW-3.4: the game would be over
    with pytest.raises(StateError, match=r"player: 1 is not the deciding seat 0"):
        _loaded(game, s, player=1)
    with pytest.raises(StateError, match=r"turn: 1 is not the seat to play"):
        _loaded(game, s, turn=1)  # SW-2.3: seat 0 started, first half of round 0
    with pytest.raises(StateError, match=r"winner: 0 is set although the game is not over"):
        _loaded(game, s, winner=0)
    with pytest.raises(StateError, match=r"spin_result: None holds no spin .*phase result"):
        _loaded(game, s, phase=C.PH_RESULT, spin_result=None)  # a result without a spin


def test_check_state_refuses_an_inconsistent_pending_attack():
    from card_envs.core.errors import StateError

    game, s = setup(level=3, starter=1)
    game.apply_action(s, C.A_END_TURN)  # seat 1 started; seat 0's turn, second half of round 0
    store(s, 1, 0, C.SHIELD, 3, 2)  # as if stored in seat 1's turn: Sword A segment 6
    spin(game, s, 0, 4)  # weapon attack 3 green
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_TARGET_WEAPON + 1)  # Axe B (durability 2); seat 1 may shield
    assert s.phase == C.PH_SHIELD
    game.check_state(s)
    attack = game.state_to_dict(s)["attack"]
    assert (attack["target"], attack["target_slot"]) == ("weapon", 1)
    # SW-5.6: Wand C (durability 4, slot 2) cannot be the target of an attack of 3
    with pytest.raises(StateError,
                       match=r"attack\.target_slot: 2 targets durability 4 > the attack value"):
        _loaded(game, s, attack={**attack, "target_slot": 2})
    # the attack value is the spun value (spin_result.value = 3)
    with pytest.raises(StateError, match=r"attack\.value: 4 is not the spun value"):
        _loaded(game, s, attack={**attack, "value": 4})
    with pytest.raises(StateError, match=r"attack\.shielded: 3 already stops the attack"):
        _loaded(game, s, attack={**attack, "shielded": 3})


# -- rule ids with a test of their own (SW-1.2, SW-1.3, SW-3.3, SW-5.7, SW-5.8, SW-6.1) ----------
def test_sw_1_2_a_wheel_has_9_segments_and_stored_effects_default_to_the_weapon_durability():
    """SW-1.2: a weapon's wheel has exactly 9 segments (8 is a named error); a stored-effect
    segment without its own durability takes the weapon's (Axe B, durability 2)."""
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="segments"):
        Weapon(name="Short", origin="designed", type="axe", cost=1, durability=2,
               segments=AXE.segments[:8])
    game, s = setup(level=3)
    spin(game, s, 1, 3)  # Axe B segment 3: combo 3, no own durability; 3 - 3 = 0 energy
    game.apply_action(s, C.A_APPLY)
    assert stored(s, 0, 1) == (C.COMBO, 3, 2)
    game, s = setup(level=3)
    spin(game, s, 0, 5)  # Sword A segment 5: permanent 2 with its own durability 2 (weapon: 3)
    game.apply_action(s, C.A_APPLY)
    assert stored(s, 0, 0) == (C.PERMANENT, 2, 2)


def test_sw_1_3_the_shipped_catalogue_has_13_heroes_and_32_weapons_each_with_its_origin():
    """SW-1.3: the shipped catalogue (heroes.toml, weapons.toml)."""
    from card_envs.scratch_wars.cards import load_catalogue
    cat = load_catalogue()
    assert (len(cat.heroes), len(cat.weapons)) == (13, 32)
    assert {e.origin for e in [*cat.heroes.values(), *cat.weapons.values()]} == \
        {"designed", "published"}


def test_sw_3_3_unused_actions_are_lost():
    """SW-3.3: a red field on the first action ends the turn with 3 actions unused; they are
    not carried over (the next turns start with 4), and below level 3 there is no end-turn."""
    game, s = setup(level=1)
    assert C.A_END_TURN not in game.legal_actions(s)
    spin(game, s, 0, 3)  # 5 red: Plain 20 - 5
    assert s.hp[1] == 15 and s.turn == 1 and s.actions_left == 4
    spin(game, s, 0, 3)  # Plain's red too: Tester 18 - 5
    assert s.hp[0] == 13 and s.turn == 0 and s.actions_left == 4  # not 4 + 3


def test_sw_5_7_universal_attack_targets_the_hero_or_a_weapon():
    """SW-5.7: Sword A segment 8 is a universal attack 4 (orange): the opposing hero, a ready
    weapon of durability <= 4 (Sword A 3, Axe B 2, Wand C 4) or a stored effect."""
    game, s = setup(level=3)
    store(s, 1, 2, C.SHIELD, 3, 2)  # Plain's Wand C holds a shield (durability 2)
    spin(game, s, 0, 8)  # 3 - 1 = 2 energy left
    game.apply_action(s, C.A_APPLY)
    assert game.legal_actions(s) == [C.A_TARGET_HERO, C.A_TARGET_WEAPON + 0,
                                     C.A_TARGET_WEAPON + 1, C.A_TARGET_EFFECT + 2]
    hero = game.clone(s)
    game.apply_action(hero, C.A_TARGET_HERO)
    assert hero.phase == C.PH_SHIELD  # Plain may use its stored shield (3) against it
    shielded = game.clone(hero)
    game.apply_action(hero, C.A_SHIELD_DONE)
    assert hero.hp[1] == 20 - 4
    game.apply_action(shielded, C.A_SHIELD + 2)
    assert shielded.hp[1] == 20 - (4 - 3)
    game.apply_action(s, C.A_TARGET_WEAPON + 1)  # Axe B: durability 2 <= 4
    assert s.phase == C.PH_SHIELD
    game.apply_action(s, C.A_SHIELD_DONE)
    assert status(s)[1][1] == C.BROKEN and s.hp[1] == 20


def test_sw_5_8_heal_up_to_the_printed_hp_and_sw_6_1_a_blessing_adds_to_it():
    """SW-5.8: Axe B segment 2 heals 2, never above the printed HP (20); SW-6.1: at noon
    Tester's blessing (+1) adds to the heal, a one-shot effect."""
    game, s = setup(level=3)
    s.hp[0] = 10
    spin(game, s, 1, 2)  # Tester: axe 3 energy (untrained), heal 2; the morning heal -1 forced
    game.apply_action(s, C.A_APPLY)
    assert s.hp[0] == 11  # 10 + (2 - 1)
    game, s = setup(level=3)
    s.round += 1  # noon (SW-4.1): Tester's blessing +1
    assert game.time_of_day(s) == 1
    s.hp[0] = 15
    spin(game, s, 1, 2)
    game.apply_action(s, C.A_APPLY)
    assert s.phase == C.PH_BONUS
    game.apply_action(s, C.A_BONUS + 0)
    assert s.hp[0] == 15 + 2 + 1
    game, s = setup(level=3)
    s.round += 1
    s.hp[0] = 19
    spin(game, s, 1, 2)
    game.apply_action(s, C.A_APPLY)
    game.apply_action(s, C.A_BONUS + 0)
    assert s.hp[0] == 20  # 19 + 3 capped at the printed 20
