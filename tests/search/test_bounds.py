"""Proof/disproof-number arithmetic (tsumego.search.bounds): phi is the proof number of "the side to
move wins", delta its disproof number; a node's phi is its children's least delta and its delta
the capped sum of their phi."""

from __future__ import annotations

from tsumego.search.bounds import (
    BIG,
    INF,
    LOSS,
    NO_DEP,
    WIN,
    Bounds,
    child_thresholds,
    deferred_deltas,
    killer_delta,
    node_bounds,
    select_child,
    solved_dependency,
)

# --- Bounds ------------------------------------------------------------------------------------


def test_win_and_loss_constants():
    assert WIN == Bounds(0, INF) and WIN.proved and WIN.solved and not WIN.disproved
    assert LOSS == Bounds(INF, 0) and LOSS.disproved and LOSS.solved and not LOSS.proved
    open_ = Bounds(3, 4)
    assert not open_.proved and not open_.disproved and not open_.solved


def test_no_dep_is_beyond_any_real_depth():
    assert NO_DEP > 100_000


# --- node_bounds -------------------------------------------------------------------------------


def test_no_children_is_a_loss():
    assert node_bounds([], []) == LOSS


def test_phi_is_the_least_child_delta_and_delta_the_sum_of_child_phis():
    assert node_bounds([3, 1, 4], [2, 5, 7]) == Bounds(2, 8)
    assert node_bounds([1], [1]) == Bounds(1, 1)


def test_a_child_that_loses_makes_the_node_a_win():
    # a child with delta 0 is a position the opponent (to move there) loses
    b = node_bounds([INF, 2], [0, 3])
    assert b.proved and b.delta == INF


def test_every_child_winning_for_the_opponent_makes_a_loss():
    b = node_bounds([0, 0, 0], [INF, INF, INF])
    assert b.disproved and b.phi == INF


def test_a_sum_of_finite_numbers_stays_finite():
    # numbers inflated round a cycle must not read as a proof (INF): they stop at BIG
    assert node_bounds([INF - 1, INF - 1], [5, 6]) == Bounds(5, BIG)
    assert node_bounds([BIG, BIG, 7], [5, 6, 9]) == Bounds(5, BIG)
    assert not node_bounds([BIG, BIG], [BIG, BIG]).solved
    # a child the opponent cannot win (phi INF) is the only way to an infinite delta
    assert node_bounds([INF, 1], [5, 6]).delta == INF


# --- select_child ----------------------------------------------------------------------------


def test_select_child_takes_the_least_delta_and_reports_the_second():
    assert select_child([5, 2, 7, 3], [1, 1, 1, 1]) == (1, 3)
    assert select_child([3, 1], [1, 1]) == (1, 3)
    assert select_child([1, 3], [1, 1]) == (0, 3)


def test_select_child_ties_go_to_the_largest_phi_then_the_first():
    assert select_child([4, 2, 2, 9], [1, 1, 1, 1]) == (1, 2)
    assert select_child([4, 2, 2, 9], [1, 3, 5, 8]) == (2, 2)
    assert select_child([2, 2, 2], [4, 6, 6]) == (1, 2)
    assert select_child([2, 5, 2], [9, 1, 1]) == (0, 2)  # a larger phi off the tie: no matter
    assert select_child([4, 2, 2, 9], [1, 3, 5, 8], by_phi=False) == (1, 2)


def test_select_child_with_one_child():
    assert select_child([7], [3]) == (0, INF)


def test_select_child_agrees_with_sorting():
    import random

    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 6)
        ds = [rng.randint(0, 6) for _ in range(n)]
        ps = [rng.randint(0, 6) for _ in range(n)]
        best, second = select_child(ds, ps)
        tied = [i for i in range(n) if ds[i] == min(ds)]
        assert best == min(tied, key=lambda i: (-ps[i], i))
        rest = ds[:best] + ds[best + 1:]
        assert second == (min(rest) if rest else INF)


