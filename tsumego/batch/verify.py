"""Batch verification of problem collections: where the book and the proof disagree.

For every problem of a collection this module reads the book's answer from the SGF variation
tree, solves the problem exactly for the side to play, and classifies the difference:

``agree``
    the book's correct first moves are exactly the solver's best first moves.
``book-move-fails``
    a move the book calls correct loses (the refutation is given); with ``deep``, also a later
    move of the solver's side along a correct line, or an illegal move there.
``wrong-line-works``
    a first move the book calls wrong wins (with ``deep``: a later move where the book's
    wrong line turns wrong).
``bad-refutation`` (``deep`` only)
    along a wrong line, a move of the refuting side lets the other side win after all.
``extra-solutions``
    the solver proves more correct first moves than the book lists.
``weak-reply`` (``deep`` only)
    along a book line, a move of the losing side is not one of its best resistances.
``no-solution``
    the side to play cannot succeed at all (not even with the ko threats of rules.md).
``no-answer``
    the book gives no correct first move for the side to play (nothing to compare).
``unknown``
    a limit stopped the search (the per-problem time limit, or a worker that had to be killed).
``error``
    the file could not be read or set up as a problem (the reason is given).

A problem gets one class, the first in :data:`CLASSES` among its findings; every finding is
kept in ``findings``.

Book conventions (``answers``):

* ``right``: a line is correct iff its leaf comment contains ``RIGHT`` (goproblems style);
* ``comment``: a line is correct iff its leaf comment starts "Correct" or "Also correct";
* ``first-level``: every line is correct (the tsumego.js collection: all first moves under
  the root are correct first moves);
* ``auto``: ``right`` if some leaf comment contains ``RIGHT``, else ``comment`` if some leaf
  comment starts "Correct"/"Also correct", else ``first-level``.

A move node is *book-correct* when some correct line passes through it.

Comparison. ``solve()`` gives ``best_moves``: the first moves that reach the best outcome open to
the side to play, ko threats counted (rules.md). The book's correct first moves must be among
them, and every one of them must be listed (or the book has extra solutions, or calls a working
move wrong). A book move that wins only a ko while a clean result exists is not a best move, and
the finding says so; when the best result is itself a ko, the notes say so.

Deep checks (``deep=True``) follow the book's lines from the root: along a correct line every
move of the side to play must keep the win and every reply must be one of the best resistances;
along a wrong line, after the move where it goes wrong, every move of the refuting side must
keep its win. The first move where a line goes wrong is reported and that line is not followed
further. The positions along a line are searched with the line's own repetition history and
ko-threat balance (the balance starts where the side to play wins least comfortably, and a
retake that repeats a position uses a threat, as in rules.md). A *best resistance* is judged by
ko threats: a reply is best when no other reply would make the win need more ko threats; the
solver proves no finer order among replies that lose at every balance, so those all count as
best. Life and seki are not told apart along lines. Two consecutive moves of one colour in a
book line count as a pass of the other side in between. Moves outside the problem's region
(ko threats played elsewhere, for instance) end the check of that line, with a note.

Running: :func:`run` hands problems out in chunks to a pool of worker processes. Each problem
has a time limit (``Options.time_limit``) that the search honours by itself; a worker that does
not answer within :func:`hard_limit` of a problem's start is killed and replaced, and the problem
is ``unknown``. :func:`run_dask` does the same on a Dask cluster (the time limit is then only the
search's own). :class:`Cache` keeps results keyed by the problem's content hash, the solver
version and the options.

This module is core: it does not import the command line.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import sqlite3
import statistics
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from tsumego import __version__
from tsumego.go.board import BLACK, WHITE, bits, color_name, opponent
from tsumego.go.coords import PASS, from_sgf, to_gtp, to_sgf
from tsumego.batch.journal import Journal, JournalError, Record, read_json_lines
from tsumego.go.problem import Problem, ProblemError
from tsumego.go.board import Board
from tsumego.go.life import never_vital, target_benson_alive
from tsumego.go.line import IllegalLine, Line
from tsumego.search.engines import new_engine
from tsumego.errors import BudgetExhausted, budget_words
from tsumego.io.sgf import SgfError, SgfNode, parse_problem, read_sgf_bytes, read_tree, split_collection
from tsumego.search.solver import K, Solution, solve

# the classes, most important first: a problem's class is the first one among its findings
CLASSES = ("error", "unknown", "no-solution", "book-move-fails", "wrong-line-works",
           "bad-refutation", "extra-solutions", "weak-reply", "no-answer", "agree")
ANSWERS = ("auto", "right", "comment", "first-level")
FORMAT = 1  # bump when results change meaning (part of the cache key)
SOLVE_SHARE = 0.75  # of the time limit, for the full search when the book has an answer

_CORRECT_COMMENT = re.compile(r"^\s*(also\s+)?correct", re.I)
_KO_WORD = re.compile(r"\bko\b", re.I)


# --- options, tasks, results ----------------------------------------------------------------

@dataclass(frozen=True)
class Options:
    """What a verification run does to each problem."""

    answers: str = "auto"
    deep: bool = False
    time_limit: float | None = 60.0  # seconds per problem (search, refutations, deep checks)
    tt_size: int = 1_000_000
    # seconds past the time limit (plus a quarter of it) before a silent worker is killed
    grace: float = field(default=3.0, compare=False)
    # for tests only: a worker of run_pool hangs (as if its search never ended) on files whose
    # name contains this, until it is killed or the run's process is gone
    hang_on: str | None = field(default=None, compare=False)

    def key(self) -> str:
        """The part of the cache key that the options make."""
        return json.dumps({"answers": self.answers, "deep": self.deep,
                           "time_limit": self.time_limit, "tt_size": self.tt_size},
                          sort_keys=True)


@dataclass(frozen=True)
class Task:
    """One problem to verify: a game of a file."""

    index: int  # position in the run (results come back in this order)
    file: str  # as displayed
    game: int  # index of the game in the file (0 for a file with one game)
    data: bytes  # the SGF bytes of that game (empty when the file could not be read)
    read_error: str | None = None
    multi: bool = False  # the file holds several games

    @property
    def name(self) -> str:
        """The problem's name in messages: the file, with ``#game`` in a collection."""
        return f"{self.file}#{self.game}" if self.multi else self.file

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class Result:
    """The verdict on one problem (the ``--json`` object; points in SGF, passes ``"pass"``)."""

    file: str
    game: int
    cls: str = "error"
    to_play: str | None = None
    answers: str | None = None  # the convention that was used
    book_correct: list[str] = field(default_factory=list)
    book_wrong: list[str] = field(default_factory=list)
    solver_moves: list[str] | None = None
    status: str | None = None
    best_threats: int | None = None
    refutation: dict[str, list[str]] = field(default_factory=dict)
    findings: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    board: dict[str, Any] | None = None
    cached: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "game": self.game, "class": self.cls, "to_play": self.to_play,
            "answers": self.answers, "book_correct": self.book_correct,
            "book_wrong": self.book_wrong, "solver_moves": self.solver_moves,
            "status": self.status, "best_threats": self.best_threats,
            "refutation": self.refutation, "findings": self.findings, "notes": self.notes,
            "seconds": round(self.seconds, 3), "error": self.error, "board": self.board,
            "cached": self.cached,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Result:
        return cls(file=d["file"], game=d["game"], cls=d["class"], to_play=d["to_play"],
                   answers=d.get("answers"), book_correct=list(d["book_correct"]),
                   book_wrong=list(d["book_wrong"]), solver_moves=d["solver_moves"],
                   status=d["status"], best_threats=d.get("best_threats"),
                   refutation=dict(d["refutation"]), findings=list(d.get("findings", [])),
                   notes=list(d.get("notes", [])), seconds=float(d["seconds"]),
                   error=d["error"], board=d.get("board"), cached=bool(d.get("cached")))

    @property
    def is_finding(self) -> bool:
        return self.cls != "agree"

    def add(self, cls: str, text: str) -> None:
        """Record a finding of class ``cls``."""
        self.findings.append({"class": cls, "text": text})

    def settle(self) -> None:
        """Set the class from the findings (``agree`` when there are none)."""
        found = {f["class"] for f in self.findings}
        self.cls = next((c for c in CLASSES if c in found), "agree")


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


