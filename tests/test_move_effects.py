"""What a move did, as a seat sees it (``Game.effects_seen_by``, each game's ``view.py``), what
``card-envs play`` and the pictures show of the moves since a seat's last decision, and that no
view names a card the seat cannot see.

The effects are checked on scripted situations (hand-computed lines, rule ids cited) and along
random games: every card an effect names is one the seat sees before or after the move (its own
hand, a table, a discard pile or graveyard), never a card of another seat's hand or a deck.
"""

from __future__ import annotations

import random

import pytest

from card_envs.core.picture import MARGIN, TableCamera, log_lines_for, move_log
from card_envs.core.registry import make_game
from card_envs.garda3.constants import NUM_CARDS, card_name
from card_envs.scratch_wars.constants import A_SPIN, PH_MAIN


def _moves(game, seed: int, limit: int = 2000):
    """``(before, action, after)`` along one random game."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(limit):
        if game.is_terminal(state):
            return
        action = rng.choice(game.legal_actions(state))
        before = game.clone(state)
        game.apply_action(state, action)
        yield before, action, game.clone(state)


@pytest.mark.parametrize("variant", ["classic", "night", "free_for_all+resurrection"])
def test_garda3_effects_name_only_cards_the_seat_sees(variant):
    """G-2.4, G-7.3: a card named in a move's effects for seat p is in p's view before or after
    the move (its hand, the battle once revealed, the public discard pile, G-4.9), in the move
    itself, or one of the battle's cards the move resolved (revealed then, even when the discard
    pile is shuffled into the deck at once, G-3.1)."""
    game = make_game("garda3", variant=variant)
    lines = 0
    for before, action, after in (m for seed in range(6) for m in _moves(game, seed)):
        for p in range(game.num_players):
            effects = "\n".join(game.effects_seen_by(before, action, after, p))
            seen = (game.render_view(before, p) + game.render_view(after, p)
                    + game.action_seen_by(before, action, p))
            if "battle: attack " in effects:  # resolved: its cards are shown (G-4.9, G-7.3)
                seen += " ".join(card_name(c) for c in before.atk_cards + before.def_cards)
            for c in range(NUM_CARDS):
                if card_name(c) in effects:
                    assert card_name(c) in seen, (p, card_name(c), effects)
            lines += effects.count("\n") + bool(effects)
    assert lines > 500


def test_rust_brawl_views_and_effects_name_no_card_of_the_opponents_hand_or_deck():
    """RB-3.3 with ``open_decklists=False``: the opponent's hand and deck are hidden, so a
    card's name appears in seat p's view or effects only when p sees a copy of it (its own hand
    or deck contents are not shown either: only its hand, the tables and graveyards)."""
    game = make_game("rust_brawl", open_decklists=False)
    names = game.names
    checked = 0
    for before, action, after in (m for seed in range(8) for m in _moves(game, seed, 400)):
        for p in (0, 1):
            view = game.render_view(after, p)
            effects = "\n".join(game.effects_seen_by(before, action, after, p))
            public = {names[c] for s in (before, after) for x in (0, 1)
                      for c in s.table[x] + s.graveyards[x] + sum(s.equipment[x], []) if c >= 0}
            public |= {names[c] for s in (before, after) for c in s.hands[p]}
            if before.pending >= 0:
                public.add(names[before.pending])
            hidden = {names[c] for c in after.hands[1 - p] + after.decks[1 - p]} - public
            for name in hidden:
                if not any(name in other and name != other for other in public):
                    assert name not in view, (p, name)
                    assert name not in effects, (p, name, effects)
            checked += 1
    assert checked > 600


def test_dirt_and_glory_effects_tell_of_other_seats_only_public_changes():
    """DG-5: another seat's reserve, deck and drawn cards are hidden: the lines about it name
    only its caravan (public), its pass, its fuel and score, never its reserve or deck."""
    game = make_game("dirt_and_glory", num_players=3)
    allowed = ("caravan ", "passed", "went over", "the next card played", "fuel ")
    checked = 0
    for before, action, after in (m for seed in range(4) for m in _moves(game, seed)):
        for p in range(3):
            for line in game.effects_seen_by(before, action, after, p):
                if line.startswith("seat "):
                    head, _, rest = line.partition(": ")
                    assert rest.startswith(allowed), line
                    checked += 1
                assert "reserve:" not in line and "deck (" not in line
    assert checked > 300


def test_a_garda3_round_start_tells_who_attacks_and_what_each_seat_drew():
    """G-3.1, G-3.2: at a new round every seat draws up to 3 and the attacker changes; the own
    drawn cards are named, the opponent's counted."""
    game = make_game("garda3")
    for before, action, after in _moves(game, 3):
        if after.round == before.round + 1 and before.round >= 1 and after.phase != 10:
            break
    mine = sorted(set(after.hands[0]) - set(before.hands[0]))
    k = len(after.hands[1]) - len(before.hands[1])
    effects = game.effects_seen_by(before, action, after, 0)
    assert f"round {after.round}: player {after.round_attacker} attacks player {after.target}" \
        in effects
    if mine:
        assert "you drew " + ", ".join(card_name(c) for c in mine) in effects
    if k > 0:
        assert f"player 1 drew {k} card{'s' if k > 1 else ''}" in effects
    assert not any(card_name(c) in "\n".join(effects) for c in after.hands[1])


