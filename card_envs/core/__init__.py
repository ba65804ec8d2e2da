"""Game-agnostic core: the Game contract, the one AEC adapter, layouts, card data, records."""

from card_envs.core.errors import (
    CardDataError,
    CardEnvsError,
    ConfigError,
    IllegalActionError,
    LoadoutError,
)
from card_envs.core.game import GameBase
from card_envs.core.layout import Layout
from card_envs.core.records import GameRecord, replay

__all__ = [
    "CardDataError",
    "CardEnvsError",
    "ConfigError",
    "GameBase",
    "GameRecord",
    "IllegalActionError",
    "Layout",
    "LoadoutError",
    "replay",
]
