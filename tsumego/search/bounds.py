"""Proof/disproof numbers in the negamax ("phi/delta") form of df-pn, as small pure functions.

For a node, ``phi`` is the proof number of "the side to move wins" and ``delta`` its disproof
number. A node's ``phi`` is the least ``delta`` of its children and its ``delta`` the sum of
the children's ``phi``. ``phi == 0`` means proved, ``delta == 0`` disproved. ``INF`` stands
only for "the other side has proved it"; a sum of finite numbers is capped at ``BIG``, one
below, so that numbers inflated by transpositions and cycles (they can double round a
cycle) never pass for a proof and stall the search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

INF = 10**15  # "infinite" proof number: only a solved child has it
BIG = INF - 1  # the largest finite number: sums of finite numbers are capped here
NO_DEP = 1 << 30  # dependency index of a result that does not depend on the path


class Bounds(NamedTuple):
    """(phi, delta) for the side to move."""

    phi: int
    delta: int

    @property
    def proved(self) -> bool:
        return self.phi == 0

    @property
    def disproved(self) -> bool:
        return self.delta == 0

    @property
    def solved(self) -> bool:
        return self.phi == 0 or self.delta == 0


WIN = Bounds(0, INF)
LOSS = Bounds(INF, 0)


def node_bounds(phis: Sequence[int], deltas: Sequence[int]) -> Bounds:
    """Bounds of a node from its children's (phi, delta); no children means a loss."""
    if not phis:
        return LOSS
    s = sum(phis)
    if s >= INF:
        s = INF if INF in phis else BIG
    return Bounds(min(deltas), s)


def select_child(deltas: Sequence[int], phis: Sequence[int], *,
                 by_phi: bool = True) -> tuple[int, int]:
    """Index of the most-proving child and the second-least delta (INF when there is one
    child). The most-proving child has the least delta; among children tied there, the one
    with the largest phi (the farthest from the opponent's proof: fewer nodes than the first
    of them; ``by_phi=False``: the first), and the first of those. The reference engine calls
    it at every step of a node (``SearchOptions.tie_phi``); the compiled core has it in C."""
    best = 0
    d1 = deltas[0]
    d2 = INF
    for i in range(1, len(deltas)):
        d = deltas[i]
        if d < d1:
            best, d2, d1 = i, d1, d
        elif d == d1:
            d2 = d
            if by_phi and phis[i] > phis[best]:
                best = i
        elif d < d2:
            d2 = d
    return best, d2


def deferred_deltas(deltas: list[int], deferred: int) -> list[int]:
    """The children's deltas as the node's ``phi`` and the child selection see them when the
    child ``deferred`` (the pass) is searched last: its delta reads as ``INF`` while
    another child is still open (delta below ``INF``), unless it is already a win (0). The
    node's ``delta``, a sum over the children's ``phi``, is not affected, so the node is
    disproved only once the deferred child is too: the order changes, the result cannot."""
    d = deltas[deferred]
    if d == 0 or d >= INF:
        return deltas
    for i, x in enumerate(deltas):
        if i != deferred and x < INF:
            out = list(deltas)
            out[deferred] = INF
            return out
    return deltas


def child_thresholds(th_phi: int, th_delta: int, node_delta: int, child_phi: int,
                     second_delta: int, epsilon: float) -> Bounds:
    """Thresholds for the selected child (Nagai's df-pn, with Pawlewicz & Lew's 1+epsilon:
    the child may run until its delta exceeds (1+epsilon) times the second-best delta).

    ``node_delta`` and ``child_phi`` are the current values; the child's phi threshold is what
    keeps the node's delta under ``th_delta``. An unbounded ``th_delta`` (``INF``) leaves it
    unbounded: the node's delta, a sum capped at ``BIG``, reaches ``INF`` only when a child's
    phi does, and a threshold of ``BIG - node_delta + child_phi + 1`` would let the child grow
    by one at a time (numbers inflated round a cycle stall the search there).
    """
    c_phi = INF if th_delta >= INF else th_delta - node_delta + child_phi
    if second_delta >= INF:
        c_delta = th_phi
    else:
        grown = int(second_delta * (1.0 + epsilon)) + 1
        c_delta = th_phi if th_phi < grown else grown
    return Bounds(min(c_phi, INF), c_delta)


def solved_dependency(proved: bool, child_deltas: Sequence[int], child_deps: Sequence[int],
                      extra_dep: int, depth: int) -> int:
    """Path dependency of a solved node at ``depth`` (background.md section 2): the smallest
    path index of a position whose repetition the proof relies on, ``NO_DEP`` for none.

    A win needs only its best winning child: take the largest index among the winning
    children (``NO_DEP`` beats any index). A loss needs every child to lose and every play
    that repetition made illegal (``extra_dep``) to stay illegal: the smallest index.
    An index at or beyond ``depth`` points into the node's own lines, which recur on every
    path into the node, so the result is ``NO_DEP``. (That alone does not make a stored proof
    valid everywhere: a path may already hold an arrangement the proof creates. The table
    guards against that with the proof's range of stone counts; see search.py.)
    """
    if proved:
        dep = -1
        for d, dp in zip(child_deltas, child_deps):
            if d == 0 and dp > dep:
                dep = dp
    else:
        dep = extra_dep
        for dp in child_deps:
            if dp < dep:
                dep = dp
    return NO_DEP if dep >= depth else dep


def killer_delta(delta: int, divisor: int) -> int:
    """The initial ``delta`` of a killer play's child: divided by ``divisor`` (0 or 1: the
    same), at least 1 (an initial 0 would read as a proof).

    The killer play is the one that won the last node proved at the same depth: after each of
    the defender's tries the attacker's answer is often the same vital point (and the same
    saving play for the defender), so its child is searched first. Only the order changes."""
    if divisor <= 1:
        return delta
    return max(1, delta // divisor)
