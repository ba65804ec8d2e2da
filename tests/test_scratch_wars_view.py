"""Scratch Wars' view (``card_envs/scratch_wars/view.py``): nothing is hidden, both seats read
the same table (SW-1.2, SW-3.2), and the status line counts the actions left (SW-3.1)."""

from __future__ import annotations

from card_envs.core.registry import make_game
from env_helpers import states_along as _states


def test_scratch_wars_has_nothing_hidden_both_seats_read_the_same_table():
    """Nothing is hidden (perfect information): a seat's view is the header and the table, the
    other seat's view differs only by who is "(you)" / "your"; every weapon shows its status,
    spin cost and durability and its whole wheel, each segment's effect, value and colour
    (SW-1.2, SW-3.2)."""
    game = make_game("scratch_wars")
    state = next(s for i, s in enumerate(_states(game, 1, 30)) if i == 20)
    view = game.render_view(state, 1)
    assert game.perfect_information
    assert view == f"scratch_wars: you are seat 1; phase {game.phase_name(state)}, to act: seat " \
        f"{state.player}{' (you)' if state.player == 1 else ''}\n" + game.view.table_text(state, 1)
    lines = view.splitlines()
    for p in (0, 1):
        for k, name in enumerate(state.weapon_names[p]):
            weapon = game.weapon(state, p, k)
            i = next(i for i, x in enumerate(lines) if x.startswith(f"    {k} {name}: ")
                     and i > lines.index(next(y for y in lines if y.startswith(f"  seat {p}"))))
            assert f"durability {weapon.durability}" in lines[i]
            assert f"spin cost {game.spin_cost(state, p, k)}" in lines[i]
            assert lines[i + 1].startswith("        wheel: ")
            for seg in weapon.segments:
                assert game.view.segment_text(weapon, seg) in lines[i + 1]


def test_scratch_wars_status_says_1_action_left_in_the_singular():
    """The table's status line counts the actions left in the turn (SW-3.1): "1 action left",
    "2 actions left" (it said "1 actions left")."""
    game = make_game("scratch_wars")
    seen = {}
    for seed in range(5):
        for state in _states(game, seed, 200):
            if state.turn >= 0 and state.actions_left in (1, 2):
                seen.setdefault(state.actions_left, game.view.table_text(state, 0).splitlines()[0])
    assert seen[1].endswith(": 1 action left")
    assert seen[2].endswith(": 2 actions left")
