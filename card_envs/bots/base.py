"""The policy interface used by bots, evaluation and the single-agent wrappers.

A *policy* is any object with ``act(game, state, player) -> int`` returning a legal action id for
``player`` (the seat to act). Bots may read only what ``player`` can observe: ``game.observe``,
the legal actions, and the public parts of the state their docstring lists; a rules-based bot
that reads the state documents which fields it uses, and never reads hidden cards.

:class:`ObservationPolicy` turns a plain ``(observation, action_mask) -> action`` callable (a
trained network, a user function) into a policy; :func:`as_policy` accepts either form.
:func:`reseed_policy` restarts the RNG of a policy that keeps one (envs reseed their opponents).

A policy may also hear the moves: ``observe_move(game, state, action, player)``, if it has one,
is called by the match loops (:func:`card_envs.evaluation.match.play_game`, so ``evaluate`` and
the tournaments; the text env :mod:`card_envs.wrappers.text`) before every move of every seat is
applied (``player`` the mover, ``state`` still before the move), once per policy object however
many seats it plays. A policy must take from it only what its own seats see
(``game.action_seen_by``); the text policies (:mod:`card_envs.bots.llm`) tell their language
model the moves since its last decision this way. :func:`move_watchers` lists the policies that
have it.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Protocol

import numpy as np

from card_envs.core.errors import ConfigError, short_repr


class Policy(Protocol):
    def act(self, game, state, player: int) -> int: ...


class RandomBot:
    """Uniformly random over the legal actions (generic, any game).

    Args:
        seed: seed of the bot's own ``random.Random`` (independent of the game's chance).
    """

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, game, state, player: int) -> int:
        return self.rng.choice(game.legal_actions(state))


class ObservationPolicy:
    """Wrap ``fn(observation: float32 ndarray, action_mask: int8 ndarray) -> int`` as a policy.

    The function's choice is not checked here: the caller (env / evaluation) checks legality
    and raises ``IllegalActionError``.
    """

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], int], name: str = "observation"):
        self.fn = fn
        self.name = name

    def act(self, game, state, player: int) -> int:
        action = self.fn(game.observe(state, player), game.legal_action_mask(state))
        # the core's one check: numpy ints / 0-d arrays become ints, 3.0 or "3" are refused
        return game.check_action(state, action)


def as_policy(opponent, name: str | None = None):
    """A policy (``act(game, state, player)``) from a policy or an ``(obs, mask) -> action``
    callable.

    Raises:
        TypeError: ``opponent`` is neither.
    """
    if hasattr(opponent, "act"):
        return opponent
    if callable(opponent):
        return ObservationPolicy(opponent, name=name or getattr(opponent, "__name__", "callable"))
    raise TypeError(
        f"opponent {opponent!r} is neither a policy with act(game, state, player) nor an "
        "(observation, action_mask) -> action callable"
    )


def _parameters(fn) -> list[str] | None:
    """The parameter names of ``fn`` if ``fn(a, b, ...)`` can be checked, else ``None`` (a
    builtin or an extension without a signature: not checked)."""
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None


def _takes(fn, n: int) -> bool:
    """``fn`` can be called with ``n`` positional arguments (unknown signatures: True)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return True
    try:
        signature.bind(*range(n))
    except TypeError:
        return False
    return True


def policy_problem(opponent) -> str | None:
    """Why ``opponent`` cannot be an opponent policy, or ``None`` when it can: a policy whose
    ``act`` takes ``(game, state, player)``, or a callable taking ``(observation, action_mask)``
    (what :func:`as_policy` accepts), its signature checked with :mod:`inspect` (one that cannot
    be read is accepted)."""
    act = getattr(opponent, "act", None)
    if act is not None:
        if not callable(act):
            return f"{short_repr(opponent)} has an act that is not callable"
        if not _takes(act, 3):
            hint = " (a class? pass an instance)" if isinstance(opponent, type) else ""
            return (f"its act takes ({', '.join(_parameters(act) or [])}): a policy's act takes "
                    f"(game, state, player){hint}")
        return None
    if callable(opponent):
        if not _takes(opponent, 2):
            name = getattr(opponent, "__name__", type(opponent).__name__)
            return (f"the callable {name} takes ({', '.join(_parameters(opponent) or [])}): an "
                    "opponent callable takes (observation, action_mask)")
        return None
    return (f"{short_repr(opponent)} is neither a policy with act(game, state, player) nor an "
            "(observation, action_mask) -> action callable")


def check_opponent(opponent, where: str) -> None:
    """ConfigError ``"<where>: <why>"`` unless ``opponent`` is a policy or an ``(observation,
    action_mask)`` callable of the right signature (:func:`policy_problem`)."""
    problem = policy_problem(opponent)
    if problem is not None:
        raise ConfigError(f"{where}: {problem}")


def reseed_policy(policy, seed: int) -> None:
    """Restart ``policy``'s randomness from ``seed`` (an int >= 0): a policy with its own
    ``reseed(seed)`` method (:class:`card_envs.bots.ismcts.ISMCTSBot`) is asked to; otherwise its
    ``rng`` is restarted when it is a ``random.Random`` or a ``numpy.random.Generator`` (as in
    :class:`RandomBot` and the frozen models). A policy built around a ``base`` policy
    (:class:`card_envs.bots.lookahead.LookaheadPolicy`) has its base reseeded too, from
    ``seed + 1``, so a whole nest of policies plays as freshly built ones would. Policies without
    randomness are left alone."""
    reseed = getattr(policy, "reseed", None)
    if callable(reseed):
        reseed(seed)
    else:
        rng = getattr(policy, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(seed)
        elif isinstance(rng, np.random.Generator):
            policy.rng = np.random.default_rng(seed)
    base = getattr(policy, "base", None)
    if base is not None and base is not policy and callable(getattr(base, "act", None)):
        reseed_policy(base, seed + 1)


def move_watchers(policies) -> list:
    """The distinct policies of ``policies`` (in order, each object once) that have
    ``observe_move`` (module docstring)."""
    out: list = []
    for policy in policies:
        if callable(getattr(policy, "observe_move", None)) and \
                not any(policy is seen for seen in out):
            out.append(policy)
    return out
