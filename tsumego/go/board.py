"""Go board as Python-int bitboards.

A point is an index ``p = y * size + x`` (``x`` the column from the left, ``y`` the row from the
top, as in SGF). A set of points is an ``int`` with bit ``p`` set. Everything that depends only
on the board size lives in a :class:`Geometry`, built once per size and shared.

The board knows nothing about history or ko: repetition is a property of a *game*, so the
history is kept by the caller (the search, or :mod:`tsumego.game`) and passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

from tsumego.errors import TsumegoError

# The board and the search use plain ints for the colours (an IntEnum member costs more in
# every comparison of the search's inner loops); :class:`Color` equals them.
BLACK = 1
WHITE = 2
EMPTY = 0


class Color(IntEnum):
    """A player's colour, as the library returns it: equal to the integers ``BLACK`` (1) and
    ``WHITE`` (2) that the board uses, printed as a word::

        >>> Color.BLACK == BLACK, str(Color.WHITE), Color.BLACK.opponent, Color.parse("w")
        (True, 'White', Color.WHITE, Color.WHITE)
    """

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``"B"`` or ``"W"``, as in SGF and GTP."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def parse(cls, name: str) -> Color:
        """``B``/``W``/``black``/``white`` in any case."""
        return cls(color_from_name(name))

    def __str__(self) -> str:
        return "Black" if self is Color.BLACK else "White"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Color.{self.name}"

MIN_SIZE = 2
MAX_SIZE = 19

_ZOBRIST_SEED = 0x7573_6D65_676F  # fixed: keys are stable across runs and processes


def opponent(color: int) -> int:
    """The other colour (BLACK <-> WHITE)."""
    return 3 - color


def color_name(color: int) -> str:
    """'B' or 'W'."""
    return "B" if color == BLACK else "W"


def color_from_name(name: str) -> int:
    """Parse 'B'/'W' (any case, or 'black'/'white')."""
    n = name.strip().lower()
    if n in ("b", "black"):
        return BLACK
    if n in ("w", "white"):
        return WHITE
    raise ValueError(f"not a colour: {name!r}")


class IllegalMove(TsumegoError, ValueError):
    """Raised by the checked :meth:`Board.play` for an occupied point, a suicide or a bad point."""


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Geometry:
    """Precomputed tables for one board size."""

    size: int
    full: int
    not_left: int  # points not in the first column
    not_right: int  # points not in the last column
    neighbours: tuple[tuple[int, ...], ...]
    nbr_mask: tuple[int, ...]
    nbr8_mask: tuple[int, ...]
    # per point: (bit, neighbour mask) of each edge neighbour, for the play's capture test
    nbr_bits: tuple[tuple[tuple[int, int], ...], ...]
    zobrist: tuple[tuple[int, int, int], ...] = field(repr=False)
    # dilate(m): m plus its edge neighbours; flood(seed, within): the edge-connected part of
    # ``within`` reached from ``seed``. Closures over the constants: the hottest code there is.
    dilate: Callable[[int], int] = field(repr=False, compare=False)
    flood: Callable[[int, int], int] = field(repr=False, compare=False)
    # spread(m): the points with an edge neighbour in m (m itself only where it touches m)
    spread: Callable[[int], int] = field(repr=False, compare=False)
    # dead(seed, within, empty): the block of ``within`` through ``seed`` if it has no liberty
    # in ``empty``, else 0; the flood stops at the first liberty it meets
    dead: Callable[[int, int, int], int] = field(repr=False, compare=False)


    def point(self, x: int, y: int) -> int:
        """Index of column ``x``, row ``y``."""
        return y * self.size + x

    def xy(self, p: int) -> tuple[int, int]:
        """(column, row) of index ``p``."""
        return p % self.size, p // self.size

    def rect(self, x0: int, y0: int, x1: int, y1: int) -> int:
        """The mask of columns x0..x1 and rows y0..y1 (inclusive, clipped to the board)."""
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(self.size - 1, x1), min(self.size - 1, y1)
        if x0 > x1 or y0 > y1:
            return 0
        row = ((1 << (x1 - x0 + 1)) - 1) << x0
        mask = 0
        for y in range(y0, y1 + 1):
            mask |= row << y * self.size
        return mask

    def bbox(self, mask: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1): the smallest rectangle holding every point of ``mask`` (not
        empty), worked out row by row."""
        size = self.size
        full_row = (1 << size) - 1
        rows = [y for y in range(size) if mask >> y * size & full_row]
        cols = 0  # the columns used, as one row's mask
        for y in rows:
            cols |= mask >> y * size & full_row
        return (cols & -cols).bit_length() - 1, rows[0], cols.bit_length() - 1, rows[-1]

    def parts(self, seeds: int, within: int) -> list[int]:
        """The edge-connected parts of ``within`` that hold a point of ``seeds``."""
        out = []
        rest = seeds & within
        while rest:
            part = self.flood(rest & -rest, within)
            out.append(part)
            rest &= ~part
        return out



