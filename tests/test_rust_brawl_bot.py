"""The Rust Brawl heuristic bot (card_envs/rust_brawl/bot.py): scripted decisions with
hand-computed choices (rule ids of docs/rules/rust_brawl.md), its use of the seat's own
information only, and (slow) its strength against random; the game's card-balance hooks."""

from __future__ import annotations

import random

import pytest

from card_envs.bots.base import RandomBot
from card_envs.evaluation.match import play_match
from card_envs.rust_brawl.bot import HeuristicBot, hit_damage
from card_envs.rust_brawl.cards import SMALL_CARDS, load_card_db, strength_score
from card_envs.rust_brawl.constants import (
    A_EQUIP,
    A_HEAL,
    A_PASS,
    A_PLAY,
    A_RANGED,
    DISCARD,
    EQUIP_TARGET,
    HEAL_TARGET,
    PLAY,
    POSITIONS,
    RANGED_TARGET,
)
from card_envs.rust_brawl.rules import make_game

# the small database (strength scores: cards.strength_score): ospaly_vstupar melee 3/6 (12),
# polni_telefon support (5), smrtici_jed equipment (7), vybity_securitron ranged (17),
# mistr_strelby ranged 3/4 +2 vs Mech (16), bar_na_namku support (6), radioaktini_ponozky
# equipment (3), dulni_predak melee 2/6 (14), dulni_osetrovatel heal 3/5 (12), opily_hornik
# melee 3/5 (11), vyhazovac melee 3/7 (18), ocelova_vosa ranged Mech (12), poustni_bugina
# vehicle (13), tezebni_naloz explosive 3 (9), obrnenec melee 2/8 reduce 1 (15)
DECK = ["ospaly_vstupar", "vyhazovac"]


@pytest.fixture(scope="module")
def game():
    return make_game(card_db=str(SMALL_CARDS), decks=[DECK, DECK])


def card(game, card_id: str) -> int:
    return game.db.by_id(card_id).index


def slot(game, s, card_id: str) -> int:
    """The hand slot of ``card_id`` in seat 0's (sorted) hand."""
    return s.hands[0].index(card(game, card_id))


def position(game, tables, hand=(), phase=PLAY, acting=POSITIONS, pending=-1):
    """A scripted position, seat 0 to act: ``tables[p]`` lists ``(card id, hlt, max hlt,
    cover)`` from position 1; ``hand``: seat 0's hand (card ids)."""
    s = game.new_state(0)
    serial = 1
    for p in range(2):
        rows = list(tables[p]) + [None] * (POSITIONS - len(tables[p]))
        s.table[p] = [card(game, r[0]) if r else -1 for r in rows]
        s.hlt[p] = [r[1] if r else 0 for r in rows]
        s.max_hlt[p] = [r[2] if r else 0 for r in rows]
        s.cover[p] = [r[3] if r else False for r in rows]
        s.paralysed_until[p] = [0] * POSITIONS
        s.serial[p] = []
        for r in rows:
            s.serial[p].append(serial if r else 0)
            serial += bool(r)
        s.equipment[p] = [[] for _ in range(POSITIONS)]
        s.granted[p] = [[] for _ in range(POSITIONS)]
    s.next_serial = serial
    s.hands[0] = sorted(card(game, c) for c in hand)
    s.phase, s.player, s.acting, s.pending = phase, 0, acting, pending
    s.legal_cache = None
    return s


