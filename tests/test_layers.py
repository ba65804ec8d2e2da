"""The package's layers, bottom up: ``core`` < the games < ``bots`` < ``evaluation`` < ``wrappers``
< ``training`` < ``cli``. A module imports only from its own layer or below — every import
statement counts, module-level or inside a function, and so does ``importlib.import_module`` of a
constant string.

The games layer holds every game folder of the registry (``card_envs.core.registry.GAMES``), the
env modules ``card_envs/<game>_vN.py`` and ``card_envs/testing/`` (the conformance checks and the
toy game: it imports only the core today, so it sits beside the games, under ``bots``).
``card_envs/__init__.py`` is placed with the core (it imports env modules only lazily, by name).

Nothing in ``core``, the game folders, ``testing``, ``bots`` or ``wrappers`` imports
``card_envs.evaluation`` (the specs are resolved in ``card_envs.bots.specs`` and
``card_envs.core.registry``); the trainer takes its specs from ``card_envs.bots.specs``; one
worker pool (``card_envs/evaluation/pool.py``) is the only module that starts processes.

Also: evaluating two bots by their specs needs neither Gymnasium nor torch/SB3.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from card_envs.core.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "card_envs"

GAME_FOLDERS = sorted({target.split(":")[0].split(".")[1] for target in GAMES.values()})
#: top-level part of card_envs -> layer (bottom 0)
LAYERS = {"core": 0, **{name: 1 for name in GAME_FOLDERS}, "testing": 1, "bots": 2,
          "evaluation": 3, "wrappers": 4, "training": 5, "cli": 6, "cli_help": 6,
          "__main__": 6}  # cli_help: the command's help texts; __main__: python -m card_envs
ENV_MODULE = re.compile(r"[a-z0-9_]+_v\d+$")  # card_envs/garda3_v1.py ...
LAYER_NAMES = ["core", "games and testing", "bots", "evaluation", "wrappers", "training", "cli"]


def layer_of(module: str) -> int:
    """The layer of a module of the package (``card_envs.bots.base`` -> 2)."""
    parts = module.split(".")
    assert parts[0] == "card_envs", module
    if len(parts) == 1:  # card_envs/__init__.py
        return 0
    top = parts[1]
    if top in LAYERS:
        return LAYERS[top]
    if ENV_MODULE.match(top):
        return LAYERS[GAME_FOLDERS[0]]
    raise AssertionError(f"{module}: card_envs.{top} has no layer; place it in LAYERS of "
                         "tests/test_layers.py")


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    """Whether ``card_envs.a.b`` is a module or package of the source tree."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> list[tuple[int, str]]:
    """``(line, imported card_envs module)`` for every import in the file, at any depth."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x / from ..core import y
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:  # `from card_envs import garda3_v1` imports a module
                sub = f"{module}.{alias.name}"
                out.append((node.lineno, sub if is_module(sub) else module))
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            out.append((node.lineno, node.args[0].value))
    return [(line, m) for line, m in out if m == "card_envs" or m.startswith("card_envs.")]


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer():
    assert len(SOURCES) > 30
    for path in SOURCES:
        layer_of(module_name(path))


def test_no_import_goes_up_a_layer():
    upward = []
    for path in SOURCES:
        here = module_name(path)
        for line, target in imports_of(path):
            if layer_of(target) > layer_of(here):
                upward.append(f"{path.relative_to(ROOT)}:{line} ({LAYER_NAMES[layer_of(here)]}) "
                              f"imports {target} ({LAYER_NAMES[layer_of(target)]})")
    assert not upward, "imports going up a layer:\n" + "\n".join(upward)


#: the parts of the package that may not import card_envs.evaluation at all (issue 19): the
#: policy and game specs live in card_envs.bots.specs and card_envs.core.registry, the
#: win/draw/loss rule in card_envs.core.outcome; the trainer (and the cli) may, to evaluate
BELOW_EVALUATION = ("core", *GAME_FOLDERS, "testing", "bots", "wrappers")


def test_nothing_below_the_evaluation_imports_it():
    found = []
    for path in SOURCES:
        here = module_name(path)
        parts = here.split(".")
        top = parts[1] if len(parts) > 1 else ""
        if top not in BELOW_EVALUATION and not ENV_MODULE.match(top) and here != "card_envs":
            continue
        found += [f"{path.relative_to(ROOT)}:{line} imports {target}"
                  for line, target in imports_of(path)
                  if target == "card_envs.evaluation" or target.startswith("card_envs.evaluation.")]
    assert not found, "imports of card_envs.evaluation from below it:\n" + "\n".join(found)


def test_the_trainer_takes_its_specs_from_the_bots():
    specs = [f"{path.relative_to(ROOT)}:{line}" for path in SOURCES
             if module_name(path).startswith("card_envs.training")
             for line, target in imports_of(path) if target == "card_envs.evaluation.policies"]
    assert not specs, "the trainer imports the specs from the evaluation: " + ", ".join(specs)


def test_one_worker_pool_plays_every_many_game_job():
    """Matches, tournaments, the SPRT, the balance report and the trainer's jobs play through one
    backend, card_envs/evaluation/pool.py: no other module starts processes of its own."""
    pool = PACKAGE / "evaluation" / "pool.py"
    spawners = re.compile(r"^\s*(?:import|from)\s+(?:multiprocessing|concurrent\.futures)\b",
                          re.MULTILINE)
    others = [str(path.relative_to(ROOT)) for path in SOURCES
              if path != pool and spawners.search(path.read_text(encoding="utf-8"))]
    assert spawners.search(pool.read_text(encoding="utf-8"))
    assert not others, f"worker-pool code outside evaluation/pool.py: {others}"


def test_the_import_reader_sees_function_local_relative_and_importlib_imports(tmp_path,
                                                                               monkeypatch):
    fake = tmp_path / "card_envs" / "bots"
    fake.mkdir(parents=True)
    (tmp_path / "card_envs" / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    (tmp_path / "card_envs" / "training.py").write_text("")
    source = fake / "x.py"
    source.write_text("import numpy\n"
                      "def f():\n"
                      "    from card_envs.wrappers.single_agent import SingleAgentEnv\n"
                      "    from .. import training\n"
                      "    import importlib\n"
                      "    importlib.import_module('card_envs.cli')\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert imports_of(source) == [(3, "card_envs.wrappers.single_agent"),
                                  (4, "card_envs.training"), (6, "card_envs.cli")]
    assert [layer_of(m) for _, m in imports_of(source)] == [4, 5, 6]


def _run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


HEAVY = ("gymnasium", "torch", "stable_baselines3", "sb3_contrib", "tyro", "matplotlib")


def test_evaluating_two_bots_needs_neither_gymnasium_nor_torch():
    out = _run(
        "import sys\n"
        "from card_envs.evaluation.evaluate import evaluate\n"
        "r = evaluate('garda3', 'heuristic', 'random', games=20)\n"
        "print(r.n, r.wins, r.draws, r.losses, sorted(r.per_seat), "
        "sum(r.per_seat[0]), sum(r.per_seat[1]))\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    counts, loaded = out.strip().splitlines()
    n, wins, draws, losses, *_ = counts.split()
    assert (int(n), int(wins) + int(draws) + int(losses)) == (20, 20)
    assert counts.endswith("[0, 1] 10 10")  # seat-swapped: 10 games from each seat
    assert int(wins) >= 14, counts  # the heuristic beats random (about 98 % over 400 games)
    assert loaded == "[]", f"evaluation imported {loaded}"


def test_importing_training_and_the_cli_is_cheap():
    out = _run("import sys\n"
               "import card_envs.cli, card_envs.training, card_envs.bots.sb3\n"
               f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    assert out.strip() == "[]"


@pytest.mark.parametrize("package, forbidden", [("card_envs.wrappers", "card_envs.training"),
                                                ("card_envs.evaluation", "card_envs.wrappers")])
def test_a_package_import_pulls_in_no_higher_layer(package, forbidden):
    out = _run(f"import sys, {package}\n"
               f"print(sorted(m for m in sys.modules if m.startswith({forbidden!r})))\n")
    assert out.strip() == "[]"
