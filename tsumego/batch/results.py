"""What a verification run does and finds: its options, its tasks (one problem each), the result
of each, and the classes of findings."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from tsumego.search.solver import Status

# the classes of findings, and "agree" for a problem with none
Class = Literal["error", "unknown", "frame-sensitive", "no-solution", "book-move-fails",
                "wrong-line-works", "bad-refutation", "extra-solutions", "weak-reply",
                "no-answer", "agree"]
# the classes, most important first: a problem's class is the first one among its findings
CLASSES: tuple[Class, ...] = ("error", "unknown", "frame-sensitive", "no-solution",
                              "book-move-fails", "wrong-line-works", "bad-refutation",
                              "extra-solutions", "weak-reply", "no-answer", "agree")
# the classes of a disagreement between the book and the proof: where the frame around a plain
# problem may decide the result, such a finding is ``frame-sensitive`` instead
DISAGREEMENTS: tuple[Class, ...] = ("no-solution", "book-move-fails", "wrong-line-works",
                                    "bad-refutation", "extra-solutions", "weak-reply")
ANSWERS = ("auto", "right", "comment", "first-level")
FORMAT = 2  # bump when results change meaning (part of the cache key)


# --- options, tasks, results ----------------------------------------------------------------

@dataclass(frozen=True)
class Options:
    """What a verification run does to each problem."""

    answers: str = "auto"
    deep: bool = False
    time_limit: float | None = 60.0  # seconds per problem (search, refutations, deep checks)
    tt_size: int = 1_000_000
    # seconds past the time limit (plus a quarter of it) before a silent worker is killed
    grace: float = field(default=3.0, compare=False)
    # for tests only: a worker of run_pool hangs (as if its search never ended) on files whose
    # name contains this, until it is killed or the run's process is gone
    hang_on: str | None = field(default=None, compare=False)

    def key(self) -> str:
        """The part of the cache key that the options make."""
        return json.dumps({"answers": self.answers, "deep": self.deep,
                           "time_limit": self.time_limit, "tt_size": self.tt_size},
                          sort_keys=True)


@dataclass(frozen=True)
class Task:
    """One problem to verify: a game of a file."""

    index: int  # position in the run (results come back in this order)
    file: str  # as displayed
    game: int  # index of the game in the file (0 for a file with one game)
    data: bytes  # the SGF bytes of that game (empty when the file could not be read)
    read_error: str | None = None
    multi: bool = False  # the file holds several games

    @property
    def name(self) -> str:
        """The problem's name in messages: the file, with ``#game`` in a collection."""
        return f"{self.file}#{self.game}" if self.multi else self.file

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class Result:
    """The verdict on one problem (the ``--json`` object; points in SGF, passes ``"pass"``)."""

    file: str
    game: int
    cls: Class = "error"
    to_play: str | None = None
    answers: str | None = None  # the convention that was used
    book_correct: list[str] = field(default_factory=list)
    book_wrong: list[str] = field(default_factory=list)
    solver_moves: list[str] | None = None
    status: Status | None = None
    best_threats: int | None = None
    refutation: dict[str, list[str]] = field(default_factory=dict)
    findings: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    board: dict[str, Any] | None = None
    cached: bool = False
    frame_sensitive: str | None = None  # why the frame of a plain problem may decide it

    def frame_decides(self) -> None:
        """Where the frame may decide the result (``frame_sensitive``), a disagreement with
        the book is no finding against it: each becomes ``frame-sensitive``, saying so (and
        with no disagreement, a note says it)."""
        why = self.frame_sensitive
        if why is None:
            return
        moved = False
        for f in self.findings:
            if f["class"] in DISAGREEMENTS:
                f["text"] = (f"{f['class']}, but the frame may decide the result ({why}): "
                             f"{f['text']}")
                f["class"] = "frame-sensitive"
                moved = True
        if not moved:
            self.notes.append(f"the frame may decide the result: {why}")

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "game": self.game, "class": self.cls, "to_play": self.to_play,
            "answers": self.answers, "book_correct": self.book_correct,
            "book_wrong": self.book_wrong, "solver_moves": self.solver_moves,
            "status": self.status, "best_threats": self.best_threats,
            "refutation": self.refutation, "findings": self.findings, "notes": self.notes,
            "seconds": round(self.seconds, 3), "error": self.error, "board": self.board,
            "cached": self.cached, "frame_sensitive": self.frame_sensitive,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Result:
        return cls(file=d["file"], game=d["game"], cls=d["class"], to_play=d["to_play"],
                   answers=d.get("answers"), book_correct=list(d["book_correct"]),
                   book_wrong=list(d["book_wrong"]), solver_moves=d["solver_moves"],
                   status=d["status"], best_threats=d.get("best_threats"),
                   refutation=dict(d["refutation"]), findings=list(d.get("findings", [])),
                   notes=list(d.get("notes", [])), seconds=float(d["seconds"]),
                   error=d["error"], board=d.get("board"), cached=bool(d.get("cached")),
                   frame_sensitive=d.get("frame_sensitive"))

    @property
    def is_finding(self) -> bool:
        return self.cls != "agree"

    def add(self, cls: Class, text: str) -> None:
        """Record a finding of class ``cls``."""
        self.findings.append({"class": cls, "text": text})

    def settle(self) -> None:
        """Set the class from the findings (``agree`` when there are none)."""
        found = {f["class"] for f in self.findings}
        self.cls = next((c for c in CLASSES if c in found), "agree")

