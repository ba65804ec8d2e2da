"""What a Pebbles seat is shown (everything: the game hides nothing)."""

from __future__ import annotations

from card_envs.core.view import View


class PebblesView(View):
    """The Pebbles view."""

    def describe_action(self, state, piece: str, index: int) -> str | None:
        """``"take 1: 2 pebbles"``."""
        return f"{index + 1} pebble{'s' if index else ''}"

    def render(self, state) -> str:
        return f"row: {'o' * state.left} ({state.left} left), seat {state.player} to take"
