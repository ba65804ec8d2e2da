"""Probe (issue 18, docs/training.md "What PPO changes in Garda3, and a closer clone"):
how much Garda3 play is there above the heuristic in its long-horizon decisions, which the
one-round lookahead does not search? Variants of the heuristic (``card_envs.garda3.bot``), each
against the plain heuristic on duplicate deals (each deal once in both seats), 95 % Wilson::

    python scripts/probes/garda3_rules.py draft-weights 500     # G-2.3 draft score weights
    python scripts/probes/garda3_rules.py fighters 2000         # G-4.1 fighter choices
    python scripts/probes/garda3_rules.py attack 1000           # G-4.2, G-5.1: keep defence cards
    python scripts/probes/garda3_rules.py draft-plans 2000      # every draft plan (~10 minutes)
    python scripts/probes/garda3_rules.py draft-plans 4000 --deal-seed 11 --plans first:0,4,5

``--deal-seed`` draws other deals (to check a variant chosen on the first ones afresh).

``draft-weights``: the draft score ``hp + wa × attack_bonus + wd × defence_bonus`` (the heuristic:
wa = wd = 1.5) over a grid. ``fighters``: which own fighter to send into battle (the heuristic: the
highest attack bonus, then HP) and which to block with (the heuristic: the highest ``defence_bonus
+ hp/3``). ``attack``: the heuristic's attack score plus ``lam`` × the best defence values (high +
low) of the cards kept in hand. ``draft-plans``: the heuristic drafts deterministically, so each
seat's draft is a fixed sequence of picks; every sequence the variant can make as the first picker
(9 × 7 × 5 = 315) and as the second (8 × 6 × 4 = 192), the rest of the game the heuristic on both
sides, each on the same N deals where the variant's seat picks first (or second): one line per
plan, ``first|second picks win-rate [95 % Wilson] over N games``; the heuristic's own plans are
marked. A best-of-507 figure is biased upwards: check a chosen plan on other deals (``--plans``:
only those plans and the heuristic's own).

Garda3 classic, the shipped fighter set ``default``. No training; seconds per variant.
"""

from __future__ import annotations

import argparse
import random

from card_envs.core.outcome import outcome_of
from card_envs.evaluation.match import play_game
from card_envs.evaluation.policies import resolve_game
from card_envs.evaluation.stats import wilson_interval
from card_envs.garda3 import constants as R
from card_envs.garda3.bot import HeuristicBot

DEAL_SEED = 123


class Variant(HeuristicBot):
    """The heuristic with other draft weights, fighter choices, attack score or draft plan."""

    def __init__(self, wa=1.5, wd=1.5, attacker="heuristic", blocker="heuristic", lam=0.0,
                 plan=None):
        super().__init__()
        self.wa, self.wd, self.attacker, self.blocker, self.lam, self.plan = (
            wa, wd, attacker, blocker, lam, plan)
        self.name = (f"draft wa={wa} wd={wd}, attacker={attacker}, blocker={blocker}, "
                     f"attack lam={lam}" if plan is None else f"draft plan {plan}")

    def act(self, game, s, player):
        legal = game.legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        stats = lambda a: game.fighter_stats(s, player, a - R.A_SLOT)
        hp = lambda a: s.hp[player][a - R.A_SLOT]
        if s.phase == R.PH_DRAFT:
            if self.plan is not None:
                return R.A_PICK + self.plan[len(s.fighters[player])]
            st = game.stats[game.set_of(player)]
            return max(legal, key=lambda a: (st[a - R.A_PICK][2] + self.wa * st[a - R.A_PICK][0]
                                             + self.wd * st[a - R.A_PICK][1], -a))
        if s.phase == R.PH_ATTACKER_FIGHTER and self.attacker != "heuristic":
            keys = {"least_hp": lambda a: (-hp(a), stats(a)[0]),
                    "most_hp": lambda a: (hp(a), stats(a)[0]),
                    "least_defence": lambda a: (-stats(a)[1], stats(a)[0])}
            return max(legal, key=keys[self.attacker])
        if s.phase == R.PH_DEFENDER_FIGHTER and self.blocker != "heuristic":
            keys = {"most_hp": hp, "most_defence": lambda a: (stats(a)[1], hp(a)),
                    "least_hp": lambda a: -hp(a),
                    "all_round": lambda a: stats(a)[0] + stats(a)[1] + hp(a) / 3}
            return max(legal, key=keys[self.blocker])
        return super().act(game, s, player)

    def _attack_score(self, game, s, cards, atk_bonus):
        """The heuristic's score plus ``lam`` x the best defence values kept in hand."""
        score = super()._attack_score(game, s, cards, atk_bonus)
        if not self.lam:
            return score
        best = {R.HIGH: 0, R.LOW: 0}
        for c in s.hands[s.player]:
            if c not in cards and c not in s.atk_cards:
                d = R.CARD_DEFENCE_DIR[c]
                best[d] = max(best[d], R.CARD_VALUE[c])
        return score + self.lam * (best[R.HIGH] + best[R.LOW])


