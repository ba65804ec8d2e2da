"""Garda3 rules (G-1 … G-7) on the core contract (:mod:`card_envs.core.game`).

A turn is a sequence of small decisions (pick a fighter, play a card, play a second card or
stop, choose the bonus side, counter-attack or not...); the action ids are the ranges of
:data:`card_envs.garda3.constants.ACTIONS`. The state is
:class:`~card_envs.garda3.state.Garda3State`; :meth:`Garda3Game.check_state` runs
:func:`card_envs.garda3.state.check_state` (wired as ``state_checks`` by convention:
:mod:`card_envs.core.wiring`).
"""

from __future__ import annotations

import random
from typing import Any

from card_envs.core.config import config_from_kwargs
from card_envs.core.game import GameBase, lead
from card_envs.core.rng import make_rng
from card_envs.garda3.cards import FighterSet, resolve_fighter_set
from card_envs.garda3.config import Garda3Config
from card_envs.garda3.constants import (
    A_BONUS,
    A_CARD,
    A_COUNTER,
    A_DECLINE,
    A_DONE,
    A_PICK,
    A_RESURRECT,
    A_SLOT,
    A_TARGET,
    CARD_ATTACK_DIR,
    CARD_COLOUR,
    CARD_DEFENCE_DIR,
    HIGH,
    LOW,
    NUM_CARDS,
    PH_ATTACK_BONUS,
    PH_ATTACK_CARDS,
    PH_ATTACKER_FIGHTER,
    PH_COUNTER_CHOICE,
    PH_DEFENCE_BONUS,
    PH_DEFENCE_CARDS,
    PH_DEFENDER_FIGHTER,
    PH_DRAFT,
    PH_OVER,
    PH_RESURRECT_CHOICE,
    PH_TARGET,
    PIEBALD,
    battle_outcome,
)
from card_envs.garda3.state import Garda3State, blocker_slot, striker_slot


def make_game(**config: Any) -> Garda3Game:
    """Build a Garda3 game from :class:`Garda3Config` keyword fields (ConfigError on bad ones)."""
    return Garda3Game(config_from_kwargs(Garda3Config, config))


