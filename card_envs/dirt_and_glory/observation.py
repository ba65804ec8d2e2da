"""Dirt and Glory observation encoder (the only numpy in the game).

The observation is one float32 vector in ``[0, 1]`` from the observing seat's point of view;
per-seat pieces are *seat-relative* (row 0 = the observer, row 1 = the next seat clockwise, ...).
It holds what the rules let that seat know: its own deck composition and size (never the order),
its own reserve, its scouted top card, its own draft/setup hand, every caravan (public), the
offer, the territory, passes, fuel, scores and zone sizes. It never holds another seat's reserve,
deck composition or hand, nor the order of any deck (DG-5).

Counts are divided by fixed scales (``max_owned`` = starting cards + 2 drafted + ``num_rounds``
offer cards); unbounded numbers (fuel, score) are divided by a scale and clipped at 1.

The layout depends on the config (seats, rounds, the content's card kinds):
:meth:`DirtAndGloryEncoder.make_layout`. A territory's entries are fixed for a whole game:
:meth:`DirtAndGloryEncoder.static_part`. What the encoder needs from the rules it reads from the
game object (public attributes); this module does not import the rules.

The per-entity view (:meth:`DirtAndGloryEncoder.make_entities`) turns the per-kind counts into
rows: one row per card kind in each pile (own deck, reserve, hand, the offer, the caravans), with
the kind's values and ability and the count; the seats are rows of their features.
"""

from __future__ import annotations

import numpy as np

from card_envs.core.entities import EntityLayout, Target, Zone
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.dirt_and_glory.constants import (
    ABILITIES,
    ABILITY,
    AFTER,
    END,
    PAID_PLACES,
    PHASES,
    VALUE,
)

FUEL_SCALE = 20.0
SCORE_SCALE = 100.0
#: per-seat features (seat-relative rows of the ``seats`` piece)
SEAT_FEATURES = (
    "caravan total / (max target + 5)",
    "passed",
    "exceeded the target (busted)",
    "fuel / 20 (clipped)",
    "score / 100 (clipped)",
    "deck size / max_owned",
    "reserve size / max_owned",
    "caravan size / max_owned",
    "to act",
    "zero_next pending",
    "first player of the round",
)


#: the features of a card-kind row (DG-1.5): its values over the content's highest value, a
#: two-value flag, the ability one-hot
KIND_FEATURES = ("low value / highest value", "high value / highest value", "two values",
                 *(f"ability {a}" for a in ABILITIES))
#: the per-kind zones: (zone, flat piece, what the count feature is)
KIND_ZONES = (("own_deck", "own_deck", "cards of the kind / max_owned"),
              ("own_reserve", "own_reserve", "cards of the kind / max_owned"),
              ("own_hand", "own_hand", "cards of the kind / 3"),
              ("offer", "offer", "cards of the kind / num_players"),
              ("own_caravan", "caravans", "cards of the kind / max_owned"))


