"""The ``card-envs`` command (in-process; the training path is covered by the smoke test)."""

from __future__ import annotations

import json

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
