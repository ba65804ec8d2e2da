"""Tournaments between policies: round robin or gauntlet, on duplicate deals, in parallel.

Every pair of entrants (round robin), or the gauntlet entrant against every other (gauntlet),
plays the same ``deals`` deals; each deal once with the pair's first entrant in every seat
(two seats: the duplicate format, the deal played twice with the seats swapped; more seats: the
entrant rotated through them with the other in every remaining seat). Games run in this process,
in ``workers`` processes or on a Ray cluster (``address``; :mod:`card_envs.evaluation.pool`) with
results identical to a serial run (:mod:`card_envs.evaluation.runner`: policies reseeded from
each game's seed); a policy that raises or plays an illegal action forfeits that game (counted,
reported, the run goes on).

The result, :class:`Tournament`, holds

- per pair, A's wins/draws/losses, its mean score and the score's 95 % Wilson interval
  (:class:`PairResult`; a game's score: :func:`~card_envs.evaluation.runner.duel_score`);
- per entrant, a Bradley–Terry rating on the Elo scale (mean 0 over the entrants) with a 95 %
  bootstrap interval over deals, and an openskill Plackett–Luce ``mu`` ± ``sigma``
  (:mod:`card_envs.evaluation.ratings`);
- forfeits, with the first reason each entrant gave.

>>> t = tournament("garda3", ["random", "heuristic", "ismcts:100"], deals=50, workers=2)  # doctest: +SKIP
>>> print(t.markdown())  # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from card_envs.core.errors import ConfigError
from card_envs.evaluation.pool import GamePool, pool_for
from card_envs.evaluation.ratings import (
    DEFAULT_PRIOR,
    bootstrap_bradley_terry,
    bradley_terry,
    deal_tables,
    format_elo,
    openskill_ratings,
    percentile_interval,
)
from card_envs.evaluation.runner import (
    Arena,
    GameJob,
    GameRecord,
    Setup,
    deal_seed,
    progress_bar,
)
from card_envs.evaluation.stats import mean_interval, return_units, wilson_interval


@dataclass
class PairResult:
    """Entrant A's games against B: ``wins``/``draws``/``losses`` (with more than two seats a
    game A neither won outright nor lost outright counts as a draw), ``score`` (sum of A's game
    scores in [0, 1]), forfeits by A and by B, ``per_seat[seat] = [W, D, L]`` by A's seat, and
    ``returns``: A's return in each game played to its end (in the game's units; a forfeited
    game has none)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    forfeits_a: int = 0
    forfeits_b: int = 0
    per_seat: dict[int, list[int]] = field(default_factory=dict)
    returns: list[float] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    def mean_return(self) -> tuple[float, float, float]:
        """A's mean return with its 95 % normal interval, ``(mean, low, high)``
        (:func:`~card_envs.evaluation.stats.mean_interval`; ValueError without games)."""
        return mean_interval(self.returns)

    @property
    def win_rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def mean_score(self) -> float:
        """A's mean score per game in [0, 1] (win 1, draw ½)."""
        return self.score / self.n if self.n else 0.0

    def wilson(self) -> tuple[float, float]:
        """95 % Wilson interval of A's mean score (a draw counts half a success)."""
        return wilson_interval(self.score, self.n)

    def add(self, record: GameRecord) -> None:
        tally = self.per_seat.setdefault(record.seat, [0, 0, 0])
        kind = 0 if record.score == 1.0 else 2 if record.score == 0.0 else 1
        tally[kind] += 1
        if kind == 0:
            self.wins += 1
        elif kind == 1:
            self.draws += 1
        else:
            self.losses += 1
        self.score += record.score
        if record.returns:  # a forfeited game has no returns
            self.returns.append(float(record.returns[record.seat]))
        if record.forfeit >= 0:
            if record.forfeit == record.a:
                self.forfeits_a += 1
            else:
                self.forfeits_b += 1

    def to_dict(self) -> dict:
        lo, hi = self.wilson() if self.n else (0.0, 0.0)
        return {"games": self.n, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "win_rate": self.win_rate, "score": self.mean_score, "score_wilson95": [lo, hi],
                "forfeits_a": self.forfeits_a, "forfeits_b": self.forfeits_b,
                "per_seat": {str(k): v for k, v in sorted(self.per_seat.items())}}


