"""Probe (issue 18's goal "the distance to the full-information bound"): how far the heuristic
and a fair lookahead stand from a player that sees everything.

The bound is ``LookaheadPolicy`` around the heuristic with one "deal" that is the real state
(every hand and the deck order, so also the opponent's replies): not a fair player, a measure of
what the hidden information is worth in the lookahead's own terms. It and the fair lookahead
(``N`` deals sampled from the seat's information) meet the plain heuristic on duplicate deals
(each deal once in every seat); prints each win rate with its 95 % Wilson interval.

    python scripts/probes/info_bound.py garda3 200 8
    python scripts/probes/info_bound.py scratch_wars 200 8 '{"level": 3}'

Arguments: game, deals, the fair lookahead's deals per decision (0: skip it), the game's config
as JSON (default {}). Two-player games.
"""

import json
import random
import sys

from card_envs.bots.lookahead import LookaheadPolicy
from card_envs.core.outcome import outcome_of
from card_envs.evaluation.match import play_game
from card_envs.evaluation.policies import resolve_game, resolve_policy
from card_envs.evaluation.stats import wilson_interval


class _SeesEverything:
    """The game with ``sample_hidden`` returning a copy of the real state."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def sample_hidden(self, state, player, rng):
        return self._game.clone(state)


class TrueStateLookahead(LookaheadPolicy):
    """The lookahead whose one deal is the real state (the bound; not a fair player)."""

    def act(self, game, state, player):
        return super().act(_SeesEverything(game), state, player)


def duel(game, player, heuristic, deals: int) -> tuple[float, float, float]:
    rng = random.Random(321)
    score = 0.0
    for _ in range(deals):
        seed = rng.getrandbits(63)
        for seat in (0, 1):
            seats = [heuristic, heuristic]
            seats[seat] = player
            returns, _, _ = play_game(game, seats, seed)
            score += outcome_of(returns, seat)
    lo, hi = wilson_interval(score, 2 * deals)
    return score / (2 * deals), lo, hi


def main():
    name, deals, fair = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    config = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    game = resolve_game(name, config)
    heuristic = resolve_policy("heuristic", name, seed=0, game=game)
    players = [("true-state lookahead (1 deal)", TrueStateLookahead(heuristic, samples=1,
                                                                     seed=1))]
    if fair:
        players.append((f"fair lookahead ({fair} deals)",
                        LookaheadPolicy(heuristic, samples=fair, seed=1)))
    for label, player in players:
        rate, lo, hi = duel(game, player, heuristic, deals)
        print(f"{name} {json.dumps(config)} {label} vs heuristic: {rate:.1%} "
              f"[{lo:.1%}, {hi:.1%}] over {2 * deals} games", flush=True)


if __name__ == "__main__":
    main()
