#!/usr/bin/env python3
"""Measure plain-problem solving against published books.

    python tools/measure_plain.py [--every N] [--time-limit S] [--max-nodes N] [--jobs 2]
                                  [--out FILE.jsonl [--resume]] [--engine compiled|reference]
                                  [--gnugo] [--infer-only] [--ablate NAME ...]
                                  [--sets cho-elementary,cho-intermediate,...,plain]
                                  [--data DIR]

For every problem of each set (or every N-th, in file order): read it as a plain problem (the
"Ten Thousand Tsumego" JSON through ``tools/convert_sanderland.py``, Go Game Guru SGF as is),
let :mod:`tsumego.knowledge.infer` infer and frame it, solve it for the side to play with the time
limit, and compare with the book's first move(s). The set ``plain`` is our own composed plain
problems (``problems/plain/``, their right moves marked ``RIGHT``); the default is the five
published sets.

- **agree**: a book move is among the solver's ``best_moves`` (``agree_all`` in the JSON:
  every listed move is; null where the limit stopped the search of one after another won:
  the book's moves are searched side by side, so that a hard one hides no other's win);
- **unknown**: the time limit stopped the search before a book move was found to win (where
  it stopped the first reading, the problem is read in a closer frame first, as ``tsumego
  solve`` reads it: the record's ``reading`` says so and ``first_stopped`` names the limit;
  the class is that reading's);
- otherwise a disagreement, classified by further solves:

  - ``outside``: the book's move is outside our region (the frame is wrong);
  - ``roles``: with the other colour as defender the book's move is among ``best_moves`` (our
    inference of the roles was wrong; the record's ``swapped`` says how that search ended:
    true, false, or null when a limit stopped it);
  - ``book-weaker``: the book's move also wins, but only with more ko threats than our best
    moves need (the book gives a ko where we prove an unconditional result, or a worse ko):
    the book's answer is only one of several, or inferior;
  - ``no-win``: we prove the side to play cannot win at all (in a book it always does: our
    framing or target is wrong, or the book is);
  - ``book-loses``: the side to play wins, but the book's move loses at every balance in our
    frame (the book is wrong, or our frame is: these need a look, ``--show``);
  - ``no-book-move``: the book lists no answer;
  - ``error``: the problem could not be read or inferred (``"chase": true`` in the JSON when
    inference refused it as a chase across the board: its target can run into the open board).

The book's moves are searched first, side by side, at the balance where the other side has
every threat: one that wins there wins at every balance and is among the best moves, and the
balances need no search. Otherwise the winner at each balance comes first, then the book's
moves at the least favourable balance the side to play wins. A record stopped by the limit
says where (``stopped_in``: ``balances``, ``book moves`` or ``best moves``); stopped in the
balances, ``settled`` holds the winners found so far. Each record holds the search's nodes,
their mean depth (``depth_mean``) and the deepest (``depth_max``); the summary gives the
unknowns' median mean depth beside their median region: a shallow mean in a large region is a
wide tree, not deep lines of captures and retakes.

Every record holds ``frame_sensitive``: why the frame may decide the result
(``inferred.frame_sensitive``), or null. The summary gives, per set, how many problems are
flagged so, and how many of the disagreements (``outside`` to ``book-loses``: the classes that
are neither agree, unknown, no-book-move nor error) are. Unless ``--no-recheck``, each
disagreement is solved again, with the same goal and target, in the wider frames of
``tsumego.search.reading.wider_framings``: the frame two lines farther out (``"looser"``:
``agree`` when a book move wins there, ``disagree``, ``unknown``, or ``error`` when the region
grows too open), then, unless that agrees, a box around the stones (``"box"``, the same
values). A disagreement a wider frame resolves is the frame's doing, and the summary says how
many of those are flagged. Unless that or the roles already explain it, it is solved again
with each of the defender's two next largest blocks as the target (``"other_target"``:
``agree``, ``disagree``, ``unknown``, or null when there is none). ``"cause"`` sums the
rechecks up: ``frame``, ``inference``, ``book`` (our proof says the book's move is inferior
or loses, in our frame and the looser one, and no check flags the frame), ``out of time`` (a
recheck that could have told ran out of time) or ``not told apart``; the summary counts each.
``--infer-only`` infers and frames each problem without searching (class ``framed``): the
flag rate of whole collections in seconds.

With ``--gnugo``, GNU Go's owl reader (``tools/owl.py``) answers each problem too, on the
book's position (no frame: what a user of GNU Go would be told), and agrees when the move it
names is one of the book's; the summary gives its agreement beside ours.

``--ablate NAME`` (repeatable; ``tools/bench.py``'s names) searches with that technique turned
off, and the run's first line says so: each technique's worth in problems answered.

``--max-nodes N`` gives each solve a node budget. Without ``--time-limit`` such a run has no
clock at all, so its records are the same on an idle machine and a loaded one; ``--time-limit
S`` beside it keeps both limits, and ``--time-limit 0`` alone is refused (nothing would stop a
search).

Per set it prints: problems, agree (any / all), each class, unknown, median solve time, the
frame's flags; the
JSON lines file (``--out``) gets the options on its first line (``"kind": "run"``), then one
object per problem as each is done, synced to the disk. ``--resume`` continues the run of an
existing file: the problems it holds are not solved again (they count in the summary as they
were), so a run that was killed loses nothing it finished. The Go Game Guru books' right
first moves are the first-level moves leading to a leaf whose comment starts with "Correct" or "Also
correct".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bench import ABLATIONS, options_without
from convert_sanderland import convert_file
from owl import OwlError, owl_answer

from tsumego.batch.journal import Journal, Record, read_json_lines
from tsumego.batch.verify import exit_with
from tsumego.errors import BudgetExhausted
from tsumego.go.board import BLACK, bits, color_name
from tsumego.go.coords import PASS, from_sgf, to_sgf
from tsumego.go.line import IllegalLine, Line
from tsumego.go.problem import Problem, ProblemError
from tsumego.io.sgf import SgfNode, TooOpenFile, parse_problem, read_tree
from tsumego.knowledge.infer import (
    CHASE,
    Framing,
    Inference,
    TooOpen,
    book_board,
    crop_diagram,
    infer_problem,
)
from tsumego.search.compiled import core_build
from tsumego.search.engine import SearchOptions
from tsumego.search.engines import SearchEngine
from tsumego.search.reading import (
    Reading,
    other_targets,
    read_again,
    read_tighter,
    reframed,
    wider_framings,
    wins_nowhere,
)
from tsumego.search.solver import K, Searches, Solution, least_favourable, solve

REPO = Path(__file__).resolve().parent.parent
RACE_SLICE = 2_000  # nodes: each book move's first slice when they are searched side by side
DEFAULT_DATA = REPO.parent / "shared" / "data"
SETS = {
    "cho-elementary": ("sanderland-tsumego/problems/1a. Tsumego Beginner/"
                       "Cho Chikun Encyclopedia Life And Death - Elementary", "json"),
    "cho-intermediate": ("sanderland-tsumego/problems/1b. Tsumego Intermediate/"
                         "Cho Chikun Encyclopedia Life And Death - Intermediate", "json"),
    "cho-advanced": ("sanderland-tsumego/problems/1c. Tsumego Advanced/"
                     "Cho Chikun Encyclopedia Life And Death - Advanced", "json"),
    "ggg-easy": ("gogameguru-go-problems/weekly-go-problems/easy", "sgf"),
    "ggg-intermediate": ("gogameguru-go-problems/weekly-go-problems/intermediate", "sgf"),
    # our composed plain problems, in this repository (not under --data); right moves RIGHT
    "plain": (str(REPO / "problems" / "plain"), "right"),
}
BOOKS = [s for s in SETS if s != "plain"]  # the published sets: the default
CLASSES = ("agree", "outside", "roles", "book-weaker", "no-win", "book-loses", "no-book-move",
           "unknown", "error", "framed")
# the classes of a disagreement with the book
DISAGREEMENTS = ("outside", "roles", "book-weaker", "no-win", "book-loses")
# the record's key of the recheck in each of the wider frames (``wider_framings``), in order
WIDER = ("looser", "box")
# what a disagreement comes from, as the rechecks tell it (``cause``)
CAUSES = ("frame", "inference", "book", "out of time", "not told apart")


@dataclass(frozen=True)
class Task:
    set: str
    path: str
    kind: str  # json | sgf | right (SGF whose right lines end in a comment "RIGHT")
    time_limit: float | None  # None: no clock (a node budget alone)
    max_nodes: int | None
    framing: Framing
    recheck: bool
    engine: Literal["compiled", "reference"] = "compiled"
    gnugo: bool = False
    infer_only: bool = False
    ablate: tuple[str, ...] = ()  # techniques turned off (tools/bench.py's --ablate names)

    def options(self) -> SearchOptions:
        """The search options of this task's solves: its engine, its techniques turned off."""
        return dataclasses.replace(options_without(self.ablate), engine=self.engine)


