#!/usr/bin/env python3
"""Solution-tree sizes and checker results on collections of marked problems (SGF).

    python tools/tree_stats.py DIR... [--time-limit S] [--tree-time-limit S]
                               [--max-tree-nodes N] [--keep DIR]

Every ``*.sgf`` under each DIR (recursively, sorted; a plain file argument counts as a
collection of one) is solved for the side in its ``PL`` (library ``tsumego.solve``, balance 0,
``--time-limit`` seconds, default 60). For each problem solved, the ``readable`` and the
``full`` solution trees are built with :func:`tsumego.proofs.tree.build_tree` at the balance the
command line uses (0, unless the side to play loses there and wins at ``best_threats``: then
that balance). The full tree is exported (:func:`tsumego.proofs.export.sgf_text`) to a file, read
back as ``tsumego check`` reads it (:func:`tsumego.io.sgf.read_move_tree` for the tree,
:func:`tsumego.io.sgf.parse_problem` for the problem in its root) and checked with
:func:`tsumego.proofs.check.check_tree`, the independent checker.

One line per problem: relative path, side, status, balance of the trees, solve seconds, nodes
of the readable tree, nodes of the full tree, the check result (``proved``, ``NOT-PROVED`` with
the path and reason, or ``ERROR`` with why) and the check seconds. Then totals: median and
largest tree sizes per mode, how many full trees were proved / not proved / could not be built
or checked (errors), the total check time. A full tree that the checker rejects, or a builder
that finds no winning move for the engine's winner, is a solver bug: such cases are listed
again at the end under ``BUGS`` with what reproduces them (file, side, balance, mode).
With ``--compact``, the proofs are ``compact`` trees (each repeated position written once)
instead of ``full`` ones. With ``--estimate PROBES``, a full tree too large to build gets
Knuth's estimate of its size in its row (:func:`tsumego.proofs.tree.estimate_full_tree`, from that
many random lines).
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tsumego import BLACK, ProblemError, __version__, read_problem, solve
from tsumego.errors import BudgetExhausted
from tsumego.go.problem import Problem
from tsumego.io.sgf import read_move_tree_file, read_tree
from tsumego.proofs.check import CheckError, check_tree, tree_problem
from tsumego.proofs.export import sgf_text
from tsumego.proofs.tree import (
    TREE_BUDGETS,
    SolutionTree,
    TreeMode,
    build_tree,
    estimate_full_tree,
)

NO_WINNING_MOVE = "the engine's winner has no winning move"


def side_name(color: int) -> str:
    return "B" if color == BLACK else "W"


def collect(paths: Sequence[str]) -> Iterator[tuple[Path, str]]:
    """(file, name relative to its collection) for every SGF file under ``paths``."""
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            for f in sorted(p.rglob("*.sgf")):
                yield f, str(f.relative_to(p.parent))
        else:  # named with its folder, as a folder's files are: cc3/7.sgf and sim/7.sgf differ
            yield p, f"{p.parent.name}/{p.name}" if p.parent.name else p.name


@dataclass
class Row:
    name: str
    side: str = "-"
    status: str = "-"
    balance: int | None = None
    solve_s: float = 0.0
    readable: int | None = None
    full: int | None = None
    check: str = "-"  # proved | NOT-PROVED | ERROR | unsolved
    detail: str = ""
    check_s: float | None = None
    bug: str = ""  # reproduction of a solver bug, if any


def tree_balance(sol: object) -> int:
    """The balance the command line builds the tree at (see cli._write_tree)."""
    balance = sol.threats  # type: ignore[attr-defined]
    if sol.winner != sol.to_play and sol.best_threats is not None:  # type: ignore[attr-defined]
        balance = sol.best_threats  # type: ignore[attr-defined]
    return int(balance)


def for_each_solved(files: Sequence[str], time_limit: float,
                    one: Callable[[str, Problem, str, int], None]) -> None:
    """For each file, solve the side in its ``PL`` within ``time_limit`` and call
    ``one(file, problem, side, balance)`` with the balance the command line builds trees
    at; a line for a file that cannot be read, is not solved, or crashes (the run goes on)."""
    for f in files:
        try:
            try:
                problem = read_problem(Path(f)).problem
            except ProblemError as e:
                print(f"{f:30} ERROR {e}", flush=True)
                continue
            side = side_name(problem.to_play)
            sol = solve(problem, to_play=problem.to_play, threats=0, time_limit=time_limit)
            if sol.limit is not None:
                print(f"{f:30} {side:2} unsolved: {sol.limit} limit", flush=True)
                continue
            one(f, problem, side, tree_balance(sol))
        except Exception as e:  # noqa: BLE001 - one problem must not stop the run
            print(f"{f:30} ERROR crash: {type(e).__name__}: {e}", flush=True)


def estimate_note(problem: Problem, balance: int, args: argparse.Namespace) -> str:
    """Knuth's estimate of the full tree that was too large to build, for the row's detail."""
    try:
        e = estimate_full_tree(problem, to_play=problem.to_play, balance=balance,
                               probes=args.estimate, time_limit=args.tree_time_limit)
    except BudgetExhausted as err:
        return f"; no estimate: {err}"
    return (f"; estimated {e.mean:.3g} nodes without lookahead ({e.probes} probes, median "
            f"{e.median:.3g}, largest {e.largest:.3g}, longest line {e.plies})")


def run_one(path: Path, name: str, args: argparse.Namespace, outdir: Path) -> Row:
    row = Row(name)
    try:
        pf = read_problem(path)
    except ProblemError as e:
        row.check, row.detail = "ERROR", f"unreadable: {e}"
        return row
    problem = pf.problem
    row.side = side_name(problem.to_play)
    t0 = time.monotonic()
    sol = solve(problem, to_play=problem.to_play, threats=0, time_limit=args.time_limit)
    row.solve_s = time.monotonic() - t0
    row.status = sol.status
    if sol.limit is not None:
        row.check, row.detail = "unsolved", f"{sol.limit} limit"
        return row
    balance = tree_balance(sol)
    row.balance = balance
    trees: dict[str, SolutionTree] = {}
    failed: list[str] = []  # each tree that was not built, said in the row's detail

    def ended(check: str, detail: str) -> Row:
        row.check, row.detail = check, "; ".join([detail, *failed])
        return row

    proof: TreeMode = "compact" if args.compact else "full"
    modes: tuple[TreeMode, ...] = ("readable", proof)
    for mode in modes:
        try:
            trees[mode] = build_tree(problem, to_play=problem.to_play, balance=balance,
                                     mode=mode, max_nodes=args.max_tree_nodes,
                                     time_limit=args.tree_time_limit,
                                     lookahead=args.lookahead)
        except BudgetExhausted as e:
            if e.kind in TREE_BUDGETS:
                failed.append(f"{mode} tree: {e}")
                if mode == proof and args.estimate > 0:
                    failed[-1] += estimate_note(problem, balance, args)
            else:  # the search's own limit stopped the build
                failed.append(f"{mode} tree: {e.kind} limit")
        except AssertionError as e:
            if NO_WINNING_MOVE in str(e):
                row.bug = (f"{name}: side {row.side}, balance {balance:+d}, mode {mode}: "
                           f"builder: {e}")
                failed.append(f"BUG ({mode} tree): {e}")
            else:
                raise
        if mode in trees:
            setattr(row, "readable" if mode == "readable" else "full", trees[mode].nodes)
    if proof not in trees:
        row.check, row.detail = "ERROR", "; ".join(failed)
        return row
    tree = trees[proof]
    stored = tree.stored_nodes
    try:
        original = read_tree(path.read_bytes(), str(path))
    except (OSError, ProblemError):
        original = None
    out = outdir / (name.replace("/", "__"))
    t0 = time.monotonic()
    with out.open("wb") as f:  # in pieces: a full tree's text runs to hundreds of megabytes
        f.writelines(piece.encode("utf-8") for piece in sgf_text(tree, original, [sol],
                                                                  __version__,
                                                                  inferred=pf.inferred))
    del tree, trees  # the checker reads the file; the tree's nodes (gigabytes) can go
    write_s = time.monotonic() - t0
    t0 = time.monotonic()
    try:
        moves, root_game = read_move_tree_file(out)
        read_s = time.monotonic() - t0
        written = tree_problem(root_game, str(out))
        if (written.black, written.white, written.target, written.region, written.to_play) != (
                problem.black, problem.white, problem.target, problem.region, problem.to_play):
            return ended("ERROR", "the written file reads back as another problem")
        result = check_tree(written, moves)
    except (ProblemError, CheckError) as e:
        row.check_s = time.monotonic() - t0
        return ended("ERROR", f"check: {e}")
    row.check_s = time.monotonic() - t0
    if result.proved:
        detail = (f"{result.nodes} nodes checked; file {out.stat().st_size:,} bytes, written "
                  f"in {write_s:.1f} s, read in {read_s:.1f} s")
        if args.compact:
            detail += f"; compact file {stored} nodes"
        return ended("proved", detail)
    where = " ".join(result.path) or "(root)"
    kept = out
    if args.keep is None:
        kept = Path(tempfile.mkdtemp(prefix="tree-stats-rejected-")) / out.name
        kept.write_bytes(out.read_bytes())
    row.bug = (f"{name}: side {row.side}, balance {balance:+d}, mode {proof}: checker "
               f"rejects at {where}: {result.reason} (tree kept in {kept})")
    return ended("NOT-PROVED", f"at {where}: {result.reason}")


def parse_row(line: str) -> Row | None:
    """A per-problem line of an earlier run's output (see :func:`print_row`), else None."""
    f = line.rstrip("\n").split(None, 9)
    if len(f) < 9 or f[0] == "problem" or f[7] not in ("proved", "NOT-PROVED", "ERROR",
                                                      "unsolved"):
        return None

    def num(v: str) -> int | None:
        return None if v == "-" else int(v)

    try:  # the totals at the end of a finished run are not rows
        r = Row(f[0], f[1], f[2], None if f[3] == "-" else int(f[3]), float(f[4]),
                num(f[5]), num(f[6]), f[7], f[9] if len(f) > 9 else "",
                None if f[8] == "-" else float(f[8]))
    except ValueError:
        return None
    if r.check == "NOT-PROVED" or r.detail.startswith("BUG"):
        r.bug = f"{r.name}: side {r.side}, balance {r.balance}: {r.detail}"
    return r


