"""The problem model: a position, the target, the roles and the region (rules.md).

This module knows nothing about files; :mod:`tsumego.io.sgf` builds problems from SGF and the
tests build them from diagrams.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tsumego.errors import InputError
from tsumego.go.board import BLACK, WHITE, Board, bits, color_name, geometry, opponent


class ProblemError(InputError):
    """A problem that cannot be set up (no target, no safe wall, illegal setup...)."""


@dataclass(frozen=True)
class Problem:
    """A walled life-and-death problem under the rules of rules.md.

    ``target`` is the mask of every target stone (every stone of every marked block);
    ``region`` the mask of points where plays are allowed; ``walls`` the safe wall stones.
    """

    size: int
    black: int
    white: int
    target: int
    region: int
    walls: int
    to_play: int
    name: str = ""

    @property
    def defender(self) -> int:
        return BLACK if self.black & self.target else WHITE

    @property
    def attacker(self) -> int:
        return opponent(self.defender)

    @property
    def region_empty(self) -> int:
        """How many points of the region are empty: the size of the problem, as the inference
        and the readings count it."""
        return (self.region & ~(self.black | self.white)).bit_count()

    def board(self) -> Board:
        """A fresh board with the problem's stones."""
        return Board.from_stones(self.size, self.black, self.white)

    def with_to_play(self, color: int) -> Problem:
        """The same problem with another side to play."""
        return Problem(self.size, self.black, self.white, self.target, self.region, self.walls,
                       color, self.name)

    def diagram(self) -> str:
        """Board diagram: X/O stones, target stones as # (black) / @ (white), region points
        that are empty as '.', empty points outside the region as ' '-less '-'."""
        b = self.board()
        marks: dict[int, str] = {}
        for p in bits(self.target):
            marks[p] = "#" if b.color_at(p) == BLACK else "@"
        for p in bits(b.empty & ~self.region):
            marks[p] = "-"
        return b.diagram(marks)


def derive_region(board: Board, target: int) -> tuple[int, int]:
    """The region and the safe walls of a marked problem (rules.md, "Marked problems" a-c).

    ``target`` holds the defender's target stones (``SQ`` stubs must already be on the board).
    Raises :class:`ProblemError` when no attacker block qualifies as a safe wall.
    """
    geo = board.geo
    defender = board.color_at((target & -target).bit_length() - 1)
    attacker_stones = board.stones(opponent(defender))
    passable = geo.full & ~attacker_stones
    # a. 8-neighbour flood from the target through points without attacker stones
    zone = target
    frontier = target
    while frontier:
        grow = 0
        for p in bits(frontier):
            grow |= geo.nbr8_mask[p]
        grow &= passable & ~zone
        zone |= grow
        frontier = grow
    region = zone
    walls = 0
    empty = board.empty
    adjacent = geo.dilate(zone) & attacker_stones
    rest = adjacent
    while rest:
        blk = geo.flood(rest & -rest, attacker_stones)
        rest &= ~blk
        libs = geo.dilate(blk) & empty
        outside = libs & ~zone
        if outside & (outside - 1):  # two or more liberties outside the zone
            walls |= blk
        else:  # b. capturable: its stones and liberties join the region
            region |= blk | libs
    if not walls:
        raise ProblemError("there is no safe wall: no attacker block next to the problem has "
                           "two or more liberties outside it")
    return region, walls


def walls_around(board: Board, region: int, attacker: int) -> int:
    """The wall stones of a region given as it is: every attacker block (its stones outside
    the region) that touches the region from outside."""
    geo = board.geo
    stones = board.stones(attacker) & ~region
    rest = geo.dilate(region) & stones
    walls = 0
    while rest:
        blk = geo.flood(rest & -rest, stones)
        walls |= blk
        rest &= ~blk
    return walls


def make_problem(
    board: Board,
    target_points: Sequence[int],
    *,
    to_play: int,
    squares: Sequence[int] = (),
    name: str = "",
    region: int | None = None,
) -> Problem:
    """Build a marked problem: validate the setup, fill ``squares`` (SQ) with attacker stones,
    take every block through a marked point as the target and derive the region, or use
    ``region`` as it is when the file states it (``TSREGION``: a solution tree of a framed
    problem, whose region was cut to its frame)."""
    if not target_points:
        raise ProblemError("no target: mark a stone of the group in question with MA")
    colors = {board.color_at(p) for p in target_points}
    if 0 in colors:
        p = next(p for p in target_points if board.color_at(p) == 0)
        from tsumego.go.coords import to_sgf

        raise ProblemError(f"MA[{to_sgf(p, board.size)}] marks an empty point")
    if len(colors) > 1:
        raise ProblemError("MA marks stones of both colours")
    defender = colors.pop()
    b = board.copy()
    for p in squares:
        if b.color_at(p) == 0:
            b.place(p, opponent(defender))
    geo = b.geo
    for color in (BLACK, WHITE):
        for blk in b.blocks(color):
            if not geo.dilate(blk) & b.empty:
                from tsumego.go.coords import to_sgf

                p = (blk & -blk).bit_length() - 1
                raise ProblemError(
                    f"illegal setup: the {color_name(color)} block at "
                    f"{to_sgf(p, b.size)} has no liberties")
    target = 0
    for p in target_points:
        target |= b.block(p)
    if region is not None:
        if target & ~region:
            raise ProblemError("the stated region (TSREGION) does not hold the whole target")
        walls = walls_around(b, region, opponent(defender))
    else:
        region, walls = derive_region(b, target)
    return Problem(b.size, b.black, b.white, target, region, walls, to_play, name)


def problem_from_diagram(text: str, *, to_play: int = BLACK, name: str = "") -> Problem:
    """A problem from a diagram where the target stones are written ``#`` (black) or ``@``
    (white), other stones ``X``/``O``, stubs to fill ``+`` (SQ) and empty points ``.``."""
    lines = [ln.replace(" ", "") for ln in text.strip().splitlines() if ln.strip()]
    size = len(lines)
    if any(len(ln) != size for ln in lines):
        raise ValueError("diagram is not square")
    geometry(size)
    b = Board(size)
    targets: list[int] = []
    squares: list[int] = []
    for y, ln in enumerate(lines):
        for x, ch in enumerate(ln):
            p = y * size + x
            if ch in "X#":
                b.place(p, BLACK)
            elif ch in "O@":
                b.place(p, WHITE)
            if ch in "#@":
                targets.append(p)
            elif ch == "+":
                squares.append(p)
    return make_problem(b, targets, to_play=to_play, squares=squares, name=name)
