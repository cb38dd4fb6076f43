"""A brute-force minimax over the game of docs/rules.md, written only for the tests.

It shares no code with the solver: its own board (a ``bytes`` of ``size*size`` cells, 0 empty,
1 black, 2 white, whole-board captures), its own move rules and a plain memoised minimax whose
key holds the *whole* history (the frozenset of arrangements since the start or since the last
ko-threat use or pair of passes) and every pair state met so far, so repetition and pairs of
passes are handled without any cleverness that could hide a bug.

The game (rules.md):

- a move is a pass (always legal) or a play on an empty point of the region; no suicide;
  opponent blocks without liberties are removed (anywhere on the board);
- a play that recreates an arrangement of the history is illegal unless the mover has a threat
  (Black: ``balance > 0``, White: ``balance < 0``); using one moves ``balance`` one step
  toward 0 and the history becomes {arrangement before the play, arrangement after it};
- the attacker wins as soon as any target stone is captured;
- two passes in a row (a pair) stand for an exchange of plays elsewhere: if the arrangement
  with the player who passed first to move already stood right after an earlier pair, the
  game ends and the defender wins; otherwise that player moves next, the history becomes
  {the arrangement} and ``balance`` becomes 0.

With ``live=True`` it plays the *pass-alive* game used to tell life from seki: the same game,
except that when a repeated pair ends it the defender wins only if the target is pass-alive
(the attacker, playing alone while the defender always passes, cannot capture a target stone).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

BLACK, WHITE = 1, 2
PASS = "pass"
# (board, to move, balance, the last move was a pass, history, pair states)
State = tuple[bytes, int, int, bool, frozenset[bytes], frozenset[tuple[bytes, int]]]


@contextmanager
def _deep_recursion() -> Iterator[None]:
    """Games can be long: allow deep recursion for the duration of one root call."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 100_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _neighbours(size: int) -> list[tuple[int, ...]]:
    out = []
    for p in range(size * size):
        x, y = p % size, p // size
        nb = []
        if x > 0:
            nb.append(p - 1)
        if x < size - 1:
            nb.append(p + 1)
        if y > 0:
            nb.append(p - size)
        if y < size - 1:
            nb.append(p + size)
        out.append(tuple(nb))
    return out


