"""Garda3 env: PettingZoo API and seed tests, the docstring spec, hidden information,
determinism, persistence, records and card-data errors."""

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import card_envs.garda3_v1 as garda3_v1
from card_envs.core.errors import CardDataError, ConfigError, IllegalActionError, StateError
from card_envs.core.records import GameRecord, replay
from card_envs.garda3 import constants as R
from card_envs.garda3.observation import OBSERVATION
from card_envs.garda3.cards import load_fighter_set
from card_envs.garda3.rules import make_game

VARIANTS = ["classic", "royale", "resurrection", "night", "free_for_all",
            "royale+resurrection", "night+royale", "night+resurrection",
            "royale+resurrection+night+free_for_all"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant):
    api_test(garda3_v1.env(variant=variant), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant):
    seed_test(lambda: garda3_v1.env(variant=variant), num_cycles=300)


@pytest.mark.parametrize("selection", ["own_sets", "random"])
def test_api_test_other_fighter_selections(selection):
    api_test(garda3_v1.env(fighter_selection=selection), num_cycles=100)


def test_docstring_spec_matches_layouts():
    doc = garda3_v1.__doc__
    assert OBSERVATION.markdown() in doc
    assert R.ACTIONS.markdown() in doc
    assert f"float32 ({OBSERVATION.size},)" in doc and f"Discrete({R.ACTIONS.size})" in doc
    # the entity view's two tables (2 players, no royale: a hand of 3 rows; royale: 36)
    entities = make_game().entity_layout
    assert "Observation modes" in doc and entities.markdown() in doc
    assert entities.total_rows == 3 + 2 + 2 + 36 + 3 + 6 + 9 == 61
    assert entities.shapes()["globals"][0] == (11 + 4 + 3 + 2 + 2 + 3 + 1 + 1 + 6 + 3 + 8 + 7,)
    assert make_game(variant="royale").entity_layout["hand"].rows == 36
    env = garda3_v1.env()
    env.reset(seed=0)
    obs = env.observe("player_0")
    assert obs["observation"].shape == (OBSERVATION.size,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (R.ACTIONS.size,) and obs["action_mask"].dtype == np.int8
    assert env.action_space("player_0").n == R.ACTIONS.size


def _mid_game_states(variant="classic", n=30):
    """States reached by random play (various phases)."""
    import random
    g = make_game(variant=variant)
    rng = random.Random(5)
    out = []
    for seed in range(n):
        s = g.new_state(seed)
        for _ in range(rng.randrange(8, 60)):
            if g.is_terminal(s):
                break
            g.apply_action(s, rng.choice(g.legal_actions(s)))
        if not g.is_terminal(s):
            out.append((g, s))
    return out


@pytest.mark.parametrize("variant", ["classic", "royale", "free_for_all", "night"])
def test_swapping_unseen_cards_leaves_observation_identical(variant):
    """Cards swapped between zones a player can't see (opponent hands, deck) keep its view."""
    checked = 0
    for g, s in _mid_game_states(variant):
        player = 0
        before = g.observe(s, player).tobytes()
        t = g.clone(s)
        opp = [p for p in range(g.num_players) if p != player and t.hands[p]]
        if not opp or not t.deck:
            continue
        o = opp[0]
        i = len(t.hands[o]) - 1
        t.hands[o][i], t.deck[0] = t.deck[0], t.hands[o][i]
        t.deck.reverse()  # and a different deck order
        assert g.observe(t, player).tobytes() == before
        # control: changing the player's own hand does change the observation
        if t.hands[player] and t.deck:
            u = g.clone(s)
            u.hands[player][0], u.deck[0] = u.deck[0], u.hands[player][0]
            assert g.observe(u, player).tobytes() != before
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("variant", ["classic", "night", "free_for_all"])
def test_sample_hidden_keeps_observation_and_changes_hidden_cards(variant):
    import random
    changed = 0
    for g, s in _mid_game_states(variant):
        for player in range(g.num_players):
            view = g.observe(s, player).tobytes()
            t = g.sample_hidden(s, player, random.Random(11))
            assert g.observe(t, player).tobytes() == view
            assert sorted(t.hands[player]) == sorted(s.hands[player])
            others = [sorted(t.hands[p]) for p in range(g.num_players) if p != player]
            if others != [sorted(s.hands[p]) for p in range(g.num_players) if p != player] \
                    or t.deck != s.deck:
                changed += 1
            # the full multiset of cards is preserved
            total = sorted(t.deck + t.discard + t.atk_cards + t.def_cards
                           + [c for h in t.hands for c in h])
            assert total == list(range(36))
    assert changed >= 10


def _random_actions_game(env, seed, n=None):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = []
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        steps.append((agent, obs["observation"].tobytes(), a))
        env.step(a)
        if n is not None and len(steps) >= n:
            break
    return steps


def test_equal_seeds_and_actions_give_equal_games():
    a = _random_actions_game(garda3_v1.env(variant="royale+resurrection"), 123)
    b = _random_actions_game(garda3_v1.env(variant="royale+resurrection"), 123)
    assert a == b
    c = _random_actions_game(garda3_v1.env(variant="royale+resurrection"), 124)
    assert a != c


def test_state_saved_to_json_plays_on_identically():
    import random
    g = make_game(variant="royale+resurrection")
    for g, s in _mid_game_states("royale+resurrection", n=10):
        text = json.dumps(g.state_to_dict(s))
        t = g.state_from_dict(json.loads(text))
        rng1, rng2 = random.Random(9), random.Random(9)
        while not g.is_terminal(s):
            assert g.observe(s, 0).tobytes() == g.observe(t, 0).tobytes()
            assert g.legal_actions(s) == g.legal_actions(t)
            a = rng1.choice(g.legal_actions(s))
            assert a == rng2.choice(g.legal_actions(t))
            g.apply_action(s, a)
            g.apply_action(t, a)
        assert g.state_to_dict(s) == g.state_to_dict(t)


def test_env_save_state_resumes_and_records_replay():
    env = garda3_v1.env()
    steps = _random_actions_game(env, 3, n=20)
    saved = json.loads(json.dumps(env.save_state()))
    env2 = garda3_v1.env()
    env2.reset(options={"state": saved})
    assert env2.agent_selection == env.agent_selection
    assert env2.observe(env.agent_selection)["observation"].tobytes() == \
        env.observe(env.agent_selection)["observation"].tobytes()
    # play both on identically; the resumed env's record replays from the original seed
    for agent in env2.agent_iter():
        obs, _, term, trunc, _ = env2.last()
        a = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(a)
        env2.step(a)
    game, state = replay(env2.record())
    assert game.state_to_dict(state) == env.game.state_to_dict(env.state_obj)
    assert steps


def test_saved_state_from_another_config_is_refused():
    env = garda3_v1.env()
    _random_actions_game(env, 3, n=10)
    saved = env.save_state()
    with pytest.raises(StateError, match=r"config\.variant"):
        garda3_v1.env(variant="night").reset(options={"state": saved})
    with pytest.raises(StateError, match="save_state"):
        garda3_v1.env().reset(options={"state": env.game.state_to_dict(env.state_obj)})
    with pytest.raises(StateError, match="dirt_and_glory"):
        from card_envs import dirt_and_glory_v1
        dirt_and_glory_v1.env().reset(options={"state": saved})


def test_bool_actions_and_bad_max_steps_are_refused():
    env = garda3_v1.env()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="True"):
        env.step(True)
    with pytest.raises(ConfigError, match="max_steps"):
        garda3_v1.env(max_steps=0)


