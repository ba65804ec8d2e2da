"""Round-robin tournaments between policies with openskill ratings and pairwise Wilson intervals.

Every pair of entrants plays ``games`` seat-swapped games (paired deals, see
:func:`card_envs.evaluation.match.play_match`); each game updates the entrants' openskill
Plackett–Luce ratings (``mu`` ± ``sigma``; ranking by the conservative ``ordinal`` =
mu − 3·sigma). In games of more than two seats the entrant under test plays one seat and its
opponent every other seat, as in ``play_match``.

>>> t = round_robin("garda3", ["random", "heuristic", "runs/x/model.zip"], games=100)  # doctest: +SKIP
>>> print(t.markdown())  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from card_envs.core.errors import ConfigError
from card_envs.evaluation.match import MatchResult, play_match
from card_envs.evaluation.policies import check_policy_fits, resolve_game, resolve_policy


@dataclass
class Tournament:
    """Result: ``ratings[name] = (mu, sigma)``, ``pairs[(a, b)]`` from a's point of view."""

    names: list[str]
    ratings: dict[str, tuple[float, float]] = field(default_factory=dict)
    pairs: dict[tuple[str, str], MatchResult] = field(default_factory=dict)

    def standings(self) -> list[tuple[str, float, float, float]]:
        """``[(name, mu, sigma, ordinal)]`` best first (ordinal = mu − 3 sigma)."""
        rows = [(n, mu, s, mu - 3 * s) for n, (mu, s) in self.ratings.items()]
        return sorted(rows, key=lambda r: r[3], reverse=True)

    def markdown(self) -> str:
        lines = ["| rank | policy | mu | sigma | ordinal |", "|---:|---|---:|---:|---:|"]
        for i, (n, mu, s, o) in enumerate(self.standings(), 1):
            lines.append(f"| {i} | {n} | {mu:.1f} | {s:.2f} | {o:.1f} |")
        lines += ["", "| A | B | A's wins/draws/losses | A's win rate (95% Wilson) |",
                  "|---|---|---|---|"]
        for (a, b), r in self.pairs.items():
            lo, hi = r.wilson()
            lines.append(f"| {a} | {b} | {r.wins}/{r.draws}/{r.losses} | "
                         f"{r.win_rate:.1%} [{lo:.1%}, {hi:.1%}] |")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "standings": [{"policy": n, "mu": mu, "sigma": s, "ordinal": o}
                          for n, mu, s, o in self.standings()],
            "pairs": [{"a": a, "b": b, **r.to_dict()} for (a, b), r in self.pairs.items()],
        }


def round_robin(game, policies, games: int = 100, seed: int = 0, config=None) -> Tournament:
    """Play every pair of ``policies`` (specs or ``{name: policy}``) ``games`` times.

    Raises:
        ConfigError: a policy spec named twice or fewer than two entrants, an unknown game or
            policy spec, a model not of this game (all before any game is played); ValueError:
            ``games <= 0``.
    """
    from openskill.models import PlackettLuce

    if not isinstance(policies, dict):
        names = [str(p) for p in policies]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ConfigError(f"policy {repeated[0]!r} is named twice; a tournament needs "
                              "distinct policies (entrants are keyed by their spec)")
    if len(policies) < 2:
        raise ConfigError(f"a tournament needs at least two policies, got {list(policies)}")
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    game_obj = resolve_game(game, config) if isinstance(game, str) else game
    if isinstance(policies, dict):
        entrants = dict(policies)
    else:
        game_spec = game if isinstance(game, str) else getattr(game, "name", "game")
        entrants = {str(p): resolve_policy(p, game_spec, seed=seed + i, game=game_obj)
                    for i, p in enumerate(policies)}
    for name, policy in entrants.items():
        check_policy_fits(policy, game_obj, name)
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in entrants}
    result = Tournament(list(entrants))
    ranks_of = {1.0: [1, 2], 0.5: [1, 1], 0.0: [2, 1]}  # A's outcome -> (A, B) ranks
    for pair_index, (a, b) in enumerate(itertools.combinations(entrants, 2)):
        def rate(seat: int, outcome: float, a=a, b=b) -> None:
            [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks_of[outcome])
            ratings[a], ratings[b] = ra, rb

        result.pairs[(a, b)] = play_match(game_obj, entrants[a], entrants[b], games,
                                          seed=seed + pair_index, paired=True, on_game=rate)
    result.ratings = {name: (r.mu, r.sigma) for name, r in ratings.items()}
    return result
