"""Information-set Monte Carlo tree search (single-observer ISMCTS), generic over the contract.

:class:`ISMCTSBot` is SO-ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012): one tree for the deciding seat's information set, whose edges
are actions (every seat's, as they are played), searched over many determinizations:

1. **determinize**: deal a full state consistent with what the deciding seat has seen
   (``game.sample_hidden(state, seat, rng)``: other hands and deck orders resampled, chance
   reseeded); a fresh deal every iteration;
2. **select**: from the root, while every action legal in *this* deal has a child, take the
   child maximising UCB1 for the seat to act there, over the actions available in this deal
   only, with *availability counts* (``mean + c × spread × sqrt(ln(available) / visits)``,
   ``available``: the iterations in which the action was legal at that node; ``spread``: the
   range of leaf values seen in this search, so ``c`` is in units of the game's value range);
3. **expand** one untried legal action (uniformly at random: the paper's rule);
4. **play out** with the rollout policy (default: the game's heuristic from the registry; or
   uniformly random; or any policy) to the end of the game, or, with ``horizon="round"`` on a game
   with the ``lookahead_horizon`` / ``potential`` hooks, only until the horizon key changes (as
   :class:`card_envs.bots.lookahead.LookaheadPolicy` does);
5. **back up** the leaf's value vector (one value per seat: ``win_value × return`` at the end of
   the game, ``potential(state, seat)`` at the horizon) along the path: each node keeps the sum for
   every seat and is selected by the component of the seat that acts at its parent (for two seats
   the searching seat's value and its negation; max-n for more).

The move played is the root child with the most visits (ties: the higher mean for the deciding
seat, then the lower action id). Decisions with one legal action are returned without search.

Budget per decision: ``iterations`` (deterministic for a seed: tournaments use this), or
``time_limit`` seconds (at least one iteration; not reproducible), or both (whichever ends
first). The bot reads the real state only through ``game.legal_actions`` of the deciding seat and
``game.sample_hidden`` (the contract: a function of that seat's information and the RNG), so two
states the seat cannot tell apart give the same move for the same seed (tested).

Seeding: all randomness (deals, expansion order, random rollouts) comes from ``self.rng``, a
``random.Random(seed)``; :meth:`ISMCTSBot.reseed` restarts it (and a rollout policy's own RNG),
:func:`card_envs.bots.base.reseed_policy` works on it too.

What some settings measured on Garda3 against its heuristic: ``docs/evaluation.md``.
"""

from __future__ import annotations

import math
import random
import time

from card_envs.bots.base import reseed_policy
from card_envs.core import registry
from card_envs.core.errors import ConfigError

#: iterations per searched decision when neither ``iterations`` nor ``time_limit`` is given
DEFAULT_ITERATIONS = 300
#: the largest ``iterations`` accepted (each iteration is one deal and one playout)
MAX_ITERATIONS = 1_000_000
#: where a playout stops: the end of the game, or the game's ``lookahead_horizon`` key changing
HORIZONS = ("game", "round")
#: the named rollout policies (a policy object is accepted too)
ROLLOUTS = ("heuristic", "random")


