"""Scratch Wars observation: one float32 vector over the :data:`OBSERVATION` layout.

Everything in Scratch Wars is public (SW "What an agent observes"), so both seats see the same
facts, from their own point of view (``my_*`` = the observing seat, ``opp_*`` = the other).

Every entry is in ``[OBS_LOW, OBS_HIGH]`` = ``[-1, 1]`` (``scratch_wars_v2``; v1 gave raw numbers
in a declared ``[-64, 64]`` that stayed within about ``[-7, 25]``): flags and one-hots are 0/1, and
each number is divided by its scale (the layout table names it) and clipped to the bounds:

- HP points — HP, an attack's value, its shield total: / :data:`POINTS_SCALE` = ``HP_MAX`` = 40
  (the largest printed HP; an attack shares the scale, so it compares with HP directly). HP
  is in ``[-1, 1]`` (below −40 HP, only at a game's end, reads −1), the others in ``[0, 1]``;
- printed values — a segment's, the last spin's, a pending or stored effect's, an initiative
  spin's, a hero bonus's: / :data:`VALUE_SCALE` = ``SEGMENT_VALUE_MAX`` = 12, so ``[0, 1]``
  (a bonus −5..9: ``[-5/12, 0.75]``; a pending or stored value above 12, a large bonus on a
  large segment, reads 1); an initiative not spun yet is −1;
- durability / ``DURABILITY_MAX`` 9, a weapon's cost / ``COST_MAX`` 3, a hero's energy per time
  of day / ``TIME_ENERGY_MAX`` 6 (the card files' bounds): ``[0, 1]``;
- counters of the config: energy / ``energy_cap``, actions left / ``actions_per_turn``, round /
  ``max_rounds``, day / the days of ``max_rounds`` (``ceil(max_rounds / 4)``): ``[0, 1]``.

The pieces fixed for a whole game (weapon facts, wheels, hero cards) are the encoder's static
part, keyed by the two seats' heroes and weapons (:meth:`ScratchWarsEncoder.static_part`).
"""

from __future__ import annotations

import numpy as np

from card_envs.core.entities import EntityLayout, Target, Zone
from card_envs.core.layout import Layout
from card_envs.core.observation import Encoder
from card_envs.scratch_wars.constants import (
    A_APPLY,
    A_DECLINE,
    ACTIONS,
    BONUS_EFFECTS,
    BONUS_SLOTS,
    COLOURS,
    COST_MAX,
    DURABILITY_MAX,
    EFFECTS,
    HP_MAX,
    PH_BONUS,
    PH_OVER,
    PH_RESULT,
    PH_SHIELD,
    PH_TARGET,
    PHASES,
    SEGMENTS,
    STATUS_NAMES,
    STORABLE,
    SEGMENT_VALUE_MAX,
    STORED,
    TIME_ENERGY_MAX,
    TIMES_OF_DAY,
    WEAPON_SLOTS,
    WEAPON_TYPES,
)
from card_envs.scratch_wars.state import ScratchWarsState, day, time_of_day

#: the bounds of every entry (the declared ``Box``)
OBS_LOW = -1.0
OBS_HIGH = 1.0
#: HP points: HP, attack values and shield totals are divided by it (the largest printed HP)
POINTS_SCALE = float(HP_MAX)
#: printed values (segments, the last spin, a pending or stored effect, initiative, bonuses)
VALUE_SCALE = float(SEGMENT_VALUE_MAX)
#: an initiative value not spun yet
NO_INITIATIVE = -1.0

#: a wheel segment: effect one-hot, value, colour one-hot
SEGMENT_FEATURES = len(EFFECTS) + 1 + len(COLOURS)
WHEEL_FEATURES = SEGMENTS * SEGMENT_FEATURES
#: a weapon: type one-hot, energy cost, durability, the hero trained in its type
WEAPON_FEATURES = len(WEAPON_TYPES) + 3
#: a hero bonus slot: bonus effect one-hot (special bonuses included), value
BONUS_FEATURES = len(BONUS_EFFECTS) + 1
#: a hero card's time of day: energy, then its bonus slots
TIME_FEATURES = 1 + BONUS_SLOTS * BONUS_FEATURES
#: a hero card: every time of day, then the trained types
HERO_FEATURES = len(TIMES_OF_DAY) * TIME_FEATURES + len(WEAPON_TYPES)
#: an attack target: the hero, a weapon slot, the stored effect on a slot
TARGETS = 1 + 2 * WEAPON_SLOTS
N_STATUS, N_STORED, N_EFFECTS, N_COLOURS = (len(STATUS_NAMES), len(STORABLE), len(EFFECTS),
                                            len(COLOURS))

