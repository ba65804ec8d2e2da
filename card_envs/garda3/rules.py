"""Garda3 rules (G-1 … G-7): pure game logic, no Gymnasium/PettingZoo.

Battle cards are ints ``0..35`` (:data:`CARDS`): ``id = (value-1)*12 + attack_dir*6 +
defence_dir*3 + colour`` with directions ``HIGH=0``/``LOW=1`` and colours ``WHITE=0``,
``BLACK=1``, ``PIEBALD=2`` (G-1.2, G-1.3: each combination once). A turn is a sequence of small
decisions (pick a fighter, play a card, play a second card or stop, choose the bonus side,
counter-attack or not...); the action ids are the ranges of :data:`ACTIONS`.

The state is :class:`Garda3State`, declared once (clone, JSON and type/range validation come from
the core, :mod:`card_envs.core.state`); :meth:`Garda3.check_state` adds this config's invariants.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any

from pydantic import Field

from card_envs.core.config import check_bool, check_choice, check_int, config_from_kwargs
from card_envs.core.errors import ConfigError
from card_envs.core.game import GameBase, lead
from card_envs.core.layout import Layout
from card_envs.core.rng import make_rng, reseed
from card_envs.core.state import GameState, check_cards, check_len, check_range, fail
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
        split_defence_needs_split_attack: two defence cards of *different* defence directions
            only against a two-direction attack (G-4.6 DECISION, the Czech "Pokud útočník
            použil útok ze dvou směrů..."; default True): against a one-direction attack the
            second defence card must share the first's defence direction. False (the ``garda3_v0``
            rule) allows a two-direction defence against any attack; the card in the unattacked
            direction then adds nothing and the bonus goes to the attacked direction.
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
    split_defence_needs_split_attack: bool = True
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
        check_bool("split_defence_needs_split_attack", self.split_defence_needs_split_attack)
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
#: static bounds of the state's fields (config-dependent ones are checked by ``check_state``)
Card = Annotated[int, Field(ge=0, le=NUM_CARDS - 1)]  # a battle-card id (G-1.3)
Seat = Annotated[int, Field(ge=0, le=2)]  # at most 3 seats (G-7.4)
SeatOrNone = Annotated[int, Field(ge=-1, le=2)]  # -1: none
SlotOrNone = Annotated[int, Field(ge=-1, le=2)]  # a fighter slot 0..2, -1: none
FighterIndex = Annotated[int, Field(ge=0, le=8)]  # index into a set of 9 (G-1.4)
#: HP: at most 7 (G-1.1); a living fighter has at least 1 and one battle takes at most
#: 3 + 3 + 2 = 8 (two value-3 cards and a +2 attack bonus against no defence, G-4.4/G-4.5/G-4.8),
#: so an eliminated fighter ends between 1 - 8 = -7 and 0 (G-4.10)
MIN_HP, MAX_HP = -7, 7
HP = Annotated[int, Field(ge=MIN_HP, le=MAX_HP)]
Side = Annotated[int, Field(ge=-1, le=1)]  # a bonus direction HIGH/LOW, -1: not chosen
Phase = Annotated[int, Field(ge=0, le=len(PHASES) - 1)]


@dataclass(slots=True, eq=False)
class Garda3State(GameState):
    """All of one game's state, declared once (clone, JSON and the type/range checks come from
    the core; :meth:`Garda3.check_state` adds the config's invariants).

    Attributes (seats ``0..n-1``):
        rng: the game's chance (deck shuffles).
        phase: index into :data:`PHASES`; actor: the seat to decide (``-1`` when over).
        round: 1-based round number (0 during the draft; ``max_rounds + 1`` once truncated);
            first_player: the starting player (G-2.2).
        deck: battle-card ids, drawn from the end; discard: the public discard pile (G-4.9).
        hands: per seat, card ids in hand (hidden from the others).
        fighters: per seat, the set indices of the chosen fighters (up to 3, G-2.3).
        hp: per seat, current HP of each chosen fighter (<= 0: eliminated, G-4.10).
        available: per drafted set, which of its 9 fighters are still free to pick.
        draft_order / draft_pos: seats in picking order and the next pick.
        round_attacker, target: the round's attacker and the opponent attacked.
        striker / blocker: who attacks / defends in the current battle (swapped in a counter;
            outside a battle: those of the last battle).
        atk_slot / def_slot: the round attacker's / target's fighter slot in battle.
        counter: True while the counter-attack is played; resurrected: a resurrection was
            declared this round (G-7.2).
        atk_cards / def_cards: cards played in the current battle; atk_bonus / def_bonus: the
            chosen bonus direction (-1: none yet); revealed: the (night) attack card is face up.
        winner: winning seat, or -1; truncated: ended by ``max_rounds`` (G-6.2).
    """

    rng: random.Random
    phase: Phase
    actor: SeatOrNone
    round: Annotated[int, Field(ge=0)]
    first_player: Seat
    deck: list[Card]
    discard: list[Card]
    hands: list[list[Card]]
    fighters: list[list[FighterIndex]]
    hp: list[list[HP]]
    available: list[list[bool]]
    draft_order: list[Seat]
    draft_pos: Annotated[int, Field(ge=0, le=9)]
    round_attacker: SeatOrNone
    target: SeatOrNone
    striker: SeatOrNone
    blocker: SeatOrNone
    atk_slot: SlotOrNone
    def_slot: SlotOrNone
    counter: bool
    resurrected: bool
    atk_cards: list[Card]
    def_cards: list[Card]
    atk_bonus: Side
    def_bonus: Side
    revealed: bool
    winner: SeatOrNone
    truncated: bool


def make_game(**config: Any) -> Garda3:
    """Build a Garda3 game from :class:`Garda3Config` keyword fields (ConfigError on bad ones)."""
    return Garda3(config_from_kwargs(Garda3Config, config))


class Garda3(GameBase[Garda3State]):
    """The Garda3 ``Game`` (contract: :mod:`card_envs.core.game`)."""

    name = "garda3"
    version = 1
    state_class = Garda3State
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
        n = self.num_players
        rng = make_rng(seed)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        first = rng.randrange(n)
        s = Garda3State(
            rng=rng, phase=PH_DRAFT, actor=first, round=0, first_player=first, deck=deck,
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

    def phase_name(self, state: Garda3State) -> str:
        """The phase's name (:data:`PHASES`), e.g. ``"defence_cards"``."""
        return PHASES[state.phase]

    def _legal_actions(self, s: Garda3State) -> list[int]:
        ph = s.phase
        if ph == PH_DRAFT:
            avail = s.available[self.set_of(s.actor)]
            return [A_PICK + k for k in range(9) if avail[k]]
        if ph == PH_TARGET:
            n = self.num_players
            return [A_TARGET + d - 1 for d in range(1, n) if self.has_fighters(s, (s.actor + d) % n)]
        if ph == PH_ATTACKER_FIGHTER or ph == PH_DEFENDER_FIGHTER:
            return [A_SLOT + k for k, h in enumerate(s.hp[s.actor]) if h > 0]
        if ph == PH_RESURRECT_CHOICE:
            return [A_SLOT + k for k, h in enumerate(s.hp[s.actor]) if h <= 0]
        if ph == PH_ATTACK_CARDS or ph == PH_DEFENCE_CARDS:
            hand = s.hands[s.actor]
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
        if all(h > 0 for h in s.hp[s.actor]):
            return False
        counts = [0, 0, 0]
        for c in s.hands[s.actor]:
            counts[CARD_COLOUR[c]] += 1
        return max(counts) >= 3

    def _apply_action(self, s: Garda3State, action: int) -> None:
        """The transition of one legal ``action`` (checked by the core) for ``s.actor``."""
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
        return any(self.may_follow(s, c, o) for o in s.hands[s.actor])

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

    # -- saved-state invariants ----------------------------------------------------------------
    def check_state(self, state: Garda3State) -> None:
        """StateError (naming the field path, the value and every field the broken rule reads)
        unless ``state`` is a consistent Garda3 state of this config: seat counts and list
        lengths, the 36-card multiset over deck / discard / hands / atk_cards / def_cards
        (G-1.3), the fighters chosen (each fighter of a set once, matching ``available`` and the
        picks ``draft_order[:draft_pos]``, G-2.3), HP within ``-7..max HP`` of each fighter
        (G-1.1, G-4.10), the round within ``max_rounds`` (G-6.2), and the phase with its actor,
        roles, fighter slots, played cards and chosen bonus sides (G-3 … G-7). Hand *contents*
        are not checked beyond the multiset: ``sample_hidden`` deals them anew."""
        s, cfg, n = state, self.config, self.num_players
        # shapes and seats
        check_len("hands", s.hands, n, why=f"one hand per seat, {n} seats")
        check_len("fighters", s.fighters, n, why=f"one guard per seat, {n} seats")
        check_len("hp", s.hp, n, why=f"one guard per seat, {n} seats")
        check_len("available", s.available, len(self.sets),
                  why=f"one list per fighter set drafted from (fighter_selection "
                      f"{cfg.fighter_selection!r})")
        for i, avail in enumerate(s.available):
            check_len(f"available[{i}]", avail, 9, why="a fighter set has 9 fighters, G-1.4")
        check_len("draft_order", s.draft_order, 3 * n, why="3 picks per seat, G-2.3")
        check_range("first_player", s.first_player, 0, n - 1, "a seat")
        for name in ("actor", "round_attacker", "target", "striker", "blocker", "winner"):
            check_range(name, getattr(s, name), -1, n - 1, "a seat or -1")
        for i, p in enumerate(s.draft_order):
            if p != (s.first_player + i) % n:
                fail(f"draft_order[{i}]", p, f"is not seat (first_player {s.first_player} + {i}) "
                     f"mod {n} = {(s.first_player + i) % n}: the starting player picks first, "
                     "then clockwise (G-2.3, G-7.4)")
        check_range("draft_pos", s.draft_pos, 0, 3 * n, "a pick index")
        check_range("round", s.round, 0, cfg.max_rounds + 1, "a round of this config (0 during "
                    "the draft, max_rounds + 1 only once truncated)")
        # the battle cards: each of the 36 exactly once (G-1.3)
        zones: dict[str, list[int]] = {"deck": s.deck, "discard": s.discard}
        for p in range(n):
            zones[f"hands[{p}]"] = s.hands[p]
        zones["atk_cards"], zones["def_cards"] = s.atk_cards, s.def_cards
        check_cards(zones, range(NUM_CARDS), "battle card")
        # the fighters: picks so far, each fighter of a set once, `available` the rest
        picks = [0] * n
        for p in s.draft_order[:s.draft_pos]:
            picks[p] += 1
        for p in range(n):
            if len(s.fighters[p]) != picks[p]:
                fail(f"fighters[{p}]", s.fighters[p],
                     f"holds {len(s.fighters[p])} fighters, but draft_order[:draft_pos] "
                     f"(draft_pos {s.draft_pos}) gives seat {p} {picks[p]} picks")
            check_len(f"hp[{p}]", s.hp[p], len(s.fighters[p]),
                      why=f"one HP per fighter of fighters[{p}]")
        holder: dict[tuple[int, int], str] = {}
        for p in range(n):
            si = self.set_of(p)
            for j, k in enumerate(s.fighters[p]):
                here = f"fighters[{p}][{j}]"
                if (si, k) in holder:
                    fail(here, k, f"is chosen twice ({holder[si, k]} too): a fighter of a set "
                         "is chosen once (G-2.3)")
                holder[si, k] = here
                if s.available[si][k]:
                    fail(here, k, f"is chosen but available[{si}][{k}] is True")
        for si, avail in enumerate(s.available):
            for k, free in enumerate(avail):
                if not free and (si, k) not in holder:
                    fail(f"available[{si}][{k}]", free, f"but no seat's fighters hold fighter "
                         f"{k} of set {si}: fighters {s.fighters}")
        drafting = s.phase == PH_DRAFT
        for p in range(n):
            stats = self.stats[self.set_of(p)]
            for j, h in enumerate(s.hp[p]):
                top = stats[s.fighters[p][j]][2]
                if h > top:
                    fail(f"hp[{p}][{j}]", h, f"exceeds the max HP {top} of fighters[{p}][{j}] "
                         f"= {s.fighters[p][j]} (G-1.1)")
                if drafting and h != top:
                    fail(f"hp[{p}][{j}]", h, f"is not the full HP {top} of fighters[{p}][{j}] in "
                         "phase 'draft' (no battle yet)")
        # the draft
        if (s.draft_pos < 3 * n) != drafting:
            fail("phase", s.phase, f"({PHASES[s.phase]}) with draft_pos {s.draft_pos} of "
                 f"{3 * n} picks: the phase is 'draft' exactly while picks are left")
        if drafting:
            self._check_draft(s)
            return
        self._check_play(s)

    def _check_draft(self, s: Garda3State) -> None:
        if self.config.fighter_selection == "random":
            fail("phase", s.phase, "is 'draft', but fighter_selection 'random' has no draft")
        if s.actor != s.draft_order[s.draft_pos]:
            fail("actor", s.actor, f"is not the picking seat draft_order[draft_pos "
                 f"{s.draft_pos}] = {s.draft_order[s.draft_pos]} in phase 'draft'")
        for name in ("round_attacker", "target", "striker", "blocker", "atk_slot", "def_slot",
                     "atk_bonus", "def_bonus", "winner"):
            if getattr(s, name) != -1:
                fail(name, getattr(s, name), "is not -1 in phase 'draft' (no round yet)")
        for name in ("counter", "resurrected", "revealed", "truncated"):
            if getattr(s, name):
                fail(name, True, "is set in phase 'draft' (no round yet)")
        if s.round != 0:
            fail("round", s.round, "is not 0 in phase 'draft' (round 1 starts after the draft)")
        for p, hand in enumerate(s.hands):
            if hand:
                fail(f"hands[{p}]", hand, "holds cards in phase 'draft': the deal follows the "
                     "draft (G-2.4)")
        for name in ("discard", "atk_cards", "def_cards"):
            if getattr(s, name):
                fail(name, getattr(s, name), "is not empty in phase 'draft' (no card is dealt "
                     "or played before round 1, G-2.4)")

    def _check_play(self, s: Garda3State) -> None:
        """The invariants once the fighters are chosen (phase after the draft)."""
        cfg, n, ph = self.config, self.num_players, s.phase
        where = f"in phase {PHASES[ph]!r}"
        over = ph == PH_OVER
        hp = s.hp
        alive = [any(h > 0 for h in hp[p]) for p in range(n)]
        # the round and the end (G-6)
        if s.round < 1:
            fail("round", s.round, f"is not a round (1..{cfg.max_rounds}) {where}")
        if s.truncated != (s.round > cfg.max_rounds):
            fail("round", s.round, f"with truncated {s.truncated}: round max_rounds + 1 = "
                 f"{cfg.max_rounds + 1} is reached exactly when the game is truncated (G-6.2)")
        if s.truncated and not over:
            fail("truncated", True, f"{where}: a truncated game is over")
        if over and (s.winner >= 0) == s.truncated:
            fail("winner", s.winner, f"with truncated {s.truncated} {where}: a game over has "
                 "a winner or was truncated, not both")
        if not over and s.winner >= 0:
            fail("winner", s.winner, f"is set {where} (the game goes on)")
        for p in range(n):
            if not alive[p] and s.hands[p]:
                fail(f"hands[{p}]", s.hands[p], f"is not empty although hp[{p}] {hp[p]} has no "
                     "living fighter (a player out discards the hand, G-6.1 / G-7.4)")
            if len(s.hands[p]) > 3 and not self.royale:
                fail(f"hands[{p}]", s.hands[p], "holds more than 3 cards without 'royale' "
                     "(G-3.1: draw up to 3)")
        out = [f"hp[{p}]" for p in range(n) if not alive[p]]
        if s.winner >= 0:
            if not alive[s.winner]:
                fail(f"hp[{s.winner}]", hp[s.winner], f"has no living fighter although winner "
                     f"is seat {s.winner}")
            if n - len(out) > 1:
                fail(", ".join(f"hp[{p}]" for p in range(n) if alive[p] and p != s.winner),
                     hp, f"a seat other than winner {s.winner} has a living fighter (G-6.1)")
        elif n - len(out) < 2:
            fail(", ".join(out), hp, f"only {n - len(out)} seat(s) have a living fighter {where} "
                 "with no winner (the game ends when one is left, G-6.1 / G-7.4)")
        # roles
        ra, t = s.round_attacker, s.target
        if ra < 0:
            fail("round_attacker", ra, f"is not a seat {where}")
        if n == 2:  # G-3.2: the roles swap every round
            r = s.round - 1 if s.truncated else s.round
            if ra != (s.first_player + r - 1) % 2:
                fail("round_attacker", ra, f"is not the attacker of round {r}: first_player "
                     f"{s.first_player} attacks in odd rounds (G-3.2; truncated {s.truncated})")
        elif s.round == 1 and ra != s.first_player:
            fail("round_attacker", ra, f"is not first_player {s.first_player} in round 1 (G-3.2)")
        if not over and not alive[ra]:
            fail("round_attacker", ra, f"has no living fighter (hp[{ra}] {hp[ra]}) {where}")
        if ph == PH_TARGET:
            if not self.ffa:
                fail("phase", ph, "(target) exists only in free_for_all (G-7.4)")
            if t != -1:
                fail("target", t, f"is chosen already {where}")
        else:
            if t < 0 or t == ra:
                fail("target", t, f"is not an opponent of round_attacker {ra} {where}")
            if not self.ffa and t != 1 - ra:
                fail("target", t, f"is not the opponent 1 - round_attacker {ra} {where}")
            if not over and not alive[t]:
                fail("target", t, f"has no living fighter (hp[{t}] {hp[t]}) {where}")
        if s.def_bonus != -1:
            fail("def_bonus", s.def_bonus, "is set: the defence bonus side is chosen and the "
                 "battle resolved in one step (a saved state holds -1)")
        if s.resurrected and not self.resurrection:
            fail("resurrected", True, "without the 'resurrection' variant (G-7.2)")
        if self.night:
            for name in ("atk_cards", "def_cards"):
                check_len(name, getattr(s, name), 0, 1, why="'night': one card a side, G-7.3")
        if over:
            self._check_over(s, alive)
            return
        if ph in (PH_TARGET, PH_ATTACKER_FIGHTER, PH_DEFENDER_FIGHTER):
            self._check_before_battle(s, where)
            return
        # a battle, its counter-attack choice or a resurrection (atk_slot, def_slot chosen)
        self._alive_slot(s, "atk_slot", s.atk_slot, "round_attacker", ra, where)
        self._alive_slot(s, "def_slot", s.def_slot, "target", t, where)
        roles = (t, ra) if s.counter else (ra, t)
        if (s.striker, s.blocker) != roles:
            fail("striker", s.striker, f"and blocker {s.blocker} are not (round_attacker, target)"
                 f" = ({ra}, {t}), swapped in a counter-attack (counter {s.counter}; G-5.1) "
                 f"{where}")
        if s.counter and ph not in (PH_ATTACK_CARDS, PH_ATTACK_BONUS, PH_DEFENCE_CARDS,
                                    PH_DEFENCE_BONUS):
            fail("counter", True, f"{where}: the counter-attack is a battle")
        if s.resurrected and not s.counter and ph != PH_COUNTER_CHOICE:
            fail("resurrected", True, f"{where}: a resurrection replaces the attack, then comes "
                 "the counter-attack choice (G-7.2)")
        if ph == PH_COUNTER_CHOICE or ph == PH_RESURRECT_CHOICE:
            self._check_no_battle_cards(s, where)
            if ph == PH_COUNTER_CHOICE:
                if s.actor != t:
                    fail("actor", s.actor, f"is not target {t} {where} (G-5.1)")
                if not s.hands[t]:
                    fail(f"hands[{t}]", s.hands[t], f"of target {t} is empty {where}: the "
                         "counter-attack is offered only with a card (G-5.2)")
                if s.revealed == s.resurrected:
                    fail("revealed", s.revealed, f"with resurrected {s.resurrected} {where}: "
                         "the battle before was resolved (revealed) unless a resurrection "
                         "replaced it")
            else:
                if not self.resurrection:
                    fail("phase", ph, "(resurrect_choice) without the 'resurrection' variant")
                if s.actor != ra:
                    fail("actor", s.actor, f"is not round_attacker {ra} {where} (G-7.2)")
                if s.resurrected or s.revealed:
                    fail("resurrected" if s.resurrected else "revealed", True,
                         f"is set {where} (the resurrection is being declared)")
                if all(h > 0 for h in hp[ra]):
                    fail(f"hp[{ra}]", hp[ra], f"of round_attacker {ra} has no eliminated "
                         f"fighter to bring back {where} (G-7.2 DECISION)")
            return
        self._check_battle(s, where)

    def _check_over(self, s: Garda3State, alive: list[bool]) -> None:
        """A game ends after a battle (or a resurrection, G-7.2): its roles, slots and the
        counter flag stay as they were (G-6)."""
        where = "in phase 'over'"
        ra, t = s.round_attacker, s.target
        if s.actor != -1:
            fail("actor", s.actor, f"is not -1 {where}")
        self._check_no_battle_cards(s, where)
        for name in ("atk_slot", "def_slot"):
            if getattr(s, name) < 0:
                fail(name, getattr(s, name), f"is not the slot of the last battle {where}")
        roles = (t, ra) if s.counter else (ra, t)
        if (s.striker, s.blocker) != roles:
            fail("striker", s.striker, f"and blocker {s.blocker} are not the last battle's "
                 f"(round_attacker, target) = ({ra}, {t}), swapped after a counter-attack "
                 f"(counter {s.counter}) {where}")
        slot_name = "def_slot" if s.counter else "atk_slot"
        self._alive_slot(s, slot_name, self._striker_slot(s), "striker", s.striker, where)
        if not s.revealed and not s.resurrected:
            fail("revealed", False, f"with resurrected False {where}: the last battle was "
                 "resolved, its cards face up")
        if s.winner >= 0 and s.striker != s.winner:
            fail("striker", s.striker, f"is not winner {s.winner}: the game is won by the last "
                 "battle's striker eliminating the blocker's last fighter (G-6.1)")

    def _alive_slot(self, s: Garda3State, path: str, slot: int, who: str, seat: int,
                    where: str) -> None:
        if slot < 0 or s.hp[seat][slot] <= 0:
            fail(path, slot, f"is not a living fighter slot of {who} {seat} (hp[{seat}] "
                 f"{s.hp[seat]}) {where}")

    def _check_no_battle_cards(self, s: Garda3State, where: str) -> None:
        for name in ("atk_cards", "def_cards"):
            if getattr(s, name):
                fail(name, getattr(s, name), f"is not empty {where} (played cards are "
                     "discarded when the battle is resolved, G-4.9)")
        if s.atk_bonus != -1:
            fail("atk_bonus", s.atk_bonus, f"is not -1 {where} (no attack on the table)")

    def _check_before_battle(self, s: Garda3State, where: str) -> None:
        ph, ra = s.phase, s.round_attacker
        self._check_no_battle_cards(s, where)
        if s.actor != (s.target if ph == PH_DEFENDER_FIGHTER else ra):
            fail("actor", s.actor, f"is not the seat choosing {where} (round_attacker {ra}, "
                 f"target {s.target}; G-4.1)")
        if ph == PH_DEFENDER_FIGHTER:
            self._alive_slot(s, "atk_slot", s.atk_slot, "round_attacker", ra, where)
        elif s.atk_slot != -1:
            fail("atk_slot", s.atk_slot, f"is chosen already {where}")
        if s.def_slot != -1:
            fail("def_slot", s.def_slot, f"is chosen already {where}")
        for name in ("counter", "resurrected"):
            if getattr(s, name):
                fail(name, True, f"is set {where} (before this round's battle)")
        if s.round == 1:  # the last battle's roles stay until the next battle; none yet
            if s.striker != -1 or s.blocker != -1 or s.revealed:
                fail("striker", s.striker, f"blocker {s.blocker}, revealed {s.revealed}: there "
                     f"was no battle before round 1's {where} (expected -1, -1, False)")
        elif s.striker < 0 or s.blocker < 0 or s.striker == s.blocker:
            fail("striker", s.striker, f"and blocker {s.blocker} are not two seats (those of "
                 f"the last battle) {where}, round {s.round}")

    def _check_battle(self, s: Garda3State, where: str) -> None:
        """attack_cards, attack_bonus, defence_cards, defence_bonus (G-4.2 … G-4.7)."""
        ph, atk, dfn = s.phase, s.atk_cards, s.def_cards
        striker_slot = "def_slot" if s.counter else "atk_slot"
        blocker_slot = "atk_slot" if s.counter else "def_slot"
        a_bonus = self.fighter_stats(s, s.striker, self._striker_slot(s))[0]
        d_bonus = self.fighter_stats(s, s.blocker, self._blocker_slot(s))[1]
        attacking = ph in (PH_ATTACK_CARDS, PH_ATTACK_BONUS)
        if s.actor != (s.striker if attacking else s.blocker):
            fail("actor", s.actor, f"is not the {'striker' if attacking else 'blocker'} {where} "
                 f"(striker {s.striker}, blocker {s.blocker})")
        if len(atk) == 2 and not self.pairs(atk[0], atk[1]):
            fail("atk_cards", atk, "are two cards of different colours (G-1.5, piebald_is_wild "
                 f"{self.config.piebald_is_wild})")
        split = self.split_attack(s)
        if ph == PH_ATTACK_CARDS:
            check_len("atk_cards", atk, 0, 0 if self.night else 1,
                      why=f"the attack ends with its last card {where}")
        elif ph == PH_ATTACK_BONUS:
            if not split:
                fail("atk_cards", atk, f"are not a two-direction attack {where} (G-4.5)")
        else:
            check_len("atk_cards", atk, 1, 2, why=f"the attack is on the table {where}")
        if attacking:
            if dfn:
                fail("def_cards", dfn, f"is not empty {where} (the defence follows the attack)")
            if s.revealed:
                fail("revealed", True, f"{where}: the attack is revealed once the defence is "
                     "played (G-7.3)")
            if s.atk_bonus != -1:
                fail("atk_bonus", s.atk_bonus, f"is chosen already {where}")
            if ph == PH_ATTACK_CARDS and not s.hands[s.striker]:
                fail(f"hands[{s.striker}]", s.hands[s.striker], f"of striker {s.striker} is "
                     f"empty {where} (a battle without cards resolves at once, G-4.6)")
        else:
            want = split and a_bonus > 0
            if (s.atk_bonus >= 0) != want:
                fail("atk_bonus", s.atk_bonus, f"{where}: the attacker chooses a side exactly for "
                     f"a two-direction attack ({split}) by a fighter with an attack bonus (striker "
                     f"{s.striker}'s {striker_slot} fighter: +{a_bonus}; G-4.5)")
        if ph == PH_ATTACK_BONUS and a_bonus == 0:
            fail(striker_slot, self._striker_slot(s), f"{where}: striker {s.striker}'s fighter "
                 "has no attack bonus to place (G-4.5)")
        if ph == PH_DEFENCE_CARDS:
            check_len("def_cards", dfn, 0, 0 if self.night else 1,
                      why=f"the defence ends with its last card {where}")
            if s.revealed:
                fail("revealed", True, f"{where}: the attack is revealed once the defence is "
                     "played (G-7.3)")
            if not s.hands[s.blocker]:
                fail(f"hands[{s.blocker}]", s.hands[s.blocker], f"of blocker {s.blocker} is "
                     f"empty {where} (without a card the defence is 0 at once, G-4.6)")
        elif ph == PH_DEFENCE_BONUS:
            check_len("def_cards", dfn, 2, why=f"two defence cards {where}")
            if not self.pairs(dfn[0], dfn[1]):
                fail("def_cards", dfn, "are two cards of different colours (G-1.5, "
                     f"piebald_is_wild {self.config.piebald_is_wild})")
            if CARD_DEFENCE_DIR[dfn[0]] == CARD_DEFENCE_DIR[dfn[1]] or not split:
                fail("def_cards", dfn, f"with atk_cards {atk} {where}: the defender chooses the "
                     "bonus side only when two attacked directions are both defended (G-4.6)")
            if d_bonus == 0:
                fail(blocker_slot, self._blocker_slot(s), f"{where}: blocker {s.blocker}'s "
                     "fighter has no defence bonus to place (G-4.6)")
            if not s.revealed:
                fail("revealed", False, f"{where}: the defence is played, the attack is face up")

    # -- hidden information -----------------------------------------------------------------
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
        s.legal_cache = None  # the clone shares the original's; the actor's hand may differ
        return s