def test_strength_scores_of_the_cards_used():
    db = load_card_db(SMALL_CARDS)
    scores = {c: strength_score(db.by_id(c)) for c in (
        "ospaly_vstupar", "polni_telefon", "smrtici_jed", "vybity_securitron", "mistr_strelby",
        "radioaktini_ponozky", "dulni_predak", "opily_hornik", "vyhazovac", "ocelova_vosa",
        "poustni_bugina", "tezebni_naloz", "obrnenec")}
    # the formula of cards.py (version 2), by hand; character base 3.5*D + H + D*H/4 - 15
    # (+4.5 ranged, +2.5 heal):
    # Vstupař melee 3/6: 10.5 + 6 + 4.5 - 15 = 6; Telefon support, draw 1: 1 + 1.5 = 2.5;
    # Jed equipment 1/0, paralyse: 2 + 4.5 = 6.5; Securitron ranged 2/5, paralyse, immune:
    # 7 + 5 + 2.5 - 15 + 4.5 + 4.5 + 2.5 = 11; Mistr Střelby ranged 3/4, +2 vs Mech:
    # 10.5 + 4 + 3 - 15 + 4.5 + 0.5*2 = 8; Ponožky equipment 1/0, immune: 2 + 2.5 = 4.5;
    # Předák melee 2/6, +1 DMG to Miners (trait boost weighs 0): 7 + 6 + 3 - 15 = 1;
    # Horník melee 3/5: 10.5 + 5 + 3.75 - 15 = 4.25; Vyhazovač melee 3/7, return strike:
    # 10.5 + 7 + 5.25 - 15 + 1.2*21 = 32.95; Vosa ranged 2/4, -1 vs melee:
    # 7 + 4 + 2 - 15 + 4.5 + 2.5 = 5; Bugina vehicle HLT 6, +1 DMG to melee: 2.5*6 - 4 + 3 = 14;
    # Nálož explosive 3: 10.5; Obrněnec melee 2/8, reduce 1: 7 + 8 + 4 - 15 + 0.45*16 = 11.2
    assert scores == pytest.approx({
        "ospaly_vstupar": 6, "polni_telefon": 2.5, "smrtici_jed": 6.5, "vybity_securitron": 11,
        "mistr_strelby": 8, "radioaktini_ponozky": 4.5, "dulni_predak": 1, "opily_hornik": 4.25,
        "vyhazovac": 32.95, "ocelova_vosa": 5, "poustni_bugina": 14, "tezebni_naloz": 10.5,
        "obrnenec": 11.2})


def test_ranged_targets_the_weakest_enemy_it_can_destroy(game):
    # RB-5.2: Mistr Střelby (ranged DMG 3, +2 vs Mech, RB-6.13) chooses among Ospalý Vstupař
    # HLT 3 (3 >= 3: destroyed), Ocelová Vosa (Mech) HLT 4 (3 + 2 = 5: destroyed) and Vyhazovač
    # HLT 7 (3: not): the weakest it can destroy is Vstupař (3 HLT left)
    tables = [[("mistr_strelby", 4, 4, False)],
              [("ospaly_vstupar", 3, 6, False), ("ocelova_vosa", 4, 4, False),
               ("vyhazovac", 7, 7, False)]]
    s = position(game, tables, phase=RANGED_TARGET, acting=0)
    assert [hit_damage(game, s, 0, 0, t) for t in range(3)] == [3, 5, 3]
    assert HeuristicBot().act(game, s, 0) == A_RANGED + 0
    # in cover (RB-6.2) Vstupař takes 3 // 2 = 1 and survives: the Vosa is the only kill
    tables[1][0] = ("ospaly_vstupar", 3, 6, True)
    s = position(game, tables, phase=RANGED_TARGET, acting=0)
    assert hit_damage(game, s, 0, 0, 0) == 1
    assert HeuristicBot().act(game, s, 0) == A_RANGED + 1


def test_ranged_without_a_kill_damages_most_then_the_most_valuable(game):
    # no target dies: Opilý Horník 5 HLT takes 3, Důlní Předák 6 HLT takes 3, Obrněnec takes
    # 3 - 1 (reduce 1) = 2: the most damage is 3 (a tie), the more valuable is Horník
    # (strength 4.25 > Předák's 1)
    tables = [[("mistr_strelby", 4, 4, False)],
              [("opily_hornik", 5, 5, False), ("dulni_predak", 6, 6, False),
               ("obrnenec", 8, 8, False)]]
    s = position(game, tables, phase=RANGED_TARGET, acting=0)
    assert [hit_damage(game, s, 0, 0, t) for t in range(3)] == [3, 3, 2]
    assert HeuristicBot().act(game, s, 0) == A_RANGED + 0


