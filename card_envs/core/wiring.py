"""A Game class's wiring, found by convention in its game folder (what no game writes by hand).

Every game folder ``<pkg>`` (``card_envs.garda3``, the template ``card_envs.testing.toy_game``)
holds the same modules under the same names (``docs/adding_a_game.md``), so the classes a Game
class wires together follow from the one it names in its generic parameter,
``class ToyNimGame(GameBase[ToyNimState])``: the state class ``<Game>State`` is defined in
``<pkg>.state``, and ``<Game>`` is its name without ``State``:

=====================  ==========================================================================
piece                  found by convention (:func:`folder_wiring`)
=====================  ==========================================================================
``state_class``        the generic parameter ``S`` of ``GameBase[S]``
``state_checks``       the function ``check_state(game, state)`` of the state's module
``encoder_class``      ``<pkg>.observation.<Game>Encoder``
``view_class``         ``<pkg>.view.<Game>View`` (none: the core's default ``View``)
``action_layout``      ``<pkg>.constants.ACTIONS`` (a :class:`~card_envs.core.layout.Layout`; a
                       layout that depends on the config is set on the instance in ``__init__``)
``phases``             ``<pkg>.constants.PHASES`` (:func:`~card_envs.core.phases.declare_phases`)
``over_phase``         the last of the class's ``phases``, ``len(phases) - 1`` (every game's phase
                       enum ends with its game-over member, ``OVER`` or ``END``)
=====================  ==========================================================================

A piece the class (or a class between it and ``GameBase``) declares itself is kept: the
explicit style ``state_class = ToyNimState`` ... still works, piece by piece. A piece found
neither way is a :class:`Missing` marker on ``GameBase``: reading it raises AttributeError naming
the game class, the piece and both ways to give it (:func:`missing_message`); ``state_checks``
is abstract, so a class without it cannot be built at all.

Applied once per class, when the class statement runs (``GameBase.__init_subclass__``); the
folder's ``observation``, ``view`` and ``constants`` modules are imported then (no game module
imports its rules, so there is no cycle). A state class outside a package, or a folder without
one of the modules, offers fewer pieces; a module that fails to import raises its own error.
"""

from __future__ import annotations

import importlib
import sys
import typing
from types import ModuleType
from typing import Any

from card_envs.core.layout import Layout

#: piece -> (module of the folder, name in it, what it is); ``<Game>`` is the state's prefix
CONVENTIONS: dict[str, tuple[str, str, str]] = {
    "encoder_class": ("observation", "<Game>Encoder", "the observation encoder class"),
    "view_class": ("view", "<Game>View", "the view class"),
    "action_layout": ("constants", "ACTIONS", "the action Layout"),
    "phases": ("constants", "PHASES", "the phase names (declare_phases)"),
}


def generic_state(cls: type, root: type) -> type | None:
    """The state class ``S`` of a ``root[S]`` among ``cls``'s own bases as written (its
    ``__orig_bases__``), or ``None`` (no such base, or ``S`` is still a type variable)."""
    for base in vars(cls).get("__orig_bases__", ()):
        origin, args = typing.get_origin(base), typing.get_args(base)
        if isinstance(origin, type) and issubclass(origin, root) and args \
                and isinstance(args[0], type):
            return args[0]
    return None


def _folder_module(package: str, name: str) -> ModuleType | None:
    """``<package>.<name>`` imported, or ``None`` when the folder has no such module (an error
    inside an existing module propagates)."""
    full = f"{package}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise


def prefix_of(state_class: type) -> str | None:
    """``<Game>`` of a state class named ``<Game>State`` (``"ToyNim"``), else ``None``."""
    name = state_class.__name__
    return name[:-len("State")] if name.endswith("State") and name != "State" else None


def folder_wiring(state_class: type) -> dict[str, Any]:
    """The pieces of the wiring that ``state_class``'s game folder offers (module docstring's
    table), by piece name; a piece the folder does not define is left out."""
    found: dict[str, Any] = {"state_class": state_class}
    checks = vars(sys.modules[state_class.__module__]).get("check_state")
    if callable(checks):
        found["state_checks"] = checks
    package = state_class.__module__.rpartition(".")[0]
    prefix = prefix_of(state_class)
    if not package:
        return found
    for piece, (module_name, name, _) in CONVENTIONS.items():
        if "<Game>" in name and prefix is None:
            continue
        module = _folder_module(package, module_name)
        value = vars(module).get(name.replace("<Game>", prefix or "")) if module else None
        if piece.endswith("_class") and isinstance(value, type) \
                or piece == "action_layout" and isinstance(value, Layout) \
                or piece == "phases" and isinstance(value, tuple) and value:
            found[piece] = value
    return found


def declared_below(cls: type, root: type, name: str) -> bool:
    """Whether ``cls`` or a class between it and ``root`` in its MRO defines ``name``."""
    mro = cls.__mro__
    return any(name in vars(k) for k in mro[:mro.index(root)])


def wire(cls: type, root: type) -> None:
    """Set on ``cls`` every piece its folder offers (:func:`folder_wiring`) that ``cls`` does
    not declare itself; nothing for a class without a concrete ``root[S]`` base of its own."""
    state_class = generic_state(cls, root)
    if state_class is None:
        return
    for name, value in folder_wiring(state_class).items():
        if not declared_below(cls, root, name):
            setattr(cls, name, value)
    if cls.phases and not declared_below(cls, root, "over_phase"):  # type: ignore[attr-defined]
        cls.over_phase = len(cls.phases) - 1  # type: ignore[attr-defined]


def state_class_of(cls: type, root: type) -> type | None:
    """The state class that ``cls`` or one of its bases names in a ``root[S]`` base, or
    ``None``."""
    return next((s for k in cls.__mro__ if (s := generic_state(k, root)) is not None), None)


def missing_message(cls: type, piece: str, root: type) -> str:
    """What to tell about a Game class ``cls`` that has no ``piece`` of its wiring: the class,
    the piece, and the two ways to give it (declared, or by convention from the folder of its
    state class, named as far as it is known)."""
    where = f"{cls.__module__}.{cls.__qualname__}"
    state_class = state_class_of(cls, root)
    if piece == "state_class":
        how = f"name it as the generic parameter, class {cls.__name__}(GameBase[<Game>State])"
    else:
        module_name, name, _ = CONVENTIONS.get(piece, CONVENTIONS["phases"])
        prefix = prefix_of(state_class) if state_class is not None else None
        name = name.replace("<Game>", prefix) if prefix else name
        folder = state_class.__module__.rpartition(".")[0] if state_class is not None else ""
        module = f"{folder}.{module_name}" if folder else f"the {module_name}.py of the game folder"
        how = f"define {name} in {module}"
        if piece == "over_phase":
            how += " (declare_phases; the last phase is the game-over phase)"
    return (f"{where} has no {piece}: declare {piece} on the class (or set it on the "
            f"instance in __init__), or {how} (card_envs.core.wiring)")


class Missing:
    """The marker of a wiring piece on ``GameBase``: a class attribute or an instance attribute
    of the same name in a game takes precedence (a non-data descriptor); reading it when
    neither is there raises AttributeError with :func:`missing_message`."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.root = name, owner

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        cls = owner if owner is not None else type(obj)
        raise AttributeError(missing_message(cls, self.name, self.root), name=self.name, obj=obj)
