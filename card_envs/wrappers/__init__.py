"""Wrappers around the games, one concern per module:

- :mod:`~card_envs.wrappers.single_agent`: Gymnasium single-agent view of any game against
  opponent policies (``SingleAgentEnv``, with ``action_masks()`` for MaskablePPO);
- :mod:`~card_envs.wrappers.league`: self-play league / opponent pools (``League``);
- :mod:`~card_envs.wrappers.sb3`: SB3 glue — a frozen MaskablePPO model as a policy
  (``FrozenPolicy``, ``snapshot``, ``load_policy``); imports torch, so it is not imported here.
"""

from card_envs.wrappers.league import League, Opponent, parse_mix
from card_envs.wrappers.single_agent import SingleAgentEnv, as_policy, outcome_of

__all__ = ["League", "Opponent", "SingleAgentEnv", "as_policy", "outcome_of", "parse_mix"]