# --- the book -------------------------------------------------------------------------------

@dataclass
class BookMove:
    """A move of the book's tree (nodes without a move are spliced out)."""

    color: int
    point: str  # the SGF value as written ("" for a pass)
    comment: str  # this node's comment and those of move-less leaves right below it
    children: list[BookMove] = field(default_factory=list)
    correct: bool = False  # some correct line passes through this move


def _book_start(root: SgfNode) -> SgfNode:
    """The last setup node: the node whose children hold the first moves (a chain of
    move-less nodes with one child each counts as setup)."""
    node = root
    while len(node.children) == 1 and node.children[0].move() is None:
        node = node.children[0]
    return node


def book_tree(root: SgfNode) -> list[BookMove]:
    """The book's first moves, each with its subtree (iterative: deep trees are fine)."""
    start = _book_start(root)
    top: list[BookMove] = []
    # (sgf node, list to append moves to, the BookMove owning that list or None)
    stack: list[tuple[SgfNode, list[BookMove], BookMove | None]] = [
        (c, top, None) for c in reversed(start.children)]
    while stack:
        node, into, owner = stack.pop()
        mv = node.move()
        comment = " ".join(node.props.get("C", []))
        if mv is None:
            if not node.children and owner is not None and comment:
                owner.comment = (owner.comment + " " + comment).strip()
            for c in reversed(node.children):
                stack.append((c, into, owner))
            continue
        bm = BookMove(BLACK if mv[0] == "B" else WHITE, mv[1].strip().lower(), comment)
        into.append(bm)
        for c in reversed(node.children):
            stack.append((c, bm.children, bm))
    return top