def test_a_scratch_wars_spin_names_its_segment_and_what_it_did():
    """SW-3.1, SW-3.2: a spin shows the segment the wheel landed on (forced here: segment 0 of
    the spun weapon) and its cost in energy (SW-5.2)."""
    game = make_game("scratch_wars")
    for before, action, after in _moves(game, 1):
        if before.phase == PH_MAIN and A_SPIN <= action < A_SPIN + 5:
            break
    state = game.clone(before)
    game.set_forced_spins(state, [0])
    k = action - A_SPIN
    p = state.turn
    after = game.clone(state)
    game.apply_action(after, action)
    weapon = game.weapon(state, p, k)
    seg = weapon.segments[0]
    effects = game.effects_seen_by(state, action, after, 1 - p)
    assert effects[0] == (f"seat {p}'s {weapon.name} landed on segment 0: "
                          f"{game.view.segment_text(weapon, seg)}")
    cost = game.spin_cost(state, p, k)
    assert f"seat {p}'s energy {state.energy[p]} → {after.energy[p]}" in effects or \
        after.energy[p] == state.energy[p]
    assert state.energy[p] - cost <= after.energy[p]


def test_the_camera_shows_the_moves_since_the_seats_last_decision_in_fixed_lines():
    """A seat's frame taken at each of its decisions (as a video of that seat is: the camera
    logs the moves since its previous frame, issue 21) lists its own last move and every move
    since, as the seat saw them, oldest first, in the log's fixed lines whatever the number of
    moves (equal frame sizes)."""
    game = make_game("scratch_wars")
    cam = TableCamera(game, 0)
    state = game.new_state(2)
    sizes, since, frames = set(), [], 0
    for _ in range(40):
        if game.is_terminal(state):
            break
        actor = game.current_player(state)
        if actor == 0:
            sizes.add(cam.frame(state).shape)  # seat 0's frame before its decision
            assert cam.moves == since
            frames += 1
            since = []
        a = game.legal_actions(state)[0]
        since.append((actor, game.action_seen_by(state, a, 0)))
        cam.before_move(state, a)
        game.apply_action(state, a)
    assert len(sizes) == 1 and frames >= 3
    lines = log_lines_for(game)
    width = 1280 - 2 * MARGIN
    assert move_log([], width, lines)[0] == ("since the last frame: no move",) + ("",) * 2
    shown, _ = move_log([(0, "end_turn"), (1, "spin 2: Longbow"), (1, "apply")], width, lines)
    assert shown == ("since the last frame: player_0: end_turn  ·  player_1: spin 2: Longbow, "
                     "apply", "", "")