def test_heals_the_most_damaged_ally(game):
    # RB-5.3: Důlní Ošetřovatel (heal 3) chooses among Vstupař 2/6 (4 missing) and Vyhazovač
    # 4/7 (3 missing): Vstupař at position 2
    tables = [[("dulni_osetrovatel", 5, 5, False), ("ospaly_vstupar", 2, 6, False),
               ("vyhazovac", 4, 7, False)], [("opily_hornik", 5, 5, False)]]
    s = position(game, tables, phase=HEAL_TARGET, acting=0)
    assert game.legal_actions(s) == [A_HEAL + 1, A_HEAL + 2]
    assert HeuristicBot().act(game, s, 0) == A_HEAL + 1


def test_plays_the_highest_score_but_keeps_a_character_on_the_table(game):
    enemy = [("opily_hornik", 5, 5, False)]
    hand = ["opily_hornik", "poustni_bugina", "smrtici_jed"]  # sorted: Horník, Jed, Bugina
    # a character on the table: the highest score in hand is Pouštní Bugina (13 > 11 > 7)
    s = position(game, [[("ospaly_vstupar", 6, 6, False)], enemy], hand)
    bugina = A_PLAY + slot(game, s, "poustni_bugina")
    hornik = A_PLAY + slot(game, s, "opily_hornik")
    assert HeuristicBot().act(game, s, 0) == bugina
    # only a support on the table (no character): the character Opilý Horník comes first
    s = position(game, [[("bar_na_namku", 4, 4, True)], enemy], hand)
    assert HeuristicBot().act(game, s, 0) == hornik
    # a destroyed character still on the table (RB-6.1) is not a character to keep
    s = position(game, [[("ospaly_vstupar", 0, 6, False)], enemy], hand)
    assert HeuristicBot().act(game, s, 0) == hornik


def test_an_explosive_only_when_it_hits(game):
    # Těžební Nálož (9) beats Radioaktivní Ponožky (3), but only with an opposing card to hit
    # (RB-5.5); with nothing to hit the equipment goes, and with only the explosive: pass
    own = [("ospaly_vstupar", 6, 6, False)]
    hand = ["radioaktini_ponozky", "tezebni_naloz"]
    s = position(game, [own, [("opily_hornik", 5, 5, False)]], hand)
    naloz = A_PLAY + slot(game, s, "tezebni_naloz")
    ponozky = A_PLAY + slot(game, s, "radioaktini_ponozky")
    assert HeuristicBot().act(game, s, 0) == naloz
    s = position(game, [own, []], hand)
    assert HeuristicBot().act(game, s, 0) == ponozky
    s = position(game, [own, []], ["tezebni_naloz"])
    assert game.legal_actions(s) == [A_PASS, A_PLAY]
    assert HeuristicBot().act(game, s, 0) == A_PASS


def test_equipment_goes_to_the_highest_score_character(game):
    # RB-5.7: Vstupař (12), Vyhazovač (18), Obrněnec (15): Vyhazovač at position 2
    tables = [[("ospaly_vstupar", 6, 6, False), ("vyhazovac", 7, 7, False),
               ("obrnenec", 8, 8, False)], []]
    s = position(game, tables, phase=EQUIP_TARGET, pending=card(game, "smrtici_jed"))
    assert game.legal_actions(s) == [A_EQUIP + 0, A_EQUIP + 1, A_EQUIP + 2]
    assert HeuristicBot().act(game, s, 0) == A_EQUIP + 1


def test_discards_the_lowest_score_card(game):
    # RB-4.4 with 5 cards: Polní Telefon (5) is the lowest of 12, 5, 9, 11, 18
    hand = ["ospaly_vstupar", "polni_telefon", "tezebni_naloz", "opily_hornik", "vyhazovac"]
    s = position(game, [[("ospaly_vstupar", 6, 6, False)], []], hand, phase=DISCARD)
    assert HeuristicBot().act(game, s, 0) == game.a_discard + slot(game, s, "polni_telefon")


