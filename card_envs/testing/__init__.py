"""Testing tools for games of the suite and for new games: the conformance checks
(:func:`check_game`, :func:`check_state_mutations`) and a tiny worked game
(:mod:`card_envs.testing.toy_game`)."""

from card_envs.testing.conformance import (
    MALFORMED_ACTIONS,
    ConformanceError,
    SkippedCheckWarning,
    check_game,
    check_state_mutations,
    leaf_paths,
    variable_length_fields,
)

__all__ = ["ConformanceError", "SkippedCheckWarning", "check_game", "check_state_mutations",
           "MALFORMED_ACTIONS", "leaf_paths", "variable_length_fields"]
