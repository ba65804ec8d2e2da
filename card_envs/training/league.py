"""Self-play league: which opponent the learner meets in each episode.

A :class:`League` mixes opponent *kinds* with configurable weights — by default ``"random"``,
``"heuristic"`` and ``"self"`` (a pool of frozen snapshots of the learner) — and samples one
opponent per episode (:meth:`League.sample`). Every opponent is a policy
(``act(game, state, player) -> int``, see :mod:`card_envs.bots.base`); a kind whose pool is empty
(no snapshot yet) is skipped and its weight goes to the other kinds.

The league also keeps the learner's recent results against each kind
(:meth:`League.record`, :meth:`League.win_rates`) — the training curve of "win rate vs random /
heuristic / self" while training.

A league is an opponent source of :class:`card_envs.wrappers.single_agent.SingleAgentEnv`
(``sample()``, ``record(kind, outcome)``, ``reseed(seed)``). Nothing here knows SB3: a snapshot is
any policy; :func:`card_envs.training.model.snapshot` makes them from a MaskablePPO model.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from card_envs.bots.base import RandomBot, reseed_policy

#: the opponent kinds of ``--opponent-mix``
OPPONENT_KINDS = ("random", "heuristic", "self")


@dataclass
class Opponent:
    """A sampled opponent: its ``kind`` (league slot name), a ``name`` and the policy."""

    kind: str
    name: str
    policy: object


class League:
    """Weighted opponent kinds, each a pool of policies (newest last).

    Args:
        weights: ``{kind: weight}`` (need not sum to 1; a weight of 0 disables the kind).
        max_pool: keep at most this many policies per kind (the oldest is dropped; kinds added
            with :meth:`set_pool` are never trimmed).
        recent_pool_bias: probability of picking the *newest* member of a pool; otherwise a
            member is drawn uniformly (older selves keep the learner from forgetting).
        window: number of recent episodes per kind kept for :meth:`win_rates`.
        seed: seed of the league's own RNG.

    Raises:
        ValueError: a negative weight, or all weights zero.
    """

    def __init__(
        self,
        weights: dict[str, float],
        max_pool: int = 20,
        recent_pool_bias: float = 0.3,
        window: int = 200,
        seed: int | None = None,
    ):
        if any(w < 0 for w in weights.values()):
            raise ValueError(f"league weights must be >= 0, got {weights}")
        if not any(w > 0 for w in weights.values()):
            raise ValueError(f"league needs at least one positive weight, got {weights}")
        self.weights = dict(weights)
        self.pools: dict[str, list[tuple[str, object]]] = {k: [] for k in weights}
        self.max_pool = max_pool
        self.recent_pool_bias = recent_pool_bias
        self.rng = random.Random(seed)
        self.window = window
        self.results: dict[str, deque] = {k: deque(maxlen=window) for k in weights}
        self.episodes: dict[str, int] = {k: 0 for k in weights}

    # -- pools ---------------------------------------------------------------------------------
    def set_pool(self, kind: str, policies: list[tuple[str, object]]) -> None:
        """Replace the pool of ``kind`` with ``[(name, policy), ...]``."""
        self._check_kind(kind)
        self.pools[kind] = list(policies)

    def add(self, kind: str, name: str, policy) -> None:
        """Add ``policy`` to the pool of ``kind`` (e.g. a new frozen snapshot of the learner)."""
        self._check_kind(kind)
        pool = self.pools[kind]
        pool.append((name, policy))
        if len(pool) > self.max_pool:
            del pool[0]

    def _check_kind(self, kind: str) -> None:
        if kind not in self.weights:
            raise KeyError(f"unknown league kind {kind!r}; kinds: {sorted(self.weights)}")

    def active_weights(self) -> dict[str, float]:
        """Weights of the kinds that can be sampled now (non-empty pool), normalised to 1."""
        live = {k: w for k, w in self.weights.items() if w > 0 and self.pools[k]}
        total = sum(live.values())
        if total == 0:
            raise RuntimeError(
                "league has no opponent to sample: every kind with a positive weight has an empty "
                f"pool (weights {self.weights}, pool sizes "
                f"{ {k: len(v) for k, v in self.pools.items()} })"
            )
        return {k: w / total for k, w in live.items()}

    def sample(self) -> Opponent:
        """One opponent: a kind by weight, then a member of its pool."""
        weights = self.active_weights()
        kinds = list(weights)
        kind = self.rng.choices(kinds, weights=[weights[k] for k in kinds])[0]
        pool = self.pools[kind]
        if len(pool) > 1 and self.rng.random() >= self.recent_pool_bias:
            name, policy = pool[self.rng.randrange(len(pool))]
        else:
            name, policy = pool[-1]
        return Opponent(kind, name, policy)

    # -- results -------------------------------------------------------------------------------
    def record(self, kind: str, outcome: float) -> None:
        """Note one finished episode against ``kind``: ``outcome`` 1 win, 0.5 draw, 0 loss."""
        if kind in self.results:
            self.results[kind].append(outcome)
            self.episodes[kind] += 1

    def win_rates(self) -> dict[str, float]:
        """Mean outcome (draw = ½) over the last ``window`` episodes per kind that has any."""
        return {k: sum(v) / len(v) for k, v in self.results.items() if v}

    def reseed(self, seed: int) -> None:
        """Restart the sampling RNG from ``seed`` and every pool member's own ``rng`` (in pool
        order) from ``seed * 7919 + i``."""
        self.rng.seed(seed)
        policies = [p for pool in self.pools.values() for _, p in pool]
        for i, policy in enumerate(policies):
            reseed_policy(policy, seed * 7919 + i)

    # -- pickling (SubprocVecEnv / checkpoints pickle envs): the RNG and pools go as they are --
    def __repr__(self) -> str:
        sizes = {k: len(v) for k, v in self.pools.items()}
        return f"League(weights={self.weights}, pool sizes={sizes})"


def prune_snapshots(run_dir, snapshots: list[str], keep: int) -> list[str]:
    """Keep the newest ``keep`` league snapshot files of a run (``--league-keep``; 0: keep all):
    the older files of ``snapshots`` (paths relative to ``run_dir``, oldest first) are deleted
    and their entries removed from ``snapshots`` in place. Returns the deleted paths."""
    from pathlib import Path

    if keep <= 0 or len(snapshots) <= keep:
        return []
    dropped = snapshots[:-keep]
    del snapshots[:-keep]
    for rel in dropped:
        (Path(run_dir) / rel).unlink(missing_ok=True)
    return dropped


def parse_mix(text: str) -> dict[str, float]:
    """``"random=0.15,heuristic=0.5,self=0.35"`` -> ``{"random": 0.15, ...}``.

    Raises:
        ValueError: a malformed entry (names it).
    """
    out: dict[str, float] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"opponent mix entry {part!r} is not 'kind=weight'")
        k, v = part.split("=", 1)
        try:
            out[k.strip()] = float(v)
        except ValueError:
            raise ValueError(f"opponent mix entry {part!r}: weight {v!r} is not a number") from None
    if not out:
        raise ValueError(f"empty opponent mix {text!r}")
    return out


def make_league(mix: str, max_pool: int, heuristic, seed: int) -> League:
    """The opponent league of ``--opponent-mix`` ``mix``: the random and heuristic pools filled,
    ``self`` filled during training. Without a heuristic bot (``heuristic=None``) its share goes
    to the other kinds.

    Raises:
        ValueError: a malformed mix or an unknown kind (names it).
    """
    weights = parse_mix(mix)
    unknown = set(weights) - set(OPPONENT_KINDS)
    if unknown:
        raise ValueError(f"--opponent-mix: unknown kind(s) {sorted(unknown)}; "
                         f"kinds: {', '.join(OPPONENT_KINDS)}")
    if heuristic is None:
        weights.pop("heuristic", None)
    league = League(weights, max_pool=max_pool, seed=seed)
    if "random" in weights:
        league.set_pool("random", [("random", RandomBot(seed + 17))])
    if "heuristic" in weights:
        league.set_pool("heuristic", [("heuristic", heuristic)])
    return league
