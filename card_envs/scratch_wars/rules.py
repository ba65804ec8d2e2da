"""Scratch Wars duel rules (levels 1–3) as a :class:`~card_envs.core.game.GameBase` (SW-1 … SW-6).

Everything a turn contains is a sequence of small decisions over one flat action space
(:data:`~card_envs.scratch_wars.constants.ACTIONS`), including the opponent's shield decisions,
during which ``current_player`` is the defender. The only chance is the spin (SW-1.3: one of 9
segments, uniformly), drawn from ``state.rng`` — unless ``state.forced_spins`` (segment indices,
saved with the state) is non-empty: spins then consume it first, which lets tests fix every spin.

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

A turn's end (SW-5.14) runs the stages of :attr:`ScratchWarsGame.end_of_turn_order`: the stored
permanent attacks fire one by one (``state.permanent_queue``), then the combos may be detonated.
An attack (``state.attack``) goes: target decision (weapon and universal attacks) → shield window
→ resolution → back to what caused it (the spin, the next permanent attack, the next stage).
"""

from __future__ import annotations

import random
from typing import Any

from card_envs.core.balance import BalanceMixin
from card_envs.core.config import config_from_kwargs
from card_envs.core.game import lead
from card_envs.core.rng import make_rng
from card_envs.scratch_wars.config import ScratchWarsConfig
from card_envs.scratch_wars.constants import (
    A_APPLY,
    A_BONUS,
    A_CANCEL,
    A_DECLINE,
    A_DETONATE,
    A_END_TURN,
    A_INIT_ORDER,
    A_INIT_WEAPON,
    A_KEEP_COMBOS,
    A_NO_BONUS,
    A_REPAIR,
    A_SHIELD,
    A_SHIELD_DONE,
    A_SPIN,
    A_TARGET_EFFECT,
    A_TARGET_HERO,
    A_TARGET_WEAPON,
    BONUS_SLOTS,
    BROKEN,
    COMBO,
    ENERGY,
    GREEN,
    HEAL,
    HERO_ATTACK,
    ORANGE,
    PERMANENT,
    PH_BONUS,
    PH_DETONATE,
    PH_INIT_ORDER,
    PH_INIT_WEAPON,
    PH_MAIN,
    PH_OVER,
    PH_RESULT,
    PH_SHIELD,
    PH_TARGET,
    READY,
    RED,
    REPAIRING,
    SEGMENTS,
    SHIELD,
    STORABLE,
    STORED,
    WEAPON_ATTACK,
    WEAPON_SLOTS,
)
from card_envs.scratch_wars.observation import OBS_HIGH, OBS_LOW
from card_envs.scratch_wars.queries import ScratchWarsQueries
from card_envs.scratch_wars.state import (
    ABSENT_SLOT,
    BROKEN_SLOT,
    READY_SLOT,
    REPAIRING_SLOT,
    Attack,
    BonusEvent,
    ScratchWarsState,
    Spin,
    SpinResult,
    StoredEffect,
    WeaponSlot,
    check_forced_spins,
    time_of_day,
)


