"""The policy and game specs, as the evaluation once held them: a thin re-export.

The resolver lives below the evaluation now, so the wrappers and the trainer need not import the
evaluation to build a game and a bot: policy specs in :mod:`card_envs.bots.specs` (the table of
specs is there), game specs and ``import_attr`` in :mod:`card_envs.core.registry`. Every name
importable from here before still is.
"""

from __future__ import annotations

from card_envs.bots.loading import load_model_policy, resolve_heuristic  # noqa: F401
from card_envs.bots.specs import (  # noqa: F401
    GAME_METHODS,
    MAX_ISMCTS_ITERATIONS,
    MAX_LOOKAHEAD_SAMPLES,
    MODEL_ROLLOUT,
    check_model_file,
    check_policy_fits,
    check_policy_signature,
    first_line,
    import_attr,
    resolve_game,
    resolve_policy,
)

__all__ = ["GAME_METHODS", "MAX_ISMCTS_ITERATIONS", "MAX_LOOKAHEAD_SAMPLES", "MODEL_ROLLOUT",
           "check_model_file", "check_policy_fits", "check_policy_signature", "first_line",
           "import_attr", "load_model_policy", "resolve_game", "resolve_heuristic",
           "resolve_policy"]
