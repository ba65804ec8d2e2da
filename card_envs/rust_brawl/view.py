"""What a Rust Brawl seat is shown (:mod:`card_envs.core.view`): the text views, the picture's
content, the action descriptions and what each move did (RB-3.3).

A seat sees both tables (each position's card with its kind, action icon and traits, current
and maximum HLT, DMG with boosts, cover, paralysis, equipment and ability texts), both
graveyards, its own hand with every card's values and abilities (numbered as the ``play k`` /
``discard k`` actions number them), the sizes of both decks and of the opponent's hand, and with
open decklists the opponent's unseen cards; never the opponent's hand or a deck order. Each
move's effects name the cards that entered or left a table, every HLT, cover and paralysis
change, the cards drawn (its own by name, the opponent's as a count) and discarded.
"""

from __future__ import annotations

import textwrap
from collections import Counter

from card_envs.core.table import CardFace, CardRow, Panel, Table, cards, counted, split_list
from card_envs.core.view import View
from card_envs.rust_brawl.cards import Ability
from card_envs.rust_brawl.constants import (
    CHARACTER,
    END,
    EQUIPMENT,
    EXPLOSIVE,
    HEAL_TARGET,
    ICONS,
    KINDS,
    NUM_SEATS,
    PHASES,
    POSITIONS,
    RANGED_TARGET,
    VEHICLE,
)
from card_envs.rust_brawl.state import RustBrawlState


def short_ability(ab: Ability) -> str:
    """A few words naming an ability (RB-8) for a card box of the picture, e.g. ``"return
    strike"``, ``"+1 DMG to Miner"``; the full English text is :func:`cards.ability_text`."""
    k, a = ab.kind, ab.amount
    whom = ab.trait or (f"{ab.icon} chars" if ab.icon else "friends")
    if k == "boost_dmg":
        return f"+{a} DMG to {whom}"
    if k == "boost_hlt":
        return f"+{a} HLT to {whom}"
    if k == "reduce":
        return f"-{a} damage taken"
    if k == "reduce_vs":
        return f"-{a} damage vs {ab.against}"
    if k == "lottery":
        return f"lottery: draw {a}" if ab.reward == "draw" else f"lottery: {a} DMG to all"
    if k == "draw":
        return f"on play: draw {a}"
    if k == "extra_dmg_vs":
        return f"+{a} DMG vs {ab.trait}"
    if k == "removes_hlt" and a:  # RB-6.13: an amount printed with the ability
        return f"removes {a} HLT"
    return {"paralysis_immune": "paralysis immune", "paralyse": "paralyses",
            "return_strike": "return strike", "hit_all": "hits all",
            "removes_hlt": "removes HLT", "heal_all": "heals all"}[k]


