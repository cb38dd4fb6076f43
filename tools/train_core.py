#!/usr/bin/env python3
"""The training run of the compiled core's profile-guided build (``setup.py``).

    python tools/train_core.py PROBLEMS_DIR

Solves every problem under PROBLEMS_DIR (the composed problems, marked and plain) for both sides
to play, with every first move proved or refuted, as ``tsumego solve`` does. Run by the
build with an instrumented core on the import path, it records which branches the search
takes and which functions it calls; the compiler then lays the core out for that. Only the
speed depends on it: the instrumented and the optimized core search the same nodes. Prints
the sides solved and the nodes; exits non-zero when there is nothing to train on or a file
cannot be read (one line naming the file), so that the build falls back to a plain optimized
core.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tsumego import BLACK, WHITE, ProblemError, read_problem, solve


def train(folder: Path) -> tuple[int, int]:
    """Solve each problem under ``folder`` for both sides; (sides solved, nodes)."""
    sides = nodes = 0
    for path in sorted(folder.rglob("*.sgf")):
        problem = read_problem(path).problem
        for color in (BLACK, WHITE):
            solution = solve(problem, to_play=color)
            sides += 1
            nodes += solution.nodes
    return sides, nodes


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        sides, nodes = train(Path(argv[0]))
    except ProblemError as e:  # (an SgfError too; its text names the file)
        print(f"train_core: error: {e}", file=sys.stderr)
        return 1
    if not sides:
        print(f"train_core: no problems in {argv[0]}", file=sys.stderr)
        return 1
    print(f"train_core: {sides} sides solved, {nodes:,} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
