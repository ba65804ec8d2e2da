"""Garda3 rules (G-1 … G-7): pure game logic, no Gymnasium/PettingZoo.

Battle cards are ints ``0..35`` (:data:`CARDS`): ``id = (value-1)*12 + attack_dir*6 +
defence_dir*3 + colour`` with directions ``HIGH=0``/``LOW=1`` and colours ``WHITE=0``,
``BLACK=1``, ``PIEBALD=2`` (G-1.2, G-1.3: each combination once). A turn is a sequence of small
decisions (pick a fighter, play a card, play a second card or stop, choose the bonus side,
counter-attack or not...); the action ids are the ranges of :data:`ACTIONS`.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from card_envs.core.config import check_bool, check_choice, check_int, config_from_kwargs
from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.game import GameBase, lead
from card_envs.core.layout import Layout
from card_envs.core.rng import make_rng, reseed, rng_from_json, rng_to_json
from card_envs.garda3.fighters import FighterSet, resolve_fighter_set

# ---------------------------------------------------------------------------------------------
# Battle cards (G-1.2, G-1.3)
HIGH, LOW = 0, 1
DIRECTIONS = ("high", "low")
WHITE, BLACK, PIEBALD = 0, 1, 2
COLOURS = ("white", "black", "piebald")
NUM_CARDS = 36


def card_id(value: int, attack_dir: int, defence_dir: int, colour: int) -> int:
    """The id of the battle card with these properties (value 1..3, dirs 0/1, colour 0..2)."""
    return (value - 1) * 12 + attack_dir * 6 + defence_dir * 3 + colour


CARD_VALUE = [c // 12 + 1 for c in range(NUM_CARDS)]
CARD_ATTACK_DIR = [(c // 6) % 2 for c in range(NUM_CARDS)]
CARD_DEFENCE_DIR = [(c // 3) % 2 for c in range(NUM_CARDS)]
CARD_COLOUR = [c % 3 for c in range(NUM_CARDS)]


def card_name(c: int) -> str:
    """E.g. ``"2 atk-high def-low black"``."""
    return (f"{CARD_VALUE[c]} atk-{DIRECTIONS[CARD_ATTACK_DIR[c]]} "
            f"def-{DIRECTIONS[CARD_DEFENCE_DIR[c]]} {COLOURS[CARD_COLOUR[c]]}")


# ---------------------------------------------------------------------------------------------
# Actions (one flat Discrete space)
ACTIONS = Layout([
    ("pick", 9, "draft: take fighter k (0–8) of the set being drafted (G-2.3)"),
    ("slot", 3, "choose own fighter slot k (0–2): the fighter sent into battle (G-4.1), or the "
                "eliminated fighter to bring back (G-7.2)"),
    ("target", 2, "free_for_all: attack the opponent k+1 seats clockwise (G-7.4)"),
    ("card", 36, "play battle card id c (0–35) from hand as attack or defence (G-4.2, G-4.6)"),
    ("done", 1, "stop after one card (play a single card); an empty defence only under "
                "`allow_empty_defence` (G-4.6)"),
    ("bonus", 2, "give the fighter's bonus to the high (0) / low (1) direction (G-4.5, G-4.6)"),
    ("counter", 1, "counter-attack (G-5.1)"),
    ("decline", 1, "decline the counter-attack (G-5.2)"),
    ("resurrect", 1, "declare a resurrection instead of attacking (G-7.2, `resurrection` variant)"),
])
A_PICK = ACTIONS.start("pick")
A_SLOT = ACTIONS.start("slot")
A_TARGET = ACTIONS.start("target")
A_CARD = ACTIONS.start("card")
A_DONE = ACTIONS.start("done")
A_BONUS = ACTIONS.start("bonus")
A_COUNTER = ACTIONS.start("counter")
A_DECLINE = ACTIONS.start("decline")
A_RESURRECT = ACTIONS.start("resurrect")
NUM_ACTIONS = ACTIONS.size

# Phases (who decides what)
(PH_DRAFT, PH_TARGET, PH_ATTACKER_FIGHTER, PH_DEFENDER_FIGHTER, PH_ATTACK_CARDS, PH_ATTACK_BONUS,
 PH_DEFENCE_CARDS, PH_DEFENCE_BONUS, PH_COUNTER_CHOICE, PH_RESURRECT_CHOICE, PH_OVER) = range(11)
PHASES = ("draft", "target", "attacker_fighter", "defender_fighter", "attack_cards",
          "attack_bonus", "defence_cards", "defence_bonus", "counter_choice", "resurrect_choice",
          "over")

VARIANTS = ("classic", "royale", "resurrection", "night", "free_for_all")


def battle_outcome(atk_cards: list[int], atk_side: int, atk_bonus: int, def_cards: list[int],
                   def_side: int, def_bonus: int) -> tuple[list[int], list[int], int]:
    """Resolve one battle (G-4.3–G-4.8).

    Args:
        atk_cards / def_cards: the 0–2 attack / defence card ids.
        atk_side / def_side: the chosen bonus direction (HIGH/LOW) when the two cards differ in
            direction; ``-1`` = not chosen (HIGH is used; the engine always asks when it matters).
        atk_bonus / def_bonus: the fighters' attack / defence bonus (0..2).

    Returns:
        ``(attack, defence, damage)``: strength per direction ``[high, low]`` after bonuses and
        the HP the defending fighter loses. The attack bonus is added once (G-4.3/G-4.4), to the
        chosen side for a two-direction attack (G-4.5). The defence bonus counts only in a
        direction that is attacked and defended by a card (G-4.7), once; on the chosen side when
        both attacked directions are defended (G-4.6). An attacked direction without a defence
        card in it is defended by 0 (G-4.7). ``damage = sum(max(0, attack - defence))`` over the
        attacked directions (G-4.8).
    """
    attack = [0, 0]
    attacked = [False, False]
    for c in atk_cards:
        d = CARD_ATTACK_DIR[c]
        attack[d] += CARD_VALUE[c]
        attacked[d] = True
    if atk_cards:
        if attacked[HIGH] and attacked[LOW]:
            side = atk_side if atk_side >= 0 else HIGH
        else:
            side = HIGH if attacked[HIGH] else LOW
        attack[side] += atk_bonus
    defence = [0, 0]
    defended = [False, False]
    for c in def_cards:
        d = CARD_DEFENCE_DIR[c]
        defence[d] += CARD_VALUE[c]
        defended[d] = True
    eligible = [d for d in (HIGH, LOW) if attacked[d] and defended[d]]
    if eligible:
        side = (def_side if def_side >= 0 else HIGH) if len(eligible) == 2 else eligible[0]
        defence[side] += def_bonus
    damage = 0
    for d in (HIGH, LOW):
        if attacked[d]:
            damage += max(0, attack[d] - defence[d])
    return attack, defence, damage


# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Garda3Config:
    """Garda3 configuration; every field is a DECISION of the rules with its default.

    Attributes:
        variant: ``"classic"`` or a ``+``-joined combination of ``royale``, ``resurrection``,
            ``night``, ``free_for_all`` (G-7.1–G-7.4, combinable as G-7.6), e.g.
            ``"royale+night"``. ``free_for_all`` makes it a 3-player game.
        fighter_selection: ``"draft"`` (alternate picks from one shared set, starting player
            first; G-2.1/G-2.3 default), ``"own_sets"`` (each picks 3 from their own set of 9),
            ``"random"`` (blind random 3 each from the shared set).
        fighter_set: the shared set: a shipped set name (``"default"``), a TOML path, or a dict
            (``FighterSet.to_dict``) (G-1.4).
        own_fighter_sets: under ``own_sets``, one set per player (same forms as ``fighter_set``);
            ``None`` gives every player a copy of ``fighter_set``.
        piebald_is_wild: piebald pairs with any colour (G-1.5 DECISION; default False).
        allow_empty_defence: a defender holding cards may play none (G-4.6 DECISION; default
            False).
        attacker_must_play: an attacker holding cards must play at least one (G-4.2 DECISION;
            default True; False lets the attacker pass the attack with ``done``).
        counter_attack_optional: the surviving defender may decline the counter-attack (G-5.2
            DECISION; default True; False makes it compulsory whenever they hold a card).
        max_rounds: rounds before the game ends as a draw, reported as a truncation (G-6.2,
            default 200).
    """

    variant: str = "classic"
    fighter_selection: str = "draft"
    fighter_set: Any = "default"
    own_fighter_sets: Any = None
    piebald_is_wild: bool = False
    allow_empty_defence: bool = False
    attacker_must_play: bool = True
    counter_attack_optional: bool = True
    max_rounds: int = 200
    flags: frozenset = field(default=frozenset(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str):
            raise ConfigError(f"config field 'variant': expected a string, got {self.variant!r}")
        parts = [p.strip() for p in self.variant.split("+")]
        for p in parts:
            check_choice("variant", p, VARIANTS)
        if len(set(parts)) != len(parts):
            raise ConfigError(f"config field 'variant': {self.variant!r} repeats a variant")
        if "classic" in parts and len(parts) > 1:
            raise ConfigError(f"config field 'variant': 'classic' cannot be combined ({self.variant!r})")
        object.__setattr__(self, "variant", "+".join(parts))  # normalised spelling
        object.__setattr__(self, "flags", frozenset(p for p in parts if p != "classic"))
        check_choice("fighter_selection", self.fighter_selection, ["draft", "own_sets", "random"])
        check_bool("piebald_is_wild", self.piebald_is_wild)
        check_bool("allow_empty_defence", self.allow_empty_defence)
        check_bool("attacker_must_play", self.attacker_must_play)
        check_bool("counter_attack_optional", self.counter_attack_optional)
        check_int("max_rounds", self.max_rounds, 1)
        if self.own_fighter_sets is not None:
            if self.fighter_selection != "own_sets":
                raise ConfigError("config field 'own_fighter_sets' is only used with "
                                  "fighter_selection='own_sets'")
            if not isinstance(self.own_fighter_sets, (list, tuple)) or len(
                    self.own_fighter_sets) != self.num_players:
                raise ConfigError(f"config field 'own_fighter_sets': expected a list of "
                                  f"{self.num_players} sets, got {self.own_fighter_sets!r}")

    @property
    def num_players(self) -> int:
        return 3 if "free_for_all" in self.flags else 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (fighter sets inlined) that ``make_game(**d)`` accepts."""
        d = asdict(self)
        d.pop("flags")
        d["fighter_set"] = resolve_fighter_set(self.fighter_set).to_dict()
        if self.own_fighter_sets is not None:
            d["own_fighter_sets"] = [resolve_fighter_set(s).to_dict() for s in self.own_fighter_sets]
        return d


