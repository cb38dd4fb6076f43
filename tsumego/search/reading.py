"""Another reading of a plain problem, where the inferred one has no solution or is too open.

A plain problem says only who plays (inference, :mod:`tsumego.knowledge.infer`, guesses the
rest from the position). A published problem always has a solution for the side to play, so
when the solver proves that the side to play fails at every ko-threat balance in the inferred
reading, that reading is not the author's. Nor is a reading whose framed region is too open
for a life-and-death problem (:class:`tsumego.knowledge.infer.TooOpen`): the roles were
often read the wrong way round, the defender's real target a small group in the corner and
the first reading's a group facing the open board. The other readings, in order:

1. the defender's next largest blocks of two stones or more as the target, the larger first
   (at most :data:`OTHER_TARGETS`);
2. the roles swapped: the other colour defends its largest enclosed block (only when the
   roles were inferred from the position, not stated by the comment), then its next largest
   blocks as in 1;
3. the first reading's roles and target in a wider frame (:func:`wider_framings`): its zone
   two lines farther out, then a box around the stones. The frame stands for an outside that
   is the attacker's, and where it joins attacker stones of the position to its ring (stones
   the defender captures in the book, or whose liberties it takes), the side to play may fail
   in the frame and succeed on the book's board.

For a first reading too open, 2 comes before 1, and 3 is left out (a wider frame is more open
still).

A first reading whose search the time or node limit stopped is read once more, in a frame
drawn closer (:func:`tighter_framing`: the inside within one line of the defender's stones, no
line beyond): a book's corner is often solved there in a fraction of the time, and the
answer, exact for that frame, is the first reading's goal and target with less room around
them (:func:`read_tighter`).

The caller solves them in turn and answers the first that is a problem (:func:`poses`): the
side to play wins at some balance, and so does the other side when it moves first (a reading
where the side to play wins whatever it plays, a target already dead, is no problem). It says
so: each answer is exact for the problem it answers, and the note names that problem and why
the first reading was left. Where no reading poses a problem, the first reading's answer
stands (or, for a reading too open, its refusal). Nothing is read again when the user gave
the goal, the target or the region, or when the problem is marked (MA).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from tsumego.go.board import Color, bits
from tsumego.go.coords import to_gtp, to_sgf
from tsumego.go.problem import Problem, ProblemError
from tsumego.knowledge.infer import DEFAULT_FRAMING, Framing, Inference, book_board, infer_problem
from tsumego.search.solver import Solution

OTHER_TARGETS = 2  # the defender's next largest blocks tried as the target
WIDER_LINES = 2  # a wider frame's zone reaches this many lines farther than the first's
TIGHT_DISTANCE = 1  # a tighter frame's inside reaches this many lines from the defender
TIGHT_BEYOND = 0  # and keeps this many lines of empty board beyond it
# nodes for each solve of a reading tried again, where the caller sets no limit: the user
# asked for none of these searches (a wider frame's region may be large), and the first
# reading's answer, or its refusal, comes at the end
OPEN_NODES = 500_000
ROLE_RULES = ("enclosure", "enclosure-2", "height")  # the roles were read from the position


@dataclass(frozen=True)
class Reading:
    """A reading of a plain problem: the problem framed for it, what was inferred, and in
    words how it differs from the first reading."""

    problem: Problem
    inferred: Inference
    why: str

    def answered_for(self, first: Inference, note: str) -> Inference:
        """What was inferred for this reading, as answered in place of ``first``: rule
        ``read again``, the first reading's confidence, and ``note`` (why) among the notes."""
        return replace(self.inferred, rule="read again", confidence=first.confidence,
                       notes=(*self.inferred.notes, note))


def wins_nowhere(by_threats: Mapping[int, int], to_play: int) -> bool:
    """Whether the winners by balance ``by_threats`` give ``to_play`` no balance."""
    return all(w != to_play for w in by_threats.values())


def fails_everywhere(sol: Solution) -> bool:
    """Whether ``sol`` proves that its side to play wins at no balance."""
    return (sol.limit is None and sol.by_threats is not None
            and wins_nowhere(sol.by_threats, sol.to_play))


def other_targets(problem: Problem, frame: int, comment: str = "", *, name: str = "",
                  framing: Framing = DEFAULT_FRAMING) -> list[Reading]:
    """The readings with another of the defender's blocks as the target, on the book's
    board (``problem`` without its ``frame`` stones): its :data:`OTHER_TARGETS` largest
    blocks of two stones or more beside the target, the larger first. A reading that cannot
    be framed is left out."""
    board = book_board(problem, frame)
    to_play, size = problem.to_play, problem.size
    side, defender = Color(to_play), Color(problem.defender)
    others = [b for b in board.blocks(defender) if b & (b - 1) and not b & problem.target]
    others.sort(key=lambda b: -b.bit_count())
    out: list[Reading] = []
    for blk in others[:OTHER_TARGETS]:
        first = (blk & -blk).bit_length() - 1
        try:
            p, inf = infer_problem(board, to_play, comment, target=[first], name=name,
                                   framing=framing)
        except ProblemError:
            continue
        where = f"{to_gtp(first, size)} ({to_sgf(first, size)})"
        what = (f"{side} to save its block at {where}" if side == defender else
                f"{side} to kill {defender}'s block at {where}")
        out.append(Reading(p, inf, f"another target, {what}, {blk.bit_count()} stones"))
    return out


