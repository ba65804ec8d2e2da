"""Rust Brawl (2 players): a collectible card game with a 4-position table per player
(rules ``docs/rules/rust_brawl.md``, ids ``RB-…``). The engine is being built; this package
re-exports the game once :mod:`.rules` lands."""
