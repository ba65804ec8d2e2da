"""Garda3 observation encoder: one flat float32 vector, values in [0, 1], from one seat's view,
and its per-entity view (:func:`entities`: the battle cards and fighters as rows).

Seats are relative: "me", then the players 1 and 2 seats clockwise (the third block is zero in
2-player games). Never encoded: another player's hand, the deck order, or a face-down (night)
attack card before it is revealed (G-7.3).
"""

from __future__ import annotations

import numpy as np

from card_envs.core.entities import EntityLayout, Target, Zone
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.garda3.constants import (
    A_CARD,
    ACTIONS,
    COLOURS,
    CARD_ATTACK_DIR,
    CARD_COLOUR,
    CARD_DEFENCE_DIR,
    CARD_VALUE,
    GUARD_SIZE,
    MAX_SEATS,
    NUM_CARDS,
    PH_ATTACK_BONUS,
    PH_ATTACK_CARDS,
    PH_DEFENCE_BONUS,
    PH_DEFENCE_CARDS,
    PH_DRAFT,
    PHASES,
    SET_SIZE,
    battle_outcome,
)
from card_envs.garda3.state import blocker_slot, striker_slot

FIGHTER_FEATURES = 7  # per fighter slot: the seven entries of the `fighters` piece
POOL_FEATURES = 4  # per draft-pool fighter: the four entries of the `draft_pool` piece
OBSERVATION = Layout([
    ("phase", len(PHASES), "one-hot phase: " + ", ".join(PHASES)),
    ("role", 4, "[I am to act, I am the striker, I am the blocker, I am this round's attacker]"),
    ("battle_flags", 3, "[this battle is the counter-attack, a face-down attack card is hidden "
                        "from me (night), a resurrection was declared this round]"),
    ("hand", NUM_CARDS, "my hand: 1 per battle-card id held"),
    ("attack_cards", NUM_CARDS, "attack cards of the current battle that I can see"),
    ("defence_cards", NUM_CARDS, "defence cards of the current battle"),
    ("discard", NUM_CARDS, "the public discard pile (G-4.9)"),
    ("attack_bonus_side", 2, "chosen attack-bonus side one-hot [high, low]"),
    ("defence_bonus_side", 2, "chosen defence-bonus side one-hot [high, low]"),
    ("fighters", MAX_SEATS * GUARD_SIZE * FIGHTER_FEATURES,
     "seats (me, +1, +2 clockwise) × slots 0–2 × [chosen, alive, hp/7, max_hp/7, "
     "attack_bonus/2, defence_bonus/2, in battle]"),
    ("draft_pool", SET_SIZE * POOL_FEATURES, "the 9 fighters of the set I draft from × [available, "
                          "attack_bonus/2, defence_bonus/2, hp/7]"),
    ("hand_sizes", MAX_SEATS, "hand size / 36 for seats me, +1, +2"),
    ("deck_size", 1, "deck size / 36"),
    ("round", 1, "round / max_rounds"),
    ("seat_roles", MAX_SEATS * 2, "for seats me, +1, +2: [is this round's attacker, is the target]"),
    ("players_in", MAX_SEATS, "for seats me, +1, +2: still has a fighter (seat exists and is in)"),
    ("battle", 8, "the current battle as I can see it (derived, G-4.3–G-4.8): [striker's attack "
                  "bonus/2, blocker's defence bonus/2, attack high/8, attack low/8, defence "
                  "high/8, defence low/8, damage if resolved now/8 (capped at 1), cards "
                  "played by the striker/2]"),
    ("hand_summary", 7, "my hand (derived): [best attack value high/3, best attack value low/3, "
                        "best defence value high/3, best defence value low/3, white, black, "
                        "piebald cards/3 (capped at 1)]"),
])

_BATTLE_PHASES = frozenset((PH_ATTACK_CARDS, PH_ATTACK_BONUS, PH_DEFENCE_CARDS, PH_DEFENCE_BONUS))

# -- the per-entity view ------------------------------------------------------------------------
#: the features of a battle card row (G-1.3)
CARD_FEATURES = ("value / 3", "attack high", "attack low", "defence high", "defence low",
                 *COLOURS)
#: every battle card's row, by card id
CARD_ROWS = np.zeros((NUM_CARDS, len(CARD_FEATURES)), dtype=np.float32)
for _c in range(NUM_CARDS):
    CARD_ROWS[_c, 0] = CARD_VALUE[_c] / 3.0
    CARD_ROWS[_c, 1 + CARD_ATTACK_DIR[_c]] = 1.0
    CARD_ROWS[_c, 3 + CARD_DEFENCE_DIR[_c]] = 1.0
    CARD_ROWS[_c, 5 + CARD_COLOUR[_c]] = 1.0
