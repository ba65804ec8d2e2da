"""Rust Brawl observation encoder (the only numpy in the game).

The observation is one float32 vector in ``[0, 1]`` from the observing seat's point of view
(own pieces first). It holds what the rules let that seat know (RB "What an agent observes"):
the phase and the pending decision, both tables card by card as *features* (kind, icon, DMG
with boosts, current and maximum HLT, cover, paralysis, destroyed, points, unique, traits,
abilities with the ones its equipment grants, the equipment), the own hand card by card, the
own deck's composition and size (never its order), both graveyards, the opponent's hand and
deck sizes, and with open decklists (RB-3.3) the multiset of the opponent's unseen cards (hand +
deck; with ``open_decklists=False`` the piece is left out: only counts).
Never the opponent's hand or either deck's order.

The per-entity view (:meth:`RustBrawlEncoder.make_entities`) has the same cards as rows: the
table positions, the hand and the equipment being attached are views of the flat pieces; the
per-card counts (own deck, graveyards, the opponent's unseen cards) become one row per card id
with its features and its copies in each pile (``known_cards``).

Card features (:data:`CARD_FEATURES`, ``F`` entries per card) are the same for table slots, hand
slots and the equipment being attached; per-card counts have one entry per card of the database
(``N``), divided by 2 (at most 2 copies of a card in a deck, RB-1.1). The layout depends on the
config (``max_hand``) and the database size: :meth:`RustBrawlEncoder.make_layout`. What stays
fixed for a card (and for a card with given equipment) is built once
(:meth:`RustBrawlEncoder.static_part`). What the encoder needs from the rules it reads from the
game object (public attributes and methods); this module does not import the rules.
"""

from __future__ import annotations

import numpy as np

from card_envs.core.entities import EntityLayout, Target, Zone
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.rust_brawl.constants import (
    AB_BOOST_DMG,
    AB_BOOST_HLT,
    AB_DRAW,
    AB_EXTRA_DMG_VS,
    AB_LOTTERY,
    AB_REDUCE,
    AB_REDUCE_VS,
    ABILITY_KINDS,
    EQUIP_TARGET,
    HEAL_TARGET,
    ICONS,
    KINDS,
    NUM_SEATS,
    PHASES,
    POSITIONS,
    RANGED_TARGET,
    TRAITS,
)

DMG_SCALE = 10.0
HLT_SCALE = 20.0
POINTS_SCALE = 30.0
AMOUNT_SCALE = 5.0
DECK_SCALE = 40.0

#: the features of one card (table slot, hand slot, the equipment being attached)
CARD_FEATURES: tuple[str, ...] = (
    ("present",)
    + tuple(f"kind {k}" for k in KINDS)
    + tuple(f"icon {i}" for i in ICONS)
    + ("DMG with boosts / 10 (hand: printed)", "HLT / 20 (hand: printed)",
       "max HLT / 20 (hand: printed)", "in cover", "paralysed", "destroyed (HLT <= 0)",
       "points / 30", "unique")
    + tuple(f"trait {t}" for t in TRAITS)
    + tuple(f"ability {a}" for a in ABILITY_KINDS)
    + ("a boost limited to a trait", "a boost limited to an action icon (aura)",
       "reduction against melee / 5", "reduction against ranged / 5",
       "lottery reward is damage",
       "equipment cards attached / equipment_per_character",
       "equipment DMG bonus / 10", "equipment HLT bonus / 20")
)
NF = len(CARD_FEATURES)
F_PRESENT = 0
F_KIND = 1
F_ICON = F_KIND + len(KINDS)
F_DMG = F_ICON + len(ICONS)
F_HLT, F_MAX, F_COVER, F_PARALYSED, F_DESTROYED, F_POINTS, F_UNIQUE = range(F_DMG + 1,
                                                                          F_DMG + 8)
