"""The ``card-envs`` command.

::

    card-envs games                                   # the games available in this install
    card-envs train --game garda3 --minutes 15        # = python training/ppo.py (same flags)
    card-envs evaluate --game garda3 --a runs/x/model.zip --b heuristic --games 400
    card-envs evaluate --game garda3 --a heuristic --b random --games 200 --json out.json
    card-envs evaluate --game garda3 --a runs/x/model.zip+lookahead:8 --b heuristic
    card-envs tournament --game garda3 --policies random,heuristic,runs/x/model.zip --games 100

Policy specs for ``--a``/``--b``: ``random``, ``heuristic``, a MaskablePPO ``.zip`` (or a run
folder holding ``model.zip``), or ``package.module:name``, each optionally followed by
``+lookahead[:N]`` (decision-time rollouts, see
:mod:`card_envs.evaluation.policies`). Models play deterministically with their action masks; A
takes every seat equally often and every deal is played once with A in each seat.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from card_envs.core.errors import CardEnvsError, ConfigError


def _cmd_games(_args) -> int:
    from card_envs.core.registry import available_games

    for name in available_games():
        print(name)
    return 0


def _game_config(args) -> dict:
    """``--game-config`` as a dict; ConfigError naming it otherwise."""
    try:
        config = json.loads(args.game_config)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--game-config is not valid JSON: {args.game_config!r} ({exc})") from None
    if not isinstance(config, dict):
        raise ConfigError(f"--game-config must be a JSON object, got {args.game_config!r}")
    return config


def _check_games(args) -> None:
    if args.games < 1:
        raise ConfigError(f"--games must be >= 1, got {args.games}")


def _cmd_evaluate(args) -> int:
    from card_envs.evaluation.evaluate import evaluate, report

    config = _game_config(args)
    _check_games(args)
    t0 = time.time()
    result = evaluate(args.game, args.a, args.b, games=args.games, seed=args.seed, config=config,
                      paired=not args.unpaired)
    print(f"{args.game}: {report(result, args.a, args.b)}")
    seats = ", ".join(f"seat {s}: {w}W/{d}D/{lo}L" for s, (w, d, lo) in
                      sorted(result.per_seat.items()))
    print(f"  per seat of A: {seats}   ({time.time() - t0:.1f}s)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"game": args.game, "game_config": config, "a": args.a, "b": args.b,
                       "seed": args.seed, **result.to_dict()}, fh, indent=1)
    return 0


def _cmd_tournament(args) -> int:
    from card_envs.evaluation.tournament import round_robin

    config = _game_config(args)
    _check_games(args)
    t = round_robin(args.game, [p.strip() for p in args.policies.split(",") if p.strip()],
                    games=args.games, seed=args.seed, config=config)
    print(t.markdown())
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"game": args.game, "game_config": config, **t.to_dict()}, fh, indent=1)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="card-envs", description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list the games available in this installation")

    sub.add_parser("train", help="MaskablePPO league self-play (flags: card-envs train --help)",
                   add_help=False)

    ev = sub.add_parser("evaluate", help="play N seat-swapped games between two policies",
                        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ev.add_argument("--game", required=True, help="game name or module:factory")
    ev.add_argument("--game-config", default="{}", help="the game's config as JSON")
    ev.add_argument("--a", required=True, help="policy A (the one reported)")
    ev.add_argument("--b", required=True, help="policy B (plays every other seat)")
    ev.add_argument("--games", type=int, default=400, help="number of games")
    ev.add_argument("--seed", type=int, default=0, help="base seed of the deals")
    ev.add_argument("--unpaired", action="store_true",
                    help="a fresh deal every game instead of each deal once per seat")
    ev.add_argument("--json", default="", help="also write the result to this JSON file")

    tr = sub.add_parser("tournament", help="round robin with openskill ratings",
                        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    tr.add_argument("--game", required=True, help="game name or module:factory")
    tr.add_argument("--game-config", default="{}", help="the game's config as JSON")
    tr.add_argument("--policies", required=True, help="comma-separated policy specs")
    tr.add_argument("--games", type=int, default=100, help="games per pair")
    tr.add_argument("--seed", type=int, default=0, help="base seed of the deals")
    tr.add_argument("--json", default="", help="also write the result to this JSON file")

    if argv and argv[0] == "train":  # the training flags belong to card_envs.training
        from card_envs.training import main as train_main

        return train_main(argv[1:], prog="card-envs train")
    args = parser.parse_args(argv)
    try:
        if args.command == "games":
            return _cmd_games(args)
        if args.command == "tournament":
            return _cmd_tournament(args)
        return _cmd_evaluate(args)
    except (CardEnvsError, FileNotFoundError) as exc:  # a user error: the message, no traceback
        print(f"card-envs {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
