"""Dirt and Glory env, determinism, records, hidden information, bad input. The content file:
test_dirt_and_glory_cards.py; the heuristic: test_dirt_and_glory_bot.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from card_envs import dirt_and_glory_v1
from card_envs.core.errors import CardDataError, ConfigError, StateError
from card_envs.core.records import GameRecord, record_of, replay
from card_envs.dirt_and_glory import constants as R
from card_envs.dirt_and_glory.bot import HeuristicBot
from card_envs.dirt_and_glory.cards import DEFAULT_CONTENT
from card_envs.dirt_and_glory.view import kind_text
from dirt_and_glory_helpers import game


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_pettingzoo_api_and_seed(n):
    api_test(dirt_and_glory_v1.env(num_players=n), num_cycles=300)
    seed_test(lambda: dirt_and_glory_v1.env(num_players=n), num_cycles=300)


def test_env_keywords_and_render():
    env = dirt_and_glory_v1.env(num_players=4, reward="score", content=str(DEFAULT_CONTENT),
                                render_mode="ansi")
    env.reset(seed=3)
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    assert env.observation_space("player_0")["observation"].shape == (271,)
    assert env.action_space("player_0").n == 129
    text = env.render()
    assert "Dirt and Glory" in text and "seat 3" in text
    rng = random.Random(0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert sum(env._cumulative_rewards.values()) == pytest.approx(0.0)


def test_docstring_holds_the_layout_tables():
    g = game(num_players=2)
    doc = dirt_and_glory_v1.__doc__
    assert g.observation_layout.markdown() in doc
    assert g.action_layout.markdown() in doc
    for k in g.kinds:
        assert f"`{k.label()}`" in doc
    # the entity view's two tables (2 players): 5 piles of K kind rows, the other caravans,
    # the known top card, the card just played, the seats
    entities = g.entity_layout
    assert "Observation modes" in doc and entities.markdown() in doc
    K = g.num_kinds
    assert entities.total_rows == 5 * K + K + 1 + 1 + 2 == 124
    assert game(num_players=5).entity_layout.total_rows == 5 * K + 4 * K + 1 + 1 + 5
    for n, size in ((2, 209), (3, 240), (4, 271), (5, 302)):
        gn = game(num_players=n)
        K = gn.num_kinds
        assert gn.observation_shape == (size,) == (21 + 6 + 6 * K + n * (11 + K),)
        assert gn.num_actions == 9 + 6 * K == 129


def test_action_ids_and_names_come_from_one_layout():
    """The rules' action ids, the action space and the action names all come from
    ``constants.action_layout``: the fixed ids are the same whatever the kind count, the kind
    ranges start where the layout says, and every name is its layout piece's."""
    fixed = ("play_top", "pass", "end_turn", "fuel_reserve", "value", "ability_use",
             "ability_skip", "mix_done")
    ids = [R.A_PLAY_TOP, R.A_PASS, R.A_END_TURN, R.A_FUEL_RESERVE, R.A_VALUE_LOW,
           R.A_ABILITY_USE, R.A_ABILITY_SKIP, R.A_MIX_DONE]
    g = game(num_players=2)
    layout = g.action_layout
    assert g.num_actions == layout.size == R.action_layout(g.num_kinds).size
    for k in (1, 2, 7, g.num_kinds):
        assert [R.action_layout(k).start(name) for name in fixed] == ids
    assert (R.A_VALUE_LOW, R.A_VALUE_HIGH) == tuple(range(layout["value"].start,
                                                          layout["value"].stop))
    assert R.KIND_PIECES == ("play_reserve", "stash", "mix", "take", "draft_return", "place")
    for name in R.KIND_PIECES:
        assert layout[name].size == g.num_kinds
        assert getattr(g, "a_" + name) == layout.start(name)
    s = g.new_state(0)
    for a in range(g.num_actions):
        piece = layout.piece_of(a)
        text = g.action_to_string(s, a)
        assert g.action_name(a) == (piece.name if piece.size == 1
                                    else f"{piece.name} {a - piece.start}")
        assert text.startswith(g.action_name(a))
        if piece.name in R.KIND_PIECES:
            assert text == f"{piece.name} {a - piece.start}: {kind_text(g.kinds[a - piece.start])}"
    assert g.action_to_string(s, R.A_PLAY_TOP) == "play_top"
    assert g.action_to_string(s, R.A_VALUE_HIGH) == "value 1: high"  # no card just played
    assert g.phases == R.PHASES == tuple(p.name.lower() for p in R.Phase)


