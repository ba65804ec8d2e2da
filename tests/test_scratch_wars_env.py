"""Scratch Wars env: PettingZoo API/seed tests, documented layouts, bad input, determinism.
The card data: test_scratch_wars_cards.py; the heuristic: test_scratch_wars_bot.py."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from pettingzoo.test import api_test, seed_test

from card_envs import scratch_wars_v2
from card_envs.core.errors import ConfigError, LoadoutError
from card_envs.core.records import GameRecord, replay
from card_envs.scratch_wars import make_game
from card_envs.scratch_wars.constants import ACTIONS
from card_envs.scratch_wars.observation import OBSERVATION as OBS

VARIANTS = [
    {"level": 1},
    {"level": 2, "effects": "attack_only"},
    {"level": 2, "effects": "full"},
    {"level": 3},
]


@pytest.mark.parametrize("cfg", VARIANTS, ids=lambda c: "-".join(map(str, c.values())))
def test_pettingzoo_api_and_seed(cfg):
    api_test(scratch_wars_v2.env(**cfg), num_cycles=200)
    seed_test(lambda: scratch_wars_v2.env(**cfg))


def test_env_with_explicit_loadouts_and_render():
    env = scratch_wars_v2.env(
        level=2, effects="attack_only", render_mode="ansi",
        loadouts=[{"hero": "Published Hero", "weapons": ["Longbow", "Diamond Wand"]},
                  {"hero": "Sir Bramble", "weapons": ["Diamond Wand"]}],
    )
    env.reset(seed=3)
    text = env.render()
    assert "Published Hero" in text and "Longbow" in text and "Sir Bramble" in text
    assert env.observation_space("player_0")["observation"].shape == (OBS.size,)
    assert env.action_space("player_1").n == ACTIONS.size == 47


def test_docstring_contains_layout_tables():
    doc = scratch_wars_v2.__doc__
    assert OBS.markdown() in doc
    assert ACTIONS.markdown() in doc
    assert f"float32 ({OBS.size},)" in doc and f"Discrete({ACTIONS.size})" in doc
    # the entity view: 5 weapon slots a side (1 + 7 + 5 + 3 + 1 + 1 + 9·12 + 3 = 129 features),
    # the two heroes (1 + 1 + 1 + 2 + 1 + 104 + 1 = 111)
    entities = make_game().entity_layout
    assert "Observation modes" in doc and entities.markdown() in doc
    shapes = entities.shapes()
    assert shapes["my_weapons"][0] == shapes["opp_weapons"][0] == (5, 129)
    assert shapes["heroes"][0] == (2, 111) and entities.total_rows == 12


# -- loadouts and config (SW-2.1, SW-4.4) -----------------------------------------------------
def _lo(w0, w1=("Longbow",), hero="Published Hero"):
    return [{"hero": hero, "weapons": list(w0)}, {"hero": "Sir Bramble", "weapons": list(w1)}]


def test_sw_2_1_six_weapons_rejected():
    six = ["Longbow", "Diamond Wand", "Bamboo Bow", "Ash Shortbow", "Falcon Bow", "Reed Bow"]
    with pytest.raises(LoadoutError, match="seat 0.*6"):
        make_game(level=3, loadouts=_lo(six))


def test_sw_2_1_duplicate_kind_rejected_from_level_2_only():
    with pytest.raises(LoadoutError, match="'Longbow' equipped twice"):
        make_game(level=2, loadouts=_lo(["Longbow", "Longbow"]))
    make_game(level=1, loadouts=_lo(["Longbow", "Longbow"]))  # allowed at level 1
    make_game(level=2, loadouts=_lo(["Longbow", "Bamboo Bow"]))  # two bows of different kinds


def test_sw_2_1_unknown_names_rejected():
    with pytest.raises(LoadoutError, match="unknown weapon 'Excalibur'"):
        make_game(level=3, loadouts=_lo(["Excalibur"]))
    with pytest.raises(LoadoutError, match="unknown hero 'Nobody'"):
        make_game(level=3, loadouts=_lo(["Longbow"], hero="Nobody"))
    with pytest.raises(LoadoutError, match="0"):
        make_game(level=3, loadouts=_lo([]))


@pytest.mark.parametrize(
    "cfg, field",
    [
        ({"level": 1, "effects": "full"}, "effects"),
        ({"level": 3, "effects": "attack_only"}, "effects"),
        ({"level": 2, "effects": "everything"}, "effects"),
        ({"level": 4}, "level"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"end_of_turn_order": "random"}, "end_of_turn_order"),
        ({"loadouts": [{"hero": "Bob"}]}, "loadouts"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_wrong_config_names_the_field(cfg, field):
    with pytest.raises(ConfigError, match=field):
        make_game(**cfg)


# -- determinism ------------------------------------------------------------------------------
def _play(game, state, rng, n=10_000):
    for _ in range(n):
        if game.is_terminal(state):
            break
        game.apply_action(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("cfg", VARIANTS, ids=lambda c: "-".join(map(str, c.values())))
def test_equal_seeds_and_actions_give_equal_games(cfg):
    game = make_game(**cfg)
    a, b = game.new_state(42), game.new_state(42)
    _play(game, a, random.Random(7))
    _play(game, b, random.Random(7))
    assert game.state_to_dict(a) == game.state_to_dict(b) and game.is_terminal(a)


@pytest.mark.parametrize("cfg", VARIANTS, ids=lambda c: "-".join(map(str, c.values())))
def test_state_dict_json_round_trip_plays_on_identically(cfg):
    game = make_game(**cfg)
    s = game.new_state(5)
    _play(game, s, random.Random(1), n=25)
    t = game.state_from_dict(json.loads(json.dumps(game.state_to_dict(s))))
    c = game.clone(s)
    for x in (s, t, c):
        _play(game, x, random.Random(9))
    assert game.state_to_dict(s) == game.state_to_dict(t) == game.state_to_dict(c)
    assert (game.observe(s, 0) == game.observe(t, 0)).all()


def test_game_record_replays_to_identical_final_state():
    env = scratch_wars_v2.env(level=3)
    env.reset(seed=11)
    rng = random.Random(3)
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice([i for i, m in enumerate(mask) if m]))
    rec = GameRecord.from_json(env.record().to_json())
    game, final = replay(rec)
    assert game.state_to_dict(final) == env.game.state_to_dict(env.state_obj)
    assert rec.outcome is not None


def test_sample_hidden_reseeds_chance_only():
    game = make_game(level=3)
    s = game.new_state(2)
    _play(game, s, random.Random(0), n=10)
    h = game.sample_hidden(s, 0, random.Random(99))
    ds, dh = game.state_to_dict(s), game.state_to_dict(h)
    assert ds["rng"] != dh["rng"]
    ds.pop("rng"), dh.pop("rng")
    assert ds == dh


def test_game_and_env_pickle_and_deepcopy_play_on_identically():
    game = make_game(level=3)
    for other in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        a, b = game.new_state(4), other.new_state(4)
        _play(game, a, random.Random(2))
        _play(other, b, random.Random(2))
        assert game.state_to_dict(a) == other.state_to_dict(b)
    env = scratch_wars_v2.env(level=2)
    env.reset(seed=5)
    for other in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert (other.observe(other.agent_selection)["observation"]
                == env.observe(env.agent_selection)["observation"]).all()


def test_observation_stays_in_bounds_in_a_long_game():
    """SW-4.4 DECISION max_rounds 200 without sudden death: both seats end every turn at once
    (SW-5.3). The round entry is the 1-based round / max_rounds (200), the day entry the day (4
    rounds a day) / the 50 days of 200 rounds; at the truncation (round 201 would start) both
    read 1, the bound; every entry stays in the declared [-1, 1]."""
    game = make_game(level=3, max_rounds=200, sudden_death_round=1000)
    assert (game.observation_low, game.observation_high) == (-1.0, 1.0)
    s = game.new_state(3)
    rng = random.Random(0)
    while game.phase_name(s) != "main":  # the initiative (SW-2.2)
        game.apply_action(s, rng.choice(game.legal_actions(s)))
    seen = {}
    while not game.is_terminal(s):
        for p in (0, 1):
            o = game.observe(s, p)
            assert -1 <= o.min() and o.max() <= 1
        o = game.observe(s, 0)
        seen[s.round] = (float(o[OBS["round"].slice][0]), float(o[OBS["day"].slice][0]))
        game.apply_action(s, ACTIONS.start("end_turn"))
    assert game.is_truncated(s) and s.round == 200
    expected = {0: (1, 1), 62: (63, 16), 63: (64, 16), 64: (65, 17), 199: (200, 50)}
    for r, (rnd, d) in expected.items():
        assert seen[r] == pytest.approx((rnd / 200, d / 50), abs=1e-7), r
    final = game.observe(s, 1)
    assert final.max() <= 1 and final[OBS["round"].slice][0] == 1.0


def test_observation_numbers_are_divided_by_their_documented_scales():
    """scratch_wars_v2: hand-computed entries of a scripted deal (Published Hero: 24 HP, energy
    3/4/3/2, morning bonuses (1, +2) and (6, +1), trained 1, 2, 3; Longbow: type 0, cost 1,
    durability 3, first segment effect 0 value 2 green; Sir Bramble: 22 HP). HP / 40, values /
    12, durability / 9, cost / 3, hero energy / 6, energy / energy_cap 12, round / max_rounds
    60, day / 15, actions left / 4; an initiative not spun yet is -1."""
    from card_envs.scratch_wars.observation import (
        HERO_FEATURES,
        SEGMENT_FEATURES,
        WEAPON_FEATURES,
    )

    game = make_game(level=3, loadouts=[
        {"hero": "Published Hero", "weapons": ["Longbow", "Diamond Wand"]},
        {"hero": "Sir Bramble", "weapons": ["Diamond Wand"]}])
    s = game.new_state(1)
    o = game.observe(s, 0)

    def at(name, k=0):
        return float(o[OBS[name].start + k])

    assert at("my_hp") == pytest.approx(24 / 40) and at("my_hp_max") == pytest.approx(24 / 40)
    assert at("opp_hp") == pytest.approx(22 / 40) and at("opp_hp_max") == pytest.approx(22 / 40)
    assert (at("my_energy"), at("my_init_value"), at("opp_init_value")) == (0.0, -1.0, -1.0)
    assert at("round") == pytest.approx(1 / 60) and at("day") == pytest.approx(1 / 15)
    # Longbow in my slot 0: bow (type 0), cost 1/3, durability 3/9, not trained (1, 2, 3)
    assert [at("my_weapon_info", k) for k in range(WEAPON_FEATURES)] == pytest.approx(
        [1, 0, 0, 0, 1 / 3, 3 / 9, 0])
    # Diamond Wand in slot 1: wand, cost 2/3, durability 5/9, trained (type 3)
    assert [at("my_weapon_info", WEAPON_FEATURES + k) for k in range(WEAPON_FEATURES)] == \
        pytest.approx([0, 0, 0, 1, 2 / 3, 5 / 9, 1])
    # Longbow's first segment: effect 0, value 2/12, green
    first = [at("my_wheels", k) for k in range(SEGMENT_FEATURES)]
    assert first == pytest.approx([1, 0, 0, 0, 0, 0, 0, 0, 2 / 12, 1, 0, 0])
    # the hero card's morning: energy 3/6, bonus (effect 1, +2/12), bonus (effect 6, +1/12)
    hero = [at("my_hero", k) for k in range(HERO_FEATURES)]
    assert hero[0] == pytest.approx(3 / 6)
    assert hero[1 + 1] == 1.0 and hero[1 + 11] == pytest.approx(2 / 12)
    assert hero[1 + 12 + 6] == 1.0 and hero[1 + 12 + 11] == pytest.approx(1 / 12)
    # the initiative spins (SW-2.2): both seats choose their slot 0, then both spin; value / 12
    while -1 in s.initiative_value:
        game.apply_action(s, ACTIONS.start("init_weapon"))
    mine, theirs = s.initiative_value
    assert 1 <= mine <= 2  # Longbow's values are 1 and 2
    o = game.observe(s, 0)
    assert float(o[OBS["my_init_value"].start]) == pytest.approx(mine / 12)
    assert float(o[OBS["opp_init_value"].start]) == pytest.approx(theirs / 12)


def test_forced_spins_are_serialised():
    game = make_game(level=1)
    s = game.new_state(0, forced_spins=[4, 4])
    t = game.state_from_dict(json.loads(json.dumps(game.state_to_dict(s))))
    assert t.forced_spins == [4, 4]

