"""The strength-ladder tables (game pages, docs/results.md) from scripts/ladder.sh's JSON files.

    python scripts/ladder_table.py docs/ladder/garda3.json docs/ladder/scratch_wars.json \
        docs/ladder/dirt_and_glory.json

One markdown table a file: rank, policy (a trained model's path shortened to "agent"),
Bradley-Terry Elo with its 95 % bootstrap interval, openskill mu +- sigma, mean score.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def label(policy: str) -> str:
    return re.sub(r"\S*model\.zip", "agent", policy)


def table(path: Path) -> str:
    data = json.loads(path.read_text())
    deals, seats = data["deals"], data["seats"]
    lines = [f"**{data['game']}** {json.dumps(data['game_config'])}: {deals} deals per pair, "
             f"{seats} seats, {len(data['games_played'])} games (`{path}`)", "",
             "| rank | policy | Elo [95 %] | openskill mu ± sigma |", "|---:|---|---|---|"]
    for i, row in enumerate(data["standings"], 1):
        lo, hi = row["elo95"]
        fmt = lambda x: "−∞" if x is None or x == float("-inf") else (  # noqa: E731
            "+∞" if x == float("inf") else f"{x:+.0f}")
        lines.append(f"| {i} | {label(row['policy'])} | {row['elo']:+.0f} [{fmt(lo)}, {fmt(hi)}] "
                     f"| {row['mu']:.1f} ± {row['sigma']:.1f} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    print("\n\n".join(table(Path(a)) for a in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
