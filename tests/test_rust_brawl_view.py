"""Rust Brawl's view (``card_envs/rust_brawl/view.py``): a seat never sees the opponent's hand
or a deck order, only what the decklists make known (RB-3.3), and the name of a card another seat
plays or discards is the card that then lies face up (RB-4.3, RB-4.4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from card_envs.rust_brawl import make_game
from env_helpers import states_along


@pytest.mark.parametrize("open_lists", [True, False])
def test_rb_3_3_a_seat_sees_the_opponents_hand_and_deck_only_as_counts_and_unseen_cards(
        open_lists):
    """RB-3.3: with open decklists a seat is shown the opponent's unseen cards (hand + deck, the
    list minus what was seen) as one multiset, so moving a card between that hand and deck
    changes nothing; with closed lists only the counts, the deck's name is "?", and no card
    that only the opponent's hand or deck holds is named."""
    g = make_game(decks="random", open_decklists=open_lists)
    names = g.names
    checked = 0
    for seed in (1, 2):
        for s in states_along(g, seed, 60):
            for p in (0, 1):
                q = 1 - p
                view = g.render_view(s, p)
                assert (f"  seat {q} (opponent, deck {s.deck_names[q] if open_lists else '?'}): "
                        f"deck {len(s.decks[q])}, hand {len(s.hands[q])}, graveyard: ") in view
                if open_lists:
                    unseen = Counter(s.hands[q]) + Counter(s.decks[q])
                    assert "  opponent's unseen cards: " + ", ".join(
                        f"{names[c]} x{k}" for c, k in sorted(unseen.items())) in view
                    if s.hands[q] and s.decks[q]:
                        other = g.clone(s)
                        other.hands[q][0], other.decks[q][0] = s.decks[q][0], s.hands[q][0]
                        assert g.render_view(other, p) == view
                else:
                    assert "unseen" not in view
                    shown = {names[c] for x in (0, 1)
                             for c in [*s.graveyards[x], *(c for c in s.table[x] if c >= 0),
                                       *(e for eq in s.equipment[x] for e in eq)]}
                    shown |= {names[c] for c in s.hands[p]}
                    if s.pending >= 0:
                        shown.add(names[s.pending])
                    for c in s.hands[q] + s.decks[q]:
                        if names[c] not in shown and not any(names[c] in n for n in shown):
                            assert names[c] not in view, (seed, p, names[c])
                checked += 1
    assert checked >= 100


def test_rb_4_3_a_played_or_discarded_card_is_named_to_the_other_seat():
    # RB-4.3 / RB-4.4: a played card goes to the table (an explosive to the graveyard), a
    # discarded one to the graveyard, face up: the other seat sees its name (not its hand slot,
    # which would tell the sorted hand apart); the actor sees its own slot
    g = make_game(decks="random")
    s = g.new_state(0)
    actor = s.player
    legal = g.legal_actions(s)
    play = next(a for a in legal if g.action_layout.piece_of(a).name == "play")
    slot_i = play - g.action_layout.piece_of(play).start
    card = g.card_name(s.hands[actor][slot_i])
    assert g.action_seen_by(s, play, 1 - actor) == f"play: {card}"
    assert g.action_seen_by(s, play, actor) == g.action_to_string(s, play)
    assert g.action_to_string(s, play).startswith(f"play {slot_i}: {card}")
    discard = next(a for a in legal if g.action_layout.piece_of(a).name == "discard")
    card = g.card_name(s.hands[actor][discard - g.action_layout.piece_of(discard).start])
    assert g.action_seen_by(s, discard, 1 - actor) == f"discard: {card}"
    before = list(s.graveyards[actor])
    g.apply_action(s, discard)
    assert [g.card_name(c) for c in s.graveyards[actor]][len(before):][:1] == [card]


def _face_up(s, p):
    """Seat ``p``'s face-up cards: its table, their equipment, the equipment waiting for its
    target, its graveyard."""
    return sorted([c for c in s.table[p] if c >= 0] + s.graveyards[p]
                  + [e for eq in s.equipment[p] for e in eq]
                  + ([s.pending] if s.pending >= 0 else []))


def test_rb_4_3_the_name_another_seat_sees_is_the_card_the_move_shows():
    # action_seen_by names nothing hidden: over random games, every play / discard named to the
    # other seat is the card that then lies face up (RB-4.3, RB-4.4): new on the actor's table,
    # as its equipment (or the equipment waiting for its target), or in its graveyard
    g = make_game(decks="random")
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        s = g.new_state(seed)
        while not g.is_terminal(s) and checked < 120:
            legal = g.legal_actions(s)
            a = rng.choice(legal)
            actor = s.player
            piece = g.action_layout.piece_of(a).name
            seen = g.action_seen_by(s, a, 1 - actor)
            before = _face_up(s, actor)
            g.apply_action(s, a)
            if piece in ("play", "discard"):
                name = seen.split(": ", 1)[1]
                assert seen.startswith(f"{piece}: ")
                after = _face_up(s, actor)
                shown = [g.card_name(c) for c in set(after) if after.count(c) > before.count(c)]
                assert name in shown, (seen, shown)
                checked += 1
    assert checked >= 30
