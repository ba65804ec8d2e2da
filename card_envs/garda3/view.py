"""What a Garda3 seat is shown (:mod:`card_envs.core.view`): the text views, the picture's
content, the action descriptions and what each move did.

A seat sees every fighter with its bonuses and HP, its own hand, the other hands as counts, the
deck as a count, the public discard pile (G-4.9) and the battle's cards (a night card face down
until revealed, G-7.3). In a battle the view does the arithmetic a player would (G-4.3–G-4.8):
the attack and defence per direction with the fighters' bonuses, and the hits.

The battle's fighters come from :func:`battle_fighters`: while the defender chooses its fighter
(G-4.1) the battle is the round attacker's chosen fighter against the target, whatever the
previous battle's ``striker`` / ``blocker`` fields still hold.
"""

from __future__ import annotations

from card_envs.core.table import CardFace, CardRow, Panel, Table, cards
from card_envs.core.view import View
from card_envs.garda3.constants import (
    A_BONUS,
    A_CARD,
    A_RESURRECT,
    CARD_ATTACK_DIR,
    CARD_COLOUR,
    CARD_DEFENCE_DIR,
    CARD_VALUE,
    COLOURS,
    DIRECTIONS,
    HIGH,
    LOW,
    NUM_CARDS,
    PH_ATTACK_BONUS,
    PH_ATTACK_CARDS,
    PH_DEFENCE_BONUS,
    PH_DEFENCE_CARDS,
    PH_DEFENDER_FIGHTER,
    PH_DRAFT,
    PH_OVER,
    PH_TARGET,
    PHASES,
    battle_outcome,
    card_name,
)
from card_envs.garda3.state import Garda3State, blocker_slot, striker_slot

#: the phases in which a battle's cards are on the table
CARD_PHASES = (PH_ATTACK_CARDS, PH_ATTACK_BONUS, PH_DEFENCE_CARDS, PH_DEFENCE_BONUS)


def battle_fighters(state: Garda3State) -> tuple[int, int, int, int] | None:
    """``(striker seat, striker slot, blocker seat, blocker slot)`` of the battle being fought
    (or just fought, at the counter-attack choice), ``None`` when there is none (the draft, the
    target and the attacker's fighter choice, the end). While the defender chooses its fighter
    (G-4.1) the striker is the round attacker with its chosen fighter and the blocker the
    target, its slot ``-1`` (not chosen yet)."""
    s = state
    if s.phase == PH_DEFENDER_FIGHTER:
        return s.round_attacker, s.atk_slot, s.target, -1
    if s.phase in (PH_DRAFT, PH_TARGET, PH_OVER) or striker_slot(s) < 0:
        return None
    return s.striker, striker_slot(s), s.blocker, blocker_slot(s)


def _wrap(head: str, items: list[str], width: int = 100) -> str:
    """``head`` and ``items`` joined by ``", "`` in lines of at most ``width`` characters, broken
    between items only (continuation lines indented by 4); ``-`` for no items."""
    lines, line = [], head + (items[0] if items else "-")
    for item in items[1:]:
        if len(line) + 2 + len(item) > width:
            lines.append(line + ",")
            line = "    " + item
        else:
            line += ", " + item
    return "\n".join(lines + [line])


def _sum(values: list[int]) -> str:
    return " + ".join(str(v) for v in values)


