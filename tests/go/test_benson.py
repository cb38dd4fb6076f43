"""Benson's unconditional life: diagrams, and the optimised ``benson_alive`` against a plain
textbook version on random boards.

Diagrams: ``X`` Black, ``O`` White, ``.`` empty (``-`` is empty too).
"""

from __future__ import annotations

import random

from tsumego import BLACK, WHITE
from tsumego.go.board import Board
from tsumego.go.life import benson_alive, never_vital, target_benson_alive


def alive(diagram: str, color: int = WHITE) -> int:
    return benson_alive(Board.from_diagram(diagram), color)


def test_two_one_point_eyes_live():
    board = Board.from_diagram("""
        . O . O X
        O O O O X
        X X X X X
        . . . . .
        . . . . .
    """)
    assert benson_alive(board, WHITE) == board.white
    assert target_benson_alive(board, board.white, WHITE)


def test_one_eye_does_not_live():
    assert alive("""
        . O O O X
        O O O O X
        X X X X X
        . . . . .
        . . . . .
    """) == 0


def test_an_eye_with_a_point_that_is_no_liberty_is_not_vital():
    # the 3x3 space's centre touches no white stone: Black could play there, so the space is
    # not vital, and one small eye is not enough
    assert alive("""
        . . . O . O
        . . . O O O
        . . . O X X
        O O O O X .
        X X X X X .
        . . . . . .
    """) == 0


def _reference(board: Board, color: int) -> int:
    """Benson's algorithm as written in textbooks: every region, every block, iterate."""
    geo = board.geo
    own = board.stones(color)
    empty = board.empty
    others = geo.full & ~own
    blocks = board.blocks(color)
    regions = []
    rest = others
    while rest:
        r = geo.flood(rest & -rest, others)
        regions.append(r)
        rest &= ~r
    libs = [geo.dilate(b) & empty for b in blocks]
    live_b = set(range(len(blocks)))
    live_r = set(range(len(regions)))
    while True:
        vital = {bi: [ri for ri in live_r if geo.dilate(regions[ri]) & blocks[bi]
                      and regions[ri] & empty & ~libs[bi] == 0] for bi in live_b}
        drop_b = {bi for bi in live_b if len(vital[bi]) < 2}
        live_b -= drop_b
        drop_r = {ri for ri in live_r
                  if any(geo.dilate(regions[ri]) & blocks[bi] for bi in drop_b)}
        live_r -= drop_r
        if not drop_b and not drop_r:
            break
    out = 0
    for bi in live_b:
        out |= blocks[bi]
    return out


def test_benson_alive_agrees_with_the_textbook_version_on_random_boards():
    rng = random.Random(7)
    alive_seen = 0
    for n in range(3000):
        size = rng.choice((5, 6, 7, 9))
        board = Board(size)
        density = rng.uniform(0.3, 0.8)
        for p in range(size * size):
            if rng.random() < density:
                color = WHITE if rng.random() < 0.6 else BLACK
                board.play_fast(p, color)  # a suicide leaves the point empty
        for color in (BLACK, WHITE):
            got = benson_alive(board, color)
            assert got == _reference(board, color), (n, color)
            alive_seen += got != 0
    assert alive_seen > 100  # the boards are not all dead: the comparison means something


def _random_board(rng: random.Random, size: int) -> Board:
    board = Board(size)
    density = rng.uniform(0.3, 0.8)
    for p in range(size * size):
        if rng.random() < density:
            board.play_fast(p, WHITE if rng.random() < 0.6 else BLACK)
    return board


def test_target_answer_agrees_with_the_whole_board_answer():
    # target_benson_alive stops as soon as a target block is sure to die: its answer must
    # still be the whole algorithm's, for targets of one block, several blocks, or stones
    rng = random.Random(11)
    alive_seen = 0
    for n in range(3000):
        board = _random_board(rng, rng.choice((5, 6, 7, 9)))
        for color in (BLACK, WHITE):
            own = board.stones(color)
            if not own:
                continue
            stones = [p for p in range(board.size ** 2) if own >> p & 1]
            target = 0
            for p in rng.sample(stones, rng.randint(1, min(3, len(stones)))):
                target |= 1 << p
            whole = benson_alive(board, color)
            assert target_benson_alive(board, target, color) == (target & whole == target), n
            alive_seen += target & whole == target
    assert alive_seen > 50


def test_the_outside_hint_never_changes_the_answer():
    # never_vital's points, computed once, hold on every board that plays inside the region
    # reach (captures included), and Benson seeded with them answers as without them
    rng = random.Random(5)
    used = 0
    for n in range(400):
        size = rng.choice((6, 7, 9))
        board = _random_board(rng, size)
        x0, y0 = rng.randrange(size - 2), rng.randrange(size - 2)
        x1, y1 = rng.randrange(x0 + 2, size + 1), rng.randrange(y0 + 2, size + 1)
        region = 0
        for y in range(y0, y1):
            for x in range(x0, x1):
                region |= 1 << (y * size + x)
        color = rng.choice((BLACK, WHITE))
        outside = never_vital(board, region, color)
        assert not outside & region and not outside & board.stones(color)
        used += outside != 0
        for _ in range(30):
            assert benson_alive(board, color, outside) == benson_alive(board, color), n
            empty = [p for p in range(size * size) if (board.empty & region) >> p & 1]
            if not empty:
                break
            board.play_fast(rng.choice(empty), rng.choice((BLACK, WHITE)))
    assert used > 100
