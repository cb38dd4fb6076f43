"""Batch verification of problem collections: where the book and the proof disagree.

For every problem of a collection this module reads the book's answer from the SGF variation
tree, solves the problem exactly for the side to play, and classifies the difference:

``agree``
    the book's correct first moves are exactly the solver's best first moves.
``book-move-fails``
    a move the book calls correct loses (the refutation is given); with ``deep``, also a later
    move of the solver's side along a correct line, or an illegal move there.
``wrong-line-works``
    a first move the book calls wrong wins (with ``deep``: a later move where the book's
    wrong line turns wrong).
``bad-refutation`` (``deep`` only)
    along a wrong line, a move of the refuting side lets the other side win after all.
``extra-solutions``
    the solver proves more correct first moves than the book lists.
``weak-reply`` (``deep`` only)
    along a book line, a move of the losing side is not one of its best resistances.
``no-solution``
    the side to play cannot succeed at all (not even with the ko threats of rules.md).
``no-answer``
    the book gives no correct first move for the side to play (nothing to compare).
``unknown``
    a limit stopped the search (the per-problem time limit, or a worker that had to be killed).
``error``
    the file could not be read or set up as a problem (the reason is given).

A problem gets one class, the first in :data:`CLASSES` among its findings; every finding is
kept in ``findings``.

Book conventions (``answers``):

* ``right``: a line is correct iff its leaf comment contains ``RIGHT`` (goproblems style);
* ``comment``: a line is correct iff its leaf comment starts "Correct" or "Also correct";
* ``first-level``: every line is correct (the tsumego.js collection: all first moves under
  the root are correct first moves);
* ``auto``: ``right`` if some leaf comment contains ``RIGHT``, else ``comment`` if some leaf
  comment starts "Correct"/"Also correct", else ``first-level``.

A move node is *book-correct* when some correct line passes through it.

Comparison. ``solve()`` gives ``best_moves``: the first moves that reach the best outcome open to
the side to play, ko threats counted (rules.md). The book's correct first moves must be among
them, and every one of them must be listed (or the book has extra solutions, or calls a working
move wrong). A book move that wins only a ko while a clean result exists is not a best move, and
the finding says so; when the best result is itself a ko, the notes say so.

Deep checks (``deep=True``) follow the book's lines from the root: along a correct line every
move of the side to play must keep the win and every reply must be one of the best resistances;
along a wrong line, after the move where it goes wrong, every move of the refuting side must
keep its win. The first move where a line goes wrong is reported and that line is not followed
further. The positions along a line are searched with the line's own repetition history and
ko-threat balance (the balance starts where the side to play wins least comfortably, and a
retake that repeats a position uses a threat, as in rules.md). A *best resistance* is judged by
ko threats: a reply is best when no other reply would make the win need more ko threats; the
solver proves no finer order among replies that lose at every balance, so those all count as
best. Life and seki are not told apart along lines. Two consecutive moves of one colour in a
book line count as a pass of the other side in between. Moves outside the problem's region
(ko threats played elsewhere, for instance) end the check of that line, with a note.

Running: :func:`run` hands problems out in chunks to a pool of worker processes. Each problem
has a time limit (``Options.time_limit``) that the search honours by itself; a worker that does
not answer within :func:`hard_limit` of a problem's start is killed and replaced, and the problem
is ``unknown``. :func:`run_dask` does the same on a Dask cluster (the time limit is then only the
search's own). :class:`Cache` keeps results keyed by the problem's content hash, the solver
version and the options.

The pieces live in the modules of :mod:`tsumego.batch` (results, collect, book, compare,
cache, runner, records); this module is their public face.
"""

from __future__ import annotations

from tsumego.batch.book import BookMove, book_tree, detect_convention, mark_correct
from tsumego.batch.cache import Cache, task_key
from tsumego.batch.collect import collect
from tsumego.batch.compare import verify_problem
from tsumego.batch.records import read_jsonl, record, resumable
from tsumego.batch.results import ANSWERS, CLASSES, FORMAT, Class, Options, Result, Task
from tsumego.batch.runner import (
                                  Run,
                                  chunk_size,
                                  exit_with,
                                  hard_limit,
                                  run_dask,
                                  run_pool,
                                  verify_all,
                                  worker_context,
)
from tsumego.go.line import IllegalLine
from tsumego.search.lines import LinePosition

__all__ = ["ANSWERS", "CLASSES", "FORMAT", "BookMove", "Cache", "IllegalLine", "LinePosition",
           "Class", "Options", "Result", "Run", "Task", "book_tree", "chunk_size", "collect",
           "detect_convention", "exit_with", "hard_limit", "mark_correct", "read_jsonl",
           "record", "resumable", "run_dask", "run_pool", "task_key", "verify_all",
           "verify_problem", "worker_context"]
