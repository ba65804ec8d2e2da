"""Find and load policies for play: a game's heuristic bot, a saved MaskablePPO model (checked
before it is loaded), a ``package.module:name`` attribute
(:func:`~card_envs.core.registry.import_attr`, re-exported here, as is
:func:`~card_envs.core.errors.first_line`).

Nothing here imports torch until a model is actually loaded (:func:`load_model_policy` goes
through :mod:`card_envs.bots.sb3`).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from card_envs.core import registry
from card_envs.core.errors import CardEnvsError, ConfigError, first_line
from card_envs.core.extras import require_extra
from card_envs.core.registry import import_attr

__all__ = ["MODEL_MEMBERS", "check_model_file", "check_policy_fits", "first_line", "import_attr",
           "load_model_policy", "resolve_heuristic"]


#: the members every zip saved by ``MaskablePPO.save`` holds
MODEL_MEMBERS = ("data", "policy.pth")


def check_model_file(path: str | Path) -> Path:
    """Check that ``path`` looks like a saved MaskablePPO model, without loading it.

    Returns the path. Raises:
        ConfigError: naming the file: missing, a directory, not a zip archive, a corrupt archive
            (a member fails its CRC check), no ``data`` / ``policy.pth`` member, or a ``data``
            member that is not SB3's JSON object.
    """
    path = Path(path)
    what = f"{str(path)!r} is not a saved MaskablePPO model"
    if not path.exists():
        raise ConfigError(f"{what}: no such file")
    if path.is_dir():
        raise ConfigError(f"{what}: it is a directory (a run folder holds model.zip)")
    if not zipfile.is_zipfile(path):
        raise ConfigError(f"{what} (not a .zip archive)")
    try:
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()
            if bad is not None:
                raise ConfigError(f"{what}: the archive is corrupt (member {bad!r} fails its "
                                  "CRC check)")
            names = set(zf.namelist())
            missing = [m for m in MODEL_MEMBERS if m not in names]
            if missing:
                raise ConfigError(f"{what}: the zip has no {missing} member (it holds "
                                  f"{sorted(names)[:5]})")
            try:
                data = json.loads(zf.read("data"))
            except (ValueError, RecursionError) as exc:
                raise ConfigError(f"{what}: its 'data' member is not JSON ({type(exc).__name__}: "
                                  f"{first_line(exc)})") from None
    except ConfigError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RecursionError) as exc:
        raise ConfigError(f"{what}: the archive is corrupt ({type(exc).__name__}: "
                          f"{first_line(exc)})") from None
    if not isinstance(data, dict) or "observation_space" not in data or \
            "action_space" not in data:
        raise ConfigError(f"{what}: its 'data' member is not a model description")
    return path


def load_model_policy(path: str | Path, deterministic: bool = True, name: str | None = None,
                      game=None):
    """A frozen policy from a saved MaskablePPO ``.zip`` (see :func:`check_model_file`).

    With ``game``, the model's observation shape and action count must be the game's.

    Raises:
        ConfigError: naming the file: not a model (see :func:`check_model_file`), a model SB3
            cannot load, or a model of another game or config.
        MissingExtraError: torch / SB3 / sb3-contrib are not installed (the one-line
            ``pip install "card-envs[train]"`` hint).
    """
    path = check_model_file(path)
    require_extra("train", f"loading the model {str(path)!r}",
                  ("torch", "stable_baselines3", "sb3_contrib"))
    from card_envs.bots.sb3 import load_policy

    try:
        policy = load_policy(path, deterministic=deterministic, name=name)
    except CardEnvsError:
        raise
    except Exception as exc:  # noqa: BLE001 - SB3/torch raise anything for a damaged model
        raise ConfigError(f"{str(path)!r} is not a loadable MaskablePPO model: "
                          f"{type(exc).__name__}: {first_line(exc)}") from None
    if game is not None:
        check_policy_fits(policy, game, str(path))
    return policy


def check_policy_fits(policy, game, spec: str) -> None:
    """ConfigError if ``policy`` (a model's, with ``observation_shape`` and ``num_actions``) was
    made for observations (in its ``observation_mode``) or actions of another shape than
    ``game``'s; other policies pass."""
    shape = getattr(policy, "observation_shape", None)
    n = getattr(policy, "num_actions", None)
    if shape is None or n is None:
        base = getattr(policy, "base", None)
        if base is not None:
            check_policy_fits(base, game, spec)
        return
    from card_envs.bots.sb3 import fit_error

    message = fit_error(policy, game)
    if message:
        raise ConfigError(f"model {spec!r} {message}")


def resolve_heuristic(spec: str, **kwargs: Any):
    """The heuristic bot of game ``spec``: the registry's (also for a ``module:factory`` spec that
    names a registered game's factory), or else ``HeuristicBot`` in the module of a
    ``module:factory`` game spec or in the ``bot`` module beside it.

    Raises:
        ConfigError: the game has no heuristic bot.
    """
    registered = [name for name, target in registry.GAMES.items() if target == spec]
    if registered and registered[0] in registry.HEURISTICS:
        return registry.make_heuristic(registered[0], **kwargs)
    if ":" in spec:
        module = spec.partition(":")[0]
        package = module.rpartition(".")[0]
        sibling = package + ".bot"  # the suite's layout: <game>/bot.py
        targets = [f"{module}:HeuristicBot"] + ([f"{sibling}:HeuristicBot"] if package else [])
        for target in targets:
            try:
                return import_attr(target)(**kwargs)
            except ConfigError:
                continue
        raise ConfigError(f"no heuristic bot for game {spec!r}: "
                          f"{' nor '.join(targets)} does not exist")
    return registry.make_heuristic(spec, **kwargs)