@cache
def geometry(size: int) -> Geometry:
    """The shared :class:`Geometry` for ``size`` (2..19)."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    n = size * size
    full = (1 << n) - 1
    left_col = 0
    right_col = 0
    for y in range(size):
        left_col |= 1 << (y * size)
        right_col |= 1 << (y * size + size - 1)
    neighbours: list[tuple[int, ...]] = []
    nbr_mask: list[int] = []
    nbr8_mask: list[int] = []
    for p in range(n):
        x, y = p % size, p // size
        nb = []
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= x + dx < size and 0 <= y + dy < size:
                nb.append((y + dy) * size + x + dx)
        neighbours.append(tuple(nb))
        m = 0
        for q in nb:
            m |= 1 << q
        nbr_mask.append(m)
        m8 = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and 0 <= x + dx < size and 0 <= y + dy < size:
                    m8 |= 1 << ((y + dy) * size + x + dx)
        nbr8_mask.append(m8)
    not_left = full & ~left_col
    not_right = full & ~right_col

    def dilate(m: int) -> int:
        return m | ((m << 1) & not_left) | ((m >> 1) & not_right) | ((m << size) & full) | (
            m >> size)

    def spread(m: int) -> int:
        return ((m << 1) & not_left) | ((m >> 1) & not_right) | ((m << size) & full) | (
            m >> size)

    def flood(seed: int, within: int) -> int:
        m = seed & within
        while True:
            n = (m | ((m << 1) & not_left) | ((m >> 1) & not_right) | ((m << size) & full)
                 | (m >> size)) & within
            if n == m:
                return m
            m = n

    def dead(seed: int, within: int, empty: int) -> int:
        m = seed
        while True:
            n = (m | ((m << 1) & not_left) | ((m >> 1) & not_right) | ((m << size) & full)
                 | (m >> size))
            if n & empty:
                return 0
            n &= within
            if n == m:
                return m
            m = n

    rng = random.Random(_ZOBRIST_SEED)
    zobrist = tuple((0, rng.getrandbits(64), rng.getrandbits(64)) for _ in range(n))
    return Geometry(
        size=size,
        full=full,
        not_left=not_left,
        not_right=not_right,
        neighbours=tuple(neighbours),
        nbr_mask=tuple(nbr_mask),
        nbr8_mask=tuple(nbr8_mask),
        nbr_bits=tuple(tuple((1 << q, nbr_mask[q]) for q in nb) for nb in neighbours),
        zobrist=zobrist,
        dilate=dilate,
        flood=flood,
        spread=spread,
        dead=dead,
    )


# An undo record: the board's (black, white, hash) before a play.
Undo = tuple[int, int, int]


class Board:
    """Stones of both colours as bitboards, with an incremental Zobrist hash of the arrangement.

    ``play`` is checked and raises :class:`IllegalMove`; ``play_fast`` is the search's unchecked
    path (the point must be empty and on the board) and returns the captured mask or -1 for a
    suicide, leaving the board unchanged in that case. ``undo`` restores a record from
    :meth:`snapshot`.
    """

    __slots__ = ("geo", "size", "black", "white", "hash")

    def __init__(self, size: int) -> None:
        self.geo = geometry(size)
        self.size = size
        self.black = 0
        self.white = 0
        self.hash = 0

    # --- construction and inspection -------------------------------------------------------
    @classmethod
    def from_stones(cls, size: int, black: int, white: int) -> Board:
        """A board holding the stones of two bitboards (a point in both is White's, as if
        placed last): as :meth:`place` for each stone, without the per-stone work."""
        b = cls(size)
        black &= ~white
        z = b.geo.zobrist
        h = 0
        for p in bits(black):
            h ^= z[p][BLACK]
        for p in bits(white):
            h ^= z[p][WHITE]
        b.black, b.white, b.hash = black, white, h
        return b

    def copy(self) -> Board:
        """An independent copy."""
        b = Board.__new__(Board)
        b.geo, b.size = self.geo, self.size
        b.black, b.white, b.hash = self.black, self.white, self.hash
        return b

    def stones(self, color: int) -> int:
        """Bitboard of ``color``'s stones."""
        return self.black if color == BLACK else self.white

    @property
    def occupied(self) -> int:
        return self.black | self.white

    @property
    def empty(self) -> int:
        return self.geo.full & ~(self.black | self.white)

    def color_at(self, p: int) -> int:
        """BLACK, WHITE or EMPTY."""
        bit = 1 << p
        if self.black & bit:
            return BLACK
        if self.white & bit:
            return WHITE
        return EMPTY

    def place(self, p: int, color: int) -> None:
        """Put a stone without any rule (setup). Replaces what was there."""
        self.remove(p)
        bit = 1 << p
        if color == BLACK:
            self.black |= bit
        elif color == WHITE:
            self.white |= bit
        else:
            return
        self.hash ^= self.geo.zobrist[p][color]

    def remove(self, p: int) -> None:
        """Clear a point without any rule (setup)."""
        c = self.color_at(p)
        if c != EMPTY:
            bit = 1 << p
            self.black &= ~bit
            self.white &= ~bit
            self.hash ^= self.geo.zobrist[p][c]

    def block(self, p: int) -> int:
        """The block (edge-connected stones of one colour) through ``p``; 0 if empty."""
        c = self.color_at(p)
        if c == EMPTY:
            return 0
        return self.geo.flood(1 << p, self.stones(c))

    def liberties(self, block: int) -> int:
        """Empty points edge-adjacent to ``block``."""
        return self.geo.dilate(block) & self.empty

    def blocks(self, color: int) -> list[int]:
        """All blocks of ``color``."""
        stones = self.stones(color)
        return self.geo.parts(stones, stones)

    def snapshot(self) -> Undo:
        """A record for :meth:`undo`."""
        return (self.black, self.white, self.hash)

    def undo(self, rec: Undo) -> None:
        """Restore a :meth:`snapshot`."""
        self.black, self.white, self.hash = rec

    # --- playing -----------------------------------------------------------------------------
    def play_fast(self, p: int, color: int) -> int:
        """Play ``color`` at empty point ``p``. Returns the captured mask (0 for none), or -1 for
        a suicide (the board is then unchanged). No checks that ``p`` is empty."""
        geo = self.geo
        bit = 1 << p
        if color == BLACK:
            own = self.black | bit
            opp = self.white
        else:
            own = self.white | bit
            opp = self.black
        empty = geo.full & ~(own | opp)
        captured = 0
        nbrs = geo.nbr_mask[p]
        for qb, qn in geo.nbr_bits[p]:
            if opp & qb and not captured & qb:
                # quick test: a neighbour of q is empty -> the block has a liberty
                if qn & empty:
                    continue
                captured |= geo.dead(qb, opp, empty)
        h = self.hash ^ geo.zobrist[p][color]
        if captured:
            opp &= ~captured
            oc = 3 - color
            z = geo.zobrist
            for q in bits(captured):
                h ^= z[q][oc]
        elif not nbrs & empty:
            # no empty neighbour and nothing captured: suicide unless a friendly block has a liberty
            if geo.dead(bit, own, empty):
                return -1
        if color == BLACK:
            self.black, self.white = own, opp
        else:
            self.white, self.black = own, opp
        self.hash = h
        return captured

    def play(self, p: int, color: int) -> int:
        """Checked play: raises :class:`IllegalMove` for a bad point, an occupied point or a
        suicide. Returns the captured mask. (Repetition is the caller's concern.)"""
        if color not in (BLACK, WHITE):
            raise IllegalMove(f"not a colour: {color}")
        if not 0 <= p < self.size * self.size:
            raise IllegalMove(f"point {p} is off the board")
        if (self.black | self.white) >> p & 1:
            raise IllegalMove(f"point {p} is occupied")
        captured = self.play_fast(p, color)
        if captured < 0:
            raise IllegalMove(f"point {p} is suicide")
        return captured

    # --- text ----------------------------------------------------------------------------------
    def diagram(self, marks: dict[int, str] | None = None) -> str:
        """ASCII diagram: X black, O white, . empty; ``marks`` overrides single points."""
        rows = []
        for y in range(self.size):
            row = []
            for x in range(self.size):
                p = y * self.size + x
                if marks and p in marks:
                    row.append(marks[p])
                    continue
                c = self.color_at(p)
                row.append("X" if c == BLACK else "O" if c == WHITE else ".")
            rows.append(" ".join(row))
        return "\n".join(rows)

    @classmethod
    def from_diagram(cls, text: str) -> Board:
        """Parse rows of ``X``/``O``/``.`` (spaces ignored; other characters count as empty)."""
        lines = [ln.replace(" ", "") for ln in text.strip().splitlines() if ln.strip()]
        size = len(lines)
        if any(len(ln) != size for ln in lines):
            raise ValueError("diagram is not square")
        b = cls(size)
        for y, ln in enumerate(lines):
            for x, ch in enumerate(ln):
                if ch in "Xx#":
                    b.place(y * size + x, BLACK)
                elif ch in "Oo@":
                    b.place(y * size + x, WHITE)
        return b

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self.size == other.size
            and self.black == other.black
            and self.white == other.white
        )

    def __hash__(self) -> int:
        return self.hash

    def __repr__(self) -> str:
        return f"Board({self.size})\n{self.diagram()}"
