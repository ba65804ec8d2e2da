"""The text view for language agents (card_envs.core.text) and its envs (card_envs.wrappers.text):
move names unique and read back, replies in every accepted form, invalid replies and the
illegal_action rules, the transcript in the record, whole games of every game and variant played
by a scripted agent that reads only the strings, the AEC view."""

from __future__ import annotations

import importlib
import random
import sys
import time

import pytest
from gymnasium.utils.env_checker import check_env

from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.extras import MissingExtraError
from card_envs.core.records import GameRecord, replay
from card_envs.core.registry import make_game
from card_envs.core.text import (
    CHARSET,
    InvalidReply,
    MoveList,
    MoveLog,
    normalize,
    observation_text,
    rules_brief,
)
from card_envs.evaluation.policies import resolve_policy
from card_envs.testing.text_agent import ScriptedTextAgent, listed_moves, short_name
from card_envs.testing.variants import variant_id
from card_envs.wrappers.text import TextAECEnv, TextEnv, make_text_env, text_aec_env
from env_helpers import TEST_GAMES, registered_cases, registered_games

TOY = "card_envs.testing.toy_game.rules:make_game"
GAMES = registered_games()
CASES = registered_cases()


def _decisions(game, seed: int, games: int):
    """Every decision state of ``games`` random games (the state, before the move)."""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        state = game.new_state(seed * 1000 + g)
        while not game.is_terminal(state):
            yield state
            game.apply_action(state, rng.choice(game.legal_actions(state)))


