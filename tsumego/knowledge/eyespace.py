"""Small enclosed eye spaces, solved once by retrograde analysis.

An *eye space* here is an edge-connected set S of at most :data:`MAX_CELLS` points such that
every on-board neighbour of S outside S is a stone of one block T, T holds every target stone,
all of T's liberties lie in S, and S holds every empty point of the region. Then every play
left is inside S, no play inside S can capture or free anything outside it, and the game is a
function of S's contents alone. S is described by its *shape*: its cells (up to translation,
rotation and reflection) and which of them touch T; the board edge only shows through the
cells that do not.

For every shape and every content (each cell empty, attacker or defender), with each side to
move, the database holds:

- the attacker's *distance* to a capture of T in the game where the defender may pass or play
  anywhere without any repetition rule and the attacker may make any legal play (0: the
  attacker cannot force a capture there). A win in that game is a win in the game of rules.md,
  at every balance, *provided* the attacker's plays never recreate an arrangement of the path:
  :meth:`EyeSpaces.plan` lists the arrangements they create so the search can check that.
  (The attacker never passes in it, and a pair of passes needs the attacker's pass, so no
  pair ever comes up: the win does not depend on the pairs of passes of rules.md either);
- whether T is *pass-alive*: the attacker, playing alone, cannot capture it. Then the defender
  wins by passing, whatever the path (and in the pass-alive game of the search too).

Everything else (kos, sekis the defender must keep by playing) is left to the search.

The table is built by ``tools/build_eyespace.py`` and stored in the package as one compressed
numpy file, read on first use. Cells are numbered in the canonical order of the shape; a
content's index is ``sum(3**i * v_i)`` with ``v_i`` 0 empty, 1 attacker, 2 defender.
"""

from __future__ import annotations

import ast
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from tsumego.errors import BudgetExhausted

MAX_CELLS = 7
ALIVE = 0x80  # value bit: the target is pass-alive
DIST = 0x7F  # value bits: the attacker's distance to a capture (0: none)
CAPTURE = -2  # a play's result: the target is captured
ILLEGAL = -1  # a play's result: suicide
PLAN_NODES = 4000  # a plan's tree over more positions than this is not used

Cells = tuple[tuple[int, int], ...]
_DATA = "eyespace.npz"


@dataclass(frozen=True)
class Shape:
    """One eye-space shape: cells in canonical order, their neighbour masks (over cell
    indices) and the mask of the cells next to the target block."""

    cells: Cells
    tadj: int
    nbrs: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.cells)


def make_shape(cells: Cells, tadj: int) -> Shape:
    """A :class:`Shape` from canonical cells and the mask of those next to the target."""
    index = {c: i for i, c in enumerate(cells)}
    nbrs = []
    for x, y in cells:
        m = 0
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            j = index.get(q)
            if j is not None:
                m |= 1 << j
        nbrs.append(m)
    return Shape(cells, tadj, tuple(nbrs))


def canonical(points: list[tuple[int, int]], touching: list[bool]) -> tuple[Cells, int, list[int]]:
    """Canonical form of cells ``points`` (with ``touching[i]``: cell i is next to the target)
    under the eight symmetries: (cells, tadj mask, order), where ``order[i]`` is the index in
    ``points`` of canonical cell i."""
    best: tuple[Cells, tuple[bool, ...], list[int]] | None = None
    for t in range(8):
        moved = []
        for x, y in points:
            if t & 1:
                x = -x
            if t & 2:
                y = -y
            if t & 4:
                x, y = y, x
            moved.append((x, y))
        mx = min(x for x, _ in moved)
        my = min(y for _, y in moved)
        order = sorted(range(len(points)), key=lambda i: (moved[i][1] - my, moved[i][0] - mx))
        cells = tuple((moved[i][0] - mx, moved[i][1] - my) for i in order)
        flags = tuple(not touching[i] for i in order)  # touching cells sort first
        if best is None or (cells, flags) < (best[0], best[1]):
            best = (cells, flags, order)
    assert best is not None
    tadj = 0
    for i, f in enumerate(best[1]):
        if not f:
            tadj |= 1 << i
    return best[0], tadj, best[2]


