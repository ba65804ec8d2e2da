"""Golden playthroughs: every game and variant replays its committed text file exactly (rules,
observations, masks, action names). Regenerate after an intended change (and bump the env's _vN):
``python -m card_envs.testing.golden --write tests/golden``."""

from __future__ import annotations

from pathlib import Path

import pytest

from card_envs.core.registry import make_game
from card_envs.testing.golden import golden_path, playthrough
from card_envs.testing.variants import VARIANTS, variant_id

GOLDEN = Path(__file__).parent / "golden"
CASES = [(name, cfg) for name, cfgs in VARIANTS.items() for cfg in cfgs]


def first_difference(expected: str, got: str) -> str | None:
    """``None`` if equal, else the first differing line of each, with its number."""
    a, b = expected.splitlines(), got.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  golden: {x[:300]}\n  now:    {y[:300]}"
    if len(a) != len(b):
        return f"golden has {len(a)} lines, now {len(b)}"
    return None


@pytest.mark.parametrize("case", CASES, ids=[f"{n}-{variant_id(c)}" for n, c in CASES])
def test_golden_playthrough(case):
    name, cfg = case
    path = golden_path(GOLDEN, name, cfg)
    assert path.is_file(), f"{path} missing: python -m card_envs.testing.golden --write tests/golden"
    diff = first_difference(path.read_text(), playthrough(name, cfg))
    assert diff is None, f"{path.name} differs at {diff}"


def test_every_golden_file_belongs_to_a_variant():
    expected = {golden_path(GOLDEN, n, c).name for n, c in CASES}
    assert {p.name for p in GOLDEN.glob("*.txt")} == expected


def test_a_shifted_observation_entry_fails_the_golden_check(monkeypatch):
    from card_envs.garda3.observation import OBSERVATION

    game_cls = type(make_game("garda3"))
    original = game_cls.observe
    j = OBSERVATION.start("round")

    def shifted(self, state, player):
        obs = original(self, state, player).copy()
        obs[j + 1], obs[j] = obs[j], 0.0  # the round feature moved one entry along
        return obs

    monkeypatch.setattr(game_cls, "observe", shifted)
    cfg = {"variant": "classic"}
    diff = first_difference(golden_path(GOLDEN, "garda3", cfg).read_text(),
                            playthrough("garda3", cfg))
    assert diff is not None and "observation" in diff
