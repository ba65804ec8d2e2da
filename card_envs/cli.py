"""The ``card-envs`` command.

::

    card-envs games                                   # the games available in this install
    card-envs train --game garda3 --minutes 15        # = python training/ppo.py (same flags)
    card-envs evaluate --game garda3 --a runs/x/model.zip --b heuristic --games 400
    card-envs evaluate --game garda3 --a heuristic --b random --games 200 --json out.json
    card-envs evaluate --game garda3 --a runs/x/model.zip+lookahead:8 --b heuristic
    card-envs tournament --game garda3 --policies random,heuristic,runs/x/model.zip --games 100
    card-envs tournament --game garda3 --policies random,heuristic --gauntlet ismcts:100 \
        --deals 50 --workers 2 --json t.json --png t.png
    card-envs sprt --game garda3 --a heuristic+lookahead --b heuristic --elo0 0 --elo1 40
    card-envs tournament --game garda3 --policies random,heuristic --deals 5000 --address auto
    card-envs play garda3 --opponent heuristic        # play a game yourself (card-envs play -h)
    card-envs replay game-garda3-7.json               # step through a saved game record
    card-envs deck check my_deck.toml                 # a Rust Brawl deck list: legal? points?
    card-envs balance rust_brawl --games 10000 --workers 2 --json b.json --png b.png
                                                      # card-balance report (card-envs balance -h)

Policy specs for ``--a``/``--b``: ``random``, ``heuristic``, a MaskablePPO ``.zip`` (or a run
folder holding ``model.zip``), or ``package.module:name`` (its signature is checked: an
``(observation, action_mask)`` callable or an object with ``act(game, state, player)``), each
optionally followed by ``+lookahead[:N]`` (decision-time rollouts, N in 1..4096, see
:mod:`card_envs.bots.specs`). ``--policies`` is a comma-separated list without empty
entries. ``--game-config`` is a JSON object nested at most 100 levels (``MAX_JSON_DEPTH``), without
integers too long for Python to convert. Models play deterministically with their action masks; A
takes every seat equally often and every deal is played once with A in each seat. Results are
printed as tables (rich); ``--json`` also writes them to a file. ``tournament``, ``sprt`` and
``balance`` play through one backend, :mod:`card_envs.evaluation.pool`: ``--workers N`` local
processes, or ``--address ADDRESS`` Ray tasks (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``, or
``local`` for a Ray started in this process), results equal to the serial run's either way;
forfeits for policies that fail, a progress bar on stderr.

A user error (a bad flag value, a flag argparse cannot read, an unknown game or policy spec, a
file that is not a model or not of this game, a ``--game module:attr`` that is not a game
factory, a ``--json`` / ``--png`` path that cannot be written, ``--elo0 >= --elo1``, an
``--alpha`` / ``--beta`` outside (0, 0.5), an ``--address`` that is malformed or where no Ray
cluster answers, ray missing for ``--address``) prints one ``error:`` line on stderr and exits 2
before any game is played.
``card-envs games`` exits 1, naming the module and its ImportError, when a registered game fails
to import (a broken installation).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from card_envs.cli_help import (
    ADDRESS_HELP,
    EVALUATE_HELP,
    MAIN_HELP,
    SPRT_HELP,
    TOURNAMENT_HELP,
)
from card_envs.core.errors import CardEnvsError, ConfigError
from card_envs.evaluation.pool import check_address


def _console():
    """A rich console on the current ``sys.stdout``: no markup (policy specs and intervals hold
    brackets), no highlighting; piped output is not wrapped (wide enough for long specs)."""
    from rich.console import Console

    tty = sys.stdout.isatty()
    return Console(file=sys.stdout, markup=False, highlight=False, emoji=False,
                   width=None if tty else 200, soft_wrap=not tty)


def _table(*columns: str, title: str | None = None):
    """A rich table; columns named ``">name"`` are right-aligned (numbers)."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", show_edge=False,
                  pad_edge=False)
    for col in columns:
        right = col.startswith(">")
        table.add_column(col[1:] if right else col, justify="right" if right else "left",
                         no_wrap=True)
    return table


