"""Garda3 rule tests: scripted situations with hand-computed outcomes (rule ids in names).

Default fighter set (attack bonus, defence bonus, HP): Rytíř (1,2,5), Lučištnice (2,0,4),
Obr (0,0,7), Zloděj (2,1,3), Mnich (0,2,5), Válečnice (2,1,4), Strážný (1,1,6), Čaroděj (2,2,3),
Kovář (1,0,6).
"""

import pytest

from card_envs.garda3.state import blocker_slot, striker_slot  # noqa: F401
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.garda3 import constants as R
from card_envs.garda3.rules import make_game
from garda3_helpers import (B, C, CARODEJ, H, KOVAR, L, LUCISTNICE, MNICH, OBR, P, RYTIR, STRAZNY,
                            VALECNICE, W, ZLODEJ, card, play, scripted, slot)


def test_G_1_3_deck_has_each_combination_once():
    combos = {(R.CARD_VALUE[c], R.CARD_ATTACK_DIR[c], R.CARD_DEFENCE_DIR[c], R.CARD_COLOUR[c])
              for c in range(36)}
    assert len(combos) == 36
    assert R.card_id(3, L, H, P) == 2 * 12 + 6 + 0 + 2


def test_G_1_2_a_battle_card_has_a_value_two_directions_and_a_colour():
    """G-1.2: value 1-3, attack direction high/low, defence direction high/low, colour
    white/black/piebald; id 17 = (2 - 1) * 12 + 0 (attack high) * 6 + 1 (defence low) * 3 + 2."""
    assert {R.CARD_VALUE[c] for c in range(36)} == {1, 2, 3}
    assert {R.CARD_ATTACK_DIR[c] for c in range(36)} == {R.CARD_DEFENCE_DIR[c] for c in range(36)} \
        == {H, L}
    assert {R.CARD_COLOUR[c] for c in range(36)} == {W, B, P}
    assert (R.CARD_VALUE[17], R.CARD_ATTACK_DIR[17], R.CARD_DEFENCE_DIR[17], R.CARD_COLOUR[17]) \
        == (2, H, L, P)
    assert R.card_name(17) == "2 atk-high def-low piebald" and C(2, H, L, P) == 17


def test_G_1_4_a_fighter_set_file_has_exactly_9_fighters(tmp_path):
    """G-1.4: the shipped set has 9 fighters; a set file with 8 is refused naming the file and
    the count, one with a bad field naming the entry and the field."""
    from pathlib import Path

    from card_envs.core.errors import CardDataError
    import card_envs.garda3 as garda3_pkg
    text = (Path(garda3_pkg.__file__).parent / "data" / "default.toml").read_text("utf-8")
    assert text.count("[[fighter]]") == 9 and make_game(fighter_set="default").num_players == 2
    path = tmp_path / "eight.toml"
    path.write_text(text[:text.rindex("[[fighter]]")], encoding="utf-8")
    with pytest.raises(CardDataError, match=r"eight\.toml.*expected 9 \[\[fighter\]\] entries, "
                                            r"found 8"):
        make_game(fighter_set=str(path))
    path.write_text(text.replace("hp = 5", "hp = 9", 1), encoding="utf-8")
    with pytest.raises(CardDataError, match=r"entry 0 \('Rytíř'\).*'hp'"):
        make_game(fighter_set=str(path))


def test_G_3_3_the_game_goes_on_while_both_players_have_a_fighter():
    """G-3.3 (with G-6.1): Zloděj (3 HP) is eliminated by Lučištnice's 3 high + 2, but Rytíř
    (5 HP left) still stands: the game is not over, round 2 begins with the roles swapped."""
    g = make_game()
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [ZLODEJ, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(1, L, L, W)]], hp=[[4, 7, 6], [3, 5, 0]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(C(1, L, L, W)))
    assert s.hp[1] == [3 - 5, 5, 0] and not g.is_terminal(s)
    assert s.round == 2 and s.round_attacker == 1 and g.current_player(s) == 1
    assert g.legal_actions(s) == [slot(1)]  # the one fighter left


