"""Region derivation for marked problems (rules.md, "Problem files" 1a-1d).

Problems are diagrams: ``@``/``#`` target stones (white/black), ``O``/``X`` other stones,
``+`` an SQ stub (filled with an attacker stone), ``.`` empty. The expected region is a second
diagram of the same size where ``*`` marks the region points.
"""

from __future__ import annotations

import pytest
from conftest import diagram_mask, pt, sgf_set

from tsumego import BLACK, WHITE, Board, ProblemError, make_problem, problem_from_diagram


def region_of(expected: str) -> int:
    return diagram_mask(expected, "*")


def assert_region(problem, expected: str) -> None:
    want = region_of(expected)
    got = problem.region
    assert got == want, (
        f"\nderived region:\n{problem.diagram()}\n"
        f"missing: {sorted(sgf_set(want & ~got, problem.size))}\n"
        f"extra:   {sorted(sgf_set(got & ~want, problem.size))}")


# --- the basic corner -----------------------------------------------------------------------------


def test_corner_region_is_the_enclosed_area():
    p = problem_from_diagram("""
        . . . X . .
        @ @ . X . .
        X X X X . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    assert_region(p, """
        * * * . . .
        * * * . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    assert sgf_set(p.target, 6) == {"ab", "bb"}
    assert p.defender == WHITE and p.attacker == BLACK
    assert sgf_set(p.walls, 6) == {"da", "db", "dc", "cc", "bc", "ac"}


def test_black_target_white_attacker():
    p = problem_from_diagram("""
        . # . O . .
        # # . O . .
        O O O O . .
        . . . . . .
        . . . . . .
        . . . . . .
    """, to_play=WHITE)
    assert p.defender == BLACK and p.attacker == WHITE
    assert p.to_play == WHITE
    assert_region(p, """
        * * * . . .
        * * * . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)


# --- a. the 8-neighbour flood ---------------------------------------------------------------------


def test_flood_passes_a_diagonal_gap():
    # cc touches the corner area only diagonally (through the gap between bb's neighbours
    # cb and bc); the 8-neighbour flood reaches it anyway
    p = problem_from_diagram("""
        . . X . . . .
        @ . X X . . .
        X X . X . . .
        X X X X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    assert_region(p, """
        * * . . . . .
        * * . . . . .
        . . * . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)


def test_flood_passes_defender_stones_that_are_not_targets():
    p = problem_from_diagram("""
        . @ . O X .
        @ @ . O X .
        X X X X X .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    assert_region(p, """
        * * * * . .
        * * * * . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    assert sgf_set(p.target, 6) == {"ba", "ab", "bb"}  # the O stones are not targets


# --- b. capturable attacker blocks ----------------------------------------------------------------


def test_attacker_stone_inside_the_eye_space_joins_the_region():
    # the black stone at aa has no liberty outside the zone: capturable
    p = problem_from_diagram("""
        X . @ X . .
        . @ @ X . .
        @ @ X X . .
        X X X . . .
        . . . . . .
        . . . . . .
    """)
    assert_region(p, """
        * * * . . .
        * * * . . .
        * * . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    assert not p.walls & (1 << pt("aa", 6))


def test_attacker_block_with_one_outside_liberty_joins_with_its_liberties():
    # The zone is the column d. The black column c has a single liberty outside the zone (bc:
    # the other points of column b hold white stones), so it is capturable: its stones and
    # that liberty join the region. The black column e has the whole column f: a safe wall.
    p = problem_from_diagram("""
        . O X . X . .
        . O X @ X . .
        . . X @ X . .
        . O X . X . .
        . O X . X . .
        . O X . X . .
        . O X . X . .
    """)
    assert_region(p, """
        . . * * . . .
        . . * * . . .
        . * * * . . .
        . . * * . . .
        . . * * . . .
        . . * * . . .
        . . * * . . .
    """)
    assert sgf_set(p.walls, 7) == {f"e{r}" for r in "abcdefg"}


def test_attacker_block_with_two_outside_liberties_is_a_wall():
    # as above, but the black column c now has two liberties outside (bc and bf): a wall
    p = problem_from_diagram("""
        . O X . X . .
        . O X @ X . .
        . . X @ X . .
        . O X . X . .
        . O X . X . .
        . . X . X . .
        . O X . X . .
    """)
    assert_region(p, """
        . . . * . . .
        . . . * . . .
        . . . * . . .
        . . . * . . .
        . . . * . . .
        . . . * . . .
        . . . * . . .
    """)
    assert sgf_set(p.walls, 7) == {f"{c}{r}" for c in "ce" for r in "abcdefg"}


# --- c. no safe wall ------------------------------------------------------------------------------


def test_wall_with_one_outside_liberty_is_not_safe():
    # the only black block has one liberty outside the corner (ea): not a safe wall
    with pytest.raises(ProblemError, match="no safe wall"):
        problem_from_diagram("""
            . @ . X .
            . . . X O
            . . . X O
            X X X X O
            O O O O O
        """)


def test_the_same_wall_with_two_outside_liberties_is_safe():
    p = problem_from_diagram("""
        . @ . X .
        . . . X .
        . . . X O
        X X X X O
        O O O O O
    """)
    assert_region(p, """
        * * * . .
        * * * . .
        * * * . .
        . . . . .
        . . . . .
    """)


def test_no_attacker_stones_at_all():
    with pytest.raises(ProblemError, match="no safe wall"):
        problem_from_diagram("""
            . @ . .
            . . . .
            . . . .
            . . . .
        """)


def test_leaking_wall_is_not_safe():
    # the gap at dc lets the zone spread over the whole board
    with pytest.raises(ProblemError, match="no safe wall"):
        problem_from_diagram("""
            . @ . X . .
            @ @ . X . .
            . . . . . .
            X X X X . .
            . . . . . .
            . . . . . .
        """)


# --- d. SQ stubs ----------------------------------------------------------------------------------


def test_sq_stub_plugs_the_hole_in_the_wall():
    p = problem_from_diagram("""
        . @ . X . .
        @ @ . X . .
        . . . + . .
        X X X X . .
        . . . . . .
        . . . . . .
    """)
    assert_region(p, """
        * * * . . .
        * * * . . .
        * * * . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    # the stub is filled with an attacker stone and is part of the wall
    assert p.black >> pt("dc", 6) & 1
    assert p.walls >> pt("dc", 6) & 1
    assert p.board().color_at(pt("dc", 6)) == BLACK


def test_sq_stub_takes_the_attacker_colour():
    p = problem_from_diagram("""
        . # . O . .
        # # . O . .
        . . . + . .
        O O O O . .
        . . . . . .
        . . . . . .
    """)
    assert p.board().color_at(pt("dc", 6)) == WHITE
    assert_region(p, """
        * * * . . .
        * * * . . .
        * * * . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)


def test_sq_on_a_stone_leaves_it():
    b = Board.from_diagram("""
        . O . X . .
        O O . X . .
        . . . X . .
        X X X X . .
        . . . . . .
        . . . . . .
    """)
    p = make_problem(b, [pt("ba", 6)], to_play=BLACK, squares=[pt("da", 6)])
    assert p.black == b.black and p.white == b.white


# --- targets --------------------------------------------------------------------------------------


def test_one_marked_stone_marks_its_whole_block():
    b = Board.from_diagram("""
        . O . X . .
        O O . X . .
        X X X X . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    p = make_problem(b, [pt("ab", 6)], to_play=BLACK)
    assert sgf_set(p.target, 6) == {"ba", "ab", "bb"}


def test_several_marked_blocks_are_all_targets():
    p = problem_from_diagram("""
        . @ . @ X .
        @ @ . @ X .
        X X X X X .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    assert sgf_set(p.target, 6) == {"ba", "ab", "bb", "da", "db"}
    assert_region(p, """
        * * * * . .
        * * * * . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)


def test_several_marked_blocks_in_separate_areas():
    # two target blocks in different corners, each enclosed by its own wall
    p = problem_from_diagram("""
        . @ X . X @ .
        @ @ X . X @ @
        X X X . X X X
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    assert_region(p, """
        * * . . . * *
        * * . . . * *
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)


def test_ma_on_an_empty_point_is_an_error():
    b = Board.from_diagram("""
        . O . X
        O O . X
        X X X X
        . . . .
    """)
    with pytest.raises(ProblemError, match="empty point"):
        make_problem(b, [pt("aa", 4)], to_play=BLACK)


def test_no_mark_is_an_error():
    b = Board.from_diagram("""
        . O . X
        O O . X
        X X X X
        . . . .
    """)
    with pytest.raises(ProblemError, match="no target"):
        make_problem(b, [], to_play=BLACK)


def test_marks_on_both_colours_are_an_error():
    b = Board.from_diagram("""
        . O . X
        O O . X
        X X X X
        . . . .
    """)
    with pytest.raises(ProblemError, match="both colours"):
        make_problem(b, [pt("ba", 4), pt("da", 4)], to_play=BLACK)


@pytest.mark.parametrize("diagram", [
    # a black stone without liberties
    """
    X O . . .
    O . . X .
    . . @ X .
    X X X X .
    . . . . .
    """,
    # a white (defender) block without liberties, not the target
    """
    O O X . .
    X X . X .
    . @ . X .
    X X X X .
    . . . . .
    """,
    # the target itself without liberties
    """
    @ X . . .
    X . . X .
    . . . X .
    X X X X .
    . . . . .
    """,
])
def test_setup_block_without_liberties_is_an_error(diagram):
    with pytest.raises(ProblemError, match="no liberties"):
        problem_from_diagram(diagram)


def test_problem_error_is_a_value_error():
    assert issubclass(ProblemError, ValueError)


def test_problem_board_and_with_to_play():
    p = problem_from_diagram("""
        . @ . X
        @ @ . X
        X X X X
        . . . .
    """)
    b = p.board()
    assert b.black == p.black and b.white == p.white
    q = p.with_to_play(WHITE)
    assert q.to_play == WHITE and q.region == p.region and q.target == p.target
