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
from env_helpers import names_a_test_game, test_games

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

def pytest_collection_modifyitems(config, items):
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


@pytest.fixture(autouse=True)
def _test_games_registered(request):
    """The tests' own games (``env_helpers.TEST_GAMES``: Toy Chips, a short chip game) are
    registered while a test whose parameters name one runs, and only then: the generic tests
    parametrised over ``env_helpers.registered_games()`` run on them like on the suite's games;
    every other test sees the package's registry alone."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and any(names_a_test_game(v) for v in callspec.params.values()):
        with test_games():
            yield
    else:
        yield
