"""One dialect for the four games (issue 19): the same env-module exports, one style of named
observation offsets (``Layout.at``, read by every encoder as ``self.at``), one phase-constant
helper (:func:`card_envs.core.phases.declare_phases`), and the class-name pattern
``<Game>Game``, ``<Game>State``, ``<Game>Encoder``, ``<Game>View``, ``<Game>Config`` and the bot
``HeuristicBot``.

The module set of every game folder is held by ``tests/test_layout.py``
(``test_every_game_folder_has_the_same_module_set``)."""

from __future__ import annotations

import ast
import importlib
import pickle
from enum import IntEnum
from pathlib import Path

import pytest

import card_envs
from card_envs.core.layout import Layout, Offsets
from card_envs.core.phases import declare_phases

PACKAGE = Path(card_envs.__file__).parent
#: folder -> (env module, the game's name in its class names); the toy game is the template
GAMES = {
    "garda3": ("card_envs.garda3_v1", "Garda3"),
    "scratch_wars": ("card_envs.scratch_wars_v2", "ScratchWars"),
    "dirt_and_glory": ("card_envs.dirt_and_glory_v1", "DirtAndGlory"),
    "rust_brawl": ("card_envs.rust_brawl_v1", "RustBrawl"),
    "leduc_holdem": ("card_envs.leduc_holdem_v0", "LeducHoldem"),
}
TOY = ("testing.toy_game", "card_envs.testing.toy_nim_v0")
ENV_MODULES = sorted([env for env, _ in GAMES.values()] + [TOY[1]])
FOLDERS = sorted(GAMES) + [TOY[0]]
#: what every env module exports: PettingZoo's pair (turn-based games: no ``parallel_env``) and
#: the game factory both wrap (the same config keywords)
ENV_EXPORTS = ["env", "make_game", "raw_env"]


# -- env modules -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ENV_MODULES)
def test_every_env_module_exports_the_same_names(name):
    module = importlib.import_module(name)
    assert module.__all__ == ENV_EXPORTS, f"{name}.__all__ = {module.__all__}"
    for export in ENV_EXPORTS:
        assert callable(getattr(module, export)), f"{name}.{export}"
    env = module.env(render_mode="ansi")
    assert type(env) is type(module.raw_env())
    game = module.make_game()
    env.reset(seed=3)
    agent = env.agent_selection
    obs = env.observe(agent)
    assert obs["observation"].shape == game.observation_shape
    # the env module's name is the env's, and its docstring is the env's spec
    assert env.metadata["name"] == name.rsplit(".", 1)[1]
    assert "Observation modes" in module.__doc__ and "Actions" in module.__doc__


def test_the_observation_modes_are_described_once():
    """The env docstrings refer to core.observation_modes for what each mode holds; the long
    paragraph lives there only."""
    core = importlib.import_module("card_envs.core.observation_modes").__doc__
    assert "int8 row mask" in core and "-1 for none" in core
    for name in ENV_MODULES:
        doc = importlib.import_module(name).__doc__
        assert ":mod:`card_envs.core.observation_modes`" in doc, name
        assert "int8 row mask" not in doc, f"{name} repeats the observation-modes paragraph"


# -- named observation offsets -----------------------------------------------------------------
def test_layout_at_names_every_piece_start():
    layout = Layout([("phase", 3, "one-hot"), ("hand", 36, "cards"), ("round", 1, "r / 9")])
    at = layout.at
    assert isinstance(at, Offsets)
    assert (at.phase, at.hand, at.round) == (0, 3, 39)
    assert at.hand == layout.start("hand") == layout["hand"].start
    assert dir(at) == ["hand", "phase", "round"]  # dir() sorts
    assert layout.at is at  # built once per layout
    with pytest.raises(AttributeError, match="read-only"):
        at.hand = 4
    with pytest.raises(AttributeError, match="deck"):
        _ = at.deck
    again = pickle.loads(pickle.dumps(layout))
    assert again.at == at and again.at.round == 39
    assert pickle.loads(pickle.dumps(at)).starts() == (("phase", 0), ("hand", 3), ("round", 39))