# --- reading the books ------------------------------------------------------------------------

def _correct_first_moves(root: SgfNode, size: int,
                         words: tuple[str, ...] = ("correct", "also correct")) -> list[int]:
    """First-level moves of a Go Game Guru tree that lead to a leaf commented "Correct" or
    "Also correct" (or whose comment starts with another of ``words``)."""
    out = []
    for child in root.children:
        mv = child.move()
        if mv is None:
            continue
        stack = [child]
        ok = False
        while stack and not ok:
            n = stack.pop()
            if not n.children:
                c = (n.get("C") or "").strip().lower()
                ok = c.startswith(words)
            stack.extend(n.children)
        if ok:
            p = PASS if mv[1] in ("", "tt") else from_sgf(mv[1], size)
            if p not in out:
                out.append(p)
    return out


def load(task: Task) -> tuple[bytes, list[int]]:
    """The problem as SGF bytes and the book's right first moves."""
    path = Path(task.path)
    if task.kind == "json":
        data = convert_file(path)
        obj = json.loads(path.read_text(encoding="utf-8"))
        size = int(obj.get("SZ", 19))
        book = [from_sgf(e[1], size) for e in obj.get("SOL", []) if e[1]]
        return data, book
    data = path.read_bytes()
    root = read_tree(data, str(path))
    size = int(root.get("SZ", "19") or 19)
    words = ("right",) if task.kind == "right" else ("correct", "also correct")
    return data, _correct_first_moves(root, size, words)


