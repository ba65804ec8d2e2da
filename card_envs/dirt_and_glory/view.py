"""What a Dirt and Glory seat is shown (:mod:`card_envs.core.view`): the text views, the
picture's content, the action descriptions and what each move did (DG-5).

A card is named by its values and its ability in words (DG-1.5): ``"1/4 (see your deck's top
card)"``, ``"3 (+1 fuel)"``; a caravan card with the value it counts when that is not plain
(``"1/4 = 4"``). A seat sees the territory, the offer, every caravan with its total, every score
and fuel, its own reserve, its own deck's composition (never its order; the top card once
scouted) and its own drawn cards; of the other seats only the sizes of their reserves, decks and
drawn cards.
"""

from __future__ import annotations

from card_envs.core.table import CardFace, CardRow, Panel, Table, cards, counted, split_list
from card_envs.core.view import View
from card_envs.dirt_and_glory.cards import Kind
from card_envs.dirt_and_glory.constants import (
    AB_NONE,
    ABILITY,
    AFTER,
    DRAFT,
    END,
    KIND_PIECES,
    PHASES,
    VALUE,
)
from card_envs.dirt_and_glory.state import DirtAndGloryState

#: each ability (DG-1.5) in a few words, by ability code (``ABILITIES``); ``""`` for none
ABILITY_WORDS = ("", "+1 fuel", "see your deck's top card", "your next card counts 0",
                 "move another caravan card to your reserve")
#: each ability on a card box of the picture (narrow: a few short lines)
ABILITY_LINES = ((), ("+1 fuel",), ("see top", "of deck"), ("next card", "counts 0"),
                 ("stash a", "caravan", "card"))


def kind_text(kind: Kind) -> str:
    """``"1/4"``, ``"3 (+1 fuel)"``: a card kind's values and its ability in words."""
    v = f"{kind.low}/{kind.high}" if kind.two_valued else f"{kind.low}"
    return v if kind.ability == AB_NONE else f"{v} ({ABILITY_WORDS[kind.ability]})"


