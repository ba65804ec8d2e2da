"""Behaviour-cloning warm start: demonstrations are the teacher's legal decisions with the final
return of its seat, and cloning makes the policy agree with the teacher."""

import numpy as np
import pytest

from card_envs.core.registry import make_game, make_heuristic
from card_envs.training.imitation import behaviour_clone, collect_demonstrations, warm_start


def test_demonstrations_record_teacher_decisions_from_its_own_view():
    game, teacher = make_game("garda3"), make_heuristic("garda3")
    d = collect_demonstrations(game, teacher, 500, seed=3)
    assert len(d) >= 500
    assert d.observations.shape == (len(d), game.observation_shape[0])
    assert d.masks.shape == (len(d), game.num_actions)
    assert d.masks[np.arange(len(d)), d.actions].all()  # every action was legal
    assert set(np.unique(d.returns)) <= {-1.0, 0.0, 1.0}
    again = collect_demonstrations(game, teacher, 500, seed=3)
    assert (again.actions == d.actions).all()  # seeded
    with pytest.raises(ValueError, match="n_decisions"):
        collect_demonstrations(game, teacher, 0)


def test_behaviour_cloning_makes_the_policy_agree_with_the_teacher():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.training.args import Args
    from card_envs.training.model import make_model
    from card_envs.wrappers.single_agent import SingleAgentEnv

    game, teacher = make_game("garda3"), make_heuristic("garda3")
    d = collect_demonstrations(game, teacher, 3000, seed=0)
    model = make_model(DummyVecEnv([lambda: SingleAgentEnv(game, teacher)]), Args(seed=0))
    before = behaviour_clone(model, d, epochs=1, batch_size=128, seed=0)
    after = behaviour_clone(model, d, epochs=12, batch_size=128, seed=0)
    assert after["bc/accuracy"] > before["bc/accuracy"]
    # cloning runs at its own learning rate; PPO's is restored afterwards
    assert [g["lr"] for g in model.policy.optimizer.param_groups] == [Args().learning_rate]
    assert after["bc/accuracy"] > 0.7, after  # 1 in 56 by chance


def _tiny_garda3_model():
    """Garda3, its heuristic and a MaskablePPO model with one 16-unit layer (torch, one thread)."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from stable_baselines3.common.vec_env import DummyVecEnv

    from card_envs.training.args import Args
    from card_envs.training.model import make_model
    from card_envs.wrappers.single_agent import SingleAgentEnv

    game, teacher = make_game("garda3"), make_heuristic("garda3")
    model = make_model(DummyVecEnv([lambda: SingleAgentEnv(game, teacher)]),
                       Args(seed=0, net_arch="16"))
    return game, teacher, model


def test_warm_start_collects_then_clones_and_reports_what_it_did():
    game, teacher, model = _tiny_garda3_model()
    metrics = warm_start(model, game, teacher, 300, epochs=1, learning_rate=1e-3, seed=0)
    assert set(metrics) == {"bc/loss", "bc/accuracy", "bc/decisions", "bc/seconds"}
    # whole games are recorded, so at least the asked-for decisions (and what seed 0 collects)
    assert metrics["bc/decisions"] == len(collect_demonstrations(game, teacher, 300, seed=0))
    assert metrics["bc/decisions"] >= 300 and 0.0 <= metrics["bc/accuracy"] <= 1.0


class _Recorder:
    """A random actor that remembers every state it moved in (DAgger's actor)."""

    def __init__(self, seed):
        from card_envs.bots.base import RandomBot
        self.inner, self.seen, self.moves = RandomBot(seed), [], []

    def act(self, game, state, player):
        self.seen.append((game.clone(state), player))
        self.moves.append(self.inner.act(game, state, player))
        return self.moves[-1]


def test_dagger_records_the_teachers_label_in_the_states_the_actor_reached():
    # DAgger (Ross et al. 2011): the actor moves, the teacher only labels
    game, teacher = make_game("garda3"), make_heuristic("garda3")
    actor = _Recorder(seed=5)
    d = collect_demonstrations(game, teacher, 400, seed=3, vs_random_share=0.0, actor=actor)
    assert len(d) == len(actor.seen) >= 400  # every teacher seat was played by the actor
    labels = [teacher.act(game, s, p) for s, p in actor.seen]
    assert d.actions.tolist() == labels
    views = np.asarray([game.observe(s, p) for s, p in actor.seen], dtype=np.float32)
    assert (d.observations == views).all()
    # the game followed the actor, not the teacher: the random actor's moves differ from the
    # labels in many of 400 decisions, and the teacher alone reaches other states
    assert sum(m != a for m, a in zip(actor.moves, labels)) > len(labels) // 10
    alone = collect_demonstrations(game, teacher, 400, seed=3, vs_random_share=0.0)
    assert alone.observations.shape != d.observations.shape or \
        not (alone.observations == d.observations).all()


def test_warm_start_with_dagger_adds_the_rounds_decisions():
    game, teacher, model = _tiny_garda3_model()
    first = len(collect_demonstrations(game, teacher, 300, seed=0))
    metrics = warm_start(model, game, teacher, 300, epochs=1, learning_rate=1e-3, seed=0,
                         dagger_rounds=2, dagger_decisions=200, dagger_epochs=1)
    # two rounds of at least 200 decisions each (whole games) joined the first 300+
    assert metrics["bc/decisions"] >= first + 400
    assert 0.0 <= metrics["bc/accuracy"] <= 1.0


@pytest.mark.parametrize("network", ["mlp", "cards"])
def test_softening_the_cloned_policy_keeps_its_choices_and_divides_its_logits(network):
    """--bc-temperature T: the logits of every legal action are divided by T exactly, so the
    masked argmax (the deterministic policy the evaluation plays) stays and the sampled policy
    spreads out; T must be > 0."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from card_envs.training.args import OBSERVATION_MODE, Args
    from card_envs.training.imitation import soften_policy
    from card_envs.training.model import make_model, make_vec_env

    game, teacher = make_game("garda3"), make_heuristic("garda3")
    args = Args(seed=0, network=network, net_arch="16", n_envs=1)
    mode = OBSERVATION_MODE[network]
    model = make_model(make_vec_env(game, teacher, args, seed=0), args)
    warm_start(model, game, teacher, 300, epochs=3, learning_rate=1e-2, seed=0,
               observation_mode=mode)
    d = collect_demonstrations(game, teacher, 64, seed=5, observation_mode=mode)
    tensor, _ = model.policy.obs_to_tensor(d.observations)

    def logits():
        with torch.no_grad():
            dist = model.policy.get_distribution(tensor, action_masks=d.masks)
        return dist.distribution.logits.numpy(), dist.entropy().numpy()

    before, entropy_before = logits()
    soften_policy(model.policy, 4.0)
    after, entropy_after = logits()
    legal = d.masks.astype(bool)
    # log-softmax logits: differences between legal actions are divided by 4
    lb, la = np.where(legal, before, np.nan), np.where(legal, after, np.nan)
    np.testing.assert_allclose(la - np.nanmax(la, axis=1, keepdims=True),
                               (lb - np.nanmax(lb, axis=1, keepdims=True)) / 4.0,
                               rtol=1e-4, atol=1e-5)
    assert (np.nanargmax(la, axis=1) == np.nanargmax(lb, axis=1)).all()
    several = legal.sum(axis=1) > 1
    assert several.any() and (entropy_after[several] > entropy_before[several]).all()
    with pytest.raises(ValueError, match=r"temperature 0: must be > 0 and finite"):
        soften_policy(model.policy, 0)
