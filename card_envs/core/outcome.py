"""The one win/draw/loss rule of the suite, over a finished game's returns: what the evaluation
scores (:mod:`card_envs.evaluation.match`), the single-agent and text envs report
(``info["outcome"]``) and the trainer's league records, all from here."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["outcome_of"]


def outcome_of(returns: Sequence[float], seat: int) -> float:
    """The win/draw/loss rule: 1.0 (win) if ``seat`` has the strictly highest return, 0.5 (draw)
    if it is tied for the highest, else 0.0 (loss). A game cut off before its end scores every
    seat 0, so it is a draw for all.

    Args:
        returns: one number per seat (``game.returns(state)``).
        seat: the seat scored, an index into ``returns``.
    """
    best = max(returns)
    if returns[seat] != best:
        return 0.0
    return 1.0 if sum(1 for r in returns if r == best) == 1 else 0.5
