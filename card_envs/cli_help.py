"""The help texts of the ``card-envs`` command (:mod:`card_envs.cli`): the policy specs, the
Ray address, and each subcommand's description."""

POLICY_SPECS_HELP = """\
policy specs:
  random                  uniformly random legal moves
  heuristic               the game's rule-based bot
  ismcts[:N[:ROLLOUT]]    information-set MCTS, N iterations per decision (ROLLOUT heuristic or
                          random)
  ismcts:N@runs/x/model.zip  the same search guided by a trained network as its prior (PUCT;
                          ROLLOUT may also be 'model': the network plays the playouts)
  runs/x/model.zip        a trained MaskablePPO model (or its run folder), deterministic
  rllib:runs/x/checkpoint a trained RLlib module (training/rllib_ppo.py), deterministic
  package.module:name     your own policy object, class, or (observation, mask) -> action function
  SPEC+lookahead[:N]      any of these improved by N determinized rollouts per decision (8)"""

ADDRESS_HELP = ("play on a Ray cluster instead of worker processes: 'auto' (the cluster of "
                "`ray start` on this machine, or RAY_ADDRESS), HOST:6379 (from `ray start "
                "--head`), ray://HOST:10001, or 'local' (a Ray started by this command); the "
                "same games and results as --workers; needs the rllib extra "
                "(default: worker processes)")

MAIN_HELP = """\
card-envs: Czech card games for reinforcement learning, their bots, training and evaluation.
Every subcommand explains itself: card-envs <command> --help.

examples:
  card-envs games
  card-envs evaluate --game garda3 --a heuristic --b random --games 400
  card-envs tournament --game garda3 --policies random,heuristic,ismcts:100 --deals 50 --workers 2
  card-envs sprt --game garda3 --a heuristic+lookahead --b heuristic --elo0 0 --elo1 40"""

EVALUATE_HELP = """\
Play N games of policy A against policy B (B in every other seat), A taking every seat equally
often; by default each deal is played once with A in every seat (duplicate deals). Prints A's
win, draw and loss rates with 95 % Wilson intervals, and A's results by seat.

example:
  card-envs evaluate --game garda3 --a runs/x/model.zip --b heuristic --games 400

""" + POLICY_SPECS_HELP

TOURNAMENT_HELP = """\
Play every pair of policies (a round robin), or one policy against all others (--gauntlet), on
the same duplicate deals: each deal is played once with the pair's first policy in every seat
(two seats: twice, seats swapped), so the luck of the cards cancels. Every stochastic policy is
reseeded from each game's seed, so --workers N, or a Ray cluster (--address), gives exactly the
serial results. A policy that
raises or plays an illegal move forfeits that game (reported). Prints:

  ratings   Bradley-Terry Elo (the logistic model of the scores, draws half a win; mean of the
            field 0; 100 Elo ~ 64 % expected score), its 95 % bootstrap interval over deals,
            and openskill's mu / sigma (an online Plackett-Luce rating, ordinal mu - 3 sigma)
  matrix    the row's mean score against the column with its 95 % Wilson interval
  pairs     A's wins/draws/losses, score and forfeits per pair

examples:
  card-envs tournament --game garda3 --policies random,heuristic,ismcts:100,runs/x/model.zip \\
      --deals 50 --workers 2 --json t.json --png t.png
  card-envs tournament --game garda3 --policies random,heuristic,ismcts:400 --deals 2000 \\
      --address auto                      # on the Ray cluster started by `ray start --head`

""" + POLICY_SPECS_HELP

SPRT_HELP = """\
Sequential probability ratio test of A against B, as chess-engine testing (fishtest) runs it:
play duplicate pairs (every deal twice, seats swapped) until the evidence decides between
H0 "A is elo0 Elo better" and H1 "A is elo1 Elo better" (logistic Elo: 1 / (1 + 10^(-elo/400))
is A's expected score). Each pair scores 0, 1/2, 1, 3/2 or 2 points (the pentanomial); after
every pair the generalized log-likelihood ratio of the pentanomial counts is compared with
log(beta / (1 - alpha)) (accept H0) and log((1 - beta) / alpha) (accept H1). Prints the decision
(H0, H1, or inconclusive at --max-games), the games played, the LLR and A's Elo estimate with its
95 % interval. The test's error rates are alpha and beta however early it stops.

examples:
  card-envs sprt --game garda3 --a heuristic+lookahead --b heuristic --elo0 0 --elo1 40
  card-envs sprt --game garda3 --a ismcts:400 --b ismcts:200 --address 10.0.0.5:6379

""" + POLICY_SPECS_HELP
