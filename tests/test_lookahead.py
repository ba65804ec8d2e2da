"""Decision-time lookahead (card_envs.bots.lookahead) and the Garda3 hooks it uses.

Scores are hand-computed: Toy Nim rollouts to the end of the game, and a scripted Garda3 round in
which every card is known (G-4.3, G-4.7, G-4.8, G-5.1) so the potential at the round's end is exact.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from card_envs.bots.base import RandomBot
from card_envs.bots.lookahead import LookaheadPolicy, act_batch
from card_envs.core.errors import ConfigError
from card_envs.core.registry import make_game
from card_envs.garda3 import constants as R
from garda3_helpers import (
    KOVAR,
    LUCISTNICE,
    MNICH,
    OBR,
    STRAZNY,
    VALECNICE,
    B,
    C,
    H,
    L,
    W,
    card,
    play,
    scripted,
    slot,
)
from toy_game import make_game as make_toy


class TakeMost:
    """Toy Nim: always take as many cards as allowed (3, or what is left)."""

    name = "take_most"

    def act(self, game, state, player):
        return max(game.legal_actions(state))


class FirstLegal:
    name = "first_legal"

    def act(self, game, state, player):
        return game.legal_actions(state)[0]


def test_nim_lookahead_scores_and_fixes_the_base_policy():
    # pile 5, seat 0 to move; rollouts by TakeMost for both seats to the end of the game:
    # take 1 -> 4 left: opp takes 3, I take the last -> win (+1 x win_value 3)
    # take 2 -> 3 left: opp takes 3 -> loss (-3); take 3 -> 2 left: opp takes 2 -> loss (-3)
    game = make_toy(pile=5)
    state = game.new_state(0)
    look = LookaheadPolicy(TakeMost(), samples=4, seed=1)
    assert look.action_scores(game, state, 0) == {0: 3.0, 1: -3.0, 2: -3.0}
    assert TakeMost().act(game, state, 0) == 2
    assert look.act(game, state, 0) == 0


def test_ties_keep_the_base_policy_choice():
    class ThreeAtSeven:
        """Takes 3 from a pile of 7, else 1."""

        def act(self, game, state, player):
            return 2 if state.pile == 7 else 0

    # pile 7, rollouts take 1 at a time, so whoever faces an odd pile takes the last card:
    # take 1 -> 6 left: win (+3); take 2 -> 5 left: loss (-3); take 3 -> 4 left: win (+3)
    game = make_toy(pile=7)
    state = game.new_state(0)
    look = LookaheadPolicy(ThreeAtSeven(), samples=2)
    assert look.action_scores(game, state, 0) == {0: 3.0, 1: -3.0, 2: 3.0}
    assert look.act(game, state, 0) == 2  # the base's own choice among the tied best
    first = LookaheadPolicy(FirstLegal(), samples=2)
    # FirstLegal takes 1 here too, so the same scores; its own choice (take 1) is kept
    assert first.action_scores(game, state, 0) == {0: 3.0, 1: -3.0, 2: 3.0}
    assert first.act(game, state, 0) == 0


def _garda3_defence_state(game):
    """Seat 0 (OBR: atk 0, hp 7) attacks seat 1's KOVAR (atk 1, def 0, hp 6) with its only card,
    3 high; seat 1 holds a white 1 (attack high, defends low) and a black 3 (attack low, defends
    high): no pair, so it defends with one of them."""
    s = scripted(game, [[OBR, STRAZNY, LUCISTNICE], [KOVAR, MNICH, VALECNICE]],
                 [[C(3, H, L, W)], [C(1, H, L, W), C(3, L, H, B)]])
    play(game, s, slot(0), slot(0), card(C(3, H, L, W)))
    assert s.phase == R.PH_DEFENCE_CARDS and s.player == 1
    return s


def test_garda3_round_lookahead_scores_are_the_potential_at_round_end():
    game = make_game("garda3")
    s = _garda3_defence_state(game)
    weak, strong = card(C(1, H, L, W)), card(C(3, L, H, B))
    look = LookaheadPolicy(FirstLegal(), samples=3, seed=0)
    scores = look.action_scores(game, s, 1)
    # strong (defends high, G-4.7): hit max(0, 3 - 3) = 0; counter with the white 1 high:
    #   1 + KOVAR's 1 vs no card (G-4.6) -> OBR 7 -> 5. Material (HP + 3 per living fighter):
    #   seat 0: 8 + 9 + 7 = 24, seat 1: 9 + 8 + 7 = 24 -> potential 0.
    # weak (defends low, wrong direction, G-4.7): hit 3 -> KOVAR 6 -> 3; counter with the black
    #   3 low: 3 + 1 = 4 -> OBR 7 -> 3. seat 0: 6 + 9 + 7 = 22, seat 1: 6 + 8 + 7 = 21 -> -1/30.
    assert scores[strong] == pytest.approx(0.0)
    assert scores[weak] == pytest.approx(-1 / 30)
    assert FirstLegal().act(game, s, 1) == weak
    assert look.act(game, s, 1) == strong
    # the real state is untouched
    assert s.phase == R.PH_DEFENCE_CARDS and s.hp == [[7, 6, 4], [6, 5, 4]]


def test_garda3_potential_and_horizon_hooks():
    game = make_game("garda3")
    s = scripted(game, [[OBR, STRAZNY, LUCISTNICE], [KOVAR, MNICH, VALECNICE]], [[], []],
                 hp=[[5, 0, -1], [6, 2, 4]])
    # seat 0: 5 + 3 (0 and -1 HP are eliminated, G-4.10) = 8; seat 1: 9 + 5 + 7 = 21
    assert game.potential(s, 0) == pytest.approx((8 - 21) / 30)
    assert game.potential(s, 1) == pytest.approx((21 - 8) / 30)
    assert game.lookahead_horizon(s) == 1  # a battle decision of round 1
    fresh = game.new_state(3)
    assert fresh.phase == R.PH_DRAFT and game.lookahead_horizon(fresh) is None
    ffa = make_game("garda3", variant="free_for_all")
    t = scripted(ffa, [[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[], [], []])
    assert t.phase == R.PH_TARGET and ffa.lookahead_horizon(t) is None
    # free_for_all: own material minus the mean of the two others
    t.hp = [[5, 4, 3], [7, 0, 0], [1, 1, 1]]
    assert ffa.potential(t, 0) == pytest.approx((21 - (10 + 12) / 2) / 30)


def test_lookahead_decides_only_from_the_players_information():
    """Two states seat 0 cannot tell apart (seat 1's hand and the deck order differ) give the same
    lookahead choice and scores: the deals come from sample_hidden, never from hidden cards."""
    game = make_game("garda3")
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        s = game.new_state(seed)
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while not game.is_terminal(s) and not (
                game.current_player(s) == 0 and s.phase == R.PH_ATTACK_CARDS and s.hands[1]
                and len(game.legal_actions(s)) > 1):
            game.apply_action(s, bots[game.current_player(s)].act(game, s, game.current_player(s)))
        if game.is_terminal(s):
            continue
        other = game.clone(s)
        pool = other.hands[1] + other.deck
        rng.shuffle(pool)
        other.hands[1], other.deck = pool[:len(other.hands[1])], pool[len(other.hands[1]):]
        other.legal_cache = None
        assert other.hands[1] != s.hands[1] or other.deck != s.deck
        assert np.array_equal(game.observe(s, 0), game.observe(other, 0))
        a = LookaheadPolicy(RandomBot(1), samples=4, seed=9).action_scores(game, s, 0)
        b = LookaheadPolicy(RandomBot(1), samples=4, seed=9).action_scores(game, other, 0)
        assert a == b
        checked += 1
    assert checked >= 20


def test_equal_seeds_give_equal_games():
    game = make_game("garda3")
    from card_envs.evaluation.match import play_game

    def run():
        look = LookaheadPolicy(FirstLegal(), samples=2, seed=4)
        returns, final, decisions = play_game(game, [look, RandomBot(2)], seed=11)
        assert look.searched > 10
        return returns, game.state_to_dict(final), decisions

    assert run() == run()


def test_frozen_policy_act_batch_equals_act():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from card_envs.bots.sb3 import FrozenPolicy
    from card_envs.wrappers.single_agent import SingleAgentEnv

    game = make_game("garda3")
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(game, RandomBot(0)), seed=0,
                        policy_kwargs={"net_arch": [16]})
    frozen = FrozenPolicy(model.policy, deterministic=True)
    states, seats = [], []
    bot = RandomBot(3)
    for seed in range(6):
        s = game.new_state(seed)
        for _ in range(seed * 7):
            game.apply_action(s, bot.act(game, s, game.current_player(s)))
        states.append(s)
        seats.append(game.current_player(s))
    assert act_batch(frozen, game, states, seats) == [
        frozen.act(game, s, p) for s, p in zip(states, seats)]
    assert act_batch(FirstLegal(), game, states, seats) == [
        game.legal_actions(s)[0] for s in states]


@pytest.mark.parametrize("kwargs", [{"samples": 0}, {"samples": 2.5}, {"samples": True},
                                    {"win_value": 0}, {"win_value": -1.0}])
def test_bad_settings_are_refused_by_name(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(ConfigError, match=name):
        LookaheadPolicy(FirstLegal(), **kwargs)


def test_policy_specs_with_lookahead():
    from card_envs.evaluation.policies import resolve_policy
    from card_envs.garda3.bot import HeuristicBot

    p = resolve_policy("heuristic+lookahead:4", "garda3")
    assert isinstance(p, LookaheadPolicy) and p.samples == 4
    assert isinstance(p.base, HeuristicBot) and p.name == "heuristic+lookahead:4"
    assert resolve_policy("random+lookahead", "garda3").samples == 8
    with pytest.raises(ConfigError, match="'x'"):
        resolve_policy("heuristic+lookahead:x", "garda3")
    with pytest.raises(ConfigError, match="samples"):
        resolve_policy("heuristic+lookahead:0", "garda3")


def test_cli_evaluate_with_lookahead(capsys):
    from card_envs.cli import main

    assert main(["evaluate", "--game", "garda3", "--a", "heuristic+lookahead:2", "--b", "random",
                 "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "heuristic+lookahead:2" in out and "4 games" in out


def test_bad_base_and_infinite_win_value_are_refused():
    with pytest.raises(ConfigError, match="not a policy"):
        LookaheadPolicy("heuristic")
    with pytest.raises(ConfigError, match="win_value"):
        LookaheadPolicy(FirstLegal(), win_value=float("inf"))