def _cmd_games(_args) -> int:
    """The registered games that import here (a plugin's game that fails: a warning line on
    stderr, the others listed); ``seats``: the range over the default config and the game's
    registered variants; ``from``: ``card-envs`` or the plugin's distribution."""
    from card_envs.core.registry import ENTRIES, ENV_MODULES, available_games, make_game

    table = _table("game", "env module", ">seats", ">actions", ">version", "from")
    for name in available_games():
        entry = ENTRIES.get(name)
        try:
            game = make_game(name)
        except ConfigError as exc:
            if entry is None or not entry.origin:
                raise
            print(f"card-envs games: warning: {exc}", file=sys.stderr)
            continue
        seats = sorted({game.num_players} | {_variant_seats(name, v)
                                             for v in getattr(entry, "variants", ())} - {None})
        table.add_row(name, ENV_MODULES.get(name, "-"),
                      str(seats[0]) if len(seats) == 1 else f"{seats[0]}–{seats[-1]}",
                      str(game.num_actions), str(game.version),
                      getattr(entry, "distribution", "") or "card-envs")
    _console().print(table)
    return 0


def _variant_seats(name: str, config: dict) -> int | None:
    """The seat count of game ``name`` in its registered variant ``config`` (``None`` if that
    variant does not build here)."""
    from card_envs.core.registry import make_game

    try:
        return make_game(name, **config).num_players
    except ConfigError:
        return None


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """``warnings.showwarning`` of the command: a game plugin's warning as one line
    (``card-envs: warning: game plugin ... failed to load ...``), no source line."""
    from card_envs.core.registry import PluginWarning

    if issubclass(category, PluginWarning):
        print(f"card-envs: warning: {message}", file=file or sys.stderr)
        return
    _SHOW_WARNING[0](message, category, filename, lineno, file, line)


_SHOW_WARNING: list = []


def _game_config(args) -> dict:
    """``--game-config`` as a dict; ConfigError naming it otherwise (bad JSON, not an object,
    nested too deeply, an integer too long: :func:`card_envs.core.config.parse_json_config`)."""
    from card_envs.core.config import parse_json_config

    return parse_json_config(args.game_config, "--game-config")


def _policy_list(text: str) -> list[str]:
    """``--policies a,b,c`` as specs; ConfigError naming the position of an empty entry
    (``random,,heuristic``, a trailing comma)."""
    specs = [p.strip() for p in text.split(",")]
    for i, spec in enumerate(specs, 1):
        if not spec:
            raise ConfigError(f"--policies {text!r}: entry {i} of {len(specs)} is empty (write "
                              "comma-separated specs such as random,heuristic)")
    return specs


def _check_games(args) -> None:
    if args.games < 1:
        raise ConfigError(f"--games must be >= 1, got {args.games}")


#: the largest |elo0| / |elo1| the SPRT takes: beyond it the expected pair score rounds to the
#: ends of the pentanomial scale and the likelihood ratio is undefined
MAX_SPRT_ELO = 1200


def _check_json_target(path_text: str, flag: str = "--json") -> None:
    """``--json PATH`` (or ``--png PATH``) must be writable before any game is played: not a
    directory, its folder existing and writable (the file is created only when the results are
    written)."""
    if not path_text:
        return
    path = Path(path_text)
    example = "result.json" if flag == "--json" else "result.png"
    if flag == "--png" and path.suffix.lower() != ".png":
        raise ConfigError(f"--png {path_text!r}: the file name must end in .png (e.g. "
                          f"{str(path.with_suffix('.png'))!r})")
    if path.is_dir():
        raise ConfigError(f"{flag} {path_text!r} is a directory; give a file name such as "
                          f"{str(path / example)!r}")
    folder = path.parent
    if not folder.is_dir():
        raise ConfigError(f"{flag} {path_text!r}: the folder {str(folder)!r} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise ConfigError(f"{flag} {path_text!r}: the file is not writable")
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"{flag} {path_text!r}: the folder {str(folder)!r} is not writable")


