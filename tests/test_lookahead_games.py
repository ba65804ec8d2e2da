"""The lookahead hooks of Scratch Wars and Dirt and Glory (``potential``, ``lookahead_horizon``).

Values are hand-computed from scripted positions (rule ids cited): Scratch Wars with a small
fixture catalogue and forced spins (as in ``test_scratch_wars_rules.py``), Dirt and Glory with
``dirt_and_glory_helpers.scripted`` (as in ``test_dirt_and_glory_rules.py``). The lookahead scores
are exact because the rollouts they need contain no chance. Full games of
``LookaheadPolicy(HeuristicBot(), samples=2)`` check legality and determinism.
"""

from __future__ import annotations

import pytest

from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.core.registry import make_game
from card_envs.dirt_and_glory import constants as D
from card_envs.dirt_and_glory.bot import HeuristicBot as DGHeuristic
from card_envs.scratch_wars import constants as SW
from card_envs.scratch_wars.bot import HeuristicBot as SWHeuristic
from card_envs.scratch_wars.cards import Catalogue, Hero, Weapon
from card_envs.scratch_wars.config import ScratchWarsConfig
from card_envs.scratch_wars.rules import ScratchWarsGame
from card_envs.scratch_wars.state import BROKEN_SLOT, StoredEffect, WeaponSlot
from dirt_and_glory_helpers import T15, Cards, scripted


# -- Scratch Wars -----------------------------------------------------------------------------
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
    look = LookaheadPolicy(SWHeuristic(), samples=3, seed=0)
    scores = look.action_scores(game, s, 0)
    assert scores == {SW.A_APPLY: pytest.approx(-5.5 / 48), SW.A_DECLINE: pytest.approx(-9.5 / 48)}
    assert look.act(game, s, 0) == SW.A_APPLY
    assert s.phase == SW.PH_RESULT and s.hp == [18, 24]  # the real state is untouched


# -- Dirt and Glory ---------------------------------------------------------------------------
def test_dg_potential_is_the_score_lead_with_fuel_at_its_end_value():
    # scale: num_rounds 6 x the largest 1st-place reward of the designed territories, 9 points
    # (Blue Oasis, DG-1.4) = 54; standing = score + fuel / 2 (DG-4.1, fuel_per_point 2)
    g2 = make_game("dirt_and_glory", num_players=2)
    s = scripted(g2, Cards(g2), scores=[10, 4], fuel=[3, 0])
    assert g2.potential(s, 0) == pytest.approx((11.5 - 4) / 54)
    assert g2.potential(s, 1) == pytest.approx((4 - 11.5) / 54)
    g3 = make_game("dirt_and_glory", num_players=3)
    s = scripted(g3, Cards(g3), scores=[10, 4, 7], fuel=[3, 0, 2])  # standings 11.5, 4, 8
    assert g3.potential(s, 0) == pytest.approx((11.5 - (4 + 8) / 2) / 54)
    assert g3.potential(s, 1) == pytest.approx((4 - (11.5 + 8) / 2) / 54)
    assert sum(g3.potential(s, p) for p in range(3)) == pytest.approx(0.0)
    g5 = make_game("dirt_and_glory", num_players=5, num_rounds=3)  # scale 3 x 9 = 27
    s = scripted(g5, Cards(g5), scores=[9, 0, 0, 0, 3], fuel=[0, 2, 0, 0, 0])
    assert g5.potential(s, 0) == pytest.approx((9 - (1 + 0 + 0 + 3) / 4) / 27)
    s.scores = [200, 0, 0, 0, 0]  # clipped to [-1, 1]
    assert g5.potential(s, 0) == 1.0 and g5.potential(s, 1) == -1.0  # 200/27, -50/27


