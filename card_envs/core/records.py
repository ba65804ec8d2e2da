"""Game records: ``(version, game, config, seed, actions, outcome)`` as JSON, replayable exactly;
a text game (:mod:`card_envs.wrappers.text`) adds its ``transcript``.

A record is what a bug report or a tournament log needs: build the game from ``game`` + ``config``
(:func:`card_envs.core.registry.make_game`), create the state from ``seed`` and apply ``actions``
in order; because all chance comes from the state's seeded RNG the replay reaches the identical
final state, and :func:`replay` checks the stored ``outcome`` against it.

A record file is read strictly (:meth:`GameRecord.load`): a missing or unreadable file, bad JSON,
anything but a JSON object, an unknown ``format``, an unknown or missing field (only
``transcript`` may be left out), or a field of the wrong type (``actions`` must be non-negative
ints, not bools; ``seed`` an int in 0..2**64-1, :data:`~card_envs.core.rng.GAME_SEEDS`;
``config`` an object; ``outcome`` ``null`` or a list of numbers) raises one
:class:`~card_envs.core.errors.RecordError` naming the file, the field path (``actions[3]``) and
the value. :func:`replay` checks what needs the installed game (the game name, the version, the
config, the outcome's length, each action's legality, the outcome itself) and raises
``RecordError`` naming the file (or the record) too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import pydantic
import pydantic_core

from card_envs.core.errors import CardEnvsError, RecordError, short_repr
from card_envs.core.files import read_text
from card_envs.core import registry
from card_envs.core.registry import make_game, resolve_game
from card_envs.core.rng import NOT_A_GAME_SEED, is_game_seed

#: the record format this version writes and reads (the ``format`` field of every record)
RECORD_FORMAT = 1


#: the fields a record file may leave out
OPTIONAL_FIELDS = frozenset({"transcript"})


def _loc(loc: tuple) -> str:
    """A pydantic error location as a field path: ``("actions", 3)`` -> ``actions[3]``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(record)"


_short = short_repr


class TranscriptTurn(pydantic.BaseModel):
    """One reply of a text agent (:mod:`card_envs.wrappers.text`): the ``observation`` (text)
    seat ``seat`` was shown, its ``reply``, the ``action`` id it was read as (``None``: not read
    as a legal move) and the ``problem`` named to the agent (``None``: accepted)."""

    model_config = pydantic.ConfigDict(strict=True, extra="forbid")

    seat: Annotated[int, pydantic.Field(ge=0)]
    observation: str
    reply: str
    action: Annotated[int, pydantic.Field(ge=0)] | None = None
    problem: str | None = None