def duplicate(game, variant, deals: int, deal_seed: int) -> tuple[float, float, float]:
    """The variant's score against the heuristic over ``deals`` deals, each in both seats, with
    its 95 % Wilson interval."""
    base, rng, score = HeuristicBot(), random.Random(deal_seed), 0.0
    for _ in range(deals):
        seed = rng.getrandbits(63)
        for seat in (0, 1):
            seats = [base, base]
            seats[seat] = variant
            score += outcome_of(play_game(game, seats, seed)[0], seat)
    lo, hi = wilson_interval(score, 2 * deals)
    return score / (2 * deals), lo, hi


def heuristic_pick(stats, free: set[int]) -> int:
    """The heuristic's draft pick among the free fighters (its score, then the lower index)."""
    return max(free, key=lambda k: (stats[k][2] + 1.5 * (stats[k][0] + stats[k][1]), -k))


def plans(stats, first: bool) -> list[tuple[int, ...]]:
    """Every pick sequence of the variant against the heuristic's deterministic draft."""
    out: list[tuple[int, ...]] = []

    def walk(free, mine, my_turn):
        if len(mine) == 3:
            out.append(tuple(mine))
        elif my_turn:
            for k in sorted(free):
                walk(free - {k}, mine + [k], False)
        else:
            walk(free - {heuristic_pick(stats, free)}, mine, True)
    walk(set(range(9)), [], first)
    return out


def heuristic_plan(stats, first: bool) -> tuple[int, ...]:
    """The picks the heuristic itself makes as the first (or second) picker."""
    free, mine = set(range(9)), []
    for turn in range(6):
        k = heuristic_pick(stats, free)
        free.discard(k)
        if (turn % 2 == 0) == first:
            mine.append(k)
    return tuple(mine)


def draft_plans(game, deals: int, deal_seed: int, only=None) -> None:
    stats = game.stats[0]
    rng = random.Random(deal_seed)
    seeds = [rng.getrandbits(63) for _ in range(deals)]
    firsts = [game.new_state(seed).first_player for seed in seeds]
    base = HeuristicBot()
    for first in (True, False):
        own = heuristic_plan(stats, first)
        for plan in plans(stats, first):
            if only is not None and (first, plan) not in only and plan != own:
                continue
            variant, score = Variant(plan=plan), 0.0
            for seed, starter in zip(seeds, firsts):
                seat = starter if first else 1 - starter
                seats = [base, base]
                seats[seat] = variant
                score += outcome_of(play_game(game, seats, seed)[0], seat)
            lo, hi = wilson_interval(score, deals)
            mark = "  (the heuristic's own plan)" if plan == own else ""
            print(f"{'first' if first else 'second'} {plan} {score / deals:.3f} [{lo:.3f}, "
                  f"{hi:.3f}] over {deals} games{mark}", flush=True)


def parse_plan(text: str, stats, parser) -> tuple[bool, tuple[int, ...]]:
    """``first:K,K,K`` or ``second:K,K,K`` (fighter indices 0-8 of the set, in picking order) as
    ``(first, picks)``; a plan the heuristic's draft leaves impossible is refused."""
    role, _, picks = text.partition(":")
    try:
        plan = tuple(int(k) for k in picks.split(","))
    except ValueError:
        plan = ()
    if role not in ("first", "second") or len(plan) != 3:
        parser.error(f"--plans {text!r}: expected first:K,K,K or second:K,K,K (fighter indices "
                     "0-8 in picking order)")
    first = role == "first"
    if plan not in plans(stats, first):
        parser.error(f"--plans {text!r}: not a draft the {role} picker can make against the "
                     "heuristic's picks (a fighter the heuristic has taken by then, or an index "
                     "outside 0-8)")
    return first, plan


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["draft-weights", "fighters", "attack", "draft-plans"])
    parser.add_argument("deals", type=int)
    parser.add_argument("--deal-seed", type=int, default=DEAL_SEED,
                        help="seed of the deals (another one checks a chosen variant afresh)")
    parser.add_argument("--plans", nargs="+", default=None, metavar="FIRST|SECOND:K,K,K",
                        help="draft-plans: only these plans, e.g. first:0,4,5 second:5,7,3")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"deals {args.deals}: must be at least 1")
    if args.plans and args.what != "draft-plans":
        parser.error(f"--plans is for draft-plans, not {args.what}")
    game = resolve_game("garda3", None)
    if args.what == "draft-plans":
        only = None
        if args.plans:
            only = {parse_plan(text, game.stats[0], parser) for text in args.plans}
        draft_plans(game, args.deals, args.deal_seed, only)
        return 0
    variants = {
        "draft-weights": [{"wa": a, "wd": d} for a in (1, 1.5, 2, 2.5) for d in (1, 1.5, 2, 2.5)],
        "fighters": [{}] + [{"attacker": a} for a in ("least_hp", "most_hp", "least_defence")]
                    + [{"blocker": b} for b in ("most_hp", "most_defence", "least_hp",
                                                "all_round")]
                    + [{"attacker": "least_hp", "blocker": "most_hp"}],
        "attack": [{"lam": lam} for lam in (0.0, 0.3, 0.6, 1.0)],
    }[args.what]
    for kwargs in variants:
        variant = Variant(**kwargs)
        rate, lo, hi = duplicate(game, variant, args.deals, args.deal_seed)
        print(f"{variant.name}: {rate:.3f} [{lo:.3f}, {hi:.3f}] over {2 * args.deals} games",
              flush=True)
    return 0


if __name__ == "__main__":
    from card_envs.cli import run_script

    run_script(main)  # a reader leaving the pipe (... | head) ends it quietly
