"""Evaluate two policies on a game: N seat-swapped games, win/draw/loss with Wilson intervals.

>>> from card_envs.evaluation import evaluate
>>> result = evaluate("garda3", "runs/x/model.zip", "heuristic", games=400)  # doctest: +SKIP
>>> print(result.long_summary())  # doctest: +SKIP

Policies may be spec strings (see :mod:`card_envs.bots.specs`) or objects. Models play
deterministically with their action masks. Seats: A takes every seat equally often, and by default
each deal is played once with A in every seat (``paired=True``), so the luck of the deal cancels.
"""

from __future__ import annotations

from typing import Any

from card_envs.evaluation.match import MatchResult, play_match
from card_envs.bots.specs import resolve_game, resolve_policy
from card_envs.evaluation.runner import progress_bar


def evaluate(
    game,
    a,
    b,
    games: int = 400,
    seed: int = 0,
    config: dict[str, Any] | None = None,
    paired: bool = True,
    progress: bool = False,
) -> MatchResult:
    """Play ``games`` games of policy ``a`` against policy ``b`` (b in every other seat).

    Args:
        game: a game spec (``"garda3"``, ``"module:factory"``) or a game object.
        a: the policy spec or policy under test.
        b: its opponent's policy spec or policy.
        games: number of games (> 0).
        seed: base seed of the deals.
        config: game config keywords (only with a spec string).
        paired: play each deal with A in every seat (duplicate format).
        progress: show a progress bar on stderr (games played of ``games``).

    Returns:
        :class:`MatchResult` from A's point of view (``long_summary()``, ``to_dict()``).

    Raises:
        ValueError: ``games <= 0``. ConfigError: an unknown game / policy spec, a model file that
            is not a model or not of this game (all before any game is played).
    """
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    game_spec = game if isinstance(game, str) else getattr(game, "name", "game")
    game_obj = resolve_game(game, config) if isinstance(game, str) else game
    # each checked to fit the game there, a policy given as an object too
    pa = resolve_policy(a, game_spec, seed=seed, game=game_obj)
    pb = resolve_policy(b, game_spec, seed=seed + 1, game=game_obj)
    with progress_bar(games, "evaluate", enabled=progress) as bar:
        return play_match(game_obj, pa, pb, games, seed=seed, paired=paired,
                          on_game=lambda _seat, _outcome: bar.update(1))


def report(result: MatchResult, a_name: str, b_name: str) -> str:
    """One line: ``A vs B: N games: win x% [lo, hi], draw ..., loss ...``."""
    return f"{a_name} vs {b_name}: {result.long_summary()}"