def fmt(v: object) -> str:
    return "-" if v is None else str(v)


def print_row(r: Row) -> None:
    bal = "-" if r.balance is None else f"{r.balance:+d}"
    cs = "-" if r.check_s is None else f"{r.check_s:.3f}"
    print(f"{r.name:<30} {r.side:<2} {r.status:<8} {bal:>3} {r.solve_s:8.3f} "
          f"{fmt(r.readable):>8} {fmt(r.full):>8} {r.check:<10} {cs:>8}  {r.detail}",
          flush=True)


def summary(rows: list[Row]) -> None:
    print()
    solved = sum(r.balance is not None for r in rows)
    unsolved = sum(r.check == "unsolved" for r in rows)
    print(f"problems: {len(rows)}; solved: {solved}; unsolved within the time limit: "
          f"{unsolved}; unreadable or crashed: {len(rows) - solved - unsolved}")
    for mode in ("readable", "full"):
        sizes = [getattr(r, mode) for r in rows if getattr(r, mode) is not None]
        if sizes:
            big = max(rows, key=lambda r: getattr(r, mode) or -1)
            print(f"{mode} trees: {len(sizes)}; nodes median {statistics.median(sizes):g}, "
                  f"mean {statistics.mean(sizes):.1f}, largest {max(sizes)} ({big.name})")
        else:
            print(f"{mode} trees: 0")
    proved = sum(r.check == "proved" for r in rows)
    rejected = sum(r.check == "NOT-PROVED" for r in rows)
    errors = sum(r.check == "ERROR" and r.balance is not None for r in rows)  # solved only
    times = [r.check_s for r in rows if r.check_s is not None]
    print(f"solved problems' full trees: proved {proved}, not proved {rejected}, "
          f"errors (tree not built or not checkable) {errors}")
    if times:
        slow = max(rows, key=lambda r: r.check_s or -1.0)
        print(f"check time: total {sum(times):.2f} s, median {statistics.median(times):.3f} s, "
              f"largest {max(times):.2f} s ({slow.name})")
    bugs = [r.bug for r in rows if r.bug]
    print(f"BUGS: {len(bugs)}")
    for b in bugs:
        print(f"  {b}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("paths", nargs="+", metavar="DIR")
    ap.add_argument("--time-limit", type=float, default=60.0,
                    help="seconds to solve each problem (side in PL); default 60")
    ap.add_argument("--tree-time-limit", type=float, default=None,
                    help="seconds per tree build (default: none, as build_tree; "
                         "the command line's is 1800)")
    ap.add_argument("--max-tree-nodes", type=int, default=10_000_000,
                    help="node budget of each tree (build_tree's default 10000000)")
    ap.add_argument("--lookahead", type=int, default=None,
                    help="positions the builder looks ahead at each winner's node (0: none; "
                         "default: build_tree's, 2000 for readable trees, for full the "
                         "smaller of the trees with 0 and 200000, 0 for compact)")
    ap.add_argument("--estimate", type=int, default=0, metavar="PROBES",
                    help="where a full tree is too large to build, estimate its size from "
                         "this many random lines (tsumego.proofs.tree.estimate_full_tree; "
                         "default 0: no estimate)")
    ap.add_argument("--compact", action="store_true",
                    help="build, write and check compact trees instead of full ones (the full "
                         "column is then the size they stand for, and the row's detail gives "
                         "the nodes of the file)")
    ap.add_argument("--keep", default=None, help="write the full trees to this directory")
    ap.add_argument("--resume", default=None, metavar="OUTPUT",
                    help="the output of an interrupted run: its problems are not run again, "
                         "their lines are repeated and counted in the totals")
    args = ap.parse_args(argv)
    if args.time_limit <= 0:
        ap.error("--time-limit must be positive")
    # a run stopped with SIGTERM (kill, timeout) unwinds like Ctrl-C: its temporary directory
    # of trees goes with it
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        earlier = Path(args.resume).read_text().splitlines() if args.resume else []
    except (OSError, UnicodeDecodeError) as e:
        print(f"tree_stats: {args.resume}: cannot read the earlier run: "
              f"{getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tree-stats-") as tmp:
        outdir = Path(args.keep) if args.keep else Path(tmp)
        outdir.mkdir(parents=True, exist_ok=True)
        print(f"{'problem':<30} {'pl':<2} {'status':<8} {'bal':>3} {'solve_s':>8} "
              f"{'readable':>8} {'full':>8} {'check':<10} {'check_s':>8}  detail", flush=True)
        rows = []
        done: set[str] = set()
        for line in earlier:
            old = parse_row(line)
            if old is not None:
                print_row(old)
                rows.append(old)
                done.add(old.name)
        for path, name in collect(args.paths):
            if name in done:
                continue
            try:
                r = run_one(path, name, args, outdir)
            except Exception as e:  # noqa: BLE001 - one problem must not stop the run
                r = Row(name, check="ERROR", detail=f"crash: {type(e).__name__}: {e}")
            print_row(r)
            rows.append(r)
        summary(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
