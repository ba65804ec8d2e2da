"""The architecture, held in code (docs/adding_a_game.md): one folder shape for every game, no
underscore-prefixed names across modules, action ids and names from each game's one Layout, no
import cycle inside ``card_envs``, and the training script's ``--help`` from its Args."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import random
import re
from pathlib import Path

import pytest

import card_envs
from card_envs.core.game import GameBase
from card_envs.core.registry import ENV_MODULES, GAMES, make_game

PACKAGE = Path(card_envs.__file__).parent
REPO = PACKAGE.parent
#: the module set of every game folder (docs/adding_a_game.md)
GAME_MODULES = {"__init__", "constants", "cards", "config", "state", "rules", "observation",
                "view", "bot"}
#: a module a game folder may add: the read-only position queries its Game class inherits, when
#: the rules would otherwise pass RULES_MAX_LINES (Scratch Wars, Rust Brawl); the state's records
#: (its value types), when state.py would otherwise pass 800 lines (Scratch Wars); the deck lists
#: and their legality, and the generated card list, when cards.py would otherwise pass the
#: package's line limit (Rust Brawl: decks.py, card_list.py)
OPTIONAL_GAME_MODULES = {"queries", "records", "decks", "card_list"}
#: the longest a game's rules.py may be
RULES_MAX_LINES = 800
#: every game folder: the registered games and the shipped template
GAME_FOLDERS = {name: PACKAGE / name for name in GAMES}
GAME_FOLDERS["toy_nim"] = PACKAGE / "testing" / "toy_game"
#: what the core derives once and no game writes again (card_envs/core/game.py)
CORE_DERIVED = ("apply_action", "legal_actions", "legal_action_mask", "clone", "state_to_dict",
                "state_from_dict", "observe", "action_name", "action_to_string", "phase_name",
                "check_action", "observe_dict", "observe_entities")
#: what the game's view (its view.py) declares and the Game class hands over to it
VIEW_METHODS = ("render", "view_header", "render_view", "table_view", "describe_action",
                "action_seen_by", "effects_seen_by")


def module_name(path: Path) -> str:
    rel = path.relative_to(REPO).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def imports_of(name: str) -> list[tuple[str, str | None, int]]:
    """``(imported module, imported name or None, line)`` for every import of module ``name``
    (function-local ones included; ``if TYPE_CHECKING:`` blocks skipped)."""
    tree = ast.parse(MODULES[name].read_text(), str(MODULES[name]))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    package = name if is_package(name) else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out += [(target, alias.name, node.lineno) for alias in node.names]
    return out


def internal_edges(name: str) -> set[str]:
    """The ``card_envs`` modules that module ``name`` imports (``from pkg import sub`` is an
    edge to the submodule; ``from pkg import Name`` one to the package)."""
    edges = set()
    for target, imported, _ in imports_of(name):
        if not target.startswith("card_envs"):
            continue
        if imported and f"{target}.{imported}" in MODULES:
            edges.add(f"{target}.{imported}")
        elif target in MODULES:
            edges.add(target)
    edges.discard(name)
    return edges


# -- one folder shape --------------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAME_FOLDERS))
def test_every_game_folder_has_the_same_module_set(game):
    folder = GAME_FOLDERS[game]
    modules = {p.stem for p in folder.glob("*.py")}
    assert GAME_MODULES <= modules <= GAME_MODULES | OPTIONAL_GAME_MODULES, (
        f"{folder}: modules {sorted(modules)}; the shape is {sorted(GAME_MODULES)} (and "
        f"optionally {sorted(OPTIONAL_GAME_MODULES)})")
    assert (folder / "data").is_dir() and any((folder / "data").glob("*.toml")), \
        f"{folder}/data holds no card data"


def test_every_registered_game_is_built_by_its_rules_module_and_has_an_env_module():
    for name, target in GAMES.items():
        assert target == f"card_envs.{name}.rules:make_game", target
        assert ENV_MODULES[name].startswith(f"card_envs.{name}_v"), ENV_MODULES[name]


@pytest.mark.parametrize("game", sorted(GAME_FOLDERS))
def test_games_write_only_their_rules_and_leave_the_generic_part_to_the_core(game):
    g = make_game(game) if game in GAMES else importlib.import_module(
        "card_envs.testing.toy_game").make_game()
    for attr in CORE_DERIVED:
        assert getattr(type(g), attr) is getattr(GameBase, attr), \
            f"{type(g).__name__} overrides {attr}, which the core derives"
    for attr in ("state_class", "encoder_class", "view_class", "action_layout", "phases"):
        assert getattr(g, attr, None), f"{type(g).__name__} does not set {attr}"
    for attr in VIEW_METHODS:
        assert getattr(type(g), attr) is getattr(GameBase, attr), \
            f"{type(g).__name__} overrides {attr}: it belongs in the game's view.py"
    assert g.view_class.__module__ == g.__module__.rpartition(".")[0] + ".view"
    assert g.num_actions == g.action_layout.size
    assert g.observation_shape == (g.encoder.layout.size,)


#: what marks text, picture or action-description code: a view method defined, a picture record
#: built, the picture module imported
VIEW_CODE = re.compile(r"def (" + "|".join(VIEW_METHODS) + r")\b|\b(CardFace|CardRow|Panel|Table|"
                       r"text_table)\(|card_envs\.core\.(table|picture)\b")


@pytest.mark.parametrize("game", sorted(GAME_FOLDERS))
def test_rules_hold_the_rules_only_and_stay_short(game):
    """Issue 20: each game's rules.py holds its rules only (its text views, picture and action
    descriptions are in view.py) and is at most RULES_MAX_LINES lines long."""
    for name in ("rules", "queries"):
        path = GAME_FOLDERS[game] / f"{name}.py"
        if not path.exists():
            continue
        text = path.read_text()
        found = [f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                 for m in VIEW_CODE.finditer(text)]
        assert not found, "view code outside view.py:\n" + "\n".join(found)
        lines = text.count("\n")
        assert lines <= RULES_MAX_LINES, f"{path.relative_to(REPO)}: {lines} lines"
    view = (GAME_FOLDERS[game] / "view.py").read_text()
    assert VIEW_CODE.search(view), f"{game}/view.py declares no view method"


def test_the_view_code_pattern_finds_what_it_is_meant_to_find():
    for line in ("    def render_view(self, state, player):", "    def describe_action(self, s,",
                 "from card_envs.core.table import CardFace", "x = Panel(title='a')",
                 "import card_envs.core.picture"):
        assert VIEW_CODE.search(line), line
    for line in ("    def rendering(self):", "table_points = 3", "x = self.table[p][j]",
                 "def check_state(self, state):"):
        assert not VIEW_CODE.search(line), line


# -- no underscore-prefixed names across modules -----------------------------------------------
def test_no_module_imports_an_underscore_prefixed_name_from_another_module():
    bad = []
    for name in MODULES:
        for target, imported, line in imports_of(name):
            parts = target.split(".") + ([imported] if imported else [])
            if target == "__future__":
                continue
            if target.startswith("card_envs") and any(
                    p.startswith("_") and not p.startswith("__") for p in parts):
                bad.append(f"{MODULES[name].relative_to(REPO)}:{line}: {target} {imported}")
    assert not bad, "underscore-prefixed names imported across modules:\n" + "\n".join(bad)


def test_no_module_reaches_into_another_modules_private_names():
    """``module._name`` on an imported card_envs module, and ``game._name`` / ``self.game._name``
    (the rules' private helpers) outside the game's rules module, are refused."""
    bad = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("card_envs"):
                        aliases[a.asname or a.name.split(".")[0]] = a.name
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("card_envs"):
                for a in node.names:
                    if f"{node.module}.{a.name}" in MODULES:
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                continue
            owner = ast.unparse(node.value)
            if owner in aliases or owner in ("game", "g", "self.game") and \
                    not name.endswith(".rules"):
                bad.append(f"{path.relative_to(REPO)}:{node.lineno}: {owner}.{node.attr}")
    assert not bad, "private names used across modules:\n" + "\n".join(bad)


# -- action ids and names from one Layout ------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAME_FOLDERS))
def test_action_ids_are_declared_once_in_constants(game):
    """Only constants.py builds the action Layout and assigns ``A_*`` ids, each read off a
    layout built there (``A_PICK = ACTIONS.start("pick")``); no other module assigns one."""
    folder = GAME_FOLDERS[game]
    layouts: set[str] = set()  # names bound to an action Layout in constants.py
    derived: set[str] = set()  # A_* ids already read off one
    for path in [folder / "constants.py"] + sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if not isinstance(node, ast.Assign):
                continue
            src = ast.unparse(node.value)
            for t in node.targets:
                for n in (e.id for e in ast.walk(t) if isinstance(e, ast.Name)):
                    where = f"{path.relative_to(REPO)}:{node.lineno}: {n} = {src}"
                    if "Layout(" in src or "action_layout(" in src:
                        assert path.name == "constants.py" or "ACTIONS" not in n, where
                        if path.name == "constants.py":
                            layouts.add(n)
                    if not (n.startswith("A_") or n == "ACTIONS"):
                        continue
                    assert path.name == "constants.py", f"{where}: assigned outside constants.py"
                    if n.startswith("A_"):
                        owner = src.partition(".start")[0]  # .start("x") or .starts("x", ...)
                        base = src.partition(" + ")[0]  # A_VALUE_HIGH = A_VALUE_LOW + 1
                        assert owner in layouts or base in derived, \
                            f"{where}: not read off an action layout"
                        derived.add(n)
            if isinstance(node.value, ast.Call) and ast.unparse(node.value.func).endswith(
                    ".starts") and path.name == "constants.py":
                # A_X, A_Y = ACTIONS.starts("x", "y"): each name is its piece's, upper-cased
                names = [e.id for e in node.targets[0].elts]
                pieces = [a.value for a in node.value.args]
                assert names == ["A_" + q.upper() for q in pieces], \
                    f"{path.relative_to(REPO)}:{node.lineno}: {names} read off {pieces}"
    assert layouts, f"{folder}/constants.py builds no action Layout"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_engine_ids_docstring_table_and_action_strings_agree(game):
    """For every game: the env docstring holds the action layout's table; along random games,
    every legal action's string is its layout name (piece, index in the piece) and the legal
    ids lie in the layout."""
    g = make_game(game)
    layout = g.action_layout
    doc = importlib.import_module(ENV_MODULES[game]).__doc__
    assert layout.markdown() in doc, f"{ENV_MODULES[game]} docstring lacks the action table"
    assert f"Discrete({layout.size})" in doc
    rng = random.Random(7)
    seen = set()
    for seed in range(3):
        s = g.new_state(seed)
        while not g.is_terminal(s):
            legal = g.legal_actions(s)
            for a in legal:
                piece = layout.piece_of(a)
                expected = piece.name if piece.size == 1 else f"{piece.name} {a - piece.start}"
                assert g.action_name(a) == expected
                text = g.action_to_string(s, a)
                assert text == expected or text.startswith(expected + ": "), (a, text)
                seen.add(piece.name)
            g.apply_action(s, rng.choice(legal))
    assert len(seen) >= 3, f"{game}: random games used only the pieces {seen}"


# -- no import cycle ---------------------------------------------------------------------------
def test_there_is_no_import_cycle_inside_card_envs():
    graph = {name: internal_edges(name) for name in MODULES}
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_the_cycle_check_sees_function_local_imports(tmp_path):
    """The test above would catch today's kind of circle (a local import in rules.py of the
    encoder, which imports rules at the top)."""
    global MODULES
    saved = MODULES
    try:
        pkg = tmp_path / "card_envs" / "fake"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "rules.py").write_text("def f():\n    from card_envs.fake.observation import x\n")
        (pkg / "observation.py").write_text("from card_envs.fake import rules\nx = 1\n")
        MODULES = {"card_envs.fake": pkg / "__init__.py", "card_envs.fake.rules": pkg / "rules.py",
                   "card_envs.fake.observation": pkg / "observation.py"}
        global REPO
        old_repo, REPO = REPO, tmp_path
        try:
            with pytest.raises(AssertionError, match="import cycle"):
                test_there_is_no_import_cycle_inside_card_envs()
        finally:
            REPO = old_repo
    finally:
        MODULES = saved


# -- the training script's flags come from its Args ---------------------------------------------
@pytest.mark.parametrize("cmd", [["training/ppo.py"], ["-m", "card_envs.cli", "train"]])
def test_help_lists_every_field_with_its_docstring(cmd):
    """``training/ppo.py --help`` (and ``card-envs train --help``) list every Args field with the
    first words of its docstring (tyro reads the field docstrings)."""
    pytest.importorskip("tyro")
    from card_envs.training.args import Args, flag
    from test_training_args import _field_docs, _help

    out = _help(cmd)
    docs = _field_docs()
    assert set(docs) == {f.name for f in dataclasses.fields(Args)}  # every field documented
    for name, doc in docs.items():
        assert flag(name) in out, name
        first_words = " ".join(doc.split()[:4])
        assert first_words in out, (name, first_words)
    assert "--progress, --no-progress" in out  # a boolean gets both spellings
    assert "(default: 15.0)" in out  # --minutes
