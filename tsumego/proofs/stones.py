"""The checker's own board: stones, captures and legality, written apart from the solver's.

The solver's :class:`tsumego.go.board.Board` is built for speed (bitboard floods, Zobrist
keys, unchecked fast plays). The checker must not trust it: a bug there would be a bug in
both the proofs and their check. So this board is written the plain way, point by point:
each point has its list of neighbours, a block is found by a walk over them, and a play
captures the neighbouring enemy blocks left without a liberty, then refuses a suicide. Its
positions are the same two stone masks (bit ``y * size + x``), so that an arrangement is a
pair of integers, as the checker's histories and the rules' repetition need.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from tsumego.errors import InputError
from tsumego.go.board import BLACK, WHITE


class IllegalPlay(InputError):
    """A play the rules forbid on the board: off the board, on a stone, or a suicide."""


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For each point of a ``size`` board, the points next to it (up, left, right, down)."""
    out = []
    for p in range(size * size):
        x, y = p % size, p // size
        near = []
        if y > 0:
            near.append(p - size)
        if x > 0:
            near.append(p - 1)
        if x < size - 1:
            near.append(p + 1)
        if y < size - 1:
            near.append(p + size)
        out.append(tuple(near))
    return tuple(out)


def each_point(mask: int) -> Iterator[int]:
    """The points of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Stones:
    """A position: the black and the white stones of a ``size`` board, as point masks."""

    __slots__ = ("size", "black", "white", "_near")

    def __init__(self, size: int, black: int = 0, white: int = 0) -> None:
        if black & white:
            raise ValueError("a point holds a black and a white stone")
        self.size = size
        self.black = black
        self.white = white
        self._near = neighbours(size)

    @property
    def full(self) -> int:
        """Every point of the board."""
        return (1 << self.size * self.size) - 1

    @property
    def empty(self) -> int:
        return self.full & ~(self.black | self.white)

    def stones(self, color: int) -> int:
        return self.black if color == BLACK else self.white

    def copy(self) -> Stones:
        return Stones(self.size, self.black, self.white)

    def flood(self, seed: int, within: int) -> int:
        """The points of ``within`` connected to those of ``seed`` inside it."""
        found = seed & within
        todo = list(each_point(found))
        near = self._near
        while todo:
            for q in near[todo.pop()]:
                if within >> q & 1 and not found >> q & 1:
                    found |= 1 << q
                    todo.append(q)
        return found

    def spread(self, mask: int) -> int:
        """The points next to a point of ``mask``."""
        out = 0
        near = self._near
        for p in each_point(mask):
            for q in near[p]:
                out |= 1 << q
        return out

    def _breathes(self, p: int, own: int, occupied: int) -> tuple[int, bool]:
        """The block of ``own`` stones holding ``p``, and whether it has a liberty (the walk
        stops at the first liberty it sees: then the block is not needed)."""
        block = 1 << p
        todo = [p]
        near = self._near
        while todo:
            for q in near[todo.pop()]:
                if not occupied >> q & 1:
                    return block, True
                if own >> q & 1 and not block >> q & 1:
                    block |= 1 << q
                    todo.append(q)
        return block, False

    def play(self, p: int, color: int) -> int:
        """Put a ``color`` stone on ``p``, take the enemy blocks it leaves without a liberty,
        and return their points. Raises :class:`IllegalPlay` for a point off the board or
        taken, or a suicide (then the board is unchanged). Repetition is the caller's."""
        if color not in (BLACK, WHITE):
            raise IllegalPlay(f"not a colour: {color}")
        if not 0 <= p < self.size * self.size:
            raise IllegalPlay(f"point {p} is off the board")
        bit = 1 << p
        if (self.black | self.white) & bit:
            raise IllegalPlay(f"point {p} is occupied")
        own, enemy = (self.black, self.white) if color == BLACK else (self.white, self.black)
        own |= bit
        occupied = own | enemy
        captured = 0
        for q in self._near[p]:
            if enemy >> q & 1 and not captured >> q & 1:
                block, free = self._breathes(q, enemy, occupied)
                if not free:
                    captured |= block
        if captured:
            enemy &= ~captured
        elif not self._breathes(p, own, occupied)[1]:
            raise IllegalPlay(f"point {p} is suicide")
        if color == BLACK:
            self.black, self.white = own, enemy
        else:
            self.white, self.black = own, enemy
        return captured