F_TRAIT = F_UNIQUE + 1
F_ABILITY = F_TRAIT + len(TRAITS)
F_TRAIT_FILTER = F_ABILITY + len(ABILITY_KINDS)
F_ICON_FILTER, F_RED_MELEE, F_RED_RANGED, F_LOTTERY_DAMAGE, F_EQ_COUNT, F_EQ_DMG, F_EQ_HLT = \
    range(F_TRAIT_FILTER + 1, F_TRAIT_FILTER + 8)
assert F_EQ_HLT == NF - 1



def features_markdown() -> str:
    """The card features as a markdown table ``| offset | feature |`` (pasted into the env
    docstring). Ability entries are the amount / 5 (1 for a flag ability), the card's own plus
    those its equipment grants; lottery / draw are the on-play amounts."""
    rows = ["| offset | feature |", "|---|---|"]
    rows += [f"| {i} | {name} |" for i, name in enumerate(CARD_FEATURES)]
    return "\n".join(rows)


#: the piles counted per card id (flat pieces of ``N`` entries) and the ``known_cards`` row
#: feature each becomes
PILES = (("own_deck", "copies in my deck / 2"), ("own_graveyard", "copies in my graveyard / 2"),
         ("opponent_graveyard", "copies in the opponent's graveyard / 2"),
         ("opponent_unseen", "the opponent's unseen copies / 2 (open_decklists only)"))


def distinct_cards_bound(points: list[int], point_limit: int) -> int:
    """The most distinct cards one legal deck can hold: the cheapest cards, one copy each, up to
    ``point_limit`` points (RB-1.2)."""
    total = k = 0
    for p in sorted(points):
        if total + p > point_limit:
            break
        total += p
        k += 1
    return max(k, 1)


#: the counts of the ``counts`` piece
COUNTS = ("own hand size / max_hand", "own deck size / 40", "own graveyard size / 40",
          "opponent hand size / max_hand", "opponent deck size / 40",
          "opponent graveyard size / 40", "quiet turns / (2 x stalemate_turns)",
          "own table point sum / 100", "opponent table point sum / 100")


