"""The checker's own board (tsumego/proofs/stones.py): captures, suicide and occupied points
on diagrams, and the same positions and captures as the solver's board over random games."""

from __future__ import annotations

import random

import pytest

from tsumego.go.board import BLACK, WHITE, Board, IllegalMove
from tsumego.proofs.stones import IllegalPlay, Stones, each_point


def stones(diagram: str) -> Stones:
    rows = diagram.split()
    size = len(rows)
    black = white = 0
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "X":
                black |= 1 << (y * size + x)
            elif c == "O":
                white |= 1 << (y * size + x)
    return Stones(size, black, white)


def at(x: int, y: int, size: int = 5) -> int:
    return y * size + x


def test_a_play_takes_the_block_it_leaves_without_liberty() -> None:
    b = stones("""
        .XO..
        XO...
        .XO..
        .....
        .....""")
    # White at A5 fills the last liberty of Black's B5 (C5 and B4 are White's)
    cap = b.play(at(0, 0), WHITE)
    assert cap == 1 << at(1, 0)
    assert not b.black >> at(1, 0) & 1 and b.white >> at(0, 0) & 1


def test_suicide_and_occupied_points_are_refused_and_leave_the_board_unchanged() -> None:
    b = stones("""
        .O...
        O....
        .....
        .....
        .....""")
    before = (b.black, b.white)
    with pytest.raises(IllegalPlay, match="suicide"):
        b.play(at(0, 0), BLACK)
    with pytest.raises(IllegalPlay, match="occupied"):
        b.play(at(1, 0), BLACK)
    with pytest.raises(IllegalPlay, match="off the board"):
        b.play(25, BLACK)
    assert (b.black, b.white) == before
    # the same point is no suicide where it captures
    b = stones("""
        .OX..
        OX...
        X....
        .....
        .....""")
    assert b.play(at(0, 0), BLACK) == (1 << at(1, 0)) | (1 << at(0, 1))


def test_flood_and_spread() -> None:
    b = stones("""
        XX...
        .X...
        ...X.
        .....
        .....""")
    block = b.flood(1 << at(0, 0), b.black)
    assert set(each_point(block)) == {at(0, 0), at(1, 0), at(1, 1)}
    assert set(each_point(b.spread(1 << at(0, 0)))) == {at(1, 0), at(0, 1)}


@pytest.mark.parametrize("seed", range(40))
def test_random_games_agree_with_the_solver_board(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice((5, 7, 9))
    ours, theirs = Stones(size), Board(size)
    color = BLACK
    for _ in range(150):
        p = rng.randrange(size * size)
        try:
            want = theirs.play(p, color)
        except IllegalMove:
            with pytest.raises(IllegalPlay):
                ours.play(p, color)
        else:
            assert ours.play(p, color) == want
        assert (ours.black, ours.white) == (theirs.black, theirs.white)
        color = 3 - color