def _walk(moves: list[BookMove]) -> Iterator[BookMove]:
    stack = list(moves)
    while stack:
        m = stack.pop()
        yield m
        stack.extend(m.children)


def detect_convention(moves: list[BookMove]) -> str:
    """The ``auto`` choice for this tree."""
    leaves = [m for m in _walk(moves) if not m.children]
    if any("RIGHT" in m.comment for m in leaves):
        return "right"
    if any(_CORRECT_COMMENT.match(m.comment) for m in leaves):
        return "comment"
    return "first-level"


def mark_correct(moves: list[BookMove], convention: str) -> None:
    """Set ``correct`` on every move by ``convention`` (right, comment or first-level)."""
    order = list(_walk(moves))
    for m in reversed(order):  # children before parents
        if m.children:
            m.correct = any(c.correct for c in m.children)
        elif convention == "right":
            m.correct = "RIGHT" in m.comment
        elif convention == "comment":
            m.correct = bool(_CORRECT_COMMENT.match(m.comment))
        else:
            m.correct = True


# --- positions along a line -----------------------------------------------------------------

class LinePosition:
    """A position reached by a line of moves from the problem's root (a :class:`Line`, which
    keeps the rules' bookkeeping), searched by one engine.

    The engine's solved table is shared by every position (its entries never depend on the
    path above them), so checking many lines of one problem costs little more than one."""

    def __init__(self, problem: Problem, *, deadline: float | None, tt_size: int,
                 nkt: int = 0) -> None:
        self.problem = problem
        self.engine = new_engine(problem, tt_size=tt_size, deadline=deadline)
        outside = never_vital(problem.board(), problem.region, problem.defender)
        alive: dict[int, bool] = {}

        def is_alive(board: Board) -> bool:
            got = alive.get(board.hash)
            if got is None:
                got = alive[board.hash] = target_benson_alive(board, problem.target,
                                                              problem.defender, outside)
            return got

        self.line = Line(problem, nkt, alive=is_alive)

    @property
    def board(self) -> Board:
        return self.line.board

    @property
    def nkt(self) -> int:
        """The ko-threat balance here (settable: the balance a question is asked at)."""
        return self.line.nkt

    @nkt.setter
    def nkt(self, value: int) -> None:
        self.line.nkt = value

    @property
    def ended(self) -> int:
        """The winner, once a move decided the game (else 0)."""
        return self.line.ended

    @property
    def history(self) -> dict[int, int]:
        return self.line.history

    @property
    def pair_states(self) -> dict[int, int]:
        return self.line.pair_states

    @property
    def depth(self) -> int:
        return self.line.depth

    @property
    def passed(self) -> bool:
        return self.line.passed

    @property
    def nodes(self) -> int:
        return self.engine.nodes

    def push(self, color: int, move: int) -> None:
        """Play ``move`` (or pass) for ``color``. Raises :class:`IllegalLine`."""
        self.line.play(color, move)

    def pop(self) -> None:
        self.line.undo()

    def winner(self, to_move: int) -> int:
        """The winner with ``to_move`` to play here at the line's balance (raises
        :class:`BudgetExhausted`)."""
        return self.engine.winner(self.line, to_move).winner

    def winner_after(self, color: int, move: int, nkt: int | None = None) -> int | None:
        """The winner after ``color`` plays ``move`` here (at balance ``nkt``, default the
        line's); ``None`` when the move is illegal."""
        saved = self.line.nkt
        if nkt is not None:
            self.line.nkt = nkt
        try:
            return self.engine.winner_after(self.line, color, move).winner
        except IllegalLine:
            return None
        finally:
            self.line.nkt = saved

    def candidates(self, color: int) -> list[int]:
        """Every play in the region here, then the pass."""
        return self.line.candidates()

    def threshold(self, color: int, move: int) -> int | None:
        """The balance least favourable to ``color`` (within -K..K) at which ``color`` still
        wins after ``move`` here, or ``None`` when it wins at none."""
        order = list(range(-K, K + 1)) if color == BLACK else list(range(K, -K - 1, -1))
        if self.winner_after(color, move, order[-1]) != color:
            return None
        lo, hi = 0, len(order) - 1  # order[hi] wins; find the first winning index
        while lo < hi:
            mid = (lo + hi) // 2
            if self.winner_after(color, move, order[mid]) == color:
                hi = mid
            else:
                lo = mid + 1
        return order[lo]

    def winning_replies(self, color: int) -> list[int]:
        """The moves of ``color`` (to play here) that win at the line's balance."""
        return [m for m in self.candidates(color) if self.winner_after(color, m) == color]


