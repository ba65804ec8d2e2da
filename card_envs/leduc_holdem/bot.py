"""The Leduc Hold'em heuristic bot (``act(game, state, player) -> int``): it reads only its own
card, the public card once turned and the betting (never the opponent's card or a face-down
public card)."""

from __future__ import annotations

from card_envs.leduc_holdem.constants import A_CALL, A_FOLD, A_RAISE, NUM_SUITS, Phase
from card_envs.leduc_holdem.state import public_shown

KING, QUEEN = 2, 1


class HeuristicBot:
    """Raise with a king or a pair (call once no raise is left); with a queen call in round 1
    (check, or call a raise) and check in round 2, folding it there to a raise; with a jack check
    and fold to a raise."""

    name = "heuristic"

    def act(self, game, state, player: int) -> int:
        legal = game.legal_actions(state)
        rank = state.hands[player] // NUM_SUITS
        pair = public_shown(state) and state.public // NUM_SUITS == rank
        if rank == KING or pair:
            return A_RAISE if A_RAISE in legal else A_CALL
        facing = A_FOLD in legal
        if rank == QUEEN and (state.phase == Phase.ROUND_1 or not facing):
            return A_CALL
        return A_FOLD if facing else A_CALL
