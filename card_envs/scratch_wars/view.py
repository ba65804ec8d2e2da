"""What a Scratch Wars seat is shown (:mod:`card_envs.core.view`): the text views, the
picture's content, the action descriptions and what each move did.

Nothing is hidden in Scratch Wars, so both seats read the same table (``render``) but for
``(you)``: each hero's HP, energy and bonuses of the time of day (SW-4.2, SW-5.1), each weapon
with its status, spin cost, durability and its whole wheel (the 9 segments, each an effect, a
value and a field colour, SW-1.2, SW-3.2; identical segments counted, ``×2``), the last spin, the
spun result waiting for a decision and the attack being resolved.
"""

from __future__ import annotations

from collections import Counter

from card_envs.core.table import CardFace, CardRow, Panel, Table
from card_envs.core.view import View
from card_envs.scratch_wars.constants import (
    A_CANCEL,
    A_DETONATE,
    A_INIT_WEAPON,
    A_REPAIR,
    A_SHIELD,
    A_SPIN,
    BONUS_EFFECTS,
    BROKEN,
    COLOURS,
    EFFECTS,
    PH_BONUS,
    PH_DETONATE,
    PH_INIT_ORDER,
    PH_INIT_WEAPON,
    PH_MAIN,
    PH_OVER,
    PH_RESULT,
    PH_SHIELD,
    PH_TARGET,
    READY,
    REPAIRING,
    STATUS_NAMES,
    STORABLE,
    STORED,
    TIMES_OF_DAY,
    WEAPON_TYPES,
)
from card_envs.scratch_wars.state import ScratchWarsState, day, time_of_day

#: the effect icons (and the special bonuses, SW-6) in words, by effect code
EFFECT_WORDS = ("energy", "hero attack", "weapon attack", "universal attack", "heal",
                "permanent attack", "shield", "combo", "blessing", "combo bonus", "detonator")
#: the effects on a weapon's card box of the picture (narrow)
EFFECT_SHORT = ("energy", "hero atk", "weapon atk", "universal", "heal", "permanent", "shield",
                "combo")
#: the field colours' rule (SW-3.2)
COLOUR_RULES = "green: applied, go on; orange: apply it and end the turn, or decline it and go " \
               "on; red: applied, the turn ends (SW-3.2)"


