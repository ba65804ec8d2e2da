"""Evaluation: seat-swapped matches, Wilson intervals, policy specs, ``evaluate``."""

from card_envs.evaluation.evaluate import evaluate
from card_envs.evaluation.match import MatchResult, play_game, play_match
from card_envs.evaluation.stats import wilson_interval

__all__ = ["MatchResult", "evaluate", "play_game", "play_match", "wilson_interval"]
