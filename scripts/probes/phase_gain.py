"""Probe (issue 18, docs/training.md "Where the lookahead's gain lies"): which decision phases
carry the decision-time lookahead's gain over the heuristic. For each phase set, a player that
searches (``LookaheadPolicy`` around the heuristic, N deals) only at decisions of those phases
and plays the heuristic elsewhere meets the plain heuristic on duplicate deals (each deal once
in every seat); prints its win rate with the 95 % Wilson interval.

    python scripts/probes/phase_gain.py garda3 300 8 attack_cards defence_cards
    python scripts/probes/phase_gain.py rust_brawl 150 8 play ranged_target

Arguments: game, deals, lookahead deals per decision, then phase names (``game.phases``); the
first line is always the lookahead at every phase (``all``). Two-player games only.
"""

import random
import sys

from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.core.outcome import outcome_of
from card_envs.evaluation.match import play_game
from card_envs.evaluation.policies import resolve_game, resolve_policy
from card_envs.evaluation.stats import wilson_interval


class PhaseLookahead:
    """The lookahead at decisions whose phase is in ``phases`` (``None``: every phase), the
    heuristic elsewhere."""

    def __init__(self, game, heuristic, samples: int, phases):
        self.heuristic = heuristic
        self.lookahead = LookaheadPolicy(heuristic, samples=samples, seed=1)
        self.phases = phases
        self.names = dict(enumerate(game.phases))
        self.name = f"lookahead@{'all' if phases is None else ','.join(phases)}"

    def act(self, game, state, player):
        if self.phases is None or self.names.get(state.phase) in self.phases:
            return self.lookahead.act(game, state, player)
        return self.heuristic.act(game, state, player)


def main():
    game_name, deals, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = resolve_game(game_name, None)
    unknown = [p for p in sys.argv[4:] if p not in game.phases]
    if unknown:
        sys.exit(f"unknown phase(s) {unknown}; {game_name}'s phases: {list(game.phases)}")
    heuristic = resolve_policy("heuristic", game_name, seed=0, game=game)
    for phases in [None] + [[p] for p in sys.argv[4:]]:
        player = PhaseLookahead(game, heuristic, samples, phases)
        rng = random.Random(123)
        score = 0.0
        for _ in range(deals):
            seed = rng.getrandbits(63)
            for seat in (0, 1):
                seats = [heuristic, heuristic]
                seats[seat] = player
                returns, _, _ = play_game(game, seats, seed)
                score += outcome_of(returns, seat)
        lo, hi = wilson_interval(score, 2 * deals)
        print(f"{game_name} {player.name}: {score / (2 * deals):.3f} [{lo:.3f}, {hi:.3f}] "
              f"over {2 * deals} games", flush=True)


if __name__ == "__main__":
    main()
