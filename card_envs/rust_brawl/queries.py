"""Rust Brawl position queries: the card tables a game builds once from its config, the
effective abilities of a table slot (:class:`Profile` and its named records, RB-5.7) and the
public facts of a position that the rules (:mod:`.rules`), the encoder, the view and the bot
read (a card's DMG with boosts, RB-6.1 / RB-6.5; the targets a card may choose, RB-5; what may
be played, RB-4.3; the table points, RB-7.2) and the damage rule.
:class:`RustBrawlQueries` is the base of the Game class
(:class:`~card_envs.rust_brawl.rules.RustBrawlGame`); it never changes a state.

The damage rule, stated once (:func:`hit`, :func:`dealt`, :func:`extra_dmg`,
:func:`removes_hlt`: pure arithmetic on ints and :class:`Profile` s) is read by the rules (the
attack, the return strike, the explosive, the lottery's damage) and by the heuristic bot (the
damage a ranged hit would do, from the public table). The damage of one hit of DMG ``dmg`` on
a card:

1. a removes-HLT attacker (RB-6.3, RB-6.13) removes its stated amounts, plus its printed DMG
   when a removes_hlt states none (:func:`removes_hlt`): no boosts, no cover, no reductions;
2. otherwise ``dmg`` (the DMG with boosts, RB-6.1, RB-6.5) plus the attacker's extra DMG against
   the target's traits (RB-8 ``extra_dmg_vs``, :func:`extra_dmg`) is halved, rounded down, when
   the target is in cover (RB-6.2), then less the target's flat reduction, its reductions against
   the source's traits and against the attack type (melee / ranged; none for what is not an
   attack: a return strike RB-6.7, an explosive RB-5.5, a lottery's damage RB-6.6), never below
   0 (:func:`dealt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from card_envs.core.errors import ConfigError
from card_envs.core.game import GameBase
from card_envs.rust_brawl.cards import Card, CardDb, DeckError, card_text, load_card_db
from card_envs.rust_brawl.config import RustBrawlConfig
from card_envs.rust_brawl.constants import (
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
    EQUIPMENT,
    EXPLOSIVE,
    HEAL,
    ICONS,
    KINDS,
    MAX_ABILITIES,
    MELEE,
    POSITIONS,
    RANGED,
    TRAITS,
    VEHICLE,
    action_layout,
    discard_start,
)
from card_envs.rust_brawl.decks import load_deck, shipped_decks, validate_deck
from card_envs.rust_brawl.state import (
    MAX_CARD_ID,
    RANDOM_DECK,
    RustBrawlState,
)

F_IMMUNE = 1 << AB_PARALYSIS_IMMUNE
F_PARALYSE = 1 << AB_PARALYSE
F_RETURN = 1 << AB_RETURN_STRIKE
F_HIT_ALL = 1 << AB_HIT_ALL
F_REMOVES = 1 << AB_REMOVES_HLT
F_HEAL_ALL = 1 << AB_HEAL_ALL



class TraitAmount(NamedTuple):
    """An amount that counts against cards with a trait (a ``reduce_vs`` against a trait, an
    ``extra_dmg_vs``; RB-8)."""

    #: the trait bit mask (``1 << TRAITS.index(trait)``)
    tmask: int
    #: the amount (>= 1)
    amount: int


class DmgBoost(NamedTuple):
    """A DMG boost a table card gives other friendly cards (RB-6.5, RB-8 ``boost_dmg``)."""

    #: the DMG added (>= 1)
    amount: int
    #: the trait bit mask a boosted card must match, 0 for no trait filter
    tmask: int
    #: the action-icon code a boosted character must have, -1 for no icon filter
    icon: int


class HltBoostAbility(NamedTuple):
    """An HLT boost a table card grants other friendly cards once (RB-6.14, RB-8 ``boost_hlt``);
    ``(source, ability)`` names it in the grants recorded on the state
    (:class:`~card_envs.rust_brawl.state.HltBoost`)."""

    #: 0: the card's own ability; ``1 + m``: granted by its ``m``-th equipment
    source: int
    #: the ability's index among that card's abilities (< MAX_ABILITIES)
    ability: int
    #: the HLT added, current and maximum (>= 1)
    amount: int
    #: the trait bit mask a boosted card must match, 0 for no trait filter
    tmask: int
    #: the action-icon code a boosted character must have, -1 for no icon filter
    icon: int


class OnPlay(NamedTuple):
    """An on-play ability of a card (RB-6.6 lottery, RB-8 draw), run in card order as it is
    played."""

    #: "lottery" or "draw"
    kind: str
    #: a lottery's prize, "draw" or "damage"; None for a draw
    reward: str | None
    #: the cards drawn, or the lottery's DMG to every opposing table card (>= 1)
    amount: int


@dataclass(frozen=True, slots=True)
class Profile:
    """The effective abilities of one table slot: its card's own abilities plus those granted
    by its equipment (RB-5.7), as the engine reads them. Built once per (card, equipment) by
    :func:`build_profile` and shared.

    Attributes:
        flags: bit ``1 << code`` for each flag ability (paralysis_immune, paralyse,
            return_strike, hit_all, removes_hlt, heal_all).
        dmg_bonus: the equipment's DMG (RB-8: an equipment's ``dmg`` is a bonus to its
            character).
        reduce: the flat reduction; reduce_melee / reduce_ranged: against those attacks;
        reduce_vs: :class:`TraitAmount` reductions against sources with a trait.
        extra_vs: :class:`TraitAmount` extra DMG against targets with a trait.
        boost_dmg: the :class:`DmgBoost` s it gives other friendly cards.
        boost_hlt: the :class:`HltBoostAbility` s it grants other friendly cards once (RB-6.14).
        removes_printed: a removes_hlt without a stated amount (own or granted): its attack
            removes the character's printed DMG (RB-6.3, RB-6.13; counted once).
        removes_amount: the sum of the amounts stated with its removes_hlt abilities (RB-6.13;
            several add up, RB-8), added to the printed DMG when ``removes_printed``.
    """

    flags: int = 0
    dmg_bonus: int = 0
    reduce: int = 0
    reduce_melee: int = 0
    reduce_ranged: int = 0
    reduce_vs: tuple[TraitAmount, ...] = ()
    extra_vs: tuple[TraitAmount, ...] = ()
    boost_dmg: tuple[DmgBoost, ...] = ()
    boost_hlt: tuple[HltBoostAbility, ...] = ()
    removes_printed: bool = False
    removes_amount: int = 0


def build_profile(card: Card, equipment: Sequence[Card], trait_bit: dict[str, int],
                  icon_code: dict[str, int]) -> Profile:
    """The :class:`Profile` of ``card`` holding the ``equipment`` cards (in attachment order):
    its own abilities, then each equipment's abilities and DMG bonus (RB-5.7, RB-8)."""
    flags = dmg_bonus = reduce = reduce_melee = reduce_ranged = removes_amount = 0
    removes_printed = False
    rv: list[TraitAmount] = []
    ev: list[TraitAmount] = []
    bd: list[DmgBoost] = []
    bh: list[HltBoostAbility] = []
    for source, holder in enumerate((card, *equipment)):
        if source:
            dmg_bonus += holder.dmg
        for k, ab in enumerate(holder.abilities):
            code = ABILITY_KINDS.index(ab.kind)
            tm = trait_bit[ab.trait] if ab.trait else 0
            ic = icon_code[ab.icon] if ab.icon else -1
            if code == AB_REDUCE:
                reduce += ab.amount
            elif code == AB_REDUCE_VS:
                if ab.against == "melee":
                    reduce_melee += ab.amount
                elif ab.against == "ranged":
                    reduce_ranged += ab.amount
                else:
                    rv.append(TraitAmount(tmask=trait_bit[ab.against], amount=ab.amount))
            elif code == AB_EXTRA_DMG_VS:
                ev.append(TraitAmount(tmask=tm, amount=ab.amount))
            elif code == AB_BOOST_DMG:
                bd.append(DmgBoost(amount=ab.amount, tmask=tm, icon=ic))
            elif code == AB_BOOST_HLT:
                bh.append(HltBoostAbility(source=source, ability=k, amount=ab.amount, tmask=tm,
                                          icon=ic))
            elif code in (AB_LOTTERY, AB_DRAW):
                pass  # on play (RB-6.6, RB-8), not a table effect
            else:
                if code == AB_REMOVES_HLT:  # RB-6.13: its own amount, else the printed DMG
                    if ab.amount:
                        removes_amount += ab.amount
                    else:
                        removes_printed = True
                flags |= 1 << code
    return Profile(flags=flags, dmg_bonus=dmg_bonus, reduce=reduce, reduce_melee=reduce_melee,
                   reduce_ranged=reduce_ranged, reduce_vs=tuple(rv), extra_vs=tuple(ev),
                   boost_dmg=tuple(bd), boost_hlt=tuple(bh), removes_printed=removes_printed,
                   removes_amount=removes_amount)


