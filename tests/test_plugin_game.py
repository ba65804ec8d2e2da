"""A game of another package (issue 23): Pebbles, in ``tests/plugin_game/`` (its own package
``cardenvs_pebbles`` and ``pyproject.toml``), found through the ``card_envs.games`` entry point
and then played by every tool without any file of ``card_envs/`` naming it.

The package is not installed: its folder goes on ``PYTHONPATH`` beside a ``.dist-info`` written
from its ``pyproject.toml`` (what ``pip install`` would write), so ``importlib.metadata`` finds the
entry point; the tools run in fresh interpreters (``python -m card_envs.cli``), as a user would.

Pebbles (rules PB-1..PB-4 in ``cardenvs_pebbles/__init__.py``): 7 pebbles, seat 0 starts (PB-2),
a turn takes 1 or 2 (PB-3; action 0 takes 1, action 1 takes 2), whoever takes the last pebble
loses (PB-4). The heuristic leaves 3k + 1 pebbles; 7 = 3*2 + 1 is lost for the seat to move
against it: heuristic against heuristic goes 7 -1-> 6 -2-> 4 -1-> 3 -2-> 1 -1-> 0, seat 0 takes
the last pebble, returns [-1, +1], whatever the seed (no chance).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from card_envs.core import registry
from card_envs.core.errors import ConfigError
from card_envs.core.records import GameRecord

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugin_game"
PYPROJECT = tomllib.loads((PLUGIN / "pyproject.toml").read_text(encoding="utf-8"))


def _dist_info(site: Path, name: str, version: str, entry_points: dict[str, str]) -> None:
    """A ``<name>-<version>.dist-info`` in ``site`` declaring ``entry_points`` (name -> object)
    in the group ``card_envs.games``: what ``pip install`` writes, as ``importlib.metadata`` reads
    it."""
    folder = site / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                                     encoding="utf-8")
    lines = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (folder / "entry_points.txt").write_text(f"[card_envs.games]\n{lines}", encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the plugin's ``.dist-info``, made from its ``pyproject.toml``."""
    site = tmp_path_factory.mktemp("site")
    project = PYPROJECT["project"]
    _dist_info(site, project["name"], project["version"],
               project["entry-points"]["card_envs.games"])
    return site


def _run(args: list[str], site: Path, cwd: Path, stdin: str = "", extra_site: Path | None = None):
    """``python *args`` in a fresh interpreter that sees card-envs and the plugin."""
    paths = [str(ROOT), str(PLUGIN), str(site)] + ([str(extra_site)] if extra_site else [])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, input=stdin, text=True,
                          capture_output=True, timeout=600, check=False)


def test_no_file_of_the_package_names_the_plugin_game():
    hits = [str(p.relative_to(ROOT)) for p in (ROOT / "card_envs").rglob("*")
            if p.is_file() and p.suffix in (".py", ".md", ".toml", ".txt", ".json")
            and "pebble" in p.read_text(encoding="utf-8", errors="replace").lower()]
    assert hits == []


