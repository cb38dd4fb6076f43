"""Point notation: SGF (``aa`` = top-left, column first) and GTP (``A19``, no ``I``)."""

from __future__ import annotations

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
