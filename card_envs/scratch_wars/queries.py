"""Scratch Wars position queries: the public facts of a position that the rules
(:mod:`.rules`), the encoder, the view and the bot read (a hero's bonuses of the time of day, a
spin's cost, the legal targets of an attack, the shields that may answer it, the permanent
attacks that fire, whether the combos can be detonated), and the catalogue the game is built
from. :class:`ScratchWarsQueries` is the base of the Game class
(:class:`~card_envs.scratch_wars.rules.ScratchWarsGame`); it never changes a state.
"""

from __future__ import annotations

from card_envs.core.game import GameBase
from card_envs.scratch_wars.cards import (
    BonusCard,
    Catalogue,
    HeroCard,
    SegmentCard,
    WeaponCard,
    load_catalogue,
)
from card_envs.scratch_wars.config import ScratchWarsConfig, check_loadout
from card_envs.scratch_wars.constants import (
    A_TARGET_EFFECT,
    A_TARGET_HERO,
    A_TARGET_WEAPON,
    BLESSING,
    COMBO,
    COMBO_BONUS,
    DETONATOR,
    PERMANENT,
    READY,
    SHIELD,
    STORABLE,
    STORED,
)
from card_envs.scratch_wars.state import BonusEvent, ScratchWarsState, time_of_day


