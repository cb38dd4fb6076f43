"""The created arrangements of a stored proof, and when the proof may be used on a path.

A proof stored for a position may play into an arrangement that the current path already holds
(the move is then illegal by repetition): ``_fits`` must refuse it then, and may accept it
only when the path's stone counts miss the proof's range or its exact set misses the path.
"""

from __future__ import annotations

import pytest

from tsumego.search.engine import NO_RANGE, SearchOptions, _fits, _merge_created

CAP = SearchOptions().created_max


def _seen(*counts: int) -> int:
    m = 0
    for c in counts:
        m |= 1 << c
    return m


def test_an_empty_range_fits_every_path() -> None:
    assert _fits(NO_RANGE, -1, frozenset(), _seen(5, 6, 7), {1: 0, 2: 1})


def test_counts_outside_the_range_fit_without_the_set() -> None:
    # the path holds arrangements of 5..7 stones, the proof creates some of 8..10
    assert _fits(8, 10, None, _seen(5, 6, 7), {1: 0})
    assert _fits(2, 4, None, _seen(5, 6, 7), {1: 0})


def test_overlapping_counts_need_the_exact_set() -> None:
    path = {101: 0, 202: 1, 303: 2}
    seen = _seen(5, 6, 7)
    assert not _fits(6, 9, None, seen, path)  # unknown set: refused
    assert _fits(6, 9, frozenset({404, 505}), seen, path)  # the set misses the path
    assert not _fits(6, 9, frozenset({404, 202}), seen, path)  # it plays into 202


def test_merge_keeps_the_exact_set_up_to_the_cap() -> None:
    lo, hi, created = _merge_created(NO_RANGE, -1, frozenset(), 9, 77, 10, 12,
                                     frozenset({1, 2}), CAP)
    assert (lo, hi, created) == (9, 12, frozenset({1, 2, 77}))
    # a capture of the target (no count) adds no arrangement
    lo, hi, created = _merge_created(lo, hi, created, NO_RANGE, 88, NO_RANGE, -1, frozenset(),
                                     CAP)
    assert (lo, hi, created) == (9, 12, frozenset({1, 2, 77}))
    big = frozenset(range(1000, 1000 + CAP - 1))
    _, _, at_cap = _merge_created(NO_RANGE, -1, frozenset(), 9, 5, 10, 12, big, CAP)
    assert at_cap is not None and len(at_cap) == CAP
    _, _, over = _merge_created(NO_RANGE, -1, at_cap, 9, 6, NO_RANGE, -1, frozenset(), CAP)
    assert over is None  # past the cap only the range is kept
    assert CAP >= 4096  # smaller caps searched large proofs again (README)
    # a cap of 0 keeps ranges only
    assert _merge_created(NO_RANGE, -1, frozenset(), 9, 5, 10, 12, frozenset({1}), 0)[2] is None


def test_an_unknown_set_stays_unknown() -> None:
    lo, hi, created = _merge_created(3, 4, frozenset({1}), 5, 9, 6, 8, None, CAP)
    assert (lo, hi, created) == (3, 8, None)
    lo, hi, created = _merge_created(lo, hi, created, 2, 10, NO_RANGE, -1, frozenset(), CAP)
    assert (lo, hi, created) == (2, 8, None)


def test_a_negative_cap_is_refused() -> None:
    with pytest.raises(ValueError, match="created_max"):
        SearchOptions(created_max=-1)
