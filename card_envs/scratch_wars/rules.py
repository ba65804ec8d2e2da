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
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from card_envs.core.config import check_bool, check_choice, check_int, config_from_kwargs
from card_envs.core.errors import ConfigError, IllegalActionError, LoadoutError
from card_envs.core.game import GameBase, lead
from card_envs.core.layout import Layout
from card_envs.core.rng import make_rng, reseed, rng_from_json, rng_to_json
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


class ScratchWarsState:
    """The whole game state (public: Scratch Wars has no hidden cards).

    Per-seat lists are indexed by seat; weapon lists by slot ``0..4``. ``wst`` holds slot status
    (0 absent, 1 ready, 2 broken, 3 repairing, 4 stored effect); ``seff/sval/sdur`` the stored
    effect id, value and durability. ``forced_spins``: segment indices consumed by the next spins
    before the RNG (test hook, serialised). ``last_spin``: ``[seat, slot, segment]`` of the last
    spin or ``[-1, -1, -1]``.
    """

    __slots__ = (
        "rng", "forced_spins", "heroes", "wnames", "hp", "energy", "wst", "seff", "sval", "sdur",
        "sfresh",
        "bused", "round", "turn", "starter", "second_half", "actions", "phase", "actor",
        "init_choice", "init_vals", "last_spin", "pend", "att", "shield_sum", "bonus_opts",
        "bonus_ctx", "perm_queue", "eot_stage", "winner", "truncated", "_legal", "_static",
    )

    def __init__(self) -> None:
        self._legal = None
        self._static = None


_SAVED = [s for s in ScratchWarsState.__slots__ if not s.startswith("_") and s != "rng"]


