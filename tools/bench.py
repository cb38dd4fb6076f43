#!/usr/bin/env python3
"""Benchmark the solver on collections of marked problems (SGF).

    python tools/bench.py DIR... [--time-limit S] [--json] [--compare PEER_CSV] [--jobs N]
                          [--quick] [--ablate NAME] [--simulation N] [--simulation-from N]
                          [--max-nodes N] [--out FILE [--resume]]

Every ``*.sgf`` under each DIR (recursively, sorted; a plain file argument counts as a
collection of one) is solved for BOTH sides to play, each solve with its own time limit. One
line per problem and side: relative path, side, status, winner, best move (SGF), whether the
file's stated first move(s) are among ``best_moves``, nodes, seconds, nodes/s. Then totals.

``stated`` column: ``yes``/``no`` when the file has PL and first-level variations for the side
in PL and this row is that side (``yes`` = every stated first move is in ``best_moves``);
``-`` when there is nothing to check; ``?`` when the solve did not finish. With ``--quick``,
``yes`` means the one move we give is among the stated ones (the peer's ``first_ok``).

``--compare PEER_CSV`` (tsumego.js times, see the data's PROVENANCE.md) prints our seconds
beside the peer's for each problem and side, with the ratio ours/peer, then totals. A peer
``TIMEOUT`` or ``ERROR`` row counts as unsolved by the peer; a peer time above our
``--time-limit`` counts as not solved *within the limit* (the peer ran with its own, longer
limit); ratios are taken only where both solved.

``--quick`` asks each solve for the answer (winner at every balance, status) and one correct
first move, the question tsumego.js answers; without it every first move is also proved or
refuted, as ``tsumego solve`` does.

``--out FILE`` also writes the rows to a JSON lines file as they are done (each line synced
to the disk; the first line says the options): with ``--jobs 1`` each side's row as soon as
it is solved, with more jobs a file's rows as soon as the file is done. A run that is killed
loses nothing it wrote; ``--resume`` continues the run of an existing FILE: the (problem,
side) rows it holds are not solved again (they are printed and counted as they were), the
others are, and FILE ends with the rows of a run that was never stopped.

``--jobs N`` solves in N worker processes, each file in a fresh one (as ``tsumego solve``
runs: a worker kept for hundreds of files runs the late ones slower) that has
read the eye-space table before its file's clock starts, as a long-lived process has; keep the
default 1 for the least disturbed timings.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import multiprocessing
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from tsumego import BLACK, WHITE, ProblemError, SgfError, read_problem, solve
from tsumego.batch.journal import Journal, Record, read_json_lines
from tsumego.batch.verify import exit_with, worker_context
from tsumego.go.board import Board, bits
from tsumego.go.coords import to_sgf
from tsumego.knowledge.eyespace import database
from tsumego.search.compiled import core_build
from tsumego.search.engine import SearchOptions
from tsumego.search.solver import K

# --ablate NAME: the technique turned off, as SearchOptions fields
ABLATIONS: dict[str, dict[str, Any]] = {
    "epsilon": {"epsilon": 0.0},  # the 1+epsilon threshold trick
    "knowledge": {"knowledge": False},  # initial numbers and ordering from liberties and eyes
    "sumscale": {"sum_scale": 1},  # the side not to move's initial number scaled as a sum
    "benson": {"benson": False},  # Benson's unconditional life as a terminal test
    "kofree": {"kofree": False},  # proofs free of repetition stored for every balance
    "capture": {"capture": False},  # a target in atari, attacker to move: lost without search
    "atari": {"atari": False},  # a target in atari that cannot escape: lost without search
    "ladder": {"ladder": False},  # a target captured by successive ataris: lost without search
    "borrow": {"borrow": False},  # the two games' searches borrow each other's wins that hold
    "livefirst": {"live_first": False},  # the defender to play: the live game searched first
    "farfirst": {"far_first": False},  # the two ends of the balances before balance 0
    "simulation": {"simulation": 0},  # Kawano's simulation (the reference engine's)
    "eyespace": {"eyespace": False},  # the eye-space database's answers
    "threats": {"threats": False},  # the defender's threat to live refutes attacker moves
    "tiephi": {"tie_phi": False},  # ties at the least delta go to the largest phi
    "passlast": {"pass_last": False},  # the pass searched only after every play
    "patterns": {"patterns": 0},  # shape patterns learned during the search order the plays
    "killer": {"killer": 0},  # the play that won the last node at the same depth first
}


def options_without(names: Sequence[str]) -> SearchOptions:
    """The default search options with the named techniques turned off."""
    kw: dict[str, Any] = {}
    for n in names:
        kw.update(ABLATIONS[n])
    return replace(SearchOptions(), **kw)

SIDES = (BLACK, WHITE)
MIN_SECONDS = 1e-4  # the peer file's resolution (0.1 ms): times are floored to it in ratios
PEER_SOLVED_CLASSES = ("win_even_if_opponent_km", "win_no_ko_threats", "win_only_as_km",
                       "loss_even_as_km")


def side_name(color: int) -> str:
    return "B" if color == BLACK else "W"


# --- collecting problems ------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    """One problem file to solve: its path and its name relative to the collection root."""

    path: str
    rel: str


def collect(dirs: Sequence[str]) -> list[Task]:
    """Every *.sgf under each directory (recursively, sorted by relative path); a file
    argument is taken as is (relative name = its file name)."""
    tasks: list[Task] = []
    for d in dirs:
        root = Path(d)
        if root.is_file():
            tasks.append(Task(str(root), root.name))
            continue
        found = sorted((p.relative_to(root).as_posix(), p) for p in root.rglob("*.sgf")
                       if p.is_file())
        tasks.extend(Task(str(p), rel) for rel, p in found)
    return tasks


# --- solving --------------------------------------------------------------------------------------

@dataclass
class Row:
    """The outcome of one problem and side (or a file that failed: ``side == "-"``)."""

    problem: str
    side: str
    status: str = ""
    winner: str | None = None
    best: str | None = None
    best_moves: list[str] | None = None
    moves: list[str] | None = None
    by_threats: dict[str, str] | None = None
    stated: list[str] = field(default_factory=list)
    stated_ok: str = "-"  # yes | no | - | ?
    nodes: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # process CPU seconds of the solve (shows how shared the machine was)
    rss_mib: float = 0.0  # a worker's peak resident size when the row was done (else 0)
    limit: str | None = None
    error: str | None = None

    @property
    def solved(self) -> bool:
        return self.error is None and self.status not in ("", "unknown", "error")

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Spec:
    """How every problem-side is solved: the limits, the search options, and whether every
    first move is proved (``all_moves``) or one (``--quick``)."""

    time_limit: float | None = None
    options: SearchOptions = SearchOptions()
    max_nodes: int | None = None
    all_moves: bool = True


def solve_file(task: Task, spec: Spec = Spec(), sides: Sequence[int] = SIDES) -> list[Row]:
    """Solve ``task`` for ``sides`` (both, by default): :func:`solve_sides` as a list."""
    return list(solve_sides(task, spec, sides))


def solve_sides(task: Task, spec: Spec = Spec(), sides: Sequence[int] = SIDES
                ) -> Iterator[Row]:
    """The row of ``task`` for each of ``sides``, each as soon as it is solved. A file that
    cannot be read gives one error row; a solver crash gives an error row for that side (the
    run goes on either way)."""
    all_moves = spec.all_moves
    try:
        pf = read_problem(task.path)
    except (SgfError, ProblemError) as e:
        yield Row(task.rel, "-", status="error", error=str(e))
        return
    problem = pf.problem
    size = problem.size
    checked = pf.pl_given and bool(pf.stated_moves)
    for color in sides:
        row = Row(task.rel, side_name(color))
        if checked and color == problem.to_play:
            row.stated = [to_sgf(m, size) for m in pf.stated_moves]
        t0 = time.monotonic()
        c0 = time.process_time()
        try:
            sol = solve(problem, to_play=color, time_limit=spec.time_limit,
                        max_nodes=spec.max_nodes, options=spec.options, all_moves=all_moves)
        except Exception as e:  # a solver bug must not stop the benchmark
            row.status = "error"
            row.error = f"{task.rel}: solver failed ({type(e).__name__}: {e})"
            row.seconds = time.monotonic() - t0
            row.cpu = time.process_time() - c0
            yield row
            continue
        row.status = sol.status
        row.nodes = sol.nodes
        row.seconds = sol.seconds
        row.cpu = time.process_time() - c0
        if multiprocessing.parent_process() is not None:  # a worker's own peak
            row.rss_mib = peak_rss_mib()[0]
        row.limit = sol.limit
        row.winner = None if sol.winner is None or sol.limit else side_name(sol.winner)
        row.best = None if sol.best is None else to_sgf(sol.best, size)
        if sol.best_moves is not None:
            row.best_moves = [to_sgf(m, size) for m in sol.best_moves]
        if sol.moves is not None:
            row.moves = [to_sgf(m, size) for m in sol.moves]
        if sol.by_threats is not None:
            row.by_threats = {str(k): side_name(w) for k, w in sorted(sol.by_threats.items())}
        if row.stated:
            if not all_moves and sol.limit is None:
                # like the peer's first_ok: the move we give is one of the file's
                row.stated_ok = "yes" if sol.best in pf.stated_moves else "no"
            elif sol.best_moves is None:
                row.stated_ok = "?"
            else:
                row.stated_ok = "yes" if all(m in sol.best_moves for m in pf.stated_moves) \
                    else "no"
        yield row


def _warm_worker(run_pid: int) -> None:
    """Before a fresh worker's file: read the eye-space table (4 ms, once per process), so
    that, as in a long-lived process, the first solve that consults it is not charged the
    read (on the fastest sides of the collection it would triple the time). The worker
    ends if the run's process is killed."""
    exit_with(run_pid)
    database()


