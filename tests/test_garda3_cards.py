"""Garda3's card data (``card_envs/garda3/cards.py``): a user's fighter set is read, and a
malformed one is refused with a ``CardDataError`` naming the file, the ``[[fighter]]`` entry and
the field (G-1.4: a set is 9 fighters, data a user may write, validated against G-1.1)."""

from __future__ import annotations

import pytest

from card_envs.core.errors import CardDataError
from card_envs.garda3.rules import make_game


def _set_file(tmp_path, body, n=9):
    entries = []
    for i in range(n):
        entries.append(f'[[fighter]]\nid = "f{i}"\nname = "F{i}"\nattack_bonus = 1\n'
                       f'defence_bonus = 1\nhp = 5\n')
    text = 'set_name = "T"\nset_id = "t"\n\n' + "\n".join(entries)
    text = body(text) if body else text
    p = tmp_path / "set.toml"
    p.write_text(text)
    return p


def test_fighter_set_out_of_range_value_names_file_entry_and_field(tmp_path):
    p = _set_file(tmp_path, lambda t: t.replace('name = "F4"\nattack_bonus = 1',
                                                'name = "F4"\nattack_bonus = 3'))
    with pytest.raises(CardDataError) as e:
        make_game(fighter_set=str(p))
    msg = str(e.value)
    assert str(p) in msg and "entry 4" in msg and "'F4'" in msg and "attack_bonus" in msg
    assert "3" in msg


def test_fighter_set_wrong_count_says_expected_and_actual(tmp_path):
    p = _set_file(tmp_path, None, n=8)
    with pytest.raises(CardDataError, match=r"expected 9 \[\[fighter\]\] entries, found 8") as e:
        make_game(fighter_set=str(p))
    assert str(p) in str(e.value)


def test_fighter_set_missing_field_names_it(tmp_path):
    p = _set_file(tmp_path, lambda t: t.replace('name = "F2"\nattack_bonus = 1\ndefence_bonus = 1\nhp = 5',
                                                'name = "F2"\nattack_bonus = 1\ndefence_bonus = 1'))
    with pytest.raises(CardDataError) as e:
        make_game(fighter_set=str(p))
    msg = str(e.value)
    assert str(p) in msg and "entry 2" in msg and "'hp'" in msg and "Field required" in msg


def test_fighter_set_unknown_field_and_bad_toml(tmp_path):
    p = _set_file(tmp_path, lambda t: t.replace('hp = 5', 'hp = 5\nspeed = 2', 1))
    with pytest.raises(CardDataError, match="entry 0.*speed"):
        make_game(fighter_set=str(p))
    p.write_text("set_name = [")
    with pytest.raises(CardDataError, match="not valid TOML"):
        make_game(fighter_set=str(p))
    with pytest.raises(CardDataError, match="nope"):
        make_game(fighter_set="nope")


def test_user_fighter_set_is_used(tmp_path):
    p = _set_file(tmp_path, None)
    g = make_game(fighter_set=str(p))
    assert g.stats[0] == [(1, 1, 5)] * 9


def test_fighter_set_numbers_written_as_text_or_float_are_refused(tmp_path):
    for bad in ('hp = "5"', "hp = 5.0"):
        p = _set_file(tmp_path, lambda t, bad=bad: t.replace("hp = 5", bad, 1))
        with pytest.raises(CardDataError, match="entry 0.*'hp'"):
            make_game(fighter_set=str(p))
