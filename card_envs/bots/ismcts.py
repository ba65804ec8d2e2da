"""Information-set Monte Carlo tree search (single-observer ISMCTS), generic over the contract.

:class:`ISMCTSBot` is SO-ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012): one tree for the deciding seat's information set, whose edges
are actions (every seat's, as they are played), searched over many determinizations:

1. **determinize**: deal a full state consistent with what the deciding seat has seen
   (``game.sample_hidden(state, seat, rng)``: other hands and deck orders resampled, chance
   reseeded); a fresh deal every iteration;
2. **select**: from the root, while every action legal in *this* deal has a child, take the
   child maximising UCB1 for the seat to act there, over the actions available in this deal
   only, with *availability counts*::

       mean + c × spread × sqrt(ln(available) / visits)  [+ bias × spread / (visits + 1)]

   (``available``: the iterations in which the action was legal at that node; ``spread``: the
   range of leaf values seen so far in this search, so ``c`` and ``bias`` are in units of the
   value range; the bracketed *progressive bias* (Chaslot et al. 2008) goes to the action the
   rollout policy would play in this deal, and fades as the action is visited);
3. **expand** one untried legal action (uniformly at random: the paper's rule);
4. **play out** with the rollout policy (default: the game's heuristic from the registry; or
   uniformly random; or any policy) until the game's ``lookahead_horizon`` key differs from the
   root's (``horizon="round"``, the default: e.g. the end of the Garda3 round, as
   :class:`card_envs.bots.lookahead.LookaheadPolicy` does), or to the end of the game
   (``horizon="game"``, and on games without the hook);
5. **back up** the leaf's value vector (one value per seat: ``win_value × return`` at the end of
   the game, ``potential(state, seat)`` in [-1, 1] at the horizon) along the path: each node keeps
   the sum for every seat and is selected by the component of the seat that acts at its parent
   (for two seats the searching seat's value and its negation; max-n for more).

The move played is the root child with the most visits (ties: the higher mean for the deciding
seat, then the lower action id). Decisions with one legal action are returned without search;
with ``horizon="round"``, so are decisions where the hook says ``None`` (Garda3's draft, Dirt and
Glory's draft: their effect shows only rounds later): the rollout policy plays them, as the
lookahead does (``outside_horizon="search"`` searches them with playouts to the end instead).

Budget per decision: ``iterations`` (deterministic for a seed: tournaments use this), or
``time_limit`` seconds (at least one iteration; not reproducible), or both (whichever ends
first). The bot reads the real state only through ``game.legal_actions`` and
``game.lookahead_horizon`` of the deciding seat's decision and ``game.sample_hidden`` (the
contract: a function of that seat's information and the RNG), so two states the seat cannot tell
apart give the same move for the same seed (tested).

Seeding: all randomness (deals, expansion order, random rollouts) comes from ``self.rng``, a
``random.Random(seed)``; :meth:`ISMCTSBot.reseed` restarts it (and a rollout policy's own RNG);
:func:`card_envs.bots.base.reseed_policy` calls it.

The defaults and what they measured (Garda3 against its heuristic; the other games):
``docs/evaluation.md``.
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
#: where a playout stops: the game's ``lookahead_horizon`` key changing, or the end of the game
HORIZONS = ("round", "game")
#: decisions whose horizon key is ``None`` (``horizon="round"``): the rollout policy plays, or
#: they are searched with playouts to the end
OUTSIDE_HORIZON = ("rollout", "search")
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


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class ISMCTSBot:
    """Single-observer ISMCTS (see the module docstring).

    Args:
        iterations: determinized iterations per searched decision, 1..:data:`MAX_ITERATIONS`
            (default :data:`DEFAULT_ITERATIONS` when ``time_limit`` is not given either).
        time_limit: seconds per searched decision (> 0, finite), or ``None``.
        rollout: ``"heuristic"`` (the game's bot from :mod:`card_envs.core.registry`, found by
            ``game.name`` at the first decision), ``"random"`` (uniform, from ``self.rng``), or a
            policy object (``act(game, state, player)``; it acts in the deals, for every seat).
        horizon: ``"round"`` (playouts stop where the game's ``lookahead_horizon`` key differs
            from the root's, scored by ``potential``; to the end on a game without the hook) or
            ``"game"`` (playouts to the end).
        outside_horizon: with ``horizon="round"``, a decision whose key is ``None``: played by
            the rollout policy (``"rollout"``) or searched with playouts to the end
            (``"search"``).
        c: UCB1 exploration constant (>= 0, finite), in units of the value spread.
        bias: progressive-bias weight (>= 0, finite; units of the value spread) toward the
            rollout policy's action at every tree node; 0 (and random rollouts) for plain UCB1.
        win_value: a finished game's value is ``win_value × return`` (> 0, finite; at the
            horizon it weighs a win against ``potential``, which is in [-1, 1]).
        seed: seed of ``self.rng`` (an int, or ``None`` for an unseeded bot).
        name: shown in reports (default ``"ismcts"``).

    Raises:
        ConfigError: naming the argument: ``iterations`` not an int in 1..MAX_ITERATIONS,
            ``time_limit`` not a finite number > 0, an unknown ``rollout`` string or an object
            without ``act``, ``horizon`` not in :data:`HORIZONS`, ``outside_horizon`` not in
            :data:`OUTSIDE_HORIZON`, a bad ``c``, ``bias``, ``win_value`` or ``seed``.
    """

    def __init__(self, iterations: int | None = None, time_limit: float | None = None,
                 rollout="heuristic", horizon: str = "round", outside_horizon: str = "rollout",
                 c: float = 0.7, bias: float = 3.0, win_value: float = 3.0,
                 seed: int | None = 0, name: str | None = None):
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and not (_is_int(iterations)
                                           and 1 <= iterations <= MAX_ITERATIONS):
            raise ConfigError(f"ismcts iterations must be an int in 1..{MAX_ITERATIONS} "
                              f"(MAX_ITERATIONS), got {iterations!r}")
        if time_limit is not None and not (_is_number(time_limit) and 0 < time_limit < math.inf):
            raise ConfigError(f"ismcts time_limit must be a finite number of seconds > 0 or None, "
                              f"got {time_limit!r}")
        if isinstance(rollout, str):
            if rollout not in ROLLOUTS:
                raise ConfigError(f"ismcts rollout must be one of {list(ROLLOUTS)} or a policy "
                                  f"object, got {rollout!r}")
        elif not callable(getattr(rollout, "act", None)):
            raise ConfigError(f"ismcts rollout {rollout!r} is not a policy with act(game, state, "
                              f"player) nor one of {list(ROLLOUTS)}")
        for label, value, choices in (("horizon", horizon, HORIZONS),
                                      ("outside_horizon", outside_horizon, OUTSIDE_HORIZON)):
            if not isinstance(value, str) or value not in choices:
                raise ConfigError(f"ismcts {label} must be one of {list(choices)}, got {value!r}")
        for label, value, low_ok in (("c", c, True), ("bias", bias, True),
                                     ("win_value", win_value, False)):
            if not (_is_number(value) and (0 <= value if low_ok else 0 < value)
                    and value < math.inf):
                bound = ">= 0" if low_ok else "> 0"
                raise ConfigError(f"ismcts {label} must be a finite number {bound}, got {value!r}")
        if seed is not None and not _is_int(seed):
            raise ConfigError(f"ismcts seed must be an int or None, got {seed!r}")
        self.iterations = iterations
        self.time_limit = None if time_limit is None else float(time_limit)
        self.rollout = rollout
        self.horizon = horizon
        self.outside_horizon = outside_horizon
        self.c = float(c)
        self.bias = float(bias)
        self.win_value = float(win_value)
        self.seed = seed
        self.rng = random.Random(seed)
        self.name = name or "ismcts"
        self.searched = 0         # decisions searched
        self.total_iterations = 0  # iterations over all searched decisions
        self._heuristics: dict[str, object] = {}

    # -- seeding ---------------------------------------------------------------------------------
    def reseed(self, seed: int) -> None:
        """Restart ``self.rng`` from ``seed`` (an int), and a rollout policy object's own RNG
        (:func:`~card_envs.bots.base.reseed_policy`) from ``seed`` too: afterwards the bot plays
        as a new ``ISMCTSBot(seed=seed)`` with the same settings (and a fresh rollout policy
        seeded ``seed``) would.

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
        visited root child after the search, the only legal action, or the rollout policy's
        action outside the horizon (module docstring).

        Raises:
            ConfigError: ``rollout="heuristic"`` for a game without a registered heuristic;
                ``horizon="round"`` on a game with ``lookahead_horizon`` but no ``potential``.
        """
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        if self.horizon == "round" and self.outside_horizon == "rollout":
            hook = getattr(game, "lookahead_horizon", None)
            if hook is not None and hook(state) is None:
                rollout = self._rollout_policy(game)
                if rollout is None:
                    return self.rng.choice(legal)
                return rollout.act(game, state, player)
        stats = self.action_stats(game, state, player)
        return max(legal, key=lambda a: (stats[a][0], stats[a][1], -a))

    def act_batch(self, game, states: list, players: list[int]) -> list[int]:
        """:meth:`act` for each (state, seat) pair (one search each)."""
        return [self.act(game, s, p) for s, p in zip(states, players)]

    def action_stats(self, game, state, player: int) -> dict[int, tuple[int, float]]:
        """Search from ``state`` for ``player`` (the seat to act) and return, for every legal
        action, ``(visits, mean value for player)`` of its root child (``(0, 0.0)`` if never
        visited); the visits sum to the iterations run. Values are in the units of the module
        docstring: ``win_value × return`` at the end of a game, ``potential`` at the horizon.
        (Always searches: also at a single legal action or outside the horizon.)

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
        search = _Search(self, game, rollout, horizon, potential)
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
                f"outside_horizon={self.outside_horizon!r}, c={self.c}, bias={self.bias})")


