"""The Leduc Hold'em heuristic: its decisions on scripted deals, that it reads only its own
seat, and its result against random play in chips (the mean return with its 95 % interval that
``card-envs evaluate`` and tournaments print for a game whose returns are not ±1)."""

from __future__ import annotations

import random

import pytest

from card_envs.cli import main
from card_envs.evaluation import evaluate
from card_envs.evaluation.tournament import round_robin
from card_envs.leduc_holdem import HeuristicBot, make_game
from card_envs.leduc_holdem.constants import A_CALL, A_FOLD, A_RAISE

F, C, R = A_FOLD, A_CALL, A_RAISE
JS, JH, QS, QH, KS, KH = range(6)


def _at(hands, public, actions):
    game = make_game()
    state = game.new_state(0)
    state.hands, state.public = list(hands), public
    for a in actions:
        game.apply_action(state, a)
    return game, state


@pytest.mark.parametrize("hands, public, actions, expected", [
    ((KS, QS), JS, [], R),            # a king raises (LH-3.3)
    ((KS, QS), JS, [R, R], C),        # ... and calls once no raise is left
    ((QS, KS), JS, [], C),            # a queen checks in round 1
    ((QS, KS), JS, [C, R, R], C),     # ... and calls a raise there
    ((JS, KS), QS, [], C),            # a jack checks
    ((KS, JS), QS, [R], F),           # ... and folds to a raise (seat 1 holds the jack)
    ((JS, KS), JH, [C, C], R),        # round 2: a pair raises (LH-4.2)
    ((QS, KS), JH, [C, C], C),        # round 2: queen high checks
    ((KS, QS), JH, [C, C, R], F),     # round 2: queen high folds to a raise
])
def test_heuristic_decisions(hands, public, actions, expected):
    game, state = _at(hands, public, actions)
    assert HeuristicBot().act(game, state, game.current_player(state)) == expected


def test_the_heuristic_reads_only_its_own_seat():
    """The same action whatever the opponent holds and whatever lies face down."""
    game, bot = make_game(), HeuristicBot()
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not game.is_terminal(state):
            p = game.current_player(state)
            a = bot.act(game, state, p)
            for k in range(5):
                assert bot.act(game, game.sample_hidden(state, p, random.Random(k)), p) == a
            game.apply_action(state, rng.choice(game.legal_actions(state)))


def test_heuristic_beats_random_in_chips_with_an_interval():
    """400 seat-swapped duplicate games: the heuristic wins under half of them but gains chips
    (it folds cheap hands and raises good ones): the mean return is what says so, with its 95 %
    normal interval, beside win/draw/loss."""
    result = evaluate("leduc_holdem", "heuristic", "random", games=400, seed=0)
    assert result.units == "chips" and len(result.returns) == 400
    mean, lo, hi = result.mean_return()
    assert 0.5 < lo < mean < hi and result.win_rate < 0.5
    assert result.to_dict()["mean_return95"] == [lo, hi]
    assert f"mean return {mean:+.3f} chips [{lo:+.3f}, {hi:+.3f}] (95% normal interval)" in \
        result.long_summary()


def test_cli_evaluate_prints_the_mean_chips_with_an_interval(capsys):
    assert main(["evaluate", "--game", "leduc_holdem", "--a", "heuristic", "--b", "random",
                 "--games", "200", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "A's return (chips)" in out and "95% interval (normal)" in out
    assert "mean return +" in out and " chips [" in out


def test_a_tournament_reports_each_pairs_mean_return():
    t = round_robin("leduc_holdem", ["heuristic", "random"], games=100, seed=1)
    assert t.units == "chips"
    pair = t.to_dict()["pairs"][0]
    assert pair["units"] == "chips" and len(pair["mean_return95"]) == 2
    assert pair["mean_return95"][0] < pair["mean_return"] < pair["mean_return95"][1]
    assert "A's mean return, chips (95% normal)" in t.markdown()
