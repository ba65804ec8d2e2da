"""The records of a Scratch Wars state: its value types, immutable and shared by clone (see
:mod:`card_envs.core.state`), and the bounded ints and literals its fields are made of.

The weapon slots are frozen dataclasses (read in every legal-action scan), the spins and the attack
NamedTuples (built on every spin). :mod:`card_envs.scratch_wars.state` declares the state from
them and re-exports every name, so ``from card_envs.scratch_wars.state import WeaponSlot`` works.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, NamedTuple

from pydantic import Field

from card_envs.scratch_wars.constants import (
    ABSENT,
    ATTACK_MAX,
    BONUS_MAX,
    BONUS_MIN,
    BROKEN,
    COMBO,
    DURABILITY_MAX,
    ENERGY,
    GREEN,
    PERMANENT,
    READY,
    RED,
    REPAIRING,
    SEGMENTS,
    SEGMENT_VALUE_MAX,
    STORED,
    WEAPON_SLOTS,
)

Seat = Annotated[int, Field(ge=0, le=1)]
SeatOrNone = Annotated[int, Field(ge=-1, le=1)]  # -1: no seat
Slot = Annotated[int, Field(ge=0, le=WEAPON_SLOTS - 1)]
SlotOrNone = Annotated[int, Field(ge=-1, le=WEAPON_SLOTS - 1)]  # -1: no slot
SegmentIndex = Annotated[int, Field(ge=0, le=SEGMENTS - 1)]
#: what a bonus decision is about (SW-4.2, SW-6.4): a spun one-shot effect, a permanent attack
#: firing, a shield used, a detonation
BonusEvent = Literal["spin", "permanent", "shield", "detonation"]
#: where an attack comes from: a spin, a stored permanent attack firing (SW-5.11), a detonation
#: of stored combos (SW-5.13)
AttackSource = Literal["spin", "permanent", "detonation"]


@dataclass(frozen=True, slots=True)
class StoredEffect:
    """An effect stored on its weapon (SW-5.10): the effect, its value and durability (SW-5.6),
    and whether it was stored during its owner's latest turn (SW-5.11 DECISION
    ``permanent_fires_when_stored``; cleared when the owner's next turn starts)."""

    effect: Annotated[int, Field(ge=PERMANENT, le=COMBO)]
    value: Annotated[int, Field(ge=0, le=SEGMENT_VALUE_MAX)]
    durability: Annotated[int, Field(ge=1, le=DURABILITY_MAX)]
    stored_this_turn: bool


@dataclass(frozen=True, slots=True)
class WeaponSlot:
    """One weapon slot: its :class:`~card_envs.scratch_wars.constants.SlotStatus` and, exactly
    when the status is ``stored``, the effect it holds."""

    status: Annotated[int, Field(ge=ABSENT, le=STORED)]
    stored: StoredEffect | None


ABSENT_SLOT = WeaponSlot(ABSENT, None)
READY_SLOT = WeaponSlot(READY, None)
BROKEN_SLOT = WeaponSlot(BROKEN, None)
REPAIRING_SLOT = WeaponSlot(REPAIRING, None)


class Spin(NamedTuple):
    """A spin: the seat, its weapon slot and the segment the wheel landed on."""

    seat: Seat
    slot: Slot
    segment: SegmentIndex


class SpinResult(NamedTuple):
    """The turn's latest spin, to apply or decline: its segment's effect and colour, its value
    (0 for a level-2 energy, SW-4.3; plus a bonus once one is added) and the durability an
    effect stored from it gets (SW-5.10). It is ``last_spin``'s segment."""

    effect: Annotated[int, Field(ge=ENERGY, le=COMBO)]
    value: Annotated[int, Field(ge=BONUS_MIN, le=SEGMENT_VALUE_MAX + BONUS_MAX)]
    colour: Annotated[int, Field(ge=GREEN, le=RED)]
    durability: Annotated[int, Field(ge=1, le=DURABILITY_MAX)]


class Attack(NamedTuple):
    """The attack being resolved (SW-5.5 … SW-5.7, SW-5.11 … SW-5.13).

    Attributes:
        attacker: the attacking seat (the turn player).
        source: a spin, a permanent attack firing, or a detonation.
        kind: what it may target: ``"hero"`` (hero attacks, permanent attacks, every attack
            below the SW-5 effects), ``"weapon"`` (a weapon or a stored effect, SW-5.6) or
            ``"universal"`` (any of them, SW-5.7; a detonation, SW-5.13).
        value: the attack value, bonus included.
        target: ``None`` until chosen, then ``"hero"``, ``"weapon"`` or ``"stored_effect"``
            (of the defender).
        target_slot: the defender's slot of a weapon or stored-effect target, else -1.
        shielded: the shield total already subtracted from it (SW-5.12).
    """

    attacker: Seat
    source: AttackSource
    kind: Literal["hero", "weapon", "universal"]
    value: Annotated[int, Field(ge=BONUS_MIN, le=ATTACK_MAX)]
    target: Literal["hero", "weapon", "stored_effect"] | None
    target_slot: SlotOrNone
    shielded: Annotated[int, Field(ge=2 * BONUS_MIN, le=ATTACK_MAX)]
