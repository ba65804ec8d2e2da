"""The ``card-envs`` command (in-process; the training path is covered by the smoke test)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from card_envs.cli import main
from card_envs.core.registry import available_games


def _rows(out: str, first: str | None = None) -> list[list[str]]:
    """The rows of the rich tables in ``out`` as whitespace-split cells (header and rule lines
    skipped; ``first``: only rows whose first cell is it)."""
    rows = [line.split() for line in out.splitlines() if line.strip() and "\u2500" not in line]
    return [r for r in rows if first is None or r[0] == first]


def test_games_lists_available(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    names = available_games()
    assert names == ["garda3", "scratch_wars", "dirt_and_glory", "rust_brawl", "leduc_holdem"]
    listed = [r for r in _rows(out) if r[0] in names]
    assert [r[0] for r in listed] == names
    # the env module of each game (named by the game's version: <name>_v<version>) and its
    # seats over the default config and the registered variants
    from card_envs.core.registry import ENV_MODULES

    assert [r[1] for r in listed] == [ENV_MODULES[n] for n in names]
    assert [r[1] for r in listed] == [f"card_envs.{n}_v{r[4]}" for n, r in zip(names, listed)]
    # G-7.4: free_for_all is a 3-player Garda3; Dirt and Glory seats 2–5 (its rules page); the
    # others 2
    assert [r[2] for r in listed] == ["2–3", "2", "2–5", "2", "2"]


def test_evaluate_prints_intervals_and_writes_json(capsys, tmp_path):
    out_json = tmp_path / "r.json"
    rc = main(["evaluate", "--game", "toy_game:make_game", "--game-config", '{"pile": 9}',
               "--a", "toy_game:PerfectBot", "--b", "random", "--games", "20",
               "--json", str(out_json)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "toy_game:PerfectBot vs random: 20 games: win" in out and "95% Wilson" in out
    data = json.loads(out_json.read_text())
    assert data["games"] == 20 and data["game_config"] == {"pile": 9}
    assert set(data["per_seat"]) == {"0", "1"}
    # the tables: A's win/draw/loss rows and one row per seat (10 games each), as in the JSON
    w, d, lo = data["wins"], data["draws"], data["losses"]
    assert _rows(out, "win")[0][:2] == ["win", str(w)]
    assert _rows(out, "draw")[0][:2] == ["draw", str(d)]
    assert _rows(out, "loss")[0][:2] == ["loss", str(lo)]
    lo95, hi95 = data["wilson95"]["win"]
    assert _rows(out, "win")[0][3:] == [f"[{lo95:.1%},", f"{hi95:.1%}]"]
    for seat in ("0", "1"):
        sw, sd, sl = data["per_seat"][seat]
        assert _rows(out, seat)[0][:5] == [seat, "10", str(sw), str(sd), str(sl)]


def test_evaluate_bad_json_config(capsys):
    assert main(["evaluate", "--game", "toy_game:make_game", "--game-config", "{bad",
                 "--a", "random", "--b", "random"]) == 2


def test_train_help_lists_args_with_docstrings(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = capsys.readouterr().out
    assert "--opponent-mix" in out and "league weights per opponent kind" in out
    assert "--minutes" in out and "--resume" in out


def test_tournament_command(capsys, tmp_path):
    out_json = tmp_path / "t.json"
    assert main(["tournament", "--game", "toy_game:make_game", "--policies",
                 "toy_game:PerfectBot,random", "--games", "10", "--json", str(out_json),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out_json.read_text())
    # the perfect Nim player ranks first (rank, entrant number, policy, Elo, interval ...)
    first, second = _rows(out, "1")[0], _rows(out, "2")[0]
    assert first[1:3] == ["1", "toy_game:PerfectBot"] and second[1:3] == ["2", "random"]
    top = data["standings"][0]
    assert first[3] == f"{top['elo']:+.0f}" and top["policy"] == "toy_game:PerfectBot"
    # --games 10 in a two-seat game: 5 duplicate deals, each played with the seats swapped
    pair = data["pairs"][0]
    assert (pair["a"], pair["b"], pair["games"], data["deals"]) == \
        ("toy_game:PerfectBot", "random", 10, 5)
    assert len(data["games_played"]) == 10
    row = _rows(out, "toy_game:PerfectBot")[0]
    assert row[:4] == ["toy_game:PerfectBot", "random", "10",
                       f"{pair['wins']}/{pair['draws']}/{pair['losses']}"]
    # the matrix row of entrant 1 shows its score against entrant 2
    assert data["score_matrix"][0][1] == pytest.approx(pair["score"])


@pytest.mark.parametrize("argv, needle", [
    (["evaluate", "--game", "garda3", "--a", "heuristic", "--b", "random", "--games", "0"],
     "--games"),
    (["tournament", "--game", "garda3", "--policies", "random,heuristic", "--game-config",
      "{bad"], "--game-config"),
    (["evaluate", "--game", "garda3", "--game-config", "[1]", "--a", "heuristic", "--b",
      "random"], "JSON object"),
    (["evaluate", "--game", "garda3", "--a", "README.md", "--b", "random"], "not a saved"),
    (["evaluate", "--game", "card_envs.garda3_v1:env", "--a", "heuristic", "--b", "random"],
     "did not build a card-envs Game"),
    (["evaluate", "--game", "garda3", "--a", "+lookahead", "--b", "random"],
     "nothing before '+lookahead'"),
    (["evaluate", "--game", "garda3", "--a", "heuristic+lookahead:\u00b2", "--b", "random"],
     "whole number"),
    (["evaluate", "--game", "garda3", "--a", "heuristic+lookahead:0", "--b", "random"],
     "heuristic+lookahead:0"),
])
def test_user_errors_are_one_line_with_exit_code_2(argv, needle, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


@pytest.mark.parametrize("flags, needle", [
    (["--final-eval-lookahead", "-1"], "--final-eval-lookahead"),
    (["--shaping", "-1"], "--shaping"),
    (["--net-arch", "abc"], "--net-arch"),
    (["--activation", "gelu"], "--activation"),
    (["--n-envs", "0"], "--n-envs"),
    (["--eval-deals", "-3"], "--eval-deals"),
    (["--minutes", "-1"], "--minutes"),
    (["--gamma", "1.5"], "--gamma"),
    (["--opponent-mix", "foo=1"], "foo"),
    (["--game", "nope"], "nope"),
    (["--set", "variant=bogus"], "bogus"),
    (["--bc-teacher", "bogus"], "--bc-teacher 'bogus': unknown policy"),
    (["--bc-teacher", "heuristic+lookahead:0"], "--bc-teacher 'heuristic+lookahead:0'"),
    (["--anchor-coef", "-1"], "--anchor-coef"),
    (["--critic-warmup-steps", "-5"], "--critic-warmup-steps"),
    (["--clip-range-vf", "-0.1"], "--clip-range-vf"),
    (["--bc-workers", "0"], "--bc-workers"),
])
def test_training_flag_errors_are_one_line_before_any_run_folder(flags, needle, tmp_path,
                                                                  capsys):
    from card_envs.training import main as train_main

    run_dir = tmp_path / "run"
    assert train_main(flags + ["--run-dir", str(run_dir)], prog="card-envs train") == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and err.count("\n") == 1
    assert not run_dir.exists()


@pytest.mark.parametrize("policies, needle", [("random,random", "named twice"),
                                              ("random", "at least two")])
def test_tournament_needs_distinct_policies(policies, needle, capsys):
    assert main(["tournament", "--game", "garda3", "--policies", policies, "--games", "2"]) == 2
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("flags, needle", [(["--opponent-mix", "heuristic=0"], "at least one"),
                                           (["--opponent-mix", "self=-1,random=1"], ">= 0"),
                                           (["--seed", "-1"], "--seed")])
def test_more_training_flag_errors(flags, needle, tmp_path, capsys):
    from card_envs.training import main as train_main

    assert train_main(flags + ["--run-dir", str(tmp_path / "r")]) == 2
    assert needle in capsys.readouterr().err and not (tmp_path / "r").exists()


def test_heuristic_of_a_module_factory_game_is_found_beside_it(capsys):
    assert main(["evaluate", "--game", "card_envs.garda3.rules:make_game", "--a", "heuristic",
                 "--b", "random", "--games", "2"]) == 0


# -- user errors that must stop before any game: one error line, exit 2 ----------------------
def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    err = captured.err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("card-envs ") and ": error: " in err
    return err


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is played (evaluate, tournament and sprt)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before the user error was reported")

    import importlib

    # (the package's ``evaluate`` attribute is the function: patch the modules themselves)
    monkeypatch.setattr(importlib.import_module("card_envs.evaluation.evaluate"), "play_match",
                        refuse)
    # (tournaments and the SPRT play every game through the runner)
    monkeypatch.setattr(importlib.import_module("card_envs.evaluation.runner"), "play_game",
                        refuse)


@pytest.fixture(scope="module")
def toy_model(tmp_path_factory):
    """A tiny MaskablePPO model of the toy game (observations (6,), 3 actions), saved once."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from card_envs.bots.base import RandomBot
    from card_envs.wrappers.single_agent import SingleAgentEnv
    from toy_game import make_game as make_toy

    torch.set_num_threads(1)
    env = SingleAgentEnv(make_toy(pile=9), RandomBot(0), seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [8]}, device="cpu")
    path = tmp_path_factory.mktemp("model") / "model.zip"
    model.save(path)
    return path


