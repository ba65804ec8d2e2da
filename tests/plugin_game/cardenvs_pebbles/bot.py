"""The Pebbles heuristic: perfect misère play (leave a multiple of 3 plus 1)."""

from __future__ import annotations

from cardenvs_pebbles.constants import A_TAKE


class HeuristicBot:
    """Leaves ``3k + 1`` pebbles when it can (the other seat then takes the last one); else
    takes 1."""

    name = "heuristic"

    def act(self, game, state, player: int) -> int:
        take = (state.left - 1) % 3
        return A_TAKE + (take - 1 if take else 0)
