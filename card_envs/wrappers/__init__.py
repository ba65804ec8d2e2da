"""Views of a game for other libraries (nothing else lives here):

- :mod:`~card_envs.wrappers.single_agent`: the Gymnasium single-agent view of any game against
  opponent policies (``SingleAgentEnv``, with ``action_masks()`` for MaskablePPO); its opponents
  are a policy or an ``OpponentSource`` (``sample()`` / ``record(...)``), such as the training
  league.

Policies (random, heuristic, lookahead, frozen models) are in :mod:`card_envs.bots`; the trainer's
parts (league, behaviour cloning, SB3 glue) in :mod:`card_envs.training`.
"""

from card_envs.wrappers.single_agent import OpponentSource, SingleAgentEnv

__all__ = ["OpponentSource", "SingleAgentEnv"]