# --- the measurement --------------------------------------------------------------------------

@dataclass
class Check:
    """What the measurement needs from the solver: the winner at each balance -K..K, the
    least favourable balance at which the side to play still wins (``best_k``), and whether
    each book move wins there (that is: is among ``solve()``'s ``best_moves``)."""

    by_threats: dict[int, int] | None = None
    best_k: int | None = None
    book_wins: dict[int, bool] | None = None
    book_wins_somewhere: dict[int, bool] | None = None
    best_moves: list[int] | None = None
    nodes: int = 0
    depth_mean: float = 0.0  # the nodes' mean depth (where the work went), and the deepest
    depth_max: int = 0
    seconds: float = 0.0
    limit: str | None = None
    # where a limit stopped the check: "balances" (``settled`` then holds the winners found
    # so far, by balance), "book moves" or "best moves"
    stopped_in: str | None = None
    settled: dict[int, int] | None = None


def check_book(problem: Problem, book: list[int], time_limit: float | None,
               max_nodes: int | None, *, full: bool = False,
               options: SearchOptions = SearchOptions()) -> Check:
    """Decide whether the book's moves are among the solver's ``best_moves`` without proving
    every other move.

    First the book's moves side by side at the balance least favourable to the side to play
    (the other side has all K threats): a win there is a win at every balance (the winner is
    monotone in the balance), so that balance is the least favourable winning one, where
    ``best_moves`` is exactly the set of moves that win, and the book's winning moves are
    among them. The search of the balances would have to settle them there anyway.
    Otherwise (the book's answer is a ko, or its moves lose there): the winner at each
    balance, searched as :func:`tsumego.search.solver.solve` searches it (the live game
    aside), then the book moves at the least favourable winning balance side by side, so
    that one hard book move does not hide another's win. With ``full``, also every winning
    move there when no book move wins. ``options``: the engine and the techniques (the live
    game is never searched first here)."""
    color = problem.to_play
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    search = Searches(problem, color, 1_000_000, max_nodes, deadline,
                      dataclasses.replace(options, live_first=False))
    engine = search.engine
    out = Check()
    stage = "book moves"
    try:
        if book and book_first(search, problem, book, out):
            return with_work(out, search, start)
        stage = "balances"
        search.winners(0)
        out.by_threats = {k: search.by[k] for k in range(-K, K + 1)}
        best_k = least_favourable(color, out.by_threats)
        stage = "book moves"
        if best_k is not None:
            out.best_k = best_k
            out.book_wins = {}
            race_moves(engine, problem, best_k, book, out.book_wins)
            if not any(out.book_wins.values()):
                most = K if color == BLACK else -K
                out.book_wins_somewhere = {}
                race_moves(engine, problem, most, book, out.book_wins_somewhere)
                if full:
                    stage = "best moves"
                    cands = list(bits(problem.board().empty & problem.region))
                    if color == problem.defender:
                        cands.append(PASS)
                    out.best_moves = [m for m in cands
                                      if engine.solve_after(color, m, best_k) == color]
        else:
            out.book_wins = {m: False for m in book}
            out.best_moves = []
    except BudgetExhausted as e:
        out.limit = e.kind
        out.stopped_in = stage
        if out.by_threats is None:
            out.settled = {k: search.by[k] for k in range(-K, K + 1) if k in search.by}
    return with_work(out, search, start)


def with_work(out: Check, search: Searches, start: float) -> Check:
    """``out`` with the work of ``search`` (nodes, their depths) and the time since ``start``."""
    engine = search.engine
    out.nodes = search.nodes()
    out.depth_mean = engine.depth_sum / engine.nodes if engine.nodes else 0.0
    out.depth_max = engine.depth_max
    out.seconds = time.monotonic() - start
    return out


def book_first(search: Searches, problem: Problem, book: list[int], out: Check) -> bool:
    """The book's moves side by side at the balance least favourable to the side to play;
    where one wins, fill in ``out`` (every balance won, ``best_k`` that balance, the book
    moves settled there, the limit if one stopped the others) and return True. A limit
    before any of them wins is left to the search of the balances (the tables keep what
    was found)."""
    color = problem.to_play
    clean = -K if color == BLACK else K
    wins: dict[int, bool] = {}
    limit: str | None = None
    try:
        race_moves(search.engine, problem, clean, book, wins)
    except BudgetExhausted as e:
        if not any(wins.values()):
            raise
        limit = e.kind
    if not any(wins.values()):
        return False
    out.by_threats = {k: color for k in range(-K, K + 1)}
    search.by.update(out.by_threats)
    out.best_k = clean
    out.book_wins = wins
    if limit is not None:
        out.limit = limit
        out.stopped_in = "book moves"
    return True


