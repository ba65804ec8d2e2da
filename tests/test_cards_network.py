"""The card-aware network (card_envs.training.networks.CardsExtractor) over the per-entity view:
its features ignore the row order and the empty rows, it clones the heuristic from the teacher's
entity views, FrozenPolicy plays it from each seat's own entity view (and refuses another game),
and the trainer's --network flag is checked."""

from __future__ import annotations

import numpy as np
import pytest

from card_envs.bots.base import RandomBot
from card_envs.core.errors import ConfigError
from card_envs.core.registry import make_game, make_heuristic

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from card_envs.core.observation_modes import view_space  # noqa: E402
from card_envs.training.networks import CardsExtractor  # noqa: E402


def _batch(view):
    return {k: torch.as_tensor(np.asarray(v)[None]) for k, v in view.items()}


def test_features_ignore_row_order_and_empty_rows():
    game = make_game("garda3", variant="royale")
    torch.manual_seed(0)
    net = CardsExtractor(view_space(game, "entities"), row_dim=8, hidden=16)
    zones = game.entity_layout.zones
    assert net.features_dim == 51 + 2 * len(zones) * 8
    with_targets = CardsExtractor(view_space(game, "entities"), row_dim=8, targets=True)
    assert with_targets.features_dim == net.features_dim + 56 * 1 * 8
    state = game.new_state(3)
    rng = np.random.default_rng(0)
    for _ in range(40):  # a few decisions in: cards in hand and in the discard pile
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))
    view = game.observe_entities(state, 0)
    assert view["hand_mask"].sum() >= 2
    base = net(_batch(view))
    shuffled = dict(view)
    order = rng.permutation(len(view["hand"]))
    shuffled["hand"], shuffled["hand_mask"] = view["hand"][order], view["hand_mask"][order]
    junk = dict(view)  # an empty row's contents never count
    junk["discard"] = view["discard"].copy()
    junk["discard"][view["discard_mask"] == 0] = 0.7
    for other in (shuffled, junk):
        torch.testing.assert_close(net(_batch(other)), base)
    more = dict(view)  # a row that holds a card does count
    more["discard_mask"] = np.ones_like(view["discard_mask"])
    more["discard"] = junk["discard"]
    assert not torch.allclose(net(_batch(more)), base)
    with pytest.raises(ValueError, match="entity view's Dict space"):
        CardsExtractor(view_space(game, "flat"))


def _model(game, network="cards"):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.training.args import Args
    from card_envs.training.model import make_model, make_vec_env

    args = Args(seed=0, network=network, n_envs=1, n_steps=32, batch_size=32, net_arch="32")
    return make_model(make_vec_env(game, RandomBot(0), args, seed=0), args), DummyVecEnv


def test_the_pointer_head_scores_the_card_each_play_names():
    """Rust Brawl: swapping the cards of hand slots 0 and 1 (rows 0 and 1 of own_hand; the play
    actions still name slots 0 and 1) leaves the pooled features, so the linear head, unchanged
    and swaps the two plays' scores: the head reads the card a play puts down."""
    from card_envs.training.networks import CardsPolicy

    game = make_game("rust_brawl")
    model, _ = _model(game)
    policy = model.policy
    assert isinstance(policy, CardsPolicy)
    state = game.new_state(2)
    view = game.observe_entities(state, game.current_player(state))
    assert view["own_hand_mask"][:2].tolist() == [1, 1]
    swapped = dict(view)
    swapped["own_hand"] = view["own_hand"][[1, 0, *range(2, 10)]]

    def parts(obs):
        with torch.no_grad():
            features = policy.extract_features(_batch(obs), policy.features_extractor)
            latent = policy.mlp_extractor.forward_actor(features)
            base = policy.action_net.base(latent[:, :policy.mlp_extractor.latent_dim_h])
            return base[0], policy.action_net(latent)[0] - base[0]

    base, score = parts(view)
    base2, score2 = parts(swapped)
    play = game.action_layout.start("play")
    torch.testing.assert_close(base2, base)
    torch.testing.assert_close(score2[play], score[play + 1])
    torch.testing.assert_close(score2[play + 1], score[play])
    assert not torch.isclose(score[play], score[play + 1])  # two different cards


def test_cloning_the_heuristic_from_its_entity_views():
    from card_envs.training.imitation import behaviour_clone, collect_demonstrations

    torch.set_num_threads(1)
    game, teacher = make_game("garda3"), make_heuristic("garda3")
    demos = collect_demonstrations(game, teacher, 1500, seed=0, observation_mode="entities")
    shapes = game.entity_layout.shapes()
    assert set(demos.observations) == set(shapes)
    for key, (shape, dtype) in shapes.items():
        assert demos.observations[key].shape == (len(demos), *shape)
        assert demos.observations[key].dtype == dtype
    model, _ = _model(game)
    before = behaviour_clone(model, demos, epochs=1, batch_size=128, seed=0)
    after = behaviour_clone(model, demos, epochs=10, batch_size=128, seed=0)
    assert after["bc/accuracy"] > max(before["bc/accuracy"], 0.7), (before, after)


def test_frozen_policy_plays_from_the_seats_own_entity_view_and_refuses_another_game(tmp_path):
    from card_envs.bots.loading import load_model_policy
    from card_envs.bots.sb3 import FrozenPolicy
    from card_envs.evaluation.match import play_match

    game = make_game("rust_brawl")
    model, _ = _model(game)
    policy = FrozenPolicy(model.policy, name="cards")
    assert policy.observation_mode == "entities" and policy._layers is None  # torch, not numpy
    state = game.new_state(5)
    p = game.current_player(state)
    seen = []
    real = game.observe_entities
    game.observe_entities = lambda s, seat: seen.append(seat) or real(s, seat)
    try:
        action = policy.act(game, state, p)
    finally:
        del game.observe_entities
    assert seen == [p] and action in game.legal_actions(state)
    view = game.observe_entities(state, p)
    logits = policy.logits(view)
    assert logits.shape == (game.num_actions,)
    np.testing.assert_allclose(policy.logits_batch([view, view])[1], logits, rtol=1e-5)
    mask = game.legal_action_mask(state)
    assert policy.predict(view, action_masks=mask, deterministic=True)[0] == action
    assert play_match(game, policy, RandomBot(1), 2, seed=0, paired=True).n == 2
    model.save(tmp_path / "m.zip")
    loaded = load_model_policy(tmp_path / "m.zip", game=game)
    assert loaded.act(game, state, p) == action
    with pytest.raises(ConfigError, match="entities view of 12 keys.*trained on another game"):
        load_model_policy(tmp_path / "m.zip", game=make_game("rust_brawl", max_hand=8))
    with pytest.raises(ConfigError, match="trained on another game"):
        policy.act(make_game("garda3"), make_game("garda3").new_state(0), 0)


def test_the_network_flag_is_checked():
    from card_envs.training.args import Args, validate_args

    with pytest.raises(ConfigError, match="--network 'transformer': must be mlp or cards"):
        validate_args(Args(network="transformer"))
    with pytest.raises(ConfigError, match="--network 'cards'.*privileged-critic"):
        validate_args(Args(network="cards", privileged_critic=True))
    validate_args(Args(network="cards"))
