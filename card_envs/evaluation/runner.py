"""Play a schedule of games, serially, in worker processes or on Ray, with the same results
every way.

A schedule is a list of :class:`GameJob`: entrant ``a`` in seat ``seat`` and entrant ``b`` in
every other seat, on the deal (game seed) ``seed``. A :class:`~card_envs.evaluation.pool.GamePool`
plays them (``pool.run(setup, jobs)``; ``GamePool(workers=N)`` or ``GamePool(address=...)``):

- **The same result in any process.** Each worker process builds the game and resolves the
  policy specs itself (:class:`Arena`, from :meth:`Setup.build`; nothing but the specs crosses
  the process boundary, so the design works under ``spawn`` as under ``fork`` and on other
  machines), and before every game each policy is reseeded from that game's seed
  (:func:`card_envs.bots.base.reseed_policy`, the seed from :func:`policy_seed`). A game's result
  is then a function of its job alone, and ``workers=2`` or a Ray cluster gives exactly what
  ``workers=1`` gives, provided each policy's play depends only on its seed (search bots with an
  iteration budget, not a time limit).
- **A policy that raises forfeits the game.** An exception inside a policy's ``act``, or an
  illegal action, loses that game for the entrant that played it (A scores 0 or 1); the
  :class:`GameRecord` names who forfeited and why, and the run goes on. Errors of the game itself
  (or of a worker process) still stop the run.
- **A game's score for A** (:func:`duel_score`): the share of B's seats that A finishes above
  (ties count half), each comparison by the one win/draw/loss rule
  :func:`~card_envs.evaluation.match.outcome_of`; with two seats exactly ``outcome_of``.

Deal seeds are ``seed * 1_000_003 + deal`` (:func:`deal_seed`), as in
:func:`~card_envs.evaluation.match.play_match`, so ``evaluate`` and a tournament with the same
seed deal the same cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from card_envs.bots.base import reseed_policy
from card_envs.bots.loading import first_line
from card_envs.bots.specs import resolve_game, resolve_policy
from card_envs.core.outcome import outcome_of
from card_envs.evaluation.match import play_game


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal number ``deal`` (>= 0) under base ``seed`` (>= 0)."""
    return seed * 1_000_003 + deal


def policy_seed(game_seed: int, seat: int, role: int) -> int:
    """The seed a policy is restarted from before a game: ``role`` 0 for entrant A (in ``seat``),
    1 for B; an int in [0, 2^32) from numpy's ``SeedSequence([game_seed, seat, role])``."""
    return int(np.random.SeedSequence([game_seed, seat, role]).generate_state(1)[0])


def duel_score(returns, seat: int) -> float:
    """A's score in [0, 1] for a game in which A played ``seat`` and B every other seat: the mean
    of :func:`outcome_of` between A and each B seat (1 above it, 0.5 tied, 0 below). Two seats:
    ``outcome_of(returns, seat)``."""
    others = [j for j in range(len(returns)) if j != seat]
    return sum(outcome_of([returns[seat], returns[j]], 0) for j in others) / len(others)


@dataclass(frozen=True)
class GameJob:
    """One game: entrant ``a`` in ``seat``, entrant ``b`` in every other seat, game seed ``seed``
    (deal number ``deal``); ``index`` orders the results."""

    index: int
    a: int
    b: int
    deal: int
    seat: int
    seed: int


@dataclass(frozen=True)
class GameRecord:
    """A played :class:`GameJob`: A's ``score`` in [0, 1] (:func:`duel_score`), the seats'
    ``returns``, ``decisions`` made; ``forfeit`` is the entrant index that forfeited (-1: none)
    with ``error`` its reason."""

    index: int
    a: int
    b: int
    deal: int
    seat: int
    score: float
    returns: tuple[float, ...]
    decisions: int
    forfeit: int = -1
    error: str = ""

    def to_list(self) -> list:
        """``[a, b, deal, seat, score, forfeit]`` (the JSON form of a game)."""
        return [self.a, self.b, self.deal, self.seat, self.score, self.forfeit]


class Forfeit(Exception):
    """Raised inside a game when entrant role ``role`` (0 = A, 1 = B) fails: ``reason``."""

    def __init__(self, role: int, reason: str):
        super().__init__(reason)
        self.role = role
        self.reason = reason


