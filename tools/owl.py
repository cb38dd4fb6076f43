"""GNU Go's owl reader on a problem, as a point of comparison for the book measurements.

GNU Go (Debian's ``gnugo``, 3.8) reads life and death with its *owl* code: a heuristic
reader, fast and often right, never a proof. :func:`owl_answer` sets the book's position up
over GTP and asks ``owl_attack`` (the side to play is the attacker) or ``owl_defend`` (the
defender) on one stone of the target; the move it names is its answer to the problem.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass

from tsumego.go.board import Board, bits
from tsumego.go.coords import PASS, from_gtp, to_gtp
from tsumego.go.problem import Problem

GNUGO = "gnugo"


class OwlError(Exception):
    """GNU Go could not be run or did not answer as GTP says."""


@dataclass(frozen=True)
class OwlAnswer:
    """GNU Go's owl answer: its result code (0: it finds no way, else its success code, which
    grades kos) and the move it names (None when it names none)."""

    code: int
    move: int | None
    seconds: float


def gnugo_path() -> str | None:
    """The ``gnugo`` program on PATH (Debian puts it in /usr/games), or None."""
    return shutil.which(GNUGO) or shutil.which(GNUGO, path="/usr/games")


def _target_stone(problem: Problem) -> int:
    """A stone of the target's largest block (owl reads the dragon that holds it)."""
    board = problem.board()
    own = board.stones(problem.defender)
    best, size = -1, 0
    rest = problem.target
    while rest:
        block = board.geo.flood(rest & -rest, own)
        rest &= ~block
        if block.bit_count() > size:
            best, size = (block & -block).bit_length() - 1, block.bit_count()
    return best


def owl_answer(problem: Problem, board: Board | None = None, *, timeout: float = 120.0,
               program: str | None = None) -> OwlAnswer:
    """GNU Go's owl answer to ``problem`` on ``board`` (default: the problem's own board; pass
    the book's position to ask what a user of GNU Go would be told). Raises :class:`OwlError`."""
    exe = program or gnugo_path()
    if exe is None:
        raise OwlError("gnugo is not installed (Debian: apt-get install gnugo)")
    if not problem.target:
        raise OwlError("the problem has no target stones for owl to read")
    b = problem.board() if board is None else board
    size = problem.size
    cmds = [f"boardsize {size}", "clear_board"]
    cmds += [f"play black {to_gtp(p, size)}" for p in bits(b.black)]
    cmds += [f"play white {to_gtp(p, size)}" for p in bits(b.white)]
    stone = to_gtp(_target_stone(problem), size)
    ask = "owl_attack" if problem.to_play == problem.attacker else "owl_defend"
    cmds += [f"{ask} {stone}", "quit"]
    start = time.monotonic()
    try:
        done = subprocess.run([exe, "--mode", "gtp", "--quiet"], input="\n".join(cmds) + "\n",
                              capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise OwlError(f"gnugo: {e}") from e
    seconds = time.monotonic() - start
    replies = [r.strip() for r in done.stdout.split("\n\n") if r.strip()]
    if len(replies) != len(cmds) or any(not r.startswith("=") for r in replies):
        bad = next((r for r in replies if not r.startswith("=")), done.stderr.strip())
        raise OwlError(f"gnugo: {bad or 'no answer'}")
    words = replies[-2][1:].split()
    code = int(words[0]) if words else 0
    move = from_gtp(words[1], size) if code and len(words) > 1 else None
    return OwlAnswer(code, None if move == PASS else move, seconds)

