"""``card-envs play`` (a human in the terminal, driven here through standard input) and
``card-envs replay`` (stepping through the saved record).

The scripted games: the moves are computed with the Game API by a :class:`PlaySession` built as
the command builds it (same seed, same opponents), choosing a random legal move at each of the
human's decisions; the script typed into the command adds wrong entries (letters, empty, 0, one
past the last move), ``?``, ``view`` and ``undo`` (at the start, with nothing to undo; after the
second decision, then the same move again). The record the command saves must hold exactly the
computed moves (so the undo restored the game, its chance RNG and a random opponent exactly) and
replay to the computed final state.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from card_envs.cli import main
from card_envs.core.records import GameRecord, replay
from card_envs.core.registry import make_game
from card_envs.evaluation.play import PlaySession, opponent_factory
from card_envs.evaluation.replay import state_digest

ROOT = Path(__file__).resolve().parents[1]


def _session(name, cfg, seed, seat, opponent):
    game = make_game(name, **cfg)
    return game, PlaySession(game, seat, seed, opponent_factory(opponent, name, game, seed))


def _script(name, cfg, seed, seat, opponent, choose_seed=0):
    """``(entries, session)``: what to type to play a random game to its end (with wrong entries
    and an undo), and the session played with the API to the same end."""
    game, s = _session(name, cfg, seed, seat, opponent)
    rng = random.Random(choose_seed)
    entries: list[str] = []
    while True:
        s.advance()
        if s.over:
            return entries, s
        legal = game.legal_actions(s.state)
        i = rng.randrange(len(legal))
        if s.decisions == 0:
            entries += ["abc", "", "0", str(len(legal) + 1), "undo", "?", "view"]
        entries.append(str(i + 1))
        if s.decisions == 1:  # take the second decision back and make it again
            entries += ["undo", str(i + 1)]
        s.play(legal[i])


GAMES = [
    ("garda3", {}, 7, 0, "heuristic"),
    ("garda3", {"variant": "royale+night"}, 3, 1, "random"),
    ("scratch_wars", {}, 5, 0, "random"),
    ("dirt_and_glory", {"num_players": 3}, 2, 2, "heuristic"),
    ("rust_brawl", {}, 3, 1, "heuristic"),
]


@pytest.mark.parametrize("name, cfg, seed, seat, opponent", GAMES,
                         ids=[f"{g[0]}-{g[4]}-seat{g[3]}" for g in GAMES])
def test_a_human_plays_to_the_end_and_the_record_replays_to_the_same_state(
        name, cfg, seed, seat, opponent, tmp_path, monkeypatch, capsys):
    entries, expected = _script(name, cfg, seed, seat, opponent)
    game = expected.game
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(entries) + "\n"))
    rc = main(["play", name, "--game-config", json.dumps(cfg), "--opponent", opponent,
               "--seat", str(seat), "--seed", str(seed)])
    out = capsys.readouterr().out
    assert rc == 0, out[-2000:]
    assert out.startswith(f"{name}, seed {seed}: you play seat {seat}; {opponent} plays seat")
    # the wrong entries: a one-line hint each, then the question again
    out_of_range = entries[3]  # one past the last move of the first decision
    for hint in ("'abc' is not a move number or a command", "empty entry: type",
                 "there is no move 0: type", f"there is no move {out_of_range}: type",
                 "nothing to undo: you have not decided yet", "undo, u   take back",
                 "result: ", "game over after"):
        assert hint in out, hint
    assert out.count("took back your move '") == 1
    # the view shown is the seat's own: its header
    assert f"{name}: you are seat {seat}; " in out
    # the record holds exactly the computed moves and outcome
    path = tmp_path / f"game-{name}-{seed}.json"
    assert f"saved the game to {path}" in out
    record = GameRecord.load(path)
    assert record.actions == expected.actions and record.seed == seed
    assert record.outcome == [float(r) for r in game.returns(expected.state)]
    assert (record.game, record.version, record.config) == \
        (game.name, game.version, game.config_to_dict())
    digest = state_digest(game, expected.state)
    assert f"state digest: {digest}" in out
    # replay --to-end reaches the identical final state (digest) and says the outcome matches
    assert main(["replay", str(path), "--to-end"]) == 0
    shown = capsys.readouterr().out
    assert f"the replay reproduces the recorded outcome {record.outcome}" in shown
    assert shown.rstrip().endswith(f"state digest: {digest}")
    assert shown.count("\nmove ") == len(record.actions)
    # the header: the config as written (no \u escapes of Czech names), the move count
    n = len(record.actions)
    assert shown.startswith(f"{path}: {record.game} v{record.version}, config "
                            f"{json.dumps(record.config, ensure_ascii=False)}, seed {seed}, "
                            f"{n} move{'' if n == 1 else 's'}\n")
    _, final = replay(GameRecord.load(path))
    assert game.state_to_dict(final) == game.state_to_dict(expected.state)
    # the seat's view only
    assert main(["replay", str(path), "--to-end", "--seat", str(seat)]) == 0
    seat_view = capsys.readouterr().out
    assert seat_view.rstrip().endswith(f"state digest: {digest}")
    assert f"{name}: you are seat {seat}; " in seat_view
    # what each move did (effects_seen_by): the same lines in the game and in the seat's replay
    effects = [x.strip() for x in out.splitlines() if x.startswith("    → ")]
    replayed = {x.strip() for x in seat_view.splitlines() if x.startswith("  → ")}
    assert effects and set(effects) <= replayed


@pytest.mark.parametrize("name, cfg, opponent", [
    ("garda3", {"variant": "classic"}, "random"),
    ("dirt_and_glory", {"num_players": 2}, "random"),
    ("garda3", {"variant": "classic"}, "heuristic+lookahead:2"),
])
def test_undo_restores_the_state_the_chance_rng_and_the_opponents_next_choice(name, cfg,
                                                                              opponent):
    game, s = _session(name, cfg, 11, 0, opponent)
    rng = random.Random(1)
    undone = 0
    while True:
        s.advance()
        if s.over:
            break
        before = json.dumps(game.state_to_dict(s.state), sort_keys=True)
        actions = list(s.actions)
        a = rng.choice(game.legal_actions(s.state))
        s.play(a)
        s.advance()
        after = json.dumps(game.state_to_dict(s.state), sort_keys=True)
        after_actions = list(s.actions)
        if s.decisions % 3 == 0:  # take every third decision back, then make it again
            assert s.undo() == game.action_to_string(s.state, a)
            assert json.dumps(game.state_to_dict(s.state), sort_keys=True) == before
            assert s.actions == actions
            s.play(a)
            s.advance()
            # the opponents answer as they did the first time (their RNG restored)
            assert s.actions == after_actions
            assert json.dumps(game.state_to_dict(s.state), sort_keys=True) == after
            undone += 1
        if undone >= 6:
            break
    assert undone >= 4 and s.reproducible


def test_end_of_input_saves_the_unfinished_game(tmp_path, monkeypatch, capsys):
    entries, _ = _script("garda3", {}, 7, 0, "heuristic")
    monkeypatch.chdir(tmp_path)
    typed = entries[:12]  # a few decisions, then the input ends
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(["play", "garda3", "--seed", "7", "--record", "part.json"]) == 1
    out = capsys.readouterr().out
    assert "(end of input)" in out and "game not finished (" in out
    assert f"saved the unfinished game to {tmp_path / 'part.json'}" in out
    record = GameRecord.load(tmp_path / "part.json")
    assert record.outcome is None and len(record.actions) >= 3
    # an unfinished record replays to the position reached
    assert main(["replay", str(tmp_path / "part.json"), "--to-end"]) == 0
    shown = capsys.readouterr().out
    assert f"the record is unfinished: {len(record.actions)} moves replayed" in shown


def test_quit_ctrl_c_and_nothing_played(tmp_path, monkeypatch, capsys):
    from card_envs.evaluation.play import play_command

    monkeypatch.chdir(tmp_path)
    answers = iter(["1", "1", "q"])
    assert play_command("garda3", {}, seed=4, input_fn=lambda _: next(answers)) == 1
    out = capsys.readouterr().out
    assert "game not finished (2 of your decisions" in out
    assert len(GameRecord.load(tmp_path / "game-garda3-4.json").actions) >= 2

    def interrupt(_prompt):
        raise KeyboardInterrupt

    assert play_command("garda3", {}, seed=5, input_fn=interrupt) == 1
    out = capsys.readouterr().out
    assert "game not finished (0 of your decisions" in out
    assert "nothing saved" in out  # seat 0 drafts first in seed 5: no move was played
    assert not (tmp_path / "game-garda3-5.json").exists()


def test_one_move_played_is_said_in_the_singular(tmp_path, monkeypatch, capsys):
    from card_envs.evaluation.play import play_command

    monkeypatch.chdir(tmp_path)
    # seed 5: seat 0 (the heuristic) drafts first, then seat 1 (you) quits at its first prompt
    assert play_command("garda3", {}, seat=1, seed=5, input_fn=lambda _: "q") == 1
    assert "game not finished (0 of your decisions, 1 move played)." in capsys.readouterr().out


def test_replay_steps_on_enter_and_stops_on_q(tmp_path, monkeypatch, capsys):
    _, expected = _script("scratch_wars", {}, 5, 0, "random")
    path = tmp_path / "g.json"
    expected.record().save(path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nq\n"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    n = len(expected.actions)
    assert "Enter: the next move, q: quit" in out
    assert f"move 1/{n}: seat" in out and f"move 2/{n}: seat" in out
    assert f"move 3/{n}" not in out.replace("[move 3/", "")
    assert f"stopped before move 3 of {n}" in out


def _error(argv, capsys) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert "Traceback" not in err + captured.out and len(err.strip().splitlines()) == 1, err
    return err


def test_play_and_replay_user_errors_are_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert "--seat 2: garda3 has seats 0..1" in _error(["play", "garda3", "--seat", "2"], capsys)
    assert "is a folder" in _error(["play", "garda3", "--record", str(tmp_path)], capsys)
    assert "does not exist" in _error(["play", "garda3", "--record", "no/such/x.json"], capsys)
    assert "unknown policy 'nobody'" in _error(["play", "garda3", "--opponent", "nobody"],
                                               capsys)
    assert "--game-config" in _error(["play", "garda3", "--game-config", "{bad"], capsys)
    good = tmp_path / "good.json"
    _, s = _script("garda3", {}, 1, 0, "random")
    s.record().save(good)
    data = json.loads(good.read_text())
    for name, text, needle in [
        ("bad.json", good.read_text()[:50], "not valid JSON"),
        ("v9.json", json.dumps({**data, "version": 9}), "record is for garda3 v9, installed is v1"),
        ("illegal.json", json.dumps({**data, "actions": [30] + data["actions"][1:]}),
         "actions[0] = 30"),
        ("outcome.json", json.dumps({**data, "outcome": [-x for x in data["outcome"]]}),
         "differs from recorded"),
    ]:
        (tmp_path / name).write_text(text)
        err = _error(["replay", str(tmp_path / name), "--to-end"], capsys)
        assert err.startswith(f"card-envs replay: error: {tmp_path / name}") and needle in err
    assert "no/such.json" in _error(["replay", "no/such.json"], capsys)
    assert "--seat 5: garda3 has seats 0..1" in _error(["replay", str(good), "--seat", "5"],
                                                        capsys)


@pytest.mark.parametrize("command, flags", [
    ("play", ["--game-config", "--opponent", "--seat", "--seed", "--record"]),
    ("replay", ["--to-end", "--seat"]),
])
def test_help_explains_each_flag_with_its_default_and_an_example(command, flags, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and f"card-envs {command} " in out.split("examples:")[1]
    options = out.split("options:")[1].split("examples:")[0]
    for flag in flags:
        entry = options.split(flag, 1)[1].split("\n  -")[0]
        assert "(default: " in " ".join(entry.split()), (flag, entry)
    assert "default: heuristic" in out if command == "play" else "default: wait" in out


def test_the_installed_command_reads_standard_input(tmp_path):
    """The real process: a few moves typed, then the input ends (the game is saved unfinished);
    an EOF at the first prompt of a fresh game saves nothing."""
    proc = subprocess.run([sys.executable, "-m", "card_envs.cli", "play", "garda3", "--seed", "7",
                           "--opponent", "random"], input="x\n1\nundo\n1\n2\n", text=True,
                          capture_output=True, cwd=tmp_path, timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "'x' is not a move number" in proc.stdout and "took back your move 'pick 0" in \
        proc.stdout
    assert "Traceback" not in proc.stderr
    record = GameRecord.load(tmp_path / "game-garda3-7.json")
    assert record.outcome is None and record.actions[0] == 0


# -- issue 21: a record is never overwritten; the seed is a game seed ------------------------------
def test_the_same_seed_played_again_never_overwrites_the_first_record(tmp_path, monkeypatch,
                                                                      capsys):
    from card_envs.evaluation.play import play_command

    monkeypatch.chdir(tmp_path)
    answers = iter(["1", "1", "q"])
    assert play_command("garda3", {}, seed=4, input_fn=lambda _: next(answers)) == 1
    first = tmp_path / "game-garda3-4.json"
    kept = first.read_text()
    assert len(GameRecord.load(first).actions) >= 2
    capsys.readouterr()
    # the same seed again in the same folder: the next free name, said at the start and the end
    answers = iter(["1", "q"])
    assert play_command("garda3", {}, seed=4, input_fn=lambda _: next(answers)) == 1
    out = capsys.readouterr().out
    second = tmp_path / "game-garda3-4-2.json"
    assert "game-garda3-4.json exists: this game's record will be game-garda3-4-2.json" in out
    assert f"saved the unfinished game to {second}" in out
    assert first.read_text() == kept
    assert GameRecord.load(second).seed == 4
    # and a third time: -3
    answers = iter(["1", "q"])
    assert play_command("garda3", {}, seed=4, input_fn=lambda _: next(answers)) == 1
    assert (tmp_path / "game-garda3-4-3.json").is_file() and first.read_text() == kept


def test_an_existing_record_file_given_with_record_is_refused_before_any_move(tmp_path,
                                                                             monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.json").write_text("a finished game")
    err = _error(["play", "garda3", "--seed", "3", "--record", "mine.json"], capsys)
    assert err.strip() == ("card-envs play: error: --record 'mine.json': the file exists; "
                           "card-envs play never overwrites a record: give a new file name")
    assert (tmp_path / "mine.json").read_text() == "a finished game"


def test_a_record_file_appearing_during_the_game_is_kept(tmp_path, monkeypatch, capsys):
    # another game saved under the same name while this one was played: this one takes the
    # next free name at saving
    from card_envs.evaluation.play import play_command

    monkeypatch.chdir(tmp_path)
    target = tmp_path / "game-garda3-4.json"

    script = iter(["1", "1", "q"])

    def answer(_prompt):
        entry = next(script)
        if entry == "q":
            target.write_text("saved by another game")
        return entry

    assert play_command("garda3", {}, seed=4, input_fn=answer) == 1
    out = capsys.readouterr().out
    assert target.read_text() == "saved by another game"
    assert (f"{target.name} appeared during the game: saved the unfinished game to "
            f"{tmp_path / 'game-garda3-4-2.json'}") in out
    assert len(GameRecord.load(tmp_path / "game-garda3-4-2.json").actions) >= 2


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_a_seed_outside_the_game_seeds_is_named(seed, tmp_path, monkeypatch, capsys):
    # card-envs replay of a record whose seed is -1 or 2**70 names the seed, not an action
    # (random.Random(-1) deals as seed 1: the actions of the real deal then fail)
    monkeypatch.chdir(tmp_path)
    good = tmp_path / "good.json"
    _, s = _script("garda3", {}, 1, 0, "random")
    s.record().save(good)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(good.read_text()), "seed": seed}))
    err = _error(["replay", str(bad), "--to-end"], capsys)
    assert err.strip() == (f"card-envs replay: error: {bad}: field seed = {seed}: not a game "
                           "seed (an int in 0..2**64-1)")
    err = _error(["play", "garda3", "--seed", str(seed)], capsys)
    assert err.strip() == f"card-envs play: error: --seed {seed}: not a game seed (an int in " \
                          "0..2**64-1)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "good.json"]


def test_a_module_factory_game_is_told_how_to_replay(tmp_path, monkeypatch, capsys):
    """A game given as ``module:factory`` (not in the registry) replays only with that
    ``--game``: the closing line of ``card-envs play`` says the whole command (issue 23)."""
    from card_envs.evaluation.play import play_command
    from card_envs.evaluation.replay import replay

    monkeypatch.chdir(tmp_path)
    spec = "card_envs.testing.toy_game.rules:make_game"
    answers = iter(["1", "1", "q"])
    play_command(spec, {}, seed=4, opponent="random", input_fn=lambda _: next(answers))
    out = capsys.readouterr().out
    (record,) = tmp_path.glob("game-*.json")
    assert f"(replay it: card-envs replay {record.name} --game {spec})" in out
    assert replay(GameRecord.load(record), game=spec) is not None

    answers = iter(["1", "q"])
    play_command("garda3", {}, seed=4, input_fn=lambda _: next(answers))
    assert "(replay it: card-envs replay game-garda3-4.json)" in capsys.readouterr().out
