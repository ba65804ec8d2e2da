"""Rule-based Scratch Wars heuristic (a policy: ``act(game, state, player) -> int``).

Reads only public state (everything in Scratch Wars is public): HP, energy, weapon slots and
stored effects, the wheels, the hero cards, the pending spin / attack, the time of day.

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

from card_envs.scratch_wars import rules as R


class HeuristicBot:
    name = "sw_heuristic"

    def __init__(self, seed: int | None = None):
        self.seed = seed

    # -- valuation -----------------------------------------------------------------------------
    def _seg_value(self, game, s, p: int, eff: int, val: int) -> float:
        if game.mode != "full":
            return float(val)
        if eff == R.HERO_ATTACK or eff == R.UNIVERSAL:
            return float(val)
        if eff == R.WEAPON_ATTACK:
            return 0.6 * val
        if eff == R.HEAL:
            return float(min(val, game.hdata[s.heroes[p]][0] - s.hp[p]))
        if eff == R.ENERGY:
            return 0.4 * val if game.energy_on else 0.0
        if eff == R.PERMANENT:
            return 2.0 * val
        if eff == R.SHIELD:
            return 0.7 * val
        return 0.8 * val  # combo

    def _weapon_value(self, game, s, p: int, k: int) -> float:
        segs = game.wdata[s.wnames[p][k]][3]
        tot = 0.0
        for eff, val, col, _d in segs:
            v = self._seg_value(game, s, p, eff, val)
            if col == R.RED:
                v -= 0.5
            tot += v
        return tot / len(segs)

    def _best_spin(self, game, s, p: int):
        best, best_v = None, -1e9
        for a in game.legal_actions(s):
            if R.A_SPIN <= a < R.A_REPAIR:
                k = a - R.A_SPIN
                v = self._weapon_value(game, s, p, k)
                if game.energy_on:
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
        if ph == R.PH_INIT_WEAPON:
            return max(legal, key=lambda a: sum(x[1] for x in game.wdata[s.wnames[p][a - R.A_INIT]][3]))
        if ph == R.PH_INIT_ORDER:
            return R.A_ORDER  # start: the tempo is worth the 2 HP
        if ph == R.PH_MAIN:
            a, v = self._best_spin(game, s, p)
            if a is not None and v > 0:
                return a
            for x in legal:
                if R.A_REPAIR <= x < R.A_CANCEL:
                    return x
            if a is not None:
                return a
            return R.A_END
        if ph == R.PH_RESULT:
            if R.A_APPLY not in legal:
                return R.A_DECLINE
            eff, val, col, _ = s.pend
            now = self._seg_value(game, s, p, eff, val)
            if col == R.GREEN:
                return R.A_APPLY if now > 0 else R.A_DECLINE
            # orange: compare with the next spin's expectation
            if s.actions <= 0:
                return R.A_APPLY if now > 0 else R.A_DECLINE
            opp = 1 - p
            if game.mode == "full" and eff in (R.HERO_ATTACK, R.UNIVERSAL) and val >= s.hp[opp]:
                return R.A_APPLY
            nxt = 0.0
            for k in range(R.MAX_WEAPONS):
                if s.wst[p][k] == R.READY or (s.wst[p][k] == R.STORED and False):
                    if not game.energy_on or game.spin_cost(s, p, k) <= s.energy[p]:
                        nxt = max(nxt, self._weapon_value(game, s, p, k))
            # applying ends the turn; declining keeps the remaining actions
            future = nxt * min(s.actions, 2) * 0.8
            return R.A_APPLY if now >= future else R.A_DECLINE
        if ph == R.PH_BONUS:
            bons = game.hdata[s.heroes[p]][3][s.round % 4]
            return max((a for a in legal if a != R.A_NO_BONUS), key=lambda a: bons[a - R.A_BONUS][1])
        if ph == R.PH_TARGET:
            opp = 1 - p
            val = s.att[0]
            if R.A_T_HERO in legal and (val >= s.hp[opp] or s.att[1] == R.K_UNIVERSAL):
                # universal: the hero unless a big stored threat can be removed
                best_eff = self._best_effect_target(s, legal, opp)
                if val >= s.hp[opp] or best_eff is None or s.sval[opp][best_eff - R.A_T_EFFECT] < 3:
                    return R.A_T_HERO
                return best_eff
            best_eff = self._best_effect_target(s, legal, opp)
            if best_eff is not None:
                return best_eff
            ws = [a for a in legal if R.A_T_WEAPON <= a < R.A_T_EFFECT]
            if ws:
                return max(ws, key=lambda a: self._weapon_value(game, s, opp, a - R.A_T_WEAPON))
            return legal[0]
        if ph == R.PH_SHIELD:
            remaining = s.att[0] - s.shield_sum
            if s.att[2] == R.T_HERO and (remaining >= 3 or remaining >= s.hp[p]):
                sh = [a for a in legal if a != R.A_SHIELD_DONE]
                return max(sh, key=lambda a: s.sval[p][a - R.A_SHIELD])
            return R.A_SHIELD_DONE
        if ph == R.PH_DETONATE:
            opp = 1 - p
            combos = [k for k in range(R.MAX_WEAPONS) if s.wst[p][k] == R.STORED and s.seff[p][k] == R.COMBO]
            total = sum(s.sval[p][k] for k in combos)
            if total >= s.hp[opp] or len(combos) >= 3 or total >= 6:
                return R.A_DETONATE
            return R.A_KEEP
        return legal[0]

    @staticmethod
    def _best_effect_target(s, legal, opp):
        effs = [a for a in legal if a >= R.A_T_EFFECT and a < R.A_SHIELD]
        if not effs:
            return None
        def worth(a):
            k = a - R.A_T_EFFECT
            return s.sval[opp][k] * (2 if s.seff[opp][k] == R.PERMANENT else 1)
        return max(effs, key=worth)
