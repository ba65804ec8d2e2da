"""Rule-based heuristic bot for Dirt and Glory.

Reads only what the acting seat knows: its own deck *composition* (never the order; the top card
only after a scout, ``state.peek``), its own reserve and hand, public state (caravans and counted
values, passes, busts, fuel, scores, offer, territory). Fields used: ``decks[player]`` as a
multiset, ``decks[player][-1]`` only when ``peek[player]``, ``reserves[player]``, ``hand`` when
``player`` decides it, ``caravans``, ``values``, ``passed``, ``busted``, ``fuel``,
``fuel_used``, ``zero_next``, ``offer``, ``territories``, ``round``, ``pending``.

The ability of a card is resolved before a two-value card's value is chosen (DG-3.2): a stash
is valued with the card's best value still to choose, and the value choice uses the top card
a scout has just shown.

Strategy: a round's outcome is valued in points, ``U(d)`` for finishing ``d`` below the target
(the place it would reach against the others' known or estimated distances, the territory's
reward for that place, 2 fuel ≈ 1 point otherwise). Playing the top card is valued by the
expectation over the remaining deck composition (two plies deep, best value choice, a fuel rescue
when a bust is possible and fuel is left); the bot plays on while that expectation beats stopping,
i.e. stops when the expected bust risk outweighs the gain. Fuel: reserve-plays when a reserve
card lands closer, rescues a bust when that is worth the token. Offer/draft cards are picked by
value (mean value, flexibility, ability).
"""

from __future__ import annotations

from card_envs.dirt_and_glory import constants as C
from card_envs.dirt_and_glory.constants import AB_FUEL, AB_SCOUT, AB_STASH, AB_ZERO

FUEL_VALUE = 0.6  # points one fuel token is worth (1/2 at the end + options)
ABILITY_BONUS = {0: 0.0, AB_FUEL: 1.5, AB_SCOUT: 0.6, AB_ZERO: 0.0, AB_STASH: 1.5}


