"""Shape patterns learned during the search (tsumego.search.patterns): the pattern of a play,
the scale of its initial delta, and that both engines learn and scale alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tsumego import read_problem, solve
from tsumego.go.board import BLACK, WHITE, Board
from tsumego.go.coords import from_gtp
from tsumego.go.line import SIDE_KEY
from tsumego.search.engine import Engine, SearchOptions
from tsumego.search.patterns import (
    MIN_WINS,
    ONE,
    PATTERNS,
    SLOT_BITS,
    PatternCounts,
    pattern_key,
    pattern_of_play,
    pattern_slot,
    scaled_delta,
    target_liberties,
)

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"

CORNER = """
. O . . .
X X O . .
. . O . .
O O . . .
. . . . .
"""


class Digits:
    """A pattern key read back: the 8 neighbour digits (row above, beside, row below), the
    distance bits, the target's liberties after the play, the capture bit, the role bit."""

    def __init__(self, key: int) -> None:
        self.role, key = key & 1, key >> 1
        self.captures, key = key & 1, key >> 1
        self.libs, key = key & 3, key >> 2
        self.far, key = key & 1, key >> 1
        self.near, key = key & 1, key >> 1
        self.around = [key >> (2 * (7 - k)) & 3 for k in range(8)]


def test_the_pattern_reads_the_eight_neighbours_from_the_movers_side() -> None:
    b = Board.from_diagram(CORNER)
    p = 1 * 5 + 3  # the empty point right of the white stone at row 1
    near = 1 << p
    d = Digits(pattern_key(b, p, BLACK, near, near, 2, False, attacker=BLACK))
    # row above: (2,0) empty, (3,0) empty, (4,0) empty; beside: (2,1) O, (4,1) empty;
    # row below: (2,2) O, (3,2) empty, (4,2) empty -- for Black, White's stones are "2"
    assert d.around == [0, 0, 0, 2, 0, 2, 0, 0]
    assert (d.near, d.far, d.libs, d.captures, d.role) == (1, 1, 2, 0, 1)
    w = Digits(pattern_key(b, p, WHITE, 0, near, 3, True, attacker=BLACK))
    assert w.around == [0, 0, 0, 1, 0, 1, 0, 0]  # the same stones are White's own
    assert (w.near, w.far, w.libs, w.captures, w.role) == (0, 1, 3, 1, 0)


def test_off_the_board_is_its_own_digit() -> None:
    b = Board.from_diagram(CORNER)
    d = Digits(pattern_key(b, 0, BLACK, 0, 0, 0, False, attacker=WHITE))  # the corner point
    assert d.around == [3, 3, 3, 3, 2, 3, 1, 1]
    assert all(0 <= pattern_key(b, p, c, -1, -1, 3, True, BLACK) < PATTERNS for p in range(25)
               for c in (BLACK, WHITE))


# White's corner block (B6, A5, B5) is the target: three
# liberties (A6, C6, C5); White's stone at C4 is in atari, Black captures it at C5
TARGET = """
. O . . . .
O O . X . .
X X O X . .
. . X . . .
. . . . . .
. . . . . .
"""


def test_a_play_is_read_by_playing_it() -> None:
    """The distance to the target, the target's liberties after the play and the capture
    come from the board before and after the play."""
    board = Board.from_diagram(TARGET)
    target = 1 << from_gtp("B6", 6)
    assert target_liberties(board, target, WHITE) == 3

    def read(gtp: str, color: int) -> Digits:
        return Digits(pattern_of_play(board, from_gtp(gtp, 6), color, target, WHITE))

    c6 = read("C6", BLACK)  # a liberty taken: two left
    assert (c6.near, c6.far, c6.libs, c6.captures, c6.role) == (1, 1, 2, 0, 1)
    c5 = read("C5", BLACK)  # takes a liberty and captures C4
    assert (c5.near, c5.libs, c5.captures) == (1, 2, 1)
    joined = read("C5", WHITE)  # the defender joins C4, which brings no liberty
    assert (joined.near, joined.libs, joined.captures, joined.role) == (1, 2, 0, 0)
    d6 = read("D6", BLACK)  # next to a liberty, not one
    assert (d6.near, d6.far, d6.libs) == (0, 1, 3)
    e3 = read("E3", BLACK)
    assert (e3.near, e3.far) == (0, 0)
    assert board.diagram() == Board.from_diagram(TARGET).diagram()  # left as it was


def test_the_expansion_keeps_the_liberties_of_each_child() -> None:
    """What the expansion offers a play under is what the play counts under when it
    proves a node: its children hold the target's liberties after the play."""
    for path in sorted(PROBLEMS.glob("*.sgf"))[:6]:
        problem = read_problem(path).problem
        engine = Engine(problem)
        board = engine.board
        for color in (BLACK, WHITE):
            ex = engine._expand(color)
            for p, h in zip(ex.moves, ex.hashes):
                if p < 0:
                    continue
                snap = board.snapshot()
                board.play_fast(p, color)
                want = target_liberties(board, problem.target, problem.defender)
                board.undo(snap)
                child = engine._children[h ^ SIDE_KEY[color]]
                assert child.libs == want, (path.name, p, color)


def test_the_slots_spread_the_patterns() -> None:
    """Patterns share a slot only by a hash collision: the 262,144 patterns of plays beside
    the target leaving it one or two liberties (every arrangement of the 8 neighbours, both
    roles), half as many as the slots, nearly all fall in slots of their own."""
    keys = [((around * 2 + 1) * 2 + 1) * 16 + libs * 4 + role
            for around in range(1 << 16) for libs in (1, 2) for role in (0, 1)]
    slots = {pattern_slot(k) for k in keys}
    assert all(0 <= s < 1 << SLOT_BITS for s in slots)
    assert len(slots) > 0.95 * len(keys)


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
    assert counts.total_wins == MIN_WINS and counts.wins[pattern_slot(7)] == MIN_WINS
    for _ in range(1000):
        counts.offer(9, 80)
    d = counts.offer(7, 80)  # offered once, won 50 times, where the mean is 5%: the floor
    assert counts.avail[pattern_slot(7)] == 1 and counts.total_avail == 1001 and d == 20
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
