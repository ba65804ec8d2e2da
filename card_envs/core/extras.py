"""The optional extras of ``pip install "card-envs[...]"`` and the one-line hint when one is missing.

An entry point that needs an extra calls :func:`require_extra` before importing it::

    require_extra("train", "card-envs train")   # MissingExtraError if torch, SB3... are absent

and a command-line entry prints ``str(error)`` as its one error line (exit code 2, no traceback):
``card-envs train needs the "train" extra: pip install "card-envs[train]" (not installed:
torch)``. Whether a module is installed is found without importing it
(:func:`importlib.util.find_spec`), so the check stays cheap; a module set to ``None`` in
``sys.modules`` (Python's way to block an import) counts as missing.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable

from card_envs.core.errors import CardEnvsError

#: extra -> the top-level modules it provides (as imported, not as pip names); the packages and
#: pins are in pyproject.toml's ``[project.optional-dependencies]``
EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tyro", "matplotlib", "threadpoolctl",
              "tensorboard"),
    "interop": ("torch", "torchrl", "tianshou"),
    "rllib": ("ray", "torch"),
    "openspiel": ("pyspiel",),
    "video": ("moviepy",),
    "llm": ("httpx",),
}


class MissingExtraError(CardEnvsError, ImportError):
    """An optional extra is not installed; the message is the one-line hint (``name``: the first
    missing module). A :class:`CardEnvsError` (so the CLI prints it as a user error) and an
    :class:`ImportError` (so ``except ImportError`` code keeps working)."""


def is_installed(module: str) -> bool:
    """Whether ``module`` (a top-level or dotted name) can be imported, without importing it."""
    top = module.partition(".")[0]
    if top in sys.modules and sys.modules[top] is None:  # blocked: so are its submodules
        return False
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module without a spec
        return False


def missing_modules(modules: Iterable[str]) -> list[str]:
    """The names of ``modules`` this installation cannot import, in the given order."""
    return [m for m in modules if not is_installed(m)]


def missing_extra_message(extra: str, what: str, missing: Iterable[str] = ()) -> str:
    """``'<what> needs the "<extra>" extra: pip install "card-envs[<extra>]"'``, with
    ``(not installed: a, b)`` when ``missing`` names modules."""
    missing = list(missing)
    tail = f" (not installed: {', '.join(missing)})" if missing else ""
    return f'{what} needs the "{extra}" extra: pip install "card-envs[{extra}]"{tail}'


def require_extra(extra: str, what: str, modules: Iterable[str] | None = None) -> None:
    """Raise :class:`MissingExtraError` (the one-line hint) unless every module of ``extra``
    (or of ``modules``, when given) is installed.

    Args:
        extra: a key of :data:`EXTRAS`.
        what: what needs it, as the user called it (``"card-envs train"``,
            ``"card_envs.wrappers.rllib"``).
        modules: the modules to check instead of the whole extra's.

    Raises:
        KeyError: ``extra`` is not a key of :data:`EXTRAS` (a programming error).
        MissingExtraError: naming the extra, the pip command and the missing modules.
    """
    if extra not in EXTRAS:
        raise KeyError(f"no extra {extra!r}; extras: {sorted(EXTRAS)}")
    names = EXTRAS[extra] if modules is None else tuple(modules)
    missing = missing_modules(names)
    if missing:
        raise MissingExtraError(missing_extra_message(extra, what, missing), name=missing[0])