@dataclass(frozen=True)
class Rating:
    """One entrant's ratings: Bradley–Terry ``elo`` (mean 0 over the field) with its 95 %
    bootstrap interval ``[elo_low, elo_high]`` (−inf / +inf on the side an entrant that lost /
    won every game has no bound; its ``elo`` is then set by the prior); openskill ``mu``, ``sigma`` (``ordinal = mu −
    3 sigma``)."""

    name: str
    elo: float
    elo_low: float
    elo_high: float
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


@dataclass
class Tournament:
    """A played tournament (see the module docstring). ``pairs[(a, b)]`` is from a's point of
    view, ``ratings`` in entrant order, ``records`` every game in schedule order."""

    game: str
    names: list[str]
    deals: int
    seats: int
    seed: int
    gauntlet: str | None = None
    pairs: dict[tuple[str, str], PairResult] = field(default_factory=dict)
    ratings: list[Rating] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)
    resamples: int = 0
    prior: float = DEFAULT_PRIOR
    #: the units of the returns when the reports print each pair's mean return with its interval
    #: (``"chips"``, ``"score"``: :func:`~card_envs.evaluation.stats.return_units`); ``""``: ±1
    units: str = ""

    def standings(self) -> list[Rating]:
        """The ratings, best Bradley–Terry Elo first."""
        return sorted(self.ratings, key=lambda r: r.elo, reverse=True)

    def result(self, a: str, b: str) -> PairResult | None:
        """A's results against B (either order), or None if they did not play."""
        if (a, b) in self.pairs:
            return self.pairs[(a, b)]
        if (b, a) not in self.pairs:
            return None
        r = self.pairs[(b, a)]
        flipped = PairResult(r.losses, r.draws, r.wins, r.n - r.score, r.forfeits_b,
                             r.forfeits_a)
        return flipped

    def score_matrix(self) -> np.ndarray:
        """``(k, k)`` mean score of row against column in [0, 1]; NaN where they did not play."""
        k = len(self.names)
        m = np.full((k, k), np.nan)
        for i, a in enumerate(self.names):
            for j, b in enumerate(self.names):
                r = self.result(a, b) if i != j else None
                if r is not None and r.n:
                    m[i, j] = r.mean_score
        return m

    def forfeits(self) -> dict[str, tuple[int, str]]:
        """``{name: (games forfeited, first reason)}`` for entrants that forfeited."""
        out: dict[str, tuple[int, str]] = {}
        for rec in self.records:
            if rec.forfeit >= 0:
                name = self.names[rec.forfeit]
                count, reason = out.get(name, (0, rec.error))
                out[name] = (count + 1, reason)
        return out

    def markdown(self) -> str:
        lines = ["| rank | policy | Elo (BT) | 95% interval | openskill mu | sigma |",
                 "|---:|---|---:|---|---:|---:|"]
        for i, r in enumerate(self.standings(), 1):
            lines.append(f"| {i} | {r.name} | {r.elo:+.0f} | [{format_elo(r.elo_low)}, "
                         f"{format_elo(r.elo_high)}] | {r.mu:.1f} | {r.sigma:.2f} |")
        mean_col = f" A's mean return, {self.units} (95% normal) |" if self.units else ""
        lines += ["", "| A | B | A's W/D/L | A's score (95% Wilson) |" + mean_col,
                  "|---|---|---|---|" + ("---|" if self.units else "")]
        for (a, b), p in self.pairs.items():
            lo, hi = p.wilson()
            cell = ""
            if self.units and p.returns:
                m, rlo, rhi = p.mean_return()
                cell = f" {m:+.3f} [{rlo:+.3f}, {rhi:+.3f}] |"
            lines.append(f"| {a} | {b} | {p.wins}/{p.draws}/{p.losses} | "
                         f"{p.mean_score:.1%} [{lo:.1%}, {hi:.1%}] |" + cell)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-able; equal for equal games (no timings, no worker count)."""
        return {
            "game": self.game, "format": "gauntlet" if self.gauntlet else "round robin",
            "gauntlet": self.gauntlet, "entrants": self.names, "deals": self.deals,
            "seats": self.seats, "seed": self.seed, "bootstrap_resamples": self.resamples,
            "bt_prior_draws": self.prior,
            "standings": [{"policy": r.name, "elo": r.elo,
                           "elo95": [_finite(r.elo_low), _finite(r.elo_high)],
                           "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
                          for r in self.standings()],
            "pairs": [{"a": a, "b": b, **p.to_dict(), **self._returns_dict(p)}
                      for (a, b), p in self.pairs.items()],
            "score_matrix": [[None if math.isnan(v) else v for v in row]
                             for row in self.score_matrix().tolist()],
            "forfeits": {k: {"games": n, "first_reason": why}
                         for k, (n, why) in self.forfeits().items()},
            "games_played": [rec.to_list() for rec in self.records],
        }

    def _returns_dict(self, p: PairResult) -> dict:
        """A pair's mean return and its interval for the JSON, when :attr:`units` is set."""
        if not self.units or not p.returns:
            return {}
        mean, lo, hi = p.mean_return()
        return {"units": self.units, "mean_return": mean, "mean_return95": [lo, hi]}


