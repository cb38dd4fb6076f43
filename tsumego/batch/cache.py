"""Results kept between runs, keyed by the problem, the engine and the options."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from tsumego.batch.results import FORMAT, Options, Result, Task
from tsumego.fingerprint import engine_fingerprint

# --- cache ----------------------------------------------------------------------------------

def task_key(task: Task, options: Options) -> str:
    """What a result depends on: the problem's bytes, the engine (the fingerprint of the code
    and data that decide answers), the results' format and the options (the key of the
    cache, and of a result in a JSON lines file)."""
    salt = f"{engine_fingerprint()}|{FORMAT}|{options.key()}"
    return hashlib.sha256(f"{task.digest}|{salt}".encode()).hexdigest()


class Cache:
    """Results on disk (SQLite), keyed by :func:`task_key`. Each result is committed and
    synced to the disk as it arrives, so an interrupted or killed run resumes."""

    def __init__(self, path: str | Path, options: Options) -> None:
        self.path = str(path)
        self.options = options
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a commit is on the disk when it returns
        self.db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, "
                        "value TEXT NOT NULL)")
        self.db.commit()

    def key(self, task: Task) -> str:
        return task_key(task, self.options)

    def get(self, task: Task) -> Result | None:
        row = self.db.execute("SELECT value FROM results WHERE key = ?",
                              (self.key(task),)).fetchone()
        if row is None:
            return None
        d = json.loads(row[0])
        d = _rename(d, "\x00FILE\x00", task.name)
        d.update(file=task.file, game=task.game, cached=True)
        return Result.from_json(d)

    def put(self, task: Task, result: Result) -> None:
        d = result.to_json()
        d = _rename(d, task.name, "\x00FILE\x00")
        self.db.execute("INSERT OR REPLACE INTO results (key, value) VALUES (?, ?)",
                        (self.key(task), json.dumps(d)))
        self.db.commit()

    def close(self) -> None:
        self.db.close()


def _rename(d: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """File names inside messages, swapped (cached results do not name another file)."""
    def sub(s: str) -> str:
        return s.replace(old, new) if old else s
    out = dict(d)
    if out.get("error"):
        out["error"] = sub(out["error"])
    out["findings"] = [{"class": f["class"], "text": sub(f["text"])}
                       for f in out.get("findings", [])]
    out["notes"] = [sub(n) for n in out.get("notes", [])]
    return out

