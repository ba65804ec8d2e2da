"""Reading a user-given text file (card data, game records) with errors that name the file."""

from __future__ import annotations

from pathlib import Path


def file_stamp(path: str | Path) -> tuple[int, int] | None:
    """``(modification time in ns, size)`` of ``path``, ``None`` if it cannot be read: a cache
    key beside the path, so a loader cached per ``(path, stamp)`` reads an edited file again
    (and a missing file fails afresh in the loader, naming it)."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def read_text(path: str | Path, kind: str, error: type[Exception],
              max_bytes: int | None = None) -> str:
    """The UTF-8 text of ``path``.

    Args:
        kind: what the file should be, for messages (``"card-data"``, ``"game-record"``).
        error: the exception class raised (``CardDataError``, ``RecordError``).
        max_bytes: refuse larger files (``None``: no limit).

    Raises:
        error: naming the file: not found, a directory, unreadable, larger than ``max_bytes``,
            or not UTF-8 text (a binary file).
    """
    path = Path(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(f"{path}: {kind} file not found") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, not a {kind} file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {kind} file: {exc.strerror or exc}") from None
    if max_bytes is not None and len(raw) > max_bytes:
        raise error(f"{path}: larger than {max_bytes} bytes; not a {kind} file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start}: "
                    f"{raw[exc.start:exc.start + 1]!r}); not a {kind} file (a binary file?)") \
            from None