def run_all(units: Sequence[tuple[Task, Sequence[int]]], spec: Spec, jobs: int
            ) -> Iterator[Row]:
    """The rows of each (file, sides to solve) of ``units``, in order: in this process each
    as soon as it is solved; with ``jobs`` over 1 a file's as soon as the file is done (and
    the files before it)."""
    if jobs <= 1:
        for t, sides in units:
            yield from solve_sides(t, spec, sides)
        return
    # a fresh worker per file (forked from a server that has imported the solver); the
    # worker start is not in any timing, which starts inside solve_file
    ctx = worker_context(("tsumego.search.solver", "tsumego.io.sgf"))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, max_tasks_per_child=1,
                             initializer=_warm_worker, initargs=(os.getpid(),)) as pool:
        for rows in pool.map(solve_file, [t for t, _ in units], [spec] * len(units),
                             [sides for _, sides in units], chunksize=1):
            yield from rows


# --- the rows as JSON lines ---------------------------------------------------------------------

def row_record(r: Row, path: str) -> Record:
    """A row as a line of ``--json`` and ``--out``: its fields, the file's ``path``, and
    ``kind`` ``result`` or ``error``."""
    return {"kind": "error" if r.error else "result", **asdict(r), "path": path,
            "nodes_per_s": round(r.nps), "seconds": round(r.seconds, 4)}


