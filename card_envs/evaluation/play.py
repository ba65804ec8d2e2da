"""Play a game yourself in the terminal against policies (``card-envs play``).

::

    card-envs play garda3 --opponent heuristic
    card-envs play garda3 --game-config '{"variant": "night"}' --opponent random --seat 1
    card-envs play dirt_and_glory --game-config '{"num_players": 3}' --opponent heuristic

You take one seat (``--seat``, default 0); every other seat is played by the ``--opponent``
policy (a spec as in :mod:`card_envs.bots.specs`: ``random``, ``heuristic``, a model
``.zip``, ``module:callable``, ``+lookahead``), each seat its own instance seeded from the game's
seed. Before each of your decisions you see:

- your previous move and the other seats' moves since, as your seat saw them
  (``Game.action_seen_by``: a card played face down is not named), each with what it did
  (``Game.effects_seen_by``: a battle's damage, a spin's segment, the cards drawn);
- your seat's view (``Game.render_view``: your own cards, the public ones, the others' hidden
  cards only as counts);
- your legal moves, numbered from 1, by name (``Game.action_to_string``).

Type a move's number, or a command: ``undo`` (``u``) takes back your last decision (and the
opponents' moves after it: the game, the chance RNG and the opponents are restored by replaying
the game from its seed with fresh copies of the opponents, so the same move gets the same
answers); ``view`` (``v``) shows the position again; ``help`` (``?``) lists the commands; ``quit``
(``q``) stops. A wrong entry (not a number, out of range, empty) gets a one-line hint and the
question again.

The game is saved as a record (:mod:`card_envs.core.records`; ``card-envs replay FILE`` shows
it): by default ``game-<game>-<seed>.json`` in the current folder. A record is never overwritten:
when that file exists (the same seed played again in the same folder) the game goes to the first
free ``game-<game>-<seed>-2.json``, ``-3``, ... (said at the start); an existing file given with
``--record`` is refused before the first move; a file of that name written by something else
during the game is kept, and this game saved under the next free name (said). A game left
unfinished (``quit``, end of input, Ctrl-C) is saved too, as an unfinished record (``outcome:
null``; it replays to the position reached), unless no move was played yet (then nothing is
written).
"""

from __future__ import annotations

import copy
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

from card_envs.core.errors import ConfigError, IllegalActionError
from card_envs.core.records import record_of
from card_envs.core.rng import NOT_A_GAME_SEED, is_game_seed
from card_envs.evaluation.replay import check_seat, outcome_text, state_digest

#: the commands at the move prompt (besides a move's number), for ``help``
COMMANDS = (
    ("<number>", "play the move of that number"),
    ("undo, u", "take back your last decision (and the opponents' moves after it)"),
    ("view, v", "show the position and your moves again"),
    ("help, ?", "this list"),
    ("quit, q", "stop here (the unfinished game is saved; Ctrl-C and end of input do the same)"),
)

#: longest entry read as a move number (a longer run of digits is out of range anyway)
_MAX_DIGITS = 9