def test_observation_module_does_not_import_the_rules():
    """docs/adding_a_game.md: observation.py imports constants / state, never rules."""
    import ast

    import card_envs.dirt_and_glory.observation as obs

    tree = ast.parse(Path(obs.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any(m and m.endswith("dirt_and_glory.rules") for m in imported), imported


def _random_states(g, seed, every=7):
    """States along a random game (every ``every``-th decision)."""
    rng = random.Random(seed)
    s = g.new_state(seed)
    out = []
    i = 0
    while not g.is_terminal(s):
        if i % every == 0:
            out.append(g.clone(s))
        g.apply_action(s, rng.choice(g.legal_actions(s)))
        i += 1
    out.append(s)
    return out


@pytest.mark.parametrize("n", [2, 5])
def test_equal_seeds_and_actions_give_equal_games_and_json_round_trip(n):
    g = game(num_players=n)
    a, b = g.new_state(11), g.new_state(11)
    rng = random.Random(1)
    for step in range(10_000):
        if g.is_terminal(a):
            break
        assert g.state_to_dict(a) == g.state_to_dict(b)
        if step == 40:  # save/load mid-game; both continue identically
            b = g.state_from_dict(json.loads(json.dumps(g.state_to_dict(b))))
            c = g.clone(a)
        act = rng.choice(g.legal_actions(a))
        g.apply_action(a, act)
        g.apply_action(b, act)
        if step >= 40:
            g.apply_action(c, act)
    assert g.is_terminal(a) and g.returns(a) == g.returns(b) == g.returns(c)
    assert g.state_to_dict(a) == g.state_to_dict(b) == g.state_to_dict(c)


def _round_two_main(g):
    """A saved-state dict of seat 1's first turn of round 2 (seed 11, random play)."""
    s = g.new_state(11)
    rng = random.Random(1)
    while not (s.phase == R.MAIN and s.round == 1 and s.player == 1):
        g.apply_action(s, rng.choice(g.legal_actions(s)))
    return s, json.loads(json.dumps(g.state_to_dict(s)))


def _refused(g, d, match):
    with pytest.raises(StateError, match=match):
        g.state_from_dict(d)


def test_check_state_refuses_broken_positions_naming_the_field():
    """check_state: the card multiset over all zones, starting cards staying with their owner,
    values matching the caravans (DG-3.2), the seat to act, the offer size (DG-2.2, DG-3.2) and
    the last round's rewards (DG-3.5); a loaded valid state passes and plays on."""
    g = game(num_players=2)
    _, d = _round_two_main(g)
    g.check_state(g.state_from_dict(d))
    D, S = g.deck_size, g.start_size
    # a card created: seat 0's deck holds a copy of seat 1's first deck card
    bad = json.loads(json.dumps(d))
    bad["decks"][0][0] = bad["decks"][1][0]
    _refused(g, bad, r"decks\[0\]\[0\], decks\[1\]\[0\]: card .* appears 2 times")
    # a card lost: the unit deck's top card removed
    bad = json.loads(json.dumps(d))
    bad["unit_deck"].pop()
    _refused(g, bad, r"card .* is missing: it is in none of unit_deck, offer")
    # an unknown card id (one past the last card)
    bad = json.loads(json.dumps(d))
    bad["offer"][0] = g.num_cards
    _refused(g, bad, r"offer\[0\]: %d is not a card of this game" % g.num_cards)
    # seat 1's starting card swapped into seat 0's deck (the multiset still holds)
    bad = json.loads(json.dumps(d))
    i1 = next(i for i, c in enumerate(bad["decks"][1]) if c >= D + S)
    bad["decks"][0][0], bad["decks"][1][i1] = bad["decks"][1][i1], bad["decks"][0][0]
    _refused(g, bad, r"decks\[0\]\[0\]: \d+ is a starting card of seat 1")
    # a counted value that is not the card's
    bad = json.loads(json.dumps(d))
    c = bad["caravans"][0][0]
    bad["values"][0][0] = 5 if g.card_high[c] != 5 else 4
    _refused(g, bad, r"values\[0\]\[0\]: .* is not a value of card")
    bad = json.loads(json.dumps(d))
    bad["values"][1].append(1)
    _refused(g, bad, r"values\[1\]: .* caravans\[1\] holds 1 cards")
    # the seat to act has passed; a seat count of 3
    bad = json.loads(json.dumps(d))
    bad["passed"][1] = True
    _refused(g, bad, r"passed\[1\]: True is set but player 1 acts in phase 'main'")
    bad = json.loads(json.dumps(d))
    bad["fuel"].append(0)
    _refused(g, bad, r"fuel: .* has 3 entries, expected 2")
    # the offer of round 2 is full (2 cards, nobody has passed): one more or one fewer is wrong
    assert len(d["offer"]) == 2 and d["unit_deck"]
    bad = json.loads(json.dumps(d))
    bad["unit_deck"].append(bad["offer"].pop())
    _refused(g, bad, r"offer: .* holds 1 cards: 2 were laid")
    # round 1's reward: place 1 of its territory pays that territory's 1st-place points
    bad = json.loads(json.dumps(d))
    bad["last_result"][0][1] += 1
    _refused(g, bad, r"last_result\[0\]: .* does not pay place")
    # winners before the end; the phase 'end' mid-game
    bad = json.loads(json.dumps(d))
    bad["winners"] = [0]
    _refused(g, bad, r"winners: \[0\] are set before the end")
    bad = json.loads(json.dumps(d))
    bad["phase"] = R.END
    _refused(g, bad, r"round: 1 is not num_rounds \(6\) in phase 'end'")


def test_check_state_passes_along_games_of_every_variant():
    """check_state accepts every position reached by play (random and heuristic), and every
    sample_hidden of it, for a range of DECISION variants."""
    variants = [{"draft_return": "discard"}, {"first_card_ability": True, "first_card_value":
                "high"}, {"caravan_return": "reserve", "reserve_mix": "none"},
                {"fuel_uses_per_turn": 2, "ties": "share_dense", "first_player": "fixed"}]
    bot = HeuristicBot()
    for variant in variants:
        g = game(num_players=3, **variant)
        for seed in range(2):
            s = g.new_state(seed)
            rng = random.Random(seed)
            while not g.is_terminal(s):
                g.check_state(s)
                g.check_state(g.sample_hidden(s, (s.player + 1) % 3, rng))
                a = bot.act(g, s, s.player) if seed else rng.choice(g.legal_actions(s))
                g.apply_action(s, a)
            g.check_state(s)


def test_game_record_replays_exactly(tmp_path):
    g = game(num_players=3, reward="score")
    s = g.new_state(77)
    rng = random.Random(2)
    actions = []
    while not g.is_terminal(s):
        a = rng.choice(g.legal_actions(s))
        actions.append(a)
        g.apply_action(s, a)
    rec = record_of(g, 77, actions, s)
    path = tmp_path / "game.json"
    rec.save(path)
    g2, s2 = replay(GameRecord.load(path))
    assert g2.state_to_dict(s2) == g.state_to_dict(s)
    rec.outcome = [x + 1 for x in rec.outcome]
    with pytest.raises(ValueError, match="differs"):
        replay(rec)


# -- hidden information ----------------------------------------------------------------------------
def _swap_hidden(g, s, player, rng):
    """Swap cards among the zones ``player`` cannot see (other seats' reserves and decks, the
    unit deck, another seat's undecided hand) and permute the own deck below a known top."""
    t = g.clone(s)
    n = g.num_players
    zones = [t.reserves[q] for q in range(n) if q != player]
    zones += [t.decks[q] for q in range(n) if q != player] + [t.unit_deck]
    if t.hand and t.player != player:
        zones.append(t.hand)
    for _ in range(30):
        z1, z2 = rng.choice(zones), rng.choice(zones)
        if z1 and z2:
            i, j = rng.randrange(len(z1)), rng.randrange(len(z2))
            z1[i], z2[j] = z2[j], z1[i]
    own = t.decks[player]
    keep = 1 if (t.peek[player] and own) else 0
    body = own[: len(own) - keep]
    rng.shuffle(body)
    own[: len(own) - keep] = body
    t.legal_cache = None
    return t


@pytest.mark.parametrize("n", [2, 3, 5])
def test_observation_does_not_leak_hidden_zones(n):
    """DG-5: another seat's reserve and every deck's order never reach an observation."""
    g = game(num_players=n)
    rng = random.Random(n)
    checked = changed = 0
    for seed in range(3):
        for s in _random_states(g, seed):
            for p in range(n):
                obs = g.observe(s, p).tobytes()
                t = _swap_hidden(g, s, p, rng)
                if g.state_to_dict(t) != g.state_to_dict(s):
                    changed += 1
                assert g.observe(t, p).tobytes() == obs
                u = g.sample_hidden(s, p, rng)
                assert g.observe(u, p).tobytes() == obs
                assert g.legal_actions(u) == g.legal_actions(s) or s.player != p
                checked += 1
    assert checked > 50 and changed > checked // 2


def test_control_own_reserve_changes_the_observation():
    """Control for the leakage test: a change in the player's own reserve is visible to it (and
    not to the opponent, who sees only the size)."""
    g = game(num_players=2)
    for s in _random_states(g, 4, every=3):
        if s.reserves[0] and s.reserves[1]:
            a, b = s.reserves[0][0], s.reserves[1][0]
            if g.card_kind[a] != g.card_kind[b]:
                break
    else:
        pytest.fail("no position with different reserve cards")
    t = g.clone(s)
    t.reserves[0][0], t.reserves[1][0] = b, a
    assert g.observe(t, 0).tobytes() != g.observe(s, 0).tobytes()
    piece = g.observation_layout["own_reserve"]
    assert not np.array_equal(g.observe(t, 0)[piece.slice], g.observe(s, 0)[piece.slice])


def test_sample_hidden_resamples_and_reseeds():
    g = game(num_players=3)
    s = _random_states(g, 9, every=25)[2]
    rng = random.Random(0)
    samples = [g.sample_hidden(s, 0, rng) for _ in range(5)]
    # public and own zones unchanged, sizes kept
    for u in samples:
        assert u.caravans == s.caravans and u.reserves[0] == s.reserves[0] and u.offer == s.offer
        assert [len(d) for d in u.decks] == [len(d) for d in s.decks]
        assert sorted(u.decks[0]) == sorted(s.decks[0])
        assert u.rng.getstate() != s.rng.getstate()
    hidden = lambda u: (u.unit_deck, u.decks[1], u.decks[2], u.reserves[1], u.reserves[2])  # noqa: E731
    assert any(hidden(u) != hidden(s) for u in samples)
    # the sample is a playable state
    u = samples[0]
    g.random_playout(u, random.Random(1))
    assert g.is_terminal(u)


# -- bad input ------------------------------------------------------------------------------------
def test_bad_config_values_name_the_field():
    with pytest.raises(ConfigError, match="'num_players'.*6"):
        game(num_players=6)
    with pytest.raises(ConfigError, match="'reward'"):
        game(reward="points")
    with pytest.raises(ConfigError, match="'ties'"):
        game(ties="random")
    with pytest.raises(ConfigError, match=r"unknown config field\(s\) \['colour'\]"):
        game(colour="red")
    with pytest.raises(ConfigError, match="'num_players'"):
        dirt_and_glory_v1.env(num_players=1)


@pytest.mark.parametrize("rounds", [10, 20])
def test_more_rounds_than_the_shipped_territories_is_a_config_error(rounds):
    # num_rounds may be 1..20, the shipped designed content has 9 territories (DG-1.4): the
    # config asks too much, the content file is fine
    with pytest.raises(ConfigError) as info:
        game(num_rounds=rounds)
    assert not isinstance(info.value, CardDataError)
    assert str(info.value) == (f"config field 'num_rounds': {rounds} rounds need {rounds} "
                               f"territories, the content {DEFAULT_CONTENT} has 9 ([[territory]] "
                               "entries); use num_rounds <= 9 or content with more territories")
    assert game(num_rounds=9).config.num_rounds == 9

