"""The core-install run of ``.ci/run`` (``CARD_ENVS_CORE_ONLY=1``: ``pip install -e ".[test]"`` in a
fresh venv, the newest Gymnasium, no optional extra).

There, the tests of :data:`NEEDS_EXTRA` — tests that exercise an optional extra without skipping
by themselves when it is missing — are skipped, each naming the extra and its missing modules.
Only in that run and only while the extra is really missing: anywhere else they run, and the
all-extras run of ``.ci/run`` (``CI=true``) fails if any test skips for a missing extra. The
test modules of the ``interop``, ``openspiel`` and ``rllib`` extras skip by themselves outside
``CI=true`` (``.ci/run`` unsets ``CI`` for the core run).
"""

from __future__ import annotations

import os

import pytest

from card_envs.core.extras import EXTRAS, missing_modules

#: test node-id prefix -> the extra it needs (tyro for the trainer's flags and `card-envs
#: balance`, matplotlib for PNGs, torch / SB3 for the checkers and the missing-torch hints)
NEEDS_EXTRA = {
    "tests/test_balance.py::test_report_end_to_end_on_the_duel": "train",
    "tests/test_balance.py::test_untested_cards_and_swap_off": "train",
    "tests/test_balance.py::test_command_prints_and_saves": "train",
    "tests/test_balance.py::test_command_errors_are_one_line": "train",
    "tests/test_balance.py::test_cli_dispatches_balance": "train",
    "tests/test_cli.py::test_train_help_lists_args_with_docstrings": "train",
    "tests/test_cli.py::test_training_flag_errors_are_one_line_before_any_run_folder": "train",
    "tests/test_cli.py::test_more_training_flag_errors": "train",
    "tests/test_cli.py::test_a_corrupt_checkpoint_through_training_ppo_py": "train",
    "tests/test_cli.py::test_a_game_config_python_cannot_use": "train",
    "tests/test_cli.py::test_a_set_value_python_cannot_use": "train",
    "tests/test_cli.py::test_final_eval_lookahead_is_bounded": "train",
    "tests/test_cli_evaluation.py::test_tournament_workers_json_png_and_gauntlet": "train",
    "tests/test_extras.py::test_the_hint_is_one_line_naming_the_extra_and_the_pip_command": "train",
    "tests/test_extras.py::test_card_envs_train_without_torch_is_one_line_and_exit_code_2": "train",
    "tests/test_extras.py::test_evaluating_a_model_without_torch_is_one_line_and_exit_code_2":
        "train",
    "tests/test_gymnasium_registration.py::test_every_id_makes_and_passes_both_checkers": "train",
    "tests/test_wrappers_single_agent.py::"
    "test_every_game_passes_gymnasium_and_sb3_checkers_with_default_arguments": "train",
}

#: generic tests whose Leduc Hold'em parametrisations fail only on an assumption the test makes
#: about every game (issue 23: long games, ±1 rewards); node-id prefix -> the reason. Lifting
#: the assumptions is i23-generic's work: the marks are not strict, so a fixed test shows XPASS.
SHORT_GAME = "issue 23: generic test assumes games of at least {} decisions (Leduc: 2-8)"
LEDUC_XFAIL = {
    "tests/test_actions.py::test_game_api_": SHORT_GAME.format(8),
    "tests/test_actions.py::test_env_": SHORT_GAME.format(8),
    "tests/test_conformance.py::test_check_game": "issue 23: generic test assumes more than 5 "
    "decisions a game on average (check_game itself passes: test_leduc_holdem_env.py)",
    "tests/test_interop_libraries.py::test_torchrl_": "issue 23: generic test assumes a game "
    "outlasts TorchRL check_env_specs' 3-step rollout (it does not reset; a Leduc game may end "
    "after 2 decisions, then the all-zero mask fails torch.multinomial)",
    "tests/test_legality_owner.py::test_the_aec_": SHORT_GAME.format(6),
    "tests/test_openspiel.py::test_rllibs_openspiel_env_plays_a_bridged_game_with_illegal":
        "issue 23: generic test assumes two random episodes hit an illegal action (Leduc: 3 "
        "actions, 2-3 of them legal, 2-8 decisions)",
    "tests/test_openspiel.py::test_resample_from_infostate": SHORT_GAME.format(9),
    "tests/test_render.py::test_a_seats_frame_hides": "issue 23: generic test assumes a seat "
    "sees at least 3 changes along a game (Leduc: 2-8 decisions)",
    "tests/test_saved_states.py::test_save_state_resumes": SHORT_GAME.format(12),
    "tests/test_saved_states.py::test_tampered_save_state": SHORT_GAME.format(12),
    "tests/test_saved_states.py::test_a_state_": SHORT_GAME.format(12),
    "tests/test_saved_states.py::test_a_history_one_action_short": SHORT_GAME.format(12),
    "tests/test_text_env.py::test_move_names_are_unique": "issue 23: generic test assumes 7 "
    "games give over 100 decisions",
    "tests/test_text_env.py::test_a_scripted_text_agent_plays": "issue 23: generic test assumes "
    "10 games give over 80 decisions of one seat",
    "tests/test_text_hidden.py::test_text_observation_is_blind": "issue 23: generic test assumes "
    "its games give at least 60 decisions",
    "tests/test_wrappers_single_agent.py::test_two_player_games_win_is_plus_one": "issue 23: "
    "generic test assumes returns of ±1 (Leduc's are chips)",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "leduc_holdem" in item.nodeid:
            for prefix, reason in LEDUC_XFAIL.items():
                if item.nodeid.startswith(prefix):
                    item.add_marker(pytest.mark.xfail(reason=reason, strict=False))
                    break
    if os.environ.get("CARD_ENVS_CORE_ONLY") != "1":
        return
    for item in items:
        for prefix, extra in NEEDS_EXTRA.items():
            if item.nodeid.startswith(prefix):
                missing = missing_modules(EXTRAS[extra])
                if missing:
                    item.add_marker(pytest.mark.skip(reason=(
                        f'core-only run: needs the "{extra}" extra: pip install '
                        f'"card-envs[{extra}]" (not installed: {", ".join(missing)})')))
                break


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray for the test session (2 CPUs, no dashboard), started by the first test that
    asks for it (test_ray_evaluation.py, test_rllib.py: a start costs ~10 s) and stopped at the
    end; a Ray already running in this process is used as it is."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    yield ray
    if started:
        ray.shutdown()
