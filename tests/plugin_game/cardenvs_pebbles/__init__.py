"""Pebbles: a two-player take-away game, a card-envs game living in its own package.

**Rules** (PB-1..PB-4): PB-1 a row of ``pebbles`` pebbles (default 7) lies between two players;
PB-2 seat 0 starts, then the seats alternate; PB-3 a turn takes 1 or 2 pebbles (never more than
are left); PB-4 whoever takes the last pebble loses (misère): returns +1 to the other seat, -1 to
the taker. Nothing is hidden and nothing is random.

Its registration is :data:`GAME_ENTRY`, the object of the entry point ``pebbles`` in the group
``card_envs.games`` (``pyproject.toml``); importing this module imports no rules (the record
holds import paths only).
"""

from card_envs.core.registry import GameEntry

#: the game's registry record, found by card-envs through the ``card_envs.games`` entry point
GAME_ENTRY = GameEntry(
    "pebbles", "cardenvs_pebbles.rules:make_game", "cardenvs_pebbles.pebbles_v0",
    "cardenvs_pebbles.bot:HeuristicBot",
    variants=({}, {"pebbles": 4}, {"pebbles": 12}))

__all__ = ["GAME_ENTRY"]
