"""Rule-based Scratch Wars heuristic (a policy: ``act(game, state, player) -> int``).

Reads only public state (everything in Scratch Wars is public) through the game's public facts:
HP, energy, weapon slots and stored effects, the wheels, the hero cards, the turn's spin, the
attack being resolved, the time of day.

- values a segment by what applying it is worth now (attack damage, heal up to the missing HP,
  energy at level 3, a stored permanent counts twice, shields/combos a little less);
- main phase: spins the affordable ready weapon with the best expected segment value per
  action (at level 3 a weapon's value per energy breaks ties, so energy is spent sensibly),
  repairs a broken weapon when nothing better can be spun, else ends the turn;
- orange fields: applies only when the result is at least the expected value of the next spin
  (and declines otherwise); green fields: applies anything worth more than 0;
- targets: the hero when lethal or for universal attacks; weapon attacks hit the most valuable
  stored effect, else the best weapon;
- shields the hero against attacks of 3 or more (or lethal ones), always uses positive bonuses;
- detonates combos when lethal, with 3 or more combos, or with a total of 6 or more.
"""

from __future__ import annotations

from card_envs.scratch_wars.constants import (
    A_APPLY,
    A_BONUS,
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
    ACTIONS,
    COMBO,
    ENERGY,
    GREEN,
    HEAL,
    HERO_ATTACK,
    PERMANENT,
    PH_BONUS,
    PH_DETONATE,
    PH_INIT_ORDER,
    PH_INIT_WEAPON,
    PH_MAIN,
    PH_RESULT,
    PH_SHIELD,
    PH_TARGET,
    READY,
    RED,
    SHIELD,
    STORED,
    UNIVERSAL,
    WEAPON_ATTACK,
)

_REPAIRS = ACTIONS["repair"]
_TARGET_EFFECTS = ACTIONS["target_effect"]
_TARGET_WEAPONS = ACTIONS["target_weapon"]


class HeuristicBot:
    name = "sw_heuristic"

    def __init__(self, seed: int | None = None):
        self.seed = seed

    # -- valuation -----------------------------------------------------------------------------
    def _seg_value(self, game, s, p: int, eff: int, val: int) -> float:
        if game.mode != "full":
            return float(val)
        if eff == HERO_ATTACK or eff == UNIVERSAL:
            return float(val)
        if eff == WEAPON_ATTACK:
            return 0.6 * val
        if eff == HEAL:
            return float(min(val, game.hero(s, p).hp - s.hp[p]))
        if eff == ENERGY:
            return 0.4 * val if game.uses_energy else 0.0
        if eff == PERMANENT:
            return 2.0 * val
        if eff == SHIELD:
            return 0.7 * val
        return 0.8 * val  # combo

    def _weapon_value(self, game, s, p: int, k: int) -> float:
        segs = game.weapon(s, p, k).segments
        tot = 0.0
        for seg in segs:
            v = self._seg_value(game, s, p, seg.effect, seg.value)
            if seg.colour == RED:
                v -= 0.5
            tot += v
        return tot / len(segs)

    def _best_spin(self, game, s, p: int):
        best, best_v = None, -1e9
        for a in game.legal_actions(s):
            if A_SPIN <= a < A_REPAIR:
                k = a - A_SPIN
                v = self._weapon_value(game, s, p, k)
                if game.uses_energy:
                    v -= 0.25 * game.spin_cost(s, p, k)
                if v > best_v:
                    best, best_v = a, v
        return best, best_v

    # -- policy ---------------------------------------------------------------------------------
    def act(self, game, s, p: int) -> int:
        legal = game.legal_actions(s)
        ph = s.phase
        if len(legal) == 1:
            return legal[0]
        if ph == PH_INIT_WEAPON:
            return max(legal, key=lambda a: sum(
                seg.value for seg in game.weapon(s, p, a - A_INIT_WEAPON).segments))
        if ph == PH_INIT_ORDER:
            return A_INIT_ORDER  # start: the tempo is worth the 2 HP
        if ph == PH_MAIN:
            a, v = self._best_spin(game, s, p)
            if a is not None and v > 0:
                return a
            for x in legal:
                if _REPAIRS.start <= x < _REPAIRS.stop:
                    return x
            if a is not None:
                return a
            return A_END_TURN
        if ph == PH_RESULT:
            if A_APPLY not in legal:
                return A_DECLINE
            result = s.spin_result
            eff, val = result.effect, result.value
            now = self._seg_value(game, s, p, eff, val)
            if result.colour == GREEN:
                return A_APPLY if now > 0 else A_DECLINE
            # orange: compare with the next spin's expectation
            if s.actions_left <= 0:
                return A_APPLY if now > 0 else A_DECLINE
            opp = 1 - p
            if game.mode == "full" and eff in (HERO_ATTACK, UNIVERSAL) and val >= s.hp[opp]:
                return A_APPLY
            nxt = 0.0
            for k, slot in enumerate(s.weapon_slots[p]):
                if slot.status == READY:
                    if not game.uses_energy or game.spin_cost(s, p, k) <= s.energy[p]:
                        nxt = max(nxt, self._weapon_value(game, s, p, k))
            # applying ends the turn; declining keeps the remaining actions
            future = nxt * min(s.actions_left, 2) * 0.8
            return A_APPLY if now >= future else A_DECLINE
        if ph == PH_BONUS:
            bonuses = game.bonuses(s, p)
            return max((a for a in legal if a != A_NO_BONUS),
                       key=lambda a: bonuses[a - A_BONUS].value)
        if ph == PH_TARGET:
            opp = 1 - p
            attack = s.attack
            if A_TARGET_HERO in legal and (attack.value >= s.hp[opp]
                                           or attack.kind == "universal"):
                # universal: the hero unless a big stored threat can be removed
                best_eff = self._best_effect_target(s, legal, opp)
                if attack.value >= s.hp[opp] or best_eff is None or \
                        s.weapon_slots[opp][best_eff - A_TARGET_EFFECT].stored.value < 3:
                    return A_TARGET_HERO
                return best_eff
            best_eff = self._best_effect_target(s, legal, opp)
            if best_eff is not None:
                return best_eff
            ws = [a for a in legal if _TARGET_WEAPONS.start <= a < _TARGET_WEAPONS.stop]
            if ws:
                return max(ws, key=lambda a: self._weapon_value(game, s, opp,
                                                                a - A_TARGET_WEAPON))
            return legal[0]
        if ph == PH_SHIELD:
            remaining = s.attack.value - s.attack.shielded
            if s.attack.target == "hero" and (remaining >= 3 or remaining >= s.hp[p]):
                sh = [a for a in legal if a != A_SHIELD_DONE]
                return max(sh, key=lambda a: s.weapon_slots[p][a - A_SHIELD].stored.value)
            return A_SHIELD_DONE
        if ph == PH_DETONATE:
            opp = 1 - p
            combos = [slot.stored.value for slot in s.weapon_slots[p]
                      if slot.status == STORED and slot.stored.effect == COMBO]
            total = sum(combos)
            if total >= s.hp[opp] or len(combos) >= 3 or total >= 6:
                return A_DETONATE
            return A_KEEP_COMBOS
        return legal[0]

    @staticmethod
    def _best_effect_target(s, legal, opp):
        effs = [a for a in legal if _TARGET_EFFECTS.start <= a < _TARGET_EFFECTS.stop]
        if not effs:
            return None

        def worth(a):
            stored = s.weapon_slots[opp][a - A_TARGET_EFFECT].stored
            return stored.value * (2 if stored.effect == PERMANENT else 1)
        return max(effs, key=worth)
