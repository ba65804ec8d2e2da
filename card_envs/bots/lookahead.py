"""Decision-time lookahead around any policy: determinized Monte Carlo rollouts (generic).

:class:`LookaheadPolicy` improves a *base* policy at the moment it decides, the way Tesauro and
Galperin's "on-line policy improvement using Monte-Carlo search" (NIPS 1996) improved
TD-Gammon, with the determinization of perfect-information Monte Carlo (PIMC) for the hidden
cards:

1. deal ``samples`` full states consistent with what the deciding seat has seen
   (``game.sample_hidden``: the other hands and the deck orders resampled);
2. for every legal action and every deal, apply the action, then let the *base policy* play
   every seat (batched when the base offers ``act_batch``) until the horizon
   (``game.lookahead_horizon``, e.g. the end of the current Garda3 round) or the end of the game;
3. score each finished rollout from the deciding seat's view: ``win_value × return`` at the end of
   the game, ``game.potential(state, seat)`` (in [−1, 1]) at the horizon; the same deals serve
   every action (common random numbers);
4. play the action with the highest mean score; ties keep the base policy's own choice.

The base is any policy (``act(game, state, player) -> int``): a trained network
(:class:`card_envs.bots.sb3.FrozenPolicy`), a heuristic bot, another lookahead. It reads only
the deciding seat's information (the deals are sampled from its view), so it is a fair player.

Game hooks (optional; nothing here knows any game's rules):

==================================  =============================================================
``lookahead_horizon(state)``        a key (e.g. the round number) the rollouts keep while they
                                    run, or ``None`` where the lookahead should not decide (the
                                    base policy plays those decisions). Without it: rollouts to
                                    the end of the game, every decision searched
``potential(state, seat) -> float`` the seat's standing in [−1, 1] at the horizon (required
                                    unless rollouts always reach the end of the game)
==================================  =============================================================

Cost: ``samples × (legal actions)`` rollouts per searched decision.
"""

from __future__ import annotations

import random

from card_envs.core.errors import ConfigError


def act_batch(policy, game, states: list, players: list[int]) -> list[int]:
    """``policy``'s actions for many (state, seat) pairs: its own ``act_batch`` when it has one
    (one batched network pass), else ``act`` one by one."""
    batched = getattr(policy, "act_batch", None)
    if batched is not None:
        return list(batched(game, states, players))
    return [policy.act(game, s, p) for s, p in zip(states, players)]


class LookaheadPolicy:
    """The base policy improved by determinized rollouts (see the module docstring).

    Args:
        base: the policy to improve (and to play the rollouts for every seat).
        samples: deals sampled per searched decision (>= 1; what some values measured:
            ``docs/training.md``).
        win_value: score of a won game's return in units of ``potential`` (> 0; a win counts
            ``win_value`` times a full material lead).
        seed: seed of the deal sampling (equal seeds and equal games give equal choices).
        name: shown in reports (default ``"<base name>+lookahead"``).

    Raises:
        ConfigError: ``samples`` not an int >= 1, ``win_value`` not finite and > 0, or a
            ``base`` without ``act``.
    """

    def __init__(self, base, samples: int = 8, win_value: float = 3.0, seed: int | None = 0,
                 name: str | None = None):
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ConfigError(f"lookahead samples must be an int >= 1, got {samples!r}")
        if not (isinstance(win_value, (int, float)) and 0 < win_value < float("inf")):
            raise ConfigError(f"lookahead win_value must be a finite number > 0, got {win_value!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ConfigError(f"lookahead seed must be an int or None, got {seed!r}")
        if not callable(getattr(base, "act", None)):
            raise ConfigError(f"lookahead base {base!r} is not a policy with act(game, state, "
                              "player); wrap an (observation, action_mask) callable with "
                              "card_envs.bots.base.ObservationPolicy")
        self.base = base
        self.samples = samples
        self.win_value = float(win_value)
        self.rng = random.Random(seed)
        self.name = name or f"{getattr(base, 'name', 'policy')}+lookahead"
        self.searched = 0  # decisions decided by the lookahead (for reports)

    def act(self, game, state, player: int) -> int:
        """The legal action with the best mean rollout score for ``player`` (the seat to act);
        the base policy's own choice where the lookahead does not decide or on ties."""
        own = self.base.act(game, state, player)
        scores = self.action_scores(game, state, player)
        if scores is None:
            return own
        best = own
        for a in scores:  # strict improvement over the base's choice (and earlier actions)
            if scores[a] > scores[best] + 1e-9:
                best = a
        return best

    def action_scores(self, game, state, player: int) -> dict[int, float] | None:
        """Mean rollout score of every legal action for ``player`` (the seat to act), or
        ``None`` when the lookahead does not decide here (a single legal action, or the game's
        ``lookahead_horizon`` is ``None``). Scores are in ``potential`` units: ``win_value ×
        return`` for rollouts that end the game.

        Raises:
            ConfigError: the game has ``lookahead_horizon`` but no ``potential``.
        """
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return None
        facts = game.facts
        horizon = game.lookahead_horizon if facts.provides_lookahead_horizon else None
        key = horizon(state) if horizon is not None else 0
        if key is None:
            return None
        potential = game.potential if facts.provides_potential else None
        if horizon is not None and potential is None:
            raise ConfigError(f"game {game.name!r} provides lookahead_horizon but no potential() "
                              "(its facts: provides_potential is False)")
        self.searched += 1
        deals = [game.sample_hidden(state, player, self.rng) for _ in range(self.samples)]
        sims, owners = [], []
        for a in legal:
            for deal in deals:
                s = game.clone(deal)
                game.apply_action(s, a)
                sims.append(s)
                owners.append(a)
        steps = 0
        live = list(range(len(sims)))
        while live and steps < game.max_game_length:
            live = [i for i in live if not game.is_terminal(sims[i])
                    and (horizon is None or horizon(sims[i]) == key)]
            if not live:
                break
            states = [sims[i] for i in live]
            seats = [game.current_player(s) for s in states]
            for s, a in zip(states, act_batch(self.base, game, states, seats)):
                game.apply_action(s, a)
            steps += 1
        score = dict.fromkeys(legal, 0.0)
        for s, a in zip(sims, owners):
            if game.is_terminal(s):
                score[a] += self.win_value * float(game.returns(s)[player])
            elif potential is not None:
                score[a] += float(potential(s, player))
        return {a: v / self.samples for a, v in score.items()}

    def act_batch(self, game, states: list, players: list[int]) -> list[int]:
        """:meth:`act` for each (state, seat) pair (one search each; nothing to batch)."""
        return [self.act(game, s, p) for s, p in zip(states, players)]

    def __repr__(self) -> str:
        return f"LookaheadPolicy({self.name!r}, samples={self.samples})"