def test_G_4_3_single_card_attack_with_bonus_and_G_4_7_wrong_direction_defence():
    g = make_game()
    # Lučištnice (atk +2) attacks with 3 high; Mnich (def +2) defends with 3 low: wrong direction,
    # the bonus does not count and the attack passes in full: 3 + 2 = 5 damage.
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(3, H, L, B)]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(C(3, H, L, B)))
    assert s.hp[1][0] == 5 - 5
    assert s.phase == R.PH_ATTACKER_FIGHTER and s.round == 2  # eliminated: no counter (G-5.3)


def test_G_4_3_single_card_attack_defended_in_direction_with_bonus():
    g = make_game()
    # 3 high + 2 = 5 against 1 (defending high) + Mnich's +2 = 3 -> 2 damage.
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(1, L, H, B)]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(C(1, L, H, B)))
    assert s.hp[1][0] == 5 - 2


def test_G_4_4_two_same_direction_cards_sum_with_bonus_once():
    g = make_game()
    # Lučištnice: 2 high + 3 high (both white) + 2 once = 7 high; Obr defends 1 high (+0) -> 6.
    atk = [C(2, H, L, W), C(3, H, H, W)]
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [OBR, RYTIR, STRAZNY]], [atk, [C(1, L, H, B)]])
    play(g, s, slot(0), slot(0), card(atk[0]), card(atk[1]))
    assert s.phase == R.PH_DEFENCE_CARDS  # no bonus choice for a one-direction attack
    play(g, s, card(C(1, L, H, B)))
    assert s.hp[1][0] == 7 - 6


def test_G_4_5_two_direction_attack_bonus_on_chosen_side():
    g = make_game()
    # Lučištnice (+2): 2 high + 1 low (black pair). Mnich (+2) defends high with a 2.
    atk = [C(2, H, H, B), C(1, L, H, B)]
    dfn = C(2, L, H, W)
    # bonus low: high 2 vs 2+2 -> 0, low 1+2=3 vs 0 -> 3 damage
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [MNICH, RYTIR, STRAZNY]], [atk, [dfn]])
    play(g, s, slot(0), slot(0), card(atk[0]), card(atk[1]))
    assert s.phase == R.PH_ATTACK_BONUS and g.legal_actions(s) == [R.A_BONUS + H, R.A_BONUS + L]
    play(g, s, R.A_BONUS + L, card(dfn))
    assert s.hp[1][0] == 5 - 3
    # bonus high: high 4 vs 4 -> 0, low 1 vs 0 -> 1 damage
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [MNICH, RYTIR, STRAZNY]], [atk, [dfn]])
    play(g, s, slot(0), slot(0), card(atk[0]), card(atk[1]), R.A_BONUS + H, card(dfn))
    assert s.hp[1][0] == 5 - 1


def test_G_4_6_two_direction_defence_bonus_on_chosen_side():
    g = make_game()
    # Obr (+0) attacks 3 high + 2 low (white pair): no attack bonus, so no attack-bonus step.
    atk = [C(3, H, H, W), C(2, L, H, W)]
    dfn = [C(1, H, H, P), C(1, H, L, P)]  # piebald pair defending high and low, value 1 each
    # Mnich (+2) puts the bonus low: high 3-1 = 2, low 2-(1+2) = 0 -> 2 damage
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [atk, dfn])
    play(g, s, slot(0), slot(0), card(atk[0]), card(atk[1]))
    assert s.phase == R.PH_DEFENCE_CARDS
    play(g, s, card(dfn[0]), card(dfn[1]))
    assert s.phase == R.PH_DEFENCE_BONUS
    play(g, s, R.A_BONUS + L)
    assert s.hp[1][0] == 5 - 2
    # bonus high: high 3-3 = 0, low 2-1 = 1 -> 1 damage
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [atk, dfn])
    play(g, s, slot(0), slot(0), card(atk[0]), card(atk[1]), card(dfn[0]), card(dfn[1]),
         R.A_BONUS + H)
    assert s.hp[1][0] == 5 - 1


