"""The compiled core's eye-space table against eyespace.py: the same shape and cell order for
every space, the same plan for every content, and the engine's answers the same with the table
and without it, with less work where it fires."""

from __future__ import annotations

import random

import pytest

from tsumego import BLACK, WHITE, problem_from_diagram, solve
from tsumego.knowledge.eyespace import DIST, content_of, database, index_of
from tsumego.search import _core
from tsumego.search.compiled import load_eyespace_table
from tsumego.search.engine import SearchOptions


@pytest.fixture(scope="module", autouse=True)
def loaded() -> None:
    load_eyespace_table()


def placed(cells: tuple[tuple[int, int], ...], rng: random.Random) -> list[tuple[int, int]]:
    """The cells moved by a random symmetry and translation."""
    t = rng.randrange(8)
    dx, dy = rng.randrange(0, 12), rng.randrange(0, 12)
    out = []
    for x, y in cells:
        if t & 1:
            x = 6 - x
        if t & 2:
            y = 6 - y
        if t & 4:
            x, y = y, x
        out.append((x + dx, y + dy))
    return out


def test_every_shape_is_located_as_eyespace_locates_it() -> None:
    """Every stored shape, moved and listed in a random order: the same shape index and the
    same canonical order of its cells."""
    db = database()
    rng = random.Random(7)
    n = 0
    for k in range(len(db)):
        shape = db.shape(k)
        for _ in range(4):
            points = placed(shape.cells, rng)
            touching = [bool(shape.tadj >> i & 1) for i in range(shape.n)]
            perm = list(range(shape.n))
            rng.shuffle(perm)
            points = [points[i] for i in perm]
            touching = [touching[i] for i in perm]
            want = db.locate(points, touching)
            assert want[0] == k
            assert _core.eye_locate(points, touching) == (want[0], want[1])
            n += 1
    assert n == 4 * len(db) > 1000


def test_a_space_not_in_the_table_is_not_located() -> None:
    """Seven cells in a row, none touching the target: the whole board, never stored."""
    points = [(i, 0) for i in range(7)]
    assert _core.eye_locate(points, [False] * 7)[0] == database().locate(points, [False] * 7)[0]
    assert _core.eye_locate(points, [False] * 7)[0] == -1


def test_plans_are_those_of_eyespace() -> None:
    """Contents where the attacker forces a capture, either side to move: the compiled plan
    lists the same contents as eyespace.plan (both with an empty memo), or both have none."""
    db = database()
    rng = random.Random(11)
    found = 0
    tried = 0
    shapes = [k for k in range(len(db)) if db.shape(k).n >= 4]
    while tried < 400:
        k = rng.choice(shapes)
        shape = db.shape(k)
        index = rng.randrange(3 ** shape.n)
        atm = rng.random() < 0.5
        if not db.value(k, index, atm) & DIST:
            continue
        tried += 1
        a, d = content_of(shape, index)
        want = db.plan(k, a, d, atm, {})
        got = _core.eye_plan(k, a, d, atm)
        if want is None:
            assert got is None, (k, a, d, atm)
            continue
        assert got is not None, (k, a, d, atm)
        assert sorted(index_of(c & 0xFF, c >> 8) for c in want) == got
        found += 1
    assert found > 100


# White's corner group (the target) around eight points, Black's wall outside it
CORNER = """
    . . . @ X . .
    . . . @ X . .
    . . @ @ X . .
    @ @ @ X X . .
    X X X X . . .
    . . . . . . .
    . . . . . . .
"""


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_the_table_saves_work_and_changes_no_answer(engine: str) -> None:
    """An eight-point corner eye space: Black to play makes it ko at the 2-2 point, White to
    play lives; every search reaches spaces of seven points, where the table answers. With it,
    fewer nodes and the same answers."""
    problem = problem_from_diagram(CORNER)
    on = SearchOptions(engine=engine)  # type: ignore[arg-type]
    off = SearchOptions(engine=engine, eyespace=False)  # type: ignore[arg-type]
    black = solve(problem, to_play=BLACK, options=on)
    assert (black.status, [p.sgf for p in black.best_moves]) == ("ko", ["bb"])
    white = solve(problem, to_play=WHITE, options=on)
    assert white.status == "live"
    for side, a in ((BLACK, black), (WHITE, white)):
        b = solve(problem, to_play=side, options=off)
        assert (a.status, a.best_moves) == (b.status, b.best_moves)
        assert a.nodes < b.nodes
