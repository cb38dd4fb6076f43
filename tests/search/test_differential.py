"""The compiled core against the reference engine on positions too large for the brute force:
random walled corners and sides with up to 12 empty points, both sides to play, every balance
-2..+2: the same winner, status, winning first moves and best moves. (Against the brute force,
on smaller positions, both engines are checked in test_property.py.)

``TSUMEGO_DIFFERENTIAL_N=3000`` (environment) draws that many positions instead of 60."""

from __future__ import annotations

import functools
import os
import random
import sys
from pathlib import Path

import pytest

from tsumego import BLACK, WHITE, solve
from tsumego.go.problem import Problem
from tsumego.search.engine import SearchOptions
from tsumego.search.engines import new_engine

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import positions as tp  # noqa: E402

N = int(os.environ.get("TSUMEGO_DIFFERENTIAL_N", "60"))
MAX_EMPTY = 12
NODES = 200_000  # a position that needs more is drawn again


@functools.cache
def positions(n: int, seed: int = 4242) -> list[Problem]:
    """``n`` random walled positions with 4..12 empty region points (the property test's
    generator, with a larger region allowed)."""
    rng = random.Random(seed)
    out: list[Problem] = []
    old = tp.MAX_EMPTY, tp.MAX_REGION
    tp.MAX_EMPTY, tp.MAX_REGION = MAX_EMPTY, 20
    try:
        while len(out) < n:
            p = tp.random_problem(rng)
            if p is None:
                continue
            empty = bin(p.region & ~(p.black | p.white)).count("1")
            if 4 <= empty <= MAX_EMPTY:
                out.append(p)
    finally:
        tp.MAX_EMPTY, tp.MAX_REGION = old
    return out


def answers(p: Problem, engine: str) -> list[object] | None:
    out: list[object] = []
    for side in (BLACK, WHITE):
        for k in (-2, 0, 2):
            s = solve(p, to_play=side, threats=k, max_nodes=NODES,
                      options=SearchOptions(engine=engine))  # type: ignore[arg-type]
            if s.limit is not None:
                return None
            out.append((side, k, s.status, s.by_threats, s.moves, s.best_moves))
    return out


@pytest.mark.parametrize("i", range(N))
def test_compiled_core_answers_as_the_reference_engine(i: int) -> None:
    p = positions(N)[i]
    ref = answers(p, "reference")
    if ref is None:
        pytest.skip("over the node budget")
    assert answers(p, "compiled") == ref, p.diagram()


def test_both_engines_count_the_depths_of_their_nodes() -> None:
    """The work figures ``measure_plain`` records to say where the time goes: the nodes'
    depths summed and the deepest. Where the two engines search the same number of nodes
    (most positions: their trees may part on a few), the figures agree."""
    deepest = same = 0
    for p in positions(N)[:12]:
        for side in (BLACK, WHITE):
            got = []
            for engine in ("compiled", "reference"):
                e = new_engine(p, max_nodes=NODES,
                               options=SearchOptions(engine=engine))  # type: ignore[arg-type]
                e.solve(side, 0)
                assert e.nodes == 1 or 0 < e.depth_sum <= e.depth_max * e.nodes
                got.append((e.nodes, e.depth_sum, e.depth_max))
            if got[0][0] == got[1][0]:
                assert got[0] == got[1]
                same += 1
            deepest = max(deepest, got[0][2])
    assert same >= 20 and deepest >= 6
