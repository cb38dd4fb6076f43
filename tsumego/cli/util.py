"""What every subcommand of the ``tsumego`` command shares: one wording for bad input, the
exit codes (one table, which the help texts print and the README's table is tested
against) and the progress display of long steps."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

EXIT_OK = 0
EXIT_FINDINGS = 1  # check: not proved; verify: some problem does not agree
EXIT_BAD_INPUT = 2
EXIT_LIMIT = 3
EXIT_INTERRUPTED = 130

# command -> (code, meaning) in the order the help and the README list them
EXIT_CODES: dict[str, tuple[tuple[int, str], ...]] = {
    "solve": ((EXIT_OK, "solved (and the tree written, with -o)"),
              (EXIT_BAD_INPUT, "bad input or options"),
              (EXIT_LIMIT, "a limit stopped a search or the tree")),
    "export": ((EXIT_OK, "the tree is written"),
               (EXIT_BAD_INPUT, "bad input or options"),
               (EXIT_LIMIT, "a limit stopped a search or the tree")),
    "check": ((EXIT_OK, "proved"),
              (EXIT_FINDINGS, "not proved"),
              (EXIT_BAD_INPUT, "bad input")),
    "verify": ((EXIT_OK, "every problem agrees"),
               (EXIT_FINDINGS, "findings"),
               (EXIT_BAD_INPUT, "bad input or options"),
               (EXIT_INTERRUPTED, "interrupted (what was done is written and cached)")),
    "gtp": ((EXIT_OK, "the controller sent quit or closed the input"),
            (EXIT_BAD_INPUT, "bad options"),
            (EXIT_INTERRUPTED, "interrupted (Ctrl-C)")),
}


def exit_codes_text(command: str) -> str:
    """The exit codes of ``command`` for its help text."""
    return "Exit codes: " + ", ".join(f"{c} {what}" for c, what in EXIT_CODES[command]) + "."


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """One line on stderr (``tsumego: error: ...``) and exit ``code``."""
    click.echo(f"tsumego: error: {message}", err=True)
    sys.exit(code)


def plural(n: int, word: str) -> str:
    """``1 node``, ``2 nodes``, ``1,000 nodes``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def show_progress(option: bool | None) -> bool:
    """``--progress/--no-progress``, by default only when stderr is a terminal."""
    return sys.stderr.isatty() if option is None else option


@contextmanager
def progress(label: str, shown: bool) -> Iterator[None]:
    """A spinner with the time spent on ``label`` on stderr while the block runs (a long
    search or tree gives no count of its own as it goes); nothing when not ``shown``. The
    display refreshes from its own thread, which the search lets run between its nodes."""
    if not shown:
        yield
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=Console(file=sys.stderr), transient=True) as bar:
        bar.add_task(label, total=None)
        yield
