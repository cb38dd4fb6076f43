"""The eye-space database: the stored table is what the rules give, its shapes cover every
small enclosed space on a board, its classic answers are the ones Go players know, and every
answer it gives agrees with the brute-force search of rules.md."""

from __future__ import annotations

import random

import pytest
from brute import BruteGame

from tsumego.knowledge.eyespace import (
    ALIVE,
    CAPTURE,
    DIST,
    MAX_CELLS,
    Shape,
    all_shapes,
    content_of,
    database,
    index_of,
    make_shape,
    play,
    read_npz,
    solve_shape,
)

BALANCES = (-2, -1, 0, 1, 2)


def space_of(rows: str) -> tuple[int, int, list[bool]]:
    """Read a diagram: ``O`` the target block (the defender is White), ``X`` attacker stones,
    ``.`` the space's empty points, ``x``/``o`` attacker/defender stones inside the space, ``-``
    points outside it (attacker wall). Returns the shape index, the content index, and the
    space's touching flags, cell by cell in reading order."""
    lines = [ln.replace(" ", "") for ln in rows.strip().splitlines()]
    grid = {(x, y): ch for y, ln in enumerate(lines) for x, ch in enumerate(ln)}
    space = [(x, y) for (x, y), ch in sorted(grid.items(), key=lambda i: (i[0][1], i[0][0]))
             if ch in ".xo"]
    touching = []
    for x, y in space:
        touching.append(any(grid.get(q) == "O" for q in ((x - 1, y), (x + 1, y), (x, y - 1),
                                                         (x, y + 1))))
    k, order = database().locate(space, touching)
    assert k >= 0, "the space is in the table"
    att = dfn = 0
    for i, j in enumerate(order):
        ch = grid[space[j]]
        if ch == "x":
            att |= 1 << i
        elif ch == "o":
            dfn |= 1 << i
    return k, index_of(att, dfn), touching


def answer(rows: str) -> tuple[str, str]:
    """(attacker to move, defender to move): 'alive' (pass-alive), 'dead' (the attacker forces
    a capture) or '-'."""
    k, index, _ = space_of(rows)
    out = []
    for atm in (True, False):
        v = database().value(k, index, atm)
        out.append("alive" if v & ALIVE else "dead" if v & DIST else "-")
    return out[0], out[1]


def test_stored_table_is_what_the_rules_give() -> None:
    """Every shape of up to four cells and every 20th larger one, solved again, gives the
    stored bytes: the table and the code that reads it agree."""
    db = database()
    keys = all_shapes()
    assert len(keys) == len(db._keys) and keys == db._keys
    for k, (cells, tadj) in enumerate(keys):
        if len(cells) <= 4 or k % 20 == 0:
            n = 2 * 3 ** len(cells)
            assert solve_shape(make_shape(cells, tadj)) == db.values[db._offsets[k]:][:n], cells


def test_the_file_reads_as_numpy_reads_it() -> None:
    """The package reads its table without numpy; numpy reads the same arrays."""
    np = pytest.importorskip("numpy")
    from importlib import resources
    raw = resources.files("tsumego.knowledge").joinpath("data", "eyespace.npz").read_bytes()
    import io
    with np.load(io.BytesIO(raw)) as z:
        want = {k: z[k] for k in z.files}
    got = read_npz(raw)
    assert sorted(got) == sorted(want) == ["cells", "sizes", "tadj", "values"]
    for k, arr in want.items():
        assert arr.dtype == np.uint8 and got[k] == arr.tobytes()
    with pytest.raises(ValueError):
        read_npz(_npz_with(np, np.zeros(3, dtype=np.int32)))


def _npz_with(np, arr) -> bytes:  # type: ignore[no-untyped-def]
    import io
    buf = io.BytesIO()
    np.savez_compressed(buf, values=arr)
    return buf.getvalue()