def by_balance(winners: dict[int, int]) -> dict[str, str]:
    """Winners by balance as the records write them: ``{"-2": "W", ...}``."""
    return {str(k): color_name(w) for k, w in winners.items()}


def race_moves(engine: SearchEngine, problem: Problem, balance: int, moves: list[int],
               wins: dict[int, bool]) -> None:
    """Whether each of ``moves`` wins for the side to play at ``balance``, into ``wins``:
    searched side by side, each move still open getting a slice of nodes in turn (the slices
    doubling), so that the first win is found as early as the cheapest of them allows. A
    limit stops the race with ``wins`` holding what was settled."""
    color = problem.to_play
    work = RACE_SLICE
    while len(open_ := [m for m in moves if m not in wins]) > 1:
        for m in open_:
            try:
                found = engine.winner_after(Line(problem, balance), color, m,
                                            max_work=work).winner
            except IllegalLine:
                found = 3 - color
            if found:
                wins[m] = found == color
        work *= 2
    for m in open_:  # the last one open, searched to the end
        wins[m] = engine.solve_after(color, m, balance) == color


def run(task: Task) -> dict[str, Any]:
    rec: dict[str, Any] = {"set": task.set, "problem": Path(task.path).name}
    t0 = time.monotonic()
    try:
        data, book = load(task)
        too_open: ProblemError | None = None
        try:
            pf = parse_problem(data, task.path)
        except TooOpenFile as e:
            pf, too_open = e.file, e
        problem, inf = pf.problem, pf.inferred
        if inf is not None and task.framing != Framing():
            # re-frame with the framing under test (parse_problem used the default)
            try:
                problem, inf = infer_problem(book_board(problem, inf.frame), problem.to_play,
                                             pf.comment, name=task.path, framing=task.framing)
                too_open = None
            except TooOpen as e:
                problem, inf, too_open = e.problem, e.inferred, e
        if too_open is not None:
            # too open as first inferred: another reading, as `tsumego solve` reads it (it
            # takes searches, so --infer-only records the refusal)
            assert inf is not None
            opened = None if task.infer_only else reading_for(problem, inf, pf.comment, task,
                                                               too_open=True)
            if opened is None:
                raise too_open
            problem, inf = opened.problem, opened.inferred
            rec["reading"] = opened.why
    except (ProblemError, ValueError, OSError) as e:
        rec.update(cls="error", error=str(e), seconds=round(time.monotonic() - t0, 3))
        if CHASE in str(e):
            rec["chase"] = True
        return rec
    size = problem.size
    color = problem.to_play
    frame = inf.frame if inf else 0
    rec.update(
        to_play=color_name(color),
        book=[to_sgf(m, size) for m in book],
        rule=inf.rule if inf else "marked", confidence=round(inf.confidence, 3) if inf else 1,
        **reading_fields(problem, inf))
    if task.infer_only:
        rec.update(cls="framed", seconds=round(time.monotonic() - t0, 3))
        if rec["frame_sensitive"]:
            rec["diagram"] = crop_diagram(problem, frame)
        return rec
    if task.gnugo:
        try:
            owl = owl_answer(problem, book_board(problem, frame))
            rec.update(owl_code=owl.code, owl_seconds=round(owl.seconds, 3),
                       owl_move=None if owl.move is None else to_sgf(owl.move, size),
                       owl_agree=owl.move is not None and owl.move in book)
        except OwlError as e:
            rec.update(owl_error=str(e), owl_agree=False)
    chk = check_book(problem, book, task.time_limit, task.max_nodes, full=task.recheck,
                     options=task.options())
    if inf is not None and chk.by_threats is not None and wins_nowhere(chk.by_threats, color):
        # no solution in the first reading: read again as `tsumego solve` does
        again = reading_for(problem, inf, pf.comment, task)
        if again is not None:
            problem, inf = again.problem, again.inferred
            frame = inf.frame
            rec.update(reading=again.why, **reading_fields(problem, inf))
            chk = check_book(problem, book, task.time_limit, task.max_nodes,
                             full=task.recheck, options=task.options())
    elif (inf is not None and chk.limit in ("time", "nodes")
          and not (chk.book_wins and any(chk.book_wins.values()))):
        # the limit stopped the first reading: read it in a closer frame, as `tsumego solve`
        # does (the record's `reading` says so, `first_stopped` names the limit)
        tight = tighter_for(problem, inf, pf.comment, task)
        if tight is not None:
            problem, inf = tight.problem, tight.inferred
            frame = inf.frame
            rec.update(reading=tight.why, first_stopped=chk.limit,
                       **reading_fields(problem, inf))
            chk = check_book(problem, book, task.time_limit, task.max_nodes,
                             full=task.recheck, options=task.options())
    rec.update(seconds=round(chk.seconds, 3), nodes=chk.nodes,
               depth_mean=round(chk.depth_mean, 2), depth_max=chk.depth_max, limit=chk.limit,
               best_threats=chk.best_k,
               by_threats=None if chk.by_threats is None else by_balance(chk.by_threats))
    if chk.stopped_in is not None:
        rec["stopped_in"] = chk.stopped_in
    if chk.settled is not None:
        rec["settled"] = by_balance(chk.settled)
    if chk.best_moves is not None:
        rec["best_moves"] = [to_sgf(m, size) for m in chk.best_moves]
    rec["cls"] = classify(problem, frame, chk, book, task, rec)
    if rec["cls"] in DISAGREEMENTS and task.recheck and inf is not None:
        for key, (_, wider) in zip(WIDER, wider_framings(task.framing)):
            rec[key] = wider_frame(problem, inf, pf.comment, book, task, wider)
            if rec[key] == "agree":
                break
        if rec["cls"] not in ("outside", "roles") and "agree" not in (rec.get(k) for k in WIDER):
            rec["other_target"] = other_target(problem, frame, pf.comment, book, task)
        rec["cause"] = cause(rec)
    if rec["cls"] not in ("agree", "unknown"):
        rec["diagram"] = crop_diagram(problem, frame)
    return rec