def _plain(text: str) -> str:
    """``text`` upper-cased without accents (as a careless agent might write it)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c)).upper()


@pytest.mark.parametrize("name,config", CASES, ids=[f"{n}-{variant_id(c)}" for n, c in CASES])
def test_move_names_are_unique_and_read_back_as_their_move(name, config):
    game = make_game(name, **config)
    checked = 0
    for state in _decisions(game, 7, 6):  # 6 games: at least one decision each
        moves = MoveList(game, state)
        legal = game.legal_actions(state)
        assert [m.action for m in moves] == legal
        assert [m.number for m in moves] == list(range(1, len(legal) + 1))
        keys = [normalize(m.name) for m in moves]
        assert len(set(keys)) == len(keys), [m.name for m in moves]
        for m in moves:
            described = " ".join(game.action_to_string(state, m.action).split())
            assert m.line == described and described.startswith(m.name)
            for reply in (m.name, m.line, str(m.number), f"{m.number}.", _plain(m.name),
                          f" `{m.name}` ", f"{m.number}. {m.line}"):
                assert moves.parse(reply) == m.action, (reply, [x.line for x in moves])
        checked += 1
    assert checked >= 6


class _Echo:
    """A stub game whose moves all describe themselves alike (to exercise the fallbacks)."""

    name, num_players, num_actions = "echo", 2, 4

    def __init__(self, strings):
        self.strings = strings

    def legal_actions(self, state):
        return [0, 1, 2, 3]

    def action_to_string(self, state, a):
        return self.strings[a]

    def action_name(self, a):
        return ["play 0", "play 1", "play 1", "pass"][a]


def test_shared_short_names_fall_back_to_the_action_name_then_the_id():
    moves = MoveList(_Echo(["play: Rudá Vlčice", "play: Rudá Vlčice", "7", "pass"]), None)
    # "play" twice and the digits-only "7": the layout names; "play 1" twice: "action <id>"
    assert [m.name for m in moves] == ["play 0", "action 1", "action 2", "pass"]
    assert [m.line for m in moves] == ["play 0 — play: Rudá Vlčice",
                                       "action 1 — play: Rudá Vlčice", "action 2 — 7", "pass"]
    assert moves.parse("action 2") == 2 and moves.parse("2") == 1 and moves.parse("PASS") == 3
    with pytest.raises(InvalidReply, match=r"'play: ruda vlcice' names 2 moves \(play 0, "
                                           r"action 1\)"):
        moves.parse("play: ruda vlcice")


def test_replies_in_every_accepted_form_and_the_problem_of_each_refused_one():
    game = make_game("scratch_wars", level=1)
    state = game.new_state(3)
    game.apply_action(state, game.legal_actions(state)[0])  # seat 0 chose its initiative weapon
    moves = MoveList(game, state)
    assert [m.line for m in moves][:2] == ["init_weapon 0: Frost Axe", "init_weapon 1: Twin Axe"]
    first = moves.moves[0].action
    for reply in ("init_weapon 0", "INIT WEAPON 0", "Frost Axe", "frost axe.", "#1", "1)",
                  '"1"', "**init_weapon 0**", "1. Frost Axe"):
        assert moves.parse(reply) == first, reply
    n = len(moves)
    problems = {
        "": "the reply is empty; reply with one move's number or name",
        "0": f"'0' is not a move number: the moves are numbered 1 to {n}",
        "99": f"'99' is not a move number: the moves are numbered 1 to {n}",
        "end turn": "'end turn' is a move of this game but not a legal one now; choose one of "
                    "the listed moves",
        "a banana": f"'a banana' is not one of your legal moves; reply with one move's number "
                    f"(1 to {n}) or its name",
        "2. Frost Axe": "'2. Frost Axe': number 2 and name 'Frost Axe' are different moves; "
                        "reply with one",
    }
    for reply, problem in problems.items():
        with pytest.raises(InvalidReply) as info:
            moves.parse(reply)
        assert str(info.value) == problem
    # the lenient reading of chatty agents (the llm: policy)
    assert moves.find("<think>Frost Axe? no.</think>\nI choose the second.\nMove: 2") == \
        moves.moves[1].action
    assert moves.find("I will spin my Twin Axe, so: init_weapon 1") == moves.moves[1].action
    with pytest.raises(InvalidReply, match="'I like turtles' is not one of your legal moves"):
        moves.find("I like turtles")


@pytest.mark.parametrize("name", GAMES)
def test_rules_brief_of_every_game(name):
    """Every game of the package ships a brief (data/rules_brief.md); a game of the tests
    (Toy Chips) gets the fallback."""
    brief = rules_brief(make_game(name))
    if name in TEST_GAMES:
        assert brief.startswith(f"{name}: no rules summary ships with this game")
    else:
        assert 400 < len(brief) < 2000 and "\n\n" not in brief, name


def test_rules_brief_of_a_game_and_the_fallback():
    assert rules_brief(make_game("garda3")).startswith("Garda3 (2 players; 3 in free_for_all)")
    assert rules_brief(_Echo([])) == ("echo: no rules summary ships with this game "
                                      "(data/rules_brief.md); the view and the legal moves below "
                                      "show what you can do.")


def test_the_observation_of_a_toy_game_section_by_section():
    env = make_text_env(TOY, "card_envs.testing.toy_game.bot:PerfectBot", seed=0,
                        learner_seat=0, pile=9)
    obs, info = env.reset()
    game = env.game
    assert obs == (
        f"Rules in brief (toy_nim):\n{rules_brief(game)}\n\n"
        f"Your view (seat 0):\n{game.render_view(env.state, 0)}\n\n"
        "Moves since your last decision:\n  (none)\n\n"
        "Your moves (reply with the number or the name of one):\n"
        "  1. take 0: 1 Kámen\n  2. take 1: 2 Kámen\n  3. take 2: 3 Kámen")
    assert info == {"seat": 0, "moves": ["take 0", "take 1", "take 2"]}
    # 9 - 2 = 7 left; the perfect bot leaves a multiple of 4: it takes 3
    obs, reward, terminated, truncated, info = env.step("Take 1")
    assert (reward, terminated, truncated, info["action"]) == (0.0, False, False, 1)
    assert "Rules in brief" not in obs  # only until the seat's first decision
    assert "Moves since your last decision:\n  you: take 1: 2 Kámen\n  seat 1: take 2: 3 " \
           "Kámen\n\n" in obs
    assert env.state.pile == 4
    obs, reward, terminated, truncated, info = env.step("3")  # takes 3: 1 left for the bot
    assert (reward, terminated, info["outcome"], info["returns"]) == (-1.0, True, 0.0,
                                                                       [-1.0, 1.0])
    assert obs.endswith("  you: take 2: 3 Kámen\n  seat 1: take 0: 1 Kámen\n\n"
                        "The game is over: you lost (returns seat 0 (you): -1, seat 1: +1).")
    with pytest.raises(RuntimeError, match="finished episode"):
        env.step("1")


def test_invalid_replies_then_each_illegal_action_rule(tmp_path):
    def fresh(rule, **kw):
        env = make_text_env(TOY, "random", seed=1, learner_seat=0, illegal_action=rule,
                            max_invalid=2, **kw)
        env.reset()
        return env

    env = fresh("lose", record_dir=tmp_path)
    expected = ("'junk' is not one of your legal moves; reply with one move's number (1 to 3) "
                "or its name")
    for left in (2, 1):
        obs, reward, terminated, truncated, info = env.step("junk")
        assert obs.startswith(f"Your last reply was not played: {expected}. ({left} more invalid "
                              f"repl{'y' if left == 1 else 'ies'} allowed in this decision.)\n\n")
        assert (reward, terminated, info["invalid"], info["problem"], info["invalid_left"]) == \
            (0.0, False, True, expected, left)
        assert "Your moves (reply with the number or the name of one):" in obs
    assert env.actions == []  # nothing was played
    obs, reward, terminated, truncated, info = env.step("junk")
    assert (reward, terminated, truncated, info["illegal_action"], info["outcome"]) == \
        (-1.0, True, False, True, 0.0)
    assert obs.startswith(f"Your reply was not played: {expected}.\n\n")
    assert obs.endswith("\n\nThe game is over: you made no legal move after 2 invalid "
                        "replies, so you lost (-1).")
    assert "Your moves" not in obs
    # the transcript is saved with the record: three replies, each with its problem
    (path,) = tmp_path.glob("text-toy_nim-*.json")
    record = GameRecord.load(path)
    assert record.outcome is None and record.actions == []
    assert [(t.seat, t.reply, t.action, t.problem) for t in record.transcript] == \
        [(0, "junk", None, expected)] * 3
    assert record.transcript[0].observation.startswith("Rules in brief (toy_nim):")
    # an invalid reply allowance is per decision: a valid reply restores it
    env = fresh("lose")
    env.step("junk")
    env.step("1")
    obs, _, terminated, _, info = env.step("junk")
    assert not terminated and info["invalid_left"] == 2

    env = fresh("random_legal")
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step("?")
    assert info["illegal_action"] and info["played_action"] in (0, 1, 2)
    assert env.actions[0] == info["played_action"] and not terminated
    env = fresh("raise")
    env.step("x")
    env.step("x")
    with pytest.raises(IllegalActionError, match=r"text env: reply 'x' at seat 0: 'x' is not one "
                                                 r"of your legal moves.*after 2 invalid replies"):
        env.step("x")
    with pytest.raises(IllegalActionError, match="action is a str .*got int 1"):
        fresh("lose").step(1)


def test_options_are_checked_and_listing_can_be_turned_off():
    game = make_game("garda3")
    for kwargs, message in (({"max_invalid": -1}, "max_invalid must be an int >= 0"),
                            ({"list_moves": 1}, "list_moves must be True or False"),
                            ({"illegal_action": "terminate"}, "illegal_action"),
                            ({"record_dir": "/no/such/folder"}, "is not an existing folder")):
        with pytest.raises(ConfigError, match=message):
            TextEnv(game, resolve_policy("random", "garda3"), **kwargs)
    env = TextEnv(game, resolve_policy("random", "garda3"), list_moves=False, rules=False, seed=2)
    obs, info = env.reset()
    assert obs.startswith("Your view (seat 0):")
    assert obs.endswith("It is your move: reply with the name of one legal move.")
    assert not listed_moves(obs)
    first = game.legal_actions(env.state)[0]
    *_, info = env.step(info["moves"][0])  # the names are read all the same
    assert info["action"] == first and "invalid" not in info


def test_gymnasium_checker_passes():
    env = make_text_env("garda3", "random", seed=0)
    check_env(env, skip_render_check=True)
    assert env.observation_space.contains(env.reset(seed=1)[0])


def _play_text_games(name: str, config: dict, games: int, style: str) -> int:
    env = make_text_env(name, "random", seed=5, **config)
    agent = ScriptedTextAgent(seed=6, style=style)
    game, decisions = env.game, 0
    for _ in range(games):
        obs, info = env.reset()
        while True:
            assert env.observation_space.contains(obs), {c for c in obs if c not in CHARSET}
            assert [short_name(line) for _, line in listed_moves(obs)] == info["moves"]
            obs, reward, terminated, truncated, info = env.step(agent.reply(obs))
            assert "invalid" not in info, info
            decisions += 1
            if terminated or truncated:
                break
        if terminated:  # the game's own end: the record replays to its returns
            _, final = replay(env.record())
            assert info["returns"] == [float(r) for r in game.returns(final)]
            assert reward == info["returns"][env.seat]
        assert len(env.transcript) == sum(1 for t in env.transcript if t.problem is None)
        assert obs.splitlines()[-1].startswith("The game is over: ")
    return decisions


@pytest.mark.parametrize("name", GAMES)
def test_a_scripted_text_agent_plays_100_games_of_every_game(name):
    start = time.perf_counter()
    decisions = _play_text_games(name, {}, 100, "mixed")
    assert decisions >= 100  # the agent's own decisions: one a game at least
    assert time.perf_counter() - start < 60  # ~2-4 s each here


@pytest.mark.parametrize("name,config", CASES, ids=[f"{n}-{variant_id(c)}" for n, c in CASES])
def test_a_scripted_text_agent_plays_every_variant(name, config):
    assert _play_text_games(name, config, 10, "name") >= 10


@pytest.mark.slow
@pytest.mark.parametrize("name,config", CASES, ids=[f"{n}-{variant_id(c)}" for n, c in CASES])
def test_a_scripted_text_agent_plays_100_games_of_every_variant(name, config):
    assert _play_text_games(name, config, 100, "mixed") >= 100


def test_every_seat_a_text_agent_in_the_aec_env():
    env = text_aec_env("dirt_and_glory", num_players=3, seed=4)
    env.reset(seed=4)
    agents = {a: ScriptedTextAgent(seed=i, style="mixed") for i, a in enumerate(env.agents)}
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(agents[agent].reply(obs))
        assert "invalid" not in env.infos.get(agent, {})
    game, state = env.game, env.unwrapped.state_obj
    assert game.is_terminal(state)
    assert [totals[a] for a in env.possible_agents] == pytest.approx(game.returns(state))
    record = env.record()
    assert len(record.transcript) == len(record.actions)  # every move a read reply
    assert replay(record)[1].scores == state.scores


def test_aec_invalid_replies_terminate_and_opponents_play_inside():
    env = text_aec_env("garda3", opponents={"player_1": "random"}, seed=0, max_invalid=1)
    env.reset(seed=0)
    assert env.agents == ["player_0"]
    obs = env.observe("player_0")
    assert "Your moves" in obs
    env.step("nonsense")
    assert env.infos["player_0"]["invalid_left"] == 1 and not env.terminations["player_0"]
    assert env.observe("player_0").startswith("Your last reply was not played: 'nonsense'")
    with pytest.warns(UserWarning, match=r"player_0 made no legal move in 2 replies \('nonsense'"):
        env.step("nonsense")
    _, reward, terminated, truncated, info = env.last()
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.observe("player_0").endswith("The game is over: player_0 (seat 0) made no legal "
                                            "move, so it lost (-1, the others 0).")
    # bots' moves (action ids) are narrated to the text agents
    text = text_aec_env("garda3", seed=1)
    text.reset(seed=1)
    state = text.unwrapped.state_obj
    mover = text.game.current_player(state)
    text.step(text.game.legal_actions(state)[0])
    assert f"\n  seat {mover}: pick 0: " in text.observe(f"player_{1 - mover}")
    with pytest.raises(ConfigError, match="not a card-envs AEC env"):
        TextAECEnv(object())


# api_test replies with random strings of the Text space: most are no legal move, and the env
# says so (the warning test_aec_invalid_replies... asserts); it also warns for any action space
# other than Box or Discrete, and a text env's is spaces.Text by design
@pytest.mark.filterwarnings("ignore:.*made no legal move in:UserWarning")
@pytest.mark.filterwarnings("ignore:Action space for each agent probably should be:UserWarning")
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_apart_from_its_array_dtype_check(name, monkeypatch):
    """PettingZoo's ``api_test`` compares ``observation.dtype`` with the space's, which a
    Python string does not have; every other check of it runs."""
    api = importlib.import_module("pettingzoo.test.api_test")
    monkeypatch.setattr(api, "_test_observation_space_compatibility", lambda *a, **k: None)
    for env in (text_aec_env(name, seed=0),
                text_aec_env(name, opponents={"player_1": "heuristic"}, seed=0)):
        for i, agent in enumerate(env.possible_agents):  # its random replies: seeded
            env.action_space(agent).seed(i)
        api.api_test(env, num_cycles=200)


def test_an_observation_is_a_function_of_the_log_and_state_only():
    game = make_game("rust_brawl")
    log = MoveLog(game)
    state = game.new_state(2)
    rng = random.Random(2)
    for _ in range(12):
        a = rng.choice(game.legal_actions(state))
        log.record(state, a)
        game.apply_action(state, a)
    seat = game.current_player(state)
    assert log.decided[seat] and log.since(seat)[0].startswith("you: ")
    text = observation_text(game, state, seat, log.since(seat))
    assert text == observation_text(game, game.clone(state), seat, log.since(seat))


def test_the_llm_spec_without_its_extra_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(MissingExtraError) as info:
        resolve_policy("llm:http://localhost:8000/v1:m", "garda3")
    assert str(info.value) == ('the llm: policy needs the "llm" extra: pip install '
                               '"card-envs[llm]" (not installed: httpx)')

