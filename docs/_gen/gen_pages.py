"""The generated pages of the site (run by mkdocs-gen-files at every build; nothing is written
into docs/):

- ``index.md``: the README, its ``docs/`` links made relative to the site;
- ``games/index.md`` and ``games/<game>.md``: one page per registered game, from its env
  module's docstring (the env's spec: observation, actions, rewards, arguments, version
  history), with its picture (``docs/img/<game>.png``), facts read off a live env, its config
  fields with their defaults and descriptions, and its strength ladder (``docs/ladder``);
- ``reference/``: one API page per public module of ``card_envs`` (mkdocstrings), and the
  ``SUMMARY.md`` that literate-nav turns into the reference's navigation.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import importlib.util
import inspect
import json
import re
import sys
from pathlib import Path

import griffe
import mkdocs_gen_files

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(HERE))
from rst import to_markdown  # noqa: E402

from card_envs.core.registry import ENV_MODULES, make_game  # noqa: E402

#: game -> (title, what its picture shows)
TITLES = {
    "garda3": ("Garda3", "Garda3: two guards, the own hand, the opponent's hand face down, a "
               "battle's attack and defence cards, the discard pile"),
    "scratch_wars": ("Scratch Wars", "Scratch Wars: two heroes with HP and energy, their "
                     "weapons, the last spin"),
    "dirt_and_glory": ("Dirt and Glory", "Dirt and Glory (3 players): the territory, the offer, "
                       "three caravans, the own reserve, the others' reserves face down"),
    "rust_brawl": ("Rust Brawl", "Rust Brawl: both tables of four positions with HLT and DMG, the "
                   "own hand, the opponent's hand face down, the graveyards"),
}
#: game -> more pages about it (title, site path from games/)
SEE_ALSO = {
    "rust_brawl": [("Rust Brawl: decks, the card database, balance", "../rust_brawl_decks.md"),
                   ("every card with its values", "../cards/rust_brawl.md"),
                   ("the card-balance report", "../balance.md")],
    "scratch_wars": [("the card-balance report (heroes and weapons)", "../balance.md")],
}
#: game -> the config of its picture (scripts/render_pictures.py draws docs/img/<game>.png)
PICTURE_CONFIG = {"dirt_and_glory": {"num_players": 3}}
#: the env modules' section titles (a line underlined with dashes) -> the page's headings
SETEXT = re.compile(r"^(?P<title>[^\n]+)\n-{3,}[ \t]*$", re.M)


# ---------------------------------------------------------------------------------- references

def reference_page(module: str) -> str:
    """The reference page (site path) of a module."""
    parts = module.split(".")
    return "/".join(["reference", *parts[1:]]) + ("/index.md" if _is_package(module) else ".md")


def _is_package(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.submodule_search_locations is not None


def _object(path: str):
    """The object at a dotted path (a module, or an attribute of the longest importable one)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name, None)
            if obj is None:
                return None
        return obj
    return None


def resolve(target: str) -> str | None:
    """A role's target as the identifier of its API-reference entry, or None (then plain code):
    full ``card_envs`` paths of public, documented objects outside the env modules."""
    if not target.startswith("card_envs.") or any(p.startswith("_") for p in target.split(".")):
        return None
    if any(target.startswith(module) for module in ENV_MODULES.values()):
        return None
    obj = _object(target)
    if obj is None:
        return None
    if inspect.ismodule(obj):
        return target
    if inspect.isclass(obj) or inspect.isfunction(obj):
        return target if obj.__dict__.get("__doc__") or obj.__doc__ else None
    return None


# ------------------------------------------------------------------------------------ game pages

def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def config_table(config_class: type) -> str:
    """Every init field of the game's config dataclass: its default and its description (the
    class docstring's ``Attributes`` section)."""
    doc = griffe.Docstring(inspect.getdoc(config_class) or "")
    descriptions = {}
    for section in doc.parse("google", warnings=False):
        if section.kind.value == "attributes":
            descriptions.update({item.name: item.description for item in section.value})
    rows = ["| field | default | meaning |", "|---|---|---|"]
    for field in dataclasses.fields(config_class):
        if not field.init:
            continue
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = "(required)"
        description = to_markdown(descriptions.get(field.name, ""), resolve)
        rows.append(f"| `{field.name}` | `{default!r}` | {_cell(description)} |")
    return "\n".join(rows)