def reading_fields(problem: Problem, inf: Inference | None) -> dict[str, Any]:
    """What a record says of the problem as read: the goal, the defender, the target, the
    region's empty points and the frame's flag."""
    return {"goal": inf.goal if inf else None, "defender": color_name(problem.defender),
            "target": [to_sgf(p, problem.size) for p in bits(problem.target)],
            "region_empty": problem.region_empty,
            "frame_sensitive": inf.frame_sensitive if inf else None}


def reading_for(problem: Problem, inf: Inference, comment: str, task: Task,
                too_open: bool = False) -> Reading | None:
    """The reading ``tsumego solve`` answers where the first has no solution or is too open
    (:func:`tsumego.search.reading.read_again`), with the task's limits; None if none."""

    def solve_one(p: Problem, color: int) -> Solution:
        return solve(p, to_play=color, time_limit=task.time_limit, max_nodes=task.max_nodes,
                     options=task.options(), all_moves=False)

    return read_again(problem, inf, comment, solve_one, name=task.path, framing=task.framing,
                      too_open=too_open)


def tighter_for(problem: Problem, inf: Inference, comment: str, task: Task) -> Reading | None:
    """The reading ``tsumego solve`` answers where the limit stopped the first
    (:func:`tsumego.search.reading.read_tighter`), with the task's limits; None if none."""

    def solve_one(p: Problem, color: int) -> Solution:
        return solve(p, to_play=color, time_limit=task.time_limit, max_nodes=task.max_nodes,
                     options=task.options(), all_moves=False)

    return read_tighter(problem, inf, comment, solve_one, name=task.path,
                        framing=task.framing)


def wider_frame(problem: Problem, inf: Inference, comment: str, book: list[int], task: Task,
                framing: Framing) -> str:
    """The book's moves against the problem as read (``inf``: its goal and target) framed
    again with ``framing``, one of :func:`tsumego.search.reading.wider_framings`: ``agree`` (a
    book move is among the best moves there: the frame made the disagreement), ``disagree``,
    ``unknown`` (a limit stopped the search) or ``error`` (the frame cannot be drawn: the
    region grows too open)."""
    try:
        wider, _ = reframed(problem, inf, comment, name=task.path, framing=framing)
    except ProblemError:
        return "error"
    chk = check_book(wider, book, task.time_limit, task.max_nodes, options=task.options())
    if chk.book_wins and any(chk.book_wins.values()):
        return "agree"
    return "unknown" if chk.limit is not None else "disagree"


def other_target(problem: Problem, frame: int, comment: str, book: list[int],
                 task: Task) -> str | None:
    """The book's moves with another of the defender's blocks as the target
    (:func:`tsumego.search.reading.other_targets`): ``agree`` as soon as a book move is among
    the best moves with one (our choice of the target made the disagreement), else
    ``unknown`` if a limit stopped one, ``disagree``, or None when there is no other."""
    found: str | None = None
    for r in other_targets(problem, frame, comment, name=task.path, framing=task.framing):
        chk = check_book(r.problem, book, task.time_limit, task.max_nodes,
                         options=task.options())
        if chk.book_wins and any(chk.book_wins.values()):
            return "agree"
        if chk.limit is not None:
            found = "unknown"
        elif found is None:
            found = "disagree"
    return found


def cause(rec: Record) -> str:
    """What a disagreement comes from, as its record's rechecks tell it (one of
    :data:`CAUSES`): ``frame`` when the book's move is outside our region or wins in a wider
    frame; ``inference`` when it wins with the roles swapped or another target; ``book`` when
    our proof says the book's move is inferior (``book-weaker``) or loses (``book-loses``) in
    our frame and the looser one, and no check of the frame flags the problem; ``out of time``
    when a recheck that could have told ran out of time (a wider frame, another target, or
    the roles swapped: ``"swapped": null``); else ``not told apart``."""
    cls = rec.get("cls")
    wider = [rec.get(k) for k in WIDER]
    if cls == "outside" or "agree" in wider:
        return "frame"
    if cls == "roles" or rec.get("other_target") == "agree":
        return "inference"
    if (cls in ("book-weaker", "book-loses") and rec.get("looser") == "disagree"
            and not rec.get("frame_sensitive")):
        return "book"
    if "unknown" in (*wider, rec.get("other_target")) or ("swapped" in rec
                                                          and rec["swapped"] is None):
        return "out of time"
    return "not told apart"