def _write_json(path_text: str, data: dict) -> None:
    try:
        with open(path_text, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
    except OSError as exc:
        raise ConfigError(f"--json {path_text!r}: cannot write the results: "
                          f"{exc.strerror or exc}") from None


def _interval(lo: float, hi: float) -> str:
    return f"[{lo:.1%}, {hi:.1%}]"


def _cmd_evaluate(args) -> int:
    from card_envs.evaluation.evaluate import evaluate, report

    config = _game_config(args)
    _check_games(args)
    _check_count("--seed", args.seed, 0)
    _check_json_target(args.json)
    if not args.unpaired:
        from card_envs.evaluation.policies import resolve_game

        seats = resolve_game(args.game, config).num_players
        if args.games % seats:
            raise ConfigError(f"--games {args.games}: not a multiple of the game's {seats} seats "
                              "(each deal is played once with A in every seat); give a multiple "
                              "or --unpaired")
    t0 = time.time()
    result = evaluate(args.game, args.a, args.b, games=args.games, seed=args.seed, config=config,
                      paired=not args.unpaired, progress=not args.no_progress)
    console = _console()
    console.print(f"{args.game}: {report(result, args.a, args.b)}")
    iv = result.intervals()
    table = _table("A's result", ">games", ">rate", ">95% Wilson")
    for key, count, rate in (("win", result.wins, result.win_rate),
                             ("draw", result.draws, result.draw_rate),
                             ("loss", result.losses, result.loss_rate)):
        table.add_row(key, str(count), f"{rate:.1%}", _interval(*iv[key]))
    console.print(table)
    console.print()
    if result.units and result.returns:  # returns not ±1 (chips, score): their mean too
        mean, lo, hi = result.mean_return()
        returns = _table(f"A's return ({result.units})", ">games", ">mean",
                         ">95% interval (normal)")
        returns.add_row("per game", str(len(result.returns)), f"{mean:+.3f}",
                        f"[{lo:+.3f}, {hi:+.3f}]")
        console.print(returns)
        console.print()
    seats = _table("A's seat", ">games", ">wins", ">draws", ">losses", ">win rate")
    for seat, (w, d, lo) in sorted(result.per_seat.items()):
        n = w + d + lo
        seats.add_row(str(seat), str(n), str(w), str(d), str(lo), f"{w / n:.1%}")
    console.print(seats)
    console.print(f"({time.time() - t0:.1f}s)")
    if args.json:
        _write_json(args.json, {"game": args.game, "game_config": config, "a": args.a,
                                "b": args.b, "seed": args.seed, **result.to_dict()})
    return 0


def _where(args) -> str:
    """Where the games ran, for the closing line: ``2 worker(s)`` or ``Ray at ADDRESS``."""
    if args.address:
        return f"Ray at {args.address}" + (f", {args.workers} tasks at once" if args.workers
                                           else "")
    return f"{args.workers or 1} worker(s)"


def _check_count(flag: str, value, low: int = 1) -> None:
    """ConfigError unless ``value`` (an int flag) is ``None`` or >= ``low``."""
    if value is not None and value < low:
        raise ConfigError(f"{flag} must be >= {low}, got {value}")


def _print_all(console, renderables) -> None:
    for item in renderables:
        console.print(item)


def _cmd_tournament(args) -> int:
    import math

    from card_envs.core.registry import resolve_game
    from card_envs.evaluation.report import tournament_tables
    from card_envs.evaluation.tournament import tournament

    config = _game_config(args)
    for flag, value in (("--games", args.games), ("--deals", args.deals),
                        ("--workers", args.workers), ("--bootstrap", args.bootstrap)):
        _check_count(flag, value)
    _check_count("--seed", args.seed, 0)
    check_address(args.address)
    if args.games is not None and args.deals is not None:
        raise ConfigError("give --deals or --games, not both (--games N plays ceil(N / seats) "
                          "deals per pair)")
    _check_json_target(args.json)
    _check_json_target(args.png, "--png")
    policies = _policy_list(args.policies) if args.policies else []
    if args.gauntlet is not None and not args.gauntlet.strip():
        raise ConfigError("--gauntlet needs a policy spec")
    deals = args.deals
    if deals is None:
        seats = resolve_game(args.game, config).num_players
        deals = math.ceil((args.games or 100) / seats)
    t0 = time.time()
    t = tournament(args.game, policies, deals=deals, seed=args.seed, config=config,
                   gauntlet=args.gauntlet.strip() if args.gauntlet else None,
                   workers=args.workers, progress=not args.no_progress,
                   resamples=args.bootstrap, address=args.address)
    console = _console()
    _print_all(console, tournament_tables(t))
    console.print(f"({time.time() - t0:.1f}s, {_where(args)})")
    if args.json:
        _write_json(args.json, {"game_config": config, **t.to_dict()})
        console.print(f"JSON: {args.json}")
    if args.png:
        from card_envs.evaluation.plots import tournament_png

        console.print(f"PNG: {tournament_png(t, args.png)}")
    return 0


def _cmd_sprt(args) -> int:
    import math

    from card_envs.evaluation.report import sprt_tables
    from card_envs.evaluation.sequential import run_sprt

    config = _game_config(args)
    for flag, value in (("--elo0", args.elo0), ("--elo1", args.elo1)):
        if not math.isfinite(value):
            raise ConfigError(f"{flag} must be a finite number, got {value}")
        if abs(value) > MAX_SPRT_ELO:
            raise ConfigError(f"{flag} must lie in [-{MAX_SPRT_ELO}, {MAX_SPRT_ELO}] Elo (an "
                              f"expected score of 0.000 .. 0.999), got {value:g}")
    if not args.elo0 < args.elo1:
        raise ConfigError(f"--elo0 must be below --elo1 (H0 says A gains less than H1 does), "
                          f"got --elo0 {args.elo0:g} >= --elo1 {args.elo1:g}")
    for flag, value in (("--alpha", args.alpha), ("--beta", args.beta)):
        if not 0.0 < value < 0.5:
            raise ConfigError(f"{flag} must be in (0, 0.5) (an error rate), got {value:g}")
    _check_count("--max-games", args.max_games, 2)
    _check_count("--workers", args.workers)
    _check_count("--seed", args.seed, 0)
    check_address(args.address)
    _check_json_target(args.json)
    t0 = time.time()
    result = run_sprt(args.game, args.a, args.b, elo0=args.elo0, elo1=args.elo1,
                      alpha=args.alpha, beta=args.beta, max_games=args.max_games,
                      seed=args.seed, config=config, workers=args.workers,
                      progress=not args.no_progress, address=args.address)
    console = _console()
    _print_all(console, sprt_tables(result))
    console.print(f"({time.time() - t0:.1f}s, {_where(args)})")
    if args.json:
        _write_json(args.json, {"game": args.game, "game_config": config, **result.to_dict()})
    return 0


def _cmd_deck(args) -> int:
    """``card-envs deck check FILE`` / ``card-envs deck list``: Rust Brawl deck lists (RB-1)."""
    from card_envs.core.table import cards
    from card_envs.rust_brawl.cards import load_card_db
    from card_envs.rust_brawl.decks import deck_points, load_deck, shipped_decks

    db = load_card_db(args.card_db)
    console = _console()
    if args.deck_command == "list":
        table = _table("deck", ">cards", ">points", "description", title="shipped decks")
        for name, deck in shipped_decks(db).items():
            table.add_row(name, str(len(deck.cards)), str(deck_points(deck, db)),
                          deck.description)
        console.print(table)
        return 0
    deck = load_deck(args.file, db, point_limit=args.point_limit)
    table = _table(">n", "card", "id", "kind", ">points", ">subtotal",
                   title=f"deck {deck.name!r} ({deck.source})")
    for card_id, n in deck.counts().items():
        card = db.by_id(card_id)
        table.add_row(str(n), card.name, card.id, f"{card.kind} ({card.icon})",
                      str(card.points), str(n * card.points))
    console.print(table)
    print(f"{cards(len(deck.cards))}, {deck_points(deck, db)} of {args.point_limit} points: a "
          "legal deck (RB-1.1, RB-1.2)")
    return 0


def _cmd_balance(argv: list[str], prog: str = "card-envs balance") -> int:
    """``card-envs balance GAME ...``: the card-balance report
    (:mod:`card_envs.evaluation.balance`; flags: its :class:`BalanceArgs`, parsed by tyro). A user
    error prints one ``error:`` line and returns 2 before any game is played; tyro missing: 1."""
    import importlib.util

    if importlib.util.find_spec("tyro") is None:
        print(f"{prog}: error: the flags need tyro (pip install tyro, or the package's 'train' "
              "extra)", file=sys.stderr)
        return 1
    import tyro

    from card_envs.evaluation.balance import (
        DESCRIPTION,
        BalanceArgs,
        balance_png,
        balance_report,
        report_tables,
    )
    from card_envs.training.entry import parse_in_one_line

    try:  # tyro's error box as one error line (--help passes through)
        args = parse_in_one_line(lambda: tyro.cli(
            BalanceArgs, args=argv, prog=prog, description=DESCRIPTION,
            config=(tyro.conf.PositionalRequiredArgs,)), prog)
    except SystemExit as exc:
        if exc.code in (0, None):
            raise
        return 2
    try:
        config = _game_config(args)
        _check_json_target(args.json)
        _check_json_target(args.png, "--png")
        if not 0.0 < args.tolerance < 100.0:
            raise ConfigError(f"--tolerance must be in (0, 100) points, got {args.tolerance:g}")
        if args.rows < 0:
            raise ConfigError(f"--rows must be >= 0, got {args.rows}")
        _check_count("--workers", args.workers)
        _check_count("--games", args.games)
        _check_count("--seed", args.seed, 0)
        _check_count("--min-decks", args.min_decks, 2)
        check_address(args.address)
        report = balance_report(args.game, games=args.games, seed=args.seed, config=config,
                                policy=args.policy, workers=args.workers, swap=args.swap,
                                tolerance=args.tolerance / 100.0, alpha=args.alpha,
                                min_decks=args.min_decks, progress=args.progress,
                                address=args.address)
        console = _console()
        _print_all(console, report_tables(report, limit=args.rows or None))
        console.print(f"({report.seconds:.1f}s, {_where(args)})")
        if args.json:
            _write_json(args.json, report.to_dict())
            console.print(f"JSON: {args.json}")
        if args.png:
            console.print(f"PNG: {balance_png(report, args.png)}")
    except (CardEnvsError, FileNotFoundError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``card-envs sprt: error: argument --elo0: invalid float
    value: 'x' (see card-envs sprt --help)``, exit 2 (subcommand parsers inherit it)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions kept as written; a flag's default shown after its help unless it has none
    (required, off, empty) or the help already says it."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if action.required or default is None or default is False or default == "" \
                or default == argparse.SUPPRESS or "default" in text:
            return text
        return f"{text} (default: {default})"


def _add_play_parsers(sub) -> None:
    """The ``play`` and ``replay`` subcommands (their logic: card_envs.evaluation.play/replay)."""
    from textwrap import fill

    fmt = argparse.RawDescriptionHelpFormatter
    pl = sub.add_parser(
        "play", help="play a game yourself in the terminal against a policy", formatter_class=fmt,
        description=fill("Play a game yourself in the terminal against a policy. You see "
                         "only your seat's view (your own cards; the others' hidden cards as "
                         "counts), the other seats' moves since your last decision and your "
                         "legal moves by number. Type a number to play that move; 'undo' takes "
                         "back your last decision, 'view' shows the position again, '?' lists "
                         "the commands, 'q' stops. The game is saved as a record that "
                         "'card-envs replay' shows.", 90),
        epilog="examples:\n"
               "  card-envs play garda3 --opponent heuristic\n"
               "  card-envs play garda3 --game-config '{\"variant\": \"night\"}' --opponent random "
               "--seat 1 --seed 7\n"
               "  card-envs play dirt_and_glory --game-config '{\"num_players\": 3}'\n"
               "  card-envs play scratch_wars --opponent runs/x/model.zip --record my-game.json\n\n"
               "exit status: 0 the game was played to its end; 1 it was left unfinished (q, end "
               "of input, Ctrl-C: the\nunfinished game is saved, if a move was played); 2 a user "
               "error (one error line, nothing played).")
    pl.add_argument("game", help="the game: a registered name ('card-envs games' lists them, "
                                 "games of other installed packages included) or "
                                 "module:factory")
    pl.add_argument("--game-config", default="{}", metavar="JSON",
                    help="the game's config as a JSON object, e.g. '{\"variant\": \"night\"}' "
                         "(default: {}, the game's defaults)")
    pl.add_argument("--opponent", default="heuristic", metavar="SPEC",
                    help="the policy playing every other seat: random, heuristic, a model .zip or "
                         "run folder, module:callable, each optionally +lookahead[:N] "
                         "(default: heuristic)")
    pl.add_argument("--seat", type=int, default=0, metavar="K",
                    help="your seat, 0 .. seats-1 (default: 0)")
    pl.add_argument("--seed", type=int, default=None, metavar="S",
                    help="the deal's seed, 0 .. 2**64-1: the same seed, the same deal "
                         "(default: a random seed, printed)")
    pl.add_argument("--record", default=None, metavar="FILE",
                    help="where the game record is saved, a new file: a record is never "
                         "overwritten (default: game-<game>-<seed>.json in the current folder, "
                         "or game-<game>-<seed>-2.json, -3, ... when it exists)")
    rp = sub.add_parser(
        "replay", help="step through a saved game record", formatter_class=fmt,
        description=fill("Step through a saved game record move by move, showing the "
                         "position after each move as text (Enter: the next move, q: quit). The "
                         "record is checked first: this installation's game version, every move "
                         "legal, the replay reaching the recorded outcome; a record that fails, "
                         "or a file that is not a record, is refused with one error line (exit "
                         "2). At the end: the outcome check and the final state's digest (the "
                         "one 'card-envs play' printed).", 90),
        epilog="examples:\n"
               "  card-envs replay game-garda3-7.json\n"
               "  card-envs replay game-garda3-7.json --to-end --seat 1\n"
               "  card-envs replay game-my_game-3.json --game my_game:make_game")
    rp.add_argument("record", help="the record file ('card-envs play' saves one: "
                                   "game-<game>-<seed>.json)")
    rp.add_argument("--to-end", action="store_true",
                    help="print every move at once instead of waiting for Enter before each "
                         "(default: wait)")
    rp.add_argument("--seat", type=int, default=None, metavar="K",
                    help="show only seat K's view and the moves as seat K saw them (default: "
                         "the whole state, every card)")
    rp.add_argument("--game", default=None, metavar="SPEC",
                    help="the factory of a game not registered here (module:factory, as given "
                         "to 'card-envs play'); default: the registered game the record names")


def _cmd_play(args) -> int:
    from card_envs.evaluation.play import play_command

    return play_command(args.game, _game_config(args), opponent=args.opponent, seat=args.seat,
                        seed=args.seed, record=args.record)


def _cmd_replay(args) -> int:
    from card_envs.evaluation.replay import replay_in_terminal

    return replay_in_terminal(args.record, seat=args.seat, to_end=args.to_end, game=args.game)


def main(argv: list[str] | None = None) -> int:
    """The ``card-envs`` command; returns the exit status (Ctrl-C: 130, one line). A game
    plugin that fails to load is one warning line on stderr (:func:`_show_warning`)."""
    import warnings

    _SHOW_WARNING[:] = [warnings.showwarning]
    warnings.showwarning = _show_warning
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("card-envs: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return reader_left()
    finally:
        warnings.showwarning = _SHOW_WARNING[0]


def reader_left() -> int:
    """What to do on ``BrokenPipeError``: the reader of stdout left (``card-envs train --help |
    head``). Points stdout at ``os.devnull`` so the interpreter's final flush does not fail again
    on the pipe (as the Python docs advise) and returns the exit status 1."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1


def run_script(main) -> None:
    """Run a script's ``main(argv) -> int`` on ``sys.argv[1:]`` and exit with its status; a
    reader leaving the pipe (``... | head``) exits through :func:`reader_left` instead of a
    ``BrokenPipeError`` traceback. For the scripts under ``scripts/``."""
    try:
        status = main(sys.argv[1:])
    except BrokenPipeError:
        status = reader_left()
    sys.exit(status)


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "" not in sys.path and os.getcwd() not in sys.path:
        # module:factory and module:Class specs name the user's own modules, found from the
        # current folder as under `python -m` (the installed script alone would not see them)
        sys.path.insert(0, os.getcwd())
    parser = _Parser(prog="card-envs", description=MAIN_HELP,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("games", help="list the games available in this installation",
                   description="List the games of this installation: name, env module, seats, "
                               "actions, version. Example: card-envs games")

    sub.add_parser("train", help="MaskablePPO league self-play, or expert iteration with "
                                 "--method exit (flags: card-envs train [--method exit] --help)",
                   add_help=False)

    ev = sub.add_parser("evaluate", help="play N seat-swapped games between two policies",
                        formatter_class=_HelpFormatter, description=EVALUATE_HELP)
    ev.add_argument("--game", required=True, help="game name (card-envs games) or module:factory")
    ev.add_argument("--game-config", default="{}", help="the game's config as a JSON object")
    ev.add_argument("--a", required=True, help="policy A (the one reported)")
    ev.add_argument("--b", required=True, help="policy B (plays every other seat)")
    ev.add_argument("--games", type=int, default=400,
                    help="number of games (a multiple of the seats, unless --unpaired)")
    ev.add_argument("--seed", type=int, default=0, help="base seed of the deals (>= 0)")
    ev.add_argument("--unpaired", action="store_true",
                    help="a fresh deal every game instead of each deal once per seat")
    ev.add_argument("--json", default="", metavar="PATH",
                    help="also write the result to this JSON file")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    tr = sub.add_parser(
        "tournament", help="round robin or gauntlet between policies, rated (Elo, openskill)",
        formatter_class=_HelpFormatter, description=TOURNAMENT_HELP)
    tr.add_argument("--game", required=True, help="game name (card-envs games) or module:factory")
    tr.add_argument("--game-config", default="{}", help="the game's config as a JSON object")
    tr.add_argument("--policies", default="",
                    help="comma-separated policy specs (the entrants); see 'policy specs' above")
    tr.add_argument("--gauntlet", default=None, metavar="SPEC",
                    help="play only SPEC against every --policies entrant (SPEC may be one of "
                         "them or an extra one); default: every pair (round robin)")
    tr.add_argument("--deals", type=int, default=None,
                    help="duplicate deals per pair; each is played once per seat arrangement, "
                         "so a pair plays deals x seats games (default: from --games)")
    tr.add_argument("--games", type=int, default=None,
                    help="games per pair, rounded up to whole deals (default 100 when --deals "
                         "is not given)")
    tr.add_argument("--seed", type=int, default=0,
                    help="base seed of the deals (>= 0): equal seeds play equal deals")
    tr.add_argument("--workers", type=int, default=None, metavar="N",
                    help="worker processes (default 1: this process); with --address, Ray "
                         "tasks at once (default: every CPU of the Ray); the results equal the "
                         "serial run's")
    tr.add_argument("--address", default="", metavar="ADDRESS", help=ADDRESS_HELP)
    tr.add_argument("--bootstrap", type=int, default=1000,
                    help="bootstrap resamples of the deals for the Elo intervals")
    tr.add_argument("--json", default="", metavar="PATH",
                    help="also write the results (every game included) to this JSON file")
    tr.add_argument("--png", default="", metavar="PATH",
                    help="also draw the score heat map and the ratings to this PNG "
                         "(needs matplotlib)")
    tr.add_argument("--no-progress", action="store_true",
                    help="no progress bar on stderr")

    sp = sub.add_parser(
        "sprt", help="sequential test: is A better than B? (pentanomial GSPRT, as fishtest)",
        formatter_class=_HelpFormatter, description=SPRT_HELP)
    sp.add_argument("--game", required=True, help="a two-seat game name or module:factory")
    sp.add_argument("--game-config", default="{}", help="the game's config as a JSON object")
    sp.add_argument("--a", required=True, help="policy A, the candidate (its Elo gain is tested)")
    sp.add_argument("--b", required=True, help="policy B, the baseline")
    sp.add_argument("--elo0", type=float, default=0.0,
                    help="H0: A is elo0 logistic Elo better than B")
    sp.add_argument("--elo1", type=float, default=20.0,
                    help="H1: A is elo1 Elo better (elo1 > elo0)")
    sp.add_argument("--alpha", type=float, default=0.05,
                    help="type-I error: chance to accept H1 when H0 holds, in (0, 0.5)")
    sp.add_argument("--beta", type=float, default=0.05,
                    help="type-II error: chance to accept H0 when H1 holds, in (0, 0.5)")
    sp.add_argument("--max-games", type=int, default=20_000,
                    help="stop undecided ('inconclusive') after this many games (pairs of two)")
    sp.add_argument("--seed", type=int, default=0, help="base seed of the deals (>= 0)")
    sp.add_argument("--workers", type=int, default=None, metavar="N",
                    help="worker processes (default 1: this process); with --address, Ray "
                         "tasks at once (default: every CPU of the Ray); the decision and "
                         "counts equal the serial run's")
    sp.add_argument("--address", default="", metavar="ADDRESS", help=ADDRESS_HELP)
    sp.add_argument("--json", default="", metavar="PATH",
                    help="also write the result to this JSON file")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    _add_play_parsers(sub)

    dk = sub.add_parser(
        "deck", help="check a Rust Brawl deck list (RB-1) or list the shipped decks",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Rust Brawl deck lists. A deck file is TOML:\n\n"
                    "  name = \"my deck\"\n  [cards]\n  \"Šrotmistr Majlosh\" = 1   # card name "
                    "as printed, or its id = copies\n  elitni_sekernik = 2\n\n"
                    "examples:\n  card-envs deck check my_deck.toml\n"
                    "  card-envs deck check my_deck.toml --point-limit 300\n  card-envs deck list")
    dsub = dk.add_subparsers(dest="deck_command", required=True)
    ck = dsub.add_parser(
        "check", formatter_class=_HelpFormatter,
        help="validate a deck file: at most 2 copies, unique cards once, the point limit",
        description="Validate a deck list against RB-1.1 (at least 1 card, at most 2 copies of a "
                    "card, a unique card once) and RB-1.2 (the point total at most the limit); "
                    "print its cards and point total. An illegal or malformed deck prints one "
                    "error line naming the card and the rule, exit 2.")
    ck.add_argument("file", metavar="FILE", help="the deck file (TOML), or a shipped deck name")
    ck.add_argument("--point-limit", type=int, default=250, metavar="N",
                    help="the deck point limit (config deck_point_limit)")
    ck.add_argument("--card-db", default=None, metavar="PATH",
                    help="a card-data TOML file instead of the shipped database")
    ls = dsub.add_parser("list", formatter_class=_HelpFormatter,
                         help="the shipped decks with their point totals",
                         description="List the shipped Rust Brawl decks (cards, points).")
    ls.add_argument("--card-db", default=None, metavar="PATH",
                    help="a card-data TOML file instead of the shipped database")

    sub.add_parser("balance", help="card-balance report over random legal decks (flags: "
                                   "card-envs balance --help)", add_help=False)

    if argv and argv[0] == "balance":  # the flags: card_envs.evaluation.balance.BalanceArgs
        return _cmd_balance(argv[1:])
    if argv and argv[0] == "train":  # the training flags belong to card_envs.training
        return _cmd_train(argv[1:])
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the subcommand given them: "card-envs evaluate: error: ..."
        where = sub.choices[args.command]
        if args.command == "deck":
            where = dsub.choices[args.deck_command]
        if any(argv.index(u) < argv.index(args.command) for u in unknown):
            where = parser  # before the subcommand: the top-level parser's
        where.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        if args.command == "games":
            try:
                return _cmd_games(args)
            except ImportError as exc:  # a broken installation, not a user error
                print(f"card-envs games: error: {exc}", file=sys.stderr)
                return 1
        if args.command in ("play", "replay"):
            return _cmd_play(args) if args.command == "play" else _cmd_replay(args)
        if args.command == "tournament":
            return _cmd_tournament(args)
        if args.command == "sprt":
            return _cmd_sprt(args)
        if args.command == "deck":
            return _cmd_deck(args)
        return _cmd_evaluate(args)
    except (CardEnvsError, FileNotFoundError) as exc:  # a user error: the message, no traceback
        print(f"card-envs {args.command}: error: {exc}", file=sys.stderr)
        return 2


#: the training methods of ``card-envs train --method``: the module whose ``main`` runs each
TRAIN_METHODS = {"ppo": "card_envs.training.ppo", "exit": "card_envs.training.exit"}


def _cmd_train(argv: list[str]) -> int:
    """``card-envs train [--method ppo|exit] FLAGS``: ``--method`` (default ``ppo``) picks the
    trainer, the other flags are its own; an unknown method is one error line, exit 2."""
    import importlib

    method, rest, i = "ppo", [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--method":
            if i + 1 >= len(argv):
                print("card-envs train: error: --method needs a value: "
                      f"{' or '.join(TRAIN_METHODS)}", file=sys.stderr)
                return 2
            method, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--method="):
            method = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    if method not in TRAIN_METHODS:
        print(f"card-envs train: error: --method {method!r}: must be one of "
              f"{', '.join(TRAIN_METHODS)}", file=sys.stderr)
        return 2
    prog = "card-envs train" + ("" if method == "ppo" else f" --method {method}")
    return importlib.import_module(TRAIN_METHODS[method]).main(rest, prog=prog)


if __name__ == "__main__":
    sys.exit(main())
