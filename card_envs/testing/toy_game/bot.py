"""Toy Nim bots (``act(game, state, player) -> int``): :class:`PerfectBot` plays optimal
2-player Nim (leave a multiple of 4), :class:`ScriptedBot` a fixed action list."""

from __future__ import annotations

from card_envs.testing.toy_game.constants import A_TAKE


class PerfectBot:
    """Optimal play for 2 seats: leave a multiple of 4 when possible, else take 1."""

    name = "perfect"

    def act(self, game, state, player: int) -> int:
        take = state.pile % 4
        return A_TAKE + (take - 1 if take else 0)


class HeuristicBot(PerfectBot):
    """The toy game's 'heuristic' (the registry-style name)."""

    name = "heuristic"


class ScriptedBot:
    """Plays ``actions`` in order (then action 0); for exact control in tests."""

    def __init__(self, actions: list[int], name: str = "scripted"):
        self.actions = list(actions)
        self.i = 0
        self.name = name

    def act(self, game, state, player: int) -> int:
        a = self.actions[self.i] if self.i < len(self.actions) else 0
        self.i += 1
        return a
