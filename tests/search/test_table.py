"""The size-capped transposition tables (tsumego.search.table)."""

from __future__ import annotations

import pytest

from tsumego import BLACK, WHITE, problem_from_diagram, solve
from tsumego.search.table import NEG, POS, SolvedTable, Work, WorkTable

# --- SolvedTable: minw / maxb ------------------------------------------------------------------


def _bounds(t: SolvedTable, key: int) -> tuple[int, int, int]:
    """(minw, maxb, work) of an entry that is there."""
    e = t.get(key)
    assert e is not None
    return e.minw, e.maxb, e.work


def test_missing_key():
    t = SolvedTable(16)
    assert t.get(123) is None
    assert len(t) == 0


def test_black_win_lowers_maxb_only():
    t = SolvedTable(16)
    t.record(1, True, 2, 10)
    assert _bounds(t, 1) == (NEG, 2, 10)
    t.record(1, True, 3, 1)  # a win at a larger balance says nothing new
    assert _bounds(t, 1)[:2] == (NEG, 2)
    t.record(1, True, -1, 1)  # Black wins even with fewer threats
    assert _bounds(t, 1)[:2] == (NEG, -1)


def test_white_win_raises_minw_only():
    t = SolvedTable(16)
    t.record(7, False, -2, 5)
    assert _bounds(t, 7) == (-2, POS, 5)
    t.record(7, False, -3, 1)
    assert _bounds(t, 7)[:2] == (-2, POS)
    t.record(7, False, 1, 1)
    assert _bounds(t, 7)[:2] == (1, POS)


def test_both_bounds_on_one_key_and_work_accumulates():
    # a ko: White wins up to -1, Black from 0 on
    t = SolvedTable(16)
    t.record(9, True, 0, 100)
    t.record(9, False, -1, 30)
    minw, maxb, work = _bounds(t, 9)
    assert (minw, maxb) == (-1, 0)
    assert work == 130
    assert len(t) == 1


def test_infinities_are_outside_every_balance():
    assert NEG < -64 and POS > 64


def test_solved_table_cap_evicts_the_low_work_entries():
    t = SolvedTable(4)
    works = {10: 50, 11: 1, 12: 7, 13: 900}
    for k, w in works.items():
        t.record(k, True, 0, w)
    assert len(t) == 4
    t.record(14, False, 0, 3)  # full: the half with the least work goes first
    assert len(t) <= 4
    assert t.get(13) is not None  # the most valuable entry survives
    assert t.get(11) is None  # the cheapest goes
    assert _bounds(t, 14) == (0, POS, 3)  # the new entry is stored


def test_solved_table_never_exceeds_its_cap():
    t = SolvedTable(8)
    for k in range(100):
        t.record(k, k % 2 == 0, 0, k)
        assert len(t) <= 8
    # the survivors are the entries with the most work (the latest, here)
    assert t.get(99) is not None
    assert t.get(0) is None


def test_updating_an_existing_key_does_not_evict():
    t = SolvedTable(2)
    t.record(1, True, 0, 1)
    t.record(2, True, 0, 1)
    t.record(1, False, -1, 1)
    assert len(t) == 2 and _bounds(t, 1)[:2] == (-1, 0) and t.get(2) is not None


# --- WorkTable ---------------------------------------------------------------------------------


def test_work_table_store_update_discard():
    t = WorkTable(16)
    assert t.get(5) is None
    t.store(5, 3, 4, 10)
    assert t.get(5) == Work(3, 4, 10)
    t.store(5, 6, 2, 5)  # new numbers, work adds up
    assert t.get(5) == Work(6, 2, 15)
    t.discard(5)
    assert t.get(5) is None and len(t) == 0
    t.discard(5)  # discarding a missing key is fine


def test_work_table_cap_keeps_high_work_entries():
    t = WorkTable(4)
    for k, w in {1: 100, 2: 2, 3: 3, 4: 400}.items():
        t.store(k, 1, 1, w)
    t.store(5, 1, 1, 1)
    assert len(t) <= 4
    assert t.get(4) is not None  # the most work survives
    assert t.get(2) is None and t.get(3) is None  # the least work goes
    assert t.get(5) == Work(1, 1, 1)


def test_work_table_never_exceeds_its_cap():
    t = WorkTable(10)
    for k in range(1000):
        t.store(k, 1, 1, 1000 - k)  # older entries carry more work
        assert len(t) <= 10
    assert t.get(0) is not None  # the most work


# --- the tables under a real search --------------------------------------------------------------

STRAIGHT_THREE = """
    . . . . . .
    . . . . . .
    X X X X X .
    @ @ @ @ X .
    . . . @ X .
    . . . @ X .
"""


@pytest.mark.parametrize("tt_size", [1024, 4096])
def test_small_tables_give_the_same_answer(tt_size):
    p = problem_from_diagram(STRAIGHT_THREE)
    for color in (BLACK, WHITE):
        big = solve(p, to_play=color)
        small = solve(p, to_play=color, tt_size=tt_size)
        assert (small.winner, small.status, small.by_threats, small.moves) == (
            big.winner, big.status, big.by_threats, big.moves)


def test_solved_entries_keep_the_range_of_their_proof():
    # the proof's stone-count range rides along with the bound it proves
    t = SolvedTable(16)
    t.record(3, True, 0, 10, 5, 9)
    t.record(3, False, -2, 10, 4, 4)
    e = t.get(3)
    assert e is not None
    assert e.maxb == 0 and (e.black.lo, e.black.hi) == (5, 9)
    assert e.minw == -2 and (e.white.lo, e.white.hi) == (4, 4)
    # a proof at a lower balance replaces the range with its own
    t.record(3, True, -1, 10, 7, 8)
    assert e.maxb == -1 and (e.black.lo, e.black.hi) == (7, 8)


def test_a_scope_is_ko_free_exactly_when_its_bound_is_at_infinity():
    t = SolvedTable(16)
    t.record(4, True, 1, 10, 5, 9)
    t.record(4, False, POS, 10, 4, 4)
    e = t.get(4)
    assert e is not None and not e.black.kofree and e.white.kofree
    t.record(4, True, NEG, 1, 2, 3)
    assert e.black.kofree and (e.maxb, e.black.lo, e.black.hi) == (NEG, 2, 3)
