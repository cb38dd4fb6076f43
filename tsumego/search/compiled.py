"""The compiled search core behind the engine interface of :mod:`tsumego.search`.

The core (``tsumego/search/_core.c``, built by ``pip install``) searches the same game with the same
df-pn, on a board cropped to the rectangle that holds every stone and the region plus a ring
of empty points: outside it every point is empty and never played, so nothing there can
change an answer. The crop's ring, and the points of the board Benson's test can never count
as vital (:func:`tsumego.go.life.never_vital`), are handed to the core as such.

The core reads the same eye-space table (:mod:`tsumego.knowledge.eyespace`), handed to it
once per process. Kawano's simulation is the reference engine's alone
(``SearchOptions.simulation`` is ignored here): it only saves work; the answers are the same.
"""

from __future__ import annotations

from functools import cache
from typing import get_args

from tsumego.errors import Budget, BudgetExhausted
from tsumego.go.board import bits, geometry
from tsumego.go.coords import PASS
from tsumego.go.life import never_vital
from tsumego.go.line import Line
from tsumego.go.problem import Problem
from tsumego.knowledge.eyespace import stored_arrays
from tsumego.search import _core
from tsumego.search.engine import Interrupt, SearchOptions, Verdict, verdict_after


def crop(problem: Problem) -> tuple[int, int, int, int]:
    """(x0, y0, width, height): the board's rectangle that holds every stone and every point
    of the region, and one line more on each side that is not the board's edge."""
    size = problem.size
    x0, y0, x1, y1 = geometry(size).bbox(problem.black | problem.white | problem.region)
    x0, x1 = max(0, x0 - 1), min(size - 1, x1 + 1)
    y0, y1 = max(0, y0 - 1), min(size - 1, y1 + 1)
    return x0, y0, x1 - x0 + 1, y1 - y0 + 1


def _outside(problem: Problem, box: tuple[int, int, int, int]) -> list[int]:
    """The crop's points that lie in a region (for Benson's test) holding an empty point no
    defender stone touches, on every board the search reaches: the board's own such points
    and the crop's ring where the board goes on beyond it (empty, with only empty points
    beyond)."""
    geo = geometry(problem.size)
    x0, y0, w, h = box
    x1, y1 = x0 + w - 1, y0 + h - 1
    inside = geo.rect(x0, y0, x1, y1)
    # the crop without its ring: a side on the board's edge has no ring
    core = geo.rect(x0 + (x0 > 0), y0 + (y0 > 0), x1 - (x1 < geo.size - 1),
                    y1 - (y1 < geo.size - 1))
    out = never_vital(problem.board(), problem.region, problem.defender) | inside & ~core
    return list(bits(out & inside))


def core_build() -> str:
    """How the core was built: "profile-guided" (gcc, setup.py's training run), "plain" (one
    optimized compile) or "instrumented" (during that training run). Benchmarks say it: the
    speed depends on it, the nodes do not."""
    return str(_core.BUILD)


@cache
def load_eyespace_table() -> None:
    """Hand the stored eye-space table to the core, once per process."""
    t = stored_arrays()
    _core.load_eyespace(t["cells"], t["sizes"], t["tadj"], t["values"])


def _stopped(e: _core.Stopped) -> BudgetExhausted:
    """The core's stop as the library's error (its text is the kind of budget)."""
    kind = str(e)
    for k in get_args(Budget):
        if k == kind:
            return BudgetExhausted(k)
    return BudgetExhausted("memory", f"stopped: {kind}")