# --- deferred_deltas (the pass searched last) ------------------------------------------------


def test_a_deferred_child_is_neither_selected_nor_the_node_phi_while_another_is_open():
    # three plays and the pass (last, delta 1): the pass would be the most proving child
    ds = deferred_deltas([4, 6, 5, 1], 3)
    assert ds == [4, 6, 5, INF]
    assert select_child(ds, [2, 2, 2, 2]) == (0, 5)
    # the node's delta still sums every child's phi, the pass's among them
    assert node_bounds([2, 2, 2, 3], ds) == Bounds(4, 9)


def test_a_deferred_child_comes_in_once_every_other_child_is_lost():
    # every play refuted (delta INF: the opponent proved it): the pass is searched
    assert deferred_deltas([INF, INF, 3], 2) == [INF, INF, 3]
    assert select_child([INF, INF, 3], [0, 0, 5]) == (2, INF)
    assert node_bounds([0, 0, 5], [INF, INF, 3]) == Bounds(3, 5)


def test_a_deferred_child_already_won_proves_the_node():
    assert deferred_deltas([4, 0], 1) == [4, 0]
    assert node_bounds([1, INF], [4, 0]).proved


def test_a_deferred_child_lost_changes_nothing():
    assert deferred_deltas([4, INF], 1) == [4, INF]


def test_a_node_is_disproved_only_with_its_deferred_child():
    # the plays are lost (delta INF), the pass still open: not disproved
    ds = deferred_deltas([INF, INF, 2], 2)
    assert not node_bounds([0, 0, 7], ds).solved
    assert node_bounds([0, 0, 0], deferred_deltas([INF, INF, INF], 2)) == Bounds(INF, 0)


def test_deferring_keeps_the_input():
    ds = [3, 1]
    deferred_deltas(ds, 1)
    assert ds == [3, 1]


# --- child_thresholds ------------------------------------------------------------------------


def test_child_thresholds_without_epsilon():
    # phi threshold keeps the node's delta under th_delta; delta threshold: one more than the
    # second-best delta, but never beyond the node's own phi threshold
    assert child_thresholds(10, 20, 8, 3, 4, 0.0) == Bounds(15, 5)
    assert child_thresholds(3, 20, 8, 3, 4, 0.0) == Bounds(15, 3)


def test_child_thresholds_with_epsilon():
    # 1+epsilon: the child may run until its delta exceeds (1+eps) * second delta
    assert child_thresholds(10, 20, 8, 3, 4, 0.25) == Bounds(15, 6)  # int(4*1.25)+1
    assert child_thresholds(10, 20, 8, 3, 4, 0.5) == Bounds(15, 7)  # int(4*1.5)+1
    assert child_thresholds(6, 20, 8, 3, 4, 0.5) == Bounds(15, 6)  # capped by th_phi
    assert child_thresholds(100, 20, 8, 3, 10, 0.25) == Bounds(15, 13)


def test_child_thresholds_with_a_single_child():
    # no second child: the child inherits the node's phi threshold
    assert child_thresholds(10, 20, 8, 3, INF, 0.0) == Bounds(15, 10)
    assert child_thresholds(10, 20, 8, 3, INF, 0.25) == Bounds(15, 10)
    assert child_thresholds(INF, INF, 1, 1, INF, 0.25) == Bounds(INF, INF)


def test_child_phi_threshold_is_capped_at_inf():
    b = child_thresholds(INF, INF, 2, 7, 3, 0.0)
    assert b.phi == INF
    assert b.delta == 4


def test_an_unbounded_delta_threshold_leaves_the_child_phi_unbounded():
    # a node whose delta is a sum capped at BIG, under no delta threshold (INF): a child whose
    # phi is as inflated (numbers round a cycle) must not get a threshold one above its phi,
    # or the node grows it by one at a time and never stops
    assert child_thresholds(131, INF, BIG, 820544246811192, 120, 0.0) == Bounds(INF, 121)
    assert child_thresholds(131, INF, 112, 3, 120, 0.0).phi == INF
    # a bounded one still keeps the node's delta under it
    assert child_thresholds(131, 10**6, 112, 3, 120, 0.0).phi == 10**6 - 109


