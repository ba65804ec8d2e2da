"""Scratch Wars duel rules (levels 1–3) as a :class:`~card_envs.core.game.GameBase` (SW-1 … SW-6).

Everything a turn contains is a sequence of small decisions over one flat action space
(:data:`ACTIONS`, a :class:`~card_envs.core.layout.Layout`), including the opponent's shield
decisions, during which ``current_player`` is the defender. The only chance is the spin
(SW-1.3: one of 9 segments, uniformly), drawn from ``state.rng`` — unless ``state.forced_spins``
(a list of segment indices 0..8, serialised with the state) is non-empty: spins then consume it
first, which lets tests fix every spin.

Phases (who decides):

- ``init_weapon`` (each seat in turn, SW-2.2): choose the weapon to spin for initiative; when
  both have chosen both wheels spin; equal values spin again (``initiative_ties``);
- ``init_order`` (the initiative winner): start yourself or let the opponent start; the starter
  loses ``start_penalty`` HP at once;
- ``main`` (turn player): spin a ready weapon, repair a broken one (SW-5.9), cancel an own
  stored effect (SW-5.10, free) or end the turn (level 3, SW-5.3; below level 3 only when no
  weapon can be spun);
- ``result`` (turn player): apply (store, for a stored effect) or decline the spun segment
  (SW-3.2); red fields and level-1 green fields apply without a decision;
- ``bonus`` (the player using an effect): add one of the offered positive hero bonuses or none
  (SW-4.2, SW-6); a negative matching bonus is forced instead;
- ``target`` (attacker): hero / opposing weapon / opposing stored effect (SW-5.6, SW-5.7, SW-5.13);
- ``shield`` (defender): use one own stored shield at a time, then ``shield_done`` (SW-5.12);
- ``detonate`` (turn player at the end of the turn): detonate all stored combos or keep them
  (SW-5.13, SW-6.3).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any

import numpy as np
from pydantic import Field

from card_envs.core.config import check_bool, check_choice, check_int, config_from_kwargs
from card_envs.core.errors import ConfigError, LoadoutError
from card_envs.core.game import GameBase, lead
from card_envs.core.layout import Layout
from card_envs.core.rng import make_rng, reseed
from card_envs.core.state import GameState, check_len, check_range, fail
from card_envs.scratch_wars import encoder
from card_envs.scratch_wars.catalogue import (
    BONUS_EFFECTS,
    COLOURS,
    EFFECTS,
    TIMES_OF_DAY,
    WEAPON_TYPES,
    Catalogue,
    load_catalogue,
)

MAX_WEAPONS = 5
SEGMENTS = 9

# effect ids (catalogue.EFFECTS order) and special bonus ids
ENERGY, HERO_ATTACK, WEAPON_ATTACK, UNIVERSAL, HEAL, PERMANENT, SHIELD, COMBO = range(8)
BLESSING, COMBO_BONUS, DETONATOR = 8, 9, 10
STORABLE = (PERMANENT, SHIELD, COMBO)
GREEN, ORANGE, RED = 0, 1, 2

# weapon slot status
ABSENT, READY, BROKEN, REPAIRING, STORED = 0, 1, 2, 3, 4
STATUS_NAMES = ("absent", "ready", "broken", "repairing", "stored")

# phases
(
    PH_INIT_WEAPON,
    PH_INIT_ORDER,
    PH_MAIN,
    PH_RESULT,
    PH_BONUS,
    PH_TARGET,
    PH_SHIELD,
    PH_DETONATE,
    PH_OVER,
) = range(9)
PHASE_NAMES = (
    "init_weapon",
    "init_order",
    "main",
    "result",
    "bonus",
    "target",
    "shield",
    "detonate",
    "over",
)

# attack kinds / contexts / bonus events
K_HERO, K_WEAPON, K_UNIVERSAL = 0, 1, 2
CTX_SPIN, CTX_PERM, CTX_DET = 0, 1, 2
BC_SPIN, BC_PERM, BC_SHIELD, BC_DET = 0, 1, 2, 3
# attack targets: 0 = hero, 1..5 = weapon slot 0..4, 6..10 = stored effect on slot 0..4
T_HERO = 0

#: the flat action space (SW decisions); the table is in the env module docstring
ACTIONS = Layout(
    [
        ("init_weapon", MAX_WEAPONS, "SW-2.2: spin weapon slot k for initiative"),
        ("init_order", 2, "SW-2.2 initiative winner: 0 = I start, 1 = the opponent starts"),
        ("spin", MAX_WEAPONS, "SW-3.1/SW-5.2: spend an action (and energy) to spin weapon slot k"),
        ("repair", MAX_WEAPONS, "SW-5.9: repair broken weapon slot k (1 action + its spin cost)"),
        ("cancel", MAX_WEAPONS, "SW-5.10: cancel the own stored effect on weapon slot k (free)"),
        ("end_turn", 1, "SW-5.3: end the turn voluntarily"),
        ("apply", 1, "SW-3.2: apply (or store) the spun effect"),
        ("decline", 1, "SW-3.2: decline the spun effect (green/orange fields) and go on"),
        ("bonus", 2, "SW-4.2/SW-6: add hero bonus slot j of the current time of day"),
        ("no_bonus", 1, "SW-4.2: add no bonus to this spin/use"),
        ("target_hero", 1, "SW-5.7/SW-5.13: attack the opposing hero"),
        ("target_weapon", MAX_WEAPONS, "SW-5.6: attack opposing weapon slot k (in play)"),
        ("target_effect", MAX_WEAPONS, "SW-5.6: attack the stored effect on opposing slot k"),
        ("shield", MAX_WEAPONS, "SW-5.12 (defender): use the own stored shield on slot k"),
        ("shield_done", 1, "SW-5.12 (defender): use no (more) shields against this attack"),
        ("detonate", 1, "SW-5.13/SW-6.3: detonate all stored combos now"),
        ("keep_combos", 1, "SW-5.13: keep the stored combos for later"),
    ]
)
A_INIT = ACTIONS.start("init_weapon")
A_ORDER = ACTIONS.start("init_order")
A_SPIN = ACTIONS.start("spin")
A_REPAIR = ACTIONS.start("repair")
A_CANCEL = ACTIONS.start("cancel")
A_END = ACTIONS.start("end_turn")
A_APPLY = ACTIONS.start("apply")
A_DECLINE = ACTIONS.start("decline")
A_BONUS = ACTIONS.start("bonus")
A_NO_BONUS = ACTIONS.start("no_bonus")
A_T_HERO = ACTIONS.start("target_hero")
A_T_WEAPON = ACTIONS.start("target_weapon")
A_T_EFFECT = ACTIONS.start("target_effect")
A_SHIELD = ACTIONS.start("shield")
A_SHIELD_DONE = ACTIONS.start("shield_done")
A_DETONATE = ACTIONS.start("detonate")
A_KEEP = ACTIONS.start("keep_combos")
NUM_ACTIONS = ACTIONS.size


@dataclass(frozen=True)
class ScratchWarsConfig:
    """Scratch Wars duel configuration. Every **DECISION** of the rules is a field here.

    Attributes:
        level: 1 (basic: every result attacks the hero), 2 (times of day, hero bonuses) or
            3 (full duel with energy) (SW-3, SW-4, SW-5).
        effects: level 2 only: ``"full"`` (SW-5 effects; energy is an empty action) or
            ``"attack_only"`` (every effect attacks the hero). ``None`` = ``"full"`` at level 2;
            any value at level 1 or 3 is a ConfigError (SW-4.4 DECISION).
        loadouts: ``None`` = a random legal loadout per seat drawn from the game seed, or two
            ``{"hero": name, "weapons": [1..5 names]}`` (seat 0, seat 1) checked against SW-2.1
            (:class:`~card_envs.core.errors.LoadoutError` names the offence).
        random_weapons: number of weapons in a random loadout (1..5).
        catalogue_dir: directory with ``heroes.toml`` + ``weapons.toml`` (``None`` = the shipped
            designed catalogue, SW-1.3 DECISION).
        actions_per_turn: actions per turn (SW-3.1, 4).
        start_penalty: HP the starting player loses at once (SW-2.2, 2).
        initiative_ties: SW-2.2 DECISION ``"spin_again"`` (default; both choose and spin again)
            or ``"seat0_decides"``.
        negative_bonus: SW-4.2 DECISION ``"first_match"`` (a negative bonus is forced on the first
            matching applied effect of the turn, then used) or ``"ignore"``.
        attack_only_icon_bonus: SW-4.3 DECISION: in ``attack_only`` mode a bonus whose icon
            matches the spun icon adds to the attack (True).
        level2_repair: SW-4.3 DECISION ``"action_only"``: at level 2 a repair costs 1 action.
        sudden_death_round: SW-4.4: 1-based round from whose start both heroes lose
            ``sudden_death_damage`` HP each round (9 = morning of day 3), levels 2–3.
        sudden_death_damage: SW-4.4 (5).
        max_rounds: SW-4.4 DECISION: the game is truncated (a draw, returns 0) after this many
            rounds (60; the level-1 end and a safety net at levels 2–3).
        energy_cap: SW-5.1 (12).
        untrained_surcharge: SW-5.2 extra energy for a weapon type the hero is not trained in (1).
        effect_target_only: SW-5.6 DECISION: a weapon holding a stored effect can be attacked
            only through its effect (True).
        shield_before_durability: SW-5.6 DECISION: the shield reduces a weapon/effect attack
            before the comparison with durability (True); False: shields only protect the hero.
        permanent_fires_when_stored: SW-5.11 DECISION: a permanent attack also fires at the end
            of the turn it was stored in (True).
        shield_block_floor: SW-5.12 DECISION: each used shield blocks ``max(0, value + bonus)``
            (True, since ``scratch_wars_v1``): a negative shield bonus of the defender's hero can
            weaken a shield to 0 but never turn it into extra damage. False: the shield blocks
            ``value + bonus`` unclamped, so a negative bonus larger than the shield adds to the
            attack (the ``scratch_wars_v0`` behaviour).
        detonation: SW-5.13 DECISION ``"all"``: a detonation uses every stored combo.
        end_of_turn_order: SW-5.14 DECISION ``"permanent_then_combo"`` or
            ``"combo_then_permanent"``.
        no_target: SW-5.15 DECISION ``"cannot_apply"``: an effect without a legal target cannot
            be applied (decline only; a red field ends the turn without effect).

    Raises:
        ConfigError: naming the field and value.
    """

    level: int = 3
    effects: str | None = None
    loadouts: Any = None
    random_weapons: int = 5
    catalogue_dir: str | None = None
    actions_per_turn: int = 4
    start_penalty: int = 2
    initiative_ties: str = "spin_again"
    negative_bonus: str = "first_match"
    attack_only_icon_bonus: bool = True
    level2_repair: str = "action_only"
    sudden_death_round: int = 9
    sudden_death_damage: int = 5
    max_rounds: int = 60
    energy_cap: int = 12
    untrained_surcharge: int = 1
    effect_target_only: bool = True
    shield_before_durability: bool = True
    permanent_fires_when_stored: bool = True
    shield_block_floor: bool = True
    detonation: str = "all"
    end_of_turn_order: str = "permanent_then_combo"
    no_target: str = "cannot_apply"

    def __post_init__(self) -> None:
        check_int("level", self.level, 1, 3)
        if self.level == 2:
            if self.effects is not None:
                check_choice("effects", self.effects, ["full", "attack_only"])
        elif self.effects is not None:
            raise ConfigError(
                f"config field 'effects': {self.effects!r} is only allowed at level 2 "
                f"(level is {self.level})"
            )
        check_int("random_weapons", self.random_weapons, 1, MAX_WEAPONS)
        if self.catalogue_dir is not None and not isinstance(self.catalogue_dir, str):
            raise ConfigError(f"config field 'catalogue_dir': expected a path string, got "
                              f"{self.catalogue_dir!r}")
        check_int("actions_per_turn", self.actions_per_turn, 1, 10)
        check_int("start_penalty", self.start_penalty, 0, 10)
        check_choice("initiative_ties", self.initiative_ties, ["spin_again", "seat0_decides"])
        check_choice("negative_bonus", self.negative_bonus, ["first_match", "ignore"])
        check_bool("attack_only_icon_bonus", self.attack_only_icon_bonus)
        check_choice("level2_repair", self.level2_repair, ["action_only"])
        check_int("sudden_death_round", self.sudden_death_round, 1)
        check_int("sudden_death_damage", self.sudden_death_damage, 0, 40)
        check_int("max_rounds", self.max_rounds, 1, 1000)
        check_int("energy_cap", self.energy_cap, 1, 40)
        check_int("untrained_surcharge", self.untrained_surcharge, 0, 5)
        check_bool("effect_target_only", self.effect_target_only)
        check_bool("shield_before_durability", self.shield_before_durability)
        check_bool("permanent_fires_when_stored", self.permanent_fires_when_stored)
        check_bool("shield_block_floor", self.shield_block_floor)
        check_choice("detonation", self.detonation, ["all"])
        check_choice(
            "end_of_turn_order", self.end_of_turn_order,
            ["permanent_then_combo", "combo_then_permanent"],
        )
        check_choice("no_target", self.no_target, ["cannot_apply"])
        object.__setattr__(self, "loadouts", _normalise_loadouts(self.loadouts))

    @property
    def mode(self) -> str:
        """``"basic"`` (level 1), ``"attack_only"`` or ``"full"``."""
        if self.level == 1:
            return "basic"
        if self.level == 2 and self.effects == "attack_only":
            return "attack_only"
        return "full"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if self.loadouts is not None:
            d["loadouts"] = [{"hero": h, "weapons": list(ws)} for h, ws in self.loadouts]
        return d


def _normalise_loadouts(value: Any):
    """``None`` or a tuple of two ``(hero, (weapon, ...))``; ConfigError on a wrong shape."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ConfigError(
            f"config field 'loadouts': expected a list of 2 loadouts (seat 0, seat 1), got {value!r}"
        )
    out = []
    for seat, lo in enumerate(value):
        if isinstance(lo, dict):
            extra = set(lo) - {"hero", "weapons"}
            if extra or "hero" not in lo or "weapons" not in lo:
                raise ConfigError(
                    f"config field 'loadouts'[{seat}]: expected keys 'hero' and 'weapons', got "
                    f"{sorted(lo)}"
                )
            hero, weapons = lo["hero"], lo["weapons"]
        elif isinstance(lo, (list, tuple)) and len(lo) == 2:
            hero, weapons = lo
        else:
            raise ConfigError(f"config field 'loadouts'[{seat}]: not a loadout: {lo!r}")
        if not isinstance(hero, str) or not isinstance(weapons, (list, tuple)) or not all(
            isinstance(w, str) for w in weapons
        ):
            raise ConfigError(
                f"config field 'loadouts'[{seat}]: hero must be a name and weapons a list of "
                f"names, got {lo!r}"
            )
        out.append((hero, tuple(weapons)))
    return tuple(out)