class RustBrawlView(View):
    """The Rust Brawl view (module docstring)."""

    # -- small texts ----------------------------------------------------------------------------
    def kind_text(self, c: int) -> str:
        """``"character/melee, Raider"``: kind, action icon and traits."""
        card = self.game.db.cards[c]
        return f"{card.kind}/{card.icon}" + (f", {', '.join(card.traits)}" if card.traits else "")

    def values_text(self, c: int) -> str:
        """The printed values a card of its kind has: ``"HLT 6, DMG 4, 3 points"``; an
        equipment's bonus to its character, an explosive's DMG."""
        game = self.game
        k = game.kind[c]
        hlt, dmg, pts = game.printed_hlt[c], game.printed_dmg[c], game.points[c]
        if k == EQUIPMENT:
            parts = [f"+{dmg} DMG" if dmg else "", f"+{hlt} HLT" if hlt else ""]
            return ", ".join([p for p in parts if p] + [f"{pts} points"])
        if k == EXPLOSIVE:
            return f"DMG {dmg}, {pts} points"
        return f"HLT {hlt}" + (f", DMG {dmg}" if k == CHARACTER else "") + f", {pts} points"

    def hand_line(self, c: int) -> str:
        """A hand card with everything printed on it."""
        game = self.game
        text = game.card_text(c)
        return (f"{game.names[c]} — {self.kind_text(c)}; {self.values_text(c)}"
                + (f". {text}" if text else ""))

    def _whose(self, p: int, player: int | None) -> str:
        return "your" if p == player else f"seat {p}'s"

    # -- moves ----------------------------------------------------------------------------------
    def describe_action(self, state: RustBrawlState, piece: str, index: int) -> str | None:
        """The card a hand-slot action names (``"play 2: Ospalý Vstupař"``) and the card at
        the position a target action names (``"ranged 1: Pouštní Bugina (HLT 3/5)"``)."""
        s, p, names = state, state.player, self.game.names
        if p < 0:
            return None
        if piece in ("play", "discard"):
            hand = s.hands[p]
            return names[hand[index]] if index < len(hand) else None
        if piece == "pass":
            return None
        side = 1 - p if piece == "ranged" else p
        c = s.table[side][index]
        if c < 0:
            return None
        what = f"{names[c]} (HLT {s.hlt[side][index]}/{s.max_hlt[side][index]})"
        if piece == "equip" and s.pending >= 0:
            return f"{names[s.pending]} to {what}"
        return what

    def action_seen_by(self, state: RustBrawlState, action: int, player: int) -> str:
        """The action as ``player`` sees it. A card another seat plays or discards is public at
        once (it stands on the table or lies in the graveyard), so it is named; only its hand
        slot is not (the sorted hand's order would tell the other cards apart): ``"play:
        <name>"``, ``"discard: <name>"``. Drawn cards are never named (the draw is no action).
        A target names whose card it is (``"ranged 1: your <name> (HLT 3/5)"``, ``"heal 0: its
        <name> ..."``)."""
        game = self.game
        if player != state.player:
            piece = game.action_layout.piece_of(action)
            if piece.name in ("play", "discard"):
                card = state.hands[state.player][action - piece.start]
                return f"{piece.name}: {game.names[card]}"
            name, _, detail = game.action_to_string(state, action).partition(": ")
            if detail and piece.name == "ranged":  # the target is this seat's card
                return f"{name}: your {detail}"
            if detail and piece.name in ("heal", "equip"):  # the acting seat's own card
                return f"{name}: its {detail}"
        return game.action_to_string(state, action)

    # -- text views -----------------------------------------------------------------------------
    def slot_text(self, s: RustBrawlState, p: int, j: int) -> str:
        """Position ``j`` of seat ``p``: the card, its kind, HLT, DMG with boosts, flags,
        equipment, then its and its equipment's ability texts (wrapped at 96 characters)."""
        game = self.game
        c = s.table[p][j]
        if c < 0:
            return f"    {j + 1}: -"
        flags = []
        if s.hlt[p][j] <= 0:
            flags.append("destroyed (leaves at the end of the turn)")
        if s.cover[p][j]:
            flags.append("in cover")
        if s.paralysed_until[p][j]:
            flags.append(f"paralysed until its owner's turn {s.paralysed_until[p][j]} (now "
                         f"{game.turns_of(s, p)})")
        eq = ", ".join(game.names[e] for e in s.equipment[p][j])
        dmg = f" DMG {game.slot_dmg(s, p, j)}" if game.kind[c] in (CHARACTER,) else ""
        head = (f"    {j + 1}: {game.names[c]} [{self.kind_text(c)}] "
                f"HLT {s.hlt[p][j]}/{s.max_hlt[p][j]}{dmg}"
                + (f", {', '.join(flags)}" if flags else "")
                + (f"; equipment: {eq}" if eq else ""))
        texts = [game.card_text(c)] + [f"{game.names[e]}: {game.card_text(e)}"
                                       for e in s.equipment[p][j]]
        texts = [x for x in texts if x]
        if not texts:
            return head
        return head + "\n" + textwrap.fill(" ".join(texts), width=96, initial_indent=" " * 7,
                                           subsequent_indent=" " * 7, break_on_hyphens=False)

    def header(self, s: RustBrawlState, player: int | None = None) -> str:
        """The turn, the phase and what is being decided; the end and its reason."""
        game = self.game
        if s.phase == END:
            res = ("draw" if s.winner < 0 else f"seat {s.winner} wins")
            return f"Rust Brawl — game over after {s.turn} turns: {res} ({s.end_reason})"
        whose = "your" if s.player == player else f"seat {s.player}'s"
        text = (f"Rust Brawl — turn {s.turn} ({whose} turn {game.turns_of(s, s.player)}), "
                f"phase {PHASES[s.phase]}")
        if s.phase in (RANGED_TARGET, HEAL_TARGET):
            text += (f": your {game.names[s.table[s.player][s.acting]]} at position "
                     f"{s.acting + 1} chooses its target" if s.player == player else
                     f", acting position {s.acting + 1}")
        if s.pending >= 0:
            text += f"; equipment {game.names[s.pending]} to attach"
        if s.quiet_turns:
            text += (f"; quiet turns {s.quiet_turns} (a stalemate at "
                     f"{2 * game.config.stalemate_turns}, RB-7.4)")
        return text

    def render(self, state: RustBrawlState) -> str:
        """The whole state as text (debug: both hands and deck orders)."""
        s, game = state, self.game
        names = game.names
        lines = [self.header(s)]
        for p in range(NUM_SEATS):
            lines.append(f"  seat {p} ({s.deck_names[p]}): hand {[names[c] for c in s.hands[p]]}"
                         f" | deck {len(s.decks[p])} (top first: "
                         f"{[names[c] for c in reversed(s.decks[p])]}) | graveyard "
                         f"{[names[c] for c in s.graveyards[p]]}")
            lines += [self.slot_text(s, p, j) for j in range(POSITIONS)]
        return "\n".join(lines)

    def render_view(self, state: RustBrawlState, player: int) -> str:
        """Seat ``player``'s view: both tables (:meth:`slot_text`), both graveyards, the own
        hand with each card's kind, values and abilities (numbered as the ``play`` and
        ``discard`` actions), the sizes of both decks and of the opponent's hand, and with open
        decklists the opponent's unseen cards (decklist minus the cards shown); never the
        opponent's hand or a deck order."""
        s, q, game = state, 1 - player, self.game
        names = game.names
        lines = [game.view_header(s, player), "  " + self.header(s, player)]
        for x in (player, q):
            who = "you" if x == player else "opponent"
            name = s.deck_names[x] if (x == player or game.config.open_decklists) else "?"
            grave = ", ".join(sorted(names[c] for c in s.graveyards[x])) or "-"
            lines.append(f"  seat {x} ({who}, deck {name}): deck {len(s.decks[x])}, hand "
                         f"{len(s.hands[x])}, graveyard: {grave}")
            lines += [self.slot_text(s, x, j) for j in range(POSITIONS)]
        lines.append("  your hand (play k / discard k):" if s.hands[player] else
                     "  your hand: empty")
        for i, c in enumerate(s.hands[player]):
            lines.append(textwrap.fill(f"{i}: {self.hand_line(c)}", width=100,
                                       initial_indent="    ", subsequent_indent=" " * 7,
                                       break_on_hyphens=False))
        if game.config.open_decklists:
            unseen = Counter(s.hands[q]) + Counter(s.decks[q])
            lines.append("  opponent's unseen cards: "
                         + ", ".join(f"{names[c]} x{k}" for c, k in sorted(unseen.items())))
        return "\n".join(lines)

    # -- what a move did ------------------------------------------------------------------------
    def effects_seen_by(self, before: RustBrawlState, action: int, after: RustBrawlState,
                        player: int) -> list[str]:
        """Per seat (cards followed by their table serial, as positions shift): cards entering
        the table, HLT changes (destroyed at 0 or less), cover and paralysis changes, equipment
        attached, cards leaving for the graveyard; the cards drawn (the own by name, the
        opponent's as a count) and discarded; a new turn; the end."""
        game, out = self.game, []
        names = game.names
        piece = game.action_layout.piece_of(action)
        played = (before.hands[before.player][action - piece.start]
                  if piece.name == "play" and before.player >= 0 else -1)
        if after.turn != before.turn and after.phase != END:
            out.append(f"turn {after.turn}: "
                       + ("your turn" if after.player == player else f"seat {after.player}'s turn"))
        for p in (player, 1 - player):
            whose = self._whose(p, player)
            old = {before.serial[p][j]: j for j in range(POSITIONS) if before.table[p][j] >= 0}
            new = {after.serial[p][j]: j for j in range(POSITIONS) if after.table[p][j] >= 0}
            for serial, j in new.items():
                c = after.table[p][j]
                if serial not in old:
                    out.append(f"{whose} {names[c]} enters position {j + 1}: now HLT "
                               f"{after.hlt[p][j]}/{after.max_hlt[p][j]}"
                               + (", in cover" if after.cover[p][j] else "")
                               + (", paralysed" if after.paralysed_until[p][j] else ""))
                    continue
                i = old[serial]
                changes = []
                if after.hlt[p][j] != before.hlt[p][i] or after.max_hlt[p][j] != \
                        before.max_hlt[p][i]:
                    changes.append(f"HLT {before.hlt[p][i]}/{before.max_hlt[p][i]} → "
                                   f"{after.hlt[p][j]}/{after.max_hlt[p][j]}"
                                   + (", destroyed" if after.hlt[p][j] <= 0 < before.hlt[p][i]
                                      else ""))
                if after.cover[p][j] != before.cover[p][i]:
                    changes.append("goes into cover" if after.cover[p][j] else "leaves cover")
                if after.paralysed_until[p][j] and not before.paralysed_until[p][i]:
                    changes.append("paralysed")
                elif before.paralysed_until[p][i] and not after.paralysed_until[p][j]:
                    changes.append("no longer paralysed")
                added = after.equipment[p][j][len(before.equipment[p][i]):]
                changes += [f"gets {names[e]}" for e in added]
                if j != i:
                    changes.append(f"moves to position {j + 1}")
                if changes:
                    out.append(f"{whose} {names[c]}: {', '.join(changes)}")
            removed = []
            for serial, i in old.items():
                if serial not in new:
                    c = before.table[p][i]
                    removed += [c, *before.equipment[p][i]]
                    hlt = before.hlt[p][i]
                    out.append(f"{whose} {names[c]} " + (
                        f"(HLT {hlt}, destroyed) goes" if hlt <= 0 else
                        f"is destroyed (HLT {hlt} → 0 or less) and goes")
                        + " to the graveyard (RB-4.5)"
                        + (" with its equipment" if before.equipment[p][i] else ""))
            drawn = len(before.decks[p]) - len(after.decks[p])
            if p == player:
                mine = Counter(after.hands[p]) - Counter(before.hands[p])
                if mine:
                    out.append("you drew " + ", ".join(names[c] for c in sorted(mine.elements())))
            elif drawn > 0:
                out.append(f"seat {p} drew {cards(drawn)}")
            grave = Counter(after.graveyards[p]) - Counter(before.graveyards[p]) - \
                Counter(removed)
            if grave:
                out.append(f"to {whose} graveyard: " + ", ".join(
                    self._grave_text(c, c == played and p == before.player)
                    for c in sorted(grave.elements())))
        if after.phase == END and before.phase != END:
            out.append(self.header(after))
        return out

    def _grave_text(self, c: int, played: bool) -> str:
        """A card that reached a graveyard this move: an explosive with what it does (RB-5.5);
        a card played this move that entered the table and was destroyed within it."""
        game = self.game
        k = game.kind[c]
        if k == EXPLOSIVE:
            return f"{game.names[c]} (explosive: {game.printed_dmg[c]} DMG to every opposing " \
                   "table card, RB-5.5)"
        if played and k != EQUIPMENT:
            return f"{game.names[c]} (played, then destroyed within the move)"
        return game.names[c]

    # -- the picture ----------------------------------------------------------------------------
    def _card_face(self, c: int, slot: int | None = None) -> CardFace:
        """A card in hand (``slot``: its number in the own hand, as ``play k`` names it): its
        name, kind / icon, printed HLT and DMG, points, its abilities in a few words."""
        game = self.game
        short = [short_ability(a) for a in game.db.cards[c].abilities]
        *stats, points = self.values_text(c).split(", ")
        return CardFace(("" if slot is None else f"{slot}: ") + game.names[c],
                        (f"{KINDS[game.kind[c]]}/{ICONS[game.icon[c]]}", " · ".join(stats),
                         points) + tuple(short), tone="plain")

    def _slot_face(self, s: RustBrawlState, p: int, j: int, marked: bool) -> CardFace:
        """Table position ``j`` of seat ``p``: the card with its HLT, DMG (boosts included),
        cover, paralysis and equipment; an empty position."""
        game = self.game
        c = s.table[p][j]
        if c < 0:
            return CardFace(f"{j + 1}: empty", tone="grey")
        stats = f"HLT {s.hlt[p][j]}/{s.max_hlt[p][j]}"
        if game.kind[c] in (CHARACTER, VEHICLE) or game.slot_dmg(s, p, j):
            stats += f" · DMG {game.slot_dmg(s, p, j)}"
        details = [f"{KINDS[game.kind[c]]}/{ICONS[game.icon[c]]}", stats]
        if s.cover[p][j]:
            details.append("cover")
        if s.paralysed_until[p][j]:
            details.append(f"paralysed to turn {s.paralysed_until[p][j]}")
        details += [f"+ {game.names[e]}" for e in s.equipment[p][j]]
        # one line an ability (a repeated one counted), so each stays readable in the box
        details += counted((short_ability(a) for x in (c, *s.equipment[p][j])
                            for a in game.db.cards[x].abilities), key=lambda _: 0)
        destroyed = s.hlt[p][j] <= 0
        return CardFace(f"{j + 1}: {game.names[c]}", tuple(details),
                        tone="grey" if destroyed else ("gold" if s.cover[p][j] else "plain"),
                        marked=marked)

    def table_view(self, state: RustBrawlState, player: int | None) -> Table:
        """The picture's content (``rgb_array``, RB-3.3): both tables (each position's card,
        HLT, DMG with boosts, cover, paralysis, equipment, its abilities in a few words
        (:func:`short_ability`); the acting position marked), both graveyards, the own hand
        (each card's kind, values and abilities; ``player=None``: both hands) and the other hand
        as a face-down count, deck sizes, the equipment being attached; with open decklists the
        opponent's unseen cards."""
        s, game = state, self.game
        names = game.names
        over = s.phase == END
        panels = []
        marked = (s.player, s.acting) if s.phase in (RANGED_TARGET, HEAL_TARGET) else None
        for p in range(NUM_SEATS):
            visible = player is None or p == player
            name = s.deck_names[p] if (visible or game.config.open_decklists) else "?"
            k = len(s.hands[p])
            hand = tuple(self._card_face(c, i if p == player else None)
                         for i, c in enumerate(s.hands[p])) if visible else \
                ((CardFace(cards(k), face_down=True),) if k else ())
            grave = counted(names[c] for c in s.graveyards[p]) or ["—"]
            panels.append(Panel(
                title=f"player {p}" + (" (you)" if p == player else "") + f" — deck {name}",
                lines=(f"deck {cards(len(s.decks[p]))} · hand {cards(k)}",
                       *split_list(f"graveyard ({len(s.graveyards[p])}): ", grave, 2)),
                rows=(CardRow("table", tuple(self._slot_face(s, p, j, marked == (p, j))
                                            for j in range(POSITIONS)), "positions 1–4"),
                      CardRow("hand", hand, cards(k) + ("\nplay k / discard k"
                                                        if p == player and k else ""))),
                active=s.player == p and not over))
        lines = [self.header(s, player)]
        if s.pending >= 0:
            lines += [f"equipment to attach: {names[s.pending]}", "", ""]
        elif game.config.open_decklists and player is not None:
            unseen = s.hands[1 - player] + s.decks[1 - player]
            lines += split_list(f"opponent's unseen cards ({len(unseen)}): ",
                                counted(names[c] for c in unseen), 3)
        else:
            lines += ["", "", ""]
        if over:
            status = "game over: " + ("draw" if s.winner < 0 else f"player {s.winner} wins") \
                + f" after {s.turn} turns ({s.end_reason})"
        else:
            status = (f"turn {s.turn} · phase {PHASES[s.phase].replace('_', ' ')} · to act: "
                      f"player {s.player}" + (" (you)" if s.player == player else ""))
        panels.append(Panel(title="the brawl", lines=tuple(lines), wide=True))
        return Table(title="Rust Brawl" + ("" if player is None
                                           else f" — the view of player {player}"),
                     status=status, panels=tuple(panels), card_size=(200, 156))
