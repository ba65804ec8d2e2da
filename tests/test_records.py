"""Game-record files: every malformed file is one RecordError naming the file and the problem.

The records here are of the toy game (:mod:`card_envs.testing.toy_game`, registered for the test):
Toy Nim, 2 seats, a pile of 5; action ``k-1`` takes ``k`` cards, whoever takes the last card wins
(+1, the other seat -1). ``[2, 1]``: seat 0 takes 3 (2 left), seat 1 takes 2 and wins -> outcome
``[-1.0, 1.0]``.
"""

from __future__ import annotations

import json

import pytest

from card_envs.core import registry
from card_envs.core.errors import RecordError
from card_envs.core.records import RECORD_FORMAT, GameRecord, record_of, replay

GOOD = {"game": "toy_nim", "version": 0,
        "config": {"num_players": 2, "pile": 5, "max_rounds": 100, "hidden_bonus": False},
        "seed": 7, "actions": [2, 1], "outcome": [-1.0, 1.0], "format": RECORD_FORMAT}


@pytest.fixture(autouse=True)
def _toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy_nim", "card_envs.testing.toy_game:make_game")


def _write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _load_error(path) -> str:
    with pytest.raises(RecordError) as info:
        GameRecord.load(path)
    assert str(path) in str(info.value)
    return str(info.value)


def _replay_error(path) -> str:
    record = GameRecord.load(path)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(path) in str(info.value)
    return str(info.value)


def test_a_good_record_round_trips_and_replays(tmp_path):
    path = _write(tmp_path, GOOD)
    record = GameRecord.load(path)
    assert record.model_dump() == GOOD and record.source == str(path)
    game, state = replay(record)
    assert game.is_terminal(state) and game.returns(state) == [-1.0, 1.0]
    # record_of of the same play gives the same record, which saves and loads back equal
    again = record_of(game, 7, [2, 1], state)
    assert again.model_dump() == GOOD
    again.save(tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text()) == GOOD


def test_missing_file(tmp_path):
    assert "not found" in _load_error(tmp_path / "nope.json")


def test_a_directory(tmp_path):
    (tmp_path / "adir.json").mkdir()
    assert "directory" in _load_error(tmp_path / "adir.json")


