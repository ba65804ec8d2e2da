"""Rust Brawl rules engine (2 players): the ``Game`` (RB-3 … RB-8).

Rules as implemented: ``docs/rules/rust_brawl.md`` (rule ids ``RB-…``). The engine is pure
Python (ints and lists, per-card tables built once per game object); numpy is used only by the
observation encoder (:mod:`.observation`).

A turn (RB-4) runs inside :meth:`RustBrawlGame._apply_action` from one decision to the next:
the draw, every table card's action in position order (a forced action with one target, a
melee attack, a heal-all, a hit-all attack or going into cover need no decision), the play
step, the discard above 4 cards, the end-of-turn removal and shifting, the victory checks, and
the next player's turn. A decision is asked only when there are two or more choices (a ranged
or heal target, which card to play or pass, which character an equipment goes to, which card
to discard); a decision with one choice is taken by the engine.
"""

from __future__ import annotations

import random
import textwrap
from bisect import insort
from collections import Counter
from typing import Any

from card_envs.core.config import config_from_kwargs
from card_envs.core.errors import ConfigError
from card_envs.core.game import GameBase, lead
from card_envs.core.rng import make_rng, reseed
from card_envs.core.table import CardFace, CardRow, Panel, Table, cards, counted, split_list
from card_envs.rust_brawl.cards import (
    Ability,
    CardDb,
    DeckError,
    card_text,
    load_card_db,
    load_deck,
    random_deck,
    shipped_decks,
    validate_deck,
)
from card_envs.rust_brawl.config import RustBrawlConfig
from card_envs.rust_brawl.constants import (
    A_EQUIP,
    A_HEAL,
    A_PASS,
    A_PLAY,
    A_RANGED,
    AB_BOOST_DMG,
    AB_BOOST_HLT,
    AB_DRAW,
    AB_EXTRA_DMG_VS,
    AB_HEAL_ALL,
    AB_HIT_ALL,
    AB_LOTTERY,
    AB_PARALYSE,
    AB_PARALYSIS_IMMUNE,
    AB_REDUCE,
    AB_REDUCE_VS,
    AB_REMOVES_HLT,
    AB_RETURN_STRIKE,
    ABILITY_KINDS,
    CHARACTER,
    DISCARD,
    END,
    EQUIP_TARGET,
    EQUIPMENT,
    EXPLOSIVE,
    HAND_KEEP,
    HEAL,
    HEAL_TARGET,
    ICONS,
    KINDS,
    MAX_ABILITIES,
    MELEE,
    OTHER_DRAW,
    PHASES,
    PLAY,
    PLAY_OR_DISCARD,
    POSITIONS,
    RANGED,
    RANGED_TARGET,
    STARTER_DRAW,
    TRAITS,
    VEHICLE,
    action_layout,
    discard_start,
)
from card_envs.rust_brawl.observation import Encoder
from card_envs.rust_brawl.state import (
    RANDOM_DECK,
    UNKNOWN_DECK,
    HltBoost,
    RBState,
    check_state,
    mark_counts,
    table_mark,
)

__all__ = ["Profile", "RBState", "RustBrawlConfig", "RustBrawlGame", "make_game"]

F_IMMUNE = 1 << AB_PARALYSIS_IMMUNE
F_PARALYSE = 1 << AB_PARALYSE
F_RETURN = 1 << AB_RETURN_STRIKE
F_HIT_ALL = 1 << AB_HIT_ALL
F_REMOVES = 1 << AB_REMOVES_HLT
F_HEAL_ALL = 1 << AB_HEAL_ALL

# the stages a turn goes through inside one call of _apply_action (RB-4)
_ACT, _PLAY, _DISCARD, _END = range(4)


def short_ability(ab: Ability) -> str:
    """A few words naming an ability (RB-8) for a card box of the picture, e.g. ``"return
    strike"``, ``"+1 DMG to Miner"``; the full English text is :func:`cards.ability_text`."""
    k, a = ab.kind, ab.amount
    whom = ab.trait or (f"{ab.icon} chars" if ab.icon else "friends")
    if k == "boost_dmg":
        return f"+{a} DMG to {whom}"
    if k == "boost_hlt":
        return f"+{a} HLT to {whom}"
    if k == "reduce":
        return f"-{a} damage taken"
    if k == "reduce_vs":
        return f"-{a} damage vs {ab.against}"
    if k == "lottery":
        return f"lottery: draw {a}" if ab.reward == "draw" else f"lottery: {a} DMG to all"
    if k == "draw":
        return f"on play: draw {a}"
    if k == "extra_dmg_vs":
        return f"+{a} DMG vs {ab.trait}"
    return {"paralysis_immune": "paralysis immune", "paralyse": "paralyses",
            "return_strike": "return strike", "hit_all": "hits all",
            "removes_hlt": "removes HLT", "heal_all": "heals all"}[k]


class Profile:
    """The effective abilities of one table slot: its card's own abilities plus those granted
    by its equipment (RB-5.7), as the engine reads them. Built once per (card, equipment) and
    shared; never mutated.

    Attributes:
        flags: bit ``1 << code`` for each flag ability (paralysis_immune, paralyse,
            return_strike, hit_all, removes_hlt, heal_all).
        dmg_bonus: the equipment's DMG (RB-8: an equipment's ``dmg`` is a bonus to its
            character).
        reduce: the flat reduction; reduce_melee / reduce_ranged: against those attacks;
        reduce_vs: ``(trait bit mask, amount)`` pairs against sources with a trait.
        extra_vs: ``(trait bit mask, amount)``: extra DMG against targets with a trait.
        boost_dmg: ``(amount, trait mask or 0, icon code or -1)``: DMG boosts it gives to
            other friendly cards.
        boost_hlt: ``(pair-key offset, amount, trait mask or 0, icon code or -1)``: HLT boosts
            it grants other friendly cards once (RB-6.14).
    """

    __slots__ = (
        "boost_dmg",
        "boost_hlt",
        "dmg_bonus",
        "extra_vs",
        "flags",
        "reduce",
        "reduce_melee",
        "reduce_ranged",
        "reduce_vs",
    )

    def __init__(self) -> None:
        self.flags = 0
        self.dmg_bonus = 0
        self.reduce = 0
        self.reduce_melee = 0
        self.reduce_ranged = 0
        self.reduce_vs: tuple = ()
        self.extra_vs: tuple = ()
        self.boost_dmg: tuple = ()
        self.boost_hlt: tuple = ()

    def __getstate__(self) -> dict:  # pickle with every protocol
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, data: dict) -> None:
        for name, value in data.items():
            setattr(self, name, value)

    def add(self, card, source: int, trait_bit: dict[str, int], icon_code: dict[str, int],
            equipment: bool) -> None:
        """Add ``card``'s abilities (``source`` 0: the card itself, ``1 + m``: its ``m``-th
        equipment)."""
        if equipment:
            self.dmg_bonus += card.dmg
        rv, ev, bd, bh = list(self.reduce_vs), list(self.extra_vs), list(self.boost_dmg), \
            list(self.boost_hlt)
        for k, ab in enumerate(card.abilities):
            code = ABILITY_KINDS.index(ab.kind)
            tm = trait_bit[ab.trait] if ab.trait else 0
            ic = icon_code[ab.icon] if ab.icon else -1
            if code == AB_REDUCE:
                self.reduce += ab.amount
            elif code == AB_REDUCE_VS:
                if ab.against == "melee":
                    self.reduce_melee += ab.amount
                elif ab.against == "ranged":
                    self.reduce_ranged += ab.amount
                else:
                    rv.append((trait_bit[ab.against], ab.amount))
            elif code == AB_EXTRA_DMG_VS:
                ev.append((tm, ab.amount))
            elif code == AB_BOOST_DMG:
                bd.append((ab.amount, tm, ic))
            elif code == AB_BOOST_HLT:
                bh.append((source * 16 + k, ab.amount, tm, ic))
            elif code in (AB_LOTTERY, AB_DRAW):
                pass  # on play (RB-6.6, RB-8), not a table effect
            else:
                self.flags |= 1 << code
        self.reduce_vs, self.extra_vs, self.boost_dmg, self.boost_hlt = \
            tuple(rv), tuple(ev), tuple(bd), tuple(bh)