class Garda3View(View):
    """The Garda3 view (module docstring)."""

    # -- small texts ----------------------------------------------------------------------------
    def fighter(self, state: Garda3State, seat: int, slot: int):
        """The :class:`~card_envs.garda3.cards.Fighter` in seat ``seat``'s ``slot``."""
        game = self.game
        return game.sets[game.set_of(seat)].fighters[state.fighters[seat][slot]]

    def fighter_text(self, state: Garda3State, seat: int, slot: int) -> str:
        """``"Obr (atk +0 def +0) HP 5/7"``; ``"eliminated"`` at 0 HP or less (G-4.10)."""
        f = self.fighter(state, seat, slot)
        hp = state.hp[seat][slot]
        return (f"{f.name} (atk +{f.attack_bonus} def +{f.defence_bonus}) "
                + (f"HP {hp}/{f.hp}" if hp > 0 else "eliminated"))

    def describe_action(self, state: Garda3State, piece: str, index: int) -> str | None:
        """The fighter, seat, card or side an action names (``"pick 3: Obr"``)."""
        game, seat = self.game, state.player
        if piece == "pick":
            return game.sets[game.set_of(seat) if seat >= 0 else 0].fighters[index].name
        if piece == "slot":
            if seat >= 0 and index < len(state.fighters[seat]):
                return game.sets[game.set_of(seat)].fighters[state.fighters[seat][index]].name
            return None
        if piece == "target":
            return f"player {(seat + index + 1) % game.num_players} ({index + 1} clockwise)"
        if piece == "card":
            return card_name(index)
        if piece == "bonus":
            return DIRECTIONS[index]
        return None

    def action_seen_by(self, state: Garda3State, action: int, player: int) -> str:
        """The action's name, but a night attack card another seat plays face down (G-7.3) is
        not named."""
        if (self.game.night and state.phase == PH_ATTACK_CARDS and player != state.player
                and A_CARD <= action < A_CARD + NUM_CARDS):
            return "card: played face down"
        return self.game.action_to_string(state, action)

    # -- the battle's arithmetic (G-4.3 – G-4.8) ------------------------------------------------
    def battle_lines(self, state: Garda3State, player: int | None) -> list[str]:
        """The attack, the defence and the hits of the battle on the table, each as a player
        would compute them (``[]`` outside :data:`CARD_PHASES`): per direction the card values,
        the fighter's bonus where it counts (G-4.3–G-4.7), and ``attack − defence`` per attacked
        direction (G-4.8). A night card hidden from ``player`` leaves the attack unknown."""
        s, game = state, self.game
        roles = battle_fighters(s)
        if s.phase not in CARD_PHASES or roles is None:
            return []
        striker, sslot, blocker, bslot = roles
        atk_bonus = self.fighter(s, striker, sslot).attack_bonus
        def_bonus = self.fighter(s, blocker, bslot).defence_bonus
        if player is not None and game.hidden_from(s, player):
            return [f"attack: 1 card face down (its direction shows when you have defended, "
                    f"G-7.3); attack bonus +{atk_bonus}",
                    "defence: " + self._defence_text(s, [], def_bonus)]
        attacking = s.phase in (PH_ATTACK_CARDS, PH_ATTACK_BONUS)
        lines = [("attack so far: " if s.phase == PH_ATTACK_CARDS else "attack: ")
                 + self._attack_text(s, atk_bonus)]
        if attacking:
            return lines
        attacked = [d for d in (HIGH, LOW) if any(CARD_ATTACK_DIR[c] == d for c in s.atk_cards)]
        lines.append(("defence so far: " if s.phase == PH_DEFENCE_CARDS else "defence: ")
                     + self._defence_text(s, attacked, def_bonus))
        attack, defence, damage = battle_outcome(s.atk_cards, s.atk_bonus, atk_bonus,
                                                 s.def_cards, s.def_bonus, def_bonus)
        if attacked:
            hits = "; ".join(f"{DIRECTIONS[d]} {attack[d]} − {defence[d]} = "
                             f"{max(0, attack[d] - defence[d])}" for d in attacked)
            pending = s.phase == PH_DEFENCE_BONUS
            lines.append(f"hits (G-4.8): {hits} → {damage} damage"
                         + (" (before the defence bonus is placed)" if pending else
                            " if the defence stays so" if s.phase == PH_DEFENCE_CARDS else ""))
        return lines

    def _attack_text(self, s: Garda3State, bonus: int) -> str:
        """``"3 atk-low ... → low 3 + 2 (attack bonus) = 5"``; two directions: each side and
        where the bonus goes (G-4.3–G-4.5)."""
        atk = s.atk_cards
        if not atk:
            return ("no card yet (no attack bonus)" if not bonus else
                    f"no card yet (the fighter's attack bonus +{bonus} will add to it)")
        names = ", ".join(card_name(c) for c in atk)
        by_dir = {d: [CARD_VALUE[c] for c in atk if CARD_ATTACK_DIR[c] == d] for d in (HIGH, LOW)}
        dirs = [d for d in (HIGH, LOW) if by_dir[d]]
        if len(dirs) == 1:
            d = dirs[0]
            total = sum(by_dir[d]) + bonus
            if not bonus:
                return (f"{names} → {DIRECTIONS[d]} {_sum(by_dir[d])}"
                        + (f" = {total}" if len(by_dir[d]) > 1 else "") + " (no attack bonus)")
            return f"{names} → {DIRECTIONS[d]} {_sum(by_dir[d])} + {bonus} (attack bonus) = {total}"
        parts = [f"{DIRECTIONS[d]} {sum(by_dir[d])}" for d in dirs]
        if bonus == 0:
            return f"{names} → {', '.join(parts)} (no attack bonus)"
        if s.atk_bonus < 0:
            return (f"{names} → {', '.join(parts)}; the attack bonus +{bonus} goes to the side "
                    "the attacker chooses (G-4.5)")
        side = s.atk_bonus
        parts = [f"{DIRECTIONS[d]} {sum(by_dir[d])}"
                 + (f" + {bonus} (attack bonus, G-4.5) = {sum(by_dir[d]) + bonus}"
                    if d == side else "") for d in dirs]
        return f"{names} → {', '.join(parts)}"

    def _defence_text(self, s: Garda3State, attacked: list[int], bonus: int) -> str:
        """The defence cards per direction and whether the defence bonus counts (G-4.6,
        G-4.7)."""
        dfc = s.def_cards
        if not dfc:
            if not bonus:
                return "no card yet (no defence bonus)"
            return f"no card yet (defence bonus +{bonus} counts in an attacked direction " \
                   "defended by a card, G-4.7)"
        names = ", ".join(card_name(c) for c in dfc)
        by_dir = {d: [CARD_VALUE[c] for c in dfc if CARD_DEFENCE_DIR[c] == d] for d in (HIGH, LOW)}
        eligible = [d for d in (HIGH, LOW) if by_dir[d] and d in attacked]
        side = -1
        if len(eligible) == 1:
            side = eligible[0]
        elif len(eligible) == 2 and s.def_bonus >= 0:
            side = s.def_bonus
        parts = []
        for d in (HIGH, LOW):
            if not by_dir[d]:
                continue
            text = f"{DIRECTIONS[d]} {_sum(by_dir[d])}"
            if d == side and bonus:
                text += f" + {bonus} (defence bonus) = {sum(by_dir[d]) + bonus}"
            elif len(by_dir[d]) > 1:
                text += f" = {sum(by_dir[d])}"
            if d not in attacked:
                text += " (not attacked: adds nothing)"
            parts.append(text)
        tail = ""
        if len(eligible) == 2 and s.def_bonus < 0 and bonus:
            tail = f"; the defence bonus +{bonus} goes to the side the defender chooses (G-4.6)"
        elif not eligible and bonus and attacked:
            tail = f"; the defence bonus +{bonus} does not count (G-4.7)"
        return f"{names} → {', '.join(parts)}{tail}"

    # -- text views -----------------------------------------------------------------------------
    def _round_text(self, s: Garda3State) -> str:
        if s.phase == PH_DRAFT:
            return "fighter draft (G-2.3)"
        if s.round_attacker < 0 or s.phase == PH_OVER:
            return f"round {s.round}"
        who = f"round {s.round}: player {s.round_attacker} attacks"
        return who + (f" player {s.target}" if s.target >= 0 else " (choosing whom)")

    def render(self, state: Garda3State) -> str:
        """The whole state as text (debugging): every hand."""
        s, game = state, self.game
        lines = [f"Garda3 {game.config.variant} | round {s.round} | phase {PHASES[s.phase]} | "
                 f"to act: {s.player} | deck {len(s.deck)} | discard {len(s.discard)}"]
        for p in range(game.num_players):
            fs = []
            for slot, k in enumerate(s.fighters[p]):
                f = game.sets[game.set_of(p)].fighters[k]
                fs.append(f"{f.name}(+{f.attack_bonus}/+{f.defence_bonus}) "
                          f"{max(s.hp[p][slot], 0)}/{f.hp}HP")
            hand = ", ".join(card_name(c) for c in sorted(s.hands[p]))
            lines.append(f"  player {p}: {' | '.join(fs) or '-'}\n    hand: {hand or '-'}")
        if s.atk_cards:
            lines.append("  attack: " + ", ".join(card_name(c) for c in s.atk_cards))
        if s.def_cards:
            lines.append("  defence: " + ", ".join(card_name(c) for c in s.def_cards))
        if s.phase == PH_OVER:
            lines.append("  result: " + ("draw (round cap)" if s.winner < 0
                                         else f"player {s.winner} wins"))
        return "\n".join(lines)

    def battle_text(self, state: Garda3State, player: int | None) -> str:
        """``"battle: player 1's Obr (...) HP 5/7 attacks player 0's ..."``; ``""`` without a
        battle."""
        s = state
        roles = battle_fighters(s)
        if roles is None:
            return ""
        striker, sslot, blocker, bslot = roles

        def whose(seat: int) -> str:
            return "your" if seat == player else f"player {seat}'s"

        text = (("counter-attack: " if s.counter else "battle: ") + whose(striker) + " "
                + self.fighter_text(s, striker, sslot) + " attacks ")
        if bslot >= 0:
            return text + whose(blocker) + " " + self.fighter_text(s, blocker, bslot)
        if blocker == player:
            return text + "you: choose your fighter (G-4.1)"
        return text + f"player {blocker}, who chooses a fighter (G-4.1)"

    def render_view(self, state: Garda3State, player: int) -> str:
        """Seat ``player``'s view: every seat's fighters (bonuses, HP), the draft pool, the own
        hand, the other hands as counts, the deck as a count, the battle (its fighters, cards and
        arithmetic, a face-down night card as such until revealed, G-7.3) and the public discard
        pile (G-4.9)."""
        s, game = state, self.game
        lines = [game.view_header(s, player),
                 f"  {game.config.variant} | {self._round_text(s)} | deck {cards(len(s.deck))}"]
        if s.phase == PH_DRAFT:
            fs = game.sets[game.set_of(s.player)]
            avail = s.available[game.set_of(s.player)]
            lines.append(_wrap("  draft pool: ", [
                f"{f.name} (atk +{f.attack_bonus} def +{f.defence_bonus} HP {f.hp})"
                for k, f in enumerate(fs.fighters) if avail[k]]))
        for p in range(game.num_players):
            fighters = " | ".join(self.fighter_text(s, p, k) for k in range(len(s.fighters[p])))
            hand = [card_name(c) for c in sorted(s.hands[p])] if p == player \
                else [cards(len(s.hands[p]))]
            lines.append(f"  player {p}{' (you)' if p == player else ''}: {fighters or '-'}")
            lines.append(_wrap("    hand: ", hand))
        battle = self.battle_text(s, player)
        if battle:
            lines.append("  " + battle)
            lines += ["    " + x for x in self.battle_lines(s, player)]
        lines.append(_wrap(f"  discard ({len(s.discard)}): ", [card_name(c) for c in s.discard]))
        if s.phase == PH_OVER:
            lines.append("  result: " + ("draw (round cap)" if s.winner < 0
                                         else f"player {s.winner} wins"))
        return "\n".join(lines)

    # -- what a move did ------------------------------------------------------------------------
    def effects_seen_by(self, before: Garda3State, action: int, after: Garda3State,
                        player: int) -> list[str]:
        """A resolved battle (its arithmetic, G-4.8), every fighter's HP change (eliminated,
        G-4.10; returned, G-7.2), a new round (the attacker, the cards drawn: the own by name,
        the others' as counts)."""
        game, out = self.game, []
        ph = before.phase
        same_battle = (after.round == before.round and after.counter == before.counter
                       and after.phase in CARD_PHASES)
        if ph in CARD_PHASES and action != A_RESURRECT and not same_battle:
            out.append(self._resolution(before, action))
        for p in range(game.num_players):
            for k in range(min(len(before.hp[p]), len(after.hp[p]))):
                a, b = before.hp[p][k], after.hp[p][k]
                if a == b:
                    continue
                name = self.fighter(after, p, k).name
                if b > a and a <= 0:
                    out.append(f"player {p}'s {name} returns with HP {b} (G-7.2)")
                else:
                    out.append(f"player {p}'s {name}: HP {a} → {b}"
                               + (" — eliminated (G-4.10)" if b <= 0 else ""))
        if after.round != before.round and after.phase != PH_OVER:
            out.append(self._round_text(after))
            mine = list(after.hands[player])
            for c in before.hands[player]:
                if c in mine:
                    mine.remove(c)
            if mine:
                out.append("you drew " + ", ".join(card_name(c) for c in sorted(mine)))
            for p in range(game.num_players):
                k = len(after.hands[p]) - len(before.hands[p])
                if p != player and k > 0:
                    out.append(f"player {p} drew {cards(k)}")
        if after.phase == PH_OVER and before.phase != PH_OVER:
            out.append("game over: " + ("draw (round cap)" if after.winner < 0
                                        else f"player {after.winner} wins"))
        return out

    def _resolution(self, before: Garda3State, action: int) -> str:
        """The battle of ``before`` as resolved after ``action`` (its last decision): the
        cards, each attacked direction's ``attack − defence`` and the damage (G-4.8)."""
        s = before
        atk, dfc = list(s.atk_cards), list(s.def_cards)
        atk_side, def_side = s.atk_bonus, s.def_bonus
        if A_CARD <= action < A_CARD + NUM_CARDS:
            (atk if s.phase == PH_ATTACK_CARDS else dfc).append(action - A_CARD)
        elif s.phase == PH_ATTACK_BONUS:
            atk_side = action - A_BONUS
        elif s.phase == PH_DEFENCE_BONUS:
            def_side = action - A_BONUS
        striker, sslot, blocker, bslot = battle_fighters(s)
        who = f"player {blocker}'s {self.fighter(s, blocker, bslot).name}"
        if not atk:
            return f"no attack: {who} takes no damage"
        attack, defence, damage = battle_outcome(
            atk, atk_side, self.fighter(s, striker, sslot).attack_bonus, dfc, def_side,
            self.fighter(s, blocker, bslot).defence_bonus)
        dirs = [d for d in (HIGH, LOW) if any(CARD_ATTACK_DIR[c] == d for c in atk)]
        hits = "; ".join(f"{DIRECTIONS[d]} {attack[d]} − {defence[d]}" for d in dirs)
        return (f"battle: attack {', '.join(card_name(c) for c in atk)} against defence "
                f"{', '.join(card_name(c) for c in dfc) or 'none'}: {hits} → {damage} damage "
                f"to {who}")

    # -- the picture ----------------------------------------------------------------------------
    def _battle_card(self, c: int) -> CardFace:
        arrows = ("↑", "↓")
        atk, dfc = CARD_ATTACK_DIR[c], CARD_DEFENCE_DIR[c]
        return CardFace(str(CARD_VALUE[c]), (f"{arrows[atk]} atk {DIRECTIONS[atk]}",
                                             f"{arrows[dfc]} def {DIRECTIONS[dfc]}",
                                             COLOURS[CARD_COLOUR[c]]),
                        tone=COLOURS[CARD_COLOUR[c]])

    def _fighter_card(self, state: Garda3State, seat: int, slot: int, marked: bool) -> CardFace:
        f = self.fighter(state, seat, slot)
        hp = state.hp[seat][slot]
        return CardFace(f.name, (f"atk +{f.attack_bonus}", f"def +{f.defence_bonus}",
                                 f"HP {hp}/{f.hp}" if hp > 0 else "eliminated"),
                        tone="gold" if hp > 0 else "grey", marked=marked)

    def table_view(self, state: Garda3State, player: int | None) -> Table:
        """The picture's content (``rgb_array``): per seat its guard (name, bonuses, HP; the
        fighters in battle, :func:`battle_fighters`, marked) and hand (the own, or every hand
        for ``player=None``; the others as a face-down count); the draft pool or the battle's
        attack and defence cards with the chosen bonus sides and the battle's arithmetic (a night
        card face down while hidden from ``player``, G-7.3); the public discard pile (G-4.9)."""
        s, game = state, self.game
        n = game.num_players
        over = s.phase == PH_OVER
        if over:
            status = ("game over: draw (round cap)" if s.winner < 0
                      else f"game over: player {s.winner} wins")
        else:
            status = (f"{self._round_text(s)} · phase {PHASES[s.phase].replace('_', ' ')} · to "
                      f"act: player {s.player}" + (" (you)" if s.player == player else ""))
        roles = battle_fighters(s)
        marked = set()
        if roles is not None:
            marked.add((roles[0], roles[1]))
            if roles[3] >= 0:
                marked.add((roles[2], roles[3]))
        panels = []
        for p in range(n):
            guard = tuple(self._fighter_card(s, p, k, (p, k) in marked)
                          for k in range(len(s.fighters[p])))
            k = len(s.hands[p])
            if player is None or p == player:
                hand = tuple(self._battle_card(c) for c in sorted(s.hands[p]))
            else:
                hand = (CardFace(cards(k), face_down=True),) if k else ()
            alive = sum(1 for h in s.hp[p] if h > 0)
            role = ""
            if not over and s.phase != PH_DRAFT and s.round_attacker == p and s.target >= 0:
                role = f" · attacks player {s.target} this round"
            panels.append(Panel(
                title=f"player {p}" + (" (you)" if p == player else ""),
                lines=(f"fighters alive {alive}/{len(s.fighters[p])} · hand {cards(k)}{role}",),
                rows=(CardRow("guard", guard, "" if guard else "none yet"),
                      CardRow("hand", hand, cards(k))),
                active=s.player == p and not over))
        sides = ("high", "low")
        lines = ["", "", "", ""]  # the battle, its attack, defence and hits: a fixed height
        if s.phase == PH_DRAFT:
            fs = game.sets[game.set_of(s.player)]
            avail = s.available[game.set_of(s.player)]
            pool = tuple(CardFace(f.name, (f"atk +{f.attack_bonus}", f"def +{f.defence_bonus}",
                                           f"HP {f.hp}"), tone="gold")
                         for j, f in enumerate(fs.fighters) if avail[j])
            first = CardRow("draft pool", pool, f"{len(pool)} left\nplayer {s.player} picks")
            second = CardRow("defence", (), "")
            lines[0] = "the draft: 3 fighters each, in turn (G-2.3)"
        else:
            if s.atk_cards and player is not None and game.hidden_from(s, player):
                atk = (CardFace("face down", face_down=True),)
            else:
                atk = tuple(self._battle_card(c) for c in s.atk_cards)
            bonus = f"bonus: {sides[s.atk_bonus]}" if s.atk_bonus >= 0 else ""
            first = CardRow("attack", atk, "\n".join(
                x for x in (f"player {roles[0]}" if roles else "", bonus) if x))
            bonus = f"bonus: {sides[s.def_bonus]}" if s.def_bonus >= 0 else ""
            second = CardRow("defence", tuple(self._battle_card(c) for c in s.def_cards),
                             "\n".join(x for x in (f"player {roles[2]}" if roles else "", bonus)
                                       if x))
            if roles is not None:
                lines[0] = self.battle_text(s, player)
                for i, x in enumerate(self.battle_lines(s, player)):
                    lines[1 + i] = x
            elif over:
                lines[0] = "the game is over"
            else:
                lines[0] = "between battles"
        discard = CardRow("discard", tuple(self._battle_card(c) for c in s.discard),
                          f"{cards(len(s.discard))}\npublic (G-4.9)")
        panels.append(Panel(title=f"table · deck {cards(len(s.deck))}", lines=tuple(lines),
                            rows=(first, second, discard), wide=True))
        return Table(title=f"Garda3 — {game.config.variant}"
                     + ("" if player is None else f" — the view of player {player}"),
                     status=status, panels=tuple(panels), columns=n,
                     card_size=(92, 124) if n == 2 else (80, 116))
