"""The variants of every registered game that the default test run checks (conformance, golden
playthroughs): one config dict each."""

from __future__ import annotations

__all__ = ["VARIANTS", "variant_id"]

#: every registered game with the variants the default run checks (a config dict each)
VARIANTS: dict[str, list[dict]] = {
    "garda3": [
        {"variant": "classic"}, {"variant": "royale"}, {"variant": "resurrection"},
        {"variant": "night"}, {"variant": "free_for_all"}, {"variant": "royale+night"},
        {"variant": "resurrection+night+royale"}, {"variant": "free_for_all+resurrection"},
        {"fighter_selection": "random"}, {"fighter_selection": "own_sets"},
        {"fighter_selection": "own_sets", "variant": "free_for_all"},
        {"piebald_is_wild": True, "allow_empty_defence": True},
        {"split_defence_needs_split_attack": False},
        {"attacker_must_play": False, "counter_attack_optional": True},
        {"max_rounds": 3},
    ],
    "scratch_wars": [
        {"level": 1}, {"level": 2}, {"level": 2, "effects": "attack_only"}, {"level": 3},
    ],
    "dirt_and_glory": [
        {"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
        {"num_players": 3, "reward": "score"},
        {"num_players": 5, "first_card_value": "high"}, {"num_players": 3, "draft_return": "discard"},
        {"num_players": 2, "first_card_ability": False, "territory_selection": "first"},
    ],
    "rust_brawl": [
        {}, {"decks": "random"},
        {"decks": "random", "open_decklists": False, "equipment_per_character": 2,
         "paralysis_turns": 2},
        {"empty_deck": "lose", "heal_self": False, "attacker_leaves_cover_first": False,
         "stalemate_turns": 1, "stalemate_repeats": False},
    ],
}



def variant_id(config: dict) -> str:
    """A file- and test-id-safe name of a config: ``variant=royale+night,max_rounds=3``."""
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"
