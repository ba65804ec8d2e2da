"""Garda3's view (``card_envs/garda3/view.py``): the battle's two fighters named and framed
right at every defender choice (G-4.1, G-3.2, G-5.1), the battle's arithmetic as a player
computes it (G-4.3–G-4.8), what a move did (``effects_seen_by``), and what a seat is shown of
the others' cards: the size of their hands only, a night card face down (G-7.3)."""

from __future__ import annotations

import random

import pytest

from card_envs.garda3 import constants as R
from card_envs.garda3.constants import A_CARD, PH_ATTACK_CARDS, card_name
from card_envs.garda3.rules import make_game
from card_envs.garda3.view import battle_fighters
from env_helpers import states_along
from garda3_helpers import CARODEJ, MNICH, OBR, VALECNICE, B, C, H, L, P, W, card, play, scripted, slot


def _states_at(game, seeds, phases):
    """Every state in ``phases`` along random games from ``seeds`` (a copy each)."""
    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_state(seed)
        while not game.is_terminal(s):
            if s.phase in phases:
                yield game.clone(s)
            game.apply_action(s, rng.choice(game.legal_actions(s)))


def _battle_line(view: str) -> str:
    return next(x.strip() for x in view.splitlines()
                if x.strip().startswith(("battle: ", "counter-attack: ")))


def _marked(game, s, player):
    table = game.table_view(s, player)
    return {(p, k) for p in range(game.num_players)
            for k, face in enumerate(table.panels[p].rows[0].cards) if face.marked}


@pytest.mark.parametrize("variant, games", [("classic", 150), ("free_for_all", 60),
                                            ("royale+resurrection", 40)])
def test_the_named_and_framed_attacker_at_every_defender_choice_is_the_round_attackers_fighter(
        variant, games):
    """G-4.1: the defender chooses its fighter knowing the attacker's choice, so the view names
    the round attacker (G-3.2; the chosen target in free_for_all, G-7.4) and its fighter
    ``atk_slot``, and the picture frames that fighter and no other (the defender has not chosen
    yet). The bug: the view read the previous battle's ``striker`` (``-1`` in round 1: "player
    -1's ...", the last seat's fighter framed; after a counter-attack, G-5.1, the defender's own
    fighter)."""
    game = make_game(variant=variant)
    checked = after_counter = 0
    for s in _states_at(game, range(games), (R.PH_DEFENDER_FIGHTER,)):
        ra, slot_ = s.round_attacker, s.atk_slot
        assert battle_fighters(s) == (ra, slot_, s.target, -1)
        name = game.sets[game.set_of(ra)].fighters[s.fighters[ra][slot_]].name
        for p in range(game.num_players):
            view = game.render_view(s, p)
            assert "player -1" not in view
            who = "your" if p == ra else f"player {ra}'s"
            line = _battle_line(view)
            assert line.startswith(f"battle: {who} {name} (atk "), (p, line)
            tail = "you: choose your fighter (G-4.1)" if p == s.target else \
                f"player {s.target}, who chooses a fighter (G-4.1)"
            assert line.endswith(tail), line
            assert _marked(game, s, p) == {(ra, slot_)}
        checked += 1
        after_counter += s.striker not in (-1, ra)  # what the old view named
    assert checked > 8 * games
    assert after_counter > checked // 20  # the situation of the bug occurs often


