"""Rust Brawl test helpers: a card database made for the rule tests (``TEST_CARDS``, written to a
temporary file once) and :func:`scripted`, a state built from named cards that passes
``check_state``, at the decision of the seat *before* the one whose turn a test plays."""

from __future__ import annotations

import tempfile
from pathlib import Path

from card_envs.core.rng import make_rng
from card_envs.rust_brawl import make_game
from card_envs.rust_brawl.constants import A_PASS, PLAY, PLAY_OR_DISCARD, POSITIONS
from card_envs.rust_brawl.state import RANDOM_DECK, RustBrawlState


def _card(cid, kind, icon, dmg, hlt, points, traits=(), abilities=(), unique=False):
    ab = ", ".join("{ " + ", ".join(f'{k} = {v!r}'.replace("'", '"') for k, v in a.items()) + " }"
                   for a in abilities)
    tr = ", ".join(f'"{t}"' for t in traits)
    return (f'[[card]]\nid = "{cid}"\nname = "Test {cid}"\nset = "RUSTHAVEN 2026"\n'
            f"number = {{n}}\nkind = \"{kind}\"\nicon = \"{icon}\"\ndmg = {dmg}\nhlt = {hlt}\n"
            f"points = {points}\nunique = {'true' if unique else 'false'}\ntraits = [{tr}]\n"
            f"abilities = [{ab}]\norigin = \"designed\"\n")


#: the test cards: id -> (kind, icon, dmg, hlt, points, traits, abilities)
TEST_CARDS = [
    _card("brute", "character", "melee", 5, 10, 10, ["Human"]),
    _card("guard", "character", "melee", 2, 10, 11, ["Human"], [{"kind": "reduce", "amount": 1}]),
    _card("grunt", "character", "melee", 2, 6, 5, ["Human"]),
    _card("shooter", "character", "ranged", 3, 6, 12, ["Human"]),
    _card("medic", "character", "heal", 2, 6, 13, ["Human"]),
    _card("nurse", "character", "heal", 1, 6, 14, ["Human"], [{"kind": "heal_all"}]),
    _card("wall", "vehicle", "wheel", 0, 8, 15),
    _card("bunker", "vehicle", "wheel", 0, 8, 6, [], [{"kind": "reduce", "amount": 1}]),
    _card("buggy", "vehicle", "wheel", 0, 5, 16, [],
          [{"kind": "boost_dmg", "amount": 1, "icon": "melee"}]),
    _card("radio", "support", "lightning", 0, 4, 17, [], [{"kind": "boost_dmg", "amount": 2}]),
    _card("banner", "support", "lightning", 0, 4, 18, [], [{"kind": "boost_hlt", "amount": 2}]),
    _card("captain", "support", "lightning", 0, 3, 19, [],
          [{"kind": "boost_dmg", "amount": 1}, {"kind": "boost_hlt", "amount": 2}]),
    _card("mutant_booster", "character", "melee", 1, 2, 20, ["Mutant"],
          [{"kind": "boost_dmg", "amount": 2, "trait": "Mutant"}]),
    _card("mutant", "character", "melee", 2, 6, 21, ["Mutant"]),
    _card("mutant_striker", "character", "melee", 2, 6, 22, ["Mutant"],
          [{"kind": "return_strike"}]),
    _card("striker", "character", "melee", 2, 6, 23, ["Human"], [{"kind": "return_strike"}]),
    _card("spiker", "character", "melee", 1, 6, 24, ["Human"],
          [{"kind": "return_strike"}, {"kind": "extra_dmg_vs", "amount": 2, "trait": "Mutant"}]),
    _card("zap_striker", "character", "melee", 2, 6, 25, ["Human"],
          [{"kind": "return_strike"}, {"kind": "paralyse"}]),
    _card("zapper", "character", "ranged", 2, 6, 26, ["Human"], [{"kind": "paralyse"}]),
    _card("immune", "character", "melee", 2, 6, 27, ["Mech"], [{"kind": "paralysis_immune"}]),
    _card("acid", "character", "ranged", 3, 6, 28, ["Mutant"], [{"kind": "removes_hlt"}]),
    _card("monster", "character", "melee", 3, 8, 29, ["Mutant"], [{"kind": "hit_all"}]),
    _card("armored", "character", "melee", 1, 8, 30, ["Mech"],
          [{"kind": "reduce_vs", "amount": 2, "against": "melee"}]),
    _card("anti_mutant", "character", "melee", 1, 8, 31, ["Human"],
          [{"kind": "reduce_vs", "amount": 2, "against": "Mutant"}]),
    _card("hunter", "character", "ranged", 2, 6, 32, ["Human"],
          [{"kind": "extra_dmg_vs", "amount": 2, "trait": "Mutant"}]),
    _card("gambler", "character", "melee", 1, 4, 33, ["Human"],
          [{"kind": "lottery", "reward": "draw", "amount": 2}]),
    _card("mortar", "support", "lightning", 0, 4, 34, [],
          [{"kind": "lottery", "reward": "damage", "amount": 3}]),
    _card("scout", "support", "lightning", 0, 4, 35, [], [{"kind": "draw", "amount": 1}]),
    _card("bomb", "explosive", "flame", 4, 0, 36),
    _card("toad_bomb", "explosive", "flame", 2, 0, 37, ["Animal"],
          [{"kind": "extra_dmg_vs", "amount": 2, "trait": "Mutant"}]),
    _card("vest", "equipment", "clothing", 1, 2, 38, [], [{"kind": "reduce", "amount": 1}]),
    _card("spikes", "equipment", "clothing", 0, 0, 39, [], [{"kind": "return_strike"}]),
    _card("penny", "character", "melee", 1, 1, 1, ["Human"]),
    _card("nickel", "character", "melee", 1, 1, 5, ["Human"]),
    _card("gold", "character", "melee", 1, 1, 50, ["Human"], unique=True),
    _card("filler", "character", "melee", 1, 1, 2, ["Zombie"]),
    _card("dud", "explosive", "flame", 0, 0, 3),
    _card("gasmask", "equipment", "clothing", 0, 0, 4, [], [{"kind": "paralysis_immune"}]),
]
CARDS_TOML = "".join(text.replace("{n}", str(i + 1)) + "\n" for i, text in enumerate(TEST_CARDS))
_DIR = Path(tempfile.mkdtemp(prefix="rust_brawl_test_"))
CARDS_PATH = _DIR / "test_cards.toml"
CARDS_PATH.write_text(CARDS_TOML, encoding="utf-8")


