"""The variants of every registered game that the default test run checks (conformance, golden
playthroughs): one config dict each, read from the game's registry record
(:attr:`GameEntry.variants <card_envs.core.registry.GameEntry.variants>`; a game of another
package registered through the ``card_envs.games`` entry point is here too)."""

from __future__ import annotations

from card_envs.core.registry import registered_games

__all__ = ["VARIANTS", "variant_id", "variants"]


def variants() -> dict[str, list[dict]]:
    """Every registered game whose modules import
    (:func:`~card_envs.core.registry.registered_games`) with the variants the default run checks
    (a fresh config dict each), registration order."""
    return {entry.name: [dict(config) for config in entry.variants]
            for entry in registered_games()}


#: :func:`variants` when this module was imported (the games registered by then)
VARIANTS: dict[str, list[dict]] = variants()


def variant_id(config: dict) -> str:
    """A file- and test-id-safe name of a config: ``variant=royale+night,max_rounds=3``."""
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"