class HeuristicBot:
    """Deterministic heuristic policy (``act(game, state, player) -> int``)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, depth: int = 2):
        self.seed = seed  # deterministic; kept for a uniform bot signature
        self.depth = depth

    # -- valuation helpers -----------------------------------------------------------------------
    def _setup_eval(self, game, s, player):
        """``(target, U, cons)``: ``U(d)`` = expected round reward in points for finishing ``d``
        below the target; passed opponents are at their known distance, the others finish at a
        distance 0..min(current, 4) (uniform) or exceed the target (probability 1/4)."""
        cfg = game.config
        t = s.territories[s.round]
        target = game.terr_target[t]
        pts, fls = game.terr_points[t], game.terr_fuel[t]
        cons = cfg.consolation_fuel * FUEL_VALUE
        opp = []  # per opponent: P(its final distance < d) for d = 0..target+1
        for q in range(game.num_players):
            if q == player or s.busted[q]:
                continue
            dq = target - sum(s.values[q])
            if dq < 0:
                continue
            if s.passed[q]:
                opp.append([1.0 if dq < d else 0.0 for d in range(target + 2)])
            else:
                m = min(dq, 4)
                opp.append([0.75 * min(d, m + 1) / (m + 1) for d in range(target + 2)])
        reward = [pts[i] + fls[i] * FUEL_VALUE for i in range(3)]
        reward += [cons] * (game.num_players - 3)
        table = []
        for d in range(target + 1):
            dist = [1.0]  # P(k opponents strictly closer)
            for pb in opp:
                p = pb[d]
                nd = [0.0] * (len(dist) + 1)
                for k, x in enumerate(dist):
                    nd[k] += x * (1 - p)
                    nd[k + 1] += x * p
                dist = nd
            table.append(sum(x * reward[k] for k, x in enumerate(dist)))

        def U(d: int) -> float:
            return table[d]

        return target, U, cons

    def _values(self, game, counts: dict, target: int, U, bust: float) -> list[float]:
        """``V[d]``: value of standing at distance ``d`` and playing on optimally, drawing cards
        i.i.d. from the deck composition ``counts`` (stop = ``U(d)``, exceeding = ``bust``)."""
        total = sum(counts.values())
        V = [0.0] * (target + 1)
        klow, khigh, kab = game.k_low, game.k_high, game.k_ab
        items = [(k, m / total) for k, m in counts.items() if m] if total else []
        for d in range(target + 1):
            if not items:
                V[d] = U(d)
                continue
            acc = 0.0
            for k, p in items:
                lo, hi = klow[k], khigh[k]
                best = bust
                if lo <= d:
                    best = V[d - lo]
                if hi <= d and V[d - hi] > best:
                    best = V[d - hi]
                if kab[k] == AB_FUEL:
                    best += FUEL_VALUE
                acc += p * best
            V[d] = max(U(d), acc)
        return V

    def _ev_play(self, game, counts: dict, d: int, V, bust_now: float, zero: bool = False,
                 top: int | None = None) -> float:
        """Expected value of revealing the top card now at distance ``d``."""
        total = sum(counts.values())
        if total == 0:
            return -1e9
        items = [(top, 1.0)] if top is not None else [(k, m / total) for k, m in counts.items()]
        acc = 0.0
        for k, p in items:
            if zero:
                best = V[d]
            else:
                lo, hi = game.k_low[k], game.k_high[k]
                best = bust_now
                if lo <= d:
                    best = V[d - lo]
                if hi <= d and V[d - hi] > best:
                    best = V[d - hi]
            if game.k_ab[k] == AB_FUEL:
                best += FUEL_VALUE
            acc += p * best
        return acc

    @staticmethod
    def _counts(game, cards):
        out: dict[int, int] = {}
        ck = game.card_kind
        for c in cards:
            k = ck[c]
            out[k] = out.get(k, 0) + 1
        # sorted by kind: the float sums over it must not depend on the (hidden) deck order
        return dict(sorted(out.items()))

    def _card_score(self, game, k: int) -> float:
        lo, hi = game.k_low[k], game.k_high[k]
        return 0.5 * (lo + hi) / 2 + (1.0 if lo != hi else 0.0) + ABILITY_BONUS[game.k_ab[k]]

    # -- policy ------------------------------------------------------------------------------------
    def act(self, game, state, player: int) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        s, ph, cfg = state, state.phase, game.config
        if ph in (C.DRAFT, C.TAKE):
            off = game.a_draft_return if ph == C.DRAFT else game.a_take
            score = [self._card_score(game, a - off) for a in legal]
            i = (min if ph == C.DRAFT else max)(range(len(legal)), key=lambda j: score[j])
            return legal[i]
        if ph == C.SETUP:  # place the card with the higher top value, keep the other in reserve
            off = game.a_place
            return max(legal, key=lambda a: (game.k_high[a - off], -game.k_low[a - off]))
        if ph == C.MIX:
            off = game.a_mix
            keep = min(s.fuel[player] // cfg.fuel_cost, 2)
            if len(s.reserves[player]) <= keep:
                return C.A_MIX_DONE

            def tune(a):  # fine-tuning value of keeping a card of this kind in reserve
                k = a - off
                return -game.k_low[k] + (2 if game.k_low[k] != game.k_high[k] else 0)

            return min((a for a in legal if a != C.A_MIX_DONE), key=tune)

        target, U, cons = self._setup_eval(game, s, player)
        total = sum(s.values[player])
        deck = s.decks[player]
        counts = self._counts(game, deck)
        top = game.card_kind[deck[-1]] if (s.peek[player] and deck) else None
        has_fuel = s.fuel[player] >= cfg.fuel_cost
        can_fuel = has_fuel and s.fuel_used < cfg.fuel_uses_per_turn
        d = target - total

        def rescue(dist):  # value of a fuel rescue back to distance ``dist``
            return U(dist) - FUEL_VALUE * cfg.fuel_cost

        bust_deep = max(cons, rescue(max(d, 0))) if (has_fuel and cfg.bust_fuel_rescue) else cons
        V = self._values(game, counts, target, U, bust_deep)

        if ph == C.MAIN:
            best_a, best_v = C.A_PASS, U(d)
            if C.A_PLAY_TOP in legal:
                bust_now = max(cons, rescue(d)) if (can_fuel and cfg.bust_fuel_rescue) else cons
                v = self._ev_play(game, counts, d, V, bust_now, zero=s.zero_next[player], top=top)
                if v > best_v + 1e-9:
                    best_a, best_v = C.A_PLAY_TOP, v
            off = game.a_play_reserve
            for a in legal:
                if a < off or a >= off + game.num_kinds:
                    continue
                k = a - off
                vals = (0,) if s.zero_next[player] else (game.k_low[k], game.k_high[k])
                fits = [V[d - x] for x in vals if x <= d]
                if not fits:
                    continue
                v = max(fits) - FUEL_VALUE * cfg.fuel_cost
                if v > best_v + 0.2:
                    best_a, best_v = a, v
            return best_a
        if ph == C.VALUE:  # DG-3.2: after the ability, so a scouted top card is known here
            c = s.pending
            d0 = target - (total - s.values[player][-1])  # distance before this card
            next_zero = s.zero_next[player]

            def stand(dist):  # standing at ``dist``, the next card known after a scout
                if top is None or next_zero:
                    return V[dist]
                bust_next = (max(cons, rescue(dist)) if (has_fuel and cfg.bust_fuel_rescue)
                             else cons)
                return max(U(dist), self._ev_play(game, counts, dist, V, bust_next, top=top))

            best_a, best_v = None, None
            for a, v in ((C.A_VALUE_LOW, game.card_low[c]), (C.A_VALUE_HIGH, game.card_high[c])):
                val = stand(d0 - v) if v <= d0 else cons - 1.0
                if best_v is None or val > best_v:
                    best_a, best_v = a, val
            return best_a
        if ph == C.ABILITY:
            ab = game.card_ab[s.pending]
            if ab in (AB_FUEL, AB_SCOUT):
                return C.A_ABILITY_USE
            if ab == AB_ZERO:
                if top is not None and game.k_low[top] > d:
                    return C.A_ABILITY_USE
                return C.A_ABILITY_SKIP
            # stash: compare removing each candidate kind (its highest counted instance). The
            # ability comes before the value choice (DG-3.2): the card just played counts its
            # low value so far, and its best value is chosen after the stash.
            car, vals = s.caravans[player], s.values[player]
            pend = s.pending
            choices = ((0,) if vals[-1] == 0 else
                       (game.card_low[pend], game.card_high[pend]))
            rescue_ok = can_fuel and cfg.bust_fuel_rescue

            def value_at(before):  # distance ``before`` the card just played, best value
                best = None
                for x in choices:
                    dist = before - x
                    if dist < 0:
                        v = max(rescue(before), cons) if rescue_ok else cons
                    else:
                        v = V[dist]
                    best = v if best is None or v > best else best
                return best

            d_before = d + vals[-1]
            best_a, best_v = C.A_ABILITY_SKIP, value_at(d_before)
            off = game.a_stash
            for a in legal:
                if a == C.A_ABILITY_SKIP:
                    continue
                k = a - off
                mv = max(vals[i] for i in range(len(car) - 1) if game.card_kind[car[i]] == k)
                v = value_at(d_before + mv)
                if v > best_v + 1e-9:
                    best_a, best_v = a, v
            return best_a
        if ph == C.AFTER:
            if C.A_PASS in legal:  # exceeded the target: rescue with fuel if worth it
                d_prev = d + s.values[player][-1]
                return C.A_FUEL_RESERVE if V[d_prev] - FUEL_VALUE * cfg.fuel_cost > cons else C.A_PASS
            return C.A_END_TURN
        return legal[0]
