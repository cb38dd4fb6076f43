"""``tsumego gtp``: the solver as a GTP (Go Text Protocol, version 2) engine for board
programs such as Sabaki and GoGui.

The engine keeps the board as the controller sends it (``play``, ``gogui-setup``,
``loadsgf``) and solves the position on it as a life-and-death problem: the target marked
with ``MA`` in a file given to ``loadsgf``, otherwise the problem inferred from the stones
as ``tsumego solve`` infers a plain problem (:mod:`tsumego.knowledge.infer`; a board too open
as first read is read again as ``tsumego solve`` reads it). The problem is set up
the first time it is needed, from the board as it is then (its *root*); every move played
after that is a move of the problem, searched with the line's own history of positions and
ko-threat balance (:class:`tsumego.search.lines.LinePosition`), so that a retaken ko is judged as
the rules judge it. A move outside the problem's region that touches nothing of it is a play
elsewhere (a pass in the problem); one that touches it, or a board that no longer matches the
problem, makes the engine set the problem up again from the board (and say so).

``genmove`` plays a proven correct move, passes when passing is correct (the position is
settled), and resigns when every move loses; when a limit stops the search it says so on
stderr and in the analysis, and plays a move proven to win if it found one, else passes.
The analyze commands (GoGui's ``gogui-analyze_commands``, Sabaki's ``analyze``) show the
status in words, every correct move on the board and the main line.

This module is not imported by the core modules.
"""

from __future__ import annotations

import queue
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TextIO

from tsumego import __version__
from tsumego.batch.verify import IllegalLine, LinePosition
from tsumego.cli.diagram import labelled, problem_diagram
from tsumego.errors import BudgetExhausted, TsumegoError, budget_words
from tsumego.go.board import BLACK, WHITE, Board, IllegalMove, Undo, bits, color_name, opponent
from tsumego.go.coords import PASS, from_gtp, to_gtp, to_sgf
from tsumego.go.life import target_benson_alive
from tsumego.go.problem import Problem, ProblemError
from tsumego.io.sgf import parse_position, problem_of, read_sgf_bytes, split_collection
from tsumego.knowledge.infer import Inference, TooOpen, infer_with_overrides
from tsumego.search.reading import Reading, open_note, read_again, reading_note
from tsumego.search.solver import K, Solution, solve

MAX_MAIN_LINE = 24  # plies of the main line shown at most
KEEP_PROBLEMS = 8  # problems (and their search tables) remembered by their root position
MIN_SIZE, MAX_SIZE = 2, 19


class GtpError(TsumegoError):
    """A command that fails: its message is the text of the ``? ...`` response."""


def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def _vertex(p: int, size: int) -> str:
    return "pass" if p == PASS else to_gtp(p, size)


def _mv(p: int, size: int) -> str:
    """A move for people: ``B2 (be)`` or ``pass``."""
    return "pass" if p == PASS else f"{to_gtp(p, size)} ({to_sgf(p, size)})"


def _needs(color: int, balance: int) -> bool:
    """Does a win at ``balance`` need ko threats of ``color``'s own?"""
    return balance > 0 if color == BLACK else balance < 0


def stopped(limit: str | None, seconds: float | None = None) -> str:
    """What stopped a search, in words."""
    if limit == "interrupted":
        return "the search was interrupted"
    if limit == "time" and seconds is not None:
        return f"the time limit ({seconds:g} s) stopped the search"
    return f"{budget_words(limit or '')} stopped the search"


def _clean(color: int) -> int:
    """The balance least favourable to ``color``: a win there is a win at every balance."""
    return -K if color == BLACK else K


def parse_color(text: str) -> int:
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise GtpError(f"invalid color: {text}")


def parse_vertex(text: str, size: int) -> int:
    try:
        return from_gtp(text, size)
    except ValueError:
        raise GtpError(f"invalid vertex: {text}") from None


# --- the problem and the line of moves played in it ------------------------------------------

@dataclass
class _Anchor:
    """A problem set up from a position of the board (its root), and the line of moves
    played from there, searched with its history."""

    problem: Problem
    inferred: Inference | None
    frame: int  # virtual attacker stones added around a plain problem (not on the board)
    source: str  # where it came from, for messages
    line: LinePosition
    colors: list[int] = field(default_factory=list)  # the colour of each push on the line
    comment: str = ""  # the root comment of a loaded file (it may state the goal)

    def push(self, color: int, move: int) -> int:
        """Push ``move`` of ``color`` (after a pass of the other side when ``color`` moved
        last); returns the pushes made. Raises :class:`IllegalLine`."""
        n = 0
        if self.colors and self.colors[-1] == color:
            self._push(opponent(color), PASS)
            n = 1
        try:
            self._push(color, move)
        except IllegalLine:
            if n:
                self.pop(1)
            raise
        return n + 1

    def _push(self, color: int, move: int) -> None:
        self.line.push(color, move)
        self.colors.append(color)

    def pop(self, n: int) -> None:
        for _ in range(n):
            self.line.pop()
            self.colors.pop()

    def reset(self) -> None:
        self.pop(len(self.colors))

    @property
    def touched(self) -> int:
        """The points whose contents the problem depends on beyond its region: the walls,
        and the frame (which an attacker stone may fill)."""
        return self.problem.walls | self.frame


@dataclass
class _Entry:
    """A move of the game as the controller sent it, with what it takes to undo it."""

    color: int
    move: int
    snapshot: Undo  # the board before it
    pushed: int  # moves it pushed on the anchor's line
    ended: tuple[_Anchor, int] | None  # the problem (and its root) this move put aside


@dataclass(frozen=True)
class Verdict:
    """What is proved about one move of the side to move at the line's balance."""

    move: int
    wins: bool
    threshold: int | None  # the balance least favourable to the mover where it still wins
    work: int  # nodes the search spent on it