def test_a_piece_that_is_no_identifier_has_no_offset_name():
    with pytest.raises(ValueError, match="'my hand'"):
        _ = Layout([("my hand", 3, "cards")]).at
    with pytest.raises(ValueError, match="'starts'"):
        _ = Layout([("starts", 3, "an Offsets method")]).at


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_encoder_names_its_offsets_through_at(folder):
    """No module constants per piece (``_PH = OBSERVATION.start("phase")``, ``AT_*``), no
    ``self.o_*`` attributes: the encoder reads ``self.at``."""
    path = PACKAGE / folder.replace(".", "/") / "observation.py"
    tree = ast.parse(path.read_text())
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("o_"):
            bad.append(f"{path.name}:{node.lineno}: .{node.attr}")
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "setattr":
            bad.append(f"{path.name}:{node.lineno}: setattr")
    for node in tree.body:  # a module constant per piece, or a dict of the starts
        value = node.value if isinstance(node, ast.Assign) else None
        if isinstance(value, ast.Call) and ast.unparse(value.func).endswith(".start") or \
                isinstance(value, ast.DictComp) and ".start" in ast.unparse(value):
            names = [ast.unparse(t) for t in node.targets]
            bad.append(f"{path.name}:{node.lineno}: module offset {names}")
    assert not bad, f"{folder}: offsets not read off self.at:\n" + "\n".join(bad)
    assert "at = self.at" in path.read_text() or ", at = " in path.read_text()


@pytest.mark.parametrize("folder", sorted(GAMES))
def test_the_encoder_offsets_are_its_layouts(folder):
    game = importlib.import_module(GAMES[folder][0]).make_game()
    encoder = game.encoder
    assert encoder.at == encoder.layout.at
    for piece in encoder.layout.pieces:
        assert getattr(encoder.at, piece.name) == piece.start
    clone = pickle.loads(pickle.dumps(encoder))
    assert clone.at == encoder.at


# -- phase constants ---------------------------------------------------------------------------
@pytest.mark.parametrize("folder", FOLDERS)
def test_phase_constants_are_declared_by_the_one_helper(folder):
    """``PHASES`` and the plain-int phase constants come from ``declare_phases(Phase)``, and
    each constant named after a member (``DRAFT`` or ``PH_DRAFT``) holds that member's value."""
    constants = importlib.import_module(f"card_envs.{folder}.constants")
    source = (PACKAGE / folder.replace(".", "/") / "constants.py").read_text()
    assert "declare_phases(Phase)" in source
    phase = constants.Phase
    assert constants.PHASES == declare_phases(phase).names
    assert constants.PHASES == tuple(p.name.lower() for p in phase)
    for member in phase:
        found = [name for name in (member.name, f"PH_{member.name}") if hasattr(constants, name)]
        for name in found:
            value = getattr(constants, name)
            assert type(value) is int and value == int(member), (folder, name, value)


def test_declare_phases_wants_the_values_in_order():
    class Good(IntEnum):
        DRAFT = 0
        OVER = 1

    assert declare_phases(Good) == (("draft", "over"), (0, 1))
    assert all(type(i) is int for i in declare_phases(Good).ids)

    class Gap(IntEnum):
        DRAFT = 0
        OVER = 2

    with pytest.raises(ValueError, match="Gap: OVER = 2, expected 1"):
        declare_phases(Gap)


# -- class names -------------------------------------------------------------------------------
#: folder -> the game's name in its class names, the template game included
CLASS_PREFIX = {folder: prefix for folder, (_, prefix) in GAMES.items()} | {TOY[0]: "ToyNim"}


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_game_folder_names_its_classes_alike(folder):
    """``<Game>Game`` in rules.py, ``<Game>State`` in state.py, ``<Game>Encoder`` in
    observation.py, ``<Game>View`` in view.py (each the game's own class, wired into the game
    class), ``<Game>Config`` in config.py and ``HeuristicBot`` in bot.py (the bot spec
    ``"heuristic"`` names it)."""
    prefix = CLASS_PREFIX[folder]
    missing = []
    found = {}
    for module, role in (("rules", "Game"), ("state", "State"), ("observation", "Encoder"),
                         ("view", "View"), ("config", "Config"), ("bot", "HeuristicBot")):
        name = role if role == "HeuristicBot" else prefix + role
        mod = importlib.import_module(f"card_envs.{folder}.{module}")
        cls = getattr(mod, name, None)
        if not isinstance(cls, type) or cls.__module__ != mod.__name__:
            missing.append(f"card_envs.{folder}.{module}.{name}")
        found[role] = cls
    assert not missing, "classes not named <Game><Role>: " + ", ".join(missing)
    game = found["Game"]
    assert (game.state_class, game.encoder_class, game.view_class) == (
        found["State"], found["Encoder"], found["View"])