#: the features of a fighter row (the entries of the flat ``fighters`` piece)
FIGHTER_ROW = ("chosen", "alive", "hp / 7", "max_hp / 7", "attack_bonus / 2",
               "defence_bonus / 2", "in battle")
#: the features of a draft-pool row (the entries of the flat ``draft_pool`` piece)
POOL_ROW = ("available", "attack_bonus / 2", "defence_bonus / 2", "hp / 7")
#: the hand rows without the royale variant (G-3.1: drawn up to 3, G-7.2: a new hand of 3)
HAND_ROWS = 3


def entities(royale: bool) -> EntityLayout:
    """The per-entity view (a hand of up to 36 cards with ``royale``, G-7.1, else 3)."""
    card = f"the {len(CARD_FEATURES)} battle-card features"
    return EntityLayout(OBSERVATION, ACTIONS, zones=[
        Zone("hand", NUM_CARDS if royale else HAND_ROWS, CARD_FEATURES,
             "my hand, sorted by card id (36 rows with `royale`)"),
        Zone("attack_cards", 2, CARD_FEATURES, "the current battle's attack cards I can see, in "
             "play order", features_doc=card),
        Zone("defence_cards", 2, CARD_FEATURES, "the current battle's defence cards",
             features_doc=card),
        Zone("discard", NUM_CARDS, CARD_FEATURES, "the public discard pile, sorted by card id",
             features_doc=card),
        Zone("own_fighters", GUARD_SIZE, FIGHTER_ROW, "my fighter slots 0–2",
             source="fighters"),
        Zone("opponent_fighters", (MAX_SEATS - 1) * GUARD_SIZE, FIGHTER_ROW,
             "fighter slots 0–2 of the seat +1 clockwise, then of the seat +2 (zero in "
             "2-player games)", source="fighters", source_row=GUARD_SIZE,
             features_doc="as `own_fighters`"),
        Zone("draft_pool", SET_SIZE, POOL_ROW, "the 9 fighters of the set I draft from (a row "
             "is empty once taken)", source="draft_pool"),
    ], globals=("phase", "role", "battle_flags", "attack_bonus_side", "defence_bonus_side",
                "hand_sizes", "deck_size", "round", "seat_roles", "players_in", "battle",
                "hand_summary"),
        targets=[
            Target("pick", "draft_pool"),
            Target("slot", "own_fighters"),
            Target("card", "hand", dynamic=True, meaning="the row holding card id c"),
        ])