def classify(problem: Problem, frame: int, chk: Check, book: list[int], task: Task,
             rec: dict[str, Any]) -> str:
    if not book:
        return "no-book-move" if chk.limit is None else "unknown"
    if chk.book_wins is None:
        return "unknown"
    if any(chk.book_wins.values()):
        # every listed move wins; null where a limit stopped the search of one
        rec["agree_all"] = (all(chk.book_wins.values()) if set(chk.book_wins) == set(book)
                            else None)
        return "agree"
    if chk.limit is not None:
        return "unknown"
    if all(m != PASS and not problem.region >> m & 1 for m in book):
        return "outside"
    if task.recheck:
        color = problem.to_play
        try:  # the other colour as defender
            swapped, _ = infer_problem(book_board(problem, frame), color, "",
                                       goal="live" if color == problem.attacker else "kill",
                                       framing=task.framing)
            c2 = check_book(swapped, book, task.time_limit, task.max_nodes,
                            options=task.options())
            # true: a book move wins with the roles swapped; null: a limit stopped that
            # search first; false: it settled, and no book move wins there
            won = c2.book_wins is not None and any(c2.book_wins.values())
            rec["swapped"] = True if won else None if c2.limit is not None else False
            if won:
                return "roles"
        except ProblemError:
            pass
    if chk.book_wins_somewhere and any(chk.book_wins_somewhere.values()):
        return "book-weaker"
    if chk.best_k is None:
        return "no-win"
    return "book-loses"


def run_safe(task: Task) -> dict[str, Any]:
    try:
        return run(task)
    except Exception as e:  # report and go on: one bad problem must not stop a long run
        return {"set": task.set, "problem": Path(task.path).name, "cls": "error",
                "error": f"{type(e).__name__}: {e}"}


# --- driver -----------------------------------------------------------------------------------

def run_options(args: argparse.Namespace, framing: Framing) -> Record:
    """What the records of a run depend on, as the first line of ``--out`` says it (an
    infer-only run says so; a run that searches says nothing of it, as before the option)."""
    opts: Record = {"time_limit": args.time_limit, "max_nodes": args.max_nodes,
                    "recheck": not args.no_recheck, "framing": dataclasses.asdict(framing),
                    "engine": args.engine, "gnugo": args.gnugo}
    if args.infer_only:
        opts["infer_only"] = True
    if args.ablate:
        opts["ablate"] = list(ablated(args))
    return opts


def ablated(args: argparse.Namespace) -> tuple[str, ...]:
    """The techniques ``--ablate`` turns off, each once, in name order."""
    return tuple(sorted(set(args.ablate)))


def finished(records: list[Record], options: Record, out: str) -> dict[tuple[str, str], Record]:
    """The records of the problems an earlier run finished, by (set, problem). Raises
    ``ValueError`` (one line, naming ``out``) when the earlier run had other options or a
    line is not a record of this tool."""
    if not records or records[0].get("kind") != "run":
        raise ValueError(f"{out}: not a file written by measure_plain.py --out (no run line "
                         f"first)")
    before = records[0].get("options")
    if before != options:
        was = before if isinstance(before, dict) else {}
        keys = [*options, *(k for k in was if k not in options)]
        diff = ", ".join(f"{k} {was.get(k)!r}, now {options.get(k)!r}" for k in keys
                         if was.get(k) != options.get(k))
        raise ValueError(f"{out}: the earlier run had other options ({diff}): resume it with "
                         f"those, or write to a new file")
    done: dict[tuple[str, str], Record] = {}
    for i, rec in enumerate(records[1:], start=2):
        if not isinstance(rec.get("set"), str) or not isinstance(rec.get("problem"), str) \
                or not isinstance(rec.get("cls"), str):
            raise ValueError(f"{out}: line {i} is not a record of measure_plain.py")
        done[rec["set"], rec["problem"]] = rec
    return done


def tasks_for(name: str, data_dir: Path, every: int, offset: int, args: argparse.Namespace,
              framing: Framing) -> list[Task]:
    rel, kind = SETS[name]
    d = data_dir / rel  # (the path of the set "plain" is absolute: the repository's)
    files = sorted(p for p in d.iterdir() if p.suffix == (".json" if kind == "json" else ".sgf"))
    picked = files[offset::every]
    if args.problems:
        wanted = set(args.problems.split(","))
        picked = [p for p in picked if p.name in wanted or p.stem in wanted]
    return [Task(name, str(p), kind, args.time_limit, args.max_nodes, framing,
                 not args.no_recheck, args.engine, args.gnugo, args.infer_only,
                 ablated(args))
            for p in picked]


