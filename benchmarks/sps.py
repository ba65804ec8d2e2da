"""Steps per second of every game in the suite, side by side with PettingZoo classic envs.

Three figures per game (DESIGN.md "Performance: how we measure"), all in ONE run and interleaved
(round 1 measures every loop once, then round 2, then round 3; the median of the rounds is
reported), because these shared machines are noisy and only ratios mean much:

- **engine decisions/s**: random legal playouts on the Game API (``legal_actions`` +
  ``apply_action`` each decision, a new ``new_state`` when a game ends);
- **env() steps/s**: the standard PettingZoo loop ``for agent in env.agent_iter(): obs, r, term,
  trunc, info = env.last(); action = random legal action from obs["action_mask"] (None when
  done); env.step(action)`` — counted per decision (``step(None)`` of finished agents is done but
  not counted), ``reset`` when the game is over;
- **clones/s**: ``game.clone`` of mid-game states (20 random decisions in), what the lookahead
  and search bots do per rollout;
- **env() steps/s per observation mode**: the same ``env()`` loop with
  ``observation_mode="dict"`` and ``"entities"`` (the flat mode is the env() column; a second
  table);
- **MaskablePPO timesteps/s**: ``learn`` on the single-agent view against a random opponent with
  the model the trainer builds (:func:`card_envs.training.model.make_model`,
  ``torch.set_num_threads(1)``), timed over whole rollout+update iterations: once with the main
  job's recipe (:data:`MAIN_RECIPE`, the trainer's defaults) and once with issue 18's remedies
  (:data:`REMEDIES`: the KL anchor's extra forward pass, the privileged critic's observations);
  the PettingZoo rows with the main recipe (no privileged view there).

PettingZoo references: ``connect_four_v3`` (``raw_env()`` as its "engine" figure, ``env()``,
PPO), ``leduc_holdem_v4`` and ``texas_holdem_v4`` (``raw_env()`` as "engine", ``env()``; PPO
with ``--pz-ppo all``), and a section setting the suite's Leduc Hold'em beside PettingZoo's
``leduc_holdem_v4`` (the same game); PPO on a
PettingZoo env goes through a small AEC single-agent view (:class:`AECSingleAgent`, random
opponent, same hyperparameters). Leduc/Texas need ``pip install 'pettingzoo[classic]'`` (rlcard);
if it is missing those rows say so.

Usage (from the repository root)::

    python benchmarks/sps.py                   # default: 3 rounds, <= ~4.5 minutes in all
    python benchmarks/sps.py --seconds 1       # quick look (noisy)
    python benchmarks/sps.py --games garda3 --no-ppo
    python benchmarks/sps.py --games leduc_holdem --no-ppo   # Leduc against PettingZoo's

Writes ``benchmarks/results.json`` and ``benchmarks/RESULTS.md`` (``--out-dir``). Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402

from card_envs.bots.base import RandomBot  # noqa: E402
from card_envs.core.registry import available_games, env_module, make_game  # noqa: E402


# ---------------------------------------------------------------------------------------------
# the loops: each returns (units done, seconds) after running for about `seconds`
def engine_loop(game, seconds: float, seed: int = 0):
    rng = random.Random(seed)
    choice = rng.choice
    legal_actions, apply_action = game.legal_actions, game.apply_action
    is_terminal = game.is_terminal
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    g = 0
    while True:
        state = game.new_state(seed * 100_003 + g)
        g += 1
        while not is_terminal(state):
            apply_action(state, choice(legal_actions(state)))
            n += 1
        if time.perf_counter() >= deadline:
            return n, time.perf_counter() - t0


def mid_game_states(game, k: int = 8, decisions: int = 20, seed: int = 0) -> list:
    """``k`` states after ``decisions`` random legal decisions each (fewer if a game ends)."""
    rng = random.Random(seed)
    states = []
    for g in range(k):
        state = game.new_state(seed * 1_000 + g)
        for _ in range(decisions):
            if game.is_terminal(state):
                break
            game.apply_action(state, rng.choice(game.legal_actions(state)))
        states.append(state)
    return states


def clone_loop(game, seconds: float, seed: int = 0):
    """``game.clone`` of mid-game states (what a lookahead or search bot does per rollout)."""
    states = mid_game_states(game, seed=seed)
    clone = game.clone
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        for state in states:
            for _ in range(100):
                clone(state)
        n += 100 * len(states)
    return n, time.perf_counter() - t0


def aec_loop(env, seconds: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    episode = 0
    while True:
        env.reset(seed=seed + episode)
        episode += 1
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                n += 1
            env.step(action)
        if time.perf_counter() >= deadline:
            return n, time.perf_counter() - t0


class AECSingleAgent(gymnasium.Env):
    """Any PettingZoo AEC env with ``{"observation", "action_mask"}`` observations as a
    single-agent env for MaskablePPO: the learner plays seat ``player_{episode % 2}``, the other
    agents play random legal actions; reward at the end (the learner's cumulative reward)."""

    def __init__(self, aec_env, seed: int = 0):
        self.env = aec_env
        self.env.reset(seed=seed)
        agent0 = self.env.possible_agents[0]
        obs_space = self.env.observation_space(agent0)["observation"]
        self.observation_space = spaces.Box(-np.inf, np.inf, (int(np.prod(obs_space.shape)),),
                                            np.float32)
        self.action_space = spaces.Discrete(self.env.action_space(agent0).n)
        self.rng = np.random.default_rng(seed)
        self.episode = 0
        self._mask = np.ones(self.action_space.n, dtype=np.int8)

    def _advance(self):
        """Random opponents move until the learner is to act (False) or the game ends (True)."""
        env = self.env
        while env.agents:
            agent = env.agent_selection
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                if agent == self.me:
                    self._last_obs = obs["observation"]
                env.step(None)
                continue
            if agent == self.me:
                self._last_obs = obs["observation"]
                self._mask = obs["action_mask"].astype(np.int8)
                return False
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[self.rng.integers(len(legal))]))
        return True

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        while True:
            self.env.reset(seed=int(self.rng.integers(2**31)))
            self.me = self.env.possible_agents[self.episode % len(self.env.possible_agents)]
            self.episode += 1
            if not self._advance():
                return np.asarray(self._last_obs, np.float32).reshape(-1), {}

    def step(self, action):
        self.env.step(int(action))
        done = self._advance()
        obs = np.asarray(self._last_obs, np.float32).reshape(-1)
        if done:
            self._mask = np.ones(self.action_space.n, dtype=np.int8)
            return obs, float(self.env._cumulative_rewards.get(self.me, 0.0)), True, False, {}
        return obs, 0.0, False, False, {}

    def action_masks(self):
        return self._mask