def test_in_every_battle_phase_the_named_and_framed_fighters_are_the_striker_and_blocker():
    """G-4.2–G-4.8, G-5.1: from the attack cards to the counter-attack choice the battle is the
    state's striker's fighter against the blocker's (roles swapped in a counter-attack)."""
    game = make_game(variant="classic")
    phases = (R.PH_ATTACK_CARDS, R.PH_ATTACK_BONUS, R.PH_DEFENCE_CARDS, R.PH_DEFENCE_BONUS,
              R.PH_COUNTER_CHOICE)
    counters = 0
    for s in _states_at(game, range(40), phases):
        a, b = (s.def_slot, s.atk_slot) if s.counter else (s.atk_slot, s.def_slot)
        assert battle_fighters(s) == (s.striker, a, s.blocker, b)
        for p in range(2):
            names = [game.sets[0].fighters[s.fighters[q][k]].name
                     for q, k in ((s.striker, a), (s.blocker, b))]
            line = _battle_line(game.render_view(s, p))
            assert line.startswith(("counter-attack: " if s.counter else "battle: ")
                                   + ("your" if p == s.striker else f"player {s.striker}'s")
                                   + f" {names[0]} ")
            assert f" attacks {'your' if p == s.blocker else f'player {s.blocker}' + chr(39) + 's'}" \
                f" {names[1]} " in line
            assert _marked(game, s, p) == {(s.striker, a), (s.blocker, b)}
        counters += s.counter
    assert counters > 20


def _view_lines(game, s, player):
    lines = game.render_view(s, player).splitlines()
    i = lines.index(next(x for x in lines if x.strip().startswith("battle: ")))
    return [x.strip() for x in lines[i + 1:] if x.startswith("    ") and
            not x.strip().startswith("hand:")][:3]


def test_the_battle_arithmetic_is_shown_as_a_player_computes_it():
    """Válečnice (attack +2) attacks Mnich (defence +2, 5 HP) with 3 atk-low: G-4.3 low 3 + 2 =
    5. The defender plays 2 def-low (white): G-4.6/G-4.7 the bonus counts (low is attacked and
    defended): 2 + 2 = 4; G-4.8 hit 5 − 4 = 1. It stops there: the battle resolves, Mnich
    loses 1 HP."""
    game = make_game()
    atk = C(3, L, H, B)
    d1, d2 = C(2, H, L, W), C(1, H, L, W)
    s = scripted(game, [[VALECNICE, OBR, CARODEJ], [MNICH, OBR, CARODEJ]],
                 [[atk, C(1, L, L, W)], [d1, d2, C(3, H, H, B)]])
    play(game, s, slot(0), slot(0))
    assert _view_lines(game, s, 0) == [
        "attack so far: no card yet (the fighter's attack bonus +2 will add to it)"]
    play(game, s, card(atk))  # no black partner left: a single-card attack
    assert s.phase == R.PH_DEFENCE_CARDS
    assert _view_lines(game, s, 1) == [
        "attack: 3 atk-low def-high black → low 3 + 2 (attack bonus) = 5",
        "defence so far: no card yet (defence bonus +2 counts in an attacked direction defended "
        "by a card, G-4.7)",
        "hits (G-4.8): low 5 − 0 = 5 → 5 damage if the defence stays so"]
    play(game, s, card(d1))  # a white partner (d2) is left: the defender may add it
    assert s.phase == R.PH_DEFENCE_CARDS
    assert _view_lines(game, s, 1)[1:] == [
        "defence so far: 2 atk-high def-low white → low 2 + 2 (defence bonus) = 4",
        "hits (G-4.8): low 5 − 4 = 1 → 1 damage if the defence stays so"]
    before = game.clone(s)
    play(game, s, R.A_DONE)
    effects = game.effects_seen_by(before, R.A_DONE, s, 0)
    assert effects[:2] == [
        "battle: attack 3 atk-low def-high black against defence 2 atk-high def-low white: "
        "low 5 − 4 → 1 damage to player 1's Mnich",
        "player 1's Mnich: HP 5 → 4"]
    assert s.hp[1][0] == 4