# --- the rules inside a space ---------------------------------------------------------------
def _flood(shape: Shape, seed: int, within: int) -> int:
    m = seed & within
    nbrs = shape.nbrs
    while True:
        n = m
        x = m
        while x:
            low = x & -x
            n |= nbrs[low.bit_length() - 1]
            x ^= low
        n &= within
        if n == m:
            return m
        m = n


def _around(shape: Shape, m: int) -> int:
    nbrs = shape.nbrs
    out = 0
    while m:
        low = m & -m
        out |= nbrs[low.bit_length() - 1]
        m ^= low
    return out


def target_liberties(shape: Shape, att: int, dfn: int) -> int:
    """The target block's liberties (a cell mask): the empty cells next to T, and those next
    to the defender stones joined to T."""
    full = (1 << shape.n) - 1
    empty = full & ~(att | dfn)
    joined = _flood(shape, dfn & shape.tadj, dfn)
    return empty & (shape.tadj | _around(shape, joined))


def play(shape: Shape, att: int, dfn: int, p: int, attacker: bool) -> tuple[int, int] | int:
    """The content after a play at empty cell ``p`` (by the attacker or the defender), or
    :data:`CAPTURE` when the attacker's play captures the target, or :data:`ILLEGAL` for a
    suicide."""
    full = (1 << shape.n) - 1
    bit = 1 << p
    if attacker:
        own, opp = att | bit, dfn
    else:
        own, opp = dfn | bit, att
    if attacker and not target_liberties(shape, own, opp):
        return CAPTURE  # (removing other defender blocks frees nothing next to the target)
    empty = full & ~(own | opp)
    tadj = shape.tadj
    for q in _bits(shape.nbrs[p] & opp):
        if not opp >> q & 1:
            continue  # removed with an earlier block
        g = _flood(shape, 1 << q, opp)
        if attacker and g & tadj:
            continue  # part of the target, which has a liberty
        if not _around(shape, g) & empty:
            opp &= ~g
            empty |= g
    g = _flood(shape, bit, own)
    if not attacker and g & tadj:
        if not target_liberties(shape, opp, own):
            return ILLEGAL
    elif not _around(shape, g) & empty:
        return ILLEGAL
    return (own, opp) if attacker else (opp, own)


def _bits(m: int) -> Iterator[int]:
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def legal_content(shape: Shape, att: int, dfn: int) -> bool:
    """Does every block of the content have a liberty (the target counted with T)?"""
    full = (1 << shape.n) - 1
    empty = full & ~(att | dfn)
    if not target_liberties(shape, att, dfn):
        return False
    for stones, is_def in ((att, False), (dfn, True)):
        rest = stones
        while rest:
            g = _flood(shape, rest & -rest, stones)
            rest &= ~g
            if is_def and g & shape.tadj:
                continue
            if not _around(shape, g) & empty:
                return False
    return True


def index_of(att: int, dfn: int) -> int:
    """A content's index: ``sum(3**i * v_i)``."""
    return _B3[att] + 2 * _B3[dfn]


def content_of(shape: Shape, index: int) -> tuple[int, int]:
    """(attacker mask, defender mask) of a content index."""
    att = dfn = 0
    for i in range(shape.n):
        v = index % 3
        index //= 3
        if v == 1:
            att |= 1 << i
        elif v == 2:
            dfn |= 1 << i
    return att, dfn


# _B3[mask] = sum(3**i for the bits i of mask): a content's index in two look-ups
_B3: tuple[int, ...] = tuple(sum(3 ** i for i in range(MAX_CELLS) if m >> i & 1)
                             for m in range(1 << MAX_CELLS))