# ---------------------------------------------------------------------------------------------
class Garda3State:
    """All of one game's state (plain lists and ints; JSON via ``Garda3.state_to_dict``).

    Attributes (seats ``0..n-1``):
        rng: the game's chance (deck shuffles).
        phase: index into :data:`PHASES`; actor: the seat to decide (``-1`` when over).
        round: 1-based round number; first_player: the starting player (G-2.2).
        deck: battle-card ids, drawn from the end; discard: the public discard pile (G-4.9).
        hands: per seat, card ids in hand (hidden from the others).
        fighters: per seat, the set indices of the chosen fighters (up to 3, G-2.3).
        hp: per seat, current HP of each chosen fighter (<= 0: eliminated, G-4.10).
        available: per drafted set, which of its 9 fighters are still free to pick.
        draft_order / draft_pos: seats in picking order and the next pick.
        round_attacker, target: the round's attacker and the opponent attacked.
        striker / blocker: who attacks / defends in the current battle (swapped in a counter).
        atk_slot / def_slot: the round attacker's / target's fighter slot in battle.
        counter: True while the counter-attack is played; resurrected: a resurrection was
            declared this round (G-7.2).
        atk_cards / def_cards: cards played in the current battle; atk_bonus / def_bonus: the
            chosen bonus direction (-1: none yet); revealed: the (night) attack card is face up.
        winner: winning seat, or -1; truncated: ended by ``max_rounds`` (G-6.2).
    """

    __slots__ = ("seed", "rng", "phase", "actor", "round", "first_player", "deck", "discard",
                 "hands", "fighters", "hp", "available", "draft_order", "draft_pos",
                 "round_attacker", "target", "striker", "blocker", "atk_slot", "def_slot",
                 "counter", "resurrected", "atk_cards", "def_cards", "atk_bonus", "def_bonus",
                 "revealed", "winner", "truncated", "legal")

    LIST_FIELDS = ("deck", "discard", "draft_order", "atk_cards", "def_cards")
    NESTED_FIELDS = ("hands", "fighters", "hp", "available")
    INT_FIELDS = ("seed", "phase", "actor", "round", "first_player", "draft_pos", "round_attacker",
                  "target", "striker", "blocker", "atk_slot", "def_slot", "atk_bonus",
                  "def_bonus", "winner")
    BOOL_FIELDS = ("counter", "resurrected", "revealed", "truncated")


