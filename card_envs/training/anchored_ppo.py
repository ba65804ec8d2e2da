"""MaskablePPO with the two hand-off remedies of "behaviour cloning, then PPO": a KL anchor toward
the cloned policy and a critic warm-up.

:class:`AnchoredMaskablePPO` is sb3-contrib's ``MaskablePPO`` whose update (:meth:`train`, the
same clipped-surrogate loop, written out here so the additions read in place) adds:

- **a KL anchor** (as VPT's fine-tuning, Baker et al. 2022): ``anchor_coef(t) ·
  KL(π_anchor(·|s) ‖ π_θ(·|s))`` over the legal actions of each sampled state, ``π_anchor`` a
  frozen copy of the policy taken by :meth:`set_anchor` (the trainer takes it right after
  behaviour cloning); the coefficient decays linearly from ``anchor_coef`` to 0 over
  ``anchor_decay_steps`` timesteps of PPO (0: constant). The forward KL is the cloning
  cross-entropy less a constant, so the anchor pulls toward what was cloned where the learner
  drifts from it without forbidding improvement elsewhere;
- **a critic warm-up**: for the first ``critic_warmup_steps`` timesteps of PPO only the value
  loss is minimised (the policy is not updated), so the first policy updates use advantages of
  a critic fitted to the learner's own rollouts rather than to the teacher's games.

Everything else (masking, GAE, clipping, ``clip_range_vf``, ``target_kl``) is MaskablePPO's.
Logged: ``train/anchor_kl``, ``train/anchor_coef``, ``train/critic_warmup`` beside SB3's
``train/*``. A saved model is an ordinary MaskablePPO ``.zip`` (the anchor is not saved:
``card_envs.bots.sb3.load_model`` loads it as ``MaskablePPO``; the trainer saves the anchor as
``anchor.zip`` in the run folder and sets it again on resume).

torch and sb3-contrib are imported at module level: importing this module needs the ``train``
extra.
"""

from __future__ import annotations

import copy

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.utils import explained_variance
from torch.nn import functional as F


