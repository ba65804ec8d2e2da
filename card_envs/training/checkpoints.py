"""Checkpoints and resuming.

A checkpoint is ``checkpoints/ckpt_<timesteps>.zip`` (the MaskablePPO model with its optimizer)
beside ``ckpt_<timesteps>.json``: the timestep count, the training seconds so far, the learning
curve, the league snapshot files, whether the behaviour-cloning warm start had finished and the
run's arguments (:func:`save_checkpoint`). Every file of a run is written atomically
(:func:`write_atomic`: a temporary ``<name>.partial`` beside it, then a rename), the ``.zip``
before the ``.json``: a checkpoint is complete when both are there and load.

``--resume PATH`` (a run folder: its newest *complete* checkpoint, skipping with a warning newer
ones that are half-written or damaged; or a checkpoint ``.zip``) is turned into a
:class:`ResumePlan` by :func:`plan_resume` without touching the given arguments: a new
:class:`~card_envs.training.args.Args` whose game, game config and run folder are the
checkpoint's, and where the run starts (timesteps, seconds, curve, snapshots). Everything is
checked before anything runs (:func:`load_resume`). Resuming never overwrites newer work: a
checkpoint older than the run folder's ``summary.json`` or newest complete checkpoint is resumed
only into another folder (``--run-dir NEW``; the league snapshots and the anchor are copied
there), otherwise it is refused naming both (:func:`check_no_newer_work`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable
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
    #: the checkpoint was saved after the warm start (False: interrupted during it, so the
    #: resumed run starts afresh, warm start included, in the checkpoint's folder)
    warm_start_done: bool = True

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
    check_no_newer_work(ckpt, meta["timesteps"], Path(new_args.run_dir))
    return ResumePlan(new_args, ckpt, timesteps=meta["timesteps"],
                      train_seconds=meta["train_seconds"], curve=list(meta["curve"]),
                      snapshots=list(meta["snapshots"]),
                      warm_start_done=bool(meta.get("warm_start_done", True)))


def write_atomic(path: Path, write: Callable[[Any], None]) -> Path:
    """Write ``path`` whole or not at all: ``write(f)`` fills ``<path>.partial`` (a binary file,
    flushed to disk), which is then renamed to ``path``; on any error or interruption the
    partial file is removed and ``path`` keeps what it held. Returns ``path``."""
    path = Path(path)
    tmp = path.with_name(path.name + ".partial")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def save_model_atomic(model, path: Path, **kwargs: Any) -> Path:
    """``model.save`` (SB3) to ``path`` through :func:`write_atomic`; ``kwargs`` go to
    ``model.save`` (``exclude=[...]``)."""
    return write_atomic(path, lambda f: model.save(f, **kwargs))


def write_json_atomic(path: Path, data: Any) -> Path:
    """``data`` as indented JSON in ``path`` through :func:`write_atomic`."""
    text = json.dumps(data, indent=1).encode("utf-8")
    return write_atomic(path, lambda f: f.write(text))


#: the outputs of a finished run that a resumed run in the same folder writes anew
PREVIOUS_OUTPUTS = ("summary.json", "learning_curve.png", "model.zip")


def keep_previous_outputs(run_dir: Path, dest: Path) -> list[str]:
    """Copy the run folder's :data:`PREVIOUS_OUTPUTS` (those present) into ``dest`` (the
    resumed run's ``resumed_at_<n>/``), each written whole (:func:`write_atomic`), before the
    resumed run replaces them: the previous final evaluation, curve and model stay on disk. A
    copy already in ``dest`` (an earlier resume from the same checkpoint) is kept as it is.
    Returns the names copied."""
    import shutil

    dest.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in PREVIOUS_OUTPUTS:
        src, dst = run_dir / name, dest / name
        if not src.is_file() or dst.exists():
            continue
        with open(src, "rb") as f_in:
            write_atomic(dst, lambda f_out: shutil.copyfileobj(f_in, f_out))
        copied.append(name)
    return copied


def save_checkpoint(model, run_dir: Path, timesteps: int, train_seconds: float,
                    curve: list[dict[str, Any]], snapshots: list[str], args: Args,
                    warm_start_done: bool = True) -> Path:
    """Write ``checkpoints/ckpt_<timesteps>.zip``, then its ``.json`` metadata, each atomically
    (:func:`write_atomic`); returns the zip. ``warm_start_done=False``: saved while the warm
    start ran (a resumed run starts afresh)."""
    path = run_dir / "checkpoints" / f"ckpt_{timesteps}.zip"
    path.parent.mkdir(parents=True, exist_ok=True)
    save_model_atomic(model, path)
    meta = {"timesteps": timesteps, "train_seconds": train_seconds, "curve": curve,
            "snapshots": snapshots, "warm_start_done": warm_start_done,
            "args": dataclasses.asdict(args)}
    write_json_atomic(path.with_suffix(".json"), meta)
    return path


def checkpoint_files(run_dir: Path) -> list[Path]:
    """The run folder's ``checkpoints/ckpt_<n>.zip`` files, newest (largest ``n``) first."""
    ckpts = [p for p in (run_dir / "checkpoints").glob("ckpt_*.zip")
             if p.stem.split("_", 1)[1].isdigit()]
    return sorted(ckpts, key=lambda p: int(p.stem.split("_", 1)[1]), reverse=True)