def test_G_4_6_decision_bonus_goes_to_the_only_attacked_direction():
    # only with split_defence_needs_split_attack=False (the v0 rule) may two defence directions
    # answer a one-direction attack
    g = make_game(split_defence_needs_split_attack=False)
    # 3 high attack (Obr +0); Mnich defends with high 1 + low 1: only high is attacked, so the
    # bonus goes high without a choice: 3 - (1+2) = 0 damage.
    dfn = [C(1, H, H, P), C(1, H, L, P)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], dfn + [C(2, H, H, B)]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(dfn[0]))
    assert g.legal_actions(s) == [card(dfn[1]), R.A_DONE]
    play(g, s, card(dfn[1]))
    assert s.hp[1][0] == 5 and s.phase == R.PH_COUNTER_CHOICE
    assert s.hands[1] == [C(2, H, H, B)] and sorted(s.discard) == sorted([C(3, H, H, W)] + dfn)


def test_G_4_6_decision_split_defence_needs_split_attack_by_default():
    g = make_game()
    assert g.config.split_defence_needs_split_attack is True
    # the same battle as above under the default: Obr (+0) attacks 3 high (one direction);
    # Mnich (def +2) holds a piebald 1 defending high, a piebald 1 defending low and a black 2.
    dfn = [C(1, H, H, P), C(1, H, L, P)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], dfn + [C(2, H, H, B)]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)))
    # the first defence card is free (a wrong-direction card is how one declines to defend)
    assert g.legal_actions(s) == sorted(card(c) for c in dfn + [C(2, H, H, B)])
    play(g, s, card(dfn[0]))
    # the low-defending piebald may not follow against a one-direction attack, and no other
    # piebald is left: a single-card defence, resolved at once. 3 - (1 + 2) = 0 damage; Mnich
    # survives holding cards, so the counter-attack is offered (G-5.1).
    assert s.phase == R.PH_COUNTER_CHOICE and s.hp[1][0] == 5
    assert s.hands[1] == [C(1, H, L, P), C(2, H, H, B)]
    assert sorted(s.discard) == sorted([C(3, H, H, W), dfn[0]])


def test_G_4_6_decision_second_defence_card_must_share_the_direction():
    # Lučištnice (atk +2) attacks 3 high = 5 (G-4.3); Obr (def +0, 7 HP) holds three piebald
    # cards: 1 defending high, 1 defending low, 2 defending high.
    atk = C(3, H, H, W)
    hand = [C(1, H, H, P), C(1, L, L, P), C(2, L, H, P)]
    for split_ok in (True, False):
        g = make_game(split_defence_needs_split_attack=not split_ok)
        s = scripted(g, [[LUCISTNICE, ZLODEJ, KOVAR], [OBR, RYTIR, STRAZNY]], [[atk], hand])
        play(g, s, slot(0), slot(0), card(atk), card(hand[0]))
        if split_ok:  # v0 rule: any same-colour card may follow
            assert g.legal_actions(s) == [card(hand[1]), card(hand[2]), R.A_DONE]
        else:  # G-4.6 default: only the other high-defending piebald
            assert g.legal_actions(s) == [card(hand[2]), R.A_DONE]
            with pytest.raises(IllegalActionError, match=rf"action {card(hand[1])} .*"
                                                         r"'defence_cards'"):
                g.apply_action(s, card(hand[1]))
        # 1 + 2 defending high (bonus +0): 5 - 3 = 2 damage (G-4.4 for the defence, G-4.8)
        play(g, s, card(hand[2]))
        assert s.hp[1][0] == 7 - 2 and s.phase == R.PH_COUNTER_CHOICE
        s = scripted(g, [[LUCISTNICE, ZLODEJ, KOVAR], [OBR, RYTIR, STRAZNY]], [[atk], hand])
        if split_ok:  # high 1 + low 1: the low card adds nothing (G-4.7): 5 - 1 = 4 damage
            play(g, s, slot(0), slot(0), card(atk), card(hand[0]), card(hand[1]))
            assert s.hp[1][0] == 7 - 4
        else:
            play(g, s, slot(0), slot(0), card(atk), card(hand[0]))
            assert card(hand[1]) not in g.legal_actions(s)