class RustBrawlEncoder(Encoder):
    """Builds the observation of a :class:`~card_envs.rust_brawl.rules.RustBrawlGame`
    (``game.encoder``)."""

    def make_entities(self, game) -> EntityLayout:
        """The per-entity view: the pieces holding cards as zones of :data:`NF` card features
        (views of the flat vector), ``known_cards`` one row per card id of the per-card counts
        (at most the distinct cards of both decks: :func:`distinct_cards_bound` each)."""
        h, n = game.config.max_hand, game.num_cards
        known = min(n, sum(self.distinct_cards(game, seat) for seat in range(NUM_SEATS)))
        card = f"the {NF} card features (table above)"
        piles = [name for name, _ in PILES if name in self.layout]
        self._piles = [self.layout[name].slice for name in piles]
        actions = game.action_layout
        self._ranged, self._heal = actions.start("ranged"), actions.start("heal")
        return EntityLayout(self.layout, game.action_layout, zones=[
            Zone("pending", 1, CARD_FEATURES, "the equipment card being attached (EQUIP_TARGET)",
                 source="pending", features_doc=card),
            Zone("own_table", POSITIONS, CARD_FEATURES, "my positions 1-4", source="own_table",
                 features_doc=card),
            Zone("opponent_table", POSITIONS, CARD_FEATURES, "the opponent's positions 1-4",
                 source="opponent_table", features_doc=card),
            Zone("own_hand", h, CARD_FEATURES, "my hand slots (sorted by card, as the play / "
                 "discard actions index it)", source="own_hand", features_doc=card),
            Zone("known_cards", known, CARD_FEATURES + tuple(d for _, d in PILES),
                 "one row per card id (sorted) with a copy in my deck, a graveyard or (open "
                 "decklists) the opponent's unseen cards: its printed features and its copies "
                 "in each; rows: the most distinct cards the two seats' decks can hold "
                 "(RustBrawlEncoder.distinct_cards)",
                 features_doc=f"{card}, then " + "; ".join(d for _, d in PILES)),
        ], globals=("phase", "turn", "counts", "acting"), columns=2, targets=[
            Target("equip", "own_table"), Target("equip", "pending", column=1, row=0),
            Target("ranged", "opponent_table"),
            Target("ranged", "own_table", column=1, dynamic=True,
                   meaning="the position of my ranged card that acts"),
            Target("heal", "own_table"),
            Target("heal", "own_table", column=1, dynamic=True,
                   meaning="the position of my healer that acts"),
            Target("play", "own_hand"), Target("discard", "own_hand"),
        ])

    @staticmethod
    def distinct_cards(game, seat: int) -> int:
        """The most distinct cards seat ``seat``'s deck can hold in this config: the named
        deck's, the most of the shipped decks (``decks=None``), or for a random deck
        :func:`distinct_cards_bound`."""
        if game.fixed_decks is not None and game.fixed_decks[seat] is not None:
            return len(set(game.fixed_decks[seat][1]))
        if game.config.decks is None:
            return max(len(set(cards)) for _, cards in game.deck_choices)
        return distinct_cards_bound(game.points, game.config.deck_point_limit)

    def fill_entities(self, s, player: int, flat: np.ndarray, out: dict) -> None:
        entities = self.entity_layout
        counts = np.stack([flat[where] for where in self._piles])
        ids = np.flatnonzero(counts.any(axis=0))
        rows = out["known_cards"]
        if len(ids) > len(rows):  # pragma: no cover - the bound of distinct_cards is broken
            raise RuntimeError(f"rust_brawl: {len(ids)} card ids to show in known_cards, "
                               f"which has {len(rows)} rows (RustBrawlEncoder.distinct_cards)")
        rows[:len(ids), :NF] = self.hand_rows()[ids]
        rows[:len(ids), NF:NF + len(counts)] = counts[:, ids].T
        if s.player == player and s.phase in (RANGED_TARGET, HEAL_TARGET):
            start = self._ranged if s.phase == RANGED_TARGET else self._heal
            out["action_targets"][start:start + POSITIONS, 1] = entities.row("own_table",
                                                                              s.acting)

    def bind(self) -> None:
        L = self.layout
        self.H = L["own_hand"].size // NF
        self.N = L["own_deck"].size
        self._hand_rows = None

    def make_layout(self, game) -> Layout:
        h, n = game.config.max_hand, game.num_cards
        unseen = [("opponent_unseen", n, "the opponent's unseen cards (hand + deck: its "
                                         "decklist minus every card shown) per card / 2 "
                                         "(open_decklists only)")] \
            if game.config.open_decklists else []
        return Layout([
            ("phase", len(PHASES), "one-hot phase: " + ", ".join(PHASES)),
            ("turn", 3, "it is my turn; I am the starting player; turns so far / max_turns"),
            ("counts", len(COUNTS), "; ".join(COUNTS) + " (each clipped to 1)"),
            ("acting", POSITIONS, "one-hot position (of the seat to act) whose ranged / heal "
                                  "target is being chosen (RANGED_TARGET, HEAL_TARGET)"),
            ("pending", NF, "features of the equipment card being attached (EQUIP_TARGET)"),
            ("own_table", POSITIONS * NF, f"own positions 1-4, {NF} card features each "
                                          "(CARD_FEATURES; all zero for an empty position)"),
            ("opponent_table", POSITIONS * NF, "opponent positions 1-4, the same features"),
            ("own_hand", h * NF, f"own hand slots 0-{h - 1} (the hand sorted by card, as the "
                                 "play / discard actions index it), the same features"),
            ("own_deck", n, "own deck composition: copies of card i / 2 (never the order)"),
            *unseen,
            ("own_graveyard", n, "own graveyard: copies of card i / 2"),
            ("opponent_graveyard", n, "opponent graveyard: copies of card i / 2"),
        ])

    # -- static parts ----------------------------------------------------------------------------
    def static_part(self, key):
        """``key`` = ``(card, *equipment)``: the card features of that card with that
        equipment that do not change while it stands on the table (everything but DMG, HLT,
        cover, paralysis, destroyed); as a float32 array of :data:`NF` entries."""
        g = self.game
        c, eq = key[0], key[1:]
        v = np.zeros(NF, dtype=np.float32)
        v[F_PRESENT] = 1.0
        v[F_KIND + g.kind[c]] = 1.0
        v[F_ICON + g.icon[c]] = 1.0
        v[F_POINTS] = min(1.0, g.points[c] / POINTS_SCALE)
        v[F_UNIQUE] = 1.0 if g.unique[c] else 0.0
        tm = g.tmask[c]
        for i in range(len(TRAITS)):
            if tm >> i & 1:
                v[F_TRAIT + i] = 1.0
        prof = g.profile_of(c, eq)
        amounts = [0.0] * len(ABILITY_KINDS)
        for code in range(len(ABILITY_KINDS)):
            if prof.flags >> code & 1:
                amounts[code] = AMOUNT_SCALE
        amounts[AB_REDUCE] = prof.reduce
        amounts[AB_REDUCE_VS] = (sum(r.amount for r in prof.reduce_vs) + prof.reduce_melee
                                 + prof.reduce_ranged)
        amounts[AB_EXTRA_DMG_VS] = sum(x.amount for x in prof.extra_vs)
        amounts[AB_BOOST_DMG] = sum(b.amount for b in prof.boost_dmg)
        amounts[AB_BOOST_HLT] = sum(b.amount for b in prof.boost_hlt)
        for ab in g.on_play[c]:
            code = AB_LOTTERY if ab.kind == "lottery" else AB_DRAW
            amounts[code] += ab.amount
            if ab.reward == "damage":
                v[F_LOTTERY_DAMAGE] = 1.0
        for code, a in enumerate(amounts):
            v[F_ABILITY + code] = min(1.0, a / AMOUNT_SCALE)
        boosts = (*prof.boost_dmg, *prof.boost_hlt)
        v[F_TRAIT_FILTER] = 1.0 if any(b.tmask for b in boosts) else 0.0
        v[F_ICON_FILTER] = 1.0 if any(b.icon >= 0 for b in boosts) else 0.0
        v[F_RED_MELEE] = min(1.0, prof.reduce_melee / AMOUNT_SCALE)
        v[F_RED_RANGED] = min(1.0, prof.reduce_ranged / AMOUNT_SCALE)
        if eq:
            v[F_EQ_COUNT] = min(1.0, len(eq) / g.config.equipment_per_character)
            v[F_EQ_DMG] = min(1.0, sum(g.printed_dmg[e] for e in eq) / DMG_SCALE)
            v[F_EQ_HLT] = min(1.0, sum(g.printed_hlt[e] for e in eq) / HLT_SCALE)
        return v

    def hand_rows(self) -> np.ndarray:
        """``(N, NF)`` float32: each card's features as a hand card (printed DMG and HLT)."""
        rows = self._hand_rows
        if rows is None:
            g = self.game
            rows = np.zeros((g.num_cards, NF), dtype=np.float32)
            for c in range(g.num_cards):
                rows[c] = self.static((c,))
                rows[c, F_DMG] = min(1.0, g.printed_dmg[c] / DMG_SCALE)
                rows[c, F_HLT] = rows[c, F_MAX] = min(1.0, g.printed_hlt[c] / HLT_SCALE)
            self._hand_rows = rows
            self._row_list = list(rows)  # one array per card: the fastest slice source
        return rows

    # -- encode ------------------------------------------------------------------------------------
    def _table(self, v: np.ndarray, s, x: int, o: int) -> int:
        """Write seat ``x``'s table at offset ``o``; returns its living table point sum
        (RB-7.2, RB-7.5)."""
        g = self.game
        row = s.table[x]
        if row[0] < 0:
            return 0
        self.hand_rows()
        rows = self._row_list
        dmgs = g.side_dmg(s, x)
        hlts, mxs, cover, par, eqs = s.hlt[x], s.max_hlt[x], s.cover[x], \
            s.paralysed_until[x], s.equipment[x]
        points, with_eq = g.points, g.config.table_points_with_equipment
        total = 0
        for j in range(POSITIONS):
            c = row[j]
            if c < 0:
                break
            eq = eqs[j]
            base = o + j * NF
            v[base:base + NF] = self.static((c, *eq)) if eq else rows[c]
            hlt = hlts[j]
            d = dmgs[j] / DMG_SCALE
            v[base + F_DMG] = d if d < 1.0 else 1.0
            h = hlt / HLT_SCALE
            v[base + F_HLT] = (h if h < 1.0 else 1.0) if hlt > 0 else 0.0
            m = mxs[j] / HLT_SCALE
            v[base + F_MAX] = m if m < 1.0 else 1.0
            v[base + F_COVER] = 1.0 if cover[j] else 0.0
            if par[j]:
                v[base + F_PARALYSED] = 1.0
            if hlt <= 0:
                v[base + F_DESTROYED] = 1.0
            else:
                total += points[c]
                if with_eq and eq:
                    total += sum(points[e] for e in eq)
        return total

    def encode(self, s, player: int) -> np.ndarray:
        g, at = self.game, self.at
        cfg = g.config
        q = 1 - player
        v = np.zeros(self.layout.size, dtype=np.float32)
        v[at.phase + s.phase] = 1.0
        o = at.turn
        v[o] = 1.0 if s.player == player else 0.0
        v[o + 1] = 1.0 if s.starter == player else 0.0
        v[o + 2] = s.turn / cfg.max_turns
        o = at.counts
        mh = cfg.max_hand
        v[o:o + 7] = [len(s.hands[player]) / mh, min(1.0, len(s.decks[player]) / DECK_SCALE),
                      min(1.0, len(s.graveyards[player]) / DECK_SCALE), len(s.hands[q]) / mh,
                      min(1.0, len(s.decks[q]) / DECK_SCALE),
                      min(1.0, len(s.graveyards[q]) / DECK_SCALE),
                      s.quiet_turns / (2 * cfg.stalemate_turns)]
        if s.phase in (RANGED_TARGET, HEAL_TARGET):  # public: whose card acts
            v[at.acting + s.acting] = 1.0
        if s.phase == EQUIP_TARGET and s.pending >= 0:  # public: the card was played
            v[at.pending:at.pending + NF] = self.hand_rows()[s.pending]
        o = at.counts
        v[o + 7] = min(1.0, self._table(v, s, player, at.own_table) / 100.0)
        v[o + 8] = min(1.0, self._table(v, s, q, at.opponent_table) / 100.0)
        hand = s.hands[player]
        if hand:
            self.hand_rows()
            rows = self._row_list
            o = at.own_hand
            for c in hand:
                v[o:o + NF] = rows[c]
                o += NF
        # per-card counts / 2 (a deck holds at most 2 copies, RB-1.1)
        o = at.own_deck
        for c in s.decks[player]:
            v[o + c] += 0.5
        if cfg.open_decklists:
            o = at.opponent_unseen
            for c in s.hands[q]:
                v[o + c] += 0.5
            for c in s.decks[q]:
                v[o + c] += 0.5
        o = at.own_graveyard
        for c in s.graveyards[player]:
            v[o + c] += 0.5
        o = at.opponent_graveyard
        for c in s.graveyards[q]:
            v[o + c] += 0.5
        return v  # every entry is in [0, 1] by construction (counts: at most 2 copies, RB-1.1)