def test_dg_horizon_is_the_round_and_none_during_the_draft():
    game = make_game("dirt_and_glory", num_players=2)
    s = game.new_state(4)
    assert s.phase == D.DRAFT and game.lookahead_horizon(s) is None  # DG-2.1
    bot = DGHeuristic()
    seen = {}
    while not game.is_terminal(s):
        key = game.lookahead_horizon(s)
        if s.phase == D.DRAFT:
            assert key is None
        else:  # DG-3.1 .. DG-3.6: every decision of a round carries the round
            assert key == s.round
        seen.setdefault(D.PHASES[s.phase], set()).add(key)
        game.apply_action(s, bot.act(game, s, game.current_player(s)))
    assert game.lookahead_horizon(s) is None
    assert seen["main"] == set(range(6)) and seen["setup"] == set(range(6))
    assert {"take", "mix"} <= set(seen)  # the take choice keeps the round (rollouts go on)


def test_dg_lookahead_scores_the_round_end():
    """T15 (target 15, 6 / 4 / 2 points, DG-1.4). Seat 1 has passed at 14; seat 0 stands at 12
    with one card left in its deck, a 2, no fuel. play: 14 ties seat 1, both share 1st (DG-3.5
    share_skip) and score 6: potential 0. pass: seat 0 is 2nd at 12 and scores 4, seat 1 6:
    (4 - 6) / 54. The round's end is reached without chance: the scores are exact."""
    game = make_game("dirt_and_glory", num_players=2)
    cards = Cards(game)
    a5, a4, a3, two = cards("5", "4", "3", "2")
    b5, b4, b5b = cards("5", "4", "5")
    s = scripted(game, cards, territory=T15, decks=[[two], []],
                 caravans=[[(a5, 5), (a4, 4), (a3, 3)], [(b5, 5), (b4, 4), (b5b, 5)]],
                 passed=[False, True])
    assert game.legal_actions(s) == [D.A_PLAY_TOP, D.A_PASS]
    assert game.lookahead_horizon(s) == 0
    look = LookaheadPolicy(DGHeuristic(), samples=3, seed=0)
    scores = look.action_scores(game, s, 0)
    assert scores == {D.A_PLAY_TOP: pytest.approx(0.0), D.A_PASS: pytest.approx(-2 / 54)}
    assert look.act(game, s, 0) == D.A_PLAY_TOP
    assert s.scores == [0, 0] and s.decks[0] == [two]  # the real state is untouched


# -- full games -------------------------------------------------------------------------------
GAMES = [
    ("scratch_wars", {"level": 3}, SWHeuristic),
    ("dirt_and_glory", {"num_players": 2}, DGHeuristic),
    ("dirt_and_glory", {"num_players": 3}, DGHeuristic),
]


def _lookahead_game(name, config, heuristic, seed):
    """Every seat plays LookaheadPolicy(heuristic, samples=2) (own seed per seat); each action is
    checked against the legal set. Returns the final state's dict and the decisions searched."""
    game = make_game(name, **config)
    players = [LookaheadPolicy(heuristic(), samples=2, seed=10 + p)
               for p in range(game.num_players)]
    s = game.new_state(seed)
    n = 0
    while not game.is_terminal(s):
        assert n < game.max_game_length
        p = game.current_player(s)
        a = players[p].act(game, s, p)
        assert a in game.legal_actions(s), (name, p, a)
        game.apply_action(s, a)
        n += 1
    assert not game.is_truncated(s)
    assert sum(game.returns(s)) == pytest.approx(0.0)
    return game.state_to_dict(s), sum(pl.searched for pl in players)


@pytest.mark.parametrize("name,config,heuristic", GAMES,
                         ids=["scratch_wars", "dirt_and_glory-2p", "dirt_and_glory-3p"])
def test_lookahead_plays_full_games_legally_and_reproducibly(name, config, heuristic):
    first, searched = _lookahead_game(name, config, heuristic, seed=7)
    assert searched > 10
    again, _ = _lookahead_game(name, config, heuristic, seed=7)
    assert again == first
