"""Verifying one problem: the solver's answer against the book's, first moves and, with ``deep``,
every move along the book's lines."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from tsumego.batch.book import (
    BookMove,
    _book_says_ko,
    _merge,
    book_tree,
    detect_convention,
    mark_correct,
)
from tsumego.batch.results import Class, Options, Result, Task
from tsumego.errors import BudgetExhausted, budget_words
from tsumego.go.board import BLACK, bits, color_name, opponent
from tsumego.go.coords import PASS, from_sgf, to_gtp, to_sgf
from tsumego.go.line import IllegalLine
from tsumego.go.problem import Problem, ProblemError
from tsumego.io.sgf import SgfError, TooOpenFile, parse_problem, read_tree
from tsumego.knowledge.infer import Inference
from tsumego.search.lines import LinePosition
from tsumego.search.reading import fails_everywhere, open_note, read_again, reading_note
from tsumego.search.solver import K, Solution, solve

SOLVE_SHARE = 0.75  # of the time limit, for the full search when the book has an answer


# --- verifying one problem ------------------------------------------------------------------

def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def _mv(m: int, size: int) -> str:
    return "pass" if m == PASS else f"{to_sgf(m, size)} ({to_gtp(m, size)})"


def _mvs(ms: Iterable[int], size: int) -> str:
    ms = list(ms)
    return ", ".join(_mv(m, size) for m in ms) if ms else "none"


def _pt(m: int, size: int) -> str:
    return to_sgf(m, size)


def _balance_text(color: int, k: int | None) -> str:
    """How comfortably ``color`` wins when its least favourable winning balance is ``k``."""
    if k is None:
        return "fails whatever the ko threats"
    need = k if color == BLACK else -k
    if need > 0:
        return f"wins only a ko, for which it needs {need} ko threat{'s' if need > 1 else ''}"
    if need == 0:
        return "wins only a ko, which it loses if the opponent has one more ko threat"
    if -need >= K:
        return "wins unconditionally"
    return f"wins a ko even if the opponent has {-need} more ko threat{'s' if -need > 1 else ''}"


def _clean(color: int, k: int | None) -> bool:
    return k is not None and (k == -K if color == BLACK else k == K)


def _board_json(problem: Problem, frame: int = 0) -> dict[str, Any]:
    """The board of a result: the stones (the frame's among them), the target, the region and
    the frame stones (added around a plain problem: not in the book)."""
    size = problem.size
    return {"size": size,
            "black": [to_sgf(p, size) for p in bits(problem.black)],
            "white": [to_sgf(p, size) for p in bits(problem.white)],
            "target": [to_sgf(p, size) for p in bits(problem.target)],
            "region": [to_sgf(p, size) for p in bits(problem.region)],
            "frame": [to_sgf(p, size) for p in bits(frame)]}


def _deadline(start: float, options: Options) -> float | None:
    return None if options.time_limit is None else start + options.time_limit


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.001, deadline - time.monotonic())


def verify_problem(task: Task, options: Options) -> Result:
    """Verify one problem. Never raises for a bad file (the result is ``error``)."""
    start = time.monotonic()
    res = Result(task.file, task.game)
    try:
        _verify(task, options, res, start)
        res.frame_decides()
    except (SgfError, ProblemError) as e:
        res.findings.clear()
        res.add("error", str(e))
        res.error = str(e)
    except RecursionError:
        res.findings.clear()
        res.error = f"{task.name}: the SGF tree is too deep to read"
        res.add("error", res.error)
    except Exception as e:  # a bug must not stop the run: report it on this problem
        res.findings.clear()
        res.error = f"{task.name}: internal error: {type(e).__name__}: {e}"
        res.add("error", res.error)
    res.settle()
    res.seconds = time.monotonic() - start
    return res


def _verify(task: Task, options: Options, res: Result, start: float) -> None:
    if task.read_error:
        raise SgfError(task.read_error)
    name = task.name
    tree = read_tree(task.data, name)
    too_open: TooOpenFile | None = None
    try:
        pf = parse_problem(task.data, name)
    except TooOpenFile as e:  # read again below, or refused
        pf, too_open = e.file, e
    problem = pf.problem
    size = problem.size
    c = problem.to_play
    o = opponent(c)
    res.to_play = color_name(c)
    res.board = _board_json(problem, pf.frame)
    if not pf.pl_given:
        res.notes.append(f"the file has no PL: {_side(c)} to play was assumed (rules.md)")
    inf = pf.inferred
    framed_at = len(res.notes)  # where the note on the frame goes (it follows a reading again)
    if inf is not None and inf.framed:
        res.notes.append(_framed_note(problem, inf))
        res.frame_sensitive = inf.frame_sensitive

    # the book
    top = book_tree(tree)
    convention = options.answers if options.answers != "auto" else detect_convention(top)
    res.answers = convention
    mark_correct(top, convention)
    correct: list[int] = []
    wrong: list[int] = []
    bad_points: list[str] = []
    others = 0
    for m in top:
        if m.color != c:
            others += 1
            continue
        try:
            p = from_sgf(m.point, size)
        except ValueError:
            bad_points.append(m.point)
            continue
        (correct if m.correct else wrong).append(p)
    correct = sorted(set(correct), key=_order)
    wrong = sorted(set(wrong) - set(correct), key=_order)
    res.book_correct = [_pt(p, size) for p in correct]
    res.book_wrong = [_pt(p, size) for p in wrong]
    if others:
        res.notes.append(f"the book has {others} line(s) starting with a {_side(o)} move; only "
                         f"{_side(c)} to play is checked")
    for bp in bad_points:
        res.add("book-move-fails", f"the book's move {bp!r} is not a point of the "
                                   f"{size}x{size} board")

    # the proof
    deadline = _deadline(start, options)
    solve_deadline = deadline
    if deadline is not None and options.time_limit is not None and correct:
        # keep a quarter of the time to check the book's moves alone if the full search
        # does not finish
        solve_deadline = start + SOLVE_SHARE * options.time_limit

    def solve_one(p: Problem, color: int) -> Solution:
        return solve(p, to_play=color, time_limit=_remaining(solve_deadline),
                     tt_size=options.tt_size, all_moves=False)

    if too_open is not None:
        # too open as first inferred: another reading, as ``tsumego solve`` reads it
        assert inf is not None
        opened = read_again(problem, inf, pf.comment, solve_one, name=name, too_open=True)
        if opened is None:  # refused, and nothing of the reading too open is kept
            res.notes.clear()
            res.to_play = res.board = res.frame_sensitive = None
            raise too_open
        res.notes.append("read again: " + open_note(inf, too_open.empty, opened))
        problem, inf = opened.problem, opened.inferred
        res.notes[framed_at] = _framed_note(problem, inf)
        res.board = _board_json(problem, inf.frame)
        res.frame_sensitive = inf.frame_sensitive
    sol = solve(problem, to_play=c, time_limit=_remaining(solve_deadline),
                tt_size=options.tt_size)
    if inf is not None and fails_everywhere(sol):
        # no solution in the first reading: read again, as ``tsumego solve`` does
        again = read_again(problem, inf, pf.comment, solve_one, name=name)
        if again is not None:
            res.notes.append("read again: " + reading_note(inf, again))
            problem, inf = again.problem, again.inferred
            res.notes[framed_at] = _framed_note(problem, inf)
            res.board = _board_json(problem, inf.frame)
            res.frame_sensitive = inf.frame_sensitive
            sol = solve(problem, to_play=c, time_limit=_remaining(solve_deadline),
                        tt_size=options.tt_size)
    res.status = sol.status
    if sol.status == "unknown":
        res.add("unknown", f"{_side(c)} to play: {budget_words(sol.limit or '')} stopped "
                           f"the search ({options.time_limit} s per problem)")
        if correct:
            _check_book_moves(res, problem, c, correct, deadline, options.tt_size)
        return
    assert sol.best_moves is not None
    best: set[int] = set(sol.best_moves)
    res.solver_moves = [_pt(p, size) for p in sorted(best, key=_order)]
    res.best_threats = sol.best_threats
    bk = sol.best_threats
    line = LinePosition(problem, deadline=deadline, tt_size=options.tt_size,
                        balance=0 if bk is None else bk)
    try:
        _compare(res, sol, line, correct, wrong, best, _book_says_ko(top, c))
        if options.deep and bk is not None and not any(
                f["class"] in ("unknown", "error") for f in res.findings):
            _Deep(res, line, c, best, bk).run(top)
    except BudgetExhausted as e:
        res.notes.append(f"the {e.kind} limit stopped the checks after the main search; "
                         f"what is listed was completed")


def _framed_note(problem: Problem, inf: Inference) -> str:
    """The note on a plain problem's inference and frame."""
    n = inf.frame.bit_count()
    return ("a plain problem: the target, the roles and the region were inferred"
            + (f", and {n} virtual {_side(problem.attacker)} stone{'s' if n != 1 else ''} "
               f"frame it" if n else ""))


def _check_book_moves(res: Result, problem: Problem, c: int, correct: list[int],
                      deadline: float | None, tt_size: int) -> None:
    """When the full search did not finish: is each of the book's moves at least a proved
    unconditional win? (Notes only: the class stays ``unknown``.)"""
    size = problem.size
    clean = -K if c == BLACK else K
    line = LinePosition(problem, deadline=deadline, tt_size=tt_size, balance=clean)
    for m in correct:
        try:
            w = line.winner_after(c, m)
        except BudgetExhausted:
            res.notes.append(f"the book's move {_mv(m, size)} was not decided either")
            continue
        if w == c:
            res.notes.append(f"the book's move {_mv(m, size)} is proved to win unconditionally"
                             f" (whether other first moves work too is not known)")
        elif w is None:
            res.notes.append(f"the book's move {_mv(m, size)} cannot be played: "
                             f"{_illegal_reason(problem, c, m) or 'illegal'}")
        else:
            res.notes.append(f"the book's move {_mv(m, size)} does not win unconditionally "
                             f"(at best it wins a ko)")


def _order(m: int) -> tuple[bool, int]:
    return (m == PASS, m)


def _compare(res: Result, sol: Solution, line: LinePosition, correct: list[int],
             wrong: list[int], best: set[int], book_ko: bool) -> None:
    """The first-move comparison (classes no-solution, book-move-fails, wrong-line-works,
    extra-solutions, no-answer, agree)."""
    problem = sol.problem
    size = problem.size
    c = sol.to_play
    o = opponent(c)
    bk = sol.best_threats
    if bk is None:
        res.add("no-solution", sol.describe() + (
            f"; the book's move{'s' if len(correct) > 1 else ''} "
            f"{_mvs(correct, size)} cannot succeed either" if correct else ""))
        fav = K if c == BLACK else -K  # refute even when c has every threat of the range
        for m in correct:
            _refute(res, line, c, m, fav)
        return
    how = _balance_text(c, bk)
    for m in correct:
        if m in best:
            continue
        reason = _illegal_reason(problem, c, m)
        if reason:
            res.add("book-move-fails", f"the book's move {_mv(m, size)} {reason}; the solver's "
                                       f"best: {_mvs(sorted(best, key=_order), size)}")
            continue
        k = line.threshold(c, m)
        if k is None:
            what = f"{_side(c)} {_mv(m, size)} fails"
        else:
            what = f"{_side(c)} {_mv(m, size)} {_balance_text(c, k)}, but a better result " \
                   f"exists: {_side(c)} {how}"
        refs = _refute(res, line, c, m, bk)
        res.add("book-move-fails", f"{what}; refuted by {_side(o)} {_mvs(refs, size)}; the "
                                   f"solver's best: {_mvs(sorted(best, key=_order), size)}")
    for m in wrong:
        if m in best:
            res.add("wrong-line-works", f"the book calls {_side(c)} {_mv(m, size)} wrong, but "
                                        f"it {how}")
    # books never list a pass: where passing wins too (the group is dead, or alive, as it
    # stands; or the attacker waits until the ko threats are gone), a note says so
    extra = sorted(best - set(correct) - set(wrong) - {PASS}, key=_order)
    if PASS in best and PASS not in correct and PASS not in wrong:
        res.notes.append(f"passing also wins for {_side(c)}, who {how}")
    if not correct:
        res.add("no-answer", f"the book gives no correct first move; the solver: "
                             f"{sol.describe()}; best first moves: "
                             f"{_mvs(sorted(best, key=_order), size)}")
    elif extra:
        res.add("extra-solutions", f"the solver also proves {_mvs(extra, size)} "
                                   f"(the book lists {_mvs(correct, size)}; {_side(c)} {how})")
    if not _clean(c, bk):
        res.notes.append(f"the best result is a ko: {_side(c)} {how}")
    elif book_ko and correct and all(m in best for m in correct):
        res.notes.append(f"the book speaks of a ko, but {_side(c)} {how}")


def _illegal_reason(problem: Problem, color: int, m: int) -> str | None:
    if m == PASS:
        return None
    if (problem.black | problem.white) >> m & 1:
        return "is on an occupied point"
    if not problem.region >> m & 1:
        return ("is outside the region the solver derives from the problem (the frame may be "
                "too tight, or the move is not needed)")
    b = problem.board()
    if b.play_fast(m, color) < 0:
        return "is suicide"
    return None


def _refute(res: Result, line: LinePosition, c: int, m: int, balance: int) -> list[int]:
    """The opponent's winning replies after ``c`` plays ``m`` at the root (at ``balance``),
    recorded in ``res.refutation``."""
    size = line.problem.size
    o = opponent(c)
    saved = line.balance
    line.balance = balance
    try:
        line.push(c, m)
    except IllegalLine:
        line.balance = saved
        return []
    try:
        if line.ended:
            refs: list[int] = []
        else:
            refs = line.winning_replies(o)
    finally:
        line.pop()
        line.balance = saved
    res.refutation[_pt(m, size)] = [_pt(r, size) for r in sorted(refs, key=_order)]
    return sorted(refs, key=_order)


class _Deep:
    """The deep checks along the book's lines (see the module doc)."""

    MAX_DEPTH = 400

    def __init__(self, res: Result, line: LinePosition, c: int, best: set[int],
                 balance: int) -> None:
        self.res = res
        self.line = line
        self.c = c
        self.best = best
        self.balance = balance
        self.size = line.problem.size
        self.moves: list[str] = []  # the current line, for the texts
        self.cut_notes = 0

    def _where(self) -> str:
        return "after " + " ".join(self.moves) if self.moves else "at the start"

    def run(self, top: list[BookMove]) -> None:
        c = self.c
        o = opponent(c)
        size = self.size
        for m in _merge(top):
            if m.color != c:
                continue
            try:
                p = from_sgf(m.point, size)
            except ValueError:
                continue
            if m.correct and p not in self.best or not m.correct and p in self.best:
                continue  # reported by the first-move comparison
            self._descend(m, p, c if m.correct else o)

    def _descend(self, m: BookMove, p: int, winner: int) -> None:
        """Play ``m`` (already checked) and check its subtree."""
        line = self.line
        self.moves.append(f"{color_name(m.color)}[{to_sgf(p, self.size) if p != PASS else ''}]")
        try:
            line.push(m.color, p)
        except IllegalLine as e:
            self._cut(f"{self._where()}: {e.text}")
            self.moves.pop()
            return
        try:
            if line.ended or not m.children:
                return
            if len(self.moves) >= self.MAX_DEPTH:
                self._cut(f"lines longer than {self.MAX_DEPTH} moves are not followed")
                return
            self._children(m.children, opponent(m.color), winner)
        finally:
            line.pop()
            self.moves.pop()

    def _cut(self, text: str) -> None:
        if self.cut_notes < 5:
            self.res.notes.append(f"deep: not followed {text}")
        self.cut_notes += 1

    def _children(self, children: list[BookMove], to_move: int, winner: int) -> None:
        line = self.line
        merged = _merge(children)
        same = [m for m in merged if m.color == to_move]
        if len(same) < len(merged):  # moves of the side that just played: the other passed
            line_moves = len(self.moves)
            self.moves.append(f"{color_name(to_move)}[]")
            try:
                line.push(to_move, PASS)
            except IllegalLine as e:  # cannot happen for a pass; keep the type checker calm
                self._cut(f"{self._where()}: {e.text}")
                del self.moves[line_moves:]
                return
            try:
                if not line.ended:
                    self._children([m for m in merged if m.color != to_move],
                                   opponent(to_move), winner)
            finally:
                line.pop()
                del self.moves[line_moves:]
        if same:
            self._moves(same, to_move, winner)

    def _moves(self, moves: list[BookMove], mover: int, winner: int) -> None:
        c = self.c
        o = opponent(c)
        line = self.line
        size = self.size
        resist: dict[int, int | None] | None = None
        for m in moves:
            try:
                p = from_sgf(m.point, size)
            except ValueError:
                self._cut(f"{self._where()}: {m.point!r} is not a point of the board")
                continue
            n = len(self.moves) + 1
            what = f"move {n} ({_side(mover)} {_mv(p, size)}, {self._where()})"
            if mover == c and winner == c:
                wins = line.winner_after(mover, p)
                if wins is None:
                    self._illegal(m, p, mover, "book-move-fails" if m.correct else None, what)
                    continue
                if m.correct and wins != c:
                    refs = self._replies_after(mover, p)
                    self.res.add("book-move-fails", f"{what} loses{self._ko(mover, p)}: "
                                                    f"{_side(o)} refutes with {_mvs(refs, size)}")
                    continue
                if not m.correct and wins == c:
                    self.res.add("wrong-line-works", f"the book calls {what} wrong, but it "
                                                     f"keeps the win")
                    continue
                self._descend(m, p, c if m.correct else o)
            elif mover == winner:  # the refuting side along a wrong line
                wins = line.winner_after(mover, p)
                if wins is None:
                    self._illegal(m, p, mover, "bad-refutation", what)
                    continue
                if wins != winner:
                    refs = self._replies_after(mover, p)
                    self.res.add("bad-refutation", f"the book's refutation {what} fails"
                                                   f"{self._ko(mover, p)}: "
                                                   f"{_side(opponent(mover))} wins with "
                                                   f"{_mvs(refs, size)}")
                    continue
                self._descend(m, p, winner)
            else:  # the losing side: one of its best resistances?
                if resist is None:
                    resist = {q: line.threshold(mover, q) for q in line.candidates(mover)}
                if p not in resist or line.winner_after(mover, p) is None:
                    self._illegal(m, p, mover, "weak-reply", what)
                    continue
                bestk = _best_threshold(mover, resist.values())
                if bestk is not None and resist[p] != bestk:
                    stronger = sorted((q for q, k in resist.items() if k == bestk), key=_order)
                    self.res.add("weak-reply", f"{what} is not a best resistance: "
                                               f"{_mvs(stronger, size)} would make "
                                               f"{_side(winner)} need more: after it "
                                               f"{_side(mover)} {_balance_text(mover, bestk)}"
                                               )
                    continue
                self._descend(m, p, winner)

    def _ko(self, mover: int, p: int) -> str:
        """For a move that loses at the line's balance: does it win a ko at another?"""
        k = self.line.threshold(mover, p)
        if k is None:
            return ""
        return (f" at the line's ko-threat balance {self.line.balance:+d}: it "
                f"{_balance_text(mover, k)}")

    def _illegal(self, m: BookMove, p: int, mover: int, cls: Class | None, what: str) -> None:
        try:
            self.line.push(mover, p)
        except IllegalLine as e:
            if e.kind in ("occupied", "suicide") and cls is not None:
                self.res.add(cls, f"{what} is illegal: {e.text}")
            else:
                self._cut(f"{self._where()}: {e.text}")
            return
        self.line.pop()

    def _replies_after(self, mover: int, p: int) -> list[int]:
        line = self.line
        line.push(mover, p)
        try:
            if line.ended:
                return []
            return sorted(line.winning_replies(opponent(mover)), key=_order)
        finally:
            line.pop()


def _best_threshold(color: int, ks: Iterable[int | None]) -> int | None:
    vals = [k for k in ks if k is not None]
    if not vals:
        return None
    return min(vals) if color == BLACK else max(vals)