def row_from_record(d: Record) -> Row:
    """The row of a line of ``--out`` (raises KeyError or TypeError for a line that is not
    one)."""
    return Row(**{f.name: d[f.name] for f in fields(Row) if f.name in d})


def run_options(spec: Spec, ablate: Sequence[str]) -> Record:
    """What the rows of a run depend on, as the first line of ``--out`` says it."""
    o = spec.options
    return {"time_limit": spec.time_limit, "max_nodes": spec.max_nodes,
            "all_moves": spec.all_moves, "ablate": sorted(set(ablate)),
            "simulation": o.simulation, "simulation_from": o.simulation_from}


def finished(records: Sequence[Record], options: Record, out: str
             ) -> dict[str, dict[str, Row]]:
    """The rows an earlier run finished, by the file's path and the side (``-`` for a file
    that failed to load). Raises ``ValueError`` (one line, naming ``out``) when the earlier
    run had other options or a line is not a row."""
    if not records or records[0].get("kind") != "run":
        raise ValueError(f"{out}: not a file written by bench.py --out (no run line first)")
    before = records[0].get("options")
    if before != options:
        was = before if isinstance(before, dict) else {}
        diff = ", ".join(f"{k} {was.get(k)!r}, now {v!r}" for k, v in options.items()
                         if was.get(k) != v)
        raise ValueError(f"{out}: the earlier run had other options ({diff}): resume it with "
                         f"those, or write to a new file")
    done: dict[str, dict[str, Row]] = {}
    for i, d in enumerate(records[1:], start=2):
        try:
            row = row_from_record(d)
            done.setdefault(str(d["path"]), {})[row.side] = row
        except (KeyError, TypeError) as e:
            raise ValueError(f"{out}: line {i} is not a row ({type(e).__name__}: {e})") \
                from None
    return done


def missing_sides(done: dict[str, Row]) -> list[int]:
    """The sides still to solve for a file of which ``done`` (by side) holds the rows."""
    if "-" in done:
        return []
    return [c for c in SIDES if side_name(c) not in done]


# --- raw board speed ------------------------------------------------------------------------------

def random_game(size: int, rng: random.Random, fill: float = 0.85,
                tries: int = 8) -> list[tuple[int, int]]:
    """Random legal plays (no suicide; ko is not checked) from an empty board until the board is
    ``fill`` full, no legal point is found in ``tries`` random picks, or 3*N*N plays."""
    board = Board(size)
    n = size * size
    empties = list(range(n))
    color: int = BLACK
    moves: list[tuple[int, int]] = []
    stop_at = int(n * (1 - fill))
    while len(empties) > stop_at and len(moves) < 3 * n:
        for _ in range(tries):
            i = rng.randrange(len(empties))
            p = empties[i]
            cap = board.play_fast(p, color)
            if cap >= 0:
                empties[i] = empties[-1]
                empties.pop()
                if cap:
                    empties.extend(bits(cap))
                moves.append((p, color))
                break
        else:
            break
        color = 3 - color
    return moves


@dataclass
class BoardSpeed:
    size: int
    plays: int  # plays replayed in the timed phase
    seconds: float
    plays_per_s: float  # best batch, replaying recorded legal games: play_fast alone
    mean_plays_per_s: float  # all batches together
    random_plays_per_s: float  # generating the games: random pick + play_fast + bookkeeping
    games: int


def board_speed(size: int, seconds: float = 1.0, seed: int = 1,
                sample_plays: int = 30_000, batch_plays: int = 3_000) -> BoardSpeed:
    """Plays per second of ``Board.play_fast`` on random games of ``size``. Games totalling
    ``sample_plays`` plays are generated (timed: the random-playout rate), then replayed on
    fresh boards in batches of about ``batch_plays`` plays for about ``seconds``; the best
    batch is the raw rate (the least disturbed by other work on a shared machine)."""
    rng = random.Random(seed)
    games: list[list[tuple[int, int]]] = []
    gen_plays = 0
    t0 = time.perf_counter()
    while gen_plays < sample_plays:
        g = random_game(size, rng)
        games.append(g)
        gen_plays += len(g)
    gen_s = time.perf_counter() - t0
    batches: list[list[list[tuple[int, int]]]] = [[]]
    n = 0
    for g in games:
        if n >= batch_plays:
            batches.append([])
            n = 0
        batches[-1].append(g)
        n += len(g)
    if len(batches) > 1 and n < batch_plays:
        batches[-2].extend(batches.pop())  # no short batch: every batch times ~batch_plays
    plays = 0
    total = 0.0
    best = 0.0
    replayed = 0
    while total < seconds or not plays:
        for batch in batches:
            bp = 0
            t0 = time.perf_counter()
            for g in batch:
                play = Board(size).play_fast
                for p, c in g:
                    play(p, c)
                bp += len(g)
            el = time.perf_counter() - t0
            total += el
            plays += bp
            replayed += len(batch)
            if el > 0:
                best = max(best, bp / el)
            if total >= seconds:
                break
    return BoardSpeed(size, plays, total, best, plays / total if total else 0.0,
                      gen_plays / gen_s if gen_s else 0.0, replayed)


