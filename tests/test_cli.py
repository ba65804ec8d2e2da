"""The ``card-envs`` command (in-process; the training path is covered by the smoke test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_envs.cli import main
from card_envs.core.registry import available_games


def test_games_lists_available(capsys):
    assert main(["games"]) == 0
    assert capsys.readouterr().out.split() == available_games()


def test_evaluate_prints_intervals_and_writes_json(capsys, tmp_path):
    out_json = tmp_path / "r.json"
    rc = main(["evaluate", "--game", "toy_game:make_game", "--game-config", '{"pile": 9}',
               "--a", "toy_game:PerfectBot", "--b", "random", "--games", "20",
               "--json", str(out_json)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "toy_game:PerfectBot vs random: 20 games: win" in out and "95% Wilson" in out
    data = json.loads(out_json.read_text())
    assert data["games"] == 20 and data["game_config"] == {"pile": 9}
    assert set(data["per_seat"]) == {"0", "1"}


def test_evaluate_bad_json_config(capsys):
    assert main(["evaluate", "--game", "toy_game:make_game", "--game-config", "{bad",
                 "--a", "random", "--b", "random"]) == 2


def test_train_help_lists_args_with_docstrings(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = capsys.readouterr().out
    assert "--opponent-mix" in out and "league weights per opponent kind" in out
    assert "--minutes" in out and "--resume" in out


def test_tournament_command(capsys):
    assert main(["tournament", "--game", "toy_game:make_game", "--policies",
                 "toy_game:PerfectBot,random", "--games", "10"]) == 0
    assert "| 1 | toy_game:PerfectBot |" in capsys.readouterr().out


@pytest.mark.parametrize("argv, needle", [
    (["evaluate", "--game", "garda3", "--a", "heuristic", "--b", "random", "--games", "0"],
     "--games"),
    (["tournament", "--game", "garda3", "--policies", "random,heuristic", "--game-config",
      "{bad"], "--game-config"),
    (["evaluate", "--game", "garda3", "--game-config", "[1]", "--a", "heuristic", "--b",
      "random"], "JSON object"),
    (["evaluate", "--game", "garda3", "--a", "README.md", "--b", "random"], "not a saved"),
    (["evaluate", "--game", "card_envs.garda3_v0:env", "--a", "heuristic", "--b", "random"],
     "did not build a card-envs Game"),
    (["evaluate", "--game", "garda3", "--a", "+lookahead", "--b", "random"],
     "nothing before '+lookahead'"),
    (["evaluate", "--game", "garda3", "--a", "heuristic+lookahead:\u00b2", "--b", "random"],
     "whole number"),
    (["evaluate", "--game", "garda3", "--a", "heuristic+lookahead:0", "--b", "random"],
     "heuristic+lookahead:0"),
])
def test_user_errors_are_one_line_with_exit_code_2(argv, needle, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


@pytest.mark.parametrize("flags, needle", [
    (["--final-eval-lookahead", "-1"], "--final-eval-lookahead"),
    (["--shaping", "-1"], "--shaping"),
    (["--net-arch", "abc"], "--net-arch"),
    (["--activation", "gelu"], "--activation"),
    (["--n-envs", "0"], "--n-envs"),
    (["--eval-games", "-3"], "--eval-games"),
    (["--minutes", "-1"], "--minutes"),
    (["--gamma", "1.5"], "--gamma"),
    (["--opponent-mix", "foo=1"], "foo"),
    (["--game", "nope"], "nope"),
    (["--set", "variant=bogus"], "bogus"),
])
def test_training_flag_errors_are_one_line_before_any_run_folder(flags, needle, tmp_path,
                                                                  capsys):
    from card_envs.training import main as train_main

    run_dir = tmp_path / "run"
    assert train_main(flags + ["--run-dir", str(run_dir)], prog="card-envs train") == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and err.count("\n") == 1
    assert not run_dir.exists()


@pytest.mark.parametrize("policies, needle", [("random,random", "named twice"),
                                              ("random", "at least two")])
def test_tournament_needs_distinct_policies(policies, needle, capsys):
    assert main(["tournament", "--game", "garda3", "--policies", policies, "--games", "2"]) == 2
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("flags, needle", [(["--opponent-mix", "heuristic=0"], "at least one"),
                                           (["--opponent-mix", "self=-1,random=1"], ">= 0"),
                                           (["--seed", "-1"], "--seed")])
def test_more_training_flag_errors(flags, needle, tmp_path, capsys):
    from card_envs.training import main as train_main

    assert train_main(flags + ["--run-dir", str(tmp_path / "r")]) == 2
    assert needle in capsys.readouterr().err and not (tmp_path / "r").exists()


def test_heuristic_of_a_module_factory_game_is_found_beside_it(capsys):
    assert main(["evaluate", "--game", "card_envs.garda3.rules:make_game", "--a", "heuristic",
                 "--b", "random", "--games", "2"]) == 0
