"""What a Toy Nim seat is shown (:mod:`card_envs.core.view`): the whole table as text and the
action descriptions. The seat's text view and the picture are the core's defaults (built from
the seat's observation: never a leak), which a game replaces with its own ``render_view`` and
``table_view`` here (``docs/adding_a_game.md``)."""

from __future__ import annotations

from card_envs.core.view import View
from card_envs.testing.toy_game.state import ToyNimState


class ToyNimView(View):
    """The Toy Nim view."""

    def describe_action(self, state: ToyNimState, piece: str, index: int) -> str | None:
        """``"take 1: 2 Kámen"``: how many cards of the pile the action takes."""
        return f"{index + 1} {self.game.cards['stone'].name}"

    def render(self, state: ToyNimState) -> str:
        """The whole state (the bonus card's hidden position too)."""
        cards = self.game.cards
        return (f"pile={state.pile} ({cards['stone'].name}) to_move={state.player} "
                f"winner={state.winner} {cards['bonus'].name}_owner={state.bonus_owner}")
