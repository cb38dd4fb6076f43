"""Running many problems: a pool of worker processes (a worker that hangs past its limit is killed
and replaced) or a Dask cluster, and a whole run with its cache and journal."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tsumego.batch.cache import Cache
from tsumego.batch.compare import verify_problem
from tsumego.batch.journal import Journal, Record
from tsumego.batch.records import record
from tsumego.batch.results import CLASSES, Class, Options, Result, Task

# --- running many problems ------------------------------------------------------------------

def hard_limit(options: Options) -> float | None:
    """Seconds after a problem's start at which its worker is killed (the search stops by
    itself at ``time_limit``; this catches a worker that hangs)."""
    if options.time_limit is None:
        return None
    return options.time_limit * 1.25 + options.grace


def _killed_result(task: Task, options: Options, seconds: float, why: str) -> Result:
    res = Result(task.file, task.game, seconds=seconds)
    if why == "time":
        res.add("unknown", f"the worker did not answer within {seconds:.1f} s (time limit "
                           f"{options.time_limit} s): it was stopped and replaced")
    else:
        res.error = f"{task.name}: {why}"
        res.add("error", res.error)
    res.settle()
    return res


def chunk_size(n_tasks: int, jobs: int) -> int:
    """Problems handed to a worker at a time: big enough to save round trips, small enough to
    keep every worker busy to the end."""
    return max(1, min(8, n_tasks // (jobs * 4) if jobs else 1))


def _worker_main(conn: multiprocessing.connection.Connection, options: Options) -> None:
    """A worker: receives chunks of tasks, answers ("start", index) then ("done", index,
    result json) for each; ``None`` ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    try:
        while True:
            msg = conn.recv()
            if msg is None:
                return
            for task in msg:
                conn.send(("start", task.index))
                if options.hang_on is not None and options.hang_on in task.file:
                    conn.poll(None)  # nothing comes until the end: the parent is gone
                    return
                res = verify_problem(task, options)
                conn.send(("done", task.index, res.to_json()))
    except (EOFError, OSError):  # the parent is gone (killed, say): nobody to answer
        return


class _Worker:
    def __init__(self, ctx: Any, options: Options) -> None:
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, options), daemon=True)
        self.proc.start()
        child.close()
        self.conn: multiprocessing.connection.Connection = parent
        self.chunk: deque[Task] = deque()  # sent, not answered yet
        self.current: Task | None = None
        self.started = 0.0

    def send(self, chunk: list[Task]) -> None:
        self.chunk = deque(chunk)
        self.current = None
        self.conn.send(chunk)

    @property
    def busy(self) -> bool:
        return bool(self.chunk)

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(2)
        self.conn.close()