@dataclass(frozen=True)
class Analysis:
    """The solver's answer at the current position for one side to move. Everything in it
    is proved, or ``limit`` says what stopped the search (then ``wins`` holds the winning
    moves proved so far, ``complete`` is false)."""

    to_move: int
    balance: int
    winner: int | None  # at the balance; None: not known
    ended: bool  # the game is over (the target captured)
    wins: tuple[Verdict, ...]  # proved winning moves, best first
    losses: tuple[Verdict, ...]  # moves proved to lose, the longest resistance first
    complete: bool  # every move examined (and every threshold found)
    line: tuple[tuple[int, int], ...]  # the main line: (colour, move)
    # the status for the side to move (as rules.md classifies it, over -K..K): kill, ko,
    # live, seki or lives (live or seki, not told apart here); over (the game has ended) or
    # unknown
    kind: str
    status: str  # in words
    limit: str | None  # "time", "nodes" or "interrupted"
    nodes: int
    seconds: float
    size: int

    @property
    def best(self) -> tuple[Verdict, ...]:
        """The winning moves that win at the least favourable balance."""
        if not self.wins:
            return ()
        t = self.wins[0].threshold
        return tuple(v for v in self.wins if v.threshold == t)


# --- the engine ---------------------------------------------------------------------------

class GtpEngine:
    """The state of one GTP connection and its commands (see the module docstring)."""

    def __init__(self, *, time_limit: float = 10.0, threats: int = 0, resign: bool = True,
                 tt_size: int = 1_000_000, log: TextIO | None = None) -> None:
        self.time_limit = time_limit
        self.threats = threats
        self.resign = resign
        self.tt_size = tt_size
        self.log = log if log is not None else sys.stderr
        self.size = 19
        self.komi = 0.0
        self.board = Board(self.size)
        self.game: list[_Entry] = []
        self.anchor: _Anchor | None = None
        self.anchor_at = 0  # moves of ``game`` before the problem's root
        self.known: dict[tuple[int, int, int], _Anchor] = {}  # problems by root arrangement
        self.no_problem: dict[tuple[int, int, int, int], str] = {}  # why none, by position
        self.to_play: int | None = None  # the side to play at the root (loadsgf, setup)
        self.note = ""  # what happened to the problem, said once in the next analysis
        self.cache: dict[tuple[object, ...], Analysis] = {}
        self._interrupted = threading.Event()
        self._running: _Anchor | None = None  # the problem being searched (to interrupt)
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: "tsumego",
            "version": lambda a: __version__,
            "known_command": self.cmd_known_command,
            "list_commands": lambda a: "\n".join(self.commands),
            "quit": lambda a: "",
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "undo": self.cmd_undo,
            "loadsgf": self.cmd_loadsgf,
            "final_status_list": self.cmd_final_status_list,
            "showboard": self.cmd_showboard,
            "gogui-setup": self.cmd_setup,
            "gogui-setup_player": self.cmd_setup_player,
            "gogui-analyze_commands": self.cmd_analyze_commands,
            "gogui-interrupt": lambda a: "",
            "tsumego-status": self.cmd_status,
            "tsumego-gfx": self.cmd_gfx,
            "tsumego-main_line": self.cmd_main_line,
            "tsumego-problem": self.cmd_problem,
            "tsumego-explain": self.cmd_explain,
            "tsumego-param": self.cmd_param,
            "tsumego-target": self.cmd_target,
            "analyze": self.cmd_analyze_once,
        }

    # --- interrupting ---------------------------------------------------------------------
    def interrupt(self) -> None:
        """Stop the running (or the next) command's search at its next budget check (from
        another thread: GoGui's ``# interrupt`` line, or new input during Sabaki's
        ``analyze``). :func:`serve` clears the request when the command ends."""
        self._interrupted.set()
        running = self._running
        if running is not None:
            running.line.engine.deadline = 0.0

    def done(self) -> None:
        """A command has ended: an interrupt request no longer applies."""
        self._interrupted.clear()

    # --- the position -----------------------------------------------------------------------
    def _key(self) -> tuple[int, int, int]:
        return self.size, self.board.black, self.board.white

    def _next_color(self) -> int:
        if self.game:
            return opponent(self.game[-1].color)
        if self.to_play is not None:
            return self.to_play
        return BLACK if self.anchor is None else self.anchor.problem.to_play

    def _reset(self, size: int) -> None:
        """An empty board of ``size``: no moves, no problem."""
        self._drop()
        self.size = size
        self.board = Board(size)
        self.game = []
        self.to_play = None
        self.cache.clear()

    def _drop(self) -> None:
        """Put the problem aside (the next analysis sets one up from the board)."""
        if self.anchor is not None:
            self.anchor.reset()
        self.anchor = None

    def _new_root(self) -> None:
        """The position changed otherwise than by a move (setup): the moves so far cannot be
        undone and the problem is set up again when needed."""
        self._drop()
        self.game = []
        self._reanchor()

    def _reanchor(self) -> None:
        """Take back a problem whose root is the position on the board (a controller that
        replays a game from the start sends the moves again)."""
        if self.anchor is None:
            known = self.known.get(self._key())
            if known is not None:
                known.reset()
                self.anchor, self.anchor_at = known, len(self.game)

    def _line_key(self) -> tuple[object, ...]:
        return (id(self.anchor), self.anchor_at, self._key(),
                tuple((e.color, e.move) for e in self.game))

    def _make_anchor(self, to_play: int) -> _Anchor:
        """The problem of the position on the board, inferred as a plain problem. Raises
        :class:`GtpError` when there is none."""
        key = (*self._key(), to_play)
        why = self.no_problem.get(key)
        if why is None:
            try:
                problem, inferred = infer_with_overrides(self.board, to_play, "",
                                                         name="the board")
            except TooOpen as e:
                opened = self._read_again(e.problem, e.inferred, "", "the board", e)
                if opened is not None:
                    return self._anchor(opened.problem, opened.inferred, "the board")
                why = str(e)
            except (ProblemError, ValueError) as e:
                why = str(e)
            else:
                return self._anchor(problem, inferred, "the board")
            self.no_problem[key] = why
        raise GtpError(f"no life-and-death problem on the board: {why}")

    def _solve_reading(self, p: Problem, color: int) -> Solution:
        """One side of a reading tried again, solved within the time limit."""
        return solve(p, to_play=color, threats=self.threats, time_limit=self.time_limit,
                     tt_size=self.tt_size, all_moves=False, interrupt=self._interrupted)

    def _read_again(self, problem: Problem, inferred: Inference, comment: str, source: str,
                    too_open: TooOpen | None = None) -> Reading | None:
        """The problem read again as ``tsumego solve`` reads it, where its side to play has
        no solution or (``too_open``, its refusal) its first reading is too open
        (:func:`tsumego.search.reading.read_again`, each reading solved within the time
        limit): the first other reading that poses a problem, what was inferred carrying the
        note of why (rule ``read again``); None if none does."""
        r = read_again(problem, inferred, comment, self._solve_reading, name=source,
                       too_open=too_open is not None)
        if r is None:
            return None
        note = (reading_note(inferred, r) if too_open is None
                else open_note(inferred, too_open.empty, r))
        return Reading(r.problem, r.answered_for(inferred, note), r.why)

    def _anchor(self, problem: Problem, inferred: Inference | None, source: str,
                comment: str = "") -> _Anchor:
        """A problem whose root is the position on the board, remembered (with its engine's
        tables) for a few problems."""
        line = LinePosition(problem, deadline=None, tt_size=self.tt_size, balance=self.threats)
        frame = 0 if inferred is None else inferred.frame
        a = _Anchor(problem, inferred, frame, source, line, comment=comment)
        self.known.pop(self._key(), None)
        self.known[self._key()] = a
        while len(self.known) > KEEP_PROBLEMS:
            oldest = next(k for k, v in self.known.items() if v is not self.anchor)
            del self.known[oldest]
            self.cache.clear()  # (its answers are keyed by the problem's identity)
        return a

    def _ensure_anchor(self, to_play: int) -> _Anchor:
        """The problem: the current one, one whose root is the position on the board, or a
        new one set up from the board."""
        self._reanchor()
        if self.anchor is None:
            self.anchor = self._make_anchor(to_play)
            self.anchor_at = len(self.game)
        return self.anchor

    # --- moves ------------------------------------------------------------------------------
    def _record(self, color: int, move: int) -> None:
        """Play ``move`` of ``color`` on the board and in the problem. Raises
        :class:`GtpError` ("illegal move") and leaves everything as it was."""
        snapshot = self.board.snapshot()
        captured = 0
        if move != PASS:
            try:
                captured = self.board.play(move, color)
            except IllegalMove:
                raise GtpError("illegal move") from None
        pushed = 0
        ended: tuple[_Anchor, int] | None = None
        a = self.anchor
        if a is not None and not a.line.ended:  # (after the end, moves change nothing)
            why = ""
            region = a.problem.region
            geo = self.board.geo
            inside = move == PASS or region >> move & 1
            if not inside and not (a.frame >> move & 1 and color == a.problem.attacker) and (
                    geo.nbr_mask[move] | (1 << move) | captured) & (region | a.touched):
                why = (f"{_side(color)} {_vertex(move, self.size)} changes the position "
                       "around the problem")
            else:
                try:
                    # a play elsewhere (one that touches nothing of the problem, or fills a
                    # point of its frame) is a pass in the problem
                    pushed = a.push(color, move if inside else PASS)
                except IllegalLine as e:
                    if e.kind == "repetition":
                        self.board.undo(snapshot)
                        raise GtpError(f"illegal move: {e.text}") from None
                    why = (f"{_side(color)} {_vertex(move, self.size)}: {e.text} in the "
                           "framed problem")
                else:
                    if (self.board.black ^ a.line.board.black
                            | self.board.white ^ a.line.board.white) & region:
                        a.pop(pushed)
                        pushed = 0
                        why = (f"{_side(color)} {_vertex(move, self.size)} captures "
                               "otherwise on the board than in the framed problem (its "
                               "virtual stones take liberties)")
            if why:
                ended = (a, self.anchor_at)
                self._drop()
                self.note = f"{why}: the problem is set up again from the board"
        self.game.append(_Entry(color, move, snapshot, pushed, ended))
        self._reanchor()

    def _undo(self) -> None:
        if not self.game:
            raise GtpError("cannot undo")
        e = self.game.pop()
        self.board.undo(e.snapshot)
        if e.ended is not None:
            self._drop()
            self.anchor, self.anchor_at = e.ended
            self._replay()
        elif self.anchor is not None:
            if len(self.game) < self.anchor_at:
                self._drop()
                self._reanchor()
            else:
                self.anchor.pop(e.pushed)
        else:
            self._reanchor()

    def _replay(self) -> None:
        """Push the moves since the problem's root on its line again (after an undo that
        takes the problem back, or a new balance); where the line refuses one (a retake
        that the new balance no longer allows), the problem is set up again from the
        board."""
        a = self.anchor
        assert a is not None
        a.reset()
        for e in self.game[self.anchor_at:]:
            if a.line.ended:  # (moves after the end change nothing of the problem)
                e.pushed = 0
                continue
            inside = e.move == PASS or a.problem.region >> e.move & 1
            try:
                e.pushed = a.push(e.color, e.move if inside else PASS)
            except IllegalLine as err:
                self._drop()
                self.note = (f"{_side(e.color)} {_vertex(e.move, self.size)}: {err.text}; "
                             "the problem is set up again from the board")
                for later in self.game:
                    later.pushed = 0
                return

    # --- solving ----------------------------------------------------------------------------
    def analyze(self, color: int) -> Analysis:
        """The answer at the current position with ``color`` to move (cached per position).
        Raises :class:`GtpError` when there is no problem on the board."""
        key = (*self._line_key(), color, self.threats)
        got = self.cache.get(key)
        if got is not None:
            return got
        a = self._ensure_anchor(color)
        self._running = a
        deadline = time.monotonic() + self.time_limit
        a.line.engine.deadline = 0.0 if self._interrupted.is_set() else deadline
        try:
            result = _Solver(a, color, deadline, self._interrupted, self.tt_size).run()
        finally:
            self._running = None
            a.line.engine.deadline = None
        if self.note:
            result = _with_note(result, self.note)
            self.note = ""
        if result.limit != "interrupted":
            self.cache[(*self._line_key(), color, self.threats)] = result
        if a.inferred is not None and self._no_solution(a, color, result):
            again = self._read_again(a.problem, a.inferred, a.comment, a.source)
            if again is not None:  # answer the new reading, from the same position
                self.anchor = self._anchor(again.problem, again.inferred, a.source, a.comment)
                self.anchor_at = len(self.game)
                return self.analyze(color)
        return result

    @staticmethod
    def _no_solution(a: _Anchor, color: int, result: Analysis) -> bool:
        """Whether ``result``, at the root of the problem with its side to play to move,
        proves that side loses at every balance -K..K: for a plain problem, a reading a
        published problem does not have (:mod:`tsumego.search.reading`)."""
        return (not a.colors and color == a.problem.to_play and result.limit is None
                and result.winner is not None and result.winner != color
                and result.kind not in ("ko", "over", "unknown"))

    def choose(self, color: int) -> tuple[str, int | None, str]:
        """genmove's choice: ("move", point or PASS, note) or ("resign", None, note)."""
        a = self.analyze(color)
        size = self.size
        if a.ended:
            if a.winner == color or not self.resign:
                return "move", PASS, a.status
            return "resign", None, a.status
        if a.winner == color and a.wins:
            v = a.wins[0]
            if a.complete:
                return "move", v.move, f"proved: {a.status}"
            return "move", v.move, (f"{_mv(v.move, size)} is proved to win, but "
                                    f"{stopped(a.limit, self.time_limit)} before every move "
                                    "was compared: a cleaner win may exist")
        if a.winner is not None and a.winner != color:
            if self.resign:
                return "resign", None, f"proved: {a.status}"
            move = a.losses[0].move if a.losses else PASS
            return "move", move, f"proved lost; playing on: {a.status}"
        return "move", PASS, (f"unproven: {stopped(a.limit, self.time_limit)} before a "
                              "correct move was found; passing")

    # --- GTP commands -------------------------------------------------------------------------
    def cmd_known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self.commands else "false"

    def cmd_boardsize(self, args: list[str]) -> str:
        if len(args) != 1 or not args[0].isdigit():
            raise GtpError("boardsize needs an integer")
        n = int(args[0])
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self._reset(n)
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._reset(self.size)
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        try:
            self.komi = float(args[0])
        except (IndexError, ValueError):
            raise GtpError("komi needs a number") from None
        return ""  # no influence on life and death

    def cmd_play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("play needs a color and a vertex")
        self._record(parse_color(args[0]), parse_vertex(args[1], self.size))
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        color = self._color_arg(args, required=True)
        kind, move, note = self.choose(color)
        if kind == "resign":
            self._say(f"genmove {color_name(color)}: resign ({note})")
            return "resign"
        assert move is not None
        try:
            self._record(color, move)
        except GtpError:  # (the board refuses what the framed problem allows)
            move = PASS
            self._record(color, PASS)
        self._say(f"genmove {color_name(color)}: {_vertex(move, self.size)} ({note})")
        return _vertex(move, self.size)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        kind, move, _ = self.choose(self._color_arg(args, required=True))
        return "resign" if move is None else _vertex(move, self.size)

    def cmd_undo(self, args: list[str]) -> str:
        self._undo()
        return ""

    def cmd_loadsgf(self, args: list[str]) -> str:
        if not args:
            raise GtpError("loadsgf needs a file name")
        until: int | None = None
        if len(args) > 1:
            if not args[1].isdigit() or int(args[1]) < 1:
                raise GtpError("the move number must be a positive integer")
            until = int(args[1])
        name = args[0]
        try:
            data = read_sgf_bytes(name)
            games = split_collection(data)
            pos = parse_position(games[0] if games else data, name)
        except ProblemError as e:
            raise GtpError(f"cannot load file: {e}") from None
        self._reset(pos.size)
        for p in bits(pos.board.black):
            self.board.place(p, BLACK)
        for p in bits(pos.board.white):
            self.board.place(p, WHITE)
        self.to_play = pos.to_play
        try:
            pf = problem_of(pos)
        except ProblemError as e:
            self.no_problem[(*self._key(), pos.to_play)] = str(e)
            self.note = f"{e}"
        else:
            self.known[self._key()] = self._anchor(pf.problem, pf.inferred, name, pf.comment)
            self._reanchor()
        moves = pos.main_line if until is None else pos.main_line[:until - 1]
        for i, (color, move) in enumerate(moves):
            try:
                self._record(color, move)
            except GtpError as e:
                raise GtpError(f"cannot load file: {name}: move {i + 1} "
                               f"({color_name(color)} {_vertex(move, self.size)}): {e}"
                               ) from None
        return ""

    def cmd_final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0] not in ("alive", "dead", "seki"):
            raise GtpError("final_status_list needs alive, dead or seki")
        color = self._next_color()
        a = self.analyze(color)
        anchor = self.anchor
        if a.winner is None or anchor is None:
            raise GtpError(f"cannot tell: {a.status}")
        problem = anchor.problem
        target = self._target_stones(anchor)
        if a.winner == problem.attacker:
            status = {"dead": target}
        elif a.kind == "seki":
            status = {"seki": target}
        else:
            status = {}
        stones = self.board.black | self.board.white
        status.setdefault("alive", stones & ~status.get("dead", 0) & ~status.get("seki", 0))
        return " ".join(to_gtp(p, self.size) for p in bits(status.get(args[0], 0)))

    def _target_stones(self, a: _Anchor) -> int:
        """The stones on the board of the blocks that hold a target stone."""
        out = 0
        for p in bits(a.problem.target & (self.board.black | self.board.white)):
            out |= self.board.block(p)
        return out

    def cmd_showboard(self, args: list[str]) -> str:
        grid = [["." for _ in range(self.size)] for _ in range(self.size)]
        for p in bits(self.board.black):
            grid[p // self.size][p % self.size] = "X"
        for p in bits(self.board.white):
            grid[p // self.size][p % self.size] = "O"
        return "\n" + labelled(grid)

    def cmd_setup(self, args: list[str]) -> str:
        if len(args) % 2:
            raise GtpError("gogui-setup needs color and vertex pairs")
        todo = []
        for c, v in zip(args[::2], args[1::2]):
            color = 0 if c.lower() in ("e", "empty") else parse_color(c)
            p = parse_vertex(v, self.size)
            if p == PASS:
                raise GtpError("gogui-setup cannot place a pass")
            todo.append((color, p))
        trial = self.board.copy()
        for color, p in todo:
            trial.place(p, color) if color else trial.remove(p)
        for color in (BLACK, WHITE):
            for blk in trial.blocks(color):
                if not trial.liberties(blk):
                    raise GtpError("gogui-setup: a block without liberties")
        self.board = trial
        self._new_root()
        return ""

    def cmd_setup_player(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("gogui-setup_player needs a color")
        self.to_play = parse_color(args[0])
        return ""

    def cmd_analyze_commands(self, args: list[str]) -> str:
        return "\n".join([
            "pstring/Tsumego: status/tsumego-status %m",
            "gfx/Tsumego: correct moves/tsumego-gfx %m",
            "var/Tsumego: main line/tsumego-main_line %m",
            "gfx/Tsumego: target and region/tsumego-problem",
            "string/Tsumego: explain the problem/tsumego-explain",
            "param/Tsumego: settings/tsumego-param",
            "none/Tsumego: choose the target (a stone of it)/tsumego-target %p",
        ])

    def _color_arg(self, args: list[str], *, required: bool = False) -> int:
        if not args:
            if required:
                raise GtpError("a color is needed")
            return self._next_color()
        return parse_color(args[0])

    def cmd_status(self, args: list[str]) -> str:
        a = self.analyze(self._color_arg(args))
        return a.status

    def cmd_gfx(self, args: list[str]) -> str:
        a = self.analyze(self._color_arg(args))
        size = self.size
        best = [v.move for v in a.best if v.move != PASS]
        other = [v.move for v in a.wins if v.move != PASS and v.move not in best]
        lines = []
        if best:
            lines.append("CIRCLE " + " ".join(to_gtp(p, size) for p in best))
        if other:
            lines.append("TRIANGLE " + " ".join(to_gtp(p, size) for p in other))
            lines.append("LABEL " + " ".join(f"{to_gtp(p, size)} ko" for p in other))
        lines.append("TEXT " + a.status)
        return "\n".join(lines)

    def cmd_main_line(self, args: list[str]) -> str:
        a = self.analyze(self._color_arg(args))
        return " ".join(_vertex(m, self.size) for _, m in a.line)

    def cmd_problem(self, args: list[str]) -> str:
        a = self._ensure_anchor(self._next_color())
        size = self.size
        p = a.problem
        empty = p.region & ~(self.board.black | self.board.white)
        lines = [
            "SQUARE " + " ".join(to_gtp(q, size) for q in bits(self._target_stones(a))),
            "COLOR #c8dcf0 " + " ".join(to_gtp(q, size) for q in bits(empty)),
        ]
        frame = a.frame & ~(self.board.black | self.board.white)
        if frame:
            kind = "BLACK" if p.attacker == BLACK else "WHITE"
            lines.append(f"{kind} " + " ".join(to_gtp(q, size) for q in bits(frame)))
        lines.append("TEXT " + self._problem_text(a))
        return "\n".join(lines)

    def _problem_text(self, a: _Anchor) -> str:
        p = a.problem
        size = self.size
        target = " ".join(to_gtp(q, size) for q in bits(p.target))
        n = bin(p.region).count("1")
        text = (f"Target: {_side(p.defender)} {target} (from {a.source}); region {n} points; "
                f"ko-threat balance {self.threats:+d}")
        if a.frame:
            text += (f"; {bin(a.frame).count('1')} virtual {_side(p.attacker)} stones frame "
                     "the problem")
        if a.inferred is not None and a.inferred.frame_sensitive:
            text += f"; the frame may decide the result: {a.inferred.frame_sensitive}"
        return text

    def cmd_explain(self, args: list[str]) -> str:
        a = self._ensure_anchor(self._next_color())
        lines = [self._problem_text(a)]
        if a.inferred is not None and a.inferred.rule != "marked":
            lines.append(a.inferred.explain(a.problem))
            lines.append(problem_diagram(a.problem, a.inferred.frame))
        else:
            lines.append(problem_diagram(a.problem))
        return "\n".join(lines)

    def cmd_target(self, args: list[str]) -> str:
        """``tsumego-target VERTEX...``: the target is the blocks through these stones,
        and the problem is set up again from the board with it (the moves before are
        setup); without a vertex, the problem is inferred again."""
        chosen: tuple[Problem, Inference] | None = None
        if args:
            for v in args:
                if parse_vertex(v, self.size) == PASS:
                    raise GtpError("the target cannot be a pass")
            try:
                chosen = infer_with_overrides(self.board, self._next_color(), "",
                                              target=" ".join(args), name="the board")
            except (ProblemError, ValueError) as e:
                raise GtpError(str(e)) from None
        self._drop()
        self.known.pop(self._key(), None)
        self.cache.clear()
        if chosen is None:
            return ""
        self.anchor = self._anchor(*chosen, "the target chosen")
        self.anchor_at = len(self.game)
        return ""

    def cmd_param(self, args: list[str]) -> str:
        if not args:
            return "\n".join([f"[string] time_limit {self.time_limit:g}",
                              f"[string] threats {self.threats}",
                              f"[bool] resign {int(self.resign)}"])
        if len(args) != 2:
            raise GtpError("tsumego-param needs a key and a value")
        key, value = args
        try:
            if key == "time_limit":
                t = float(value)
                if t <= 0:
                    raise ValueError
                self.time_limit = t
            elif key == "threats":
                k = int(value)
                if abs(k) > K:
                    raise ValueError
                self._set_threats(k)
            elif key == "resign":
                if value not in ("0", "1"):
                    raise ValueError
                self.resign = value == "1"
            else:
                raise GtpError(f"unknown parameter: {key}")
        except ValueError:
            raise GtpError(f"bad value for {key}: {value}") from None
        return ""

    def _set_threats(self, k: int) -> None:
        """A new ko-threat balance: the problems start again from their roots with it."""
        self.threats = k
        for a in self.known.values():
            a.reset()
            a.line.balance = k
        if self.anchor is not None:
            self._replay()
        self.cache.clear()

    def cmd_analyze_once(self, args: list[str]) -> str:
        """``analyze`` without streaming (the server streams it; see :func:`serve`)."""
        return self.sabaki_info(self._color_arg(args[:1]))

    def sabaki_info(self, color: int) -> str:
        """Sabaki's ``info`` line: every move examined, the proved winners at 100%."""
        a = self.analyze(color)
        size = self.size
        pv = " ".join(_vertex(m, size) for _, m in a.line)
        parts = []
        order = 0
        for v in list(a.wins) + list(a.losses):
            if v.move == PASS:
                continue
            line = pv if a.line and a.line[0][1] == v.move else _vertex(v.move, size)
            parts.append(f"info move {_vertex(v.move, size)} visits {max(1, v.work)} "
                         f"winrate {10000 if v.wins else 0} order {order} pv {line}")
            order += 1
        return " ".join(parts)

    # --- input and output -------------------------------------------------------------------
    def _say(self, text: str) -> None:
        print(f"tsumego: {text}", file=self.log, flush=True)

    def execute(self, name: str, args: list[str]) -> str:
        """Run one command; raises :class:`GtpError` for a failure (never anything else:
        an unexpected exception is reported as an internal error, and the engine goes on)."""
        handler = self.commands.get(name)
        if handler is None:
            raise GtpError("unknown command")
        try:
            return handler(args)
        except GtpError:
            raise
        except Exception as e:  # a bug must not end the connection
            traceback.print_exc(file=self.log)
            raise GtpError(f"internal error: {type(e).__name__}: {e}") from None


def _with_note(a: Analysis, note: str) -> Analysis:
    return replace(a, status=f"{a.status} (note: {note})")


class _Solver:
    """One analysis of a position: the winner, every move's verdict, the thresholds, the
    main line, the words; within a deadline."""

    def __init__(self, anchor: _Anchor, color: int, deadline: float,
                 interrupted: threading.Event, tt_size: int) -> None:
        self.a = anchor
        self.tt_size = tt_size
        self.line = anchor.line
        self.color = color
        self.deadline = deadline
        self.interrupted = interrupted
        self.size = anchor.problem.size

    def run(self) -> Analysis:
        a, line, color = self.a, self.line, self.color
        start = time.monotonic()
        nodes0 = line.nodes
        pushed = 0
        if a.colors and a.colors[-1] == color:  # the other side passed in between
            try:
                pushed = a.push(opponent(color), PASS)
            except IllegalLine:
                pushed = 0
        winner: int | None = None
        wins: list[Verdict] = []
        losses: list[Verdict] = []
        main: list[tuple[int, int]] = []
        complete = False
        limit: str | None = None
        ended = bool(line.ended)
        try:
            if ended:
                winner = line.ended
                complete = True
            else:
                winner = line.winner(color)
                verdicts = self._moves(color)
                wins = [v for v in verdicts if v.wins]
                losses = [v for v in verdicts if not v.wins]
                if winner == color:
                    wins = self._thresholds(wins, color)
                else:
                    losses = self._thresholds(losses, color)
                complete = True
                main = self._main_line(winner, wins)
        except BudgetExhausted as e:
            limit = "interrupted" if self.interrupted.is_set() else e.kind
        finally:
            a.pop(pushed)
        kind, status = self._words(winner, wins, losses, ended, limit, start)
        return Analysis(color, line.balance, winner, ended, tuple(_best_first(wins, color)),
                        tuple(_resistance_first(losses, color)), complete and limit is None,
                        tuple(main), kind, status, limit, line.nodes - nodes0,
                        time.monotonic() - start, self.size)

    def _moves(self, color: int) -> list[Verdict]:
        """Every legal move's verdict at the line's balance, the engine's own winning move
        first."""
        line = self.line
        hint = line.engine.root_move
        candidates = line.candidates(color)
        if hint is not None and hint in candidates:
            candidates.remove(hint)
            candidates.insert(0, hint)
        out = []
        for m in candidates:
            before = line.nodes
            w = line.winner_after(color, m)
            if w is not None:
                out.append(Verdict(m, w == color, None, line.nodes - before))
        return out

    def _thresholds(self, verdicts: list[Verdict], color: int) -> list[Verdict]:
        """The verdicts with their thresholds (the least favourable balance where the move
        still wins for ``color``)."""
        out = []
        for v in verdicts:
            before = self.line.nodes
            t = self.line.threshold(color, v.move)
            out.append(Verdict(v.move, v.wins, t, v.work + self.line.nodes - before))
        return out

    def _main_line(self, winner: int, wins: list[Verdict]) -> list[tuple[int, int]]:
        """The winner's best move, the loser's longest resistance, and so on, until the
        target is captured, the winner may pass, or the deadline."""
        a, line = self.a, self.line
        out: list[tuple[int, int]] = []
        mover = self.color
        pushed = 0
        try:
            for ply in range(MAX_MAIN_LINE):
                if line.ended:
                    break
                if ply == 0 and mover == winner:
                    ordered = _best_first(wins, mover)
                    move = ordered[0].move if ordered else None
                else:
                    move = self._pick(mover, winner)
                if move is None:
                    break
                out.append((mover, move))
                if mover == winner and move == PASS:
                    break  # settled: the winner has nothing left to do
                try:
                    pushed += a.push(mover, move)
                except IllegalLine:
                    break
                mover = opponent(mover)
        except BudgetExhausted:
            pass  # the line so far
        finally:
            a.pop(pushed)
        return out

    def _pick(self, mover: int, winner: int) -> int | None:
        """The winner's quickest win (a pass when it wins: settled), or the loser's move
        whose refutation took the longest search."""
        line = self.line
        best: tuple[int, int] | None = None  # (key, move)
        for m in line.candidates(mover):
            before = line.nodes
            w = line.winner_after(mover, m)
            work = line.nodes - before
            if w is None:
                continue
            if mover == winner:
                if w != mover:
                    continue
                if m == PASS:
                    return PASS
                key = -work
            else:
                key = work
            if best is None or key > best[0]:
                best = (key, m)
        return None if best is None else best[1]

    def _words(self, winner: int | None, wins: list[Verdict], losses: list[Verdict],
               ended: bool, limit: str | None, start: float) -> tuple[str, str]:
        """The kind of answer (see :class:`Analysis`) and the answer in words."""
        a, color, size = self.a, self.color, self.size
        p = a.problem
        side = _side(color)
        other = _side(opponent(color))
        balance = self.line.balance
        at = f" (ko-threat balance {balance:+d})" if balance else ""
        if ended:
            if winner == p.attacker:
                return "over", f"The target is captured: {_side(p.attacker)} has won."
            return "over", (f"{_side(p.defender)} has won: the target can no longer be "
                            "captured.")
        attacking = color == p.attacker
        if limit is not None:
            spent = time.monotonic() - start
            text = f"{side} to play: unknown ({stopped(limit)} after {spent:.1f} s)"
            if winner is not None:
                text += f"; {_side(winner)} wins{at}"
                if wins:
                    text += ("; proved correct so far: "
                             + ", ".join(_mv(v.move, size) for v in wins))
            return "unknown", text
        assert winner is not None
        if winner == color:
            ordered = _best_first(wins, color)
            best = [v for v in ordered if v.threshold == ordered[0].threshold]
            t = best[0].threshold if best else None
            plays = " or ".join(_mv(v.move, size) for v in best if v.move != PASS)
            if any(v.move == PASS for v in best):  # the position is settled
                how = "by passing" + (f" (or with {plays})" if plays else "")
            else:
                how = f"with {plays}"
            if t is not None and t != _clean(color):
                verb = "kills" if attacking else "lives"
                if _needs(color, t):
                    n = abs(t)
                    need = f"; {side} needs {n} ko threat{'s' if n != 1 else ''}"
                else:
                    n = abs(t) + 1
                    need = f", unless {other} has {n} more ko threat{'s' if n != 1 else ''}"
                return "ko", f"{side} to play {verb} with a ko {how}{need}{at}"
            if attacking:
                return "kill", f"{side} to play kills unconditionally {how}{at}"
            kind, words, already = self._life()
            text = f"{side} to play {words} {how}{at}"
            return kind, text + (": the group is already unconditionally alive" if already
                                 else "")
        verb = "cannot kill" if attacking else "cannot live"
        text = f"{side} to play {verb}: {other} wins whatever {side} plays{at}"
        kos = [v for v in losses if v.threshold is not None]
        if kos:
            t = _resistance_first(kos, color)[0].threshold
            assert t is not None
            n = abs(t - balance)
            return "ko", text + (f"; with {n} more ko threat{'s' if n != 1 else ''} {side} "
                                 "would win a ko with " + " or ".join(
                                     _mv(v.move, size) for v in kos if v.threshold == t))
        if not attacking:
            return "kill", text
        kind, words, already = self._life()
        if already:
            return kind, f"{text} (the group is already unconditionally alive)"
        return kind, f"{text} ({other} {words})"

    def _life(self) -> tuple[str, str, bool]:
        """(live, ``lives unconditionally``) or (seki, ``lives in seki``) where the solver
        tells them apart here (the position solved as a problem of its own, within the time
        left), else (lives, ``lives``); and whether the target is already unconditionally
        alive (Benson)."""
        a, line = self.a, self.line
        p = a.problem
        b = line.board
        target = p.target & (b.black | b.white)
        if target_benson_alive(b, target, p.defender):
            return "live", "lives unconditionally", True
        left = self.deadline - time.monotonic()
        if left <= 0.05 or self.interrupted.is_set():
            return "lives", "lives", False
        here = Problem(p.size, b.black, b.white, target, p.region, p.walls, self.color, p.name)
        sol = solve(here, to_play=self.color, threats=line.balance, time_limit=left,
                    all_moves=False, tt_size=max(1024, self.tt_size // 4),
                    interrupt=self.interrupted)
        if sol.status == "live":
            return "live", "lives unconditionally", False
        if sol.status == "seki":
            return "seki", "lives in seki", False
        return "lives", "lives", False


def _best_first(wins: list[Verdict], color: int) -> list[Verdict]:
    """Winning moves, the most robust first (the balance least favourable to ``color``
    where each still wins), then the pass (where it wins, the position is settled), then the
    plainest (the least search)."""
    def key(v: Verdict) -> tuple[int, bool, int]:
        t = v.threshold if v.threshold is not None else (K + 1 if color == BLACK else -K - 1)
        robust = t if color == BLACK else -t
        return robust, v.move != PASS, v.work
    return sorted(wins, key=key)


def _resistance_first(losses: list[Verdict], color: int) -> list[Verdict]:
    """Losing moves, those that win a ko with the fewest more threats first, then the one
    whose refutation took the longest search."""
    def key(v: Verdict) -> tuple[int, int]:
        if v.threshold is None:
            return 1 << 20, -v.work
        need = v.threshold if color == BLACK else -v.threshold
        return need, -v.work
    return sorted(losses, key=key)


# --- the protocol ---------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def parse_line(raw: str) -> tuple[str, str, list[str]] | None:
    """A command line as GTP preprocesses it: (id, name, arguments), or None for a line
    with nothing to do (empty, or a comment)."""
    text = _CONTROL.sub("", raw.replace("\t", " ")).split("#", 1)[0].strip()
    if not text:
        return None
    words = text.split()
    cid = ""
    if words[0].isdigit():
        cid = words.pop(0)
        if not words:
            return None
    return cid, words[0], words[1:]


class _Input:
    """The controller's lines, read by a thread of their own so that a running command can
    be interrupted: GoGui's ``# interrupt`` line stops it, and so does any line that comes
    during a streamed ``analyze`` (Sabaki's way to end it)."""

    def __init__(self, stream: TextIO, engine: GtpEngine) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.engine = engine
        self.streaming = False
        self.busy = False  # a command is running
        self.arrived = threading.Event()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: TextIO) -> None:
        for raw in stream:
            line = raw.rstrip("\r\n")
            if line.strip() == "# interrupt":
                if self.busy or not self.lines.empty():  # (else there is nothing to stop)
                    self.engine.interrupt()
                continue
            self.lines.put(line)
            self.arrived.set()
            if self.streaming:
                self.engine.interrupt()
        self.lines.put(None)
        self.arrived.set()
        if self.streaming:
            self.engine.interrupt()

    def get(self) -> str | None:
        """The next line (None at the end of the input); from here until :func:`serve` has
        answered it, the engine counts as busy."""
        line = self.lines.get()
        self.busy = line is not None
        if self.lines.empty():
            self.arrived.clear()
            if not self.lines.empty():  # (a line came in between)
                self.arrived.set()
        return line


def serve(engine: GtpEngine, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Answer GTP commands from ``stdin`` on ``stdout`` until ``quit`` or the end of the
    input."""
    out = stdout if stdout is not None else sys.stdout
    inp = _Input(stdin if stdin is not None else sys.stdin, engine)

    def write(text: str) -> None:
        try:
            out.write(text)
            out.flush()
        except (BrokenPipeError, ValueError):  # the controller has gone
            raise SystemExit(0) from None

    while True:
        raw = inp.get()
        if raw is None:
            return
        parsed = parse_line(raw)
        if parsed is None:
            inp.busy = False
            continue
        cid, name, args = parsed
        try:
            if name == "analyze":
                _stream_analyze(engine, inp, cid, args, write)
                continue
            try:
                body = engine.execute(name, args)
            except GtpError as e:
                write(f"?{cid} {e}\n\n")
                continue
            write(f"={cid}" + (f" {body}" if body else "") + "\n\n")
            if name == "quit":
                return
        finally:
            inp.busy = False
            engine.done()


def _stream_analyze(engine: GtpEngine, inp: _Input, cid: str, args: list[str],
                    write: Callable[[str], None]) -> None:
    """Sabaki's ``analyze [color] [interval]``: ``=``, then the ``info`` line once the
    position is solved (or the search stopped), and the response ends when the next input
    comes (which also stops a search still running)."""
    try:
        color = engine._color_arg(args[:1])
    except GtpError as e:
        write(f"?{cid} {e}\n\n")
        return
    write(f"={cid}\n")
    inp.streaming = True
    try:
        try:
            info = engine.sabaki_info(color)
        except GtpError as e:
            engine._say(f"analyze: {e}")
            info = ""
        except Exception:  # a bug must not end the connection
            traceback.print_exc(file=engine.log)
            info = ""
        if info:
            write(info + "\n")
        inp.arrived.wait()
    finally:
        inp.streaming = False
    write("\n")


__all__ = ["GtpEngine", "GtpError", "Analysis", "Verdict", "serve", "parse_line"]
