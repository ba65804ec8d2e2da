"""Probe (issue 18, docs/training.md "What PPO changes in Garda3, and a closer clone"):
where does a trained policy play differently from the heuristic it was cloned from? The model
(its argmax, as the evaluations play it) meets the heuristic on duplicate deals (each deal in both
seats); at every decision of the model's seat with more than one legal action the heuristic's
choice in the same state is asked too, and the share of decisions where they differ is counted
per phase::

    python scripts/probes/phase_changes.py garda3 RUN/model.zip 200
    python scripts/probes/phase_changes.py garda3 RUN/checkpoints/ckpt_102400.zip 200

    python scripts/probes/phase_changes.py garda3 RUN/model.zip 1000 defence_cards

Arguments: game, a model (``.zip`` or run folder: any policy spec of ``card-envs evaluate``),
deals, then optionally phase names (``game.phases``) where the heuristic decides instead of the
model (what the model's changes there are worth: compare the score with and without). Prints the
model's score against the heuristic over these games (95 % Wilson), then one line per phase:
decisions, share changed. Two-player games only; needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
import collections
import random

from card_envs.bots.specs import resolve_policy
from card_envs.core.errors import ConfigError
from card_envs.core.outcome import outcome_of
from card_envs.evaluation.policies import resolve_game
from card_envs.evaluation.stats import wilson_interval

DEAL_SEED = 99


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="a two-player game spec, e.g. garda3")
    parser.add_argument("model", help="a model .zip or run folder (a policy spec)")
    parser.add_argument("deals", type=int, help="deals, each played in both seats (>= 1)")
    parser.add_argument("heuristic_at", nargs="*", metavar="PHASE",
                        help="phases where the heuristic decides instead of the model")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"deals {args.deals}: must be at least 1")
    try:
        game = resolve_game(args.game, None)
        policy = resolve_policy(args.model, args.game, game=game)
        heuristic = resolve_policy("heuristic", args.game, seed=0, game=game)
    except ConfigError as exc:
        parser.error(str(exc))
    if game.num_players != 2:
        parser.error(f"game {args.game!r} has {game.num_players} players; this probe plays "
                     "two-player games only")
    heuristic_at = set(args.heuristic_at)
    unknown = heuristic_at - set(game.phases)
    if unknown:
        parser.error(f"unknown phase(s) {sorted(unknown)}; {args.game}'s phases: "
                     f"{list(game.phases)}")
    names = dict(enumerate(game.phases))
    decisions, changed = collections.Counter(), collections.Counter()
    rng, score = random.Random(DEAL_SEED), 0.0
    for _ in range(args.deals):
        seed = rng.getrandbits(63)
        for seat in (0, 1):
            state = game.new_state(seed)
            while not game.is_terminal(state):
                player = game.current_player(state)
                expected = heuristic.act(game, state, player)
                action = expected
                phase = names.get(state.phase, str(state.phase))
                if player == seat and phase not in heuristic_at:
                    action = policy.act(game, state, player)
                    if len(game.legal_actions(state)) > 1:
                        decisions[phase] += 1
                        changed[phase] += action != expected
                game.apply_action(state, action)
            score += outcome_of(game.returns(state), seat)
    games = 2 * args.deals
    lo, hi = wilson_interval(score, games)
    where = f" (the heuristic at {', '.join(sorted(heuristic_at))})" if heuristic_at else ""
    print(f"{args.model}{where} vs heuristic: {score / games:.3f} [{lo:.3f}, {hi:.3f}] over "
          f"{games} games")
    for phase, n in decisions.items():
        print(f"  {phase:20s} {n:6d} decisions, {100 * changed[phase] / n:5.1f} % changed")
    return 0


if __name__ == "__main__":
    from card_envs.cli import run_script

    run_script(main)  # a reader leaving the pipe (... | head) ends it quietly