def _finite(v: float) -> float | None:
    """JSON has no infinities: an unbounded side is ``null``."""
    return v if math.isfinite(v) else None


def _entrants(policies, gauntlet) -> tuple[list[str], tuple]:
    """Names and specs (or objects) of the entrants, the gauntlet entrant first."""
    if isinstance(policies, dict):
        names, specs = [str(n) for n in policies], list(policies.values())
    else:
        names, specs = [str(p) for p in policies], list(policies)
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ConfigError(f"policy {repeated[0]!r} is named twice; a tournament needs "
                          "distinct policies (entrants are keyed by their spec)")
    if gauntlet is not None:
        g = str(gauntlet)
        if g in names:
            i = names.index(g)
            names.insert(0, names.pop(i))
            specs.insert(0, specs.pop(i))
        else:
            names.insert(0, g)
            specs.insert(0, gauntlet)
    if len(names) < 2:
        raise ConfigError(f"a tournament needs at least two policies, got {names}")
    return names, tuple(specs)


def schedule(k: int, deals: int, seats: int, seed: int, gauntlet: bool = False
             ) -> list[GameJob]:
    """The games, deal by deal: for every deal, every pair ``(i, j)`` (``i < j``; gauntlet: ``(0,
    j)``), with ``i`` in every seat in turn. ``index`` is the position in this list."""
    pairs = [(0, j) for j in range(1, k)] if gauntlet else \
        [(i, j) for i in range(k) for j in range(i + 1, k)]
    jobs = []
    for d in range(deals):
        for a, b in pairs:
            for seat in range(seats):
                jobs.append(GameJob(len(jobs), a, b, d, seat, deal_seed(seed, d)))
    return jobs


