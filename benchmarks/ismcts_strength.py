"""ISMCTS strength and cost: duplicate-deal games of an ISMCTS bot against a game's heuristic.

Plays ``--games`` seat-swapped duplicate games (each deal once with the ISMCTS bot in every seat,
:func:`card_envs.evaluation.match.play_match` with ``paired=True``, deals from ``--seed``) and
reports the win / draw / loss rates with 95 % Wilson intervals and the seconds per *searched*
decision (decisions with more than one legal action; forced moves cost nothing), mean and max.

Usage (from the repository root; one process at a time on a shared machine)::

    python benchmarks/ismcts_strength.py --game garda3 --games 400 --seed 0
    python benchmarks/ismcts_strength.py --game scratch_wars --game-config '{"level": 3}' \
        --games 100
    python benchmarks/ismcts_strength.py --game dirt_and_glory --game-config '{"num_players": 3}' \\
        --games 100
    python benchmarks/ismcts_strength.py --game garda3 --games 60 \\
        --ismcts '{"iterations": 300, "horizon": "round", "c": 0.5}'   # any ISMCTSBot kwargs

``--policy`` takes a policy spec instead (default ``ismcts``: the bot's defaults, the same as
``card-envs evaluate --game garda3 --a ismcts --b heuristic --games 400 --seed 0``, which gives
the same games and win rate); ``--ismcts`` builds :class:`card_envs.bots.ismcts.ISMCTSBot` from a
JSON object of keyword arguments (seed ``--seed`` unless given). ``--json FILE`` also writes the
figures. The figures measured here: ``docs/evaluation.md``. Not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from card_envs.bots.ismcts import ISMCTSBot  # noqa: E402
from card_envs.evaluation.match import play_match  # noqa: E402
from card_envs.evaluation.policies import resolve_game, resolve_policy  # noqa: E402


class Timed:
    """Wraps a policy and times each of its decisions that has more than one legal action."""

    def __init__(self, policy):
        self.policy = policy
        self.name = getattr(policy, "name", "policy")
        self.seconds: list[float] = []

    def act(self, game, state, player):
        if len(game.legal_actions(state)) == 1:
            return self.policy.act(game, state, player)
        start = time.perf_counter()
        action = self.policy.act(game, state, player)
        self.seconds.append(time.perf_counter() - start)
        return action


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="garda3")
    ap.add_argument("--game-config", default="{}", help="JSON object of game config fields")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", default="ismcts", help="policy spec of the searching side")
    ap.add_argument("--ismcts", default=None, help="JSON ISMCTSBot kwargs (overrides --policy)")
    ap.add_argument("--b", default="heuristic", help="the opponents' policy spec")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    config = json.loads(args.game_config)
    game = resolve_game(args.game, config)
    if args.ismcts is not None:
        kwargs = {"seed": args.seed, **json.loads(args.ismcts)}
        label = "ISMCTSBot(" + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()) + ")"
        policy = ISMCTSBot(**kwargs, name=label)
    else:
        policy = resolve_policy(args.policy, args.game, seed=args.seed, game=game)
        label = args.policy
    opponent = resolve_policy(args.b, args.game, seed=args.seed + 1, game=game)
    timed = Timed(policy)
    start = time.perf_counter()
    result = play_match(game, timed, opponent, args.games, seed=args.seed, paired=True)
    wall = time.perf_counter() - start
    secs = timed.seconds
    out = {
        "game": args.game, "config": config, "a": label, "b": args.b, "seed": args.seed,
        **result.to_dict(),
        "searched_decisions": len(secs),
        "seconds_per_decision_mean": sum(secs) / len(secs) if secs else 0.0,
        "seconds_per_decision_max": max(secs, default=0.0),
        "wall_seconds": wall,
    }
    lo, hi = out["wilson95"]["win"]
    print(f"{args.game} {config or ''} {label} vs {args.b}, seed {args.seed}: "
          f"{result.long_summary()}")
    print(f"  win {result.win_rate:.1%} [{lo:.1%}, {hi:.1%}]; per seat [W, D, L]: "
          f"{out['per_seat']}")
    print(f"  {len(secs)} searched decisions: {out['seconds_per_decision_mean']:.3f} s mean, "
          f"{out['seconds_per_decision_max']:.3f} s max; {wall:.0f} s in all")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return out


if __name__ == "__main__":
    main()
