"""Solving a problem: the winner at each ko-threat balance, the status, the correct first moves.

``solve(problem)`` answers for one side to play. Everything in the result is exact, or the
result says which limit stopped it (``status == "unknown"``, ``limit`` set).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from tsumego.answer import Status
from tsumego.errors import Budget, BudgetExhausted, budget_words
from tsumego.go.board import BLACK, WHITE, Color, bits, color_name, opponent
from tsumego.go.coords import PASS, Point, points, to_gtp, to_sgf
from tsumego.go.life import target_benson_alive
from tsumego.go.problem import Problem
from tsumego.knowledge.infer import Inference
from tsumego.search.engine import Interrupt, SearchOptions, deep_search
from tsumego.search.engines import SearchEngine, new_engine

K = 2  # balances -K..K classify a problem (rules.md)



@dataclass(frozen=True, repr=False)
class Solution:
    """The answer for one side to play. Moves are :class:`~tsumego.go.coords.Point` s (board
    indices that print as points; the pass is ``Point('pass')``, equal to ``PASS``), colours
    :class:`~tsumego.go.board.Color` s (equal to ``BLACK``/``WHITE``). Fields that the search did
    not finish are ``None``.

    ``by_threats`` maps each ko-threat balance ``-2..2`` (positive: Black has that many more
    threats) to its winner; ``moves`` are the winning first moves at ``threats``,
    ``best_moves`` those that win at the balance least favourable to ``to_play``
    (``best_threats``), ``best`` the plainest of them. ``print(solution)`` gives
    :meth:`describe`; ``repr()`` every field."""

    problem: Problem
    to_play: Color
    threats: int
    winner: Color | None
    status: Status
    by_threats: dict[int, Color] | None
    moves: tuple[Point, ...] | None
    best_moves: tuple[Point, ...] | None
    best_threats: int | None
    best: Point | None
    nodes: int
    seconds: float
    limit: Budget | None = None
    move_work: dict[int, int] = field(default_factory=dict, compare=False)

    @property
    def attacker(self) -> Color:
        return Color(self.problem.attacker)

    @property
    def defender(self) -> Color:
        return Color(self.problem.defender)

    @property
    def target(self) -> tuple[Point, ...]:
        """The target stones."""
        return points(bits(self.problem.target), self.problem.size)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        by = None if self.by_threats is None else (
            "{" + ", ".join(f"{k:+d}: {w}" for k, w in sorted(self.by_threats.items())) + "}")
        return (f"Solution(to_play={self.to_play}, threats={self.threats:+d}, "
                f"winner={self.winner}, status={self.status!r}, by_threats={by}, "
                f"moves={self.moves!r}, best_moves={self.best_moves!r}, "
                f"best_threats={self.best_threats}, best={self.best!r}, nodes={self.nodes}, "
                f"seconds={self.seconds:.3f}, limit={self.limit!r})")

    def to_json(self, file: str = "", inferred: Inference | None = None) -> dict[str, object]:
        """The ``--json`` object of the command line (SGF points, ``"pass"`` for a pass);
        ``inferred``: what was inferred for a plain problem (``None`` for a marked one)."""
        size = self.problem.size

        def pts(ms: tuple[Point, ...] | None) -> list[str] | None:
            return None if ms is None else [m.sgf for m in ms]

        return {
            "file": file,
            "size": size,
            "to_play": color_name(self.to_play),
            "attacker": color_name(self.attacker),
            "defender": color_name(self.defender),
            "target": [p.sgf for p in self.target],
            "threats": self.threats,
            "winner": None if self.winner is None else color_name(self.winner),
            "status": self.status,
            "by_threats": None if self.by_threats is None else {
                str(k): color_name(v) for k, v in sorted(self.by_threats.items())},
            "moves": pts(self.moves),
            "best_moves": pts(self.best_moves),
            "best_threats": self.best_threats,
            "best": None if self.best is None else self.best.sgf,
            "description": self.describe(),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "limit": self.limit,
            "inferred": None if inferred is None else inferred.to_json(size),
        }

    def describe(self) -> str:
        """One line in words, e.g. "White to play: lives unconditionally with C19 (cb)"."""
        side = "Black" if self.to_play == BLACK else "White"
        size = self.problem.size
        if self.status == "unknown":
            text = f"{side} to play: unknown (stopped by {budget_words(self.limit or '')})"
            if self.by_threats is not None:
                winners = set(self.by_threats.values())
                if len(winners) == 1:
                    who = "Black" if BLACK in winners else "White"
                    text += f"; {who} wins at every balance"
                else:
                    text += "; the winner changes with the ko threats"
            return text
        assert self.by_threats is not None
        me = self.to_play

        def mv(m: Point | None) -> str:
            if m is None:
                return ""
            if m == PASS:
                return " by passing"
            return f" with {to_gtp(m, size)} ({to_sgf(m, size)})"

        attacking = me == self.attacker
        if self.best_threats is None:
            verb = "cannot kill" if attacking else "cannot live"
            what = {"kill": "the group dies", "live": "the group lives",
                    "seki": "the group lives in seki", "ko": "ko"}[self.status]
            return f"{side} to play: {verb} ({what}, whatever the ko threats)"
        if self.status == "ko":
            verb = "kills" if attacking else "lives"
            other = "White" if me == BLACK else "Black"
            if _needs(me, self.best_threats):
                n = abs(self.best_threats)
                need = f"{side} needs {n} ko threat{'s' if n != 1 else ''}"
            else:
                n = abs(self.best_threats) + 1
                need = f"unless {other} has {n} more ko threat{'s' if n != 1 else ''}"
                return f"{side} to play: {verb} with a ko{mv(self.best)}, {need}"
            return f"{side} to play: {verb} with a ko{mv(self.best)}; {need}"
        if attacking:
            return f"{side} to play: kills unconditionally{mv(self.best)}"
        how = "lives unconditionally" if self.status == "live" else "lives in seki"
        return f"{side} to play: {how}{mv(self.best)}"


def _needs(color: int, balance: int) -> bool:
    """Does a win at ``balance`` need threats of ``color``'s own?"""
    return balance > 0 if color == BLACK else balance < 0


