"""Write one rgb_array frame per registered game to docs/img/<game>.png (the README's pictures).

Each game is played by its heuristic bot in every seat from a fixed seed for a fixed number of
decisions (chosen so the picture shows a game in progress), then drawn for seat 0 as
``env(render_mode="rgb_array", render_seat="player_0")`` draws it: its own cards, the others'
hidden cards as face-down counts, and the moves since seat 0's previous decision as seat 0 saw
them (a frame is taken at each of its decisions, as a video of seat 0 would).

    python scripts/render_pictures.py [--out docs/img] [--game NAME]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from card_envs.core.picture import TableCamera
from card_envs.core.registry import available_games, make_game, make_heuristic

#: game -> (config, seed, decisions played before the picture)
SCENES = {
    "garda3": ({"variant": "classic"}, 7, 38),
    "scratch_wars": ({"level": 3}, 4, 38),
    "dirt_and_glory": ({"num_players": 3}, 5, 130),
    "rust_brawl": ({}, 3, 30),
    "leduc_holdem": ({}, 4, 3),
}


def frame_of(name: str, seat: int = 0):
    """The picture of ``name``'s scene for ``seat`` (uint8 H×W×3)."""
    config, seed, decisions = SCENES.get(name, ({}, 1, 20))
    game = make_game(name, **config)
    bot = make_heuristic(name)
    state = game.new_state(seed)
    camera = TableCamera(game, seat)
    for _ in range(decisions):
        if game.is_terminal(state):
            break
        if game.current_player(state) == seat:
            camera.frame(state)  # seat 0's frame before its decision
        action = bot.act(game, state, game.current_player(state))
        camera.before_move(state, action)
        game.apply_action(state, action)
    return camera.frame(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img", help="folder of the PNG files")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.game or available_games():
        path = out / f"{name}.png"
        frame = frame_of(name)
        Image.fromarray(frame).save(path, optimize=True)
        print(f"{path}: {frame.shape[1]}x{frame.shape[0]}")


if __name__ == "__main__":
    main()