class ScratchWarsView(View):
    """The Scratch Wars view (module docstring)."""

    # -- small texts ----------------------------------------------------------------------------
    def segment_text(self, weapon, seg) -> str:
        """``"weapon attack 6 red"``; a storable effect with its durability when it is not the
        weapon's (SW-5.10)."""
        text = f"{EFFECT_WORDS[seg.effect]} {seg.value} {COLOURS[seg.colour]}"
        if seg.effect in STORABLE and seg.durability != weapon.durability:
            text += f" (durability {seg.durability})"
        return text

    def wheel_text(self, weapon) -> str:
        """The 9 segments in wheel order, identical ones counted (``"hero attack 2 orange
        ×2"``): each lands with probability 1/9 (SW-1.3)."""
        texts = [self.segment_text(weapon, seg) for seg in weapon.segments]
        counts = Counter(texts)
        return ", ".join(t + (f" ×{counts[t]}" if counts[t] > 1 else "")
                         for t in dict.fromkeys(texts))

    def weapon_line(self, s: ScratchWarsState, p: int, k: int) -> str:
        """``"0 Reed Bow: ready · bow (trained), spin cost 1, durability 3"``."""
        game = self.game
        weapon = game.weapon(s, p, k)
        slot = s.weapon_slots[p][k]
        status = STATUS_NAMES[slot.status]
        if slot.status == STORED:
            e = slot.stored
            status = (f"stores {EFFECT_WORDS[e.effect]} {e.value} (durability {e.durability}"
                      + (", stored this turn" if e.stored_this_turn else "") + ")")
        elif slot.status == REPAIRING:
            status = "repairing (ready at its owner's next turn, SW-5.9)"
        trained = weapon.type in game.hero(s, p).trained
        facts = [f"{WEAPON_TYPES[weapon.type]}" + ("" if trained else " (untrained)")]
        if game.uses_energy:
            cost = game.spin_cost(s, p, k)
            facts.append(f"spin cost {cost}" + ("" if trained or cost == weapon.cost else
                                                f" ({weapon.cost} + {cost - weapon.cost} "
                                                "untrained, SW-5.2)"))
        facts.append(f"durability {weapon.durability}")
        return f"{k} {weapon.name}: {status} · {', '.join(facts)}"

    def bonus_text(self, s: ScratchWarsState, p: int) -> str:
        """The hero's bonuses of the time of day (SW-4.2), ``(used)`` once used this turn."""
        game = self.game
        if not game.uses_bonuses:
            return "no hero bonuses at level 1"
        tod = TIMES_OF_DAY[time_of_day(s)]
        offered = [f"{EFFECT_WORDS[b.effect]} {b.value:+d}" + (" (used)" if s.bonus_used[p][j]
                                                               else "")
                   for j, b in enumerate(game.bonuses(s, p))]
        return f"bonuses at {tod}: " + (", ".join(offered) or "none")

    def _status(self, s: ScratchWarsState) -> str:
        game = self.game
        tod = f", {TIMES_OF_DAY[time_of_day(s)]}" if game.uses_bonuses else ""
        text = f"round {s.round + 1} (day {day(s)}{tod})"
        if s.turn >= 0 and s.phase != PH_OVER:
            text += f" · turn of seat {s.turn}: {s.actions_left} action{'' if s.actions_left == 1 else 's'} left"
        return text

    # -- moves ----------------------------------------------------------------------------------
    def describe_action(self, state: ScratchWarsState, piece: str, index: int) -> str | None:
        """The weapon an action names (the deciding seat's; the defender's for a target), or
        the bonus (``"hero_attack +2"``)."""
        game, p = self.game, state.player
        if piece == "bonus" and p >= 0:
            bonuses = game.bonuses(state, p)
            return (f"{BONUS_EFFECTS[bonuses[index].effect]} {bonuses[index].value:+d}"
                    if index < len(bonuses) else None)
        if piece in ("target_weapon", "target_effect") and state.attack is not None:
            p = 1 - state.attack.attacker
        elif piece not in ("init_weapon", "spin", "repair", "cancel", "shield") or p < 0:
            return None
        names = state.weapon_names[p]
        return names[index] if index < len(names) else None

    def action_seen_by(self, state: ScratchWarsState, action: int, player: int) -> str:
        """The action's name; a target of another seat's attack names whose weapon it is
        (``"target_weapon 1: your Ember Sword"``). Nothing is hidden in Scratch Wars."""
        text = self.game.action_to_string(state, action)
        name, _, detail = text.partition(": ")
        if (detail and player != state.player and state.attack is not None
                and name.startswith(("target_weapon", "target_effect"))
                and player == 1 - state.attack.attacker):
            return f"{name}: your {detail}"
        return text

    # -- text views -----------------------------------------------------------------------------
    def table_text(self, state: ScratchWarsState, player: int | None) -> str:
        """The table as text, the same for every seat but its ``(you)`` (nothing is hidden): the
        module docstring lists what it holds."""
        s, game = state, self.game
        mode = {"full": "full effects", "attack_only": "every result attacks the hero"}
        lines = [f"  level {game.level} ({mode.get(game.mode, game.mode)}) · {self._status(s)}"]
        for p in (0, 1):
            hero = game.hero(s, p)
            facts = [f"HP {s.hp[p]}/{hero.hp}"]
            if game.uses_energy:
                facts.append(f"energy {s.energy[p]} (+{hero.energy[time_of_day(s)]} at the "
                             f"start of a turn at {TIMES_OF_DAY[time_of_day(s)]})")
            trained = ", ".join(WEAPON_TYPES[t] for t in sorted(hero.trained))
            lines.append(f"  seat {p}{' (you)' if p == player else ''}: {hero.name} · "
                         + " · ".join(facts) + f" · trained in {trained}")
            lines.append(f"    {self.bonus_text(s, p)}")
            for k in range(len(s.weapon_names[p])):
                lines.append(f"    {self.weapon_line(s, p, k)}")
                lines.append(f"        wheel: {self.wheel_text(game.weapon(s, p, k))}")
        lines += [f"  {x}" for x in self.spin_lines(s, player)]
        lines.append(f"  field colours: {COLOUR_RULES}")
        if s.phase == PH_OVER:
            lines.append("  " + self._result(s))
        return "\n".join(lines)

    def _result(self, s: ScratchWarsState) -> str:
        return ("result: truncated at the round cap (a draw)" if s.truncated else
                "result: a draw" if s.winner == 2 else f"result: seat {s.winner} wins")

    def spin_lines(self, s: ScratchWarsState, player: int | None) -> list[str]:
        """The last spin, the spun result waiting for a decision (SW-3.2), the attack being
        resolved (SW-5.5 … SW-5.13) or the initiative (SW-2.2)."""
        game, out = self.game, []

        def whose(p: int) -> str:
            return "your" if p == player else f"seat {p}'s"

        if s.last_spin is not None:
            sp = s.last_spin
            seg = game.segment(s, sp.seat, sp.slot, sp.segment)
            weapon = game.weapon(s, sp.seat, sp.slot)
            out.append(f"last spin: {whose(sp.seat)} {weapon.name} landed on segment "
                       f"{sp.segment}: {self.segment_text(weapon, seg)}")
        decision = self.decision_text(s, player)
        if decision:
            out.append(decision)
        if s.attack is not None:
            at = s.attack
            if at.target == "hero":
                target = f"{whose(1 - at.attacker)} hero"
            elif at.target is None:
                target = "a target still to choose"
            else:
                weapon = game.weapon(s, 1 - at.attacker, at.target_slot)
                target = (f"{whose(1 - at.attacker)} {weapon.name}"
                          + (" (its stored effect)" if at.target == "stored_effect" else ""))
            out.append(f"attack: {whose(at.attacker)} {at.kind} attack {at.value} "
                       f"({at.source}) on {target}"
                       + (f", shields block {at.shielded}" if at.shielded else ""))
        elif s.phase in (PH_INIT_WEAPON, PH_INIT_ORDER):
            chosen = ", ".join(
                f"seat {p}: " + (s.weapon_names[p][s.initiative_slot[p]]
                                 if s.initiative_slot[p] >= 0 else "—")
                + (f" = {s.initiative_value[p]}" if s.initiative_value[p] >= 0 else "")
                for p in (0, 1))
            out.append(f"initiative (SW-2.2: the higher spin decides who starts; the starter "
                       f"loses {game.config.start_penalty} HP): {chosen}")
        return out

    def decision_text(self, s: ScratchWarsState, player: int | None) -> str:
        """What the seat to act decides now, in words (``""`` once over)."""
        game, actor = self.game, s.player
        who = "you" if actor == player else f"seat {actor}"
        if s.phase == PH_INIT_ORDER:
            return (f"to decide ({who}, the initiative's winner, SW-2.2): init_order 0 = seat "
                    f"{actor} starts, init_order 1 = seat {1 - actor} starts; the starter loses "
                    f"{game.config.start_penalty} HP at once")
        if s.phase == PH_MAIN:
            return (f"to decide ({who}): spin a ready weapon (an action and its spin cost, "
                    "SW-3.1), repair a broken one (SW-5.9), cancel a stored effect (free, "
                    "SW-5.10)" + (" or end the turn (SW-5.3)" if game.uses_energy else ""))
        if s.phase == PH_RESULT and s.spin_result is not None:
            r = s.spin_result
            return (f"to decide ({who}, SW-3.2): the result {EFFECT_WORDS[r.effect]} {r.value} "
                    f"({COLOURS[r.colour]}): apply it or decline it")
        if s.phase == PH_BONUS:
            return f"to decide ({who}, SW-4.2): add one of the offered hero bonuses, or none"
        if s.phase == PH_TARGET:
            return f"to decide ({who}, SW-5.6, SW-5.7): the target of the attack"
        if s.phase == PH_SHIELD:
            return (f"to decide ({who}, SW-5.12): use a stored shield against the attack (it "
                    "blocks its value), one at a time, or shield_done")
        if s.phase == PH_DETONATE:
            return (f"to decide ({who}, SW-5.13): detonate the stored combos (their values add "
                    "up to one attack) or keep them")
        return ""

    def render(self, state: ScratchWarsState) -> str:
        """The whole table as text (:meth:`table_text` without a viewing seat)."""
        return "Scratch Wars\n" + self.table_text(state, None)

    def render_view(self, state: ScratchWarsState, player: int) -> str:
        """Seat ``player``'s view: the header, then the table (:meth:`table_text`; nothing is
        hidden, so it differs from the other seat's only by ``(you)``)."""
        return self.game.view_header(state, player) + "\n" + self.table_text(state, player)

    # -- what a move did ------------------------------------------------------------------------
    def effects_seen_by(self, before: ScratchWarsState, action: int, after: ScratchWarsState,
                        player: int) -> list[str]:
        """Every spin (its weapon and segment; the initiative's two spins), HP and energy
        changes, weapons broken, repaired, storing or releasing an effect, bonuses used, a new
        turn, the end of the game."""
        game, out = self.game, []

        def whose(p: int) -> str:
            return "your" if p == player else f"seat {p}'s"

        if before.phase == PH_INIT_WEAPON and before.player == 1:  # both wheels spin (SW-2.2)
            slots = [before.initiative_slot[0], action - A_INIT_WEAPON]
            spun = ", ".join(f"{whose(p)} {before.weapon_names[p][slots[p]]} "
                             f"{after.initiative_value[p]}" for p in (0, 1))
            out.append(f"initiative spins (SW-2.2): {spun} → "
                       + (f"seat {after.player} decides who starts"
                          if after.phase == PH_INIT_ORDER else "a tie: both spin again"))
        elif before.phase == PH_MAIN and A_SPIN <= action < A_REPAIR:  # a spin (SW-3.1)
            sp = after.last_spin
            seg = game.segment(after, sp.seat, sp.slot, sp.segment)
            weapon = game.weapon(after, sp.seat, sp.slot)
            out.append(f"{whose(sp.seat)} {weapon.name} landed on segment {sp.segment}: "
                       f"{self.segment_text(weapon, seg)}")
        at = after.attack
        if at is not None and (before.attack is None or before.attack.source != at.source
                               or before.attack.value != at.value or
                               before.attack.attacker != at.attacker):
            out.append(f"{whose(at.attacker)} {at.kind} attack {at.value} ({at.source})"
                       + (" on the hero" if at.target == "hero" else ""))
        energy = []
        for p in (0, 1):
            if after.hp[p] != before.hp[p]:
                out.append(f"{whose(p)} hero: HP {before.hp[p]} → {after.hp[p]}")
            if game.uses_energy and after.energy[p] != before.energy[p]:
                energy.append(f"{whose(p)} energy {before.energy[p]} → {after.energy[p]}")
            for k, name in enumerate(after.weapon_names[p]):
                a, b = before.weapon_slots[p][k], after.weapon_slots[p][k]
                if a == b or (a.status == b.status == STORED and a.stored.effect ==
                              b.stored.effect and a.stored.value == b.stored.value):
                    continue
                if b.status == STORED:
                    what = f"stores {EFFECT_WORDS[b.stored.effect]} {b.stored.value}"
                elif b.status == BROKEN:
                    what = "broken (SW-5.6)"
                elif a.status == STORED and b.status == READY:
                    own = p == before.player
                    how = ("detonated (SW-5.13)" if own and action == A_DETONATE else
                           "used against the attack (SW-5.12)" if own and action == A_SHIELD + k
                           and before.phase == PH_SHIELD else
                           "cancelled by its owner (SW-5.10)" if own and action == A_CANCEL + k
                           and before.phase == PH_MAIN else "cancelled by the attack (SW-5.6)")
                    what = (f"its {EFFECT_WORDS[a.stored.effect]} {a.stored.value} is {how}, "
                            "the weapon is ready again")
                else:
                    what = STATUS_NAMES[b.status]
                out.append(f"{whose(p)} {name}: {what}")
            used = [j for j in range(len(after.bonus_used[p]))
                    if after.bonus_used[p][j] and not before.bonus_used[p][j]]
            if used and after.turn == before.turn:
                bonuses = game.bonuses(after, p)
                out += [f"{whose(p)} bonus {EFFECT_WORDS[bonuses[j].effect]} "
                        f"{bonuses[j].value:+d} used" for j in used if j < len(bonuses)]
        if after.turn != before.turn and after.turn >= 0 and after.phase != PH_OVER:
            out.append(f"{whose(after.turn)} turn: {self._status(after)}")
        out += energy  # spent on spins and repairs (SW-5.2), gained at a turn's start (SW-5.1)
        if after.phase == PH_OVER and before.phase != PH_OVER:
            out.append(self._result(after))
        return out

    # -- the picture ----------------------------------------------------------------------------
    def table_view(self, state: ScratchWarsState, player: int | None) -> Table:
        """The picture's content (``rgb_array``; nothing is hidden, so every seat sees the
        same but its ``(you)``): per seat the hero (HP, energy at level 3), the weapons with
        their status, cost (level 3), stored effect (SW-5.10) and wheel (the 9 segments in
        order: index, value, effect, colour initial G / O / R), the hero bonuses of the time of day and whether they
        are used (levels 2–3, SW-4.2); the last spin's segment (SW-3.2), the attack being
        resolved and the initiative."""
        s, game = state, self.game
        over = s.phase == PH_OVER
        if over:
            status = ("game over: truncated (draw)" if s.truncated else
                      "game over: draw" if s.winner == 2 else
                      f"game over: player {s.winner} wins")
        else:
            status = (f"{self._status(s)} · phase {game.phase_name(s)} · to act: player "
                      f"{s.player}" + (" (you)" if s.player == player else ""))
        spun = (s.last_spin.seat, s.last_spin.slot) if s.last_spin is not None else None
        tones = {READY: "plain", BROKEN: "red", REPAIRING: "orange", STORED: "blue"}
        panels = []
        for p in (0, 1):
            hero = game.hero(s, p)
            weapons = []
            for k, name in enumerate(s.weapon_names[p]):
                slot = s.weapon_slots[p][k]
                weapon = game.weapon(s, p, k)
                details = [STATUS_NAMES[slot.status]]
                if slot.status == STORED:
                    details[0] = (f"{EFFECTS[slot.stored.effect]} {slot.stored.value} "
                                  f"(dur {slot.stored.durability})")
                cost = f"cost {game.spin_cost(s, p, k)} · " if game.uses_energy else ""
                details.append(f"{cost}durability {weapon.durability}")
                details += [f"{i}: {seg.value} {EFFECT_SHORT[seg.effect]} "
                            f"{COLOURS[seg.colour][0].upper()}"
                            for i, seg in enumerate(weapon.segments)]
                weapons.append(CardFace(name, tuple(details), tone=tones.get(slot.status, "grey"),
                                        marked=spun == (p, k)))
            facts = f"HP {s.hp[p]}/{hero.hp}" + (f" · energy {s.energy[p]}"
                                                 if game.uses_energy else "")
            panels.append(Panel(
                title=f"player {p}{' (you)' if p == player else ''}: {hero.name}",
                lines=(facts, self.bonus_text(s, p)),
                rows=(CardRow("weapons", tuple(weapons), f"{len(weapons)} weapons"),),
                active=s.player == p and not over))
        lines = [x for x in self.spin_lines(s, player) if not x.startswith("to decide")]
        lines += [""] * (3 - len(lines))  # at most 3: a fixed height
        spin_row: tuple[CardFace, ...] = ()
        if s.last_spin is not None:
            sp = s.last_spin
            seg = game.segment(s, sp.seat, sp.slot, sp.segment)
            spin_row = (CardFace(str(seg.value), (EFFECT_WORDS[seg.effect], COLOURS[seg.colour],
                                                  f"segment {sp.segment}"),
                                 tone=COLOURS[seg.colour]),)
        panels.append(Panel(title="the wheel", lines=tuple(lines),
                            rows=(CardRow("last spin", spin_row, ""),), wide=True))
        return Table(title=f"Scratch Wars — level {game.level} ({game.mode})"
                     + ("" if player is None else f" — the view of player {player}"),
                     status=status, panels=tuple(panels), columns=1, card_size=(150, 236),
                     notes=("wheel colours (SW-3.2): G green = applied, go on · O orange = apply "
                            "it and end the turn, or decline it and go on · R red = applied, the "
                            "turn ends",))