OBSERVATION = Layout(
    [
        ("my_hp", 1, "my hero's HP / 40 (SW-3.4; <= 0 at the end; below -40 HP reads -1)"),
        ("my_hp_max", 1, "my hero's printed duel HP / 40 (SW-1.1)"),
        ("my_energy", 1, "my energy / energy_cap (SW-5.1; 0 below level 3)"),
        ("opp_hp", 1, "opponent hero's HP / 40"),
        ("opp_hp_max", 1, "opponent hero's printed duel HP / 40"),
        ("opp_energy", 1, "opponent's energy / energy_cap"),
        ("time_of_day", len(TIMES_OF_DAY), "one-hot " + "/".join(TIMES_OF_DAY)
         + " (SW-4.1; all 0 at level 1)"),
        ("round", 1, "round number, 1-based (SW-4.1) / max_rounds (at most 1)"),
        ("day", 1, "day number, 1-based (4 rounds a day; SW-4.4 sudden death from day 3) / "
                   "the days of max_rounds (at most 1)"),
        ("is_my_turn", 1, "1 if the current turn is mine (the shield decider may differ)"),
        ("is_my_decision", 1, "1 if I decide now"),
        ("i_started", 1, "1 if I am the starting player (SW-2.2), 0 otherwise/before"),
        ("actions_left", 1, "actions left in the current turn (SW-3.1) / actions_per_turn"),
        ("phase", len(PHASES), "one-hot decision phase: " + ", ".join(PHASES)),
        ("last_spin_mine", 1, "1 if the last spin was mine"),
        ("last_spin_opp", 1, "1 if the last spin was the opponent's"),
        ("last_spin_weapon", WEAPON_SLOTS, "one-hot slot of the last spun weapon (of its "
                                           "owner)"),
        ("last_spin_segment", SEGMENTS, f"one-hot segment index 0..{SEGMENTS - 1} the last "
                                        "spin landed on"),
        ("last_spin_effect", N_EFFECTS, "one-hot effect icon of the last spun segment"),
        ("last_spin_value", 1, "printed value of the last spun segment / 12"),
        ("last_spin_colour", N_COLOURS, "one-hot field colour " + "/".join(COLOURS)
         + " of the last spun segment"),
        ("pending_value", 1, "value of the spun effect awaiting apply/decline (incl. bonus) / "
                             "12, clipped to [-1, 1]"),
        ("my_init_value", 1, "my initiative spin value / 12 (-1 = none yet)"),
        ("opp_init_value", 1, "opponent's initiative spin value / 12 (-1 = none yet)"),
        ("my_weapon_status", WEAPON_SLOTS * N_STATUS,
         f"per my slot k ({N_STATUS} each): absent, ready, broken, repairing, holding a "
         "stored effect"),
        ("my_stored_effect", WEAPON_SLOTS * N_STORED,
         f"per my slot k ({N_STORED} each): stored permanent, shield, combo"),
        ("my_stored_value", WEAPON_SLOTS, "per my slot: stored effect value / 12, clipped to 1 "
                                          "(0 if none)"),
        ("my_stored_durability", WEAPON_SLOTS, "per my slot: stored effect durability / 9 (0 if "
                                               "none)"),
        ("opp_weapon_status", WEAPON_SLOTS * N_STATUS,
         "per opponent slot k: absent, ready, broken, repairing, stored"),
        ("opp_stored_effect", WEAPON_SLOTS * N_STORED,
         "per opponent slot k: stored permanent, shield, combo"),
        ("opp_stored_value", WEAPON_SLOTS, "per opponent slot: stored effect value / 12"),
        ("opp_stored_durability", WEAPON_SLOTS, "per opponent slot: stored effect durability / "
                                                "9"),
        ("my_bonus_used", BONUS_SLOTS, "my bonus slots 0/1 used this turn (SW-4.2)"),
        ("opp_bonus_used", BONUS_SLOTS, "opponent's bonus slots 0/1 used this turn"),
        ("bonus_offered", BONUS_SLOTS, "bonus slots 0/1 offered in the current bonus decision"),
        ("attack_value", 1, "value of the attack being resolved (target/shield decisions) / "
                            "40, clipped to 1"),
        ("attack_shielded", 1, "shield total already subtracted from that attack (SW-5.12) / "
                               "40, clipped to 1"),
        ("attack_by_me", 1, "1 if I am the attacker of that attack"),
        ("attack_target", TARGETS, f"one-hot target: hero, weapon slot 0..{WEAPON_SLOTS - 1}, "
                                   f"stored effect slot 0..{WEAPON_SLOTS - 1} (of the "
                                   "defender)"),
        ("my_weapon_info", WEAPON_SLOTS * WEAPON_FEATURES,
         f"per my slot ({WEAPON_FEATURES} each): type one-hot " + "/".join(WEAPON_TYPES)
         + ", energy cost / 3, durability / 9, hero trained in its type"),
        ("opp_weapon_info", WEAPON_SLOTS * WEAPON_FEATURES,
         "per opponent slot: type one-hot, cost / 3, durability / 9, trained"),
        ("my_wheels", WEAPON_SLOTS * WHEEL_FEATURES,
         f"per my slot, per segment ({SEGMENT_FEATURES} each): effect one-hot ({N_EFFECTS}), "
         f"value / 12, colour one-hot ({N_COLOURS})"),
        ("opp_wheels", WEAPON_SLOTS * WHEEL_FEATURES,
         "per opponent slot, per segment: effect one-hot, value / 12, colour"),
        ("my_hero", HERO_FEATURES,
         f"my hero card: per time of day ({TIME_FEATURES} each): energy / 6, then {BONUS_SLOTS} "
         f"bonus slots (bonus effect one-hot {len(BONUS_EFFECTS)} incl. "
         + "/".join(BONUS_EFFECTS[N_EFFECTS:]) + f", value / 12: -5/12..0.75); then trained "
         f"types ({len(WEAPON_TYPES)})"),
        ("opp_hero", HERO_FEATURES, "the opponent's hero card, same encoding"),
    ]
)
#: the pieces fixed for a whole game come last: the dynamic part is everything before them
STATIC_PIECES = ("my_weapon_info", "opp_weapon_info", "my_wheels", "opp_wheels", "my_hero",
                 "opp_hero")