def test_G_4_6_decision_split_defence_against_a_split_attack_under_the_default():
    # Obr (+0) attacks 3 high + 2 low (white pair, two directions, no bonus step); Strážný
    # (def +1, 6 HP) answers with a piebald 2 defending high and a piebald 1 defending low, puts
    # the bonus low: high 3 - 2 = 1, low 2 - (1 + 1) = 0 -> 1 damage (G-4.6, G-4.8).
    atk = [C(3, H, H, W), C(2, L, H, W)]
    dfn = [C(2, H, H, P), C(1, H, L, P)]
    g = make_game()
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [STRAZNY, RYTIR, MNICH]], [atk, dfn])
    play(g, s, slot(0), slot(0), card(atk[0]), card(atk[1]), card(dfn[0]))
    assert g.legal_actions(s) == [card(dfn[1]), R.A_DONE]
    play(g, s, card(dfn[1]))
    assert s.phase == R.PH_DEFENCE_BONUS
    play(g, s, R.A_BONUS + L)
    assert s.hp[1][0] == 6 - 1


def test_G_4_2_attacker_must_play_and_G_4_6_defender_must_play():
    g = make_game()
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W), C(1, H, H, B)], [C(1, L, L, W)]])
    play(g, s, slot(0), slot(0))
    assert R.A_DONE not in g.legal_actions(s)
    play(g, s, card(C(3, H, H, W)))  # no same-colour partner -> single card, defence next
    assert s.phase == R.PH_DEFENCE_CARDS and g.legal_actions(s) == [card(C(1, L, L, W))]
    g2 = make_game(allow_empty_defence=True)
    s = scripted(g2, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(1, L, L, W)]])
    play(g2, s, slot(0), slot(0), card(C(3, H, H, W)))
    assert R.A_DONE in g2.legal_actions(s)
    play(g2, s, R.A_DONE)
    assert s.hp[1][0] == 5 - 3


def test_G_1_5_piebald_pairs_only_with_piebald_by_default():
    g = make_game()
    hand = [C(2, H, H, P), C(1, L, H, W), C(3, L, L, P)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [hand, [C(1, H, H, B)]])
    play(g, s, slot(0), slot(0), card(hand[0]))
    assert g.legal_actions(s) == sorted([card(hand[2]), R.A_DONE])


def test_G_1_5_piebald_is_wild_pairs_with_anything_but_white_never_with_black():
    g = make_game(piebald_is_wild=True)
    hand = [C(2, H, H, P), C(1, L, H, W), C(3, L, L, B)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [hand, [C(1, H, H, B)]])
    play(g, s, slot(0), slot(0), card(hand[0]))
    assert g.legal_actions(s) == sorted([card(hand[1]), card(hand[2]), R.A_DONE])
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [hand, [C(1, H, H, B)]])
    play(g, s, slot(0), slot(0), card(hand[1]))  # white: pairs with piebald, not black
    assert g.legal_actions(s) == sorted([card(hand[0]), R.A_DONE])


def test_G_5_counter_attack_is_optional_and_swaps_roles():
    """G-5.1, G-3.2; G-5.4: the round ends after the counter-attack or its refusal."""
    g = make_game()
    # Obr attacks Mnich for 1 (1 high vs wrong-direction 1): Mnich survives at 4 and may counter.
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(1, H, H, W), C(2, L, L, B)], [C(1, L, L, W), C(3, H, H, B)]])
    play(g, s, slot(0), slot(0), card(C(1, H, H, W)), card(C(1, L, L, W)))
    assert s.hp[1][0] == 4
    assert s.phase == R.PH_COUNTER_CHOICE and s.player == 1
    assert g.legal_actions(s) == [R.A_COUNTER, R.A_DECLINE]
    declined = g.clone(s)
    play(g, declined, R.A_DECLINE)
    assert declined.round == 2 and declined.round_attacker == 1  # G-3.2 roles swap
    # counter: Mnich (atk +0) 3 high vs Obr's remaining 2 low (defends low) -> 3 damage to Obr
    play(g, s, R.A_COUNTER)
    assert (s.striker, s.blocker, s.player) == (1, 0, 1)
    play(g, s, card(C(3, H, H, B)), card(C(2, L, L, B)))
    assert s.hp[0][0] == 7 - 3 and s.round == 2


