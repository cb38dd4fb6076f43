"""Finding the problems of a collection: SGF files, directories searched for them, and files
holding several games."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from tsumego.batch.results import Task
from tsumego.io.sgf import SgfError, read_sgf_bytes, split_collection

# --- finding the problems -------------------------------------------------------------------

def _sgf_files(directory: Path) -> list[Path]:
    out = []
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        for f in sorted(files):
            if f.lower().endswith(".sgf"):
                out.append(Path(root) / f)
    return out


def collect(paths: Iterable[str | Path]) -> list[Task]:
    """The problems under ``paths``: SGF files, directories (searched recursively for
    ``*.sgf``) and collection files holding many games (split into one task per game).
    Raises ``FileNotFoundError`` for a path that does not exist. A ``*.sgf`` in a directory
    that is not a regular file (a pipe, whose reading would wait for good) is an error."""
    files: list[tuple[Path, bool]] = []  # (file, found in a directory)
    seen: set[Path] = set()
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise FileNotFoundError(str(p))
        walked = path.is_dir()
        for f in _sgf_files(path) if walked else [path]:
            r = f.resolve()
            if r not in seen:
                seen.add(r)
                files.append((f, walked))
    tasks: list[Task] = []
    for f, walked in files:
        name = str(f)
        try:
            if walked and not f.is_file():
                tasks.append(Task(len(tasks), name, 0, b"",
                                  f"{name}: not a regular file (a pipe or a device)"))
                continue
            data = read_sgf_bytes(f)
        except SgfError as e:
            tasks.append(Task(len(tasks), name, 0, b"", str(e)))
            continue
        games = split_collection(data)
        if len(games) <= 1:
            tasks.append(Task(len(tasks), name, 0, games[0] if games else data))
        else:
            for i, g in enumerate(games):
                tasks.append(Task(len(tasks), name, i, g, multi=True))
    return tasks