#: the main job's recipe (the trainer's defaults: plain critic, no KL anchor), pinned
MAIN_RECIPE = {"privileged_critic": False, "anchor_coef": 0.0, "critic_warmup_steps": 0,
               "ent_coef": 0.001, "clip_range_vf": 0.0, "learning_rate": 1e-4}
#: the recipe with issue 18's remedies ("combined" in scripts/ablation.py): the KL anchor's extra
#: forward pass and the privileged critic's observations, for the "ppo_remedies" column
REMEDIES = {"privileged_critic": True, "anchor_coef": 0.5, "anchor_decay_steps": 1_000_000,
            "critic_warmup_steps": 0, "ent_coef": 0.01, "clip_range_vf": 0.2,
            "learning_rate": 3e-4}


class PPOLoop:
    """MaskablePPO on a single-agent env; timed over whole learn() iterations. ``fields``
    override the trainer's default :class:`Args` (``None``: the defaults, the main job's
    recipe); ``make_env(i, privileged)``."""

    def __init__(self, make_env, fields: dict | None = None):
        import dataclasses

        import torch
        from stable_baselines3.common.vec_env import DummyVecEnv

        from card_envs.training.args import Args
        from card_envs.training.model import make_model

        torch.set_num_threads(1)
        a = dataclasses.replace(Args(seed=0), **(fields or {}))
        vec = DummyVecEnv([(lambda i=i: make_env(i, a.privileged_critic))
                           for i in range(a.n_envs)])
        self.rollout = a.n_envs * a.n_steps
        self.model = make_model(vec, a)  # the trainer's own factory
        self.model.set_anchor()  # the anchor's KL term is computed as in training
        self.model.learn(self.rollout)  # warm-up (not timed)

    def __call__(self, seconds: float):
        n0 = self.model.num_timesteps
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            self.model.learn(self.rollout, reset_num_timesteps=False)
        return self.model.num_timesteps - n0, time.perf_counter() - t0


