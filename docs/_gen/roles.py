"""A griffe extension for the API reference: every docstring through :func:`rst.to_markdown`.

A role's target is resolved as Python would from the object that holds the docstring (its own
members, then its parents' scopes), or as a full ``card_envs...`` path; it becomes a
cross-reference when the target is rendered in the reference (public and documented), else
inline code, so ``mkdocs build --strict`` never meets a dangling reference.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).parent))
from rst import to_markdown  # noqa: E402

#: modules documented on their own pages instead of the reference (the env modules: games/)
SKIP_PREFIXES = ("card_envs.garda3_v", "card_envs.scratch_wars_v", "card_envs.dirt_and_glory_v",
                 "card_envs.rust_brawl_v")


def rendered(obj: griffe.Object | griffe.Alias) -> bool:
    """Whether the reference renders ``obj`` (what its filters keep), so a link to it resolves."""
    try:
        target = obj.final_target if obj.is_alias else obj
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    path = target.path
    if not path.startswith("card_envs") or path.startswith(SKIP_PREFIXES):
        return False
    if any(part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
           for part in path.split(".")):
        return False
    if target.is_module:
        return True
    if not target.docstring:
        return False
    parent = target.parent
    return parent is not None and (parent.is_module or rendered(parent))


class Roles(griffe.Extension):
    """Rewrite the docstrings once the whole package is loaded (so every target can resolve)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _walk(pkg):
            if obj.docstring:
                obj.docstring.value = to_markdown(obj.docstring.value,
                                                  lambda name, obj=obj: _resolve(pkg, obj, name))


def _walk(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)


def _lookup(pkg: griffe.Module, path: str):
    if path == pkg.path:
        return pkg
    if not path.startswith(pkg.path + "."):
        return None
    try:
        return pkg[path[len(pkg.path) + 1:]]
    except (KeyError, griffe.AliasResolutionError):
        return None


def _resolve(pkg: griffe.Module, obj: griffe.Object, name: str) -> str | None:
    target = _lookup(pkg, name)
    if target is None:
        scope = obj if obj.is_module or obj.is_class else obj.parent
        head, _, rest = name.partition(".")
        try:
            found = scope.resolve(head) if scope is not None else None
        except griffe.NameResolutionError:
            found = None
        if found is None:
            return None
        target = _lookup(pkg, f"{found}.{rest}" if rest else found)
    if target is None or not rendered(target):
        return None
    return (target.final_target if target.is_alias else target).path