def wider_framings(framing: Framing) -> list[tuple[str, Framing]]:
    """The frames wider than ``framing``, each with its words, the nearer first: its zone
    :data:`WIDER_LINES` farther out, then (unless ``framing`` is one) a box around the
    stones, whose ring keeps off the attacker's stones near the defender."""
    out = [(f"framed {WIDER_LINES} lines farther out",
            replace(framing, distance=framing.distance + WIDER_LINES,
                    margin=framing.margin + WIDER_LINES))]
    if framing.mode != "box":
        out.append(("framed as a box around the stones", replace(framing, mode="box")))
    return out


def reframed(problem: Problem, inferred: Inference, comment: str = "", *, name: str = "",
             framing: Framing = DEFAULT_FRAMING) -> tuple[Problem, Inference]:
    """The reading ``inferred`` of ``problem`` (its goal and target) framed with
    ``framing`` instead, on the book's board. Raises
    :class:`tsumego.go.problem.ProblemError` where that frame cannot be drawn (too open,
    among others)."""
    p, inf = infer_problem(book_board(problem, inferred.frame), problem.to_play, comment,
                           goal=inferred.goal, target=list(bits(problem.target)), name=name,
                           framing=framing)
    # how the roles and the target were found is the first reading's; the frame's note (an
    # inference's last) is the new frame's
    return p, replace(inf, notes=(*inferred.notes[:-1], inf.notes[-1]))


def wider_frames(problem: Problem, inferred: Inference, comment: str = "", *, name: str = "",
                 framing: Framing = DEFAULT_FRAMING) -> list[Reading]:
    """The reading of ``inferred`` in each of :func:`wider_framings` (:func:`reframed`). A
    frame that cannot be drawn or gives a region already tried is left out."""
    side = Color(problem.to_play)
    tried = {problem.region}
    out: list[Reading] = []
    for words, wider in wider_framings(framing):
        try:
            p, inf = reframed(problem, inferred, comment, name=name, framing=wider)
        except ProblemError:
            continue
        if p.region in tried:
            continue
        tried.add(p.region)
        empty = p.region_empty
        out.append(Reading(p, inf, f"the same target, {side} to {inferred.goal}, {words} "
                                   f"({empty} empty points)"))
    return out


def tighter_framing(framing: Framing) -> Framing | None:
    """The frame drawn closer than ``framing`` (inside mode): the inside within
    :data:`TIGHT_DISTANCE` line of the defender's stones and :data:`TIGHT_BEYOND` lines beyond
    it; None where ``framing`` is no wider, or is not inside mode."""
    if framing.mode != "inside":
        return None
    tight = replace(framing, distance=min(framing.distance, TIGHT_DISTANCE),
                    beyond=min(framing.beyond, TIGHT_BEYOND))
    return None if tight == framing else tight


def tighter_frame(problem: Problem, inferred: Inference, comment: str = "", *, name: str = "",
                  framing: Framing = DEFAULT_FRAMING) -> Reading | None:
    """The reading of ``inferred`` (its goal and target) in :func:`tighter_framing`; None for a
    marked problem or one whose goal or target the user gave, where there is no tighter frame,
    where it cannot be drawn, or where its region has no fewer empty points."""
    tight = tighter_framing(framing)
    if tight is None or inferred.rule not in (*ROLE_RULES, "comment"):
        return None
    try:
        p, inf = reframed(problem, inferred, comment, name=name, framing=tight)
    except ProblemError:
        return None
    empty = p.region_empty
    if empty >= problem.region_empty:
        return None
    side = Color(problem.to_play)
    return Reading(p, inf, f"the same target, {side} to {inferred.goal}, framed closer, "
                           f"within {tight.distance} line of the defender's stones "
                           f"({empty} empty points)")


def read_tighter(problem: Problem, inferred: Inference, comment: str,
                 solve_one: Callable[[Problem, int], Solution], *, name: str = "",
                 framing: Framing = DEFAULT_FRAMING) -> Reading | None:
    """The reading in a frame drawn closer (:func:`tighter_frame`) where it :func:`poses` a
    problem, each side's answer found by ``solve_one(problem, to_play)`` (the caller's
    limits); None otherwise. ``problem`` is the first reading, whose search a limit
    stopped."""
    r = tighter_frame(problem, inferred, comment, name=name, framing=framing)
    if r is None:
        return None
    side = Color(problem.to_play)
    mine = solve_one(r.problem, side)
    if mine.limit is not None or fails_everywhere(mine):
        return None
    return r if poses(mine, solve_one(r.problem, side.opponent)) else None