# ---------------------------------------------------------------------------------------------
def build_measures(games, ppo: bool, pz_ppo: str):
    """``[(row, column, setup)]``; ``setup()`` returns the callable ``run(seconds)``."""
    from card_envs.wrappers.single_agent import SingleAgentEnv

    measures = []
    for name in games:
        measures.append((name, "engine", lambda name=name: (
            lambda s, g=make_game(name): engine_loop(g, s))))
        measures.append((name, "clone", lambda name=name: (
            lambda s, g=make_game(name): clone_loop(g, s))))
        measures.append((name, "env", lambda name=name: (
            lambda s, e=env_module(name).env(): aec_loop(e, s))))
        for mode in VIEW_MODES:
            measures.append((name, f"env_{mode}", lambda name=name, mode=mode: (
                lambda s, e=env_module(name).env(observation_mode=mode): aec_loop(e, s))))
        if ppo:
            measures.append((name, "ppo", lambda name=name: PPOLoop(
                lambda i, priv, g=make_game(name): SingleAgentEnv(g, RandomBot(i), seed=i,
                                                                  privileged=priv),
                MAIN_RECIPE)))
            measures.append((name, "ppo_remedies", lambda name=name: PPOLoop(
                lambda i, priv, g=make_game(name): SingleAgentEnv(g, RandomBot(i), seed=i,
                                                                  privileged=priv),
                REMEDIES)))
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as exc:  # pragma: no cover - pettingzoo always has connect_four
        print(f"connect_four_v3 unavailable: {exc}")
    else:
        measures.append(("connect_four_v3", "engine",
                         lambda: (lambda s, e=connect_four_v3.raw_env(): aec_loop(e, s))))
        measures.append(("connect_four_v3", "env",
                         lambda: (lambda s, e=connect_four_v3.env(): aec_loop(e, s))))
        if ppo and pz_ppo != "none":
            measures.append(("connect_four_v3", "ppo", lambda: PPOLoop(
                lambda i, priv: AECSingleAgent(connect_four_v3.env(), seed=i), MAIN_RECIPE)))
    missing = {}
    for mod_name in ("leduc_holdem_v4", "texas_holdem_v4"):
        try:
            import importlib

            mod = importlib.import_module(f"pettingzoo.classic.{mod_name}")
            mod.env().reset(seed=0)
        except Exception as exc:  # rlcard not installed
            missing[mod_name] = f"{type(exc).__name__}: {exc}"
            continue
        # its raw_env() (no PettingZoo wrappers) as the "engine" figure, as for connect_four_v3
        measures.append((mod_name, "engine",
                         lambda mod=mod: (lambda s, e=mod.raw_env(): aec_loop(e, s))))
        measures.append((mod_name, "env", lambda mod=mod: (lambda s, e=mod.env(): aec_loop(e, s))))
        if ppo and pz_ppo == "all":
            measures.append((mod_name, "ppo", lambda mod=mod: PPOLoop(
                lambda i, priv: AECSingleAgent(mod.env(), seed=i), MAIN_RECIPE)))
    return measures, missing


