"""Probe (issue 18): duplicate rewards. Each episode's terminal reward is the learner's return
minus the return the heuristic would have got in the same seat, on the same deal, against the same
opponent (replayed from the episode's initial state): the deal's luck cancels, only what the
learner's deviations changed is rewarded. The replay happens after the episode and depends on no
learner action, so it is a baseline and the policy gradient stays unbiased.

    python duplicate.py --game garda3 --minutes 5 --seed 1 --run-dir ...   (trainer flags)
Env var DUP_SCALE (default 0.5) scales the difference.
"""
import os, sys
import card_envs.wrappers.single_agent as sa
from card_envs.evaluation.policies import resolve_policy

SCALE = float(os.environ.get("DUP_SCALE", "0.5"))
Base = sa.SingleAgentEnv


class RecordingGame:
    def __init__(self, game):
        object.__setattr__(self, "_g", game)
        object.__setattr__(self, "initial", None)
    def __getattr__(self, k):
        return getattr(self._g, k)
    def __setattr__(self, k, v):
        object.__setattr__(self, k, v)
    def new_state(self, seed):
        s = self._g.new_state(seed)
        self.initial = self._g.clone(s)
        return s


class DuplicateEnv(Base):
    def __init__(self, game, opponents, **kw):
        g = RecordingGame(game)
        super().__init__(g, opponents, **kw)
        self._base = resolve_policy("heuristic", os.environ["DUP_GAME"], seed=kw.get("seed") or 0, game=game)
        self._raw = game
        self.dup_stats = [0, 0]

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        if terminated:
            g = self._raw
            s = g.clone(self.game.initial)
            n = 0
            while not g.is_terminal(s) and n < g.max_game_length:
                p = g.current_player(s)
                pol = self._base if p == self.seat else self._opponent
                g.apply_action(s, pol.act(g, s, p))
                n += 1
            rb = float(g.returns(s)[self.seat]) if g.is_terminal(s) else 0.0
            reward = SCALE * (float(reward) - rb)
            self.dup_stats[0] += 1
            self.dup_stats[1] += reward != 0
        return obs, reward, terminated, truncated, info


sa.SingleAgentEnv = DuplicateEnv
if __name__ == "__main__":
    argv = sys.argv[1:]
    os.environ["DUP_GAME"] = argv[argv.index("--game") + 1]
    from card_envs.training.ppo import main
    sys.exit(main(argv=argv, prog="duplicate.py"))
