"""Rust Brawl bots (``act(game, state, player) -> int``).

:class:`HeuristicBot` here is a PLACEHOLDER kept minimal so the game folder has its fixed shape
(``docs/adding_a_game.md``) and ``check_game`` can run; the documented heuristic of issue #11 replaces
it. It reads only its own seat's information: the legal actions, its own hand and both tables.
"""

from __future__ import annotations

from card_envs.rust_brawl.constants import A_EQUIP, A_HEAL, A_PASS, A_PLAY, A_RANGED


class HeuristicBot:
    """Placeholder: plays its highest-point playable card, attacks the opposing card with the
    least HLT, heals the most damaged own card, puts equipment on the character with the most
    HLT, discards its lowest-point card."""

    name = "heuristic"

    def act(self, game, state, player: int) -> int:
        legal = game.legal_actions(state)
        s, q = state, 1 - player
        hand = s.hands[player]
        a_discard = game.a_discard

        def play_key(a: int) -> tuple:
            if a == A_PASS:
                return (0, 0)
            if a >= a_discard:  # discarding ranks below every play
                return (-1, -game.points[hand[a - a_discard]])
            return (1, game.points[hand[a - A_PLAY]])

        first = game.action_layout.piece_of(legal[0]).name
        if first == "ranged":
            return min(legal, key=lambda a: (s.hlt[q][a - A_RANGED], a))
        if first == "heal":
            return max(legal, key=lambda a: (s.max_hlt[player][a - A_HEAL]
                                             - s.hlt[player][a - A_HEAL], -a))
        if first == "equip":
            return max(legal, key=lambda a: (s.hlt[player][a - A_EQUIP], -a))
        return max(legal, key=lambda a: (play_key(a), -a))
