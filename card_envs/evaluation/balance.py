"""The card-balance report: bots play many games over random legal card sets, and each card's
decks are compared with the field.

**What is played.** Deal ``d`` (seed ``deal_seed(seed, d)``, as the tournaments) gives every seat
a random legal card set from the game's :meth:`~card_envs.core.balance.BalanceMixin.balance_deal`;
the game is built with those sets seated by
:meth:`~card_envs.core.balance.BalanceMixin.balance_config`
and played by one policy spec in every seat (default ``heuristic``, the game's bot), each seat's
policy reseeded from the game's seed. With ``swap`` (default) each deal is played once per seat
rotation (two seats: twice, the sets' seats swapped, same game seed), so a set's results do not
depend on the seat it was dealt. Games run in ``workers`` processes (spawned; each builds its
games and policies from the specs) or on a Ray cluster (``address``;
:mod:`card_envs.evaluation.pool`); the results equal the serial run's.

**The protocol a game opts into** (:class:`~card_envs.core.balance.BalanceMixin`, its fact
``provides_balance``; the report refuses any other game, naming it):

==========================================  ===============================================
``balance_deal(seed) -> list``              one random legal card set per seat (JSON-able),
                                            a function of ``seed`` alone
``balance_config(sets) -> dict``            config overrides seating ``sets[i]`` at seat ``i``
``cards_in_set(card_set) -> tuple[str]``    the card ids of a set
``card_played(state, action) -> str|None``  the card an action puts into play (optional:
                                            default ``None``, plays not counted)
``balance_card_names() -> dict[str, str]``  the pool's ids and names (optional: cards never
                                            dealt are listed too)
``starting_player(state) -> int | None``    the rules' starting player, read on the final
                                            state (optional: default the first seat to decide)
==========================================  ===============================================

Rust Brawl (random legal decks, plays = a card played, attached or exploded) and Scratch Wars
(random loadouts: ``hero:<name>`` and ``weapon:<name>``, plays = weapon spins) implement it.
Garda3 (fighters drafted during the game from one shared pool) and Dirt and Glory (one shared
deck and offer, nothing dealt to a seat before the game) deal no per-seat set and do not.

**The statistics** (``docs/balance.md``). The unit is a *deck*: one seat in one game; its score
is that seat's result, 1 for a win, ½ for a draw (draws count half), 0 for a loss
(:func:`~card_envs.evaluation.match.outcome_of`). For card ``c``:

- ``win_rate``: the mean score ``m_c`` of the decks holding ``c`` (at least one copy);
  ``overall``: the mean score ``m`` of all decks (½ in a two-seat game: a game's two scores
  sum to 1).
- ``delta = m_c − m`` with a standard error robust to the games of one deal being related
  (the seat-swapped games, the two decks of a game): the linearised (delta-method) variance
  with the deals as clusters (CR1: ``G/(G−1) Σ_g U_g²``, ``U_g`` the sum over deal ``g``'s decks
  of ``1[c] (y − m_c)/n_c − (y − m)/N``).
- The test of card ``c`` is ``H0: |delta| <= tolerance`` (the card is within ±5 points by
  default) against ``|delta| > tolerance``: ``z = (|delta| − tolerance)/se`` and
  ``p = min(1, 2 Φ(−z))``, so that ``p < α`` exactly when the two-sided ``1 − α`` Wald
  interval ``delta ± z_{1−α/2} se`` lies wholly outside ``±tolerance``.
- Holm's step-down over the tested cards (S. Holm, "A simple sequentially rejective multiple
  test procedure", Scand. J. Statist. 6, 1979) at family-wise level ``alpha`` (0.05): sorted by
  ``p``, rank ``r`` (1-based) of ``m`` is rejected while every rank up to it has
  ``p <= alpha/(m − r + 1)``. Each card's interval is the Wald interval at its Holm level
  ``alpha/(m − r + 1)``, the level frozen at the first rank not rejected for every later rank,
  so an interval lies wholly outside ``±tolerance`` exactly when Holm rejects the card: those
  cards are the **outliers**. ``holm_p`` is Holm's adjusted p-value.
- A card in fewer than ``min_decks`` decks is listed but not tested (too few for a normal
  approximation).
- ``played``: of the games in which a deck held ``c``, the share in which that seat played it
  at least once; ``plays_per_game``: its plays per such game.
- The first player's win rate (the game's ``starting_player``, else the first seat to decide;
  draws half) with its 95 % Wilson score interval
  (:func:`~card_envs.evaluation.stats.wilson_interval`).

The report prints as rich tables (:func:`report_tables`), saves as JSON
(:meth:`BalanceReport.to_dict`) and draws a PNG (:func:`balance_png`: every card's delta with its
Holm-level interval, the ±tolerance band, outliers in red). Command: ``card-envs balance``
(:mod:`card_envs.cli`; its flags: :class:`BalanceArgs`).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Annotated, Any

from card_envs.bots.base import reseed_policy
from card_envs.core.errors import ConfigError
from card_envs.evaluation.match import outcome_of
from card_envs.evaluation.pool import GamePool, pool_for
from card_envs.evaluation.runner import deal_seed, policy_seed, progress_bar
from card_envs.evaluation.stats import wilson_interval

try:  # the command's flags (tyro: the 'train' extra); the library needs only the standard library
    import tyro as _tyro

    _GameArg = Annotated[str, _tyro.conf.arg(metavar="GAME")]
    _WorkersArg = Annotated[int | None, _tyro.conf.arg(metavar="N")]
    _AddressArg = Annotated[str, _tyro.conf.arg(metavar="ADDRESS")]
except ImportError:  # pragma: no cover - main() says tyro is missing
    _GameArg = str  # type: ignore[misc]
    _WorkersArg = int | None  # type: ignore[misc]
    _AddressArg = str  # type: ignore[misc]

#: the hooks a game must implement (BalanceMixin's abstract methods; the rest have defaults)
REQUIRED_HOOKS = ("balance_deal", "balance_config", "cards_in_set")
_NORMAL = NormalDist()


# -- statistics ---------------------------------------------------------------------------------
def holm(pvalues, alpha: float = 0.05) -> tuple[list[float], list[float], list[bool]]:
    """Holm's step-down procedure over ``pvalues`` (each in [0, 1]) at family-wise level
    ``alpha`` in (0, 1).

    Returns:
        ``(adjusted, levels, rejected)``, each in the input order: Holm's adjusted p-values
        (``max_{i<=r} min(1, (m − i + 1) p_(i))`` for the rank ``r`` of the value), the level
        each value is tested at (``alpha/(m − r + 1)``, frozen from the first rank not rejected
        on), and whether it is rejected (``adjusted <= alpha``). Ties keep input order.

    Raises:
        ValueError: a p-value outside [0, 1] or NaN, ``alpha`` outside (0, 1).
    """
    ps = [float(p) for p in pvalues]
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    for i, p in enumerate(ps):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-value {i} is {p}, not in [0, 1]")
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adjusted, levels, rejected = [1.0] * m, [alpha] * m, [False] * m
    running, stopped, level = 0.0, False, alpha
    for rank, i in enumerate(order, 1):
        running = max(running, min(1.0, (m - rank + 1) * ps[i]))
        adjusted[i] = running
        if not stopped:
            level = alpha / (m - rank + 1)
            if ps[i] > level:
                stopped = True
        levels[i] = level
        rejected[i] = not stopped
    return adjusted, levels, rejected


def tolerance_pvalue(delta: float, se: float, tolerance: float) -> float:
    """The p-value of ``H0: |true delta| <= tolerance`` for an estimate ``delta`` with standard
    error ``se`` (> 0): ``min(1, 2 Φ(−(|delta| − tolerance)/se))`` (below ``α`` exactly when
    the two-sided ``1 − α`` Wald interval lies wholly outside ``±tolerance``)."""
    if not se > 0:
        raise ValueError(f"standard error must be > 0, got {se}")
    return min(1.0, 2.0 * _NORMAL.cdf(-(abs(delta) - tolerance) / se))


def wald_interval(delta: float, se: float, level: float) -> tuple[float, float]:
    """``delta ± z_{1−level/2} se``: the two-sided Wald interval at error rate ``level`` in
    (0, 1) (``level`` 0.05: the 95 % interval)."""
    z = _NORMAL.inv_cdf(1.0 - level / 2.0)
    return delta - z * se, delta + z * se


def clustered_difference(scores, holds, clusters) -> tuple[float, float, float, float]:
    """The mean score of the units that ``holds`` a card minus the mean of all units, with its
    cluster-robust standard error.

    Args:
        scores: one score per unit (a deck: a seat in a game), in [0, 1].
        holds: per unit, whether it holds the card (at least one unit must).
        clusters: per unit, its cluster (the deal); at least two clusters.

    Returns:
        ``(m_c, m, delta, se)``: ``delta = m_c − m``; ``se`` from the linearised variance with
        clusters (CR1): ``G/(G−1) Σ_g U_g²``, ``U_g = Σ_{i in g} [holds_i (y_i − m_c)/n_c −
        (y_i − m)/N]``.

    Raises:
        ValueError: lengths differ, no unit holds the card, fewer than two clusters.
    """
    n = len(scores)
    if not (len(holds) == n == len(clusters)):
        raise ValueError("scores, holds and clusters must have one entry per unit")
    n_c = sum(1 for h in holds if h)
    if n_c == 0:
        raise ValueError("no unit holds the card")
    m_all = sum(scores) / n
    m_c = sum(y for y, h in zip(scores, holds) if h) / n_c
    u: dict[Any, float] = {}
    for y, h, g in zip(scores, holds, clusters):
        u[g] = u.get(g, 0.0) + (((y - m_c) / n_c) if h else 0.0) - (y - m_all) / n
    groups = len(u)
    if groups < 2:
        raise ValueError("the standard error needs units from at least two clusters")
    var = groups / (groups - 1) * sum(x * x for x in u.values())
    return m_c, m_all, m_c - m_all, math.sqrt(var)


# -- the games ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class BalanceJob:
    """Deal ``deal`` (seed ``seed``) with its sets rotated by ``rotation`` (set ``k`` at seat
    ``(k + rotation) % seats``); ``index`` orders the results."""

    index: int
    deal: int
    rotation: int
    seed: int


@dataclass(frozen=True)
class SeatResult:
    """One deck: set number ``set_index`` of its deal, its distinct ``cards`` (sorted), the
    seat's ``score`` (1 win, 0.5 draw, 0 loss) and ``plays`` (card id -> times played)."""

    set_index: int
    cards: tuple[str, ...]
    score: float
    plays: dict[str, int]