# --- peer comparison ------------------------------------------------------------------------------

@dataclass
class PeerRow:
    problem: str
    to_play: str
    result: str
    ms: float | None
    status: str

    @property
    def kind(self) -> str:
        """solved | timeout | error | not_run"""
        r = self.result.strip()
        if r == "TIMEOUT":
            return "timeout"
        if r.startswith("ERROR"):
            return "error"
        if r in ("", "NOT_RUN"):
            return "not_run"
        return "solved"

    @property
    def seconds(self) -> float | None:
        return None if self.ms is None else self.ms / 1000.0


def read_peer(path: str) -> dict[tuple[str, str], PeerRow]:
    """peer-times.csv: problem,to_play,result,ms,status,expected_first,first_ok."""
    out: dict[tuple[str, str], PeerRow] = {}
    with open(path, newline="", encoding="utf-8") as f:
        for rec in csv.DictReader(f):
            ms_text = (rec.get("ms") or "").strip()
            try:
                ms = float(ms_text) if ms_text else None
            except ValueError:
                ms = None
            pr = PeerRow(rec["problem"].strip(), rec["to_play"].strip().upper(),
                         (rec.get("result") or "").strip(), ms, (rec.get("status") or "").strip())
            out[(pr.problem, pr.to_play)] = pr
    return out


def our_class(row: Row) -> str | None:
    """Our result in tsumego.js's terms, approximating 'ko master' by K threats."""
    if not row.solved or row.by_threats is None:
        return None
    me = row.side
    sign = 1 if me == "B" else -1
    opp_best = row.by_threats.get(str(-sign * K))  # the opponent has K more threats
    even = row.by_threats.get("0")
    mine_best = row.by_threats.get(str(sign * K))
    if opp_best == me:
        return "win_even_if_opponent_km"
    if even == me:
        return "win_no_ko_threats"
    if mine_best == me:
        return "win_only_as_km"
    return "loss_even_as_km"


@dataclass
class CompareRow:
    problem: str
    side: str
    ours_s: float | None
    ours: str  # status, "unknown" or "error"
    peer_s: float | None
    peer: str  # result text (move, loss, TIMEOUT, ERROR..., missing)
    ours_solved: bool
    peer_solved: bool  # at all (within the peer's own limit)
    peer_in_limit: bool  # within our --time-limit
    ratio: float | None
    our_class: str | None
    peer_class: str | None
    excluded: bool  # both errored


def compare_rows(rows: Iterable[Row], peer: dict[tuple[str, str], PeerRow],
                 time_limit: float | None) -> list[CompareRow]:
    out: list[CompareRow] = []
    for r in rows:
        sides = ["B", "W"] if r.side == "-" else [r.side]
        for s in sides:
            pr = peer.get((r.problem, s))
            ours_solved = r.solved
            ours = "error" if r.error else r.status
            ours_s = None if r.error and r.side == "-" else r.seconds
            if pr is None:
                out.append(CompareRow(r.problem, s, ours_s, ours, None, "missing", ours_solved,
                                      False, False, None, our_class(r), None, False))
                continue
            peer_solved = pr.kind == "solved" and pr.seconds is not None
            in_limit = peer_solved and (time_limit is None or (pr.seconds or 0.0) <= time_limit)
            ratio = None
            if ours_solved and peer_solved and pr.seconds is not None:
                ratio = max(r.seconds, MIN_SECONDS) / max(pr.seconds, MIN_SECONDS)
            out.append(CompareRow(
                r.problem, s, ours_s, ours, pr.seconds, pr.result, ours_solved, peer_solved,
                in_limit, ratio, our_class(r),
                pr.status if pr.status in PEER_SOLVED_CLASSES else None,
                excluded=bool(r.error) and pr.kind == "error"))
    return out


# tsumego.js's time bands of the breakdown: (label, lower bound, upper bound), seconds
PEER_BANDS = (("under 10 ms", 0.0, 0.01), ("10-100 ms", 0.01, 0.1), ("0.1-1 s", 0.1, 1.0),
              ("1-10 s", 1.0, 10.0), ("over 10 s", 10.0, math.inf))


def _band(label: str, both: Sequence[CompareRow]) -> dict[str, Any]:
    ratios = [c.ratio for c in both if c.ratio is not None]
    return {"band": label, "sides": len(ratios),
            "geomean_ratio": math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            if ratios else None,
            "we_faster": sum(1 for x in ratios if x < 1)}