def test_G_5_3_no_counter_attack_after_elimination():
    g = make_game()
    # Lučištnice 3 high + 2 = 5 against Zloděj (3 HP) defending low -> eliminated, round ends.
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [ZLODEJ, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(1, L, L, W), C(3, H, H, B)]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(C(1, L, L, W)))
    assert s.hp[1][0] <= 0
    assert s.phase == R.PH_ATTACKER_FIGHTER and s.round == 2 and s.round_attacker == 1
    assert g.legal_actions(s) == [slot(1), slot(2)]  # the eliminated fighter can't fight


def test_G_5_2_no_counter_attack_without_cards():
    g = make_game()
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(1, H, H, W)], [C(1, L, L, W)]])
    play(g, s, slot(0), slot(0), card(C(1, H, H, W)), card(C(1, L, L, W)))
    assert s.round == 2  # Mnich survived but holds no card: the round ended


def test_G_3_1_draw_up_to_three_and_G_7_1_royale_draws_three():
    for variant, expected in (("classic", 3), ("royale", 2 + 3)):
        g = make_game(variant=variant)
        s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                     [[C(1, H, H, W), C(2, L, L, B), C(3, H, L, P)], [C(1, L, L, W)]])
        play(g, s, slot(0), slot(0), card(C(1, H, H, W)), card(C(1, L, L, W)))
        assert s.round == 2
        assert len(s.hands[0]) == expected, variant  # attacker kept 2 cards
        assert len(s.hands[1]) == 3  # defender played its only card: 0 + 3 in both


def test_G_3_1_empty_deck_reshuffles_discard():
    g = make_game()
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(1, H, H, W)], [C(1, L, L, W)]])
    s.discard, s.deck = s.deck[:-1], s.deck[-1:]  # one card left in the deck
    play(g, s, slot(0), slot(0), card(C(1, H, H, W)), card(C(1, L, L, W)))
    assert len(s.hands[0]) == 3 and len(s.hands[1]) == 3
    assert len(s.deck) + len(s.discard) + 6 == 36


def test_G_7_2_resurrection_returns_fighter_at_full_hp():
    g = make_game(variant="resurrection")
    hand = [C(1, H, H, W), C(2, L, H, W), C(3, H, L, W)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [hand, [C(1, L, L, B), C(2, H, H, B)]], hp=[[7, 0, 2], [5, 5, 6]])
    play(g, s, slot(0), slot(0))
    assert R.A_RESURRECT in g.legal_actions(s)
    play(g, s, R.A_RESURRECT)
    assert g.legal_actions(s) == [slot(1)]  # only the eliminated Lučištnice
    play(g, s, slot(1))
    assert s.hp[0] == [7, 4, 2]  # back at full HP (4)
    assert set(hand) <= set(s.discard) and len(s.hands[0]) == 3
    assert not set(hand) & set(s.hands[0])
    # the opponent may counter-attack the fighter that was sent (Obr, slot 0)
    assert s.phase == R.PH_COUNTER_CHOICE and s.player == 1
    play(g, s, R.A_COUNTER)
    assert s.striker == 1 and s.blocker == 0 and blocker_slot(s) == 0