def test_a_defence_in_the_wrong_direction_gets_no_bonus_and_a_split_attack_shows_both_sides():
    """G-4.5: 2 atk-high + 1 atk-low (one colour) with attack bonus +2 on low: high 2, low 1 + 2
    = 3. G-4.7: a def-high card defends high only; its bonus (+2) counts there (high is attacked
    and defended): high 2 − (1 + 2) → 0, low 3 − 0 = 3 → 3 damage."""
    game = make_game()
    a1, a2 = C(2, H, H, W), C(1, L, L, W)
    s = scripted(game, [[VALECNICE, OBR, CARODEJ], [MNICH, OBR, CARODEJ]],
                 [[a1, a2], [C(1, L, H, B), C(3, L, L, P)]])
    play(game, s, slot(0), slot(0), card(a1), card(a2))
    assert s.phase == R.PH_ATTACK_BONUS
    assert _view_lines(game, s, 0) == [
        "attack: 2 atk-high def-high white, 1 atk-low def-low white → high 2, low 1; the attack "
        "bonus +2 goes to the side the attacker chooses (G-4.5)"]
    play(game, s, R.A_BONUS + L)
    assert _view_lines(game, s, 1)[0] == (
        "attack: 2 atk-high def-high white, 1 atk-low def-low white → high 2, low 1 + 2 "
        "(attack bonus, G-4.5) = 3")
    before = game.clone(s)
    play(game, s, card(C(1, L, H, B)))
    assert game.effects_seen_by(before, card(C(1, L, H, B)), s, 1)[0] == (
        "battle: attack 2 atk-high def-high white, 1 atk-low def-low white against defence "
        "1 atk-low def-high black: high 2 − 3; low 3 − 0 → 3 damage to player 1's Mnich")
    assert s.hp[1][0] == 2


def test_a_night_attack_stays_unknown_to_the_defender_in_the_arithmetic():
    """G-7.3: the face-down card's direction and value are not shown to the defender, only the
    attacker's bonus; the attacker sees its card and the total."""
    game = make_game(variant="night")
    atk = C(3, L, H, B)
    s = scripted(game, [[VALECNICE, OBR, CARODEJ], [MNICH, OBR, CARODEJ]],
                 [[atk, C(1, L, L, W)], [C(2, H, L, W), C(1, H, H, W)]])
    play(game, s, slot(0), slot(0), card(atk))
    defender, attacker = _view_lines(game, s, 1), _view_lines(game, s, 0)
    assert defender[0] == ("attack: 1 card face down (its direction shows when you have "
                           "defended, G-7.3); attack bonus +2")
    assert "3 atk-low" not in game.render_view(s, 1)
    assert attacker[0] == "attack: 3 atk-low def-high black → low 3 + 2 (attack bonus) = 5"


@pytest.mark.parametrize("variant", ["classic", "royale+night", "free_for_all"])
def test_garda3_view_shows_own_hand_and_only_the_size_of_the_others(variant):
    game = make_game(variant=variant)
    checked = 0
    for state in states_along(game, 4, 150):
        for p in range(game.num_players):
            view = game.render_view(state, p)
            assert view.startswith(f"garda3: you are seat {p}; ")
            for c in state.hands[p]:
                assert card_name(c) in view
            for q in range(game.num_players):
                if q != p:
                    k = len(state.hands[q])
                    assert f"player {q}: " in view
                    assert f"hand: {k} card{'' if k == 1 else 's'}\n" in view + "\n"
                    for c in state.hands[q]:  # card names are unique: 36 cards, 36 names
                        assert card_name(c) not in view, (p, q, card_name(c))
            for c in state.discard:
                assert card_name(c) in view
            checked += 1
            # the same view after the hidden cards are dealt anew for that seat
            assert game.render_view(game.sample_hidden(state, p, random.Random(checked)),
                                    p) == view
    assert checked > 100


def test_garda3_night_card_is_face_down_for_the_defender_until_revealed():
    game = make_game(variant="night")
    seen = 0
    for state in states_along(game, 2, 400):
        if state.phase == PH_ATTACK_CARDS and not state.atk_cards:
            striker, defender = state.player, state.blocker
            card = next(a for a in game.legal_actions(state) if a >= A_CARD)
            assert game.action_seen_by(state, card, defender) == "card: played face down"
            assert game.action_seen_by(state, card, striker) == \
                game.action_to_string(state, card)
            after = game.clone(state)
            game.apply_action(after, card)
            name = card_name(card - A_CARD)
            assert "attack: 1 card face down" in game.render_view(after, defender)
            assert name not in game.render_view(after, defender)
            assert f"attack: {name}" in game.render_view(after, striker)
            seen += 1
    assert seen >= 5