# --- verifying one problem ------------------------------------------------------------------

def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def _mv(m: int, size: int) -> str:
    return "pass" if m == PASS else f"{to_sgf(m, size)} ({to_gtp(m, size)})"


def _mvs(ms: Iterable[int], size: int) -> str:
    ms = list(ms)
    return ", ".join(_mv(m, size) for m in ms) if ms else "none"


def _pt(m: int, size: int) -> str:
    return to_sgf(m, size)


def _balance_text(color: int, k: int | None) -> str:
    """How comfortably ``color`` wins when its least favourable winning balance is ``k``."""
    if k is None:
        return "fails whatever the ko threats"
    need = k if color == BLACK else -k
    if need > 0:
        return f"wins only a ko, for which it needs {need} ko threat{'s' if need > 1 else ''}"
    if need == 0:
        return "wins only a ko, which it loses if the opponent has one more ko threat"
    if -need >= K:
        return "wins unconditionally"
    return f"wins a ko even if the opponent has {-need} more ko threat{'s' if -need > 1 else ''}"


def _clean(color: int, k: int | None) -> bool:
    return k is not None and (k == -K if color == BLACK else k == K)


def _board_json(problem: Problem) -> dict[str, Any]:
    size = problem.size
    return {"size": size,
            "black": [to_sgf(p, size) for p in bits(problem.black)],
            "white": [to_sgf(p, size) for p in bits(problem.white)],
            "target": [to_sgf(p, size) for p in bits(problem.target)],
            "region": [to_sgf(p, size) for p in bits(problem.region)]}


def _deadline(start: float, options: Options) -> float | None:
    return None if options.time_limit is None else start + options.time_limit


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.001, deadline - time.monotonic())


def verify_problem(task: Task, options: Options) -> Result:
    """Verify one problem. Never raises for a bad file (the result is ``error``)."""
    start = time.monotonic()
    res = Result(task.file, task.game)
    try:
        _verify(task, options, res, start)
    except (SgfError, ProblemError) as e:
        res.findings.clear()
        res.add("error", str(e))
        res.error = str(e)
    except RecursionError:
        res.findings.clear()
        res.error = f"{task.name}: the SGF tree is too deep to read"
        res.add("error", res.error)
    except Exception as e:  # a bug must not stop the run: report it on this problem
        res.findings.clear()
        res.error = f"{task.name}: internal error: {type(e).__name__}: {e}"
        res.add("error", res.error)
    res.settle()
    res.seconds = time.monotonic() - start
    return res


