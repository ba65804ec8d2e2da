"""Scratch Wars bots: the heuristic's choices in scripted situations (hand-computed from its
documented valuation, rule ids cited), its legality on every level and its strength; the
lookahead hooks (``potential``, ``lookahead_horizon``) and the decision-time lookahead on them.

Scripted positions use a small fixture catalogue and forced spins (as in
``test_scratch_wars_rules.py``). The lookahead scores are exact because the rollouts they need
contain no chance.
"""

from __future__ import annotations

import pytest

from card_envs.bots import RandomBot
from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.evaluation import play_match
from card_envs.scratch_wars import constants as SW
from card_envs.scratch_wars import make_game
from card_envs.scratch_wars.bot import HeuristicBot
from card_envs.scratch_wars.cards import Catalogue, Hero, Weapon
from card_envs.scratch_wars.config import ScratchWarsConfig
from card_envs.scratch_wars.rules import ScratchWarsGame
from card_envs.scratch_wars.state import BROKEN_SLOT, StoredEffect, WeaponSlot

VARIANTS = [
    {"level": 1},
    {"level": 2, "effects": "attack_only"},
    {"level": 2, "effects": "full"},
    {"level": 3},
]


def _seg(effect, value, colour, durability=None):
    d = {"effect": effect, "value": value, "colour": colour}
    if durability is not None:
        d["durability"] = durability
    return d


BLADE = Weapon(
    name="Blade", origin="designed", type="sword", cost=1, durability=3,
    segments=[
        _seg("hero_attack", 5, "red"),      # 0 (initiative value 5)
        _seg("energy", 2, "green"),         # 1 (initiative value 2)
        _seg("hero_attack", 4, "orange"),   # 2
        _seg("shield", 3, "green", 2),      # 3
    ] + [_seg("hero_attack", 1, "green")] * 5,
)


CLUB = Weapon(
    name="Club", origin="designed", type="axe", cost=1, durability=2,
    segments=[_seg("hero_attack", 1, "green")] * 9,
)


_DAY = {"energy": 3}


LEFT = Hero(name="Left", origin="designed", hp=20, trained=["sword", "axe"],
            morning=_DAY, noon=_DAY, evening=_DAY, night=_DAY)


RIGHT = Hero(name="Right", origin="designed", hp=24, trained=["sword", "axe"],
             morning=_DAY, noon=_DAY, evening=_DAY, night=_DAY)


SW_CAT = Catalogue([LEFT, RIGHT], [BLADE, CLUB])


def _sw_game():
    """Level 3; seat 0: Left (20 HP, no bonuses) with Blade; seat 1: Right (24 HP) with Blade
    and Club."""
    config = ScratchWarsConfig(level=3, loadouts=[{"hero": "Left", "weapons": ["Blade"]},
                                                  {"hero": "Right", "weapons": ["Blade", "Club"]}])
    return ScratchWarsGame(config, catalogue=SW_CAT)


def _sw_started(game):
    """Initiative (SW-2.2): both choose Blade, seat 0 spins 5 and seat 1 spins 2; seat 0 starts
    and loses 2 HP. Returns the state and the horizon values seen during the initiative."""
    s = game.new_state(0, forced_spins=[0, 1])
    keys = [game.lookahead_horizon(s)]          # init_weapon, seat 0
    game.apply_action(s, SW.A_INIT_WEAPON + 0)
    keys.append(game.lookahead_horizon(s))      # init_weapon, seat 1
    game.apply_action(s, SW.A_INIT_WEAPON + 0)
    assert s.phase == SW.PH_INIT_ORDER and s.player == 0
    keys.append(game.lookahead_horizon(s))      # init_order
    game.apply_action(s, SW.A_INIT_ORDER + 0)
    assert s.hp == [18, 24] and s.turn == 0 and s.phase == SW.PH_MAIN
    return s, keys


def test_sw_potential_is_the_material_lead_over_twice_the_larger_printed_hp():
    game = _sw_game()
    s, _ = _sw_started(game)
    # SW-2.2: the starter lost 2 HP; SW-5.1: its turn added 3 energy (half a point each).
    # material 18 + 1.5 vs 24, over 2 x max(20, 24) printed HP (SW-1.1) = 48
    assert s.energy == [3, 0]
    assert game.potential(s, 0) == pytest.approx((19.5 - 24) / 48)
    assert game.potential(s, 1) == pytest.approx((24 - 19.5) / 48)
    # SW-5.5: a red hero attack of 5 (no decision at a red field, SW-3.2): 24 -> 19; the spin
    # cost 1 energy (SW-5.2), the red field ended the turn and seat 1's turn added 3 energy
    s.forced_spins.append(0)
    game.apply_action(s, SW.A_SPIN + 0)
    assert s.hp == [18, 19] and s.energy == [2, 3] and s.turn == 1
    assert game.potential(s, 0) == pytest.approx((19 - 20.5) / 48)
    # stored effects (SW-5.10): seat 0's permanent attack of 2 counts twice (SW-5.11): 19 + 4;
    # seat 1's shield of 3 counts 3 (SW-5.12), its broken Club -2 (SW-5.9): 20.5 + 3 - 2
    s.weapon_slots[0][0] = WeaponSlot(SW.STORED, StoredEffect(SW.PERMANENT, 2, 2, False))
    s.weapon_slots[1][0] = WeaponSlot(SW.STORED, StoredEffect(SW.SHIELD, 3, 2, False))
    s.weapon_slots[1][1] = BROKEN_SLOT
    assert game.potential(s, 0) == pytest.approx((23 - 21.5) / 48)
    assert game.potential(s, 1) == -game.potential(s, 0)
    # a finished game can leave a hero far below 0 (SW-3.4): clipped to [-1, 1]
    s.hp = [-30, 19]  # 1 - 30 + 4 = -25 vs 21.5: -46.5 / 48
    assert game.potential(s, 0) == pytest.approx(-46.5 / 48)
    s.hp = [-40, 19]
    assert game.potential(s, 0) == -1.0 and game.potential(s, 1) == 1.0