class _Guard:
    """A policy seen through the referee: an exception or an illegal action becomes
    :class:`Forfeit`."""

    def __init__(self, policy, role: int):
        self.policy = policy
        self.role = role
        self.name = getattr(policy, "name", type(policy).__name__)
        if callable(getattr(policy, "observe_move", None)):
            self.observe_move = self._observe_move

    def _observe_move(self, game, state, action: int, player: int) -> None:
        try:
            self.policy.observe_move(game, state, action, player)
        except Exception as exc:  # noqa: BLE001 - as in act: the policy forfeits
            raise Forfeit(self.role, f"observe_move: {type(exc).__name__}: "
                                     f"{first_line(exc)}") from None

    def act(self, game, state, player: int) -> int:
        try:
            action = self.policy.act(game, state, player)
        except Exception as exc:  # noqa: BLE001 - any failure of a policy forfeits its game
            raise Forfeit(self.role, f"seat {player}: {type(exc).__name__}: "
                                     f"{first_line(exc)}") from None
        legal = game.legal_actions(state)
        if isinstance(action, bool) or action not in legal:
            raise Forfeit(self.role, f"seat {player}: illegal action {action!r}")
        return int(action)


@dataclass(frozen=True)
class Setup:
    """What the games are played with, as the worker processes receive it: the ``game`` (a spec
    string, or a picklable game object), its ``config`` keywords, the entrants' ``specs`` (spec
    strings, or picklable policy objects), models ``deterministic``."""

    game: Any
    config: dict
    specs: tuple
    deterministic: bool = True

    @property
    def game_spec(self) -> str:
        return self.game if isinstance(self.game, str) else getattr(self.game, "name", "game")

    def build(self) -> Arena:
        """This setup's :class:`Arena` (what a :class:`~card_envs.evaluation.pool.GamePool`
        worker builds once)."""
        return Arena(self)


class Arena:
    """A process's game and policies, built once from a :class:`Setup`; :meth:`play` plays a
    job. Policies are resolved at first use (:meth:`policy`).

    Raises:
        ConfigError: as :func:`~card_envs.core.registry.resolve_game` /
            :func:`~card_envs.bots.specs.resolve_policy`.
    """

    def __init__(self, setup: Setup):
        self.setup = setup
        game = setup.game
        self.game = resolve_game(game, setup.config) if isinstance(game, str) else game
        self._policies: dict[int, Any] = {}

    def policy(self, index: int):
        """Entrant ``index``'s policy (resolved and checked against the game once)."""
        if index not in self._policies:
            spec = self.setup.specs[index]
            # resolve_policy checks that it fits the game (once)
            self._policies[index] = resolve_policy(spec, self.setup.game_spec, seed=0,
                                                   deterministic=self.setup.deterministic,
                                                   game=self.game)
        return self._policies[index]

    def play(self, job: GameJob) -> GameRecord:
        """Play ``job`` (policies reseeded from :func:`policy_seed` first)."""
        game = self.game
        pa, pb = self.policy(job.a), self.policy(job.b)
        reseed_policy(pa, policy_seed(job.seed, job.seat, 0))
        reseed_policy(pb, policy_seed(job.seed, job.seat, 1))
        seats = [_Guard(pb, 1)] * game.num_players
        seats[job.seat] = _Guard(pa, 0)
        try:
            returns, _, decisions = play_game(game, seats, seed=job.seed)
        except Forfeit as f:
            return GameRecord(job.index, job.a, job.b, job.deal, job.seat,
                              0.0 if f.role == 0 else 1.0, (), 0,
                              forfeit=job.a if f.role == 0 else job.b, error=f.reason)
        return GameRecord(job.index, job.a, job.b, job.deal, job.seat,
                          duel_score(returns, job.seat), tuple(float(r) for r in returns),
                          decisions)


def progress_bar(total: int, desc: str, enabled: bool = True, leave: bool = True,
                 unit: str = "game"):
    """A tqdm bar on stderr (count, rate, elapsed and ETA); a no-op object when not ``enabled``;
    ``leave=False``: the bar is cleared when it closes. ``miniters=1``: tqdm's adaptive
    redraw step, tuned to fast games, would leave the bar silent for many seconds when slower
    games follow (the final evaluation's lookahead games after the policy's own)."""
    import sys

    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=not enabled,
                dynamic_ncols=True, mininterval=0.5, miniters=1, smoothing=0.1, leave=leave)
