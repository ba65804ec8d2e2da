"""Scratch Wars facts as data: table sizes, effect icons, colours, slot statuses, phases, the
static bounds of the numbers in a state, and the one action layout (:data:`ACTIONS`) with the
action ids derived from it. Rule ids ``SW-…``: ``docs/rules/scratch_wars.md``.
"""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases

WEAPON_SLOTS = 5  # SW-2.1: a hero equips 1–5 weapons, kept in slots 0..4 in loadout order
SEGMENTS = 9  # SW-1.3: every wheel has 9 segments; a spin picks one uniformly
BONUS_SLOTS = 2  # SW-1.3: two bonus slots per time of day
TIMES_OF_DAY = ("morning", "noon", "evening", "night")  # SW-4.1: the round cycles through them
DAY_LENGTH = len(TIMES_OF_DAY)  # rounds per day (SW-4.4 counts days)
WEAPON_TYPES = ("bow", "axe", "sword", "wand")  # SW-1.2


class Effect(IntEnum):
    """Effect icons: the 8 a wheel segment can show (SW-5.4 … SW-5.13), then the 3 special hero
    bonuses (SW-6), which only a hero card's bonus can carry."""

    ENERGY = 0
    HERO_ATTACK = 1
    WEAPON_ATTACK = 2
    UNIVERSAL = 3
    HEAL = 4
    PERMANENT = 5
    SHIELD = 6
    COMBO = 7
    BLESSING = 8
    COMBO_BONUS = 9
    DETONATOR = 10


# plain ints (the state stores plain ints, saved as JSON ints; the rules compare at int speed)
(ENERGY, HERO_ATTACK, WEAPON_ATTACK, UNIVERSAL, HEAL, PERMANENT, SHIELD, COMBO,
 BLESSING, COMBO_BONUS, DETONATOR) = (int(e) for e in Effect)
#: segment icon names (the card files' ``effect``), in :class:`Effect` order
EFFECTS = tuple(e.name.lower() for e in Effect if e <= COMBO)
#: special hero bonus names (SW-6), continuing :data:`EFFECTS`
SPECIAL_BONUSES = tuple(e.name.lower() for e in Effect if e > COMBO)
BONUS_EFFECTS = EFFECTS + SPECIAL_BONUSES
#: the effects stored on their weapon when applied (SW-5.10)
STORABLE = (PERMANENT, SHIELD, COMBO)


class Colour(IntEnum):
    """Field colours (SW-3.2): green goes on, orange decides, red stops."""

    GREEN = 0
    ORANGE = 1
    RED = 2


GREEN, ORANGE, RED = (int(c) for c in Colour)
COLOURS = tuple(c.name.lower() for c in Colour)


class SlotStatus(IntEnum):
    """A weapon slot: no weapon, ready to spin, broken (SW-5.6), under repair until its owner's
    next turn (SW-5.9), set aside holding a stored effect (SW-5.10)."""

    ABSENT = 0
    READY = 1
    BROKEN = 2
    REPAIRING = 3
    STORED = 4


ABSENT, READY, BROKEN, REPAIRING, STORED = (int(s) for s in SlotStatus)
STATUS_NAMES = tuple(s.name.lower() for s in SlotStatus)


class Phase(IntEnum):
    """Who decides what (the rules module docstring says more)."""

    INIT_WEAPON = 0  # each seat in turn: the weapon to spin for initiative (SW-2.2)
    INIT_ORDER = 1  # the initiative winner: who starts (SW-2.2)
    MAIN = 2  # turn player: spin, repair, cancel a stored effect, end the turn
    RESULT = 3  # turn player: apply or decline the spun segment (SW-3.2)
    BONUS = 4  # the seat using an effect: add an offered hero bonus or none (SW-4.2, SW-6)
    TARGET = 5  # attacker: hero, weapon or stored effect (SW-5.6, SW-5.7, SW-5.13)
    SHIELD = 6  # defender: use a stored shield, or no more (SW-5.12)
    DETONATE = 7  # turn player at its turn end: detonate the stored combos or keep them (SW-5.13)
    OVER = 8