def test_sw_horizon_is_the_turn_number_and_none_during_the_initiative():
    game = _sw_game()
    s, init_keys = _sw_started(game)
    assert init_keys == [None, None, None]  # SW-2.2 init_weapon x2, init_order
    assert game.lookahead_horizon(s) == 0  # round 0, first turn (seat 0)
    # SW-5.12: seat 1 holds a stored shield; seat 0's orange hero attack of 4 opens the shield
    # window: seat 1 decides, still inside seat 0's turn
    s.weapon_slots[1][0] = WeaponSlot(SW.STORED, StoredEffect(SW.SHIELD, 3, 2, False))
    s.legal_cache = None
    s.forced_spins.append(2)
    game.apply_action(s, SW.A_SPIN + 0)
    assert s.phase == SW.PH_RESULT and game.lookahead_horizon(s) == 0
    game.apply_action(s, SW.A_APPLY)
    assert s.phase == SW.PH_SHIELD and s.player == 1 and game.lookahead_horizon(s) == 0
    game.apply_action(s, SW.A_SHIELD_DONE)  # 4 damage: 24 -> 20; the applied orange ends the turn
    assert s.hp == [18, 20] and s.turn == 1 and s.second_half
    assert game.lookahead_horizon(s) == 1  # SW-2.3: seat 1's turn, the second of round 0
    # SW-5.13: two stored combos at the end of seat 1's turn: the detonate decision is still
    # part of that turn
    for k in (0, 1):
        s.weapon_slots[1][k] = WeaponSlot(SW.STORED, StoredEffect(SW.COMBO, 2, 2, False))
    s.legal_cache = None
    game.apply_action(s, SW.A_END_TURN)
    assert s.phase == SW.PH_DETONATE and game.lookahead_horizon(s) == 1
    game.apply_action(s, SW.A_KEEP_COMBOS)
    assert s.round == 1 and s.turn == 0 and game.lookahead_horizon(s) == 2  # SW-4.1 next round
    s.hp[0] = 0
    game.end_if_a_hero_fell(s)  # SW-3.4
    assert game.is_terminal(s) and game.lookahead_horizon(s) is None


def test_sw_lookahead_scores_a_turn_end_through_the_defenders_shield():
    """Seat 0 (18 HP, 3 energy) has spun its last action (1 energy, SW-5.2) onto an orange hero
    attack of 4 (SW-3.2); seat 1 (24 HP, 0 energy) holds a stored shield of 3. Both rollouts end
    when seat 1's turn begins and adds its 3 energy (SW-5.1). apply: the rollout lets seat 1
    decide its shield (the heuristic shields attacks of 3 or more, SW-5.12): 4 - 3 = 1 damage,
    24 -> 23, the shield is spent and the applied orange ends the turn: material 18 + 1 vs
    23 + 1.5, potential -5.5 / 48. decline: the turn ends with no action left (SW-3.1), the
    shield stays: 19 vs 24 + 1.5 + 3: -9.5 / 48. No spin happens in either rollout, so the
    scores are exact."""
    game = _sw_game()
    s, _ = _sw_started(game)
    s.weapon_slots[1][0] = WeaponSlot(SW.STORED, StoredEffect(SW.SHIELD, 3, 2, False))
    s.actions_left = 1
    s.legal_cache = None
    s.forced_spins.append(2)
    game.apply_action(s, SW.A_SPIN + 0)
    assert s.phase == SW.PH_RESULT and s.actions_left == 0
    look = LookaheadPolicy(HeuristicBot(), samples=3, seed=0)
    scores = look.action_scores(game, s, 0)
    assert scores == {SW.A_APPLY: pytest.approx(-5.5 / 48), SW.A_DECLINE: pytest.approx(-9.5 / 48)}
    assert look.act(game, s, 0) == SW.A_APPLY
    assert s.phase == SW.PH_RESULT and s.hp == [18, 24]  # the real state is untouched


