"""What a Leduc Hold'em seat is shown: the text views, the action details, what a move did; the
hidden cards never in a seat's view (LH-2.3, LH-2.4, LH-4.1)."""

from __future__ import annotations

import random

from card_envs.leduc_holdem import make_game
from card_envs.leduc_holdem.constants import A_CALL, A_FOLD, A_RAISE

F, C, R = A_FOLD, A_CALL, A_RAISE
KS, QS, JS = 4, 2, 0


def _deal(game):
    state = game.new_state(0)
    state.hands, state.public = [KS, QS], JS  # seat 0 king, seat 1 queen, public jack
    game.check_state(state)
    return state


def test_a_seats_view_shows_its_card_and_hides_the_others():
    game = make_game()
    state = _deal(game)
    assert game.render_view(state, 0) == (
        "leduc_holdem: you are seat 0; phase round_1, to act: seat 0 (you)\n"
        "  your card: Ks; public card: face down; opponent's card: hidden\n"
        "  pot 2: you 1, opponent 1\n"
        "  round 1: -")
    for a in (R, C):
        game.apply_action(state, a)
    # LH-2.4: round 2, the public card face up; LH-3.4: 1 + 2 chips each
    assert game.render_view(state, 1) == (
        "leduc_holdem: you are seat 1; phase round_2, to act: seat 0\n"
        "  your card: Qs; public card: Js; opponent's card: hidden\n"
        "  pot 6: you 3, opponent 3\n"
        "  round 1: raise, call\n"
        "  round 2: -")


def test_a_showdown_shows_the_opponents_card_and_the_returns():
    game = make_game()
    state = _deal(game)
    for a in (R, C, R, C):
        game.apply_action(state, a)
    # LH-4.1, LH-4.3: king high beats queen high; 1 + 2 + 4 = 7 chips (LH-5.1)
    assert game.render_view(state, 1) == (
        "leduc_holdem: you are seat 1; game over (returns seat 0: +7, seat 1: -7)\n"
        "  your card: Qs; public card: Js; opponent's card: Ks\n"
        "  pot 14: you 7, opponent 7\n"
        "  round 1: raise, call\n"
        "  round 2: raise, call")


def test_a_fold_keeps_the_cards_hidden():
    game = make_game()
    state = _deal(game)
    for a in (R, F):
        game.apply_action(state, a)
    view = game.render_view(state, 0)
    assert "public card: face down; opponent's card: hidden" in view
    assert "returns seat 0: +1, seat 1: -1" in view


def test_action_details_name_the_chips_a_move_puts_in():
    game = make_game()
    state = _deal(game)
    assert [game.action_to_string(state, a) for a in game.legal_actions(state)] == [
        "call: check", "raise: 2 chips"]
    game.apply_action(state, R)
    assert [game.action_to_string(state, a) for a in game.legal_actions(state)] == [
        "fold", "call: 2 chips", "raise: 4 chips"]  # LH-3.4: match 2, then 2 more
    game.apply_action(state, C)
    game.apply_action(state, R)  # round 2: raises of 4
    assert [game.action_to_string(state, a) for a in game.legal_actions(state)] == [
        "fold", "call: 4 chips", "raise: 8 chips"]


def test_effects_name_the_turned_public_card_the_showdown_and_a_fold():
    game = make_game()
    state = _deal(game)
    game.apply_action(state, C)
    before = game.clone(state)
    game.apply_action(state, C)
    assert game.effects_seen_by(before, C, state, 1) == ["the public card is turned: Js"]
    game.apply_action(state, C)
    before = game.clone(state)
    game.apply_action(state, C)
    assert game.effects_seen_by(before, C, state, 0) == ["showdown: the opponent shows Qs"]
    folded = _deal(game)
    game.apply_action(folded, R)
    before = game.clone(folded)
    game.apply_action(folded, F)
    assert game.effects_seen_by(before, F, folded, 0) == ["the opponent folds"]
    assert game.effects_seen_by(before, F, folded, 1) == ["you fold"]


def test_the_seats_view_is_the_same_whatever_it_cannot_see():
    game = make_game()
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while True:
            for p in (0, 1):
                other = game.sample_hidden(state, p, rng)
                assert game.render_view(other, p) == game.render_view(state, p)
            if game.is_terminal(state):
                break
            game.apply_action(state, rng.choice(game.legal_actions(state)))


def test_render_shows_the_whole_table():
    game = make_game()
    assert game.render(_deal(game)) == (
        "hands: seat 0 Ks, seat 1 Qs; public Js (face down)\n"
        "pot 2 (seat 0 1, seat 1 1); raises this round 0\n"
        "  round 1: -")


def _faces(table):
    """{panel title: [(row label, [(card title, face_down)])]} of a table."""
    return {p.title: [(r.label, [(c.title, c.face_down) for c in r.cards]) for r in p.rows]
            for p in table.panels}


def test_the_picture_shows_a_seat_its_card_and_the_public_card_once_turned():
    game = make_game()
    state = _deal(game)
    table = game.table_view(state, 1)
    # LH-2.3: seat 0's king is face down to seat 1; LH-2.4: the public jack not turned yet
    assert _faces(table) == {"seat 0": [("card", [("1 card", True)])],
                             "seat 1 (you)": [("card", [("Qs", False)])],
                             "table": [("public card", [("1 card", True)])]}
    assert table.status == "round 1 · to act: seat 0"
    assert [p.active for p in table.panels] == [True, False, False]
    for a in (R, C):
        game.apply_action(state, a)
    table = game.table_view(state, 1)
    assert _faces(table)["table"] == [("public card", [("Js", False)])]
    assert _faces(table)["seat 0"] == [("card", [("1 card", True)])]
    assert table.panels[2].lines == ("pot 6 chips · raises this round 0", "round 1: raise, call",
                                     "round 2: -")
    # the whole table (player None) shows every card
    assert _faces(game.table_view(state, None))["seat 0"] == [("card", [("Ks", False)])]


def test_the_picture_at_the_end_names_the_result():
    game = make_game()
    state = _deal(game)
    for a in (R, C, C, C):  # LH-4.1: a showdown, king over queen; 3 chips each
        game.apply_action(state, a)
    table = game.table_view(state, 1)
    assert table.status == "game over: showdown · seat 0 wins 3 chips"
    assert _faces(table)["seat 0"] == [("card", [("Ks", False)])]  # shown at a showdown
    state = _deal(game)
    for a in (R, F):  # LH-3.2: seat 1 folds to a raise and loses its ante
        game.apply_action(state, a)
    table = game.table_view(state, 1)
    assert table.status == "game over: seat 1 folds · seat 0 wins 1 chip"
    assert _faces(table)["seat 0"] == [("card", [("1 card", True)])]  # a fold shows nothing
    assert table.panels[1].lines == ("in the pot: 1 chip · folded",)
