"""A position reached by a line of moves from a problem, searched by one engine: the questions the
verifier and the GTP engine ask along lines."""

from __future__ import annotations

from tsumego.go.board import BLACK, Board
from tsumego.go.life import never_vital, target_benson_alive
from tsumego.go.line import IllegalLine, Line
from tsumego.go.problem import Problem
from tsumego.search.engines import new_engine
from tsumego.search.solver import K

# --- positions along a line -----------------------------------------------------------------

class LinePosition:
    """A position reached by a line of moves from the problem's root (a :class:`Line`, which
    keeps the rules' bookkeeping), searched by one engine.

    The engine's solved table is shared by every position (its entries never depend on the
    path above them), so checking many lines of one problem costs little more than one."""

    def __init__(self, problem: Problem, *, deadline: float | None, tt_size: int,
                 balance: int = 0) -> None:
        self.problem = problem
        self.engine = new_engine(problem, tt_size=tt_size, deadline=deadline)
        outside = never_vital(problem.board(), problem.region, problem.defender)
        alive: dict[int, bool] = {}

        def is_alive(board: Board) -> bool:
            got = alive.get(board.hash)
            if got is None:
                got = alive[board.hash] = target_benson_alive(board, problem.target,
                                                              problem.defender, outside)
            return got

        self.line = Line(problem, balance, alive=is_alive)

    @property
    def board(self) -> Board:
        return self.line.board

    @property
    def balance(self) -> int:
        """The ko-threat balance here (settable: the balance a question is asked at)."""
        return self.line.balance

    @balance.setter
    def balance(self, value: int) -> None:
        self.line.balance = value

    @property
    def ended(self) -> int:
        """The winner, once a move decided the game (else 0)."""
        return self.line.ended

    @property
    def history(self) -> dict[int, int]:
        return self.line.history

    @property
    def pair_states(self) -> dict[int, int]:
        return self.line.pair_states

    @property
    def depth(self) -> int:
        return self.line.depth

    @property
    def passed(self) -> bool:
        return self.line.passed

    @property
    def nodes(self) -> int:
        return self.engine.nodes

    def push(self, color: int, move: int) -> None:
        """Play ``move`` (or pass) for ``color``. Raises :class:`IllegalLine`."""
        self.line.play(color, move)

    def pop(self) -> None:
        self.line.undo()

    def winner(self, to_move: int) -> int:
        """The winner with ``to_move`` to play here at the line's balance (raises
        :class:`BudgetExhausted`)."""
        return self.engine.winner(self.line, to_move).winner

    def winner_after(self, color: int, move: int, balance: int | None = None) -> int | None:
        """The winner after ``color`` plays ``move`` here (at ``balance``, default the
        line's); ``None`` when the move is illegal."""
        saved = self.line.balance
        if balance is not None:
            self.line.balance = balance
        try:
            return self.engine.winner_after(self.line, color, move).winner
        except IllegalLine:
            return None
        finally:
            self.line.balance = saved

    def candidates(self, color: int) -> list[int]:
        """Every play in the region here, then the pass."""
        return self.line.candidates()

    def threshold(self, color: int, move: int) -> int | None:
        """The balance least favourable to ``color`` (within -K..K) at which ``color`` still
        wins after ``move`` here, or ``None`` when it wins at none."""
        order = list(range(-K, K + 1)) if color == BLACK else list(range(K, -K - 1, -1))
        if self.winner_after(color, move, order[-1]) != color:
            return None
        lo, hi = 0, len(order) - 1  # order[hi] wins; find the first winning index
        while lo < hi:
            mid = (lo + hi) // 2
            if self.winner_after(color, move, order[mid]) == color:
                hi = mid
            else:
                lo = mid + 1
        return order[lo]

    def winning_replies(self, color: int) -> list[int]:
        """The moves of ``color`` (to play here) that win at the line's balance."""
        return [m for m in self.candidates(color) if self.winner_after(color, m) == color]

