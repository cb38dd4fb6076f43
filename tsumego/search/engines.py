"""The engine interface, and the engine that serves users.

An engine searches one problem in one game (the game of rules.md, or the pass-alive game
that tells life from seki). :class:`SearchEngine` is what the solver, the tree builder, the
verifier and the GTP engine ask of it; two implementations sit behind it: the compiled core
(:class:`tsumego.search.compiled.CompiledEngine`), which serves users, and the reference engine in
Python (:class:`tsumego.search.Engine`), which the differential tests hold it to.
"""

from __future__ import annotations

from typing import Any, Protocol

from tsumego.go.line import Line
from tsumego.go.problem import Problem
from tsumego.search.engine import Engine, Interrupt, SearchOptions, Verdict


class SearchEngine(Protocol):
    """The questions asked of an engine. Positions are the problem's own (``solve``,
    ``solve_after``) or the end of a :class:`tsumego.go.line.Line` of play from it."""

    nodes: int
    max_nodes: int | None
    deadline: float | None
    interrupt: Interrupt | None
    live: bool

    @property
    def depth_sum(self) -> int: ...  # the depths of the nodes searched, summed

    @property
    def depth_max(self) -> int: ...  # the deepest node searched

    @property
    def root_move(self) -> int | None: ...

    def solve(self, color: int, balance: int, *, passed: bool = False) -> int: ...

    def solve_after(self, color: int, move: int, balance: int) -> int | None: ...

    def winner(self, line: Line, to_move: int, *, max_work: int | None = None) -> Verdict: ...

    def winner_after(self, line: Line, color: int, move: int, *,
                     max_work: int | None = None) -> Verdict: ...

    def known_after(self, line: Line, color: int, move: int) -> Verdict: ...

    def share_caches(self, other: Any) -> None: ...

    def borrow_wins(self, other: Any) -> None: ...


def new_engine(problem: Problem, *, live: bool = False, tt_size: int = 2_000_000,
               max_nodes: int | None = None, deadline: float | None = None,
               options: SearchOptions = SearchOptions(),
               interrupt: Interrupt | None = None) -> SearchEngine:
    """The engine ``options.engine`` names: the compiled core (the default) or the
    reference engine."""
    if options.engine == "reference":
        return Engine(problem, live=live, tt_size=tt_size, max_nodes=max_nodes,
                      deadline=deadline, options=options, interrupt=interrupt)
    from tsumego.search.compiled import CompiledEngine

    return CompiledEngine(problem, live=live, tt_size=tt_size, max_nodes=max_nodes,
                          deadline=deadline, options=options, interrupt=interrupt)
