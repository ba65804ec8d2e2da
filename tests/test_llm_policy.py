"""The ``llm:<base_url>:<model>`` policy (card_envs.bots.llm) against a local chat-completions
server (tests/llm_server.py): ``card-envs evaluate`` and tournaments through it, only the seat's
text view sent, and junk, illegal moves, server errors and timeouts handled as documented
(re-asked, retried, then a random legal move or LLMError).

A missing extra: under ``CI=true`` these tests fail, except in the core-install run of
``.ci/run`` (``CARD_ENVS_CORE_ONLY=1``), where they skip with the reason.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import random

import pytest

REASON = 'the llm extra is not installed: pip install "card-envs[llm]"'
if importlib.util.find_spec("httpx") is None:
    if os.environ.get("CARD_ENVS_CORE_ONLY") != "1" and \
            os.environ.get("CI", "").lower() == "true":
        raise ImportError(REASON + " (CI installs every extra)")
    pytest.skip(REASON, allow_module_level=True)

from llm_server import start

from card_envs.bots.llm import LLMError, LLMPolicy, parse_spec
from card_envs.cli import main
from card_envs.core.errors import ConfigError
from card_envs.core.registry import make_game
from card_envs.core.text import MoveLog, observation_text, rules_brief
from card_envs.evaluation.evaluate import evaluate
from card_envs.evaluation.match import play_game
from card_envs.evaluation.policies import resolve_policy
from card_envs.garda3.constants import card_name
from card_envs.wrappers.text import make_text_env, text_aec_env


@pytest.fixture
def server():
    srv = start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _policy(server, model, **kwargs) -> LLMPolicy:
    kwargs.setdefault("backoff", 0.01)
    return LLMPolicy(server.base_url, model, seed=0, **kwargs)


def test_spec_forms_and_one_line_errors():
    assert parse_spec("llm:http://localhost:8000/v1:Qwen/Qwen2.5-7B-Instruct") == \
        ("http://localhost:8000/v1", "Qwen/Qwen2.5-7B-Instruct")
    assert parse_spec("llm:http://localhost:11434/v1:qwen2.5:7b") == \
        ("http://localhost:11434/v1", "qwen2.5:7b")  # an Ollama tag keeps its colon
    assert parse_spec("llm:http://127.0.0.1:8080:local") == ("http://127.0.0.1:8080", "local")
    assert parse_spec("llm:https://api.example.org/v1/:gpt-x") == \
        ("https://api.example.org/v1", "gpt-x")
    assert parse_spec("llm:http://[::1]:8000/v1:m") == ("http://[::1]:8000/v1", "m")
    for bad in ("llm:", "llm:localhost:8000:m", "llm:http://localhost:8000/v1",
                "llm:http://localhost:8000/v1:", "llm:ftp://host/v1:m"):
        with pytest.raises(ConfigError, match=r"expected 'llm:<base_url>:<model>'"):
            parse_spec(bad)
    policy = resolve_policy("llm:http://localhost:1/v1:m", "garda3", seed=3)
    assert isinstance(policy, LLMPolicy) and policy.name == "llm:http://localhost:1/v1:m"
    assert policy.url == "http://localhost:1/v1/chat/completions" and policy.timeout == 120.0


def test_a_20_game_evaluate_and_a_tournament_through_the_cli(server, tmp_path, capsys):
    spec = f"llm:{server.base_url}:scripted"
    out = tmp_path / "e.json"
    assert main(["evaluate", "--game", "garda3", "--a", spec, "--b", "heuristic", "--games",
                 "20", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["games"] == 20 and result["a"] == spec
    assert result["wins"] + result["draws"] + result["losses"] == 20
    assert "20 games" in capsys.readouterr().out
    # one request per decision (the scripted model always names a listed move)
    bodies = [r["body"] for r in server.requests]
    assert len(bodies) > 20 * 10 and all(b["model"] == "scripted" for b in bodies)
    assert all(b["temperature"] == 0.0 and b["max_tokens"] == 1024 for b in bodies)
    system, user = bodies[0]["messages"]
    assert system["role"] == "system" and rules_brief(make_game("garda3")) in system["content"]
    assert user["content"].startswith("Your view (seat ")
    assert "Your moves (reply with the number or the name of one):\n  1. " in user["content"]
    assert all(len(b["messages"]) == 2 for b in bodies)  # never re-asked
    # later decisions tell the moves since the seat's last one (heard through observe_move)
    assert any("Moves since your last decision:\n  you: " in b["messages"][1]["content"]
               for b in bodies)
    # a tournament (two LLM entrants, one a chatty model) plays through the same policy
    server.requests.clear()
    path = tmp_path / "t.json"
    assert main(["tournament", "--game", "scratch_wars", "--game-config", '{"level": 1}',
                 "--policies", f"{spec},llm:{server.base_url}:chatty,random", "--deals", "2",
                 "--json", str(path), "--no-progress", "--bootstrap", "20"]) == 0
    data = json.loads(path.read_text())
    assert [p["games"] for p in data["pairs"]] == [4, 4, 4]
    assert not any(g[-1] >= 0 for g in data["games_played"])  # no forfeit
    assert {r["body"]["model"] for r in server.requests} == {"scripted", "chatty"}


def test_the_model_receives_only_the_seats_text_view(server):
    """Two states the seat cannot tell apart (``sample_hidden``) give byte-identical requests,
    and no request names a card of the opponent's hand."""
    game = make_game("garda3")
    policy = _policy(server, "scripted")
    state = game.new_state(11)
    rng = random.Random(11)
    log = MoveLog(game)
    compared = 0
    while not game.is_terminal(state) and compared < 25:
        p = game.current_player(state)
        if state.hands[1 - p]:
            bodies = []
            for candidate in (state, game.sample_hidden(state, p, random.Random(compared))):
                policy.reseed(5)
                policy._state, policy._log = candidate, log  # the same moves heard
                policy.act(game, candidate, p)
                bodies.append(server.requests[-1]["body"])
            assert bodies[0] == bodies[1]
            text = json.dumps(bodies[0], ensure_ascii=False)
            assert not [c for c in state.hands[1 - p] if card_name(c) in text]
            assert bodies[0]["messages"][1]["content"] == observation_text(
                game, state, p, log.since(p))
            compared += 1
        a = rng.choice(game.legal_actions(state))
        log.record(state, a)
        game.apply_action(state, a)
    assert compared == 25