@dataclass(frozen=True)
class BalanceGame:
    """A played :class:`BalanceJob`: the ``first_player`` seat, one :class:`SeatResult` per
    seat, ``decisions`` made, ``truncated`` (cut off: every seat scores ½)."""

    index: int
    deal: int
    rotation: int
    first_player: int
    seats: tuple[SeatResult, ...]
    decisions: int
    truncated: bool


def check_balance_game(game, name: str = "") -> None:
    """ConfigError unless ``game`` opts into the balance protocol: it is a
    :class:`~card_envs.core.balance.BalanceMixin` (its fact ``provides_balance``), which makes
    it implement the hooks of :data:`REQUIRED_HOOKS`. The error names ``name`` (default: the
    game's ``name``)."""
    from card_envs.core.balance import BalanceMixin

    if not isinstance(game, BalanceMixin):
        label = name or game.name
        raise ConfigError(f"game {label!r} does not support the balance report: it implements "
                          f"no {', '.join(REQUIRED_HOOKS)} (a game opts in by inheriting "
                          "card_envs.core.balance.BalanceMixin: docs/balance.md; Rust Brawl "
                          "and Scratch Wars do)")


@dataclass(frozen=True)
class BalanceSetup:
    """What a worker process receives: the game ``spec`` (a registry name or
    ``module:factory``), its base ``config``, the ``policy`` spec playing every seat."""

    game: str
    config: dict
    policy: str = "heuristic"

    def build(self) -> BalanceArena:
        """This setup's :class:`BalanceArena` (what a
        :class:`~card_envs.evaluation.pool.GamePool` worker builds once)."""
        return BalanceArena(self)


