"""Bad input met at every entry point (issue 21): one named error before any work starts, never a
raw traceback. A config field named ``name`` (it collided with ``make_game``'s own parameter)."""

from __future__ import annotations

import json

import gymnasium
import pytest

import card_envs.wrappers  # noqa: F401 - registers the Gymnasium ids
from card_envs.cli import main as cli_main
from card_envs.core.errors import ConfigError, RecordError
from card_envs.core.records import GameRecord, replay
from card_envs.core.registry import make_game

#: the one line every entry point gives for {"name": "x"} (Garda3Config has no field 'name')
UNKNOWN_NAME = "unknown config field(s) ['name'] for Garda3Config"


def test_make_game_takes_a_config_field_called_name():
    with pytest.raises(ConfigError, match=UNKNOWN_NAME.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        make_game("garda3", name="x")
    with pytest.raises(ConfigError, match="unknown game 'x'"):
        make_game("x")
    assert make_game("garda3", variant="royale").config.variant == "royale"


def test_gymnasium_make_with_a_config_field_called_name():
    with pytest.raises(ConfigError) as err:
        gymnasium.make("card_envs/Garda3-v0", name="x")
    assert UNKNOWN_NAME in str(err.value)


def _one_error_line(capsys, command: str) -> str:
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "Traceback" not in err and "\n" not in err, err
    assert err.startswith(f"{command}: error: "), err
    return err


NAME = json.dumps({"name": "x"})


@pytest.mark.parametrize("argv", [
    ["evaluate", "--game", "garda3", "--game-config", NAME, "--a", "random", "--b", "random",
     "--games", "2"],
    ["tournament", "--game", "garda3", "--game-config", NAME, "--policies", "random,heuristic",
     "--deals", "1"],
    ["sprt", "--game", "garda3", "--game-config", NAME, "--a", "random", "--b", "random"],
    ["play", "garda3", "--game-config", NAME, "--seed", "1"],
    ["balance", "rust_brawl", "--game-config", NAME, "--games", "2", "--no-progress"],
])
def test_cli_commands_with_a_config_field_called_name(argv, capsys, tmp_path, monkeypatch):
    if argv[0] == "balance":  # its flags are parsed by tyro (the train extra)
        pytest.importorskip("tyro")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", lambda *_: "q")
    assert cli_main(argv) == 2
    err = _one_error_line(capsys, f"card-envs {argv[0]}")
    game = "RustBrawlConfig" if argv[1] == "rust_brawl" else "Garda3Config"
    assert f"unknown config field(s) ['name'] for {game}" in err
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing saved


def test_cli_replay_of_a_record_with_a_config_field_called_name(capsys, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": "garda3", "version": 1, "config": {"name": "x"},
                                "seed": 7, "actions": [], "outcome": None, "format": 1}))
    assert cli_main(["replay", str(path), "--to-end"]) == 2
    err = _one_error_line(capsys, "card-envs replay")
    assert f"{path}: cannot build game 'garda3' with config {{'name': 'x'}}: {UNKNOWN_NAME}" in err
    with pytest.raises(RecordError, match="cannot build game"):
        replay(GameRecord.load(path))


def test_training_with_a_config_field_called_name(capsys, tmp_path):
    pytest.importorskip("sb3_contrib")
    from card_envs.training.ppo import main

    run = tmp_path / "run"
    assert main(["--game-config", NAME, "--total-timesteps", "64", "--run-dir", str(run),
                 "--no-progress"], prog="training/ppo.py") == 2
    err = _one_error_line(capsys, "training/ppo.py")
    assert UNKNOWN_NAME in err
    assert not run.exists()