def ratio_breakdown(crows: Sequence[CompareRow]) -> dict[str, list[dict[str, Any]]]:
    """The ratio over the sides both solved, by tsumego.js's time and by our status: where
    we win and where we lose."""
    both = [c for c in crows if c.ratio is not None and not c.excluded]
    by_time = [_band(label, [c for c in both if lo <= (c.peer_s or 0.0) < hi])
               for label, lo, hi in PEER_BANDS]
    statuses = sorted({c.ours for c in both})
    by_status = [_band(st, [c for c in both if c.ours == st]) for st in statuses]
    return {"by_peer_time": [b for b in by_time if b["sides"]], "by_status": by_status}


def compare_totals(crows: Sequence[CompareRow], time_limit: float | None) -> dict[str, Any]:
    rows = [c for c in crows if not c.excluded and c.peer != "missing"]
    ratios = [c.ratio for c in rows if c.ratio is not None]
    both = [c for c in rows if c.ratio is not None]
    faster = [c for c in rows if c.ours_solved and (
        not c.peer_solved or (c.ratio is not None and c.ratio < 1))]
    slower = [c for c in rows if c.peer_solved and (
        not c.ours_solved or (c.ratio is not None and c.ratio > 1))]
    class_diff = [c for c in rows if c.our_class and c.peer_class and
                  c.our_class != c.peer_class]
    return {
        "kind": "compare_totals",
        "time_limit": time_limit,
        "compared": len(rows),
        "excluded_both_error": sum(1 for c in crows if c.excluded),
        "missing_in_peer": sum(1 for c in crows if c.peer == "missing"),
        "ours_solved": sum(1 for c in rows if c.ours_solved),
        "peer_solved_in_limit": sum(1 for c in rows if c.peer_in_limit),
        "peer_solved_any": sum(1 for c in rows if c.peer_solved),
        "peer_timeout": sum(1 for c in rows if c.peer == "TIMEOUT"),
        "peer_error": sum(1 for c in rows if c.peer.startswith("ERROR")),
        "both_solved": len(both),
        "only_ours": sum(1 for c in rows if c.ours_solved and not c.peer_solved),
        "only_peer": sum(1 for c in rows if c.peer_solved and not c.ours_solved),
        "we_faster": len(faster),
        "peer_faster": len(slower),
        "geomean_ratio": math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        if ratios else None,
        "median_ratio": statistics.median(ratios) if ratios else None,
        "ours_total_s": sum(c.ours_s or 0.0 for c in rows),
        "peer_total_s": sum(c.peer_s or 0.0 for c in rows),
        "ours_both_solved_s": sum(c.ours_s or 0.0 for c in both),
        "peer_both_solved_s": sum(c.peer_s or 0.0 for c in both),
        "class_differs": [f"{c.problem} {c.side}: ours {c.our_class}, peer {c.peer_class}"
                          for c in class_diff],
        **ratio_breakdown(rows),
    }


# --- totals ---------------------------------------------------------------------------------------

def peak_rss_mib() -> tuple[float, float]:
    """(this process, largest finished child) peak resident set size in MiB (Linux: KiB)."""
    scale = 1024.0 if sys.platform != "darwin" else 1024.0 * 1024.0
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / scale
    return me, kids


def totals(rows: Sequence[Row], wall: float) -> dict[str, Any]:
    runs = [r for r in rows if r.side != "-" and not r.error]
    solved = [r for r in runs if r.solved]
    unknown = [r for r in runs if not r.solved]
    errors = [r for r in rows if r.error]
    secs = [r.seconds for r in runs]
    nodes = sum(r.nodes for r in runs)
    total_s = sum(secs)
    mism = [r for r in runs if r.stated_ok == "no"]
    me, kids = peak_rss_mib()
    # a worker is a child of the fork server, not of this process: its rows carry its peak
    kids = max([kids, *(r.rss_mib for r in rows)])
    return {
        "kind": "totals",
        "files": len({r.problem for r in rows}),
        "runs": len(runs),
        "solved": len(solved),
        "unknown": len(unknown),
        "unknown_by_limit": {k: sum(1 for r in unknown if r.limit == k)
                             for k in sorted({r.limit or "?" for r in unknown})},
        "errors": len(errors),
        "load_errors": sum(1 for r in errors if r.side == "-"),
        "total_s": total_s,
        "total_cpu_s": sum(r.cpu for r in runs),
        "median_s": statistics.median(secs) if secs else 0.0,
        "wall_s": wall,
        "nodes": nodes,
        "nodes_per_s": nodes / total_s if total_s else 0.0,
        "peak_rss_mib": max(me, kids),
        "peak_rss_self_mib": me,
        "peak_rss_children_mib": kids,
        "stated_checked": sum(1 for r in runs if r.stated_ok != "-"),
        "stated_yes": sum(1 for r in runs if r.stated_ok == "yes"),
        "stated_undecided": sum(1 for r in runs if r.stated_ok == "?"),
        "stated_mismatches": [mismatch_text(r) for r in mism],
        "error_list": [r.error for r in errors],
    }