def machine_info() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from card_envs.training.summary import versions

    return {"machine": platform.machine(), "cpu": cpu, **versions(extra=("rlcard",))}


#: the observation modes besides "flat" measured in the env() loop
VIEW_MODES = ("dict", "entities")
COLUMNS = {"engine": "engine decisions/s", "env": "env() steps/s",
           **{f"env_{m}": f"env(observation_mode={m!r}) steps/s" for m in VIEW_MODES},
           "ppo": "MaskablePPO steps/s (main-job recipe)",
           "ppo_remedies": "MaskablePPO steps/s (with the anchor and the privileged critic)",
           "clone": "clones/s"}


def markdown(results: dict, info: dict, meta: dict, missing: dict) -> str:
    ref = results.get("connect_four_v3", {})
    lines = [
        "# Steps per second",
        "",
        f"`python benchmarks/sps.py {meta['argv']}` — median of {meta['rounds']} interleaved "
        f"rounds of {meta['seconds']:.1f} s per loop; ratios are against `connect_four_v3` "
        "measured in the same run (engine column: its `raw_env()` loop; env() column: its "
        "`env()` with PettingZoo's wrappers). Our `env()` has PettingZoo's safety checks built "
        "in, so `env()` is the like-for-like comparison.",
        "",
        "| env | engine decisions/s | × c4 raw_env | env() steps/s | × c4 env() | "
        "MaskablePPO steps/s, main-job recipe | × c4 PPO | MaskablePPO steps/s, with the "
        "anchor and the privileged critic | × c4 PPO | clones/s of a mid-game state |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def cell(row, col):
        v = results.get(row, {}).get(col)
        if v is None:
            return "–", "–"
        r = ref.get("ppo" if col == "ppo_remedies" else col)
        return f"{v['median']:,.0f}", (f"{v['median'] / r['median']:.2f}" if r else "–")

    for row in results:
        cells = [x for col in ("engine", "env", "ppo", "ppo_remedies") for x in cell(row, col)]
        clone = results.get(row, {}).get("clone")
        cells.append(f"{clone['median']:,.0f}" if clone else "–")
        label = f"{row} (raw_env as engine)" if row == "connect_four_v3" else row
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for row, why in missing.items():
        lines.append(f"| {row} | not measured: {why} |  |  |  |  |  |  |  |  |")
    views = [row for row in results if any(f"env_{m}" in results[row] for m in VIEW_MODES)]
    if views:
        lines += ["", "env() steps/s per observation mode (the same loop; × flat: against the "
                  "env() column):", "",
                  "| env | flat | " + " | ".join(f"{m} | × flat" for m in VIEW_MODES) + " |",
                  "|---|---:|" + "---:|---:|" * len(VIEW_MODES)]
        for row in views:
            flat = results[row].get("env")
            cells = [f"{flat['median']:,.0f}" if flat else "–"]
            for m in VIEW_MODES:
                v = results[row].get(f"env_{m}")
                cells += [f"{v['median']:,.0f}" if v else "–",
                          f"{v['median'] / flat['median']:.2f}" if v and flat else "–"]
            lines.append(f"| {row} | " + " | ".join(cells) + " |")
    lines += leduc_section(results)
    lines += ["", "Machine and versions:", ""]
    lines += [f"- {k}: {v}" for k, v in info.items()]
    load = meta.get("load")
    lines += ["", f"Run at {meta['when']} in {meta['total_seconds']:.0f} s"
              + (f" at nice {meta['nice']}, load average (1 min) {load[0]:.1f} at the start and "
                 f"{load[1]:.1f} at the end on {os.cpu_count()} cpus" if load else "")
              + ". These shared machines are noisy: compare ratios, not absolute numbers.", ""]
    return "\n".join(lines)


def leduc_section(results: dict) -> list[str]:
    """Markdown lines comparing the suite's Leduc Hold'em with PettingZoo's ``leduc_holdem_v4``
    (RLCard's engine) measured in the same run: engine (ours: the Game API; theirs:
    ``raw_env()``) and ``env()``; ``[]`` when either was not measured."""
    ours, theirs = results.get("leduc_holdem", {}), results.get("leduc_holdem_v4", {})
    if not ours or not theirs:
        return []
    lines = ["", "## Leduc Hold'em against PettingZoo's `leduc_holdem_v4`", "",
             "The same game (the rules of OpenSpiel's `leduc_poker`, RLCard's and PettingZoo's "
             "Leduc), random legal play; PettingZoo's runs on RLCard's engine. Engine: ours the "
             "Game API (`legal_actions` + `apply_action`), theirs `raw_env()` (the AEC env "
             "without wrappers, as connect_four_v3 above); env(): the full PettingZoo loop "
             "both.", "",
             "| loop | card_envs `leduc_holdem_v0` | PettingZoo `leduc_holdem_v4` | × PettingZoo |",
             "|---|---:|---:|---:|"]
    for col, label in (("engine", "engine decisions/s (theirs: raw_env() steps/s)"),
                       ("env", "env() steps/s")):
        a, b = ours.get(col), theirs.get(col)
        lines.append(f"| {label} | {a['median']:,.0f} | {b['median']:,.0f} | "
                     f"{a['median'] / b['median']:.1f} |" if a and b else f"| {label} | – | – | – |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--seconds", type=float, default=10.0,
                   help="duration of one measurement of one loop (shrunk to fit --budget)")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median reported)")
    p.add_argument("--budget", type=float, default=255.0,
                   help="seconds of measuring in all; --seconds is shrunk so rounds x loops x "
                        "seconds fits (0: no limit)")
    p.add_argument("--games", default="all", help="comma-separated games, or 'all' available")
    p.add_argument("--no-ppo", action="store_true", help="skip the MaskablePPO column")
    p.add_argument("--pz-ppo", choices=["connect_four", "all", "none"], default="connect_four",
                   help="which PettingZoo envs get the MaskablePPO measurement")
    p.add_argument("--out-dir", default=str(Path(__file__).resolve().parent),
                   help="where results.json and RESULTS.md go")
    args = p.parse_args(argv)
    t_start = time.time()
    load_start = os.getloadavg()[0]
    games = available_games() if args.games == "all" else args.games.split(",")
    measures, missing = build_measures(games, not args.no_ppo, args.pz_ppo)
    seconds = args.seconds
    if args.budget > 0 and args.rounds * len(measures) * seconds > args.budget:
        seconds = args.budget / (args.rounds * len(measures))
        print(f"[sps] {len(measures)} loops x {args.rounds} rounds: {args.seconds:.1f}s each "
              f"exceeds --budget {args.budget:.0f}s; using {seconds:.1f}s per measurement")
    print(f"[sps] setting up {len(measures)} loops ...", flush=True)
    runners = [(row, col, setup()) for row, col, setup in measures]
    samples: dict[tuple[str, str], list[float]] = {(r, c): [] for r, c, _ in runners}
    for rnd in range(args.rounds):
        for row, col, run in runners:
            n, dt = run(seconds)
            samples[(row, col)].append(n / dt)
            print(f"[sps] round {rnd + 1}/{args.rounds} {row:18s} {col:6s} {n / dt:12,.0f}/s",
                  flush=True)
    results: dict[str, dict] = {}
    for (row, col), vals in samples.items():
        results.setdefault(row, {})[col] = {"median": statistics.median(vals), "runs": vals}
    info = machine_info()
    meta = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "rounds": args.rounds,
            "seconds": seconds, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "total_seconds": time.time() - t_start, "nice": os.nice(0),
            "load": [load_start, os.getloadavg()[0]]}
    md = markdown(results, info, meta, missing)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(
        {"results": results, "missing": missing, "machine": info, **meta}, indent=1))
    (out / "RESULTS.md").write_text(md)
    print()
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