def facts(name: str, module) -> str:
    """What a live env says of itself: agents, spaces, render modes, picture size."""
    env = module.env()
    env.reset(seed=0)
    agent = env.possible_agents[0]
    observation_space = env.observation_space(agent)["observation"]
    mask_space = env.observation_space(agent)["action_mask"]
    picture = module.env(render_mode="rgb_array", **PICTURE_CONFIG.get(name, {}))
    picture.reset(seed=0)
    height, width, _ = picture.render().shape
    game = make_game(name)
    gymnasium_ids = _gymnasium_ids()
    rows = [
        ("Import", f"`from card_envs import {module.__name__.rsplit('.', 1)[-1]}`"),
        ("Agents (default config)", ", ".join(f"`{a}`" for a in env.possible_agents)),
        ("Action space", f"`{env.action_space(agent)}`"),
        ("Observation", f"`{observation_space.dtype}` `{observation_space.shape}` in "
                        f"[{observation_space.low.min():g}, {observation_space.high.max():g}], "
                        f"action mask `{mask_space.dtype}` `{mask_space.shape}`"),
        ("Render modes", ", ".join(f"`{m}`" for m in env.metadata["render_modes"])
         + f" (`rgb_array`: {width}×{height}"
         + "".join(f" with `{k}={v!r}`" for k, v in PICTURE_CONFIG.get(name, {}).items()) + ")"),
        ("Game class", _link(type(game))),
        ("Config", _link(type(game.config))),
        ("Gymnasium id (single-agent view)", f"`{gymnasium_ids[name]}`"
         if name in gymnasium_ids else "—"),
        ("Rules (with rule ids)", f"[{TITLES.get(name, (name,))[0]} rules](../rules/{name}.md)"),
    ]
    return "\n".join(["| property | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows)])


def _gymnasium_ids() -> dict[str, str]:
    try:
        from card_envs.wrappers import GYMNASIUM_IDS
    except ImportError:  # pragma: no cover - gymnasium is a core dependency
        return {}
    return dict(GYMNASIUM_IDS)


def _link(cls: type) -> str:
    path = f"{cls.__module__}.{cls.__qualname__}"
    return f"[`{cls.__qualname__}`][{path}]" if resolve(path) else f"`{path}`"


def ladder(name: str) -> str:
    path = DOCS / "ladder" / f"{name}.json"
    if not path.exists():
        return ("No strength ladder has been measured for this game yet "
                "(`scripts/ladder.sh GAME CONFIG RUN_FOLDER` makes one; see "
                "[the ladders](../results.md#strength-ladders)).")
    spec = importlib.util.spec_from_file_location("ladder_table", ROOT / "scripts" /
                                                  "ladder_table.py")
    ladder_table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder_table)
    table = ladder_table.table(Path("docs/ladder") / path.name)
    table = re.sub(r" \(`docs/ladder/[^`]*`\)", "", table, count=1)  # linked above
    out = [f"One round robin on duplicate deals ([how it was played](../results.md"
           f"#strength-ladders); the games: [ladder/{name}.json](../ladder/{name}.json)). "
           "Bradley–Terry Elo, mean of the field 0, 95 % bootstrap over deals.", "", table]
    picture = DOCS / "ladder" / f"{name}.png"
    if picture.exists():
        out += ["", f"[![{TITLES.get(name, (name,))[0]} ladder: the pairwise score matrix and "
                f"each entrant's Elo with its interval](../ladder/{name}.png)](../ladder/{name}.png)"]
    return "\n".join(out)


def game_page(name: str) -> str:
    module = importlib.import_module(ENV_MODULES[name])
    env_name = module.__name__.rsplit(".", 1)[-1]
    title, caption = TITLES.get(name, (name.replace("_", " ").title(), name))
    doc = inspect.cleandoc(module.__doc__ or "")
    summary, _, body = doc.partition("\n\n")
    body = SETEXT.sub(lambda m: f"## {m.group('title').strip()}", body)
    body = to_markdown(body, resolve)
    body = re.sub(r"``docs/rules/(\w+)\.md``", r"[`docs/rules/\1.md`](../rules/\1.md)", body)
    game = make_game(name)
    picture = f"![{caption}](../{picture_path(name)})"
    page = "\n\n".join([
        f"# {title} (`{env_name}`)",
        to_markdown(" ".join(summary.split()), resolve),
        picture,
        facts(name, module),
        "This page is generated from the docstring of `card_envs/"
        f"{env_name}.py` (the env's spec: the tests hold its tables to the code), the live env "
        "and its config class.",
        body,
        "## Config fields",
        f"Every keyword of `{env_name}.env(...)` besides the adapter's (`render_mode`, "
        "`render_seat`, `illegal_action`, `max_steps`), with its default; a wrong value raises "
        "`ConfigError` naming the field.",
        config_table(type(game.config)),
        "## Strength ladder",
        ladder(name),
        "## See also",
        "\n".join(_see_also(name, title, type(game).__module__.rsplit(".", 1)[0])),
    ]) + "\n"
    check_game_page(name, page)
    return page


#: what every game page must show (the env docstring's sections, each with its table)
REQUIRED_SECTIONS = ("## Observation", "## Actions", "## Rewards", "## Arguments",
                     "## Version history")


def check_game_page(name: str, page: str) -> None:
    """Fail the build when a game page lacks a section of the spec or its two tables."""
    lines = page.split("\n")
    missing = [s for s in REQUIRED_SECTIONS if not any(line.startswith(s) for line in lines)]
    tables = sum(line.startswith("| indices |") for line in lines)
    if missing or tables < 2:
        raise RuntimeError(
            f"games/{name}.md: the env module {ENV_MODULES[name]}'s docstring lacks "
            + ", ".join([f"the section {s[3:]!r}" for s in missing]
                        + ([f"the observation and action tables ({tables} of 2 found, each "
                            "headed '| indices |')"] if tables < 2 else [])))


@functools.cache
def picture_path(name: str) -> str:
    """The game's picture (site path): ``docs/img/<game>.png``, or, for a game without one, a
    frame its env draws in ``rgb_array`` mode (``scripts/render_pictures.py``'s scene)."""
    path = f"img/{name}.png"
    if not (DOCS / path).exists():
        spec = importlib.util.spec_from_file_location("render_pictures", ROOT / "scripts" /
                                                      "render_pictures.py")
        render_pictures = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(render_pictures)
        from PIL import Image

        with mkdocs_gen_files.open(path, "wb") as out:
            Image.fromarray(render_pictures.frame_of(name)).save(out, format="PNG")
    return path


def _see_also(name: str, title: str, package: str) -> list[str]:
    links = [(f"{title}: the rules as implemented (rule ids; every *Decision* a config field)",
              f"../rules/{name}.md"), *SEE_ALSO.get(name, []),
             ("playing it yourself, replaying a record", "../play.md"),
             ("its Game class, config and bot in the API reference",
              f"../{reference_page(package)}")]
    return [f"- [{text}]({target})" for text, target in links]


def games_index(names: list[str]) -> str:
    rows = ["| game | env | players | picture |", "|---|---|---|---|"]
    for name in names:
        module = importlib.import_module(ENV_MODULES[name])
        env_name = module.__name__.rsplit(".", 1)[-1]
        title, caption = TITLES.get(name, (name, name))
        players = _players(name)
        rows.append(f"| [{title}]({name}.md) | `{env_name}` | {players} | "
                    f"[![{caption}](../{picture_path(name)}){{ width=\"320\" }}]({name}.md) |")
    return "\n".join([
        "# Games",
        "Every game is a PettingZoo AEC env over the shared core; each page below is generated "
        "from the env module's docstring, which is the env's spec.",
        "", *rows, ""])


def _players(name: str) -> str:
    game = make_game(name)
    field_names = {f.name for f in dataclasses.fields(type(game.config))}
    if "num_players" in field_names:
        return "2–5 (`num_players`)"
    if name == "garda3":
        return "2 (3 with `free_for_all`)"
    return str(game.num_players)


# ---------------------------------------------------------------------------------- the README

def index_page() -> str:
    """The README as the site's landing page: its links made relative to the site (``docs/x.md``
    -> ``x.md``, an env module -> its game page, ``benchmarks/RESULTS.md`` -> the benchmarks
    page), without the paragraph that tells a README reader where the site is."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^The documentation is a site built from.*?\n\n", "", text, flags=re.S)
    text = re.sub(r"\]\(docs/", "](", text)
    text = re.sub(r'src="docs/', 'src="', text)
    for name, module in ENV_MODULES.items():
        text = text.replace(f"]({module.replace('.', '/')}.py)", f"](games/{name}.md)")
    return text.replace("](benchmarks/RESULTS.md)", "](benchmarks.md)")


def repo_links_to_site(text: str) -> str:
    """A top-level docs page's links to repository files that are generated pages on the site,
    made site links: ``../benchmarks/RESULTS.md`` -> the benchmarks page, an env module
    (``../card_envs/garda3_v1.py``, an ``#anchor`` kept) -> its game page, the ``../card_envs/``
    folder -> the games index. In the repository the links open the sources themselves."""
    text = text.replace("](../benchmarks/RESULTS.md)", "](benchmarks.md)")
    for name, module in ENV_MODULES.items():
        text = text.replace(f"](../{module.replace('.', '/')}.py", f"](games/{name}.md")
    return text.replace("](../card_envs/)", "](games/index.md)")


def benchmarks_page() -> str:
    """``benchmarks/RESULTS.md`` (written by ``benchmarks/sps.py``) as a page of the site."""
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    body = re.sub(r"(?m)^# .*\n", "", results, count=1).strip()
    return "\n\n".join([
        "# Benchmarks: steps per second",
        "The last run of `python benchmarks/sps.py` (≤ 5 minutes; `pip install -e \".[bench]\"` "
        "adds the Leduc / Texas hold'em anchors), as it wrote `benchmarks/RESULTS.md`:",
        body]) + "\n"


# ----------------------------------------------------------------------------- API reference

#: the env modules (documented on games/ pages) and what is no API (a template's internals)
SKIP = set(ENV_MODULES.values())


def reference(nav) -> None:
    package = ROOT / "card_envs"
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        elif parts[-1].startswith("_"):
            continue
        module = ".".join(parts)
        if module in SKIP or any(p.startswith("_") for p in parts):
            continue
        page = reference_page(module)
        nav[tuple(parts[1:]) or ("card_envs",)] = page.removeprefix("reference/")
        with mkdocs_gen_files.open(page, "w") as out:
            out.write(f"::: {module}\n")
            if path.stem == "__init__":  # a package: its docstring, then its modules
                out.write("    options:\n      members: false\n")
                out.write(package_modules(module, path.parent, Path(page).parent))
        mkdocs_gen_files.set_edit_path(page, path.relative_to(ROOT))


def package_modules(module: str, folder: Path, here: Path) -> str:
    """The list of a package's modules (links to their pages) for the package's page."""
    children = sorted(f"{module}.{p.stem}" for p in folder.iterdir()
                      if (p.suffix == ".py" and not p.stem.startswith("_"))
                      or (p.is_dir() and (p / "__init__.py").exists()))
    lines = [f"- [`{child}`]({Path(reference_page(child)).relative_to(here).as_posix()}): "
             + _summary(folder / child.rsplit(".", 1)[-1]) for child in children
             if child not in SKIP]
    envs = [child for child in children if child in SKIP]
    if envs:
        lines.append("- the env modules " + ", ".join(f"`{m}`" for m in envs)
                     + ": their [game pages](../games/index.md)")
    return "\n## Modules\n\n" + "\n".join(lines) + "\n" if lines else ""


def _summary(path: Path) -> str:
    """The first line of a module's (or a package's) docstring, read without importing it."""
    source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    doc = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
    return to_markdown(doc.split("\n\n", 1)[0].replace("\n", " "), resolve)


def main() -> None:
    names = list(ENV_MODULES)
    with mkdocs_gen_files.open("index.md", "w") as out:
        out.write(index_page())
    for page in sorted((ROOT / "docs").glob("*.md")):  # readable in the repo, linked on the site
        text = page.read_text(encoding="utf-8")
        if repo_links_to_site(text) != text:
            with mkdocs_gen_files.open(page.name, "w") as out:
                out.write(repo_links_to_site(text))
    with mkdocs_gen_files.open("benchmarks.md", "w") as out:
        out.write(benchmarks_page())
    with mkdocs_gen_files.open("games/index.md", "w") as out:
        out.write(games_index(names))
    for name in names:
        with mkdocs_gen_files.open(f"games/{name}.md", "w") as out:
            out.write(game_page(name))
    nav = mkdocs_gen_files.Nav()
    reference(nav)
    with mkdocs_gen_files.open("reference/SUMMARY.md", "w") as out:
        out.writelines(nav.build_literate_nav())


main()