def mismatch_text(r: Row) -> str:
    if r.best_moves is None:  # --quick: one move, not the full list
        return (f"{r.problem} {r.side} ({r.status}): stated {' '.join(r.stated)}; our move "
                f"{r.best or 'none'} is not among them (--quick proves one move only)")
    missing = [m for m in r.stated if m not in (r.best_moves or [])]
    at0 = [m for m in missing if m in (r.moves or [])]
    note = f"; {' '.join(at0)} wins at balance 0" if at0 else ""
    best = " ".join(r.best_moves or []) or "none"
    return (f"{r.problem} {r.side} ({r.status}): stated {' '.join(r.stated)}, "
            f"not in best_moves: {' '.join(missing)}; best_moves: {best}{note}")


# --- output ---------------------------------------------------------------------------------------

def _out(line: str = "") -> None:
    print(line, flush=True)


def _fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def row_line(r: Row, width: int) -> str:
    if r.error:
        return f"{r.problem:<{width}} {r.side:<4} ERROR  {r.error}"
    status = r.status + (f"({r.limit})" if r.limit else "")
    return (f"{r.problem:<{width}} {r.side:<4} {status:<13} {r.winner or '-':<6} "
            f"{r.best or '-':<5} {r.stated_ok:<6} {r.nodes:>10} {r.seconds:>8.3f} "
            f"{r.nps:>8.0f} {r.cpu:>8.3f}")


def header(width: int) -> str:
    return (f"{'problem':<{width}} {'side':<4} {'status':<13} {'winner':<6} {'best':<5} "
            f"{'stated':<6} {'nodes':>10} {'seconds':>8} {'nodes/s':>8} {'cpu_s':>8}")


def print_totals(t: dict[str, Any]) -> None:
    _out("== totals")
    lim = ", ".join(f"{k} {v}" for k, v in t["unknown_by_limit"].items())
    _out(f"files: {t['files']}; problem-sides run: {t['runs']}; solved {t['solved']}, "
         f"unknown {t['unknown']}{f' ({lim})' if lim else ''}; errors {t['errors']} "
         f"({t['load_errors']} files failed to load)")
    share = t["total_cpu_s"] / t["total_s"] if t["total_s"] else 0.0
    _out(f"seconds: total {t['total_s']:.3f}, median {t['median_s']:.3f} (wall {t['wall_s']:.1f}); "
         f"CPU {t['total_cpu_s']:.3f} s = {share:.0%} of the solve time")
    _out(f"nodes: total {t['nodes']}, {t['nodes_per_s']:.0f} nodes/s")
    _out(f"peak RSS: {t['peak_rss_mib']:.1f} MiB (this process {t['peak_rss_self_mib']:.1f}, "
         f"workers {t['peak_rss_children_mib']:.1f})")
    _out(f"stated first moves checked: {t['stated_checked']}, agreeing {t['stated_yes']} "
         f"(without --quick: all among best_moves; with it: our move among them), "
         f"undecided (unknown) {t['stated_undecided']}")
    _out(f"stated-move mismatches: {len(t['stated_mismatches'])}")
    for m in t["stated_mismatches"]:
        _out(f"  {m}")
    if t["error_list"]:
        _out(f"errors: {len(t['error_list'])}")
        for e in t["error_list"]:
            _out(f"  {e}")


def slowest(crows: Sequence[CompareRow], n: int = 10) -> list[CompareRow]:
    """The ``n`` problem-sides we solved that took us longest."""
    solved = [c for c in crows if c.ours_solved and not c.excluded]
    return sorted(solved, key=lambda c: -(c.ours_s or 0.0))[:n]