def test_G_7_2_resurrection_needs_three_of_a_colour_and_an_eliminated_fighter():
    g = make_game(variant="resurrection")
    mixed = [C(1, H, H, W), C(2, L, H, W), C(3, H, L, B)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [mixed, [C(1, L, L, B)]], hp=[[7, 0, 2], [5, 5, 6]])
    play(g, s, slot(0), slot(0))
    assert R.A_RESURRECT not in g.legal_actions(s)
    same = [C(1, H, H, W), C(2, L, H, W), C(3, H, L, W)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [same, [C(1, L, L, B)]])  # nobody eliminated
    play(g, s, slot(0), slot(0))
    assert R.A_RESURRECT not in g.legal_actions(s)
    # not in classic
    g = make_game()
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [same, [C(1, L, L, B)]], hp=[[7, 0, 2], [5, 5, 6]])
    play(g, s, slot(0), slot(0))
    assert R.A_RESURRECT not in g.legal_actions(s)


def test_G_7_3_night_hides_the_attack_card_until_revealed():
    from card_envs.garda3.observation import OBSERVATION
    g = make_game(variant="night")
    atk = C(3, H, H, W)
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[atk, C(2, H, L, W)], [C(1, L, H, B), C(2, L, L, B)]])
    play(g, s, slot(0), slot(0), card(atk))
    assert s.phase == R.PH_DEFENCE_CARDS  # exactly one card: no second card / done step
    sl, flags = OBSERVATION["attack_cards"].slice, OBSERVATION["battle_flags"].start
    defender_view, attacker_view = g.observe(s, 1), g.observe(s, 0)
    assert defender_view[sl].sum() == 0 and defender_view[flags + 1] == 1
    assert attacker_view[sl][atk] == 1 and attacker_view[flags + 1] == 0
    # a different face-down card gives the defender the identical observation
    s2 = g.clone(s)
    s2.atk_cards = [C(2, H, L, W)]
    s2.hands[0] = [atk]
    assert g.observe(s2, 1).tobytes() == defender_view.tobytes()
    # the defender guesses high with a 1 (+2): 3 - 3 = 0 damage; exactly one card
    play(g, s, card(C(1, L, H, B)))
    assert s.hp[1][0] == 5
    assert g.observe(s, 1)[OBSERVATION["discard"].slice][atk] == 1  # revealed, face up


def test_G_7_4_free_for_all_target_choice_and_rewards():
    g = make_game(variant="free_for_all")
    assert g.num_players == 3
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY], [ZLODEJ, CARODEJ, VALECNICE]],
                 [[C(3, H, H, W)], [C(1, L, L, W)], [C(1, L, L, B)]],
                 hp=[[7, 4, 6], [5, 5, 6], [1, 0, 0]])
    assert s.phase == R.PH_TARGET and g.legal_actions(s) == [R.A_TARGET, R.A_TARGET + 1]
    play(g, s, R.A_TARGET + 1)  # two seats clockwise: player 2
    assert s.target == 2 and s.phase == R.PH_ATTACKER_FIGHTER
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(C(1, L, L, B)))
    assert not g.has_fighters(s, 2) and not g.is_terminal(s)
    # next round: the next player clockwise with fighters attacks; player 2 can't be a target
    assert s.round_attacker == 1 and s.phase == R.PH_TARGET
    assert g.legal_actions(s) == [R.A_TARGET + 1]  # player 1 + 2 = player 0
    s.hp[0] = [1, 0, 0]
    s.hands[1] = [C(3, H, H, B)]
    s.hands[0] = [C(1, L, L, P)]
    s.legal_cache = None
    play(g, s, R.A_TARGET + 1, slot(0), slot(0), card(C(3, H, H, B)), card(C(1, L, L, P)))
    assert g.is_terminal(s) and s.winner == 1
    assert g.returns(s) == [-0.5, 1.0, -0.5]


def test_G_2_3_draft_alternates_from_one_set_starting_player_first():
    g = make_game()
    s = g.new_state(7)
    first = s.first_player
    order = []
    for pick in (R.A_PICK + 0, R.A_PICK + 2, R.A_PICK + 4, R.A_PICK + 6, R.A_PICK + 8, R.A_PICK + 1):
        order.append(s.player)
        play(g, s, pick)
    assert order == [first, 1 - first] * 3
    assert s.fighters[first] == [0, 4, 8] and s.fighters[1 - first] == [2, 6, 1]
    assert s.phase == R.PH_ATTACKER_FIGHTER and s.player == first and s.round == 1
    assert all(len(h) == 3 for h in s.hands)  # G-2.4 set-up deal


