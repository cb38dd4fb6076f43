"""A line of play from a problem's position under the rules of docs/rules.md.

:class:`Line` is the one place where the rules' bookkeeping along a line lives: the repetition
history since the last reset (the start, a ko threat, a pair of passes), the pair states (the
positions that stood right after a pair of passes), the ko-threat balance, and whether the
game has ended. The tree builder, the verifier and the GTP engine walk lines with it; the
search engines keep a faster copy of the same rules of their own, and the checker
(:mod:`tsumego.proofs.check`) replays trees with its own code so that it trusts none of this.

Positions are keyed by the board's Zobrist hash (:attr:`tsumego.go.board.Board.hash`); a pair
state by :func:`pair_state`. ``seen`` is the mask of the stone counts of the history's
arrangements and of the pair states: a stored proof that creates an arrangement of another
count cannot play into a repetition here (see :mod:`tsumego.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tsumego.errors import TsumegoError
from tsumego.go.board import BLACK, Board, bits
from tsumego.go.coords import PASS, to_gtp, to_sgf
from tsumego.go.problem import Problem

# the keys that make a position's table key from its arrangement's hash: the side to move
# (indexed by colour), a pass just made, a pair of passes just made; fixed, so that every
# table and every line agree on them
_rng = random.Random(0x6B6F)
SIDE_KEY = (0, _rng.getrandbits(64), _rng.getrandbits(64))
PASS_KEY = _rng.getrandbits(64)
PAIR_KEY = _rng.getrandbits(64)


# why a move is not allowed (IllegalLine.kind)
Illegal = Literal["occupied", "outside", "suicide", "repetition", "over"]
# what a step of a line did, for its undo: a single pass, a play that extends the history, a
# move that starts it afresh (a threat, a pair of passes that goes on), or a pair that ends
# the game
StepKind = Literal["pass", "play", "reset", "end"]


def position_key(h: int, color: int, passed: bool) -> int:
    """The table key of arrangement ``h`` with ``color`` to move, ``passed`` saying the last
    move was a pass (then a pass makes a pair: another position)."""
    k = h ^ SIDE_KEY[color]
    return k ^ PASS_KEY if passed else k


def pair_state(h: int, to_move: int) -> int:
    """The key of a *pair state*: arrangement ``h`` with ``to_move`` to move right after a pair
    of passes. Distinct from every arrangement's hash, so that a proof's set of created
    arrangements can hold both kinds."""
    return h ^ SIDE_KEY[to_move] ^ PAIR_KEY


class IllegalLine(TsumegoError):
    """A move that the rules do not allow here; ``kind`` says why (:data:`Illegal`)."""

    def __init__(self, kind: Illegal, text: str) -> None:
        super().__init__(text)
        self.kind = kind
        self.text = text


@dataclass(frozen=True)
class Step:
    """What one move did: the stones it captured, whether it used a ko threat (a repetition
    made legal) or was the second pass of a pair that goes on, and the winner it fixed (0 if
    none)."""

    captured: int
    threat: bool
    pair: bool
    ended: int


@dataclass
class _Saved:
    kind: StepKind
    board: tuple[int, int, int]
    history: dict[int, int]
    key: int  # the arrangement a play or a pass recorded in the history in place
    old_index: int  # a single pass: its arrangement's index before it
    seen: int
    pair_states: dict[int, int]
    pair_counts: int
    pair_key: int
    balance: int
    passed: bool
    ended: int


class Line:
    """The position reached by a line of moves from ``problem``'s position at ``balance``,
    with the rules' bookkeeping; :meth:`play` and :meth:`undo` walk it.

    A repeated pair of passes ends the game for the defender (the game of rules.md);
    ``alive`` says whether the target stands unconditionally alive on a board (then the
    defender has won as soon as a defender's play makes it so; by default never checked)."""

    def __init__(self, problem: Problem, balance: int = 0, *,
                 alive: Callable[[Board], bool] | None = None) -> None:
        self.problem = problem
        self.board = problem.board()
        self.balance = balance
        self.history: dict[int, int] = {self.board.hash: 0}
        self.seen = 1 << self._count()
        self.pair_states: dict[int, int] = {}
        self.pair_counts = 0
        self.pair_key = 0  # the XOR of the pair states' keys
        self.depth = 0
        self.passed = False
        self.ended = 0
        # the moves so far: (colour, point or PASS, a ko threat made the play legal)
        self.moves: list[tuple[int, int, bool]] = []
        self._alive = alive
        self._stack: list[_Saved] = []

    def _count(self) -> int:
        return (self.board.black | self.board.white).bit_count()

    def _save(self, kind: StepKind) -> _Saved:
        return _Saved(kind, self.board.snapshot(), self.history, 0, -1, self.seen,
                      self.pair_states, self.pair_counts, self.pair_key, self.balance, self.passed,
                      self.ended)

    def _advance(self, save: _Saved, color: int, move: int, passed: bool,
                 threat: bool = False) -> None:
        self._stack.append(save)
        self.depth += 1
        self.passed = passed
        self.moves.append((color, move, threat))

    def play(self, color: int, move: int, *, check: bool = True) -> Step:
        """Play ``move`` (a point, or PASS) for ``color``; raises :class:`IllegalLine`.
        ``check=False``: the caller knows the move is on an empty point of the region (no
        occupied or outside test)."""
        b = self.board
        problem = self.problem
        if self.ended:
            raise IllegalLine("over", "the game is already decided")
        h0 = b.hash
        if move == PASS:
            if not self.passed:
                save = self._save("pass")
                save.key, save.old_index = h0, self.history.get(h0, -1)
                self._advance(save, color, move, True)
                self.history[h0] = self.depth
                return Step(0, False, False, 0)
            # the second pass of a pair: the player who passed first moves next
            state = pair_state(h0, 3 - color)
            if state in self.pair_states:
                self._advance(self._save("end"), color, move, False)
                self.ended = problem.defender  # it stood before: the game ends
                return Step(0, False, False, self.ended)
            # both sides play elsewhere: the history starts afresh, the threats are gone
            self._advance(self._save("reset"), color, move, False)
            self.pair_states = {**self.pair_states, state: self.depth}
            self.pair_counts |= 1 << self._count()
            self.pair_key ^= state
            self.history = {h0: self.depth}
            self.seen = self.pair_counts
            self.balance = 0
            return Step(0, False, True, 0)
        if check:
            pt = f"{to_sgf(move, problem.size)} ({to_gtp(move, problem.size)})"
            if (b.black | b.white) >> move & 1:
                raise IllegalLine("occupied", f"{pt} is occupied")
            if not problem.region >> move & 1:
                raise IllegalLine("outside", f"{pt} is outside the problem's region")
        before = b.snapshot()
        c0 = self._count()
        cap = b.play_fast(move, color)
        if cap < 0:
            pt = f"{to_sgf(move, problem.size)} ({to_gtp(move, problem.size)})"
            raise IllegalLine("suicide", f"{pt} is suicide")
        h = b.hash
        threat = h in self.history
        if threat and not (self.balance > 0 if color == BLACK else self.balance < 0):
            b.undo(before)
            pt = f"{to_sgf(move, problem.size)} ({to_gtp(move, problem.size)})"
            side = "Black" if color == BLACK else "White"
            raise IllegalLine("repetition", f"{pt} repeats an earlier position and {side} "
                              f"has no ko threat at balance {self.balance:+d}")
        save = self._save("reset" if threat else "play")
        save.board = before
        self._advance(save, color, move, False, threat)
        if threat:
            # the threat and its answer: only the arrangements around this play remain
            self.balance += -1 if color == BLACK else 1
            self.history = {h0: self.depth - 1, h: self.depth}
            self.seen = self.pair_counts | (1 << c0) | (1 << self._count())
        else:
            save.key = h
            self.history[h] = self.depth
            self.seen |= 1 << self._count()
        if color == problem.attacker:
            if cap & problem.target:
                self.ended = problem.attacker
        elif self._alive is not None and self._alive(b):
            self.ended = problem.defender
        return Step(cap, threat, False, self.ended)

    def undo(self) -> None:
        """Take back the last move."""
        s = self._stack.pop()
        if s.kind == "play":
            del self.history[s.key]
        elif s.kind == "pass":
            if s.old_index < 0:
                del self.history[s.key]
            else:
                self.history[s.key] = s.old_index
        self.history = s.history
        self.board.undo(s.board)
        self.seen, self.pair_states = s.seen, s.pair_states
        self.pair_counts, self.pair_key = s.pair_counts, s.pair_key
        self.balance, self.passed, self.ended = s.balance, s.passed, s.ended
        self.depth -= 1
        self.moves.pop()

    def candidates(self) -> list[int]:
        """Every empty point of the region here, then the pass (legality aside)."""
        return [*bits(self.board.empty & self.problem.region), PASS]