class BalanceArena:
    """A process's base game and per-seat policies; :meth:`play` plays a job."""

    def __init__(self, setup: BalanceSetup):
        from card_envs.bots.specs import resolve_game, resolve_policy

        self.setup = setup
        self._resolve_game = resolve_game
        self.base = resolve_game(setup.game, setup.config)
        check_balance_game(self.base, setup.game)
        self.seats = self.base.num_players
        dealt = sorted(set(self.base.balance_config(self.base.balance_deal(0))) & set(setup.config))
        if dealt:
            raise ConfigError(
                f"{setup.game}: the balance report deals {', '.join(map(repr, dealt))} itself "
                f"(random legal sets per seat); remove it from the game config")
        self.policies = []
        for _seat in range(self.seats):
            # resolve_policy checks that it fits the game (once)
            self.policies.append(resolve_policy(setup.policy, setup.game, seed=0, game=self.base))
        self._cache: dict[int, list] = {}

    def deal(self, seed: int) -> list:
        """The sets of the deal with game seed ``seed`` (the last few cached)."""
        sets = self._cache.get(seed)
        if sets is None:
            sets = self.base.balance_deal(seed)
            if len(sets) != self.seats:
                raise ConfigError(f"{self.setup.game}: balance_deal dealt {len(sets)} sets for "
                                  f"{self.seats} seats")
            if len(self._cache) > 8:
                self._cache.clear()
            self._cache[seed] = sets
        return sets

    def play(self, job: BalanceJob) -> BalanceGame:
        n = self.seats
        sets = self.deal(job.seed)
        seated = [None] * n
        set_of_seat = [0] * n
        for k, card_set in enumerate(sets):
            seat = (k + job.rotation) % n
            seated[seat] = card_set
            set_of_seat[seat] = k
        config = {**self.setup.config, **self.base.balance_config(seated)}
        game = self._resolve_game(self.setup.game, config)
        for seat, policy in enumerate(self.policies):
            reseed_policy(policy, policy_seed(job.seed, seat, job.rotation))
        state = game.new_state(job.seed)
        first = game.current_player(state)  # unless the game names its starting player
        plays = [Counter() for _ in range(n)]
        decisions, cap = 0, game.max_game_length
        while not game.is_terminal(state) and decisions < cap:
            p = game.current_player(state)
            action = self.policies[p].act(game, state, p)
            played = game.card_played(state, action)
            if played is not None:
                plays[p][played] += 1
            game.apply_action(state, action)
            decisions += 1
        over = game.is_terminal(state)
        returns = game.returns(state) if over else [0.0] * n
        truncated = (not over) or bool(game.is_truncated(state))
        starter = game.starting_player(state)
        if isinstance(starter, int) and not isinstance(starter, bool) and 0 <= starter < n:
            first = starter
        seats = tuple(
            SeatResult(set_of_seat[s], tuple(sorted(set(game.cards_in_set(seated[s])))),
                       outcome_of(returns, s), dict(sorted(plays[s].items())))
            for s in range(n))
        return BalanceGame(job.index, job.deal, job.rotation, first, seats, decisions, truncated)


