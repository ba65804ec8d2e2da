"""``card-envs tournament`` and ``card-envs sprt``: output, JSON, PNG, workers, one-line errors."""

from __future__ import annotations

import importlib
import json

import pytest

from card_envs.cli import main

TOY = ["--game", "toy_game:make_game", "--game-config", '{"pile": 9}']


@pytest.fixture
def no_games(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the user error was reported")

    monkeypatch.setattr(importlib.import_module("card_envs.evaluation.runner"), "play_game",
                        refuse)


def _one_error_line(capsys, command: str) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"card-envs {command}: error: ")
    return err


def test_tournament_workers_json_png_and_gauntlet(tmp_path, capsys):
    outs = []
    for workers in ("1", "2"):
        path = tmp_path / f"w{workers}.json"
        assert main(["tournament", *TOY, "--policies", "random,random+lookahead:1",
                     "--gauntlet", "toy_game:PerfectBot", "--deals", "6", "--workers", workers,
                     "--json", str(path), "--png", str(tmp_path / "t.png"),
                     "--no-progress"]) == 0
        outs.append(json.loads(path.read_text()))
    assert outs[0] == outs[1]  # --workers 2 plays exactly the serial games
    data = outs[0]
    assert data["format"] == "gauntlet" and data["entrants"][0] == "toy_game:PerfectBot"
    assert [p["games"] for p in data["pairs"]] == [12, 12]
    assert all(len(s["elo95"]) == 2 for s in data["standings"])
    png = (tmp_path / "t.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    out = capsys.readouterr().out
    assert "Bradley-Terry Elo" in out and "95% Wilson" in out and "PNG: " in out


def test_tournament_games_rounds_up_to_whole_deals(tmp_path, capsys):
    path = tmp_path / "t.json"
    assert main(["tournament", *TOY, "--policies", "toy_game:PerfectBot,random", "--games", "7",
                 "--json", str(path), "--no-progress", "--bootstrap", "20"]) == 0
    data = json.loads(path.read_text())
    assert data["deals"] == 4 and data["pairs"][0]["games"] == 8


def test_sprt_command(tmp_path, capsys):
    path = tmp_path / "s.json"
    assert main(["sprt", *TOY, "--a", "toy_game:PerfectBot", "--b", "random", "--elo1", "40",
                 "--json", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    data = json.loads(path.read_text())
    assert data["decision"] == "H1" and data["games"] == 2 * sum(data["pentanomial"])
    assert out.splitlines()[0] == ("SPRT toy_game:PerfectBot vs random: H1 accepted: A is "
                                   "better (elo >= 40 rather than 0)")
    assert f"{data['games']} ({data['pairs']})" in out
    assert data["elo"]["elo95"][0] > 0


@pytest.mark.parametrize("flags, needle", [
    (["--elo0", "10", "--elo1", "5"], "--elo0 must be below --elo1"),
    (["--elo0", "5", "--elo1", "5"], "--elo0 must be below --elo1"),
    (["--alpha", "0.5"], "--alpha must be in (0, 0.5)"),
    (["--beta", "0"], "--beta must be in (0, 0.5)"),
    (["--elo1", "nan"], "--elo1 must be a finite number"),
    (["--max-games", "1"], "--max-games must be >= 2"),
    (["--workers", "0"], "--workers must be >= 1"),
    (["--seed", "-1"], "--seed must be >= 0"),
    (["--b", "nope"], "unknown policy 'nope'"),
    (["--b", "ismcts:0"], "ismcts:0"),
])
def test_sprt_user_errors_are_one_line(flags, needle, capsys, no_games):
    argv = ["sprt", *TOY, "--a", "random", "--b", "random", *flags]
    assert main(argv) == 2
    assert needle in _one_error_line(capsys, "sprt")


def test_an_argparse_error_is_one_line_too(capsys):
    for argv, command, needle in (
            (["tournament", "--game", "garda3", "--deals", "many"], "tournament",
             "argument --deals: invalid int value: 'many'"),
            (["sprt", *TOY, "--a", "random", "--b", "random", "--alpha", "x"], "sprt",
             "argument --alpha: invalid float value: 'x'")):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        err = _one_error_line(capsys, command)
        assert needle in err and "--help" in err


@pytest.mark.parametrize("flags, needle", [
    (["--deals", "2", "--games", "4"], "give --deals or --games, not both"),
    (["--workers", "0"], "--workers must be >= 1"),
    (["--bootstrap", "0"], "--bootstrap must be >= 1"),
    (["--png", "/no/such/folder/t.png"], "--png '/no/such/folder/t.png': the folder"),
    (["--gauntlet", "nope"], "unknown policy 'nope'"),
])
def test_tournament_user_errors_are_one_line(flags, needle, capsys, no_games):
    argv = ["tournament", *TOY, "--policies", "random,toy_game:PerfectBot", *flags]
    assert main(argv) == 2
    assert needle in _one_error_line(capsys, "tournament")


@pytest.mark.parametrize("command", ["tournament", "sprt", "evaluate", "games"])
def test_every_evaluation_help_has_an_example(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "xample" in out
    if command != "games":
        assert "(default: " in out and "policy specs:" in out