# -- the damage rule (RB-6.1, RB-6.2, RB-6.3, RB-6.7, RB-6.13), stated once ---------------------
#: the ``attack`` of damage that is not an attack (no melee / ranged reductions)
NOT_AN_ATTACK = -1


def extra_dmg(source: Profile, target_tmask: int) -> int:
    """RB-8 ``extra_dmg_vs``: the extra DMG ``source`` deals a card with the trait bit mask
    ``target_tmask`` (the sum over its abilities whose trait the target has); an int >= 0."""
    x = 0
    for extra in source.extra_vs:
        if target_tmask & extra.tmask:
            x += extra.amount
    return x


def removes_hlt(attacker: Profile, printed_dmg: int) -> int:
    """RB-6.3, RB-6.13: the HLT a removes-HLT attack removes: the amounts stated with its
    removes_hlt abilities, plus ``printed_dmg`` (the attacking card's printed DMG) when one
    states none; an int >= 0 (0 without removes_hlt)."""
    return (printed_dmg if attacker.removes_printed else 0) + attacker.removes_amount


def dealt(dmg: int, in_cover: bool, target: Profile, source_tmask: int, attack: int) -> int:
    """RB-6.1, RB-6.2: the HLT ``dmg`` DMG takes from a card with the profile ``target``:
    halved (rounded down) when ``in_cover``, then less its flat reduction, its reductions
    against the source's traits (``source_tmask``, a trait bit mask) and, for ``attack``
    MELEE or RANGED, its reduction against that attack type (:data:`NOT_AN_ATTACK`: none);
    an int >= 0."""
    if in_cover:
        dmg //= 2
    red = target.reduce
    for rv in target.reduce_vs:
        if source_tmask & rv.tmask:
            red += rv.amount
    if attack == MELEE:
        red += target.reduce_melee
    elif attack == RANGED:
        red += target.reduce_ranged
    return dmg - red if dmg > red else 0


