"""Dirt and Glory's view (``card_envs/dirt_and_glory/view.py``): a seat sees its own hand and
reserve, never another seat's hidden cards (DG-5), and the cards' abilities in words (DG-1.5)."""

from __future__ import annotations

from card_envs.core.registry import make_game
from card_envs.core.table import cards
from env_helpers import states_along as _states


def test_dirt_and_glory_view_hides_other_reserves_decks_and_hands():
    """DG-5: the own deck's composition (sorted by value, never in its order), the own reserve;
    of the other seats only the sizes of their reserves, decks and drawn cards."""
    game = make_game("dirt_and_glory", num_players=3)
    text = game.view.card_text

    def order(c):
        return game.card_low[c], game.card_high[c], game.card_ab[c]

    checked = 0
    for state in _states(game, 6, 300):
        for p in range(3):
            view = game.render_view(state, p)
            own = ", ".join(text(c) for c in sorted(state.decks[p], key=order)) or "-"
            assert f"    deck ({cards(len(state.decks[p]))}, order unknown" in view
            assert f"): {own}\n" in view + "\n"  # the composition, sorted: never the order
            reserve = ", ".join(text(c) for c in sorted(state.reserves[p], key=order)) or "-"
            assert f"    reserve: {reserve}\n" in view
            for q in range(3):
                if q != p:
                    assert (f" · reserve {cards(len(state.reserves[q]))} · deck "
                            f"{cards(len(state.decks[q]))}" in view)
            if state.hand and state.player != p:
                assert f"seat {state.player} holds {cards(len(state.hand))} drawn" in view
                assert "your drawn cards" not in view
            # reordering the own deck does not change the view (unless the top is scouted)
            if not state.peek[p]:
                other = game.clone(state)
                other.decks[p].reverse()
                assert game.render_view(other, p) == view
            checked += 1
        if state.phase == 0 and state.player != 0:  # draft: the returned kind is hidden
            a = game.legal_actions(state)[0]
            assert game.action_seen_by(state, a, 0) == \
                "draft_return: returns one of the 3 drawn cards unseen"
            assert game.action_seen_by(state, a, state.player).startswith("draft_return ")
    assert checked > 300


def test_dirt_and_glory_cards_show_their_abilities_in_words():
    """DG-1.5: a card is its values and its ability in words (no ability codes, no ``2=2``); a
    caravan card shows the value it counts when that is not plain."""
    game = make_game("dirt_and_glory", num_players=2)
    words = {"1+zero_next": "1 (your next card counts 0)", "3+fuel": "3 (+1 fuel)",
             "1/4+scout": "1/4 (see your deck's top card)",
             "3+stash": "3 (move another caravan card to your reserve)", "2/5": "2/5"}
    found = {game.kinds[k].label(): game.view.card_text(game.card_kind.index(k))
             for k in range(game.num_kinds) if game.kinds[k].label() in words}
    assert len(found) >= 4 and found == {k: words[k] for k in found}
    counted = 0
    for state in (s for seed in (2, 3, 4) for s in _states(game, seed, 300)):
        for p in range(2):
            view = game.render_view(state, p)
            for code in ("zero_next", "+scout", "+fuel", "+stash"):
                assert code not in view, code
            for c, v in zip(state.caravans[p], state.values[p]):
                card = game.view.card_text(c)
                if game.card_low[c] != game.card_high[c] or v != game.card_low[c]:
                    assert f"{card} = {v}" in view
                    counted += 1
    assert counted > 10
