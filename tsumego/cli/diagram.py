"""Board diagrams for people: the problem's stones and region with coordinates on both axes
(GTP column letters, which skip ``I``, and row numbers as printed on a board: 1 at the
bottom) and a legend in words that names only the symbols the diagram uses."""

from __future__ import annotations

from tsumego.go.board import BLACK, WHITE, bits
from tsumego.go.coords import _GTP_COLUMNS
from tsumego.go.problem import Problem

# symbol -> its meaning, in the order the legend lists them
LEGEND = {
    "X": "Black",
    "O": "White",
    "#": "the target (Black)",
    "@": "the target (White)",
    "x": "Black stone added around a plain problem (the frame)",
    "o": "White stone added around a plain problem (the frame)",
    ".": "empty point of the region (where the plays are)",
    "-": "empty point outside the region",
    "*": "a correct first move",
}


def cells(problem: Problem, frame: int = 0, marks: dict[int, str] | None = None
          ) -> list[list[str]]:
    """One symbol per point (see :data:`LEGEND`), rows from the top; ``marks`` overrides
    points."""
    size = problem.size
    grid = [["." for _ in range(size)] for _ in range(size)]
    for color, stones in ((BLACK, problem.black), (WHITE, problem.white)):
        for p in bits(stones):
            if problem.target >> p & 1:
                sym = "#" if color == BLACK else "@"
            elif frame >> p & 1:
                sym = "x" if color == BLACK else "o"
            else:
                sym = "X" if color == BLACK else "O"
            grid[p // size][p % size] = sym
    empty = ~(problem.black | problem.white) & ((1 << size * size) - 1)
    for p in bits(empty & ~problem.region):
        grid[p // size][p % size] = "-"
    for p, sym in (marks or {}).items():
        grid[p // size][p % size] = sym
    return grid


def crop_box(problem: Problem, frame: int = 0) -> tuple[int, int, int, int]:
    """Columns and rows ``(x0, y0, x1, y1)`` that show the region, the walls and the frame
    with one line around them (the whole board when they reach most of it)."""
    size = problem.size
    keep = problem.region | problem.walls | frame | problem.target
    if not keep:
        return 0, 0, size - 1, size - 1
    xs = [p % size for p in bits(keep)]
    ys = [p // size for p in bits(keep)]
    return (max(0, min(xs) - 1), max(0, min(ys) - 1), min(size - 1, max(xs) + 1),
            min(size - 1, max(ys) + 1))


def labelled(grid: list[list[str]], box: tuple[int, int, int, int] | None = None) -> str:
    """``grid`` (rows of one-character cells) inside ``box`` with column letters above and
    below and row numbers on both sides."""
    size = len(grid)
    x0, y0, x1, y1 = box if box is not None else (0, 0, size - 1, size - 1)
    width = len(str(size))
    letters = " " * (width + 1) + " ".join(_GTP_COLUMNS[x] for x in range(x0, x1 + 1))
    lines = [letters]
    for y in range(y0, y1 + 1):
        n = str(size - y).rjust(width)
        lines.append(f"{n} " + " ".join(grid[y][x0:x1 + 1]) + f" {n}")
    lines.append(letters)
    return "\n".join(lines)


def legend(text: str, width: int = 92) -> str:
    """The legend of the symbols that ``text`` (a diagram) uses, in words, in lines of at
    most ``width`` characters."""
    body = "\n".join(text.splitlines()[1:-1])  # the rows, without the column letters
    items = [f"{sym} {LEGEND[sym]}" for sym in LEGEND if sym in body]
    lines = ["  "]
    for i, item in enumerate(items):
        piece = item + (";" if i < len(items) - 1 else "")
        if len(lines[-1]) > 2 and len(lines[-1]) + 1 + len(piece) > width:
            lines.append("  ")
        lines[-1] += ("" if len(lines[-1]) == 2 else " ") + piece
    return "\n".join(lines)


def problem_diagram(problem: Problem, frame: int = 0, marks: dict[int, str] | None = None,
                    *, crop: bool = True) -> str:
    """The diagram of ``problem`` with coordinates, cropped to the problem (see
    :func:`crop_box`) unless ``crop`` is false, and its legend on the last line."""
    box = crop_box(problem, frame) if crop else None
    text = labelled(cells(problem, frame, marks), box)
    return text + "\n" + legend(text)