def stopped_by_limit(sol: Solution) -> bool:
    """Whether the time or node limit stopped ``sol``'s search (not an interrupt, nor
    memory): a first reading :func:`read_tighter` may read again."""
    return sol.limit in ("time", "nodes")


def other_readings(problem: Problem, inferred: Inference, comment: str = "", *,
                   name: str = "", framing: Framing = DEFAULT_FRAMING,
                   too_open: bool = False) -> list[Reading]:
    """The readings to try after ``inferred`` (the module docstring says which, in order;
    with ``too_open``, for a first reading too open, those with the roles swapped come first,
    for such a reading most often has the roles the wrong way round, and the defender's other
    blocks are then its wall, facing the open board; and no wider frame is tried); none for a
    marked problem or one whose goal or target the user gave. A reading that cannot be framed
    is left out."""
    if inferred.rule not in (*ROLE_RULES, "comment"):
        return []
    same = other_targets(problem, inferred.frame, comment, name=name, framing=framing)
    swapped: list[Reading] = []
    if inferred.rule in ROLE_RULES:
        goal = "kill" if inferred.goal == "live" else "live"
        try:
            p, inf = infer_problem(book_board(problem, inferred.frame), problem.to_play,
                                   comment, goal=goal, name=name, framing=framing)
        except ProblemError:
            pass
        else:
            swapped.append(Reading(p, inf,
                                   f"the roles swapped, {Color(problem.to_play)} to {goal}"))
            swapped += [Reading(r.problem, r.inferred, f"the roles swapped and {r.why}")
                        for r in other_targets(p, inf.frame, comment, name=name,
                                               framing=framing)]
    if too_open:
        return swapped + same
    return same + swapped + wider_frames(problem, inferred, comment, name=name,
                                         framing=framing)


def poses(mine: Solution, theirs: Solution) -> bool:
    """Whether a reading is a problem, by the solutions for its side to play (``mine``) and
    for the other side moving first (``theirs``): both settled, and each side wins at some
    balance when it moves first."""
    return (mine.limit is None and theirs.limit is None and not fails_everywhere(mine)
            and not fails_everywhere(theirs))


def reading_note(first: Inference, reading: Reading) -> str:
    """Why the answer is for ``reading``: the first reading, and what the solver proved of
    it (its side to play loses at every balance)."""
    side = Color(first.to_play)
    failed = ("cannot live" if side == first.defender
              else f"cannot kill {side.opponent}'s target")
    return (f"as first inferred ({side} to {first.goal}), {side} {failed} whatever the ko "
            f"threats, and a published problem has a solution; read instead as "
            f"{reading.why}")


def limit_note(first: Inference, sol: Solution, reading: Reading) -> str:
    """Why the answer is for ``reading``: the first reading, whose search a limit stopped
    (``sol``)."""
    side = Color(first.to_play)
    limit = "node" if sol.limit == "nodes" else str(sol.limit)
    return (f"as first inferred ({side} to {first.goal}), the {limit} limit stopped the "
            f"search; read instead as {reading.why}")


def open_note(first: Inference, empty: int, reading: Reading) -> str:
    """Why the answer is for ``reading``: the first reading, whose framed region has
    ``empty`` empty points (:class:`tsumego.knowledge.infer.TooOpen`)."""
    side = Color(first.to_play)
    return (f"as first inferred ({side} to {first.goal}), the framed region has {empty} empty "
            f"points, too open for a life-and-death problem; read instead as {reading.why}")


def read_again(problem: Problem, inferred: Inference, comment: str,
               solve_one: Callable[[Problem, int], Solution], *, name: str = "",
               framing: Framing = DEFAULT_FRAMING, too_open: bool = False) -> Reading | None:
    """The first of :func:`other_readings` that :func:`poses` a problem, each side's answer
    found by ``solve_one(problem, to_play)`` (the caller's limits; one correct first move is
    enough); None if none does. ``problem`` is the first reading: one whose side to play has
    no solution, or, with ``too_open``, one too open to be solved
    (:class:`tsumego.knowledge.infer.TooOpen`'s ``problem`` and ``inferred``; then the roles
    swapped come first). Other readings too open are left out."""
    side = Color(problem.to_play)
    for r in other_readings(problem, inferred, comment, name=name, framing=framing,
                            too_open=too_open):
        mine = solve_one(r.problem, side)
        if mine.limit is not None or fails_everywhere(mine):
            continue  # no problem for the side to play: the other side need not be solved
        if poses(mine, solve_one(r.problem, side.opponent)):
            return r
    return None
