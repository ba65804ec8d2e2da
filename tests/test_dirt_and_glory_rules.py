"""Scripted Dirt and Glory rule tests with hand-computed outcomes (rule ids DG-…)."""

from __future__ import annotations

import pytest

from card_envs.core.errors import IllegalActionError
from card_envs.dirt_and_glory import constants as R
from dirt_and_glory_helpers import T12, T15, Cards, act, game, kind, scripted


def two_player(**kw):
    g = game(num_players=2, **kw)
    return g, Cards(g)


# -- set-up ----------------------------------------------------------------------------------------
def test_draft_keeps_two_of_three_and_returns_one_to_the_bottom():
    """DG-2.1: draw 3, keep 2 (9-card deck), the third goes to the bottom of the unit deck."""
    g = game(num_players=3)
    s = g.new_state(5)
    assert s.phase == R.DRAFT and s.player == 0 and len(s.hand) == 3
    assert len(s.unit_deck) == 45 - 3
    returned_kind = g.card_kind[s.hand[0]]
    kept = sorted(g.card_kind[c] for c in s.hand[1:])
    g.apply_action(s, g.a_draft_return + returned_kind)
    assert len(s.decks[0]) == 9 and sorted(g.card_kind[c] for c in s.decks[0][7:]) == kept
    # the returned card is at the bottom; seat 1 has drawn its 3: 45 - 3 + 1 - 3
    assert g.card_kind[s.unit_deck[0]] == returned_kind and len(s.unit_deck) == 40
    assert s.player == 1 and len(s.hand) == 3
    for _ in range(2):
        g.apply_action(s, g.legal_actions(s)[0])
    # DG-2.2 an offer of n cards; DG-3.1 round 1 set-up starts with seat 0
    assert len(s.offer) == 3 and s.phase == R.SETUP and s.player == 0 and len(s.hand) == 2
    assert s.fuel == [1, 1, 1] and s.scores == [0, 0, 0]
    assert len(set(s.territories)) == 6  # DG-2.3: 6 distinct of 9


def test_setup_places_one_card_and_reserves_the_other_without_ability():
    """DG-3.1: one drawn card opens the caravan, the other goes to the reserve; a two-value
    first card's value is chosen; its ability is not resolved (default)."""
    g, cards = two_player()
    s = g.new_state(1)
    while s.phase == R.DRAFT:
        g.apply_action(s, g.legal_actions(s)[0])
    a, b = cards("2/5+zero_next", "3")
    s.decks[0] += [a, b]  # setup draws from the shuffled deck: put our cards in the hand
    s.hand = [a, b]
    s.legal_cache = None
    g.apply_action(s, act(g, "place", "2/5+zero_next"))
    assert s.phase == R.VALUE and s.caravans[0] == [a] and b in s.reserves[0]
    g.apply_action(s, R.A_VALUE_HIGH)
    assert s.values[0] == [5]
    assert s.zero_next[0] is False  # not played, so no ability (first_card_ability=False)
    assert s.player == 1 and s.phase == R.SETUP


def test_first_player_rotates_each_round():
    """DG-3.2: round r starts with seat r mod n."""
    g = game(num_players=3)
    s = g.new_state(2)
    import random

    rng = random.Random(0)
    firsts = {}
    while not g.is_terminal(s):
        if s.phase == R.MAIN:
            firsts.setdefault(s.round, s.first)
        g.apply_action(s, rng.choice(g.legal_actions(s)))
    assert firsts == {0: 0, 1: 1, 2: 2, 3: 0, 4: 1, 5: 2}


# -- play ------------------------------------------------------------------------------------------
def test_bust_forces_a_pass_that_takes_an_offer_card():
    """DG-3.2: 10+3 = 13 <= 15, then a 5 makes 18 > 15: forced pass, the player takes an offer
    card to the bottom of the own deck and is out."""
    g, cards = two_player()
    c3, c5, low, o1, o2 = cards("3", "5", "1", "4", "2")
    deck0 = [low, c5]  # top is c5
    s = scripted(g, cards, territory=T15, decks=[deck0, cards("2")],
                 caravans=[[(c3, 3), (cards("4")[0], 4), (cards("3")[0], 3)], [(cards("1")[0], 1)]],
                 offer=[o1, o2], fuel=[0, 0])
    assert g.total(s, 0) == 10
    g.apply_action(s, R.A_PLAY_TOP)
    assert g.total(s, 0) == 15 and s.phase == R.MAIN and s.player == 1  # exactly 15 is fine
    s.player = 0
    s.decks[0].append(cards("3")[0])
    s.legal_cache = None
    g.apply_action(s, R.A_PLAY_TOP)
    assert g.total(s, 0) == 18
    assert s.phase == R.TAKE and s.passed[0] and s.busted[0]
    assert g.legal_actions(s) == sorted([act(g, "take", "4"), act(g, "take", "2")])
    g.apply_action(s, act(g, "take", "4"))
    assert s.decks[0][0] == o1 and s.offer == [o2]
    assert s.player == 1 and s.phase == R.MAIN