def hit(dmg: int, attacker: Profile, printed_dmg: int, attacker_tmask: int, attack: int,
        target: Profile, target_tmask: int, in_cover: bool) -> int:
    """The HLT one hit of an attack takes from its target (module docstring; RB-6.1, RB-6.2,
    RB-6.3, RB-6.13): ``dmg`` is the attacker's DMG with boosts (RB-6.1, RB-6.5),
    ``printed_dmg`` its printed DMG, ``attack`` its icon (MELEE or RANGED), ``in_cover``
    whether the target is in cover. An int >= 0."""
    if attacker.flags & F_REMOVES:
        return removes_hlt(attacker, printed_dmg)
    if attacker.extra_vs:
        dmg += extra_dmg(attacker, target_tmask)
    return dealt(dmg, in_cover, target, attacker_tmask, attack)


class RustBrawlQueries(GameBase[RustBrawlState]):
    """The card tables, the dealt decks and the position queries of a Rust Brawl game (module
    docstring); :class:`~card_envs.rust_brawl.rules.RustBrawlGame` adds the rules.

    Raises (construction): ConfigError for a wrong config value (named field), also a
    ``deck_point_limit`` below the cheapest card's points when a seat is dealt random decks;
    CardDataError for a malformed card database (file, entry, field named); DeckError /
    UnknownCardError for a deck that breaks RB-1 or names an unknown card (card and rule
    named).
    """

    def __init__(self, config: RustBrawlConfig):
        self.config = config
        db: CardDb = load_card_db(config.card_db)
        self.db = db
        if len(db) > MAX_CARD_ID:
            raise ConfigError(f"config field 'card_db': {db.source} holds {len(db)} cards, "
                              f"at most {MAX_CARD_ID} are supported")
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
        self.profile0 = [build_profile(c, (), trait_bit, icon_code) for c in db.cards]
        self._profiles: dict[tuple[int, ...], Profile] = {}
        #: per card: its on-play abilities in card order (RB-6.6, RB-8)
        self.on_play = [tuple(OnPlay(kind=a.kind, reward=a.reward, amount=a.amount)
                              for a in c.abilities if a.kind in ("lottery", "draw"))
                        for c in db.cards]
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

    def turns_of(self, s: RustBrawlState, p: int) -> int:
        """How many turns seat ``p`` has started (the starter plays the odd turns)."""
        return (s.turn + (1 if p == s.starter else 0)) // 2

    def expected_deck(self, p: int) -> tuple[str, list[int]] | None:
        """``(name, sorted cards)`` of the deck the config deals seat ``p`` (``decks`` given),
        else ``None`` (also for a seat given ``"random"``)."""
        return None if self.fixed_decks is None else self.fixed_decks[p]

    def shipped_deck(self, name: str) -> list[int] | None:
        """The sorted cards of the shipped deck ``name`` (``decks=None``), or ``None``."""
        return self._shipped.get(name)

    def slot_profile(self, s: RustBrawlState, p: int, j: int) -> Profile:
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
            cards = self.db.cards
            prof = build_profile(cards[c], [cards[e] for e in equipment], self.trait_bit,
                                 icon_code)
            self._profiles[key] = prof
        return prof

    def slot_immune(self, s: RustBrawlState, p: int, j: int) -> bool:
        """Whether the card at ``(p, j)`` cannot be paralysed (RB-8 paralysis_immune, its own
        or granted by its equipment)."""
        return bool(self.slot_profile(s, p, j).flags & F_IMMUNE)

    def card_immune(self, c: int) -> bool:
        """Whether card ``c`` itself (without equipment) cannot be paralysed (RB-8)."""
        return bool(self.profile0[c].flags & F_IMMUNE)

    def _boost_matches(self, c: int, tm: int, ic: int) -> bool:
        if tm and not self.tmask[c] & tm:
            return False
        if ic >= 0 and (self.kind[c] != CHARACTER or self.icon[c] != ic):
            return False
        return True

    def slot_dmg(self, s: RustBrawlState, p: int, j: int) -> int:
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
            for boost in boosts:
                if self._boost_matches(c, boost.tmask, boost.icon):
                    d += boost.amount
        return d

    def side_dmg(self, s: RustBrawlState, p: int) -> list[int]:
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
                for boost in boosts:
                    if self._boost_matches(c, boost.tmask, boost.icon):
                        out[j] += boost.amount
        return out

    def _deal(self, s: RustBrawlState, base: int, q: int, t: int, src_tmask: int,
              atype: int) -> int:
        """The damage ``base`` DMG does to the card at ``(q, t)``
        (:func:`dealt`, RB-6.1, RB-6.2: cover, then its flat, trait
        and (``atype`` MELEE / RANGED; -1 for none) attack-type reductions)."""
        return dealt(base, s.cover[q][t], self.slot_profile(s, q, t), src_tmask, atype)

    def living(self, s: RustBrawlState, p: int) -> list[int]:
        """Seat ``p``'s positions holding a card not destroyed (RB-6.1)."""
        row, hlt = s.table[p], s.hlt[p]
        return [j for j in range(POSITIONS) if row[j] >= 0 and hlt[j] > 0]

    def ranged_targets(self, s: RustBrawlState, p: int) -> list[int]:
        """The opposing positions a ranged attack of seat ``p`` may target (RB-5.2): the living
        vehicles while there is one, else every living opposing card."""
        q = 1 - p
        living = self.living(s, q)
        kind, row = self.kind, s.table[q]
        vehicles = [t for t in living if kind[row[t]] == VEHICLE]
        return vehicles or living

    def heal_targets(self, s: RustBrawlState, p: int, j: int) -> list[int]:
        """The own positions the healer at ``j`` may heal (RB-5.3, RB-5.4): living cards below
        their maximum HLT (itself too with ``heal_self``)."""
        hlt, mx = s.hlt[p], s.max_hlt[p]
        self_ok = self.config.heal_self
        return [t for t in self.living(s, p) if hlt[t] < mx[t] and (self_ok or t != j)]

    def attack_targets(self, s: RustBrawlState, p: int, j: int) -> list[int]:
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

    def can_act(self, s: RustBrawlState, p: int, j: int) -> bool:
        """A living, unparalysed character at ``(p, j)`` (RB-4.2, RB-5.6, RB-6.4)."""
        c = s.table[p][j]
        return (c >= 0 and self.kind[c] == CHARACTER and s.hlt[p][j] > 0
                and not s.paralysed_until[p][j])

    def ranged_decision(self, s: RustBrawlState, p: int, j: int) -> bool:
        """Whether the card at ``(p, j)`` faces a ranged-target choice: a ranged character
        that can act, without hit_all, with two or more targets."""
        return (self.can_act(s, p, j) and self.icon[s.table[p][j]] == RANGED
                and not self.slot_profile(s, p, j).flags & F_HIT_ALL
                and len(self.ranged_targets(s, p)) > 1)

    def heal_decision(self, s: RustBrawlState, p: int, j: int) -> bool:
        """Whether the card at ``(p, j)`` faces a heal-target choice: a healer that can act,
        without heal_all, with two or more targets."""
        return (self.can_act(s, p, j) and self.icon[s.table[p][j]] == HEAL
                and not self.slot_profile(s, p, j).flags & F_HEAL_ALL
                and len(self.heal_targets(s, p, j)) > 1)

    def equip_targets(self, s: RustBrawlState, p: int) -> list[int]:
        """Own positions an equipment may go to (RB-4.3): living characters holding fewer than
        ``equipment_per_character`` equipment cards."""
        row, kind, eq = s.table[p], self.kind, s.equipment[p]
        most = self.config.equipment_per_character
        return [j for j in self.living(s, p) if kind[row[j]] == CHARACTER and len(eq[j]) < most]

    def playable(self, s: RustBrawlState, p: int, c: int) -> bool:
        """Whether seat ``p`` may play card ``c`` now (RB-4.3): a character, vehicle or support
        needs a free position (a destroyed card still holds its own, RB-4.6); an equipment a
        character it can go to; an explosive is always playable."""
        k = self.kind[c]
        if k == EXPLOSIVE:
            return True
        if k == EQUIPMENT:
            return bool(self.equip_targets(s, p))
        return s.table[p][POSITIONS - 1] < 0

    def table_points(self, s: RustBrawlState, p: int) -> int:
        """RB-7.2, RB-7.5: the point sum of seat ``p``'s living table cards (with their
        attached equipment when ``table_points_with_equipment``)."""
        pts = self.points
        total = 0
        for j in self.living(s, p):
            total += pts[s.table[p][j]]
            if self._points_eq:
                total += sum(pts[e] for e in s.equipment[p][j])
        return total
