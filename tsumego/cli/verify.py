"""The ``tsumego verify`` command: check a collection's answers against the solver."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import click

from tsumego.batch.journal import Journal, JournalError, read_json_lines, write_json_lines
from tsumego.batch.report import html_page, summary
from tsumego.batch.verify import (
    ANSWERS,
    CLASSES,
    Cache,
    Options,
    Result,
    Run,
    Task,
    collect,
    record,
    resumable,
    verify_all,
)
from tsumego.cli.util import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    exit_codes_text,
    fail,
    show_progress,
)
from tsumego.io.sgf import file_error

EXIT_AGREE = EXIT_OK
EXIT_BAD_ARGS = EXIT_BAD_INPUT


class _Progress:
    """A rich progress bar with the counts per class and the time left (on stderr)."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.counts = {c: 0 for c in CLASSES}
        self.progress = Progress(
            TextColumn("[bold]verify"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
            TextColumn("{task.description}"),
            console=Console(file=sys.stderr), transient=False)
        self.task = self.progress.add_task("", total=total)

    def __enter__(self) -> _Progress:
        self.progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.stop()

    def __call__(self, task: Task, res: Result) -> None:
        self.counts[res.cls] = self.counts.get(res.cls, 0) + 1
        text = " ".join(f"{k} {v}" for k, v in self.counts.items() if v)
        self.progress.update(self.task, advance=1, description=text)


@click.command("verify", epilog=exit_codes_text("verify"))
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--time-limit", type=float, default=60.0, show_default=True,
              help="Seconds per problem; a worker that hangs past it is killed and replaced.")
@click.option("--answers", type=click.Choice(ANSWERS), default="auto", show_default=True,
              help="How the book marks its answers: RIGHT in leaf comments, leaf comments "
                   "starting 'Correct', every first move correct, or the first that applies.")
@click.option("--deep", is_flag=True,
              help="Also check every move along the book's lines, not only the first moves.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=str),
              help="Write one JSON object per problem to this file, each as it is done.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=str),
              help="Write a self-contained HTML page with a board for each finding.")
@click.option("--cache", "cache_path", type=click.Path(dir_okay=False, path_type=str),
              help="Keep results in this file (SQLite): reruns are instant, interrupted runs "
                   "resume.")
@click.option("--resume", is_flag=True,
              help="Continue the run whose --json file exists: the problems it holds are not "
                   "run again (unless the file, the options or the solver changed).")