def rb_game(**config):
    """A game on the test cards with random decks (the scripted states bring their own)."""
    config.setdefault("decks", "random")
    config.setdefault("deck_point_limit", 100_000)
    return make_game(card_db=str(CARDS_PATH), **config)



def ids(game, names):
    return [game.db.by_id(n).index for n in names]


def scripted(game, tables=((), ()), hands=None, decks=((), ()), graveyards=((), ()),
             actor=0, turn=None) -> RustBrawlState:
    """A state at the play decision of seat ``1 - actor`` (``PLAY``, or ``PLAY_OR_DISCARD`` for
    an empty table), so that :func:`go` ends that turn and seat ``actor``'s turn runs.

    ``tables[p]``: per position a card id or ``(id, {field: value})`` with fields ``hlt``,
    ``cover`` (default True: cards enter in cover), ``paralysed`` (True: paralysed until the
    end of the owner's next turn), ``equipment`` (ids). ``hands`` default: the actor holds a
    ``dud`` (an explosive of DMG 0: a play decision always follows its action step), the other
    seat two ``filler`` characters (so it can still play a character). Decks: top = last."""
    if hands is None:
        hands = (["dud"], ["filler", "filler"]) if actor == 0 else (["filler", "filler"], ["dud"])
    other = 1 - actor
    if turn is None:
        turn = 4 if other == 1 else 3  # starter 0 plays the odd turns
    rng = make_rng(1)
    blank = [[0] * POSITIONS for _ in range(2)]
    s = RustBrawlState(
        rng=rng, phase=PLAY, player=other, starter=0, turn=turn,
        decklists=[[], []], deck_names=[RANDOM_DECK, RANDOM_DECK],
        decks=[ids(game, d) for d in decks], hands=[sorted(ids(game, h)) for h in hands],
        graveyards=[ids(game, g) for g in graveyards], table=[[-1] * POSITIONS for _ in range(2)],
        hlt=[r[:] for r in blank], max_hlt=[r[:] for r in blank],
        cover=[[False] * POSITIONS for _ in range(2)], paralysed_until=[r[:] for r in blank],
        serial=[r[:] for r in blank], equipment=[[[] for _ in range(POSITIONS)] for _ in range(2)],
        granted=[[[] for _ in range(POSITIONS)] for _ in range(2)], next_serial=1,
        acting=POSITIONS, pending=-1, changed=False, quiet_turns=0, table_marks=[[], []],
        marks_from=0, winner=-1, end_reason="")
    for p in range(2):
        for j, spec in enumerate(tables[p]):
            cid, opts = (spec, {}) if isinstance(spec, str) else spec
            c = game.db.by_id(cid).index
            eq = ids(game, opts.get("equipment", []))
            top = game.printed_hlt[c] + sum(game.printed_hlt[e] for e in eq)
            s.table[p][j] = c
            s.max_hlt[p][j] = top
            s.hlt[p][j] = opts.get("hlt", top)
            s.cover[p][j] = opts.get("cover", True)
            s.equipment[p][j] = eq
            s.serial[p][j] = s.next_serial
            s.next_serial += 1
            if opts.get("paralysed"):
                s.paralysed_until[p][j] = game.turns_of(s, p) + (0 if p == other else 1)
    for p in range(2):
        cards = s.decks[p] + s.hands[p] + s.graveyards[p]
        for j in range(POSITIONS):
            if s.table[p][j] >= 0:
                cards += [s.table[p][j], *s.equipment[p][j]]
        s.decklists[p] = sorted(cards)
    if s.table[other][0] < 0:
        s.phase = PLAY_OR_DISCARD
    game.check_state(s)
    return s


def go(game, s) -> None:
    """End seat ``s.player``'s turn (pass, or discard its first hand card on an empty
    table): the next seat's turn runs up to its first decision."""
    if s.phase == PLAY:
        game.apply_action(s, A_PASS)
    else:
        game.apply_action(s, game.a_discard + 0)


def slot(game, s, p, j):
    """``(card id, hlt, max_hlt, cover)`` at seat ``p``'s position ``j`` (id None if empty)."""
    c = s.table[p][j]
    return (game.db.cards[c].id if c >= 0 else None, s.hlt[p][j], s.max_hlt[p][j], s.cover[p][j])