def test_pass_with_empty_offer_takes_nothing():
    """DG-3.4: if the offer is empty a passing player gets no card."""
    g, cards = two_player()
    s = scripted(g, cards, decks=[cards("2"), cards("3")], offer=[])
    g.apply_action(s, R.A_PASS)
    assert s.passed[0] and not s.busted[0] and len(s.decks[0]) == 1 and s.player == 1


def test_two_value_card_counts_the_chosen_value():
    """DG-3.2: a two-value card counts the value the player chooses."""
    for choice, expected in ((R.A_VALUE_LOW, 12), (R.A_VALUE_HIGH, 15)):
        g, cards = two_player()
        (c25,) = cards("2/5")
        s = scripted(g, cards, decks=[[c25], cards("1")],
                     caravans=[[(cards("5")[0], 5), (cards("5")[0], 5)], []])
        g.apply_action(s, R.A_PLAY_TOP)
        assert s.phase == R.VALUE and g.legal_actions(s) == [R.A_VALUE_LOW, R.A_VALUE_HIGH]
        g.apply_action(s, choice)
        assert g.total(s, 0) == expected and s.player == 1 and not s.passed[0]


def test_fuel_moves_the_card_just_played_to_the_reserve():
    """DG-3.3: 9 + 4 = 13; spending 1 fuel moves the 4 to the reserve: total back to 9."""
    g, cards = two_player()
    (c4,) = cards("4")
    s = scripted(g, cards, decks=[[c4], cards("1")], caravans=[[(cards("5")[0], 5),
                 (cards("4")[0], 4)], []], fuel=[2, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert g.total(s, 0) == 13 and s.phase == R.AFTER
    assert g.legal_actions(s) == [R.A_END_TURN, R.A_FUEL_RESERVE]
    g.apply_action(s, R.A_FUEL_RESERVE)
    assert g.total(s, 0) == 9 and s.reserves[0] == [c4] and s.fuel[0] == 1
    assert s.player == 1 and not s.passed[0]


def test_playing_from_the_reserve_costs_one_fuel():
    """DG-3.3: with fuel, play a reserve card instead of the top card: 10 + 3 = 13, fuel 2 -> 1;
    that was the turn's one fuel use, so the turn ends without an AFTER decision."""
    g, cards = two_player()
    (r3,) = cards("3")
    top = cards("5")
    s = scripted(g, cards, decks=[top, cards("1")], reserves=[[r3], []],
                 caravans=[[(cards("5")[0], 5), (cards("5")[0], 5)], []], fuel=[2, 0])
    a = act(g, "play_reserve", "3")
    assert g.legal_actions(s) == [R.A_PLAY_TOP, R.A_PASS, a]
    g.apply_action(s, a)
    assert g.total(s, 0) == 13 and s.fuel[0] == 1 and s.reserves[0] == [] and s.decks[0] == top
    assert s.player == 1


def test_no_reserve_play_without_fuel():
    """DG-3.3: playing from the reserve needs a fuel token."""
    g, cards = two_player()
    s = scripted(g, cards, decks=[cards("5"), cards("1")], reserves=[cards("3"), []], fuel=[0, 0])
    assert g.legal_actions(s) == [R.A_PLAY_TOP, R.A_PASS]


def test_busting_player_may_spend_fuel_to_stay_in():
    """DG-3.3: 13 + 5 = 18 > 15, but 1 fuel moves the 5 to the reserve: total 13, still in."""
    g, cards = two_player()
    (c5,) = cards("5")
    s = scripted(g, cards, decks=[[c5], cards("1")],
                 caravans=[[(cards("5")[0], 5), (cards("4")[0], 4), (cards("4")[0], 4)], []],
                 fuel=[1, 0], offer=cards("2"))
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.phase == R.AFTER and g.legal_actions(s) == [R.A_PASS, R.A_FUEL_RESERVE]
    g.apply_action(s, R.A_FUEL_RESERVE)
    assert g.total(s, 0) == 13 and not s.passed[0] and not s.busted[0]
    assert s.reserves[0] == [c5] and s.fuel[0] == 0 and s.player == 1


def test_without_rescue_option_a_bust_passes_at_once():
    """DG-3.3 ``bust_fuel_rescue=False``: exceeding the target is a forced pass even with fuel."""
    g, cards = two_player(bust_fuel_rescue=False)
    s = scripted(g, cards, decks=[cards("5"), cards("1")],
                 caravans=[[(cards("5")[0], 5), (cards("5")[0], 5), (cards("3")[0], 3)], []],
                 fuel=[1, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.passed[0] and s.busted[0] and s.fuel[0] == 1 and s.player == 1


def test_only_one_fuel_use_per_turn():
    """DG-3.3: after playing from the reserve (the fuel use), a bust cannot be rescued with more
    fuel: 13 + 5 = 18 > 15 is a forced pass though 2 tokens are left. With
    ``fuel_uses_per_turn=2`` the rescue is offered."""
    for uses, rescued in ((1, False), (2, True)):
        g, cards = two_player(fuel_uses_per_turn=uses)
        s = scripted(g, cards, decks=[cards("1"), cards("1")], reserves=[cards("5"), []],
                     caravans=[[(cards("5")[0], 5), (cards("4")[0], 4), (cards("4")[0], 4)], []],
                     fuel=[3, 0])
        g.apply_action(s, act(g, "play_reserve", "5"))
        assert s.fuel[0] == 2
        if rescued:
            assert s.phase == R.AFTER and R.A_FUEL_RESERVE in g.legal_actions(s)
        else:
            assert s.passed[0] and s.busted[0] and s.player == 1


def test_empty_deck_allows_only_reserve_or_pass():
    """DG-3.4: with an empty deck the player plays from the reserve (with fuel) or passes;
    ``empty_deck="forced_pass"`` leaves only the pass."""
    g, cards = two_player()
    s = scripted(g, cards, decks=[[], cards("1")], reserves=[cards("3"), []], fuel=[1, 0])
    assert g.legal_actions(s) == [R.A_PASS, act(g, "play_reserve", "3")]
    g2, cards2 = two_player(empty_deck="forced_pass")
    s2 = scripted(g2, cards2, decks=[[], cards2("1")], reserves=[cards2("3"), []], fuel=[1, 0])
    assert g2.legal_actions(s2) == [R.A_PASS]


def test_illegal_action_is_named():
    g, cards = two_player()
    s = scripted(g, cards, decks=[[], cards("1")])
    with pytest.raises(IllegalActionError, match=r"action 0 \(play_top\) is not legal"):
        g.apply_action(s, R.A_PLAY_TOP)
    with pytest.raises(IllegalActionError, match="action 999"):
        g.apply_action(s, 999)
    # the core refuses a bool (True used to play as action 1, the pass)
    with pytest.raises(IllegalActionError, match="True"):
        g.apply_action(s, True)
    assert not s.passed[0] and s.player == 0


# -- abilities (DG-1.5) ----------------------------------------------------------------------------
def test_ability_fuel_gains_one_token():
    g, cards = two_player()
    for use, fuel_after in ((R.A_ABILITY_USE, 1), (R.A_ABILITY_SKIP, 0)):
        s = scripted(g, Cards(g), decks=[Cards(g)("3+fuel"), []], fuel=[0, 0])
        g.apply_action(s, R.A_PLAY_TOP)
        assert s.phase == R.ABILITY and g.legal_actions(s) == [R.A_ABILITY_USE, R.A_ABILITY_SKIP]
        g.apply_action(s, use)
        assert s.fuel[0] == fuel_after and g.total(s, 0) == 3


def test_ability_scout_reveals_the_top_card_to_its_owner_only():
    g, cards = two_player()
    (sc,) = cards("2+scout")
    (nxt,) = cards("5")
    s = scripted(g, cards, decks=[[cards("1")[0], nxt, sc], cards("1")], fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.phase == R.ABILITY
    before0, before1 = g.observe(s, 0), g.observe(s, 1)
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.peek[0]
    top = g.observation_layout["own_known_top"]
    o0 = g.observe(s, 0)
    assert o0[top.slice].tolist().index(1.0) == kind(g, "5")
    assert before0[top.slice].sum() == 0
    assert g.observe(s, 1)[top.slice].sum() == 0 and before1[top.slice].sum() == 0
    # once the known card is played it is no longer "known top"
    s.player = 0
    s.legal_cache = None
    g.apply_action(s, R.A_PLAY_TOP)
    assert not s.peek[0] and s.caravans[0][-1] == nxt


def test_ability_zero_next_makes_the_next_card_count_zero():
    g, cards = two_player()
    (z,) = cards("1+zero_next")
    (c25,) = cards("2/5")
    s = scripted(g, cards, decks=[[cards("4")[0], c25, z], cards("1")], fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.zero_next[0] and g.total(s, 0) == 1
    s.player = 0
    s.legal_cache = None
    g.apply_action(s, R.A_PLAY_TOP)  # the 2/5 counts 0: no value choice
    assert g.total(s, 0) == 1 and s.values[0] == [1, 0] and not s.zero_next[0]
    assert s.phase == R.MAIN and s.player == 1
    s.player = 0
    s.legal_cache = None
    g.apply_action(s, R.A_PLAY_TOP)  # only the next card: the 4 counts 4
    assert g.total(s, 0) == 5


def test_ability_stash_moves_another_caravan_card_to_the_reserve_free():
    g, cards = two_player()
    (st,) = cards("3+stash")
    c5, c4 = cards("5", "4")
    s = scripted(g, cards, decks=[[st], cards("1")], caravans=[[(c5, 5), (c4, 4)], []], fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert g.total(s, 0) == 12 and s.phase == R.ABILITY
    # targets: the other caravan cards' kinds (not the stash card itself)
    assert g.legal_actions(s) == sorted([R.A_ABILITY_SKIP, act(g, "stash", "5"), act(g, "stash", "4")])
    g.apply_action(s, act(g, "stash", "5"))
    assert g.total(s, 0) == 7 and s.reserves[0] == [c5] and s.caravans[0] == [c4, st]
    assert s.fuel[0] == 0 and s.player == 1


def test_ability_stash_with_no_other_card_is_not_offered():
    g, cards = two_player()
    s = scripted(g, cards, decks=[cards("3+stash"), cards("1")], fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.player == 1 and s.phase == R.MAIN


def test_ability_of_a_reserve_card_resolves_and_survives_reserving():
    """DG-3.3: a card played from the reserve may resolve its ability; with 2 fuel uses the card
    is moved back to the reserve and the fuel gained stays."""
    g, cards = two_player(fuel_uses_per_turn=2)
    (f,) = cards("4+fuel")
    s = scripted(g, cards, decks=[cards("1"), cards("1")], reserves=[[f], []], fuel=[1, 0])
    g.apply_action(s, act(g, "play_reserve", "4+fuel"))
    assert s.fuel[0] == 0 and s.phase == R.ABILITY
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.fuel[0] == 1 and s.phase == R.AFTER
    g.apply_action(s, R.A_FUEL_RESERVE)
    assert s.fuel[0] == 0 and s.reserves[0] == [f] and g.total(s, 0) == 0


# -- DG-3.2: the ability is resolved before a two-value card's value is chosen ---------------------
def test_scout_on_a_two_value_card_shows_the_next_card_before_the_value_choice():
    """DG-3.2 (the Czech seed: the ability, *then* the total and the choice): at 5 + 5 = 10 of
    15 the 1/4+scout is played. It first counts its low value 1 (total 11) and the ability is
    offered before any value choice; the scout shows the own top card, a 4; only then is the value
    chosen: high gives 10 + 4 = 14, low 10 + 1 = 11 (and the known 4 would then make 15)."""
    for choice, total in ((R.A_VALUE_HIGH, 14), (R.A_VALUE_LOW, 11)):
        g, cards = two_player()
        (sc,) = cards("1/4+scout")
        (nxt,) = cards("4")
        s = scripted(g, cards, decks=[[cards("2")[0], nxt, sc], cards("1")],
                     caravans=[[(cards("5")[0], 5), (cards("5")[0], 5)], []], fuel=[0, 0])
        g.apply_action(s, R.A_PLAY_TOP)
        assert s.phase == R.ABILITY and g.phase_name(s) == "ability"
        assert g.legal_actions(s) == [R.A_ABILITY_USE, R.A_ABILITY_SKIP]
        assert s.values[0] == [5, 5, 1] and g.total(s, 0) == 11  # the low value until chosen
        top = g.observation_layout["own_known_top"]
        assert g.observe(s, 0)[top.slice].sum() == 0
        g.apply_action(s, R.A_ABILITY_USE)
        assert s.peek[0] and s.phase == R.VALUE and s.player == 0
        assert g.legal_actions(s) == [R.A_VALUE_LOW, R.A_VALUE_HIGH]
        # the value decision sees the scouted 4 (own seat only)
        assert g.observe(s, 0)[top.slice].tolist().index(1.0) == kind(g, "4")
        assert g.observe(s, 1)[top.slice].sum() == 0
        g.apply_action(s, choice)
        assert g.total(s, 0) == total and s.phase == R.MAIN and s.player == 1
        assert s.peek[0] and s.decks[0][-1] == nxt


def test_skipped_ability_still_comes_before_the_value_choice():
    """DG-3.2: skipping the scout (abilities are optional, DG-1.5) leads to the same value
    choice, without the top card known: 10 + 4 = 14."""
    g, cards = two_player()
    s = scripted(g, cards, decks=[cards("4", "1/4+scout"), cards("1")],
                 caravans=[[(cards("5")[0], 5), (cards("5")[0], 5)], []], fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    g.apply_action(s, R.A_ABILITY_SKIP)
    assert s.phase == R.VALUE and not s.peek[0]
    g.apply_action(s, R.A_VALUE_HIGH)
    assert g.total(s, 0) == 14 and s.player == 1


def test_stash_on_a_two_value_card_comes_before_its_value_choice():
    """DG-3.2 with DG-1.5 stash: at 5 + 4 = 9 of 15 the 1/3+stash is played (counting 1 so far:
    10); the stash moves the 5 to the reserve (total 4 + 1 = 5) and then the value is chosen:
    high, 4 + 3 = 7."""
    g, cards = two_player()
    (st,) = cards("1/3+stash")
    c5, c4 = cards("5", "4")
    s = scripted(g, cards, decks=[[st], cards("1")], caravans=[[(c5, 5), (c4, 4)], []],
                 fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.phase == R.ABILITY and g.total(s, 0) == 10
    assert g.legal_actions(s) == sorted([R.A_ABILITY_SKIP, act(g, "stash", "5"),
                                         act(g, "stash", "4")])
    g.apply_action(s, act(g, "stash", "5"))
    assert s.phase == R.VALUE and s.caravans[0] == [c4, st] and s.reserves[0] == [c5]
    assert g.total(s, 0) == 5
    g.apply_action(s, R.A_VALUE_HIGH)
    assert g.total(s, 0) == 7 and s.values[0] == [4, 3] and s.player == 1


def test_zero_next_of_a_two_value_card_applies_to_the_next_card_only():
    """DG-3.2 / DG-1.5: the 2/5+zero_next resolves its ability before its own value is chosen,
    yet the zero is for the *next* card: 3 + 5 = 8, then a 4 counts 0 (8), then a 2 counts 2
    (10)."""
    g, cards = two_player()
    (z,) = cards("2/5+zero_next")
    c4, c2 = cards("4", "2")
    s = scripted(g, cards, decks=[[c2, c4, z], cards("1", "1", "1")],
                 caravans=[[(cards("3")[0], 3)], []], fuel=[0, 0])
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.phase == R.ABILITY and s.values[0] == [3, 2]
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.zero_next[0] and s.phase == R.VALUE
    g.apply_action(s, R.A_VALUE_HIGH)
    assert s.values[0] == [3, 5] and g.total(s, 0) == 8 and s.player == 1
    g.apply_action(s, R.A_PASS)  # seat 1 passes (empty offer: takes nothing)
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.values[0] == [3, 5, 0] and not s.zero_next[0] and s.player == 0
    g.apply_action(s, R.A_PLAY_TOP)
    assert g.total(s, 0) == 10


def test_a_zeroed_two_value_card_still_offers_its_ability_and_needs_no_value():
    """DG-1.5 / DG-3.2: after a zero_next, a 1/4+scout counts 0 (no value choice) but its scout
    is still offered: 1 + 0 = 1, and the scout shows the 5 below it."""
    g, cards = two_player()
    (z,) = cards("1+zero_next")
    (sc,) = cards("1/4+scout")
    (c5,) = cards("5")
    s = scripted(g, cards, decks=[[c5, sc, z], []], fuel=[0, 0], passed=[False, True])
    g.apply_action(s, R.A_PLAY_TOP)
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.zero_next[0] and s.player == 0 and s.phase == R.MAIN  # seat 1 has passed
    g.apply_action(s, R.A_PLAY_TOP)
    assert s.phase == R.ABILITY and s.values[0] == [1, 0]
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.peek[0] and s.decks[0] == [c5] and s.values[0] == [1, 0]
    assert s.phase == R.MAIN and s.player == 0 and g.total(s, 0) == 1


def test_placed_first_card_ability_before_its_value_with_first_card_ability():
    """DG-3.1 ``first_card_ability=True`` with DG-3.2's order: a placed 1/4+scout first offers its
    scout (phase "ability" of the set-up, ``ctx == "setup"``), then the value choice ("value"):
    high counts 4."""
    g = game(num_players=2, first_card_ability=True)
    cards = Cards(g)
    s = g.new_state(1)
    while s.phase == R.DRAFT:
        g.apply_action(s, g.legal_actions(s)[0])
    a, b = cards("1/4+scout", "1")
    s.hand = [a, b]
    s.legal_cache = None
    g.apply_action(s, act(g, "place", "1/4+scout"))
    assert s.phase == R.ABILITY and g.phase_name(s) == "ability" and s.ctx == "setup"
    assert s.values[0] == [1]
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.peek[0] and s.phase == R.VALUE and g.phase_name(s) == "value" and s.ctx == "setup"
    g.apply_action(s, R.A_VALUE_HIGH)
    assert s.values[0] == [4] and s.player == 1 and s.phase == R.SETUP


# -- scoring (DG-3.5) ------------------------------------------------------------------------------
def _score_round(g, cards, totals, busted=(), territory=T15, fuel=None):
    """Everyone but the last seat has passed; the last seat passes -> the round is scored."""
    n = g.num_players
    car = []
    for p in range(n):
        row = []
        t = totals[p]
        while t > 0:
            for v in range(min(5, t), 0, -1):
                try:
                    row.append((cards(str(v))[0], v))
                    break
                except KeyError:
                    continue
            t -= v
        car.append(row)
    s = scripted(g, cards, territory=territory, player=n - 1, caravans=car,
                 decks=[cards("1") for _ in range(n)], passed=[True] * (n - 1) + [False],
                 fuel=fuel or [0] * n)
    s.unit_deck = [c for c in range(g.deck_size) if c not in cards.used]
    for p in busted:
        s.busted[p] = True
    g.apply_action(s, R.A_PASS)
    return s


def test_scoring_tie_for_first_pays_both_and_skips_second():
    """DG-3.5 (target 15: 6/4/2): totals 14, 14, 12 -> places 1, 1, 3 -> 6, 6, 2 points."""
    g = game(num_players=3)
    s = _score_round(g, Cards(g), [14, 14, 12])
    assert s.scores == [6, 6, 2] and [r[0] for r in s.last_result] == [1, 1, 3]
    assert s.fuel == [0, 0, 0]
    assert s.round == 1  # next round prepared


def test_scoring_dense_ties_variant():
    g = game(num_players=3, ties="share_dense")
    s = _score_round(g, Cards(g), [14, 14, 12])
    assert s.scores == [6, 6, 4]


def test_scoring_fourth_fifth_and_busted_get_two_fuel():
    """DG-3.5 with 5 players (target 15: 6/4/2): totals 15, 13, 12, 11, 10 -> 1st..5th:
    6, 4, 2 points, 4th and 5th 2 fuel; a player over the target also gets 2 fuel."""
    g = game(num_players=5)
    s = _score_round(g, Cards(g), [15, 13, 12, 11, 10])
    assert s.scores == [6, 4, 2, 0, 0] and s.fuel == [0, 0, 0, 2, 2]
    g = game(num_players=4)
    s = _score_round(g, Cards(g), [17, 13, 12, 10], busted=[0])
    # seat 0 exceeded: 2 fuel; 13, 12, 10 are 1st, 2nd, 3rd
    assert s.scores == [0, 6, 4, 2] and s.fuel == [2, 0, 0, 0]
    assert [r[0] for r in s.last_result] == [0, 1, 2, 3]


def test_scoring_fuel_reward_of_a_territory():
    """DG-1.2: Rust Flats (target 12) pays 5 / 3 / 1 points and 2 fuel to 3rd place."""
    g = game(num_players=3)
    s = _score_round(g, Cards(g), [12, 11, 9], territory=T12)
    assert s.scores == [5, 3, 1] and s.fuel == [0, 0, 2]


def test_round_preparation_returns_caravans_and_lets_players_mix_reserve_card_by_card():
    """DG-3.6: caravans go back to the decks; a player with reserve cards chooses card by card
    which to mix into the deck; then DG-3.1 set-up for the new round."""
    g, cards = two_player()
    r1, r2 = cards("3", "5")
    car0 = [(cards("5")[0], 5), (cards("4")[0], 4)]
    s = scripted(g, cards, player=1, caravans=[car0, [(cards("2")[0], 2)]],
                 decks=[cards("1"), cards("1")], reserves=[[r1, r2], []], passed=[True, False])
    s.unit_deck = [c for c in range(g.deck_size) if c not in cards.used]
    g.apply_action(s, R.A_PASS)
    # round 2 starts with seat 1 (rotation): no reserve -> straight to set-up
    assert s.round == 1 and s.first == 1 and s.player == 1 and s.phase == R.SETUP
    assert len(s.offer) == 2
    g.apply_action(s, g.legal_actions(s)[0])
    if s.phase == R.VALUE:
        g.apply_action(s, R.A_VALUE_LOW)
    assert s.player == 0 and s.phase == R.MIX
    assert len(s.decks[0]) == 3 and s.caravans[0] == []  # deck 1 + caravan 2
    assert g.legal_actions(s) == [R.A_MIX_DONE, act(g, "mix", "3"), act(g, "mix", "5")]
    g.apply_action(s, act(g, "mix", "5"))
    assert s.phase == R.MIX and s.reserves[0] == [r1]
    g.apply_action(s, R.A_MIX_DONE)
    # set-up drew 2 of the 4 deck cards; the 3 stayed in the reserve (plus the set-up card)
    assert s.phase == R.SETUP and r1 in s.reserves[0] and len(s.hand) == 2
    assert len(s.decks[0]) == 2


# -- end of game (DG-4) ----------------------------------------------------------------------------
def test_end_fuel_conversion_and_tie_break():
    """DG-4.1: last round, both exceed the target -> +2 fuel each: fuel 3 and 5 -> +1 and +2
    points: scores 10+1 = 11 and 9+2 = 11, a tie broken by the most fuel: seat 1 wins."""
    for tie_break, expected in (("fuel", [-1.0, 1.0]), ("none", [0.0, 0.0])):
        g = game(num_players=2, tie_break=tie_break)
        cards = Cards(g)
        s = scripted(g, cards, player=1, round_=5, scores=[10, 9], fuel=[1, 3],
                     caravans=[[(cards("5")[0], 5)] * 1, [(cards("5")[0], 5)]],
                     passed=[True, False], decks=[[], []])
        s.busted = [True, False]
        s.values = [[16], [16]]
        g.apply_action(s, R.A_PASS)
        assert g.is_terminal(s)
        # seat 1 passed at 16 > 15 without playing: it was never flagged busted, but its
        # total exceeds the target, so it is unplaced too (DG-3.5)
        assert s.fuel == [3, 5] and s.scores == [11, 11]
        assert g.returns(s) == expected


def _end(g, scores, winners):
    s = g.new_state(0)
    s.phase, s.player, s.scores, s.winners = R.END, -1, list(scores), list(winners)
    return s


def test_zero_sum_win_reward_formula():
    """DG-4.2: reward_i = (W_i − 1/n)·n/(n−1)."""
    g2, g3, g5 = game(num_players=2), game(num_players=3), game(num_players=5)
    assert g2.returns(_end(g2, [9, 5], [0])) == [1.0, -1.0]
    assert g2.returns(_end(g2, [9, 9], [0, 1])) == [0.0, 0.0]
    assert g3.returns(_end(g3, [9, 5, 4], [0])) == pytest.approx([1.0, -0.5, -0.5])
    assert g3.returns(_end(g3, [9, 9, 4], [0, 1])) == pytest.approx([0.25, 0.25, -0.5])
    assert g5.returns(_end(g5, [1, 9, 2, 3, 4], [1])) == pytest.approx([-0.25, 1.0, -0.25, -0.25, -0.25])
    assert g5.returns(_end(g5, [9, 9, 2, 3, 4], [0, 1])) == pytest.approx([0.375, 0.375, -0.25, -0.25, -0.25])
    for g, n in ((g2, 2), (g3, 3), (g5, 5)):
        assert sum(g.returns(_end(g, [0] * n, [0]))) == pytest.approx(0.0)


def test_score_reward_option():
    """DG-4.2 ``reward="score"``: own score minus the mean of the others'."""
    g = game(num_players=3, reward="score")
    assert g.returns(_end(g, [10, 6, 8], [0])) == pytest.approx([3.0, -3.0, 0.0])
    assert game(num_players=2).returns(g.new_state(0)) == [0.0, 0.0]  # zeros mid-game


# -- config variants -------------------------------------------------------------------------------
VARIANTS = [
    {"draft_return": "discard"},
    {"territory_selection": "first"},
    {"first_card_value": "high"},
    {"first_card_value": "low"},
    {"first_card_ability": True},
    {"first_player": "fixed"},
    {"fuel_cost": 2, "starting_fuel": 3},
    {"fuel_uses_per_turn": 2},
    {"empty_deck": "forced_pass"},
    {"caravan_return": "reserve"},
    {"reserve_mix": "all"},
    {"reserve_mix": "none"},
    {"num_rounds": 9, "consolation_fuel": 1, "fuel_per_point": 3},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_config_variants_play_to_the_end(variant):
    import random

    g = game(num_players=3, **variant)
    assert g.config.to_dict()["num_players"] == 3 and all(
        g.config.to_dict()[k] == v for k, v in variant.items())
    for seed in range(3):
        s = g.new_state(seed)
        if variant.get("territory_selection") == "first":
            assert s.territories == [0, 1, 2, 3, 4, 5]
        rng = random.Random(seed)
        while not g.is_terminal(s):
            legal = g.legal_actions(s)
            if variant.get("reserve_mix") in ("all", "none") or variant.get("caravan_return"):
                assert s.phase != R.MIX or variant.get("caravan_return")
            g.apply_action(s, rng.choice(legal))
        n_cards = g.deck_size + 3 * g.start_size
        owned = sum(len(s.decks[p]) + len(s.reserves[p]) + len(s.caravans[p]) for p in range(3))
        lost = 3 if variant.get("draft_return") == "discard" else 0
        assert owned + len(s.unit_deck) + len(s.offer) == n_cards - lost  # no card lost/duplicated


def test_first_card_ability_variant_resolves_the_placed_card():
    """DG-3.1 ``first_card_ability=True``: a placed fuel card may give its token."""
    g = game(num_players=2, first_card_ability=True)
    cards = Cards(g)
    s = g.new_state(1)
    while s.phase == R.DRAFT:
        g.apply_action(s, g.legal_actions(s)[0])
    a, b = cards("3+fuel", "1")
    s.hand = [a, b]
    s.legal_cache = None
    g.apply_action(s, act(g, "place", "3+fuel"))
    assert s.phase == R.ABILITY and s.player == 0
    g.apply_action(s, R.A_ABILITY_USE)
    assert s.fuel[0] == 2 and s.player == 1 and s.phase == R.SETUP


# -- components (DG-1.1, DG-1.3) -------------------------------------------------------------------
def test_dg_1_1_unit_cards_and_the_same_starting_cards_for_every_player():
    """DG-1.1: a unit card carries one or two values 1-5 and at most one ability; every player's
    deck is the same starting cards (1, 1, 2, 2, 3, 3, 4, no ability, DG-1.4) plus the 2 cards
    it keeps from the shared unit deck (DG-2.1)."""
    g = game(num_players=3)
    for c in range(g.num_cards):
        assert 1 <= g.card_low[c] <= g.card_high[c] <= 5
    two = sum(1 for c in range(g.deck_size) if g.card_low[c] != g.card_high[c])
    assert g.deck_size == 45 and two == 11  # the shared unit deck, 11 with two values
    s = g.new_state(3)
    while s.phase == R.DRAFT:
        g.apply_action(s, g.legal_actions(s)[0])
    for p in range(3):
        owned = s.decks[p] + s.hand * (p == 0) + s.reserves[p] + s.caravans[p]
        start = sorted(g.card_high[c] for c in owned if c >= g.deck_size)
        assert start == [1, 1, 2, 2, 3, 3, 4] and len(owned) == 9
        assert all(g.card_ab[c] == R.AB_NONE for c in owned if c >= g.deck_size)
    # one ability code a card (0: none); 15 of the unit deck's 45 have one (DG-1.4)
    assert sum(1 for c in range(g.deck_size) if g.card_ab[c] != R.AB_NONE) == 15


def test_dg_1_3_fuel_comes_from_an_unlimited_supply_and_scores_are_integers():
    """DG-1.3: with 5 players (target 15: 6/4/2) the 4th and 5th each get 2 fuel however much
    fuel is already out (99 each: no supply to run dry); points are whole numbers."""
    g = game(num_players=5)
    s = _score_round(g, Cards(g), [15, 13, 12, 11, 10], fuel=[99] * 5)
    assert s.fuel == [99, 99, 99, 101, 101] and s.scores == [6, 4, 2, 0, 0]
    assert all(type(x) is int for x in s.scores + s.fuel)