def test_game_record_replays_to_identical_final_state(tmp_path):
    env = garda3_v1.env(variant="night+royale")
    _random_actions_game(env, 77)
    rec = env.record()
    assert rec.outcome is not None and rec.game == "garda3" and rec.version == 1
    path = tmp_path / "game.json"
    rec.save(path)
    loaded = GameRecord.load(path)
    game, state = replay(loaded)
    assert game.state_to_dict(state) == env.game.state_to_dict(env.state_obj)
    tampered = GameRecord.from_json(rec.to_json())
    tampered.outcome = [-x for x in tampered.outcome]
    with pytest.raises(ValueError, match="differs"):
        replay(tampered)


def test_record_with_custom_fighter_set_replays(tmp_path):
    src = (tmp_path / "mine.toml")
    text = (load_fighter_set.__module__ and
            open(__import__("card_envs.garda3.cards", fromlist=["x"]).DATA_DIR / "default.toml",
                 encoding="utf-8").read())
    src.write_text(text.replace("hp = 7", "hp = 3"), encoding="utf-8")
    env = garda3_v1.env(fighter_set=str(src))
    _random_actions_game(env, 5)
    rec = GameRecord.from_json(env.record().to_json())
    src.unlink()  # the record carries the set itself
    game, state = replay(rec)
    assert game.stats[0][2] == (0, 0, 3)


# -- actions ----------------------------------------------------------------------------------
def test_out_of_range_action_raises_and_masked_action_terminates():
    env = garda3_v1.env()
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        env.step(R.ACTIONS.size)
    with pytest.raises(IllegalActionError):
        env.step(-1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    env.step(bad)  # PettingZoo convention: logged warning, game over, offender -1
    assert env.rewards[agent] == -1.0 and all(env.terminations.values())
    assert not any(env.observe(a)["action_mask"].any() for a in env.agents)
    env = garda3_v1.env(illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match=f"action {bad} "):
        env.step(bad)


def test_render_ansi_shows_the_table():
    env = garda3_v1.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "Garda3 classic" in text and "player 0" in text and "phase draft" in text
    assert env.action_to_string(R.A_PICK) == "pick 0: Rytíř"


def test_game_api_refuses_non_int_actions_and_unknown_seats(tmp_path):
    g = make_game(variant=" royale + night")
    assert g.config.variant == "royale+night"
    s = g.new_state(0)
    for bad in (1.0, "1", True):
        with pytest.raises(IllegalActionError, match="is not an action id"):
            g.apply_action(s, bad)
    g.apply_action(s, np.int64(R.A_PICK + 1))
    assert s.fighters[s.draft_order[0]] == [1]
    with pytest.raises(ValueError, match="no seat -1"):
        g.observe(s, -1)
    with pytest.raises(CardDataError, match="directory"):
        make_game(fighter_set=str(tmp_path))