class AnchoredMaskablePPO(MaskablePPO):
    """``MaskablePPO`` plus a decaying KL anchor and a critic warm-up (module docstring).

    Args:
        anchor_coef: the anchor's starting coefficient (>= 0; 0: no anchor).
        anchor_decay_steps: PPO timesteps over which the coefficient falls linearly to 0
            (0: constant).
        critic_warmup_steps: PPO timesteps of value-only updates before the first policy update.
        *args: ``MaskablePPO``'s positional arguments.
        **kwargs: ``MaskablePPO``'s keyword arguments.

    Raises:
        ValueError: a negative ``anchor_coef``, ``anchor_decay_steps`` or
            ``critic_warmup_steps``.
    """

    def __init__(self, *args, anchor_coef: float = 0.0, anchor_decay_steps: int = 0,
                 critic_warmup_steps: int = 0, **kwargs):
        for name, value in (("anchor_coef", anchor_coef), ("anchor_decay_steps", anchor_decay_steps),
                            ("critic_warmup_steps", critic_warmup_steps)):
            if not value >= 0:
                raise ValueError(f"{name} must be >= 0, got {value!r}")
        self.anchor_coef = float(anchor_coef)
        self.anchor_decay_steps = int(anchor_decay_steps)
        self.critic_warmup_steps = int(critic_warmup_steps)
        self.anchor = None
        #: the timestep count at which PPO started (the schedules count from there)
        self.ppo_start = 0
        super().__init__(*args, **kwargs)

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "anchor"]

    def set_anchor(self, policy=None, restart_schedules: bool = True) -> None:
        """Freeze a copy of ``policy`` (default: the current policy) as the anchor, and start
        the anchor's and the warm-up's schedules at the current timestep count (a resumed run
        passes ``restart_schedules=False``: its schedules go on from the saved ``ppo_start``)."""
        anchor = copy.deepcopy(policy if policy is not None else self.policy)
        anchor.set_training_mode(False)
        for p in anchor.parameters():
            p.requires_grad_(False)
        self.anchor = anchor
        if restart_schedules:
            self.ppo_start = self.num_timesteps

    def current_anchor_coef(self) -> float:
        """The anchor coefficient at the current timestep (0 without an anchor)."""
        if self.anchor is None or self.anchor_coef == 0:
            return 0.0
        if self.anchor_decay_steps == 0:
            return self.anchor_coef
        done = (self.num_timesteps - self.ppo_start) / self.anchor_decay_steps
        return self.anchor_coef * max(0.0, 1.0 - done)

    def in_critic_warmup(self) -> bool:
        """True while only the critic is trained: for the updates on the rollouts that end within
        the first ``critic_warmup_steps`` timesteps of PPO (``train`` runs after a rollout, when
        its steps are counted)."""
        return 0 < self.num_timesteps - self.ppo_start <= self.critic_warmup_steps

    def train(self) -> None:
        """One PPO update on the rollout buffer (MaskablePPO's, plus the anchor and warm-up)."""
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        clip_range = self.clip_range(self._current_progress_remaining)
        if self.clip_range_vf is not None:
            clip_range_vf = self.clip_range_vf(self._current_progress_remaining)
        anchor_coef = self.current_anchor_coef()
        warmup = self.in_critic_warmup()

        entropy_losses, pg_losses, value_losses, clip_fractions, anchor_kls = [], [], [], [], []
        approx_kl_divs: list[float] = []
        continue_training = True
        loss = th.zeros(())
        for epoch in range(self.n_epochs):
            approx_kl_divs = []
            for data in self.rollout_buffer.get(self.batch_size):
                actions = data.actions
                if isinstance(self.action_space, spaces.Discrete):
                    actions = data.actions.long().flatten()
                values = self.policy.predict_values(data.observations).flatten()
                value_target = values
                if self.clip_range_vf is not None:
                    value_target = data.old_values + th.clamp(values - data.old_values,
                                                              -clip_range_vf, clip_range_vf)
                value_loss = F.mse_loss(data.returns, value_target)
                value_losses.append(value_loss.item())
                if warmup:  # the critic alone
                    loss = self.vf_coef * value_loss
                    self._step(loss)
                    continue

                dist = self.policy.get_distribution(data.observations,
                                                    action_masks=data.action_masks)
                log_prob = dist.log_prob(actions)
                entropy = dist.entropy()
                advantages = data.advantages
                if self.normalize_advantage:
                    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
                ratio = th.exp(log_prob - data.old_log_prob)
                policy_loss = -th.min(advantages * ratio,
                                      advantages * th.clamp(ratio, 1 - clip_range,
                                                            1 + clip_range)).mean()
                pg_losses.append(policy_loss.item())
                clip_fractions.append(th.mean((th.abs(ratio - 1) > clip_range).float()).item())
                entropy_loss = -th.mean(entropy) if entropy is not None else -th.mean(-log_prob)
                entropy_losses.append(entropy_loss.item())
                loss = policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss

                if anchor_coef > 0:
                    with th.no_grad():
                        ref = self.anchor.get_distribution(data.observations,
                                                           action_masks=data.action_masks)
                        ref_logp = ref.distribution.logits
                        ref_p = ref_logp.exp()
                    cur_logp = dist.distribution.logits
                    # masked actions have p = 0 under both: their terms are 0
                    kl = (ref_p * (ref_logp - cur_logp)).sum(dim=1).mean()
                    anchor_kls.append(kl.item())
                    loss = loss + anchor_coef * kl

                with th.no_grad():
                    log_ratio = log_prob - data.old_log_prob
                    approx_kl = th.mean((th.exp(log_ratio) - 1) - log_ratio).cpu().numpy()
                    approx_kl_divs.append(float(approx_kl))
                if self.target_kl is not None and approx_kl > 1.5 * self.target_kl:
                    continue_training = False
                    break
                self._step(loss)
            self._n_updates += 1
            if not continue_training:
                break

        explained_var = explained_variance(self.rollout_buffer.values.flatten(),
                                           self.rollout_buffer.returns.flatten())
        record = self.logger.record
        record("train/value_loss", np.mean(value_losses))
        record("train/critic_warmup", int(warmup))
        record("train/anchor_coef", anchor_coef)
        if not warmup:
            record("train/entropy_loss", np.mean(entropy_losses))
            record("train/policy_gradient_loss", np.mean(pg_losses))
            record("train/clip_fraction", np.mean(clip_fractions))
            if approx_kl_divs:
                record("train/approx_kl", np.mean(approx_kl_divs))
        if anchor_kls:
            record("train/anchor_kl", np.mean(anchor_kls))
        record("train/loss", loss.item())
        record("train/explained_variance", explained_var)
        record("train/n_updates", self._n_updates, exclude="tensorboard")
        record("train/clip_range", clip_range)
        if self.clip_range_vf is not None:
            record("train/clip_range_vf", clip_range_vf)

    def _step(self, loss: th.Tensor) -> None:
        self.policy.optimizer.zero_grad()
        loss.backward()
        th.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
        self.policy.optimizer.step()
