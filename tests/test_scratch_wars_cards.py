"""Scratch Wars' card data (``card_envs/scratch_wars/cards.py``): the shipped catalogue follows the
design (SW-1.3, SW-1.4), a user's catalogue folder is read, and a malformed one is refused with a
``CardDataError`` naming the file, the entry and the field (SW-1.2: a wheel has 9 segments)."""

from __future__ import annotations

import pytest

from card_envs.core.errors import CardDataError
from card_envs.scratch_wars import make_game
from card_envs.scratch_wars.cards import load_catalogue


def test_sw_1_3_shipped_catalogue_follows_the_design():
    cat = load_catalogue()
    designed_w = [w for w in cat.weapons.values() if w.origin == "designed"]
    designed_h = [h for h in cat.heroes.values() if h.origin == "designed"]
    assert len(designed_w) >= 30 and len(designed_h) >= 12
    segs = [s for w in designed_w for s in w.segments]
    green = sum(s.colour == "green" for s in segs) / len(segs)
    red = sum(s.colour == "red" for s in segs) / len(segs)
    assert 0.38 <= green <= 0.52 and 0.08 <= red <= 0.2
    costs = [w.cost for w in designed_w]
    assert all(costs.count(c) == 10 for c in (1, 2, 3))
    assert all(18 <= h.hp <= 25 for h in designed_h)
    # SW-1.4 published entries
    lb, dw = cat.weapons["Longbow"], cat.weapons["Diamond Wand"]
    assert (lb.origin, lb.cost, lb.durability, dw.cost, dw.durability) == ("published", 1, 3, 2, 5)
    assert [(s.effect, s.value, s.colour[0]) for s in dw.segments][3] == ("weapon_attack", 5, "r")
    assert lb.segments[2].durability == 1
    ph = cat.heroes["Published Hero"]
    assert (ph.hp, [t.energy for t in ph.times()]) == (24, [3, 4, 3, 2])
    assert sorted(ph.trained) == ["axe", "sword", "wand"]


WEAPON_OK = """
[[weapon]]
name = "Stick"
origin = "designed"
type = "sword"
cost = 1
durability = 2
segments = [ {effect = "energy", value = 1, colour = "green"} {more} ]
"""


HERO_OK = """
[[hero]]
name = "Bob"
origin = "designed"
hp = {hp}
trained = ["sword"]
morning = {{ energy = 2 }}
noon = {{ energy = 2 }}
evening = {{ energy = 2 }}
night = {{ energy = 2 }}
"""


def _write(tmp_path, hp=20, weapon=None):
    segs = ", {effect = \"hero_attack\", value = 2, colour = \"orange\"}" * 8
    (tmp_path / "weapons.toml").write_text(weapon or WEAPON_OK.replace("{more}", segs))
    (tmp_path / "heroes.toml").write_text(HERO_OK.format(hp=hp))


def test_custom_catalogue_dir_loads(tmp_path):
    _write(tmp_path)
    game = make_game(level=3, catalogue_dir=str(tmp_path))
    s = game.new_state(1)
    assert s.heroes == ["Bob", "Bob"] and s.weapon_names[0] == ["Stick"]


def test_malformed_catalogue_missing_field_names_file_entry_field(tmp_path):
    segs = ", {effect = \"hero_attack\", value = 2, colour = \"orange\"}" * 8
    _write(tmp_path, weapon=WEAPON_OK.replace("{more}", segs).replace("cost = 1\n", ""))
    with pytest.raises(CardDataError) as e:
        load_catalogue(tmp_path)
    msg = str(e.value)
    assert "weapons.toml" in msg and "'Stick'" in msg and "'cost'" in msg


def test_malformed_catalogue_out_of_range_names_file_entry_field(tmp_path):
    _write(tmp_path, hp=99)
    with pytest.raises(CardDataError) as e:
        load_catalogue(tmp_path)
    msg = str(e.value)
    assert "heroes.toml" in msg and "'Bob'" in msg and "'hp'" in msg and "99" in msg


@pytest.mark.parametrize("kind", ["hero", "weapon"])
def test_a_duplicate_name_names_its_file_and_entry(tmp_path, kind):
    # copies of the shipped files with entry 2 renamed to entry 0's name
    import re
    import shutil

    from card_envs.scratch_wars.cards import DATA_DIR

    for name in ("heroes.toml", "weapons.toml"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    path = tmp_path / ("heroes.toml" if kind == "hero" else "weapons.toml")
    text = path.read_text(encoding="utf-8")
    names = re.findall(r'^name = "([^"]*)"$', text, re.M)
    path.write_text(text.replace(f'name = "{names[2]}"', f'name = "{names[0]}"', 1),
                    encoding="utf-8")
    for load in (lambda: load_catalogue(tmp_path),
                 lambda: make_game(catalogue_dir=str(tmp_path))):
        with pytest.raises(CardDataError) as info:
            load()
        assert str(info.value) == (f"{path}: [[{kind}]] entry 2 ({names[0]!r}): field 'name': "
                                   f"duplicate name {names[0]!r} (also entry 0, {names[0]!r})")


def test_wheel_with_8_segments_is_rejected(tmp_path):
    segs = ", {effect = \"hero_attack\", value = 2, colour = \"orange\"}" * 7
    _write(tmp_path, weapon=WEAPON_OK.replace("{more}", segs))
    with pytest.raises(CardDataError, match="segments"):
        load_catalogue(tmp_path)