def _verify(task: Task, options: Options, res: Result, start: float) -> None:
    if task.read_error:
        raise SgfError(task.read_error)
    name = task.name
    tree = read_tree(task.data, name)
    pf = parse_problem(task.data, name)
    problem = pf.problem
    size = problem.size
    c = problem.to_play
    o = opponent(c)
    res.to_play = color_name(c)
    res.board = _board_json(problem)
    if not pf.pl_given:
        res.notes.append(f"the file has no PL: {_side(c)} to play was assumed (rules.md)")
    if getattr(pf, "inferred", None) is not None:
        res.notes.append("a plain problem: the target, the roles and the region were inferred")

    # the book
    top = book_tree(tree)
    convention = options.answers if options.answers != "auto" else detect_convention(top)
    res.answers = convention
    mark_correct(top, convention)
    correct: list[int] = []
    wrong: list[int] = []
    bad_points: list[str] = []
    others = 0
    for m in top:
        if m.color != c:
            others += 1
            continue
        try:
            p = from_sgf(m.point, size)
        except ValueError:
            bad_points.append(m.point)
            continue
        (correct if m.correct else wrong).append(p)
    correct = sorted(set(correct), key=_order)
    wrong = sorted(set(wrong) - set(correct), key=_order)
    res.book_correct = [_pt(p, size) for p in correct]
    res.book_wrong = [_pt(p, size) for p in wrong]
    if others:
        res.notes.append(f"the book has {others} line(s) starting with a {_side(o)} move; only "
                         f"{_side(c)} to play is checked")
    for bp in bad_points:
        res.add("book-move-fails", f"the book's move {bp!r} is not a point of the "
                                   f"{size}x{size} board")

    # the proof
    deadline = _deadline(start, options)
    solve_deadline = deadline
    if deadline is not None and options.time_limit is not None and correct:
        # keep a quarter of the time to check the book's moves alone if the full search
        # does not finish
        solve_deadline = start + SOLVE_SHARE * options.time_limit
    sol = solve(problem, to_play=c, time_limit=_remaining(solve_deadline),
                tt_size=options.tt_size)
    res.status = sol.status
    if sol.status == "unknown":
        res.add("unknown", f"{_side(c)} to play: {budget_words(sol.limit or '')} stopped the search "
                           f"({options.time_limit} s per problem)")
        if correct:
            _check_book_moves(res, problem, c, correct, deadline, options.tt_size)
        return
    assert sol.best_moves is not None
    best: set[int] = set(sol.best_moves)
    res.solver_moves = [_pt(p, size) for p in sorted(best, key=_order)]
    res.best_threats = sol.best_threats
    bk = sol.best_threats
    line = LinePosition(problem, deadline=deadline, tt_size=options.tt_size,
                        nkt=0 if bk is None else bk)
    try:
        _compare(res, sol, line, correct, wrong, best, _book_says_ko(top, c))
        if options.deep and bk is not None and not any(
                f["class"] in ("unknown", "error") for f in res.findings):
            _Deep(res, line, c, best, bk).run(top)
    except BudgetExhausted as e:
        res.notes.append(f"the {e.kind} limit stopped the checks after the main search; "
                         f"what is listed was completed")


def _check_book_moves(res: Result, problem: Problem, c: int, correct: list[int],
                      deadline: float | None, tt_size: int) -> None:
    """When the full search did not finish: is each of the book's moves at least a proved
    unconditional win? (Notes only: the class stays ``unknown``.)"""
    size = problem.size
    clean = -K if c == BLACK else K
    line = LinePosition(problem, deadline=deadline, tt_size=tt_size, nkt=clean)
    for m in correct:
        try:
            w = line.winner_after(c, m)
        except BudgetExhausted:
            res.notes.append(f"the book's move {_mv(m, size)} was not decided either")
            continue
        if w == c:
            res.notes.append(f"the book's move {_mv(m, size)} is proved to win unconditionally"
                             f" (whether other first moves work too is not known)")
        elif w is None:
            res.notes.append(f"the book's move {_mv(m, size)} cannot be played: "
                             f"{_illegal_reason(problem, c, m) or 'illegal'}")
        else:
            res.notes.append(f"the book's move {_mv(m, size)} does not win unconditionally "
                             f"(at best it wins a ko)")