@pytest.mark.parametrize("model", ["junk", "illegal"])
def test_junk_or_an_illegal_move_is_re_asked_then_a_random_legal_move(server, model, caplog):
    game = make_game("garda3")
    policy = _policy(server, model, max_invalid=2)
    with caplog.at_level(logging.WARNING, logger="card_envs.bots.llm"):
        returns, state, decisions = play_game(game, [policy, resolve_policy("random", "garda3",
                                                                            seed=1)], seed=4)
    assert game.is_terminal(state)
    mine = policy.stats["fallback_moves"]
    assert mine > 5 and policy.stats["invalid_replies"] == 3 * mine  # 1 + 2 re-asks each
    assert policy.stats["requests"] == 3 * mine and policy.stats["retries"] == 0
    first, second = server.requests[0]["body"], server.requests[1]["body"]
    problem = second["messages"][3]["content"]
    assert second["messages"][:2] == first["messages"]
    assert second["messages"][2] == {"role": "assistant",
                                     "content": "I like turtles." if model == "junk" else
                                     policy.transcript[0].reply}
    expected = ("is not one of your legal moves" if model == "junk"
                else "is a move of this game but not a legal one now")
    assert problem.startswith("That reply was not played: ") and expected in problem
    assert problem.endswith("Reply with exactly one of the listed moves (2 more tries).")
    assert len(server.requests[2]["body"]["messages"]) == 6
    assert [t.problem is not None for t in policy.transcript] == [True] * len(policy.transcript)
    assert sum("plays a random legal move" in r.message for r in caplog.records) == mine