def summary(name: str, recs: list[dict[str, Any]]) -> str:
    n = len(recs)
    counts = {c: sum(1 for r in recs if r.get("cls") == c) for c in CLASSES}
    agree_all = sum(1 for r in recs if r.get("cls") == "agree" and r.get("agree_all"))
    searched = ("error", "framed")  # (an infer-only run searches nothing)
    times = [r["seconds"] for r in recs if "seconds" in r and r.get("cls") not in searched]
    solved_times = [r["seconds"] for r in recs if r.get("cls") not in ("unknown", *searched)
                    and "seconds" in r]
    nodes = [r["nodes"] for r in recs if "nodes" in r]

    def pct(k: int) -> str:
        return f"{k} ({100 * k / n:.0f}%)" if n else "0"

    parts = [f"{name}: {n} problems"]
    if not counts["framed"]:  # a run that searched
        parts += [f"agree {pct(counts['agree'])}", f"(all listed moves {pct(agree_all)})"]
    for c in CLASSES[1:]:
        if counts[c]:
            chases = sum(1 for r in recs if r.get("cls") == c and r.get("chase"))
            parts.append(f"{c} {counts[c]}" + (f" ({chases} refused as chases)" if chases
                                               else ""))
    # the frame's flags: of the problems framed (not refused), and of the disagreements
    flagged = sum(1 for r in recs if r.get("frame_sensitive"))
    framed = n - counts["error"]
    parts.append(f"frame flagged {flagged} of {framed} framed"
                 + (f" ({100 * flagged / framed:.0f}%)" if framed else ""))
    disagree = [r for r in recs if r.get("cls") in DISAGREEMENTS]
    if disagree:
        told = sum(1 for r in disagree if r.get("frame_sensitive"))
        parts.append(f"disagreements flagged {told} of {len(disagree)}")
        # the disagreements a wider frame resolves are the frame's doing: are they flagged?
        made = [r for r in disagree if "agree" in (r.get(k) for k in WIDER)]
        if any("looser" in r for r in disagree):
            parts.append(f"a wider frame agrees on {len(made)} (flagged "
                         f"{sum(1 for r in made if r.get('frame_sensitive'))})")
        told_by = [r["cause"] for r in disagree if "cause" in r]
        if told_by:
            parts.append("causes: " + ", ".join(f"{c} {told_by.count(c)}" for c in CAUSES
                                                if c in told_by))
    if times:
        parts.append(f"median {statistics.median(times):.2f} s")
    if solved_times:
        parts.append(f"(solved: median {statistics.median(solved_times):.2f} s)")
    if nodes:
        parts.append(f"median {statistics.median(nodes):.0f} nodes")
    # where the time went on the problems left open: deep lines (kos, captures and
    # retakes) or a wide tree (a shallow mean depth)
    left = [r for r in recs if r.get("cls") == "unknown" and "depth_mean" in r]
    if left:
        depth = statistics.median(r["depth_mean"] for r in left)
        room = statistics.median(r["region_empty"] for r in left)
        parts.append(f"unknown: median mean depth {depth:.1f} in a median {room:.0f} empty "
                     f"points")
    owl = [r for r in recs if "owl_agree" in r]
    if owl:
        agree = sum(1 for r in owl if r["owl_agree"])
        owl_times = [r["owl_seconds"] for r in owl if "owl_seconds" in r]
        parts.append(f"GNU Go owl agrees {agree} of {len(owl)} ({100 * agree / len(owl):.0f}%)"
                     + (f", median {statistics.median(owl_times):.2f} s" if owl_times else ""))
    return "; ".join(parts)


