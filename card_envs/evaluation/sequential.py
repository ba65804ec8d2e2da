"""Play duplicate-deal pairs between two policies until the pentanomial SPRT decides.

Deal ``d`` is played twice, A in seat 0 then in seat 1 (the same cards; policies reseeded from
the game's seed as in every tournament game, :mod:`card_envs.evaluation.runner`); after each
pair, in deal order, its pentanomial category is counted and the GSPRT log-likelihood ratio
(:mod:`card_envs.evaluation.sprt`) is checked against Wald's bounds. With ``workers > 1`` deals
are played ahead in batches, and the games past the deciding pair are discarded, so the
decision, the games counted and the estimate are those of a serial run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from card_envs.core.errors import ConfigError
from card_envs.evaluation import sprt
from card_envs.evaluation.runner import Arena, GameJob, GameRunner, Setup, deal_seed, progress_bar


@dataclass
class SprtResult:
    """The outcome of :func:`run_sprt`: ``decision`` ``"H0"``, ``"H1"`` or ``None``
    (inconclusive at ``max_games``); the final ``llr`` and its ``bounds``; ``pentanomial``
    counts ``[LL, LD, LW+DD, DW, WW]`` of A's pairs; A's game ``wins``/``draws``/``losses``;
    ``forfeits`` ``{"a": n, "b": n}`` with the first reason each; ``elo`` estimate."""

    a: str
    b: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_games: int
    seed: int
    decision: str | None = None
    llr: float = 0.0
    bounds: tuple[float, float] = (0.0, 0.0)
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    forfeit_reasons: dict[str, str] = field(default_factory=dict)

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    def elo(self) -> sprt.EloEstimate | None:
        """A's Elo advantage with its 95 % interval (None before the first pair)."""
        return sprt.elo_estimate(self.pentanomial) if self.pairs else None

    def to_dict(self) -> dict:
        est = self.elo()
        return {
            "a": self.a, "b": self.b, "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha,
            "beta": self.beta, "max_games": self.max_games, "seed": self.seed,
            "decision": self.decision or "inconclusive", "llr": self.llr,
            "bounds": list(self.bounds), "games": self.games, "pairs": self.pairs,
            "pentanomial": self.pentanomial, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "forfeits": self.forfeits,
            "forfeit_reasons": self.forfeit_reasons,
            "elo": None if est is None else {"estimate": est.elo, "elo95": [est.low, est.high],
                                             "score": est.score, "score_se": est.score_se},
        }


def run_sprt(game, a, b, elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05,
             beta: float = 0.05, max_games: int = 20_000, seed: int = 0, config=None,
             workers: int = 1, progress: bool = False) -> SprtResult:
    """Play pairs of ``a`` against ``b`` until the SPRT of H0 ``elo = elo0`` against H1 ``elo =
    elo1`` decides, or ``max_games`` games are played.

    Args:
        game: a two-seat game spec or object; ``config`` its keywords (with a spec).
        a: policy spec (or picklable policy) whose advantage is tested.
        b: policy spec (or picklable policy) of the opponent.
        elo0: logistic Elo of H0 (``elo0 < elo1``).
        elo1: logistic Elo of H1.
        alpha: the type-I error rate, in (0, 0.5).
        beta: the type-II error rate, in (0, 0.5).
        max_games: the most games (>= 2; played in pairs: ``max_games // 2`` pairs).
        seed: base seed of the deals (>= 0).
        workers: processes (>= 1).
        progress: a progress bar on stderr (games, rate, ETA to ``max_games``; LLR shown).

    Raises:
        ConfigError: bad hypotheses (:func:`card_envs.evaluation.sprt.check_hypotheses`), a game
            without exactly two seats, ``max_games < 2``, ``seed < 0``, bad specs (before any
            game).
    """
    try:
        sprt.check_hypotheses(elo0, elo1, alpha, beta)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 2:
        raise ConfigError(f"max_games must be an int >= 2 (games come in pairs), got "
                          f"{max_games!r}")
    if seed < 0:
        raise ConfigError(f"seed must be >= 0, got {seed}")
    setup = Setup(game, dict(config or {}), (a, b))
    arena = Arena(setup)
    arena.policy(0)
    arena.policy(1)
    if arena.game.num_players != 2:
        raise ConfigError(f"the SPRT plays duplicate pairs of a two-seat game; this game has "
                          f"{arena.game.num_players} seats")
    result = SprtResult(str(a), str(b), elo0, elo1, alpha, beta, max_games, seed,
                        bounds=sprt.bounds(alpha, beta))
    max_pairs = max_games // 2
    batch = 1 if workers == 1 else 8 * workers
    bar = progress_bar(2 * max_pairs, "sprt", enabled=progress)
    with bar, GameRunner(setup, workers, arena=arena) as runner:
        next_deal = 0
        while result.decision is None and next_deal < max_pairs:
            deals = range(next_deal, min(next_deal + batch, max_pairs))
            jobs = [GameJob(2 * d + s, 0, 1, d, s, deal_seed(seed, d)) for d in deals
                    for s in (0, 1)]
            records = runner.run(jobs)
            next_deal = deals.stop
            for first, second in zip(records[0::2], records[1::2]):
                _count(result, first)
                _count(result, second)
                result.pentanomial[sprt.pair_category(first.score, second.score)] += 1
                result.llr = sprt.llr(result.pentanomial, elo0, elo1)
                result.decision = sprt.decide(result.llr, alpha, beta)
                bar.update(2)
                if result.decision is not None:
                    break
            bar.set_postfix_str(f"LLR {result.llr:+.2f} [{result.bounds[0]:.2f}, "
                                f"{result.bounds[1]:.2f}]", refresh=False)
    return result


def _count(result: SprtResult, rec) -> None:
    if rec.score == 1.0:
        result.wins += 1
    elif rec.score == 0.0:
        result.losses += 1
    else:
        result.draws += 1
    if rec.forfeit >= 0:
        who = "a" if rec.forfeit == 0 else "b"
        result.forfeits[who] += 1
        result.forfeit_reasons.setdefault(who, rec.error)