class _Search:
    """One decision's search: the fixed pieces of every iteration (game, rollout, hooks, the
    constants) and the running value range that scales the exploration and bias terms."""

    def __init__(self, bot: ISMCTSBot, game, rollout, horizon, potential):
        self.game = game
        self.rng = bot.rng
        self.c = bot.c
        self.bias = bot.bias if rollout is not None else 0.0
        self.win_value = bot.win_value
        self.rollout = rollout
        self.horizon = horizon
        self.potential = potential
        self.seats = range(game.num_players)
        self.low = math.inf
        self.high = -math.inf

    def iterate(self, root: _Node, det) -> None:
        """One iteration on the deal ``det`` (mutated): select, expand, play out, back up."""
        game, rng, rollout = self.game, self.rng, self.rollout
        legal_actions, apply_action = game.legal_actions, game.apply_action
        is_terminal, current_player = game.is_terminal, game.current_player
        horizon = self.horizon
        key = horizon(det) if horizon is not None else None
        limited = key is not None  # else playouts to the end of the game
        spread = self.high - self.low
        unit = spread if spread > 0 else 1.0
        scale, bias = self.c * unit, self.bias * unit
        node, path = root, []
        cap = game.max_game_length
        steps = 0
        # selection, then the expansion of one node
        while not is_terminal(det) and steps < cap and not (limited and horizon(det) != key):
            legal = legal_actions(det)
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                a = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = children[a] = _Node(len(self.seats))
            else:
                mover = current_player(det)
                hint = rollout.act(game, det, mover) if bias else -1
                child, best = None, -math.inf
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
        while not is_terminal(det) and steps < cap and not (limited and horizon(det) != key):
            legal = legal_actions(det)
            if len(legal) == 1:
                a = legal[0]
            elif rollout is None:
                a = rng.choice(legal)
            else:
                a = rollout.act(game, det, current_player(det))
            apply_action(det, a)
            steps += 1
        # value and backup
        if is_terminal(det):
            values = [self.win_value * float(r) for r in game.returns(det)]
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


#: the search measured strongest against the Garda3 heuristic (``docs/evaluation.md``): the
#: defaults, spelled out (policy spec ``card_envs.bots.ismcts:tuned``, or plain ``ismcts``)
TUNED = {"iterations": DEFAULT_ITERATIONS, "horizon": "round", "c": 0.7,
         "outside_horizon": "rollout", "bias": 3.0}


def tuned(seed: int | None = 0) -> ISMCTSBot:
    """:class:`ISMCTSBot` with :data:`TUNED` (policy spec ``card_envs.bots.ismcts:tuned``)."""
    return ISMCTSBot(seed=seed, name="ismcts-tuned", **TUNED)
