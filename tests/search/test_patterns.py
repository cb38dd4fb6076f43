"""Shape patterns learned during the search (tsumego.search.patterns): the pattern of a play,
the scale of its initial delta, and that both engines learn and scale alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tsumego import read_problem, solve
from tsumego.go.board import BLACK, WHITE, Board
from tsumego.search.engine import SearchOptions
from tsumego.search.patterns import (
    MIN_WINS,
    ONE,
    PATTERNS,
    PatternCounts,
    pattern_key,
    scaled_delta,
)

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"

CORNER = """
. O . . .
X X O . .
. . O . .
O O . . .
. . . . .
"""


def digits(key: int) -> tuple[list[int], int, int]:
    """The 8 neighbour digits (row above, beside, row below), the contact bit, the role bit."""
    role, key = key & 1, key >> 1
    contact, key = key & 1, key >> 1
    return [key >> (2 * (7 - k)) & 3 for k in range(8)], contact, role


def test_the_pattern_reads_the_eight_neighbours_from_the_movers_side() -> None:
    b = Board.from_diagram(CORNER)
    p = 1 * 5 + 3  # the empty point right of the white stone at row 1
    near = 1 << p
    around, contact, role = digits(pattern_key(b, p, BLACK, near, attacker=BLACK))
    # row above: (2,0) empty, (3,0) empty, (4,0) empty; beside: (2,1) O, (4,1) empty;
    # row below: (2,2) O, (3,2) empty, (4,2) empty -- for Black, White's stones are "2"
    assert around == [0, 0, 0, 2, 0, 2, 0, 0]
    assert (contact, role) == (1, 1)
    around_w, contact_w, role_w = digits(pattern_key(b, p, WHITE, 0, attacker=BLACK))
    assert around_w == [0, 0, 0, 1, 0, 1, 0, 0]  # the same stones are White's own
    assert (contact_w, role_w) == (0, 0)


def test_off_the_board_is_its_own_digit() -> None:
    b = Board.from_diagram(CORNER)
    around, _, _ = digits(pattern_key(b, 0, BLACK, 0, attacker=WHITE))  # the corner point
    assert around == [3, 3, 3, 3, 2, 3, 1, 1]
    assert all(0 <= pattern_key(b, p, c, 0, BLACK) < PATTERNS for p in range(25)
               for c in (BLACK, WHITE))


def test_nothing_is_scaled_before_enough_proofs() -> None:
    assert scaled_delta(7, 0, 1, MIN_WINS - 1, 1000, 4) == 7
    assert scaled_delta(7, 5, 6, 10**6, 10**7, 0) == 7  # turned off


def test_a_pattern_that_wins_often_is_tried_sooner() -> None:
    # the mean: 100 wins in 1000 offers (10%); this pattern won 50 of 60 offers
    assert scaled_delta(80, 50, 60, 100, 1000, 4) < 80
    # a pattern offered often and never winning is put off, and a new one stays near the mean
    assert scaled_delta(80, 0, 60, 100, 1000, 4) > 80
    assert scaled_delta(80, 0, 1, 100, 1000, 4) == 80 * (100 * 6 * ONE // (5 * 100)) // ONE


def test_the_scale_is_clamped_and_never_zero() -> None:
    assert scaled_delta(80, 1000, 1000, 1000, 10**6, 4) == 20  # at most 4 times smaller
    assert scaled_delta(80, 0, 10**5, 1000, 10**6, 4) == 320  # at most 4 times larger
    assert scaled_delta(1, 1000, 1000, 1000, 10**6, 4) == 1
    assert scaled_delta(1, 1000, 1000, 1000, 10**6, 1) == 1  # strength 1: counts only


def test_counts_offer_then_scale() -> None:
    counts = PatternCounts(4)
    for _ in range(MIN_WINS):
        counts.won(7)
    assert counts.total_wins == MIN_WINS and counts.wins[7] == MIN_WINS
    for _ in range(1000):
        counts.offer(9, 80)
    d = counts.offer(7, 80)  # offered once, won 50 times, where the mean is 5%: the floor
    assert counts.avail[7] == 1 and counts.total_avail == 1001 and d == 20
    assert counts.offer(9, 80) == 320  # offered 1,001 times and never won: the ceiling


@pytest.mark.parametrize("strength", [0, 1, 2, 4])
def test_the_strength_keeps_the_answers(strength: int) -> None:
    """The scale only orders the search: the composed problems' answers, every first move
    included, are the same at every strength."""
    for path in sorted(PROBLEMS.glob("*.sgf"))[:10]:
        p = read_problem(path).problem
        for color in (BLACK, WHITE):
            base = solve(p, to_play=color, options=SearchOptions(patterns=0))
            got = solve(p, to_play=color, options=SearchOptions(patterns=strength))
            assert (got.status, got.by_threats, got.moves) == (
                base.status, base.by_threats, base.moves), (path.name, color)


def test_a_negative_strength_is_refused() -> None:
    with pytest.raises(ValueError, match="patterns"):
        SearchOptions(patterns=-1)
