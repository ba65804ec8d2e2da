"""Write or check the generated Rust Brawl card list, docs/cards/rust_brawl.md.

    python scripts/rust_brawl_card_list.py --write-docs docs/cards/rust_brawl.md
    python scripts/rust_brawl_card_list.py --check-docs docs/cards/rust_brawl.md   # exit 1: stale

The text comes from the shipped card database (card_envs/rust_brawl/data/cards.toml) and the
shipped decks through :func:`card_envs.rust_brawl.card_list.render_docs`; run it after editing
either.
"""

from __future__ import annotations

import sys

from card_envs.rust_brawl.card_list import main

if __name__ == "__main__":
    sys.exit(main(prog="python scripts/rust_brawl_card_list.py"))
