"""What a Leduc Hold'em seat is shown (:mod:`card_envs.core.view`): the whole table as text, a
seat's text view (its own card, the public card once turned, the opponent's card only at a
showdown, the pot and the betting), the action details (``"call: check"``, ``"raise: 2
chips"``) and what a move did (the public card turned, the showdown); the picture's table (a
panel per seat with its card, face down to the other seat until a showdown; the public card and
the pot in the middle; the betting of both rounds)."""

from __future__ import annotations

from card_envs.core.table import CardFace, CardRow, Panel, Table
from card_envs.core.view import View
from card_envs.leduc_holdem.cards import card_name
from card_envs.leduc_holdem.constants import (
    ACTIONS,
    NO_ACTION,
    NUM_SUITS,
    SUITS,
    rank_of,
)
from card_envs.leduc_holdem.state import LeducHoldemState, is_showdown, public_shown


class LeducHoldemView(View):
    """The Leduc Hold'em view."""

    def _card(self, card: int) -> str:
        return card_name(card, self.game.ranks)

    def _betting(self, state: LeducHoldemState) -> list[str]:
        lines = []
        for r, row in enumerate(state.history):
            moves = [ACTIONS.piece_of(a).name for a in row if a != NO_ACTION]
            if moves or r == state.phase:
                lines.append(f"  round {r + 1}: {', '.join(moves) if moves else '-'}")
        return lines

    def describe_action(self, state: LeducHoldemState, piece: str, index: int) -> str | None:
        """``"check"`` or ``"1 chip"`` (what a call puts in), ``"2 chips"`` (what a raise puts
        in: the difference to match plus the round's raise size, LH-3.4); ``None`` for a fold or
        once over."""
        if state.phase > 1 or piece == "fold":
            return None
        p = state.player
        owed = state.pot[1 - p] - state.pot[p]
        if piece == "call":
            return "check" if owed == 0 else f"{owed} chip{'s' if owed != 1 else ''}"
        more = owed + self.game.config.raise_sizes[state.phase]
        return f"{more} chips"

    def render(self, state: LeducHoldemState) -> str:
        """The whole state: both private cards, the public card (face up or not), the pot and
        the betting."""
        shown = "face up" if public_shown(state) else "face down"
        lines = [f"hands: seat 0 {self._card(state.hands[0])}, seat 1 "
                 f"{self._card(state.hands[1])}; public {self._card(state.public)} ({shown})",
                 f"pot {sum(state.pot)} (seat 0 {state.pot[0]}, seat 1 {state.pot[1]}); "
                 f"raises this round {state.raises}"]
        return "\n".join(lines + self._betting(state))

    def render_view(self, state: LeducHoldemState, player: int) -> str:
        """Seat ``player``'s screen: its card, the public card once turned (LH-2.4), the
        opponent's card only after a showdown (LH-4.1), the pot and the betting."""
        game = self.game
        other = 1 - player
        public = self._card(state.public) if public_shown(state) else "face down"
        theirs = self._card(state.hands[other]) if is_showdown(state) else "hidden"
        lines = [game.view_header(state, player),
                 f"  your card: {self._card(state.hands[player])}; public card: {public}; "
                 f"opponent's card: {theirs}",
                 f"  pot {sum(state.pot)}: you {state.pot[player]}, opponent {state.pot[other]}"]
        return "\n".join(lines + self._betting(state))

    def effects_seen_by(self, before: LeducHoldemState, action: int, after: LeducHoldemState,
                        player: int) -> list[str]:
        """The public card when it is turned (LH-2.4); the opponent's card at a showdown
        (LH-4.1); a fold."""
        out = []
        if not public_shown(before) and public_shown(after):
            out.append(f"the public card is turned: {self._card(after.public)}")
        if is_showdown(after):
            out.append(f"showdown: the opponent shows {self._card(after.hands[1 - player])}")
        if after.folded >= 0:
            out.append("you fold" if after.folded == player else "the opponent folds")
        return out

    def _face(self, card: int) -> CardFace:
        rank = self.game.ranks[rank_of(card)]
        suit = ("spades", "hearts")[card % NUM_SUITS]
        return CardFace(rank.short + SUITS[card % NUM_SUITS], (rank.name, suit),
                        tone="red" if suit == "hearts" else "plain")

    def table_view(self, state: LeducHoldemState, player: int | None) -> Table:
        """The picture's content (``rgb_array``): a panel per seat (its chips in the pot, its
        card: face up for itself, for ``player=None`` and at a showdown, LH-4.1, else face
        down), then the middle of the table (the public card, face down until round 2, LH-2.4;
        the pot; each round's betting). Every state gives the same panels and rows (a frame
        keeps its size)."""
        over = state.phase > 1
        if over:
            won = self.game.returns(state)
            best = max(range(2), key=lambda seat: won[seat])
            result = ("split pot" if won[0] == won[1] else
                      f"seat {best} wins {won[best]:g} chip{'s' if won[best] != 1 else ''}")
            status = ("game over: " + (f"seat {state.folded} folds" if state.folded >= 0
                                        else "showdown") + f" · {result}")
        else:
            status = (f"round {state.phase + 1} · to act: seat {state.player}"
                      + (" (you)" if state.player == player else ""))
        panels = []
        for seat in range(2):
            shown = player is None or seat == player or is_showdown(state)
            card = (self._face(state.hands[seat]) if shown
                    else CardFace("1 card", face_down=True))
            panels.append(Panel(
                title=f"seat {seat}" + (" (you)" if seat == player else ""),
                lines=(f"in the pot: {state.pot[seat]} chip{'s' if state.pot[seat] != 1 else ''}"
                       + (" · folded" if state.folded == seat else ""),),
                rows=(CardRow("card", (card,), "private"),),
                active=not over and state.player == seat))
        up = public_shown(state) or player is None
        public = self._face(state.public) if up else CardFace("1 card", face_down=True)
        betting = [line.strip() for line in self._betting(state)]
        lines = (f"pot {sum(state.pot)} chips · raises this round {state.raises}",
                 *(betting + ["", ""])[:2])
        panels.append(Panel(title="table", lines=lines, rows=(
            CardRow("public card", (public,), "turned" if public_shown(state) else
                    "not turned yet"),), wide=True))
        return Table(title="Leduc Hold'em" + ("" if player is None
                                              else f" — the view of seat {player}"),
                     status=status, panels=tuple(panels), columns=2)