class ScratchWarsQueries(GameBase[ScratchWarsState]):
    """The catalogue, the config's derived switches and the position queries of a Scratch Wars
    game (module docstring); :class:`~card_envs.scratch_wars.rules.ScratchWarsGame` adds the
    rules.

    Args:
        config: the :class:`ScratchWarsConfig`.
        catalogue: optional in-memory :class:`Catalogue` (tests, balance studies); default:
            loaded from ``config.catalogue_dir`` (or the shipped one).

    Attributes:
        catalogue: the heroes and weapons; hero_cards, weapon_cards: its compiled cards by name.
        level, mode: ``config.level`` and ``config.mode``; full_effects: the SW-5 effects are
            played (level 3, or level 2 with ``effects="full"``); uses_energy: level 3 (SW-5.1);
            uses_bonuses: hero bonuses and times of day (levels 2–3, SW-4).
        end_of_turn_order: the end-of-turn stages (SW-5.14 DECISION ``end_of_turn_order``):
            ``("permanent", "detonation")`` or the other way round.

    Raises:
        LoadoutError: a configured loadout breaks SW-2.1.
        CardDataError: a malformed catalogue file.
    """

    def __init__(self, config: ScratchWarsConfig, catalogue: Catalogue | None = None):
        self.config = config
        self.catalogue = catalogue or load_catalogue(config.catalogue_dir)
        self.hero_cards: dict[str, HeroCard] = self.catalogue.hero_cards
        self.weapon_cards: dict[str, WeaponCard] = self.catalogue.weapon_cards
        self.level = config.level
        self.mode = config.mode
        self.full_effects = self.mode == "full"
        self.uses_energy = self.level == 3
        self.uses_bonuses = self.level >= 2
        if config.loadouts is not None:
            for seat, (hero, weapons) in enumerate(config.loadouts):
                check_loadout(self.catalogue, self.level, hero, weapons, seat)
        self.end_of_turn_order = (("permanent", "detonation")
                                  if config.end_of_turn_order == "permanent_then_combo"
                                  else ("detonation", "permanent"))


    # -- public facts (the observation, the bot and check_state read them) --------------------
    def time_of_day(self, state: ScratchWarsState) -> int:
        """0 morning, 1 noon, 2 evening, 3 night (SW-4.1): :func:`~.state.time_of_day`."""
        return time_of_day(state)

    def hero(self, state: ScratchWarsState, player: int) -> HeroCard:
        """Seat ``player``'s hero card."""
        return self.hero_cards[state.heroes[player]]

    def weapon(self, state: ScratchWarsState, player: int, slot: int) -> WeaponCard:
        """The weapon in seat ``player``'s slot ``slot`` (a slot of its loadout)."""
        return self.weapon_cards[state.weapon_names[player][slot]]

    def segment(self, state: ScratchWarsState, player: int, slot: int, seg: int) -> SegmentCard:
        """Segment ``seg`` of the wheel in seat ``player``'s slot ``slot``."""
        return self.weapon_cards[state.weapon_names[player][slot]].segments[seg]

    def bonuses(self, state: ScratchWarsState, player: int) -> tuple[BonusCard, ...]:
        """Seat ``player``'s hero bonuses of the current time of day (SW-4.2), by bonus slot."""
        return self.hero_cards[state.heroes[player]].bonuses[time_of_day(state)]

    def spin_cost(self, state: ScratchWarsState, player: int, slot: int) -> int:
        """SW-5.2: the weapon's cost, + ``untrained_surcharge`` for an untrained type; 0 below
        level 3."""
        if not self.uses_energy:
            return 0
        weapon = self.weapon_cards[state.weapon_names[player][slot]]
        if weapon.type in self.hero_cards[state.heroes[player]].trained:
            return weapon.cost
        return weapon.cost + self.config.untrained_surcharge

    def usable_shields(self, state: ScratchWarsState, defender: int) -> list[int]:
        """The defender's slots holding a stored shield it may use against ``state.attack``
        (SW-5.12): all but the one the attack targets."""
        attack = state.attack
        hit = attack.target_slot if attack.target == "stored_effect" else -1
        return [k for k, slot in enumerate(state.weapon_slots[defender])
                if slot.status == STORED and slot.stored.effect == SHIELD and k != hit]

    def targets(self, state: ScratchWarsState) -> list[int]:
        """The legal target actions of ``state.attack`` (SW-5.6, SW-5.7): the hero unless a
        weapon attack; a ready weapon or a stored effect of durability <= the value (a weapon
        holding an effect through its effect only, unless ``effect_target_only`` is off)."""
        attack = state.attack
        value, d = attack.value, 1 - attack.attacker
        out = [] if attack.kind == "weapon" else [A_TARGET_HERO]
        slots = state.weapon_slots[d]
        for k, slot in enumerate(slots):
            if slot.status == READY and self.weapon(state, d, k).durability <= value:
                out.append(A_TARGET_WEAPON + k)
        for k, slot in enumerate(slots):
            if slot.status != STORED:
                continue
            if slot.stored.durability <= value:
                out.append(A_TARGET_EFFECT + k)
            elif not self.config.effect_target_only and \
                    self.weapon(state, d, k).durability <= value:
                out.append(A_TARGET_WEAPON + k)
        out.sort()
        return out

    def firing_permanents(self, state: ScratchWarsState, player: int) -> list[int]:
        """``player``'s slots whose stored permanent attack fires at its turn end (SW-5.11;
        one stored this turn only with ``permanent_fires_when_stored``)."""
        fresh_ok = self.config.permanent_fires_when_stored
        out = []
        for k, slot in enumerate(state.weapon_slots[player]):
            if slot.status == STORED and slot.stored.effect == PERMANENT and (
                    fresh_ok or not slot.stored.stored_this_turn):
                out.append(k)
        return out

    def detonator_slot(self, state: ScratchWarsState, player: int) -> int:
        """The bonus slot of an unused detonator of the current time of day (SW-6.3), or -1."""
        if not self.uses_bonuses:
            return -1
        for j, bonus in enumerate(self.bonuses(state, player)):
            if bonus.effect == DETONATOR and not state.bonus_used[player][j]:
                return j
        return -1

    def can_detonate(self, state: ScratchWarsState, player: int) -> bool:
        """SW-5.13 / SW-6.3: 2 or more stored combos, or 1 and an unused detonator bonus."""
        n = 0
        for slot in state.weapon_slots[player]:
            if slot.status == STORED and slot.stored.effect == COMBO:
                n += 1
        return n >= 2 or (n == 1 and self.detonator_slot(state, player) >= 0)

    def matching_bonuses(self, state: ScratchWarsState, player: int, event: BonusEvent,
                         effect: int) -> list[int]:
        """Unused bonus slots of seat ``player`` (current time of day) matching an event: a
        ``"spin"`` of one-shot effect ``effect`` (its icon or a blessing, SW-6.1; in attack_only
        mode the spun icon), a ``"permanent"`` attack firing, a ``"shield"`` used, a
        ``"detonation"`` of 2 or more combos (combo icon or combo bonus, SW-6.2, SW-6.4)."""
        if not self.uses_bonuses:
            return []
        used = state.bonus_used[player]
        out = []
        for j, bonus in enumerate(self.bonuses(state, player)):
            if used[j]:
                continue
            b = bonus.effect
            if event == "spin":
                if self.mode == "attack_only":
                    ok = (b == effect and self.config.attack_only_icon_bonus) or b == BLESSING
                else:
                    ok = b == effect or (b == BLESSING and effect not in STORABLE)
            elif event == "permanent":
                ok = b == PERMANENT
            elif event == "shield":
                ok = b == SHIELD
            else:
                ok = b == COMBO or b == COMBO_BONUS
            if ok:
                out.append(j)
        return out