def test_G_2_3_draft_cannot_repeat_a_taken_fighter():
    g = make_game()
    s = g.new_state(1)
    play(g, s, R.A_PICK + 3)
    assert R.A_PICK + 3 not in g.legal_actions(s)
    with pytest.raises(IllegalActionError, match="action 3"):
        g.apply_action(s, R.A_PICK + 3)


def test_G_2_1_own_sets_and_random_selection():
    g = make_game(fighter_selection="own_sets")
    s = g.new_state(3)
    play(g, s, R.A_PICK + 0)
    assert R.A_PICK + 0 in g.legal_actions(s)  # the other player's own set is untouched
    g = make_game(fighter_selection="random")
    s = g.new_state(3)
    assert s.phase == R.PH_ATTACKER_FIGHTER
    assert len(set(s.fighters[0]) | set(s.fighters[1])) == 6


def test_G_2_2_starting_player_by_lot_depends_on_seed():
    g = make_game()
    assert {g.new_state(seed).first_player for seed in range(20)} == {0, 1}


def test_G_6_2_round_cap_is_a_truncated_draw():
    g = make_game(max_rounds=1)
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(1, H, H, W)], [C(1, L, L, W)]])
    play(g, s, slot(0), slot(0), card(C(1, H, H, W)), card(C(1, L, L, W)))
    assert g.is_terminal(s) and g.is_truncated(s) and g.returns(s) == [0.0, 0.0]


def test_G_6_1_losing_the_last_fighter_loses_the_game():
    g = make_game()
    s = scripted(g, [[LUCISTNICE, OBR, KOVAR], [ZLODEJ, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(1, L, L, W)]], hp=[[4, 7, 6], [3, 0, 0]])
    play(g, s, slot(0), slot(0), card(C(3, H, H, W)), card(C(1, L, L, W)))
    assert g.is_terminal(s) and not g.is_truncated(s) and s.winner == 0
    assert g.returns(s) == [1.0, -1.0] and g.current_player(s) == -1
    assert g.legal_actions(s) == []


@pytest.mark.parametrize("kwargs,field", [
    ({"variant": "blitz"}, "variant"),
    ({"variant": "classic+royale"}, "variant"),
    ({"variant": "royale+royale"}, "variant"),
    ({"fighter_selection": "auction"}, "fighter_selection"),
    ({"max_rounds": 0}, "max_rounds"),
    ({"piebald_is_wild": "yes"}, "piebald_is_wild"),
    ({"own_fighter_sets": ["default", "default"]}, "own_fighter_sets"),
    ({"colour_blind": True}, "colour_blind"),
])
def test_bad_config_values_name_the_field(kwargs, field):
    with pytest.raises(ConfigError, match=field):
        make_game(**kwargs)


def test_G_7_6_variants_combine():
    g = make_game(variant="royale+resurrection+night")
    assert g.royale and g.resurrection and g.night and g.num_players == 2
    assert make_game(variant="night+free_for_all").num_players == 3


def test_G_4_2_decision_attacker_may_pass_when_not_forced():
    g = make_game(attacker_must_play=False)
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(3, H, H, W)], [C(1, L, L, W)]])
    play(g, s, slot(0), slot(0))
    assert R.A_DONE in g.legal_actions(s)
    play(g, s, R.A_DONE)  # no attack: no damage, the defender keeps its card and may counter
    assert s.hp[1][0] == 5 and s.hands[1] == [C(1, L, L, W)]
    assert s.phase == R.PH_COUNTER_CHOICE


def test_G_5_2_decision_compulsory_counter_attack():
    g = make_game(counter_attack_optional=False)
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [[C(1, H, H, W), C(2, L, L, B)], [C(1, L, L, W), C(3, H, H, B)]])
    play(g, s, slot(0), slot(0), card(C(1, H, H, W)), card(C(1, L, L, W)))
    assert g.legal_actions(s) == [R.A_COUNTER]