def tournament(game, policies, deals: int = 50, seed: int = 0, config=None, gauntlet=None,
               workers: int | None = None, progress: bool = False, resamples: int = 1000,
               prior: float = DEFAULT_PRIOR, address: str = "",
               pool: GamePool | None = None) -> Tournament:
    """Play a round robin (or a gauntlet) on duplicate deals and rate the entrants.

    Args:
        game: a game spec (``"garda3"``, ``"module:factory"``) or a game object.
        policies: policy specs (module :mod:`card_envs.bots.specs`), or ``{name:
            policy}``.
        deals: deals per pair (>= 1); each is played once per seat, so a pair plays ``deals ×
            seats`` games.
        seed: base seed of the deals (>= 0); every pair plays the same deals.
        config: game config keywords (with a spec string).
        gauntlet: a spec (or a name of ``policies``): play it against every other entrant only.
        workers: processes (>= 1; > 1 needs spec strings or picklable policies).
        progress: show a progress bar on stderr.
        resamples: bootstrap resamples of the deals for the Elo intervals (>= 1).
        prior: virtual draws per pair in the Bradley–Terry fit (>= 0).

    Raises:
        ConfigError: a policy named twice, fewer than two entrants, an unknown game or policy,
            a model not of this game (all before any game is played), bad ``workers``;
        ValueError: ``deals``, ``seed`` or ``resamples`` out of range.
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be an int >= 1, got {deals!r}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    names, specs = _entrants(policies, gauntlet)
    setup = Setup(game, dict(config or {}), specs)
    arena = Arena(setup)  # checks the game and every policy here, before any game
    for i in range(len(specs)):
        arena.policy(i)
    seats = arena.game.num_players
    jobs = schedule(len(names), deals, seats, seed, gauntlet=gauntlet is not None)
    with pool_for(pool, workers, address) as games, \
            progress_bar(len(jobs), "tournament", enabled=progress) as bar:
        records = games.run(setup, jobs, on_result=lambda _rec: bar.update(1), arena=arena)
    game_name = game if isinstance(game, str) else getattr(game, "name", "game")
    try:
        units = return_units(arena.game.facts)
    except AttributeError:  # a game object outside the contract: no facts, no mean return
        units = ""
    return rate(game_name, names, records, deals, seats, seed,
                gauntlet=names[0] if gauntlet is not None else None, resamples=resamples,
                prior=prior, units=units)


def rate(game: str, names: list[str], records: list[GameRecord], deals: int, seats: int,
         seed: int, gauntlet: str | None = None, resamples: int = 1000,
         prior: float = DEFAULT_PRIOR, units: str = "") -> Tournament:
    """Tally ``records`` (schedule order) into a :class:`Tournament`: pairs, Bradley–Terry Elo
    with bootstrap intervals (resampling seeded by ``seed``), openskill; ``units``: the
    :attr:`Tournament.units` of a game whose pairs' mean returns are reported."""
    t = Tournament(game, list(names), deals, seats, seed, gauntlet, records=list(records),
                   resamples=resamples, prior=prior, units=units)
    k = len(names)
    for rec in records:
        t.pairs.setdefault((names[rec.a], names[rec.b]), PairResult()).add(rec)
    deal_ids = sorted({rec.deal for rec in records})
    scores, games = deal_tables(records, k, deal_ids)
    elo = bradley_terry(scores.sum(axis=0), games.sum(axis=0), prior=prior)
    boot = bootstrap_bradley_terry(scores, games, resamples=resamples, seed=seed, prior=prior)
    low, high = percentile_interval(boot)
    # an entrant that lost (won) every game has no lower (upper) bound: the prior alone keeps
    # its estimate finite, the resamples cannot move it
    total_score = scores.sum(axis=(0, 2))
    total_games = games.sum(axis=(0, 2))
    low = np.where(total_score <= 0, -np.inf, low)
    high = np.where(total_score >= total_games, np.inf, high)
    skill = openskill_ratings([(rec.a, rec.b, rec.score) for rec in records], k)
    t.ratings = [Rating(names[i], float(elo[i]), float(low[i]), float(high[i]), *skill[i])
                 for i in range(k)]
    return t


def round_robin(game, policies, games: int = 100, seed: int = 0, config=None,
                **kwargs) -> Tournament:
    """:func:`tournament` with ``games`` per pair (rounded up to whole deals: ``ceil(games /
    seats)`` deals). Raises as :func:`tournament`, and ValueError for ``games <= 0``."""
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    from card_envs.core.registry import resolve_game

    seats = (resolve_game(game, config) if isinstance(game, str) else game).num_players
    return tournament(game, policies, deals=math.ceil(games / seats), seed=seed, config=config,
                      **kwargs)