def test_epsilon_never_lowers_the_threshold():
    for second in (1, 2, 3, 10, 1000):
        plain = child_thresholds(10**6, 10**6, 5, 5, second, 0.0)
        grown = child_thresholds(10**6, 10**6, 5, 5, second, 0.25)
        assert grown.delta >= plain.delta == second + 1
        assert grown.phi == plain.phi


# --- solved_dependency -----------------------------------------------------------------------
# Arguments: proved, child_deltas, child_deps, extra_dep (smallest index among the plays that
# repetition made illegal), depth.


def test_win_takes_the_largest_index_among_winning_children():
    deltas = [0, 3, 0, 0]  # children 0, 2 and 3 are lost for the opponent: winning moves
    deps = [5, 8, 7, 2]  # child 1 (not winning) must be ignored
    assert solved_dependency(True, deltas, deps, NO_DEP, 10) == 7


def test_win_with_a_path_independent_winning_child_is_path_independent():
    deltas = [0, 0]
    deps = [3, NO_DEP]
    assert solved_dependency(True, deltas, deps, NO_DEP, 10) == NO_DEP


def test_win_ignores_the_repetition_index():
    # illegal plays do not matter to a win
    assert solved_dependency(True, [0], [4], 1, 10) == 4


def test_loss_takes_the_smallest_index_including_repetition():
    deltas = [INF, INF, INF]
    deps = [5, 3, 8]
    assert solved_dependency(False, deltas, deps, NO_DEP, 10) == 3
    assert solved_dependency(False, deltas, deps, 4, 10) == 3
    assert solved_dependency(False, deltas, deps, 2, 10) == 2


def test_loss_without_children_depends_on_the_repetition_only():
    assert solved_dependency(False, [], [], NO_DEP, 4) == NO_DEP
    assert solved_dependency(False, [], [], 1, 4) == 1


def test_loss_with_path_independent_children_is_path_independent():
    assert solved_dependency(False, [INF, INF], [NO_DEP, NO_DEP], NO_DEP, 3) == NO_DEP


def test_index_below_the_node_is_inside_its_own_subtree():
    # an index deeper than the node refers to a position inside its own subtree
    assert solved_dependency(True, [0], [6], NO_DEP, 5) == NO_DEP
    assert solved_dependency(False, [INF], [9], 7, 5) == NO_DEP
    assert solved_dependency(False, [INF], [NO_DEP], 6, 5) == NO_DEP


def test_index_equal_to_the_depth_counts_as_the_node_itself():
    # The node's own position repeated recurs on every path into the node: NO_DEP. (A stored
    # proof can still collide with a path that already holds an arrangement it creates; the
    # table guards that with stone-count ranges. test_rules.py checks the kos end to end: the
    # first version, without that guard, gave wrong ko results across balances.)
    assert solved_dependency(True, [0], [5], NO_DEP, 5) == NO_DEP
    assert solved_dependency(False, [INF], [NO_DEP], 5, 5) == NO_DEP


def test_index_above_the_node_is_kept():
    assert solved_dependency(True, [0], [4], NO_DEP, 5) == 4
    assert solved_dependency(False, [INF], [NO_DEP], 0, 5) == 0


# --- the killer play ---------------------------------------------------------------------------


def test_the_killer_play_starts_closer_to_a_proof():
    assert killer_delta(80, 4) == 20
    assert killer_delta(81, 4) == 20  # floored


def test_the_killer_play_never_reads_as_a_proof():
    assert killer_delta(3, 4) == 1
    assert killer_delta(1, 16) == 1


def test_a_divisor_of_0_or_1_leaves_the_delta():
    assert killer_delta(80, 0) == 80
    assert killer_delta(80, 1) == 80