def test_never_discards_the_last_character_without_one_on_the_table():
    # the shipped database: Zombie Kočka (melee 2/5, immune to paralysis:
    # 7 + 5 + 2.5 - 15 + 2.5 = 2); with only a vehicle
    # on the table and four vehicles / support of higher score in hand, the bot keeps the
    # Kočka and discards the lowest of the others
    game = make_game(decks="random")
    db = game.db
    others = sorted((c for c in db.cards if c.kind in ("vehicle", "support")
                     and strength_score(c) > 2 and not c.unique), key=strength_score)[:4]
    hand = ["zombie_kocka"] + [c.id for c in others]
    s = position(game, [[(others[-1].id, 5, 5, True)], []], hand, phase=DISCARD)
    assert strength_score(db.by_id("zombie_kocka")) == 2
    assert HeuristicBot().act(game, s, 0) == game.a_discard + slot(game, s, others[0].id)
    # with a living character on the table the Kočka (2) is the one to go
    s = position(game, [[("barovy_povalec", 5, 5, False)], []], hand, phase=DISCARD)
    assert HeuristicBot().act(game, s, 0) == game.a_discard + slot(game, s, "zombie_kocka")


def test_the_bot_reads_only_its_own_seat():
    # its decision is the same after the opponent's hand and deck and its own deck order are
    # redealt (sample_hidden keeps the seat's observation, RB-3.3)
    game = make_game()
    bot, rng = HeuristicBot(), random.Random(5)
    checked = 0
    for seed in range(6):
        s = game.new_state(seed)
        while not game.is_terminal(s):
            p = game.current_player(s)
            a = bot.act(game, s, p)
            if len(game.legal_actions(s)) > 1:
                other = game.sample_hidden(s, p, rng)
                assert bot.act(game, other, p) == a
                checked += 1
            game.apply_action(s, a if p == 0 else rng.choice(game.legal_actions(s)))
    assert checked > 50


# -- the balance hooks (card_envs.evaluation.balance) --------------------------------------------
def test_balance_hooks():
    game = make_game()
    decks = game.balance_deal(7)
    assert decks == game.balance_deal(7) and decks != game.balance_deal(8)
    seated = make_game(**game.balance_config(decks[::-1]))
    s = seated.new_state(3)
    assert [sorted(seated.db.cards[c].id for c in dl) for dl in s.decklists] == \
        [sorted(decks[1]), sorted(decks[0])]
    assert game.cards_in_set(decks[0]) == tuple(decks[0])
    assert seated.starting_player(s) == s.starter  # RB-3.2 by lot
    assert set(game.balance_card_names()) == {c.id for c in game.db.cards}
    # a play action names the hand card; a pass names nothing
    rng = random.Random(0)
    while not (s.phase == PLAY and len(seated.legal_actions(s)) > 1):
        seated.apply_action(s, rng.choice(seated.legal_actions(s)))
    play = next(a for a in seated.legal_actions(s) if A_PLAY <= a < seated.a_discard)
    assert seated.card_played(s, play) == seated.db.cards[s.hands[s.player][play - A_PLAY]].id
    assert seated.card_played(s, A_PASS) is None


@pytest.mark.slow
def test_heuristic_beats_random_over_400_seat_swapped_games():
    # decks=None: every seed deals each seat a shipped deck; paired: each seed is played twice
    # with the heuristic in seat 0, then seat 1 (the same pair of decks in both seat orders)
    game = make_game()
    for seed in range(5):
        assert set(game.new_state(seed).deck_names) <= set(game._shipped)
    result = play_match(game, HeuristicBot(), RandomBot(0), n_games=400, seed=0, paired=True)
    print(result.long_summary())
    assert result.n == 400
    assert result.wilson()[0] >= 0.80
