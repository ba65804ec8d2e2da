"""The declared facts of a game (:class:`card_envs.core.game.GameFacts`) checked against its
code and its play: :func:`check_facts` once per game object, :func:`check_facts_at` at every
decision (:func:`card_envs.testing.check_game` calls both). Both raise
:class:`ConformanceError` naming the fact.
"""

from __future__ import annotations

import random

import numpy as np

from card_envs.core.game import GameBase

__all__ = ["ConformanceError", "UTILITY_UNITS", "check_facts", "check_facts_at"]


class ConformanceError(AssertionError):
    """A game breaks the contract; the message names the property, the seed and the step."""


#: the utility units a game may declare (:class:`card_envs.core.game.GameFacts`)
UTILITY_UNITS = ("win/loss", "score", "chips")


def check_facts(game, seed: int = 0) -> None:
    """The static part of the declared facts (:attr:`~card_envs.core.game.GameBase.facts`):
    they agree with the game's attributes (name, version, seats, length, information); the
    utility range is ordered and holds 0 (a draw, mid-game returns), the units are one of
    :data:`UTILITY_UNITS`; a declared capability (``provides_potential``,
    ``provides_lookahead_horizon``) comes with its hook and an undeclared one without (the
    hook of :class:`~card_envs.core.game.GameBase`); a game declaring no ``chance`` plays two
    seeds identically (the same legal actions and observations for 30 random decisions).

    Raises:
        ConformanceError: naming the fact and what contradicts it.
    """
    try:
        facts = game.facts
    except TypeError as exc:
        raise ConformanceError(f"facts: {exc}") from None
    for fact, value in (("name", game.name), ("version", game.version),
                        ("num_players", game.num_players),
                        ("max_game_length", game.max_game_length),
                        ("perfect_information", game.perfect_information)):
        if getattr(facts, fact) != value:
            raise ConformanceError(f"facts.{fact} = {getattr(facts, fact)!r}, the game's "
                                   f"{fact} is {value!r}")
    if not isinstance(facts.max_game_length, int) or facts.max_game_length < 1:
        raise ConformanceError(f"facts.max_game_length = {facts.max_game_length!r}: expected "
                               "an int >= 1")
    if not facts.min_utility <= 0.0 <= facts.max_utility:
        raise ConformanceError(f"facts: utility range [{facts.min_utility}, "
                               f"{facts.max_utility}] does not hold 0 (a draw; zeros mid-game)")
    if facts.utility not in UTILITY_UNITS:
        raise ConformanceError(f"facts.utility = {facts.utility!r}: expected one of "
                               f"{UTILITY_UNITS}")
    cls = type(game)
    for hook, declared, written in (
            ("potential", facts.provides_potential, cls.potential is not GameBase.potential),
            ("lookahead_horizon", facts.provides_lookahead_horizon,
             cls.lookahead_horizon is not GameBase.lookahead_horizon)):
        if written != declared:
            raise ConformanceError(
                f"facts.provides_{hook} = {declared}, but the game "
                f"{'implements' if written else 'does not implement'} {hook}()")
    if not facts.chance:
        a, b = game.new_state(seed), game.new_state(seed + 1)
        rng = random.Random(seed)
        for step in range(30):
            same = game.legal_actions(a) == game.legal_actions(b) and all(
                np.array_equal(game.observe(a, p), game.observe(b, p))
                for p in range(game.num_players))
            if not same:
                raise ConformanceError(
                    f"facts.chance = False, but seeds {seed} and {seed + 1} play differently "
                    f"after {step} equal decisions (legal actions or observations differ)")
            if game.is_terminal(a):
                break
            action = rng.choice(game.legal_actions(a))
            game.apply_action(a, action)
            game.apply_action(b, action)


def check_facts_at(game, state, term: bool, ret: list, where: str) -> None:
    """The declared facts at one decision: returns within the utility range (summing to 0 at
    the end of a zero-sum game), potential in [-1, 1] for every seat, the lookahead horizon
    ``None`` or hashable and the same key twice and on a clone."""
    facts = game.facts
    low, high = facts.min_utility, facts.max_utility
    if any(not low <= float(r) <= high for r in ret):
        raise ConformanceError(f"{where}: returns {ret} outside the declared utility range "
                               f"[{low}, {high}]")
    if term and facts.zero_sum and abs(sum(ret)) > 1e-9:
        raise ConformanceError(f"{where}: returns {ret} are not zero-sum (the game declares "
                               "zero_sum)")
    if facts.provides_potential:
        for p in range(game.num_players):
            phi = game.potential(state, p)
            if not (isinstance(phi, (int, float)) and -1.0 <= float(phi) <= 1.0):
                raise ConformanceError(f"{where}: potential(state, {p}) = {phi!r} is not a "
                                       "number in [-1, 1]")
    if facts.provides_lookahead_horizon:
        key = game.lookahead_horizon(state)
        try:
            hash(key)
        except TypeError:
            raise ConformanceError(f"{where}: lookahead_horizon = {key!r} is not hashable") \
                from None
        again, cloned = game.lookahead_horizon(state), game.lookahead_horizon(game.clone(state))
        if again != key or cloned != key:
            raise ConformanceError(f"{where}: lookahead_horizon is not stable: {key!r}, again "
                                   f"{again!r}, on a clone {cloned!r}")
