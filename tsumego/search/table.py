"""Size-capped transposition tables.

Two tables, so that the valuable entries survive: solved results (ko-threat bounds that answer
every balance) and the work numbers of unsolved nodes. Each entry records the work (nodes) spent
on it; when a table is full, the half with the least work goes. Unsolved entries are cheap to
recompute and sit in their own table, so they are the ones that churn.
"""

from __future__ import annotations

from typing import Any

_NONE: frozenset[int] = frozenset()
NEG = -(1 << 20)  # "minus infinity" for minw
POS = 1 << 20  # "plus infinity" for maxb


def _evict_half(table: dict[int, list[Any]], work_index: int) -> None:
    """Drop the half of ``table`` with the least work (ties: the older entries)."""
    items = sorted(table.items(), key=lambda kv: kv[1][work_index])
    for k, _ in items[: len(items) // 2 + 1]:
        del table[k]


class SolvedTable:
    """key -> [minw, maxb, work, wlo, whi, blo, bhi, wset, bset]: White to win whenever
    ``balance <= minw``, Black whenever ``balance >= maxb`` (background.md section 3).
    ``wlo..whi`` and ``blo..bhi`` are the stone-count ranges of the arrangements each proof
    creates below the node, ``wset`` and ``bset`` those arrangements themselves for small
    proofs (else None): a proof is valid on a path none of whose arrangements has a count in
    its range, or, when its set is known, none of whose arrangements is in its set."""

    __slots__ = ("cap", "data")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data: dict[int, list[Any]] = {}

    def get(self, key: int) -> list[Any] | None:
        return self.data.get(key)

    def record(self, key: int, black_wins: bool, balance: int, work: int, lo: int = 1,
               hi: int = 0, created: frozenset[int] | None = frozenset()) -> None:
        """Record that the side named wins at ``balance`` (and so beyond it) by a proof
        whose arrangements have stone counts ``lo..hi`` (empty when ``lo > hi``) and are
        ``created`` (None: too many to keep)."""
        e = self.data.get(key)
        if e is None:
            if len(self.data) >= self.cap:
                _evict_half(self.data, 2)
            e = [NEG, POS, 0, 1, 0, 1, 0, _NONE, _NONE]
            self.data[key] = e
        if black_wins:
            if balance < e[1] or (balance == e[1] and hi - lo < e[6] - e[5]):
                e[1], e[5], e[6], e[8] = balance, lo, hi, created
        elif balance > e[0] or (balance == e[0] and hi - lo < e[4] - e[3]):
            e[0], e[3], e[4], e[7] = balance, lo, hi, created
        e[2] += work

    def __len__(self) -> int:
        return len(self.data)


class WorkTable:
    """key -> (phi, delta, work) for unsolved nodes."""

    __slots__ = ("cap", "data")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data: dict[int, list[int]] = {}

    def get(self, key: int) -> list[int] | None:
        return self.data.get(key)

    def store(self, key: int, phi: int, delta: int, work: int) -> None:
        e = self.data.get(key)
        if e is None:
            if len(self.data) >= self.cap:
                _evict_half(self.data, 2)
            self.data[key] = [phi, delta, work]
        else:
            e[0] = phi
            e[1] = delta
            e[2] += work

    def discard(self, key: int) -> None:
        self.data.pop(key, None)

    def __len__(self) -> int:
        return len(self.data)