class ScratchWarsGame(BalanceMixin, ScratchWarsQueries):
    """The Scratch Wars duel (see the module docstring and ``card_envs.scratch_wars_v2``): the
    rules on top of :class:`~card_envs.scratch_wars.queries.ScratchWarsQueries` (the catalogue,
    the config's switches and the position queries; its arguments and errors).
    """

    name = "scratch_wars"
    version = 2  # the env module's _vN (scratch_wars_v2: the normalised observation)
    num_players = 2
    observation_low = OBS_LOW
    observation_high = OBS_HIGH
    max_game_length = 20_000
    perfect_information = True  # no hidden cards (sample_hidden): a view is the render
    # -- declared facts (card_envs.core.game.GameFacts) --
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"  # SW-3.4: +1 / -1, 0 a draw
    zero_sum = True
    chance = True  # the wheel's spins
    provides_potential = provides_lookahead_horizon = True

    # ------------------------------------------------------------------ set-up ---------------
    def new_state(self, seed: int, forced_spins: list[int] | None = None) -> ScratchWarsState:
        """A fresh game (SW-2): loadouts (configured or random from the seed), initiative next.

        ``forced_spins``: optional segment indices the first spins land on (test hook,
        :func:`~card_envs.scratch_wars.state.check_forced_spins`).
        """
        rng = make_rng(seed)
        cat, cfg = self.catalogue, self.config
        spins = check_forced_spins(forced_spins or [])
        if cfg.loadouts is not None:
            loadouts = [(hero, list(weapons)) for hero, weapons in cfg.loadouts]
        else:
            n = min(cfg.random_weapons, len(cat.weapon_names))
            loadouts = [(rng.choice(cat.hero_names), rng.sample(cat.weapon_names, n))
                        for _seat in range(2)]
        heroes = [hero for hero, _ in loadouts]
        names = [weapons for _, weapons in loadouts]
        return ScratchWarsState(
            rng=rng, forced_spins=spins, heroes=heroes, weapon_names=names,
            hp=[self.hero_cards[h].hp for h in heroes], energy=[0, 0],
            weapon_slots=[[READY_SLOT if k < len(ws) else ABSENT_SLOT
                           for k in range(WEAPON_SLOTS)] for ws in names],
            bonus_used=[[False] * BONUS_SLOTS for _seat in range(2)],
            round=0, second_half=False, turn=-1, starter=-1, player=0, phase=PH_INIT_WEAPON,
            actions_left=0, initiative_slot=[-1, -1], initiative_value=[-1, -1],
            last_spin=None, spin_result=None, attack=None, bonus_event=None, bonus_offer=[],
            permanent_queue=[], end_of_turn_stage=0, winner=-1, truncated=False)

    def set_forced_spins(self, state: ScratchWarsState, segments: list[int]) -> None:
        """Test hook: the next spins land on ``segments`` (:func:`.state.check_forced_spins`)."""
        state.forced_spins = check_forced_spins(segments)

    def _spin(self, s: ScratchWarsState) -> int:
        return s.forced_spins.pop(0) if s.forced_spins else s.rng.randrange(SEGMENTS)

    # ------------------------------------------------------------------ queries --------------
    def is_truncated(self, state: ScratchWarsState) -> bool:
        return state.truncated

    def returns(self, state: ScratchWarsState) -> list[float]:
        """+1 / -1 for the winner / loser (SW-3.4); 0 each for a draw, a truncation, mid-game."""
        w = state.winner
        return [1.0 if w == p else (-1.0 if w == 1 - p else 0.0) for p in (0, 1)]


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
        material = [0.0, 0.0]
        for q in (0, 1):
            m = state.hp[q] + 0.5 * state.energy[q]
            for slot in state.weapon_slots[q]:
                if slot.status == STORED:
                    stored = slot.stored
                    m += 2 * stored.value if stored.effect == PERMANENT else stored.value
                elif slot.status == BROKEN:
                    m -= 2
            material[q] = m
        return lead(material, player, 2 * max(self.hero(state, 0).hp, self.hero(state, 1).hp))

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

    # ------------------------------------------------------------------ legal actions --------
    def _legal_actions(self, s: ScratchWarsState) -> list[int]:
        phase = s.phase
        if phase == PH_MAIN:
            return self._main_actions(s)
        if phase == PH_RESULT:
            out = [A_APPLY] if self._applicable(s) else []
            if s.spin_result.colour != RED:
                out.append(A_DECLINE)
            return out
        if phase == PH_BONUS:
            return [A_BONUS + j for j in s.bonus_offer] + [A_NO_BONUS]
        if phase == PH_TARGET:
            return self.targets(s)
        if phase == PH_SHIELD:
            return [A_SHIELD + k for k in self.usable_shields(s, s.player)] + [A_SHIELD_DONE]
        if phase == PH_DETONATE:
            return [A_DETONATE, A_KEEP_COMBOS]
        if phase == PH_INIT_WEAPON:
            return [A_INIT_WEAPON + k for k in range(len(s.weapon_names[s.player]))]
        if phase == PH_INIT_ORDER:
            return [A_INIT_ORDER, A_INIT_ORDER + 1]
        return []

    def _main_actions(self, s: ScratchWarsState) -> list[int]:
        """Spin a ready weapon or repair a broken one (an action left, its cost paid, SW-5.2,
        SW-5.9), cancel a stored effect (SW-5.10), end the turn (SW-5.3)."""
        p = s.turn
        spins, repairs, cancels = [], [], []
        can_act = s.actions_left > 0
        for k, slot in enumerate(s.weapon_slots[p]):
            status = slot.status
            if status == STORED:
                cancels.append(A_CANCEL + k)
            elif can_act and (status == READY or status == BROKEN) and (
                    not self.uses_energy or self.spin_cost(s, p, k) <= s.energy[p]):
                if status == READY:
                    spins.append(A_SPIN + k)
                else:
                    repairs.append(A_REPAIR + k)
        # SW-5.3: ending voluntarily is a level-3 rule; below it a turn ends by actions or
        # colours only (or when no weapon can be spun)
        end = [A_END_TURN] if self.uses_energy or not spins else []
        return spins + repairs + cancels + end

    def _applicable(self, s: ScratchWarsState) -> bool:
        """SW-5.15: can the turn's spun effect be applied (has it a legal target)?"""
        if self.mode != "full" or s.spin_result.effect != WEAPON_ATTACK:
            return True
        d = 1 - s.turn
        value = s.spin_result.value + self._best_bonus(s, s.turn, WEAPON_ATTACK)
        for k, slot in enumerate(s.weapon_slots[d]):
            if slot.status == READY and self.weapon(s, d, k).durability <= value:
                return True
            if slot.status == STORED and (
                    slot.stored.durability <= value
                    or (not self.config.effect_target_only
                        and self.weapon(s, d, k).durability <= value)):
                return True
        return False

    # ------------------------------------------------------------------ apply ----------------
    def _apply_action(self, state: ScratchWarsState, action: int) -> None:
        s = state
        phase = s.phase
        if phase == PH_MAIN:
            if action < A_REPAIR:
                self._spin_weapon(s, action - A_SPIN)
            elif action < A_CANCEL:  # SW-5.9
                k = action - A_REPAIR
                s.actions_left -= 1
                if self.uses_energy:
                    s.energy[s.turn] -= self.spin_cost(s, s.turn, k)
                s.weapon_slots[s.turn][k] = REPAIRING_SLOT
                self._continue_turn(s)
            elif action < A_END_TURN:  # SW-5.10: cancel an own stored effect, free
                s.weapon_slots[s.turn][action - A_CANCEL] = READY_SLOT
            else:
                self._end_turn(s)
        elif phase == PH_RESULT:
            if action == A_APPLY:
                self._apply_spin(s)
            else:
                self._after_spin(s, applied=False)
        elif phase == PH_BONUS:
            p, bonus = s.player, 0
            if action != A_NO_BONUS:
                j = action - A_BONUS
                s.bonus_used[p][j] = True
                bonus = self.bonuses(s, p)[j].value
            event = s.bonus_event
            s.bonus_event, s.bonus_offer = None, []
            self._after_bonus(s, event, bonus)
        elif phase == PH_TARGET:
            if action == A_TARGET_HERO:
                target, slot = "hero", -1
            elif action < A_TARGET_EFFECT:
                target, slot = "weapon", action - A_TARGET_WEAPON
            else:
                target, slot = "stored_effect", action - A_TARGET_EFFECT
            s.attack = s.attack._replace(target=target, target_slot=slot)
            self._shield_window(s)
        elif phase == PH_SHIELD:
            if action == A_SHIELD_DONE:
                self._resolve_attack(s)
            else:  # SW-5.12: the shield is spent, its weapon returns
                d, k = s.player, action - A_SHIELD
                value = s.weapon_slots[d][k].stored.value
                s.weapon_slots[d][k] = READY_SLOT
                s.attack = s.attack._replace(shielded=s.attack.shielded + value)
                self._bonus_step(s, d, "shield", SHIELD, value)
        elif phase == PH_DETONATE:
            if action == A_KEEP_COMBOS:
                self._end_of_turn_next(s)
            else:
                self._detonate(s)
        elif phase == PH_INIT_WEAPON:
            p = s.player
            s.initiative_slot[p] = action - A_INIT_WEAPON
            if p == 0:
                s.player = 1
            else:
                self._initiative(s)
        elif phase == PH_INIT_ORDER:
            winner = s.player
            self._start_game(s, winner if action == A_INIT_ORDER else 1 - winner)

    # -- initiative (SW-2.2) ------------------------------------------------------------------
    def _initiative(self, s: ScratchWarsState) -> None:
        values = []
        for p in (0, 1):
            k = s.initiative_slot[p]
            segment = self._spin(s)
            s.last_spin = Spin(p, k, segment)
            values.append(self.segment(s, p, k, segment).value)
        s.initiative_value = values
        if values[0] == values[1]:
            if self.config.initiative_ties == "spin_again":
                s.phase = PH_INIT_WEAPON
                s.player = 0
                s.initiative_slot = [-1, -1]
                return
            winner = 0
        else:
            winner = 0 if values[0] > values[1] else 1
        s.phase = PH_INIT_ORDER
        s.player = winner

    def _start_game(self, s: ScratchWarsState, starter: int) -> None:
        s.starter = starter
        s.hp[starter] -= self.config.start_penalty
        if not self.end_if_a_hero_fell(s):
            self._start_turn(s, starter)

    # -- turns --------------------------------------------------------------------------------
    def _start_turn(self, s: ScratchWarsState, p: int) -> None:
        s.turn = p
        s.player = p
        s.actions_left = self.config.actions_per_turn
        slots = s.weapon_slots[p]
        for k, slot in enumerate(slots):
            if slot.status == REPAIRING:  # SW-5.9: usable again at the start of the next turn
                slots[k] = READY_SLOT
            elif slot.status == STORED and slot.stored.stored_this_turn:
                e = slot.stored
                slots[k] = WeaponSlot(STORED, StoredEffect(e.effect, e.value, e.durability, False))
        s.bonus_used = [[False] * BONUS_SLOTS, [False] * BONUS_SLOTS]
        if self.uses_energy:  # SW-5.1
            gain = self.hero_cards[s.heroes[p]].energy[time_of_day(s)]
            s.energy[p] = min(self.config.energy_cap, s.energy[p] + gain)
        s.phase = PH_MAIN
        s.spin_result = None
        if self.uses_energy and s.energy[p] == 0:
            self._end_turn(s)

    def _continue_turn(self, s: ScratchWarsState) -> None:
        """SW-5.3: the turn goes on unless actions (or, at level 3, energy) ran out."""
        if s.actions_left <= 0 or (self.uses_energy and s.energy[s.turn] <= 0):
            self._end_turn(s)
        else:
            s.phase = PH_MAIN
            s.player = s.turn

    def _end_turn(self, s: ScratchWarsState) -> None:
        """SW-5.14: end of turn → the stages of ``end_of_turn_order`` → the next turn."""
        s.actions_left = 0
        s.player = s.turn
        if self.full_effects:
            s.end_of_turn_stage = 0
            self._end_of_turn_next(s)
        else:
            self._next_turn(s)

    def _end_of_turn_next(self, s: ScratchWarsState) -> None:
        """Run the next end-of-turn stage that has something to do, else the next turn."""
        p = s.turn
        while s.end_of_turn_stage < len(self.end_of_turn_order):
            stage = self.end_of_turn_order[s.end_of_turn_stage]
            s.end_of_turn_stage += 1
            if stage == "permanent":
                queue = self.firing_permanents(s, p)
                if queue:
                    s.permanent_queue = queue
                    self._fire_permanent(s)
                    return
            elif self.can_detonate(s, p):
                s.phase = PH_DETONATE
                s.player = p
                return
        self._next_turn(s)

    def _fire_permanent(self, s: ScratchWarsState) -> None:
        """SW-5.11: the first queued permanent attack hits the opposing hero (shields may
        answer); the queue empty, the next end-of-turn stage."""
        if not s.permanent_queue:
            self._end_of_turn_next(s)
            return
        p = s.turn
        stored = s.weapon_slots[p][s.permanent_queue[0]].stored
        s.attack = Attack(attacker=p, source="permanent", kind="hero", value=stored.value,
                          target="hero", target_slot=-1, shielded=0)
        self._bonus_step(s, p, "permanent", PERMANENT)

    def _detonate(self, s: ScratchWarsState) -> None:
        """SW-5.13/SW-6.2/SW-6.3: all stored combos summed into one attack; weapons return."""
        p = s.turn
        slots = s.weapon_slots[p]
        total = n = 0
        for k, slot in enumerate(slots):
            if slot.status == STORED and slot.stored.effect == COMBO:
                total += slot.stored.value
                n += 1
                slots[k] = READY_SLOT
        if n == 1:  # SW-6.3: a detonator bonus
            j = self.detonator_slot(s, p)
            s.bonus_used[p][j] = True
            total += self.bonuses(s, p)[j].value
        s.attack = Attack(attacker=p, source="detonation", kind="universal", value=total,
                          target=None, target_slot=-1, shielded=0)
        if n == 1:
            self._ask_target(s)
        else:
            self._bonus_step(s, p, "detonation", COMBO)

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
            self._game_over(s)
            return
        if self.level >= 2 and s.round + 1 >= self.config.sudden_death_round:
            damage = self.config.sudden_death_damage
            s.hp[0] -= damage
            s.hp[1] -= damage
            if self.end_if_a_hero_fell(s):
                return
        self._start_turn(s, nxt)

    def end_if_a_hero_fell(self, s: ScratchWarsState) -> bool:
        """SW-3.4 / SW-4.4: a hero at 0 HP or below loses, both at once is a draw: the game is
        over (returns True); else nothing happens (False)."""
        d0, d1 = s.hp[0] <= 0, s.hp[1] <= 0
        if not (d0 or d1):
            return False
        s.winner = 2 if (d0 and d1) else (1 if d0 else 0)
        self._game_over(s)
        return True

    def _game_over(self, s: ScratchWarsState) -> None:
        s.phase = PH_OVER
        s.player = -1
        s.attack = None
        s.permanent_queue = []

    # -- spins and effects --------------------------------------------------------------------
    def _spin_weapon(self, s: ScratchWarsState, k: int) -> None:
        """SW-3.1/SW-5.2: an action (and energy) for a spin; red fields (and level-1 green
        ones) apply at once, others wait for a result decision (SW-3.2)."""
        p = s.turn
        s.actions_left -= 1
        if self.uses_energy:
            s.energy[p] -= self.spin_cost(s, p, k)
        index = self._spin(s)
        s.last_spin = Spin(p, k, index)
        seg = self.weapon_cards[s.weapon_names[p][k]].segments[index]
        empty = self.full_effects and seg.effect == ENERGY and not self.uses_energy  # SW-4.3
        s.spin_result = SpinResult(seg.effect, 0 if empty else seg.value, seg.colour,
                                   seg.durability)
        if seg.colour == RED or (seg.colour == GREEN and self.level == 1):
            if self._applicable(s):
                self._apply_spin(s)
            else:  # SW-5.15: a red field without a legal target ends the turn
                self._end_turn(s)
        else:
            s.phase = PH_RESULT

    def _apply_spin(self, s: ScratchWarsState) -> None:
        result, p = s.spin_result, s.turn
        if self.full_effects and result.effect in STORABLE:  # SW-5.10: storing
            s.weapon_slots[p][s.last_spin.slot] = WeaponSlot(
                STORED, StoredEffect(result.effect, result.value, result.durability, True))
            self._after_spin(s, applied=True)
        elif self.full_effects and result.effect == ENERGY and not self.uses_energy:  # SW-4.3
            self._after_spin(s, applied=True)
        else:
            self._bonus_step(s, p, "spin", result.effect)

    def _resolve_spin_effect(self, s: ScratchWarsState) -> None:
        """A spun one-shot effect, its bonus added (SW-5.4 … SW-5.8; all attacks below SW-5)."""
        effect, value, p = s.spin_result.effect, s.spin_result.value, s.turn
        if not self.full_effects or effect == HERO_ATTACK:
            s.attack = Attack(attacker=p, source="spin", kind="hero", value=value,
                              target="hero", target_slot=-1, shielded=0)
            self._shield_window(s)
        elif effect == ENERGY:  # SW-5.4
            s.energy[p] = min(self.config.energy_cap, s.energy[p] + max(0, value))
            self._after_spin(s, applied=True)
        elif effect == HEAL:  # SW-5.8
            s.hp[p] = min(self.hero(s, p).hp, s.hp[p] + max(0, value))
            self._after_spin(s, applied=True)
        else:  # weapon attack / universal attack
            kind = "weapon" if effect == WEAPON_ATTACK else "universal"
            s.attack = Attack(attacker=p, source="spin", kind=kind, value=value, target=None,
                              target_slot=-1, shielded=0)
            self._ask_target(s)

    def _ask_target(self, s: ScratchWarsState) -> None:
        s.phase = PH_TARGET
        s.player = s.attack.attacker
        if not self.targets(s):  # no legal target left (e.g. a declined bonus): no effect
            self._finish_attack(s)

    def _shield_window(self, s: ScratchWarsState) -> None:
        """SW-5.12: after the target is chosen, the defender may use stored shields."""
        attack = s.attack
        d = 1 - attack.attacker
        if self.full_effects and attack.value - attack.shielded > 0 and \
                self.usable_shields(s, d):
            s.phase = PH_SHIELD
            s.player = d
        else:
            self._resolve_attack(s)

    def _resolve_attack(self, s: ScratchWarsState) -> None:
        """The attack, less its shields, hits its target (SW-5.5 … SW-5.7, SW-5.12)."""
        attack = s.attack
        d, k = 1 - attack.attacker, attack.target_slot
        net = max(0, attack.value - attack.shielded)
        compared = net if self.config.shield_before_durability else attack.value
        if attack.target == "hero":
            s.hp[d] -= net
            if self.end_if_a_hero_fell(s):
                return
        elif attack.target == "stored_effect":
            slot = s.weapon_slots[d][k]
            if slot.status == STORED and compared > 0 and compared >= slot.stored.durability:
                s.weapon_slots[d][k] = READY_SLOT  # SW-5.6: cancelled, the weapon returns
        elif attack.target == "weapon":
            if compared > 0 and compared >= self.weapon(s, d, k).durability and \
                    s.weapon_slots[d][k].status in (READY, STORED):
                s.weapon_slots[d][k] = BROKEN_SLOT
        self._finish_attack(s)

    def _finish_attack(self, s: ScratchWarsState) -> None:
        """Back to what caused the attack: the spin, the next permanent attack, the next
        end-of-turn stage."""
        source = s.attack.source
        s.attack = None
        if source == "spin":
            self._after_spin(s, applied=True)
            return
        s.player = s.turn
        if source == "permanent":
            s.permanent_queue.pop(0)
            self._fire_permanent(s)
        else:
            self._end_of_turn_next(s)

    def _after_spin(self, s: ScratchWarsState, applied: bool) -> None:
        """SW-3.2: green → go on; orange → applied ends the turn, declined goes on; red → end."""
        s.player = s.turn
        colour = s.spin_result.colour
        if colour == RED or (colour == ORANGE and applied):
            self._end_turn(s)
        else:
            self._continue_turn(s)

    # -- bonuses (SW-4.2, SW-6) -----------------------------------------------------------------
    def _bonus_step(self, s: ScratchWarsState, p: int, event: BonusEvent, effect: int,
                    shield: int = 0) -> None:
        """SW-4.2/SW-6.5: one bonus per spin/use: a negative match is forced; otherwise offer the
        positive matches (phase ``bonus``) or continue at once. ``shield``: the value of the
        shield just used (event ``"shield"``): with ``shield_block_floor`` (SW-5.12 DECISION) a
        forced negative bonus takes at most that value off, the shield blocks
        ``max(0, value + bonus)`` (a positive bonus never needs the floor)."""
        match = self.matching_bonuses(s, p, event, effect)
        if match:
            bonuses = self.bonuses(s, p)
            if self.config.negative_bonus == "first_match":
                for j in match:
                    if bonuses[j].value < 0:
                        s.bonus_used[p][j] = True
                        b = bonuses[j].value
                        if event == "shield" and self.config.shield_block_floor and b < -shield:
                            b = -shield
                        self._after_bonus(s, event, b)
                        return
            offer = [j for j in match if bonuses[j].value > 0]
            if offer:
                s.phase = PH_BONUS
                s.player = p
                s.bonus_event = event
                s.bonus_offer = offer
                return
        self._after_bonus(s, event, 0)

    def _after_bonus(self, s: ScratchWarsState, event: BonusEvent, bonus: int) -> None:
        if event == "spin":
            if bonus:
                s.spin_result = s.spin_result._replace(value=s.spin_result.value + bonus)
            self._resolve_spin_effect(s)
        elif event == "shield":
            if bonus:
                s.attack = s.attack._replace(shielded=s.attack.shielded + bonus)
            self._shield_window(s)
        else:
            if bonus:
                s.attack = s.attack._replace(value=s.attack.value + bonus)
            if event == "permanent":
                self._shield_window(s)
            else:
                self._ask_target(s)

    def _best_bonus(self, s: ScratchWarsState, p: int, effect: int) -> int:
        """Bonus a spin of ``effect`` would get at most (forced negative, else best positive)."""
        match = self.matching_bonuses(s, p, "spin", effect)
        if not match:
            return 0
        bonuses = self.bonuses(s, p)
        if self.config.negative_bonus == "first_match":
            for j in match:
                if bonuses[j].value < 0:
                    return bonuses[j].value
        return max(0, max(bonuses[j].value for j in match))

    # ------------------------------------------------------------------ balance report -------
    def balance_deal(self, seed: int) -> list[dict]:
        """Two random loadouts for the card-balance report (:mod:`card_envs.evaluation.balance`),
        drawn from ``seed`` as a random loadout is (SW-2.1): a hero and ``random_weapons``
        distinct weapons per seat."""
        rng = random.Random(seed)
        cat = self.catalogue
        n = min(self.config.random_weapons, len(cat.weapon_names))
        return [{"hero": rng.choice(cat.hero_names), "weapons": rng.sample(cat.weapon_names, n)}
                for _seat in range(2)]

    def balance_config(self, sets: list) -> dict[str, Any]:
        """``{"loadouts": sets}``: seat ``i`` plays loadout ``sets[i]``."""
        return {"loadouts": [{"hero": s["hero"], "weapons": list(s["weapons"])} for s in sets]}

    def cards_in_set(self, card_set) -> tuple[str, ...]:
        """A loadout's cards: ``hero:<name>`` and one ``weapon:<name>`` per weapon."""
        return (f"hero:{card_set['hero']}",) + tuple(f"weapon:{w}" for w in card_set["weapons"])

    def card_played(self, state: ScratchWarsState, action: int) -> str | None:
        """A weapon spin (SW-3.2) plays ``weapon:<name>``; nothing else counts."""
        if state.phase == PH_MAIN and A_SPIN <= action < A_REPAIR:
            return f"weapon:{state.weapon_names[state.turn][action - A_SPIN]}"
        return None

    def starting_player(self, state: ScratchWarsState) -> int | None:
        """The seat the initiative made start (SW-2.2), ``None`` before it is settled."""
        return state.starter if state.starter >= 0 else None

    def balance_card_names(self) -> dict[str, str]:
        """Every hero (``hero:<name>``) and weapon (``weapon:<name>``) of the catalogue."""
        out = {f"hero:{h}": h for h in self.catalogue.hero_names}
        out.update({f"weapon:{w}": w for w in self.catalogue.weapon_names})
        return out

    def _resample_hidden(self, s: ScratchWarsState, player: int, rng: random.Random) -> None:
        """No hidden cards in Scratch Wars: only the forced spins are dropped (they are not
        observable); the core reseeds the chance RNG from ``rng``."""
        s.forced_spins = []


def make_game(**config: Any) -> ScratchWarsGame:
    """Build the Scratch Wars game from config keywords (see :class:`ScratchWarsConfig`).

    Raises:
        ConfigError: an unknown field or a wrong value (naming it).
        LoadoutError: a configured loadout breaks SW-2.1.
    """
    return ScratchWarsGame(config_from_kwargs(ScratchWarsConfig, config))