def _order(m: int) -> tuple[bool, int]:
    return (m == PASS, m)


def _book_says_ko(top: list[BookMove], c: int) -> bool:
    """Do the book's correct lines for ``c`` speak of a ko?"""
    stack = [m for m in top if m.color == c and m.correct]
    while stack:
        m = stack.pop()
        if _KO_WORD.search(m.comment):
            return True
        stack.extend(x for x in m.children if x.correct)
    return False


def _compare(res: Result, sol: Solution, line: LinePosition, correct: list[int],
             wrong: list[int], best: set[int], book_ko: bool) -> None:
    """The first-move comparison (classes no-solution, book-move-fails, wrong-line-works,
    extra-solutions, no-answer, agree)."""
    problem = sol.problem
    size = problem.size
    c = sol.to_play
    o = opponent(c)
    bk = sol.best_threats
    if bk is None:
        res.add("no-solution", sol.describe() + (
            f"; the book's move{'s' if len(correct) > 1 else ''} "
            f"{_mvs(correct, size)} cannot succeed either" if correct else ""))
        fav = K if c == BLACK else -K  # refute even when c has every threat of the range
        for m in correct:
            _refute(res, line, c, m, fav)
        return
    how = _balance_text(c, bk)
    for m in correct:
        if m in best:
            continue
        reason = _illegal_reason(problem, c, m)
        if reason:
            res.add("book-move-fails", f"the book's move {_mv(m, size)} {reason}; the solver's "
                                       f"best: {_mvs(sorted(best, key=_order), size)}")
            continue
        k = line.threshold(c, m)
        if k is None:
            what = f"{_side(c)} {_mv(m, size)} fails"
        else:
            what = f"{_side(c)} {_mv(m, size)} {_balance_text(c, k)}, but a better result " \
                   f"exists: {_side(c)} {how}"
        refs = _refute(res, line, c, m, bk)
        res.add("book-move-fails", f"{what}; refuted by {_side(o)} {_mvs(refs, size)}; the "
                                   f"solver's best: {_mvs(sorted(best, key=_order), size)}")
    for m in wrong:
        if m in best:
            res.add("wrong-line-works", f"the book calls {_side(c)} {_mv(m, size)} wrong, but "
                                        f"it {how}")
    # books never list a pass: where passing wins too (the group is dead, or alive, as it
    # stands; or the attacker waits until the ko threats are gone), a note says so
    extra = sorted(best - set(correct) - set(wrong) - {PASS}, key=_order)
    if PASS in best and PASS not in correct and PASS not in wrong:
        res.notes.append(f"passing also wins for {_side(c)}, who {how}")
    if not correct:
        res.add("no-answer", f"the book gives no correct first move; the solver: "
                             f"{sol.describe()}; best first moves: {_mvs(sorted(best, key=_order), size)}")
    elif extra:
        res.add("extra-solutions", f"the solver also proves {_mvs(extra, size)} "
                                   f"(the book lists {_mvs(correct, size)}; {_side(c)} {how})")
    if not _clean(c, bk):
        res.notes.append(f"the best result is a ko: {_side(c)} {how}")
    elif book_ko and correct and all(m in best for m in correct):
        res.notes.append(f"the book speaks of a ko, but {_side(c)} {how}")


def _illegal_reason(problem: Problem, color: int, m: int) -> str | None:
    if m == PASS:
        return None
    if (problem.black | problem.white) >> m & 1:
        return "is on an occupied point"
    if not problem.region >> m & 1:
        return ("is outside the region the solver derives from the problem (the frame may be "
                "too tight, or the move is not needed)")
    b = problem.board()
    if b.play_fast(m, color) < 0:
        return "is suicide"
    return None


def _refute(res: Result, line: LinePosition, c: int, m: int, nkt: int) -> list[int]:
    """The opponent's winning replies after ``c`` plays ``m`` at the root (at ``nkt``),
    recorded in ``res.refutation``."""
    size = line.problem.size
    o = opponent(c)
    saved = line.nkt
    line.nkt = nkt
    try:
        line.push(c, m)
    except IllegalLine:
        line.nkt = saved
        return []
    try:
        if line.ended:
            refs: list[int] = []
        else:
            refs = line.winning_replies(o)
    finally:
        line.pop()
        line.nkt = saved
    res.refutation[_pt(m, size)] = [_pt(r, size) for r in sorted(refs, key=_order)]
    return sorted(refs, key=_order)