class ScratchWarsGame(GameBase[ScratchWarsState]):
    """The Scratch Wars duel (see the module docstring and ``card_envs.scratch_wars_v0``).

    Args:
        config: the :class:`ScratchWarsConfig`.
        catalogue: optional in-memory :class:`Catalogue` (tests, balance studies); default:
            loaded from ``config.catalogue_dir`` (or the shipped one).

    Raises:
        LoadoutError: a configured loadout breaks SW-2.1.
        CardDataError: a malformed catalogue file.
    """

    name = "scratch_wars"
    version = 0
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
        from card_envs.scratch_wars import encoder

        self._encoder = encoder
        self.observation_shape = (encoder.OBS.size,)
        self.observation_low = encoder.OBS_LOW
        self.observation_high = encoder.OBS_HIGH

    # ------------------------------------------------------------------ set-up ---------------
    def new_state(self, seed: int, forced_spins: list[int] | None = None) -> ScratchWarsState:
        """A fresh game (SW-2): loadouts (configured or random from the seed), initiative next.

        ``forced_spins``: optional segment indices (0..8) the first spins land on (test hook).
        """
        s = ScratchWarsState()
        s.rng = make_rng(seed)
        s.forced_spins = [int(x) for x in (forced_spins or [])]
        cat, cfg = self.catalogue, self.config
        if cfg.loadouts is not None:
            los = [(h, list(ws)) for h, ws in cfg.loadouts]
        else:
            los = []
            n = min(cfg.random_weapons, len(cat.weapon_names))
            for _ in range(2):
                hero = s.rng.choice(cat.hero_names)
                los.append((hero, s.rng.sample(cat.weapon_names, n)))
        s.heroes = [los[0][0], los[1][0]]
        s.wnames = [los[0][1], los[1][1]]
        s.hp = [self.hdata[h][0] for h in s.heroes]
        s.energy = [0, 0]
        s.wst = [[READY if k < len(ws) else ABSENT for k in range(MAX_WEAPONS)] for ws in s.wnames]
        s.seff = [[-1] * MAX_WEAPONS for _ in range(2)]
        s.sval = [[0] * MAX_WEAPONS for _ in range(2)]
        s.sdur = [[0] * MAX_WEAPONS for _ in range(2)]
        s.sfresh = [[False] * MAX_WEAPONS for _ in range(2)]
        s.bused = [[False, False], [False, False]]
        s.round = 0
        s.turn = -1
        s.starter = -1
        s.second_half = False
        s.actions = 0
        s.phase = PH_INIT_WEAPON
        s.actor = 0
        s.init_choice = [-1, -1]
        s.init_vals = [-1, -1]
        s.last_spin = [-1, -1, -1]
        s.pend = [-1, 0, 0, 0]  # spun effect id, value (+bonus), colour, stored durability
        s.att = [0, K_HERO, -1, CTX_SPIN, -1]  # value, kind, target, context, attacker
        s.shield_sum = 0
        s.bonus_opts = []
        s.bonus_ctx = -1
        s.perm_queue = []
        s.eot_stage = 0
        s.winner = -1
        s.truncated = False
        return s

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

    def legal_actions(self, state: ScratchWarsState) -> list[int]:
        """Sorted legal action ids (cached on the state until the next ``apply_action``; do not
        mutate the returned list)."""
        legal = state._legal
        if legal is None:
            legal = state._legal = self._compute_legal(state)
        return legal

    def _compute_legal(self, s: ScratchWarsState) -> list[int]:
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

    def _bonus_step(self, s: ScratchWarsState, p: int, event: int, eff: int) -> None:
        """SW-4.2/SW-6.5: one bonus per spin/use: a negative match is forced; otherwise offer the
        positive matches (phase ``bonus``) or continue at once."""
        match = self._matching_bonuses(s, p, event, eff)
        if match:
            bons = self.hdata[s.heroes[p]][3][s.round % 4]
            if self.config.negative_bonus == "first_match":
                for j in match:
                    if bons[j][1] < 0:
                        s.bused[p][j] = True
                        self._after_bonus(s, event, bons[j][1])
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
    def apply_action(self, state: ScratchWarsState, action: int) -> None:
        legal = state._legal if state._legal is not None else self._compute_legal(state)
        if action not in legal:
            raise IllegalActionError(
                f"action {action!r} ({self._name(action)}) is not legal in phase "
                f"{PHASE_NAMES[state.phase]}; legal actions: {legal}"
            )
        state._legal = None
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
                self._bonus_step(s, d, BC_SHIELD, SHIELD)
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
        return self._encoder.encode(self, state, player)

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
    def clone(self, state: ScratchWarsState) -> ScratchWarsState:
        s = state
        c = ScratchWarsState()
        c.rng = random.Random()
        c.rng.setstate(s.rng.getstate())
        c.forced_spins = s.forced_spins[:]
        c.heroes = s.heroes[:]
        c.wnames = [s.wnames[0][:], s.wnames[1][:]]
        c.hp = s.hp[:]
        c.energy = s.energy[:]
        c.wst = [s.wst[0][:], s.wst[1][:]]
        c.seff = [s.seff[0][:], s.seff[1][:]]
        c.sval = [s.sval[0][:], s.sval[1][:]]
        c.sdur = [s.sdur[0][:], s.sdur[1][:]]
        c.sfresh = [s.sfresh[0][:], s.sfresh[1][:]]
        c.bused = [s.bused[0][:], s.bused[1][:]]
        for name in ("round", "turn", "starter", "second_half", "actions", "phase", "actor",
                     "shield_sum", "bonus_ctx", "eot_stage", "winner", "truncated"):
            setattr(c, name, getattr(s, name))
        c.init_choice = s.init_choice[:]
        c.init_vals = s.init_vals[:]
        c.last_spin = s.last_spin[:]
        c.pend = s.pend[:]
        c.att = s.att[:]
        c.bonus_opts = s.bonus_opts[:]
        c.perm_queue = s.perm_queue[:]
        c._legal = s._legal
        c._static = s._static
        return c

    def state_to_dict(self, state: ScratchWarsState) -> dict[str, Any]:
        d = {name: _jsonable(getattr(state, name)) for name in _SAVED}
        d["rng"] = rng_to_json(state.rng)
        return d

    def state_from_dict(self, data: dict[str, Any]) -> ScratchWarsState:
        missing = [n for n in _SAVED + ["rng"] if n not in data]
        if missing:
            raise ValueError(f"saved Scratch Wars state is missing field(s) {missing}")
        s = ScratchWarsState()
        for name in _SAVED:
            setattr(s, name, _jsonable(data[name]))
        s.rng = rng_from_json(data["rng"])
        return s

    def sample_hidden(
        self, state: ScratchWarsState, player: int, rng: random.Random
    ) -> ScratchWarsState:
        """No hidden cards in Scratch Wars: a clone with the chance RNG reseeded from ``rng``
        (forced spins are dropped, they are not observable)."""
        c = self.clone(state)
        reseed(c.rng, rng)
        c.forced_spins = []
        return c


def _jsonable(x):
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def make_game(**config: Any) -> ScratchWarsGame:
    """Build the Scratch Wars game from config keywords (see :class:`ScratchWarsConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (naming it).
        LoadoutError: a configured loadout breaks SW-2.1.
    """
    return ScratchWarsGame(config_from_kwargs(ScratchWarsConfig, config))
