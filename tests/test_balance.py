"""The card-balance report (card_envs.evaluation.balance): Holm's procedure, the tolerance test,
the Wald and cluster-robust standard error and the Wilson interval on hand-computed numbers;
the report end to end on a tiny card duel whose every result is known from the deal; the
``card-envs balance`` command; Scratch Wars' hooks."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from card_envs.cli import main as cli_main
from card_envs.core.balance import BalanceMixin
from card_envs.core.errors import ConfigError
from card_envs.evaluation.balance import (
    BalanceSetup,
    balance_jobs,
    balance_png,
    balance_report,
    clustered_difference,
    holm,
    play_balance_games,
    report_tables,
    tolerance_pvalue,
    wald_interval,
)
from card_envs.evaluation.stats import wilson_interval

# -- a tiny card duel: the fake game of the end-to-end tests -----------------------------------
NAMES = ("ace", "king", "queen", "jack", "ten", "dud")
VALUES = (9, 5, 4, 3, 2, 0)
DUEL = "test_balance:make_duel"


class Duel(BalanceMixin):
    """Each seat holds a set of 3 of the 6 cards; seats 0, 1, 0, 1 each play one of their
    cards; the higher sum of the two played cards wins, equal sums draw. Action ``i`` plays card
    ``NAMES[i]``."""

    name = "duel"
    num_players = 2
    num_actions = 6
    max_game_length = 10

    def __init__(self, sets=None):
        self.sets = sets

    # the balance protocol
    def balance_deal(self, seed):
        rng = random.Random(seed)
        return [sorted(rng.sample(NAMES, 3)) for _seat in range(2)]

    def balance_config(self, sets):
        return {"sets": [list(s) for s in sets]}

    def cards_in_set(self, card_set):
        return tuple(card_set)

    def card_played(self, state, action):
        return NAMES[action]

    def balance_card_names(self):
        return {n: n.title() for n in NAMES}

    # the game
    def new_state(self, seed):
        return {"played": [[], []]}

    def current_player(self, s):
        n = len(s["played"][0]) + len(s["played"][1])
        return -1 if n == 4 else n % 2

    def legal_actions(self, s):
        p = self.current_player(s)
        if p < 0:
            return []
        return sorted(NAMES.index(c) for c in self.sets[p] if NAMES.index(c) not in s["played"][p])

    def apply_action(self, s, a):
        s["played"][self.current_player(s)].append(a)

    def is_terminal(self, s):
        return self.current_player(s) == -1

    def is_truncated(self, s):
        return False

    def returns(self, s):
        t0, t1 = (sum(VALUES[a] for a in s["played"][p]) for p in (0, 1))
        return [0.0, 0.0] if t0 == t1 else ([1.0, -1.0] if t0 > t1 else [-1.0, 1.0])


def make_duel(**config):
    return Duel(config.get("sets"))


class DuelNamedStarter(Duel):
    """The duel whose rules name seat 1 the starting player (the first decision is seat 0's)."""

    def starting_player(self, state):
        return 1


def make_duel_named_starter(**config):
    return DuelNamedStarter(config.get("sets"))


class HeuristicBot:
    """Plays its highest card (the duel's 'heuristic')."""

    name = "high-card"

    def act(self, game, state, player):
        return min(game.legal_actions(state), key=lambda a: (-VALUES[a], a))


def top_two(card_set):
    return sum(sorted((VALUES[NAMES.index(c)] for c in card_set), reverse=True)[:2])


# -- statistics on hand-computed numbers -------------------------------------------------------
def test_holm_order_adjusted_p_and_levels():
    # sorted: 0.005 (rank 1, level 0.05/4 = 0.0125: rejected), 0.01 (rank 2, 0.05/3: rejected),
    # 0.03 (rank 3, 0.05/2 = 0.025: not rejected, Holm stops), 0.04 (level frozen at 0.025)
    adjusted, levels, rejected = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert levels == pytest.approx([0.05 / 3, 0.025, 0.025, 0.0125])
    assert rejected == [True, False, False, True]


def test_holm_stops_at_the_first_non_rejection():
    # 0.04 would pass its own rank-3 level 0.05, but rank 2 (0.03 > 0.025) stopped the
    # step-down: not rejected, its adjusted p is max(0.06, 0.04) = 0.06
    adjusted, levels, rejected = holm([0.03, 0.04, 0.001], alpha=0.05)
    assert rejected == [False, False, True]
    assert adjusted == pytest.approx([0.06, 0.06, 0.003])
    assert levels == pytest.approx([0.025, 0.025, 0.05 / 3])
    with pytest.raises(ValueError, match="p-value 1 is 1.5"):
        holm([0.1, 1.5])
    with pytest.raises(ValueError, match="alpha"):
        holm([0.1], alpha=0.0)


def test_tolerance_p_value_matches_the_interval():
    # |delta| 0.15, se 0.05, tolerance 0.05: z = (0.15 - 0.05) / 0.05 = 2, p = 2 Phi(-2)
    p = tolerance_pvalue(0.15, 0.05, 0.05)
    assert p == pytest.approx(0.0455003, abs=1e-6)
    assert tolerance_pvalue(-0.15, 0.05, 0.05) == pytest.approx(p)
    # at exactly that level the interval's lower end touches the tolerance: [0.05, 0.25]
    low, high = wald_interval(0.15, 0.05, p)
    assert (low, high) == pytest.approx((0.05, 0.25), abs=1e-6)
    assert tolerance_pvalue(0.02, 0.05, 0.05) == 1.0  # inside the band: no evidence
    # the 95 % Wald interval: 0.1 +- 1.959964 * 0.02
    assert wald_interval(0.1, 0.02, 0.05) == pytest.approx((0.0608007, 0.1391993), abs=1e-6)


def test_clustered_difference_by_hand():
    # three deals of two decks; the card is in the first deck of each
    # deal 0: holder 1, other 0; deal 1: the same; deal 2: holder 0, other 1
    # m_c = 2/3, m = 1/2, delta = 1/6; U_0 = U_1 = (1 - 2/3)/3 - (1/2)/6 + (1/2)/6 = 1/9,
    # U_2 = (0 - 2/3)/3 + (1/2)/6 - (1/2)/6 = -2/9; var = 3/2 * (1 + 1 + 4)/81 = 1/9
    scores = [1, 0, 1, 0, 0, 1]
    holds = [True, False, True, False, True, False]
    deals = [0, 0, 1, 1, 2, 2]
    m_c, m, delta, se = clustered_difference(scores, holds, deals)
    assert (m_c, m, delta, se) == pytest.approx((2 / 3, 1 / 2, 1 / 6, 1 / 3))
    with pytest.raises(ValueError, match="no unit holds"):
        clustered_difference([1, 0], [False, False], [0, 1])
    with pytest.raises(ValueError, match="two clusters"):
        clustered_difference([1, 0], [True, False], [0, 0])


def test_clustered_standard_error_covers_under_the_null():
    # 30 simulated runs of 500 seat-swapped deals, 60 cards, decks of 15, no card effect but
    # "deal luck" (a deal's set 0 wins both of its games with the same chance, Beta(2, 2)): the
    # cluster-robust |delta| / se exceeds 1.96 for about 5 % of the cards (seeded: 72 of
    # 1800), and no run lists an outlier (the +-5 point test with Holm is stricter)
    from card_envs.evaluation.balance import BalanceGame, SeatResult, card_rows

    cards = [f"c{i}" for i in range(60)]
    over = tests = runs_with_outliers = 0
    for sim in range(30):
        rng = random.Random(sim)
        games = []
        for d in range(500):
            sets = [tuple(sorted(rng.sample(cards, 15))) for _ in range(2)]
            p0 = rng.betavariate(2, 2)
            for rot in range(2):
                seated = sets if rot == 0 else sets[::-1]
                y0 = 1.0 if rng.random() < (p0 if rot == 0 else 1 - p0) else 0.0
                games.append(BalanceGame(len(games), d, rot, 0, (
                    SeatResult(0, seated[0], y0, {}), SeatResult(1, seated[1], 1 - y0, {})),
                    1, False))
        _, rows = card_rows(games, tolerance=0.05, min_decks=20)
        runs_with_outliers += any(r.outlier for r in rows)
        tests += len(rows)
        over += sum(abs(r.delta) / r.se > 1.959964 for r in rows)
    assert tests == 1800 and 0.03 <= over / tests <= 0.07  # 72 / 1800 = 4.0 %
    assert runs_with_outliers == 0


def test_wilson_interval_on_a_known_count_with_draws_half():
    # 30 wins and 4 draws in 50 games: 32 successes, p = 0.64, z = 1.959964:
    # centre (0.64 + z^2/100) / (1 + z^2/50), half z sqrt(0.64*0.36/50 + z^2/10000) / (...)
    low, high = wilson_interval(30 + 0.5 * 4, 50)
    assert (low, high) == pytest.approx((0.501410, 0.758612), abs=2e-6)


# -- the report end to end on the duel ---------------------------------------------------------
def expected_duel(games: int, seed: int):
    """Every deck's result from the deal alone (each seat plays its two highest cards)."""
    jobs = balance_jobs(games, 2, seed)
    game = Duel()
    first = [0, 0]  # first player's wins, draws
    holding, scores = Counter(), Counter()
    for job in jobs:
        sets = game.balance_deal(job.seed)
        seated = sets if job.rotation == 0 else sets[::-1]
        totals = [top_two(s) for s in seated]
        result = [0.5, 0.5] if totals[0] == totals[1] else \
            ([1.0, 0.0] if totals[0] > totals[1] else [0.0, 1.0])
        first[0] += result[0] == 1.0
        first[1] += result[0] == 0.5
        for s, y in zip(seated, result):
            for c in s:
                holding[c] += 1
                scores[c] += y
    return first, holding, scores


def test_report_end_to_end_on_the_duel(tmp_path):
    report = balance_report(DUEL, games=400, seed=3, min_decks=20, progress=False)
    (wins, draws), holding, scores = expected_duel(400, 3)
    assert (report.games, report.deals, report.seats) == (400, 200, 2)
    assert (report.first_wins, report.first_draws) == (wins, draws)
    assert report.first_rate == pytest.approx((wins + 0.5 * draws) / 400)
    assert report.first_wilson == pytest.approx(wilson_interval(wins + 0.5 * draws, 400))
    assert report.overall == pytest.approx(0.5)  # a game's two scores sum to 1
    rows = {r.id: r for r in report.rows}
    assert set(rows) == set(NAMES)
    for c in NAMES:
        assert rows[c].decks == holding[c]
        assert rows[c].win_rate == pytest.approx(scores[c] / holding[c])
        assert rows[c].delta == pytest.approx(scores[c] / holding[c] - 0.5)
        assert rows[c].name == c.title()
    # the ace always makes its deck's top two; the dud never is played (two higher cards)
    assert rows["ace"].played == 1.0 and rows["ace"].plays_per_game == 1.0
    assert rows["dud"].played == 0.0
    # the ace's decks win far more than 5 points above the field, the dud's far fewer
    outliers = {r.id for r in report.outliers}
    assert {"ace", "dud"} <= outliers
    assert rows["ace"].low > 0.05 and rows["dud"].high < -0.05
    for r in report.rows:  # an outlier exactly when its Holm-level interval misses +-5
        assert r.outlier == (r.low > 0.05 or r.high < -0.05)
        assert r.outlier == (r.holm_p <= 0.05)
    assert report.rows[0].id == "ace"  # sorted by delta, highest first
    assert "first player's win rate" in report.summary()
    data = json.loads(json.dumps(report.to_dict()))
    assert data["outliers"] == [r.id for r in report.outliers]
    assert data["first_player"]["wins"] == wins
    assert len(data["cards"]) == 6
    png = balance_png(report, tmp_path / "b.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(report_tables(report)) == 3


def test_the_first_player_is_the_games_starting_player():
    # seat 1's wins and draws are the first player's when the game names seat 1 its starter
    report = balance_report("test_balance:make_duel_named_starter", games=40, seed=3,
                            progress=False)
    (wins0, draws), _, _ = expected_duel(40, 3)
    losses0 = 40 - wins0 - draws
    assert (report.first_wins, report.first_draws) == (losses0, draws)


def test_two_workers_equal_the_serial_run():
    jobs = balance_jobs(24, 2, seed=5)
    setup = BalanceSetup(DUEL, {}, "random")
    assert play_balance_games(setup, jobs, workers=2) == play_balance_games(setup, jobs, workers=1)


def test_untested_cards_and_swap_off():
    report = balance_report(DUEL, games=10, seed=0, swap=False, min_decks=1000,
                            progress=False)
    assert report.deals == 10 and not report.swap
    assert report.tested == 0 and report.outliers == []
    assert all(not r.tested and math.isnan(r.low) for r in report.rows)
    with pytest.raises(ConfigError, match="no card was dealt often enough"):
        balance_png(report, "unused.png")


@pytest.mark.parametrize("kwargs, match", [
    ({"games": 0}, "games must be an int >= 1"),
    ({"workers": 0}, "workers must be an int >= 1"),
    ({"tolerance": 0.0}, "tolerance must be a number in"),
    ({"alpha": 1.0}, "alpha must be a number in"),
    ({"min_decks": 1}, "min_decks must be an int >= 2"),
])
def test_bad_arguments_are_named(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        balance_report(DUEL, **{"progress": False, **kwargs})


def test_a_dealt_field_in_the_config_is_refused():
    # the report deals each seat's deck itself: a 'decks' in the base config would be silently
    # replaced, so it is refused, named
    with pytest.raises(ConfigError, match="the balance report deals 'decks' itself"):
        balance_report("rust_brawl", games=2, config={"decks": "random"}, progress=False)


def test_a_game_without_the_protocol_is_refused():
    with pytest.raises(ConfigError, match="'garda3' does not support the balance report: it "
                                          "implements no balance_deal, balance_config, "
                                          "cards_in_set .a game opts in by inheriting "
                                          "card_envs.core.balance.BalanceMixin"):
        balance_report("garda3", games=2, progress=False)


# -- the command ---------------------------------------------------------------------------------
def test_command_prints_and_saves(tmp_path, capsys):
    out_json, out_png = tmp_path / "b.json", tmp_path / "b.png"
    rc = cli_main(["balance", DUEL, "--games", "200", "--seed", "3", "--no-progress", "--json", str(out_json),
               "--png", str(out_png)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "first player's win rate" in text and "Ace" in text
    data = json.loads(out_json.read_text())
    assert data["games"] == 200 and "ace" in data["outliers"]
    assert out_png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, match", [
    (["garda3", "--games", "2"], "does not support the balance report"),
    ([DUEL, "--tolerance", "0"], "--tolerance must be in (0, 100) points"),
    ([DUEL, "--png", "x.jpg"], "--png 'x.jpg': the file name must end in .png"),
    ([DUEL, "--game-config", "[1]"], "--game-config"),
    # issue 21: tyro's error box condensed to one line
    ([DUEL, "--games", "abc"], "Error parsing --games: invalid literal for int() with base 10: "
                               "'abc' (see card-envs balance --help)"),
    ([DUEL, "--bogus"], "Unrecognized options: --bogus (see card-envs balance --help)"),
    ([DUEL, "--games", "0"], "--games must be >= 1, got 0"),
    ([DUEL, "--seed", "-2"], "--seed must be >= 0, got -2"),
    ([DUEL, "--min-decks", "1"], "--min-decks must be >= 2, got 1"),
])
def test_command_errors_are_one_line(argv, match, capsys):
    assert cli_main(["balance", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("card-envs balance: error: ") and match in err
    assert len(err.strip().splitlines()) == 1


def test_cli_dispatches_balance(capsys):
    assert cli_main(["balance", DUEL, "--games", "20", "--no-progress", "--min-decks", "2"]) == 0
    assert "duel" not in capsys.readouterr().err


# -- Scratch Wars implements the protocol -------------------------------------------------------
def test_scratch_wars_hooks():
    from card_envs.core.registry import make_game
    from card_envs.scratch_wars.constants import A_SPIN, PH_MAIN

    game = make_game("scratch_wars")
    sets = game.balance_deal(11)
    assert sets == game.balance_deal(11) and len(sets) == 2
    for s in sets:
        assert s["hero"] in game.catalogue.heroes and len(set(s["weapons"])) == 5
    seated = make_game("scratch_wars", **game.balance_config(sets[::-1]))
    state = seated.new_state(0)
    assert state.heroes == [sets[1]["hero"], sets[0]["hero"]]
    assert state.weapon_names[0] == sets[1]["weapons"]
    cards = game.cards_in_set(sets[0])
    assert cards[0] == f"hero:{sets[0]['hero']}" and len(cards) == 6
    names = game.balance_card_names()
    assert set(cards) <= set(names) and names[cards[1]] == sets[0]["weapons"][0]
    assert seated.starting_player(state) is None  # SW-2.2: the initiative is not spun yet
    while state.phase != PH_MAIN:  # initiative: the first legal choices
        seated.apply_action(state, seated.legal_actions(state)[0])
    assert seated.starting_player(state) == state.starter == state.turn
    spin = next(a for a in seated.legal_actions(state) if A_SPIN <= a < A_SPIN + 5)
    assert seated.card_played(state, spin) == \
        f"weapon:{state.weapon_names[state.turn][spin - A_SPIN]}"
    assert seated.card_played(state, seated.legal_actions(state)[-1]) is None  # end turn
