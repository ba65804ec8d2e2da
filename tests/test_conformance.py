"""The core's conformance checks (card_envs.testing) on every registered game and variant, and the
saved-state mutation walk (issue "The Game contract in code")."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from card_envs.core.errors import StateError
from card_envs.core.registry import GAMES, available_games, env_module, make_game
from card_envs.testing import check_game, check_state_mutations
from card_envs.testing.variants import VARIANTS, variant_id
from env_helpers import registered_cases, registered_games

CASES = registered_cases()


def _id(case):
    name, cfg = case
    return f"{name}-{variant_id(cfg)}"


def test_every_registered_game_has_variants():
    assert set(VARIANTS) == set(GAMES) == set(available_games())


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_check_game(case):
    name, cfg = case
    game = make_game(name, **cfg)
    env_factory = lambda: env_module(name).env(**cfg)  # noqa: E731
    counts = check_game(game, games=6, seed=11, env_factory=env_factory)
    # every check ran on every game, whatever the games' length (issue 23)
    assert counts["terminal"] == 6 and counts["skipped"] == []
    assert counts["mid_game_reloads"] == counts["action_checks"] == 6
    assert counts["mutation_walks"] == 1


#: every game's observation entries lie in [-1, 1] (docs/usage.md, "The envs at a glance")
OBSERVATION_BOUND = 1.0


@pytest.mark.parametrize("name", registered_games())
def test_declared_observation_bounds_are_the_real_ones(name):
    """issue 21 (Scratch Wars declared [-64, 64] and stayed within about [-7, 25]): over 30
    random games of each game, every observation of every seat is inside the declared Box, the
    declared bounds are within [-1, 1], and both are reached (the Box is the real range)."""
    game = make_game(name)
    low, high = game.observation_low, game.observation_high
    assert -OBSERVATION_BOUND <= low < high <= OBSERVATION_BOUND
    seen_low, seen_high = np.inf, -np.inf
    rng = random.Random(0)
    for seed in range(30):
        state = game.new_state(seed)
        while True:
            for p in range(game.num_players):
                obs = game.observe(state, p)
                seen_low, seen_high = min(seen_low, obs.min()), max(seen_high, obs.max())
            if game.is_terminal(state) or game.is_truncated(state):
                break
            game.apply_action(state, rng.choice(game.legal_actions(state)))
    assert (seen_low, seen_high) == (low, high)


def _mid_game_state(game, seed=5, decisions=25):
    """The state after ``decisions`` random decisions of the first game from ``seed`` on that is
    still going by then."""
    for s in range(seed, seed + 50):
        rng = random.Random(s)
        state = game.new_state(s)
        for _ in range(decisions):
            if game.is_terminal(state):
                break
            game.apply_action(state, rng.choice(game.legal_actions(state)))
        if not game.is_terminal(state):
            return state
    raise AssertionError(f"no game of {game.name} lasts {decisions} decisions")


MUTATION_CASES = [("garda3", {"variant": "classic"}), ("garda3", {"variant": "royale+night"}),
                  ("garda3", {"variant": "free_for_all+resurrection"}),
                  ("scratch_wars", {"level": 3}), ("scratch_wars", {"level": 1}),
                  ("dirt_and_glory", {"num_players": 2}), ("dirt_and_glory", {"num_players": 4})]
# (Rust Brawl's saved-state mutations are walked by check_game in test_check_game, every variant)


@pytest.mark.parametrize("case", MUTATION_CASES, ids=[_id(c) for c in MUTATION_CASES])
@pytest.mark.parametrize("decisions", [3, 25])
def test_saved_state_mutations(case, decisions):
    """Every leaf path of a saved mid-game state: delete, change type, out of range, nudge, add a
    card. Refused with a StateError naming the path, or loaded and then check_state and a random
    playout to the end pass (check_state_mutations raises otherwise)."""
    name, cfg = case
    game = make_game(name, **cfg)
    state = _mid_game_state(game, decisions=decisions)
    counts = check_state_mutations(game, state)
    assert counts["refused"] > counts["mutations"] // 2


def test_state_of_another_config_or_seat_count_is_refused():
    pairs = [("garda3", {"variant": "classic"}, {"variant": "night"}),
             ("garda3", {"variant": "classic"}, {"variant": "free_for_all"}),
             ("scratch_wars", {"level": 3}, {"level": 2}),
             ("dirt_and_glory", {"num_players": 3}, {"num_players": 2}),
             ("dirt_and_glory", {"num_players": 2}, {"num_players": 2, "reward": "score"}),
             ("rust_brawl", {}, {"open_decklists": False})]
    for name, a, b in pairs:
        ga, gb = make_game(name, **a), make_game(name, **b)
        saved = json.loads(json.dumps(ga.state_to_dict(_mid_game_state(ga))))
        with pytest.raises(StateError, match=r"config\."):
            gb.state_from_dict(saved)
        # even with the config header forged, the seat count / phase checks refuse it
        forged = {**saved, "config": json.loads(json.dumps(gb.config_to_dict()))}
        if ga.num_players != gb.num_players:
            with pytest.raises(StateError):
                gb.state_from_dict(forged)
        env_a, env_b = env_module(name).env(**a), env_module(name).env(**b)
        env_a.reset(seed=1)
        with pytest.raises(StateError, match="config"):
            env_b.reset(options={"state": env_a.save_state()})


def test_retired_env_names_say_what_replaced_them():
    import card_envs

    for old, new in (("garda3_v0", "garda3_v1"), ("scratch_wars_v0", "scratch_wars_v2"),
                     ("scratch_wars_v1", "scratch_wars_v2"),
                     ("dirt_and_glory_v0", "dirt_and_glory_v1"),
                     ("rust_brawl_v0", "rust_brawl_v1")):
        with pytest.raises(ImportError, match=f"card_envs.{new}"):
            getattr(card_envs, old)
        assert getattr(card_envs, new).raw_env().game.version == int(new[-1])
    # the version history names the module each bump retired
    assert "``rust_brawl_v0``" in card_envs.rust_brawl_v1.__doc__
    assert "``scratch_wars_v1``" in card_envs.scratch_wars_v2.__doc__
