"""Rust Brawl game facts as data: the card vocabulary (RB-2, RB-8), table sizes, the phases and
the ONE action layout (rule ids ``RB-…`` of ``docs/rules/rust_brawl.md``).

The vocabularies are shared with the card data (:mod:`.cards` validates every card against
them): card kinds (RB-2.1), action / kind icons, traits (RB-2.3) and the ability kinds of RB-8.
Every action id and name of the game comes from :func:`action_layout`; the play and discard
ranges have one action per hand slot (``max_hand`` of the config, default 10), so the game
builds its layout from its config (``game.action_layout``); :data:`ACTIONS` is the default one.
"""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases

# -- card vocabulary (RB-2.1, RB-2.3, RB-8) -------------------------------------------------------
#: card kinds (RB-2.1)
KINDS: tuple[str, ...] = ("character", "vehicle", "support", "equipment", "explosive")
#: icons: character melee | ranged | heal; vehicle wheel; support lightning; equipment
#: clothing; explosive flame (RB-2.1)
ICONS: tuple[str, ...] = ("melee", "ranged", "heal", "wheel", "lightning", "clothing", "flame")
#: traits (Mech, Animal from the RB-2.3 errata; the others designed)
TRAITS: tuple[str, ...] = ("Human", "Mutant", "Mech", "Animal", "Raider", "Miner", "Biker",
                           "Zombie")
#: the ability kinds of RB-8 (docs/rules/rust_brawl.md lists the fields each one uses)
ABILITY_KINDS: tuple[str, ...] = (
    "boost_dmg", "boost_hlt", "reduce", "reduce_vs", "paralysis_immune", "paralyse",
    "return_strike", "hit_all", "removes_hlt", "heal_all", "lottery", "draw", "extra_dmg_vs",
)
#: the icon each card kind shows (a character shows one of the three action icons)
KIND_ICONS: dict[str, tuple[str, ...]] = {
    "character": ("melee", "ranged", "heal"), "vehicle": ("wheel",),
    "support": ("lightning",), "equipment": ("clothing",), "explosive": ("flame",),
}
#: what a ``reduce_vs`` ability may be against besides a trait (RB-8)
ATTACK_TYPES: tuple[str, ...] = ("melee", "ranged")
#: the rewards of a ``lottery`` ability (RB-6.6, RB-8)
LOTTERY_REWARDS: tuple[str, ...] = ("draw", "damage")
#: the card sets of the seed's four lists (RB-2.4) with their sizes
SETS: dict[str, int] = {"RUSTHAVEN 2026": 57, "REDNECK 2025": 20, "RUSTHAVEN 2025": 43,
                        "RUSTHAVEN 2024": 54}

# kinds, icons, abilities as plain ints (the engine's per-card tables hold these codes)
CHARACTER, VEHICLE, SUPPORT, EQUIPMENT, EXPLOSIVE = range(len(KINDS))
MELEE, RANGED, HEAL, WHEEL, LIGHTNING, CLOTHING, FLAME = range(len(ICONS))
(AB_BOOST_DMG, AB_BOOST_HLT, AB_REDUCE, AB_REDUCE_VS, AB_PARALYSIS_IMMUNE, AB_PARALYSE,
 AB_RETURN_STRIKE, AB_HIT_ALL, AB_REMOVES_HLT, AB_HEAL_ALL, AB_LOTTERY, AB_DRAW,
 AB_EXTRA_DMG_VS) = range(len(ABILITY_KINDS))

# -- table and sizes (RB-3, RB-4) -------------------------------------------------------------------
NUM_SEATS = 2
POSITIONS = 4  # table positions 1-4 per player (RB-3.1); index 0-3 in code
HAND_KEEP = 4  # RB-4.4 more cards than this in hand: discard 1
STARTER_DRAW = 1  # RB-3.2 the starting player draws 1 card, the other 2
OTHER_DRAW = 2
MAX_COPIES = 2  # RB-1.1
#: the largest ``max_hand`` a config may ask for (the action and observation layouts grow with it)
MAX_HAND_LIMIT = 20
#: the most equipment cards a config may let one character hold
MAX_EQUIPMENT_LIMIT = 3
#: the most abilities one card may have (HLT-boost pair keys reserve this many per source)
MAX_ABILITIES = 16


# -- phases ---------------------------------------------------------------------------------------------
class Phase(IntEnum):
    """The decision phases (``state.phase``; the observation's one-hot ``phase`` piece)."""

    RANGED_TARGET = 0  # RB-4.2 / RB-5.2 choose the target of the acting ranged character
    HEAL_TARGET = 1  # RB-4.2 / RB-5.3 choose the friendly card the acting healer heals
    PLAY = 2  # RB-4.3 play one hand card or pass
    PLAY_OR_DISCARD = 3  # RB-4.3 an empty own table: play a card or discard one
    EQUIP_TARGET = 4  # RB-4.3 / RB-5.7 choose the character the played equipment goes to
    DISCARD = 5  # RB-4.4 more than 4 cards in hand: discard one
    END = 6  # the game is over


#: phase names indexed by ``state.phase`` (``game.phases``), and the phases as plain ints
PHASES, (RANGED_TARGET, HEAL_TARGET, PLAY, PLAY_OR_DISCARD, EQUIP_TARGET, DISCARD,
         END) = declare_phases(Phase)

#: why a game ended (``state.end_reason``; "" while it goes on)
END_REASONS: tuple[str, ...] = ("", "last_character", "no_characters", "stalemate", "empty_deck",
                                 "turn_cap")


# -- the action layout -------------------------------------------------------------------------------
def action_layout(max_hand: int = 10) -> Layout:
    """The flat ``Discrete`` action layout for a hand limit of ``max_hand`` cards:
    ``13 + 2·max_hand`` actions (33 for the default 10). The fixed-size pieces come first, so
    their ids do not depend on ``max_hand``. Hand slots index the own hand sorted by card
    (``state.hands[p]``); positions are table positions 1–4 as indices 0–3."""
    h = max_hand
    return Layout([
        ("pass", 1, "PLAY: play no card this turn (RB-4.3)"),
        ("equip", POSITIONS, "EQUIP_TARGET: attach the equipment being played to the own "
                             "character at position j+1 (RB-4.3, RB-5.7)"),
        ("ranged", POSITIONS, "RANGED_TARGET: the acting ranged character attacks the opposing "
                              "card at position j+1 (RB-5.2)"),
        ("heal", POSITIONS, "HEAL_TARGET: the acting healer heals the own card at position j+1 "
                            "(RB-5.3)"),
        ("play", h, "PLAY / PLAY_OR_DISCARD: play hand card i (a character, vehicle or support "
                    "to the lowest free position in cover, an equipment to a character, an "
                    "explosive at once; RB-4.3)"),
        ("discard", h, "PLAY_OR_DISCARD / DISCARD: discard hand card i to the graveyard "
                       "(RB-4.3, RB-4.4)"),
    ])


#: the default layout (``max_hand=10``)
ACTIONS = action_layout()
# the fixed-size pieces come first: their ids do not depend on max_hand; the hand-slot pieces
# start at A_PLAY (discard after max_hand)
A_PASS, A_EQUIP, A_RANGED, A_HEAL, A_PLAY = ACTIONS.starts(
    "pass", "equip", "ranged", "heal", "play")


def discard_start(max_hand: int) -> int:
    """The id of ``discard 0`` for a hand limit of ``max_hand`` (``A_PLAY + max_hand``)."""
    return A_PLAY + max_hand
