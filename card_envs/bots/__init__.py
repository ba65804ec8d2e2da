"""Generic bots over the Game API (see :mod:`card_envs.bots.base`)."""

from card_envs.bots.base import ObservationPolicy, Policy, RandomBot

__all__ = ["ObservationPolicy", "Policy", "RandomBot"]