# --- solving a shape --------------------------------------------------------------------------
def solve_shape(shape: Shape) -> bytes:
    """The database values of every content of ``shape``: two bytes per content index (the
    attacker to move, then the defender to move), each the attacker's distance to a capture
    (0 for none, at most :data:`DIST`) or-ed with :data:`ALIVE` when the target is pass-alive.
    Contents with a block without liberties get 0."""
    n = shape.n
    size = 3 ** n
    full = (1 << n) - 1
    contents = [content_of(shape, i) for i in range(size)]
    legal = [legal_content(shape, a, d) for a, d in contents]
    # successors: per content, the attacker's results and the defender's (pass included)
    att_next: list[list[int]] = []
    def_next: list[list[int]] = []
    for i, (a, d) in enumerate(contents):
        an: list[int] = []
        dn: list[int] = []
        if legal[i]:
            dn.append(i)  # the defender's pass
            for p in _bits(full & ~(a | d)):
                r = play(shape, a, d, p, True)
                if r == CAPTURE:
                    an.append(CAPTURE)
                elif not isinstance(r, int):
                    an.append(index_of(*r))
                r = play(shape, a, d, p, False)
                if not isinstance(r, int):
                    dn.append(index_of(*r))
        att_next.append(an)
        def_next.append(dn)
    inf = DIST + 1
    da = [inf] * size  # attacker to move
    dd = [inf] * size  # defender to move
    changed = True
    while changed:
        changed = False
        for i in range(size):
            if not legal[i]:
                continue
            best = inf
            for j in att_next[i]:
                v = 1 if j == CAPTURE else dd[j] + 1
                if v < best:
                    best = v
            if best < da[i]:
                da[i] = best
                changed = True
            worst = 0
            for j in def_next[i]:
                v = da[j] + 1
                if v > worst:
                    worst = v
            if def_next[i] and worst < dd[i]:
                dd[i] = worst
                changed = True
    alive = _pass_alive(shape, contents, legal)
    out = bytearray(2 * size)
    for i in range(size):
        if not legal[i]:
            continue
        flag = ALIVE if alive[i] else 0
        out[2 * i] = (da[i] if da[i] <= DIST else 0) | flag
        out[2 * i + 1] = (dd[i] if dd[i] <= DIST else 0) | flag
    return bytes(out)


def _pass_alive(shape: Shape, contents: list[tuple[int, int]], legal: list[bool]) -> list[bool]:
    """Per content: the attacker playing alone cannot capture the target. Its stones only
    grow, so the contents with more attacker stones are settled first."""
    full = (1 << shape.n) - 1
    size = len(contents)
    captures = [False] * size
    order = sorted(range(size), key=lambda i: -contents[i][0].bit_count())
    for i in order:
        if not legal[i]:
            continue
        a, d = contents[i]
        for p in _bits(full & ~(a | d)):
            r = play(shape, a, d, p, True)
            if r == CAPTURE or (not isinstance(r, int) and captures[index_of(*r)]):
                captures[i] = True
                break
    return [legal[i] and not captures[i] for i in range(size)]


