"""Terminal tables (rich) for tournaments and SPRT results, as the ``card-envs`` command prints
them. Each function returns a list of rich renderables (tables and text lines)."""

from __future__ import annotations

import math

from card_envs.evaluation.ratings import format_elo


def table(*columns: str, title: str | None = None):
    """A rich table; columns named ``">name"`` are right-aligned (numbers)."""
    from rich import box
    from rich.table import Table

    t = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", show_edge=False,
              pad_edge=False)
    for col in columns:
        right = col.startswith(">")
        t.add_column(col[1:] if right else col, justify="right" if right else "left",
                     no_wrap=True)
    return t


def seats_phrase(seats: int) -> str:
    """How a deal is played: ``each played twice, seats swapped`` (two seats) or ``each played
    once with A in each of the N seats``."""
    if seats == 2:
        return "each played twice, seats swapped"
    return f"each played once with A in each of the {seats} seats"


def _pct(lo: float, hi: float) -> str:
    return f"[{lo:.1%}, {hi:.1%}]"


def tournament_tables(t) -> list:
    """Standings (Bradley–Terry Elo with its bootstrap interval, openskill), the score matrix
    (row against column, Wilson intervals), every pair's W/D/L and forfeits, for a
    :class:`~card_envs.evaluation.tournament.Tournament`."""
    out = []
    kind = f"gauntlet of {t.gauntlet}" if t.gauntlet else "round robin"
    out.append(f"{t.game}, {kind}: {len(t.names)} entrants, {t.deals} deals per pair, "
               f"{seats_phrase(t.seats)} ({len(t.records)} games)")
    number = {name: i + 1 for i, name in enumerate(t.names)}
    standings = table(">rank", ">#", "policy", ">Elo", ">95% interval", ">mu", ">sigma",
                      ">games", ">score",
                      title=f"ratings: Bradley-Terry Elo (mean 0; 95% bootstrap over deals, "
                            f"{t.resamples} resamples) and openskill mu/sigma")
    for rank, r in enumerate(t.standings(), 1):
        played = [p for (a, b), p in t.pairs.items() if r.name in (a, b)]
        games = sum(p.n for p in played)
        score = sum(p.score if a == r.name else p.n - p.score
                    for (a, b), p in t.pairs.items() if r.name in (a, b))
        standings.add_row(str(rank), str(number[r.name]), r.name, format_elo(r.elo),
                          f"[{format_elo(r.elo_low)}, {format_elo(r.elo_high)}]",
                          f"{r.mu:.1f}", f"{r.sigma:.2f}", str(games),
                          f"{score / games:.1%}" if games else "-")
    out.append(standings)
    flat = [r.name for r in t.standings() if r.elo_low == r.elo_high]
    if flat:  # every resample of the deals gave the same rating: no width to show
        out.append(f"a zero-width interval ({', '.join(flat)}): each of their pairs gave the "
                   "same result on every deal, so resampling the deals cannot show the "
                   "uncertainty; play more deals (the Wilson intervals of the matrix still hold)")
    out.append("")
    matrix = table("#", "policy (row) vs column", *[f">{number[n]}" for n in t.names],
                   title="row's mean score against column (draw = 1/2), 95% Wilson")
    for a in t.names:
        cells = []
        for b in t.names:
            r = t.result(a, b) if a != b else None
            cells.append("-" if r is None or not r.n else
                         f"{r.mean_score:.0%} [{r.wilson()[0]:.0%},{r.wilson()[1]:.0%}]")
        matrix.add_row(str(number[a]), a, *cells)
    out += [matrix, ""]
    returns = (f">A's mean return ({t.units})", ">95% normal") if t.units else ()
    pairs = table("A", "B", ">games", ">A's W/D/L", ">A's score", ">95% Wilson", *returns,
                  ">forfeits A/B", title="pairs (duplicate deals: every deal with A in every seat)")
    for (a, b), p in t.pairs.items():
        cells = ()
        if t.units:  # returns not ±1 (chips, score): A's mean return beside its score
            mean, lo, hi = p.mean_return() if p.returns else (math.nan,) * 3
            cells = (f"{mean:+.3f}", f"[{lo:+.3f}, {hi:+.3f}]")
        pairs.add_row(a, b, str(p.n), f"{p.wins}/{p.draws}/{p.losses}", f"{p.mean_score:.1%}",
                      _pct(*p.wilson()), *cells, f"{p.forfeits_a}/{p.forfeits_b}")
    out.append(pairs)
    for name, (count, reason) in t.forfeits().items():
        out.append(f"forfeits: {name} forfeited {count} game(s); first: {reason}")
    return out


def sprt_tables(r) -> list:
    """The decision, LLR, games, pentanomial counts and Elo estimate of an
    :class:`~card_envs.evaluation.sequential.SprtResult`."""
    verdict = {"H0": f"H0 accepted: A is not {r.elo1:g} Elo better (elo <= {r.elo0:g})",
               "H1": f"H1 accepted: A is better (elo >= {r.elo1:g} rather than {r.elo0:g})",
               None: f"inconclusive: no bound crossed in {r.max_games} games (--max-games)"}
    out = [f"SPRT {r.a} vs {r.b}: {verdict[r.decision]}"]
    t = table("", ">value")
    t.add_row("games (pairs)", f"{r.games} ({r.pairs})")
    t.add_row("LLR [lower, upper]", f"{r.llr:+.3f} [{r.bounds[0]:.3f}, {r.bounds[1]:.3f}]")
    t.add_row("H0 / H1 (logistic Elo)", f"{r.elo0:g} / {r.elo1:g}")
    t.add_row("alpha / beta", f"{r.alpha:g} / {r.beta:g}")
    t.add_row("A's W/D/L", f"{r.wins}/{r.draws}/{r.losses}")
    t.add_row("pentanomial 0,1/2,1,3/2,2", " ".join(str(c) for c in r.pentanomial))
    est = r.elo()
    if est is not None:
        t.add_row("A's score per game", f"{est.score:.1%} ± {1.96 * est.score_se:.1%}")
        t.add_row("A's Elo (95% interval)",
                  f"{format_elo(est.elo)} [{format_elo(est.low)}, {format_elo(est.high)}]")
    t.add_row("forfeits A/B", f"{r.forfeits['a']}/{r.forfeits['b']}")
    out.append(t)
    for who, reason in r.forfeit_reasons.items():
        out.append(f"forfeits: {r.a if who == 'a' else r.b}: first: {reason}")
    return out