class RustBrawlGame(GameBase[RBState]):
    """The Rust Brawl ``Game`` (contract: :mod:`card_envs.core.game`), 2 seats.

    Raises (construction): ConfigError for a wrong config value (named field), also a
    ``deck_point_limit`` below the cheapest card's points when a seat is dealt random decks;
    CardDataError for a malformed card database (file, entry, field named); DeckError /
    UnknownCardError for a deck that breaks RB-1 or names an unknown card (card and rule
    named).
    """

    name = "rust_brawl"
    version = 1
    num_players = 2
    state_class = RBState
    encoder_class = Encoder
    phases = PHASES
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, config: RustBrawlConfig):
        self.config = config
        db: CardDb = load_card_db(config.card_db)
        self.db = db
        if len(db) > 9_999:
            raise ConfigError(f"config field 'card_db': {db.source} holds {len(db)} cards, "
                              "at most 9999 are supported")
        self.num_cards = nc = len(db)
        trait_bit = {t: 1 << i for i, t in enumerate(TRAITS)}
        icon_code = {ic: i for i, ic in enumerate(ICONS)}
        self.trait_bit = trait_bit
        self.kind = [KINDS.index(c.kind) for c in db.cards]
        self.icon = [icon_code[c.icon] for c in db.cards]
        self.printed_dmg = [c.dmg for c in db.cards]
        self.printed_hlt = [c.hlt for c in db.cards]
        self.points = [c.points for c in db.cards]
        self.unique = [c.unique for c in db.cards]
        self.tmask = [sum(trait_bit[t] for t in c.traits) for c in db.cards]
        self.names = [c.name for c in db.cards]
        for c in db.cards:
            if len(c.abilities) > MAX_ABILITIES:
                raise ConfigError(f"config field 'card_db': card {c.label} has "
                                  f"{len(c.abilities)} abilities, at most {MAX_ABILITIES}")
        #: per card: its own profile (no equipment)
        self.profile0 = []
        for c in db.cards:
            prof = Profile()
            prof.add(c, 0, trait_bit, icon_code, equipment=False)
            self.profile0.append(prof)
        self._profiles: dict[tuple[int, ...], Profile] = {}
        #: per card: its on-play abilities in card order: ("lottery", reward, amount) /
        #: ("draw", amount)
        self.on_play = [tuple((a.kind, a.reward, a.amount) for a in c.abilities
                              if a.kind in ("lottery", "draw")) for c in db.cards]
        self.is_character = [k == CHARACTER for k in self.kind]
        # -- the decks the config deals (RB-3.4) ----------------------------------------------
        limit = config.deck_point_limit
        #: per seat the deck the config names, or None for a seat dealt a random legal deck
        #: (``decks=(..., "random")``); None as a whole: no seat's deck is named
        self.fixed_decks: list[tuple[str, list[int]] | None] | None = None
        self.deck_choices: list[tuple[str, list[int]]] = []
        if config.decks is None:
            try:
                for name, deck in sorted(shipped_decks(db).items()):
                    validate_deck(deck, db, limit)
                    self.deck_choices.append((name, sorted(db.by_id(i).index
                                                           for i in deck.cards)))
            except DeckError as e:
                raise DeckError(
                    f"config field 'decks': decks=None deals each seat one of the shipped decks, "
                    f"and a shipped deck does not fit this game (card_db={config.card_db!r}, "
                    f"deck_point_limit={limit}): {e} -- give the decks yourself (decks=(deck 0, "
                    f"deck 1): shipped deck names, deck files or card lists) or decks='random' "
                    f"(random legal decks of this card database)") from e
        elif config.decks != RANDOM_DECK:
            self.fixed_decks = []
            for spec in config.decks:
                if spec == RANDOM_DECK:  # this seat: a random legal deck from the reset seed
                    self.fixed_decks.append(None)
                    continue
                deck = load_deck(list(spec) if isinstance(spec, tuple) else spec, db, limit)
                self.fixed_decks.append((deck.name, sorted(db.by_id(i).index for i in deck.cards)))
        if config.decks == RANDOM_DECK or (self.fixed_decks is not None
                                           and None in self.fixed_decks):
            cheapest = min(db.cards, key=lambda c: (c.points, c.id))
            if cheapest.points > limit:  # RB-1.1 (>= 1 card) and RB-1.2 can never both hold
                raise ConfigError(
                    f"config field 'deck_point_limit': {limit} is below the cheapest card's "
                    f"points ({cheapest.label}, {cheapest.points} points): a seat dealt a "
                    f"random legal deck (decks={config.decks!r}, card_db={config.card_db!r}) "
                    f"could never get one; raise deck_point_limit to at least "
                    f"{cheapest.points}")
        self._shipped = dict(self.deck_choices)
        #: the one action layout (:func:`~card_envs.rust_brawl.constants.action_layout`)
        self.action_layout = action_layout(config.max_hand)
        self.a_discard = discard_start(config.max_hand)
        self.max_game_length = config.max_turns * (POSITIONS + 4) + 10
        self._points_eq = config.table_points_with_equipment
        self._first = config.attacker_leaves_cover_first
        assert nc >= 1

    # -- small public queries (the encoder, the state check, the bot read these) ---------------
    def card_name(self, c: int) -> str:
        """The printed name of card ``c``."""
        return self.names[c]

    def kind_name(self, c: int) -> str:
        """The kind of card ``c`` (RB-2.1)."""
        return KINDS[self.kind[c]]

    def card_text(self, c: int) -> str:
        """Card ``c``'s values and ability texts in English."""
        return card_text(self.db.cards[c])

    def turns_of(self, s: RBState, p: int) -> int:
        """How many turns seat ``p`` has started (the starter plays the odd turns)."""
        return (s.turn + (1 if p == s.starter else 0)) // 2

    def expected_deck(self, p: int) -> tuple[str, list[int]] | None:
        """``(name, sorted cards)`` of the deck the config deals seat ``p`` (``decks`` given),
        else ``None`` (also for a seat given ``"random"``)."""
        return None if self.fixed_decks is None else self.fixed_decks[p]

    def shipped_deck(self, name: str) -> list[int] | None:
        """The sorted cards of the shipped deck ``name`` (``decks=None``), or ``None``."""
        return self._shipped.get(name)

    def unnamed_deck_name(self, p: int) -> str:
        """The deck name of a deck not named by the config (``decks="random"``)."""
        return RANDOM_DECK

    def slot_profile(self, s: RBState, p: int, j: int) -> Profile:
        """The effective :class:`Profile` of the card at seat ``p``'s position ``j``."""
        eq = s.equipment[p][j]
        if not eq:
            return self.profile0[s.table[p][j]]
        return self.profile_of(s.table[p][j], eq)

    def profile_of(self, c: int, equipment) -> Profile:
        """The effective :class:`Profile` of card ``c`` holding the ``equipment`` cards (a
        sequence, in attachment order; built once per combination)."""
        if not equipment:
            return self.profile0[c]
        key = (c, *equipment)
        prof = self._profiles.get(key)
        if prof is None:
            icon_code = {ic: i for i, ic in enumerate(ICONS)}
            prof = Profile()
            prof.add(self.db.cards[c], 0, self.trait_bit, icon_code, equipment=False)
            for m, e in enumerate(equipment):
                prof.add(self.db.cards[e], 1 + m, self.trait_bit, icon_code, equipment=True)
            self._profiles[key] = prof
        return prof

    def slot_immune(self, s: RBState, p: int, j: int) -> bool:
        """Whether the card at ``(p, j)`` cannot be paralysed (RB-8 paralysis_immune)."""
        return bool(self.slot_profile(s, p, j).flags & F_IMMUNE)

    def _boost_matches(self, c: int, tm: int, ic: int) -> bool:
        if tm and not self.tmask[c] & tm:
            return False
        if ic >= 0 and (self.kind[c] != CHARACTER or self.icon[c] != ic):
            return False
        return True

    def slot_dmg(self, s: RBState, p: int, j: int) -> int:
        """DMG of the card at ``(p, j)`` with boosts (RB-6.1, RB-6.5): printed DMG, its
        equipment's DMG, and the DMG boosts of the other living friendly table cards whose
        filter (trait, action icon) it matches. Extra DMG against a target's trait is not
        included."""
        row, hlt, eqs = s.table[p], s.hlt[p], s.equipment[p]
        c = row[j]
        prof0 = self.profile0
        d = self.printed_dmg[c]
        if eqs[j]:
            d += self.profile_of(c, eqs[j]).dmg_bonus
        for b in range(POSITIONS):
            cb = row[b]
            if cb < 0:
                break
            if b == j or hlt[b] <= 0:
                continue
            boosts = self.profile_of(cb, eqs[b]).boost_dmg if eqs[b] else prof0[cb].boost_dmg
            for amount, tm, ic in boosts:
                if self._boost_matches(c, tm, ic):
                    d += amount
        return d

    def side_dmg(self, s: RBState, p: int) -> list[int]:
        """:meth:`slot_dmg` of seat ``p``'s four positions at once (0 for an empty one)."""
        row, hlt, eqs = s.table[p], s.hlt[p], s.equipment[p]
        prof0, dmg = self.profile0, self.printed_dmg
        out = [0] * POSITIONS
        boosters = []
        n = 0
        for b in range(POSITIONS):
            cb = row[b]
            if cb < 0:
                break
            n = b + 1
            prof = self.profile_of(cb, eqs[b]) if eqs[b] else prof0[cb]
            out[b] = dmg[cb] + prof.dmg_bonus
            if prof.boost_dmg and hlt[b] > 0:
                boosters.append((b, prof.boost_dmg))
        for b, boosts in boosters:
            for j in range(n):
                if j == b:
                    continue
                c = row[j]
                for amount, tm, ic in boosts:
                    if self._boost_matches(c, tm, ic):
                        out[j] += amount
        return out

    @staticmethod
    def _extra(prof: Profile, target_tmask: int) -> int:
        x = 0
        for tm, amount in prof.extra_vs:
            if target_tmask & tm:
                x += amount
        return x

    def _deal(self, s: RBState, base: int, q: int, t: int, src_tmask: int, atype: int) -> int:
        """The damage ``base`` DMG does to the card at ``(q, t)`` (RB-6.1, RB-6.2): halved
        (rounded down) in cover, then its flat reduction, its reductions against the source's
        traits, and (``atype`` MELEE / RANGED; -1 for none) against that attack type."""
        if s.cover[q][t]:
            base //= 2
        prof = self.slot_profile(s, q, t)
        red = prof.reduce
        for tm, amount in prof.reduce_vs:
            if src_tmask & tm:
                red += amount
        if atype == MELEE:
            red += prof.reduce_melee
        elif atype == RANGED:
            red += prof.reduce_ranged
        d = base - red
        return d if d > 0 else 0

    def living(self, s: RBState, p: int) -> list[int]:
        """Seat ``p``'s positions holding a card not destroyed (RB-6.1)."""
        row, hlt = s.table[p], s.hlt[p]
        return [j for j in range(POSITIONS) if row[j] >= 0 and hlt[j] > 0]

    def ranged_targets(self, s: RBState, p: int) -> list[int]:
        """The opposing positions a ranged attack of seat ``p`` may target (RB-5.2): the living
        vehicles while there is one, else every living opposing card."""
        q = 1 - p
        living = self.living(s, q)
        kind, row = self.kind, s.table[q]
        vehicles = [t for t in living if kind[row[t]] == VEHICLE]
        return vehicles or living

    def heal_targets(self, s: RBState, p: int, j: int) -> list[int]:
        """The own positions the healer at ``j`` may heal (RB-5.3, RB-5.4): living cards below
        their maximum HLT (itself too with ``heal_self``)."""
        hlt, mx = s.hlt[p], s.max_hlt[p]
        self_ok = self.config.heal_self
        return [t for t in self.living(s, p) if hlt[t] < mx[t] and (self_ok or t != j)]

    def attack_targets(self, s: RBState, p: int, j: int) -> list[int]:
        """The opposing positions the attacker at ``(p, j)`` may hit: hit_all: every living
        opposing character (RB-2.4); melee: the living card at the same position (RB-5.1);
        ranged: :meth:`ranged_targets`. Empty: it goes into cover (RB-5.4)."""
        q = 1 - p
        if self.slot_profile(s, p, j).flags & F_HIT_ALL:
            row = s.table[q]
            return [t for t in self.living(s, q) if self.kind[row[t]] == CHARACTER]
        if self.icon[s.table[p][j]] == MELEE:
            return [j] if s.table[q][j] >= 0 and s.hlt[q][j] > 0 else []
        return self.ranged_targets(s, p)

    def can_act(self, s: RBState, p: int, j: int) -> bool:
        """A living, unparalysed character at ``(p, j)`` (RB-4.2, RB-5.6, RB-6.4)."""
        c = s.table[p][j]
        return (c >= 0 and self.kind[c] == CHARACTER and s.hlt[p][j] > 0
                and not s.paralysed_until[p][j])

    def ranged_decision(self, s: RBState, p: int, j: int) -> bool:
        """Whether the card at ``(p, j)`` faces a ranged-target choice: a ranged character
        that can act, without hit_all, with two or more targets."""
        return (self.can_act(s, p, j) and self.icon[s.table[p][j]] == RANGED
                and not self.slot_profile(s, p, j).flags & F_HIT_ALL
                and len(self.ranged_targets(s, p)) > 1)

    def heal_decision(self, s: RBState, p: int, j: int) -> bool:
        """Whether the card at ``(p, j)`` faces a heal-target choice: a healer that can act,
        without heal_all, with two or more targets."""
        return (self.can_act(s, p, j) and self.icon[s.table[p][j]] == HEAL
                and not self.slot_profile(s, p, j).flags & F_HEAL_ALL
                and len(self.heal_targets(s, p, j)) > 1)

    def equip_targets(self, s: RBState, p: int) -> list[int]:
        """Own positions an equipment may go to (RB-4.3): living characters holding fewer than
        ``equipment_per_character`` equipment cards."""
        row, kind, eq = s.table[p], self.kind, s.equipment[p]
        most = self.config.equipment_per_character
        return [j for j in self.living(s, p) if kind[row[j]] == CHARACTER and len(eq[j]) < most]

    def playable(self, s: RBState, p: int, c: int) -> bool:
        """Whether seat ``p`` may play card ``c`` now (RB-4.3): a character, vehicle or support
        needs a free position (a destroyed card still holds its own, RB-4.6); an equipment a
        character it can go to; an explosive is always playable."""
        k = self.kind[c]
        if k == EXPLOSIVE:
            return True
        if k == EQUIPMENT:
            return bool(self.equip_targets(s, p))
        return s.table[p][POSITIONS - 1] < 0

    def legal_actions_of(self, s: RBState) -> list[int]:
        """The legal actions of ``s`` computed afresh (not cached; :meth:`legal_actions` is the
        cached form)."""
        return self._legal_actions(s)

    # -- set-up (RB-3) ----------------------------------------------------------------------------
    def new_state(self, seed: int) -> RBState:
        rng = make_rng(seed)
        decklists, names = [], []
        for p in range(2):
            if self.fixed_decks is not None and self.fixed_decks[p] is not None:
                name, cards = self.fixed_decks[p]
            elif self.deck_choices:  # decks=None: a shipped deck by the seed (RB-3.4)
                name, cards = self.deck_choices[rng.randrange(len(self.deck_choices))]
            else:  # decks="random", or this seat's spec is "random"
                deck = random_deck(self.db, rng, self.config.deck_point_limit)
                name, cards = RANDOM_DECK, sorted(self.db.by_id(i).index for i in deck.cards)
            decklists.append(list(cards))
            names.append(name)
        decks = [d[:] for d in decklists]
        for d in decks:
            rng.shuffle(d)
        starter = rng.randrange(2)  # RB-3.2 by lot
        blank = [[0] * POSITIONS for _ in range(2)]
        s = RBState(
            rng=rng, phase=PLAY, player=starter, starter=starter, turn=0,
            decklists=decklists, deck_names=names, decks=decks, hands=[[], []],
            graveyards=[[], []], table=[[-1] * POSITIONS for _ in range(2)],
            hlt=[r[:] for r in blank], max_hlt=[r[:] for r in blank],
            cover=[[False] * POSITIONS for _ in range(2)],
            paralysed_until=[r[:] for r in blank], serial=[r[:] for r in blank],
            equipment=[[[] for _ in range(POSITIONS)] for _ in range(2)],
            granted=[[[] for _ in range(POSITIONS)] for _ in range(2)],
            next_serial=1, acting=POSITIONS, pending=-1, changed=False, quiet_turns=0,
            table_marks=[[], []], marks_from=0, winner=-1, end_reason="",
        )
        self._draw(s, starter, STARTER_DRAW)
        self._draw(s, 1 - starter, OTHER_DRAW)
        if not any(self.is_character[c] for d in decklists for c in d):
            self._finish(s, -1, "no_characters")  # RB-7.3: nobody can ever play a character
            return s
        self._start_turn(s, starter)
        if s.phase != END:
            self._continue(s, _ACT)
        return s

    # -- contract: queries ----------------------------------------------------------------------
    def current_player(self, state: RBState) -> int:
        return state.player

    def is_terminal(self, state: RBState) -> bool:
        return state.phase == END

    def is_truncated(self, state: RBState) -> bool:
        """Over by the turn cap (RB-7.4 ``max_turns``)."""
        return state.end_reason == "turn_cap"

    def returns(self, state: RBState) -> list[float]:
        """+1 for the winner, -1 for the loser; 0 / 0 for a draw, a truncation or mid-game."""
        if state.phase != END or state.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if state.winner == 0 else [-1.0, 1.0]

    def _legal_actions(self, s: RBState) -> list[int]:
        ph, p = s.phase, s.player
        if ph == PLAY:
            return [A_PASS] + [A_PLAY + i for i in self._play_slots(s, p)]
        if ph == RANGED_TARGET:
            return [A_RANGED + t for t in self.ranged_targets(s, p)]
        if ph == HEAL_TARGET:
            return [A_HEAL + t for t in self.heal_targets(s, p, s.acting)]
        if ph == DISCARD:
            return [self.a_discard + i for i in self._distinct_slots(s.hands[p])]
        if ph == PLAY_OR_DISCARD:
            return ([A_PLAY + i for i in self._play_slots(s, p)]
                    + [self.a_discard + i for i in self._distinct_slots(s.hands[p])])
        if ph == EQUIP_TARGET:
            return [A_EQUIP + t for t in self.equip_targets(s, p)]
        return []

    @staticmethod
    def _distinct_slots(hand: list[int]) -> list[int]:
        """The first hand slot of each distinct card (copies are interchangeable)."""
        return [i for i, c in enumerate(hand) if i == 0 or hand[i - 1] != c]

    def _play_slots(self, s: RBState, p: int) -> list[int]:
        hand = s.hands[p]
        out = []
        prev = -1
        free = s.table[p][POSITIONS - 1] < 0
        can_equip = None
        kind = self.kind
        for i, c in enumerate(hand):
            if c == prev:
                continue
            prev = c
            k = kind[c]
            if k == EXPLOSIVE:
                out.append(i)
            elif k == EQUIPMENT:
                if can_equip is None:
                    can_equip = bool(self.equip_targets(s, p))
                if can_equip:
                    out.append(i)
            elif free:
                out.append(i)
        return out

    # -- contract: transitions --------------------------------------------------------------------
    def _apply_action(self, s: RBState, action: int) -> None:
        """One legal decision of the seat to act, then the turn runs on to the next decision
        (the core has checked the action)."""
        ph, p = s.phase, s.player
        if ph == RANGED_TARGET:
            self._attack(s, p, s.acting, [action - A_RANGED])
            s.acting += 1
            self._continue(s, _ACT)
        elif ph == HEAL_TARGET:
            self._heal(s, p, s.acting, [action - A_HEAL])
            s.acting += 1
            self._continue(s, _ACT)
        elif ph == EQUIP_TARGET:
            c = s.pending
            s.pending = -1
            self._attach(s, p, action - A_EQUIP, c)
            self._on_play(s, p, c)
            self._continue(s, _DISCARD)
        elif ph == DISCARD:
            self._discard(s, p, action - self.a_discard)
            self._continue(s, _END)
        else:  # PLAY, PLAY_OR_DISCARD (RB-4.3)
            if action >= self.a_discard:
                self._discard(s, p, action - self.a_discard)
            elif action != A_PASS:
                if self._play(s, p, action - A_PLAY):
                    return  # the equipment's character is chosen next
            self._continue(s, _DISCARD)

    def _continue(self, s: RBState, stage: int) -> None:
        """Run the turn from ``stage`` on until a decision with two or more choices or the end
        of the game (the next player's turns included)."""
        while True:
            p = s.player
            if stage == _ACT:
                if self._action_step(s, p):
                    return
                stage = _PLAY
            if stage == _PLAY:
                if self._play_step(s, p):
                    return
                stage = _DISCARD
            if stage == _DISCARD:
                if self._discard_step(s, p):
                    return
            self._end_turn(s, p)
            if s.phase == END:
                return
            self._start_turn(s, 1 - p)
            if s.phase == END:
                return
            stage = _ACT

    def _start_turn(self, s: RBState, p: int) -> None:
        """RB-4.1: the turn begins; draw 1 card (``empty_deck``: nothing happens, or the player
        who cannot draw loses)."""
        s.player = p
        s.turn += 1
        s.changed = False
        s.acting = 0
        if not s.decks[p] and self.config.empty_deck == "lose":
            self._finish(s, 1 - p, "empty_deck")
            return
        self._draw(s, p, 1)

    def _draw(self, s: RBState, p: int, n: int) -> None:
        """Draw ``n`` cards (fewer from a short deck); a card beyond ``max_hand`` goes straight
        to the graveyard (RB-4.4)."""
        deck, hand = s.decks[p], s.hands[p]
        limit = self.config.max_hand
        for _ in range(n):
            if not deck:
                return
            c = deck.pop()
            if len(hand) >= limit:
                s.graveyards[p].append(c)
            else:
                insort(hand, c)

    # -- RB-4.2 the action step --------------------------------------------------------------------
    def _action_step(self, s: RBState, p: int) -> bool:
        """Every own table card acts in position order (RB-4.2) from ``s.acting``; True when a
        target decision is pending (phase set)."""
        row = s.table[p]
        while s.acting < POSITIONS:
            j = s.acting
            if row[j] < 0:
                break
            if self._act(s, p, j):
                return True
            s.acting = j + 1
        s.acting = POSITIONS
        return False

    def _act(self, s: RBState, p: int, j: int) -> bool:
        """The action of the card at ``(p, j)`` (RB-5): a destroyed, paralysed, vehicle or
        support card does nothing (RB-6.1, RB-6.4, RB-5.6); a character performs its action
        when it has a valid target, else goes into cover (RB-5.4). True when its target is
        a decision (phase set)."""
        c = s.table[p][j]
        if self.kind[c] != CHARACTER or s.hlt[p][j] <= 0 or s.paralysed_until[p][j]:
            return False
        eq = s.equipment[p][j]
        flags = self.profile_of(c, eq).flags if eq else self.profile0[c].flags
        ic = self.icon[c]
        if ic == MELEE and not flags & F_HIT_ALL:  # RB-5.1: the same position
            q = 1 - p
            if s.table[q][j] >= 0 and s.hlt[q][j] > 0:
                self._attack(s, p, j, [j])
            else:
                s.cover[p][j] = True
            return False
        if ic == HEAL:
            targets = self.heal_targets(s, p, j)
            if not targets:
                s.cover[p][j] = True
                return False
            if len(targets) == 1 or flags & F_HEAL_ALL:
                self._heal(s, p, j, targets)
                return False
            s.phase = HEAL_TARGET
            return True
        targets = self.attack_targets(s, p, j)
        if not targets:
            s.cover[p][j] = True
            return False
        if len(targets) > 1 and not flags & F_HIT_ALL:
            s.phase = RANGED_TARGET
            return True
        self._attack(s, p, j, targets)
        return False

    def _heal(self, s: RBState, p: int, j: int, targets: list[int]) -> None:
        """RB-5.3: heal each target up to the healer's DMG with boosts (RB-6.16), never above
        its maximum; the healer leaves cover (RB-5.4)."""
        amount = self.slot_dmg(s, p, j)
        s.cover[p][j] = False
        hlt, mx = s.hlt[p], s.max_hlt[p]
        for t in targets:
            gain = min(amount, mx[t] - hlt[t])
            if gain > 0:
                hlt[t] += gain
                s.changed = True

    def _attack(self, s: RBState, p: int, j: int, targets: list[int]) -> None:
        """The attack of the card at ``(p, j)`` on the opposing ``targets`` (RB-5.1, RB-5.2,
        RB-2.4), all at the same time (RB-6.11): every hit and every returned strike is
        computed from the table before the attack, then applied.

        The attacker leaves cover as the attack starts (RB-6.8; ``attacker_leaves_cover_first``).
        Each hit deals the attacker's DMG with boosts and extra DMG against the target's
        traits (RB-6.13), halved in cover, less the target's reductions (RB-6.1, RB-6.2); a
        removes-HLT attacker removes its printed DMG instead (RB-6.3). A paralysing attacker
        paralyses every target not immune (RB-6.4, RB-6.12). A character target with return
        strike that was not paralysed before the attack deals its DMG back (RB-6.7, RB-6.10:
        not an attack, no melee/ranged reductions) and leaves cover unless the attack
        paralysed it (RB-6.9)."""
        q = 1 - p
        c = s.table[p][j]
        eq = s.equipment[p][j]
        prof0, tmask = self.profile0, self.tmask
        prof = self.profile_of(c, eq) if eq else prof0[c]
        if self._first:
            s.cover[p][j] = False
        flags = prof.flags
        removes = flags & F_REMOVES
        para = flags & F_PARALYSE
        atype = self.icon[c]
        tm_c = tmask[c]
        base = self.slot_dmg(s, p, j)
        extra_vs = prof.extra_vs
        qrow, qpar, qeq, qcover = s.table[q], s.paralysed_until[q], s.equipment[q], s.cover[q]
        hits = []
        for t in targets:
            tc = qrow[t]
            tprof = self.profile_of(tc, qeq[t]) if qeq[t] else prof0[tc]
            if removes:  # RB-6.3: the printed amount, no reduction
                d = self.printed_dmg[c]
            else:
                b = base + self._extra(prof, tmask[tc]) if extra_vs else base
                if qcover[t]:
                    b //= 2
                red = tprof.reduce + (tprof.reduce_melee if atype == MELEE
                                      else tprof.reduce_ranged)
                for tm, amount in tprof.reduce_vs:
                    if tm_c & tm:
                        red += amount
                d = b - red if b > red else 0
            paralysed = bool(para) and not tprof.flags & F_IMMUNE
            ret = -1
            if tprof.flags & F_RETURN and self.kind[tc] == CHARACTER and not qpar[t]:
                sdmg = self.slot_dmg(s, q, t) + self._extra(tprof, tm_c)
                ret = self._deal(s, sdmg, p, j, tmask[tc], -1)
            hits.append((t, d, paralysed, ret))
        if not self._first:
            s.cover[p][j] = False
        turn_q = self.turns_of(s, q) + self.config.paralysis_turns
        qhlt = s.hlt[q]
        for t, d, paralysed, ret in hits:
            if d:
                qhlt[t] -= d
                s.changed = True
            if paralysed and qpar[t] < turn_q:
                qpar[t] = turn_q
            if ret >= 0:
                if ret:
                    s.hlt[p][j] -= ret
                    s.changed = True
                if not paralysed:
                    qcover[t] = False

    # -- RB-4.3 the play step --------------------------------------------------------------------
    def _play_step(self, s: RBState, p: int) -> bool:
        """True when the play decision is pending (phase set). Nothing to decide: no hand;
        a non-empty table and nothing playable (a pass); an empty table and one possible
        move (it is made)."""
        hand = s.hands[p]
        if not hand:
            return False
        if s.table[p][0] >= 0:
            if not self._play_slots(s, p):
                return False
            s.phase = PLAY
            return True
        s.phase = PLAY_OR_DISCARD  # RB-4.3, RB-4.6: no card on the table
        legal = self._legal_actions(s)
        if len(legal) > 1:
            return True
        a = legal[0]
        if a >= self.a_discard:
            self._discard(s, p, a - self.a_discard)
            return False
        return self._play(s, p, a - A_PLAY)  # unreachable with one distinct card: kept simple

    def _play(self, s: RBState, p: int, i: int) -> bool:
        """Play hand slot ``i`` (RB-4.3). True when an equipment's character is to be chosen
        (phase set)."""
        c = s.hands[p].pop(i)
        s.changed = True
        k = self.kind[c]
        if k == EQUIPMENT:
            targets = self.equip_targets(s, p)
            if len(targets) > 1:
                s.pending = c
                s.phase = EQUIP_TARGET
                return True
            self._attach(s, p, targets[0], c)
        elif k == EXPLOSIVE:
            self._explode(s, p, c)
            s.graveyards[p].append(c)
        else:
            self._place(s, p, c)
        self._on_play(s, p, c)
        return False

    def _place(self, s: RBState, p: int, c: int) -> None:
        """A character, vehicle or support goes in cover to the lowest free position (RB-4.3,
        RB-6.2); HLT boosts are granted (RB-6.14)."""
        j = s.table[p].index(-1)
        s.table[p][j] = c
        s.hlt[p][j] = s.max_hlt[p][j] = self.printed_hlt[c]
        s.cover[p][j] = True
        s.serial[p][j] = s.next_serial
        s.next_serial += 1
        self._grant_hlt(s, p)

    def _attach(self, s: RBState, p: int, j: int, e: int) -> None:
        """Equipment ``e`` goes to the character at ``(p, j)`` (RB-5.7): its HLT is gained once
        (current and maximum), its abilities are granted (a granted paralysis immunity ends a
        paralysis); HLT boosts are granted (RB-6.14)."""
        s.equipment[p][j].append(e)
        gain = self.printed_hlt[e]
        s.hlt[p][j] += gain
        s.max_hlt[p][j] += gain
        if s.paralysed_until[p][j] and self.slot_profile(s, p, j).flags & F_IMMUNE:
            s.paralysed_until[p][j] = 0  # it can no longer be paralysed (RB-8)
        self._grant_hlt(s, p)

    def _grant_hlt(self, s: RBState, p: int) -> None:
        """RB-6.14: every living booster of seat ``p`` grants each other living friendly card
        matching its filter its HLT boost once per (booster, card) pair."""
        row, hlt = s.table[p], s.hlt[p]
        live = [j for j in range(POSITIONS) if row[j] >= 0 and hlt[j] > 0]
        for b in live:
            boosts = self.slot_profile(s, p, b).boost_hlt
            if not boosts:
                continue
            serial = s.serial[p][b]
            for off, amount, tm, ic in boosts:
                source, k = divmod(off, 16)
                for t in live:
                    if t == b or not self._boost_matches(row[t], tm, ic):
                        continue
                    grants = s.granted[p][t]
                    if any(g.booster == serial and g.source == source and g.ability == k
                           for g in grants):
                        continue
                    insort(grants, HltBoost(serial, source, k, amount),
                           key=lambda g: (g.booster, g.source, g.ability))
                    hlt[t] += amount
                    s.max_hlt[p][t] += amount
                    s.changed = True

    def _explode(self, s: RBState, p: int, x: int) -> None:
        """RB-5.5, RB-6.17: explosive ``x`` deals its DMG, raised by the unfiltered and
        trait-matching DMG boosts of the living own table cards and by its extra DMG against
        a target's trait, to every living opposing table card (cover, flat and trait reductions
        apply; it is not an attack)."""
        q = 1 - p
        row, hlt = s.table[p], s.hlt[p]
        boost = 0
        tmx = self.tmask[x]
        for b in range(POSITIONS):
            if row[b] < 0:
                break
            if hlt[b] <= 0:
                continue
            for amount, tm, ic in self.slot_profile(s, p, b).boost_dmg:
                if ic < 0 and (not tm or tmx & tm):
                    boost += amount
        base = self.printed_dmg[x] + boost
        prof = self.profile0[x]
        qrow = s.table[q]
        hits = [(t, self._deal(s, base + self._extra(prof, self.tmask[qrow[t]]), q, t, tmx, -1))
                for t in self.living(s, q)]
        for t, d in hits:
            if d:
                s.hlt[q][t] -= d
                s.changed = True

    def _on_play(self, s: RBState, p: int, c: int) -> None:
        """The played card's on-play abilities in card order: lottery (RB-6.6) and draw
        (RB-8)."""
        for kind, reward, amount in self.on_play[c]:
            if kind == "draw":
                self._draw(s, p, amount)
            elif self.lottery(s, p):
                if reward == "draw":
                    self._draw(s, p, amount)
                else:  # deal amount DMG to every opposing table card (not an attack)
                    q = 1 - p
                    tmc = self.tmask[c]
                    hits = [(t, self._deal(s, amount, q, t, tmc, -1)) for t in self.living(s, q)]
                    for t, d in hits:
                        if d:
                            s.hlt[q][t] -= d
                            s.changed = True

    def lottery(self, s: RBState, caller: int) -> bool:
        """RB-6.6: each player reveals the top card of their deck; the higher point value
        wins, a tie goes to ``caller``, an empty deck counts 0; both decks are then shuffled
        (the revealed cards stay in them). Returns whether ``caller`` won."""
        top = [d[-1] if d else -1 for d in s.decks]
        value = [self.points[c] if c >= 0 else 0 for c in top]
        s.rng.shuffle(s.decks[0])
        s.rng.shuffle(s.decks[1])
        return value[caller] >= value[1 - caller]

    # -- RB-4.4 discard --------------------------------------------------------------------------
    def _discard_step(self, s: RBState, p: int) -> bool:
        """RB-4.4: with more than 4 cards in hand, discard 1 (a decision unless all copies of
        one card)."""
        hand = s.hands[p]
        if len(hand) <= HAND_KEEP:
            return False
        if hand[0] == hand[-1]:
            self._discard(s, p, 0)
            return False
        s.phase = DISCARD
        return True

    def _discard(self, s: RBState, p: int, i: int) -> None:
        c = s.hands[p].pop(i)
        s.graveyards[p].append(c)

    # -- RB-4.5 end of turn, RB-7 victory --------------------------------------------------------
    def _end_turn(self, s: RBState, p: int) -> None:
        """RB-4.5: destroyed cards go to their owners' graveyards with their equipment, the
        others shift down keeping their order; the player's expired paralyses end (RB-6.4);
        then the victory checks (RB-7.4) and the turn cap."""
        isc = self.is_character
        has = [False, False]
        for x in range(2):
            row, hlt = s.table[x], s.hlt[x]
            destroyed = False
            for j in range(POSITIONS):
                c = row[j]
                if c < 0:
                    break
                if hlt[j] <= 0:
                    destroyed = True
                elif isc[c]:
                    has[x] = True
            if destroyed:
                self._remove_destroyed(s, x)
                s.changed = True
        tp = self.turns_of(s, p)
        par = s.paralysed_until[p]
        for j in range(POSITIONS):
            if par[j] and par[j] <= tp:
                par[j] = 0
        s.acting = POSITIONS
        # RB-7.4 (a), (b) (has: a living character on the table, after the removal)
        if has[0] != has[1]:
            y = 0 if has[1] else 1
            if not self._can_play_character(s, y):
                self._finish(s, 1 - y, "last_character")
                return
        elif not has[0] and not self._can_play_character(s, 0) \
                and not self._can_play_character(s, 1):
            self._finish(s, -1, "no_characters")
            return
        # RB-7.4 (c), RB-7.5; stalemate_repeats: the table repeats the one at the end of this
        # player's previous turn; stalemate_cycles (RB-7.6): the one at the end of any earlier
        # turn of this player since a card was last played, discarded or destroyed (a
        # heal-vs-damage cycle of any period, RB-7.2)
        empty = not s.decks[0] and not s.decks[1]
        quiet = empty and not s.changed
        cfg = self.config
        if empty and (cfg.stalemate_repeats or cfg.stalemate_cycles):
            mark = table_mark(s, [self.turns_of(s, 0), self.turns_of(s, 1)])
            marks = s.table_marks
            kept = marks[0] or marks[1]
            if kept and mark_counts(kept[0]) != mark_counts(mark):
                marks[0].clear()  # a card was played, discarded or destroyed since
                marks[1].clear()
                kept = []
            if not kept:
                s.marks_from = s.turn
            own = marks[p]
            if cfg.stalemate_cycles:
                quiet = quiet or mark in own
                own.append(mark)
            else:
                quiet = quiet or (bool(own) and own[-1] == mark)
                own[:] = [mark]
        if quiet:
            s.quiet_turns += 1
        else:
            s.quiet_turns = 0
        if s.quiet_turns >= 2 * self.config.stalemate_turns:
            a, b = self.table_points(s, 0), self.table_points(s, 1)
            self._finish(s, 0 if a > b else (1 if b > a else -1), "stalemate")
            return
        if s.turn >= self.config.max_turns:
            self._finish(s, -1, "turn_cap")

    def _can_play_character(self, s: RBState, p: int) -> bool:
        isc = self.is_character
        return any(isc[c] for c in s.hands[p]) or any(isc[c] for c in s.decks[p])

    def table_points(self, s: RBState, p: int) -> int:
        """RB-7.2, RB-7.5: the point sum of seat ``p``'s living table cards (with their
        attached equipment when ``table_points_with_equipment``)."""
        pts = self.points
        total = 0
        for j in self.living(s, p):
            total += pts[s.table[p][j]]
            if self._points_eq:
                total += sum(pts[e] for e in s.equipment[p][j])
        return total

    def _remove_destroyed(self, s: RBState, x: int) -> None:
        """RB-4.5: seat ``x``'s destroyed cards (and their equipment) to its graveyard, the
        others down to the lowest positions in their order."""
        keep = []
        grave = s.graveyards[x]
        row, hlt, eqs = s.table[x], s.hlt[x], s.equipment[x]
        for j in range(POSITIONS):
            c = row[j]
            if c < 0:
                break
            if hlt[j] > 0:
                keep.append(j)
            else:
                grave.append(c)
                grave.extend(eqs[j])
        pad = POSITIONS - len(keep)
        s.table[x] = [row[j] for j in keep] + [-1] * pad
        s.hlt[x] = [hlt[j] for j in keep] + [0] * pad
        mx, cv, par, ser, gr = (s.max_hlt[x], s.cover[x], s.paralysed_until[x], s.serial[x],
                                s.granted[x])
        s.max_hlt[x] = [mx[j] for j in keep] + [0] * pad
        s.cover[x] = [cv[j] for j in keep] + [False] * pad
        s.paralysed_until[x] = [par[j] for j in keep] + [0] * pad
        s.serial[x] = [ser[j] for j in keep] + [0] * pad
        s.equipment[x] = [eqs[j] for j in keep] + [[] for _ in range(pad)]
        s.granted[x] = [gr[j] for j in keep] + [[] for _ in range(pad)]

    def _finish(self, s: RBState, winner: int, reason: str) -> None:
        s.phase = END
        s.player = -1
        s.winner = winner
        s.end_reason = reason
        s.pending = -1
        s.acting = POSITIONS

    # -- the card-balance report (card_envs.evaluation.balance, docs/balance.md) ----------------
    def balance_deal(self, seed: int) -> list[list[str]]:
        """Two random legal decks (RB-1.1, RB-1.2: ``cards.random_deck`` at
        ``deck_point_limit``), seat 0's then seat 1's from one ``random.Random(seed)``; each a
        sorted list of card ids, one per copy."""
        rng = random.Random(seed)
        limit = self.config.deck_point_limit
        return [list(random_deck(self.db, rng, limit).cards) for _seat in range(2)]

    def balance_config(self, sets: list) -> dict[str, Any]:
        """``{"decks": sets}``: seat ``i`` plays the deck ``sets[i]`` (RB-3.4)."""
        return {"decks": [list(deck) for deck in sets]}

    def cards_in_set(self, card_set) -> tuple[str, ...]:
        """A deck's card ids (one per copy)."""
        return tuple(card_set)

    def card_played(self, state: RBState, action: int) -> str | None:
        """The id of the hand card a ``play`` action plays, attaches or explodes (RB-4.3);
        ``None`` for every other action."""
        if state.phase in (PLAY, PLAY_OR_DISCARD) and A_PLAY <= action < self.a_discard:
            return self.db.cards[state.hands[state.player][action - A_PLAY]].id
        return None

    def starting_player(self, state: RBState) -> int:
        """The starting player chosen by lot (RB-3.2)."""
        return state.starter

    def balance_card_names(self) -> dict[str, str]:
        """Every card of the database: id -> printed name."""
        return {c.id: c.name for c in self.db.cards}

    # -- optional hooks --------------------------------------------------------------------------
    def potential(self, state: RBState, player: int) -> float:
        """``player``'s standing in [-1, 1] from public facts: the own living table point sum
        (RB-7.2) minus the opponent's, over 100, clipped."""
        return lead([self.table_points(state, 0), self.table_points(state, 1)], player, 100.0)

    def lookahead_horizon(self, state: RBState) -> int | None:
        """The turn number (a lookahead plays to the end of the current turn); ``None`` at the
        end."""
        return None if state.phase == END else state.turn

    # -- strings ---------------------------------------------------------------------------------
    def describe_action(self, state: RBState, piece: str, index: int) -> str | None:
        """The card a hand-slot action names (``"play 2: Ospalý Vstupař"``) and the card at
        the position a target action names (``"ranged 1: Pouštní Bugina (HLT 3/5)"``)."""
        s, p = state, state.player
        if p < 0:
            return None
        if piece in ("play", "discard"):
            hand = s.hands[p]
            return self.names[hand[index]] if index < len(hand) else None
        if piece == "pass":
            return None
        side = 1 - p if piece == "ranged" else p
        c = s.table[side][index]
        if c < 0:
            return None
        what = f"{self.names[c]} (HLT {s.hlt[side][index]}/{s.max_hlt[side][index]})"
        if piece == "equip" and s.pending >= 0:
            return f"{self.names[s.pending]} to {what}"
        return what

    def action_seen_by(self, state: RBState, action: int, player: int) -> str:
        """The action as ``player`` sees it. A card another seat plays or discards is public at
        once (it stands on the table or lies in the graveyard), so it is named; only its hand
        slot is not (the sorted hand's order would tell the other cards apart): ``"play:
        <name>"``, ``"discard: <name>"``. Drawn cards are never named (the draw is no action)."""
        if player != state.player:
            piece = self.action_layout.piece_of(action)
            if piece.name in ("play", "discard"):
                card = state.hands[state.player][action - piece.start]
                return f"{piece.name}: {self.names[card]}"
        return self.action_to_string(state, action)

    def _slot_text(self, s: RBState, p: int, j: int) -> str:
        c = s.table[p][j]
        if c < 0:
            return f"    {j + 1}: -"
        flags = []
        if s.hlt[p][j] <= 0:
            flags.append("destroyed")
        if s.cover[p][j]:
            flags.append("cover")
        if s.paralysed_until[p][j]:
            flags.append(f"paralysed (to turn {s.paralysed_until[p][j]} of seat {p})")
        eq = ", ".join(self.names[e] for e in s.equipment[p][j])
        head = (f"    {j + 1}: {self.names[c]} [{KINDS[self.kind[c]]}/{ICONS[self.icon[c]]}] "
                f"HLT {s.hlt[p][j]}/{s.max_hlt[p][j]} DMG {self.slot_dmg(s, p, j)}"
                + (f" {' '.join(flags)}" if flags else "") + (f" equipment: {eq}" if eq else ""))
        texts = [self.card_text(c)] + [f"{self.names[e]}: {self.card_text(e)}"
                                       for e in s.equipment[p][j]]
        texts = [x for x in texts if x]
        if not texts:
            return head
        return head + "\n" + textwrap.fill(" ".join(texts), width=96, initial_indent=" " * 7,
                                           subsequent_indent=" " * 7, break_on_hyphens=False)

    def _header(self, s: RBState) -> str:
        if s.phase == END:
            res = ("draw" if s.winner < 0 else f"seat {s.winner} wins")
            return f"Rust Brawl — game over after {s.turn} turns: {res} ({s.end_reason})"
        return (f"Rust Brawl — turn {s.turn} (seat {s.player}), phase {PHASES[s.phase]}"
                + (f", acting position {s.acting + 1}" if s.phase in (RANGED_TARGET,
                                                                      HEAL_TARGET) else "")
                + (f", equipment {self.names[s.pending]} to attach" if s.pending >= 0 else "")
                + f"; quiet turns {s.quiet_turns}")

    def _card_face(self, c: int) -> CardFace:
        """A card in hand: its name, kind / icon, printed HLT and DMG, points."""
        stats = f"HLT {self.printed_hlt[c]} DMG {self.printed_dmg[c]}" \
            if self.kind[c] in (CHARACTER, VEHICLE) else f"DMG {self.printed_dmg[c]}"
        return CardFace(self.names[c], (f"{KINDS[self.kind[c]]}/{ICONS[self.icon[c]]}", stats,
                                        f"{self.points[c]} points"), tone="plain")

    def _slot_face(self, s: RBState, p: int, j: int, marked: bool) -> CardFace:
        """Table position ``j`` of seat ``p``: the card with its HLT, DMG (boosts included),
        cover, paralysis and equipment; an empty position."""
        c = s.table[p][j]
        if c < 0:
            return CardFace(f"{j + 1}: empty", tone="grey")
        details = [f"{KINDS[self.kind[c]]}/{ICONS[self.icon[c]]}",
                   f"HLT {s.hlt[p][j]}/{s.max_hlt[p][j]} · DMG {self.slot_dmg(s, p, j)}"]
        if s.cover[p][j]:
            details.append("cover")
        if s.paralysed_until[p][j]:
            details.append(f"paralysed to turn {s.paralysed_until[p][j]}")
        details += [f"+ {self.names[e]}" for e in s.equipment[p][j]]
        # one line an ability (a repeated one counted), so each stays readable in the box
        details += counted((short_ability(a) for x in (c, *s.equipment[p][j])
                            for a in self.db.cards[x].abilities), key=lambda _: 0)
        destroyed = s.hlt[p][j] <= 0
        return CardFace(f"{j + 1}: {self.names[c]}", tuple(details),
                        tone="grey" if destroyed else ("gold" if s.cover[p][j] else "plain"),
                        marked=marked)

    def table_view(self, state: RBState, player: int | None) -> Table:
        """The picture's content (``rgb_array``, RB-3.3): both tables (each position's card,
        HLT, DMG with boosts, cover, paralysis, equipment, its abilities in a few words
        (:func:`short_ability`); the acting position marked), both
        graveyards, the own hand (``player=None``: both hands) and the other hand as a
        face-down count, deck sizes, the equipment being attached; with open decklists the
        opponent's unseen cards."""
        s = state
        over = s.phase == END
        panels = []
        marked = (s.player, s.acting) if s.phase in (RANGED_TARGET, HEAL_TARGET) else None
        for p in range(2):
            visible = player is None or p == player
            name = s.deck_names[p] if (visible or self.config.open_decklists) else "?"
            k = len(s.hands[p])
            hand = tuple(self._card_face(c) for c in s.hands[p]) if visible else \
                ((CardFace(cards(k), face_down=True),) if k else ())
            grave = counted(self.names[c] for c in s.graveyards[p]) or ["—"]
            panels.append(Panel(
                title=f"player {p}" + (" (you)" if p == player else "") + f" — deck {name}",
                lines=(f"deck {cards(len(s.decks[p]))} · hand {cards(k)}",
                       *split_list(f"graveyard ({len(s.graveyards[p])}): ", grave, 2)),
                rows=(CardRow("table", tuple(self._slot_face(s, p, j, marked == (p, j))
                                            for j in range(POSITIONS)), "positions 1–4"),
                      CardRow("hand", hand, cards(k))),
                active=s.player == p and not over))
        lines = [self._header(s)]
        if s.pending >= 0:
            lines += [f"equipment to attach: {self.names[s.pending]}", "", ""]
        elif self.config.open_decklists and player is not None:
            unseen = s.hands[1 - player] + s.decks[1 - player]
            lines += split_list(f"opponent's unseen cards ({len(unseen)}): ",
                                counted(self.names[c] for c in unseen), 3)
        else:
            lines += ["", "", ""]
        if over:
            status = "game over: " + ("draw" if s.winner < 0 else f"player {s.winner} wins") \
                + f" after {s.turn} turns ({s.end_reason})"
        else:
            status = (f"turn {s.turn} · phase {PHASES[s.phase].replace('_', ' ')} · to act: "
                      f"player {s.player}" + (" (you)" if s.player == player else ""))
        panels.append(Panel(title="the brawl", lines=tuple(lines), wide=True))
        return Table(title="Rust Brawl" + ("" if player is None
                                           else f" — the view of player {player}"),
                     status=status, panels=tuple(panels), card_size=(200, 156))

    def render(self, state: RBState) -> str:
        """The whole state as text (debug: both hands and deck orders)."""
        s = state
        lines = [self._header(s)]
        for p in range(2):
            lines.append(f"  seat {p} ({s.deck_names[p]}): hand {[self.names[c] for c in s.hands[p]]}"
                         f" | deck {len(s.decks[p])} (top first: "
                         f"{[self.names[c] for c in reversed(s.decks[p])]}) | graveyard "
                         f"{[self.names[c] for c in s.graveyards[p]]}")
            lines += [self._slot_text(s, p, j) for j in range(POSITIONS)]
        return "\n".join(lines)

    def render_view(self, state: RBState, player: int) -> str:
        """Seat ``player``'s view: both tables (position, card, kind/icon, HLT/max, DMG with
        boosts, cover, paralysis, equipment; under each card its and its equipment's ability
        texts, wrapped at 96 characters), both graveyards, the own hand, the sizes of
        both decks and of the opponent's hand, and with open decklists the opponent's unseen
        cards (decklist minus the cards shown); never the opponent's hand or a deck order."""
        s, q = state, 1 - player
        lines = [self.view_header(s, player), "  " + self._header(s)]
        for x in (player, q):
            who = "you" if x == player else "opponent"
            name = s.deck_names[x] if (x == player or self.config.open_decklists) else "?"
            lines.append(f"  seat {x} ({who}, deck {name}): deck {len(s.decks[x])}, hand "
                         f"{len(s.hands[x])}, graveyard "
                         f"{sorted(self.names[c] for c in s.graveyards[x])}")
            lines += [self._slot_text(s, x, j) for j in range(POSITIONS)]
        lines.append(f"  your hand: {[self.names[c] for c in s.hands[player]]}")
        if self.config.open_decklists:
            unseen = Counter(s.hands[q]) + Counter(s.decks[q])
            lines.append("  opponent's unseen cards: "
                         + ", ".join(f"{self.names[c]} x{k}" for c, k in sorted(unseen.items())))
        return "\n".join(lines)

    # -- state invariants ------------------------------------------------------------------------
    def check_state(self, state: RBState) -> None:
        """StateError naming the field path and value unless ``state`` is a consistent position
        of this config (:func:`card_envs.rust_brawl.state.check_state`)."""
        check_state(self, state)

    # -- hidden information ----------------------------------------------------------------------
    def sample_hidden(self, state: RBState, player: int, rng: random.Random) -> RBState:
        """A state consistent with ``player``'s information (RB-3.3): the opponent's hand and
        deck are redealt (sizes kept) from its unseen cards: with open decklists its decklist
        minus every card shown (table, equipment, graveyard, an equipment being attached);
        with ``open_decklists=False`` cards drawn from the card pool (at most 2 copies, a
        unique card once, within the point limit with the cards shown), which also replaces
        its decklist (named ``"unknown"``; the lottery's revealed cards are not remembered:
        the observation gives only counts, RB-3.3). ``player``'s own
        deck order is reshuffled; the chance RNG is reseeded."""
        s = self.clone(state)
        q = 1 - player
        hand_n, deck_n = len(s.hands[q]), len(s.decks[q])
        if self.config.open_decklists:
            unseen = sorted(s.hands[q] + s.decks[q])
        else:
            shown = [c for c in s.table[q] if c >= 0] + s.graveyards[q]
            for eq in s.equipment[q]:
                shown += eq
            if s.phase == EQUIP_TARGET and s.player == q:
                shown.append(s.pending)
            unseen = sorted(self._pool_cards(shown, hand_n + deck_n, rng))
            s.decklists[q] = sorted(shown + unseen)
            s.deck_names[q] = UNKNOWN_DECK
        rng.shuffle(unseen)
        s.hands[q] = sorted(unseen[:hand_n])
        s.decks[q] = unseen[hand_n:]
        own = sorted(s.decks[player])
        rng.shuffle(own)
        s.decks[player] = own
        reseed(s.rng, rng)
        s.legal_cache = None
        return s

    def _pool_cards(self, fixed: list[int], k: int, rng: random.Random) -> list[int]:
        """``k`` cards drawn from the card pool to complete a deck holding ``fixed``: copies
        within RB-1.1, the points within the limit when it can be kept (the cheapest
        remaining copies are reserved for the cards still to draw)."""
        count = Counter(fixed)
        budget = self.config.deck_point_limit - sum(self.points[c] for c in fixed)
        avail = []
        for c in range(self.num_cards):
            most = 1 if self.unique[c] else 2
            avail += [c] * max(0, most - count[c])
        out = []
        pts = self.points
        for left in range(k, 0, -1):
            costs = sorted(pts[c] for c in avail)
            r_less, r_all = sum(costs[:left - 1]), sum(costs[:left])
            edge = costs[left - 2] if left >= 2 else -1
            fits = [i for i, c in enumerate(avail)
                    if pts[c] + r_less <= budget or (pts[c] <= edge and r_all <= budget)]
            if not fits:  # cannot happen for a legal deck; keep drawing within the copies
                fits = list(range(len(avail)))
            i = fits[rng.randrange(len(fits))]
            c = avail.pop(i)
            out.append(c)
            budget -= pts[c]
        return out


def make_game(**config: Any) -> RustBrawlGame:
    """Build a Rust Brawl game from config keywords (see :class:`RustBrawlConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (named).
        CardDataError: a malformed card database (file and entry/field named).
        DeckError: a deck that breaks RB-1 or names an unknown card (card and rule named).
    """
    return RustBrawlGame(config_from_kwargs(RustBrawlConfig, config))