def latest_checkpoint(path: Path) -> Path:
    """``path`` if it is a file, else the run folder's newest ``checkpoints/ckpt_<n>.zip`` (not
    checked: :func:`load_resume` falls back past an incomplete one).

    Raises:
        ConfigError: no such file or folder, or a folder without checkpoints.
    """
    if path.is_file():
        return path
    if not path.is_dir():
        raise ConfigError(f"--resume {str(path)!r}: no such checkpoint .zip or run folder")
    ckpts = checkpoint_files(path)
    if not ckpts:
        raise ConfigError(f"--resume {str(path)!r}: no checkpoints/ckpt_*.zip in the run folder")
    return ckpts[0]


def load_resume(path: Path, max_pool: int) -> tuple[Path, dict[str, Any]]:
    """The checkpoint to resume from and its metadata, all checked before anything runs
    (:func:`check_checkpoint`). ``path`` is a checkpoint ``.zip`` (that one), or a run folder:
    its newest complete checkpoint; newer ones that fail the checks (half-written, damaged)
    are skipped, each with a one-line warning on stderr naming it and why.

    Raises:
        ConfigError: naming the file and what is wrong (missing, not a model, a corrupt archive,
            bad JSON, a missing or wrong-typed metadata field) — for a run folder, when no
            checkpoint of it is complete (naming the newest one's problem).
    """
    if path.is_file() or not path.is_dir():
        ckpt = latest_checkpoint(path)
        return ckpt, check_checkpoint(ckpt, max_pool)
    ckpts = checkpoint_files(path)
    if not ckpts:
        latest_checkpoint(path)  # raises: no checkpoints
    skipped: list[tuple[Path, ConfigError]] = []
    for ckpt in ckpts:
        try:
            meta = check_checkpoint(ckpt, max_pool)
        except ConfigError as exc:
            skipped.append((ckpt, exc))
            continue
        for bad, exc in skipped:
            why = str(exc).removeprefix("--resume: ")
            print(f"[card-envs] warning: --resume: skipping {bad.parent.name}/{bad.name}, not a "
                  f"complete checkpoint ({why}); resuming {ckpt.name}", file=sys.stderr,
                  flush=True)
        return ckpt, meta
    newest, exc = skipped[0]
    raise ConfigError(f"{exc} (and no older checkpoint of {str(path)!r} is complete: "
                      f"{len(skipped)} checked)") from None


def check_no_newer_work(ckpt: Path, timesteps: int, run_dir: Path) -> None:
    """Refuse to resume checkpoint ``ckpt`` (at ``timesteps``) into ``run_dir`` when that folder
    already holds newer work — a complete checkpoint or a ``summary.json`` at more timesteps —
    that the resumed run would overwrite (``model.zip``, ``summary.json``, checkpoints).

    Raises:
        ConfigError: naming the checkpoint, the newer work and ``--run-dir`` (continue in a new
            folder instead).
    """
    newer: list[str] = []
    for other in checkpoint_files(run_dir):
        n = int(other.stem.split("_", 1)[1])
        if n > timesteps and other.resolve() != ckpt.resolve() and \
                other.with_suffix(".json").is_file():
            try:
                check_checkpoint(other, max_pool=0)
            except ConfigError:
                continue
            newer.append(f"checkpoints/{other.name}")
            break
    summary = run_dir / "summary.json"
    if summary.is_file():
        try:
            done = json.loads(summary.read_text(encoding="utf-8")).get("timesteps")
        except (OSError, UnicodeDecodeError, ValueError, AttributeError):
            done = None
        if isinstance(done, int) and done > timesteps:
            newer.append(f"summary.json and model.zip at {done} timesteps")
    if newer:
        raise ConfigError(
            f"--resume: {str(ckpt)!r} is at {timesteps} timesteps, but the run folder "
            f"{str(run_dir)!r} holds newer work ({'; '.join(newer)}) that resuming there would "
            f"overwrite; continue in another folder with {flag('run_dir')} NEW_FOLDER")


def check_checkpoint(ckpt: Path, max_pool: int) -> dict[str, Any]:
    """The metadata of checkpoint ``ckpt``, checked: the checkpoint loads as a MaskablePPO
    model, its ``.json`` beside it is the metadata :func:`save_checkpoint` writes, and the
    newest ``max_pool`` league snapshots the resumed run reloads are model files (one deleted
    since by ``--league-keep`` is left out of the resumed league, not an error).

    Raises:
        ConfigError: naming the file and what is wrong.
    """
    import pydantic

    from card_envs.bots.loading import check_model_file, load_model_policy

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
        warm_start_done: bool = True
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
    for rel in (meta["snapshots"][-max_pool:] if max_pool > 0 else []):
        if not (source / rel).exists() and not (source / rel).is_symlink():
            continue  # pruned since (--league-keep): the resumed run plays the ones kept
        try:
            check_model_file(source / rel)
        except ConfigError as exc:
            raise ConfigError(f"--resume: league snapshot {exc} (listed in "
                              f"{str(meta_path)!r})") from None
    return meta