@pytest.mark.parametrize("seed", range(4))
def test_every_small_space_on_a_board_is_in_the_table(seed: int) -> None:
    """Random connected spaces of 1 to 7 points anywhere on a 9x9 board (edges and corners
    included), with the points next to the rest of the board as the target's: each has a
    shape in the table."""
    rng = random.Random(seed)
    db = database()
    for _ in range(200):
        n = rng.randint(1, MAX_CELLS)
        cells = {(rng.randrange(9), rng.randrange(9))}
        while len(cells) < n:
            x, y = rng.choice(sorted(cells))
            q = rng.choice(((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
            if 0 <= q[0] < 9 and 0 <= q[1] < 9:
                cells.add(q)
        pts = sorted(cells)
        touching = [any(0 <= q[0] < 9 and 0 <= q[1] < 9 and q not in cells
                        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
                    for x, y in pts]
        if not any(touching):
            continue
        assert db.locate(pts, touching)[0] >= 0, pts


def test_three_point_eyes_have_one_vital_point() -> None:
    straight = """
        - O O O -
        O . . . O
        - O O O -
    """
    assert answer(straight) == ("dead", "-")
    assert answer(straight.replace(". . .", ". o .")) == ("alive", "alive")
    bent = """
        - O O -
        O . . O
        O . O -
        - O - -
    """
    assert answer(bent) == ("dead", "-")
    assert answer(bent.replace("O . . O", "O o . O")) == ("alive", "alive")


def test_four_point_eyes() -> None:
    """Straight and bent four live, whoever moves (not pass-alive: they must answer); the
    square four is dead, whoever moves."""
    assert answer("""
        - O O O O -
        O . . . . O
        - O O O O -
    """) == ("-", "-")
    assert answer("""
        - O O O -
        O . . . O
        - O O . O
        - - - O -
    """) == ("-", "-")
    assert answer("""
        - O O -
        O . . O
        O . . O
        - O O -
    """) == ("dead", "dead")


def test_five_and_six_point_killing_shapes() -> None:
    """Bulky five and rabbity six: dead with the attacker to move, alive with the defender to
    move (it takes the vital point); after an attacker stone on the vital point the defender
    to move cannot live either."""
    bulky = """
        - O O O -
        O . . O -
        O . . . O
        - O O O -
    """
    assert answer(bulky) == ("dead", "-")
    assert answer(bulky.replace("O . . . O", "O . x . O")) == ("dead", "dead")
    rabbity = """
        - - O - -
        - O . O -
        O . . . O
        - O . . O
        - - O O -
    """
    assert answer(rabbity) == ("dead", "-")
    assert answer(rabbity.replace("O . . . O", "O . o . O")) == ("alive", "alive")


def test_corner_spaces_use_the_edge() -> None:
    """Three points in the corner, bent: the corner point has no neighbour off the space on
    the board, so it does not touch the target."""
    corner = """
        . . O -
        . O O -
        O O - -
        - - - -
    """
    assert space_of(corner)[2] == [False, True, True]
    assert answer(corner) == ("dead", "-")


def _enclosed(rng: random.Random, size: int) -> tuple[list[int], list[int], int] | None:
    """A random enclosed space of 1 to 5 points on a ``size`` board: (cells, target ring,
    attacker-wall mask) with the ring edge-connected, else None."""
    n = rng.randint(1, 5)
    cells = {(rng.randrange(size), rng.randrange(size))}
    while len(cells) < n:
        x, y = rng.choice(sorted(cells))
        q = rng.choice(((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
        if 0 <= q[0] < size and 0 <= q[1] < size:
            cells.add(q)

    def ring(inner: set[tuple[int, int]]) -> set[tuple[int, int]]:
        return {(x + dx, y + dy) for x, y in inner for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if 0 <= x + dx < size and 0 <= y + dy < size} - inner

    t = ring(cells)
    wall = ring(cells | t)
    if not t or not wall:
        return None
    todo = [min(t)]
    seen = {todo[0]}
    while todo:
        x, y = todo.pop()
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if q in t and q not in seen:
                seen.add(q)
                todo.append(q)
    if seen != t:
        return None
    return ([y * size + x for x, y in sorted(cells)], [y * size + x for x, y in sorted(t)],
            sum(1 << (y * size + x) for x, y in wall))


@pytest.mark.parametrize("seed", range(6))
def test_answers_agree_with_the_brute_force(seed: int) -> None:
    """Random enclosed spaces of up to five points with random contents (White's target
    block around them, Black's wall outside): where the table says pass-alive, the defender
    wins at every balance, and the live game too; where it says the attacker forces a capture
    and gives a plan, the attacker wins at every balance."""
    rng = random.Random(1000 + seed)
    size = 6
    db = database()
    checked = 0
    while checked < 12:
        got = _enclosed(rng, size)
        if got is None:
            continue
        cells, ring, wall = got
        xy = [(p % size, p // size) for p in cells]
        touching = [any(q in ring for q in (p - 1 if p % size else -1,
                                             p + 1 if p % size < size - 1 else -1,
                                             p - size, p + size)) for p in cells]
        k, order = db.locate(xy, touching)
        shape = db.shape(k)
        index = rng.randrange(3 ** shape.n)
        att, dfn = content_of(shape, index)
        if not db.value(k, index, True) and not db.value(k, index, False):
            continue  # an impossible content, or no answer: nothing to check
        board = [0] * (size * size)
        for p in ring:
            board[p] = 2
        for p in range(size * size):
            if wall >> p & 1:
                board[p] = 1
        for i, j in enumerate(order):
            if att >> i & 1:
                board[cells[j]] = 1
            elif dfn >> i & 1:
                board[cells[j]] = 2
        game = BruteGame(size, board, cells, ring)
        for atm, first in ((True, 1), (False, 2)):
            v = db.value(k, index, atm)
            if v & ALIVE:
                assert all(game.winner(first, b) == 2 for b in BALANCES)
                live = BruteGame(size, board, cells, ring, live=True)
                assert live.winner(first, 2) == 2
            elif v & DIST and db.plan(k, att, dfn, atm) is not None:
                assert all(game.winner(first, b) == 1 for b in BALANCES)
        checked += 1


# White's group has a straight three on the edge (aa-ca) and one more liberty at ea that lies
# outside the region: nobody may play there, so the attacker can never capture the group. The
# table, which knows only the space, would read the straight three as dead with Black to play.
# (Found in the Cho Chikun elementary set, where the framing left a captured wall point outside
# the region.)
OUTSIDE_LIBERTY = """
    . . . @ . X
    @ @ @ @ X X
    X X X X X .
    . . . . . .
    . . . . . .
    . . . . . .
"""


@pytest.mark.parametrize("eyespace", [True, False])
def test_a_liberty_outside_the_region_keeps_the_group_alive(eyespace: bool) -> None:
    from dataclasses import replace

    from tsumego import BLACK, WHITE, problem_from_diagram, solve
    from tsumego.search.engine import SearchOptions
    p = problem_from_diagram(OUTSIDE_LIBERTY, to_play=BLACK)
    ea = 4
    p = replace(p, region=p.region & ~(1 << ea))
    opts = SearchOptions(eyespace=eyespace)
    for first in (BLACK, WHITE):
        sol = solve(p, to_play=first, options=opts)
        assert sol.winner == WHITE and sol.by_threats == {k: WHITE for k in sol.by_threats}


def _forced_within(shape: Shape, att: int, dfn: int, atm: bool, allowed: frozenset[int],
                   line: frozenset[int], memo: dict[tuple[int, bool, frozenset[int]], bool]
                   ) -> bool:
    """Can the attacker force a capture inside the space when each of its plays must create a
    content of ``allowed`` that is not on ``line`` (the contents since the start, as
    ``att | dfn << 8``), the defender answering with any play or a pass? Only the line's
    contents in ``allowed`` can matter, so results are kept by those."""
    here = att | dfn << 8
    mk = (here, atm, line & allowed)
    if mk in memo:
        return memo[mk]
    out = False
    if atm:
        for p in range(shape.n):
            if (att | dfn) >> p & 1:
                continue
            r = play(shape, att, dfn, p, True)
            if r == CAPTURE:
                out = True
                break
            if isinstance(r, tuple):
                c = r[0] | r[1] << 8
                if c in allowed and c not in line and _forced_within(
                        shape, r[0], r[1], False, allowed, line | {c}, memo):
                    out = True
                    break
    else:
        out = _forced_within(shape, att, dfn, True, allowed, line, memo)  # the pass
        for p in range(shape.n):
            if not out:
                break
            if (att | dfn) >> p & 1:
                continue
            r = play(shape, att, dfn, p, False)
            if isinstance(r, tuple):
                out = _forced_within(shape, r[0], r[1], True, allowed,
                                     line | {r[0] | r[1] << 8}, memo)
    memo[mk] = out
    return out


@pytest.mark.parametrize("seed", range(3))
def test_a_plan_names_every_content_the_attacker_creates(seed: int) -> None:
    """The search uses a plan's contents as the arrangements the attacker's kill creates, to
    check them against the path: so the attacker must be able to force the capture creating
    only those, none of them twice on a line. Checked by a search of its own on random
    shapes of up to five cells and random contents with a plan."""
    rng = random.Random(2000 + seed)
    db = database()
    keys = [k for k, (cells, _) in enumerate(db._keys) if 2 <= len(cells) <= 5]
    checked = 0
    while checked < 40:
        k = rng.choice(keys)
        shape = db.shape(k)
        index = rng.randrange(3 ** shape.n)
        atm = rng.random() < 0.5
        att, dfn = content_of(shape, index)
        if not db.value(k, index, atm) & DIST:
            continue
        plan = db.plan(k, att, dfn, atm)
        if plan is None:
            continue
        assert _forced_within(shape, att, dfn, atm, plan, frozenset({att | dfn << 8}), {})
        checked += 1


def test_a_shared_memo_gives_every_plan_as_a_fresh_one() -> None:
    """A plan is worked out once per position and kept in the engine's memo: what a position's
    plan is must not depend on what the memo held before (shapes of up to six cells, whose
    plans stay within the budget; every content with a distance, in two orders)."""
    db = database()
    for k, (cells, _) in enumerate(db._keys):
        if not 3 <= len(cells) <= 6 or k % 7:
            continue
        shape = db.shape(k)
        asks = [(*content_of(shape, i), atm) for i in range(3 ** shape.n)
                for atm in (True, False) if db.value(k, i, atm) & DIST]
        fresh = [db.plan(k, a, d, atm) for a, d, atm in asks]
        for order in (asks, asks[::-1]):
            memo: dict[tuple[int, int, bool], frozenset[int] | None] = {}
            shared = {q: db.plan(k, *q, memo) for q in order}
            assert [shared[q] for q in asks] == fresh
