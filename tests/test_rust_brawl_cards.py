"""Rust Brawl card data and decks (card_envs/rust_brawl/cards.py): the shipped database holds every
listed name (RB-2.4) with the RB-2.3 errata traits and only RB-8 abilities; malformed card data
and illegal decks (RB-1.1, RB-1.2) fail naming the file, entry, field or card and rule; shipped
and random decks are legal; the generated card list is current; ``card-envs deck check``."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from card_envs.cli import main as cli_main
from card_envs.core.errors import CardDataError, ConfigError, LoadoutError
from card_envs.rust_brawl import cards as rbc
from card_envs.rust_brawl.cards import (
    Ability,
    Deck,
    DeckError,
    UnknownCardError,
    ability_text,
    card_text,
    deck_points,
    load_card_db,
    load_deck,
    random_deck,
    read_deck_file,
    render_docs,
    shipped_decks,
    strength_score,
    validate_deck,
)
from card_envs.rust_brawl.constants import ABILITY_KINDS, KINDS, SETS

REPO = Path(__file__).resolve().parents[1]

# The seed's four set lists, names exactly as printed (RB-2.4), in list order.
SET_LISTS = {
    "RUSTHAVEN 2026": [
        "Ospalý Vstupař", "Silniční Hlídka", "Ostnatý Listonoh", "Rudá Vlčice", "Vylepšený Hořák",
        "Kurwa Bober", "Kmenový Zdravotník", "Hobo Elisa", "Městský Strážník", "Divná Betty",
        "Odvážná Redaktorka", "Motorkářský Molotov", "Toulavý Iluzionista", "Sladká Zmia",
        "Sečtělá Knihovnice", "Polní telefon", "Zmrzlinářské Auto", "Ori Zářná", "Zmutovaný šváb",
        "Paní Šrotmistrová", "Smrtící Jed", "Anwiel Von Mengele", "Předák Panda", "Ranař z Plácku",
        "Úlisný Prodavač", "Kelímek s Jednorožcem", "Neprůstřelná Vesta", "Pancéřový Kadilak",
        "Bakšiš Vejvar", "Koňská Hlava", "Poslední Polibek", "Odważny Huzar", "Divoká Hyena",
        "Dunajova Vysílačka", "Psychovo Spartak", "Ranní Smrádek z Námka", "V2A Banda",
        "Mrchožroutský amulet", "Vybitý Securitron", "Odvoz Tříděného Odpadu", "Vypimpený Samurai",
        "Papa Viper", "Kladivbuch Železná Trubka", "Pepova Berle", "Bojový Android", "Orgi Chaos",
        "Božský Alius", "Bleskový Šípomet", "Šrotmistrův Kadaver", "Podivný Časopis",
        "Hořící Gauč", "Buchťák Lung", "Vysutý Obyvák", "Kšeftař Vodouch", "Zádové Trysky",
        "NA - M4X", "T72 Edita"],
    "REDNECK 2025": [
        "Wenca McCoy", "Michael McCoy", "Kozobella Blackwood", "Peter McCoy", "Rudy McCoy",
        "Fifi Blackwood", "Nikita Blackwood", "Agnes Blackwood", "Denis McCoy",
        "Brambitch Blackwood", "Traktor pomsty", "Cirkulárkový kombajn", "Reverend GoodShine",
        "Kráva na kolečkách", "Pick-up", "Moonshine Cisterna", "Stará medvědí past",
        "Hořlavá flanelka", "Pytel kukuřičné mouky", "Sud posledního doušku"],
    "RUSTHAVEN 2025": [
        "Kovochroust", "Pouliční Stánkař", "Třaskavý Pirožky", "Peklo the Little Boss",
        "Šrotmistrův ČUKR", "Mamut Severu", "Bossovi Ranaři", "Zombie Kočka", "Juggernaut",
        "Executor", "Bláznivý Kejklíř", "Kazatel Nicoty", "Šrotmistrův Alchymista", "Strigoi",
        "Bílá Tygřice", "Buržoust Šroty", "Temný Stalker", "Růst hoven", "Propagandalf",
        "Mistr Střelby", "Osamělý Lovec", "Šéf Arény", "Potulný Padre", "Levá Ruka Šrotmistrova",
        "Bar Na Námku", "Nebuď Kokot!", "Nukebox", "Masivní letáková kampaň", "Chrám Apokalypsy",
        "Divnej Lopuch", "Prašivej Mrzák", "Úklidová Četa", "Komisař Ben", "Setník Trigatron",
        "Zapálený Odpadkáč", "Tank Hoummejd MK1", "Pouliční Smrádě", "Průzkumný Dron",
        "Workshopovka", "Mechanik Nicoty", "Krutokára", "Výbušný pager", "Toustové komando"],
    "RUSTHAVEN 2024": [
        "Důlní Hlídka", "Radioaktiní ponožky", "Důlní Předák", "Zmutovaná Seveřanka",
        "Igor Ničitel", "Důlní Ošetřovatel", "Důlní Dron", "Opilý Horník", "Vyhazovač",
        "Ochranka Trezoru", "Boss Gumídek", "Ocelová Vosa", "Krutý Šaman", "Pouštní Bugina",
        "Šéf Karavany", "Zbrojmistr", "Strážce Karavany", "Pirátská Motorka", "Zmutovaná Krysa",
        "Mechanický Kněz", "Šílený Horník", "Zmutovaný Důlní Krab", "Řezníkův Experiment",
        "Krtkův Rezatý Traktor", "Těžební Nálož", "Barový Povaleč", "Stráž Motorek",
        "Trouble Maker", "Pomocný Důlní Nakladač", "Nájezdnická Hlídka", "Šrotzilla",
        "Radioaktivní Chrlič", "Toxické Chapadlo", "Pepinova Silniční Mina", "Elitní Šroťák",
        "Mobilní Zbrojnice", "Monstrum Z Hlubin", "Vylepšená Mikrovlnka", "Obrněný Party Bus",
        "Šrotmistr Majlosh", "Obrněnec", "Bojový Medik Šroty", "Kuchař Šroty", "Elitní Sekerník",
        "Explosivní Ropucha", "Šrotmistrova Garda", "Shredder", "Zuřivá Vlčice", "Obživlý Totem",
        "Gumocajk", "Krutej Hanzi", "Nájemný Lovec", "Gladiátor", "Plenitel"],
}


@pytest.fixture(scope="module")
def db():
    return load_card_db()


# -- the shipped database (RB-2) ---------------------------------------------------------------
def test_every_listed_name_loads_with_its_set_and_number(db):
    assert len(db) == 174
    assert Counter(c.set for c in db.cards) == {"RUSTHAVEN 2026": 57, "REDNECK 2025": 20,
                                                "RUSTHAVEN 2025": 43, "RUSTHAVEN 2024": 54}
    for set_name, names in SET_LISTS.items():
        got = sorted((c for c in db.cards if c.set == set_name), key=lambda c: c.number)
        assert [(c.number, c.name) for c in got] == list(enumerate(names, 1)), set_name
    assert [c.index for c in db.cards] == list(range(174))
    assert all(c.origin == "designed" for c in db.cards)
    ids = [c.id for c in db.cards]
    assert len(set(ids)) == 174 and all(i.isascii() for i in ids)
    assert db.lookup("NA - M4X").id == "na_m4x" and db.lookup("Odważny Huzar").id == "odwazny_huzar"
    assert db.lookup("Nebuď Kokot!").id == "nebud_kokot"


def test_errata_traits_rb_2_3(db):
    assert set(db.lookup("Ocelová Vosa").traits) >= {"Mech", "Animal"}
    assert "Animal" in db.lookup("Zmutovaná Krysa").traits
    assert "Animal" in db.lookup("Zmutovaný Důlní Krab").traits
    assert "Mech" in db.lookup("Šrotzilla").traits
    assert "Animal" in db.lookup("Explosivní Ropucha").traits
    assert db.lookup("Ocelová Vosa").set == "RUSTHAVEN 2024" and db.lookup("Ocelová Vosa").number == 12


def test_multi_target_attackers_rb_2_4(db):
    for name in ("Monstrum Z Hlubin", "Motorkářský Molotov"):
        card = db.lookup(name)
        assert card.is_character and card.icon in ("melee", "ranged") and card.has("hit_all")


def test_every_ability_on_three_cards_and_every_kind_present(db):
    counts = Counter(a.kind for c in db.cards for a in c.abilities)
    assert set(counts) == set(ABILITY_KINDS)
    assert min(counts.values()) >= 3, counts
    assert {c.kind for c in db.cards} == set(KINDS)
    assert {c.icon for c in db.cards if c.is_character} == {"melee", "ranged", "heal"}
    assert {a.reward for c in db.cards for a in c.abilities if a.kind == "lottery"} == \
        {"draw", "damage"}


def test_named_personalities_are_unique(db):
    for name in ("Šrotmistr Majlosh", "Paní Šrotmistrová", "Komisař Ben", "Papa Viper",
                 "Boss Gumídek", "Monstrum Z Hlubin"):
        assert db.lookup(name).unique, name
    assert not db.lookup("Opilý Horník").unique


def test_strength_score_by_hand_and_points_follow_it(db):
    # Vyhazovač: melee 3/7, return strike: 3.5*3 + 7 + 21/4 - 15 + 1.2*21 = 32.95 -> 33 points
    assert strength_score(db.lookup("Vyhazovač")) == pytest.approx(32.95)
    assert db.lookup("Vyhazovač").points == 33
    # Šrotmistr Majlosh: ranged 4/8, +1 HLT to all, unique: 14 + 8 + 8 - 15 + 4.5 + 6 + 3 = 28.5
    # -> 28 (Python's round: halves to even)
    assert strength_score(db.lookup("Šrotmistr Majlosh")) == 28.5
    assert db.lookup("Šrotmistr Majlosh").points == 28
    # Pouštní Bugina: vehicle HLT 6, +1 DMG to melee characters: 2.5*6 - 4 + 3 = 14
    assert strength_score(db.lookup("Pouštní Bugina")) == 14
    # Těžební Nálož: explosive DMG 3: 10.5 -> 10; Polní telefon: support, draw 1: 1 + 1.5 = 2.5 -> 2
    assert strength_score(db.lookup("Těžební Nálož")) == 10.5
    assert strength_score(db.lookup("Polní telefon")) == 2.5
    # Neprůstřelná Vesta: equipment 0/2, -2 vs ranged: 4*2 + 2.5*2 = 13
    assert strength_score(db.lookup("Neprůstřelná Vesta")) == 13
    for c in db.cards:
        assert abs(c.points - max(1.0, strength_score(c))) <= rbc.POINTS_TOLERANCE, c.label


def test_card_helpers(db):
    majlosh = db.lookup("srotmistr_majlosh")
    assert majlosh is db.by_id("srotmistr_majlosh") and majlosh is db.lookup("Šrotmistr Majlosh")
    assert majlosh.ability("boost_hlt") == Ability("boost_hlt", 1)
    assert majlosh.ability("draw") is None and not majlosh.has("draw")
    assert db.lookup("šrotmistr majlosh") is majlosh  # case and accents ignored when unambiguous
    assert not db.lookup("Pouštní Bugina").is_character


def test_ability_and_card_texts(db):
    assert ability_text(Ability("boost_dmg", 1, icon="melee")) == \
        "+1 DMG to other friendly melee characters while this card is on the table"
    assert ability_text(Ability("reduce_vs", 2, against="ranged")) == \
        "takes 2 less damage from ranged attacks"
    assert ability_text(Ability("lottery", 1, reward="damage")) == \
        "on play: lottery; if you win, deal 1 DMG to every opposing table card"
    assert ability_text(Ability("draw", 2)) == "on play: draw 2 cards"
    assert card_text(db.lookup("Neprůstřelná Vesta")) == \
        "Assign to a character: +2 HLT; it gains: takes 2 less damage from ranged attacks."
    assert card_text(db.lookup("Těžební Nálož")) == \
        "On play: deals 3 DMG to every opposing table card."
    assert card_text(db.lookup("Monstrum Z Hlubin")) == \
        "Unique. Its attack hits every opposing character at full DMG."


def test_small_database_covers_every_kind_and_ability(db):
    """data/small.toml keeps the first design's values (frozen for the engine's scripted tests);
    its cards are cards of the full database (same id, name, set, number, kind, icon)."""
    small = load_card_db(rbc.SMALL_CARDS)
    assert 18 <= len(small) <= 24
    assert {c.kind for c in small.cards} == set(KINDS)
    assert {a.kind for c in small.cards for a in c.abilities} == set(ABILITY_KINDS)
    for c in small.cards:
        full = db.by_id(c.id)
        assert (c.name, c.set, c.number, c.kind, c.icon, c.traits) == \
            (full.name, full.set, full.number, full.kind, full.icon, full.traits)


# -- a user-supplied database ------------------------------------------------------------------
CARD = """[[card]]
id = "{id}"
name = "{name}"
set = "RUSTHAVEN 2024"
number = {number}
kind = "{kind}"
icon = "{icon}"
dmg = 3
hlt = {hlt}
points = 7
unique = false
traits = ["Human"]
abilities = [{abilities}]
origin = "printed"
"""


def _card(**kw):
    base = {"id": "brouk", "name": "Brouk", "number": 1, "kind": "character", "icon": "melee",
            "hlt": 5, "abilities": ""}
    base.update(kw)
    return CARD.format(**base)


def test_a_user_database_replaces_the_shipped_one(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(_card() + _card(id="vuz", name="Vůz", number=2, kind="vehicle", icon="wheel",
                                    hlt=9, abilities='{ kind = "reduce", amount = 2 }'))
    mine = load_card_db(path)
    assert len(mine) == 2 and mine.source == str(path)
    assert [c.id for c in mine.cards] == ["brouk", "vuz"]
    assert mine.lookup("Vůz").ability("reduce") == Ability("reduce", 2)
    assert mine.by_id("brouk").origin == "printed"
    with pytest.raises(UnknownCardError, match="Vyhazovač"):
        mine.lookup("Vyhazovač")
    deck = load_deck(["Brouk", "Brouk", "vuz"], mine)
    assert deck.cards == ("brouk", "brouk", "vuz") and deck_points(deck, mine) == 21
    path.write_text(_card())  # an edited file is read again
    assert len(load_card_db(path)) == 1


@pytest.mark.parametrize("text, words", [
    (_card(kind="monster"), ["entry 0 ('Brouk')", "'kind'", "monster"]),
    (_card(icon="wheel"), ["entry 0 ('Brouk')", "icon 'wheel' does not fit kind 'character'"]),
    (_card(hlt=0), ["entry 0 ('Brouk')", "hlt >= 1"]),
    (_card(kind="explosive", icon="flame"), ["an explosive has hlt = 0"]),
    (_card(abilities='{ kind = "fly" }'), ["'abilities.0'", "unknown ability kind 'fly'"]),
    (_card(abilities='{ kind = "boost_dmg" }'), ["'abilities.0'", "boost_dmg needs 'amount'"]),
    (_card(abilities='{ kind = "return_strike", amount = 2 }'),
     ["'abilities.0'", "return_strike takes no 'amount'"]),
    (_card(abilities='{ kind = "extra_dmg_vs", amount = 1, trait = "Elf" }'),
     ["trait 'Elf' is not one of"]),
    (_card(abilities='{ kind = "lottery", amount = 1, reward = "gold" }'), ["reward 'gold'"]),
    (_card(abilities='{ kind = "heal_all" }'), ["'heal_all' needs a heal character"]),
    (_card(kind="vehicle", icon="wheel", abilities='{ kind = "paralyse" }'),
     ["a vehicle cannot hold 'paralyse'"]),
    # RB-8: a kind repeats only with another filter or amount
    (_card(abilities='{ kind = "draw", amount = 1 }, { kind = "draw", amount = 1 }'),
     ["abilities[1]: the same 'draw' as abilities[0]", "RB-8"]),
    (_card(abilities='{ kind = "hit_all" }, { kind = "hit_all" }'),
     ["abilities[1]: the same 'hit_all' as abilities[0]"]),
    # RB-6.13: a removes-HLT amount is 1..99, named with the card and the field path
    (_card(abilities='{ kind = "removes_hlt", amount = 0 }'),
     ["entry 0 ('Brouk')", "'abilities.0.amount'", "greater than or equal to 1"]),
    (_card(abilities='{ kind = "removes_hlt", amount = 100 }'),
     ["entry 0 ('Brouk')", "'abilities.0.amount'", "less than or equal to 99"]),
    (_card(abilities='{ kind = "removes_hlt", amount = "2" }'),
     ["entry 0 ('Brouk')", "'abilities.0.amount'"]),
    (_card().replace('traits = ["Human"]', 'traits = ["Elf"]'), ["'traits'", "Elf"]),
    (_card().replace("points = 7", 'points = "7"'), ["'points'"]),
    (_card().replace('origin = "printed"', ""), ["'origin'", "Field required"]),
    (_card().replace('origin = "printed"', 'origin = "printed"\ncolour = "red"'), ["'colour'"]),
    (_card() + _card(name="Brouk 2"), ["entry 1 ('Brouk 2')", "duplicate id 'brouk'"]),
    (_card() + _card(id="brouk2"), ["entry 1 ('Brouk')", "duplicate name 'Brouk'"]),
    ("[[cards]]\n", ["unknown top-level key(s) ['cards']"]),
    ("", ["no [[card]] entries"]),
    ("[[card]\n", ["not valid TOML"]),
])
def test_malformed_card_data_names_file_entry_and_field(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(CardDataError) as err:
        load_card_db(path)
    message = str(err.value)
    assert message.startswith(str(path)), message
    for word in words:
        assert word in message, message


def test_missing_card_file_is_named(tmp_path):
    with pytest.raises(CardDataError, match="card-data file not found"):
        load_card_db(tmp_path / "nope.toml")


# -- decks (RB-1) ------------------------------------------------------------------------------
def _write(tmp_path, text, name="deck.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_hand_written_deck_file(tmp_path, db):
    path = _write(tmp_path, 'name = "Moje"\ndescription = "test"\n[cards]\n'
                            '"Šrotmistr Majlosh" = 1\nvyhazovac = 2\n"Těžební Nálož" = 1\n')
    deck = load_deck(str(path), db)
    assert deck == Deck("Moje", ("srotmistr_majlosh", "tezebni_naloz", "vyhazovac", "vyhazovac"),
                        str(path), "test")
    assert deck_points(deck, db) == 28 + 10 + 2 * 33  # 104
    assert deck.counts() == {"srotmistr_majlosh": 1, "tezebni_naloz": 1, "vyhazovac": 2}
    nameless = _write(tmp_path, '[cards]\n"Obrněnec" = 1\n', "bez_jmena.toml")
    assert load_deck(nameless, db).name == "bez_jmena"
    inline = _write(tmp_path, 'name = "i"\ncards = { "Obrněnec" = 2, "juggernaut" = 1 }\n', "i.toml")
    assert load_deck(inline, db).cards == ("juggernaut", "obrnenec", "obrnenec")


def test_rb_1_1_third_copy_names_the_card(db):
    with pytest.raises(DeckError, match=r"3 copies of Vyhazovač \(vyhazovac\): RB-1\.1 allows at "
                                        r"most 2 copies"):
        load_deck({"Vyhazovač": 3}, db)
    load_deck({"Vyhazovač": 2}, db)


def test_rb_1_1_second_copy_of_a_unique_card_names_it(db):
    with pytest.raises(DeckError, match=r"2 copies of Komisař Ben \(komisar_ben\), a unique card: "
                                        r"RB-1\.1"):
        load_deck(["Komisař Ben", "komisar_ben"], db)


def test_rb_1_1_empty_deck(db):
    with pytest.raises(DeckError, match=r"at least 1 card \(RB-1\.1\)"):
        load_deck([], db)


def test_rb_1_2_over_the_point_limit_gives_the_total_and_the_cards(db):
    spec = {"Šrotzilla": 1, "Juggernaut": 1, "Komisař Ben": 1, "Gladiátor": 2, "Vyhazovač": 2,
            "Elitní Šroťák": 2, "Mamut Severu": 1, "Executor": 1, "Igor Ničitel": 1}
    total = sum(db.lookup(k).points * n for k, n in spec.items())
    assert total == 35 + 33 + 25 + 66 + 66 + 52 + 18 + 15 + 17 == 327
    with pytest.raises(DeckError) as err:
        load_deck(spec, db)
    msg = str(err.value)
    assert "327 points, over the point limit 250 by 77 (RB-1.2)" in msg
    assert "Šrotzilla (35 x 1)" in msg and "Gladiátor (33 x 2)" in msg
    deck = load_deck(spec, db, point_limit=327)  # another agreed limit (deck_point_limit)
    assert deck_points(deck, db) == 327
    with pytest.raises(DeckError, match="over the point limit 326 by 1"):
        validate_deck(deck, db, 326)


@pytest.mark.parametrize("limit", [0, -5, True, 2.5, "250"])
def test_bad_point_limit(db, limit):
    with pytest.raises(ConfigError, match="deck_point_limit"):
        load_deck(["Obrněnec"], db, point_limit=limit)


def test_unknown_card_names_it_and_close_matches(tmp_path, db):
    with pytest.raises(UnknownCardError, match=r"unknown card 'Vyhazovac x'.*did you mean "
                                               r"'Vyhazovač'"):
        load_deck(["Vyhazovac x"], db)
    path = _write(tmp_path, '[cards]\n"Šrotmistr Majlos" = 1\n')
    with pytest.raises(UnknownCardError) as err:
        load_deck(path, db)
    assert str(err.value).startswith(str(path)) and "'Šrotmistr Majlosh'" in str(err.value)
    assert isinstance(err.value, DeckError) and isinstance(err.value, CardDataError)
    assert isinstance(err.value, LoadoutError)
    with pytest.raises(UnknownCardError, match="unknown card id 'nic'"):
        db.by_id("nic")


@pytest.mark.parametrize("text, words", [
    ('[cards]\n"Obrněnec" = 0\n', ["'cards.Obrněnec'", ">= 1, got 0"]),
    ('[cards]\n"Obrněnec" = "two"\n', ["'cards.Obrněnec'"]),
    ('name = "x"\n', ["'cards'", "Field required"]),
    ('cards = 3\n', ["'cards'"]),
    ('colour = "red"\n[cards]\n"Obrněnec" = 1\n', ["'colour'"]),
    ('[cards\n', ["not valid TOML"]),
    ('[cards]\n"Obrněnec" = 1\nobrnenec = 1\n',
     ["Obrněnec (obrnenec) is listed twice (as 'Obrněnec' and 'obrnenec')"]),
])
def test_malformed_deck_file_names_file_and_field(tmp_path, db, text, words):
    path = _write(tmp_path, text)
    with pytest.raises(DeckError) as err:
        read_deck_file(path, db)
    msg = str(err.value)
    assert msg.startswith(str(path)), msg
    for word in words:
        assert word in msg, msg


def test_deck_spec_that_is_neither_a_deck_nor_a_file(db, tmp_path):
    with pytest.raises(DeckError, match="'no_such_deck': not a shipped deck .*rusthaven_2024"):
        load_deck("no_such_deck", db)
    with pytest.raises(DeckError, match="deck file not found"):
        load_deck(str(tmp_path / "missing.toml"), db)
    with pytest.raises(DeckError, match="got int"):
        load_deck(7, db)


def test_shipped_decks_are_legal_one_per_set_and_mixed(db):
    decks = shipped_decks()
    assert len(decks) >= 6
    sets_of = {name: {db.by_id(c).set for c in d.cards} for name, d in decks.items()}
    for set_name in SETS:
        assert any(s == {set_name} for s in sets_of.values()), set_name
    assert sum(len(s) > 1 for s in sets_of.values()) >= 2
    for name, deck in decks.items():
        validate_deck(deck, db, 250)
        assert deck.name == name and deck.description
        assert 12 <= len(deck.cards) <= 20 and 230 <= deck_points(deck, db) <= 250
        assert sum(db.by_id(c).is_character for c in deck.cards) >= 8
        assert load_deck(name, db) == deck
    assert deck_points(decks["rusthaven_2024"], db) == 242
    assert deck_points(decks["redneck_2025"], db) == 248


def test_shipped_decks_against_a_database_lacking_their_cards(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(_card())
    with pytest.raises(UnknownCardError, match="decks/.*unknown card"):
        shipped_decks(load_card_db(path))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17, 2024])
def test_random_decks_are_legal_and_reproducible(db, seed):
    deck = random_deck(db, np.random.default_rng(seed))
    validate_deck(deck, db, 250)
    assert deck == random_deck(db, np.random.default_rng(seed))
    assert deck_points(deck, db) >= 250 - min(c.points for c in db.cards) + 1  # nothing fits
    assert sum(db.by_id(c).is_character for c in deck.cards) >= 4
    assert 10 <= len(deck.cards) <= 30
    assert list(deck.cards) == sorted(deck.cards)


def test_random_decks_differ_by_seed_and_take_the_limit_and_random_random(db, tmp_path):
    decks = {random_deck(db, np.random.default_rng(s)).cards for s in range(5)}
    assert len(decks) == 5
    small = random_deck(db, random.Random(3), point_limit=60)
    validate_deck(small, db, 60)
    assert small == random_deck(db, random.Random(3), point_limit=60)
    one = tmp_path / "one.toml"
    one.write_text(_card())  # a single card of 7 points
    with pytest.raises(ConfigError, match="below the cheapest"):
        random_deck(load_card_db(one), random.Random(0), point_limit=6)
    with pytest.raises(ConfigError, match="rng must be"):
        random_deck(db, 5)


# -- the generated card list and the CLI -------------------------------------------------------
def test_card_list_doc_is_current(db):
    text = render_docs(db)
    assert (REPO / "docs" / "cards" / "rust_brawl.md").read_text(encoding="utf-8") == text, \
        "regenerate: python scripts/rust_brawl_card_list.py --write-docs docs/cards/rust_brawl.md"
    for card in db.cards:
        assert f"| {card.number} | {card.name} | `{card.id}` |" in text
    assert "| 37 | Monstrum Z Hlubin | `monstrum_z_hlubin` | character (melee) | 3 | 8 | 48 | U |" \
        " Mutant | Its attack hits every opposing character at full DMG. |" in text


def test_docs_check_command(tmp_path):
    path = tmp_path / "cards.md"
    assert rbc.main(["--write-docs", str(path)]) == 0
    assert rbc.main(["--check-docs", str(path)]) == 0
    path.write_text("old")
    assert rbc.main(["--check-docs", str(path)]) == 1


def test_the_documented_regeneration_script_checks_the_doc():
    import subprocess
    import sys

    script = REPO / "scripts" / "rust_brawl_card_list.py"
    done = subprocess.run([sys.executable, str(script), "--check-docs",
                           str(REPO / "docs" / "cards" / "rust_brawl.md")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "is up to date" in done.stdout, done.stderr


def test_cli_deck_check_prints_cards_and_total(tmp_path, capsys):
    path = _write(tmp_path, '[cards]\n"Šrotmistr Majlosh" = 1\nvyhazovac = 2\n')
    assert cli_main(["deck", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Šrotmistr Majlosh" in out and "Vyhazovač" in out
    assert "3 cards, 94 of 250 points: a legal deck" in out
    assert cli_main(["deck", "check", "rusthaven_2024"]) == 0
    assert "20 cards, 242 of 250 points" in capsys.readouterr().out
    assert cli_main(["deck", "list"]) == 0
    assert "mixed_raiders" in capsys.readouterr().out


@pytest.mark.parametrize("text, args, words", [
    ('[cards]\n"Vyhazovač" = 3\n', [], ["3 copies of Vyhazovač", "RB-1.1"]),
    ('[cards]\n"Juggernaut" = 1\n', ["--point-limit", "20"], ["33 points, over the point limit 20",
                                                              "Juggernaut"]),
    ('[cards]\n"Jugernaut" = 1\n', [], ["unknown card 'Jugernaut'", "'Juggernaut'"]),
    ('[cards]\n"Juggernaut" = 1\n', ["--point-limit", "0"], ["deck_point_limit"]),
    ('[cards\n', [], ["not valid TOML"]),
])
def test_cli_deck_check_errors_are_one_line_exit_2(tmp_path, capsys, text, args, words):
    path = _write(tmp_path, text)
    assert cli_main(["deck", "check", str(path), *args]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert captured.out == "" and "\n" not in err and "Traceback" not in err
    assert err.startswith("card-envs deck: error: ")
    for word in words:
        assert word in err, err


def test_cli_deck_check_with_a_user_database(tmp_path, capsys):
    cards = tmp_path / "mine.toml"
    cards.write_text(_card())
    deck = _write(tmp_path, '[cards]\nbrouk = 2\n')
    assert cli_main(["deck", "check", str(deck), "--card-db", str(cards)]) == 0
    assert "2 cards, 14 of 250 points" in capsys.readouterr().out
    assert cli_main(["deck", "check", str(tmp_path / "none.toml")]) == 2
    assert "deck file not found" in capsys.readouterr().err


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), limit=st.integers(3, 400))
def test_random_decks_property_legal_and_full(seed, limit):
    db = load_card_db()
    deck = random_deck(db, np.random.default_rng(seed), point_limit=limit)
    validate_deck(deck, db, limit)
    counts = Counter(deck.cards)
    left = limit - deck_points(deck, db)
    assert left >= 0
    assert not [c for c in db.cards  # RB-1.1 / RB-1.2: no further card fits
                if c.points <= left and counts[c.id] < (1 if c.unique else 2)]


def test_load_deck_revalidates_a_deck_object(db):
    deck = load_deck(["Juggernaut", "Šrotzilla"], db)
    assert load_deck(deck, db) is deck
    with pytest.raises(DeckError, match="68 points, over the point limit 40"):
        load_deck(deck, db, point_limit=40)


# -- issue 21: a huge copy count is refused before any copy list is built ------------------------
@pytest.mark.parametrize("count", [3, 10**8, 10**9, 10**30])
def test_rb_1_1_a_huge_copy_count_is_refused_at_once_naming_the_card(tmp_path, db, count):
    # RB-1.1: at most 2 copies; the count is checked before the deck's copy list is built, so
    # 10**8 takes no seconds and GBs, 10**9 no MemoryError, 10**30 no OverflowError
    import time

    path = _write(tmp_path, f'[cards]\n"Vyhazovač" = {count}\n')
    started = time.perf_counter()
    with pytest.raises(DeckError, match=rf"{re.escape(str(path))}: {count} copies of Vyhazovač "
                                        r"\(vyhazovac\): RB-1\.1 allows at most 2 copies"):
        read_deck_file(path, db)
    with pytest.raises(DeckError, match=rf"deck list: {count} copies of Vyhazovač"):
        load_deck({"Vyhazovač": count}, db)
    unique = _write(tmp_path, f'[cards]\n"Komisař Ben" = {count}\n', "unique.toml")
    with pytest.raises(DeckError, match=rf"{count} copies of Komisař Ben \(komisar_ben\), a "
                                        r"unique card: RB-1\.1"):
        load_deck(unique, db)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("count", [10**9, 10**30])
def test_cli_deck_check_and_env_refuse_a_huge_copy_count_in_one_line(tmp_path, capsys, count):
    from card_envs import rust_brawl_v1

    path = _write(tmp_path, f'[cards]\nvyhazovac = {count}\n')
    assert cli_main(["deck", "check", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err == (f"card-envs deck: error: {path}: {count} copies of Vyhazovač (vyhazovac): "
                   "RB-1.1 allows at most 2 copies of a card")
    with pytest.raises(DeckError, match=rf"{count} copies of Vyhazovač"):
        rust_brawl_v1.env(decks=(str(path), "rusthaven_2024"))


def test_rb_8_several_abilities_of_one_kind_load_and_rb_6_13_a_removes_hlt_amount(tmp_path):
    """RB-8: a card may carry several abilities of one kind with other filters or amounts;
    RB-6.13: removes_hlt may state its own amount (absent: the card's printed DMG, 0 here)."""
    path = tmp_path / "mine.toml"
    path.write_text(_card(abilities='{ kind = "reduce_vs", amount = 1, against = "melee" }, '
                                    '{ kind = "reduce_vs", amount = 1, against = "Mech" }, '
                                    '{ kind = "removes_hlt", amount = 2 }')
                    + _card(id="kyselina", name="Kyselina", number=2,
                            abilities='{ kind = "removes_hlt" }'))
    mine = load_card_db(path)
    brouk = mine.by_id("brouk")
    assert brouk.abilities == (Ability("reduce_vs", 1, against="melee"),
                               Ability("reduce_vs", 1, against="Mech"), Ability("removes_hlt", 2))
    assert mine.by_id("kyselina").abilities == (Ability("removes_hlt", 0),)
    assert card_text(brouk) == ("Takes 1 less damage from melee attacks. Takes 1 less damage from "
                                "Mech cards. Its attack removes 2 HLT (no cover or reductions).")
    # strength score: 3.5*3 + 5 + 15/4 - 15 + 2.5 + 2.5 + 2 (the stated amount, not D = 3)
    assert strength_score(brouk) == pytest.approx(11.25)
    assert strength_score(mine.by_id("kyselina")) == pytest.approx(4.25 + 3)


def test_the_deck_api_keeps_its_old_import_path_after_the_split():
    """The deck API moved to ``decks.py`` and the card-list generator to ``card_list.py``; their
    old path ``card_envs.rust_brawl.cards.<name>`` gives the same objects."""
    from card_envs.rust_brawl import card_list, decks

    for name in ("Deck", "deck_points", "load_deck", "random_deck", "read_deck_file",
                 "shipped_decks", "validate_deck", "DEFAULT_POINT_LIMIT", "MAX_COPIES"):
        assert getattr(rbc, name) is getattr(decks, name), name
    assert rbc.render_docs is card_list.render_docs and rbc.main is card_list.main
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        rbc.nothing_here  # noqa: B018


@pytest.mark.parametrize(("copies", "limit", "says"), [
    # RB-1.1: at most 2 copies of a card (Ospalý Vstupař, 12 points)
    ({"ospaly_vstupar": 3}, 250, ("3 copies of Ospalý Vstupař (ospaly_vstupar): RB-1.1 allows "
                                  "at most 2 copies of a card")),
    # RB-1.2: 2 x 12 + 14 = 38 points over a limit of 37
    ({"ospaly_vstupar": 2, "kmenovy_zdravotnik": 1}, 37,
     "38 points, over the point limit 37 by 1 (RB-1.2)"),
])
def test_rb_1_deck_legality_is_stated_once_for_deck_lists_and_dealt_states(copies, limit, says):
    """RB-1.1 / RB-1.2: a deck list (``validate_deck``) and a state's dealt decklist (the state
    check) are judged by the one ``decks.deck_problem``: the same text names the card and rule,
    prefixed by the deck (the list) or the field path (the state)."""
    from card_envs.core.errors import StateError
    from card_envs.rust_brawl import make_game
    from card_envs.rust_brawl.decks import deck_problem

    db = load_card_db(rbc.SMALL_CARDS)
    deck = Deck("mine", tuple(sorted(Counter(copies).elements())), "list")
    with pytest.raises(DeckError, match=re.escape(f"deck 'mine' (list): {says}")):
        validate_deck(deck, db, limit)
    assert says in deck_problem({db.by_id(i): n for i, n in copies.items()}, limit)
    game = make_game(card_db=str(rbc.SMALL_CARDS), decks="random", deck_point_limit=limit)
    s = game.new_state(0)
    s.decklists[0] = sorted(db.by_id(i).index for i in Counter(copies).elements())
    with pytest.raises(StateError, match=r"decklists\[0\].*" + re.escape(says)):
        game.check_state(s)
    assert deck_problem({}, limit) == "a deck needs at least 1 card (RB-1.1)"
