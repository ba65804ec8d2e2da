"""Garda3 facts as data: battle cards, the one action layout, phases, variants (G-1, G-4).

Battle cards are ints ``0..35``: ``id = (value-1)*12 + attack_dir*6 + defence_dir*3 + colour``
with directions ``HIGH=0`` / ``LOW=1`` and colours ``WHITE=0``, ``BLACK=1``, ``PIEBALD=2`` (G-1.3).
The action ids are the ranges of :data:`ACTIONS` (one flat ``Discrete``); every other module takes
them from here. :func:`battle_outcome` is the battle arithmetic (G-4.3–G-4.8) that the rules, the
observation and the bot share.
"""

from __future__ import annotations

from enum import IntEnum

from card_envs.core.layout import Layout
from card_envs.core.phases import declare_phases

# ---------------------------------------------------------------------------------------------
# Battle cards (G-1.2, G-1.3)
HIGH, LOW = 0, 1
DIRECTIONS = ("high", "low")
WHITE, BLACK, PIEBALD = 0, 1, 2
COLOURS = ("white", "black", "piebald")
NUM_CARDS = 36
MAX_SEATS = 3  # free_for_all (G-7.4); 2 otherwise
GUARD_SIZE = 3  # fighters in a guard (G-2.3)
SET_SIZE = 9  # fighters in a set (G-1.4)


def card_id(value: int, attack_dir: int, defence_dir: int, colour: int) -> int:
    """The id of the battle card with these properties (value 1..3, dirs 0/1, colour 0..2)."""
    return (value - 1) * 12 + attack_dir * 6 + defence_dir * 3 + colour


CARD_VALUE = [c // 12 + 1 for c in range(NUM_CARDS)]
CARD_ATTACK_DIR = [(c // 6) % 2 for c in range(NUM_CARDS)]
CARD_DEFENCE_DIR = [(c // 3) % 2 for c in range(NUM_CARDS)]
CARD_COLOUR = [c % 3 for c in range(NUM_CARDS)]


def card_name(c: int) -> str:
    """E.g. ``"2 atk-high def-low black"``."""
    return (f"{CARD_VALUE[c]} atk-{DIRECTIONS[CARD_ATTACK_DIR[c]]} "
            f"def-{DIRECTIONS[CARD_DEFENCE_DIR[c]]} {COLOURS[CARD_COLOUR[c]]}")


# ---------------------------------------------------------------------------------------------
# Actions (one flat Discrete space)
ACTIONS = Layout([
    ("pick", 9, "draft: take fighter k (0–8) of the set being drafted (G-2.3)"),
    ("slot", 3, "choose own fighter slot k (0–2): the fighter sent into battle (G-4.1), or the "
                "eliminated fighter to bring back (G-7.2)"),
    ("target", 2, "free_for_all: attack the opponent k+1 seats clockwise (G-7.4)"),
    ("card", 36, "play battle card id c (0–35) from hand as attack or defence (G-4.2, G-4.6)"),
    ("done", 1, "stop after one card (play a single card); an empty defence only under "
                "`allow_empty_defence` (G-4.6)"),
    ("bonus", 2, "give the fighter's bonus to the high (0) / low (1) direction (G-4.5, G-4.6)"),
    ("counter", 1, "counter-attack (G-5.1)"),
    ("decline", 1, "decline the counter-attack (G-5.2)"),
    ("resurrect", 1, "declare a resurrection instead of attacking (G-7.2, `resurrection` variant)"),
])
(
    A_PICK, A_SLOT, A_TARGET, A_CARD, A_DONE, A_BONUS, A_COUNTER, A_DECLINE, A_RESURRECT,
) = ACTIONS.starts(
    "pick", "slot", "target", "card", "done", "bonus", "counter", "decline", "resurrect",
)


# Phases (who decides what): ``state.phase`` holds the int value
class Phase(IntEnum):
    """The decision phases of a round (G-4, G-5, G-7.2), in observation one-hot order."""

    DRAFT = 0
    TARGET = 1
    ATTACKER_FIGHTER = 2
    DEFENDER_FIGHTER = 3
    ATTACK_CARDS = 4
    ATTACK_BONUS = 5
    DEFENCE_CARDS = 6
    DEFENCE_BONUS = 7
    COUNTER_CHOICE = 8
    RESURRECT_CHOICE = 9
    OVER = 10


#: phase names indexed by ``state.phase``, and the phases as plain ints for the hot path
PHASES, (PH_DRAFT, PH_TARGET, PH_ATTACKER_FIGHTER, PH_DEFENDER_FIGHTER, PH_ATTACK_CARDS,
         PH_ATTACK_BONUS, PH_DEFENCE_CARDS, PH_DEFENCE_BONUS, PH_COUNTER_CHOICE,
         PH_RESURRECT_CHOICE, PH_OVER) = declare_phases(Phase)

VARIANTS = ("classic", "royale", "resurrection", "night", "free_for_all")


def battle_outcome(atk_cards: list[int], atk_side: int, atk_bonus: int, def_cards: list[int],
                   def_side: int, def_bonus: int) -> tuple[list[int], list[int], int]:
    """Resolve one battle (G-4.3–G-4.8).

    Args:
        atk_cards: the 0–2 attack card ids.
        atk_side: the chosen attack-bonus direction (HIGH/LOW) when the two cards differ in
            direction; ``-1`` = not chosen (HIGH is used; the engine always asks when it matters).
        atk_bonus: the attacking fighter's attack bonus (0..2).
        def_cards: the 0–2 defence card ids.
        def_side: the chosen defence-bonus direction, as ``atk_side``.
        def_bonus: the defending fighter's defence bonus (0..2).

    Returns:
        ``(attack, defence, damage)``: strength per direction ``[high, low]`` after bonuses and
        the HP the defending fighter loses. The attack bonus is added once (G-4.3/G-4.4), to the
        chosen side for a two-direction attack (G-4.5). The defence bonus counts only in a
        direction that is attacked and defended by a card (G-4.7), once; on the chosen side when
        both attacked directions are defended (G-4.6). An attacked direction without a defence
        card in it is defended by 0 (G-4.7). ``damage = sum(max(0, attack - defence))`` over the
        attacked directions (G-4.8).
    """
    attack = [0, 0]
    attacked = [False, False]
    for c in atk_cards:
        d = CARD_ATTACK_DIR[c]
        attack[d] += CARD_VALUE[c]
        attacked[d] = True
    if atk_cards:
        if attacked[HIGH] and attacked[LOW]:
            side = atk_side if atk_side >= 0 else HIGH
        else:
            side = HIGH if attacked[HIGH] else LOW
        attack[side] += atk_bonus
    defence = [0, 0]
    defended = [False, False]
    for c in def_cards:
        d = CARD_DEFENCE_DIR[c]
        defence[d] += CARD_VALUE[c]
        defended[d] = True
    eligible = [d for d in (HIGH, LOW) if attacked[d] and defended[d]]
    if eligible:
        side = (def_side if def_side >= 0 else HIGH) if len(eligible) == 2 else eligible[0]
        defence[side] += def_bonus
    damage = 0
    for d in (HIGH, LOW):
        if attacked[d]:
            damage += max(0, attack[d] - defence[d])
    return attack, defence, damage
