"""Name a policy with a short string (command line, configs) and get the object: the policy
specs of every command, env and trainer, resolved here, below the evaluation (which, like the
wrappers and the trainer, imports them from here).

Game specs (:func:`~card_envs.core.registry.resolve_game`, re-exported here): a registry name
(``"garda3"``, see :func:`card_envs.core.registry.available_games`) or
``"package.module:factory"`` for a game outside the registry (the factory takes the config
keywords, like the registry's ``make_game``).

Policy specs (:func:`resolve_policy`):

================================  ================================================================
``random``                        :class:`~card_envs.bots.base.RandomBot`
``heuristic``                     the game's rule-based bot
                                  (:func:`card_envs.bots.loading.resolve_heuristic`)
``path/to/model.zip``             a saved MaskablePPO model, deterministic with masks
                                  (``path/to/run_dir`` works too: its ``model.zip``)
``rllib:PATH[#MODULE]``           a trained RLlib module (:mod:`card_envs.bots.rllib`): ``PATH``
                                  an algorithm checkpoint, a run folder of
                                  ``training/rllib_ppo.py`` (its ``checkpoint/``) or a module
                                  folder; ``MODULE`` default ``main``; deterministic with masks
                                  (a bare ``PATH`` folder holding an RLlib checkpoint works too)
``package.module:attr``           a policy object, a class/factory returning one (called with no
                                  arguments), or an ``(observation, action_mask) -> action``
                                  callable; its signature is checked before any game (an ``act``
                                  that cannot take ``(game, state, player)`` or a callable that
                                  cannot take ``(observation, action_mask)``, e.g. ``json:loads``,
                                  is refused; a callable without an inspectable signature passes)
``ismcts[:N[:ROLLOUT]]``          information-set Monte Carlo tree search
                                  (:class:`~card_envs.bots.ismcts.ISMCTSBot`, single-observer
                                  ISMCTS over ``sample_hidden`` deals): ``N`` iterations per
                                  decision (default ``DEFAULT_ITERATIONS`` of
                                  :mod:`card_envs.bots.ismcts`, 1..:data:`MAX_ISMCTS_ITERATIONS`),
                                  playouts by ``ROLLOUT``: ``heuristic`` (default, the game's
                                  bot) or ``random``; seeded by ``seed``. E.g. ``ismcts``,
                                  ``ismcts:400``, ``ismcts:400:random``
``ismcts[:N[:ROLLOUT]]@MODEL``    the same search guided by a trained network (expert
                                  iteration, AlphaZero's PUCT; :mod:`card_envs.bots.ismcts`,
                                  ``prior=``): ``MODEL`` a saved MaskablePPO ``.zip`` or a run
                                  folder (its ``model.zip``; e.g. of ``card-envs train --method
                                  exit``), its policy the prior at every tree node; ``ROLLOUT``
                                  also ``model`` (the network, deterministic, plays the
                                  playouts). E.g. ``ismcts:400@runs/x/model.zip``,
                                  ``ismcts:200:model@runs/x``. Refused, naming the spec: a
                                  missing or damaged model, a model of another game or config
``llm:<base_url>:<model>``        a language model behind an OpenAI-compatible chat-completions
                                  server (:class:`~card_envs.bots.llm.LLMPolicy`; the ``llm``
                                  extra): it receives only the seat's text view, e.g.
                                  ``llm:http://localhost:8000/v1:my-model``; API key from
                                  ``CARD_ENVS_LLM_API_KEY``, timeout from
                                  ``CARD_ENVS_LLM_TIMEOUT`` (``docs/language_agents.md``)
``<spec>+lookahead[:N]``          any of the above improved at decision time by ``N`` (default 8,
                                  1..:data:`MAX_LOOKAHEAD_SAMPLES`) determinized rollouts per
                                  decision
                                  (:class:`~card_envs.bots.lookahead.LookaheadPolicy`), e.g.
                                  ``runs/x/model.zip+lookahead:16``, ``heuristic+lookahead``;
                                  suffixes nest (a lookahead around a lookahead: cost multiplies)
================================  ================================================================

With ``game=`` the resolved policy is checked to fit the game once, here
(:func:`~card_envs.bots.loading.check_policy_fits`: a model's observation shape and action
count), also a policy given as an object; callers do not check again.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from card_envs.bots import rllib
from card_envs.bots.base import RandomBot, as_policy
from card_envs.bots.ismcts import (
    DEFAULT_C_PUCT,
    DEFAULT_ITERATIONS,
    MAX_ITERATIONS,
    ROLLOUTS,
    ISMCTSBot,
)
from card_envs.bots.loading import (
    check_model_file,
    check_policy_fits,
    load_model_policy,
    resolve_heuristic,
)
from card_envs.core.errors import CardEnvsError, ConfigError, first_line
from card_envs.core.registry import GAME_METHODS, import_attr, resolve_game

__all__ = ["GAME_METHODS", "MAX_ISMCTS_ITERATIONS", "MAX_LOOKAHEAD_SAMPLES", "MODEL_ROLLOUT",
           "check_model_file", "check_policy_fits", "check_policy_signature", "first_line",
           "import_attr", "resolve_game", "resolve_policy"]


#: the most deals ``+lookahead:N`` may sample per decision (each deal is a full rollout; 4096
#: already costs thousands of rollouts per move)
MAX_LOOKAHEAD_SAMPLES = 4096


def _lookahead_samples(spec: str, samples_text: str) -> int:
    """The ``N`` of ``<spec>+lookahead:N``: a whole number in 1..MAX_LOOKAHEAD_SAMPLES."""
    if not (samples_text.isascii() and samples_text.isdigit()):
        raise ConfigError(f"policy {spec!r}: '+lookahead:N' needs a whole number N of deals, "
                          f"got {samples_text!r}")
    stripped = samples_text.lstrip("0") or "0"
    if len(stripped) > len(str(MAX_LOOKAHEAD_SAMPLES)) or \
            not 1 <= int(stripped) <= MAX_LOOKAHEAD_SAMPLES:
        shown = samples_text if len(samples_text) <= 24 else samples_text[:21] + "..."
        where = spec if len(spec) <= 80 else spec[:77] + "..."
        raise ConfigError(f"policy {where!r}: '+lookahead:N' needs N in 1.."
                          f"{MAX_LOOKAHEAD_SAMPLES} (MAX_LOOKAHEAD_SAMPLES) samples (deals per "
                          f"decision), got {shown}")
    return int(stripped)


#: the most iterations ``ismcts:N`` may run per decision
MAX_ISMCTS_ITERATIONS = MAX_ITERATIONS


#: the rollout name of ``ismcts:N:model@MODEL``: the prior network plays the playouts
MODEL_ROLLOUT = "model"


def _ismcts_policy(spec: str, game_spec: str, seed: int | None, game=None):
    """The :class:`ISMCTSBot` of an ``ismcts[:N[:ROLLOUT]][@MODEL]`` spec (module docstring
    table); with ``@MODEL`` the model's policy is the search's prior (PUCT).

    Raises:
        ConfigError: naming the spec: more than three ``:`` fields, ``N`` not a whole number in
            1..MAX_ISMCTS_ITERATIONS, ``ROLLOUT`` not ``heuristic`` / ``random`` (/ ``model``
            with ``@MODEL``), a heuristic rollout for a game without a heuristic bot; an empty
            ``MODEL``, a ``MODEL`` that is not a loadable MaskablePPO model, or (with ``game``)
            one made for another observation shape or action count.
    """
    where = spec if len(spec) <= 80 else spec[:77] + "..."
    search_spec, at, model_spec = spec.partition("@")
    prior = None
    if at:
        if not model_spec.strip():
            raise ConfigError(f"policy {where!r}: nothing after '@' (write e.g. "
                              "'ismcts:400@runs/x/model.zip' or 'ismcts:400@runs/x')")
        path = Path(model_spec)
        if path.is_dir():
            path = path / "model.zip"
        try:
            prior = load_model_policy(path, deterministic=True, name=model_spec)
            if game is not None:
                check_policy_fits(prior, game, model_spec)
        except ConfigError as exc:
            raise ConfigError(f"policy {where!r}: its prior {exc}") from None
    fields = search_spec.split(":")
    if len(fields) > 3:
        raise ConfigError(f"policy {where!r}: 'ismcts[:N[:ROLLOUT]]' takes at most two fields "
                          f"after 'ismcts' (e.g. 'ismcts:400:random'), got {len(fields) - 1}")
    iterations = DEFAULT_ITERATIONS
    if len(fields) > 1:
        text = fields[1]
        shown = text if len(text) <= 24 else text[:21] + "..."
        if not (text.isascii() and text.isdigit()):
            raise ConfigError(f"policy {where!r}: 'ismcts:N' needs a whole number N of iterations "
                              f"per decision, got {shown!r}")
        stripped = text.lstrip("0") or "0"
        if len(stripped) > len(str(MAX_ISMCTS_ITERATIONS)) or \
                not 1 <= int(stripped) <= MAX_ISMCTS_ITERATIONS:
            raise ConfigError(f"policy {where!r}: 'ismcts:N' needs N in 1.."
                              f"{MAX_ISMCTS_ITERATIONS} (MAX_ISMCTS_ITERATIONS) iterations per "
                              f"decision, got {shown}")
        iterations = int(stripped)
    rollout_name = fields[2] if len(fields) > 2 else "heuristic"
    rollouts = [*ROLLOUTS, MODEL_ROLLOUT]
    if rollout_name not in rollouts:
        raise ConfigError(f"policy {where!r}: the rollout of 'ismcts:N:ROLLOUT' must be one of "
                          f"{list(ROLLOUTS)} (or '{MODEL_ROLLOUT}' with '@MODEL'), got "
                          f"{rollout_name[:24]!r}")
    rollout = "random"
    if rollout_name == MODEL_ROLLOUT:
        if prior is None:
            raise ConfigError(f"policy {where!r}: rollout '{MODEL_ROLLOUT}' needs a network: "
                              f"name it with '@MODEL' (e.g. 'ismcts:{iterations}:model@runs/x/"
                              "model.zip')")
        rollout = prior
    elif rollout_name == "heuristic":
        try:
            rollout = resolve_heuristic(game_spec)
        except ConfigError as exc:
            raise ConfigError(f"policy {where!r}: its rollouts need the game's heuristic bot: "
                              f"{exc} (use 'ismcts:{iterations}:random')") from None
    return ISMCTSBot(iterations=iterations, rollout=rollout, seed=seed, name=spec, prior=prior,
                     c_puct=DEFAULT_C_PUCT)


def _signature_fits(fn, n_args: int) -> tuple[bool, str]:
    """Whether ``fn`` can be called with ``n_args`` positional arguments: ``(fits, signature)``;
    a callable without an inspectable signature (some builtins) fits."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True, ""
    try:
        sig.bind(*([None] * n_args))
    except TypeError:
        return False, str(sig)
    return True, str(sig)