class PlaySession:
    """One game of a human in seat ``seat`` against opponent policies, with undo.

    The opponents are made once per seat by ``make_opponent(seat)``; undo replays the game from
    its seed with deep copies of those pristine opponents (a fresh ``make_opponent`` call when
    one cannot be copied), asking them again at each of their decisions, so their internal
    state (an RNG, a lookahead's sampler) is exactly what it was at the restored decision.

    Attributes:
        state: the current state; actions: every action applied, in order.
        reproducible: ``False`` once an opponent, replayed for an undo, chose differently than
            in the game (its randomness is not its own seeded RNG): the position is still
            restored exactly, its next answers may differ.
    """

    def __init__(self, game, seat: int, seed: int, make_opponent: Callable[[int], object]):
        check_seat(game, seat)
        self.game, self.seat, self.seed = game, seat, seed
        self.make_opponent = make_opponent
        self._pristine = {p: make_opponent(p) for p in range(game.num_players) if p != seat}
        self.actions: list[int] = []
        self.reproducible = True
        self._human_steps: list[int] = []  # index into actions of each human decision
        self._seen: list[list[str]] = []  # the other seats' moves shown before each of them
        self.pending: list[str] = []  # the human's last move, the others' since, with effects
        self.state = game.new_state(seed)
        self.opponents = self._fresh_opponents()

    def _fresh_opponents(self) -> dict[int, object]:
        out = {}
        for p, policy in self._pristine.items():
            try:
                out[p] = copy.deepcopy(policy)
            except Exception:  # noqa: BLE001 - an uncopyable policy: build a new one
                out[p] = self.make_opponent(p)
        return out

    @property
    def over(self) -> bool:
        """The game ended (by its rules, or at the decision cap ``max_game_length``)."""
        return self.game.is_terminal(self.state) or \
            len(self.actions) >= self.game.max_game_length

    @property
    def decisions(self) -> int:
        """How many decisions the human has taken (and not taken back)."""
        return len(self._human_steps)

    def _opponent_action(self, p: int) -> int:
        game, state = self.game, self.state
        policy = self.opponents[p]
        a = policy.act(game, state, p)
        if a not in game.legal_actions(state):
            raise IllegalActionError(
                f"opponent {getattr(policy, 'name', policy)!r} at seat {p} chose illegal action "
                f"{a!r} in phase {game.phase_name(state)!r}")
        return int(a)

    def advance(self) -> None:
        """Let the opponents move until the human is to act or the game is over (their moves,
        as the human's seat sees them, are added to :attr:`pending`)."""
        game = self.game
        while not self.over and game.current_player(self.state) != self.seat:
            p = game.current_player(self.state)
            a = self._opponent_action(p)
            self.pending += self._move_lines(f"seat {p}", a)
            self.actions.append(a)

    def _move_lines(self, who: str, action: int) -> list[str]:
        """Apply ``action`` to the state; the move as the human's seat sees it
        (``Game.action_seen_by``), then what it did (``Game.effects_seen_by``), one ``→`` line
        each."""
        game, seat = self.game, self.seat
        before = game.clone(self.state)
        text = game.action_seen_by(self.state, action, seat)
        game.apply_action(self.state, action)
        return [f"{who}: {text}"] + [f"  → {line}" for line in
                                     game.effects_seen_by(before, action, self.state, seat)]

    def play(self, action: int) -> None:
        """Apply the human's ``action`` (IllegalActionError naming it if not legal)."""
        if self.game.current_player(self.state) != self.seat:
            raise IllegalActionError(f"seat {self.seat} is not to act")
        self.game.check_action(self.state, action)
        lines = self._move_lines("you", action)
        self._human_steps.append(len(self.actions))
        self._seen.append(self.pending)
        self.pending = lines
        self.actions.append(int(action))

    def undo(self) -> str | None:
        """Take back the human's last decision and every move after it: the state, the chance
        RNG and the opponents are as they were when the human was asked. Returns the name of
        the move taken back, or ``None`` when there is none."""
        if not self._human_steps:
            return None
        cut = self._human_steps.pop()
        keep = self.actions[:cut]
        game = self.game
        self.state = game.new_state(self.seed)
        self.opponents = self._fresh_opponents()
        for a in keep:
            p = game.current_player(self.state)
            if p != self.seat and self._opponent_action(p) != a:
                self.reproducible = False
            game.apply_action(self.state, a)
        taken_back = game.action_to_string(self.state, self.actions[cut])
        self.actions = keep
        self.pending = self._seen.pop()
        return taken_back

    def record(self):
        """The game so far as a :class:`~card_envs.core.records.GameRecord` (outcome filled
        once the game is over by its rules)."""
        return record_of(self.game, self.seed, self.actions, self.state)


def check_record_target(path_text: str) -> Path:
    """The record file's path, checked before any move: not a folder, not an existing file (a
    record is never overwritten), its folder existing and writable (ConfigError naming
    ``--record`` otherwise)."""
    path = Path(path_text)
    if path.is_dir():
        raise ConfigError(f"--record {path_text!r} is a folder; give a file name such as "
                          f"{str(path / 'game.json')!r}")
    folder = path.parent
    if not folder.is_dir():
        raise ConfigError(f"--record {path_text!r}: the folder {str(folder)!r} does not exist")
    if path.exists() or path.is_symlink():
        raise ConfigError(f"--record {path_text!r}: the file exists; card-envs play never "
                          "overwrites a record: give a new file name")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"--record {path_text!r}: the folder {str(folder)!r} is not writable")
    return path