def print_compare(crows: Sequence[CompareRow], ct: dict[str, Any], width: int) -> None:
    _out("== compare with tsumego.js (ratio = ours / peer seconds)")
    _out(f"{'problem':<{width}} {'side':<4} {'ours_s':>8} {'ours':<8} {'peer_s':>8} "
         f"{'peer':<12} {'ratio':>7}  note")
    for c in crows:
        ratio = "-" if c.ratio is None else f"{c.ratio:.2f}"
        notes = []
        if c.excluded:
            notes.append("both error: excluded")
        if c.our_class and c.peer_class and c.our_class != c.peer_class:
            notes.append(f"class: ours {c.our_class}, peer {c.peer_class}")
        peer = c.peer if len(c.peer) <= 12 else c.peer[:11] + "…"
        _out(f"{c.problem:<{width}} {c.side:<4} {_fmt_s(c.ours_s):>8} {c.ours:<8} "
             f"{_fmt_s(c.peer_s):>8} {peer:<12} {ratio:>7}  {'; '.join(notes)}")
    lim = ct["time_limit"]
    lim_text = f"{lim:g} s" if lim is not None else "no limit"
    _out("== compare totals")
    _out(f"compared problem-sides: {ct['compared']} (excluded, both error: "
         f"{ct['excluded_both_error']}; not in the peer file: {ct['missing_in_peer']})")
    _out(f"solved within {lim_text}: ours {ct['ours_solved']}, tsumego.js "
         f"{ct['peer_solved_in_limit']} (tsumego.js within its own limit: "
         f"{ct['peer_solved_any']}; TIMEOUT {ct['peer_timeout']}, ERROR {ct['peer_error']})")
    _out(f"both solved: {ct['both_solved']}; only ours: {ct['only_ours']}; only tsumego.js: "
         f"{ct['only_peer']}")
    _out(f"we are faster: {ct['we_faster']}; tsumego.js faster: {ct['peer_faster']} "
         f"(an unsolved side counts as slower)")
    gm = ct["geomean_ratio"]
    md = ct["median_ratio"]
    _out(f"ratio ours/peer over both solved: geometric mean "
         f"{'-' if gm is None else f'{gm:.3f}'}, median {'-' if md is None else f'{md:.3f}'}")
    _out(f"total seconds: ours {ct['ours_total_s']:.2f}, tsumego.js {ct['peer_total_s']:.2f} "
         f"(timeouts count their time); over both solved: ours {ct['ours_both_solved_s']:.2f}, "
         f"tsumego.js {ct['peer_both_solved_s']:.2f}")
    for key, title in (("by_peer_time", "by tsumego.js's time"), ("by_status", "by our status")):
        parts = [f"{b['band']}: {b['sides']} sides, {b['geomean_ratio']:.2f}, faster on "
                 f"{b['we_faster']}" for b in ct[key]]
        _out(f"ratio over both solved {title} (sides, geometric mean, we are faster on): "
             + "; ".join(parts))
    slow = slowest(crows)
    if slow:
        _out(f"our {len(slow)} slowest solved problem-sides:")
        for c in slow:
            ratio = "-" if c.ratio is None else f"{c.ratio:.2f}"
            _out(f"  {c.problem} {c.side}: ours {_fmt_s(c.ours_s)} ({c.ours}), tsumego.js "
                 f"{_fmt_s(c.peer_s)} ({c.peer}), ratio {ratio}")
    _out(f"ko class differs (ko master approximated by {K} threats): "
         f"{len(ct['class_differs'])}")
    for d in ct["class_differs"]:
        _out(f"  {d}")


# --- main -----------------------------------------------------------------------------------------

def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="bench.py", description=__doc__.split("\n\n")[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", metavar="DIR", help="collections (or single files)")
    ap.add_argument("--scale", action="store_true",
                    help="instead of collections, the scale series: enclosed corners of 6 to "
                         "48 empty points, both sides, solved in full within --time-limit")
    ap.add_argument("--time-limit", type=float, default=10.0,
                    help="seconds per problem and side (default 10; 0 = none)")
    ap.add_argument("--json", action="store_true", help="JSON lines instead of text")
    ap.add_argument("--compare", metavar="PEER_CSV", help="tsumego.js peer-times.csv")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--max-nodes", type=int, default=None,
                    help="node budget per problem and side (reproducible on a loaded machine)")
    ap.add_argument("--ablate", action="append", default=[], choices=sorted(ABLATIONS),
                    metavar="NAME", help="turn one search technique off (repeatable): "
                                         + ", ".join(sorted(ABLATIONS)))
    ap.add_argument("--engine", choices=("compiled", "reference"), default="compiled",
                    help="the compiled core (default) or the reference engine in Python")
    ap.add_argument("--quick", action="store_true",
                    help="ask tsumego.js's question: the answer and one correct first move, "
                         "not every first move proved or refuted")
    ap.add_argument("--simulation", type=int, default=None, metavar="N",
                    help="nodes per try of Kawano's simulation (default "
                         f"{SearchOptions().simulation}; 0 turns it off)")
    ap.add_argument("--simulation-from", type=int, default=None, metavar="N",
                    help="engine nodes after which simulation is tried (default "
                         f"{SearchOptions().simulation_from}; 0: from the first node)")
    ap.add_argument("--out", metavar="FILE",
                    help="also write the rows to this JSON lines file, each file's as it is done")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run of an existing --out FILE: its finished files are "
                         "not solved again")
    ap.add_argument("--no-board", action="store_true", help="skip the board-speed measurement")
    ap.add_argument("--board-seconds", type=float, default=1.0,
                    help="replay seconds per board size for the board-speed measurement "
                         "(default 1)")
    args = ap.parse_args(argv)
    if args.time_limit < 0:
        ap.error("--time-limit must be >= 0")
    if args.simulation is not None and args.simulation < 0:
        ap.error("--simulation must be >= 0")
    if args.simulation_from is not None and args.simulation_from < 0:
        ap.error("--simulation-from must be >= 0")
    if args.jobs < 1:
        ap.error("--jobs must be >= 1")
    if args.max_nodes is not None and args.max_nodes < 1:
        ap.error("--max-nodes must be >= 1")
    if not args.dirs and not args.scale:
        ap.error("give collections (DIR...) or --scale")
    for d in args.dirs:
        if not Path(d).exists():
            ap.error(f"no such directory: {d}")
    if args.resume and not args.out:
        ap.error("--resume needs --out FILE: the rows of the run to continue")
    if args.out and Path(args.out).exists() and not args.resume:
        ap.error(f"{args.out} exists: pass --resume to continue that run, or remove it")
    return args