class BruteGame:
    """The game of one problem. ``cells`` is the initial board (a sequence of 0/1/2, index
    ``y*size+x``), ``region`` and ``target`` are collections of points."""

    def __init__(self, size: int, cells: Iterable[int], region: Iterable[int],
                 target: Iterable[int], *, live: bool = False,
                 max_states: int = 3_000_000) -> None:
        self.size = size
        self.start = bytes(cells)
        assert len(self.start) == size * size
        self.region = tuple(sorted(set(region)))
        self.target = tuple(sorted(set(target)))
        colours = {self.start[p] for p in self.target}
        assert len(colours) == 1 and colours != {0}, "target must be stones of one colour"
        self.defender = colours.pop()
        self.attacker = 3 - self.defender
        self.nbrs = _neighbours(size)
        self.live = live
        self.memo: dict[tuple[object, ...], int] = {}
        self.max_states = max_states
        self._pass_alive: dict[bytes, bool] = {}

    # --- board rules ---------------------------------------------------------------------
    def _group_has_liberty(self, b: bytearray, p: int) -> tuple[bool, list[int]]:
        colour = b[p]
        seen = {p}
        stack = [p]
        nbrs = self.nbrs
        while stack:
            q = stack.pop()
            for r in nbrs[q]:
                c = b[r]
                if c == 0:
                    return True, []
                if c == colour and r not in seen:
                    seen.add(r)
                    stack.append(r)
        return False, list(seen)

    def play(self, board: bytes, p: int, colour: int) -> bytes | None:
        """The board after ``colour`` plays at empty ``p``, or None if it is a suicide."""
        assert board[p] == 0
        b = bytearray(board)
        b[p] = colour
        opp = 3 - colour
        for q in self.nbrs[p]:
            if b[q] == opp:
                alive, stones = self._group_has_liberty(b, q)
                if not alive:
                    for s in stones:
                        b[s] = 0
        alive, _ = self._group_has_liberty(b, p)
        if not alive:
            return None
        return bytes(b)

    def target_captured(self, board: bytes) -> bool:
        d = self.defender
        return any(board[p] != d for p in self.target)

    # --- the game --------------------------------------------------------------------------
    def children(self, board: bytes, to_move: int, balance: int, passed: bool,
                 hist: frozenset[bytes], pairs: frozenset[tuple[bytes, int]]
                 ) -> list[tuple[object, object]]:
        """(move, outcome) pairs: outcome is a winner colour (game over) or a child state."""
        out: list[tuple[object, object]] = []
        for p in self.region:
            if board[p] != 0:
                continue
            nb = self.play(board, p, to_move)
            if nb is None:
                continue
            if self.target_captured(nb):
                # only the attacker can remove defender stones (no suicide)
                assert to_move == self.attacker
                out.append((p, self.attacker))
                continue
            if nb in hist:
                if to_move == BLACK and balance > 0:
                    out.append((p, (nb, 3 - to_move, balance - 1, False, frozenset((board, nb)),
                                    pairs)))
                elif to_move == WHITE and balance < 0:
                    out.append((p, (nb, 3 - to_move, balance + 1, False, frozenset((board, nb)),
                                    pairs)))
                # else: illegal repetition
                continue
            out.append((p, (nb, 3 - to_move, balance, False, hist | {nb}, pairs)))
        if passed:
            # the second pass of a pair: the player who passed first moves next
            state = (board, 3 - to_move)
            if state in pairs:
                # it stood right after an earlier pair: the game ends with the target standing,
                # so the defender wins (in the live game only if the target is pass-alive)
                out.append((PASS, self.end_by_passes(board)))
            else:
                out.append((PASS, (board, 3 - to_move, 0, False, frozenset((board,)),
                                   pairs | {state})))
        else:
            out.append((PASS, (board, 3 - to_move, balance, True, hist, pairs)))
        return out

    def end_by_passes(self, board: bytes) -> int:
        if not self.live:
            return self.defender
        alive = self._pass_alive.get(board)
        if alive is None:
            alive = self._pass_alive[board] = not self.attacker_captures_alone(board)
        return self.defender if alive else self.attacker

    def value(self, state: State) -> int:
        """The winner of ``state`` with best play."""
        memo = self.memo
        r = memo.get(state)
        if r is not None:
            return r
        if len(memo) > self.max_states:
            raise RuntimeError("brute force: too many states")
        to_move = state[1]
        result = 3 - to_move
        for _move, outcome in self.children(*state):
            w = self._outcome(outcome)
            if w == to_move:
                result = to_move
                break
        memo[state] = result
        return result

    def _outcome(self, outcome: object) -> int:
        """The winner of a child: a colour when the move ended the game, else its value."""
        if isinstance(outcome, int):
            return outcome
        return self.value(outcome)  # type: ignore[arg-type]

    def root(self, to_move: int, balance: int) -> State:
        return (self.start, to_move, balance, False, frozenset((self.start,)), frozenset())

    def winner(self, to_move: int, balance: int) -> int:
        """The winner when ``to_move`` moves first at threat ``balance``."""
        with _deep_recursion():
            return self.value(self.root(to_move, balance))

    def winning_moves(self, to_move: int, balance: int) -> set[object]:
        """Every first move (a point or ``"pass"``) after which ``to_move`` wins."""
        wins: set[object] = set()
        with _deep_recursion():
            for move, outcome in self.children(*self.root(to_move, balance)):
                if self._outcome(outcome) == to_move:
                    wins.add(move)
        return wins

    def attacker_captures_alone(self, board: bytes | None = None) -> bool:
        """Can the attacker, playing alone in the region while the defender always passes,
        capture a target stone from ``board`` (default: the start)? The target is pass-alive
        if not. Plain reachability over boards (a shortest path never repeats a board)."""
        start = self.start if board is None else board
        seen = {start}
        stack = [start]
        while stack:
            b = stack.pop()
            for p in self.region:
                if b[p] != 0:
                    continue
                nb = self.play(b, p, self.attacker)
                if nb is None or nb in seen:
                    continue
                if self.target_captured(nb):
                    return True
                seen.add(nb)
                stack.append(nb)
        return False


def diagram(size: int, cells: bytes, region: Iterable[int], target: Iterable[int]) -> str:
    """X/O stones, target stones #/@, empty region points '.', other empty points '-'."""
    region = set(region)
    target = set(target)
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            p = y * size + x
            c = cells[p]
            if p in target:
                row.append("#" if c == BLACK else "@")
            elif c == BLACK:
                row.append("X")
            elif c == WHITE:
                row.append("O")
            else:
                row.append("." if p in region else "-")
        rows.append(" ".join(row))
    return "\n".join(rows)
