"""``render_mode="rgb_array"``: the picture of the table (:mod:`card_envs.core.picture`).

For every registered game (the registry is iterated, so a game added later is covered): frames
are ``H×W×3`` ``uint8`` of one size through a whole game; with a ``render_seat`` the frame is
byte-identical after ``sample_hidden`` for that seat and changes whenever that seat's text view
changes (a move that changes public facts); the ``SingleAgentEnv`` frames through Gymnasium's
wrappers (``RenderCollection`` always; ``RecordVideo`` with the ``video`` extra); the bundled
font has every letter of the shipped card names (Czech diacritics).
"""

from __future__ import annotations

import os
import random
import re

import numpy as np
import pytest

from card_envs.core.errors import ConfigError
from card_envs.core.picture import draw_table, font, table_frame
from card_envs.core.registry import available_games, env_module, make_game
from card_envs.core.table import CardFace, CardRow, Panel, Table
from env_helpers import registered_games

GAMES = registered_games()
#: more configs than the default where the picture's layout changes (seats, hidden cards)
CONFIGS = [(name, {}) for name in GAMES] + [
    (name, cfg) for name, cfg in [
        ("garda3", {"variant": "royale+night"}), ("garda3", {"variant": "free_for_all"}),
        ("scratch_wars", {"level": 1}), ("dirt_and_glory", {"num_players": 5}),
    ] if name in GAMES]
IDS = [f"{name}-{cfg}" if cfg else name for name, cfg in CONFIGS]


def _play(env, rng: random.Random, steps: int):
    """Up to ``steps`` random legal moves of an AEC env; yields after each."""
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        yield


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_frames_are_uint8_rgb_of_one_size_through_a_game(name, cfg):
    module = env_module(name)
    env = module.env(render_mode="rgb_array", **cfg)
    assert "rgb_array" in env.metadata["render_modes"]
    assert env.metadata["render_fps"] == 2
    env.reset(seed=3)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] % 2 == 0 and first.shape[1] == 1280  # even sizes for video encoders
    assert first.flags.c_contiguous
    rng = random.Random(3)
    shapes = {first.shape}
    for k, _ in enumerate(_play(env, rng, 400)):
        if k % 9 == 0:
            shapes.add(env.render().shape)
    shapes.add(env.render().shape)  # the final position
    assert shapes == {first.shape}
    # the picture is not blank: the felt, the panels and dark text are all there
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_a_seats_frame_hides_what_it_cannot_see_and_shows_public_changes(name, cfg):
    """Byte-identical frames after ``sample_hidden`` for the seat; a new frame whenever the
    seat's text view changes."""
    game = make_game(name, **cfg)
    for seat in range(game.num_players):
        agent = f"player_{seat}"
        env = env_module(name).env(render_mode="rgb_array", render_seat=agent, **cfg)
        checked = changed = 0
        for episode in range(30):  # one game, more when games are short
            if checked >= 3 and changed >= 3:
                break
            env.reset(seed=11 + seat + 100 * episode)
            rng = random.Random(seed := 11 + seat + 100 * episode)
            frame, view = env.render(), env.render_view(agent)
            for k, _ in enumerate(_play(env, rng, 60)):
                new_frame, new_view = env.render(), env.render_view(agent)
                if new_view != view:  # a public fact (for this seat) changed: the picture too
                    assert not np.array_equal(new_frame, frame), (agent, k, new_view)
                    changed += 1
                frame, view = new_frame, new_view
                if k % 4 == 0:
                    real = env.state_obj
                    env.state_obj = env.game.sample_hidden(real, seat,
                                                           random.Random(seed * 100 + k))
                    try:
                        again = env.render()
                    finally:
                        env.state_obj = real
                    assert again.tobytes() == frame.tobytes(), (agent, k)
                    checked += 1
        assert checked >= 3 and changed >= 3, (agent, checked, changed)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test_passes_for_every_render_mode(name, capsys):
    """PettingZoo's own ``render_test``: every mode of ``metadata["render_modes"]`` (rgb_array:
    ``uint8`` ``H×W×3``; ansi: a str; human: prints, returns ``None``)."""
    from pettingzoo.test import render_test

    render_test(env_module(name).env)
    assert capsys.readouterr().out  # the human mode printed the table


