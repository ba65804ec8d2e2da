"""Evaluation: seat-swapped matches, Wilson intervals (more in later modules)."""

from card_envs.evaluation.match import MatchResult, play_game, play_match
from card_envs.evaluation.stats import wilson_interval

__all__ = ["MatchResult", "play_game", "play_match", "wilson_interval"]
