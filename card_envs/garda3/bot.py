"""A rule-based Garda3 heuristic bot (policy interface: ``act(game, state, player) -> int``).

It reads only what its seat may know: its own hand, the public fighters and HP, the cards already
played face up (never a face-down night card before it is revealed), and the phase. Behaviour:

- draft: the free fighter with the best ``hp + 1.5 × (attack_bonus + defence_bonus)``;
- free_for_all target: the opponent with the least total HP left;
- attacker's fighter: the highest attack bonus (then HP); defender's fighter: the highest
  ``defence_bonus + hp/3`` (a sturdy blocker);
- attack: the legal single card or same-colour pair with the highest total strength (a pair in
  two directions gets +0.5, it is harder to block fully); declares a resurrection whenever legal;
- attack bonus side: the direction with the stronger card;
- defence: the single card or pair (with the best bonus side) that lets the least damage through,
  then the fewest and cheapest cards (G-4.7: a card defends only its own direction; G-4.6: a
  two-direction pair only where ``split_defence_needs_split_attack`` allows it); at night the
  highest-value card (the direction is a guess);
- always counter-attacks when it may; brings back the eliminated fighter with the most HP.
"""

from __future__ import annotations

from card_envs.garda3 import constants as R
from card_envs.garda3.state import blocker_slot, striker_slot


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.seed = seed  # deterministic; kept for a uniform bot signature

    def act(self, game, state, player: int) -> int:
        s = state
        legal = game.legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        ph = s.phase
        if ph == R.PH_DRAFT:
            stats = game.stats[game.set_of(player)]
            return max(legal, key=lambda a: (stats[a - R.A_PICK][2]
                                             + 1.5 * (stats[a - R.A_PICK][0] + stats[a - R.A_PICK][1]),
                                             -a))
        if ph == R.PH_TARGET:
            n = game.num_players

            def hp_left(a):
                seat = (player + a - R.A_TARGET + 1) % n
                return sum(max(h, 0) for h in s.hp[seat])
            return min(legal, key=hp_left)
        if ph == R.PH_ATTACKER_FIGHTER:
            return max(legal, key=lambda a: (game.fighter_stats(s, player, a - R.A_SLOT)[0],
                                             s.hp[player][a - R.A_SLOT]))
        if ph == R.PH_DEFENDER_FIGHTER:
            return max(legal, key=lambda a: game.fighter_stats(s, player, a - R.A_SLOT)[1]
                       + s.hp[player][a - R.A_SLOT] / 3.0)
        if ph == R.PH_RESURRECT_CHOICE:
            return max(legal, key=lambda a: game.fighter_stats(s, player, a - R.A_SLOT)[2])
        if ph == R.PH_COUNTER_CHOICE:
            return R.A_COUNTER
        if ph == R.PH_ATTACK_CARDS:
            if R.A_RESURRECT in legal:
                return R.A_RESURRECT
            return self._attack(game, s, legal)
        if ph == R.PH_ATTACK_BONUS:
            by_dir = {R.CARD_ATTACK_DIR[c]: R.CARD_VALUE[c] for c in s.atk_cards}
            return R.A_BONUS + max((R.HIGH, R.LOW), key=lambda d: by_dir.get(d, 0))
        if ph == R.PH_DEFENCE_CARDS:
            return self._defence(game, s, legal)
        if ph == R.PH_DEFENCE_BONUS:
            atk_bonus, def_bonus = self._bonuses(game, s)
            return min(legal, key=lambda a: R.battle_outcome(
                s.atk_cards, s.atk_bonus, atk_bonus, s.def_cards, a - R.A_BONUS, def_bonus)[2])
        return legal[0]

    @staticmethod
    def _bonuses(game, s) -> tuple[int, int]:
        atk = game.fighter_stats(s, s.striker, striker_slot(s))[0]
        dfn = game.fighter_stats(s, s.blocker, blocker_slot(s))[1]
        return atk, dfn

    @staticmethod
    def _options(game, s, hand: list[int], played: list[int], legal: list[int]):
        """Candidate plays as full card lists, each with the first action to take now (a pair
        only if its second card may follow the first: colour, G-1.5; defence direction, G-4.6)."""
        opts = []
        if not played:
            for a in legal:
                if R.A_CARD <= a < R.A_CARD + R.NUM_CARDS:
                    c = a - R.A_CARD
                    opts.append(([c], a))
                    if not game.night:
                        for o in hand:
                            if o != c and game.may_follow(s, c, o):
                                opts.append(([c, o], a))
            if R.A_DONE in legal:
                opts.append(([], R.A_DONE))
        else:
            opts.append((list(played), R.A_DONE))
            for a in legal:
                if R.A_CARD <= a < R.A_CARD + R.NUM_CARDS:
                    opts.append((played + [a - R.A_CARD], a))
        return opts

    def _attack_score(self, game, s, cards: list[int], atk_bonus: int) -> float:
        """The strength of attacking with ``cards`` (the full play, 1 or 2 card ids): their
        values plus the striker's attack bonus, +0.5 for a pair in two directions (G-4.3–G-4.5).
        A hook: a variant of the heuristic may score attacks otherwise."""
        total = sum(R.CARD_VALUE[c] for c in cards) + atk_bonus
        if len(cards) == 2 and R.CARD_ATTACK_DIR[cards[0]] != R.CARD_ATTACK_DIR[cards[1]]:
            total += 0.5
        return total

    def _attack(self, game, s, legal):
        atk_bonus = game.fighter_stats(s, s.striker, striker_slot(s))[0]
        opts = self._options(game, s, s.hands[s.player], s.atk_cards, legal)
        return max(opts, key=lambda o: (self._attack_score(game, s, o[0], atk_bonus),
                                        -o[1]))[1]

    def _defence(self, game, s, legal):
        hand = s.hands[s.player]
        if game.hidden_from(s, s.player):  # night: the attack direction is unknown
            cards = [a for a in legal if R.A_CARD <= a < R.A_CARD + R.NUM_CARDS]
            return max(cards, key=lambda a: (R.CARD_VALUE[a - R.A_CARD], -a)) if cards else legal[0]
        atk_bonus, def_bonus = self._bonuses(game, s)

        def cost(cards):
            dmg = min(R.battle_outcome(s.atk_cards, s.atk_bonus, atk_bonus, cards, side,
                                       def_bonus)[2] for side in (R.HIGH, R.LOW))
            return (dmg, len(cards), sum(R.CARD_VALUE[c] for c in cards))
        opts = self._options(game, s, hand, s.def_cards, legal)
        return min(opts, key=lambda o: (cost(o[0]), o[1]))[1]
