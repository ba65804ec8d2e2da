"""Dirt and Glory observation encoder and the action layout (the only numpy in the game).

The observation is one float32 vector in ``[0, 1]`` from the observing seat's point of view;
per-seat pieces are *seat-relative* (row 0 = the observer, row 1 = the next seat clockwise, ...).
It holds what the rules let that seat know: its own deck composition and size (never the order),
its own reserve, its scouted top card, its own draft/setup hand, every caravan (public), the
offer, the territory, passes, fuel, scores and zone sizes. It never holds another seat's reserve,
deck composition or hand, nor the order of any deck (DG-5).

Counts are divided by fixed scales (``max_owned`` = starting cards + 2 drafted + ``num_rounds``
offer cards); unbounded numbers (fuel, score) are divided by a scale and clipped at 1.
"""

from __future__ import annotations

import numpy as np

from card_envs.core.layout import Layout

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


def action_layout(num_kinds: int, kind_labels: list[str] | None = None) -> Layout:
    """The flat ``Discrete`` action layout: 9 fixed actions, then six ranges of one action per
    card kind (``kind_labels`` in kind order, see the rules docs)."""
    k = num_kinds
    return Layout([
        ("play_top", 1, "MAIN: reveal the top card of the own deck and add it to the caravan "
                        "(DG-3.2)"),
        ("pass", 1, "MAIN: pass (DG-3.2); AFTER: accept exceeding the target (forced pass)"),
        ("end_turn", 1, "AFTER: end the turn without a fuel use"),
        ("fuel_reserve", 1, "AFTER: spend fuel to move the card just played to the reserve "
                            "(DG-3.3)"),
        ("value", 2, "VALUE: count the low / high value of the two-value card, chosen after "
                     "its ability (DG-3.2, DG-3.1)"),
        ("ability_use", 1, "ABILITY: resolve the played card's ability (fuel, scout, "
                           "zero_next), before its value is chosen (DG-3.2)"),
        ("ability_skip", 1, "ABILITY: do not resolve it (abilities are optional)"),
        ("mix_done", 1, "MIX: keep the remaining reserve cards in the reserve (DG-3.6)"),
        ("play_reserve", k, "MAIN: spend fuel to play a reserve card of kind i (DG-3.3)"),
        ("stash", k, "ABILITY (stash): move a caravan card of kind i to the reserve (DG-1.5)"),
        ("mix", k, "MIX: mix one reserve card of kind i into the deck (DG-3.6)"),
        ("take", k, "TAKE: put an offer card of kind i on the bottom of the own deck (DG-3.2)"),
        ("draft_return", k, "DRAFT: of the 3 drawn cards, return one of kind i, keep the other "
                            "2 (DG-2.1)"),
        ("place", k, "SETUP: place the drawn card of kind i as the first caravan card, the "
                     "other goes to the reserve (DG-3.1)"),
    ])


class Encoder:
    """Builds the observation of a :class:`~card_envs.dirt_and_glory.rules.DirtAndGloryGame`."""

    def __init__(self, game):
        from card_envs.dirt_and_glory.rules import PHASE_NAMES

        self.game = game
        n, K, R = game.num_players, game.num_kinds, game.config.num_rounds
        self.n, self.K, self.R = n, K, R
        nf = len(SEAT_FEATURES)
        self.layout = Layout([
            ("phase", len(PHASE_NAMES), "one-hot phase: " + ", ".join(PHASE_NAMES)),
            ("round", R, "one-hot round (0-based)"),
            ("territory", 7, "current territory: target / max target, points for 1st/2nd/3rd "
                             "/ max points, fuel for 1st/2nd/3rd / 9"),
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
        L = self.layout
        self.o_phase = L.start("phase")
        self.o_round = L.start("round")
        self.o_terr = L.start("territory")
        self.o_left = L.start("territories_left")
        self.o_unit = L.start("unit_deck_size")
        self.o_deck = L.start("own_deck")
        self.o_deck_size = L.start("own_deck_size")
        self.o_res = L.start("own_reserve")
        self.o_top = L.start("own_known_top")
        self.o_hand = L.start("own_hand")
        self.o_played = L.start("played")
        self.o_turn = L.start("turn")
        self.o_offer = L.start("offer")
        self.o_seats = L.start("seats")
        self.o_car = L.start("caravans")
        self.nf = nf
        self.inv_own = 1.0 / game.max_owned
        self.max_target = max(game.terr_target)
        self.max_points = max(1, max(max(p) for p in game.terr_points))
        self.total_scale = 1.0 / (self.max_target + 5)

    def encode(self, s, player: int) -> np.ndarray:
        g, n, K = self.game, self.n, self.K
        v = [0.0] * self.layout.size
        ck = g.card_kind
        inv = self.inv_own
        v[self.o_phase + s.phase] = 1.0
        r = min(s.round, self.R - 1)
        v[self.o_round + r] = 1.0
        t = s.territories[r]
        o = self.o_terr
        v[o] = g.terr_target[t] / self.max_target
        for i in range(3):
            v[o + 1 + i] = g.terr_points[t][i] / self.max_points
            v[o + 4 + i] = g.terr_fuel[t][i] / 9.0
        v[self.o_left] = max(0, self.R - s.round - 1) / self.R
        v[self.o_unit] = len(s.unit_deck) / g.deck_size
        deck = s.decks[player]
        o = self.o_deck
        for c in deck:
            v[o + ck[c]] += inv
        v[self.o_deck_size] = len(deck) * inv
        o = self.o_res
        for c in s.reserves[player]:
            v[o + ck[c]] += inv
        if s.peek[player] and deck:
            v[self.o_top + ck[deck[-1]]] = 1.0
        if s.player == player and s.hand:
            o = self.o_hand
            for c in s.hand:
                v[o + ck[c]] += 1.0 / 3.0
        if s.pending >= 0 and s.phase in (VALUE_, ABILITY_, AFTER_):
            v[self.o_played + ck[s.pending]] = 1.0
        if s.phase in (VALUE_, ABILITY_, AFTER_) and s.ctx == "play":
            v[self.o_turn] = 1.0 if s.from_reserve else 0.0
        v[self.o_turn + 1] = min(1.0, s.fuel_used / max(1, g.config.fuel_uses_per_turn))
        o = self.o_offer
        for c in s.offer:
            v[o + ck[c]] += 1.0 / n
        ts = self.total_scale
        for j in range(n):
            q = (player + j) % n
            o = self.o_seats + j * self.nf
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
            o = self.o_car + j * K
            for c in s.caravans[q]:
                v[o + ck[c]] += inv
        arr = np.array(v, dtype=np.float32)
        np.clip(arr, 0.0, 1.0, out=arr)
        return arr


from card_envs.dirt_and_glory.rules import ABILITY as ABILITY_, AFTER as AFTER_, END, VALUE as VALUE_  # noqa: E402
