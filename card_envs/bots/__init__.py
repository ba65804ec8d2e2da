"""Policies over the Game API (see :mod:`card_envs.bots.base`), one concern per module:

- :mod:`~card_envs.bots.base`: the policy interface, :class:`RandomBot`, ``as_policy``;
- :mod:`~card_envs.bots.lookahead`: decision-time lookahead around any policy;
- :mod:`~card_envs.bots.ismcts`: information-set Monte Carlo tree search (``ISMCTSBot``);
- :mod:`~card_envs.bots.loading`: a game's heuristic bot, a saved model file checked and loaded
  for play, ``module:name`` attributes;
- :mod:`~card_envs.bots.sb3`: a (frozen) MaskablePPO model as a policy (``FrozenPolicy``); torch
  and SB3 are imported only inside the functions that need them.
"""

from card_envs.bots.base import ObservationPolicy, Policy, RandomBot, as_policy, reseed_policy
from card_envs.bots.ismcts import ISMCTSBot

__all__ = ["ISMCTSBot", "ObservationPolicy", "Policy", "RandomBot", "as_policy", "reseed_policy"]
