"""A solve does not depend on what its process solved before. The compiled core keeps the
memory of an engine's tables for the next engine of the process (its caches are told apart by
salted keys, its pattern counters cleared before they are kept): a problem solved after
others must take the very same nodes, and give the same answer, as in a fresh process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Solves the first problem in a fresh process, then others, and the same problem under other
# options (the same positions, with other initial numbers in the caches), then the first
# again: one line per solve (nodes, status, winner, best moves).
SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import scale
from tsumego import BLACK, SearchOptions, read_problem, solve
first = scale.scale_problem(12, "open")
runs = [(first, SearchOptions()),
        (scale.scale_problem(14, "stones"), SearchOptions()),
        (read_problem(sys.argv[2]).problem, SearchOptions()),
        (first, SearchOptions(patterns=0, knowledge=False)),
        (first, SearchOptions(benson=False, eyespace=False, ladder=False)),
        (first, SearchOptions())]
for p, options in runs:
    s = solve(p, to_play=BLACK, max_nodes=40_000, options=options)
    print(s.nodes, s.status, s.winner, sorted(map(str, s.best_moves or ())))
"""


def test_a_problem_solved_after_others_takes_the_nodes_of_a_fresh_process() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT / "tools"), str(ROOT / "problems" / "semeai.sgf")],
        capture_output=True, text=True, check=True, timeout=300)
    lines = out.stdout.splitlines()
    assert len(lines) == 6
    fresh, again = lines[0], lines[-1]
    assert int(fresh.split()[0]) > 1_000  # a search that fills caches and counters
    assert again == fresh
