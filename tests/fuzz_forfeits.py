"""Policies that fail, for the forfeit tests (``fuzz_forfeits:Crasher`` specs: importable by
worker processes too)."""


class Crasher:
    """Takes one card, but raises when the pile is down to 4 cards or fewer (Toy Nim)."""

    name = "crasher"

    def act(self, game, state, player):
        if state.pile <= 4:
            raise ValueError("crashed on purpose")
        return game.legal_actions(state)[0]


class Cheater:
    """Plays action 99 (never legal)."""

    name = "cheater"

    def act(self, game, state, player):
        return 99