class Garda3Encoder(Encoder):
    """Seat ``player``'s observation: float32, shape ``(OBSERVATION.size,)``, every value in
    [0, 1] (layout: :data:`OBSERVATION`). The draft-pool statistics are the static part, one
    per fighter set (key: the set's index)."""

    LAYOUT = OBSERVATION

    def make_entities(self, game) -> EntityLayout:
        return entities(game.royale)

    def fill_entities(self, s, player: int, flat: np.ndarray, out: dict) -> None:
        hand = sorted(s.hands[player])
        if hand:
            out["hand"][:len(hand)] = CARD_ROWS[hand]
            targets = out["action_targets"]
            first = self.entity_layout.row_start["hand"]
            for i, c in enumerate(hand):
                targets[A_CARD + c, 0] = first + i
        if s.atk_cards and not self.game.hidden_from(s, player):
            out["attack_cards"][:len(s.atk_cards)] = CARD_ROWS[s.atk_cards]
        if s.def_cards:
            out["defence_cards"][:len(s.def_cards)] = CARD_ROWS[s.def_cards]
        if s.discard:
            out["discard"][:len(s.discard)] = CARD_ROWS[sorted(s.discard)]

    def static_part(self, set_index: int) -> list[float]:
        buf = [0.0] * OBSERVATION.size
        pool = self.at.draft_pool
        for k, (a, d, mx) in enumerate(self.game.stats[set_index]):
            o = pool + POOL_FEATURES * k
            buf[o + 1] = a / 2.0
            buf[o + 2] = d / 2.0
            buf[o + 3] = mx / 7.0
        return buf

    def encode(self, s, player: int) -> np.ndarray:
        game = self.game
        at = self.at
        buf = self.static(game.set_of(player)).copy()
        buf[at.phase + s.phase] = 1.0
        if s.player == player:
            buf[at.role] = 1.0
        if s.striker == player:
            buf[at.role + 1] = 1.0
        if s.blocker == player:
            buf[at.role + 2] = 1.0
        if s.round_attacker == player:
            buf[at.role + 3] = 1.0
        hidden = game.hidden_from(s, player)
        if s.counter:
            buf[at.battle_flags] = 1.0
        if hidden:
            buf[at.battle_flags + 1] = 1.0
        if s.resurrected:
            buf[at.battle_flags + 2] = 1.0
        for c in s.hands[player]:
            buf[at.hand + c] = 1.0
        if not hidden:
            for c in s.atk_cards:
                buf[at.attack_cards + c] = 1.0
        for c in s.def_cards:
            buf[at.defence_cards + c] = 1.0
        for c in s.discard:
            buf[at.discard + c] = 1.0
        if s.atk_bonus >= 0:
            buf[at.attack_bonus_side + s.atk_bonus] = 1.0
        if s.def_bonus >= 0:
            buf[at.defence_bonus_side + s.def_bonus] = 1.0
        n = game.num_players
        for rel in range(n):
            seat = (player + rel) % n
            stats = game.stats[game.set_of(seat)]
            hp = s.hp[seat]
            base = at.fighters + rel * GUARD_SIZE * FIGHTER_FEATURES
            alive = False
            for slot, k in enumerate(s.fighters[seat]):
                a, d, mx = stats[k]
                o = base + slot * FIGHTER_FEATURES
                h = hp[slot]
                buf[o] = 1.0
                if h > 0:
                    alive = True
                    buf[o + 1] = 1.0
                    buf[o + 2] = h / 7.0
                buf[o + 3] = mx / 7.0
                buf[o + 4] = a / 2.0
                buf[o + 5] = d / 2.0
            if seat == s.round_attacker:
                buf[at.seat_roles + 2 * rel] = 1.0
                if s.atk_slot >= 0:
                    buf[base + s.atk_slot * FIGHTER_FEATURES + 6] = 1.0
            if seat == s.target:
                buf[at.seat_roles + 2 * rel + 1] = 1.0
                if s.def_slot >= 0:
                    buf[base + s.def_slot * FIGHTER_FEATURES + 6] = 1.0
            buf[at.hand_sizes + rel] = min(len(s.hands[seat]) / NUM_CARDS, 1.0)
            if alive or s.phase == PH_DRAFT:
                buf[at.players_in + rel] = 1.0
        avail = s.available[game.set_of(player)]
        for k in range(SET_SIZE):
            if avail[k]:
                buf[at.draft_pool + POOL_FEATURES * k] = 1.0
        if s.striker >= 0 and (s.atk_cards or s.def_cards or s.phase in _BATTLE_PHASES):
            atk_bonus = game.fighter_stats(s, s.striker, striker_slot(s))[0]
            def_bonus = game.fighter_stats(s, s.blocker, blocker_slot(s))[1]
            buf[at.battle] = atk_bonus / 2.0
            buf[at.battle + 1] = def_bonus / 2.0
            atk = [] if hidden else s.atk_cards
            if atk or s.def_cards:
                attack, defence, damage = battle_outcome(atk, s.atk_bonus, atk_bonus, s.def_cards,
                                                         s.def_bonus, def_bonus)
                if atk:
                    buf[at.battle + 2] = attack[0] / 8.0
                    buf[at.battle + 3] = attack[1] / 8.0
                buf[at.battle + 4] = defence[0] / 8.0
                buf[at.battle + 5] = defence[1] / 8.0
                buf[at.battle + 6] = min(damage / 8.0, 1.0)
                buf[at.battle + 7] = len(s.atk_cards) / 2.0
        hand = s.hands[player]
        if hand:
            best = [0, 0, 0, 0]
            colours = [0, 0, 0]
            for c in hand:
                v = CARD_VALUE[c]
                ad = CARD_ATTACK_DIR[c]
                dd = 2 + CARD_DEFENCE_DIR[c]
                if v > best[ad]:
                    best[ad] = v
                if v > best[dd]:
                    best[dd] = v
                colours[CARD_COLOUR[c]] += 1
            for i in range(4):
                buf[at.hand_summary + i] = best[i] / 3.0
            for i in range(3):
                buf[at.hand_summary + 4 + i] = min(colours[i] / 3.0, 1.0)
        buf[at.deck_size] = len(s.deck) / NUM_CARDS
        buf[at.round] = min(s.round / game.config.max_rounds, 1.0)
        return np.array(buf, dtype=np.float32)