def _place(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


class DirtAndGloryView(View):
    """The Dirt and Glory view (module docstring)."""

    def card_text(self, c: int) -> str:
        """Card ``c``'s values and ability in words (:func:`kind_text`)."""
        game = self.game
        return kind_text(game.kinds[game.card_kind[c]])

    def _counted(self, c: int, value: int) -> str:
        """A caravan card and, when not plain, the value it counts (``"1/4 = 4"``)."""
        game = self.game
        text = self.card_text(c)
        plain = game.card_low[c] == game.card_high[c] == value
        return text if plain else f"{text} = {value}"

    def _territory(self, s: DirtAndGloryState):
        return self.game.content.territories[s.territories[min(s.round, len(s.territories) - 1)]]

    # -- moves ----------------------------------------------------------------------------------
    def describe_action(self, state: DirtAndGloryState, piece: str, index: int) -> str | None:
        """The card kind a kind-indexed action names (``"take 3: 2/5 (+1 fuel)"``); the value
        of the value choice with the card just played (``"high 4 of 1/4"``); the ability the
        ability decision resolves, in words. ``None`` for the other fixed actions."""
        game = self.game
        if piece in KIND_PIECES:
            return kind_text(game.kinds[index])
        c = state.pending
        card = self.card_text(c) if 0 <= c < game.num_cards else None
        if piece == "value":
            which = "low" if index == 0 else "high"
            if card is None:
                return which
            return f"{which} {(game.card_low if index == 0 else game.card_high)[c]} of {card}"
        if piece == "ability_use" and card is not None:
            return ABILITY_WORDS[game.card_ab[c]]
        return None

    def action_seen_by(self, state: DirtAndGloryState, action: int, player: int) -> str:
        """The action's name, but the kind another seat returns in the draft (DG-2.1) or mixes
        from its reserve into its deck (DG-3.6) is not named."""
        game = self.game
        if player != state.player:
            piece = game.action_layout.piece_of(action).name
            if piece == "draft_return":
                return "draft_return: returns one of the 3 drawn cards unseen"
            if piece == "mix":
                return "mix: mixes a reserve card into the deck unseen"
        return game.action_to_string(state, action)

    # -- text views -----------------------------------------------------------------------------
    def _round_lines(self, s: DirtAndGloryState) -> list[str]:
        cfg = self.game.config
        terr = self._territory(s)
        pts, fuel = "/".join(map(str, terr.points)), "/".join(map(str, terr.fuel))
        return [f"  round {min(s.round + 1, cfg.num_rounds)} of {cfg.num_rounds} · territory "
                f"{terr.name}: target {terr.target} (the closest total not above it wins); "
                f"1st/2nd/3rd get {pts} points and {fuel} fuel, the others and who went over "
                f"{cfg.consolation_fuel} fuel (DG-3.5)",
                f"  offer ({'a passing player takes one' if s.offer else 'empty'}): "
                + (", ".join(self.card_text(c) for c in s.offer) or "-")
                + f" · unit deck {cards(len(s.unit_deck))}"]

    def _seat_head(self, s: DirtAndGloryState, p: int, player: int | None) -> str:
        target = self._territory(s).target
        caravan = ", ".join(self._counted(c, v) for c, v in zip(s.caravans[p], s.values[p]))
        flags = [f for f, on in (("passed", s.passed[p] and not s.busted[p]),
                                 (f"went over {target}: out of the round", s.busted[p]),
                                 ("the next card counts 0", s.zero_next[p])) if on]
        who = f"seat {p}" + (" (you)" if p == player else "")
        return (f"  {who}: score {s.scores[p]} · fuel {s.fuel[p]} · caravan "
                f"{caravan or '-'} → total {sum(s.values[p])} of {target}"
                + "".join(f" · {f}" for f in flags))

    def render_view(self, state: DirtAndGloryState, player: int) -> str:
        """Seat ``player``'s view (DG-5): the territory and its rewards, the offer, every seat's
        score, fuel and caravan (with the value each card counts and the total), the own reserve,
        the own deck's composition (never its order; the top card once scouted) and the own
        drawn cards; of the other seats only the sizes of their reserves, decks and drawn cards;
        the card just played, the last round's result."""
        s, game = state, self.game
        lines = [game.view_header(s, player)] + self._round_lines(s)
        def order(c: int) -> tuple[int, int, int]:
            return game.card_low[c], game.card_high[c], game.card_ab[c]

        for p in range(game.num_players):
            lines.append(self._seat_head(s, p, player))
            if p == player:
                deck = sorted(s.decks[p], key=order)
                top = f"; top: {self.card_text(s.decks[p][-1])}" if s.peek[p] and s.decks[p] \
                    else ""
                reserve = ", ".join(self.card_text(c) for c in sorted(s.reserves[p], key=order))
                lines.append(f"    reserve: {reserve or '-'}")
                lines.append(f"    deck ({cards(len(deck))}, order unknown{top}): "
                             + (", ".join(self.card_text(c) for c in deck) or "-"))
            else:
                lines[-1] += (f" · reserve {cards(len(s.reserves[p]))} · deck "
                              f"{cards(len(s.decks[p]))}")
        if s.hand:
            if s.player == player:
                what = ("keep 2, return 1 (DG-2.1)" if s.phase == DRAFT else
                        "place 1 as your caravan's first card, the other goes to your reserve "
                        "(DG-3.1)")
                lines.append(f"  your drawn cards ({what}): "
                             + ", ".join(self.card_text(c) for c in sorted(s.hand)))
            else:
                lines.append(f"  seat {s.player} holds {cards(len(s.hand))} drawn")
        if s.pending >= 0 and s.phase in (VALUE, ABILITY, AFTER):
            lines.append(f"  just played by seat {s.player}: {self.card_text(s.pending)}")
        if s.round > 0:
            lines.append("  last round: " + self._result_text(s))
        if s.phase == END:
            lines.append("  winners: " + ", ".join(f"seat {p}" for p in s.winners)
                         + f" (final scores include 1 point per {game.config.fuel_per_point} "
                           "fuel, DG-4.1)")
        return "\n".join(lines)

    def _result_text(self, s: DirtAndGloryState) -> str:
        """The last round's place, points and fuel per seat (DG-3.5)."""
        out = []
        for p, (place, points, fuel) in enumerate(s.last_result):
            where = _place(place) if place else "went over"
            out.append(f"seat {p} {where} +{points} points +{fuel} fuel")
        return ", ".join(out)

    def render(self, state: DirtAndGloryState) -> str:
        """The whole state as text (debugging): every reserve, deck order and drawn card."""
        s, game = state, self.game
        terr = self._territory(s)
        lines = [
            f"Dirt and Glory — round {min(s.round + 1, game.config.num_rounds)}/"
            f"{game.config.num_rounds}, phase {PHASES[s.phase]}, to act: seat {s.player}",
            f"territory {terr.name}: target {terr.target}, points {terr.points}, fuel {terr.fuel}",
            f"offer: {[self.card_text(c) for c in s.offer]}  unit deck: {len(s.unit_deck)}",
        ]
        for p in range(game.num_players):
            flag = " went over" if s.busted[p] else (" passed" if s.passed[p] else "")
            caravan = [self._counted(c, v) for c, v in zip(s.caravans[p], s.values[p])]
            lines.append(
                f"seat {p}: score {s.scores[p]} fuel {s.fuel[p]} total {sum(s.values[p])}{flag} | "
                f"caravan {caravan} | reserve {[self.card_text(c) for c in s.reserves[p]]} | "
                f"deck {len(s.decks[p])} (top first: "
                f"{[self.card_text(c) for c in reversed(s.decks[p])]})")
        if s.hand:
            lines.append(f"drawn by seat {s.player}: {[self.card_text(c) for c in s.hand]}")
        if s.phase == END:
            lines.append(f"winners: {s.winners}")
        return "\n".join(lines)

    # -- what a move did ------------------------------------------------------------------------
    def effects_seen_by(self, before: DirtAndGloryState, action: int, after: DirtAndGloryState,
                        player: int) -> list[str]:
        """Per seat: the cards that joined or left its caravan (public once played) and its new
        total, a pass or going over, fuel and score changes; the top card a scout shows (to its
        owner only); a round's result (DG-3.5) and the next territory."""
        game, out = self.game, []
        new_round = after.round != before.round
        for p in range(game.num_players):
            who = "you" if p == player else f"seat {p}"
            if not new_round:
                old = dict(zip(before.caravans[p], before.values[p]))
                now = dict(zip(after.caravans[p], after.values[p]))
                choosing = after.pending if after.phase in (ABILITY, VALUE) else -1
                changed = []
                for c, v in now.items():
                    if c == choosing and game.card_low[c] != game.card_high[c] and v:
                        text = f"{self.card_text(c)} (its value to be chosen)"
                    else:
                        text = self._counted(c, v)
                    if c not in old:
                        changed.append(f"+ {text}")
                    elif old[c] != v:
                        changed.append(f"{self.card_text(c)} counts {v}")
                changed += [f"− {self._counted(c, v)} (to the reserve)"
                            for c, v in old.items() if c not in now]
                if changed:
                    out.append(f"{who}: caravan {', '.join(changed)} → total "
                               f"{sum(after.values[p])}")
                if after.busted[p] and not before.busted[p]:
                    out.append(f"{who}: went over the target: out of the round (DG-3.2)")
                elif after.passed[p] and not before.passed[p]:
                    out.append(f"{who}: passed, out of the round")
                if after.zero_next[p] and not before.zero_next[p]:
                    out.append(f"{who}: the next card played this round counts 0")
            if after.fuel[p] != before.fuel[p] and not new_round:
                out.append(f"{who}: fuel {before.fuel[p]} → {after.fuel[p]}")
        if after.peek[player] and not before.peek[player] and after.decks[player]:
            out.append(f"your deck's top card: {self.card_text(after.decks[player][-1])}")
        if new_round:
            out.append(f"round {before.round + 1} scored (DG-3.5): " + self._result_text(after))
            if after.phase == END:
                out.append("final scores: " + ", ".join(
                    f"seat {p} {x}" for p, x in enumerate(after.scores)) + " · winners: "
                    + ", ".join(f"seat {p}" for p in after.winners))
            else:
                terr = self._territory(after)
                out.append(f"round {after.round + 1}: territory {terr.name}, target "
                           f"{terr.target}; new offer: "
                           + (", ".join(self.card_text(c) for c in after.offer) or "-"))
        return out

    # -- the picture ----------------------------------------------------------------------------
    def _short(self, c: int) -> str:
        """``"1/4 (see top card)"``: card ``c`` for the picture's narrow lines."""
        kind = self.game.kinds[self.game.card_kind[c]]
        v = f"{kind.low}/{kind.high}" if kind.two_valued else f"{kind.low}"
        return v if kind.ability == AB_NONE else f"{v} ({' '.join(ABILITY_LINES[kind.ability])})"

    def _unit_card(self, c: int, value: int | None = None, marked: bool = False) -> CardFace:
        """A card box: the counted ``value`` big (a caravan card) or the kind's values, then
        the printed values and the ability in a few words."""
        game = self.game
        kind = game.kinds[game.card_kind[c]]
        printed = f"{kind.low}/{kind.high}" if kind.two_valued else f"{kind.low}"
        details = (printed,) if value is not None and printed != str(value) else ()
        details += ABILITY_LINES[kind.ability]
        return CardFace(printed if value is None else str(value), details,
                        tone="gold" if kind.ability != AB_NONE else "plain", marked=marked)

    def table_view(self, state: DirtAndGloryState, player: int | None) -> Table:
        """The picture's content (``rgb_array``, DG-5): the territory (target, points, fuel),
        the offer and the drawn draft / set-up cards (face down for the other seats); per seat
        its score, fuel, caravan (the counted value of each card big, the card just played
        marked) and flags; the own reserve and deck composition (the top card once scouted),
        the other seats' reserves and decks as face-down counts (``player=None``: all face
        up)."""
        s, game = state, self.game
        n = game.num_players
        over = s.phase == END
        terr = self._territory(s)
        rnd = f"round {min(s.round + 1, game.config.num_rounds)}/{game.config.num_rounds}"
        if over:
            status = f"game over: {rnd} · winners: " + ", ".join(f"player {p}"
                                                                  for p in s.winners)
        else:
            status = (f"{rnd} · phase {PHASES[s.phase]} · to act: player {s.player}"
                      + (" (you)" if s.player == player else ""))

        def back(k: int) -> tuple[CardFace, ...]:
            return (CardFace(cards(k), face_down=True),) if k else ()

        sees_hand = player is None or player == s.player
        hand = tuple(self._unit_card(c) for c in sorted(s.hand, key=game.card_label)) \
            if sees_hand else back(len(s.hand))
        who = f"player {s.player}'s\ndrawn cards" if s.hand else "none drawn"
        centre = Panel(
            title=f"territory {terr.name}",
            lines=((f"target {terr.target} · points {'/'.join(map(str, terr.points))} · fuel "
                    f"{'/'.join(map(str, terr.fuel))} (1st/2nd/3rd) · unit deck "
                    f"{cards(len(s.unit_deck))}"),
                   "last round: " + (self._result_text(s) if s.round > 0 else "—")),
            rows=(CardRow("offer", tuple(self._unit_card(c) for c in s.offer),
                          cards(len(s.offer))),
                  CardRow("drawn", hand, who)),
            wide=True)
        panels = [centre]
        deck_parts = 1 if n == 2 else 2  # lines of a deck's composition (one frame size)
        for p in range(n):
            flags = [f for f, on in (("passed", s.passed[p] and not s.busted[p]),
                                     ("went over", s.busted[p]),
                                     ("next card counts 0", s.zero_next[p])) if on]
            pending = s.pending if s.phase in (VALUE, ABILITY, AFTER) and s.player == p else -1
            caravan = tuple(self._unit_card(c, v, marked=c == pending)
                            for c, v in zip(s.caravans[p], s.values[p]))
            own = player is None or p == player
            if own:
                reserve = tuple(self._unit_card(c) for c in sorted(s.reserves[p],
                                                                   key=game.card_label))
                # copies counted, in the order of the values (key 0 keeps that order); a half-
                # width panel (3+ players) takes the list on two lines
                deck = counted((self._short(c) for c in sorted(
                    s.decks[p], key=lambda c: (game.card_low[c], game.card_high[c],
                                               game.card_ab[c]))), key=lambda _: 0)
                known_top = s.decks[p] and (player is None or s.peek[p])
                top = f", top card {self._short(s.decks[p][-1])}" if known_top else ""
                deck_lines = (f"deck {cards(len(s.decks[p]))}{top}",
                              *split_list("in it: ", deck or ["—"], deck_parts, 60))
            else:
                reserve = back(len(s.reserves[p]))
                deck_lines = (f"deck {cards(len(s.decks[p]))} (face down)",) + ("",) * deck_parts
            panels.append(Panel(
                title=f"player {p}" + (" (you)" if p == player else ""),
                lines=(f"score {s.scores[p]} · fuel {s.fuel[p]} · caravan total "
                       f"{sum(s.values[p])} of {terr.target}"
                       + (f" · {', '.join(flags)}" if flags else ""), *deck_lines),
                rows=(CardRow("caravan", caravan, cards(len(caravan))),
                      CardRow("reserve", reserve, cards(len(s.reserves[p])))),
                active=s.player == p and not over))
        return Table(title=f"Dirt and Glory — {n} players"
                     + ("" if player is None else f" — the view of player {player}"),
                     status=status, panels=tuple(panels), columns=1 if n == 2 else 2,
                     card_size=(88, 104))

