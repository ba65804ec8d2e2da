"""Leduc Hold'em rules (``docs/rules/leduc_holdem.md``, LH-): one test per rule id with
hand-computed outcomes on scripted deals, and a lockstep walk of OpenSpiel's ``leduc_poker``
over its whole game tree (the OpenSpiel extra)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from card_envs.core.errors import NotLegalError, StateError
from card_envs.leduc_holdem import make_game
from card_envs.leduc_holdem.cards import card_name, load_ranks
from card_envs.leduc_holdem.constants import (
    A_CALL,
    A_FOLD,
    A_RAISE,
    NUM_CARDS,
    Phase,
    rank_of,
)
from card_envs.leduc_holdem.state import hand_strength

F, C, R = A_FOLD, A_CALL, A_RAISE
JS, JH, QS, QH, KS, KH = range(6)


def deal(game, hands, public):
    """A fresh state with the given private cards and public card (the ante paid)."""
    state = game.new_state(0)
    state.hands, state.public = list(hands), public
    game.check_state(state)
    return state


def play(game, state, actions):
    for a in actions:
        game.apply_action(state, a)
    return state


def test_lh_1_1_six_cards_of_three_ranks_in_two_suits():
    ranks = load_ranks()
    assert [card_name(c, ranks) for c in range(NUM_CARDS)] == ["Js", "Jh", "Qs", "Qh", "Ks", "Kh"]
    assert [rank_of(c) for c in range(NUM_CARDS)] == [0, 0, 1, 1, 2, 2]
    # suits never matter: the jack of spades and of hearts tie against the same public card
    game = make_game()
    assert game.returns(play(game, deal(game, (JS, JH), KS), [C, C, C, C])) == [0.0, 0.0]


def test_lh_2_1_two_rounds_then_the_end():
    game = make_game()
    state = deal(game, (QS, KS), JS)
    assert state.phase == Phase.ROUND_1 and game.num_players == 2
    play(game, state, [C, C])
    assert state.phase == Phase.ROUND_2
    play(game, state, [C, C])
    assert state.phase == Phase.OVER and game.is_terminal(state)


def test_lh_2_2_both_seats_ante():
    assert make_game().new_state(3).pot == [1, 1]
    assert make_game(ante=2).new_state(3).pot == [2, 2]


def test_lh_2_3_three_different_cards_every_deal_equally_likely():
    game = make_game()
    triples = Counter()
    for seed in range(6000):
        s = game.new_state(seed)
        triples[(s.hands[0], s.hands[1], s.public)] += 1
    # 6·5·4 = 120 deals, each expected 50 times
    assert len(triples) == 120 and all(len(set(t)) == 3 for t in triples)
    assert 25 <= min(triples.values()) and max(triples.values()) <= 80
    with pytest.raises(StateError, match=r"public: 4 is both the public card and hands\[1\]"):
        deal(game, (JS, KS), KS)


def test_lh_2_4_public_card_turned_after_round_1_and_seat_0_acts_again():
    game = make_game()
    state = deal(game, (QS, KS), JH)
    at = game.observation_layout.at
    assert not game.observe(state, 0)[at.public_card:at.public_card + 3].any()
    play(game, state, [R, C])  # seat 1 closes round 1
    assert state.phase == Phase.ROUND_2 and game.current_player(state) == 0
    for p in (0, 1):
        assert game.observe(state, p)[at.public_card:at.public_card + 3].tolist() == [1, 0, 0]


def test_lh_3_1_seat_0_first_then_alternating():
    game = make_game()
    state = deal(game, (QS, KS), JH)
    seats = []
    for a in [C, R, R, C]:
        seats.append(game.current_player(state))
        game.apply_action(state, a)
    assert seats == [0, 1, 0, 1]


def test_lh_3_2_fold_only_facing_a_raise_and_it_ends_the_game():
    game = make_game()
    state = deal(game, (KS, QS), JH)
    assert game.legal_actions(state) == [C, R]  # nothing to match: no fold
    with pytest.raises(NotLegalError, match="fold"):
        game.apply_action(state, F)
    play(game, state, [C])  # a check
    assert game.legal_actions(state) == [C, R]
    play(game, state, [R])  # seat 1 raises: seat 0 faces 2 chips
    assert game.legal_actions(state) == [F, C, R]
    play(game, state, [F])
    # seat 0 folds its ante although it holds the king: it loses 1 chip (LH-5.1)
    assert game.is_terminal(state) and game.returns(state) == [-1.0, 1.0]


def test_lh_3_3_at_most_two_raises_a_round():
    game = make_game()
    state = play(game, deal(game, (QS, KS), JH), [R, R])
    assert game.legal_actions(state) == [F, C]
    play(game, state, [C])  # round 2: the count starts again
    assert state.raises == 0 and game.legal_actions(state) == [C, R]
    one = make_game(max_raises=1)
    s1 = play(one, deal(one, (QS, KS), JH), [C, R])
    assert one.legal_actions(s1) == [F, C]


def test_lh_3_4_raise_sizes_two_then_four():
    game = make_game()
    state = deal(game, (QS, KS), JH)
    play(game, state, [R])
    assert state.pot == [3, 1]  # 1 + 2
    play(game, state, [R])
    assert state.pot == [3, 5]  # matches 3, then 2 more
    play(game, state, [C])
    assert state.pot == [5, 5]
    play(game, state, [R, R])
    assert state.pot == [9, 13]  # round 2: 5 + 4, then 9 + 4
    big = make_game(ante=2, first_raise=3, second_raise=6)
    s = play(big, deal(big, (QS, KS), JH), [R, C, C, R])
    assert s.pot == [5, 11]  # ante 2, +3 in round 1, +6 in round 2


@pytest.mark.parametrize("actions, decisions", [
    ([C, C], 2), ([R, C], 2), ([C, R, C], 3), ([R, R, C], 3), ([C, R, R, C], 4)])
def test_lh_3_5_a_call_after_the_first_action_closes_the_round(actions, decisions):
    game = make_game()
    state = deal(game, (QS, KS), JH)
    for a in actions[:-1]:
        game.apply_action(state, a)
        assert state.phase == Phase.ROUND_1
    game.apply_action(state, actions[-1])
    assert state.phase == Phase.ROUND_2 and len(actions) == decisions


def test_lh_3_5_the_longest_game_is_eight_decisions():
    game = make_game()
    state = play(game, deal(game, (QS, KS), JH), [C, R, R, C, C, R, R, C])
    assert game.is_terminal(state) and game.max_game_length == game.facts.max_game_length == 8
    assert state.pot == [13, 13]


def test_lh_4_1_a_showdown_shows_both_cards():
    game = make_game()
    state = play(game, deal(game, (QS, KH), JH), [C, C, C])
    at = game.observation_layout.at
    assert not game.observe(state, 0)[at.opponent_card:at.opponent_card + 3].any()
    play(game, state, [C])
    assert game.observe(state, 0)[at.opponent_card:at.opponent_card + 3].tolist() == [0, 0, 1]
    assert game.observe(state, 1)[at.opponent_card:at.opponent_card + 3].tolist() == [0, 1, 0]
    # a fold shows nothing
    folded = play(game, deal(game, (QS, KH), JH), [R, F])
    assert not game.observe(folded, 0)[at.opponent_card:at.opponent_card + 3].any()


def test_lh_4_2_a_pair_beats_a_higher_card():
    game = make_game()
    # seat 0: jack pairing the public jack; seat 1: king. Raise, call; check, check: 3 chips
    state = play(game, deal(game, (JS, KS), JH), [R, C, C, C])
    assert game.returns(state) == [3.0, -3.0]
    assert hand_strength(JS, JH) > hand_strength(KS, JH)


def test_lh_4_3_without_a_pair_the_higher_card_wins():
    game = make_game()
    # queen vs king, public jack: check, check; raise, call: 1 + 4 = 5 chips to seat 1
    state = play(game, deal(game, (QS, KS), JH), [C, C, R, C])
    assert game.returns(state) == [-5.0, 5.0]


def test_lh_4_4_equal_ranks_split_the_pot():
    game = make_game()
    state = play(game, deal(game, (QH, QS), KS), [R, R, C, R, C])
    assert state.pot == [9, 9] and game.returns(state) == [0.0, 0.0]


def test_lh_5_1_the_winner_takes_what_the_loser_put_in():
    game = make_game()
    state = play(game, deal(game, (KS, QS), JH), [C, R, R, C, C, R, R, C])
    assert game.returns(state) == [13.0, -13.0]  # king high beats queen high: all 13 chips
    # seat 0 raises (3 in), seat 1 re-raises (5 in), seat 0 folds: it loses its 3 chips
    state = play(game, deal(game, (KS, QS), JH), [R, R, F])
    assert game.returns(state) == [-3.0, 3.0] and sum(game.returns(state)) == 0.0

def test_lh_5_2_returns_only_at_the_end():
    game = make_game()
    state = deal(game, (KS, QS), JH)
    for a in [R, R, C, R]:
        assert game.returns(state) == [0.0, 0.0]
        game.apply_action(state, a)
    assert game.returns(state) == [0.0, 0.0]
    game.apply_action(state, C)
    assert game.returns(state) == [9.0, -9.0]


def test_lh_5_3_the_utility_range_is_the_most_chips_a_seat_can_put_in():
    facts = make_game().facts
    assert (facts.min_utility, facts.max_utility, facts.utility) == (-13.0, 13.0, "chips")
    assert facts.zero_sum and facts.chance and not facts.perfect_information
    big = make_game(ante=2, first_raise=3, second_raise=6, max_raises=3).facts
    assert (big.min_utility, big.max_utility, big.max_game_length) == (-29.0, 29.0, 10)


# -- the lockstep walk against OpenSpiel's leduc_poker --------------------------------------------
def _ranks_only(info: str) -> str:
    """An OpenSpiel ``leduc_poker`` information-state string with its card ids replaced by their
    ranks (``[Private: 5]`` -> ``[Private: rank 2]``)."""
    return re.sub(r"\[(Private|Public): (\d+)\]",
                  lambda m: f"[{m.group(1)}: rank {int(m.group(2)) // 2}]", info)


def test_lockstep_with_openspiel_leduc_poker_over_the_whole_game_tree():
    """Every chance outcome and action sequence of OpenSpiel's ``leduc_poker`` (LH-1.1..LH-5.3),
    walked in lockstep with this engine (the deal set to OpenSpiel's chance outcomes, the public
    card when OpenSpiel deals it): at every node the same seat to act, legal actions (the same
    ids: fold 0, call 1, raise 2), terminal flag and returns; OpenSpiel's chance outcomes are
    uniform over the cards not yet dealt (LH-2.3). And each seat's observation here tells apart
    exactly the information states OpenSpiel tells apart, up to the suits (no leak, perfect
    recall; the observation holds ranks, and suits never matter, LH-1.1)."""
    pyspiel = pytest.importorskip("pyspiel", reason='the openspiel extra is not installed: '
                                                    'pip install "card-envs[openspiel]"')
    ref = pyspiel.load_game("leduc_poker")
    game = make_game()
    assert (ref.max_utility(), ref.min_utility(), ref.max_game_length()) == (
        game.facts.max_utility, game.facts.min_utility, game.max_game_length)
    disagreements: list[str] = []
    seen = {p: {} for p in (0, 1)}  # seat -> observation bytes -> OpenSpiel information state
    count = Counter()

    def compare(node, state, path):
        count["nodes"] += 1
        where = f"{path}: "
        if node.is_chance_node():
            outcomes = node.chance_outcomes()
            dealt = set(path[:2]) if len(path) >= 2 else set(path)
            cards = [c for c in range(NUM_CARDS) if c not in dealt]
            if [c for c, _ in outcomes] != cards or any(
                    abs(prob - 1 / len(cards)) > 1e-12 for _, prob in outcomes):
                disagreements.append(where + f"chance outcomes {outcomes}")
            for card, _ in outcomes:
                child = node.child(card)
                if len(path) == 0:
                    compare(child, None, [card])
                elif len(path) == 1:
                    public = min(c for c in range(NUM_CARDS) if c not in (path[0], card))
                    compare(child, deal(game, (path[0], card), public), path + [card])
                else:  # the public card, dealt here by OpenSpiel, face down so far here
                    mine = game.clone(state)
                    mine.public = card
                    game.check_state(mine)
                    compare(child, mine, path + [card])
            return
        count["compared"] += 1
        if node.is_terminal() != game.is_terminal(state):
            disagreements.append(where + f"terminal {node.is_terminal()} vs "
                                         f"{game.is_terminal(state)}")
            return
        if node.is_terminal():
            if node.returns() != game.returns(state):
                disagreements.append(where + f"returns {node.returns()} vs {game.returns(state)}")
            return
        if node.current_player() != game.current_player(state):
            disagreements.append(where + f"player {node.current_player()} vs "
                                         f"{game.current_player(state)}")
        if node.legal_actions() != game.legal_actions(state):
            disagreements.append(where + f"legal {node.legal_actions()} vs "
                                         f"{game.legal_actions(state)}")
            return
        for p in (0, 1):
            key = game.observe(state, p).tobytes()
            info = _ranks_only(node.information_state_string(p))
            if seen[p].setdefault(key, info) != info:
                disagreements.append(where + f"seat {p}'s observation merges information "
                                             f"states {seen[p][key]!r} and {info!r}")
        for a in node.legal_actions():
            child_state = game.clone(state)
            game.apply_action(child_state, a)
            compare(node.child(a), child_state, path + [a])

    compare(ref.new_initial_state(), None, [])
    assert not disagreements, f"{len(disagreements)} disagreements, e.g. {disagreements[:5]}"
    # OpenSpiel's whole tree: 9,457 nodes, its chance nodes included (1 root, 6 after the
    # first card, and one public-card deal after every round 1 that ends in a call)
    assert count["nodes"] == 9457 and count["compared"] > 9000, count
    for p in (0, 1):  # the map is one-to-one both ways
        assert len(set(seen[p].values())) == len(seen[p])
