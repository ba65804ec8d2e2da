"""Card-data files that cannot be card data: each is one CardDataError naming the file.

Every case goes through :func:`card_envs.core.cards.read_toml` and through a real game's loader:
Garda3 ``fighter_set=<file>``, Scratch Wars ``catalogue_dir=<folder>`` (its ``heroes.toml``) and
Dirt and Glory ``content=<file>``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from card_envs.core.cards import MAX_CARD_DATA_BYTES, read_toml
from card_envs.core.errors import CardDataError
from card_envs.core.registry import make_game

ROOT = Path(__file__).resolve().parents[1] / "card_envs"


def _garda3(tmp_path, write):
    path = tmp_path / "fighters.toml"
    write(path)
    return path, lambda: make_game("garda3", fighter_set=str(path))


def _scratch_wars(tmp_path, write):
    folder = tmp_path / "catalogue"
    folder.mkdir()
    shutil.copy(ROOT / "scratch_wars" / "data" / "weapons.toml", folder / "weapons.toml")
    path = folder / "heroes.toml"
    write(path)
    return path, lambda: make_game("scratch_wars", catalogue_dir=str(folder))


def _dirt_and_glory(tmp_path, write):
    path = tmp_path / "content.toml"
    write(path)
    return path, lambda: make_game("dirt_and_glory", content=str(path))


def _read_toml(tmp_path, write):
    path = tmp_path / "data.toml"
    write(path)
    return path, lambda: read_toml(path)


LOADERS = {"read_toml": _read_toml, "garda3": _garda3, "scratch_wars": _scratch_wars,
           "dirt_and_glory": _dirt_and_glory}


def _nothing(path: Path) -> None:
    pass


def _directory(path: Path) -> None:
    path.mkdir()


def _binary(path: Path) -> None:
    # a PNG header: 0x89 is not a UTF-8 start byte
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def _latin1(path: Path) -> None:
    # Czech text saved as Latin-2 instead of UTF-8: 0xf8 is not valid UTF-8
    path.write_bytes('set_name = "Výchozí"\n'.encode("utf-8") + b'name = "Ryt\xed\xf8"\n')


def _deep(path: Path) -> None:
    # valid TOML syntax, but 100 000 nested arrays: the parser's recursion gives up
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")


def _deep_tables(path: Path) -> None:
    path.write_text("a = " + "{ b = " * 100_000 + "1" + " }" * 100_000 + "\n", encoding="utf-8")


def _huge(path: Path) -> None:
    # valid TOML (comment lines) one byte over the limit
    line = b"# " + b"x" * 1021 + b"\n"  # 1 KiB a line
    n = MAX_CARD_DATA_BYTES // len(line)
    path.write_bytes(line * n + b"#" * (MAX_CARD_DATA_BYTES - n * len(line) + 1))


def _long_int(path: Path) -> None:
    # valid TOML, but a decimal integer of 5000 digits: Python refuses to convert it (4300)
    path.write_text("hp = " + "1" * 5000 + "\n", encoding="utf-8")


CASES = {
    "missing": (_nothing, "card-data file not found"),
    "directory": (_directory, "directory"),
    "binary": (_binary, "not UTF-8 text (byte 0: b'\\x89')"),
    "latin2": (_latin1, "not UTF-8 text"),
    "deeply nested arrays": (_deep, "nested too deeply"),
    "deeply nested tables": (_deep_tables, "nested too deeply"),
    "too large": (_huge, f"larger than {MAX_CARD_DATA_BYTES} bytes"),
    "integer of 5000 digits": (_long_int, "an integer with too many digits (Exceeds the limit "
                                          "(4300 digits) for integer string conversion"),
}


def test_the_size_limit_is_4_mib():
    assert MAX_CARD_DATA_BYTES == 4 * 1024 * 1024


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("loader", list(LOADERS))
def test_unreadable_card_data_names_the_file(tmp_path, loader, case):
    write, needle = CASES[case]
    path, load = LOADERS[loader](tmp_path, write)
    with pytest.raises(CardDataError) as info:
        load()
    msg = str(info.value)
    assert str(path) in msg
    if not (loader == "garda3" and case == "directory"):
        assert needle in msg
    else:  # Garda3 checks a directory itself (a set name, a file or a folder)
        assert "is a directory, not a .toml file" in msg


def test_a_file_at_the_limit_is_read(tmp_path):
    path = tmp_path / "big.toml"
    body = b"n = 1\n"
    path.write_bytes(body + b"#" * (MAX_CARD_DATA_BYTES - len(body)))
    assert read_toml(path) == {"n": 1}


def test_nesting_the_parser_can_read_still_gets_a_named_field_error(tmp_path):
    # 400 nested arrays parse; the field error names the file, the entry, the field, and shows a
    # shortened value (G-1.1: hp is an int in 3..7)
    text = (ROOT / "garda3" / "data" / "default.toml").read_text(encoding="utf-8")
    path = tmp_path / "deep_hp.toml"
    path.write_text(text.replace("hp = 7", "hp = " + "[" * 400 + "]" * 400, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        make_game("garda3", fighter_set=str(path))
    msg = str(info.value)
    assert (f"{path}: [[fighter]] entry 2 ('Obr'): field 'hp': Input should be a valid "
            "integer") in msg
    assert len(msg) < 400 and msg.endswith("(got [[[[...]]]])")  # the nesting, cut short


def test_field_errors_stay_precise(tmp_path):
    # G-1.1: hp is 3..7; the shipped "Obr" (entry 2) has hp 7
    text = (ROOT / "garda3" / "data" / "default.toml").read_text(encoding="utf-8")
    path = tmp_path / "hp9.toml"
    path.write_text(text.replace("hp = 7", "hp = 9", 1), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        make_game("garda3", fighter_set=str(path))
    assert str(info.value) == (f"{path}: [[fighter]] entry 2 ('Obr'): field 'hp': Input should "
                               "be less than or equal to 7 (got 9)")


@pytest.mark.parametrize("game, file, old, field", [
    ("garda3", "garda3/data/default.toml", "hp = 7", "[[fighter]] entry 2 ('Obr'): field 'hp'"),
    ("scratch_wars", "scratch_wars/data/heroes.toml", "hp = 24",
     "[[hero]] entry 0 ('Published Hero'): field 'hp'"),
    ("dirt_and_glory", "dirt_and_glory/data/designed.toml", "target = 12",
     "[[territory]] entry 0 ('Rust Flats'): field 'target'"),
])
@pytest.mark.parametrize("digits", ["0x" + "f" * 5000, "0o" + "7" * 5000, "1" * 5000],
                         ids=["hex", "octal", "decimal"])
def test_an_integer_too_long_to_print_names_the_file(tmp_path, game, file, old, field, digits):
    # TOML's hex/octal integers parse at any length (only decimal conversion is limited), but
    # cannot be printed in the field error: it names the file, the entry and the field anyway;
    # a 5000-digit decimal fails in the parser, naming the file
    text = (ROOT / file).read_text(encoding="utf-8")
    assert old in text
    name = Path(file).name
    if game == "scratch_wars":
        folder = tmp_path / "catalogue"
        folder.mkdir()
        shutil.copy(ROOT / "scratch_wars" / "data" / "weapons.toml", folder / "weapons.toml")
        path = folder / name
        load = lambda: make_game("scratch_wars", catalogue_dir=str(folder))  # noqa: E731
    else:
        path = tmp_path / name
        key = "fighter_set" if game == "garda3" else "content"
        load = lambda: make_game(game, **{key: str(path)})  # noqa: E731
    path.write_text(text.replace(old, old.split(" = ")[0] + " = " + digits, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load()
    msg = str(info.value)
    if digits.isdigit():
        assert msg.startswith(f"{path}: not valid card data: an integer with too many digits")
    else:
        bits = 4 * 5000 if digits.startswith("0x") else 3 * 5000
        assert msg.startswith(f"{path}: {field}: Input should be less than or equal to ")
        assert msg.endswith(f"(got <int of {bits} bits, too long to print>)")


def test_an_entry_name_too_long_to_print(tmp_path):
    text = (ROOT / "garda3" / "data" / "default.toml").read_text(encoding="utf-8")
    path = tmp_path / "named.toml"
    path.write_text(text.replace('name = "Obr"', "name = 0x" + "f" * 5000, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        make_game("garda3", fighter_set=str(path))
    assert str(info.value).startswith(
        f"{path}: [[fighter]] entry 2 (<int of 20000 bits, too long to print>): field 'name': "
        "Input should be a valid string")
