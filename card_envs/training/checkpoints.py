"""Checkpoints and resuming.

A checkpoint is ``checkpoints/ckpt_<timesteps>.zip`` (the MaskablePPO model with its optimizer)
beside ``ckpt_<timesteps>.json``: the timestep count, the training seconds so far, the learning
curve, the league snapshot files and the run's arguments (:func:`save_checkpoint`).

``--resume PATH`` (a run folder: its latest checkpoint; or a checkpoint ``.zip``) is turned into a
:class:`ResumePlan` by :func:`plan_resume` without touching the given arguments: a new
:class:`~card_envs.training.args.Args` whose game, game config and run folder are the
checkpoint's, and where the run starts (timesteps, seconds, curve, snapshots). Everything is
checked before anything runs (:func:`load_resume`).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from card_envs.core.errors import ConfigError
from card_envs.training.args import Args, flag

#: the fields a resumed run takes from its checkpoint (the model's spaces depend on them)
FROM_CHECKPOINT = ("game", "game_config", "set")
#: the model's settings: saved inside the model (SB3 restores them on load), so a resumed run
#: keeps the checkpoint's values whatever the flags say
MODEL_FIELDS = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda",
                "clip_range", "clip_range_vf", "ent_coef", "vf_coef", "max_grad_norm",
                "net_arch", "activation", "anchor_coef", "anchor_decay_steps",
                "critic_warmup_steps", "privileged_critic", "network")
#: what a checkpoint written before a field existed trained with
OLD_DEFAULTS = {"clip_range_vf": 0.0, "anchor_coef": 0.0, "anchor_decay_steps": 0,
                "critic_warmup_steps": 0, "privileged_critic": False, "network": "mlp"}


@dataclass(frozen=True)
class ResumePlan:
    """Where a run starts: a fresh run (``checkpoint`` None, zeros) or a resumed one."""

    args: Args  #: the run's arguments (a resumed run: game, config and run folder from it)
    checkpoint: Path | None = None  #: the checkpoint ``.zip`` to load
    timesteps: int = 0  #: learner timesteps already done
    train_seconds: float = 0.0  #: training seconds already spent
    curve: list[dict[str, Any]] = field(default_factory=list)  #: learning-curve points so far
    snapshots: list[str] = field(default_factory=list)  #: league snapshot files (run-relative)

    @property
    def source_dir(self) -> Path | None:
        """The resumed run's folder (the checkpoint's ``checkpoints/`` parent)."""
        return None if self.checkpoint is None else self.checkpoint.parent.parent


def plan_resume(args: Args) -> ResumePlan:
    """The :class:`ResumePlan` of ``args`` (``args`` itself is not changed). The game, its config
    (:data:`FROM_CHECKPOINT`) and the model's settings (:data:`MODEL_FIELDS`: the saved model
    carries them) are the checkpoint's; one given with ``--resume`` that differs from the
    checkpoint's (and from the default) is ignored with a warning on stderr, and the new args
    (so the checkpoints and ``summary.json``) record the values actually used.

    Raises:
        ConfigError: see :func:`load_resume`.
    """
    if not args.resume:
        return ResumePlan(args)
    ckpt, meta = load_resume(Path(args.resume), args.max_pool)
    saved = meta["args"]
    for key in FROM_CHECKPOINT:
        given = getattr(args, key)
        if given not in (saved[key], "garda3", "{}", []):
            print(f"[card-envs] warning: {flag(key)} {given!r} ignored: resuming the "
                  f"checkpoint's {saved[key]!r}", file=sys.stderr, flush=True)
    defaults = Args()
    kept: dict[str, Any] = {}
    for key in MODEL_FIELDS:
        if key not in saved:  # a checkpoint from before the field existed: its old default
            kept[key] = OLD_DEFAULTS.get(key, getattr(defaults, key))
        else:
            kept[key] = saved[key]
        given = getattr(args, key)
        if given != kept[key] and given != getattr(defaults, key):
            print(f"[card-envs] warning: {flag(key)} {given!r} ignored: the resumed model "
                  f"keeps its {kept[key]!r}", file=sys.stderr, flush=True)
    new_args = dataclasses.replace(
        args, game=saved["game"], game_config=saved["game_config"], set=list(saved["set"]),
        run_dir=args.run_dir or str(ckpt.parent.parent), **kept)
    return ResumePlan(new_args, ckpt, timesteps=meta["timesteps"],
                      train_seconds=meta["train_seconds"], curve=list(meta["curve"]),
                      snapshots=list(meta["snapshots"]))


def save_checkpoint(model, run_dir: Path, timesteps: int, train_seconds: float,
                    curve: list[dict[str, Any]], snapshots: list[str], args: Args) -> Path:
    """Write ``checkpoints/ckpt_<timesteps>.zip`` and its ``.json`` metadata; returns the zip."""
    path = run_dir / "checkpoints" / f"ckpt_{timesteps}.zip"
    model.save(path)
    meta = {"timesteps": timesteps, "train_seconds": train_seconds, "curve": curve,
            "snapshots": snapshots, "args": dataclasses.asdict(args)}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1))
    return path


def latest_checkpoint(path: Path) -> Path:
    """``path`` if it is a file, else the run folder's newest ``checkpoints/ckpt_<n>.zip``.

    Raises:
        ConfigError: no such file or folder, or a folder without checkpoints.
    """
    if path.is_file():
        return path
    if not path.is_dir():
        raise ConfigError(f"--resume {str(path)!r}: no such checkpoint .zip or run folder")
    ckpts = sorted((p for p in (path / "checkpoints").glob("ckpt_*.zip")
                    if p.stem.split("_")[1].isdigit()), key=lambda p: int(p.stem.split("_")[1]))
    if not ckpts:
        raise ConfigError(f"--resume {str(path)!r}: no checkpoints/ckpt_*.zip in the run folder")
    return ckpts[-1]


def load_resume(path: Path, max_pool: int) -> tuple[Path, dict[str, Any]]:
    """The checkpoint to resume from (``path``: a checkpoint ``.zip`` or a run folder, its latest
    one) and its metadata, all checked before anything runs: the checkpoint loads as a
    MaskablePPO model, its ``.json`` beside it is the metadata :func:`save_checkpoint` writes,
    and the league snapshots the resumed run reloads are model files.

    Raises:
        ConfigError: naming the file and what is wrong (missing, not a model, a corrupt archive,
            bad JSON, a missing or wrong-typed metadata field).
    """
    import pydantic

    from card_envs.bots.loading import check_model_file, load_model_policy

    ckpt = latest_checkpoint(path)
    try:
        load_model_policy(ckpt)
    except ConfigError as exc:
        raise ConfigError(f"--resume: checkpoint {exc}") from None
    meta_path = ckpt.with_suffix(".json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"--resume: {str(meta_path)!r} (the checkpoint's metadata beside "
                          f"{ckpt.name}) is missing") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"--resume: {str(meta_path)!r} is not checkpoint metadata "
                          f"({type(exc).__name__}: {exc})") from None

    if not isinstance(meta, dict):
        raise ConfigError(f"--resume: {str(meta_path)!r} is not checkpoint metadata (a JSON "
                          f"object expected, found {type(meta).__name__})")

    class _Args(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True, extra="allow")
        game: str
        game_config: str
        set: list[str]

    class _Meta(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(strict=True, extra="allow")
        timesteps: int = pydantic.Field(ge=0)
        train_seconds: float = pydantic.Field(ge=0)
        curve: list[dict[str, Any]]
        snapshots: list[str]
        args: _Args

    try:
        _Meta.model_validate(meta)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        got = "" if err["type"] == "missing" else f" = {str(err['input'])[:60]!r}"
        raise ConfigError(f"--resume: {str(meta_path)!r} is not checkpoint metadata: field "
                          f"{where}{got}: {err['msg']}") from None
    source = ckpt.parent.parent
    for rel in meta["snapshots"][-max_pool:]:
        try:
            check_model_file(source / rel)
        except ConfigError as exc:
            raise ConfigError(f"--resume: league snapshot {exc} (listed in "
                              f"{str(meta_path)!r})") from None
    return ckpt, meta
