"""The variants of every registered game that the default test run checks (conformance, golden
playthroughs): one config dict each, read from the game's registry record
(:attr:`GameEntry.variants <card_envs.core.registry.GameEntry.variants>`)."""

from __future__ import annotations

from card_envs.core.registry import ENTRIES

__all__ = ["VARIANTS", "variant_id"]

#: every registered game with the variants the default run checks (a config dict each)
VARIANTS: dict[str, list[dict]] = {
    name: [dict(config) for config in entry.variants] for name, entry in ENTRIES.items()}


def variant_id(config: dict) -> str:
    """A file- and test-id-safe name of a config: ``variant=royale+night,max_rounds=3``."""
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"