def least_favourable(color: int, by_threats: Mapping[int, int]) -> int | None:
    """The balance least favourable to ``color`` at which it still wins."""
    wins = [k for k, w in by_threats.items() if w == color]
    if not wins:
        return None
    return min(wins) if color == BLACK else max(wins)


def solve(problem: Problem, *, to_play: int | None = None, threats: int = 0,
          time_limit: float | None = None, max_nodes: int | None = None,
          tt_size: int = 2_000_000, options: SearchOptions = SearchOptions(),
          all_moves: bool = True, interrupt: Interrupt | None = None) -> Solution:
    """Solve ``problem`` with ``to_play`` (default: the problem's) moving first at balance
    ``threats`` (positive: Black has that many more ko threats).

    ``all_moves=False`` asks the question a player asks first, as other solvers answer it: the
    winner at every balance, the status, and *one* correct first move (``best``, at the balance
    least favourable to ``to_play`` at which it still wins), without proving or refuting every
    other first move; ``moves`` and ``best_moves`` are then ``None``.

    ``interrupt`` (a ``threading.Event``, say) stops the search once another thread sets it:
    the answer is then ``unknown``, its ``limit`` ``"interrupt"``."""
    # one pause of the collector around every search of the solve, ended once the engines
    # and their tables (freed with ``_solve``'s frame) are gone
    with deep_search():
        return _solve(problem, to_play, threats, time_limit, max_nodes, tt_size, options,
                      all_moves, interrupt)