#: phase names indexed by ``state.phase`` (``game.phases``), and the phases as plain ints, as
#: the state stores them
PHASES, (PH_INIT_WEAPON, PH_INIT_ORDER, PH_MAIN, PH_RESULT, PH_BONUS, PH_TARGET, PH_SHIELD,
         PH_DETONATE, PH_OVER) = declare_phases(Phase)

# static bounds of the numbers in a state (the card files' and the config's validated ranges)
SEGMENT_VALUE_MAX = 12  # a segment's value 0..12
DURABILITY_MAX = 9  # a weapon's / stored effect's durability 1..9
COST_MAX = 3  # a weapon's spin cost 1..3 (SW-1.2)
BONUS_MIN, BONUS_MAX = -5, 9  # a hero bonus value
TIME_ENERGY_MAX = 6  # a hero's energy per time of day 0..6
HP_MAX = 40  # printed duel HP 1..40
#: the largest attack: every slot a combo of the largest value, and the largest bonus (SW-5.13)
ATTACK_MAX = WEAPON_SLOTS * SEGMENT_VALUE_MAX + BONUS_MAX
#: a hero at 1 HP hit by the largest attack, plus two negative shield bonuses adding to it
#: (``shield_block_floor=False``)
HP_MIN = 1 - (ATTACK_MAX + 2 * -BONUS_MIN)
ENERGY_MAX = 40  # config energy_cap 1..40
ACTIONS_MAX = 10  # config actions_per_turn 1..10
ROUNDS_MAX = 1000  # config max_rounds 1..1000

#: the flat action space (SW decisions); its table is in the env module docstring
ACTIONS = Layout(
    [
        ("init_weapon", WEAPON_SLOTS, "SW-2.2: spin weapon slot k for initiative"),
        ("init_order", 2, "SW-2.2 initiative winner: 0 = I start, 1 = the opponent starts"),
        ("spin", WEAPON_SLOTS, "SW-3.1/SW-5.2: spend an action (and energy) to spin weapon "
                               "slot k"),
        ("repair", WEAPON_SLOTS, "SW-5.9: repair broken weapon slot k (1 action + its spin "
                                 "cost)"),
        ("cancel", WEAPON_SLOTS, "SW-5.10: cancel the own stored effect on weapon slot k (free)"),
        ("end_turn", 1, "SW-5.3: end the turn voluntarily"),
        ("apply", 1, "SW-3.2: apply (or store) the spun effect"),
        ("decline", 1, "SW-3.2: decline the spun effect (green/orange fields) and go on"),
        ("bonus", BONUS_SLOTS, "SW-4.2/SW-6: add hero bonus slot j of the current time of day"),
        ("no_bonus", 1, "SW-4.2: add no bonus to this spin/use"),
        ("target_hero", 1, "SW-5.7/SW-5.13: attack the opposing hero"),
        ("target_weapon", WEAPON_SLOTS, "SW-5.6: attack opposing weapon slot k (in play)"),
        ("target_effect", WEAPON_SLOTS, "SW-5.6: attack the stored effect on opposing slot k"),
        ("shield", WEAPON_SLOTS, "SW-5.12 (defender): use the own stored shield on slot k"),
        ("shield_done", 1, "SW-5.12 (defender): use no (more) shields against this attack"),
        ("detonate", 1, "SW-5.13/SW-6.3: detonate all stored combos now"),
        ("keep_combos", 1, "SW-5.13: keep the stored combos for later"),
    ]
)
(
    A_INIT_WEAPON, A_INIT_ORDER, A_SPIN, A_REPAIR, A_CANCEL, A_END_TURN, A_APPLY, A_DECLINE,
    A_BONUS, A_NO_BONUS, A_TARGET_HERO, A_TARGET_WEAPON, A_TARGET_EFFECT, A_SHIELD, A_SHIELD_DONE,
    A_DETONATE, A_KEEP_COMBOS,
) = ACTIONS.starts(
    "init_weapon", "init_order", "spin", "repair", "cancel", "end_turn", "apply", "decline",
    "bonus", "no_bonus", "target_hero", "target_weapon", "target_effect", "shield", "shield_done",
    "detonate", "keep_combos",
)