def test_a_server_error_is_retried_and_a_refusal_is_not(server):
    game = make_game("scratch_wars", level=1)
    state = game.new_state(2)
    policy = _policy(server, "flaky", retries=2)
    assert policy.act(game, state, game.current_player(state)) in game.legal_actions(state)
    assert policy.stats == {"requests": 3, "retries": 2, "invalid_replies": 0,
                            "fallback_moves": 0}
    server.requests.clear()
    with pytest.raises(LLMError) as info:
        _policy(server, "no-such-model").act(game, state, game.current_player(state))
    assert str(info.value) == (f"llm:{server.base_url}:no-such-model: POST {server.base_url}"
                               "/chat/completions was refused: HTTP 404: model 'no-such-model' "
                               "not found")
    assert len(server.requests) == 1
    with pytest.raises(LLMError, match=r"failed 2 times: the answer is not a chat completion: "):
        _policy(server, "broken", retries=1).act(game, state, game.current_player(state))


def test_a_timeout_is_retried_then_raises_or_plays_a_random_legal_move(server):
    game = make_game("scratch_wars", level=1)
    state = game.new_state(2)
    server.delay = 1.0
    policy = _policy(server, "slow", timeout=0.2, retries=1)
    with pytest.raises(LLMError) as info:
        policy.act(game, state, game.current_player(state))
    assert str(info.value) == (f"llm:{server.base_url}:slow: POST {server.base_url}/chat/"
                               "completions failed 2 times: no answer within 0.2 s (timeout)")
    assert policy.stats["requests"] == 2 and policy.stats["retries"] == 1
    lenient = _policy(server, "slow", timeout=0.2, retries=1, on_error="random_legal")
    assert lenient.act(game, state, game.current_player(state)) in game.legal_actions(state)
    assert lenient.stats["fallback_moves"] == 1 and lenient.stats["requests"] == 2
    # in a tournament a policy that raises forfeits its game (card_envs.evaluation.runner)
    server.delay = 0.5
    with pytest.raises(LLMError, match="no answer within 0.2 s"):
        evaluate("scratch_wars", policy, "random", games=1, config={"level": 1})


def test_key_and_timeout_from_the_environment(server, monkeypatch, capsys):
    game = make_game("scratch_wars", level=1)
    state = game.new_state(2)
    monkeypatch.setenv("CARD_ENVS_LLM_API_KEY", "sk-local-secret")
    _policy(server, "scripted").act(game, state, game.current_player(state))
    assert server.requests[-1]["headers"]["Authorization"] == "Bearer sk-local-secret"
    monkeypatch.delenv("CARD_ENVS_LLM_API_KEY")
    _policy(server, "scripted").act(game, state, game.current_player(state))
    assert "Authorization" not in server.requests[-1]["headers"]
    monkeypatch.setenv("CARD_ENVS_LLM_TIMEOUT", "7.5")
    assert resolve_policy(f"llm:{server.base_url}:m", "garda3").timeout == 7.5
    monkeypatch.setenv("CARD_ENVS_LLM_TIMEOUT", "soon")
    assert main(["evaluate", "--game", "garda3", "--a", f"llm:{server.base_url}:scripted",
                 "--b", "random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    assert "environment variable CARD_ENVS_LLM_TIMEOUT='soon': expected a number of seconds > 0" \
        in err


def test_an_llm_opponent_in_the_text_env(server):
    env = make_text_env("scratch_wars", f"llm:{server.base_url}:scripted", seed=3, level=1)
    obs, info = env.reset()
    while True:
        obs, reward, terminated, truncated, info = env.step(info["moves"][0])
        if terminated or truncated:
            break
    assert env.opponent.stats["requests"] > 3 and env.opponent.stats["fallback_moves"] == 0
    # the opponent heard the learner's moves
    assert any("\n  seat " in r["body"]["messages"][1]["content"] for r in server.requests)


def test_an_llm_seat_inside_the_text_aec_env_hears_the_moves(server):
    env = text_aec_env("garda3", opponents={"player_1": f"llm:{server.base_url}:scripted"},
                       seed=2)
    env.reset(seed=2)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step("1")
    bot = env.opponents["player_1"]
    assert bot.stats["requests"] > 10 and bot.stats["fallback_moves"] == 0
    prompts = [r["body"]["messages"][1]["content"] for r in server.requests]
    assert sum("\n  seat 0: " in p for p in prompts) > 5  # player_0's moves, as it saw them