DYNAMIC_SIZE = sum(p.size for p in OBSERVATION.pieces if p.name not in STATIC_PIECES)
assert [p.name for p in OBSERVATION.pieces[-len(STATIC_PIECES):]] == list(STATIC_PIECES)


def _clip(x: float) -> float:
    return OBS_LOW if x < OBS_LOW else (OBS_HIGH if x > OBS_HIGH else float(x))


class ScratchWarsEncoder(Encoder):
    """The Scratch Wars observation encoder (the game object's ``encoder``): every entry in
    ``[OBS_LOW, OBS_HIGH]`` (the module docstring's scales)."""

    LAYOUT = OBSERVATION

    def static_part(self, key: tuple) -> np.ndarray:
        """The static pieces (weapon facts, wheels, hero cards) seen by a seat, for ``key`` =
        ``(my hero, my weapons, opponent's hero, opponent's weapons)`` (names; weapons a tuple
        in slot order)."""
        my_hero, my_weapons, opp_hero, opp_weapons = key
        mine = self._side(my_hero, my_weapons)
        opp = self._side(opp_hero, opp_weapons)
        return np.asarray(mine[0] + opp[0] + mine[1] + opp[1] + mine[2] + opp[2],
                          dtype=np.float32)

    def _side(self, hero_name: str, weapon_names: tuple) -> tuple[list, list, list]:
        """One seat's weapon facts, wheels and hero card, as lists of floats."""
        game = self.game
        info = [0.0] * (WEAPON_SLOTS * WEAPON_FEATURES)
        wheels = [0.0] * (WEAPON_SLOTS * WHEEL_FEATURES)
        hero_vec = [0.0] * HERO_FEATURES
        hero = game.hero_cards[hero_name]
        types = len(WEAPON_TYPES)
        for k, name in enumerate(weapon_names):
            weapon = game.weapon_cards[name]
            b = WEAPON_FEATURES * k
            info[b + weapon.type] = 1.0
            info[b + types] = weapon.cost / COST_MAX
            info[b + types + 1] = weapon.durability / DURABILITY_MAX
            info[b + types + 2] = 1.0 if weapon.type in hero.trained else 0.0
            for j, seg in enumerate(weapon.segments):
                o = WHEEL_FEATURES * k + SEGMENT_FEATURES * j
                wheels[o + seg.effect] = 1.0
                wheels[o + N_EFFECTS] = seg.value / VALUE_SCALE
                wheels[o + N_EFFECTS + 1 + seg.colour] = 1.0
        for tod in range(len(TIMES_OF_DAY)):
            o = TIME_FEATURES * tod
            hero_vec[o] = hero.energy[tod] / TIME_ENERGY_MAX
            for j, bonus in enumerate(hero.bonuses[tod]):
                hero_vec[o + 1 + BONUS_FEATURES * j + bonus.effect] = 1.0
                hero_vec[o + 1 + BONUS_FEATURES * j + len(BONUS_EFFECTS)] = \
                    bonus.value / VALUE_SCALE
        for t in hero.trained:
            hero_vec[len(TIMES_OF_DAY) * TIME_FEATURES + t] = 1.0
        return info, wheels, hero_vec

    def encode(self, state: ScratchWarsState, player: int) -> np.ndarray:
        """Seat ``player``'s observation: float32 ``(OBSERVATION.size,)`` in
        ``[OBS_LOW, OBS_HIGH]``."""
        s, game = state, self.game
        config = game.config  # the counters' scales (energy cap, round limit)
        energy_cap, max_rounds = config.energy_cap, config.max_rounds
        me, op = player, 1 - player
        static = self.static((s.heroes[me], tuple(s.weapon_names[me]),
                              s.heroes[op], tuple(s.weapon_names[op])))
        at = self.at
        v = [0.0] * DYNAMIC_SIZE
        v[at.my_hp] = _clip(s.hp[me] / POINTS_SCALE)
        v[at.my_hp_max] = game.hero_cards[s.heroes[me]].hp / POINTS_SCALE
        v[at.my_energy] = _clip(s.energy[me] / energy_cap)
        v[at.opp_hp] = _clip(s.hp[op] / POINTS_SCALE)
        v[at.opp_hp_max] = game.hero_cards[s.heroes[op]].hp / POINTS_SCALE
        v[at.opp_energy] = _clip(s.energy[op] / energy_cap)
        if game.uses_bonuses:
            v[at.time_of_day + time_of_day(s)] = 1.0
        v[at.round] = _clip((s.round + 1) / max_rounds)
        v[at.day] = _clip(day(s) / -(-max_rounds // 4))
        v[at.is_my_turn] = 1.0 if s.turn == me else 0.0
        v[at.is_my_decision] = 1.0 if s.player == me and s.phase != PH_OVER else 0.0
        v[at.i_started] = 1.0 if s.starter == me else 0.0
        v[at.actions_left] = _clip(s.actions_left / config.actions_per_turn)
        v[at.phase + s.phase] = 1.0
        spin = s.last_spin
        if spin is not None:
            v[at.last_spin_mine if spin.seat == me else at.last_spin_opp] = 1.0
            v[at.last_spin_weapon + spin.slot] = 1.0
            v[at.last_spin_segment + spin.segment] = 1.0
            seg = game.weapon_cards[s.weapon_names[spin.seat][spin.slot]].segments[spin.segment]
            v[at.last_spin_effect + seg.effect] = 1.0
            v[at.last_spin_value] = seg.value / VALUE_SCALE
            v[at.last_spin_colour + seg.colour] = 1.0
        if s.phase == PH_RESULT:
            v[at.pending_value] = _clip(s.spin_result.value / VALUE_SCALE)
        for where, value in ((at.my_init_value, s.initiative_value[me]),
                             (at.opp_init_value, s.initiative_value[op])):
            v[where] = NO_INITIATIVE if value < 0 else _clip(value / VALUE_SCALE)
        for seat, status_at, effect_at, value_at, durability_at in (
                (me, at.my_weapon_status, at.my_stored_effect, at.my_stored_value,
                 at.my_stored_durability),
                (op, at.opp_weapon_status, at.opp_stored_effect, at.opp_stored_value,
                 at.opp_stored_durability)):
            for k, slot in enumerate(s.weapon_slots[seat]):
                v[status_at + N_STATUS * k + slot.status] = 1.0
                if slot.status == STORED:
                    stored = slot.stored
                    v[effect_at + N_STORED * k + STORABLE.index(stored.effect)] = 1.0
                    v[value_at + k] = _clip(stored.value / VALUE_SCALE)
                    v[durability_at + k] = _clip(stored.durability / DURABILITY_MAX)
        for j in range(BONUS_SLOTS):
            if s.bonus_used[me][j]:
                v[at.my_bonus_used + j] = 1.0
            if s.bonus_used[op][j]:
                v[at.opp_bonus_used + j] = 1.0
        if s.phase == PH_BONUS:
            for j in s.bonus_offer:
                v[at.bonus_offered + j] = 1.0
        if s.phase in (PH_TARGET, PH_SHIELD):
            attack = s.attack
            v[at.attack_value] = _clip(attack.value / POINTS_SCALE)
            v[at.attack_shielded] = _clip(attack.shielded / POINTS_SCALE)
            v[at.attack_by_me] = 1.0 if attack.attacker == me else 0.0
            if attack.target == "hero":
                v[at.attack_target] = 1.0
            elif attack.target == "weapon":
                v[at.attack_target + 1 + attack.target_slot] = 1.0
            elif attack.target == "stored_effect":
                v[at.attack_target + 1 + WEAPON_SLOTS + attack.target_slot] = 1.0
        return np.concatenate((np.asarray(v, dtype=np.float32), static))

    # -- the per-entity view -------------------------------------------------------------------
    def make_entities(self, game) -> EntityLayout:
        return ENTITIES

    def fill_entities(self, s: ScratchWarsState, player: int, flat: np.ndarray,
                      out: dict) -> None:
        """The weapon and hero rows: gathered from the flat vector (:data:`WEAPON_ROW`,
        :data:`HERO_ROW`), with the flags that combine two of its pieces (in play, last spun,
        attacked)."""
        at = self.at
        spun = flat[at.last_spin_weapon:at.last_spin_weapon + WEAPON_SLOTS]
        # the attack being resolved aims at the defender's hero, weapon or stored effect (all
        # zero outside the target and shield decisions)
        target = flat[at.attack_target:at.attack_target + TARGETS]
        by_me = flat[at.attack_by_me]
        for side, index, last, defends in (
                ("my_weapons", _MY_WEAPON_INDEX, flat[at.last_spin_mine], 1.0 - by_me),
                ("opp_weapons", _OPP_WEAPON_INDEX, flat[at.last_spin_opp], by_me)):
            rows = out[side]
            rows[:, 1:1 + index.shape[1]] = flat[index]
            rows[:, 0] = 1.0 - flat[index[:, _ABSENT]]
            rows[:, -3] = spun * last
            rows[:, -2] = target[1:1 + WEAPON_SLOTS] * defends
            rows[:, -1] = target[1 + WEAPON_SLOTS:] * defends
        heroes = out["heroes"]
        heroes[:, :-1] = flat[_HERO_INDEX]
        heroes[:, -1] = (target[0] * (1.0 - by_me), target[0] * by_me)
        if s.phase == PH_RESULT and s.last_spin is not None and s.last_spin.seat == player:
            row = self.entity_layout.row("my_weapons", s.last_spin.slot)
            out["action_targets"][A_APPLY:A_DECLINE + 1, 0] = row


#: a weapon row: in play, the slot's pieces of the flat layout, then three flags
_SIDE_PIECES = (("weapon_info", WEAPON_FEATURES), ("weapon_status", N_STATUS),
                ("stored_effect", N_STORED), ("stored_value", 1), ("stored_durability", 1),
                ("wheels", WHEEL_FEATURES))


def _weapon_index(side: str) -> np.ndarray:
    """``(WEAPON_SLOTS, entries)`` flat indices of slot ``k``'s entries of ``side``'s pieces."""
    return np.array([np.concatenate([OBSERVATION.start(f"{side}_{piece}") + k * size
                                     + np.arange(size) for piece, size in _SIDE_PIECES])
                     for k in range(WEAPON_SLOTS)])


_MY_WEAPON_INDEX, _OPP_WEAPON_INDEX = _weapon_index("my"), _weapon_index("opp")
#: where the ``absent`` status lies in a gathered weapon row
_ABSENT = WEAPON_FEATURES + STATUS_NAMES.index("absent")
WEAPON_ROW = (
    ("in play",)
    + tuple(f"type {t}" for t in WEAPON_TYPES) + ("energy cost", "durability",
                                                  "hero trained in its type")
    + tuple(f"status {n}" for n in STATUS_NAMES)
    + tuple(f"stored {EFFECTS[e]}" for e in STORABLE) + ("stored value", "stored durability")
    + tuple(f"segment {j}: {f}" for j in range(SEGMENTS)
            for f in (*(f"effect {e}" for e in EFFECTS), "value",
                      *(f"colour {c}" for c in COLOURS)))
    + ("spun last", "attacked (weapon)", "attacked (its stored effect)"))
#: a hero row: the seat's pieces of the flat layout (HP, energy, bonuses used, initiative, the
#: hero card), then whether the attack being resolved aims at it
_HERO_PIECES = (("hp", 1), ("hp_max", 1), ("energy", 1), ("bonus_used", BONUS_SLOTS),
                ("init_value", 1), ("hero", HERO_FEATURES))
_HERO_INDEX = np.array([np.concatenate([OBSERVATION.start(f"{side}_{piece}")
                                        + np.arange(size) for piece, size in _HERO_PIECES])
                        for side in ("my", "opp")])
HERO_ROW = (("hp", "hp_max", "energy") + tuple(f"bonus slot {j} used" for j in
                                              range(BONUS_SLOTS))
            + ("initiative value",) + tuple(f"hero card {i}" for i in range(HERO_FEATURES))
            + ("attacked",))
assert len(WEAPON_ROW) == 1 + _MY_WEAPON_INDEX.shape[1] + 3
assert len(HERO_ROW) == _HERO_INDEX.shape[1] + 1

#: the per-entity view: the weapons of both seats and the two heroes as rows
ENTITIES = EntityLayout(OBSERVATION, ACTIONS, zones=[
    Zone("my_weapons", WEAPON_SLOTS, WEAPON_ROW, "my weapon slots 0–4",
         features_doc="in play; the slot's entries of `my_weapon_info`, `my_weapon_status`, "
                      "`my_stored_effect`, `my_stored_value`, `my_stored_durability`, "
                      "`my_wheels` (its 9 segments); spun last; attacked (the weapon); attacked "
                      "(its stored effect)"),
    Zone("opp_weapons", WEAPON_SLOTS, WEAPON_ROW, "the opponent's weapon slots 0–4",
         features_doc="as `my_weapons`, from the `opp_*` pieces"),
    Zone("heroes", 2, HERO_ROW, "my hero, then the opponent's", present=None,
         features_doc="`*_hp`, `*_hp_max`, `*_energy`, `*_bonus_used`, `*_init_value`, "
                      "`*_hero` (the hero card); attacked"),
], globals=("time_of_day", "round", "day", "is_my_turn", "is_my_decision", "i_started",
            "actions_left", "phase", "last_spin_mine", "last_spin_opp", "last_spin_segment",
            "last_spin_effect", "last_spin_value", "last_spin_colour", "pending_value",
            "bonus_offered", "attack_value", "attack_shielded", "attack_by_me"),
    targets=[
        Target("init_weapon", "my_weapons"), Target("spin", "my_weapons"),
        Target("repair", "my_weapons"), Target("cancel", "my_weapons"),
        Target("apply", "my_weapons", dynamic=True, meaning="the weapon I spun (its effect "
               "awaits apply / decline)"),
        Target("decline", "my_weapons", dynamic=True, meaning="the weapon I spun"),
        Target("target_hero", "heroes", row=1, meaning="the opposing hero"),
        Target("target_weapon", "opp_weapons"), Target("target_effect", "opp_weapons"),
        Target("shield", "my_weapons"),
    ])
