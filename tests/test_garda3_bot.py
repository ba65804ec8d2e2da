"""Garda3 heuristic bot: each behaviour pinned by a scripted situation, and its strength."""

from card_envs.bots import RandomBot
from card_envs.evaluation import play_match
from card_envs.garda3 import constants as R
from card_envs.garda3.bot import HeuristicBot
from card_envs.garda3.rules import make_game
from garda3_helpers import (B, C, CARODEJ, H, KOVAR, L, LUCISTNICE, MNICH, OBR, P, RYTIR, STRAZNY,
                            W, ZLODEJ, card, play, scripted, slot)

bot = HeuristicBot()


def test_draft_takes_the_best_fighter():
    g = make_game()
    s = g.new_state(0)
    # scores hp + 1.5*(atk+def): Rytíř 9.5, Čaroděj 9, Válečnice 8.5, Strážný 9 ...
    assert bot.act(g, s, s.player) == R.A_PICK + RYTIR
    play(g, s, R.A_PICK + RYTIR)
    assert bot.act(g, s, s.player) in (R.A_PICK + CARODEJ, R.A_PICK + STRAZNY)


def test_fighter_choice_attacker_by_attack_defender_by_defence():
    g = make_game()
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [STRAZNY, RYTIR, ZLODEJ]],
                 [[C(1, H, H, W)], [C(1, L, L, W)]])
    assert bot.act(g, s, 0) == slot(1)  # Lučištnice +2 attack
    play(g, s, slot(1))
    assert bot.act(g, s, 1) == slot(1)  # Rytíř: +2 defence, 5 HP (2 + 5/3 beats Strážný 1 + 2)


def test_attack_plays_the_strongest_same_colour_combination():
    g = make_game()
    hand = [C(3, H, H, W), C(2, L, H, W), C(3, L, L, B)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [hand, [C(1, H, H, B)]])
    play(g, s, slot(0), slot(0))
    # white pair 3+2 (two directions) = 5.5 beats the single black 3
    first = bot.act(g, s, 0)
    assert first in (card(hand[0]), card(hand[1]))
    play(g, s, first)
    second = bot.act(g, s, 0)
    assert second == card(hand[1] if first == card(hand[0]) else hand[0])


def test_defence_matches_the_attacked_direction_G_4_7():
    g = make_game()
    atk = C(3, L, H, W)  # attacks low
    dfn = [C(3, H, H, B), C(1, H, L, W)]  # a 3 defending high (useless) and a 1 defending low
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [[atk], dfn])
    play(g, s, slot(0), slot(0), card(atk))
    assert bot.act(g, s, 1) == card(dfn[1])  # 3 - (1+2) = 0 damage, vs 3 through the high card


def test_defence_saves_cards_when_one_is_enough():
    g = make_game()
    atk = C(1, H, H, W)
    dfn = [C(2, L, H, P), C(3, L, H, P)]  # a piebald pair, both defend high
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]], [[atk], dfn])
    play(g, s, slot(0), slot(0), card(atk))
    a = bot.act(g, s, 1)
    assert a == card(dfn[0])  # the cheaper card already stops it
    play(g, s, a)
    assert bot.act(g, s, 1) == R.A_DONE


def test_always_counters_and_resurrects():
    g = make_game(variant="resurrection")
    hand = [C(1, H, H, W), C(2, L, H, W), C(3, H, L, W)]
    s = scripted(g, [[OBR, LUCISTNICE, KOVAR], [MNICH, RYTIR, STRAZNY]],
                 [hand, [C(1, L, L, B), C(2, H, H, B)]], hp=[[7, 0, 0], [5, 5, 6]])
    play(g, s, slot(0), slot(0))
    assert bot.act(g, s, 0) == R.A_RESURRECT
    play(g, s, R.A_RESURRECT)
    assert bot.act(g, s, 0) == slot(2)  # Kovář 6 HP beats Lučištnice 4
    play(g, s, slot(2))
    assert bot.act(g, s, 1) == R.A_COUNTER


def test_heuristic_beats_random_with_wilson_lower_bound_at_least_85_percent():
    result = play_match(make_game(), HeuristicBot(), RandomBot(seed=1), n_games=400, seed=2026)
    lo, _ = result.wilson()
    print("garda3 heuristic vs random:", result.summary())
    assert result.n == 400 and lo >= 0.85
    assert set(result.per_seat) == {0, 1} and result.per_seat[0][0] + result.per_seat[0][1] + \
        result.per_seat[0][2] == 200
