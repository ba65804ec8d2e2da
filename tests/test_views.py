"""Per-seat text views (``Game.render_view``) and the names of other seats' moves as a seat sees
them (``Game.action_seen_by``): a seat sees its own hidden cards, never another seat's.

``check_game`` (tests/test_conformance.py) checks for every game and variant at every decision
that both are unchanged by ``sample_hidden`` for the viewing seat; here: what the views show.
"""

from __future__ import annotations

import random

import pytest

from card_envs.core.registry import make_game
from card_envs.core.table import cards
from card_envs.garda3.constants import A_CARD, PH_ATTACK_CARDS, card_name
from card_envs.testing.toy_game.rules import make_game as make_toy


def _states(game, seed: int, decisions: int):
    """The states along one random game (at most ``decisions`` of them)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(decisions):
        if game.is_terminal(state):
            return
        yield state
        game.apply_action(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("variant", ["classic", "royale+night", "free_for_all"])
def test_garda3_view_shows_own_hand_and_only_the_size_of_the_others(variant):
    game = make_game("garda3", variant=variant)
    checked = 0
    for state in _states(game, 4, 150):
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
    game = make_game("garda3", variant="night")
    seen = 0
    for state in _states(game, 2, 400):
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


def test_scratch_wars_has_nothing_hidden_both_seats_read_the_same_table():
    """Nothing is hidden (perfect information): a seat's view is the header and the table, the
    other seat's view differs only by who is "(you)" / "your"; every weapon shows its status,
    spin cost and durability and its whole wheel, each segment's effect, value and colour
    (SW-1.2, SW-3.2)."""
    game = make_game("scratch_wars")
    state = next(s for i, s in enumerate(_states(game, 1, 30)) if i == 20)
    view = game.render_view(state, 1)
    assert game.perfect_information
    assert view == f"scratch_wars: you are seat 1; phase {game.phase_name(state)}, to act: seat " \
        f"{state.player}{' (you)' if state.player == 1 else ''}\n" + game.view.table_text(state, 1)
    lines = view.splitlines()
    for p in (0, 1):
        for k, name in enumerate(state.weapon_names[p]):
            weapon = game.weapon(state, p, k)
            i = next(i for i, x in enumerate(lines) if x.startswith(f"    {k} {name}: ")
                     and i > lines.index(next(y for y in lines if y.startswith(f"  seat {p}"))))
            assert f"durability {weapon.durability}" in lines[i]
            assert f"spin cost {game.spin_cost(state, p, k)}" in lines[i]
            assert lines[i + 1].startswith("        wheel: ")
            for seg in weapon.segments:
                assert game.view.segment_text(weapon, seg) in lines[i + 1]


def test_core_default_view_is_the_seat_observation_by_piece():
    game = make_toy(hidden_bonus=True)  # the bonus card's position is hidden
    state = game.new_state(3)
    view = game.render_view(state, 1)
    lines = view.splitlines()
    assert lines[0] == "toy_nim: you are seat 1; phase take, to act: seat 0"
    assert [line.split(":")[0].strip() for line in lines[1:]] == \
        [p.name for p in game.observation_layout.pieces]
    obs = game.observe(state, 1)
    assert f"  pile: {float(obs[game.observation_layout['pile'].slice][0]):.3g}" in lines
    # over: the returns in the header
    game.apply_action(state, game.legal_actions(state)[-1])
    while not game.is_terminal(state):
        game.apply_action(state, game.legal_actions(state)[-1])
    ret = game.returns(state)
    assert game.render_view(state, 0).splitlines()[0] == (
        f"toy_nim: you are seat 0; game over (returns seat 0: {ret[0]:+g}, seat 1: {ret[1]:+g})")


def test_the_env_renders_one_agent_view():
    from card_envs import garda3_v1

    env = garda3_v1.env(variant="classic")
    env.reset(seed=3)
    for _ in range(20):  # into the battles: the hands are dealt
        env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    state = env.unwrapped.state_obj
    view = env.render_view("player_1")
    assert view == env.game.render_view(state, 1) and state.hands[0]
    assert all(card_name(c) not in view for c in state.hands[0])
    with pytest.raises(KeyError, match="player_7"):
        env.render_view("player_7")


def test_scratch_wars_status_says_1_action_left_in_the_singular():
    """The table's status line counts the actions left in the turn (SW-3.1): "1 action left",
    "2 actions left" (it said "1 actions left")."""
    game = make_game("scratch_wars")
    seen = {}
    for seed in range(5):
        for state in _states(game, seed, 200):
            if state.turn >= 0 and state.actions_left in (1, 2):
                seen.setdefault(state.actions_left, game.view.table_text(state, 0).splitlines()[0])
    assert seen[1].endswith(": 1 action left")
    assert seen[2].endswith(": 2 actions left")
