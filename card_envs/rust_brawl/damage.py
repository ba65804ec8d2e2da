"""The Rust Brawl damage rule (RB-6.1, RB-6.2, RB-6.3, RB-6.7, RB-6.13), stated once: pure
arithmetic on ints and :class:`~card_envs.rust_brawl.queries.Profile` s, read by the rules (the
attack, the return strike, the explosive, the lottery's damage) and by the heuristic bot (the
damage a ranged hit would do, from the public table).

The damage of one hit of DMG ``dmg`` on a card:

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

from typing import TYPE_CHECKING

from card_envs.rust_brawl.constants import AB_REMOVES_HLT, MELEE, RANGED

if TYPE_CHECKING:
    from card_envs.rust_brawl.queries import Profile

__all__ = ["NOT_AN_ATTACK", "dealt", "extra_dmg", "hit", "removes_hlt"]

#: the ``attack`` of damage that is not an attack (no melee / ranged reductions)
NOT_AN_ATTACK = -1
_F_REMOVES = 1 << AB_REMOVES_HLT


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
    if attacker.flags & _F_REMOVES:
        return removes_hlt(attacker, printed_dmg)
    if attacker.extra_vs:
        dmg += extra_dmg(attacker, target_tmask)
    return dealt(dmg, in_cover, target, attacker_tmask, attack)