def test_garda3_picture_shows_the_own_hand_and_only_the_size_of_the_others():
    """G-2.4: the other hand is one face-down card naming its size; the own cards with their
    values; the whole table (``None``) shows every hand."""
    game = make_game("garda3")
    state = game.new_state(5)
    rng = random.Random(5)
    while state.phase == 0:  # the draft
        game.apply_action(state, rng.choice(game.legal_actions(state)))
    table = game.table_view(state, 0)
    hands = {p.title: p.rows[1] for p in table.panels[:2]}
    own, other = hands["player 0 (you)"], hands["player 1"]
    assert [c.title for c in own.cards] == [str(c // 12 + 1) for c in sorted(state.hands[0])]
    assert not any(c.face_down for c in own.cards)
    assert other.cards == (CardFace(f"{len(state.hands[1])} cards", face_down=True),)
    everything = game.table_view(state, None)
    assert [c.title for c in everything.panels[1].rows[1].cards] == \
        [str(c // 12 + 1) for c in sorted(state.hands[1])]


def test_the_frame_names_the_last_move_as_the_seat_saw_it():
    """A Garda3 night attack card played face down (G-7.3) stays unnamed in the defender's
    frame's last-move line; the attacker's names it."""
    game = make_game("garda3", variant="night")
    state = game.new_state(2)
    rng = random.Random(2)
    while not (state.phase == 4 and not state.atk_cards):  # attack_cards, nothing played yet
        game.apply_action(state, rng.choice(game.legal_actions(state)))
    attacker = state.player
    card = next(a for a in game.legal_actions(state) if 12 <= a < 48)
    from card_envs.core.picture import TableCamera
    cams = {p: TableCamera(game, p) for p in range(2)}
    for cam in cams.values():
        cam.before_move(state, card)
    assert cams[1 - attacker].last_move == (attacker, "card: played face down")
    assert cams[attacker].last_move == (attacker, game.action_to_string(state, card))


def test_render_seat_is_checked_and_ansi_gives_that_seats_text():
    module = env_module("garda3")
    with pytest.raises(ConfigError, match="render_seat"):
        module.env(render_mode="rgb_array", render_seat="player_7")
    with pytest.raises(ConfigError, match="render_mode"):
        module.env(render_mode="rgb")
    env = module.env(render_mode="ansi", render_seat="player_1")
    env.reset(seed=1)
    assert env.render() == env.render_view("player_1")


@pytest.mark.parametrize("flag", [True, False])
def test_a_bool_render_seat_is_refused_not_read_as_seat_1_or_0(flag):
    """``True == 1`` in Python: ``render_seat=True`` must not silently draw seat 1's view."""
    import gymnasium

    import card_envs.wrappers  # noqa: F401  (registers the ids)

    with pytest.raises(ConfigError, match="render_seat.*bool"):
        gymnasium.make("card_envs/Garda3-v0", render_mode="rgb_array", render_seat=flag)
    with pytest.raises(ConfigError, match="render_seat.*bool"):
        env_module("garda3").env(render_mode="rgb_array", render_seat=flag)


def test_the_default_table_view_draws_the_text_view_at_a_fixed_size():
    """A game without its own ``table_view`` (the template Toy Nim) gets its text view drawn
    on 1280×720."""
    from card_envs.testing.toy_game.rules import make_game as make_toy
    game = make_toy()
    state = game.new_state(1)
    table = game.table_view(state, 0)
    assert table.status == game.view_header(state, 0)  # the view's first line, not repeated
    assert table.panels[0].lines == tuple(game.render_view(state, 0).splitlines()[1:])
    frame = table_frame(game, state, 0)
    assert frame.shape == (720, 1280, 3) and frame.dtype == np.uint8


def test_too_tall_content_is_scaled_into_a_fixed_height_and_long_text_is_cut():
    rows = tuple(CardRow(f"row {i}", (CardFace("x" * 80),) * 40) for i in range(12))
    table = Table("t" * 300, "s", (Panel("p", ("long " * 200,), rows),), height=400)
    frame = draw_table(table)
    assert frame.shape == (400, 1280, 3)


def test_the_bundled_font_has_every_letter_of_the_card_names():
    """Pillow's own default font has no ř, ů, á: the bundled DejaVu subset has them all."""
    names = set("ěščřžýáíéůúďťňóĚŠČŘŽÝÁÍÉŮÚĎŤŇÓ")
    garda = make_game("garda3")
    for fs in garda.sets:
        for f in fs.fighters:
            names |= set(f.name)
    sw = make_game("scratch_wars")
    for n in list(sw.catalogue.hero_names) + list(sw.catalogue.weapon_names):
        names |= set(n)
    names |= set("↑↓▶…—·±−+/")
    from PIL import Image, ImageDraw

    def glyph(f, ch: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((5, 5), ch, font=f, fill=255)
        return image.tobytes()

    for bold in (False, True):
        f = font(20, bold)
        missing = glyph(f, "\u4e00")  # not in the subset: the .notdef box
        lacking = sorted(ch for ch in names - {" "} if glyph(f, ch) == missing)
        assert not lacking, lacking
        assert glyph(f, "ř") != glyph(f, "r") and glyph(f, "ů") != glyph(f, "u")
    from PIL import ImageFont
    pillow_default = ImageFont.load_default(size=20)  # why the font is bundled
    assert glyph(pillow_default, "ř") == glyph(pillow_default, "\u4e00")


@pytest.mark.parametrize("name", GAMES)
def test_single_agent_frames_through_gymnasium_render_collection(name):
    from gymnasium.wrappers import RenderCollection

    from card_envs.bots import RandomBot
    from card_envs.wrappers import SingleAgentEnv

    env = RenderCollection(SingleAgentEnv(make_game(name), RandomBot(0),
                                          render_mode="rgb_array", render_seat="learner"))
    assert env.metadata["render_fps"] == 2
    _, info = env.reset(seed=0)
    done, steps = False, 0
    while not done and steps < 30:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, truncated, info = env.step(action)
        done, steps = terminated or truncated, steps + 1
    frames = env.render()
    assert len(frames) == steps + 1
    assert {f.shape for f in frames} == {frames[0].shape} and frames[0].dtype == np.uint8
    assert frames[0].shape[2] == 3


def test_a_single_agent_render_seat_is_checked():
    from card_envs.bots import RandomBot
    from card_envs.wrappers import SingleAgentEnv

    with pytest.raises(ConfigError, match="render_seat"):
        SingleAgentEnv(make_game("garda3"), RandomBot(0), render_mode="rgb_array",
                       render_seat=2)


def test_record_video_writes_an_mp4_of_an_episode(tmp_path):
    """Gymnasium's RecordVideo on the single-agent view (the ``video`` extra: moviepy)."""
    try:
        import moviepy  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail('the video extra is missing under CI=true: pip install "card-envs[video]"')
        pytest.skip('needs the video extra: pip install "card-envs[video]"')
    from gymnasium.wrappers import RecordVideo

    from card_envs.bots import RandomBot
    from card_envs.wrappers import SingleAgentEnv

    env = RecordVideo(SingleAgentEnv(make_game("garda3"), RandomBot(0), render_mode="rgb_array"),
                      str(tmp_path / "videos"), episode_trigger=lambda k: k == 0)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 10_000


def test_gymnasium_make_renders_every_registered_id_and_check_env_passes_with_rgb_array():
    """``gymnasium.make(id, render_mode="rgb_array")``: the env checker then also tries the
    other render modes of ``metadata["render_modes"]`` (the env has a spec)."""
    import warnings

    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import card_envs.wrappers  # noqa: F401  (registers the ids)

    ids = [i for i in gymnasium.registry if i.startswith("card_envs/")]
    assert len(ids) == len(available_games())  # the package's games, registered at import
    for env_id in ids:
        env = gymnasium.make(env_id, render_mode="rgb_array", render_seat="learner")
        assert env.metadata["render_fps"] == 2
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
        assert not [w for w in caught if "render" in str(w.message)], env_id
        env.reset(seed=1)
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3


#: what ``render()`` returns in each mode ``gymnasium.make`` accepts for a registered id: the
#: env's own modes, and the ``_list`` modes Gymnasium's ``RenderCollection`` adds over them
RENDER_RESULTS = {"ansi": str, "human": type(None), "rgb_array": np.ndarray,
                  "ansi_list": list, "rgb_array_list": list}


@pytest.mark.parametrize("mode", sorted(RENDER_RESULTS))
def test_gymnasium_make_gives_every_advertised_render_mode_for_every_id(mode, capsys):
    """issue 21: ``gymnasium.make(id, render_mode="rgb_array_list")`` or ``"human"`` failed:
    the entry point had no ``metadata``, so Gymnasium could not see the render modes (and apply
    ``RenderCollection`` for a ``_list`` mode). ``"human"`` is the env's own: the table as text
    on stdout at every reset and step (as the AEC env's ``"human"``), ``render()`` ``None``."""
    import gymnasium

    import card_envs.wrappers  # noqa: F401  (registers the ids)
    from card_envs.wrappers.single_agent import make_single_agent_env

    assert make_single_agent_env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    ids = [i for i in gymnasium.registry if i.startswith("card_envs/")]
    assert len(ids) == len(available_games())  # the package's games, registered at import
    for env_id in ids:
        env = gymnasium.make(env_id, render_mode=mode, render_seat="learner")
        assert env.render_mode == mode
        capsys.readouterr()
        _, info = env.reset(seed=1)
        steps = 0
        for steps in range(1, 4):
            _, _, terminated, truncated, info = env.step(
                int(np.flatnonzero(info["action_mask"])[0]))
            if terminated or truncated:
                break
        printed = capsys.readouterr().out
        out = env.render()
        assert isinstance(out, RENDER_RESULTS[mode]), (env_id, mode, type(out))
        u = env.unwrapped
        if mode == "human":  # printed at the reset and at every step: the learner's view
            assert printed.count(u.game.render_view(u.state, u.seat).splitlines()[0]) >= 1
            assert printed.count(f"{u.game.name}: you are seat {u.seat}") == steps + 1
        else:
            assert printed == ""
        if mode.endswith("_list"):  # the reset's frame and one per step
            assert len(out) == steps + 1
            assert isinstance(out[0], RENDER_RESULTS[mode[:-len("_list")]])
        env.close()


class _Recording:
    """A policy that plays ``inner`` and writes each move, named as the whole table names it,
    into ``log`` before it is applied."""

    def __init__(self, inner, log):
        self.inner, self.log = inner, log

    def act(self, game, state, player):
        action = self.inner.act(game, state, player)
        self.log.append((player, game.action_to_string(state, action)))
        return action


#: the Gymnasium view's move log: every game, and the one with the longest runs between two of
#: a seat's decisions (five seats)
LOG_CONFIGS = [(name, {}) for name in GAMES] + [
    (name, cfg) for name, cfg in [("dirt_and_glory", {"num_players": 5})] if name in GAMES]


@pytest.mark.parametrize("name,cfg", LOG_CONFIGS,
                         ids=[f"{n}-{c}" if c else n for n, c in LOG_CONFIGS])
def test_every_frame_names_every_move_since_the_last_frame_the_opponents_included(name, cfg):
    """issue 21: a recorded video named only the last move (4 learner steps were 9 decisions;
    the opponents' moves were invisible). The Gymnasium view's frame after each step (what
    RecordVideo records) now logs every move since the previous frame, the learner's and the
    opponents' in order, in a log of fixed lines (the frame keeps one size)."""
    from card_envs.bots import RandomBot
    from card_envs.core.picture import MARGIN, log_lines_for, move_log
    from card_envs.wrappers import SingleAgentEnv

    game = make_game(name, **cfg)
    played: list[tuple[int, str]] = []
    env = SingleAgentEnv(game, _Recording(RandomBot(1), played), render_mode="rgb_array")
    rng = random.Random(2)
    shapes, steps, most = set(), 0, 0
    for episode in range(2):
        _, info = env.reset(seed=episode)
        frame = env.render()  # the opponents' moves before the learner's first decision
        assert env._camera.moves == played
        shapes.add(frame.shape)
        played.clear()
        done = False
        while not done and steps < 15 * (episode + 1):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            played.append((env.seat, game.action_to_string(env.state, action)))
            _, _, terminated, truncated, info = env.step(action)
            done, steps = terminated or truncated, steps + 1
            shapes.add(env.render().shape)
            assert env._camera.moves == played  # exactly the moves since the last frame
            lines, _size = move_log(played, 1280 - 2 * MARGIN, log_lines_for(game))
            text = " ".join(lines)
            if "earlier move" not in text:  # a run too long for the log counts its first ones
                position = 0
                for seat, move in played:
                    position = text.index(move, position)  # every move, in order
                    assert f"player_{seat}" in text
            most = max(most, len(played))
            played.clear()
    assert len(shapes) == 1 and most >= 2


def test_the_move_log_packs_moves_in_order_and_counts_what_cannot_fit():
    """A run of one seat's moves is named once (``player_1: a, b``); seats are separated by a
    dot; the log always has its fixed number of lines; moves that cannot fit even at the least
    text size are counted at the start, the newest named."""
    from card_envs.core.picture import LOG_SIZE, MIN_TEXT, move_log

    moves = [(1, "spin 2: Longbow"), (1, "apply"), (0, "shield_done"), (1, "end_turn")]
    lines, size = move_log(moves, 1256, 3)
    assert lines == ("since the last frame: player_1: spin 2: Longbow, apply  ·  "
                     "player_0: shield_done  ·  player_1: end_turn", "", "")
    assert size == LOG_SIZE
    assert move_log([], 1256, 3) == (("since the last frame: no move", "", ""), LOG_SIZE)
    many = [(k % 3, f"play card {k}") for k in range(400)]
    lines, size = move_log(many, 1256, 4)
    assert size == MIN_TEXT and len(lines) == 4 and all(lines)
    skipped = int(lines[0].split("… ")[1].split(" earlier moves")[0])
    named = [int(k) for k in re.findall(r"play card (\d+)", " ".join(lines))]
    assert named == list(range(skipped, 400))  # the newest, every one after the skipped


def _cut_texts(monkeypatch):
    """Every text a frame draws through the painter that did not fit its place (cut with …)."""
    from card_envs.core import picture

    cut, fit = [], picture.fit_text

    def spy(draw, text, width, size, bold=False, min_size=picture.MIN_TEXT):
        shown, f = fit(draw, text, width, size, bold, min_size)
        if shown != text and min_size <= picture.MIN_TEXT:  # a last, smallest try: cut
            cut.append(text)
        return shown, f

    monkeypatch.setattr(picture, "fit_text", spy)
    return cut


@pytest.mark.parametrize("name,cfg", CONFIGS + [("rust_brawl", {"decks": "random"})],
                         ids=IDS + ["rust_brawl-random"])
def test_every_text_of_a_frame_is_readable_and_whole(name, cfg, monkeypatch):
    """issue 21: a Rust Brawl graveyard line was drawn ~8 px high (the text shrank to fit).
    Every text is now at least MIN_TEXT px (a card's detail lines MIN_DETAIL px), and over
    random and heuristic games no panel line, label, note, card text or move log is cut:
    long lists (Rust Brawl graveyards and unseen cards) take more lines, abilities one line
    each."""
    from card_envs.core import picture
    from card_envs.core.registry import make_heuristic

    assert (picture.MIN_TEXT, picture.MIN_DETAIL) == (12, 10)
    cut = _cut_texts(monkeypatch)
    game = make_game(name, **cfg)
    bot, rng = make_heuristic(name), random.Random(0)
    for g in range(2):
        state, k = game.new_state(g), 0
        while not game.is_terminal(state) and k < 240:
            if k % 20 == 0:
                picture.table_frame(game, state, None if g else 0, [(1, "x")] * 3)
            action = bot.act(game, state, game.current_player(state)) if g else \
                rng.choice(game.legal_actions(state))
            game.apply_action(state, action)
            k += 1
    assert cut == []


def test_a_long_rust_brawl_graveyard_is_named_whole_on_two_readable_lines(monkeypatch):
    """Fourteen cards in a graveyard (copies counted): two lines holding every name, none
    cut at the readable size."""
    from card_envs.core import picture

    cut = _cut_texts(monkeypatch)
    game = make_game("rust_brawl")
    state = game.new_state(4)
    while len(state.decks[1]) > 2:
        state.graveyards[1].append(state.decks[1].pop())
    names = sorted({game.names[c] for c in state.graveyards[1]})
    lines = game.table_view(state, 0).panels[1].lines
    assert lines[1].startswith(f"graveyard ({len(state.graveyards[1])}): ") and lines[2]
    for card in names:
        assert card in lines[1] + lines[2]
    picture.table_frame(game, state, 0)
    assert cut == []


def test_dirt_and_glory_names_the_top_card_not_a_top_n():
    """issue 21: ``"deck 9 cards (top 1): ..."`` read as "the top 1 card(s)"; the scouted top
    card is now named as such, and the deck's composition counts its copies."""
    game = make_game("dirt_and_glory", num_players=2)
    state = game.new_state(1)
    table = game.table_view(state, None)  # the whole table: every deck's top card is known
    deck = state.decks[0]
    head, composition = table.panels[1].lines[1:3]
    name = game.view._short  # the picture names a card by its values and ability in words
    assert head == f"deck {len(deck)} cards, top card {name(deck[-1])}"
    assert composition.startswith("in it: ") and "(top" not in head + composition
    labels = [name(c) for c in deck]
    for label in set(labels):
        k = labels.count(label)
        assert (f"{label} ×{k}" if k > 1 else label) in composition.split("in it: ")[1].split(", ")