def worker_context(preload: Sequence[str] = ("tsumego.batch.verify",)) -> Any:
    """A multiprocessing context for fresh worker processes: forked from a server that has
    imported the ``preload`` modules where the platform has one, else spawned."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(preload))
        return ctx
    return multiprocessing.get_context("spawn")


def exit_with(pid: int, every: float = 1.0) -> None:
    """In a worker of a process pool: end this process once process ``pid`` (the run's) is
    gone, killed say, instead of idling on for good (a pool's workers wait for work that no
    one will send). Checks every ``every`` seconds, from a daemon thread."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent or _gone(pid):
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-run", daemon=True).start()


def _gone(pid: int) -> bool:
    """Has process ``pid`` ended (a zombie, not yet reaped by its parent, has)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # (it exists, owned by another user)
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[:1] == [b"Z"]
    except OSError:  # no /proc here
        return False


def run_pool(tasks: Sequence[Task], options: Options, jobs: int,
             on_result: Callable[[Task, Result], None],
             on_start: Callable[[Task], None] | None = None, chunk: int | None = None) -> None:
    """Verify ``tasks`` in ``jobs`` worker processes, calling ``on_result`` (in this process)
    as each result arrives. A worker that hangs past :func:`hard_limit` is killed and replaced.
    On ``KeyboardInterrupt`` the workers are stopped and the exception propagates; the results
    already passed to ``on_result`` are complete."""
    if not tasks:
        return
    jobs = max(1, min(jobs, len(tasks)))
    size = chunk or chunk_size(len(tasks), jobs)
    todo: deque[list[Task]] = deque(
        list(tasks[i:i + size]) for i in range(0, len(tasks), size))
    ctx = worker_context()
    limit = hard_limit(options)
    workers = [_Worker(ctx, options) for _ in range(jobs)]
    by_index = {t.index: t for t in tasks}
    try:
        while True:
            for i, w in enumerate(workers):
                if not w.busy and todo:
                    try:
                        w.send(todo.popleft())
                    except OSError:  # died while idle: replace it and retry
                        w.kill()
                        workers[i] = _Worker(ctx, options)
                        workers[i].send(todo.popleft())
            busy = [w for w in workers if w.busy]
            if not busy:
                break
            ready = multiprocessing.connection.wait([w.conn for w in busy], timeout=0.25)
            for w in busy:
                if w.conn not in ready:
                    continue
                try:
                    msg = w.conn.recv()
                except (EOFError, OSError):
                    _replace(workers, w, ctx, options, todo, on_result,
                             f"the worker process died (exit code {w.proc.exitcode})")
                    continue
                if msg[0] == "start":
                    w.current = by_index[msg[1]]
                    w.started = time.monotonic()
                    if on_start is not None:
                        on_start(w.current)
                else:
                    task = by_index[msg[1]]
                    if w.chunk and w.chunk[0].index == task.index:
                        w.chunk.popleft()
                    w.current = None
                    on_result(task, Result.from_json(msg[2]))
            if limit is not None:
                now = time.monotonic()
                for w in list(workers):
                    if w.current is not None and now - w.started > limit:
                        _replace(workers, w, ctx, options, todo, on_result, "time")
    except BaseException:
        for w in workers:
            w.kill()
        raise
    for w in workers:
        w.stop()


def _replace(workers: list[_Worker], w: _Worker, ctx: Any, options: Options,
             todo: deque[list[Task]], on_result: Callable[[Task, Result], None],
             why: str) -> None:
    """Kill ``w``, report its current problem, requeue the rest of its chunk, start anew."""
    w.kill()
    rest = list(w.chunk)
    current = w.current
    if current is None and rest:
        current = rest[0]  # died before it said "start"
    if current is not None:
        rest = [t for t in rest if t.index != current.index]
        seconds = time.monotonic() - w.started if w.current is not None else 0.0
        on_result(current, _killed_result(current, options, seconds, why))
    if rest:
        todo.appendleft(rest)
    workers[workers.index(w)] = _Worker(ctx, options)


def _dask_chunk(chunk: list[Task], options: Options) -> list[dict[str, Any]]:
    return [verify_problem(t, options).to_json() for t in chunk]


def run_dask(tasks: Sequence[Task], options: Options, address: str,
             on_result: Callable[[Task, Result], None]) -> None:
    """Verify ``tasks`` on the Dask distributed cluster at ``address`` (the ``dask`` extra),
    in chunks. The per-problem time limit is the search's own (a remote worker is not
    killed)."""
    from dask.distributed import Client, as_completed  # type: ignore[import-not-found, unused-ignore]

    with Client(address) as client:  # type: ignore[no-untyped-call, unused-ignore]
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = chunk_size(len(tasks), workers)
        chunks = [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]
        futures = {client.submit(_dask_chunk, ch, options, pure=False): ch for ch in chunks}
        try:
            for fut in as_completed(list(futures)):  # type: ignore[no-untyped-call, unused-ignore]
                ch = futures[fut]
                try:
                    out = fut.result()
                except Exception as e:
                    for t in ch:
                        on_result(t, _killed_result(t, options, 0.0,
                                                    f"the Dask task failed: {e}"))
                    continue
                for t, d in zip(ch, out):
                    on_result(t, Result.from_json(d))
        except BaseException:
            client.cancel(list(futures))
            raise


# --- a whole run ----------------------------------------------------------------------------

@dataclass
class Run:
    """The results of a run, in the order of the tasks (missing ones: not done)."""

    tasks: list[Task]
    results: dict[int, Result] = field(default_factory=dict)
    wall: float = 0.0
    interrupted: bool = False
    from_cache: int = 0
    resumed: int = 0  # results taken from an earlier run's JSON lines file

    def ordered(self) -> list[Result]:
        return [self.results[t.index] for t in self.tasks if t.index in self.results]

    def records(self, options: Options) -> list[Record]:
        """The results as the lines of a JSON lines file (:func:`record`), in task order."""
        return [record(t, self.results[t.index], options) for t in self.tasks
                if t.index in self.results]

    def counts(self) -> dict[Class, int]:
        out = {c: 0 for c in CLASSES}
        for r in self.results.values():
            out[r.cls] = out.get(r.cls, 0) + 1
        return out

    def median_seconds(self) -> float:
        secs = [r.seconds for r in self.results.values()]
        return statistics.median(secs) if secs else 0.0


def verify_all(tasks: list[Task], options: Options, *, jobs: int = 1,
               cache: Cache | None = None, dask: str | None = None,
               progress: Callable[[Task, Result], None] | None = None,
               journal: Journal | None = None,
               earlier: Mapping[int, Result] | None = None) -> Run:
    """Verify every task: from ``earlier`` (the results of an earlier run that a resumed one
    keeps, :func:`resumable`, already in its journal) or the cache where possible. Each other
    result is recorded as it arrives, in the cache and as a line appended to ``journal``, so
    that a run killed at any point keeps what it finished. On Ctrl-C the run stops cleanly:
    ``interrupted`` is set and the finished results are kept."""
    run = Run(tasks)
    start = time.monotonic()
    todo = []

    def got(task: Task, res: Result, *, cached: bool = False) -> None:
        run.results[task.index] = res
        if cache is not None and not cached:
            cache.put(task, res)
        if journal is not None:  # (a cached result is on the disk already: synced below)
            journal.append(record(task, res, options), sync=not cached)
        if progress is not None:
            progress(task, res)

    for t in tasks:
        old = earlier.get(t.index) if earlier is not None else None
        if old is not None:
            run.results[t.index] = old
            run.resumed += 1
            if progress is not None:
                progress(t, old)
            continue
        hit = cache.get(t) if cache is not None else None
        if hit is not None:
            run.from_cache += 1
            got(t, hit, cached=True)
        else:
            todo.append(t)
    if journal is not None:
        journal.sync()

    try:
        if todo:
            if dask is not None:
                run_dask(todo, options, dask, got)
            else:
                run_pool(todo, options, jobs, got)
    except KeyboardInterrupt:
        run.interrupted = True
    run.wall = time.monotonic() - start
    return run