class DirtAndGloryEncoder(Encoder):
    """Builds the observation of a :class:`~card_envs.dirt_and_glory.rules.DirtAndGloryGame`
    (``game.encoder``)."""

    def bind(self) -> None:
        """The sizes :meth:`encode` needs (from the layout alone: a pickled encoder is rebuilt
        from its game and layout before the game's own fields are back)."""
        L = self.layout
        self.nf = len(SEAT_FEATURES)
        self.n, self.K, self.R = L["seats"].size // self.nf, L["own_deck"].size, L["round"].size
        self.s_terr = L["territory"].slice

    def make_entities(self, game) -> EntityLayout:
        """The per-entity view: per pile one row per card kind (``K`` rows: :data:`KIND_FEATURES`
        and the count; a row is empty when the pile holds no card of the kind), the other seats'
        caravans, the known top card and the card just played, the seats' rows."""
        n, K = game.num_players, game.num_kinds
        top = max(max(game.k_high), max(game.k_low), 1)
        kinds = np.zeros((K, len(KIND_FEATURES)), dtype=np.float32)
        for k in range(K):
            kinds[k, 0] = game.k_low[k] / top
            kinds[k, 1] = game.k_high[k] / top
            kinds[k, 2] = 1.0 if game.k_low[k] != game.k_high[k] else 0.0
            kinds[k, 3 + game.k_ab[k]] = 1.0
        self._kinds = kinds
        kf = len(KIND_FEATURES)
        L = self.layout
        self._kind_index = np.array([np.arange(L[piece].start, L[piece].start + K)
                                     for _, piece, _ in KIND_ZONES])
        self._others = L.start("caravans") + K
        self._seat_of = np.repeat(np.arange(1, n, dtype=np.float32) / max(1, n - 1), K)
        self._other_kinds = np.tile(kinds, (n - 1, 1))
        self._one_hots = [("known_top", L.start("own_known_top"), L.start("own_known_top") + K),
                          ("played", L.start("played"), L.start("played") + K)]
        features = f"the {kf} kind features, then the count"
        zones = [Zone(name, K, KIND_FEATURES + (count,), f"{name.replace('_', ' ')}: one row per "
                      "card kind i", present=kf, features_doc=features if name != "own_deck"
                      else "; ".join(KIND_FEATURES) + f"; {count}")
                 for name, _, count in KIND_ZONES]
        zones += [
            Zone("other_caravans", (n - 1) * K, KIND_FEATURES + ("cards of the kind / max_owned",
                 "seats clockwise from me / (num_players - 1)"), "the caravans of the seats +1, "
                 "+2... clockwise: row (j-1)·K + i is seat +j's kind i", present=kf,
                 features_doc=f"{features}, then the seat"),
            Zone("known_top", 1, KIND_FEATURES + ("1",), "the kind of my top card when known "
                 "(scout)", present=kf, features_doc=features),
            Zone("played", 1, KIND_FEATURES + ("1",), "the kind of the card just played this "
                 "turn (public)", present=kf, features_doc=features),
            Zone("seats", n, SEAT_FEATURES, "one row per seat, seat-relative (me first)",
                 source="seats", present=None),
        ]
        played = "the card just played"
        return EntityLayout(L, game.action_layout, zones=zones, globals=(
            "phase", "round", "territory", "territories_left", "unit_deck_size", "own_deck_size",
            "turn"), targets=[
            Target("play_top", "known_top", row=0, meaning="when known"),
            Target("fuel_reserve", "played", row=0, meaning=played),
            Target("value", "played", row=0, meaning=played),
            Target("ability_use", "played", row=0, meaning=played),
            Target("ability_skip", "played", row=0, meaning=played),
            Target("play_reserve", "own_reserve"), Target("stash", "own_caravan"),
            Target("mix", "own_reserve"), Target("take", "offer"),
            Target("draft_return", "own_hand"), Target("place", "own_hand"),
        ])

    def fill_entities(self, s, player: int, flat: np.ndarray, out: dict) -> None:
        kf, kinds = len(KIND_FEATURES), self._kinds
        counts = flat[self._kind_index]  # (piles, K): every per-kind pile in one gather
        block = self.entity_layout.block(out, KIND_ZONES[0][0], len(KIND_ZONES))
        np.multiply(kinds, (counts > 0)[:, :, None], out=block[:, :, :kf])
        block[:, :, kf] = counts
        rows = out["other_caravans"]
        counts = flat[self._others:self._others + len(rows)]
        held = counts > 0
        np.multiply(self._other_kinds, held[:, None], out=rows[:, :kf])
        rows[:, kf] = counts
        np.multiply(self._seat_of, held, out=rows[:, kf + 1])
        for name, start, stop in self._one_hots:
            k = int(flat[start:stop].argmax())
            if flat[start + k]:
                row = out[name][0]
                row[:kf] = kinds[k]
                row[kf] = 1.0

    def make_layout(self, game) -> Layout:
        n, K, R = game.num_players, game.num_kinds, game.config.num_rounds
        nf = len(SEAT_FEATURES)
        return Layout([
            ("phase", len(PHASES), "one-hot phase: " + ", ".join(PHASES)),
            ("round", R, "one-hot round (0-based)"),
            ("territory", 1 + 2 * PAID_PLACES, "current territory: target / max target, points "
                                               "for 1st/2nd/3rd / max points, fuel for "
                                               "1st/2nd/3rd / 9"),
            ("territories_left", 1, "territories still to come / num_rounds"),
            ("unit_deck_size", 1, "unit deck size / unit deck cards"),
            ("own_deck", K, "own deck composition: cards of kind i / max_owned (not the order)"),
            ("own_deck_size", 1, "own deck size / max_owned"),
            ("own_reserve", K, "own reserve: cards of kind i / max_owned"),
            ("own_known_top", K, "one-hot kind of the own top card if known (scout), else 0"),
            ("own_hand", K, "own draft/setup hand while deciding it: cards of kind i / 3"),
            ("played", K, "one-hot kind of the card just played this turn (public)"),
            ("turn", 2, "played from the reserve this turn; fuel uses this turn / "
                        "max(1, fuel_uses_per_turn)"),
            ("offer", K, "offer: cards of kind i / num_players"),
            ("seats", n * nf, f"per seat, seat-relative (observer first), {nf} features each: "
                              + "; ".join(SEAT_FEATURES)),
            ("caravans", n * K, "per seat, seat-relative: caravan cards of kind i / max_owned "
                                "(public)"),
        ])

    def static_part(self, key):
        """What stays fixed for a whole game: ``"scales"`` gives ``(1 / max_owned, 1 / (max
        target + 5))``; a territory index of the content gives that territory's ``territory``
        piece (target, points and fuel for the paid places, scaled)."""
        g = self.game
        max_target = max(g.terr_target)
        if key == "scales":
            return 1.0 / g.max_owned, 1.0 / (max_target + 5)
        max_points = max(1, max(max(p) for p in g.terr_points))
        return ([g.terr_target[key] / max_target]
                + [g.terr_points[key][i] / max_points for i in range(PAID_PLACES)]
                + [g.terr_fuel[key][i] / 9.0 for i in range(PAID_PLACES)])

    def encode(self, s, player: int) -> np.ndarray:
        g, n, K, at = self.game, self.n, self.K, self.at
        v = [0.0] * self.layout.size
        ck = g.card_kind
        inv, ts = self.static("scales")
        v[at.phase + s.phase] = 1.0
        r = min(s.round, self.R - 1)
        v[at.round + r] = 1.0
        v[self.s_terr] = self.static(s.territories[r])
        v[at.territories_left] = max(0, self.R - s.round - 1) / self.R
        v[at.unit_deck_size] = len(s.unit_deck) / g.deck_size
        deck = s.decks[player]
        o = at.own_deck
        for c in deck:
            v[o + ck[c]] += inv
        v[at.own_deck_size] = len(deck) * inv
        o = at.own_reserve
        for c in s.reserves[player]:
            v[o + ck[c]] += inv
        if s.peek[player] and deck:
            v[at.own_known_top + ck[deck[-1]]] = 1.0
        if s.player == player and s.hand:
            o = at.own_hand
            for c in s.hand:
                v[o + ck[c]] += 1.0 / 3.0
        if s.pending >= 0 and s.phase in (VALUE, ABILITY, AFTER):
            v[at.played + ck[s.pending]] = 1.0
        if s.phase in (VALUE, ABILITY, AFTER) and s.ctx == "play":
            v[at.turn] = 1.0 if s.from_reserve else 0.0
        v[at.turn + 1] = min(1.0, s.fuel_used / max(1, g.config.fuel_uses_per_turn))
        o = at.offer
        for c in s.offer:
            v[o + ck[c]] += 1.0 / n
        for j in range(n):
            q = (player + j) % n
            o = at.seats + j * self.nf
            v[o] = min(1.0, sum(s.values[q]) * ts)
            v[o + 1] = 1.0 if s.passed[q] else 0.0
            v[o + 2] = 1.0 if s.busted[q] else 0.0
            v[o + 3] = min(1.0, s.fuel[q] / FUEL_SCALE)
            v[o + 4] = min(1.0, s.scores[q] / SCORE_SCALE)
            v[o + 5] = min(1.0, len(s.decks[q]) * inv)
            v[o + 6] = min(1.0, len(s.reserves[q]) * inv)
            v[o + 7] = min(1.0, len(s.caravans[q]) * inv)
            v[o + 8] = 1.0 if s.player == q else 0.0
            v[o + 9] = 1.0 if s.zero_next[q] else 0.0
            v[o + 10] = 1.0 if (s.first == q and s.phase != END) else 0.0
            o = at.caravans + j * K
            for c in s.caravans[q]:
                v[o + ck[c]] += inv
        arr = np.array(v, dtype=np.float32)
        np.clip(arr, 0.0, 1.0, out=arr)
        return arr