def _solve(problem: Problem, to_play: int | None, threats: int, time_limit: float | None,
           max_nodes: int | None, tt_size: int, options: SearchOptions,
           all_moves: bool, interrupt: Interrupt | None) -> Solution:
    """:func:`solve`, inside the collector's pause."""
    color = int(problem.to_play if to_play is None else to_play)  # (a plain int: see board.py)
    if abs(threats) > 64:
        raise ValueError("threats must be within -64..64")
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    search = Searches(problem, color, tt_size, max_nodes, deadline, options, interrupt)
    moves: tuple[int, ...] | None = None
    best_moves: tuple[int, ...] | None = None
    status: Status = "unknown"
    limit: Budget | None = None
    quick_best: int | None = None
    by = search.by
    try:
        live_won = search.winners(threats)
        by_k = {k: by[k] for k in range(-K, K + 1)}
        status = search.status(by_k, live_won)
        best_k = least_favourable(color, by_k)
        if not all_moves:
            quick_best = search.quick_best(best_k)
        else:
            moves = search.winning_moves(threats)
            if best_k is None:
                best_moves = ()
            elif best_k == threats:
                best_moves = moves
            else:
                best_moves = search.winning_moves(best_k)
    except BudgetExhausted as e:
        limit = e.kind
        status = "unknown"
    seconds = time.monotonic() - start
    nodes = search.nodes()
    work = search.work
    size = problem.size
    if limit is not None:
        # what the limit left settled stays in the answer: the winner at the asked balance,
        # and at every balance once all of them are known (then only the status, live or
        # seki, or the first moves were left)
        known = by.get(threats)
        settled = ({k: Color(by[k]) for k in range(-K, K + 1)}
                   if all(k in by for k in range(-K, K + 1)) else None)
        return Solution(problem, Color(color), threats, None if known is None else Color(known),
                        "unknown", settled, None, None, None, None, nodes, seconds, limit, work)
    by_color = {k: Color(by[k]) for k in range(-K, K + 1)}
    best_k = least_favourable(color, by_color)
    best = quick_best
    if best_moves:
        # the move whose proof took the least work: the plainest win (a proxy for quickest)
        best = min(best_moves, key=lambda m: (m == PASS, work.get(m, 0)))
    return Solution(problem, Color(color), threats, Color(by[threats]), status, by_color,
                    None if moves is None else points(moves, size),
                    None if best_moves is None else points(best_moves, size), best_k,
                    None if best is None else Point(best, size), nodes, seconds, None, work)


