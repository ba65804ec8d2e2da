"""Rust Brawl (``rust_brawl_v1``): a PettingZoo AEC env for 2 players.

Rules as implemented: ``docs/rules/rust_brawl.md`` (rule ids ``RB-…``). A collectible card game:
each player has a deck (RB-1: at most 2 copies of a card, a unique card once, at most 250
points), 4 table positions and a graveyard; each turn draw 1, every own table card acts in
position order (melee into the same position, ranged with vehicle priority, heal), play one card,
discard above 4 cards, and destroyed cards leave at the end of the turn. The last player with a
character on the table wins (RB-7).

Usage::

    from card_envs import rust_brawl_v1
    env = rust_brawl_v1.env(decks=("rusthaven_2026", "redneck_2025"), render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else choose(obs["observation"], obs["action_mask"])
        env.step(action)

Agents: ``player_0``, ``player_1``. Every choice is a small decision with its own action mask
(phases ``ranged_target``, ``heal_target``, ``play``, ``play_or_discard``, ``equip_target``,
``discard``); only the seat to decide gets a non-zero mask. Steps with one possible choice (the
draw, a melee attack, a single target, going into cover, the end-of-turn removal and shifting, a
play step with nothing playable) are made by the engine without a decision.

Observation
-----------
``{"observation": float32 (1669,), "action_mask": int8 (33,)}`` for the default config (the
shipped database of ``N = 174`` cards, ``max_hand = 10``), every entry in ``[0, 1]``, from the
observer's side (own pieces first). Size ``23 + 9·F + max_hand·F + 4·N`` with ``F = 50`` card
features (``3·N`` with ``open_decklists=False``: no ``opponent_unseen`` piece, 1495 entries).
Never holds the opponent's hand or either deck's order; the own deck only as its composition.

| indices | name | meaning |
|---|---|---|
| 0–6 | `phase` | one-hot phase: ranged_target, heal_target, play, play_or_discard, equip_target, discard, end |
| 7–9 | `turn` | it is my turn; I am the starting player; turns so far / max_turns |
| 10–18 | `counts` | own hand size / max_hand; own deck size / 40; own graveyard size / 40; opponent hand size / max_hand; opponent deck size / 40; opponent graveyard size / 40; quiet turns / (2 x stalemate_turns); own table point sum / 100; opponent table point sum / 100 (each clipped to 1) |
| 19–22 | `acting` | one-hot position (of the seat to act) whose ranged / heal target is being chosen (RANGED_TARGET, HEAL_TARGET) |
| 23–72 | `pending` | features of the equipment card being attached (EQUIP_TARGET) |
| 73–272 | `own_table` | own positions 1-4, 50 card features each (CARD_FEATURES; all zero for an empty position) |
| 273–472 | `opponent_table` | opponent positions 1-4, the same features |
| 473–972 | `own_hand` | own hand slots 0-9 (the hand sorted by card, as the play / discard actions index it), the same features |
| 973–1146 | `own_deck` | own deck composition: copies of card i / 2 (never the order) |
| 1147–1320 | `opponent_unseen` | the opponent's unseen cards (hand + deck: its decklist minus every card shown) per card / 2 (open_decklists only) |
| 1321–1494 | `own_graveyard` | own graveyard: copies of card i / 2 |
| 1495–1668 | `opponent_graveyard` | opponent graveyard: copies of card i / 2 |

Card features (offset inside each 50-entry card block of ``pending``, ``own_table``,
``opponent_table`` and ``own_hand``; ability entries are the amount / 5, 1 for a flag ability,
the card's own plus those its equipment grants; lottery and draw are the on-play amounts):

| offset | feature |
|---|---|
| 0 | present |
| 1 | kind character |
| 2 | kind vehicle |
| 3 | kind support |
| 4 | kind equipment |
| 5 | kind explosive |
| 6 | icon melee |
| 7 | icon ranged |
| 8 | icon heal |
| 9 | icon wheel |
| 10 | icon lightning |
| 11 | icon clothing |
| 12 | icon flame |
| 13 | DMG with boosts / 10 (hand: printed) |
| 14 | HLT / 20 (hand: printed) |
| 15 | max HLT / 20 (hand: printed) |
| 16 | in cover |
| 17 | paralysed |
| 18 | destroyed (HLT <= 0) |
| 19 | points / 30 |
| 20 | unique |
| 21 | trait Human |
| 22 | trait Mutant |
| 23 | trait Mech |
| 24 | trait Animal |
| 25 | trait Raider |
| 26 | trait Miner |
| 27 | trait Biker |
| 28 | trait Zombie |
| 29 | ability boost_dmg |
| 30 | ability boost_hlt |
| 31 | ability reduce |
| 32 | ability reduce_vs |
| 33 | ability paralysis_immune |
| 34 | ability paralyse |
| 35 | ability return_strike |
| 36 | ability hit_all |
| 37 | ability removes_hlt |
| 38 | ability heal_all |
| 39 | ability lottery |
| 40 | ability draw |
| 41 | ability extra_dmg_vs |
| 42 | a boost limited to a trait |
| 43 | a boost limited to an action icon (aura) |
| 44 | reduction against melee / 5 |
| 45 | reduction against ranged / 5 |
| 46 | lottery reward is damage |
| 47 | equipment cards attached / equipment_per_character |
| 48 | equipment DMG bonus / 10 |
| 49 | equipment HLT bonus / 20 |

Observation modes
-----------------
``observation_mode="flat"`` (default), ``"dict"`` or ``"entities"``: what each holds is in
:mod:`card_envs.core.observation_modes` (every mode shows what the flat vector shows, no more).
Here a row is one card (a table position, a hand slot, the equipment being attached, or a card id
with its copies per pile); the entity layout for the default config (``max_hand`` hand rows;
``known_cards`` rows: the most distinct cards the two seats' decks can hold: 2 × 17 with the
shipped decks, 2 × 53 with random decks of 250 points, at most ``N``):

| key | shape | rows | meaning |
|---|---|---|---|
| `pending` | (1, 50) | 0 | the equipment card being attached (EQUIP_TARGET) (a view of the flat piece `pending`); features: the 50 card features (table above) |
| `pending_mask` | (1,) | | 1 for a row holding one (feature 0 non-zero) |
| `own_table` | (4, 50) | 1–4 | my positions 1-4 (a view of the flat piece `own_table`); features: the 50 card features (table above) |
| `own_table_mask` | (4,) | | 1 for a row holding one (feature 0 non-zero) |
| `opponent_table` | (4, 50) | 5–8 | the opponent's positions 1-4 (a view of the flat piece `opponent_table`); features: the 50 card features (table above) |
| `opponent_table_mask` | (4,) | | 1 for a row holding one (feature 0 non-zero) |
| `own_hand` | (10, 50) | 9–18 | my hand slots (sorted by card, as the play / discard actions index it) (a view of the flat piece `own_hand`); features: the 50 card features (table above) |
| `own_hand_mask` | (10,) | | 1 for a row holding one (feature 0 non-zero) |
| `known_cards` | (34, 54) | 19–52 | one row per card id (sorted) with a copy in my deck, a graveyard or (open decklists) the opponent's unseen cards: its printed features and its copies in each; rows: the most distinct cards the two seats' decks can hold (RustBrawlEncoder.distinct_cards); features: the 50 card features (table above), then copies in my deck / 2; copies in my graveyard / 2; copies in the opponent's graveyard / 2; the opponent's unseen copies / 2 (open_decklists only) |
| `known_cards_mask` | (34,) | | 1 for a row holding one (feature 0 non-zero) |
| `globals` | (23,) | | the flat pieces `phase`, `turn`, `counts`, `acting` in that order |
| `action_targets` | (33, 2) | | per action id the row(s) it refers to, -1 for none (table below) |

| actions | column | refers to |
|---|---|---|
| `equip` (1–4) | 0 | `own_table` row i (action i of the piece) |
| `equip` (1–4) | 1 | `pending` row 0 |
| `ranged` (5–8) | 0 | `opponent_table` row i (action i of the piece) |
| `ranged` (5–8) | 1 | `own_table`: the position of my ranged card that acts |
| `heal` (9–12) | 0 | `own_table` row i (action i of the piece) |
| `heal` (9–12) | 1 | `own_table`: the position of my healer that acts |
| `play` (13–22) | 0 | `own_hand` row i (action i of the piece) |
| `discard` (23–32) | 0 | `own_hand` row i (action i of the piece) |

Actions
-------
``Discrete(33)`` = ``Discrete(13 + 2·max_hand)``. Hand slots index the own hand sorted by card
(the ``own_hand`` piece); positions ``j`` are table positions ``j+1``. Of copies of one card in
hand only the first slot is legal. An action's name is its piece name with the index inside the
piece and the card it names (``action_to_string``: ``"play 2: Ospalý Vstupař"``,
``"ranged 0: Pouštní Bugina (HLT 3/5)"``):

| indices | name | meaning |
|---|---|---|
| 0 | `pass` | PLAY: play no card this turn (RB-4.3) |
| 1–4 | `equip` | EQUIP_TARGET: attach the equipment being played to the own character at position j+1 (RB-4.3, RB-5.7) |
| 5–8 | `ranged` | RANGED_TARGET: the acting ranged character attacks the opposing card at position j+1 (RB-5.2) |
| 9–12 | `heal` | HEAL_TARGET: the acting healer heals the own card at position j+1 (RB-5.3) |
| 13–22 | `play` | PLAY / PLAY_OR_DISCARD: play hand card i (a character, vehicle or support to the lowest free position in cover, an equipment to a character, an explosive at once; RB-4.3) |
| 23–32 | `discard` | PLAY_OR_DISCARD / DISCARD: discard hand card i to the graveyard (RB-4.3, RB-4.4) |

Rewards
-------
Only at the end of the game, zero-sum: +1 for the winner and -1 for the loser (RB-7.1, RB-7.2,
RB-7.4), 0 / 0 for a draw (RB-7.3, equal point sums) and for a truncation.

Episode end
-----------
Terminated when RB-7.4 decides the game: (a) one player has a character on the table and the
other has none and none in hand or deck; (b) neither has a character anywhere; (c) both decks
empty and nothing changed (or, with ``stalemate_cycles``, RB-7.6, the table at a turn's end
repeated the one at the end of any earlier turn of the same player since a card was last played,
discarded or destroyed: a cycle of any period; ``stalemate_repeats`` alone: only the previous
turn's) for ``stalemate_turns`` full turns of each player (the higher table point sum wins,
RB-7.2); or an empty-deck loss with ``empty_deck="lose"``. Truncated at the turn cap
``max_turns`` (500 player turns; RB-7.4): with the default rules no heuristic-vs-heuristic game
of 2,000 reaches it (``scripts/rust_brawl_turn_cap.py``).

Arguments
---------
``decks`` (``None``: a shipped deck per seat chosen by the reset seed; ``"random"``: a random legal
deck per seat from the seed; or a pair of per-seat specs, each a shipped deck name, a deck file, a
card-name list or ``"random"``; ``None`` fails with a ``DeckError`` if a shipped deck breaks
``deck_point_limit`` or names a card missing from ``card_db``),
``card_db`` (path of a card TOML replacing the shipped database), ``render_mode``
(``None``/``"ansi"``/``"human"``/``"rgb_array"``), ``render_seat`` (``None``: the whole state;
``"player_k"``: that seat's view: both tables with position, card, kind/icon, HLT/max, DMG with
boosts, cover, paralysis, equipment and ability texts, both graveyards, the own hand only, deck and hand sizes),
``illegal_action`` (``"terminate"``/``"raise"``), ``illegal_reward`` (-1.0), ``observation_mode``
(``"flat"``/``"dict"``/``"entities"``: the section "Observation modes"),
``max_steps``; and the rule DECISION fields of
:class:`card_envs.rust_brawl.config.RustBrawlConfig`: ``deck_point_limit``, ``open_decklists``,
``empty_deck``, ``equipment_per_character``, ``max_hand``, ``heal_self``, ``paralysis_turns``,
``immunity_ends_paralysis``, ``attacker_leaves_cover_first``, ``table_points_with_equipment``,
``stalemate_turns``,
``stalemate_repeats``, ``stalemate_cycles``, ``max_turns``. A wrong value raises ``ConfigError`` naming the field; an illegal deck a
``DeckError`` naming the card and the rule; a malformed database a ``CardDataError`` naming the
file, the entry and the field.

Version history
---------------
- v0: first version (the shipped designed database, RB rules of ``docs/rules/rust_brawl.md``).
- v0 (before release): ``stalemate_repeats`` (default ``True``) settles heal-vs-damage loops
  of RB-7.4(c): a turn whose end table repeats the same player's previous one is quiet, so such
  games end by RB-7.2 instead of running to the turn cap.
- v1: ``stalemate_cycles`` (default ``True``, RB-7.6): with both decks empty a turn is also quiet
  when its end table equals the one at the end of *any* earlier turn of the same player since a
  card was last played, discarded or destroyed, so heal-vs-damage cycles of period 2 or more end
  by RB-7.2 instead of at the turn cap (heuristic self-play: 1.4 % of games reached the cap under
  v0, none of 2,000 now; every other game plays as in v0). ``stalemate_cycles=False`` plays the
  v0 rules; saved states and records of v0 are refused (the version changed). ``rust_brawl_v0``
  raises an ImportError naming this module.
- Later within v1 (the flat observation, the action layout and play unchanged):
  ``observation_mode="dict"`` and ``"entities"`` (the section "Observation modes").
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from card_envs.rust_brawl.rules import make_game

raw_env, env = make_env_functions(make_game, "rust_brawl_v1")

#: the same names in every env module: the PettingZoo pair and the game factory they wrap
__all__ = ["env", "make_game", "raw_env"]