def _rezip(src, dst, member, change):
    """Copy the zip ``src`` to ``dst`` with ``member``'s bytes changed (``None``: dropped)."""
    import zipfile

    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == member:
                data = change(data)
            if data is not None:
                zout.writestr(info.filename, data)
    return dst


def _bad_models(tmp_path, model):
    import zipfile

    other = tmp_path / "notes.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("notes.txt", "not a model")
    flipped = bytearray(model.read_bytes())
    flipped[len(flipped) // 3] ^= 0xFF
    (tmp_path / "flipped.zip").write_bytes(bytes(flipped))
    (tmp_path / "truncated.zip").write_bytes(model.read_bytes()[:500])
    return {
        "notes.zip": (other, "no ['data', 'policy.pth'] member"),
        "no_policy.zip": (_rezip(model, tmp_path / "no_policy.zip", "policy.pth", lambda b: None),
                          "no ['policy.pth'] member"),
        "bad_data.zip": (_rezip(model, tmp_path / "bad_data.zip", "data", lambda b: b[:40]),
                         "'data' member is not JSON"),
        "half_policy.zip": (_rezip(model, tmp_path / "half_policy.zip", "policy.pth",
                                   lambda b: b[: len(b) // 2]), "not a loadable MaskablePPO"),
        "flipped.zip": (tmp_path / "flipped.zip", "corrupt"),
        "truncated.zip": (tmp_path / "truncated.zip", "not a .zip archive"),
        "missing.zip": (tmp_path / "missing.zip", "no such file"),
    }


@pytest.mark.parametrize("name", ["notes.zip", "no_policy.zip", "bad_data.zip", "half_policy.zip",
                                  "flipped.zip", "truncated.zip", "missing.zip"])
def test_a_zip_that_is_not_a_model(name, tmp_path, toy_model, capsys, no_games):
    path, needle = _bad_models(tmp_path, toy_model)[name]
    assert main(["evaluate", "--game", "toy_game:make_game", "--a", str(path), "--b", "random",
                 "--games", "2"]) == 2
    err = _one_error_line(capsys)
    assert str(path) in err and needle in err


def test_a_model_of_another_game(toy_model, capsys, no_games):
    # the toy model sees 6 numbers and has 3 actions; Garda3's are far larger
    assert main(["tournament", "--game", "garda3", "--policies", f"random,{toy_model}",
                 "--games", "2"]) == 2
    err = _one_error_line(capsys)
    assert str(toy_model) in err and "takes observations (6,) and 3 actions" in err


def test_the_toy_model_itself_plays(toy_model, capsys):
    assert main(["evaluate", "--game", "toy_game:make_game", "--game-config", '{"pile": 9}',
                 "--a", str(toy_model), "--b", "random", "--games", "2"]) == 0
    assert f"{toy_model} vs random: 2 games" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["evaluate", "tournament"])
def test_json_to_a_directory_is_refused_up_front(command, tmp_path, capsys, no_games):
    policies = (["--a", "random", "--b", "random"] if command == "evaluate"
                else ["--policies", "random,toy_game:PerfectBot"])
    assert main([command, "--game", "toy_game:make_game", *policies, "--games", "2",
                 "--json", str(tmp_path)]) == 2
    err = _one_error_line(capsys)
    assert f"--json {str(tmp_path)!r} is a directory" in err


def test_json_into_a_missing_folder_is_refused_up_front(tmp_path, capsys, no_games):
    target = tmp_path / "nope" / "r.json"
    assert main(["evaluate", "--game", "toy_game:make_game", "--a", "random", "--b", "random",
                 "--json", str(target)]) == 2
    assert f"the folder {str(target.parent)!r} does not exist" in _one_error_line(capsys)


@pytest.mark.parametrize("spec, needle", [
    ("math:sqrt", "is not a game factory taking the config {}: TypeError"),
    ("card_envs.cli:__doc__", "is a str, not a game factory"),
    ("toy_game:MAX_PILE", "is a int, not a game factory"),
    ("card_envs.core.errors:RecordError", "did not build a card-envs Game"),
    ("toy_game:PerfectBot", "did not build a card-envs Game"),
    ("toy_game:nothing_here", "has no attribute 'nothing_here'"),
    ("card_envs.no_such_module:make_game", "cannot import module 'card_envs.no_such_module'"),
])
def test_a_game_spec_that_is_not_a_game_factory(spec, needle, capsys, no_games):
    assert main(["evaluate", "--game", spec, "--a", "random", "--b", "random",
                 "--games", "2"]) == 2
    err = _one_error_line(capsys)
    assert repr(spec) in err and needle in err


@pytest.mark.parametrize("spec, needle", [
    ("card_envs.cli:__doc__", "is neither a policy"),
    ("card_envs.testing.toy_game:ScriptedBot", "calling it with no arguments failed"),
])
def test_a_policy_spec_that_is_not_a_policy(spec, needle, capsys, no_games):
    rc = main(["evaluate", "--game", "toy_game:make_game", "--a", spec, "--b", "random",
               "--games", "2"])
    assert rc == 2
    err = _one_error_line(capsys)
    assert spec in err and needle in err


# -- training: a corrupt checkpoint given to --resume -----------------------------------------
def _run_folder(tmp_path, toy_model, meta):
    """A run folder with the checkpoint ``ckpt_64.zip`` (the toy model) and its ``meta`` JSON
    (``False``: none; a str: written as is)."""
    run = tmp_path / "old_run"
    (run / "checkpoints").mkdir(parents=True)
    ckpt = run / "checkpoints" / "ckpt_64.zip"
    ckpt.write_bytes(toy_model.read_bytes())
    if meta is not False:
        ckpt.with_suffix(".json").write_text(
            meta if isinstance(meta, str) else json.dumps(meta), encoding="utf-8")
    return run, ckpt


GOOD_META = {"timesteps": 64, "train_seconds": 1.5, "curve": [], "snapshots": [],
             "args": {"game": "toy_game:make_game", "game_config": "{}", "set": []}}


@pytest.mark.parametrize("case, needle", [
    ("not a zip", "not a .zip archive"),
    ("half policy", "not a loadable MaskablePPO"),
    ("no metadata", "the checkpoint's metadata beside ckpt_64.zip) is missing"),
    ("truncated metadata", "is not checkpoint metadata (JSONDecodeError"),
    ("metadata a list", "is not checkpoint metadata (a JSON object expected, found list)"),
    ("timesteps missing", "field timesteps: Field required"),
    ("timesteps a string", "field timesteps = '64': Input should be a valid integer"),
    ("game missing", "field args.game: Field required"),
    ("snapshot not a model", "league snapshot"),
    ("empty run folder", "no checkpoints/ckpt_*.zip in the run folder"),
    ("no such path", "no such checkpoint .zip or run folder"),
])
def test_a_corrupt_checkpoint_to_resume(case, needle, tmp_path, toy_model, capsys):
    from card_envs.training import main as train_main

    meta = dict(GOOD_META)
    if case == "no metadata":
        meta = False
    elif case == "truncated metadata":
        meta = json.dumps(GOOD_META)[:30]
    elif case == "metadata a list":
        meta = [1, 2]
    elif case == "timesteps missing":
        del meta["timesteps"]
    elif case == "timesteps a string":
        meta["timesteps"] = "64"
    elif case == "game missing":
        meta["args"] = {"game_config": "{}", "set": []}
    elif case == "snapshot not a model":  # (a missing one was pruned: --league-keep)
        meta["snapshots"] = ["league/self_0.zip"]
    run, ckpt = _run_folder(tmp_path, toy_model, meta)
    named = ckpt
    if case == "not a zip":
        ckpt.write_text("not a zip", encoding="utf-8")
    elif case == "half policy":
        _rezip(toy_model, ckpt, "policy.pth", lambda b: b[: len(b) // 2])
    elif case in ("no metadata", "truncated metadata", "metadata a list", "timesteps missing",
                  "timesteps a string", "game missing"):
        named = ckpt.with_suffix(".json")
    elif case == "snapshot not a model":
        named = run / "league" / "self_0.zip"
        named.parent.mkdir(exist_ok=True)
        named.write_text("not a model", encoding="utf-8")
    elif case == "empty run folder":
        ckpt.unlink()
        named = run
    elif case == "no such path":
        named = run = tmp_path / "nowhere"
    new_run = tmp_path / "new_run"
    rc = train_main(["--resume", str(run), "--run-dir", str(new_run), "--minutes", "0.1"],
                    prog="training/ppo.py")
    assert rc == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("training/ppo.py: error: --resume")
    assert str(named) in err and needle in err
    assert not new_run.exists()


def test_a_corrupt_checkpoint_through_training_ppo_py(tmp_path):
    import subprocess
    import sys

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "checkpoints" / "ckpt_10.zip").write_bytes(b"PK\x03\x04 broken")
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(root / "training" / "ppo.py"), "--resume",
                           str(run), "--minutes", "0.1"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "Warning" not in line]
    assert len(lines) == 1 and lines[0].startswith("training/ppo.py: error: --resume")
    assert str(run / "checkpoints" / "ckpt_10.zip") in lines[0]


# -- card-envs games: a registered game that fails to import is an error -------------------------
def test_games_fails_loudly_on_a_broken_game_module(monkeypatch, capsys):
    from card_envs.core import registry

    monkeypatch.setitem(registry.GAMES, "broken", "card_envs.no_such_game.rules:make_game")
    with pytest.raises(ImportError, match="game 'broken': module 'card_envs.no_such_game.rules'"):
        registry.available_games()
    assert main(["games"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert "Traceback" not in err and err.count("\n") == 1
    assert err.startswith("card-envs games: error: game 'broken': module "
                          "'card_envs.no_such_game.rules' failed to import: ModuleNotFoundError")


def test_games_names_an_import_error_inside_a_game_module(monkeypatch, tmp_path, capsys):
    from card_envs.core import registry

    (tmp_path / "half_installed_game.py").write_text("from os import no_such_name\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.GAMES, "half", "half_installed_game:make_game")
    assert main(["games"]) == 1
    err = capsys.readouterr().err
    assert "module 'half_installed_game' failed to import: ImportError: cannot import name " \
           "'no_such_name'" in err


def test_games_skips_only_an_optional_game_whose_extra_is_missing(monkeypatch, capsys):
    from card_envs.core import registry

    monkeypatch.setitem(registry.GAMES, "optional", "some_third_party_engine.game:make_game")
    monkeypatch.setitem(registry.GAME_EXTRAS, "optional", "engine")
    assert registry.available_games() == ["garda3", "scratch_wars", "dirt_and_glory",
                                          "rust_brawl", "leduc_holdem"]
    # an optional game whose own module is missing is still a broken installation
    monkeypatch.setitem(registry.GAMES, "optional", "card_envs.no_such_game:make_game")
    with pytest.raises(ImportError, match="card_envs.no_such_game"):
        registry.available_games()


# -- fuzzed flag values: one error line, exit 2, before any game -------------------------------
HUGE_INT_CONFIG = '{"max_rounds": ' + "1" * 5000 + "}"
DEEP_CONFIG = '{"variant": ' + "[" * 3000 + "]" * 3000 + "}"
BAD_CONFIGS = {
    "huge int": (HUGE_INT_CONFIG, "--game-config is not a usable JSON value: an integer of more "
                                  "than 4300 digits ('{\"max_rounds\": 1111"),
    "deep nesting": (DEEP_CONFIG, "--game-config is not a usable JSON value: lists/objects "
                                  "nested more than 100 levels (MAX_JSON_DEPTH) ('{\"variant\": "
                                  "[[[["),
    "nesting past the limit": ('{"variant": ' + "[" * 100 + "]" * 100 + "}",
                               "--game-config is not a usable JSON value: lists/objects nested "
                               "more than 100 levels"),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
@pytest.mark.parametrize("command", ["evaluate", "tournament", "train"])
def test_a_game_config_python_cannot_use(command, case, capsys, no_games, tmp_path):
    text, needle = BAD_CONFIGS[case]
    rest = {"evaluate": ["--a", "random", "--b", "heuristic"],
            "tournament": ["--policies", "random,heuristic"],
            "train": ["--run-dir", str(tmp_path / "run"), "--minutes", "0.01"]}[command]
    assert main([command, "--game", "garda3", "--game-config", text, *rest]) == 2
    err = _one_error_line(capsys)
    assert err.startswith(f"card-envs {command}: error: {needle}")
    assert len(err) < 300 and not (tmp_path / "run").exists()


def test_nesting_within_the_limit_reaches_the_game(capsys, no_games):
    text = '{"variant": ' + "[" * 99 + "]" * 99 + "}"  # 100 levels with the object
    assert main(["evaluate", "--game", "garda3", "--game-config", text, "--a", "random",
                 "--b", "random"]) == 2
    assert "config field 'variant'" in _one_error_line(capsys)


@pytest.mark.parametrize("case", ["huge int", "deep nesting"])
def test_a_game_config_python_cannot_use_through_training_ppo_py(case, tmp_path):
    import subprocess
    import sys

    text, needle = BAD_CONFIGS[case]
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(root / "training" / "ppo.py"), "--game-config",
                           text, "--run-dir", str(tmp_path / "run"), "--minutes", "0.01"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "Warning" not in line]
    assert len(lines) == 1 and lines[0].startswith(f"training/ppo.py: error: {needle}")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("value, needle", [
    ("1" * 5000, "--set max_rounds is not a usable JSON value: an integer of more than 4300 "
                 "digits"),
    ("[" * 3000 + "]" * 3000, "--set max_rounds is not a usable JSON value: lists/objects nested "
                              "more than 100 levels"),
], ids=["huge int", "deep nesting"])
def test_a_set_value_python_cannot_use(value, needle, tmp_path, capsys):
    from card_envs.training import main as train_main

    assert train_main(["--set", f"max_rounds={value}", "--run-dir", str(tmp_path / "run")],
                      prog="card-envs train") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"card-envs train: error: {needle}") and err.count("\n") == 1
    assert not (tmp_path / "run").exists()


@pytest.fixture
def policy_module(tmp_path, monkeypatch):
    """``fuzz_policies``: callables and objects with fitting and unfitting signatures."""
    (tmp_path / "fuzz_policies.py").write_text(
        "def first_legal(observation, action_mask):\n"
        "    return int(action_mask.nonzero()[0][0])\n"
        "def one_arg(observation):\n"
        "    return 0\n"
        "class BadAct:\n"
        "    def act(self, state):\n"
        "        return 0\n"
        "class StarAct:\n"
        "    def act(self, *args):\n"
        "        return args[0].legal_actions(args[1])[0]\n"
        "class NotCallableAct:\n"
        "    act = 3\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "fuzz_policies"


@pytest.mark.parametrize("spec, needle", [
    ("json:loads", "policy 'json:loads': loads(s, *, cls=None"),
    ("os:system", "policy 'os:system': system(command) cannot be called as an (observation, "
                  "action_mask) -> action policy"),
    ("fuzz_policies:one_arg", "policy 'fuzz_policies:one_arg': one_arg(observation) cannot be "
                              "called as an (observation, action_mask) -> action policy"),
    ("fuzz_policies:BadAct", "policy 'fuzz_policies:BadAct': its act(state) cannot be called as "
                             "act(game, state, player)"),
    ("fuzz_policies:NotCallableAct", "policy 'fuzz_policies:NotCallableAct': its 'act' is a int, "
                                     "not a method act(game, state, player)"),
    ("json:loads+lookahead:2", "policy 'json:loads': loads(s, *"),
])
@pytest.mark.parametrize("command", ["evaluate", "tournament"])
def test_a_policy_with_the_wrong_signature_is_refused(command, spec, needle, capsys, no_games,
                                                       policy_module):
    policies = (["--a", spec, "--b", "random"] if command == "evaluate"
                else ["--policies", f"random,{spec}"])
    assert main([command, "--game", "garda3", *policies, "--games", "2"]) == 2
    err = _one_error_line(capsys)
    assert err.startswith(f"card-envs {command}: error: {needle}")


@pytest.mark.parametrize("spec", ["fuzz_policies:first_legal", "fuzz_policies:StarAct"])
def test_a_policy_whose_signature_fits_plays(spec, capsys, policy_module):
    assert main(["evaluate", "--game", "garda3", "--a", spec, "--b", "random",
                 "--games", "2"]) == 0
    assert f"{spec} vs random: 2 games" in capsys.readouterr().out


@pytest.mark.parametrize("n", ["99999999999999999999", "4097", "0", "000", "9" * 5000],
                         ids=["20 digits", "4097", "0", "000", "5000 digits"])
def test_lookahead_deals_are_bounded(n, capsys, no_games):
    assert main(["evaluate", "--game", "garda3", "--a", f"heuristic+lookahead:{n}", "--b",
                 "random", "--games", "2"]) == 2
    err = _one_error_line(capsys)
    shown = n if len(n) <= 24 else n[:21] + "..."
    assert "'+lookahead:N' needs N in 1..4096 (MAX_LOOKAHEAD_SAMPLES) samples (deals per " \
           f"decision), got {shown}\n" in err and len(err) < 300


def test_lookahead_deals_at_the_bound_are_accepted():
    from card_envs.evaluation.policies import MAX_LOOKAHEAD_SAMPLES, resolve_policy

    assert MAX_LOOKAHEAD_SAMPLES == 4096
    assert resolve_policy("heuristic+lookahead:4096", "garda3").samples == 4096
    assert resolve_policy("heuristic+lookahead:0001", "garda3").samples == 1


def test_final_eval_lookahead_is_bounded(tmp_path, capsys):
    from card_envs.training import main as train_main

    assert train_main(["--final-eval-lookahead", "99999999999999999999", "--run-dir",
                       str(tmp_path / "run")], prog="card-envs train") == 2
    assert capsys.readouterr().err == (
        "card-envs train: error: --final-eval-lookahead 99999999999999999999: must be <= 4096 "
        "(MAX_LOOKAHEAD_SAMPLES) deals per decision\n")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("policies, position", [("random,,heuristic", "entry 2 of 3"),
                                                ("random,heuristic,", "entry 3 of 3"),
                                                (" ,random,heuristic", "entry 1 of 3")])
def test_an_empty_policies_entry_is_refused(policies, position, capsys, no_games):
    assert main(["tournament", "--game", "garda3", "--policies", policies, "--games", "2"]) == 2
    assert _one_error_line(capsys) == (f"card-envs tournament: error: --policies {policies!r}: "
                                       f"{position} is empty (write comma-separated specs such "
                                       "as random,heuristic)\n")


def test_the_installed_command_imports_module_specs_from_the_current_folder(tmp_path):
    """`card-envs evaluate --game my_game:make_game` run in the folder that holds my_game.py (the
    installed script does not put the current folder on sys.path by itself)."""
    import shutil
    import subprocess

    (tmp_path / "my_nim.py").write_text(
        "from card_envs.testing.toy_game import make_game, HeuristicBot\n")
    exe = shutil.which("card-envs")
    if exe is None:
        pytest.skip("the card-envs script is not installed")
    proc = subprocess.run([exe, "evaluate", "--game", "my_nim:make_game", "--a",
                           "my_nim:HeuristicBot", "--b", "random", "--games", "4"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "my_nim:HeuristicBot" in proc.stdout


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    import card_envs.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_evaluate", interrupted)
    assert cli.main(["evaluate", "--game", "garda3", "--a", "random", "--b", "random",
                     "--games", "2"]) == 130
    err = capsys.readouterr().err
    assert err == "card-envs: interrupted\n"


@pytest.mark.parametrize("argv, needle", [
    (["tournament", "--game", "garda3", "--policies", "random,heuristic", "--deals", "1",
      "--png", "t.jpgx"], "must end in .png"),
    (["sprt", "--game", "garda3", "--a", "heuristic", "--b", "random", "--elo1", "100000",
      "--max-games", "10"], "--elo1 must lie in"),
])
def test_bad_png_name_and_extreme_elo_are_refused_before_any_game(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and err.count("\n") == 1


def test_evaluate_shows_a_progress_bar_unless_no_progress(capsys):
    argv = ["evaluate", "--game", "toy_game:make_game", "--a", "random", "--b", "random",
            "--games", "6"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "evaluate: 100%" in err and "6/6" in err
    assert main([*argv, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, prog", [
    (["evaluate", "--game", "garda3", "--a", "random", "--b", "random", "--bogus"],
     "card-envs evaluate"),
    (["deck", "list", "--bogus"], "card-envs deck list"),
    (["--bogus", "games"], "card-envs"),
])
def test_an_unrecognized_argument_is_named_by_the_command_given_it(argv, prog, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err == (f"{prog}: error: unrecognized arguments: --bogus "
                                       f"(see {prog} --help)\n")


@pytest.mark.parametrize("argv, message", [
    (["--games", "7"], "--games 7: not a multiple of the game's 2 seats (each deal is played once "
                       "with A in every seat); give a multiple or --unpaired"),
    (["--games", "10", "--game-config", '{"variant": "free_for_all"}'],
     "--games 10: not a multiple of the game's 3 seats"),  # G-7.4: three seats
    (["--games", "4", "--seed", "-1"], "--seed must be >= 0, got -1"),
])
def test_evaluate_refuses_unequal_seats_and_a_negative_seed(argv, message, capsys):
    rc = main(["evaluate", "--game", "garda3", "--a", "random", "--b", "random", *argv])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith(f"card-envs evaluate: error: {message}")


def test_evaluate_unpaired_takes_any_count(capsys):
    rc = main(["evaluate", "--game", "garda3", "--a", "random", "--b", "random", "--games", "1",
               "--unpaired", "--no-progress"])
    assert rc == 0 and "random vs random: 1 game: win" in capsys.readouterr().out


def test_python_dash_m_card_envs_runs_the_command():
    import subprocess

    out = subprocess.run([sys.executable, "-m", "card_envs", "games"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and "garda3" in out.stdout


def test_help_into_a_closed_pipe_ends_quietly():
    import subprocess

    # `card-envs train --help | head -1`: the reader leaves after one line
    proc = subprocess.Popen([sys.executable, "-m", "card_envs", "train", "--help"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_a_script_run_by_run_script_ends_quietly_into_a_closed_pipe(tmp_path):
    import subprocess

    # scripts/probes/*.py end with run_script(main): `... | head -1` leaves after one line
    script = tmp_path / "many_lines.py"
    script.write_text("from card_envs.cli import run_script\n\n\ndef main(argv):\n"
                      "    for i in range(200000):\n        print(i)\n    return 0\n\n\n"
                      "run_script(main)\n")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"0\n"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1  # reader_left's status
    assert "Traceback" not in err and "BrokenPipeError" not in err