def run_scale(time_limit: float, as_json: bool) -> int:
    """The scale series (tools/scale.py): a row per size and side, then the largest sizes
    solved within 10 s and within the time limit, and how the time grows with the size."""
    from scale import growth, largest_within, series

    rows = []
    if not as_json:
        _out(f"scale series: enclosed corners, both sides in full, {time_limit:g} s each")
        _out(f"{'kind':<8} {'points':>6} {'side':<4} {'status':<8} {'seconds':>9} {'nodes':>12}")
    for r in series(time_limit):
        rows.append(r)
        if as_json:
            _out(json.dumps({"kind": "scale", **asdict(r)}))
        else:
            _out(f"{r.kind:<8} {r.n:>6} {r.side:<4} {r.status:<8} {r.seconds:>9.3f} "
                 f"{r.nodes:>12,}")
    summary = {"within_10s": largest_within(rows, 10.0),
               f"within_{time_limit:g}s": largest_within(rows, time_limit),
               "growth_per_point": {k: round(v, 3) for k, v in growth(rows).items()}}
    if as_json:
        _out(json.dumps({"kind": "scale-totals", **summary}))
    else:
        for k, v in summary.items():
            _out(f"{k}: {v}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.scale:
        return run_scale(args.time_limit or 60.0, args.json)
    time_limit = args.time_limit or None
    as_json = args.json
    peer = read_peer(args.compare) if args.compare else None
    options = replace(options_without(args.ablate), engine=args.engine)
    if args.simulation is not None:
        options = replace(options, simulation=args.simulation)
    if args.simulation_from is not None:
        options = replace(options, simulation_from=args.simulation_from)
    spec = Spec(time_limit, options, args.max_nodes, not args.quick)
    tasks = collect(args.dirs)
    head: Record = {"kind": "run", "options": run_options(spec, args.ablate)}
    if args.engine == "compiled":  # (the speed depends on the build; resuming does not)
        head["core"] = core_build()
    done: dict[str, dict[str, Row]] = {}
    journal = None
    if args.out:
        try:
            if args.resume and Path(args.out).exists():
                done = finished(read_json_lines(args.out), head["options"], args.out)
            # the file starts with what the earlier run finished, in the order of the files
            journal = Journal(args.out, [head] + [row_record(r, t.path) for t in tasks
                                                  for r in done.get(t.path, {}).values()])
        except (ValueError, OSError) as e:  # (JournalError is a ValueError)
            msg = str(e) if isinstance(e, ValueError) else f"{args.out}: {e.strerror or e}"
            print(f"bench.py: error: {msg}", file=sys.stderr)
            return 2

    if not args.no_board:
        for size in (9, 19):
            bs = board_speed(size, args.board_seconds)
            if as_json:
                _out(json.dumps({"kind": "board", **asdict(bs)}))
            else:
                _out(f"board {size}x{size}: {bs.plays_per_s:,.0f} plays/s (play_fast replaying "
                     f"random games: best batch; mean {bs.mean_plays_per_s:,.0f} over "
                     f"{bs.plays} plays in {bs.seconds:.2f} s); random playout "
                     f"{bs.random_plays_per_s:,.0f} plays/s")

    width = max([24] + [len(t.rel) for t in tasks])
    if not as_json:
        _out(f"{len(tasks)} files, time limit "
             f"{'none' if time_limit is None else f'{time_limit:g} s'} per side, "
             f"jobs {args.jobs}"
             + (f", node budget {args.max_nodes}" if args.max_nodes else "")
             + (f", ablated: {', '.join(args.ablate)}" if args.ablate else "")
             + (f", the {head['core']} compiled core" if "core" in head
                else ", the reference engine")
             + (f", simulation {args.simulation} nodes" if args.simulation is not None else "")
             + (f", simulation from {args.simulation_from} nodes"
                if args.simulation_from is not None else "")
             + (", quick (one correct first move)" if args.quick else
                ", every first move proved or refuted")
             + (f", {sum(len(d) for d in done.values())} rows done by the earlier run in "
                f"{args.out}" if done else ""))
        _out(header(width))
    rows: list[Row] = []
    t0 = time.monotonic()
    todo = [(t, missing_sides(done.get(t.path, {}))) for t in tasks]
    fresh = run_all([(t, sides) for t, sides in todo if sides], spec, args.jobs)
    for task, sides in todo:
        earlier = done.get(task.path, {})
        file_rows = [earlier[k] for k in ("-", *map(side_name, SIDES)) if k in earlier]
        for _ in sides:
            r = next(fresh)  # (rows come in the order of the files and the sides)
            file_rows.append(r)
            if journal is not None:
                journal.append(row_record(r, task.path))
            if r.side == "-":  # the file did not load: no row for the other side
                break
        file_rows.sort(key=lambda r: "-BW".index(r.side))
        for r in file_rows:
            rows.append(r)
            _out(json.dumps(row_record(r, task.path)) if as_json else row_line(r, width))
    if journal is not None:
        journal.close()
    t = totals(rows, time.monotonic() - t0)
    if as_json:
        _out(json.dumps(t))
    else:
        print_totals(t)

    if peer is not None:
        crows = compare_rows(rows, peer, time_limit)
        ct = compare_totals(crows, time_limit)
        if as_json:
            for c in crows:
                _out(json.dumps({"kind": "compare", **asdict(c)}))
            _out(json.dumps(ct))
        else:
            print_compare(crows, ct, width)
    return 0


if __name__ == "__main__":
    sys.exit(main())
