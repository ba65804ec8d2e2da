"""Leduc Hold'em card data (LH-1.1): the three ranks of ``data/cards.toml``, validated; the six
card ids and their names."""

from __future__ import annotations

import pytest

from card_envs.core.errors import CardDataError
from card_envs.leduc_holdem.cards import DATA_DIR, RANKS, card_name, load_ranks
from card_envs.leduc_holdem.constants import NUM_CARDS, rank_of


def test_the_shipped_ranks_are_jack_queen_king():
    ranks = load_ranks()
    assert [(r.id, r.name, r.short) for r in ranks] == [
        ("jack", "Jack", "J"), ("queen", "Queen", "Q"), ("king", "King", "K")]
    assert tuple(r.id for r in ranks) == RANKS
    # LH-1.1: six cards, OpenSpiel's ids: rank c // 2, suit c % 2
    assert [card_name(c, ranks) for c in range(NUM_CARDS)] == ["Js", "Jh", "Qs", "Qh", "Ks", "Kh"]
    assert [rank_of(c) for c in range(NUM_CARDS)] == [0, 0, 1, 1, 2, 2]
    assert (DATA_DIR / "rules_brief.md").read_text().startswith("Leduc Hold'em (2 players)")


@pytest.mark.parametrize("text, pattern", [
    ('[[rank]]\nid = "jack"\nname = "Jack"\nshort = "J"\n', "expected 3|3 entries|count"),
    ('[[rank]]\nid = "jack"\nname = "Jack"\nshort = "J"\ncolour = "red"\n' * 3, "colour"),
    ("".join(f'[[rank]]\nid = "{r}"\nname = "{r}"\nshort = "{r[0].upper()}"\n'
             for r in ("queen", "jack", "king")), r"ids are \['queen', 'jack', 'king'\]"),
    ("".join(f'[[rank]]\nid = "{r}"\nname = "{r}"\nshort = "X"\n'
             for r in ("jack", "queen", "king")), "short"),
])
def test_a_malformed_card_file_names_the_file_and_the_field(tmp_path, text, pattern):
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(CardDataError, match=pattern) as err:
        load_ranks(path)
    assert str(path) in str(err.value)
