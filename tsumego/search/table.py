"""Size-capped transposition tables.

Two tables, so that the valuable entries survive: solved results (ko-threat bounds that answer
every balance) and the work numbers of unsolved nodes. Each entry records the work (nodes) spent
on it; when a table is full, the half with the least work goes. Unsolved entries are cheap to
recompute and sit in their own table, so they are the ones that churn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, TypeVar

_NONE: frozenset[int] = frozenset()
NEG = -(1 << 20)  # "minus infinity" for minw
POS = 1 << 20  # "plus infinity" for maxb


class ProofScope(NamedTuple):
    """What a proof creates below its node, which decides the paths it may be used on: the
    stone-count range ``lo..hi`` of the arrangements and pair states its lines create (empty
    when ``lo > hi``), those arrangements themselves (None: too many to keep), and whether it
    is *ko-free* (no move in it was illegal by repetition and the winner used no threat, so it
    holds at every balance)."""

    lo: int
    hi: int
    created: frozenset[int] | None
    kofree: bool


_UNPROVED = ProofScope(1, 0, _NONE, False)  # the scope of a bound no proof has set yet


@dataclass(slots=True)
class Solved:
    """A solved entry: White wins whenever ``balance <= minw``, Black whenever
    ``balance >= maxb`` (background.md section 3); ``work`` is the nodes spent on it, ``white``
    and ``black`` the scopes of the two proofs. A proof is valid on a path none of whose
    arrangements has a count in its scope's range, or, when its set is known, none of whose
    arrangements is in its set. A scope is ko-free exactly when its bound is at infinity."""

    minw: int
    maxb: int
    work: int
    white: ProofScope
    black: ProofScope


@dataclass(slots=True)
class Work:
    """An unsolved entry: the node's (phi, delta) and the work (nodes) spent on it."""

    phi: int
    delta: int
    work: int


_E = TypeVar("_E", Solved, Work)


def _evict_half(table: dict[int, _E]) -> None:
    """Drop the half of ``table`` with the least work (ties: the older entries)."""
    items = sorted(table.items(), key=lambda kv: kv[1].work)
    for k, _ in items[: len(items) // 2 + 1]:
        del table[k]


class SolvedTable:
    """key -> :class:`Solved`: the ko-threat bounds of a position and their proofs' scopes."""

    __slots__ = ("cap", "data")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data: dict[int, Solved] = {}

    def get(self, key: int) -> Solved | None:
        return self.data.get(key)

    def record(self, key: int, black_wins: bool, balance: int, work: int, lo: int = 1,
               hi: int = 0, created: frozenset[int] | None = frozenset()) -> None:
        """Record that the side named wins at ``balance`` (and so beyond it) by a proof
        whose arrangements have stone counts ``lo..hi`` (empty when ``lo > hi``) and are
        ``created`` (None: too many to keep); the proof is ko-free when ``balance`` is at
        infinity (``NEG`` for Black, ``POS`` for White)."""
        e = self.data.get(key)
        if e is None:
            if len(self.data) >= self.cap:
                _evict_half(self.data)
            e = Solved(NEG, POS, 0, _UNPROVED, _UNPROVED)
            self.data[key] = e
        if black_wins:
            b = e.black
            if balance < e.maxb or (balance == e.maxb and hi - lo < b.hi - b.lo):
                e.maxb = balance
                e.black = ProofScope(lo, hi, created, balance == NEG)
        else:
            w = e.white
            if balance > e.minw or (balance == e.minw and hi - lo < w.hi - w.lo):
                e.minw = balance
                e.white = ProofScope(lo, hi, created, balance == POS)
        e.work += work

    def __len__(self) -> int:
        return len(self.data)


class WorkTable:
    """key -> :class:`Work` for unsolved nodes."""

    __slots__ = ("cap", "data")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data: dict[int, Work] = {}

    def get(self, key: int) -> Work | None:
        return self.data.get(key)

    def store(self, key: int, phi: int, delta: int, work: int) -> None:
        e = self.data.get(key)
        if e is None:
            if len(self.data) >= self.cap:
                _evict_half(self.data)
            self.data[key] = Work(phi, delta, work)
        else:
            e.phi = phi
            e.delta = delta
            e.work += work

    def discard(self, key: int) -> None:
        self.data.pop(key, None)

    def __len__(self) -> int:
        return len(self.data)
