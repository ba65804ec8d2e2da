"""Dirt and Glory's card data (``card_envs/dirt_and_glory/cards.py``): the designed content
follows DG-1.4, a content file replaces it, and a malformed one is refused with a
``CardDataError`` naming the file, the entry and the field path."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from card_envs.core.errors import CardDataError, ConfigError
from card_envs.dirt_and_glory.cards import DEFAULT_CONTENT, load_content
from dirt_and_glory_helpers import game


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "content.toml"
    p.write_text(text)
    return str(p)


def _designed_text() -> str:
    return DEFAULT_CONTENT.read_text()


def test_malformed_content_files_name_file_entry_and_field(tmp_path):
    text = _designed_text()
    bad_value = text.replace('values = [5]\nability = "none"', 'values = [7]\nability = "none"', 1)
    path = _write(tmp_path, bad_value)
    with pytest.raises(CardDataError, match=r"content\.toml.*\[\[unit\]\] entry 4 \('Juggernaut'\).*'values\.0'"):
        game(content=path)
    bad_ability = text.replace('ability = "fuel"', 'ability = "teleport"', 1)
    with pytest.raises(CardDataError, match=r"\('Tanker'\).*'ability'"):
        load_content(_write(tmp_path, bad_ability))
    missing = text.replace("target = 15\n", "", 1)
    with pytest.raises(CardDataError, match=r"\[\[territory\]\] entry 3 \('Bone Canyon'\).*'target'"):
        load_content(_write(tmp_path, missing))
    extra = text.replace('name = "Tow Truck"', 'name = "Tow Truck"\ncolour = "red"', 1)
    with pytest.raises(CardDataError, match=r"\('Tow Truck'\).*'colour'"):
        load_content(_write(tmp_path, extra))
    dup = text.replace('id = "u2"', 'id = "u1"', 1)
    with pytest.raises(CardDataError, match=r"entry 1 \('Scrap Buggy'\).*duplicate id 'u1'"):
        load_content(_write(tmp_path, dup))
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_content(_write(tmp_path, text + "\n[[unit]\n"))
    with pytest.raises(CardDataError, match="not found"):
        load_content(str(tmp_path / "nope.toml"))
    few = text.split("[[territory]]")
    path = _write(tmp_path, "[[territory]]".join(few[:3]))
    with pytest.raises(ConfigError) as info:  # the config asks more rounds than it has
        game(content=path)
    assert str(info.value) == (f"config field 'num_rounds': 6 rounds need 6 territories, the "
                               f"content {path} has 2 ([[territory]] entries); use num_rounds "
                               "<= 2 or content with more territories")


def test_designed_content_matches_dg_1_4():
    """DG-1.4: starting 1,1,2,2,3,3,4 without abilities; 45 unit cards, values 1–5, about a
    quarter two-valued, about a third with an ability; 9 territories 12–21, a higher target pays
    more, 3rd place beats the 2-fuel consolation (worth 1 point); all marked designed."""
    c = load_content(None)
    start = sorted(v for e in c.starting for v in e.values * e.count)
    assert start == [1, 1, 2, 2, 3, 3, 4] and all(e.ability == "none" for e in c.starting)
    assert c.deck_size == 45
    two = sum(e.count for e in c.units if len(e.values) == 2)
    ab = sum(e.count for e in c.units if e.ability != "none")
    assert 9 <= two <= 14 and 13 <= ab <= 17
    assert {a for e in c.units for a in [e.ability]} == {"none", "fuel", "scout", "zero_next", "stash"}
    ts = sorted(c.territories, key=lambda t: t.target)
    assert len(ts) == 9 and ts[0].target == 12 and ts[-1].target == 21
    assert all(a.points[0] <= b.points[0] for a, b in zip(ts, ts[1:]))
    assert all(t.points[2] + t.fuel[2] / 2 > 1 for t in ts)
    assert all(e.origin == "designed" for e in (*c.starting, *c.units, *c.territories))


def test_printed_content_replaces_the_designed_cards(tmp_path):
    """DG-1.4: a content file (e.g. the printed cards) replaces the designed one."""
    text = _designed_text().replace('origin = "designed"', 'origin = "printed"')
    text = text.replace("target = 21", "target = 20")
    g = game(num_players=2, content=_write(tmp_path, text))
    assert max(g.terr_target) == 20
    s = g.new_state(0)
    g.random_playout(s, random.Random(0))
    assert g.is_terminal(s)


def test_edited_content_file_is_read_again(tmp_path):
    path = _write(tmp_path, _designed_text())
    assert max(game(content=path).terr_target) == 21
    _write(tmp_path, _designed_text().replace("target = 21", "target = 9"))
    assert max(game(content=path).terr_target) == 19