@click.option("--force", is_flag=True, help="Overwrite the --json and --html files if they exist.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Run on this Dask distributed scheduler (needs tsumego[dask]).")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: when stderr is a terminal).")
def verify(paths: tuple[str, ...], jobs: int | None, time_limit: float, answers: str,
           deep: bool, json_path: str | None, html_path: str | None, cache_path: str | None,
           resume: bool, force: bool, dask_address: str | None,
           progress: bool | None) -> None:
    """Check the answers of a problem collection against the solver.

    PATH may be SGF files, directories (searched recursively for *.sgf) and collection files
    holding many games (each named FILE#N, N from 0). Each problem is classified: agree,
    book-move-fails, wrong-line-works, extra-solutions, no-solution, no-answer, unknown,
    error (and, with --deep, bad-refutation and weak-reply).

    Each result is on the disk as soon as it is done (in --json and --cache): a run that was
    killed resumes with --resume (or from its --cache) and loses nothing it had finished.
    """
    if time_limit <= 0:
        fail("--time-limit must be positive")
    if resume and json_path is None:
        raise click.UsageError("--resume needs --json FILE: the results of the run to continue")
    for path, hint in ((json_path, "--json"), (html_path, "--html")):
        if path is not None and Path(path).exists() and not (force or resume):
            raise click.BadParameter(f"{path} exists; pass --resume to continue the run that "
                                     f"wrote it, or --force to overwrite it", param_hint=hint)
        if path is not None and not Path(path).resolve().parent.is_dir():
            raise click.BadParameter(f"cannot write {path}: no such directory",
                                     param_hint=hint)
    if dask_address is not None:
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            raise click.UsageError(
                "--dask needs the dask extra: pip install 'tsumego[dask]'") from None
    try:
        tasks = collect(paths)
    except FileNotFoundError as e:
        fail(str(file_error(str(e), e)))
    if not tasks:
        raise click.UsageError("no SGF files found under " + ", ".join(paths))
    n_jobs = jobs or os.cpu_count() or 1
    options = Options(answers=answers, deep=deep, time_limit=time_limit)
    earlier: dict[int, Result] = {}
    if resume and json_path is not None and Path(json_path).exists():
        try:
            records = read_json_lines(json_path)
            earlier = resumable(records, tasks, options)
            if len(records) > len(earlier):
                click.echo(f"tsumego: {json_path}: {len(records) - len(earlier)} of its "
                           f"{len(records)} results are of other files, options or engine "
                           f"code: they are not kept", err=True)
        except JournalError as e:
            msg = str(e) if str(e).startswith(json_path) else f"{json_path}: {e}"
            raise click.BadParameter(msg, param_hint="--json") from None
        except OSError as e:
            raise click.BadParameter(f"cannot read {json_path}: {e.strerror or e}",
                                     param_hint="--json") from None
    cache = None
    if cache_path is not None:
        try:
            cache = Cache(cache_path, options)
        except Exception as e:
            fail(f"{cache_path}: cannot open the cache ({e})")
    journal = None
    if json_path is not None:
        try:  # the file holds what the earlier run finished and grows as results come
            journal = Journal(json_path, [record(t, earlier[t.index], options) for t in tasks
                                          if t.index in earlier])
        except OSError as e:
            if cache is not None:
                cache.close()
            raise click.BadParameter(f"cannot write {json_path}: {e.strerror or e}",
                                     param_hint="--json") from None
    show = show_progress(progress)
    start = time.monotonic()
    try:
        kw: dict[str, Any] = dict(jobs=n_jobs, cache=cache, dask=dask_address,
                                  journal=journal, earlier=earlier)
        if show:
            with _Progress(len(tasks)) as bar:
                run = verify_all(tasks, options, progress=bar, **kw)
        else:
            run = verify_all(tasks, options, **kw)
    except (OSError, sqlite3.Error) as e:  # a full disk, say: stop, keeping what is written
        where = " and ".join(p for p in (json_path, cache_path) if p)
        click.echo(f"tsumego: error: the run stopped: {e}"
                   + (f"; the results done so far are in {where}" if where else ""), err=True)
        sys.exit(EXIT_BAD_ARGS)
    finally:
        if cache is not None:
            cache.close()
        if journal is not None:
            journal.close()
    run.wall = time.monotonic() - start
    try:
        _write(run, json_path, html_path, options, n_jobs, dask_address)
    except OSError as e:  # the results are in the journal (and the cache) all the same
        click.echo(f"tsumego: error: cannot write the report: {e}", err=True)
        sys.exit(EXIT_BAD_ARGS)
    results = run.ordered()
    click.echo(summary(results, total=len(tasks), wall=run.wall,
                       jobs=f"dask {dask_address}" if dask_address else n_jobs,
                       from_cache=run.from_cache, resumed=run.resumed,
                       interrupted=run.interrupted))
    if run.interrupted:
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FINDINGS if any(r.is_finding for r in results) else EXIT_AGREE)


def _write(run: Run, json_path: str | None, html_path: str | None, options: Options,
           jobs: int, dask: str | None) -> None:
    results = run.ordered()
    if json_path:  # the journal, rewritten in the order of the problems
        write_json_lines(json_path, run.records(options))
    if html_path:
        meta = (f"{len(results)} of {len(run.tasks)} problems; answers {options.answers}"
                f"{'; deep' if options.deep else ''}; time limit {options.time_limit} s; "
                f"wall {run.wall:.1f} s" + ("; interrupted" if run.interrupted else ""))
        # (a file name that is not UTF-8 on the disk is shown with a replacement character)
        with open(html_path, "w", encoding="utf-8", errors="replace") as f:
            f.write(html_page(results, title="tsumego verify", meta=meta))
