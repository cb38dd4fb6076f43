"""Results as JSON lines: what a run writes, and what a resumed run reads back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from tsumego.batch.cache import task_key
from tsumego.batch.journal import JournalError, Record, read_json_lines
from tsumego.batch.results import Options, Result, Task

# --- JSON lines files ------------------------------------------------------------------------

def record(task: Task, result: Result, options: Options) -> Record:
    """A result as a line of the ``--json`` file: :meth:`Result.to_json` and the ``key``
    (:func:`task_key`) that tells a resumed run whether it still holds."""
    return {**result.to_json(), "key": task_key(task, options)}


def resumable(records: Iterable[Record], tasks: Sequence[Task],
              options: Options) -> dict[int, Result]:
    """The results among an earlier run's ``records`` that hold for ``tasks`` (by task index):
    the same file and game, and the same :func:`task_key` (the same bytes, engine
    and options). Raises :class:`JournalError` for a record that is not a result."""
    by_name = {(t.file, t.game): t for t in tasks}
    out: dict[int, Result] = {}
    for i, d in enumerate(records):
        try:
            task = by_name.get((d["file"], d["game"]))
            if task is None or d.get("key") != task_key(task, options):
                continue
            out[task.index] = Result.from_json(d)
        except (KeyError, TypeError, ValueError) as e:
            raise JournalError(f"record {i + 1} is not a result of tsumego verify "
                               f"({type(e).__name__}: {e})") from None
    return out


def read_jsonl(path: str | Path) -> list[Result]:
    """The results of a ``--json`` file (a last line cut short by a kill is left out)."""
    return [Result.from_json(d) for d in read_json_lines(path)]


__all__ = ["read_jsonl", "record", "resumable"]