class Searches:
    """The searches of one solve: the engine of the game of rules.md, the live game's engine
    once needed, and what they found (the winner by balance, a winning first move read off
    the root's proof by balance, the work of each first move's searches)."""

    def __init__(self, problem: Problem, color: int, tt_size: int, max_nodes: int | None,
                 deadline: float | None, options: SearchOptions,
                 interrupt: Interrupt | None = None) -> None:
        self.problem = problem
        self.color = color
        self.tt_size = tt_size
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.options = options
        self.interrupt = interrupt
        self.engine = new_engine(problem, tt_size=tt_size, max_nodes=max_nodes,
                                 deadline=deadline, options=options, interrupt=interrupt)
        self.live_engine: SearchEngine | None = None
        self.by: dict[int, int] = {}
        self.root_moves: dict[int, int] = {}
        self.work: dict[int, int] = {}
        self.worst = -K if problem.attacker == WHITE else K  # the attacker has K threats

    def nodes(self) -> int:
        """The nodes of every search (the engines count on from each other: the later is
        larger)."""
        if self.live_engine is not None:
            return max(self.engine.nodes, self.live_engine.nodes)
        return self.engine.nodes

    def winner_at(self, k: int) -> int:
        """The winner at balance ``k``, searched unless known."""
        by = self.by
        if k not in by:
            engine = self.engine
            w = engine.solve(self.color, k)
            by[k] = w
            if w == self.color and engine.root_move is not None:
                self.root_moves[k] = engine.root_move
            # monotone in the balance: a Black win holds at every larger balance, and so on
            for j in range(-K, K + 1):
                if (w == BLACK and j > k) or (w == WHITE and j < k):
                    by.setdefault(j, w)
        return by[k]

    def winning_moves(self, k: int) -> tuple[int, ...]:
        """The first moves that win at balance ``k``, each proved or refuted."""
        engine = self.engine
        out = []
        candidates = [*bits(self.problem.board().empty & self.problem.region), PASS]
        for m in candidates:
            before = engine.nodes
            w = engine.solve_after(self.color, m, k)
            self.work[m] = self.work.get(m, 0) + engine.nodes - before
            if w == self.color:
                out.append(m)
        return tuple(out)

    def live_game(self) -> SearchEngine:
        """An engine for the live game: the defender must end with a pass-alive target."""
        live = new_engine(self.problem, live=True, tt_size=max(1024, self.tt_size // 4),
                          max_nodes=self.max_nodes, deadline=self.deadline,
                          options=self.options, interrupt=self.interrupt)
        live.nodes = self.engine.nodes
        live.share_caches(self.engine)  # same board, region and target: same children
        self.live_engine = live
        return live

    def live_won_at_worst(self, live: SearchEngine) -> bool:
        """Does the defender win the live game at the worst balance? A live win is a win:
        its first move is the answer's move at that balance."""
        defender = self.problem.defender
        won = live.solve(self.color, self.worst) == defender
        self.engine.nodes = live.nodes
        if won and self.color == defender and live.root_move is not None:
            self.root_moves[self.worst] = live.root_move
        return won

    def winners(self, balance: int) -> bool | None:
        """Find the winner at every balance -K..K and at ``balance``; returns whether the
        defender wins the live game at the worst balance (None: not searched). That game is
        harder for the defender than the game of rules.md, and the worst balance is the
        hardest: a win there is a win at every balance, and a live one."""
        problem, color, options, by = self.problem, self.color, self.options, self.by
        live_won: bool | None = None
        if options.live_first and color == problem.defender and (
                balance <= K if problem.attacker == BLACK else balance >= -K):
            # the defender to play mostly lives: then this one search is the whole answer
            live = self.live_game()
            live_won = self.live_won_at_worst(live)
            if options.borrow:
                self.engine.borrow_wins(live)
            if live_won:
                for k in {*range(-K, K + 1), balance}:
                    by[k] = problem.defender
        if not live_won:
            # The winner changes at most once along -K..K (monotone), so a search fills in
            # every balance beyond it.
            if options.far_first:
                # The two ends first: a win where the winner has no threat and the loser K is
                # a win at every balance, and that one search is then the whole answer. The
                # attacker to play mostly kills: its end first (where the defender has K
                # threats). Balance 0 comes after them: df-pn can take a hundred times the
                # nodes there that an end takes to settle it (a seki, say, with the attacker
                # to play), though the end's proof would serve at 0 too.
                ends = ((-self.worst, self.worst) if color == problem.attacker
                        else (self.worst, -self.worst))
                for k in ends:
                    self.winner_at(k)
            # Then balance 0, the far end that favours the side losing at 0, and only if
            # that side wins there, the middle.
            self.winner_at(0)
            self.winner_at(balance)
            for k in ((K, 1) if by[0] == WHITE else (-K, -1)):
                if k not in by:
                    self.winner_at(k)
                    if by[k] == by[0]:
                        break
            for k in range(-K, K + 1):
                self.winner_at(k)  # all known by now except after a change of winner
        return live_won

    def status(self, by_k: Mapping[int, int], live_won: bool | None) -> Status:
        """The status from the winners at -K..K: where the defender wins at every balance,
        the live game (searched now unless it was) tells life from seki."""
        winners = set(by_k.values())
        if winners == {self.problem.attacker}:
            return "kill"
        if len(winners) == 2:
            return "ko"
        if live_won is None:
            live = self.live_game()
            if self.options.borrow:
                live.borrow_wins(self.engine)
            live_won = self.live_won_at_worst(live)
        return "live" if live_won else "seki"

    def quick_best(self, best_k: int | None) -> int | None:
        """One winning first move at ``best_k`` (None: no balance is won)."""
        if best_k in self.root_moves:
            return self.root_moves[best_k]
        if best_k is None:
            return None
        # the table mostly answers at once (a large proof may not fit the root's path and be
        # searched again)
        self.engine.solve(self.color, best_k)
        return self.engine.root_move


def status_both(problem: Problem, **kw: object) -> tuple[Solution, Solution]:
    """Solutions with each side to play (Black first)."""
    b = solve(problem, to_play=BLACK, **kw)  # type: ignore[arg-type]
    w = solve(problem, to_play=WHITE, **kw)  # type: ignore[arg-type]
    return b, w


__all__ = ["Solution", "Status", "Searches", "solve", "status_both", "K", "least_favourable",
           "target_benson_alive", "opponent"]
