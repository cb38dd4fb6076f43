"""Static life and death: a target in atari that cannot escape (``lost_in_atari``).

Diagrams: ``X`` Black (the attacker), ``O`` White, ``@`` the White target, ``.`` an empty point
of the region, ``-`` an empty point outside it (every stone is in the region). White is to
move.
"""

from __future__ import annotations

from conftest import diagram_mask

from tsumego import WHITE
from tsumego.go.board import Board
from tsumego.go.life import lost_in_atari


def lost(diagram: str) -> bool:
    board = Board.from_diagram(diagram)
    target = diagram_mask(diagram, "@")
    region = diagram_mask(diagram, ".XO@")
    blocks = board.geo.flood(target, board.white)
    libs = board.geo.dilate(blocks) & board.empty
    assert libs.bit_count() == 1, "the target must be in atari"
    before = board.snapshot()
    answer = lost_in_atari(board, blocks, libs, region, WHITE)
    assert board.snapshot() == before, "the board must be left as it was"
    return answer


def test_filling_the_last_liberty_is_suicide():
    assert lost("""
        . @ X - - -
        @ @ X - - -
        X X X - - -
        - - - - - -
        - - - - - -
        - - - - - -
    """)


def test_an_adjacent_attacker_block_in_atari_is_a_way_out():
    # White captures the black wall at A3 (ad)
    assert not lost("""
        . @ X O - -
        @ @ X O - -
        X X X O - -
        . O O O - -
        - - - - - -
        - - - - - -
    """)


def test_extending_to_two_liberties_is_a_way_out():
    assert not lost("""
        X X X X X -
        X @ . . X -
        X X . X X -
        X X X X - -
        - - - - - -
        - - - - - -
    """)


def test_extending_to_one_liberty_is_still_lost():
    assert lost("""
        X X X X X -
        X @ . . X -
        X X X X X -
        - - - - - -
        - - - - - -
        - - - - - -
    """)


def test_a_last_liberty_outside_the_region_cannot_be_filled():
    assert not lost("""
        - @ X - - -
        @ @ X - - -
        X X X - - -
        - - - - - -
        - - - - - -
        - - - - - -
    """)


def test_an_extension_that_captures_counts_the_liberties_it_makes():
    # White's extension at B6 (ba) captures C6 (ca), which was not next to the target: the
    # new group's one liberty is C6, where Black captures it
    assert lost("""
        @ . X O - -
        X X O - - -
        - - - - - -
        - - - - - -
        - - - - - -
        - - - - - -
    """)


def test_a_capture_that_leaves_one_liberty_is_a_snapback():
    # White's play at E4 (eb) captures Black's E3 (ec), a stone next to the target, but leaves
    # the group one liberty, E3, where Black captures it
    assert lost("""
        O O X @ @
        . . X @ .
        X X X @ X
        O . . X O
        . O . . O
    """)