def free_record_path(path: Path) -> Path:
    """``path`` if no file has its name, else the first free ``<stem>-2<suffix>``,
    ``<stem>-3<suffix>``, ... beside it (the default record name of a seed played again)."""
    k = 1
    candidate = path
    while candidate.exists() or candidate.is_symlink():
        k += 1
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
    return candidate


def save_new_record(record, path: Path) -> Path:
    """Write ``record`` to ``path`` only if no file has that name (exclusive create), else to
    the next free name (:func:`free_record_path`); returns the file written. Never overwrites.

    Raises:
        OSError: the file cannot be written.
    """
    text = record.to_json(indent=1)
    while True:
        try:
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
            return path
        except FileExistsError:
            path = free_record_path(path)


def new_seed() -> int:
    """A fresh game seed for a human game (0..999999: short enough to type again)."""
    return secrets.randbelow(1_000_000)


def play_in_terminal(game, seat: int, seed: int, make_opponent: Callable[[int], object],
                     record_path: str, opponent_name: str = "opponent",
                     input_fn: Callable[[str], str] = input, out=None,
                     game_spec: str | None = None) -> int:
    """Play ``game`` from ``new_state(seed)`` with the human in ``seat`` (module docstring).
    ``game_spec``: how the game was named; a ``module:factory`` spec is repeated as ``--game``
    in the closing replay hint (such a record replays only with it).

    Returns:
        0 when the game was played to its end, 1 when it was left unfinished (``quit``, end of
        input, Ctrl-C); the record is saved to ``record_path`` in both cases (an unfinished one
        only if a move was played).

    Raises:
        ConfigError: ``seat`` is not a seat of the game, ``record_path`` exists (a record is
            never overwritten: :func:`check_record_target`) or cannot be written.
        IllegalActionError: an opponent chose an illegal action (named).
    """
    out = out or sys.stdout
    path = check_record_target(record_path)

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    session = PlaySession(game, seat, seed, make_opponent)
    others = ", ".join(str(p) for p in range(game.num_players) if p != seat)
    say(f"{game.name}, seed {seed}: you play seat {seat}; {opponent_name} plays seat"
        f"{'s' if game.num_players > 2 else ''} {others}. Type a move's number; ? lists the "
        "commands.")
    finished = False
    try:
        finished = _loop(session, input_fn, say)
    except KeyboardInterrupt:
        say()
    state = session.state
    if finished:
        say(f"\ngame over after {len(session.actions)} moves; the final position, every card "
            f"shown:\n{game.render(state)}")
        returns = [float(r) for r in game.returns(state)] if game.is_terminal(state) \
            else [0.0] * game.num_players
        cut = not game.is_terminal(state) or game.is_truncated(state)
        say(f"result: {outcome_text(returns, seat, truncated=cut)}")
        say(f"state digest: {state_digest(game, state)}")
    else:
        say(f"game not finished ({session.decisions} of your decisions, "
            f"{len(session.actions)} move{'' if len(session.actions) == 1 else 's'} played).")
    if not session.actions:
        say("no move was played: nothing saved")
        return 0 if finished else 1
    try:
        saved = save_new_record(session.record(), path)
    except OSError as exc:
        raise ConfigError(f"--record {record_path!r}: cannot write the record: "
                          f"{exc.strerror or exc}") from None
    what = "the game" if finished else "the unfinished game"
    moved = f"{path.name} appeared during the game: " if saved != path else ""
    # a game not in the registry (given as module:factory) replays with the same --game
    again = f" --game {game_spec}" if game_spec and ":" in game_spec else ""
    say(f"{moved}saved {what} to {saved.resolve()} (replay it: card-envs replay {saved}{again})")
    return 0 if finished else 1


def _show(session: PlaySession, say) -> list[int]:
    """Print the other seats' moves since the last decision, the view and the numbered legal
    moves; returns the legal actions in their printed order."""
    game, state = session.game, session.state
    say(f"\n--- your decision {session.decisions + 1} (move {len(session.actions) + 1}) ---")
    if session.pending:
        say("since your last decision:")
        for line in session.pending:
            say(f"  {line}")
    say(game.render_view(state, session.seat))
    legal = list(game.legal_actions(state))
    say("your moves:")
    for i, a in enumerate(legal, 1):
        say(f"  {i:>2}. {game.action_to_string(state, a)}")
    return legal


