"""The scale series of ``bench.py --scale``: enclosed corner problems of growing size.

Each problem is a corner of a 19x19 board: an eye space of ``n`` points filled row by row from
the corner (rows of about ``sqrt(1.6 n)`` points), walled in by a defender ring, walled in by
a solid attacker wall. Two kinds, both generated from a fixed seed so that every run asks the
same questions:

- ``open``: the eye space is empty. The defender lives whoever plays first; the attacker to
  play must be refuted in every line (a "live" question that grows with ``n``).
- ``stones``: a fifth of the eye space holds attacker stones and a tenth defender stones,
  placed by the seeded generator; the answers vary (kill, live, seki, ko).

For every size and kind both sides are solved (the full answer: every balance and every
correct first move) with a time limit; a kind stops growing after two sizes in a row that a
side could not solve.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from tsumego import BLACK, WHITE, solve
from tsumego.go.board import Board
from tsumego.go.problem import Problem, ProblemError, make_problem
from tsumego.search.solver import Status

SIZES = (6, 8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 36, 40, 44, 48)
KINDS = ("open", "stones")
SEED = 20261127


def scale_problem(n: int, kind: str, seed: int = SEED) -> Problem:
    """The corner problem of ``n`` empty eye-space points of ``kind`` (White defends)."""
    rng = random.Random(seed * 1000 + n * 10 + KINDS.index(kind))
    stones = 0 if kind == "open" else (3 * n) // 10
    cells = n + stones
    width = max(3, round(math.sqrt(1.6 * cells)))
    eye = [(i % width, i // width) for i in range(cells)]
    eye_set = set(eye)
    size = 19

    def around(points: set[tuple[int, int]]) -> set[tuple[int, int]]:
        out = set()
        for x, y in points:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    q = (x + dx, y + dy)
                    if 0 <= q[0] < size and 0 <= q[1] < size and q not in points:
                        out.add(q)
        return out

    ring = around(eye_set)
    wall = around(eye_set | ring)
    board = Board(size)
    for x, y in ring:
        board.place(y * size + x, WHITE)
    for x, y in wall:
        board.place(y * size + x, BLACK)
    if stones:
        inner = [q for q in eye if all(r in eye_set or r in ring for r in around({q}))]
        chosen = rng.sample(inner or eye, min(stones, len(inner or eye)))
        for k, (x, y) in enumerate(chosen):
            board.place(y * size + x, BLACK if k % 3 else WHITE)
    target = min(y * size + x for x, y in ring)
    return make_problem(board, [target], to_play=BLACK, name=f"scale-{kind}-{n}")


@dataclass
class ScaleRow:
    """One side of one problem of the series."""

    n: int  # empty points of the eye space
    kind: str
    side: str
    status: Status
    seconds: float
    nodes: int


def series(time_limit: float, sizes: tuple[int, ...] = SIZES,
           kinds: tuple[str, ...] = KINDS) -> Iterator[ScaleRow]:
    """The rows of the series, size by size, as they are solved."""
    for kind in kinds:
        misses = 0
        for n in sizes:
            try:
                problem = scale_problem(n, kind)
            except ProblemError:
                continue
            solved_any = False
            for side in (BLACK, WHITE):
                start = time.monotonic()
                sol = solve(problem, to_play=side, time_limit=time_limit)
                seconds = time.monotonic() - start
                solved_any |= sol.status != "unknown"
                yield ScaleRow(n, kind, "B" if side == BLACK else "W", sol.status, seconds,
                               sol.nodes)
                if sol.status == "unknown":
                    break
            misses = 0 if solved_any else misses + 1
            if misses >= 2:
                break


def largest_within(rows: list[ScaleRow], seconds: float) -> dict[str, int]:
    """Per kind, the largest size whose every side was solved within ``seconds``."""
    out: dict[str, int] = {}
    by: dict[tuple[str, int], list[ScaleRow]] = {}
    for r in rows:
        by.setdefault((r.kind, r.n), []).append(r)
    for (kind, n), rs in sorted(by.items()):
        if len(rs) == 2 and all(r.status != "unknown" and r.seconds <= seconds for r in rs):
            out[kind] = max(out.get(kind, 0), n)
    return out


def growth(rows: list[ScaleRow]) -> dict[str, float]:
    """Per kind, the mean factor by which the time of a side grows from one size to the
    next (over the sizes solved in more than 0.05 s)."""
    out: dict[str, float] = {}
    for kind in sorted({r.kind for r in rows}):
        times: dict[int, float] = {}
        for r in rows:
            if r.kind == kind and r.status != "unknown":
                times[r.n] = times.get(r.n, 0.0) + r.seconds
        ns = sorted(n for n, t in times.items() if t > 0.05)
        factors = [(times[b] / times[a]) ** (1 / (b - a)) for a, b in zip(ns, ns[1:])]
        if factors:
            out[kind] = math.exp(sum(math.log(f) for f in factors) / len(factors))
    return out
