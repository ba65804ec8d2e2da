"""The generic random bot: legal, seed-deterministic, uniform over the legal actions."""

from collections import Counter

from card_envs.bots import RandomBot
from card_envs.garda3 import constants as R
from card_envs.garda3.rules import make_game


def test_random_bot_plays_only_legal_actions_and_is_deterministic_by_seed():
    g = make_game()
    runs = []
    for _ in range(2):
        bot = RandomBot(seed=3)
        s = g.new_state(0)
        actions = []
        while not g.is_terminal(s):
            a = bot.act(g, s, g.current_player(s))
            assert a in g.legal_actions(s)
            g.apply_action(s, a)
            actions.append(a)
        runs.append(actions)
    assert runs[0] == runs[1]


def test_random_bot_is_uniform_over_the_legal_actions():
    g = make_game()
    s = g.new_state(0)  # draft: 9 legal picks
    bot = RandomBot(seed=0)
    counts = Counter(bot.act(g, s, s.player) for _ in range(9000))
    assert set(counts) == {R.A_PICK + k for k in range(9)}
    assert all(800 <= c <= 1200 for c in counts.values())  # 1000 expected each