def _loop(session: PlaySession, input_fn, say) -> bool:
    """The move prompt until the game is over (``True``) or the human stops (``False``)."""
    while True:
        session.advance()
        if session.over:
            if session.pending:
                say("\nthe last moves:")
                for line in session.pending:
                    say(f"  {line}")
            return True
        legal = _show(session, say)
        k = len(legal)
        hint = ("type 1 for the only move" if k == 1 else f"type a move number 1..{k}") + \
            ", or ? for help"
        while True:
            try:
                text = input_fn(f"move [{'1' if k == 1 else f'1-{k}'}, ?]> ")
            except EOFError:
                say("\n(end of input)")
                return False
            entry = text.strip().lower()
            if entry in ("?", "help", "h"):
                for name, meaning in COMMANDS:
                    say(f"  {name:<9} {meaning}")
                continue
            if entry in ("q", "quit", "exit"):
                return False
            if entry in ("v", "view"):
                legal = _show(session, say)
                continue
            if entry in ("u", "undo"):
                taken = session.undo()
                if taken is None:
                    say("  nothing to undo: you have not decided yet")
                    continue
                say(f"  took back your move '{taken}'" + ("" if session.reproducible else
                    " (note: the opponent did not repeat its earlier choices on the replay; "
                    "its next answers may differ)"))
                break
            if not entry:
                say(f"  empty entry: {hint}")
                continue
            if not (entry.isascii() and entry.isdigit()):
                shown = text.strip() if len(text.strip()) <= 20 else text.strip()[:17] + "..."
                say(f"  {shown!r} is not a move number or a command: {hint}")
                continue
            number = int(entry) if len(entry) <= _MAX_DIGITS else 0
            if not 1 <= number <= k:
                say(f"  there is no move {entry if len(entry) <= 12 else entry[:9] + '...'}: "
                    f"{hint}")
                continue
            session.play(legal[number - 1])
            break


def play_command(game_spec: str, config: dict, opponent: str = "heuristic", seat: int = 0,
                 seed: int | None = None, record: str | None = None, input_fn=input,
                 out=None) -> int:
    """``card-envs play``: build the game and the opponents from their specs, then
    :func:`play_in_terminal` (``seed``: a fresh one when ``None``, else an int in 0..2**64-1;
    ``record``: default ``game-<game>-<seed>.json`` in the current folder, or when that file
    exists the first free ``game-<game>-<seed>-<k>.json``, k = 2, 3, ..., said on ``out``).
    Opponent seat ``p`` is ``resolve_policy(opponent, seed=seed + 1 + p)``.

    Raises:
        ConfigError: an unknown game or policy spec, a bad config, a model of another game, a
            seat the game does not have, a seed outside 0..2**64-1, a ``record`` file that
            exists (never overwritten) or a record path that cannot be written (all before the
            first move).
    """
    from card_envs.core.registry import resolve_game

    game = resolve_game(game_spec, config)
    check_seat(game, seat)
    if seed is None:
        seed = new_seed()
    elif not is_game_seed(seed):
        raise ConfigError(f"--seed {seed}: {NOT_A_GAME_SEED}")
    path = record
    if path is None:  # the default name; a seed played again gets the next free name
        default = Path(f"game-{game.name}-{seed}.json")
        free = free_record_path(default)
        if free != default:
            print(f"{default} exists: this game's record will be {free}",
                  file=out or sys.stdout, flush=True)
        path = str(free)
    check_record_target(path)

    return play_in_terminal(game, seat, seed, opponent_factory(opponent, game_spec, game, seed),
                            path, opponent_name=opponent, input_fn=input_fn, out=out,
                            game_spec=game_spec)


def opponent_factory(spec: str, game_spec: str, game, seed: int) -> Callable[[int], object]:
    """``make_opponent(p)`` for :class:`PlaySession`: the policy ``spec`` for seat ``p``,
    seeded ``seed + 1 + p``, checked to fit ``game`` (ConfigError naming the spec)."""
    from card_envs.bots.specs import resolve_policy

    def make_opponent(p: int):  # resolve_policy checks that it fits the game
        return resolve_policy(spec, game_spec, seed=seed + 1 + p, game=game)

    return make_opponent