class _Deep:
    """The deep checks along the book's lines (see the module doc)."""

    MAX_DEPTH = 400

    def __init__(self, res: Result, line: LinePosition, c: int, best: set[int],
                 nkt: int) -> None:
        self.res = res
        self.line = line
        self.c = c
        self.best = best
        self.nkt = nkt
        self.size = line.problem.size
        self.moves: list[str] = []  # the current line, for the texts
        self.cut_notes = 0

    def _where(self) -> str:
        return "after " + " ".join(self.moves) if self.moves else "at the start"

    def run(self, top: list[BookMove]) -> None:
        c = self.c
        o = opponent(c)
        size = self.size
        for m in _merge(top):
            if m.color != c:
                continue
            try:
                p = from_sgf(m.point, size)
            except ValueError:
                continue
            if m.correct and p not in self.best or not m.correct and p in self.best:
                continue  # reported by the first-move comparison
            self._descend(m, p, c if m.correct else o)

    def _descend(self, m: BookMove, p: int, winner: int) -> None:
        """Play ``m`` (already checked) and check its subtree."""
        line = self.line
        self.moves.append(f"{color_name(m.color)}[{to_sgf(p, self.size) if p != PASS else ''}]")
        try:
            line.push(m.color, p)
        except IllegalLine as e:
            self._cut(f"{self._where()}: {e.text}")
            self.moves.pop()
            return
        try:
            if line.ended or not m.children:
                return
            if len(self.moves) >= self.MAX_DEPTH:
                self._cut(f"lines longer than {self.MAX_DEPTH} moves are not followed")
                return
            self._children(m.children, opponent(m.color), winner)
        finally:
            line.pop()
            self.moves.pop()

    def _cut(self, text: str) -> None:
        if self.cut_notes < 5:
            self.res.notes.append(f"deep: not followed {text}")
        self.cut_notes += 1

    def _children(self, children: list[BookMove], to_move: int, winner: int) -> None:
        line = self.line
        merged = _merge(children)
        same = [m for m in merged if m.color == to_move]
        if len(same) < len(merged):  # moves of the side that just played: the other passed
            line_moves = len(self.moves)
            self.moves.append(f"{color_name(to_move)}[]")
            try:
                line.push(to_move, PASS)
            except IllegalLine as e:  # cannot happen for a pass; keep the type checker calm
                self._cut(f"{self._where()}: {e.text}")
                del self.moves[line_moves:]
                return
            try:
                if not line.ended:
                    self._children([m for m in merged if m.color != to_move],
                                   opponent(to_move), winner)
            finally:
                line.pop()
                del self.moves[line_moves:]
        if same:
            self._moves(same, to_move, winner)

    def _moves(self, moves: list[BookMove], mover: int, winner: int) -> None:
        c = self.c
        o = opponent(c)
        line = self.line
        size = self.size
        resist: dict[int, int | None] | None = None
        for m in moves:
            try:
                p = from_sgf(m.point, size)
            except ValueError:
                self._cut(f"{self._where()}: {m.point!r} is not a point of the board")
                continue
            n = len(self.moves) + 1
            what = f"move {n} ({_side(mover)} {_mv(p, size)}, {self._where()})"
            if mover == c and winner == c:
                wins = line.winner_after(mover, p)
                if wins is None:
                    self._illegal(m, p, mover, "book-move-fails" if m.correct else None, what)
                    continue
                if m.correct and wins != c:
                    refs = self._replies_after(mover, p)
                    self.res.add("book-move-fails", f"{what} loses{self._ko(mover, p)}: "
                                                    f"{_side(o)} refutes with {_mvs(refs, size)}")
                    continue
                if not m.correct and wins == c:
                    self.res.add("wrong-line-works", f"the book calls {what} wrong, but it "
                                                     f"keeps the win")
                    continue
                self._descend(m, p, c if m.correct else o)
            elif mover == winner:  # the refuting side along a wrong line
                wins = line.winner_after(mover, p)
                if wins is None:
                    self._illegal(m, p, mover, "bad-refutation", what)
                    continue
                if wins != winner:
                    refs = self._replies_after(mover, p)
                    self.res.add("bad-refutation", f"the book's refutation {what} fails"
                                                   f"{self._ko(mover, p)}: "
                                                   f"{_side(opponent(mover))} wins with "
                                                   f"{_mvs(refs, size)}")
                    continue
                self._descend(m, p, winner)
            else:  # the losing side: one of its best resistances?
                if resist is None:
                    resist = {q: line.threshold(mover, q) for q in line.candidates(mover)}
                if p not in resist or line.winner_after(mover, p) is None:
                    self._illegal(m, p, mover, "weak-reply", what)
                    continue
                bestk = _best_threshold(mover, resist.values())
                if bestk is not None and resist[p] != bestk:
                    stronger = sorted((q for q, k in resist.items() if k == bestk), key=_order)
                    self.res.add("weak-reply", f"{what} is not a best resistance: "
                                               f"{_mvs(stronger, size)} would make "
                                               f"{_side(winner)} need more: after it "
                                               f"{_side(mover)} {_balance_text(mover, bestk)}"
                                               )
                    continue
                self._descend(m, p, winner)

    def _ko(self, mover: int, p: int) -> str:
        """For a move that loses at the line's balance: does it win a ko at another?"""
        k = self.line.threshold(mover, p)
        if k is None:
            return ""
        return (f" at the line's ko-threat balance {self.line.nkt:+d}: it "
                f"{_balance_text(mover, k)}")

    def _illegal(self, m: BookMove, p: int, mover: int, cls: str | None, what: str) -> None:
        try:
            self.line.push(mover, p)
        except IllegalLine as e:
            if e.kind in ("occupied", "suicide") and cls is not None:
                self.res.add(cls, f"{what} is illegal: {e.text}")
            else:
                self._cut(f"{self._where()}: {e.text}")
            return
        self.line.pop()

    def _replies_after(self, mover: int, p: int) -> list[int]:
        line = self.line
        line.push(mover, p)
        try:
            if line.ended:
                return []
            return sorted(line.winning_replies(opponent(mover)), key=_order)
        finally:
            line.pop()


