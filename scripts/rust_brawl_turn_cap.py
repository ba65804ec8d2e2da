"""How many heuristic-vs-heuristic Rust Brawl games reach the turn cap (issue 22, RB-7.6).

Plays ``--games`` games per deal with the heuristic bot in both seats, seeds ``0 ..
games-1`` of ``make_game(...).new_state(seed=...)``: the shipped decks (``decks=None``, a
shipped deck per seat by seed) and random legal decks (``decks="random"``), and prints per deal
the games, the end reasons, the seeds at the cap and the longest game::

    python scripts/rust_brawl_turn_cap.py --games 1000
    python scripts/rust_brawl_turn_cap.py --games 1000 --config '{"stalemate_cycles": false}'

Exit code 1 when any game reaches the cap. The slow test
``tests/test_rust_brawl_rules.py::test_rb_7_6_no_heuristic_game_reaches_the_turn_cap`` runs it
with 1,000 games each.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from card_envs.rust_brawl import HeuristicBot, make_game

DEALS = {"shipped": None, "random": "random"}


def play(decks, seeds, **config) -> dict:
    """Play the heuristic against itself on ``seeds``; the end reasons, the seeds at the cap
    and the longest game (in player turns)."""
    game = make_game(decks=decks, **config)
    bot = HeuristicBot()
    reasons: Counter[str] = Counter()
    capped: list[int] = []
    longest = 0
    for seed in seeds:
        s = game.new_state(seed=seed)
        while not (game.is_terminal(s) or game.is_truncated(s)):
            p = game.current_player(s)
            game.apply_action(s, bot.act(game, s, p))
        reasons[s.end_reason] += 1
        longest = max(longest, s.turn)
        if s.end_reason == "turn_cap":
            capped.append(seed)
    return {"games": len(seeds), "reasons": dict(sorted(reasons.items())), "turn_cap": capped,
            "longest": longest}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per deal (seeds 0..games-1)")
    ap.add_argument("--config", default="{}", help="extra config fields as JSON")
    args = ap.parse_args(argv)
    config = json.loads(args.config)
    total = capped = 0
    for name, decks in DEALS.items():
        r = play(decks, range(args.games), **config)
        total += r["games"]
        capped += len(r["turn_cap"])
        print(f"{name:8s} {r['games']} games, at the turn cap {len(r['turn_cap'])} "
              f"{r['turn_cap'][:20]}, longest {r['longest']} turns, end reasons {r['reasons']}")
    print(f"total    {capped} of {total} games at the turn cap")
    return 1 if capped else 0


if __name__ == "__main__":
    sys.exit(main())
