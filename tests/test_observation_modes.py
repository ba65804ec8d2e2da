"""The observation modes (card_envs.core.observation_modes): the named dict view and the
per-entity view of every game, their spaces under Gymnasium's check_env and PettingZoo's api_test
for every game and variant, hand-computed entity rows of scripted situations, the leak checks of
check_game catching a deliberately leaking toy view, and SB3's MultiInputPolicy training on the
dict view."""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test

from card_envs.bots.base import RandomBot
from card_envs.core.errors import ConfigError
from card_envs.core.registry import env_module, make_game
from card_envs.testing import ConformanceError, check_game
from card_envs.testing.toy_game import MAX_PILE, PerfectBot, ToyNimConfig, ToyNimGame
from card_envs.testing.conformance import view_modes
from card_envs.testing.toy_game.observation import ToyNimEncoder
from card_envs.testing.variants import variant_id
from card_envs.wrappers.single_agent import SingleAgentEnv
from env_helpers import registered_cases, registered_games, states_along

pytestmark = pytest.mark.filterwarnings(  # api_test's remarks on a dict observation
    "ignore:Observation is not a NumPy array", "ignore:Observation space for each agent")

CASES = [(name, cfg, mode) for name, cfg in registered_cases() for mode in ("dict", "entities")]


@pytest.mark.parametrize("case", CASES, ids=[f"{n}-{variant_id(c)}-{m}" for n, c, m in CASES])
def test_every_game_and_variant_passes_api_test_and_check_env_in_the_mode(case):
    """Every mode the game offers (:func:`~card_envs.testing.conformance.view_modes`: the dict
    view, the entity view of a game declaring one); a game without an entity view (Toy Chips)
    refuses ``"entities"`` naming it."""
    from gymnasium.utils.env_checker import check_env

    name, cfg, mode = case
    if mode not in view_modes(make_game(name, **cfg)):
        with pytest.raises(ConfigError, match="declares no entity view"):
            env_module(name).env(observation_mode=mode, **cfg)
        return
    env = env_module(name).env(observation_mode=mode, **cfg)
    api_test(env, num_cycles=60)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)["observation"]
    assert isinstance(obs, dict) and env.observation_space(env.agent_selection)["observation"] \
        .contains(obs)
    single = SingleAgentEnv(make_game(name, **cfg), RandomBot(0), observation_mode=mode, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env's remarks on 2-D rows are not errors
        check_env(single, skip_render_check=True)
    first, info = single.reset(seed=2)
    done = False
    while not done:  # a whole episode: every observation inside the space
        assert single.observation_space.contains(first)
        action = int(np.flatnonzero(info["action_mask"])[0])
        first, _, terminated, truncated, info = single.step(action)
        done = terminated or truncated


@pytest.mark.parametrize("mode", ["dict", "entities"])
def test_the_gymnasium_ids_take_the_mode(mode):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from card_envs.wrappers import GYMNASIUM_IDS

    for name, env_id in GYMNASIUM_IDS.items():
        if mode not in view_modes(make_game(name)):
            with pytest.raises(ConfigError, match="declares no entity view"):
                gymnasium.make(env_id, opponent="heuristic", observation_mode=mode, seed=0)
            continue
        env = gymnasium.make(env_id, opponent="heuristic", observation_mode=mode, seed=0)
        assert env.unwrapped.observation_mode == mode
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(env.unwrapped, skip_render_check=True)
        obs, _ = env.reset(seed=1)
        keys = ([p.name for p in env.unwrapped.game.observation_layout.pieces] if mode == "dict"
                else list(env.unwrapped.game.entity_layout.shapes()))
        assert list(obs) == keys and env.observation_space.contains(obs), name


@pytest.mark.parametrize("name", registered_games())
def test_the_dict_view_is_the_flat_vector_piece_by_piece(name):
    game = make_game(name)
    layout = game.observation_layout
    for state in states_along(game, 1, 40):
        for p in range(game.num_players):
            flat, view = game.observe(state, p), game.observe_dict(state, p)
            assert list(view) == [piece.name for piece in layout.pieces]
            for piece in layout.pieces:
                assert view[piece.name].dtype == np.float32
                np.testing.assert_array_equal(view[piece.name], flat[piece.slice])


def test_a_game_without_an_entity_view_and_bad_modes_are_refused_naming_the_field():
    with pytest.raises(ConfigError, match="observation_mode.*'pixels'"):
        env_module("garda3").env(observation_mode="pixels")
    with pytest.raises(ConfigError, match="observation_mode"):
        SingleAgentEnv(make_game("garda3"), RandomBot(0), observation_mode="pixels")
    with pytest.raises(ConfigError, match="observation_mode.*privileged"):
        SingleAgentEnv(make_game("garda3"), RandomBot(0), observation_mode="dict",
                       privileged=True)

    class NoEntities(ToyNimEncoder):
        ENTITIES = None

    class Plain(ToyNimGame):
        encoder_class = NoEntities

    with pytest.raises(ConfigError, match="declares no entity view"):
        SingleAgentEnv(Plain(ToyNimConfig()), RandomBot(0), observation_mode="entities")


def test_an_entity_layout_refuses_a_bad_declaration_naming_it():
    from card_envs.core.entities import EntityLayout, Target, Zone
    from card_envs.core.layout import Layout

    obs = Layout([("cards", 6, "3 cards x 2 features"), ("score", 1, "score")])
    actions = Layout([("play", 3, "play card i"), ("pass", 1, "pass")])
    ok = EntityLayout(obs, actions, [Zone("hand", 3, ("a", "b"), "cards", source="cards")],
                      ["score"], [Target("play", "hand")])
    assert ok.static_targets[:, 0].tolist() == [0, 1, 2, -1] and ok.total_rows == 3
    for zones, targets, match in [
        ([Zone("hand", 4, ("a", "b"), "", source="cards")], [], "need 8 entries, it has 6"),
        ([Zone("globals", 1, ("a",), "")], [], "'globals': the name is taken"),
        ([Zone("hand", 1, ("a",), ""), Zone("hand", 1, ("a",), "")], [], "name is taken"),
        ([Zone("hand", 2, ("a",), "")], [Target("play", "hand")], "row 2 outside zone 'hand'"),
        ([Zone("hand", 3, ("a",), "")], [Target("play", "deck")], "no zone 'deck'"),
        ([Zone("hand", 3, ("a",), "", present=1)], [], "present feature 1"),
    ]:
        with pytest.raises(ValueError, match=match):
            EntityLayout(obs, actions, zones, ["score"], targets)


# -- hand-computed entity rows -------------------------------------------------------------------
def test_garda3_hand_rows_targets_and_views_of_the_fighters():
    """Card 13 = value 2, attack high, defence high, black; card 35 = value 3, attack low,
    defence low, piebald (id = (value-1)*12 + attack_dir*6 + defence_dir*3 + colour, G-1.3)."""
    game = make_game("garda3", fighter_selection="random")
    state = game.new_state(4)
    p = game.current_player(state)
    hand = state.hands[p]
    for slot, card in enumerate((13, 35)):  # swapped in from wherever they lie
        if card not in hand:
            pile = next(x for x in (state.deck, state.discard, *state.hands) if card in x)
            pile[pile.index(card)], hand[slot] = hand[slot], card
    view = game.observe_entities(state, p)
    rows = sorted(hand)
    assert len(rows) == 3 and {13, 35} <= set(rows)
    np.testing.assert_allclose(view["hand"][rows.index(13)], [2 / 3, 1, 0, 1, 0, 0, 1, 0])
    np.testing.assert_allclose(view["hand"][rows.index(35)], [1, 0, 1, 0, 1, 0, 0, 1])
    assert view["hand_mask"].tolist() == [1, 1, 1]
    card = game.action_layout.start("card")
    targets = view["action_targets"][:, 0]
    for c in range(36):
        assert targets[card + c] == (rows.index(c) if c in rows else -1)
    # the fighters are views of the flat piece: slot k of seat +j is fighters row j*3 + k
    flat = game.observe(state, p)
    fighters = flat[game.observation_layout["fighters"].slice].reshape(9, 7)
    np.testing.assert_array_equal(view["own_fighters"], fighters[:3])
    np.testing.assert_array_equal(view["opponent_fighters"], fighters[3:])
    assert view["own_fighters_mask"].tolist() == [1, 1, 1]  # random selection: 3 chosen
    assert view["opponent_fighters_mask"].tolist() == [1, 1, 1, 0, 0, 0]  # 2 players
    slot = game.action_layout.start("slot")
    start = game.entity_layout.row_start["own_fighters"]
    assert targets[slot:slot + 3].tolist() == [start, start + 1, start + 2] == [43, 44, 45]


def test_rust_brawl_known_cards_count_my_deck_and_the_opponents_unseen_cards():
    game = make_game("rust_brawl", decks=("rusthaven_2026", "redneck_2025"))
    state = game.new_state(9)
    p = 0
    view = game.observe_entities(state, p)
    mine, theirs = Counter(state.decks[p]), Counter(state.decks[1]) + Counter(state.hands[1])
    ids = sorted(set(mine) | set(theirs))
    n = len(ids)
    rows = len(set(game.fixed_decks[0][1])) + len(set(game.fixed_decks[1][1]))
    assert view["known_cards_mask"].tolist() == [1] * n + [0] * (rows - n)
    nf = 50
    for i, c in enumerate(ids):
        assert view["known_cards"][i, nf] == mine[c] / 2  # copies in my deck / 2
        assert view["known_cards"][i, nf + 1] == view["known_cards"][i, nf + 2] == 0  # graveyards
        assert view["known_cards"][i, nf + 3] == theirs[c] / 2  # unseen: hand + deck (RB-3.3)
        np.testing.assert_array_equal(view["known_cards"][i, :nf], game.encoder.hand_rows()[c])
    # play i / discard i name own hand row i (rows 9 .. 18), only for the cards held
    hand = len(state.hands[p])
    play, discard = game.action_layout.start("play"), game.action_layout.start("discard")
    held = [9 + i if i < hand else -1 for i in range(10)]
    assert view["action_targets"][play:play + 10, 0].tolist() == held
    assert view["action_targets"][discard:discard + 10, 0].tolist() == held
    assert (view["action_targets"][play:, 1] == -1).all()
    # without open decklists the opponent's unseen cards are not counted
    closed = make_game("rust_brawl", decks=("rusthaven_2026", "redneck_2025"),
                       open_decklists=False)
    v = closed.observe_entities(closed.new_state(9), p)
    assert v["known_cards_mask"].sum() == len(mine) and (v["known_cards"][:, nf + 3] == 0).all()


def test_rust_brawl_ranged_targets_name_the_opposing_position_and_the_acting_card():
    game = make_game("rust_brawl")
    from card_envs.rust_brawl.constants import RANGED_TARGET

    for state in states_along(game, 3, 400):
        if state.phase == RANGED_TARGET:
            break
    else:  # pragma: no cover - the seed reaches a ranged target choice
        raise AssertionError("no ranged target decision")
    p = game.current_player(state)
    view = game.observe_entities(state, p)
    ranged = game.action_layout.start("ranged")
    opponent = [5 + j if view["opponent_table_mask"][j] else -1 for j in range(4)]
    assert view["action_targets"][ranged:ranged + 4, 0].tolist() == opponent
    assert view["action_targets"][ranged:ranged + 4, 1].tolist() == [1 + state.acting] * 4
    other = game.observe_entities(state, 1 - p)  # not deciding: no acting card of mine
    assert (other["action_targets"][ranged:ranged + 4, 1] == -1).all()


def test_dirt_and_glory_offer_rows_are_the_kinds_with_their_values_and_counts():
    game = make_game("dirt_and_glory", num_players=3)
    state = game.new_state(2)
    kind_of = game.card_kind
    # three cards of the offer: what kinds they are decides the rows
    cards = [c for c in range(game.num_cards) if kind_of[c] in (1, 14)][:3]
    state.offer = cards
    view = game.observe_entities(state, 0)
    counts = Counter(kind_of[c] for c in cards)
    top = max(max(game.k_high), 1)
    for k in range(game.num_kinds):
        row = view["offer"][k]
        if k in counts:
            assert row[0] == pytest.approx(game.k_low[k] / top)
            assert row[1] == pytest.approx(game.k_high[k] / top)
            assert row[2] == (1.0 if game.k_low[k] != game.k_high[k] else 0.0)
            assert row[3 + game.k_ab[k]] == 1.0 and row[3:8].sum() == 1.0
            assert row[8] == pytest.approx(counts[k] / 3)  # cards of the kind / num_players
        else:
            assert not row.any()
    assert view["offer_mask"].tolist() == [1 if k in counts else 0
                                           for k in range(game.num_kinds)]
    take = game.action_layout.start("take")
    start = game.entity_layout.row_start["offer"]
    assert view["action_targets"][take:take + game.num_kinds, 0].tolist() == \
        [start + k if k in counts else -1 for k in range(game.num_kinds)]
    # kind 1 is "1/3" and kind 14 "1+zero_next" in the designed content
    assert (game.k_low[1], game.k_high[1]) == (1, 3) and game.k_ab[14] == 3


def test_scratch_wars_weapon_rows_gather_the_slot_and_flag_the_spin_and_the_attack():
    from card_envs.scratch_wars.constants import PH_RESULT, PH_SHIELD
    from card_envs.scratch_wars.observation import WEAPON_FEATURES, WHEEL_FEATURES

    game = make_game("scratch_wars", level=3)
    layout = game.observation_layout
    seen = set()
    for seed in range(40):
        for state in states_along(game, seed, 300):
            p = game.current_player(state)
            view = game.observe_entities(state, p)
            flat = game.observe(state, p)
            for k in range(5):  # row k: slot k's weapon facts and wheel, in play (5 weapons)
                row = view["my_weapons"][k]
                info = flat[layout["my_weapon_info"].slice][k * WEAPON_FEATURES:
                                                            (k + 1) * WEAPON_FEATURES]
                wheel = flat[layout["my_wheels"].slice][k * WHEEL_FEATURES:
                                                        (k + 1) * WHEEL_FEATURES]
                np.testing.assert_array_equal(row[1:1 + WEAPON_FEATURES], info)
                np.testing.assert_array_equal(row[-3 - WHEEL_FEATURES:-3], wheel)
                assert row[0] == 1.0
            targets = view["action_targets"][:, 0]
            apply = game.action_layout.start("apply")
            if state.phase == PH_RESULT:  # apply / decline: the weapon I just spun
                k = state.last_spin.slot
                assert targets[apply] == targets[apply + 1] == k
                assert view["my_weapons"][:, -3].tolist() == [float(j == k) for j in range(5)]
                seen.add("result")
            else:
                assert targets[apply] == targets[apply + 1] == -1
            if state.phase == PH_SHIELD and state.attack.target == "weapon":
                k = state.attack.target_slot  # I defend: my weapon k is attacked
                assert view["my_weapons"][:, -2].tolist() == [float(j == k) for j in range(5)]
                assert not view["opp_weapons"][:, -2:].any() and not view["heroes"][:, -1].any()
                seen.add("shield")
            if state.phase == PH_SHIELD and state.attack.target == "hero":
                assert view["heroes"][:, -1].tolist() == [1.0, 0.0]
                seen.add("hero")
        if seen == {"result", "shield", "hero"}:
            break
    assert seen == {"result", "shield", "hero"}


# -- the leak checks of check_game catch a leaking view ---------------------------------------
class LeakyEntityEncoder(ToyNimEncoder):
    def fill_entities(self, state, player, flat, out):
        super().fill_entities(state, player, flat, out)
        out["seats"][player, 2] = max(state.bonus_at, 0) / MAX_PILE  # the hidden bonus card


class LeakyEntities(ToyNimGame):
    encoder_class = LeakyEntityEncoder


class LeakyDictEncoder(ToyNimEncoder):
    def encode_dict(self, state, player):
        view = super().encode_dict(state, player)
        view["bonus_mine"] = np.array([max(state.bonus_at, 0) / MAX_PILE], dtype=np.float32)
        return view


class LeakyDict(ToyNimGame):
    encoder_class = LeakyDictEncoder


def test_check_game_passes_the_toy_views_and_fails_a_leaking_one():
    counts = check_game(ToyNimGame(ToyNimConfig(num_players=3)), games=4, heuristic=PerfectBot)
    assert counts["terminal"] == 4
    with pytest.raises(ConformanceError, match=r"entities view changes after sample_hidden "
                                               r"for seat \d \('seats' entry \[\d, 2\]\)"):
        check_game(LeakyEntities(ToyNimConfig(num_players=3)), games=4, heuristic=PerfectBot)
    with pytest.raises(ConformanceError, match="the dict view of seat 0: its pieces differ "
                                               "from the flat observation"):
        check_game(LeakyDict(ToyNimConfig(num_players=3)), games=4, heuristic=PerfectBot)


# -- SB3's MultiInputPolicy trains on the dict view --------------------------------------------
def test_maskable_ppo_multi_input_policy_trains_on_the_dict_view_and_plays_it():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from card_envs.bots.sb3 import FrozenPolicy
    from card_envs.evaluation.match import play_match

    game = make_game("garda3")
    env = SingleAgentEnv(game, RandomBot(0), observation_mode="dict", illegal_action="raise",
                         seed=0)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(128)
    assert model.num_timesteps >= 128
    policy = FrozenPolicy(model.policy)
    assert policy.observation_mode == "dict"
    result = play_match(game, policy, RandomBot(1), 4, seed=0, paired=True)
    assert result.n == 4
