"""Every guide of the documentation runs: each ```python block marked ``<!-- guide: NAME -->`` on
the line before it, in the README or a page under docs/, is executed in a fresh interpreter, in an
empty folder (so what it writes stays there).

A guide that needs an optional extra (:data:`NEEDS`) is skipped when the extra is missing, except
under ``CI=true``, where it fails (CI installs every extra)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from card_envs.core.extras import missing_modules

ROOT = Path(__file__).resolve().parents[1]
#: the pages that may hold guides: the README and every Markdown page under docs/
PAGES = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
         for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]}
#: the pages of "Use with other libraries" (docs/libraries/, one per library)
LIBRARIES = "docs/libraries/"

MARKER = re.compile(r"^<!-- guide: ([a-z0-9_-]+) -->$", re.M)
GUIDE = re.compile(r"^<!-- guide: ([a-z0-9_-]+) -->\n```python\n(.*?)^```$", re.M | re.S)
#: guide name -> (page, code)
GUIDES = {name: (page, code) for page, text in PAGES.items()
          for name, code in GUIDE.findall(text)}

#: guide -> (extra, the modules it imports from that extra)
NEEDS = {
    "sb3": ("train", ("torch", "stable_baselines3", "sb3_contrib")),
    "torchrl": ("interop", ("torch", "torchrl", "tensordict")),
    "tianshou": ("interop", ("torch", "tianshou")),
    "rllib": ("rllib", ("torch", "ray")),
    "openspiel": ("openspiel", ("pyspiel",)),
}
#: the guides the documentation must have (others may add more: every marked block runs)
REQUIRED = ("sb3", "torchrl", "tianshou")
#: a guide is a short example: a few hundred timesteps, seconds to run
MAX_LINES = 50


def test_every_marker_opens_a_python_block_and_names_are_unique():
    markers = [name for text in PAGES.values() for name in MARKER.findall(text)]
    assert markers, "no guide markers in README.md or docs/"
    assert len(markers) == len(set(markers)), f"a guide name is used twice: {markers}"
    blocks = [name for text in PAGES.values() for name, _ in GUIDE.findall(text)]
    assert sorted(markers) == sorted(blocks), (
        "a '<!-- guide: NAME -->' line must be followed directly by a ```python block: "
        f"{sorted(set(markers) - set(blocks))}")
    for name in REQUIRED:
        assert name in GUIDES, f"the documentation has no '{name}' guide"


def test_the_guides_sit_in_the_use_with_other_libraries_pages():
    for name in REQUIRED:
        page, _ = GUIDES[name]
        assert page.startswith(LIBRARIES), f"guide {name!r} is in {page}, not under {LIBRARIES}"
    sb3_page, _ = GUIDES["sb3"]
    assert "PettingZoo SB3 tutorial" in PAGES[sb3_page]


@pytest.mark.parametrize("name", sorted(GUIDES))
def test_guide_runs(name, tmp_path):
    _, code = GUIDES[name]
    assert len(code.splitlines()) <= MAX_LINES, f"guide {name!r} is longer than {MAX_LINES} lines"
    extra, modules = NEEDS.get(name, (None, ()))
    missing = missing_modules(modules)
    if missing:
        message = (f'guide {name!r} needs the "{extra}" extra: pip install "card-envs[{extra}]" '
                   f"(not installed: {', '.join(missing)})")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)  # CI installs every extra: a missing one is a failure
        pytest.skip(message)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH",
                                                                                   "")])}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"guide {name!r} failed:\n{proc.stderr[-4000:]}"
    assert proc.stdout.strip(), f"guide {name!r} printed nothing"