class CompiledEngine:
    """df-pn for one problem and one game, in compiled code; the interface of
    :class:`tsumego.search.Engine`."""

    def __init__(self, problem: Problem, *, live: bool = False, tt_size: int = 2_000_000,
                 max_nodes: int | None = None, deadline: float | None = None,
                 options: SearchOptions = SearchOptions(),
                 interrupt: Interrupt | None = None) -> None:
        self.problem = problem
        self.live = live
        self.options = options
        box = crop(problem)
        if options.eyespace:
            load_eyespace_table()
        self._core = _core.Core(
            problem.size, box, list(bits(problem.black)), list(bits(problem.white)),
            list(bits(problem.target)), list(bits(problem.region)), _outside(problem, box),
            live, tt_size, options.epsilon, options.knowledge, options.sum_scale,
            options.benson, options.capture, options.atari, options.kofree, options.tie_phi,
            options.check_every, options.created_max, options.eyespace,
            options.threats, options.pass_last, options.ladder, options.patterns,
            options.killer)
        self._core.max_nodes = max_nodes
        self._core.deadline = deadline
        self._core.interrupt = interrupt

    # --- budget and figures --------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return int(self._core.nodes)

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._core.nodes = value

    @property
    def max_nodes(self) -> int | None:
        got: int | None = self._core.max_nodes
        return got

    @max_nodes.setter
    def max_nodes(self, value: int | None) -> None:
        self._core.max_nodes = value

    @property
    def deadline(self) -> float | None:
        got: float | None = self._core.deadline
        return got

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self._core.deadline = value

    @property
    def interrupt(self) -> Interrupt | None:
        got: Interrupt | None = self._core.interrupt
        return got

    @interrupt.setter
    def interrupt(self, value: Interrupt | None) -> None:
        self._core.interrupt = value

    @property
    def root_move(self) -> int | None:
        """A winning move of the last root proved a win (PASS for a pass)."""
        got: int | None = self._core.root_move
        return got

    @property
    def depth_sum(self) -> int:
        """The depths of the nodes searched, summed (divided by ``nodes``: where the work
        went)."""
        return int(self._core.depth_sum)

    @property
    def depth_max(self) -> int:
        """The deepest node searched."""
        return int(self._core.depth_max)

    def stats(self) -> dict[str, int]:
        """Entries in the tables, their bytes, the words of a set of points."""
        got: dict[str, int] = self._core.stats()
        return got

    # --- searches ---------------------------------------------------------------------------
    def solve(self, color: int, balance: int, *, passed: bool = False) -> int:
        """Winner with ``color`` to move at ``balance`` from the problem's position."""
        try:
            w: int = self._core.solve(color, balance, passed)
        except _core.Stopped as e:
            raise _stopped(e) from None
        return w

    def solve_after(self, color: int, move: int, balance: int) -> int | None:
        """Winner after ``color`` plays ``move`` (or passes) from the problem's position at
        ``balance``; ``None`` when the move is illegal."""
        try:
            w: int | None = self._core.solve_after(color, move, balance)
        except _core.Stopped as e:
            raise _stopped(e) from None
        return w

    def winner(self, line: Line, to_move: int, *, max_work: int | None = None) -> Verdict:
        """The winner with ``to_move`` to play at the end of ``line``; with ``max_work``,
        winner 0 where a search of that many nodes does not settle it."""
        if line.ended:
            return Verdict(line.ended, 0)
        before = self.nodes
        try:
            w: int = self._core.solve_line(line.moves, line.balance, to_move, max_work or 0)
        except _core.Stopped as e:
            raise _stopped(e) from None
        if not w:
            return Verdict(0, 0)
        known = self._core.known_line(line.moves, line.balance, to_move)
        return Verdict(w, int(known[1]) if known[0] == w else self.nodes - before)

    def winner_after(self, line: Line, color: int, move: int, *,
                     max_work: int | None = None) -> Verdict:
        """:meth:`winner` after ``color`` plays ``move`` at the end of ``line`` (raises
        :class:`tsumego.go.line.IllegalLine` for an illegal move; the line is left as it was)."""
        return verdict_after(self.winner, line, color, move, max_work)

    def known_after(self, line: Line, color: int, move: int) -> Verdict:
        """The winner after ``color`` plays ``move`` (a legal move) at the end of ``line``
        where the engine already holds a proof it may use on this path, else Verdict(0, 0).
        Moves that use a threat or make a pair of passes are never read this way."""
        step = line.play(color, move, check=False)
        try:
            if step.ended or step.threat or step.pair:
                return Verdict(0, 0)
            w, work = self._core.known_line(line.moves, line.balance, 3 - color)
            return Verdict(int(w), int(work))
        finally:
            line.undo()

    # --- two engines of one problem ----------------------------------------------------------
    def share_caches(self, other: CompiledEngine) -> None:
        """Use ``other``'s caches (expansions, Benson's answers...): they depend only on the
        problem, not on the game searched."""
        self._core.share(other._core)

    def borrow_wins(self, other: CompiledEngine) -> None:
        """Read the wins ``other`` (the same problem, the other game) has proved that hold in
        this game too (see :meth:`tsumego.search.Engine.borrow_wins`)."""
        assert self.live != other.live
        self._core.borrow(other._core,
                          self.problem.defender if other.live else self.problem.attacker)


__all__ = ["CompiledEngine", "core_build", "crop", "load_eyespace_table", "PASS"]
