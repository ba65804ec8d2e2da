"""Game records: ``(version, game, config, seed, actions, outcome)`` as JSON, replayable exactly.

A record is what a bug report or a tournament log needs: build the game from ``game`` + ``config``
(:func:`card_envs.core.registry.make_game`), create the state from ``seed`` and apply ``actions``
in order; because all chance comes from the state's seeded RNG the replay reaches the identical
final state, and :func:`replay` checks the stored ``outcome`` against it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from card_envs.core.registry import make_game

RECORD_FORMAT = 1


@dataclass
class GameRecord:
    """One played game.

    Attributes:
        game: registry name (``"garda3"``).
        version: the env version the game was played with (``garda3_v0`` -> 0).
        config: the game's config as a JSON-able dict.
        seed: the int passed to ``new_state``.
        actions: every action id applied, in order.
        outcome: final returns per seat (``None`` while unfinished).
        format: record format version.
    """

    game: str
    version: int
    config: dict[str, Any]
    seed: int
    actions: list[int] = field(default_factory=list)
    outcome: list[float] | None = None
    format: int = RECORD_FORMAT

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(asdict(self), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        missing = {"game", "version", "config", "seed", "actions"} - set(data)
        if missing:
            raise ValueError(f"game record is missing field(s) {sorted(missing)}")
        return cls(**data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(indent=1))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text())


def record_of(game, seed: int, actions: list[int], state=None) -> GameRecord:
    """A record of ``actions`` played from ``new_state(seed)`` (outcome filled if finished)."""
    outcome = None
    if state is not None and game.is_terminal(state):
        outcome = [float(r) for r in game.returns(state)]
    return GameRecord(
        game=game.name,
        version=game.version,
        config=game.config_to_dict(),
        seed=seed,
        actions=[int(a) for a in actions],
        outcome=outcome,
    )


def replay(record: GameRecord):
    """Replay ``record``; returns ``(game, final_state)``.

    Raises:
        ValueError: the record's version differs from the installed game's, or the replayed
            outcome differs from the stored one.
        IllegalActionError: an action of the record is illegal where it is applied.
    """
    game = make_game(record.game, **record.config)
    if record.version != game.version:
        raise ValueError(
            f"record is for {record.game} v{record.version}, installed is v{game.version}"
        )
    state = game.new_state(record.seed)
    for action in record.actions:
        game.apply_action(state, action)
    if record.outcome is not None:
        got = [float(r) for r in game.returns(state)]
        if not game.is_terminal(state) or got != list(record.outcome):
            raise ValueError(f"replay outcome {got} differs from recorded {record.outcome}")
    return game, state
