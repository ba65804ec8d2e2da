"""Play games between policies on the Game API (no env overhead), seats swapped.

A policy is anything with ``act(game, state, player) -> int`` (see :mod:`card_envs.bots.base`).

The suite's one seat-rotating match loop (:func:`play_match`) lives here (the one win/draw/loss
rule, :func:`~card_envs.core.outcome.outcome_of`, lives in the core and is re-exported here); the
training league uses them, and the
tournament / SPRT runner (:mod:`card_envs.evaluation.runner`) plays each game of its schedule with
:func:`play_game` and scores it with :func:`outcome_of`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from card_envs.bots.base import move_watchers
from card_envs.core.errors import IllegalActionError
from card_envs.core.outcome import outcome_of  # noqa: F401 - the rule lives in the core
from card_envs.evaluation.stats import mean_interval, return_units, wilson_interval


def play_game(game, policies, seed: int, max_decisions: int | None = None):
    """Play one game; ``policies[i]`` plays seat ``i``. Returns ``(returns, state, decisions)``.
    Policies with ``observe_move`` hear every move before it is applied
    (:mod:`card_envs.bots.base`).

    Raises:
        IllegalActionError: a policy returned an illegal action (named with the seat).
    """
    state = game.new_state(seed)
    cap = max_decisions or game.max_game_length
    watchers = move_watchers(policies)
    n = 0
    while not game.is_terminal(state) and n < cap:
        p = game.current_player(state)
        a = policies[p].act(game, state, p)
        if a not in game.legal_actions(state):
            raise IllegalActionError(
                f"policy {getattr(policies[p], 'name', policies[p])!r} at seat {p} chose illegal "
                f"action {a} ({game.action_to_string(state, a)})"
            )
        for watcher in watchers:
            watcher.observe_move(game, state, a, p)
        game.apply_action(state, a)
        n += 1
    returns = game.returns(state) if game.is_terminal(state) else [0.0] * game.num_players
    return returns, state, n


@dataclass
class MatchResult:
    """Outcome of ``n`` games of policy A against the field, from A's point of view.

    Attributes:
        wins, draws, losses: A's games by :func:`outcome_of`.
        per_seat: ``{seat: [W, D, L]}`` by A's seat.
        returns: A's return in each game (in the game's units).
        units: the units of the returns when the reports print their mean with its interval
            beside win/draw/loss (``"chips"``, ``"score"``; :func:`~card_envs.evaluation.stats.
            return_units` of the game's facts), ``""`` for a game of ±1 returns.
    """

    wins: int = 0
    draws: int = 0
    losses: int = 0
    per_seat: dict[int, list[int]] = field(default_factory=dict)
    returns: list[float] = field(default_factory=list)
    units: str = ""

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    def record(self, seat: int, outcome: float, ret: float | None = None) -> None:
        """Count one game A played from ``seat`` with ``outcome`` (:func:`outcome_of`) and, if
        given, A's return ``ret``."""
        if ret is not None:
            self.returns.append(float(ret))
        tally = self.per_seat.setdefault(seat, [0, 0, 0])
        if outcome == 1.0:
            self.wins += 1
            tally[0] += 1
        elif outcome == 0.5:
            self.draws += 1
            tally[1] += 1
        else:
            self.losses += 1
            tally[2] += 1

    def wilson(self) -> tuple[float, float]:
        """95 % Wilson interval of the win rate (draws count as non-wins)."""
        return wilson_interval(self.wins, self.n)

    @property
    def draw_rate(self) -> float:
        return self.draws / self.n if self.n else 0.0

    @property
    def loss_rate(self) -> float:
        return self.losses / self.n if self.n else 0.0

    @property
    def score(self) -> float:
        """Mean points per game: win 1, draw ½, loss 0."""
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.0

    def intervals(self) -> dict[str, tuple[float, float]]:
        """95 % Wilson intervals of the win, draw and loss rates (``{"win": (lo, hi), ...}``)."""
        if not self.n:
            return {}
        return {
            "win": wilson_interval(self.wins, self.n),
            "draw": wilson_interval(self.draws, self.n),
            "loss": wilson_interval(self.losses, self.n),
        }

    def mean_return(self) -> tuple[float, float, float]:
        """A's mean return per game with its 95 % normal interval, ``(mean, low, high)``
        (:func:`~card_envs.evaluation.stats.mean_interval`).

        Raises:
            ValueError: no return was recorded."""
        return mean_interval(self.returns)

    def return_summary(self) -> str:
        """``"mean return +1.09 chips [+0.95, +1.23] (95% normal interval)"``; ``""`` unless
        the returns are reported (:attr:`units`) and some were recorded."""
        if not self.units or not self.returns:
            return ""
        mean, lo, hi = self.mean_return()
        return (f"mean return {mean:+.3f} {self.units} [{lo:+.3f}, {hi:+.3f}] "
                "(95% normal interval)")

    def to_dict(self) -> dict:
        """JSON-able: counts, rates, Wilson intervals, per-seat tallies ``[W, D, L]``; for a game
        whose returns are reported (:attr:`units`), also ``units``, ``mean_return`` and
        ``mean_return95`` (the normal interval)."""
        extra = {}
        if self.units and self.returns:
            mean, lo, hi = self.mean_return()
            extra = {"units": self.units, "mean_return": mean, "mean_return95": [lo, hi]}
        return {
            "games": self.n,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "draw_rate": self.draw_rate,
            "loss_rate": self.loss_rate,
            "score": self.score,
            "wilson95": {k: list(v) for k, v in self.intervals().items()},
            "per_seat": {str(k): v for k, v in sorted(self.per_seat.items())},
        } | extra

    def summary(self) -> str:
        lo, hi = self.wilson()
        return (
            f"{self.wins}W/{self.draws}D/{self.losses}L of {self.n}: win rate "
            f"{self.win_rate:.1%} (95% Wilson {lo:.1%}–{hi:.1%})"
        )

    def long_summary(self) -> str:
        """Win, draw and loss rates each with its 95 % Wilson interval."""
        if not self.n:
            return "no games"
        iv = self.intervals()
        parts = [
            f"{label} {rate:.1%} [{iv[k][0]:.1%}, {iv[k][1]:.1%}]"
            for k, label, rate in (
                ("win", "win", self.win_rate),
                ("draw", "draw", self.draw_rate),
                ("loss", "loss", self.loss_rate),
            )
        ]
        line = f"{self.n} game{'' if self.n == 1 else 's'}: " + ", ".join(parts) + " (95% Wilson)"
        returns = self.return_summary()
        return f"{line}; {returns}" if returns else line


def play_match(
    game, policy_a, policy_b, n_games: int, seed: int = 0, paired: bool = False, on_game=None
) -> MatchResult:
    """``n_games`` games of ``policy_a`` against ``policy_b`` (every other seat), A's seat rotating
    through all seats so each seat is played equally often (seat-swapped).

    Each game is scored for A by :func:`outcome_of` (a strictly highest return wins, a tie for the
    highest draws), and A's return is kept (its mean reported for a game whose returns are not
    ±1: :attr:`MatchResult.units`). ``on_game(seat, outcome)``, if given, is called after every game (the
    tournament updates its ratings there).

    With ``paired=True`` each deal (game seed) is played ``num_players`` times in a row, once with
    A in every seat (duplicate format: the luck of the deal cancels out; use ``n_games`` a
    multiple of ``num_players``). Default: a fresh deal every game.
    """
    if n_games < 1:
        raise ValueError(f"play_match needs n_games >= 1, got {n_games}")
    try:
        facts = game.facts
    except AttributeError:  # a game object outside the contract: its returns are not reported
        facts = None
    result = MatchResult(units=return_units(facts))
    n = game.num_players
    for g in range(n_games):
        seat = g % n
        policies = [policy_b] * n
        policies[seat] = policy_a
        deal = g // n if paired else g
        returns, _, _ = play_game(game, policies, seed=seed * 1_000_003 + deal)
        outcome = outcome_of(returns, seat)
        result.record(seat, outcome, returns[seat])
        if on_game is not None:
            on_game(seat, outcome)
    return result
