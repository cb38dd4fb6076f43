"""Point notation: SGF (``aa`` = top-left, column first) and GTP (``A19``, no ``I``)."""

from __future__ import annotations

from collections.abc import Iterable

PASS = -1  # the move index of a pass
_GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def to_sgf(p: int, size: int) -> str:
    """``p`` as an SGF point, or ``"pass"``."""
    if p == PASS:
        return "pass"
    x, y = p % size, p // size
    return chr(ord("a") + x) + chr(ord("a") + y)


def from_sgf(s: str, size: int) -> int:
    """Parse an SGF point (``""``, ``"tt"`` on small boards and ``"pass"`` mean a pass)."""
    if s in ("", "pass") or (s == "tt" and size <= 19):
        return PASS
    if len(s) != 2 or not s.isalpha():
        raise ValueError(f"not an SGF point: {s!r}")
    x, y = ord(s[0].lower()) - ord("a"), ord(s[1].lower()) - ord("a")
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"SGF point {s!r} is off a {size}x{size} board")
    return y * size + x


def to_gtp(p: int, size: int) -> str:
    """``p`` as a GTP vertex (``A19`` is top-left), or ``"pass"``."""
    if p == PASS:
        return "pass"
    x, y = p % size, p // size
    return f"{_GTP_COLUMNS[x]}{size - y}"


def from_gtp(s: str, size: int) -> int:
    """Parse a GTP vertex or ``pass``."""
    t = s.strip().upper()
    if t == "PASS":
        return PASS
    if len(t) < 2 or t[0] not in _GTP_COLUMNS or not t[1:].isdigit():
        raise ValueError(f"not a GTP vertex: {s!r}")
    x = _GTP_COLUMNS.index(t[0])
    y = size - int(t[1:])
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"GTP vertex {s!r} is off a {size}x{size} board")
    return y * size + x


def parse_point(s: str, size: int) -> int:
    """Either notation: GTP when it starts with a letter followed by digits, else SGF."""
    t = s.strip()
    if len(t) >= 2 and t[1:].isdigit():
        return from_gtp(t, size)
    return from_sgf(t, size)


class Point(int):
    """A point of a board of ``size``, or the pass: the board index (``row * size + col``,
    ``PASS`` for a pass) that knows its board size, so that it prints and converts as a
    point.

    Being an int, a Point works wherever the package takes a board index and equals that
    index: compare Points of one board. ``str()`` gives the GTP vertex, ``repr()`` both
    notations::

        >>> p = Point.from_gtp("B2", 6)
        >>> p, p.sgf, p.gtp, p.col, p.row
        (Point('B2', 'be'), 'be', 'B2', 1, 4)
        >>> Point.from_sgf("pass", 6).is_pass
        True
    """

    size: int

    def __new__(cls, index: int, size: int) -> Point:
        if not 1 <= size <= len(_GTP_COLUMNS):
            raise ValueError(f"board size {size} is outside 1..{len(_GTP_COLUMNS)}")
        if index != PASS and not 0 <= index < size * size:
            raise ValueError(f"point {index} is off a {size}x{size} board")
        self = super().__new__(cls, index)
        object.__setattr__(self, "size", size)
        return self

    @classmethod
    def at(cls, col: int, row: int, size: int) -> Point:
        """The point in column ``col`` (0 at the left) and row ``row`` (0 at the top, as in
        SGF)."""
        if not (0 <= col < size and 0 <= row < size):
            raise ValueError(f"column {col}, row {row} is off a {size}x{size} board")
        return cls(row * size + col, size)

    @classmethod
    def from_sgf(cls, s: str, size: int) -> Point:
        """Parse an SGF point (``""``, ``"pass"`` and, on boards up to 19, ``"tt"`` are the
        pass)."""
        return cls(from_sgf(s, size), size)

    @classmethod
    def from_gtp(cls, s: str, size: int) -> Point:
        """Parse a GTP vertex (``A19`` is the top-left corner on 19x19) or ``pass``."""
        return cls(from_gtp(s, size), size)

    @property
    def is_pass(self) -> bool:
        return int(self) == PASS

    @property
    def col(self) -> int:
        """The column, 0 at the left (``A`` in GTP, ``a`` in SGF); -1 for the pass."""
        return -1 if self.is_pass else int(self) % self.size

    @property
    def row(self) -> int:
        """The row, 0 at the top (``a`` in SGF, ``size`` in GTP); -1 for the pass."""
        return -1 if self.is_pass else int(self) // self.size

    @property
    def sgf(self) -> str:
        """The SGF point (``"pass"`` for the pass, as the JSON output writes it)."""
        return to_sgf(int(self), self.size)

    @property
    def gtp(self) -> str:
        """The GTP vertex, or ``"pass"``."""
        return to_gtp(int(self), self.size)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Point cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Point cannot be changed")

    def __reduce__(self) -> tuple[type[Point], tuple[int, int]]:
        return Point, (int(self), self.size)

    def __str__(self) -> str:
        return self.gtp

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        if self.is_pass:
            return "Point('pass')"
        return f"Point({self.gtp!r}, {self.sgf!r})"


def points(moves: Iterable[int], size: int) -> tuple[Point, ...]:
    """Board indices (or ``PASS``) as :class:`Point` s."""
    return tuple(Point(m, size) for m in moves)