def arg_parser() -> argparse.ArgumentParser:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(BOOKS),
                    help="comma-separated: " + ", ".join(SETS) + " (default: all but plain)")
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="the shared data directory")
    ap.add_argument("--every", type=int, default=1, help="take every N-th problem")
    ap.add_argument("--offset", type=int, default=0, help="start at this index")
    ap.add_argument("--problems", default="", help="only these file names (comma-separated)")
    ap.add_argument("--time-limit", type=float, default=None,
                    help="seconds per solve (0: none; default 10, and none with --max-nodes)")
    ap.add_argument("--max-nodes", type=int, default=None,
                    help="node budget per solve (reproducible on a loaded machine: without "
                         "--time-limit, no clock stops the search)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--out", default=None, help="JSON lines file, one object per problem")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run of an existing --out file: its problems are not "
                         "solved again")
    ap.add_argument("--no-recheck", action="store_true",
                    help="do not re-solve disagreements to classify them")
    ap.add_argument("--show", action="store_true", help="print the diagram of disagreements")
    ap.add_argument("--mode", default=Framing.mode, choices=("inside", "voronoi", "flood", "box"))
    ap.add_argument("--distance", type=int, default=Framing.distance)
    ap.add_argument("--margin", type=int, default=Framing.margin)
    ap.add_argument("--beyond", type=int, default=Framing.beyond)
    ap.add_argument("--targets", default=Framing.targets, choices=("largest", "enclosed"))
    ap.add_argument("--no-derive", action="store_true")
    ap.add_argument("--engine", default="compiled", choices=("compiled", "reference"),
                    help="the search engine (default: the compiled core)")
    ap.add_argument("--ablate", action="append", default=[], choices=sorted(ABLATIONS),
                    metavar="NAME",
                    help="turn a technique off (tools/bench.py's names; repeatable)")
    ap.add_argument("--gnugo", action="store_true",
                    help="also ask GNU Go's owl reader (tools/owl.py) each problem")
    ap.add_argument("--infer-only", action="store_true",
                    help="only infer and frame each problem (no search): whether the frame "
                         "may decide it, for whole collections in seconds")
    return ap


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, read and checked. ``time_limit`` is settled to seconds or None (no
    clock): 10 s by default, none beside ``--max-nodes`` (so that a node budget alone makes a
    run whose records do not depend on the machine's load) or with ``--time-limit 0``; a run
    with neither limit is refused."""
    ap = arg_parser()
    args = ap.parse_args(argv)
    if args.time_limit is not None and args.time_limit < 0:
        ap.error("--time-limit must be >= 0")
    if args.time_limit is None:
        args.time_limit = None if args.max_nodes is not None else 10.0
    elif args.time_limit == 0:
        args.time_limit = None
    if args.time_limit is None and args.max_nodes is None and not args.infer_only:
        ap.error("--time-limit 0 needs --max-nodes: a search with neither limit may not end")
    for s in set_names(args):
        if s not in SETS:
            ap.error(f"unknown set {s!r}")
    if args.resume and not args.out:
        ap.error("--resume needs --out FILE: the records of the run to continue")
    if args.out and Path(args.out).exists() and not args.resume:
        ap.error(f"{args.out} exists: pass --resume to continue that run, or remove it")
    return args


def set_names(args: argparse.Namespace) -> list[str]:
    """The sets ``--sets`` names, in its order."""
    return [s.strip() for s in args.sets.split(",") if s.strip()]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    framing = Framing(mode=args.mode, distance=args.distance, margin=args.margin,
                      beyond=args.beyond,
                      derive=not args.no_derive, targets=args.targets)
    names = set_names(args)
    tasks: list[Task] = []
    for s in names:
        tasks.extend(tasks_for(s, Path(args.data), args.every, args.offset, args, framing))
    results: dict[str, list[dict[str, Any]]] = {s: [] for s in names}
    head: Record = {"kind": "run", "options": run_options(args, framing)}
    if args.engine == "compiled":  # (the speed depends on the build; resuming does not)
        head["core"] = core_build()
    earlier: dict[tuple[str, str], Record] = {}
    out = None
    if args.out:
        try:
            if args.resume and Path(args.out).exists():
                earlier = finished(read_json_lines(args.out), head["options"], args.out)
            kept = [earlier[k] for k in ((t.set, Path(t.path).name) for t in tasks)
                    if k in earlier]
            out = Journal(args.out, [head] + kept)
        except (ValueError, OSError) as e:  # (a JournalError is a ValueError)
            msg = str(e) if isinstance(e, ValueError) else f"{args.out}: {e.strerror or e}"
            print(f"measure_plain.py: error: {msg}", file=sys.stderr)
            return 2
        for rec in kept:
            results[rec["set"]].append(rec)
    todo = [t for t in tasks if (t.set, Path(t.path).name) not in earlier]
    start = time.monotonic()
    what = ("inferred and framed only" if args.infer_only
            else "no time limit" if args.time_limit is None
            else f"time limit {args.time_limit} s")
    earlier_words = (f"; {len(tasks) - len(todo)} done by the earlier run in {args.out}"
                     if len(todo) < len(tasks) else "")
    print(f"# {len(tasks)} problems, {what}, {args.jobs} jobs, framing {framing}"
          + earlier_words, flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs, initializer=exit_with,
                             initargs=(os.getpid(),)) as pool:
        futs = {pool.submit(run_safe, t): t for t in todo}
        done = len(tasks) - len(todo)
        for fut in as_completed(futs):
            rec = fut.result()
            done += 1
            results[rec["set"]].append(rec)
            if out:
                out.append({k: v for k, v in rec.items() if k != "diagram"})
            print(f"[{done}/{len(tasks)}] {rec['set']} {rec['problem']}: {rec['cls']} "
                  f"{rec.get('seconds', '')}", file=sys.stderr, flush=True)
            if args.show and (rec["cls"] not in ("agree", "unknown", "framed")
                              or rec.get("frame_sensitive")):
                why = rec.get("frame_sensitive")
                print(f"\n{rec['set']} {rec['problem']}: {rec['cls']} book {rec.get('book')} "
                      f"best {rec.get('best_moves')} rule {rec.get('rule')} "
                      f"{rec.get('error', '')}" + (f"\nframe flagged: {why}" if why else "")
                      + f"\n{rec.get('diagram', '')}", flush=True)
    if out:
        out.close()
    built = f" ({head['core']} core)" if "core" in head else ""
    print(f"# wall time {time.monotonic() - start:.0f} s{built}; "
          f"python tools/measure_plain.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    for s in names:
        print(summary(s, results[s]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