def balance_jobs(games: int, seats: int, seed: int = 0, swap: bool = True) -> list[BalanceJob]:
    """The schedule of ``games`` games: with ``swap`` each deal once per seat rotation (the last
    deal cut short if ``games`` is not a multiple of ``seats``), else one game per deal."""
    per_deal = seats if swap else 1
    jobs = []
    for i in range(games):
        deal, rotation = divmod(i, per_deal)
        jobs.append(BalanceJob(i, deal, rotation, deal_seed(seed, deal)))
    return jobs


def play_balance_games(setup: BalanceSetup, jobs: list[BalanceJob], workers: int | None = None,
                       on_result=None, address: str = "",
                       pool: GamePool | None = None) -> list[BalanceGame]:
    """Play ``jobs`` in this process (one worker), in ``workers`` spawned processes, on the Ray
    cluster at ``address``, or in ``pool`` (:mod:`card_envs.evaluation.pool`); ``on_result(game)``
    after each game. Returns the games sorted by ``index`` (equal for every backend).

    Raises:
        ConfigError: a bad spec (found in this process, before any worker starts), bad
            ``workers`` or ``address``.
    """
    with pool_for(pool, workers, address) as games:
        arena = BalanceArena(setup)  # a bad spec fails here, in this process
        return games.run(setup, jobs, on_result, arena=arena)


# -- the report ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardRow:
    """One card's line of the report (module docstring: the statistics). ``tested`` is False
    for a card in fewer than ``min_decks`` decks (then ``se``, ``p_value``, ``holm_p``,
    ``level``, ``low``, ``high`` are NaN). Rates and differences are fractions (0.05 = 5
    points)."""

    id: str
    name: str
    decks: int
    deals: int
    win_rate: float
    delta: float
    se: float
    p_value: float
    holm_p: float
    level: float
    low: float
    high: float
    outlier: bool
    tested: bool
    played: float
    plays_per_game: float

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in self.__dict__.items()}


