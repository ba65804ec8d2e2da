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

**With a network prior** (``prior=``: any object with ``logits(observation) -> (num_actions,)``,
e.g. a :class:`card_envs.bots.sb3.FrozenPolicy`; AlphaZero / expert iteration), step 2 and 3
change; playouts (step 4) and backup (step 5) stay. At every tree node the prior is the softmax of
``prior.logits(game.observe(det, mover))`` over the actions legal in *this* deal (``mover``: the
seat to act in the determinized state, so an opponent's prior is computed from the opponent's
view of the deal), and

- ``prior_mode="puct"`` (default): no separate expansion step; every legal action gets a child
  node when first available, and selection takes the maximum of::

      Q + c_puct × spread × P(a) × sqrt(available) / (1 + visits)

  (``Q`` the child's mean for the mover, 0 before its first visit; ``available`` counts this
  iteration too, so the first iteration takes the most probable action); the first child chosen
  that has no visits yet is the new leaf, played out from there;
- ``prior_mode="bias"``: steps 2 and 3 as without a prior, but the untried action expanded is
  the one of highest prior (ties: the lower id) and the progressive bias is
  ``bias × spread × P(a) / (visits + 1)`` for every action instead of a bonus for the rollout
  policy's move.

Without a prior the search is exactly the one above (same moves for the same seed).

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

import numpy as np

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
#: how a network prior enters the selection (module docstring)
PRIOR_MODES = ("puct", "bias")
#: the PUCT weight ``c_puct`` of the ``ismcts...@MODEL`` policy spec and of expert iteration
DEFAULT_C_PUCT = 1.0


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
        prior: ``None`` (plain ISMCTS) or an object with ``logits(observation)``: float32
            observation of the game's ``observation_shape`` in, unmasked logits
            ``(num_actions,)`` out (a :class:`card_envs.bots.sb3.FrozenPolicy`); with
            ``observation_shape`` / ``num_actions`` attributes it is checked against the game;
            with ``observe(game, state, seat)`` it is given that (the view a model reads).
        prior_mode: ``"puct"`` or ``"bias"`` (:data:`PRIOR_MODES`, module docstring); used only
            with a prior.
        c_puct: PUCT exploration weight (>= 0, finite; units of the value spread).

    Raises:
        ConfigError: naming the argument: ``iterations`` not an int in 1..MAX_ITERATIONS,
            ``time_limit`` not a finite number > 0, an unknown ``rollout`` string or an object
            without ``act``, ``horizon`` not in :data:`HORIZONS`, ``outside_horizon`` not in
            :data:`OUTSIDE_HORIZON`, a bad ``c``, ``bias``, ``win_value`` or ``seed``; a
            ``prior`` without ``logits``, ``prior_mode`` not in :data:`PRIOR_MODES`, a bad
            ``c_puct``.
    """

    def __init__(self, iterations: int | None = None, time_limit: float | None = None,
                 rollout="heuristic", horizon: str = "round", outside_horizon: str = "rollout",
                 c: float = 0.7, bias: float = 3.0, win_value: float = 3.0,
                 seed: int | None = 0, name: str | None = None, prior=None,
                 prior_mode: str = "puct", c_puct: float = DEFAULT_C_PUCT):
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
        if prior is not None and not callable(getattr(prior, "logits", None)):
            raise ConfigError(f"ismcts prior {prior!r} has no logits(observation) method (give "
                              "a FrozenPolicy or None)")
        if not isinstance(prior_mode, str) or prior_mode not in PRIOR_MODES:
            raise ConfigError(f"ismcts prior_mode must be one of {list(PRIOR_MODES)}, got "
                              f"{prior_mode!r}")
        if not (_is_number(c_puct) and 0 <= c_puct < math.inf):
            raise ConfigError(f"ismcts c_puct must be a finite number >= 0, got {c_puct!r}")
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
        self.prior = prior
        self.prior_mode = prior_mode
        self.c_puct = float(c_puct)
        self._prior_checked: set[int] = set()  # id() of the games the prior was checked against
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
                ``horizon="round"`` on a game with ``lookahead_horizon`` but no ``potential``;
                a prior made for another observation shape or action count.
        """
        return self.decide(game, state, player)[0]

    def decide(self, game, state, player: int) -> tuple[int, dict[int, tuple[int, float]] | None]:
        """:meth:`act` and the search behind it: ``(action, stats)`` with ``stats`` the root's
        :meth:`action_stats` (visits and mean per legal action) when the decision was searched,
        ``None`` when it was not (one legal action, or the rollout policy's move outside the
        horizon). Same randomness as :meth:`act` (expert iteration labels with it).

        Raises:
            ConfigError: as :meth:`act`.
        """
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0], None
        if self.horizon == "round" and self.outside_horizon == "rollout":
            if game.facts.provides_lookahead_horizon and game.lookahead_horizon(state) is None:
                rollout = self._rollout_policy(game)
                if rollout is None:
                    return self.rng.choice(legal), None
                return rollout.act(game, state, player), None
        stats = self.action_stats(game, state, player)
        return max(legal, key=lambda a: (stats[a][0], stats[a][1], -a)), stats

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
        facts = game.facts
        horizon = game.lookahead_horizon if self.horizon == "round" and \
            facts.provides_lookahead_horizon else None
        potential = game.potential if facts.provides_potential else None
        if horizon is not None and potential is None:
            raise ConfigError(f"ismcts horizon='round': game {game.name!r} provides "
                              "lookahead_horizon but no potential() (provides_potential is False)")
        if self.prior is not None:
            self._check_prior(game)
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

    def _check_prior(self, game) -> None:
        """ConfigError if the prior declares an observation shape or action count other than
        the game's (checked once per game object)."""
        if id(game) in self._prior_checked:
            return
        shape = getattr(self.prior, "observation_shape", None)
        n = getattr(self.prior, "num_actions", None)
        if isinstance(shape, dict):  # a model of the dict or entity view: its own check
            from card_envs.bots.sb3 import fit_error

            message = fit_error(self.prior, game)
            if message:
                raise ConfigError(f"ismcts prior {getattr(self.prior, 'name', self.prior)!r} "
                                  f"{message}")
            self._prior_checked.add(id(game))
            return
        game_shape = tuple(getattr(game, "observation_shape", ()))
        if (shape is not None and tuple(shape) != game_shape) or \
                (n is not None and n != game.num_actions):
            raise ConfigError(
                f"ismcts prior {getattr(self.prior, 'name', self.prior)!r} takes observations "
                f"{None if shape is None else tuple(shape)} and {n} actions, but "
                f"{getattr(game, 'name', 'the game')} gives {game_shape} and {game.num_actions}: "
                "it was trained on another game or config")
        self._prior_checked.add(id(game))

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
        prior = "" if self.prior is None else \
            (f", prior={getattr(self.prior, 'name', type(self.prior).__name__)!r}, "
             f"prior_mode={self.prior_mode!r}, c_puct={self.c_puct}")
        return (f"ISMCTSBot({self.name!r}, {budget}, rollout={roll!r}, horizon={self.horizon!r}, "
                f"outside_horizon={self.outside_horizon!r}, c={self.c}, bias={self.bias}{prior})")