def test_the_entry_point_registers_it_and_it_passes_check_game_the_env_and_gymnasium(
        site, tmp_path):
    code = """
import json, warnings
import card_envs
from card_envs.core import registry
warnings.simplefilter("error", registry.PluginWarning)  # none: the plugin loads
from card_envs.testing import check_game
from card_envs.testing.variants import VARIANTS
entry = registry.ENTRIES["pebbles"]
out = {"games": list(registry.GAMES), "origin": entry.origin, "from": entry.distribution,
       "variants": VARIANTS["pebbles"], "checked": registry.check_entry("pebbles").name,
       "env": card_envs.pebbles_v0.__name__, "in_all": "pebbles_v0" in card_envs.__all__}
out["check_game"] = [check_game(registry.make_game("pebbles", **c), games=40)
                     for c in VARIANTS["pebbles"]]
from pettingzoo.test import api_test
api_test(card_envs.pebbles_v0.env(), num_cycles=50)
import gymnasium
from gymnasium.utils.env_checker import check_env
from card_envs.wrappers import GYMNASIUM_IDS
env = gymnasium.make(GYMNASIUM_IDS["pebbles"], opponent="heuristic", learner_seat=0)
check_env(env.unwrapped)
obs, info = env.reset(seed=5)
rewards = []
while True:  # always take 1 pebble (action 0), against the heuristic
    obs, reward, terminated, truncated, info = env.step(0)
    rewards.append(reward)
    if terminated or truncated:
        break
out["gym"] = [GYMNASIUM_IDS["pebbles"], list(obs.shape), rewards, info["returns"]]
print(json.dumps(out))
"""
    proc = _run(["-c", code], site, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    assert out["games"][-1] == "pebbles" and out["checked"] == "pebbles"
    assert out["origin"] == ("entry point pebbles = cardenvs_pebbles:GAME_ENTRY of distribution "
                             "'cardenvs-pebbles' 0.1.0")
    assert out["from"] == "cardenvs-pebbles"
    assert out["variants"] == [{}, {"pebbles": 4}, {"pebbles": 12}]
    assert out["env"] == "cardenvs_pebbles.pebbles_v0" and out["in_all"]
    for counts in out["check_game"]:  # every check ran on these 2..12-decision games
        assert counts["games"] == counts["terminal"] == 40
        assert counts["mutation_walks"] >= 1 and counts["mid_game_reloads"] >= 1
    # learner seat 0 takes 1 each turn: 7 -> 6 (heuristic takes 2) -> 4 -> (takes 2) 3 ... the
    # heuristic answers 6 -> 4 and 3 -> 1, so the learner takes the last pebble: -1 (PB-4)
    gym_id, shape, rewards, returns = out["gym"]
    assert (gym_id, shape) == ("card_envs/Pebbles-v0", [3])
    assert rewards == [0.0, 0.0, -1.0] and returns == [-1.0, 1.0]


def test_evaluate_play_and_replay_from_the_command_line(site, tmp_path):
    cli = ["-m", "card_envs.cli"]
    proc = _run([*cli, "games"], site, tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    row = [line.split() for line in proc.stdout.splitlines() if line.startswith("pebbles ")]
    assert row == [["pebbles", "cardenvs_pebbles.pebbles_v0", "2", "2", "0", "cardenvs-pebbles"]]
    # heuristic against heuristic: seat 1 wins every deal (module docstring), and A sits in each
    # seat equally often: 5 wins (seat 1) and 5 losses (seat 0) of 10
    proc = _run([*cli, "evaluate", "--game", "pebbles", "--a", "heuristic", "--b", "heuristic",
                 "--games", "10", "--json", "e.json", "--no-progress"], site, tmp_path)
    assert proc.returncode == 0, proc.stderr
    result = json.loads((tmp_path / "e.json").read_text())
    assert (result["wins"], result["draws"], result["losses"]) == (5, 0, 5)
    assert result["per_seat"] == {"0": [0, 0, 5], "1": [5, 0, 0]}
    # worker processes (spawned interpreters) find it through the entry point too
    proc = _run([*cli, "tournament", "--game", "pebbles", "--policies", "heuristic,random",
                 "--deals", "2", "--workers", "2", "--json", "t.json", "--no-progress"], site,
                tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "2 worker(s)" in proc.stdout
    tournament = json.loads((tmp_path / "t.json").read_text())
    assert (tournament["game"], len(tournament["games_played"]), tournament["forfeits"]) == \
        ("pebbles", 4, {})  # 2 deals, each with heuristic in both seats
    # a human in seat 0 types "1" (the first legal move: take 1 pebble) each turn: 7 -> 6, the
    # heuristic takes 2 -> 4, 1 -> 3, it takes 2 -> 1, the human takes the last pebble and loses
    proc = _run([*cli, "play", "pebbles", "--opponent", "heuristic", "--seed", "3"], site,
                tmp_path, stdin="1\n" * 5)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert "Traceback" not in proc.stderr
    record = GameRecord.load(tmp_path / "game-pebbles-3.json")
    assert (record.game, record.version, record.actions, record.outcome) == \
        ("pebbles", 0, [0, 1, 0, 1, 0], [-1.0, 1.0])
    proc = _run([*cli, "replay", "game-pebbles-3.json", "--to-end"], site, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "the replay reproduces the recorded outcome [-1.0, 1.0]" in proc.stdout
    assert proc.stdout.count("\nmove ") == 5


def test_a_broken_plugin_is_one_warning_line_naming_its_entry_point(site, tmp_path):
    broken = tmp_path / "broken_site"
    _dist_info(broken, "broken-plugin", "1.0", {
        "broken": "cardenvs_pebbles.no_such_module:GAME_ENTRY",   # does not import
        "misnamed": "cardenvs_pebbles:GAME_ENTRY",                # its GameEntry is 'pebbles'
        "not_an_entry": "cardenvs_pebbles.rules:PebblesGame"})    # a class: called, no entry
    proc = _run(["-m", "card_envs.cli", "games"], site, tmp_path, extra_site=broken)
    assert proc.returncode == 0, proc.stderr
    assert "pebbles " in proc.stdout and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    where = "of distribution 'broken-plugin' 1.0 (card_envs.games) failed to load and is skipped"
    assert lines == [
        "card-envs: warning: game plugin entry point broken = cardenvs_pebbles.no_such_module:"
        f"GAME_ENTRY {where}: ModuleNotFoundError: No module named "
        "'cardenvs_pebbles.no_such_module'",
        "card-envs: warning: game plugin entry point misnamed = cardenvs_pebbles:GAME_ENTRY "
        f"{where}: ConfigError: its GameEntry is named 'pebbles': the entry point must be named "
        "as its game",
        "card-envs: warning: game plugin entry point not_an_entry = cardenvs_pebbles.rules:"
        f"PebblesGame {where}: TypeError: PebblesGame.__init__() missing 1 required positional "
        "argument: 'config'"]
    # the unknown-game error says why the game is missing, in one line, exit 2
    proc = _run(["-m", "card_envs.cli", "evaluate", "--game", "broken", "--a", "random", "--b",
                 "random"], site, tmp_path, extra_site=broken)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith(
        "card-envs evaluate: error: unknown game 'broken': its game plugin entry point broken = ")


# -- in this process: the registration API's errors, and the game without its entry point -------
@pytest.fixture
def plugin_on_path(monkeypatch):
    """The plugin's folder on ``sys.path``; every record registered during the test removed."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    views = [registry.ENTRIES, registry.GAMES, registry.ENV_MODULES, registry.HEURISTICS,
             registry.GAME_EXTRAS]
    saved = [dict(v) for v in views]
    yield
    for view, before in zip(views, saved):
        view.clear()
        view.update(before)


def test_register_game_then_every_name_lookup_finds_it(plugin_on_path, tmp_path):
    import card_envs
    from card_envs.core.records import replay
    from card_envs.evaluation.evaluate import evaluate

    entry = card_envs.register_game("pebbles", "cardenvs_pebbles.rules:make_game",
                                    "cardenvs_pebbles.pebbles_v0",
                                    "cardenvs_pebbles.bot:HeuristicBot", variants=[{"pebbles": 4}])
    assert entry.variants == ({"pebbles": 4},) and entry.origin == ""
    assert card_envs.registered_games()[-1] is entry
    assert card_envs.pebbles_v0.raw_env().game.name == "pebbles"
    result = evaluate("pebbles", "heuristic", "heuristic", games=4, seed=0)
    assert (result.wins, result.losses) == (2, 2)  # seat 1 wins every deal (module docstring)
    game = registry.make_game("pebbles")
    state = game.new_state(0)
    for action in [0, 1, 0, 1, 0]:
        game.apply_action(state, action)
    path = tmp_path / "r.json"
    from card_envs.core.records import record_of

    record_of(game, 0, [0, 1, 0, 1, 0], state).save(path)
    _, final = replay(GameRecord.load(path))
    assert game.returns(final) == [-1.0, 1.0]


def test_registration_errors_name_the_entry(plugin_on_path, tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match=r"game 'garda3' is registered already, as game "
                                          r"'garda3' with factory 'card_envs.garda3.rules:"):
        registry.register_game("garda3", "cardenvs_pebbles.rules:make_game")
    with pytest.raises(ConfigError, match=r"game entry 'pebbles': factory 'cardenvs_pebbles\."
                                          r"rules\.make_game' is not of the form"):
        registry.register_game("pebbles", "cardenvs_pebbles.rules.make_game")
    with pytest.raises(ConfigError, match=r"game entry: name 'Pebbles' must be lower-case"):
        registry.register_game("Pebbles", "cardenvs_pebbles.rules:make_game")
    with pytest.raises(ConfigError, match=r"game entry 'pebbles': variants\[1\] = 4 is not a "
                                          r"config dict"):
        registry.register_game("pebbles", "cardenvs_pebbles.rules:make_game",
                               variants=({}, 4))
    with pytest.raises(ConfigError, match=r"game 'pebbles': env-module name 'garda3_v1' is "
                                          r"taken by game 'garda3'"):
        registry.register_game("pebbles", "cardenvs_pebbles.rules:make_game",
                               "cardenvs_pebbles.garda3_v1")
    assert "pebbles" not in registry.GAMES  # nothing of a refused record stays
    # a factory path that does not resolve, a Game.name other than the registry name
    registry.register_game("stones", "cardenvs_pebbles.rules:make_stones")
    with pytest.raises(ConfigError, match=r"game 'stones': its factory 'cardenvs_pebbles\.rules:"
                                          r"make_stones' does not resolve: .* has no attribute"):
        registry.make_game("stones")
    registry.register_game("misnamed", "cardenvs_pebbles.rules:make_game")
    with pytest.raises(ConfigError, match=r"game 'misnamed': its factory 'cardenvs_pebbles\."
                                          r"rules:make_game' built a game named 'pebbles'"):
        registry.check_entry("misnamed")
    # a game class that declares not every fact (here no zero_sum)
    (tmp_path / "unsure_game.py").write_text(
        "from card_envs.core.game import GameBase\n"
        "from cardenvs_pebbles.rules import PebblesConfig, PebblesGame\n"
        "Unsure = type('Unsure', (GameBase,), {k: v for k, v in vars(PebblesGame).items()\n"
        "                                      if k == '__init__' or k != 'zero_sum'\n"
        "                                      and not k.startswith('__')})\n"
        "Unsure.name = 'unsure'\n"
        "def make_game(**config):\n"
        "    return Unsure(PebblesConfig(**config))\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register_game("unsure", "unsure_game:make_game")
    with pytest.raises(ConfigError, match=r"game 'unsure': Unsure \(unsure\) declares no "
                                          r"'zero_sum'"):
        registry.make_game("unsure")


def test_an_encoder_bind_may_read_the_game_after_unpickling(plugin_on_path):
    """``PebblesEncoder.bind`` reads ``game.config`` (docs/adding_a_game.md): a game pickled or
    deep-copied after its encoder was built rebuilds the encoder from the whole game."""
    import copy

    from cardenvs_pebbles.rules import make_game

    game = make_game(pebbles=12)
    state = game.new_state(0)
    seen = game.observe(state, 0)  # the encoder is built (and bound) now
    assert seen.tolist() == pytest.approx([12 / 20, 1.0, 0.0])
    for other in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert other.observe(state, 0).tolist() == seen.tolist()
        assert other.encoder.game is other and other.encoder.scale == 1 / 20


def test_a_record_of_an_unregistered_game_replays_with_its_factory(plugin_on_path, tmp_path,
                                                                   monkeypatch, capsys):
    """``card-envs play module:factory`` saves a record named by ``Game.name``; ``card-envs
    replay --game module:factory`` replays it where the game is not registered."""
    import io

    from card_envs.cli import main

    assert "pebbles" not in registry.GAMES
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 5))  # the moves of the docstring
    assert main(["play", "cardenvs_pebbles.rules:make_game", "--seed", "3"]) == 0
    capsys.readouterr()
    assert main(["replay", "game-pebbles-3.json", "--to-end"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("card-envs replay: error: game-pebbles-3.json: cannot build game "
                          "'pebbles' with config {'pebbles': 7}: unknown game 'pebbles'")
    assert err.rstrip().endswith("(a game of your own: name its factory, card-envs replay --game "
                                 "module:factory, or register it: docs/adding_a_game.md)")
    assert main(["replay", "game-pebbles-3.json", "--to-end", "--game",
                 "cardenvs_pebbles.rules:make_game"]) == 0
    assert "the replay reproduces the recorded outcome [-1.0, 1.0]" in capsys.readouterr().out
    (tmp_path / "stones_game.py").write_text(  # takes the config, names itself otherwise
        "from cardenvs_pebbles.rules import make_game as make_pebbles\n"
        "def make_game(**config):\n"
        "    game = make_pebbles(**config)\n"
        "    game.name = 'stones'\n"
        "    return game\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["replay", "game-pebbles-3.json", "--game", "stones_game:make_game"]) == 2
    assert capsys.readouterr().err == ("card-envs replay: error: game-pebbles-3.json: the record "
                                       "is of game 'pebbles', but 'stones_game:make_game' builds "
                                       "'stones'\n")