# --- every shape ------------------------------------------------------------------------------
def all_shapes(max_cells: int = MAX_CELLS) -> list[tuple[Cells, int]]:
    """Every canonical (cells, tadj) of at most ``max_cells`` cells: each fixed polyomino,
    placed against each set of board edges, with the cells that touch the target (those with
    an on-board neighbour outside the shape); sorted."""
    fixed: set[frozenset[tuple[int, int]]] = {frozenset({(0, 0)})}
    every = set(fixed)
    for _ in range(max_cells - 1):
        grown = set()
        for poly in fixed:
            for x, y in poly:
                for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if q not in poly:
                        new = poly | {q}
                        mx = min(c[0] for c in new)
                        my = min(c[1] for c in new)
                        grown.add(frozenset((c[0] - mx, c[1] - my) for c in new))
        fixed = grown
        every |= grown
    out: set[tuple[Cells, int]] = set()
    for poly in every:
        w = max(c[0] for c in poly) + 1
        h = max(c[1] for c in poly) + 1
        for edges in range(16):
            left, right, top, bottom = (edges >> k & 1 for k in range(4))
            if left and right and top and bottom and w != h:
                continue  # a square board
            points = sorted(poly)
            touching = []
            for x, y in points:
                t = False
                for (qx, qy), off in (((x - 1, y), left and x == 0),
                                      ((x + 1, y), right and x == w - 1),
                                      ((x, y - 1), top and y == 0),
                                      ((x, y + 1), bottom and y == h - 1)):
                    if not off and (qx, qy) not in poly:
                        t = True
                touching.append(t)
            if not any(touching):
                continue  # the whole board: no target
            cells, tadj, _ = canonical(points, touching)
            out.add((cells, tadj))
    return sorted(out, key=lambda k: (len(k[0]), k))


# --- the stored table -------------------------------------------------------------------------
class EyeSpaces:
    """The stored database: values by shape, and the shapes by key."""

    def __init__(self, keys: list[tuple[Cells, int]], offsets: list[int], values: bytes) -> None:
        self._index = {k: i for i, k in enumerate(keys)}
        self._keys = keys
        self._offsets = offsets
        self.values = values
        self._shapes: dict[int, Shape] = {}

    def __len__(self) -> int:
        """The number of shapes."""
        return len(self._keys)

    def find(self, cells: Cells, tadj: int) -> int:
        """The shape index of a canonical key, -1 if none."""
        return self._index.get((cells, tadj), -1)

    def locate(self, points: list[tuple[int, int]], touching: list[bool]) -> tuple[int, list[int]]:
        """The shape index of the cells at (column, row) ``points`` (``touching[i]``: cell i
        is next to the target), -1 if the table has none; and the canonical order of the
        cells as indices into ``points``."""
        cells, tadj, order = canonical(points, touching)
        return self.find(cells, tadj), order

    def shape(self, k: int) -> Shape:
        s = self._shapes.get(k)
        if s is None:
            s = self._shapes[k] = make_shape(*self._keys[k])
        return s

    def value(self, k: int, index: int, attacker_to_move: bool) -> int:
        """The stored byte of content ``index`` of shape ``k``."""
        return self.values[self._offsets[k] + 2 * index + (0 if attacker_to_move else 1)]

    def plan(self, k: int, att: int, dfn: int, attacker_to_move: bool,
             memo: dict[tuple[int, int, bool], frozenset[int] | None] | None = None
             ) -> frozenset[int] | None:
        """The contents the attacker's plays create when it follows the database to a capture
        from this content, answering every defender play and pass; None when that is not
        sure to be legal under repetition (one of its plays would recreate a content met
        earlier on the same line), when the content is no forced win, or when working it out
        needs more than :data:`PLAN_NODES` new positions. The contents are as (attacker,
        defender) masks packed into ``att | dfn << 8``.

        A position's plan is worked out once, as if the line began there, and checked where
        it is used: a plan is legal below a line when none of the contents it creates is on
        that line, so each position of the line only has to check the plans of its children
        against itself. ``memo`` keeps those plans (by shape, content and side to move) from
        one call to the next (a position whose plan ran over the budget is kept there as having
        none). A plan found is valid whatever the memo held: sharing it changes the work, and
        at most which sure wins the search is told of, never an answer."""
        shape = self.shape(k)
        full = (1 << shape.n) - 1
        plans = {} if memo is None else memo
        budget = [PLAN_NODES]

        def dist(a: int, d: int, atm: bool) -> int:
            return self.value(k, index_of(a, d), atm) & DIST

        def solve(a: int, d: int, atm: bool) -> frozenset[int] | None:
            mk = (k, a | d << 8, atm)
            if mk in plans:
                return plans[mk]
            budget[0] -= 1
            if budget[0] < 0:
                raise BudgetExhausted("plan")
            here = a | d << 8
            out: frozenset[int] | None = None
            if atm:
                far = dist(a, d, True)
                options: list[tuple[int, int, int]] = []
                if far:
                    for p in _bits(full & ~(a | d)):
                        r = play(shape, a, d, p, True)
                        if r == CAPTURE:
                            out = _NONE_CREATED
                            break
                        if not isinstance(r, int):
                            v = dist(r[0], r[1], False)
                            if v and v < far:
                                options.append((v, r[0], r[1]))
                    else:
                        for _, a2, d2 in sorted(options):
                            c = a2 | d2 << 8
                            if c == here:
                                continue
                            sub = solve(a2, d2, False)
                            if sub is not None and here not in sub:
                                out = sub | {c}
                                break
            else:
                out = solve(a, d, True)  # the pass
                if out is not None:
                    for p in _bits(full & ~(a | d)):
                        r = play(shape, a, d, p, False)
                        if not isinstance(r, int):
                            sub = solve(r[0], r[1], True)
                            if sub is None or here in sub:
                                out = None
                                break
                            out = out | sub
            plans[mk] = out
            return out

        try:
            return solve(att, dfn, attacker_to_move)
        except BudgetExhausted:  # (only the plan's own budget is raised in here)
            plans[(k, att | dfn << 8, attacker_to_move)] = None  # not worked out again
            return None



