"""Durable JSON lines files: what a long run has finished survives its being killed.

A run appends one JSON object a line as each result comes (:class:`Journal`): every line is
written whole, flushed and synced to the disk before the next result is taken, so that a
kill, a crash or a power cut loses at most the line being written. A run that resumes reads
the file back with :func:`read_json_lines`, which ignores a last line cut short (no newline,
or not JSON), and starts its journal with the records it keeps: the file is then rewritten
whole, and a file is only ever replaced whole (:func:`write_json_lines`: written beside it,
synced, renamed over it), never left half written.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from tsumego.errors import InputError

Record = dict[str, Any]


class JournalError(InputError):
    """A file that is not JSON lines: a line before the last one is not a JSON object. The
    message names the file and the line."""


def read_json_lines(path: str | Path) -> list[Record]:
    """The objects of the complete lines of ``path``, in order. A last line without its
    newline or that is not JSON (cut short by a kill or a crash) is left out; blank lines are
    skipped. Raises :class:`JournalError` for any other line that is not a JSON object, and
    ``OSError`` (``FileNotFoundError`` among them) when the file cannot be read."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    filled = [i for i, raw in enumerate(lines) if raw.strip()]
    out: list[Record] = []
    for i in filled:
        last = i == filled[-1]
        if last and i == len(lines) - 1:
            continue  # no newline after it: cut short
        try:
            obj = json.loads(lines[i])
        except (ValueError, RecursionError):  # (bytes that are not UTF-8 too)
            obj = None
        if not isinstance(obj, dict):
            if last:
                continue  # whole but not JSON: what a crash can leave at the end
            raise JournalError(f"{path}: line {i + 1} is not a JSON object: not a file of "
                               f"results written by this program")
        out.append(obj)
    return out


def _line(record: Record) -> bytes:
    """``record`` as a line of UTF-8 JSON (escaped as ASCII where it holds text that UTF-8
    cannot carry: a file name that was not UTF-8 on the disk, say, which JSON's escapes keep
    exactly)."""
    text = json.dumps(record, ensure_ascii=False)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(record) + "\n").encode("ascii")


def _sync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path``'s folder durable (where the system allows)."""
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_json_lines(path: str | Path, records: Iterable[Record]) -> None:
    """Replace ``path`` by a file of ``records``, one a line, atomically: the old file stays
    whole until the new one is complete on the disk."""
    target = Path(path)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                suffix=".part")
    part = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            for r in records:
                f.write(_line(r))
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        part.chmod(0o666 & ~umask)  # as a plain write would have made it
        part.replace(target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    _sync_dir(target)


class Journal:
    """A JSON lines file that a run appends to as it goes, each record synced to the disk.

    It starts as a file of ``records`` (none for a new run; what a resumed run keeps of the
    earlier one), which replaces whatever was at ``path``."""

    def __init__(self, path: str | Path, records: Iterable[Record] = ()) -> None:
        self.path = Path(path)
        write_json_lines(self.path, records)
        self._file: IO[bytes] | None = open(self.path, "ab")

    def append(self, record: Record, *, sync: bool = True) -> None:
        """Add ``record`` as one line, on the disk when this returns (with ``sync``; without,
        in the file for other processes to read, and on the disk at the next :meth:`sync`:
        for records that are safe elsewhere already, many at a time)."""
        if self._file is None:
            raise ValueError(f"{self.path}: the journal is closed")
        self._file.write(_line(record))
        self._file.flush()
        if sync:
            os.fsync(self._file.fileno())

    def sync(self) -> None:
        """Put every record appended so far on the disk."""
        if self._file is not None:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Journal", "JournalError", "Record", "read_json_lines", "write_json_lines"]