def make_game(**config: Any) -> Garda3:
    """Build a Garda3 game from :class:`Garda3Config` keyword fields (ConfigError on bad ones)."""
    return Garda3(config_from_kwargs(Garda3Config, config))


class Garda3(GameBase[Garda3State]):
    """The Garda3 ``Game`` (contract: :mod:`card_envs.core.game`)."""

    name = "garda3"
    version = 0
    num_actions = NUM_ACTIONS
    max_game_length = 20_000

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
        from card_envs.garda3.encoder import OBSERVATION, encode  # local: encoder imports rules

        self._encode = encode
        self.observation_shape = (OBSERVATION.size,)
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

    def alive_slots(self, state: Garda3State, seat: int) -> list[int]:
        return [k for k, h in enumerate(state.hp[seat]) if h > 0]

    def has_fighters(self, state: Garda3State, seat: int) -> bool:
        return any(h > 0 for h in state.hp[seat])

    def pairs(self, c1: int, c2: int) -> bool:
        """Two cards may be played together (same colour, G-1.5 / ``piebald_is_wild``)."""
        return self._pairs[CARD_COLOUR[c1]][CARD_COLOUR[c2]]

    # -- contract -------------------------------------------------------------------------------
    def new_state(self, seed: int) -> Garda3State:
        """Shuffle, choose the starting player by lot (G-2.2), start the fighter selection."""
        s = Garda3State()
        n = self.num_players
        s.seed = seed
        s.rng = make_rng(seed)
        s.deck = list(range(NUM_CARDS))
        s.rng.shuffle(s.deck)
        s.discard = []
        s.hands = [[] for _ in range(n)]
        s.fighters = [[] for _ in range(n)]
        s.hp = [[] for _ in range(n)]
        s.first_player = s.rng.randrange(n)
        s.available = [[True] * 9 for _ in self.sets]
        s.draft_order = [(s.first_player + i) % n for i in range(3 * n)]
        s.draft_pos = 0
        s.round = 0
        s.round_attacker = s.target = s.striker = s.blocker = -1
        s.atk_slot = s.def_slot = -1
        s.counter = s.resurrected = s.revealed = s.truncated = False
        s.atk_cards, s.def_cards = [], []
        s.atk_bonus = s.def_bonus = -1
        s.winner = -1
        s.legal = None
        sel = self.config.fighter_selection
        if sel == "random":  # G-2.3 blind random selection from the shared set
            pool = list(range(9))
            s.rng.shuffle(pool)
            for seat in s.draft_order:
                k = pool.pop()
                s.available[0][k] = False
                s.fighters[seat].append(k)
                s.hp[seat].append(self.stats[0][k][2])
            s.draft_pos = len(s.draft_order)
            self._start_round(s)
        else:
            s.phase = PH_DRAFT
            s.actor = s.draft_order[0]
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

    def current_player(self, state: Garda3State) -> int:
        return state.actor

    def is_terminal(self, state: Garda3State) -> bool:
        return state.phase == PH_OVER

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

    def observe(self, state: Garda3State, player: int):
        """Seat ``player``'s view (layout: ``card_envs.garda3.encoder.OBSERVATION``);
        ValueError for a seat outside ``0..num_players-1``."""
        if not 0 <= player < self.num_players:
            raise ValueError(f"garda3: no seat {player!r} (seats 0..{self.num_players - 1})")
        return self._encode(self, state, player)

    def legal_actions(self, state: Garda3State) -> list[int]:
        if state.legal is None:
            state.legal = self._compute_legal(state)
        return state.legal

    def _compute_legal(self, s: Garda3State) -> list[int]:
        ph = s.phase
        if ph == PH_DRAFT:
            seat = s.actor
            avail = s.available[self.set_of(seat)]
            return [A_PICK + k for k in range(9) if avail[k]]
        if ph == PH_TARGET:
            n = self.num_players
            return [A_TARGET + d - 1 for d in range(1, n) if self.has_fighters(s, (s.actor + d) % n)]
        if ph in (PH_ATTACKER_FIGHTER, PH_DEFENDER_FIGHTER):
            return [A_SLOT + k for k, h in enumerate(s.hp[s.actor]) if h > 0]
        if ph == PH_RESURRECT_CHOICE:
            return [A_SLOT + k for k, h in enumerate(s.hp[s.actor]) if h <= 0]
        if ph == PH_ATTACK_CARDS or ph == PH_DEFENCE_CARDS:
            hand = s.hands[s.actor]
            played = s.atk_cards if ph == PH_ATTACK_CARDS else s.def_cards
            if not played:
                acts = sorted(A_CARD + c for c in hand)
                if ph == PH_ATTACK_CARDS and self._can_resurrect(s):
                    acts.append(A_RESURRECT)
                if ph == PH_DEFENCE_CARDS and self.config.allow_empty_defence:
                    acts.append(A_DONE)
                if ph == PH_ATTACK_CARDS and not self.config.attacker_must_play:
                    acts.append(A_DONE)
                return acts
            first = played[0]
            pairs = self.pairs
            acts = sorted(A_CARD + c for c in hand if pairs(first, c))
            acts.append(A_DONE)
            return acts
        if ph == PH_ATTACK_BONUS or ph == PH_DEFENCE_BONUS:
            return [A_BONUS + HIGH, A_BONUS + LOW]
        if ph == PH_COUNTER_CHOICE:
            return [A_COUNTER, A_DECLINE] if self.config.counter_attack_optional else [A_COUNTER]
        return []

    def _can_resurrect(self, s: Garda3State) -> bool:
        """G-7.2: main attack (not a counter), 3 cards of one colour, an eliminated fighter."""
        if not self.resurrection or s.counter:
            return False
        if all(h > 0 for h in s.hp[s.actor]):
            return False
        counts = [0, 0, 0]
        for c in s.hands[s.actor]:
            counts[CARD_COLOUR[c]] += 1
        return max(counts) >= 3

    def apply_action(self, state: Garda3State, action: int) -> None:
        """Apply ``action`` for ``current_player``; IllegalActionError if it is not legal."""
        legal = self.legal_actions(state)
        if action.__class__ is not int:  # numpy ints are fine; 1.0, "1", True are not
            if isinstance(action, bool) or not hasattr(action, "__index__"):
                raise IllegalActionError(f"garda3: action {action!r} is not an int")
            action = action.__index__()
        if action not in legal:
            raise IllegalActionError(
                f"garda3: action {action!r} ({self.action_to_string(state, action)}) is not legal "
                f"in phase {PHASES[state.phase]!r}; legal: {legal}")
        state.legal = None
        s = state
        ph = s.phase
        if ph == PH_DRAFT:
            seat = s.actor
            k = action - A_PICK
            si = self.set_of(seat)
            s.available[si][k] = False
            s.fighters[seat].append(k)
            s.hp[seat].append(self.stats[si][k][2])
            s.draft_pos += 1
            if s.draft_pos < len(s.draft_order):
                s.actor = s.draft_order[s.draft_pos]
            else:
                self._start_round(s)
        elif ph == PH_TARGET:
            s.target = (s.actor + action - A_TARGET + 1) % self.num_players
            s.phase = PH_ATTACKER_FIGHTER
        elif ph == PH_ATTACKER_FIGHTER:
            s.atk_slot = action - A_SLOT
            s.phase = PH_DEFENDER_FIGHTER
            s.actor = s.target
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
                s.hands[s.actor].remove(c)
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
                s.hands[s.actor].remove(c)
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
        """Whether the actor still holds a card that may join ``c`` (else the play is single)."""
        return any(self.pairs(c, o) for o in s.hands[s.actor])

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
            s.actor = -1
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
        s.actor = attacker
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
        s.actor = s.striker
        s.phase = PH_ATTACK_CARDS
        if not s.hands[s.striker] and not self._can_resurrect(s):
            self._resolve(s)  # nothing to attack with (deck and discard empty): no damage

    def _attack_played(self, s: Garda3State) -> None:
        cards = s.atk_cards
        bonus = self.fighter_stats(s, s.striker, self._striker_slot(s))[0]
        if len(cards) == 2 and CARD_ATTACK_DIR[cards[0]] != CARD_ATTACK_DIR[cards[1]] and bonus > 0:
            s.phase = PH_ATTACK_BONUS  # G-4.5: the attacker chooses the bonus side
            return
        self._to_defence(s)

    def _striker_slot(self, s: Garda3State) -> int:
        return s.def_slot if s.counter else s.atk_slot

    def _blocker_slot(self, s: Garda3State) -> int:
        return s.atk_slot if s.counter else s.def_slot

    def _to_defence(self, s: Garda3State) -> None:
        s.actor = s.blocker
        s.phase = PH_DEFENCE_CARDS
        if not s.hands[s.blocker]:
            self._defence_played(s)  # G-4.6: no card, defence 0

    def _attacked_dirs(self, s: Garda3State) -> set[int]:
        return {CARD_ATTACK_DIR[c] for c in s.atk_cards}

    def _defence_played(self, s: Garda3State) -> None:
        cards = s.def_cards
        s.revealed = True  # G-7.3: the face-down card is revealed once the defender has played
        if len(cards) == 2 and CARD_DEFENCE_DIR[cards[0]] != CARD_DEFENCE_DIR[cards[1]]:
            bonus = self.fighter_stats(s, s.blocker, self._blocker_slot(s))[1]
            if len(self._attacked_dirs(s)) == 2 and bonus > 0:
                s.phase = PH_DEFENCE_BONUS  # G-4.6: the defender chooses the bonus side
                return
        self._resolve(s)

    def battle_hits(self, s: Garda3State) -> tuple[list[int], list[int], int]:
        """``(attack, defence, damage)`` of the current battle (see :func:`battle_outcome`)."""
        atk_bonus = self.fighter_stats(s, s.striker, self._striker_slot(s))[0]
        def_bonus = self.fighter_stats(s, s.blocker, self._blocker_slot(s))[1]
        return battle_outcome(s.atk_cards, s.atk_bonus, atk_bonus, s.def_cards, s.def_bonus,
                              def_bonus)

    def _resolve(self, s: Garda3State) -> None:
        """G-4.8–G-4.10, then the counter-attack right (G-5) or the end of the round."""
        _, _, damage = self.battle_hits(s)
        slot = self._blocker_slot(s)
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
            s.actor = s.target
        else:
            self._end_round(s)

    def _resurrect(self, s: Garda3State, slot: int) -> None:
        """G-7.2: discard the whole hand, draw 3, the eliminated fighter returns at full HP;
        the opponent may counter-attack the fighter that was sent."""
        seat = s.actor
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
            s.actor = -1

    def _end_round(self, s: Garda3State) -> None:
        s.atk_cards, s.def_cards = [], []
        self._start_round(s)

    # -- text ----------------------------------------------------------------------------------
    def action_to_string(self, state: Garda3State, action: int) -> str:
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            return f"<out-of-range action {a}>"
        piece = ACTIONS.piece_of(a)
        k = a - piece.start
        seat = state.actor
        if piece.name == "pick":
            si = self.set_of(seat) if seat >= 0 else 0
            return f"pick {self.sets[si].fighters[k].name}"
        if piece.name == "slot":
            if seat >= 0 and k < len(state.fighters[seat]):
                f = self.sets[self.set_of(seat)].fighters[state.fighters[seat][k]]
                return f"fighter {k} ({f.name})"
            return f"fighter {k}"
        if piece.name == "target":
            return f"attack player {(seat + k + 1) % self.num_players} ({k + 1} clockwise)"
        if piece.name == "card":
            return f"play [{card_name(k)}]"
        if piece.name == "bonus":
            return f"bonus {DIRECTIONS[k]}"
        return piece.name

    def render(self, state: Garda3State) -> str:
        s = state
        lines = [f"Garda3 {self.config.variant} | round {s.round} | phase {PHASES[s.phase]} | "
                 f"to act: {s.actor} | deck {len(s.deck)} | discard {len(s.discard)}"]
        for p in range(self.num_players):
            fs = []
            for slot, k in enumerate(s.fighters[p]):
                f = self.sets[self.set_of(p)].fighters[k]
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

    # -- copies and persistence ------------------------------------------------------------------
    def clone(self, state: Garda3State) -> Garda3State:
        s = Garda3State()
        for f in Garda3State.INT_FIELDS + Garda3State.BOOL_FIELDS:
            setattr(s, f, getattr(state, f))
        for f in Garda3State.LIST_FIELDS:
            setattr(s, f, list(getattr(state, f)))
        for f in Garda3State.NESTED_FIELDS:
            setattr(s, f, [list(x) for x in getattr(state, f)])
        s.rng = random.Random()
        s.rng.setstate(state.rng.getstate())
        s.legal = None
        return s

    def state_to_dict(self, state: Garda3State) -> dict[str, Any]:
        d: dict[str, Any] = {"game": self.name, "version": self.version}
        for f in Garda3State.INT_FIELDS + Garda3State.BOOL_FIELDS:
            d[f] = getattr(state, f)
        for f in Garda3State.LIST_FIELDS:
            d[f] = list(getattr(state, f))
        for f in Garda3State.NESTED_FIELDS:
            d[f] = [list(x) for x in getattr(state, f)]
        d["rng"] = rng_to_json(state.rng)
        return d

    def state_from_dict(self, data: dict[str, Any]) -> Garda3State:
        if data.get("game") != self.name:
            raise ValueError(f"saved state is for game {data.get('game')!r}, not {self.name!r}")
        s = Garda3State()
        try:
            for f in Garda3State.INT_FIELDS:
                setattr(s, f, int(data[f]))
            for f in Garda3State.BOOL_FIELDS:
                setattr(s, f, bool(data[f]))
            for f in Garda3State.LIST_FIELDS:
                setattr(s, f, [int(x) for x in data[f]])
            for f in Garda3State.NESTED_FIELDS:
                setattr(s, f, [list(x) for x in data[f]])
        except KeyError as exc:
            raise ValueError(f"saved garda3 state is missing field {exc.args[0]!r}") from None
        s.rng = rng_from_json(data["rng"])
        s.legal = None
        return s

    def hidden_from(self, state: Garda3State, player: int) -> bool:
        """Whether the current face-down (night) attack card is hidden from ``player``."""
        return (self.night and bool(state.atk_cards) and not state.revealed
                and player != state.striker)

    def sample_hidden(self, state: Garda3State, player: int, rng: random.Random) -> Garda3State:
        """Resample what ``player`` cannot see (G-2.4, G-7.3): the other players' hands, the
        deck order and a face-down attack card are dealt anew from their union (sizes kept);
        the chance RNG is reseeded from ``rng``. The result is a function of ``player``'s
        information and ``rng`` only (two states ``player`` cannot tell apart give equal
        samples)."""
        s = self.clone(state)
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
        reseed(s.rng, rng)
        s.legal = None
        return s