_NONE_CREATED: frozenset[int] = frozenset()


@lru_cache(maxsize=1)
def stored_arrays() -> dict[str, bytes]:
    """The stored database's arrays, as raw bytes: ``cells`` (:data:`MAX_CELLS` per shape,
    each ``x + 8 * y``), ``sizes`` and ``tadj`` (one per shape), ``values`` (every shape's in
    turn, two per content)."""
    raw = resources.files("tsumego.knowledge").joinpath("data", _DATA).read_bytes()
    return read_npz(raw)


@lru_cache(maxsize=1)
def database() -> EyeSpaces:
    """The stored database, read on first use."""
    arrays = stored_arrays()
    cells, sizes, tadjs, values = arrays["cells"], arrays["sizes"], arrays["tadj"], \
        arrays["values"]
    keys: list[tuple[Cells, int]] = []
    offsets: list[int] = []
    at = 0
    for i, (n, t) in enumerate(zip(sizes, tadjs)):
        row = cells[i * MAX_CELLS:i * MAX_CELLS + n]
        keys.append((tuple((c % 8, c // 8) for c in row), t))
        offsets.append(at)
        at += 2 * 3 ** n
    if at != len(values):
        raise ValueError(f"{_DATA}: {len(values)} values for {at} entries")
    return EyeSpaces(keys, offsets, values)


def read_npz(raw: bytes) -> dict[str, bytes]:
    """The ``uint8`` arrays of a numpy ``.npz`` file, as their raw bytes in C order, read
    with the standard library (the ``.npy`` format is a short header and the data; importing
    numpy for 50 KB would cost more than the table saves on a small problem)."""
    out: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        for name in z.namelist():
            data = z.read(name)
            if data[:6] != b"\x93NUMPY":
                raise ValueError(f"{name}: not a .npy array")
            if data[6] == 1:
                hlen, start = int.from_bytes(data[8:10], "little"), 10
            else:
                hlen, start = int.from_bytes(data[8:12], "little"), 12
            header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
            if header["descr"] not in ("|u1", "<u1") or header["fortran_order"]:
                raise ValueError(f"{name}: not a C-ordered uint8 array")
            size = 1
            for d in header["shape"]:
                size *= d
            body = data[start + hlen:]
            if len(body) != size:
                raise ValueError(f"{name}: {len(body)} bytes for shape {header['shape']}")
            out[name.removesuffix(".npy")] = body
    return out