class Garda3Game(GameBase[Garda3State]):
    """The Garda3 ``Game`` (contract: :mod:`card_envs.core.game`)."""

    name = "garda3"
    version = 1
    max_game_length = 20_000
    # -- declared facts (card_envs.core.game.GameFacts) --
    # G-7.4: +1 the winner, -1 the loser (-1/2 each in free_for_all)
    min_utility, max_utility, utility = -1.0, 1.0, "win/loss"
    zero_sum = True
    chance = True  # shuffled decks (G-3.1)
    provides_potential = provides_lookahead_horizon = True

    def __init__(self, config: Garda3Config | None = None):
        self.config = config or Garda3Config()
        cfg = self.config
        self.num_players = cfg.num_players
        self.royale = "royale" in cfg.flags
        self.night = "night" in cfg.flags
        self.resurrection = "resurrection" in cfg.flags
        self.ffa = "free_for_all" in cfg.flags
        shared = resolve_fighter_set(cfg.fighter_set)
        if cfg.fighter_selection == "own_sets":
            own = cfg.own_fighter_sets or [shared] * self.num_players
            self.sets: list[FighterSet] = [resolve_fighter_set(s) for s in own]
        else:
            self.sets = [shared]
        # per set: (attack_bonus, defence_bonus, hp) for each of its 9 fighters
        self.stats = [[(f.attack_bonus, f.defence_bonus, f.hp) for f in s.fighters]
                      for s in self.sets]
        # colour pairing table (G-1.5)
        wild = cfg.piebald_is_wild
        self._pairs = [[a == b or (wild and (a == PIEBALD or b == PIEBALD)) for b in range(3)]
                       for a in range(3)]

    # -- helpers --------------------------------------------------------------------------------
    def set_of(self, seat: int) -> int:
        """Index into ``self.sets`` of the set seat ``seat`` drafts from / fights with."""
        return seat if len(self.sets) > 1 else 0

    def fighter_stats(self, state: Garda3State, seat: int, slot: int) -> tuple[int, int, int]:
        """``(attack_bonus, defence_bonus, max_hp)`` of seat's fighter in ``slot``."""
        return self.stats[self.set_of(seat)][state.fighters[seat][slot]]

    def has_fighters(self, state: Garda3State, seat: int) -> bool:
        return any(h > 0 for h in state.hp[seat])

    def pairs(self, c1: int, c2: int) -> bool:
        """Two cards may be played together (same colour, G-1.5 / ``piebald_is_wild``)."""
        return self._pairs[CARD_COLOUR[c1]][CARD_COLOUR[c2]]

    # -- contract -------------------------------------------------------------------------------
    def new_state(self, seed: int) -> Garda3State:
        """Shuffle, choose the starting player by lot (G-2.2), start the fighter selection."""
        n = self.num_players
        rng = make_rng(seed)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        first = rng.randrange(n)
        s = Garda3State(
            rng=rng, phase=PH_DRAFT, player=first, round=0, first_player=first, deck=deck,
            discard=[], hands=[[] for _ in range(n)], fighters=[[] for _ in range(n)],
            hp=[[] for _ in range(n)], available=[[True] * 9 for _ in self.sets],
            draft_order=[(first + i) % n for i in range(3 * n)], draft_pos=0,
            round_attacker=-1, target=-1, striker=-1, blocker=-1, atk_slot=-1, def_slot=-1,
            counter=False, resurrected=False, atk_cards=[], def_cards=[], atk_bonus=-1,
            def_bonus=-1, revealed=False, winner=-1, truncated=False)
        if self.config.fighter_selection == "random":  # G-2.3 blind random selection
            pool = list(range(9))
            rng.shuffle(pool)
            for seat in s.draft_order:
                k = pool.pop()
                s.available[0][k] = False
                s.fighters[seat].append(k)
                s.hp[seat].append(self.stats[0][k][2])
            s.draft_pos = len(s.draft_order)
            self._start_round(s)
        return s

    # -- optional hooks: reward shaping and decision-time lookahead ----------------------------
    def potential(self, state: Garda3State, player: int) -> float:
        """``player``'s material lead, float in [-1, 1]: each living fighter counts its HP plus 3
        (G-4.10: a fighter at 0 HP or less counts nothing), own total minus the opponents' mean,
        over 30 (3 fighters × (7 HP + 3)). Used by potential-based reward shaping and as the
        leaf score of :class:`card_envs.bots.lookahead.LookaheadPolicy`."""
        return lead([sum(h + 3 for h in hp if h > 0) for hp in state.hp], player, 30.0)

    def lookahead_horizon(self, state: Garda3State) -> int | None:
        """The round number while a battle decision is taken (fighters, cards, bonuses, counter,
        resurrection; a lookahead plays to the end of the round, G-3.2), ``None`` during the draft
        and the free-for-all target choice (their effect shows only after the round)."""
        if state.phase in (PH_DRAFT, PH_TARGET, PH_OVER):
            return None
        return state.round

    def is_truncated(self, state: Garda3State) -> bool:
        return state.truncated

    def returns(self, state: Garda3State) -> list[float]:
        """2 players: +1 / −1; free_for_all: +1 winner, −1/2 others (G-7.4); 0 mid-game and on
        truncation (G-6.2)."""
        n = self.num_players
        if state.winner < 0:
            return [0.0] * n
        lose = -1.0 / (n - 1)
        return [1.0 if p == state.winner else lose for p in range(n)]

    def _legal_actions(self, s: Garda3State) -> list[int]:
        ph = s.phase
        if ph == PH_DRAFT:
            avail = s.available[self.set_of(s.player)]
            return [A_PICK + k for k in range(9) if avail[k]]
        if ph == PH_TARGET:
            n = self.num_players
            return [A_TARGET + d - 1 for d in range(1, n) if self.has_fighters(s, (s.player + d) % n)]
        if ph == PH_ATTACKER_FIGHTER or ph == PH_DEFENDER_FIGHTER:
            return [A_SLOT + k for k, h in enumerate(s.hp[s.player]) if h > 0]
        if ph == PH_RESURRECT_CHOICE:
            return [A_SLOT + k for k, h in enumerate(s.hp[s.player]) if h <= 0]
        if ph == PH_ATTACK_CARDS or ph == PH_DEFENCE_CARDS:
            hand = s.hands[s.player]
            attack = ph == PH_ATTACK_CARDS
            played = s.atk_cards if attack else s.def_cards
            if not played:
                acts = sorted(A_CARD + c for c in hand)
                if attack:
                    if not self.config.attacker_must_play:
                        acts.append(A_DONE)  # G-4.2 DECISION: pass the attack
                    if self._can_resurrect(s):
                        acts.append(A_RESURRECT)  # G-7.2 (after A_DONE: the list stays sorted)
                elif self.config.allow_empty_defence:
                    acts.append(A_DONE)  # G-4.6 DECISION: an empty defence
                return acts
            first = played[0]
            acts = sorted(A_CARD + c for c in hand if self.may_follow(s, first, c))
            acts.append(A_DONE)
            return acts
        if ph == PH_ATTACK_BONUS or ph == PH_DEFENCE_BONUS:
            return [A_BONUS + HIGH, A_BONUS + LOW]
        if ph == PH_COUNTER_CHOICE:
            return [A_COUNTER, A_DECLINE] if self.config.counter_attack_optional else [A_COUNTER]
        return []

    def may_follow(self, state: Garda3State, first: int, card: int) -> bool:
        """Whether ``card`` may join ``first`` as the second card of the play being made (the
        attack in ``attack_cards``, the defence otherwise): the same colour (G-1.5,
        ``piebald_is_wild``) and, for a defence under ``split_defence_needs_split_attack``, the
        same defence direction unless the attack comes from both directions (G-4.6 DECISION)."""
        if not self._pairs[CARD_COLOUR[first]][CARD_COLOUR[card]]:
            return False
        if state.phase == PH_ATTACK_CARDS or not self.config.split_defence_needs_split_attack:
            return True
        return CARD_DEFENCE_DIR[first] == CARD_DEFENCE_DIR[card] or self.split_attack(state)

    @staticmethod
    def split_attack(state: Garda3State) -> bool:
        """The current attack comes from both directions (two cards, G-4.5)."""
        atk = state.atk_cards
        return len(atk) == 2 and CARD_ATTACK_DIR[atk[0]] != CARD_ATTACK_DIR[atk[1]]

    def _can_resurrect(self, s: Garda3State) -> bool:
        """G-7.2: main attack (not a counter), 3 cards of one colour, an eliminated fighter."""
        if not self.resurrection or s.counter:
            return False
        if all(h > 0 for h in s.hp[s.player]):
            return False
        counts = [0, 0, 0]
        for c in s.hands[s.player]:
            counts[CARD_COLOUR[c]] += 1
        return max(counts) >= 3

    def _apply_action(self, s: Garda3State, action: int) -> None:
        """The transition of one legal ``action`` (checked by the core) for ``s.player``."""
        ph = s.phase
        if ph == PH_DRAFT:
            seat = s.player
            k = action - A_PICK
            si = self.set_of(seat)
            s.available[si][k] = False
            s.fighters[seat].append(k)
            s.hp[seat].append(self.stats[si][k][2])
            s.draft_pos += 1
            if s.draft_pos < len(s.draft_order):
                s.player = s.draft_order[s.draft_pos]
            else:
                self._start_round(s)
        elif ph == PH_TARGET:
            s.target = (s.player + action - A_TARGET + 1) % self.num_players
            s.phase = PH_ATTACKER_FIGHTER
        elif ph == PH_ATTACKER_FIGHTER:
            s.atk_slot = action - A_SLOT
            s.phase = PH_DEFENDER_FIGHTER
            s.player = s.target
        elif ph == PH_DEFENDER_FIGHTER:
            s.def_slot = action - A_SLOT
            self._start_battle(s, counter=False)
        elif ph == PH_ATTACK_CARDS:
            if action == A_RESURRECT:
                s.phase = PH_RESURRECT_CHOICE
            elif action == A_DONE:
                if s.atk_cards:
                    self._attack_played(s)
                else:  # no attack (only without attacker_must_play): nothing to defend
                    self._resolve(s)
            else:
                c = action - A_CARD
                s.hands[s.player].remove(c)
                s.atk_cards.append(c)
                if self.night or len(s.atk_cards) == 2 or not self._has_partner(s, c):
                    self._attack_played(s)
        elif ph == PH_ATTACK_BONUS:
            s.atk_bonus = action - A_BONUS
            self._to_defence(s)
        elif ph == PH_DEFENCE_CARDS:
            if action == A_DONE:
                self._defence_played(s)
            else:
                c = action - A_CARD
                s.hands[s.player].remove(c)
                s.def_cards.append(c)
                if self.night or len(s.def_cards) == 2 or not self._has_partner(s, c):
                    self._defence_played(s)
        elif ph == PH_DEFENCE_BONUS:
            s.def_bonus = action - A_BONUS
            self._resolve(s)
        elif ph == PH_COUNTER_CHOICE:
            if action == A_COUNTER:
                self._start_battle(s, counter=True)
            else:
                self._end_round(s)
        elif ph == PH_RESURRECT_CHOICE:
            self._resurrect(s, action - A_SLOT)

    def _has_partner(self, s: Garda3State, c: int) -> bool:
        """Whether the deciding seat still holds a card that may join ``c`` (else the play is single)."""
        return any(self.may_follow(s, c, o) for o in s.hands[s.player])

    # -- flow -----------------------------------------------------------------------------------
    def _draw(self, s: Garda3State, seat: int, k: int) -> None:
        """Draw ``k`` cards; an empty deck is refilled from the shuffled discard (G-3.1)."""
        hand, rng = s.hands[seat], s.rng
        for _ in range(k):
            if not s.deck:
                if not s.discard:
                    return  # G-3.1 DECISION: draw what there is
                s.deck = s.discard
                s.discard = []
                rng.shuffle(s.deck)
            hand.append(s.deck.pop())

    def _start_round(self, s: Garda3State) -> None:
        """G-3.1/G-3.2/G-7.1/G-7.4: next attacker, everyone draws, the attack phase starts."""
        s.round += 1
        if s.round > self.config.max_rounds:  # G-6.2
            s.truncated = True
            s.phase = PH_OVER
            s.player = -1
            return
        n = self.num_players
        if s.round == 1:
            attacker = s.first_player
        else:
            attacker = (s.round_attacker + 1) % n
            while not self.has_fighters(s, attacker):
                attacker = (attacker + 1) % n
        s.round_attacker = attacker
        for i in range(n):
            seat = (attacker + i) % n
            if self.has_fighters(s, seat):
                if self.royale:
                    self._draw(s, seat, 3)
                else:
                    self._draw(s, seat, 3 - len(s.hands[seat]))
        s.counter = s.resurrected = False
        s.atk_slot = s.def_slot = -1
        s.player = attacker
        if self.ffa:
            s.target = -1
            s.phase = PH_TARGET
        else:
            s.target = 1 - attacker
            s.phase = PH_ATTACKER_FIGHTER

    def _start_battle(self, s: Garda3State, counter: bool) -> None:
        """An attack (or the counter-attack, roles reversed: G-5.1)."""
        s.counter = counter
        if counter:
            s.striker, s.blocker = s.target, s.round_attacker
        else:
            s.striker, s.blocker = s.round_attacker, s.target
        s.atk_cards, s.def_cards = [], []
        s.atk_bonus = s.def_bonus = -1
        s.revealed = False
        s.player = s.striker
        s.phase = PH_ATTACK_CARDS
        if not s.hands[s.striker] and not self._can_resurrect(s):
            self._resolve(s)  # nothing to attack with (deck and discard empty): no damage

    def _attack_played(self, s: Garda3State) -> None:
        cards = s.atk_cards
        bonus = self.fighter_stats(s, s.striker, striker_slot(s))[0]
        if len(cards) == 2 and CARD_ATTACK_DIR[cards[0]] != CARD_ATTACK_DIR[cards[1]] and bonus > 0:
            s.phase = PH_ATTACK_BONUS  # G-4.5: the attacker chooses the bonus side
            return
        self._to_defence(s)


    def _to_defence(self, s: Garda3State) -> None:
        s.player = s.blocker
        s.phase = PH_DEFENCE_CARDS
        if not s.hands[s.blocker]:
            self._defence_played(s)  # G-4.6: no card, defence 0

    def _attacked_dirs(self, s: Garda3State) -> set[int]:
        return {CARD_ATTACK_DIR[c] for c in s.atk_cards}

    def _defence_played(self, s: Garda3State) -> None:
        cards = s.def_cards
        s.revealed = True  # G-7.3: the face-down card is revealed once the defender has played
        if len(cards) == 2 and CARD_DEFENCE_DIR[cards[0]] != CARD_DEFENCE_DIR[cards[1]]:
            bonus = self.fighter_stats(s, s.blocker, blocker_slot(s))[1]
            if len(self._attacked_dirs(s)) == 2 and bonus > 0:
                s.phase = PH_DEFENCE_BONUS  # G-4.6: the defender chooses the bonus side
                return
        self._resolve(s)

    def battle_hits(self, s: Garda3State) -> tuple[list[int], list[int], int]:
        """``(attack, defence, damage)`` of the current battle (see :func:`battle_outcome`)."""
        atk_bonus = self.fighter_stats(s, s.striker, striker_slot(s))[0]
        def_bonus = self.fighter_stats(s, s.blocker, blocker_slot(s))[1]
        return battle_outcome(s.atk_cards, s.atk_bonus, atk_bonus, s.def_cards, s.def_bonus,
                              def_bonus)

    def _resolve(self, s: Garda3State) -> None:
        """G-4.8–G-4.10, then the counter-attack right (G-5) or the end of the round."""
        _, _, damage = self.battle_hits(s)
        slot = blocker_slot(s)
        s.hp[s.blocker][slot] -= damage
        s.discard.extend(s.atk_cards)  # G-4.9: played cards go face up to the discard pile
        s.discard.extend(s.def_cards)
        s.atk_cards, s.def_cards = [], []
        s.atk_bonus = s.def_bonus = -1
        s.revealed = True
        if s.hp[s.blocker][slot] <= 0 and not self.has_fighters(s, s.blocker):
            self._player_out(s, s.blocker)
            if s.phase == PH_OVER:
                return
        if s.counter or s.hp[s.blocker][slot] <= 0:
            self._end_round(s)  # G-5.3 / G-5.4
            return
        self._offer_counter(s)

    def _offer_counter(self, s: Garda3State) -> None:
        """G-5.1/G-5.2: the surviving defender may counter-attack if holding a card."""
        if s.hands[s.target]:
            s.phase = PH_COUNTER_CHOICE
            s.player = s.target
        else:
            self._end_round(s)

    def _resurrect(self, s: Garda3State, slot: int) -> None:
        """G-7.2: discard the whole hand, draw 3, the eliminated fighter returns at full HP;
        the opponent may counter-attack the fighter that was sent."""
        seat = s.player
        s.discard.extend(s.hands[seat])
        s.hands[seat] = []
        self._draw(s, seat, 3)
        s.hp[seat][slot] = self.fighter_stats(s, seat, slot)[2]
        s.resurrected = True
        self._offer_counter(s)

    def _player_out(self, s: Garda3State, seat: int) -> None:
        """A player lost all fighters (G-6.1; G-7.4: out of a free-for-all)."""
        s.discard.extend(s.hands[seat])
        s.hands[seat] = []
        alive = [p for p in range(self.num_players) if self.has_fighters(s, p)]
        if len(alive) == 1:
            s.winner = alive[0]
            s.phase = PH_OVER
            s.player = -1

    def _end_round(self, s: Garda3State) -> None:
        s.atk_cards, s.def_cards = [], []
        self._start_round(s)

    # -- saved-state invariants ----------------------------------------------------------------


    def hidden_from(self, state: Garda3State, player: int) -> bool:
        """Whether the current face-down (night) attack card is hidden from ``player``."""
        return (self.night and bool(state.atk_cards) and not state.revealed
                and player != state.striker)

    def _resample_hidden(self, s: Garda3State, player: int, rng: random.Random) -> None:
        """Resample what ``player`` cannot see (G-2.4, G-7.3): the other players' hands, the
        deck order and a face-down attack card are dealt anew from their union (sizes kept);
        the core's :meth:`~card_envs.core.game.GameBase.sample_hidden` then reseeds the chance
        RNG from ``rng``. The result is a function of ``player``'s information and ``rng`` only
        (two states ``player`` cannot tell apart give equal samples)."""
        hidden_atk = self.hidden_from(s, player)
        others = [p for p in range(self.num_players) if p != player]
        pool = list(s.deck)
        for p in others:
            pool.extend(s.hands[p])
        if hidden_atk:
            pool.extend(s.atk_cards)
        pool.sort()  # canonical order: the result depends only on what ``player`` knows
        rng.shuffle(pool)
        for p in others:
            k = len(s.hands[p])
            s.hands[p], pool = pool[:k], pool[k:]
        if hidden_atk:
            k = len(s.atk_cards)
            s.atk_cards, pool = pool[:k], pool[k:]
        s.deck = pool