def check_policy_signature(obj, spec: str) -> None:
    """ConfigError unless ``obj`` can be called as a policy: an object with ``act`` must take
    ``act(game, state, player)``; a plain callable (used as an ``(observation, action_mask) ->
    action`` policy) must take two positional arguments. Callables whose signature cannot be
    inspected pass (the game reports them if they fail)."""
    if hasattr(obj, "act"):
        act = obj.act
        if not callable(act):
            raise ConfigError(f"policy {spec!r}: its 'act' is a {type(act).__name__}, not a "
                              "method act(game, state, player)")
        fits, sig = _signature_fits(act, 3)
        if not fits:
            raise ConfigError(f"policy {spec!r}: its act{sig} cannot be called as "
                              "act(game, state, player)")
        return
    if callable(obj):
        fits, sig = _signature_fits(obj, 2)
        if not fits:
            raise ConfigError(f"policy {spec!r}: {_callable_name(obj)}{sig} cannot be called as "
                              "an (observation, action_mask) -> action policy")


def _callable_name(fn) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or \
        type(fn).__name__


def resolve_policy(spec, game_spec: str, seed: int | None = None, deterministic: bool = True,
                   game=None):
    """A policy (``act(game, state, player)``) from a spec string (module docstring table);
    a non-string ``spec`` (already a policy or callable) is returned as a policy.

    Args:
        spec: the policy spec.
        game_spec: the game's spec (for ``heuristic``).
        seed: seed for random / sampling policies.
        deterministic: for models: argmax (True, evaluation default) or sample.
        game: the game object, if known: the policy (a model, or a policy object wrapping one)
            must fit its observations and actions, checked here once
            (:func:`~card_envs.bots.loading.check_policy_fits`; callers do not check again).

    Raises:
        ConfigError: an unknown spec (names it); a missing, damaged or unfitting model file or
            an object that is not a policy or whose ``act`` / call signature does not fit
            (:func:`check_policy_signature`); a ``+lookahead:N`` outside
            1..:data:`MAX_LOOKAHEAD_SAMPLES` (names the file or spec); a malformed
            ``ismcts[:N[:ROLLOUT]][@MODEL]`` (:func:`_ismcts_policy`).
    """
    if not isinstance(spec, str):
        policy = as_policy(spec)
        if game is not None:
            check_policy_fits(policy, game, str(getattr(policy, "name", spec)))
        return policy
    if not spec.strip():
        raise ConfigError("policy spec is empty: give 'random', 'heuristic', 'ismcts', a model "
                          ".zip or run folder, or 'package.module:name'")
    if spec.startswith("llm:"):
        from card_envs.bots.llm import llm_policy

        return llm_policy(spec, seed=seed)
    base_spec, plus, suffix = spec.rpartition("+lookahead")
    if plus and (not suffix or suffix.startswith(":")):
        from card_envs.bots.lookahead import LookaheadPolicy

        samples = _lookahead_samples(spec, suffix[1:] if suffix else "8")
        if not base_spec:
            raise ConfigError(f"policy {spec!r}: nothing before '+lookahead' (write e.g. "
                              "'heuristic+lookahead' or 'runs/x/model.zip+lookahead:8')")
        base = resolve_policy(base_spec, game_spec, seed=seed, deterministic=deterministic,
                              game=game)
        try:
            return LookaheadPolicy(base, samples=samples, seed=seed, name=spec)
        except ConfigError as exc:
            raise ConfigError(f"policy {spec!r}: {exc}") from None
    if spec == "ismcts" or spec.startswith(("ismcts:", "ismcts@")):
        return _ismcts_policy(spec, game_spec, seed, game=game)
    if spec == "random":
        return RandomBot(seed)
    if spec == "heuristic":
        return resolve_heuristic(game_spec)
    if spec.startswith(rllib.PREFIX) or rllib.looks_like_rllib(spec):
        policy = rllib.load_rllib_policy(spec, deterministic=deterministic, seed=seed)
        if game is not None:
            check_policy_fits(policy, game, spec)
        return policy
    path = Path(spec)
    if spec.endswith(".zip") or path.is_dir() or path.exists():
        if path.is_dir():
            path = path / "model.zip"
        return load_model_policy(path, deterministic=deterministic, name=str(spec), game=game)
    if ":" in spec:
        obj = import_attr(spec)
        if inspect.isclass(obj) or (callable(obj) and not hasattr(obj, "act") and _no_args(obj)):
            try:
                obj = obj()
            except CardEnvsError:
                raise
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"policy {spec!r}: calling it with no arguments failed: "
                                  f"{type(exc).__name__}: {first_line(exc)}") from None
        try:
            policy = as_policy(obj, name=spec)
        except TypeError as exc:
            raise ConfigError(f"policy {spec!r}: {exc}") from None
        check_policy_signature(obj, spec)
        if game is not None:
            check_policy_fits(policy, game, spec)
        return policy
    raise ConfigError(
        f"unknown policy {spec!r}: expected 'random', 'heuristic', "
        "'ismcts[:N[:ROLLOUT]][@MODEL]', a model .zip / run folder, 'rllib:CHECKPOINT', "
        "'llm:<base_url>:<model>', or 'package.module:name'"
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