class GameRecord(pydantic.BaseModel):
    """One played game.

    Attributes:
        game: registry name (``"garda3"``).
        version: the env version the game was played with (``garda3_v1`` -> 1).
        config: the game's config as a JSON-able dict.
        seed: the int passed to ``new_state``.
        actions: every action id applied, in order (non-negative ints).
        outcome: final returns per seat (``None`` while unfinished).
        format: record format version (:data:`RECORD_FORMAT`).
        transcript: optional (left out of the JSON when ``None``): a text game's exchanges,
            every reply of its text agents in order (:class:`TranscriptTurn`).
    """

    model_config = pydantic.ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)

    game: str
    version: Annotated[int, pydantic.Field(ge=0)]
    config: dict[str, Any]
    seed: int
    actions: list[Annotated[int, pydantic.Field(ge=0)]] = pydantic.Field(default_factory=list)
    outcome: list[float] | None = None
    format: int = RECORD_FORMAT
    transcript: list[TranscriptTurn] | None = None

    @pydantic.field_validator("seed")
    @classmethod
    def _game_seed(cls, seed: int) -> int:
        if not is_game_seed(seed):  # -1 would deal as 1: the actions, not the seed, would fail
            raise pydantic_core.PydanticCustomError("game_seed", NOT_A_GAME_SEED)
        return seed

    #: where the record came from (the file for :meth:`load`), used in error messages
    _source: str | None = pydantic.PrivateAttr(default=None)

    @pydantic.model_serializer(mode="wrap")
    def _without_empty_transcript(self, handler):
        """A record without a transcript dumps as before the field existed."""
        data = handler(self)
        if data.get("transcript", ()) is None:
            del data["transcript"]
        return data

    @property
    def source(self) -> str:
        """The record's file, or ``record of <game> v<version> seed <seed>`` when not loaded."""
        return self._source or f"record of {self.game} v{self.version} seed {self.seed}"

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.model_dump(), indent=indent)

    @classmethod
    def from_json(cls, text: str, source: str | None = None) -> GameRecord:
        """Parse and validate a record's JSON text (``source``: its file, for messages).

        Raises:
            RecordError: naming ``source`` and the problem (bad JSON, not an object, an unknown
                format, unknown/missing fields, a field's path and wrong value, an integer of more
                digits than Python converts, ``sys.get_int_max_str_digits()``).
        """
        where = source or "game record"
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: not valid JSON ({exc}); a truncated file?") from None
        except RecursionError:
            raise RecordError(f"{where}: JSON nested too deeply to be a game record") from None
        except ValueError as exc:  # int("1" * 5000): more digits than int_max_str_digits
            raise RecordError(f"{where}: not a game record: an integer with too many digits "
                              f"({exc})") from None
        return cls.from_dict(data, source)

    @classmethod
    def from_dict(cls, data: Any, source: str | None = None) -> GameRecord:
        """Validate a record read from JSON (see :meth:`from_json`)."""
        where = source or "game record"
        if not isinstance(data, dict):
            raise RecordError(f"{where}: expected a JSON object (a game record), found "
                              f"{type(data).__name__} {_short(data, 40)}")
        fmt = data.get("format", RECORD_FORMAT)
        if type(fmt) is not int or fmt != RECORD_FORMAT:
            raise RecordError(f"{where}: unknown record format {_short(fmt)} (this card-envs "
                              f"reads format {RECORD_FORMAT})")
        fields = set(cls.model_fields)
        unknown = sorted(str(k) for k in data if k not in fields)
        if unknown:
            raise RecordError(f"{where}: unknown field(s) {unknown} (a record has "
                              f"{list(cls.model_fields)})")
        missing = [k for k in cls.model_fields if k not in data and k not in OPTIONAL_FIELDS]
        if missing:
            raise RecordError(f"{where}: missing field(s) {missing}")
        try:
            record = cls.model_validate(data)
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"field {_loc(err['loc'])} = {_short(err['input'])}: {err['msg']}"
                for err in exc.errors()
            )
            raise RecordError(f"{where}: {problems}") from None
        record._source = source
        return record

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (see :meth:`from_json`); RecordError names the file."""
        source = str(path)
        text = read_text(path, "game-record", RecordError)
        return cls.from_json(text, source)


def record_of(game, seed: int, actions: list[int], state=None,
              transcript: list | None = None) -> GameRecord:
    """A record of ``actions`` played from ``new_state(seed)`` (outcome filled if finished;
    ``transcript``: :class:`TranscriptTurn` objects or their dicts)."""
    outcome = None
    if state is not None and game.is_terminal(state):
        outcome = [float(r) for r in game.returns(state)]
    return GameRecord(
        game=game.name,
        version=game.version,
        config=game.config_to_dict(),
        seed=int(seed),
        actions=[int(a) for a in actions],
        outcome=outcome,
        transcript=None if transcript is None else [
            t if isinstance(t, TranscriptTurn) else TranscriptTurn(**t) for t in transcript],
    )


def replay(record: GameRecord, game: str | None = None):
    """Replay ``record``; returns ``(game, final_state)``.

    Args:
        record: the record.
        game: the game spec to build instead of the record's registry name, for a game that is
            not registered here: ``"package.module:factory"`` (the factory the record was
            played with, e.g. by ``card-envs play my_game:make_game``); its ``Game.name`` must
            be the record's ``game``. ``None``: the registered game of that name (a game of
            another package registers through its ``card_envs.games`` entry point).

    Raises:
        RecordError: naming the record's file (or the record): an unknown game (saying how to
            name its factory) or a bad config, a ``game`` spec building another game, a version
            other than the installed game's, an outcome of the wrong length, an action illegal
            where it is applied, or a replayed outcome that differs from the stored one.
    """
    where = record.source
    try:
        if game is None:
            built = make_game(record.game, **record.config)
        else:
            built = resolve_game(game, dict(record.config))
    except CardEnvsError as exc:
        hint = ""
        if game is None and record.game not in registry.GAMES:
            hint = (" (a game of your own: name its factory, card-envs replay --game "
                    "module:factory, or register it: docs/adding_a_game.md)")
        raise RecordError(f"{where}: cannot build game {record.game!r} with config "
                          f"{_short(record.config)}: {exc}{hint}") from exc
    if built.name != record.game:
        raise RecordError(f"{where}: the record is of game {record.game!r}, but {game!r} builds "
                          f"{built.name!r}")
    game = built
    if record.version != game.version:
        raise RecordError(f"{where}: record is for {record.game} v{record.version}, installed "
                          f"is v{game.version} ({record.game}_v{game.version})")
    if record.outcome is not None and len(record.outcome) != game.num_players:
        raise RecordError(f"{where}: field outcome has {len(record.outcome)} entries "
                          f"{record.outcome}, the game has {game.num_players} seats")
    state = game.new_state(record.seed)
    for i, action in enumerate(record.actions):
        try:
            game.apply_action(state, action)
        except CardEnvsError as exc:
            raise RecordError(f"{where}: actions[{i}] = {action}: {exc}") from exc
    if record.outcome is not None:
        if not game.is_terminal(state):
            raise RecordError(f"{where}: the replay of {len(record.actions)} actions is "
                              f"unfinished, so its outcome differs from recorded "
                              f"{record.outcome}")
        got = [float(r) for r in game.returns(state)]
        if got != list(record.outcome):
            raise RecordError(f"{where}: replay outcome {got} differs from recorded "
                              f"{record.outcome}")
    return game, state
