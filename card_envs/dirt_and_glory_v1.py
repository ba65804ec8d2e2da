"""Dirt and Glory (``dirt_and_glory_v1``): a PettingZoo AEC env for 2–5 players.

Rules as implemented: ``docs/rules/dirt_and_glory.md`` (rule ids ``DG-…``). Each player builds a
caravan by revealing cards from their own deck, trying to get as close as possible to the
territory's target without exceeding it; 6 rounds, most points wins.

Usage::

    from card_envs import dirt_and_glory_v1
    env = dirt_and_glory_v1.env(num_players=3, reward="win", content=None, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else choose(obs["observation"], obs["action_mask"])
        env.step(action)

Agents: ``player_0 … player_{n-1}``. Every turn is split into small decisions (draft, mix,
setup, main, value, ability, after, take), each with its own action mask; only the seat to decide
gets a non-zero mask.

Observation
-----------
``{"observation": float32 (size,), "action_mask": int8 (129,)}``, every observation entry in
``[0, 1]``. Seat-relative: the observer's own seat is row 0 of the per-seat pieces. Size
``21 + R + 6·K + n·(11 + K)`` with ``R = num_rounds`` (6) and ``K`` card kinds (20 for the
designed content): 209 / 240 / 271 /
302 for 2 / 3 / 4 / 5 players. Never holds another seat's reserve (only its size), another seat's
deck composition or hand, nor any deck order. Layout for 2 players (the ``seats`` and
``caravans`` pieces grow by one row per extra player):

| indices | name | meaning |
|---|---|---|
| 0–8 | `phase` | one-hot phase: draft, mix, setup, value, ability, main, after, take, end |
| 9–14 | `round` | one-hot round (0-based) |
| 15–21 | `territory` | current territory: target / max target, points for 1st/2nd/3rd / max points, fuel for 1st/2nd/3rd / 9 |
| 22 | `territories_left` | territories still to come / num_rounds |
| 23 | `unit_deck_size` | unit deck size / unit deck cards |
| 24–43 | `own_deck` | own deck composition: cards of kind i / max_owned (not the order) |
| 44 | `own_deck_size` | own deck size / max_owned |
| 45–64 | `own_reserve` | own reserve: cards of kind i / max_owned |
| 65–84 | `own_known_top` | one-hot kind of the own top card if known (scout), else 0 |
| 85–104 | `own_hand` | own draft/setup hand while deciding it: cards of kind i / 3 |
| 105–124 | `played` | one-hot kind of the card just played this turn (public) |
| 125–126 | `turn` | played from the reserve this turn; fuel uses this turn / max(1, fuel_uses_per_turn) |
| 127–146 | `offer` | offer: cards of kind i / num_players |
| 147–168 | `seats` | per seat, seat-relative (observer first), 11 features each: caravan total / (max target + 5); passed; exceeded the target (busted); fuel / 20 (clipped); score / 100 (clipped); deck size / max_owned; reserve size / max_owned; caravan size / max_owned; to act; zero_next pending; first player of the round |
| 169–208 | `caravans` | per seat, seat-relative: caravan cards of kind i / max_owned (public) |

Observation modes
-----------------
``observation_mode="flat"`` (default), ``"dict"`` or ``"entities"``: what each holds is in
:mod:`card_envs.core.observation_modes` (every mode shows what the flat vector shows, no more).
Here a row is one card kind of a pile or one seat; the entity layout for 2 players
(``other_caravans`` and ``seats`` grow by ``K`` rows and one row per extra player):

| key | shape | rows | meaning |
|---|---|---|---|
| `own_deck` | (20, 9) | 0–19 | own deck: one row per card kind i; features: low value / highest value; high value / highest value; two values; ability none; ability fuel; ability scout; ability zero_next; ability stash; cards of the kind / max_owned |
| `own_deck_mask` | (20,) | | 1 for a row holding one (feature 8 non-zero) |
| `own_reserve` | (20, 9) | 20–39 | own reserve: one row per card kind i; features: the 8 kind features, then the count |
| `own_reserve_mask` | (20,) | | 1 for a row holding one (feature 8 non-zero) |
| `own_hand` | (20, 9) | 40–59 | own hand: one row per card kind i; features: the 8 kind features, then the count |
| `own_hand_mask` | (20,) | | 1 for a row holding one (feature 8 non-zero) |
| `offer` | (20, 9) | 60–79 | offer: one row per card kind i; features: the 8 kind features, then the count |
| `offer_mask` | (20,) | | 1 for a row holding one (feature 8 non-zero) |
| `own_caravan` | (20, 9) | 80–99 | own caravan: one row per card kind i; features: the 8 kind features, then the count |
| `own_caravan_mask` | (20,) | | 1 for a row holding one (feature 8 non-zero) |
| `other_caravans` | (20, 10) | 100–119 | the caravans of the seats +1, +2... clockwise: row (j-1)·K + i is seat +j's kind i; features: the 8 kind features, then the count, then the seat |
| `other_caravans_mask` | (20,) | | 1 for a row holding one (feature 8 non-zero) |
| `known_top` | (1, 9) | 120 | the kind of my top card when known (scout); features: the 8 kind features, then the count |
| `known_top_mask` | (1,) | | 1 for a row holding one (feature 8 non-zero) |
| `played` | (1, 9) | 121 | the kind of the card just played this turn (public); features: the 8 kind features, then the count |
| `played_mask` | (1,) | | 1 for a row holding one (feature 8 non-zero) |
| `seats` | (2, 11) | 122–123 | one row per seat, seat-relative (me first) (a view of the flat piece `seats`); features: caravan total / (max target + 5); passed; exceeded the target (busted); fuel / 20 (clipped); score / 100 (clipped); deck size / max_owned; reserve size / max_owned; caravan size / max_owned; to act; zero_next pending; first player of the round |
| `seats_mask` | (2,) | | 1 for every row |
| `globals` | (27,) | | the flat pieces `phase`, `round`, `territory`, `territories_left`, `unit_deck_size`, `own_deck_size`, `turn` in that order |
| `action_targets` | (129, 1) | | per action id the row(s) it refers to, -1 for none (table below) |

| actions | column | refers to |
|---|---|---|
| `play_top` (0) | 0 | `known_top` row 0: when known |
| `fuel_reserve` (3) | 0 | `played` row 0: the card just played |
| `value` (4–5) | 0 | `played` row 0: the card just played |
| `ability_use` (6) | 0 | `played` row 0: the card just played |
| `ability_skip` (7) | 0 | `played` row 0: the card just played |
| `play_reserve` (9–28) | 0 | `own_reserve` row i (action i of the piece) |
| `stash` (29–48) | 0 | `own_caravan` row i (action i of the piece) |
| `mix` (49–68) | 0 | `own_reserve` row i (action i of the piece) |
| `take` (69–88) | 0 | `offer` row i (action i of the piece) |
| `draft_return` (89–108) | 0 | `own_hand` row i (action i of the piece) |
| `place` (109–128) | 0 | `own_hand` row i (action i of the piece) |

Actions
-------
``Discrete(9 + 6·K)`` = ``Discrete(129)`` for the designed content. Card choices name a card
*kind* (cards of one kind are interchangeable). An action's name is its piece name, with the
index inside a piece of several actions and the card kind or value it names
(``action_to_string``: ``"play_top"``, ``"take 3: 2"``, ``"value 1: high 4 of 1/4"``):

| indices | name | meaning |
|---|---|---|
| 0 | `play_top` | MAIN: reveal the top card of the own deck and add it to the caravan (DG-3.2) |
| 1 | `pass` | MAIN: pass (DG-3.2); AFTER: accept exceeding the target (forced pass) |
| 2 | `end_turn` | AFTER: end the turn without a fuel use |
| 3 | `fuel_reserve` | AFTER: spend fuel to move the card just played to the reserve (DG-3.3) |
| 4–5 | `value` | VALUE: count the low / high value of the two-value card, chosen after its ability (DG-3.2, DG-3.1) |
| 6 | `ability_use` | ABILITY: resolve the played card's ability (fuel, scout, zero_next), before its value is chosen (DG-3.2) |
| 7 | `ability_skip` | ABILITY: do not resolve it (abilities are optional) |
| 8 | `mix_done` | MIX: keep the remaining reserve cards in the reserve (DG-3.6) |
| 9–28 | `play_reserve` | MAIN: spend fuel to play a reserve card of kind i (DG-3.3) |
| 29–48 | `stash` | ABILITY (stash): move a caravan card of kind i to the reserve (DG-1.5) |
| 49–68 | `mix` | MIX: mix one reserve card of kind i into the deck (DG-3.6) |
| 69–88 | `take` | TAKE: put an offer card of kind i on the bottom of the own deck (DG-3.2) |
| 89–108 | `draft_return` | DRAFT: of the 3 drawn cards, return one of kind i, keep the other 2 (DG-2.1) |
| 109–128 | `place` | SETUP: place the drawn card of kind i as the first caravan card, the other goes to the reserve (DG-3.1) |

Card kinds of the designed content (index ``i`` of the kind ranges; ``a/b`` = two values,
``+ability`` as in DG-1.5):

| i | kind |
|---|---|
| 0 | `1` |
| 1 | `1/3` |
| 2 | `1/4` |
| 3 | `2` |
| 4 | `2/4` |
| 5 | `2/5` |
| 6 | `3` |
| 7 | `4` |
| 8 | `5` |
| 9 | `3+fuel` |
| 10 | `4+fuel` |
| 11 | `1/4+scout` |
| 12 | `2+scout` |
| 13 | `3+scout` |
| 14 | `1+zero_next` |
| 15 | `2+zero_next` |
| 16 | `2/5+zero_next` |
| 17 | `1/3+stash` |
| 18 | `3+stash` |
| 19 | `5+stash` |

Rewards
-------
Only at the end of the game (DG-4.2), zero-sum. ``reward="win"`` (default): with
``W_i = 1/k`` for each of the ``k`` winners (after the DG-4.1 tie-break) and 0 otherwise,
``reward_i = (W_i − 1/n)·n/(n−1)``: a sole winner gets +1 and the others share −1 (2 players:
+1/−1; a shared win of 2 players gives 0/0). ``reward="score"``: own final score minus the mean
of the other players' final scores.

Episode end
-----------
Terminated after the scoring of the 6th round (DG-4.1). Truncated only by the adapter's
``max_steps`` (default ``game.max_game_length``), which the rules never reach.

Arguments
---------
``num_players`` (2–5, default 2), ``reward`` (``"win"``/``"score"``), ``content`` (path of a
content TOML file replacing the designed cards, see :mod:`card_envs.dirt_and_glory.cards`),
``render_mode`` (``None``/``"ansi"``/``"human"``/``"rgb_array"``: a picture of the table,
``uint8``, 1280 wide), ``render_seat`` (``None`` or ``"player_k"``: only that seat's view),
``illegal_action`` (``"terminate"``/``"raise"``), ``illegal_reward`` (-1.0), ``observation_mode``
(``"flat"``/``"dict"``/``"entities"``: the section "Observation modes"), ``max_steps``; and the
rule DECISION fields of
:class:`card_envs.dirt_and_glory.config.DirtAndGloryConfig`: ``num_rounds``, ``starting_fuel``,
``draft_return``, ``territory_selection``, ``first_card_value``, ``first_card_ability``,
``first_player``, ``fuel_cost``, ``fuel_uses_per_turn``, ``bust_fuel_rescue``, ``empty_deck``,
``ties``, ``consolation_fuel``, ``caravan_return``, ``reserve_mix``, ``fuel_per_point``,
``tie_break``. A wrong value raises ``ConfigError`` naming the field; malformed content raises
``CardDataError`` naming the file and the entry/field.

Version history
---------------
- v0: first version (designed content, DG rules of ``docs/rules/dirt_and_glory.md``).
- v1: DG-3.2 amendment: a played card's ability is resolved *before* a two-value card's value
  is chosen (the Czech text: the ability, then the total and the choice), so a scout shows the
  next card before the choice and a stash happens before it; the ``ability`` decision now comes
  before ``value`` (also for a placed first card with ``first_card_ability=True``), and the card
  counts its low value until its value is chosen. The ``value`` / ``ability_use`` action
  descriptions say so. Fuel uses and the reserve-play flag are reset when a round is scored (the
  fuel-use entry of the ``turn`` observation piece reads 0 during the round preparation and at
  the end, not the last turn's value). The state is declared once (``DirtAndGloryState``, strict
  loading with ``check_state``); the state gains ``discarded`` (draft cards out of the game with
  ``draft_return="discard"``); v0 saved states and records do not load.
- Later within v1 (the flat observation, the action layout and play unchanged):
  ``observation_mode="dict"`` and ``"entities"`` (the section "Observation modes").
"""

from __future__ import annotations

from card_envs.core.aec import make_env_functions
from card_envs.dirt_and_glory.rules import make_game

raw_env, env = make_env_functions(make_game, "dirt_and_glory_v1")

#: the same names in every env module: the PettingZoo pair and the game factory they wrap
__all__ = ["env", "make_game", "raw_env"]