def check_loadout(catalogue: Catalogue, level: int, hero: str, weapons, seat: int = 0) -> None:
    """SW-2.1: a known hero and 1–5 known weapons, each kind at most once from level 2 on.

    Raises:
        LoadoutError: naming the seat and the offending hero/weapon/count.
    """
    if hero not in catalogue.heroes:
        raise LoadoutError(f"seat {seat}: unknown hero {hero!r}")
    if not 1 <= len(weapons) <= MAX_WEAPONS:
        raise LoadoutError(
            f"seat {seat}: a hero equips 1–{MAX_WEAPONS} weapons (SW-2.1), got {len(weapons)}: "
            f"{list(weapons)}"
        )
    seen = set()
    for w in weapons:
        if w not in catalogue.weapons:
            raise LoadoutError(f"seat {seat}: unknown weapon {w!r}")
        if level >= 2 and w in seen:
            raise LoadoutError(
                f"seat {seat}: weapon kind {w!r} equipped twice; from level 2 each kind at most "
                f"once (SW-2.1)"
            )
        seen.add(w)


# static bounds of the state's numbers (from the catalogue's and the config's validated ranges)
SEG_VALUE_MAX = 12  # a segment's value 0..12 (catalogue.Segment)
DUR_MAX = 9  # a weapon's / stored effect's durability 1..9 (catalogue)
BONUS_MIN, BONUS_MAX = -5, 9  # a hero bonus value (catalogue.Bonus)
HP_MAX = 40  # printed duel HP 1..40 (catalogue.Hero)
#: the largest attack: 5 combos of 12 and a +9 bonus (SW-5.13)
ATTACK_MAX = MAX_WEAPONS * SEG_VALUE_MAX + BONUS_MAX
#: a hero at 1 HP hit by the largest attack, 10 more when two negative shield bonuses add to it
#: (``shield_block_floor=False``)
HP_MIN = 1 - (ATTACK_MAX + 2 * -BONUS_MIN)
ENERGY_MAX = 40  # config energy_cap 1..40
ACTIONS_MAX = 10  # config actions_per_turn 1..10
ROUNDS_MAX = 1000  # config max_rounds 1..1000

Seat = Annotated[int, Field(ge=-1, le=1)]  # a seat or -1 (none)
Slot = Annotated[int, Field(ge=0, le=MAX_WEAPONS - 1)]
SlotOrNone = Annotated[int, Field(ge=-1, le=MAX_WEAPONS - 1)]


@dataclass(slots=True, eq=False)
class ScratchWarsState(GameState):
    """The whole game state (public: Scratch Wars has no hidden cards), declared once: clone,
    JSON and strict validation come from :mod:`card_envs.core.state`; the config's invariants
    are :meth:`ScratchWarsGame.check_state`.

    Per-seat lists are indexed by seat; weapon lists by slot ``0..4``. ``wst`` holds slot status
    (0 absent, 1 ready, 2 broken, 3 repairing, 4 stored effect); ``seff/sval/sdur`` the stored
    effect id (-1 none), value and durability; ``sfresh`` marks effects stored in the owner's
    latest turn (SW-5.11 DECISION); ``bused`` the hero bonus slots used this turn.
    ``forced_spins``: segment indices consumed by the next spins before the RNG (test hook,
    serialised). ``last_spin``: ``[seat, slot, segment]`` of the last spin or ``[-1, -1, -1]``.
    ``pend``: the turn's latest spin ``[effect id (-1 none), value (+bonus), colour, stored
    durability]``; ``att``: the latest attack ``[value, kind, target, context, attacker]``
    (target: -1 not chosen, 0 hero, 1..5 weapon slot 0..4, 6..10 stored effect on slot 0..4);
    ``shield_sum``: shield total against it (SW-5.12). ``bonus_opts`` / ``bonus_ctx``: the
    offered bonus slots and the event (spin, permanent, shield, detonation) of a ``bonus``
    decision; ``perm_queue``: permanent attacks still to fire this turn end; ``eot_stage``: how
    many end-of-turn stages (SW-5.14) have begun. ``winner``: -1, a seat, or 2 (a draw).
    """

    rng: random.Random
    forced_spins: list[Annotated[int, Field(ge=0, le=SEGMENTS - 1)]]
    heroes: list[str]
    wnames: list[list[str]]
    hp: list[Annotated[int, Field(ge=HP_MIN, le=HP_MAX)]]
    energy: list[Annotated[int, Field(ge=0, le=ENERGY_MAX)]]
    wst: list[list[Annotated[int, Field(ge=ABSENT, le=STORED)]]]
    seff: list[list[Annotated[int, Field(ge=-1, le=COMBO)]]]
    sval: list[list[Annotated[int, Field(ge=0, le=SEG_VALUE_MAX)]]]
    sdur: list[list[Annotated[int, Field(ge=0, le=DUR_MAX)]]]
    sfresh: list[list[bool]]
    bused: list[list[bool]]
    round: Annotated[int, Field(ge=0, le=ROUNDS_MAX)]
    turn: Seat
    starter: Seat
    second_half: bool
    actions: Annotated[int, Field(ge=0, le=ACTIONS_MAX)]
    phase: Annotated[int, Field(ge=PH_INIT_WEAPON, le=PH_OVER)]
    actor: Seat
    init_choice: list[SlotOrNone]
    init_vals: list[Annotated[int, Field(ge=-1, le=SEG_VALUE_MAX)]]
    # positional records (each position's own range is checked by check_state)
    last_spin: list[Annotated[int, Field(ge=-1, le=SEGMENTS - 1)]]
    pend: list[Annotated[int, Field(ge=BONUS_MIN, le=SEG_VALUE_MAX + BONUS_MAX)]]
    att: list[Annotated[int, Field(ge=BONUS_MIN, le=ATTACK_MAX)]]
    shield_sum: Annotated[int, Field(ge=2 * BONUS_MIN, le=ATTACK_MAX)]
    bonus_opts: list[Annotated[int, Field(ge=0, le=1)]]
    bonus_ctx: Annotated[int, Field(ge=-1, le=3)]
    perm_queue: list[Slot]
    eot_stage: Annotated[int, Field(ge=0, le=2)]
    winner: Annotated[int, Field(ge=-1, le=2)]
    truncated: bool
    #: the encoder's static observation pieces (wheels, hero cards), computed once per game
    _static: Any = field(default=None, metadata={"cache": True})