def test_truncated_json(tmp_path):
    text = json.dumps(GOOD)
    assert "not valid JSON" in _load_error(_write(tmp_path, text[: len(text) // 2]))


def test_not_utf8(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert "UTF-8" in _load_error(path)


def test_deeply_nested_json(tmp_path):
    assert "nested too deeply" in _load_error(_write(tmp_path, "[" * 100_000 + "]" * 100_000))


@pytest.mark.parametrize("data, needle", [([GOOD], "found list"), ("3", "found int"),
                                          ("null", "found NoneType")])
def test_not_a_json_object(tmp_path, data, needle):
    text = data if isinstance(data, str) else json.dumps(data)
    assert needle in _load_error(_write(tmp_path, text))


@pytest.mark.parametrize("fmt", [99, 0, "1", True, None])
def test_unknown_format(tmp_path, fmt):
    msg = _load_error(_write(tmp_path, {**GOOD, "format": fmt}))
    assert f"unknown record format {fmt!r}" in msg and "reads format 1" in msg


def test_unknown_field(tmp_path):
    assert "unknown field(s) ['winner']" in _load_error(_write(tmp_path, {**GOOD, "winner": 1}))


@pytest.mark.parametrize("field", ["game", "version", "config", "seed", "actions", "outcome",
                                   "format"])
def test_missing_field(tmp_path, field):
    data = {k: v for k, v in GOOD.items() if k != field}
    assert f"missing field(s) ['{field}']" in _load_error(_write(tmp_path, data))


@pytest.mark.parametrize("field, value, needle", [
    ("actions", [2, True], "field actions[1] = True: Input should be a valid integer"),
    ("actions", [2, 1.0], "field actions[1] = 1.0: Input should be a valid integer"),
    ("actions", [2, "1"], "field actions[1] = '1': Input should be a valid integer"),
    ("actions", [-1], "field actions[0] = -1: Input should be greater than or equal to 0"),
    ("actions", 21, "field actions = 21: Input should be a valid list"),
    ("seed", "7", "field seed = '7': Input should be a valid integer"),
    ("seed", 7.5, "field seed = 7.5"),
    ("seed", False, "field seed = False"),
    ("seed", -1, "field seed = -1: not a game seed (an int in 0..2**64-1)"),
    ("seed", 2**64, "field seed = 18446744073709551616: not a game seed (an int in 0..2**64-1)"),
    ("version", True, "field version = True"),
    ("game", 3, "field game = 3: Input should be a valid string"),
    ("config", [["pile", 5]], "field config = [['pile', 5]]: Input should be a valid dictionary"),
    ("config", "pile=5", "field config = 'pile=5'"),
    ("outcome", ["-1", "1"], "field outcome[0] = '-1': Input should be a valid number"),
    ("outcome", [True, False], "field outcome[0] = True"),
    ("outcome", 1.0, "field outcome = 1.0"),
])
def test_wrong_typed_field(tmp_path, field, value, needle):
    assert needle in _load_error(_write(tmp_path, {**GOOD, field: value}))


def test_nan_outcome_is_refused(tmp_path):
    # Python's json reads NaN; a record's outcome must be finite numbers
    text = json.dumps(GOOD).replace("[-1.0, 1.0]", "[NaN, 1.0]")
    assert "field outcome[0] = nan" in _load_error(_write(tmp_path, text))


def test_another_game_version(tmp_path):
    msg = _replay_error(_write(tmp_path, {**GOOD, "version": 3}))
    assert "record is for toy_nim v3, installed is v0" in msg


def test_outcome_of_the_wrong_length(tmp_path):
    msg = _replay_error(_write(tmp_path, {**GOOD, "outcome": [-1.0, 1.0, 0.0]}))
    assert "outcome has 3 entries [-1.0, 1.0, 0.0], the game has 2 seats" in msg


def test_outcome_that_differs(tmp_path):
    msg = _replay_error(_write(tmp_path, {**GOOD, "outcome": [1.0, -1.0]}))
    assert "replay outcome [-1.0, 1.0] differs from recorded [1.0, -1.0]" in msg


def test_outcome_of_an_unfinished_replay(tmp_path):
    # [2] takes 3 of 5: the game goes on, so no outcome can match
    msg = _replay_error(_write(tmp_path, {**GOOD, "actions": [2]}))
    assert "unfinished" in msg and "differs" in msg


def test_illegal_action(tmp_path):
    # after take 3 (2 left) taking 3 (action 2) is illegal
    msg = _replay_error(_write(tmp_path, {**GOOD, "actions": [2, 2]}))
    assert "actions[1] = 2" in msg and "not legal" in msg


def test_unknown_game(tmp_path):
    msg = _replay_error(_write(tmp_path, {**GOOD, "game": "chess"}))
    assert "'chess'" in msg and "unknown game" in msg


def test_bad_config_of_a_real_game(tmp_path):
    data = {"game": "garda3", "version": 0, "config": {"variant": "bogus"}, "seed": 1,
            "actions": [], "outcome": None, "format": RECORD_FORMAT}
    msg = _replay_error(_write(tmp_path, data))
    assert "bogus" in msg


def test_in_memory_record_errors_name_the_record():
    record = GameRecord.model_validate({**GOOD, "outcome": [1.0, -1.0]})
    with pytest.raises(RecordError, match="record of toy_nim v0 seed 7: replay outcome"):
        replay(record)


def test_a_record_parsed_from_text_is_named_by_its_game_and_seed():
    record = GameRecord.from_json(json.dumps({**GOOD, "version": 2}))
    with pytest.raises(RecordError, match=r"^record of toy_nim v2 seed 7: record is for toy_nim"):
        replay(record)
    with pytest.raises(RecordError, match=r"^game record: unknown field\(s\) \['x'\]"):
        GameRecord.from_json(json.dumps({**GOOD, "x": 1}))


@pytest.mark.parametrize("field", ["seed", "version", "actions"])
def test_an_integer_of_5000_digits(tmp_path, field):
    # valid JSON, but Python refuses to convert more than 4300 digits: one RecordError
    text = json.dumps({**GOOD, field: "@"}).replace('"@"', "1" * 5000 if field != "actions"
                                                    else "[" + "1" * 5000 + "]")
    msg = _load_error(_write(tmp_path, text))
    assert msg.startswith(f"{tmp_path / 'game.json'}: not a game record: an integer with too "
                          "many digits (Exceeds the limit (4300 digits) for integer string "
                          "conversion")
    with pytest.raises(RecordError, match="^game record: not a game record: an integer"):
        GameRecord.from_json(text)


def test_the_largest_game_seed_is_a_seed(tmp_path):
    record = GameRecord.load(_write(tmp_path, {**GOOD, "seed": 2**64 - 1}))
    game, state = replay(record)  # Toy Nim deals no cards: the same moves win
    assert game.returns(state) == [-1.0, 1.0]