def _best_threshold(color: int, ks: Iterable[int | None]) -> int | None:
    vals = [k for k in ks if k is not None]
    if not vals:
        return None
    return min(vals) if color == BLACK else max(vals)


def _merge(moves: list[BookMove]) -> list[BookMove]:
    """Book moves with the same colour and point merged (the tree may repeat a move)."""
    out: dict[tuple[int, str], BookMove] = {}
    for m in moves:
        key = (m.color, m.point)
        if key in out:
            prev = out[key]
            out[key] = BookMove(m.color, m.point, prev.comment, prev.children + m.children,
                                prev.correct or m.correct)
        else:
            out[key] = m
    return list(out.values())


# --- cache ----------------------------------------------------------------------------------

def task_key(task: Task, options: Options) -> str:
    """What a result depends on: the problem's bytes, the solver's version and the options
    (the key of the cache, and of a result in a JSON lines file)."""
    salt = f"{__version__}|{FORMAT}|{options.key()}"
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


def worker_context(preload: Sequence[str] = ("tsumego.verify",)) -> Any:
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
    from dask.distributed import (  # type: ignore[import-not-found, unused-ignore]
        Client, as_completed)

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

    def counts(self) -> dict[str, int]:
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


# --- JSON lines files ------------------------------------------------------------------------

def record(task: Task, result: Result, options: Options) -> Record:
    """A result as a line of the ``--json`` file: :meth:`Result.to_json` and the ``key``
    (:func:`task_key`) that tells a resumed run whether it still holds."""
    return {**result.to_json(), "key": task_key(task, options)}


def resumable(records: Iterable[Record], tasks: Sequence[Task],
              options: Options) -> dict[int, Result]:
    """The results among an earlier run's ``records`` that hold for ``tasks`` (by task index):
    the same file and game, and the same :func:`task_key` (the same bytes, solver version
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


__all__ = ["CLASSES", "ANSWERS", "Options", "Task", "Result", "BookMove", "LinePosition",
           "IllegalLine", "Cache", "Run", "collect", "book_tree", "detect_convention",
           "mark_correct", "verify_problem", "verify_all", "run_pool", "run_dask",
           "hard_limit", "chunk_size", "read_jsonl", "record", "resumable", "task_key",
           "worker_context", "exit_with"]