class ScratchWarsGame(GameBase[ScratchWarsState]):
    """The Scratch Wars duel (see the module docstring and ``card_envs.scratch_wars_v1``).

    Args:
        config: the :class:`ScratchWarsConfig`.
        catalogue: optional in-memory :class:`Catalogue` (tests, balance studies); default:
            loaded from ``config.catalogue_dir`` (or the shipped one).

    Raises:
        LoadoutError: a configured loadout breaks SW-2.1.
        CardDataError: a malformed catalogue file.
    """

    name = "scratch_wars"
    version = 1
    state_class = ScratchWarsState
    num_players = 2
    num_actions = NUM_ACTIONS
    max_game_length = 20_000

    def __init__(self, config: ScratchWarsConfig, catalogue: Catalogue | None = None):
        self.config = config
        self.catalogue = catalogue or load_catalogue(config.catalogue_dir)
        self.level = config.level
        self.mode = config.mode
        self.full = self.mode == "full"
        self.energy_on = self.level == 3
        self.bonuses_on = self.level >= 2
        cat = self.catalogue
        # compiled data: weapon name -> (type id, cost, durability, segments[(eff, val, col, dur)])
        self.wdata: dict[str, tuple] = {}
        for w in cat.weapons.values():
            segs = tuple(
                (
                    EFFECTS.index(s.effect),
                    s.value,
                    COLOURS.index(s.colour),
                    s.durability if s.durability is not None else w.durability,
                )
                for s in w.segments
            )
            self.wdata[w.name] = (WEAPON_TYPES.index(w.type), w.cost, w.durability, segs)
        # hero name -> (hp, trained type-id set, energies[4], bonuses[4][(eff, val)])
        self.hdata: dict[str, tuple] = {}
        for h in cat.heroes.values():
            self.hdata[h.name] = (
                h.hp,
                frozenset(WEAPON_TYPES.index(t) for t in h.trained),
                tuple(t.energy for t in h.times()),
                tuple(
                    tuple((BONUS_EFFECTS.index(b.effect), b.value) for b in t.bonuses)
                    for t in h.times()
                ),
            )
        if config.loadouts is not None:
            for seat, (hero, weapons) in enumerate(config.loadouts):
                check_loadout(cat, self.level, hero, weapons, seat)
        self._eot_order = (
            ("perm", "combo")
            if config.end_of_turn_order == "permanent_then_combo"
            else ("combo", "perm")
        )
        # check_state: the storable segments (effect, value, durability) and the values of each
        # wheel (SW-5.10 stored effects, SW-2.2 initiative values)
        self._storable = {
            name: frozenset((e, v, d) for e, v, _c, d in wd[3] if e in STORABLE)
            for name, wd in self.wdata.items()
        }
        self._wheel_values = {name: frozenset(v for _e, v, _c, _d in wd[3])
                              for name, wd in self.wdata.items()}
        self.observation_shape = (encoder.OBS.size,)
        self.observation_low = encoder.OBS_LOW
        self.observation_high = encoder.OBS_HIGH

    # ------------------------------------------------------------------ set-up ---------------
    def new_state(self, seed: int, forced_spins: list[int] | None = None) -> ScratchWarsState:
        """A fresh game (SW-2): loadouts (configured or random from the seed), initiative next.

        ``forced_spins``: optional segment indices (0..8) the first spins land on (test hook).
        """
        rng = make_rng(seed)
        cat, cfg = self.catalogue, self.config
        if cfg.loadouts is not None:
            los = [(h, list(ws)) for h, ws in cfg.loadouts]
        else:
            los = []
            n = min(cfg.random_weapons, len(cat.weapon_names))
            for _ in range(2):
                hero = rng.choice(cat.hero_names)
                los.append((hero, rng.sample(cat.weapon_names, n)))
        heroes = [los[0][0], los[1][0]]
        wnames = [los[0][1], los[1][1]]
        return ScratchWarsState(
            rng=rng,
            forced_spins=[int(x) for x in (forced_spins or [])],
            heroes=heroes,
            wnames=wnames,
            hp=[self.hdata[h][0] for h in heroes],
            energy=[0, 0],
            wst=[[READY if k < len(ws) else ABSENT for k in range(MAX_WEAPONS)] for ws in wnames],
            seff=[[-1] * MAX_WEAPONS for _ in range(2)],
            sval=[[0] * MAX_WEAPONS for _ in range(2)],
            sdur=[[0] * MAX_WEAPONS for _ in range(2)],
            sfresh=[[False] * MAX_WEAPONS for _ in range(2)],
            bused=[[False, False], [False, False]],
            round=0,
            turn=-1,
            starter=-1,
            second_half=False,
            actions=0,
            phase=PH_INIT_WEAPON,
            actor=0,
            init_choice=[-1, -1],
            init_vals=[-1, -1],
            last_spin=[-1, -1, -1],
            pend=[-1, 0, 0, 0],  # spun effect id, value (+bonus), colour, stored durability
            att=[0, K_HERO, -1, CTX_SPIN, -1],  # value, kind, target, context, attacker
            shield_sum=0,
            bonus_opts=[],
            bonus_ctx=-1,
            perm_queue=[],
            eot_stage=0,
            winner=-1,
            truncated=False,
        )

    def set_forced_spins(self, state: ScratchWarsState, segments: list[int]) -> None:
        """Test hook: the next spins land on ``segments`` (indices 0..8), in order."""
        for x in segments:
            if not 0 <= int(x) < SEGMENTS:
                raise ValueError(f"forced spin {x!r} is not a segment index 0..8")
        state.forced_spins = [int(x) for x in segments]

    def _spin(self, s: ScratchWarsState) -> int:
        if s.forced_spins:
            return s.forced_spins.pop(0)
        return s.rng.randrange(SEGMENTS)

    # ------------------------------------------------------------------ queries --------------
    def current_player(self, state: ScratchWarsState) -> int:
        return -1 if state.phase == PH_OVER else state.actor

    def is_terminal(self, state: ScratchWarsState) -> bool:
        return state.phase == PH_OVER

    def is_truncated(self, state: ScratchWarsState) -> bool:
        return state.truncated

    def returns(self, state: ScratchWarsState) -> list[float]:
        w = state.winner
        if w == 0:
            return [1.0, -1.0]
        if w == 1:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    # -- optional hooks (card_envs.core.game): reward shaping and decision-time lookahead ------
    def potential(self, state: ScratchWarsState, player: int) -> float:
        """``player``'s material lead, float in [-1, 1], from public facts (everything in Scratch
        Wars is public). A seat's material is its hero's HP (SW-1.1, SW-3.4) plus what its table
        holds for later: each stored effect at its value (SW-5.10), a permanent attack twice (it
        fires at the end of every own turn, SW-5.11; a shield absorbs its value once, SW-5.12; a
        combo adds its value to one detonation, SW-5.13), half a point per energy (SW-5.1,
        SW-5.2: it pays the spins), minus 2 per broken weapon (SW-5.9: a repair costs an action
        and the spin cost). Own material minus the opponent's, over twice the larger printed HP
        of the two heroes (an HP lead alone stays within ±1/2), clipped to [-1, 1].
        ``potential(s, 0) == -potential(s, 1)``. Used by potential-based reward shaping and as the
        leaf score of :class:`card_envs.bots.lookahead.LookaheadPolicy` (measured with the
        heuristic: +lookahead:8 won 61.5 % of 400 games against it with this material, about
        50 % with the HP lead alone)."""
        mat = [0.0, 0.0]
        for q in (0, 1):
            m = state.hp[q] + 0.5 * state.energy[q]
            wst, seff, sval = state.wst[q], state.seff[q], state.sval[q]
            for k in range(MAX_WEAPONS):
                if wst[k] == STORED:
                    m += 2 * sval[k] if seff[k] == PERMANENT else sval[k]
                elif wst[k] == BROKEN:
                    m -= 2
            mat[q] = m
        heroes = state.heroes
        return lead(mat, player, 2 * max(self.hdata[heroes[0]][0], self.hdata[heroes[1]][0]))

    def lookahead_horizon(self, state: ScratchWarsState) -> int | None:
        """The 0-based turn number ``2 × round + (second turn of the round)`` (SW-2.3, SW-4.1)
        during the turns (``main``, ``result``, ``bonus``, ``target``, ``shield``, ``detonate``):
        a lookahead plays to the end of the current turn, its end-of-turn permanent attacks and
        detonations included (SW-5.14); the defender's shield decisions belong to the attacker's
        turn. ``None`` during the initiative (``init_weapon``, ``init_order``, SW-2.2: its effect
        shows only in the turns that follow) and once the game is over."""
        if state.phase in (PH_INIT_WEAPON, PH_INIT_ORDER, PH_OVER):
            return None
        return 2 * state.round + (1 if state.second_half else 0)

    def time_of_day(self, state: ScratchWarsState) -> int:
        """0 morning, 1 noon, 2 evening, 3 night (SW-4.1); the round counter drives it."""
        return state.round % 4

    def spin_cost(self, state: ScratchWarsState, player: int, slot: int) -> int:
        """SW-5.2: the weapon's cost, + ``untrained_surcharge`` for an untrained type; 0 below
        level 3."""
        if not self.energy_on:
            return 0
        t, cost, _, _ = self.wdata[state.wnames[player][slot]]
        if t not in self.hdata[state.heroes[player]][1]:
            cost += self.config.untrained_surcharge
        return cost

    def segment(self, state: ScratchWarsState, player: int, slot: int, seg: int) -> tuple:
        """``(effect id, value, colour id, stored durability)`` of a wheel segment."""
        return self.wdata[state.wnames[player][slot]][3][seg]

    # ------------------------------------------------------------------ invariants -----------
    def phase_name(self, state: ScratchWarsState) -> str:
        """``init_weapon``, ``init_order``, ``main``, ``result``, ``bonus``, ``target``,
        ``shield``, ``detonate`` or ``over`` (the module docstring says who decides in each)."""
        ph = state.phase
        return PHASE_NAMES[ph] if ph.__class__ is int and 0 <= ph < len(PHASE_NAMES) else repr(ph)

    def check_state(self, state: ScratchWarsState) -> None:
        """StateError (naming the field path and value) unless ``state`` is a consistent Scratch
        Wars state of this config.

        Checked: two seats and the length of every per-seat / per-slot / positional list; heroes
        and weapons known to this game's catalogue, equal to the configured loadouts (or a
        random loadout's ``random_weapons`` distinct weapons); HP at most the printed HP (SW-1.1)
        and above 0 while the game goes on (SW-3.4); energy within ``energy_cap`` (0 below level
        3); slot statuses matching the loadout, broken / repairing / stored only with the SW-5
        effects, every stored effect a storable segment of its own weapon (SW-5.10) and empty
        slots holding nothing; the initiative (SW-2.2: choices, spun values on the chosen
        wheels, the winner deciding); the turn order (SW-2.3: starter, ``second_half``, ``turn``),
        who decides in each phase (``actor``), actions and energy left, the end-of-turn stage
        (SW-5.14); the pending spin matching ``last_spin``'s segment; the pending attack
        (context, kind, value, a legal target, SW-5.6/5.7) and the shield window (SW-5.12); the
        offered bonuses (SW-4.2, SW-6) and the bonuses used this turn; the permanent attacks
        still to fire (SW-5.11) and the combos of a detonation decision (SW-5.13, SW-6.3);
        ``winner`` / ``truncated`` matching the HP and the round cap (SW-3.4, SW-4.4); and a
        legal action whenever the game is not over.
        """
        s = state
        self._check_seats(s)
        self._check_slots(s)
        self._check_records(s)
        self._check_end(s)
        if s.phase in (PH_INIT_WEAPON, PH_INIT_ORDER):
            self._check_initiative(s)
        else:
            self._check_play(s)
        if s.phase != PH_OVER and not self._legal_actions(s):  # pragma: no cover - a safety net
            fail("phase", s.phase, "has no legal action although the game is not over")

    def _check_seats(self, s: ScratchWarsState) -> None:
        cfg = self.config
        for name in ("heroes", "wnames", "hp", "energy", "wst", "seff", "sval", "sdur", "sfresh",
                     "bused", "init_choice", "init_vals"):
            check_len(name, getattr(s, name), 2, why="one entry per seat")
        for name in ("wst", "seff", "sval", "sdur", "sfresh"):
            for p in (0, 1):
                check_len(f"{name}[{p}]", getattr(s, name)[p], MAX_WEAPONS,
                          why="one entry per weapon slot")
        for p in (0, 1):
            check_len(f"bused[{p}]", s.bused[p], 2, why="two bonus slots per time of day")
        check_len("last_spin", s.last_spin, 3, why="[seat, slot, segment]")
        check_len("pend", s.pend, 4, why="[effect, value, colour, durability]")
        check_len("att", s.att, 5, why="[value, kind, target, context, attacker]")
        n_random = min(cfg.random_weapons, len(self.catalogue.weapon_names))
        for p in (0, 1):
            hero, ws = s.heroes[p], s.wnames[p]
            if hero not in self.hdata:
                fail(f"heroes[{p}]", hero, "is not a hero of this game's catalogue")
            check_len(f"wnames[{p}]", ws, 1, MAX_WEAPONS, "a hero equips 1-5 weapons, SW-2.1")
            for k, w in enumerate(ws):
                if w not in self.wdata:
                    fail(f"wnames[{p}][{k}]", w, "is not a weapon of this game's catalogue")
            if cfg.loadouts is not None:
                want_hero, want_ws = cfg.loadouts[p]
                if hero != want_hero:
                    fail(f"heroes[{p}]", hero, f"is not seat {p}'s configured hero {want_hero!r}")
                if len(ws) != len(want_ws):
                    fail(f"wnames[{p}]", ws, f"is not seat {p}'s configured weapons "
                                             f"{list(want_ws)}")
                for k, (w, want) in enumerate(zip(ws, want_ws)):
                    if w != want:
                        fail(f"wnames[{p}][{k}]", w, f"is not seat {p}'s configured weapon "
                                                     f"{want!r} in slot {k}")
            else:
                check_len(f"wnames[{p}]", ws, n_random,
                          why=f"a random loadout has random_weapons = {n_random} weapons")
                for k, w in enumerate(ws):
                    if w in ws[:k]:
                        fail(f"wnames[{p}][{k}]", w, "is equipped twice (a random loadout draws "
                                                     "distinct weapons, SW-2.1)")
            hp_max = self.hdata[hero][0]
            check_range(f"hp[{p}]", s.hp[p], HP_MIN, hp_max,
                        f"an HP of {hero!r} (at most its printed {hp_max}, SW-1.1)")
            check_range(f"energy[{p}]", s.energy[p], 0, cfg.energy_cap if self.energy_on else 0,
                        "an energy of this config (energy_cap, SW-5.1; none below level 3)")
        check_range("round", s.round, 0, cfg.max_rounds, "a round of this config (max_rounds)")
        check_range("actions", s.actions, 0, cfg.actions_per_turn,
                    "an action count of this config (actions_per_turn, SW-3.1)")

    def _check_slots(self, s: ScratchWarsState) -> None:
        for p in (0, 1):
            ws = s.wnames[p]
            for k in range(MAX_WEAPONS):
                st = s.wst[p][k]
                here = f"wst[{p}][{k}] = {st} ({STATUS_NAMES[st]})"
                if (k < len(ws)) != (st != ABSENT):
                    fail(f"wst[{p}][{k}]", st, f"({STATUS_NAMES[st]}) does not match the "
                                               f"{len(ws)} weapon(s) of wnames[{p}]")
                if st in (BROKEN, REPAIRING, STORED) and not self.full:
                    fail(f"wst[{p}][{k}]", st, f"({STATUS_NAMES[st]}) needs the SW-5 effects "
                                               "(level 3, or level 2 with effects='full')")
                eff, val, dur = s.seff[p][k], s.sval[p][k], s.sdur[p][k]
                if st == STORED:
                    if (eff, val, dur) not in self._storable[ws[k]]:
                        fail(f"seff[{p}][{k}], sval[{p}][{k}], sdur[{p}][{k}]", (eff, val, dur),
                             f"is not a storable segment (effect, value, durability) of "
                             f"{ws[k]!r}, the weapon holding it ({here}; SW-5.10)")
                else:
                    for name, v, empty in (("seff", eff, -1), ("sval", val, 0), ("sdur", dur, 0)):
                        if v != empty:
                            fail(f"{name}[{p}][{k}]", v, f"must be {empty}: the slot holds no "
                                                         f"stored effect ({here})")
                if s.sfresh[p][k] and (not self.full or k >= len(ws)):
                    fail(f"sfresh[{p}][{k}]", True, f"marks a freshly stored effect where none "
                                                    f"can be stored ({here})")

    def _check_records(self, s: ScratchWarsState) -> None:
        """The positions of ``last_spin``, ``pend`` and ``att`` (each its own static range)."""
        ls = s.last_spin
        if ls != [-1, -1, -1]:
            check_range("last_spin[0]", ls[0], 0, 1, "a seat (or last_spin is [-1, -1, -1])")
            check_range("last_spin[1]", ls[1], 0, len(s.wnames[ls[0]]) - 1,
                        f"a weapon slot of seat {ls[0]} (wnames[{ls[0]}])")
            check_range("last_spin[2]", ls[2], 0, SEGMENTS - 1, "a segment index")
        pe = s.pend
        if pe[0] == -1:
            if pe != [-1, 0, 0, 0]:
                fail("pend", pe, "must be [-1, 0, 0, 0] when it holds no spin (pend[0] = -1)")
        else:
            check_range("pend[0]", pe[0], 0, len(EFFECTS) - 1, "an effect id (or -1)")
            check_range("pend[1]", pe[1], BONUS_MIN, SEG_VALUE_MAX + BONUS_MAX,
                        "a spun value with a bonus")
            check_range("pend[2]", pe[2], GREEN, RED, "a field colour")
            check_range("pend[3]", pe[3], 1, DUR_MAX, "a stored effect's durability")
        at = s.att
        check_range("att[1]", at[1], K_HERO, K_UNIVERSAL, "an attack kind")
        check_range("att[2]", at[2], -1, 2 * MAX_WEAPONS, "an attack target (-1 = none)")
        check_range("att[3]", at[3], CTX_SPIN, CTX_DET, "an attack context")
        check_range("att[4]", at[4], -1, 1, "a seat (or -1)")

    def _check_end(self, s: ScratchWarsState) -> None:
        """SW-3.4 / SW-4.4: ``winner`` and ``truncated`` against the HP, the round and the phase."""
        cfg = self.config
        hp, w = s.hp, s.winner
        dead = (hp[0] <= 0, hp[1] <= 0)
        if s.phase != PH_OVER:
            where = f"the game is not over (phase {s.phase} = {self.phase_name(s)})"
            if w != -1:
                fail("winner", w, f"is set although {where}")
            if s.truncated:
                fail("truncated", True, f"is set although {where}")
            for p in (0, 1):
                if dead[p]:
                    fail(f"hp[{p}]", hp[p], f"is 0 or below: that hero has lost (SW-3.4), yet "
                                            f"{where}")
            if s.round >= cfg.max_rounds:
                fail("round", s.round, f"has reached max_rounds {cfg.max_rounds} (the game is "
                                       f"truncated there), yet {where}")
            if s.actor not in (0, 1):
                fail("actor", s.actor, f"is not a seat although {where}")
            return
        if s.actor != -1:
            fail("actor", s.actor, "must be -1 once the game is over (phase 8 = over)")
        if s.truncated:
            if w != -1:
                fail("winner", w, "is set although the game was truncated (truncated is True)")
            if s.round != cfg.max_rounds:
                fail("round", s.round, f"is not max_rounds {cfg.max_rounds} although truncated is "
                                       "True (SW-4.4 DECISION: the round cap truncates)")
            for p in (0, 1):
                if dead[p]:
                    fail(f"hp[{p}]", hp[p], "is 0 or below: that hero lost, the game was not "
                                            "truncated (truncated is True)")
            return
        expect = 2 if dead[0] and dead[1] else (1 if dead[0] else (0 if dead[1] else -1))
        if expect == -1:
            fail("winner", w, f"the game is over (phase 8) but neither hero is at 0 HP or below "
                              f"(hp {hp}) and truncated is False")
        if w != expect:
            fail("winner", w, f"does not match hp {hp} (SW-3.4: a hero at 0 or below loses, both "
                              f"at once is a draw = 2): expected {expect}")
        if s.round >= cfg.max_rounds:
            fail("round", s.round, f"is max_rounds {cfg.max_rounds} or more: the game would "
                                   "have been truncated before a hero fell (winner)")

    def _check_initiative(self, s: ScratchWarsState) -> None:
        """SW-2.2: before the first turn nothing has happened but the initiative spins."""
        where = f"before the game starts (phase {s.phase} = {self.phase_name(s)}, SW-2.2)"
        for name, want in (("turn", -1), ("starter", -1), ("round", 0), ("actions", 0),
                           ("shield_sum", 0), ("bonus_ctx", -1), ("eot_stage", 0),
                           ("second_half", False), ("pend", [-1, 0, 0, 0]),
                           ("att", [0, K_HERO, -1, CTX_SPIN, -1]), ("bonus_opts", []),
                           ("perm_queue", [])):
            if getattr(s, name) != want:
                fail(name, getattr(s, name), f"must be {want!r} {where}")
        for p in (0, 1):
            if s.hp[p] != self.hdata[s.heroes[p]][0]:
                fail(f"hp[{p}]", s.hp[p], f"is not the printed HP of heroes[{p}] {where}")
            if s.energy[p] != 0:
                fail(f"energy[{p}]", s.energy[p], f"must be 0 {where}")
            for k in range(MAX_WEAPONS):
                if s.wst[p][k] not in (READY, ABSENT):
                    fail(f"wst[{p}][{k}]", s.wst[p][k], f"must be ready (or absent) {where}")
                if s.sfresh[p][k]:
                    fail(f"sfresh[{p}][{k}]", True, f"must be False {where}")
            for j in (0, 1):
                if s.bused[p][j]:
                    fail(f"bused[{p}][{j}]", True, f"must be False {where}")
        ic, iv, ls = s.init_choice, s.init_vals, s.last_spin
        if s.phase == PH_INIT_WEAPON:
            if s.actor == 0 and ic != [-1, -1]:
                fail("init_choice", ic, "must be [-1, -1] while seat 0 chooses (actor 0, phase "
                                        "init_weapon)")
            if s.actor == 1:
                check_range("init_choice[0]", ic[0], 0, len(s.wnames[0]) - 1,
                            "seat 0's chosen weapon slot (seat 1 chooses now: actor 1, phase "
                            "init_weapon)")
                if ic[1] != -1:
                    fail("init_choice[1]", ic[1], "must be -1 while seat 1 chooses (actor 1, "
                                                  "phase init_weapon)")
            if iv == [-1, -1]:
                if ls != [-1, -1, -1]:
                    fail("last_spin", ls, "must be [-1, -1, -1]: no initiative spin yet "
                                          "(init_vals [-1, -1], phase init_weapon)")
                return
            # a tie: both choose and spin again (SW-2.2 DECISION)
            if self.config.initiative_ties != "spin_again" or iv[0] != iv[1] or iv[0] < 0:
                fail("init_vals", iv, "is neither [-1, -1] (no spin yet) nor a tie to spin "
                                      "again (initiative_ties 'spin_again') in phase init_weapon")
            if ls[0] != 1 or self.wdata[s.wnames[1][ls[1]]][3][ls[2]][1] != iv[1]:
                fail("last_spin", ls, f"is not seat 1's initiative spin of value init_vals[1] "
                                      f"= {iv[1]} (a tie, phase init_weapon)")
            if not any(iv[0] in self._wheel_values[w] for w in s.wnames[0]):
                fail("init_vals[0]", iv[0], "is not a value on any of seat 0's wheels (wnames[0])")
            return
        for p in (0, 1):
            check_range(f"init_choice[{p}]", ic[p], 0, len(s.wnames[p]) - 1,
                        f"seat {p}'s chosen initiative weapon slot (phase init_order; wnames[{p}])")
        self._check_init_values(s)
        if ls[0] != 1 or ls[1] != ic[1] or self.wdata[s.wnames[1][ic[1]]][3][ls[2]][1] != iv[1]:
            fail("last_spin", ls, f"is not seat 1's initiative spin of weapon slot "
                                  f"init_choice[1] = {ic[1]} with value init_vals[1] = {iv[1]} "
                                  f"(phase init_order)")
        winner = 0 if iv[0] >= iv[1] else 1  # a tie reaches init_order only for seat0_decides
        if s.actor != winner:
            fail("actor", s.actor, f"is not the initiative winner {winner} (init_vals {iv}, "
                                   "SW-2.2) who decides who starts (phase init_order)")

    def _check_init_values(self, s: ScratchWarsState) -> None:
        ic, iv = s.init_choice, s.init_vals
        for p in (0, 1):
            name = s.wnames[p][ic[p]]
            if iv[p] not in self._wheel_values[name]:
                fail(f"init_vals[{p}]", iv[p], f"is not a value on seat {p}'s initiative weapon "
                                               f"{name!r} (init_choice[{p}] = {ic[p]}, SW-2.2)")
        if iv[0] == iv[1] and self.config.initiative_ties == "spin_again":
            fail("init_vals", iv, "is a tie: both spin again (initiative_ties 'spin_again'), "
                                  "nobody won the initiative")

    def _context(self, s: ScratchWarsState) -> str:
        """What the current decision belongs to: ``main`` (the turn), ``spin`` (a spun result),
        ``perm`` / ``det`` (a turn end's permanent attack / detonation, SW-5.14)."""
        ph = s.phase
        if ph == PH_MAIN:
            return "main"
        if ph == PH_RESULT:
            return "spin"
        if ph == PH_DETONATE:
            return "det"
        if ph == PH_BONUS and s.bonus_ctx != BC_SHIELD:
            if s.bonus_ctx == -1:
                fail("bonus_ctx", -1, "is not a bonus event although phase 4 (bonus) decides one")
            return ("spin", "perm", None, "det")[s.bonus_ctx]
        return ("spin", "perm", "det")[s.att[3]]

    def _check_play(self, s: ScratchWarsState) -> None:
        """The game has started (phases main .. over): turn order, the decision and its data."""
        cfg = self.config
        ph, name = s.phase, self.phase_name(s)
        ic = s.init_choice
        for p in (0, 1):
            check_range(f"init_choice[{p}]", ic[p], 0, len(s.wnames[p]) - 1,
                        f"seat {p}'s initiative weapon slot (the game has started)")
        self._check_init_values(s)
        if s.starter not in (0, 1):
            fail("starter", s.starter, f"is not a seat although the game has started (phase "
                                       f"{name})")
        if s.bonus_opts and ph != PH_BONUS:
            fail("bonus_opts", s.bonus_opts, f"must be empty outside a bonus decision (phase "
                                             f"{name})")
        if not self.full and s.eot_stage != 0:
            fail("eot_stage", s.eot_stage, "must be 0 without the SW-5 effects (no end-of-turn "
                                           "stages)")
        if s.turn == -1:  # the start penalty ended the game at once (SW-2.2, SW-3.4)
            if not (ph == PH_OVER and s.round == 0 and not s.second_half
                    and s.hp[s.starter] <= 0):
                fail("turn", -1, f"is not a seat although the game has started (starter "
                                 f"{s.starter}, phase {name})")
            return
        order = f"starter {s.starter} plays a round's first turn, the other seat its second " \
                f"(second_half {s.second_half}, SW-2.3)"
        if s.turn != (1 - s.starter if s.second_half else s.starter):
            # over at a round's end: the round counter moved on, the last turn's player stays
            if not (ph == PH_OVER and not s.second_half and s.turn == 1 - s.starter):
                fail("turn", s.turn, f"is not the seat to play: {order}")
        if ph == PH_OVER:
            return
        p, q = s.turn, 1 - s.turn
        apt = cfg.actions_per_turn
        ctx = self._context(s)
        first_turn = s.round == 0 and not s.second_half
        if ph == PH_BONUS and s.bonus_ctx != BC_SHIELD:
            source = f", from bonus_ctx {s.bonus_ctx}"
        elif ph in (PH_TARGET, PH_SHIELD, PH_BONUS):
            source = f", from att[3] {s.att[3]}" + (f" and bonus_ctx {s.bonus_ctx}"
                                                    if ph == PH_BONUS else "")
        else:
            source = ""
        when = (f"(phase {name}, context {ctx}{source}, round {s.round}, second_half "
                f"{s.second_half}, turn {p})")
        if not self.full and (ctx in ("perm", "det") or ph in (PH_TARGET, PH_SHIELD)):
            fail("phase", ph, f"needs the SW-5 effects (level 3, or level 2 with "
                              f"effects='full') {when}")
        shielding = ph == PH_SHIELD or (ph == PH_BONUS and s.bonus_ctx == BC_SHIELD)
        want_actor = q if shielding else p
        if s.actor != want_actor:
            fail("actor", s.actor, f"is not the deciding seat {want_actor} {when}")
        # actions, energy, end-of-turn stage
        if ctx == "main":
            if s.actions < 1:
                fail("actions", s.actions, f"is 0: the turn would have ended (SW-3.1) {when}")
            if self.energy_on and s.energy[p] < 1:
                fail(f"energy[{p}]", s.energy[p], f"is 0: the turn would have ended (SW-5.3) "
                                                  f"{when}")
        elif ctx == "spin":
            if s.actions > apt - 1:
                fail("actions", s.actions, f"is more than {apt - 1}: a spin this turn used an "
                                           f"action (SW-3.1) {when}")
        elif s.actions != 0:
            fail("actions", s.actions, f"must be 0 at the end of a turn (context {ctx}) {when}")
        if self.full:
            if ctx in ("main", "spin"):
                want = 0 if first_turn else 2
            else:
                want = self._eot_order.index("perm" if ctx == "perm" else "combo") + 1
            if s.eot_stage != want:
                fail("eot_stage", s.eot_stage, f"is not {want}: the end-of-turn stages begun so "
                                               f"far (SW-5.14, context {ctx}) {when}")
        # the seat that has not played yet (the first turn of the game)
        if first_turn:
            if s.energy[q] != 0:
                fail(f"energy[{q}]", s.energy[q], f"must be 0: seat {q} has not had a turn yet "
                                                  f"(starter {s.starter}) {when}")
            for k in range(MAX_WEAPONS):
                if s.wst[q][k] in (STORED, REPAIRING):
                    fail(f"wst[{q}][{k}]", s.wst[q][k], f"({STATUS_NAMES[s.wst[q][k]]}): seat "
                                                        f"{q} has not had a turn yet (starter "
                                                        f"{s.starter}) {when}")
        # weapons under repair this turn (SW-5.9) and the spin: one action each
        pe, ls = s.pend, s.last_spin
        repairing = sum(1 for st in s.wst[p] if st == REPAIRING)
        spun = 1 if pe[0] >= 0 else 0
        if repairing + spun > apt - s.actions:
            fail(f"wst[{p}]", s.wst[p], f"shows {repairing} weapon(s) repaired and {spun} spin "
                                        f"this turn, more than the {apt - s.actions} action(s) "
                                        f"used (actions {s.actions} of {apt}) {when}")
        tod = s.round % 4
        self._check_pend(s, p, ctx, tod, when)
        self._check_bonuses(s, p, q, tod, when)
        self._check_attack(s, p, q, ctx, shielding, when)
        # permanent attacks still to fire (SW-5.11) and a detonation decision (SW-5.13)
        stored_perm = [k for k in range(MAX_WEAPONS)
                       if s.wst[p][k] == STORED and s.seff[p][k] == PERMANENT
                       and (cfg.permanent_fires_when_stored or not s.sfresh[p][k])]
        if s.perm_queue and ctx != "perm":
            fail("perm_queue", s.perm_queue, f"must be empty outside the permanent attacks of a "
                                             f"turn end (SW-5.11) {when}")
        for i, k in enumerate(s.perm_queue):
            if i and k <= s.perm_queue[i - 1]:
                fail(f"perm_queue[{i}]", k, "is out of order: the permanent attacks fire in slot "
                                            "order, each once (SW-5.14)")
            if k not in stored_perm:
                fail(f"perm_queue[{i}]", k, f"is not a slot holding a stored permanent attack of "
                                            f"seat {p} that fires now (wst[{p}], seff[{p}], "
                                            f"sfresh[{p}])")
        if ctx == "perm":
            # the queue holds every stored permanent after the one firing now (SW-5.14: slot
            # order; the turn player's own permanents stay stored during its turn end)
            first_queued = s.perm_queue[0] if s.perm_queue else MAX_WEAPONS
            before = [k for k in stored_perm if k < first_queued]
            if not before:
                fail(f"wst[{p}]", s.wst[p], f"holds no stored permanent attack before "
                                            f"perm_queue {s.perm_queue} although one is firing "
                                            f"(seff[{p}], sfresh[{p}], att[3] = {s.att[3]}) {when}")
            firing = before[-1]
            rest = [k for k in stored_perm if k > firing]
            if s.perm_queue != rest:
                fail("perm_queue", s.perm_queue, f"is not the stored permanent attacks {rest} "
                                                 f"after slot {firing}, the one firing now "
                                                 f"(wst[{p}], seff[{p}], sfresh[{p}]) {when}")
            value = s.sval[p][firing]
            bons = self.hdata[s.heroes[p]][3][s.round % 4]
            if ph == PH_BONUS and s.bonus_ctx == BC_PERM:
                ok = s.att[0] == value  # the bonus decision comes first (SW-6.4)
            else:
                ok = s.att[0] == value or any(
                    s.bused[p][j] and b == PERMANENT and s.att[0] == value + v
                    for j, (b, v) in enumerate(bons))
            if not ok:
                fail("att[0]", s.att[0], f"is not the value {value} (sval[{p}][{firing}]) of the "
                                         f"permanent attack firing now from slot {firing} (the "
                                         f"last stored one, wst[{p}] / seff[{p}] / sfresh[{p}], "
                                         f"before perm_queue {s.perm_queue}), nor it plus a "
                                         f"used permanent bonus (bused[{p}]) {when}")
        if ph == PH_DETONATE:
            n = sum(1 for k in range(MAX_WEAPONS) if s.wst[p][k] == STORED
                    and s.seff[p][k] == COMBO)
            if not (n >= 2 or (n == 1 and self._detonator(s, p) >= 0)):
                fail(f"wst[{p}]", s.wst[p], f"holds {n} stored combo(s) (seff[{p}]) and no unused "
                                            f"detonator bonus (bused[{p}], round {s.round}): "
                                            f"nothing to detonate (SW-5.13, SW-6.3) {when}")

    def _check_pend(self, s: ScratchWarsState, p: int, ctx: str, tod: int, when: str) -> None:
        """The turn's latest spin (``pend``) is ``last_spin``'s segment (+ a bonus once used)."""
        ph, pe, ls = s.phase, s.pend, s.last_spin
        if pe[0] < 0:
            if ctx == "spin":
                fail("pend", pe, f"holds no spin although the decision is about one {when}")
            return
        if ls[0] != p:
            fail("pend", pe, f"holds a spin of this turn but last_spin {ls} is not seat {p}'s "
                             f"{when}")
        wname = s.wnames[p][ls[1]]
        eff, val, col, dur = self.wdata[wname][3][ls[2]]
        if (pe[0], pe[2], pe[3]) != (eff, col, dur):
            fail("pend", pe, f"does not match last_spin {ls}: segment {ls[2]} of {wname!r} is "
                             f"[effect {eff}, value {val}, colour {col}, durability {dur}]")
        base = 0 if (self.full and eff == ENERGY and not self.energy_on) else val
        undecided = ph == PH_RESULT or (ph == PH_BONUS and s.bonus_ctx == BC_SPIN)
        bons = self.hdata[s.heroes[p]][3][tod]
        if undecided:
            if pe[1] != base:
                fail("pend[1]", pe[1], f"is not the value {base} spun on last_spin {ls} (a bonus "
                                       f"is added after the decision) {when}")
        elif pe[1] != base and pe[1] - base not in {v for _b, v in bons}:
            fail("pend[1]", pe[1], f"is neither the value {base} spun on last_spin {ls} nor it "
                                   f"plus a bonus of heroes[{p}] at this time of day {when}")
        if ph == PH_MAIN and s.actions >= self.config.actions_per_turn:
            fail("actions", s.actions, f"is all of the turn's actions although pend {pe} shows a "
                                       f"spin this turn {when}")
        if ctx == "spin":
            k = ls[1]
            if s.wst[p][k] != READY:
                fail(f"wst[{p}][{k}]", s.wst[p][k], f"must be ready: the weapon just spun "
                                                    f"(last_spin {ls}) {when}")
        if ph == PH_RESULT and (col == RED or (col == GREEN and self.level == 1)):
            fail("pend[2]", col, f"a red field (or a level-1 green one) applies without a result "
                                 f"decision (SW-3.2; last_spin {ls}) {when}")
        if ph == PH_BONUS and s.bonus_ctx == BC_SPIN and self.full and (
                eff in STORABLE or (eff == ENERGY and not self.energy_on)):
            fail("pend[0]", eff, f"(last_spin {ls}) takes no bonus: a stored effect or a level-2 "
                                 f"energy (SW-4.3, SW-6.4) {when}")

    def _check_bonuses(self, s: ScratchWarsState, p: int, q: int, tod: int, when: str) -> None:
        """Bonuses used this turn (SW-4.2, SW-6.5) and a bonus decision's offer."""
        cfg = self.config
        for r in (0, 1):
            bons = self.hdata[s.heroes[r]][3][tod]
            for j in (0, 1):
                if not s.bused[r][j]:
                    continue
                if not self.bonuses_on:
                    fail(f"bused[{r}][{j}]", True, "no hero bonuses below level 2 (SW-4.2)")
                if j >= len(bons):
                    fail(f"bused[{r}][{j}]", True, f"heroes[{r}] has no bonus slot {j} at "
                                                   f"{TIMES_OF_DAY[tod]} {when}")
                if r == q and (not self.full or bons[j][0] != SHIELD):
                    fail(f"bused[{r}][{j}]", True, f"only a shield bonus of the defender is used "
                                                   f"during the opponent's turn {when}")
                if r == p and self.full and bons[j][0] == SHIELD:
                    fail(f"bused[{r}][{j}]", True, f"a shield bonus is used with an own shield, "
                                                   f"in the opponent's turn only {when}")
        if s.phase != PH_BONUS:
            return
        event, user = s.bonus_ctx, s.actor
        eff = s.pend[0] if event == BC_SPIN else (None, PERMANENT, SHIELD, COMBO)[event]
        match = self._matching_bonuses(s, user, event, eff)
        bons = self.hdata[s.heroes[user]][3][tod]
        if cfg.negative_bonus == "first_match" and any(bons[j][1] < 0 for j in match):
            fail(f"bused[{user}]", s.bused[user], f"leaves a matching negative bonus unused: it "
                                                  f"would have been forced (SW-4.2), not offered "
                                                  f"(bonus_opts, bonus_ctx {event}) {when}")
        want = [j for j in match if bons[j][1] > 0]
        if not want or s.bonus_opts != want:
            fail("bonus_opts", s.bonus_opts, f"is not the offer {want}: the unused positive "
                                             f"bonuses of heroes[{user}] matching bonus_ctx "
                                             f"{event} (SW-4.2, SW-6; bused[{user}]) {when}")

    def _check_attack(self, s: ScratchWarsState, p: int, q: int, ctx: str, shielding: bool,
                      when: str) -> None:
        """The pending attack (``att``), its target (SW-5.6, SW-5.7) and shields (SW-5.12)."""
        cfg, ph = self.config, s.phase
        active = ph in (PH_TARGET, PH_SHIELD) or (
            ph == PH_BONUS and s.bonus_ctx in (BC_PERM, BC_DET, BC_SHIELD))
        if not active:
            if s.shield_sum != 0:
                fail("shield_sum", s.shield_sum, f"must be 0 outside a shield window {when}")
            return
        val, kind, tgt, actx, owner = s.att
        if owner != p:
            fail("att[4]", owner, f"is not the attacker, the turn player {p} {when}")
        want_ctx = {"spin": CTX_SPIN, "perm": CTX_PERM, "det": CTX_DET}[ctx]
        if actx != want_ctx:
            fail("att[3]", actx, f"is not the attack context {want_ctx} of this decision "
                                 f"(bonus_ctx {s.bonus_ctx}) {when}")
        if actx == CTX_SPIN:
            want_kind = {HERO_ATTACK: K_HERO, WEAPON_ATTACK: K_WEAPON,
                         UNIVERSAL: K_UNIVERSAL}.get(s.pend[0])
            if want_kind is None:
                fail("pend[0]", s.pend[0], f"is not an attack effect although an attack of the "
                                           f"spin is pending (att {s.att}) {when}")
            if val != s.pend[1]:
                fail("att[0]", val, f"is not the spun value with its bonus, pend[1] = "
                                    f"{s.pend[1]} {when}")
        else:
            want_kind = K_HERO if actx == CTX_PERM else K_UNIVERSAL
        if kind != want_kind:
            fail("att[1]", kind, f"is not the attack kind {want_kind} of context att[3] = {actx}")
        if ph == PH_TARGET and actx == CTX_PERM:
            fail("att[3]", actx, f"a permanent attack hits the hero, it has no target decision "
                                 f"(SW-5.11) {when}")
        if shielding or actx == CTX_PERM:
            self._check_target(s, q, when)
        elif tgt != -1:
            fail("att[2]", tgt, f"must be -1 before the target is chosen {when}")
        if shielding:
            check_range("shield_sum", s.shield_sum, 0 if cfg.shield_block_floor else 2 * BONUS_MIN,
                        ATTACK_MAX, "a shield total (SW-5.12; shield_block_floor)")
        elif s.shield_sum != 0:
            fail("shield_sum", s.shield_sum, f"must be 0 before shields answer the attack {when}")
        if ph == PH_SHIELD:
            if val - s.shield_sum <= 0:
                fail("shield_sum", s.shield_sum, f"already stops the attack att[0] = {val}: the "
                                                 f"shield window would have closed (SW-5.12)")
            if not any(s.wst[q][k] == STORED and s.seff[q][k] == SHIELD and tgt != 6 + k
                       for k in range(MAX_WEAPONS)):
                fail(f"wst[{q}]", s.wst[q], f"holds no usable stored shield (seff[{q}], target "
                                            f"att[2] = {tgt}) although seat {q} decides on "
                                            f"shields {when}")
        if ph == PH_TARGET and not self._targets(s):
            fail("att[0]", val, f"has no legal target (att {s.att}; wst[{q}], sdur[{q}]) {when}")

    def _check_target(self, s: ScratchWarsState, q: int, when: str) -> None:
        val, kind, tgt = s.att[0], s.att[1], s.att[2]
        if kind == K_HERO and tgt != T_HERO:
            fail("att[2]", tgt, f"a hero attack targets the hero (0) (att[1] = {kind})")
        if tgt == T_HERO:
            if kind == K_WEAPON:
                fail("att[2]", tgt, "a weapon attack cannot target the hero (SW-5.6, att[1] = 1)")
            return
        if tgt < 0:
            fail("att[2]", tgt, f"no target chosen although shields answer the attack {when}")
        if tgt <= MAX_WEAPONS:
            k = tgt - 1
            if k >= len(s.wnames[q]):
                fail("att[2]", tgt, f"targets weapon slot {k} of seat {q}, which is empty")
            st = s.wst[q][k]
            if not (st == READY or (st == STORED and not self.config.effect_target_only)):
                fail("att[2]", tgt, f"targets weapon slot {k} of seat {q}, which is "
                                    f"{STATUS_NAMES[st]} (wst[{q}][{k}] = {st}; SW-5.6)")
            dur = self.wdata[s.wnames[q][k]][2]
        else:
            k = tgt - 1 - MAX_WEAPONS
            if s.wst[q][k] != STORED:
                fail("att[2]", tgt, f"targets the stored effect on slot {k} of seat {q}, which "
                                    f"holds none (wst[{q}][{k}] = {s.wst[q][k]})")
            dur = s.sdur[q][k]
        if dur > val:
            fail("att[2]", tgt, f"targets durability {dur} > the attack value att[0] = {val} "
                                f"(SW-5.6; wnames[{q}] / sdur[{q}])")

    def _legal_actions(self, s: ScratchWarsState) -> list[int]:
        ph = s.phase
        if ph == PH_MAIN:
            p = s.turn
            wst = s.wst[p]
            out = []
            if s.actions > 0:
                e = s.energy[p]
                for k in range(MAX_WEAPONS):
                    if wst[k] == READY and (not self.energy_on or self.spin_cost(s, p, k) <= e):
                        out.append(A_SPIN + k)
                for k in range(MAX_WEAPONS):
                    if wst[k] == BROKEN and (not self.energy_on or self.spin_cost(s, p, k) <= e):
                        out.append(A_REPAIR + k)
            can_spin = bool(out) and out[0] < A_REPAIR
            for k in range(MAX_WEAPONS):
                if wst[k] == STORED:
                    out.append(A_CANCEL + k)
            # SW-5.3: ending voluntarily is a level-3 rule; below it a turn ends by actions or
            # colours only (or when no weapon can be spun)
            if self.energy_on or not can_spin:
                out.append(A_END)
            return out
        if ph == PH_RESULT:
            out = []
            if self._applicable(s):
                out.append(A_APPLY)
            if s.pend[2] != RED:
                out.append(A_DECLINE)
            return out
        if ph == PH_BONUS:
            return [A_BONUS + j for j in s.bonus_opts] + [A_NO_BONUS]
        if ph == PH_TARGET:
            return self._targets(s)
        if ph == PH_SHIELD:
            d = s.actor
            tgt = s.att[2]
            out = [
                A_SHIELD + k
                for k in range(MAX_WEAPONS)
                if s.wst[d][k] == STORED and s.seff[d][k] == SHIELD and tgt != 6 + k
            ]
            out.append(A_SHIELD_DONE)
            return out
        if ph == PH_DETONATE:
            return [A_DETONATE, A_KEEP]
        if ph == PH_INIT_WEAPON:
            return [A_INIT + k for k in range(len(s.wnames[s.actor]))]
        if ph == PH_INIT_ORDER:
            return [A_ORDER, A_ORDER + 1]
        return []

    def _targets(self, s: ScratchWarsState) -> list[int]:
        val, kind, _, _, owner = s.att
        d = 1 - owner
        out = []
        if kind != K_WEAPON:
            out.append(A_T_HERO)
        wst, sdur = s.wst[d], s.sdur[d]
        for k in range(MAX_WEAPONS):
            if wst[k] == READY and self.wdata[s.wnames[d][k]][2] <= val:
                out.append(A_T_WEAPON + k)
        for k in range(MAX_WEAPONS):
            if wst[k] == STORED and sdur[k] <= val:
                out.append(A_T_EFFECT + k)
            elif (
                wst[k] == STORED
                and not self.config.effect_target_only
                and self.wdata[s.wnames[d][k]][2] <= val
            ):
                out.append(A_T_WEAPON + k)
        out.sort()
        return out

    # ------------------------------------------------------------------ bonuses --------------
    def _matching_bonuses(self, s: ScratchWarsState, p: int, event: int, eff: int) -> list[int]:
        """Unused bonus slots of seat ``p`` (current time of day) matching an event.

        Events: ``BC_SPIN`` (one-shot effect ``eff``: its icon or a blessing, SW-6.1; in
        attack_only mode the spun icon), ``BC_PERM``, ``BC_SHIELD``, ``BC_DET`` (>= 2 combos:
        combo icon or combo bonus, SW-6.2, SW-6.4).
        """
        if not self.bonuses_on:
            return []
        bons = self.hdata[s.heroes[p]][3][s.round % 4]
        used = s.bused[p]
        out = []
        for j, (b, _v) in enumerate(bons):
            if used[j]:
                continue
            if event == BC_SPIN:
                if self.mode == "attack_only":
                    ok = (b == eff and self.config.attack_only_icon_bonus) or b == BLESSING
                else:
                    ok = b == eff or (b == BLESSING and eff not in STORABLE)
            elif event == BC_PERM:
                ok = b == PERMANENT
            elif event == BC_SHIELD:
                ok = b == SHIELD
            else:
                ok = b == COMBO or b == COMBO_BONUS
            if ok:
                out.append(j)
        return out

    def _bonus_step(self, s: ScratchWarsState, p: int, event: int, eff: int,
                    shield: int = 0) -> None:
        """SW-4.2/SW-6.5: one bonus per spin/use: a negative match is forced; otherwise offer the
        positive matches (phase ``bonus``) or continue at once. ``shield``: the value of the
        shield just used (``BC_SHIELD``): with ``shield_block_floor`` (SW-5.12 DECISION) a forced
        negative bonus takes at most that value off, the shield blocks ``max(0, value + bonus)``
        (a positive bonus never needs the floor)."""
        match = self._matching_bonuses(s, p, event, eff)
        if match:
            bons = self.hdata[s.heroes[p]][3][s.round % 4]
            if self.config.negative_bonus == "first_match":
                for j in match:
                    if bons[j][1] < 0:
                        s.bused[p][j] = True
                        b = bons[j][1]
                        if event == BC_SHIELD and self.config.shield_block_floor and b < -shield:
                            b = -shield
                        self._after_bonus(s, event, b)
                        return
            pos = [j for j in match if bons[j][1] > 0]
            if pos:
                s.phase = PH_BONUS
                s.actor = p
                s.bonus_opts = pos
                s.bonus_ctx = event
                return
        self._after_bonus(s, event, 0)

    def _after_bonus(self, s: ScratchWarsState, event: int, b: int) -> None:
        if event == BC_SPIN:
            s.pend[1] += b
            self._resolve_spin_effect(s)
        elif event == BC_PERM:
            s.att[0] += b
            self._shield_window(s)
        elif event == BC_SHIELD:
            s.shield_sum += b
            self._shield_window(s)
        else:
            s.att[0] += b
            self._ask_target(s)

    def _best_bonus(self, s: ScratchWarsState, p: int, eff: int) -> int:
        """Bonus a spin of ``eff`` would get at most (forced negative, else best positive)."""
        match = self._matching_bonuses(s, p, BC_SPIN, eff)
        if not match:
            return 0
        bons = self.hdata[s.heroes[p]][3][s.round % 4]
        if self.config.negative_bonus == "first_match":
            for j in match:
                if bons[j][1] < 0:
                    return bons[j][1]
        return max(0, max(bons[j][1] for j in match))

    # ------------------------------------------------------------------ apply ----------------
    def _apply_action(self, state: ScratchWarsState, action: int) -> None:
        s = state
        ph = s.phase
        if ph == PH_MAIN:
            p = s.turn
            if action < A_REPAIR:  # spin
                k = action - A_SPIN
                s.actions -= 1
                if self.energy_on:
                    s.energy[p] -= self.spin_cost(s, p, k)
                seg = self._spin(s)
                s.last_spin = [p, k, seg]
                eff, val, col, dur = self.wdata[s.wnames[p][k]][3][seg]
                if self.mode != "full":
                    s.pend = [eff, val, col, dur]
                else:
                    s.pend = [eff, val if (eff != ENERGY or self.energy_on) else 0, col, dur]
                if col == RED or (col == GREEN and self.level == 1):
                    if self._applicable(s):
                        self._apply_spin(s)
                    else:  # SW-5.15: a red field without a legal target ends the turn
                        self._end_turn(s)
                else:
                    s.phase = PH_RESULT
            elif action < A_CANCEL:  # repair (SW-5.9)
                k = action - A_REPAIR
                s.actions -= 1
                if self.energy_on:
                    s.energy[p] -= self.spin_cost(s, p, k)
                s.wst[p][k] = REPAIRING
                self._continue_turn(s)
            elif action < A_END:  # cancel own stored effect (SW-5.10)
                k = action - A_CANCEL
                s.wst[p][k] = READY
                s.seff[p][k] = -1
                s.sval[p][k] = 0
                s.sdur[p][k] = 0
            else:
                self._end_turn(s)
        elif ph == PH_RESULT:
            if action == A_APPLY:
                self._apply_spin(s)
            else:
                self._after_spin(s, applied=False)
        elif ph == PH_BONUS:
            p = s.actor
            b = 0
            if action != A_NO_BONUS:
                j = action - A_BONUS
                s.bused[p][j] = True
                b = self.hdata[s.heroes[p]][3][s.round % 4][j][1]
            s.bonus_opts = []
            self._after_bonus(s, s.bonus_ctx, b)
        elif ph == PH_TARGET:
            if action == A_T_HERO:
                s.att[2] = T_HERO
            elif action < A_T_EFFECT:
                s.att[2] = 1 + action - A_T_WEAPON
            else:
                s.att[2] = 6 + action - A_T_EFFECT
            self._shield_window(s)
        elif ph == PH_SHIELD:
            if action == A_SHIELD_DONE:
                self._resolve_attack(s)
            else:
                d = s.actor
                k = action - A_SHIELD
                v = s.sval[d][k]
                s.wst[d][k] = READY
                s.seff[d][k] = -1
                s.sval[d][k] = 0
                s.sdur[d][k] = 0
                s.shield_sum += v
                self._bonus_step(s, d, BC_SHIELD, SHIELD, v)
        elif ph == PH_DETONATE:
            if action == A_KEEP:
                self._eot_next(s)
            else:
                self._detonate(s)
        elif ph == PH_INIT_WEAPON:
            p = s.actor
            s.init_choice[p] = action - A_INIT
            if p == 0:
                s.actor = 1
            else:
                self._initiative(s)
        elif ph == PH_INIT_ORDER:
            w = s.actor
            self._start_game(s, w if action == A_ORDER else 1 - w)

    # -- initiative (SW-2.2) ------------------------------------------------------------------
    def _initiative(self, s: ScratchWarsState) -> None:
        vals = []
        for p in (0, 1):
            k = s.init_choice[p]
            seg = self._spin(s)
            s.last_spin = [p, k, seg]
            vals.append(self.wdata[s.wnames[p][k]][3][seg][1])
        s.init_vals = vals
        if vals[0] == vals[1]:
            if self.config.initiative_ties == "spin_again":
                s.phase = PH_INIT_WEAPON
                s.actor = 0
                s.init_choice = [-1, -1]
                return
            winner = 0
        else:
            winner = 0 if vals[0] > vals[1] else 1
        s.phase = PH_INIT_ORDER
        s.actor = winner

    def _start_game(self, s: ScratchWarsState, starter: int) -> None:
        s.starter = starter
        s.hp[starter] -= self.config.start_penalty
        if self._check_death(s):
            return
        self._start_turn(s, starter)

    # -- turns --------------------------------------------------------------------------------
    def _start_turn(self, s: ScratchWarsState, p: int) -> None:
        s.turn = p
        s.actor = p
        s.actions = self.config.actions_per_turn
        wst = s.wst[p]
        for k in range(MAX_WEAPONS):
            if wst[k] == REPAIRING:  # SW-5.9: usable again at the start of the next turn
                wst[k] = READY
        s.bused = [[False, False], [False, False]]
        s.sfresh[p] = [False] * MAX_WEAPONS
        if self.energy_on:  # SW-5.1
            e = s.energy[p] + self.hdata[s.heroes[p]][2][s.round % 4]
            s.energy[p] = min(self.config.energy_cap, e)
        s.phase = PH_MAIN
        s.pend = [-1, 0, 0, 0]
        if self.energy_on and s.energy[p] == 0:
            self._end_turn(s)

    def _continue_turn(self, s: ScratchWarsState) -> None:
        """SW-5.3: the turn goes on unless actions (or, at level 3, energy) ran out."""
        p = s.turn
        if s.actions <= 0 or (self.energy_on and s.energy[p] <= 0):
            self._end_turn(s)
        else:
            s.phase = PH_MAIN
            s.actor = p

    def _end_turn(self, s: ScratchWarsState) -> None:
        """SW-5.14: end of turn → permanent attacks fire → combos may be detonated."""
        s.actions = 0
        s.actor = s.turn
        if self.full:
            s.eot_stage = 0
            self._eot_next(s)
        else:
            self._next_turn(s)

    def _eot_next(self, s: ScratchWarsState) -> None:
        p = s.turn
        while s.eot_stage < 2:
            stage = self._eot_order[s.eot_stage]
            s.eot_stage += 1
            if stage == "perm":
                fresh_ok = self.config.permanent_fires_when_stored
                q = [
                    k
                    for k in range(MAX_WEAPONS)
                    if s.wst[p][k] == STORED
                    and s.seff[p][k] == PERMANENT
                    and (fresh_ok or not s.sfresh[p][k])
                ]
                if q:
                    s.perm_queue = q
                    self._fire_next_perm(s)
                    return
            else:
                n = sum(1 for k in range(MAX_WEAPONS) if s.wst[p][k] == STORED and s.seff[p][k] == COMBO)
                if n >= 2 or (n == 1 and self._detonator(s, p) >= 0):
                    s.phase = PH_DETONATE
                    s.actor = p
                    return
        self._next_turn(s)

    def _detonator(self, s: ScratchWarsState, p: int) -> int:
        """Index of an unused detonator bonus of the current time of day (SW-6.3) or -1."""
        if not self.bonuses_on:
            return -1
        for j, (b, _v) in enumerate(self.hdata[s.heroes[p]][3][s.round % 4]):
            if b == DETONATOR and not s.bused[p][j]:
                return j
        return -1

    def _fire_next_perm(self, s: ScratchWarsState) -> None:
        """SW-5.11: each stored permanent attack hits the opposing hero (shields may answer)."""
        p = s.turn
        while s.perm_queue:
            k = s.perm_queue.pop(0)
            if s.wst[p][k] == STORED and s.seff[p][k] == PERMANENT:
                s.att = [s.sval[p][k], K_HERO, T_HERO, CTX_PERM, p]
                s.shield_sum = 0
                self._bonus_step(s, p, BC_PERM, PERMANENT)
                return
        self._eot_next(s)

    def _detonate(self, s: ScratchWarsState) -> None:
        """SW-5.13/SW-6.2/SW-6.3: all stored combos summed into one attack; weapons return."""
        p = s.turn
        total, n = 0, 0
        for k in range(MAX_WEAPONS):
            if s.wst[p][k] == STORED and s.seff[p][k] == COMBO:
                total += s.sval[p][k]
                n += 1
                s.wst[p][k] = READY
                s.seff[p][k] = -1
                s.sval[p][k] = 0
                s.sdur[p][k] = 0
        s.att = [total, K_UNIVERSAL, -1, CTX_DET, p]
        s.shield_sum = 0
        if n == 1:
            j = self._detonator(s, p)
            s.bused[p][j] = True
            s.att[0] += self.hdata[s.heroes[p]][3][s.round % 4][j][1]
            self._ask_target(s)
        else:
            self._bonus_step(s, p, BC_DET, COMBO)

    def _next_turn(self, s: ScratchWarsState) -> None:
        """SW-2.3 alternate; SW-4.1 a round = both turns; SW-4.4 sudden death / round cap."""
        nxt = 1 - s.turn
        if not s.second_half:
            s.second_half = True
            self._start_turn(s, nxt)
            return
        s.second_half = False
        s.round += 1
        if s.round >= self.config.max_rounds:
            s.truncated = True
            s.phase = PH_OVER
            s.actor = -1
            return
        if self.level >= 2 and s.round + 1 >= self.config.sudden_death_round:
            dmg = self.config.sudden_death_damage
            s.hp[0] -= dmg
            s.hp[1] -= dmg
            if self._check_death(s):
                return
        self._start_turn(s, nxt)

    def _check_death(self, s: ScratchWarsState) -> bool:
        """SW-3.4 / SW-4.4: a hero at 0 HP or below loses; both at once is a draw."""
        d0, d1 = s.hp[0] <= 0, s.hp[1] <= 0
        if not (d0 or d1):
            return False
        s.winner = 2 if (d0 and d1) else (1 if d0 else 0)
        s.phase = PH_OVER
        s.actor = -1
        return True

    # -- spins and effects --------------------------------------------------------------------
    def _applicable(self, s: ScratchWarsState) -> bool:
        """SW-5.15: can the pending spun effect be applied (has a legal target)?"""
        eff = s.pend[0]
        if self.mode != "full" or eff not in (WEAPON_ATTACK,):
            return True
        p = s.turn
        d = 1 - p
        val = s.pend[1] + self._best_bonus(s, p, eff)
        wst = s.wst[d]
        for k in range(MAX_WEAPONS):
            st = wst[k]
            if st == READY and self.wdata[s.wnames[d][k]][2] <= val:
                return True
            if st == STORED and (
                s.sdur[d][k] <= val
                or (not self.config.effect_target_only and self.wdata[s.wnames[d][k]][2] <= val)
            ):
                return True
        return False

    def _apply_spin(self, s: ScratchWarsState) -> None:
        eff = s.pend[0]
        p = s.turn
        if self.mode == "full" and eff in STORABLE:  # SW-5.10: storing
            k = s.last_spin[1]
            s.wst[p][k] = STORED
            s.seff[p][k] = eff
            s.sval[p][k] = s.pend[1]
            s.sdur[p][k] = s.pend[3]
            s.sfresh[p][k] = True
            self._after_spin(s, applied=True)
            return
        if self.mode == "full" and eff == ENERGY and not self.energy_on:  # SW-4.3 empty action
            self._after_spin(s, applied=True)
            return
        self._bonus_step(s, p, BC_SPIN, eff)

    def _resolve_spin_effect(self, s: ScratchWarsState) -> None:
        eff, val = s.pend[0], s.pend[1]
        p = s.turn
        if self.mode != "full" or eff == HERO_ATTACK:
            s.att = [val, K_HERO, T_HERO, CTX_SPIN, p]
            s.shield_sum = 0
            self._shield_window(s)
        elif eff == ENERGY:  # SW-5.4
            s.energy[p] = min(self.config.energy_cap, s.energy[p] + max(0, val))
            self._after_spin(s, applied=True)
        elif eff == HEAL:  # SW-5.8
            s.hp[p] = min(self.hdata[s.heroes[p]][0], s.hp[p] + max(0, val))
            self._after_spin(s, applied=True)
        else:  # weapon attack / universal attack
            s.att = [val, K_WEAPON if eff == WEAPON_ATTACK else K_UNIVERSAL, -1, CTX_SPIN, p]
            s.shield_sum = 0
            self._ask_target(s)

    def _ask_target(self, s: ScratchWarsState) -> None:
        s.phase = PH_TARGET
        s.actor = s.att[4]
        if not self._targets(s):  # no legal target left (e.g. a declined bonus): no effect
            self._finish_attack(s)

    def _shield_window(self, s: ScratchWarsState) -> None:
        """SW-5.12: after the target is chosen, the defender may use stored shields."""
        d = 1 - s.att[4]
        if s.att[0] - s.shield_sum > 0 and self.full:
            tgt = s.att[2]
            for k in range(MAX_WEAPONS):
                if s.wst[d][k] == STORED and s.seff[d][k] == SHIELD and tgt != 6 + k:
                    s.phase = PH_SHIELD
                    s.actor = d
                    return
        self._resolve_attack(s)

    def _resolve_attack(self, s: ScratchWarsState) -> None:
        val, kind, tgt, ctx, owner = s.att
        d = 1 - owner
        net = val - s.shield_sum
        if net < 0:
            net = 0
        if tgt == T_HERO:
            s.hp[d] -= net
            if self._check_death(s):
                return
        elif tgt >= 6:
            k = tgt - 6
            cmp = net if self.config.shield_before_durability else val
            if s.wst[d][k] == STORED and cmp > 0 and cmp >= s.sdur[d][k]:
                s.wst[d][k] = READY  # SW-5.6: the effect is cancelled, the weapon returns
                s.seff[d][k] = -1
                s.sval[d][k] = 0
                s.sdur[d][k] = 0
        elif tgt >= 1:
            k = tgt - 1
            cmp = net if self.config.shield_before_durability else val
            if cmp > 0 and cmp >= self.wdata[s.wnames[d][k]][2] and s.wst[d][k] in (READY, STORED):
                s.wst[d][k] = BROKEN
                s.seff[d][k] = -1
                s.sval[d][k] = 0
                s.sdur[d][k] = 0
        self._finish_attack(s)

    def _finish_attack(self, s: ScratchWarsState) -> None:
        ctx = s.att[3]
        s.shield_sum = 0
        if ctx == CTX_SPIN:
            self._after_spin(s, applied=True)
        elif ctx == CTX_PERM:
            s.actor = s.turn
            self._fire_next_perm(s)
        else:
            s.actor = s.turn
            self._eot_next(s)

    def _after_spin(self, s: ScratchWarsState, applied: bool) -> None:
        """SW-3.2: green → go on; orange → applied ends the turn, declined goes on; red → end."""
        s.actor = s.turn
        col = s.pend[2]
        if col == RED or (col == ORANGE and applied):
            self._end_turn(s)
        else:
            self._continue_turn(s)

    # ------------------------------------------------------------------ views ----------------
    def observe(self, state: ScratchWarsState, player: int) -> np.ndarray:
        return encoder.encode(self, state, player)

    def _name(self, action: int) -> str:
        try:
            piece = ACTIONS.piece_of(int(action))
        except (IndexError, TypeError, ValueError):
            return "out of range"
        if piece.size == 1:
            return piece.name
        return f"{piece.name} {int(action) - piece.start}"

    def action_to_string(self, state: ScratchWarsState, action: int) -> str:
        name = self._name(action)
        try:
            piece = ACTIONS.piece_of(int(action))
        except (IndexError, TypeError, ValueError):
            return f"action {action} (out of range)"
        k = int(action) - piece.start
        p = state.actor
        if piece.name in ("init_weapon", "spin", "repair", "cancel", "shield") and p >= 0:
            ws = state.wnames[p]
            if k < len(ws):
                return f"{name} ({ws[k]})"
        if piece.name in ("target_weapon", "target_effect") and state.att[4] >= 0:
            ws = state.wnames[1 - state.att[4]]
            if k < len(ws):
                return f"{name} ({ws[k]})"
        if piece.name == "bonus" and p >= 0:
            bons = self.hdata[state.heroes[p]][3][state.round % 4]
            if k < len(bons):
                b, v = bons[k]
                return f"bonus {k} ({BONUS_EFFECTS[b]} {v:+d})"
        return name

    def render(self, state: ScratchWarsState) -> str:
        s = state
        lines = [
            f"Scratch Wars level {self.level} ({self.mode}) round {s.round + 1} "
            f"day {s.round // 4 + 1} {TIMES_OF_DAY[s.round % 4] if self.bonuses_on else ''} "
            f"phase {PHASE_NAMES[s.phase]} actor {s.actor} turn {s.turn} actions {s.actions}"
        ]
        for p in (0, 1):
            lines.append(
                f"P{p} {s.heroes[p]}: HP {s.hp[p]}/{self.hdata[s.heroes[p]][0]} "
                f"energy {s.energy[p]} bonuses used {s.bused[p]}"
            )
            for k, w in enumerate(s.wnames[p]):
                st = STATUS_NAMES[s.wst[p][k]]
                if s.wst[p][k] == STORED:
                    st += f" {EFFECTS[s.seff[p][k]]} {s.sval[p][k]} (dur {s.sdur[p][k]})"
                lines.append(f"   [{k}] {w}: {st}")
        if s.last_spin[0] >= 0:
            p, k, seg = s.last_spin
            eff, val, col, _ = self.wdata[s.wnames[p][k]][3][seg]
            lines.append(
                f"last spin: P{p} {s.wnames[p][k]} segment {seg}: {EFFECTS[eff]} {val} "
                f"{COLOURS[col]}"
            )
        if s.phase == PH_OVER:
            lines.append(
                "truncated (draw)" if s.truncated else
                ("draw" if s.winner == 2 else f"winner: P{s.winner}")
            )
        return "\n".join(lines)

    # ------------------------------------------------------------------ copies ---------------
    def sample_hidden(
        self, state: ScratchWarsState, player: int, rng: random.Random
    ) -> ScratchWarsState:
        """No hidden cards in Scratch Wars: a clone with the chance RNG reseeded from ``rng``
        (forced spins are dropped, they are not observable)."""
        c = self.clone(state)
        reseed(c.rng, rng)
        c.forced_spins = []
        return c


def make_game(**config: Any) -> ScratchWarsGame:
    """Build the Scratch Wars game from config keywords (see :class:`ScratchWarsConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (naming it).
        LoadoutError: a configured loadout breaks SW-2.1.
    """
    return ScratchWarsGame(config_from_kwargs(ScratchWarsConfig, config))