class _Search:
    """One decision's search: the fixed pieces of every iteration (game, rollout, hooks, the
    constants) and the running value range that scales the exploration and bias terms."""

    def __init__(self, bot: ISMCTSBot, game, rollout, horizon, potential):
        self.game = game
        self.rng = bot.rng
        self.c = bot.c
        self.prior = bot.prior
        self.prior_mode = bot.prior_mode
        self.c_puct = bot.c_puct
        # the progressive bias: toward the rollout's move (no prior), or by the prior ("bias")
        self.bias = bot.bias if (rollout is not None or self.prior is not None) else 0.0
        self.win_value = bot.win_value
        self.rollout = rollout
        self.horizon = horizon
        self.potential = potential
        self.seats = range(game.num_players)
        self.low = math.inf
        self.high = -math.inf

    def prior_probs(self, det, mover: int, legal: list[int]) -> np.ndarray:
        """The prior over ``legal`` (float64, sums to 1): the softmax of the prior's logits for
        ``mover``'s observation of the deal ``det``, restricted to ``legal``."""
        observe = getattr(self.prior, "observe", None)  # a model reading another view
        obs = observe(self.game, det, mover) if observe else self.game.observe(det, mover)
        logits = np.asarray(self.prior.logits(obs), dtype=np.float64)
        x = logits[legal]
        x = np.exp(x - x.max())
        return x / x.sum()

    def iterate(self, root: _Node, det) -> None:
        """One iteration on the deal ``det`` (mutated): select, expand, play out, back up."""
        if self.prior is not None:
            return self._iterate_prior(root, det)
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
        self._finish(det, path, steps, key)

    def _iterate_prior(self, root: _Node, det) -> None:
        """:meth:`iterate` with the network prior (``prior_mode`` "puct" or "bias")."""
        game = self.game
        legal_actions, apply_action = game.legal_actions, game.apply_action
        is_terminal, current_player = game.is_terminal, game.current_player
        horizon = self.horizon
        key = horizon(det) if horizon is not None else None
        limited = key is not None
        spread = self.high - self.low
        unit = spread if spread > 0 else 1.0
        puct = self.prior_mode == "puct"
        scale = (self.c_puct if puct else self.c) * unit
        bias = self.bias * unit
        n_seats = len(self.seats)
        node, path = root, []
        cap = game.max_game_length
        steps = 0
        while not is_terminal(det) and steps < cap and not (limited and horizon(det) != key):
            legal = legal_actions(det)
            children = node.children
            mover = current_player(det)
            probs = self.prior_probs(det, mover, legal) if len(legal) > 1 else (1.0,)
            child, best, new = None, -math.inf, False
            if puct:
                for b, pb in zip(legal, probs):
                    ch = children.get(b)
                    if ch is None:
                        ch = children[b] = _Node(n_seats)
                    ch.avail += 1
                    q = ch.total[mover] / ch.visits if ch.visits else 0.0
                    u = q + scale * pb * math.sqrt(ch.avail) / (1 + ch.visits)
                    if u > best:
                        best, child, a = u, ch, b
                new = child.visits == 0
            else:
                untried = [(pb, b) for b, pb in zip(legal, probs) if b not in children]
                if untried:  # the most probable untried action (ties: the lower id)
                    a = max(untried, key=lambda t: (t[0], -t[1]))[1]
                    child = children[a] = _Node(n_seats)
                    new = True
                else:
                    for b, pb in zip(legal, probs):
                        ch = children[b]
                        u = ch.total[mover] / ch.visits + scale * math.sqrt(
                            math.log(ch.avail + 1) / ch.visits) + bias * pb / (ch.visits + 1)
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
            if new:
                break
        self._finish(det, path, steps, key)

    def _finish(self, det, path: list, steps: int, key) -> None:
        """Play out from ``det`` (after ``steps`` moves of this iteration) to the horizon of
        ``key`` (or the end), and back the leaf's values up along ``path``."""
        game, rng, rollout = self.game, self.rng, self.rollout
        legal_actions, apply_action = game.legal_actions, game.apply_action
        is_terminal, current_player = game.is_terminal, game.current_player
        horizon = self.horizon
        limited = key is not None
        cap = game.max_game_length
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