class _Node:
    """One tree node (an action sequence from the root): its children by action, and the edge
    statistics of the action that leads to it (visits, availability, value sums per seat)."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, num_players: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * num_players


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ISMCTSBot:
    """Single-observer ISMCTS (see the module docstring).

    Args:
        iterations: determinized iterations per searched decision, 1..:data:`MAX_ITERATIONS`
            (default :data:`DEFAULT_ITERATIONS` when ``time_limit`` is not given either).
        time_limit: seconds per searched decision (> 0, finite), or ``None``.
        rollout: ``"heuristic"`` (the game's bot from :mod:`card_envs.core.registry`, found by
            ``game.name`` at the first decision), ``"random"`` (uniform, from ``self.rng``), or a
            policy object (``act(game, state, player)``; it acts in the deals, for every seat).
        horizon: ``"game"`` (playouts to the end) or ``"round"`` (stop where the game's
            ``lookahead_horizon`` key differs from the root's and score by ``potential``; where the
            key is ``None``, e.g. Garda3's draft, or the game has no hook: to the end).
        c: UCB1 exploration constant (>= 0, finite), in units of the value spread.
        win_value: a finished game's value is ``win_value × return`` (> 0, finite; with
            ``horizon="round"`` it weighs a win against ``potential``, which is in [-1, 1]).
        seed: seed of ``self.rng`` (an int, or ``None`` for an unseeded bot).
        name: shown in reports (default ``"ismcts"``).
        expand: ``"random"`` (the paper's rule) or ``"policy"`` (expand the rollout policy's
            choice first when it is untried).
        rounds: with ``horizon="round"``, how many horizon changes a playout runs through
            before it is scored (int >= 1).
        bias: progressive bias towards the rollout policy's choice at each node,
            ``bias × spread / (visits + 1)`` added to its UCB score (>= 0, finite; 0: none).
        outside_horizon: with ``horizon="round"``, where the game's horizon key is ``None``
            (Garda3's draft): ``"search"`` as usual, or ``"rollout"``: play the rollout
            policy's move without a search.

    Raises:
        ConfigError: naming the argument: ``iterations`` not an int in 1..MAX_ITERATIONS,
            ``time_limit`` not a finite number > 0, an unknown ``rollout`` string or an object
            without ``act``, ``horizon`` not in :data:`HORIZONS`, a bad ``c``, ``win_value`` or
            ``seed``, ``expand``, ``rounds``, ``bias`` or ``outside_horizon``.
    """

    def __init__(self, iterations: int | None = None, time_limit: float | None = None,
                 rollout="heuristic", horizon: str = "game", c: float = 0.7,
                 win_value: float = 3.0, seed: int | None = 0, name: str | None = None,
                 expand: str = "random", rounds: int = 1, bias: float = 0.0,
                 outside_horizon: str = "search"):
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and not (_is_int(iterations)
                                           and 1 <= iterations <= MAX_ITERATIONS):
            raise ConfigError(f"ismcts iterations must be an int in 1..{MAX_ITERATIONS} "
                              f"(MAX_ITERATIONS), got {iterations!r}")
        if time_limit is not None and not (isinstance(time_limit, (int, float))
                                           and not isinstance(time_limit, bool)
                                           and 0 < time_limit < math.inf):
            raise ConfigError(f"ismcts time_limit must be a finite number of seconds > 0 or None, "
                              f"got {time_limit!r}")
        if isinstance(rollout, str):
            if rollout not in ROLLOUTS:
                raise ConfigError(f"ismcts rollout must be one of {list(ROLLOUTS)} or a policy "
                                  f"object, got {rollout!r}")
        elif not callable(getattr(rollout, "act", None)):
            raise ConfigError(f"ismcts rollout {rollout!r} is not a policy with act(game, state, "
                              f"player) nor one of {list(ROLLOUTS)}")
        if horizon not in HORIZONS:
            raise ConfigError(f"ismcts horizon must be one of {list(HORIZONS)}, got {horizon!r}")
        for label, value, low_ok in (("c", c, True), ("win_value", win_value, False)):
            if not (isinstance(value, (int, float)) and not isinstance(value, bool)
                    and (0 <= value if low_ok else 0 < value) and value < math.inf):
                bound = ">= 0" if low_ok else "> 0"
                raise ConfigError(f"ismcts {label} must be a finite number {bound}, got {value!r}")
        if seed is not None and not _is_int(seed):
            raise ConfigError(f"ismcts seed must be an int or None, got {seed!r}")
        if expand not in ("random", "policy"):
            raise ConfigError(f"ismcts expand must be 'random' or 'policy', got {expand!r}")
        if not (_is_int(rounds) and rounds >= 1):
            raise ConfigError(f"ismcts rounds must be an int >= 1, got {rounds!r}")
        if not (isinstance(bias, (int, float)) and not isinstance(bias, bool)
                and 0 <= bias < math.inf):
            raise ConfigError(f"ismcts bias must be a finite number >= 0, got {bias!r}")
        if outside_horizon not in ("search", "rollout"):
            raise ConfigError(f"ismcts outside_horizon must be 'search' or 'rollout', got "
                              f"{outside_horizon!r}")
        self.iterations = iterations
        self.time_limit = None if time_limit is None else float(time_limit)
        self.rollout = rollout
        self.horizon = horizon
        self.expand = expand
        self.rounds = rounds
        self.bias = float(bias)
        self.outside_horizon = outside_horizon
        self.c = float(c)
        self.win_value = float(win_value)
        self.seed = seed
        self.rng = random.Random(seed)
        self.name = name or "ismcts"
        self.searched = 0         # decisions searched (more than one legal action)
        self.total_iterations = 0  # iterations over all searched decisions
        self._heuristics: dict[str, object] = {}

    # -- seeding ---------------------------------------------------------------------------------
    def reseed(self, seed: int) -> None:
        """Restart ``self.rng`` from ``seed`` (an int), and a rollout policy object's own RNG
        (:func:`~card_envs.bots.base.reseed_policy`) from ``seed`` too: afterwards the bot plays
        as a new ``ISMCTSBot(seed=seed)`` with the same settings would.

        Raises:
            ConfigError: ``seed`` is not an int.
        """
        if not _is_int(seed):
            raise ConfigError(f"ismcts reseed needs an int seed, got {seed!r}")
        self.seed = seed
        self.rng.seed(seed)
        if not isinstance(self.rollout, str):
            reseed_policy(self.rollout, seed)

    # -- playing ---------------------------------------------------------------------------------
    def act(self, game, state, player: int) -> int:
        """The chosen legal action for ``player`` (the seat to act in ``state``): the most
        visited root child after the search (see the module docstring).

        Raises:
            ConfigError: ``rollout="heuristic"`` for a game without a registered heuristic.
        """
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        if self.horizon == "round" and self.outside_horizon == "rollout":
            hook = getattr(game, "lookahead_horizon", None)
            if hook is not None and hook(state) is None:
                return self._rollout_policy(game).act(game, state, player)
        stats = self.action_stats(game, state, player)
        return max(legal, key=lambda a: (stats[a][0], stats[a][1], -a))

    def act_batch(self, game, states: list, players: list[int]) -> list[int]:
        """:meth:`act` for each (state, seat) pair (one search each)."""
        return [self.act(game, s, p) for s, p in zip(states, players)]

    def action_stats(self, game, state, player: int) -> dict[int, tuple[int, float]]:
        """Search from ``state`` for ``player`` (the seat to act) and return, for every legal
        action, ``(visits, mean value for player)`` of its root child (``(0, 0.0)`` if never
        visited). Values are in the units of the module docstring: ``win_value × return`` at the
        end of a game, ``potential`` at the horizon.

        Raises:
            ConfigError: ``rollout="heuristic"`` for a game without a registered heuristic;
                ``horizon="round"`` on a game with ``lookahead_horizon`` but no ``potential``.
        """
        legal = game.legal_actions(state)
        rollout = self._rollout_policy(game)
        horizon = getattr(game, "lookahead_horizon", None) if self.horizon == "round" else None
        potential = getattr(game, "potential", None)
        if horizon is not None and potential is None:
            raise ConfigError(f"ismcts horizon='round': game {game.name!r} has lookahead_horizon "
                              "but no potential()")
        root = _Node(game.num_players)
        search = _Search(self, game, player, rollout, horizon, potential)
        start = time.perf_counter()
        done = 0
        while True:
            search.iterate(root, game.sample_hidden(state, player, self.rng))
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if self.time_limit is not None and time.perf_counter() - start >= self.time_limit:
                break
        self.searched += 1
        self.total_iterations += done
        out = {}
        for a in legal:
            child = root.children.get(a)
            out[a] = (0, 0.0) if child is None or not child.visits else \
                (child.visits, child.total[player] / child.visits)
        return out

    def _rollout_policy(self, game):
        """The rollout policy object, or ``None`` for uniformly random rollouts."""
        if self.rollout == "random":
            return None
        if not isinstance(self.rollout, str):
            return self.rollout
        name = getattr(game, "name", None)
        bot = self._heuristics.get(name)
        if bot is None:
            if name not in registry.HEURISTICS:
                raise ConfigError(f"ismcts rollout='heuristic': game {name!r} has no registered "
                                  f"heuristic (known: {sorted(registry.HEURISTICS)}); pass "
                                  "rollout='random' or a policy object")
            bot = self._heuristics[name] = registry.make_heuristic(name)
        return bot

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.time_limit is None else \
            f"time_limit={self.time_limit}" + (f", iterations={self.iterations}"
                                               if self.iterations is not None else "")
        roll = self.rollout if isinstance(self.rollout, str) else \
            getattr(self.rollout, "name", type(self.rollout).__name__)
        return (f"ISMCTSBot({self.name!r}, {budget}, rollout={roll!r}, horizon={self.horizon!r}, "
                f"c={self.c})")


class _Search:
    """One decision's search: the fixed pieces of every iteration (game, seat, rollout, hooks)
    and the running value range that scales the exploration term."""

    def __init__(self, bot: ISMCTSBot, game, player: int, rollout, horizon, potential):
        self.game = game
        self.player = player
        self.rng = bot.rng
        self.c = bot.c
        self.win_value = bot.win_value
        self.rollout = rollout
        self.horizon = horizon
        self.potential = potential
        self.expand_policy = bot.expand == "policy"
        self.rounds = bot.rounds
        self.bias = bot.bias if rollout is not None else 0.0
        self.seats = range(game.num_players)
        self.low = math.inf
        self.high = -math.inf

    def iterate(self, root: _Node, det) -> None:
        """One iteration on the deal ``det`` (mutated): select, expand, play out, back up."""
        game = self.game
        legal_actions, apply_action = game.legal_actions, game.apply_action
        is_terminal, current_player = game.is_terminal, game.current_player
        horizon = self.horizon
        key = horizon(det) if horizon is not None else None
        limited = key is not None  # else playouts to the end of the game
        changes, depth = 0, self.rounds
        spread = self.high - self.low
        scale = self.c * (spread if spread > 0 else 1.0)
        bias = self.bias * (spread if spread > 0 else 1.0)
        node, path = root, []
        cap = game.max_game_length
        steps = 0
        # selection and expansion
        while not is_terminal(det) and steps < cap:
            if limited:
                k = horizon(det)
                if k != key:
                    changes += 1
                    key = k
                    if changes >= depth:
                        break
            legal = legal_actions(det)
            children = node.children
            untried = [a for a in legal if a not in children]
            mover = current_player(det)
            if untried:
                a = untried[0] if len(untried) == 1 else None
                if a is None and self.expand_policy and self.rollout is not None:
                    a = self.rollout.act(game, det, mover)
                    if a not in untried:
                        a = None
                if a is None:
                    a = self.rng.choice(untried)
                child = children[a] = _Node(len(self.seats))
            else:
                child, best = None, -math.inf
                hint = self.rollout.act(game, det, mover) if bias else -1
                for b in legal:
                    ch = children[b]
                    u = ch.total[mover] / ch.visits + scale * math.sqrt(
                        math.log(ch.avail + 1) / ch.visits)
                    if b == hint:
                        u += bias / (ch.visits + 1)
                    if u > best:
                        best, child, a = u, ch, b
            for b in legal:
                ch = children.get(b)
                if ch is not None:
                    ch.avail += 1
            apply_action(det, a)
            steps += 1
            path.append(child)
            node = child
            if untried:
                break
        # playout
        rollout, rng = self.rollout, self.rng
        while not is_terminal(det) and steps < cap:
            if limited:
                k = horizon(det)
                if k != key:
                    changes += 1
                    key = k
                    if changes >= depth:
                        break
            if rollout is None:
                a = rng.choice(legal_actions(det))
            else:
                a = rollout.act(game, det, current_player(det))
            apply_action(det, a)
            steps += 1
        # value and backup
        if is_terminal(det):
            returns = game.returns(det)
            values = [self.win_value * float(r) for r in returns]
        elif self.potential is not None:
            values = [float(self.potential(det, p)) for p in self.seats]
        else:  # cut off by max_game_length without a potential: no information
            values = [0.0] * len(self.seats)
        for v in values:
            if v < self.low:
                self.low = v
            if v > self.high:
                self.high = v
        for node in path:
            node.visits += 1
            total = node.total
            for p in self.seats:
                total[p] += values[p]


#: the search measured strongest against the heuristics (docs/evaluation.md): 300 iterations,
#: playouts to the end of the round scored by ``potential``, UCB constant 0.3, progressive bias 3
#: towards the rollout policy, the rollout policy's own moves where the horizon is ``None``
TUNED = {"iterations": 300, "horizon": "round", "c": 0.3, "outside_horizon": "rollout",
         "bias": 3.0}


def tuned(seed: int | None = 0) -> ISMCTSBot:
    """:class:`ISMCTSBot` with :data:`TUNED` (policy spec ``card_envs.bots.ismcts:tuned``)."""
    return ISMCTSBot(seed=seed, name="ismcts-tuned", **TUNED)