@dataclass
class BalanceReport:
    """The result of :func:`balance_report`: the run's settings, the first player's rate, one
    :class:`CardRow` per card (sorted by ``delta``, highest first) and the outliers."""

    game: str
    config: dict
    policy: str
    seed: int
    swap: bool
    seats: int
    games: int
    deals: int
    truncated: int
    decisions: int
    overall: float
    first_wins: int
    first_draws: int
    first_rate: float
    first_wilson: tuple[float, float]
    tolerance: float
    alpha: float
    min_decks: int
    rows: list[CardRow] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1

    @property
    def outliers(self) -> list[CardRow]:
        """The cards whose Holm-level interval lies wholly outside ``±tolerance``."""
        return [r for r in self.rows if r.outlier]

    @property
    def tested(self) -> int:
        return sum(1 for r in self.rows if r.tested)

    def summary(self) -> str:
        """A few lines: games, the first player's rate with its interval, the outliers."""
        lo, hi = self.first_wilson
        lines = [
            (f"{self.game}: {self.games} games ({self.deals} deals"
            f"{', sets seat-rotated' if self.swap else ''}), policy {self.policy!r} in every "
            f"seat, {self.truncated} truncated; draws count half"),
            (f"first player's win rate {self.first_rate:.1%} (95% Wilson [{lo:.1%}, {hi:.1%}]; "
            f"{self.first_wins} wins, {self.first_draws} draws)"),
        ]
        outs = self.outliers
        tol = 100 * self.tolerance
        if outs:
            lines.append(f"{len(outs)} of {self.tested} tested cards lie outside ±{tol:g} points "
                         f"(Holm, family-wise {self.alpha:g}): " + ", ".join(
                             f"{r.id} {100 * r.delta:+.1f} [{100 * r.low:+.1f}, "
                             f"{100 * r.high:+.1f}]" for r in outs))
        else:
            lines.append(f"no card of {self.tested} tested lies wholly outside ±{tol:g} points "
                         f"(Holm, family-wise {self.alpha:g})")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-able: settings, the first player's rate, every card's row, the outlier ids."""
        return {
            "game": self.game, "game_config": self.config, "policy": self.policy,
            "seed": self.seed, "swap": self.swap, "seats": self.seats, "games": self.games,
            "deals": self.deals, "truncated": self.truncated, "decisions": self.decisions,
            "overall_win_rate": self.overall,
            "first_player": {"wins": self.first_wins, "draws": self.first_draws,
                             "win_rate": self.first_rate, "wilson95": list(self.first_wilson)},
            "tolerance": self.tolerance, "alpha": self.alpha, "min_decks": self.min_decks,
            "method": ("deck score 1/0.5/0 (draws half); delta = win rate of the decks holding "
                       "the card - win rate of all decks; cluster-robust (by deal) Wald "
                       "standard error; H0 |delta| <= tolerance, p = 2 Phi(-(|delta| - "
                       "tolerance)/se); Holm step-down; intervals at each card's Holm level"),
            "outliers": [r.id for r in self.outliers],
            "cards": [r.to_dict() for r in self.rows],
            "seconds": self.seconds, "workers": self.workers,
        }


def card_rows(games: list[BalanceGame], names: dict[str, str] | None = None,
              tolerance: float = 0.05, alpha: float = 0.05,
              min_decks: int = 20) -> tuple[float, list[CardRow]]:
    """Every card's statistics over ``games`` (module docstring). ``names``: the pool (id ->
    name; cards never dealt get a row with 0 decks). Returns ``(overall, rows)``, the rows sorted
    by ``delta`` (highest first; untested cards last, by id)."""
    names = dict(names or {})
    scores, clusters, decks = [], [], []
    for g in games:
        for s in g.seats:
            scores.append(s.score)
            clusters.append(g.deal)
            decks.append(s)
    if not scores:
        raise ConfigError("no games to report on")
    overall = sum(scores) / len(scores)
    ids = sorted(set(names) | {c for s in decks for c in s.cards})
    holding: dict[str, list[int]] = {c: [] for c in ids}
    for i, s in enumerate(decks):
        for c in s.cards:
            holding[c].append(i)
    stats = {}
    for c in ids:
        idx = holding[c]
        n_c = len(idx)
        if n_c == 0:
            continue
        deals = len({clusters[i] for i in idx})
        played = sum(1 for i in idx if decks[i].plays.get(c, 0) > 0) / n_c
        per_game = sum(decks[i].plays.get(c, 0) for i in idx) / n_c
        m_c = sum(scores[i] for i in idx) / n_c
        se = math.nan
        if n_c >= min_decks and deals >= 2:
            hold = [False] * len(scores)
            for i in idx:
                hold[i] = True
            _, _, _, se = clustered_difference(scores, hold, clusters)
        stats[c] = (n_c, deals, m_c, m_c - overall, se, played, per_game)
    tested = [c for c, v in stats.items() if math.isfinite(v[4]) and v[4] > 0]
    pvals = [tolerance_pvalue(stats[c][3], stats[c][4], tolerance) for c in tested]
    adjusted, levels, rejected = holm(pvals, alpha) if tested else ([], [], [])
    holm_of = {c: (p, a, lv, rj) for c, p, a, lv, rj in zip(tested, pvals, adjusted, levels,
                                                             rejected)}
    rows = []
    nan = math.nan
    for c in ids:
        name = names.get(c, c)
        if c not in stats:
            rows.append(CardRow(c, name, 0, 0, nan, nan, nan, nan, nan, nan, nan, nan, False,
                                False, nan, nan))
            continue
        n_c, deals, m_c, delta, se, played, per_game = stats[c]
        if c in holm_of:
            p, adj, level, rej = holm_of[c]
            lo, hi = wald_interval(delta, se, level)
            rows.append(CardRow(c, name, n_c, deals, m_c, delta, se, p, adj, level, lo, hi, rej,
                                True, played, per_game))
        else:
            rows.append(CardRow(c, name, n_c, deals, m_c, delta, nan, nan, nan, nan, nan, nan,
                                False, False, played, per_game))
    rows.sort(key=lambda r: (not r.tested, -r.delta if r.tested else 0.0, r.id))
    return overall, rows


def summarise(games: list[BalanceGame], *, game: str, config: dict, policy: str, seed: int,
              swap: bool, seats: int, names: dict[str, str] | None = None,
              tolerance: float = 0.05, alpha: float = 0.05, min_decks: int = 20,
              seconds: float = 0.0, workers: int = 1) -> BalanceReport:
    """The :class:`BalanceReport` of played ``games`` (see :func:`card_rows`)."""
    overall, rows = card_rows(games, names, tolerance, alpha, min_decks)
    wins = sum(1 for g in games if g.seats[g.first_player].score == 1.0)
    draws = sum(1 for g in games if g.seats[g.first_player].score == 0.5)
    n = len(games)
    return BalanceReport(
        game=game, config=config, policy=policy, seed=seed, swap=swap, seats=seats, games=n,
        deals=len({g.deal for g in games}), truncated=sum(1 for g in games if g.truncated),
        decisions=sum(g.decisions for g in games), overall=overall, first_wins=wins,
        first_draws=draws, first_rate=(wins + 0.5 * draws) / n,
        first_wilson=wilson_interval(wins + 0.5 * draws, n), tolerance=tolerance, alpha=alpha,
        min_decks=min_decks, rows=rows, seconds=seconds, workers=workers)


def balance_report(game: str, games: int = 10_000, seed: int = 0, config: dict | None = None,
                   policy: str = "heuristic", workers: int | None = None, swap: bool = True,
                   tolerance: float = 0.05, alpha: float = 0.05, min_decks: int = 20,
                   progress: bool = True, address: str = "",
                   pool: GamePool | None = None) -> BalanceReport:
    """Play ``games`` games over random legal card sets and report per card (module docstring).

    Args:
        game: a registry name or ``module:factory`` whose game implements the protocol.
        games: games to play (>= 1; with ``swap``, deals of ``seats`` games each).
        seed: base seed of the deals (>= 0).
        config: base config keywords (the sets are merged over them).
        policy: the policy spec playing every seat (``heuristic``, ``random``, ...).
        workers: processes (>= 1, default 1); with ``address``: Ray tasks at once (default:
            the Ray's CPUs); the result equals the serial one.
        swap: play every deal once per seat rotation.
        tolerance: the ± band around the overall rate, a fraction in (0, 1) (0.05 = 5 points).
        alpha: the family-wise error rate of Holm's procedure, in (0, 1).
        min_decks: decks a card needs to be tested (>= 2).
        progress: a tqdm bar on stderr (rate and ETA).
        address: play on the Ray cluster there (``"auto"``, ``HOST:PORT``, ``"local"``;
            :class:`~card_envs.evaluation.pool.GamePool`); the same report.
        pool: a :class:`~card_envs.evaluation.pool.GamePool` to play in (kept open).

    Raises:
        ConfigError: a bad argument (named), an unknown game or policy, a game without the
            protocol.
        ClusterUnreachableError: no Ray cluster at ``address``.
    """
    for label, value, low in (("games", games, 1), ("seed", seed, 0),
                              ("workers", 1 if workers is None else workers, 1),
                              ("min_decks", min_decks, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigError(f"{label} must be an int >= {low}, got {value!r}")
    for label, value in (("tolerance", tolerance), ("alpha", alpha)):
        if not (isinstance(value, (int, float)) and 0.0 < value < 1.0):
            raise ConfigError(f"{label} must be a number in (0, 1), got {value!r}")
    config = dict(config or {})
    setup = BalanceSetup(game, config, policy)
    base = BalanceArena(setup)  # checks the game, the protocol and the policy here
    seats = base.seats
    jobs = balance_jobs(games, seats, seed, swap)
    with pool_for(pool, workers, address) as backend:
        t0 = time.time()
        with progress_bar(len(jobs), f"balance {game}", enabled=progress) as bar:
            played = backend.run(setup, jobs, on_result=lambda _g: bar.update(1), arena=base)
        parallelism = backend.parallelism
    return summarise(played, game=game, config=config, policy=policy, seed=seed, swap=swap,
                     seats=seats, names=base.base.balance_card_names(), tolerance=tolerance,
                     alpha=alpha, min_decks=min_decks, seconds=time.time() - t0,
                     workers=parallelism)


# -- output -------------------------------------------------------------------------------------
def _points(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:+.1f}"


def report_tables(report: BalanceReport, limit: int | None = None) -> list:
    """Rich renderables: the summary lines and the per-card table (``limit``: only the first
    and last ``limit // 2`` tested cards by delta, and the outliers)."""
    from card_envs.evaluation.report import table

    out: list = [report.summary(), ""]
    tol = 100 * report.tolerance
    t = table(">#", "card", "id", ">decks", ">win rate", ">delta (pts)",
              ">Holm-level interval (pts)", ">level", ">Holm p", ">played", ">plays/game",
              "outside ±" + f"{tol:g}",
              title=f"per card: decks holding it, their win rate, its difference from the "
                    f"overall {report.overall:.1%} (cluster-robust Wald interval at its Holm "
                    f"level; cards in < {report.min_decks} decks untested)")
    rows = report.rows
    if limit is not None and len(rows) > limit:
        tested = [r for r in rows if r.tested]
        keep = {r.id for r in tested[:limit // 2]} | {r.id for r in tested[-(limit // 2):]} | \
            {r.id for r in rows if r.outlier}
        rows = [r for r in rows if r.id in keep]
    for i, r in enumerate(rows, 1):
        t.add_row(str(i), r.name, r.id, str(r.decks),
                  "-" if math.isnan(r.win_rate) else f"{r.win_rate:.1%}", _points(r.delta),
                  f"[{_points(r.low)}, {_points(r.high)}]" if r.tested else "untested",
                  f"{r.level:.2g}" if r.tested else "-",
                  f"{r.holm_p:.3g}" if r.tested else "-",
                  "-" if math.isnan(r.played) else f"{r.played:.0%}",
                  "-" if math.isnan(r.plays_per_game) else f"{r.plays_per_game:.2f}",
                  "YES" if r.outlier else "")
    out.append(t)
    return out


def balance_png(report: BalanceReport, path: str | Path, title: str | None = None) -> Path:
    """Draw every tested card's delta (points) with its Holm-level interval, sorted, beside the
    share of its games in which it was played; the ±tolerance band shaded, outliers in red.

    Raises:
        ConfigError: matplotlib is missing, or the file cannot be written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError("--png needs matplotlib (pip install matplotlib, or the package's "
                          "'train' extra)") from None
    rows = [r for r in report.rows if r.tested]
    if not rows:
        raise ConfigError("no card was dealt often enough to be tested: nothing to draw "
                          f"(min_decks {report.min_decks})")
    k = len(rows)
    ys = list(range(k))[::-1]
    tol = 100 * report.tolerance
    height = max(4.0, 0.15 * k + 2.2)
    fig, (ax, ax_p) = plt.subplots(1, 2, figsize=(11.5, height), sharey=True,
                                   gridspec_kw={"width_ratios": [3.2, 1.0]})
    ax.axvspan(-tol, tol, color="#dfe9f5", zorder=0)
    ax.axvline(0.0, color="grey", lw=0.8, zorder=1)
    for y, r in zip(ys, rows):
        colour = "#c0392b" if r.outlier else "#1f4e99"
        ax.plot([100 * r.low, 100 * r.high], [y, y], color=colour, lw=1.3, zorder=2)
        ax.plot([100 * r.delta], [y], "o", color=colour, ms=3.2, zorder=3)
        ax_p.barh(y, 100 * r.played, color="#7f8c8d", height=0.7)
    labels = [f"{r.name} ({r.decks})" for r in rows]
    ax.set_yticks(ys, labels, fontsize=6.5 if k > 60 else 8)
    ax.set_ylim(-0.8, k - 0.2)
    # a difference lies in [-overall, 1 - overall]: wider interval ends are cut at the frame
    reach = max(max(abs(r.low), abs(r.high)) for r in rows) * 100 + 3
    ax.set_xlim(max(-100 * report.overall - 3, -reach), min(100 * (1 - report.overall) + 3,
                                                             reach))
    ax.set_xlabel(f"win rate of the decks holding the card − overall {report.overall:.1%} "
                  f"(points)")
    ax.grid(axis="x", alpha=0.3)
    lo, hi = report.first_wilson
    ax.set_title(f"card's effect on its deck's win rate: point, and interval at its Holm level "
                 f"(family-wise {report.alpha:g});\nshaded ±{tol:g} points; red: wholly outside "
                 f"(outliers: {len(report.outliers)}); (n): decks holding it", fontsize=9)
    ax_p.set_xlim(0, 100)
    ax_p.set_xlabel("% of its games played")
    ax_p.grid(axis="x", alpha=0.3)
    ax_p.set_title("played at least once", fontsize=9)
    fig.suptitle(title or f"{report.game} balance: {report.games} games, policy "
                 f"{report.policy!r}; first player wins {report.first_rate:.1%} "
                 f"[{lo:.1%}, {hi:.1%}] (draws ½)", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.55 / height))  # the title keeps ~0.55 in
    path = Path(path)
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise ConfigError(f"--png {str(path)!r}: cannot write the plot: "
                          f"{exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    return path


# -- the command --------------------------------------------------------------------------------
DESCRIPTION = """\
Card-balance report: the policy (default: the game's heuristic bot) plays GAMES games over random
legal card sets (decks, loadouts) dealt from the seed, each deal once per seat rotation; for every
card: the decks holding it, their win rate, its difference from the overall rate with an interval
at its Holm level (family-wise 5 %), how often it was played; the first player's win rate with its
95 % Wilson interval; the cards whose interval lies wholly outside +-TOLERANCE points. Draws count
half. The statistics: docs/balance.md.

examples:
  card-envs balance rust_brawl --games 10000 --workers 2 --json balance.json --png balance.png
  card-envs balance rust_brawl --games 100000 --address auto   # on the Ray cluster of `ray start`"""


@dataclass
class BalanceArgs:
    game: _GameArg
    """the game: rust_brawl, scratch_wars (the games dealing random card sets) or module:factory"""
    games: int = 2000
    """games to play (each deal once per seat rotation)"""
    seed: int = 0
    """base seed of the deals (>= 0): equal seeds, equal games"""
    game_config: str = "{}"
    """the game's base config as a JSON object (the dealt sets are merged over it)"""
    policy: str = "heuristic"
    """the policy spec playing every seat (heuristic, random, ismcts:N, module:name, ...)"""
    workers: _WorkersArg = None
    """worker processes (None: 1, this process); with --address, Ray tasks at once (None: every CPU of the Ray); the results equal the serial run's"""
    address: _AddressArg = ""
    """play on a Ray cluster: 'auto', HOST:6379 (from `ray start --head`), ray://HOST:10001, or 'local' (a Ray started here); the same results as worker processes; needs the rllib extra"""
    swap: bool = True
    """play each deal once per seat rotation (--no-swap: one game per deal)"""
    tolerance: float = 5.0
    """the band around the overall win rate, in points (percent)"""
    alpha: float = 0.05
    """family-wise error rate of Holm's procedure over the cards"""
    min_decks: int = 20
    """decks a card must be in to be tested"""
    rows: int = 40
    """cards printed in the table (the top and bottom by difference, and every outlier; 0: all)"""
    json: str = ""
    """also write the report (every card) to this JSON file"""
    png: str = ""
    """also draw every card's difference and interval to this PNG (needs matplotlib)"""
    progress: bool = True
    """a progress bar on stderr (rate and ETA)"""
