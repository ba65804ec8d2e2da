"""The missing-extra hint (card_envs.core.extras), simulated by blocking modules, and py.typed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from card_envs.core import extras
from card_envs.core.errors import CardEnvsError
from card_envs.core.extras import (
    EXTRAS,
    MissingExtraError,
    is_installed,
    missing_extra_message,
    require_extra,
)

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_hint_is_one_line_naming_the_extra_and_the_pip_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # Python's own way to block an import
    assert not is_installed("torch") and not is_installed("torch.nn")
    with pytest.raises(MissingExtraError) as info:
        require_extra("train", "card-envs train")
    assert str(info.value) == ('card-envs train needs the "train" extra: pip install '
                               '"card-envs[train]" (not installed: torch)')
    assert info.value.name == "torch"
    assert isinstance(info.value, ImportError) and isinstance(info.value, CardEnvsError)
    assert missing_extra_message("rllib", "card_envs.wrappers.rllib") == \
        'card_envs.wrappers.rllib needs the "rllib" extra: pip install "card-envs[rllib]"'
    require_extra("train", "x", modules=("json",))  # installed: no error
    with pytest.raises(KeyError, match="no extra 'gpu'"):
        require_extra("gpu", "x")


def test_a_missing_module_found_by_an_import_hook_is_missing_too(monkeypatch):
    """A meta-path finder that hides a module (as an uninstalled package would be)."""

    class Hide:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] == "no_such_pkg_card_envs":
                raise ModuleNotFoundError(name)
            return None

    monkeypatch.setattr(sys, "meta_path", [Hide(), *sys.meta_path])
    assert not is_installed("no_such_pkg_card_envs")
    assert not is_installed("no_such_pkg_card_envs.sub")
    assert is_installed("json")


def test_every_extra_of_the_helper_is_an_extra_of_pyproject():
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras), sorted(set(EXTRAS) - set(extras))
    assert "interop" in extras and any(d.startswith("torchrl") for d in extras["interop"])


#: run first in a subprocess: an import hook that makes ``HIDDEN`` look uninstalled (as in an
#: installation without the extra; setting ``sys.modules[name] = None`` instead would trip tyro,
#: which imports torch whenever the name is in sys.modules)
HIDE = """
import sys
class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.partition('.')[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Hide())
"""


def _run(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_card_envs_train_without_torch_is_one_line_and_exit_code_2(tmp_path):
    proc = _run("HIDDEN = {'torch'}\n" + HIDE +
                "from card_envs.cli import main\n"
                f"sys.exit(main(['train', '--minutes', '0.01', '--run-dir', {str(tmp_path)!r}]))\n")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == ('card-envs train needs the "train" extra: pip install '
                           '"card-envs[train]" (not installed: torch)\n')
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_core_only_install_names_every_missing_module_of_the_train_extra(tmp_path):
    # a fresh core-only venv: tyro missing too used to hide the others ("not installed: tyro")
    proc = _run("HIDDEN = {'tyro', 'torch', 'stable_baselines3', 'sb3_contrib'}\n" + HIDE +
                "from card_envs.cli import main\n"
                f"sys.exit(main(['train', '--minutes', '0.01', '--run-dir', {str(tmp_path)!r}]))\n")
    assert proc.returncode == 2, proc.stderr
    prefix = 'card-envs train needs the "train" extra: pip install "card-envs[train]" (not installed: '
    assert proc.stderr.startswith(prefix) and proc.stderr.endswith(")\n"), proc.stderr
    named = proc.stderr[len(prefix):-2].split(", ")
    # the four hidden ones first, in the extra's order; then whatever of the extra this machine
    # lacks too (a core-only CI venv has no matplotlib, tensorboard, threadpoolctl)
    assert named[:4] == ["tyro", "torch", "stable_baselines3", "sb3_contrib"], named
    assert named[4:] == extras.missing_modules(tuple(named[4:])), named


def _fake_model(path: Path) -> Path:
    """A zip that passes check_model_file (members data + policy.pth), without torch."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps({"observation_space": {}, "action_space": {}}))
        zf.writestr("policy.pth", b"")
    return path


def test_evaluating_a_model_without_torch_is_one_line_and_exit_code_2(tmp_path):
    model = _fake_model(tmp_path / "model.zip")
    proc = _run("HIDDEN = {'sb3_contrib'}\n" + HIDE +
                "from card_envs.cli import main\n"
                f"sys.exit(main(['evaluate', '--game', 'garda3', '--a', {str(model)!r}, "
                "'--b', 'random', '--games', '2']))\n")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (f"card-envs evaluate: error: loading the model {str(model)!r} needs "
                           'the "train" extra: pip install "card-envs[train]" (not installed: '
                           "sb3_contrib)\n")


def test_py_typed_ships_with_the_package():
    assert (ROOT / "card_envs" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["card_envs"]
