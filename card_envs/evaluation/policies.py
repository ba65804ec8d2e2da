"""Name a game or a policy with a short string (command line, configs) and get the object.

Game specs (:func:`resolve_game`): a registry name (``"garda3"``, see
:func:`card_envs.core.registry.available_games`) or ``"package.module:factory"`` for a game outside
the registry (the factory takes the config keywords, like the registry's ``make_game``).

Policy specs (:func:`resolve_policy`):

================================  ================================================================
``random``                        :class:`~card_envs.bots.base.RandomBot`
``heuristic``                     the game's rule-based bot (:func:`resolve_heuristic`)
``path/to/model.zip``             a saved MaskablePPO model, deterministic with masks
                                  (``path/to/run_dir`` works too: its ``model.zip``)
``package.module:attr``           a policy object, a class/factory returning one (called with no
                                  arguments), or an ``(observation, action_mask) -> action``
                                  callable
``<spec>+lookahead[:N]``          any of the above improved at decision time by ``N`` (default 8)
                                  determinized rollouts per decision
                                  (:class:`~card_envs.bots.lookahead.LookaheadPolicy`), e.g.
                                  ``runs/x/model.zip+lookahead:16``, ``heuristic+lookahead``;
                                  suffixes nest (a lookahead around a lookahead: cost multiplies)
================================  ================================================================
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

from card_envs.bots.base import RandomBot
from card_envs.core import registry
from card_envs.core.errors import ConfigError


def _import_attr(target: str):
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise ConfigError(f"{target!r} is not of the form 'package.module:name'")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"cannot import module {module!r} of {target!r}: {exc}") from None
    try:
        return getattr(mod, attr)
    except AttributeError:
        raise ConfigError(f"module {module!r} has no attribute {attr!r}") from None


def resolve_game(spec: str, config: dict[str, Any] | None = None):
    """Build the game named by ``spec`` with ``config`` keywords.

    Raises:
        ConfigError: an unknown game name, an unimportable ``module:factory``, a bad config field.
    """
    if config is not None and not isinstance(config, dict):
        raise ConfigError(f"a game config must be a JSON object (dict), got {config!r}")
    config = dict(config or {})
    if ":" in spec:
        game = _import_attr(spec)(**config)
        missing = [m for m in ("new_state", "legal_actions", "apply_action", "num_players")
                   if not hasattr(game, m)]
        if missing:
            raise ConfigError(f"{spec!r} did not build a card-envs Game (it has no {missing}); "
                              "name a game factory such as card_envs.garda3.rules:make_game")
        return game
    return registry.make_game(spec, **config)


def resolve_heuristic(spec: str, **kwargs: Any):
    """The heuristic bot of game ``spec``: the registry's, or ``HeuristicBot`` in the module of a
    ``module:factory`` game spec.

    Raises:
        ConfigError: the game has no heuristic bot.
    """
    if ":" in spec:
        module = spec.partition(":")[0]
        sibling = module.rpartition(".")[0] + ".bot"  # the suite's layout: <game>/bot.py
        for target in (f"{module}:HeuristicBot", f"{sibling}:HeuristicBot"):
            try:
                return _import_attr(target)(**kwargs)
            except ConfigError:
                continue
        raise ConfigError(f"no heuristic bot for game {spec!r}: neither {module}:HeuristicBot "
                          f"nor {sibling}:HeuristicBot exists")
    return registry.make_heuristic(spec, **kwargs)


def resolve_policy(spec, game_spec: str, seed: int | None = None, deterministic: bool = True):
    """A policy (``act(game, state, player)``) from a spec string (module docstring table);
    a non-string ``spec`` (already a policy or callable) is returned as a policy.

    Args:
        spec: the policy spec.
        game_spec: the game's spec (for ``heuristic``).
        seed: seed for random / sampling policies.
        deterministic: for models: argmax (True, evaluation default) or sample.

    Raises:
        ConfigError: an unknown spec (names it); FileNotFoundError: a missing model file.
    """
    from card_envs.wrappers.single_agent import as_policy

    if not isinstance(spec, str):
        return as_policy(spec)
    base_spec, plus, suffix = spec.rpartition("+lookahead")
    if plus and (not suffix or suffix.startswith(":")):
        from card_envs.bots.lookahead import LookaheadPolicy

        samples_text = suffix[1:] if suffix else "8"
        if not (samples_text.isascii() and samples_text.isdigit()):
            raise ConfigError(f"policy {spec!r}: '+lookahead:N' needs a whole number N of deals, "
                              f"got {samples_text!r}")
        if not base_spec:
            raise ConfigError(f"policy {spec!r}: nothing before '+lookahead' (write e.g. "
                              "'heuristic+lookahead' or 'runs/x/model.zip+lookahead:8')")
        base = resolve_policy(base_spec, game_spec, seed=seed, deterministic=deterministic)
        try:
            return LookaheadPolicy(base, samples=int(samples_text), seed=seed, name=spec)
        except ConfigError as exc:
            raise ConfigError(f"policy {spec!r}: {exc}") from None
    if spec == "random":
        return RandomBot(seed)
    if spec == "heuristic":
        return resolve_heuristic(game_spec)
    path = Path(spec)
    if spec.endswith(".zip") or path.is_dir() or path.exists():
        if path.is_dir():
            path = path / "model.zip"
        from card_envs.wrappers.sb3 import load_policy

        return load_policy(path, deterministic=deterministic, name=str(spec))
    if ":" in spec:
        obj = _import_attr(spec)
        if inspect.isclass(obj) or (callable(obj) and not hasattr(obj, "act") and _no_args(obj)):
            obj = obj()
        return as_policy(obj, name=spec)
    raise ConfigError(
        f"unknown policy {spec!r}: expected 'random', 'heuristic', a model .zip / run folder, or "
        "'package.module:name'"
    )


def _no_args(fn) -> bool:
    """True if ``fn`` can be called with no arguments (a factory, not an (obs, mask) callable)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in sig.parameters.values()
    )