def test_heuristic_is_legal_on_every_level():
    for cfg in VARIANTS:
        game = make_game(**cfg)
        r = play_match(game, HeuristicBot(), RandomBot(0), 20, seed=1)
        assert r.n == 20


@pytest.mark.slow
def test_heuristic_beats_random_level3():
    game = make_game(level=3)
    r = play_match(game, HeuristicBot(), RandomBot(0), 400, seed=2026)
    lo, _hi = r.wilson()
    print(r.summary())
    assert lo >= 0.70, r.summary()


# -- the heuristic's choices in scripted situations -------------------------------------------
def test_heuristic_initiative_takes_the_weapon_of_the_largest_printed_wheel_and_starts():
    """SW-2.2: each seat picks a weapon for the initiative spin; the heuristic takes the one whose
    segment values sum highest: seat 1's Blade (5 + 2 + 4 + 3 + 5 x 1 = 19) over its Club
    (9 x 1 = 9). The initiative winner (seat 0: 5 against 2) chooses to start (the tempo is
    worth the starter's 2 HP)."""
    game, bot = _sw_game(), HeuristicBot()
    s = game.new_state(0, forced_spins=[0, 1])
    assert game.legal_actions(s) == [SW.A_INIT_WEAPON]  # seat 0 holds only Blade
    game.apply_action(s, bot.act(game, s, 0))
    assert s.player == 1 and game.legal_actions(s) == [SW.A_INIT_WEAPON, SW.A_INIT_WEAPON + 1]
    assert bot.act(game, s, 1) == SW.A_INIT_WEAPON  # Blade, slot 0
    game.apply_action(s, SW.A_INIT_WEAPON)
    assert s.phase == SW.PH_INIT_ORDER and s.player == 0 and s.initiative_value == [5, 2]
    assert bot.act(game, s, 0) == SW.A_INIT_ORDER  # + 0: start


#: a wheel of one weak orange field among strong green ones
DAGGER = Weapon(
    name="Dagger", origin="designed", type="sword", cost=1, durability=3,
    segments=[_seg("hero_attack", 1, "orange")] + [_seg("hero_attack", 5, "green")] * 8,
)


def test_heuristic_declines_a_weak_orange_field_while_actions_remain():
    """SW-3.2: an orange field is applied (ending the turn) or declined (the turn goes on). Seat 0
    (Left, 20 HP, level 3) with only the Dagger wins the initiative 5 to 2, starts (18 HP, 3
    energy, SW-5.1) and spins the Dagger (1 energy, SW-5.2) onto its orange hero attack of 1,
    3 of its 4 actions left (SW-3.1). The heuristic weighs 1 now against the next spins: the
    Dagger's expected field (1 + 8 x 5) / 9 = 41/9, times min(3, 2) actions, times 0.8 =
    7.29 > 1: decline. With no action left the 1 is all the turn gives: apply."""
    config = ScratchWarsConfig(level=3, loadouts=[{"hero": "Left", "weapons": ["Dagger"]},
                                                  {"hero": "Right", "weapons": ["Blade"]}])
    game = ScratchWarsGame(config, catalogue=Catalogue([LEFT, RIGHT], [BLADE, DAGGER]))
    bot = HeuristicBot()
    s = game.new_state(0, forced_spins=[1, 1, 0])
    for a in (SW.A_INIT_WEAPON, SW.A_INIT_WEAPON, SW.A_INIT_ORDER, SW.A_SPIN):
        game.apply_action(s, a)
    assert s.phase == SW.PH_RESULT and s.player == 0 and s.hp == [18, 24]
    assert (s.energy[0], s.actions_left, s.spin_result.value) == (2, 3, 1)
    assert bot.act(game, s, 0) == SW.A_DECLINE
    s.actions_left = 0
    assert bot.act(game, s, 0) == SW.A_APPLY


def test_heuristic_shields_the_hero_from_3_damage_or_a_lethal_hit_only():
    """SW-5.12: seat 1 holds a stored shield of 3 and seat 0 attacks its hero. The heuristic
    shields an attack of 3 or more, or one that would kill: the orange 4 (Blade segment 2) is
    shielded; a green hero attack of 1 (segment 4) is let through at 24 HP, shielded at 1 HP."""
    game, bot = _sw_game(), HeuristicBot()
    for segment, hp, want in ((2, 24, SW.A_SHIELD), (4, 24, SW.A_SHIELD_DONE),
                              (4, 1, SW.A_SHIELD)):
        s, _ = _sw_started(game)
        s.weapon_slots[1][0] = WeaponSlot(SW.STORED, StoredEffect(SW.SHIELD, 3, 2, False))
        s.hp[1] = hp
        s.legal_cache = None
        s.forced_spins.append(segment)
        game.apply_action(s, SW.A_SPIN + 0)
        game.apply_action(s, SW.A_APPLY)
        assert s.phase == SW.PH_SHIELD and s.player == 1 and s.attack.target == "hero"
        assert bot.act(game, s, 1) == want, (segment, hp)
