"""The plain problems we composed (problems/plain/): no MA, a comment, an otherwise empty
board. Each is inferred and framed (tsumego/infer.py), then solved; the proved answers are
recorded here. Every file's RIGHT variations are exactly the proved best first moves.

The positions are textbook shapes of our own arrangement (eye spaces in the corner and on the
side, a loose wall, attacker stones inside the eye space, an attacker's first-line stone that
the frame's ring passes through), in all four corners, with each
colour as the attacker, read from the comment ("Black to kill", "White to play and live")
or, when it only says who plays, from the position.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import sgf_moves

from tsumego import read_problem, solve
from tsumego.io.sgf import read_tree

PLAIN = Path(__file__).resolve().parents[2] / "problems" / "plain"

# file stem: (inferred goal of the side to play, status, best first moves)
ANSWERS: dict[str, tuple[str, str, list[str]]] = {
    "straight-three-kill-tl": ("kill", "kill", ["ba"]),
    "straight-three-kill-tl-swapped": ("kill", "kill", ["ba"]),
    "straight-three-live-tr": ("live", "live", ["ra"]),
    "straight-three-live-tr-swapped": ("live", "live", ["ra"]),
    "straight-three-kill-br": ("kill", "kill", ["rs"]),
    "straight-three-kill-br-swapped": ("kill", "kill", ["rs"]),
    "straight-three-live-bl": ("live", "live", ["bs"]),
    "straight-three-live-bl-swapped": ("live", "live", ["bs"]),
    "bent-three-kill-bl": ("kill", "kill", ["as"]),
    "bent-three-kill-bl-swapped": ("kill", "kill", ["as"]),
    "bent-three-live-tl": ("live", "live", ["aa"]),
    "bent-three-live-tl-swapped": ("live", "live", ["aa"]),
    "bulky-five-kill-br": ("kill", "kill", ["rs"]),
    "bulky-five-kill-br-swapped": ("kill", "kill", ["rs"]),
    "bulky-five-live-tl": ("live", "live", ["ba"]),
    "bulky-five-live-tl-swapped": ("live", "live", ["ba"]),
    "bulky-five-kill-tr": ("kill", "kill", ["ra"]),
    "bulky-five-kill-tr-swapped": ("kill", "kill", ["ra"]),
    "inside-stone-kill-tl": ("kill", "kill", ["ba"]),
    "inside-stone-kill-tl-swapped": ("kill", "kill", ["ba"]),
    "inside-stone-live-br": ("live", "live", ["rs"]),
    "inside-stone-live-br-swapped": ("live", "live", ["rs"]),
    "false-eye-kill-bl": ("kill", "kill", ["as"]),
    "false-eye-kill-bl-swapped": ("kill", "kill", ["as"]),
    "false-eye-live-tr": ("live", "live", ["sa"]),
    "false-eye-live-tr-swapped": ("live", "live", ["sa"]),
    "side-three-kill-tl": ("kill", "kill", ["ia"]),
    "side-three-kill-tl-swapped": ("kill", "kill", ["ia"]),
    "side-three-live-bl": ("live", "live", ["is"]),
    "side-three-live-bl-swapped": ("live", "live", ["is"]),
    "loose-wall-kill-tl": ("kill", "kill", ["ba"]),
    "loose-wall-kill-tl-swapped": ("kill", "kill", ["ba"]),
    "loose-wall-live-tr": ("live", "live", ["ra"]),
    "loose-wall-live-tr-swapped": ("live", "live", ["ra"]),
    "two-inside-kill-tl": ("kill", "kill", ["ca"]),
    "two-inside-kill-tl-swapped": ("kill", "kill", ["ca"]),
    "two-inside-live-tr": ("live", "live", ["qa"]),
    "two-inside-live-tr-swapped": ("live", "live", ["qa"]),
    "first-line-stone-kill-tl": ("kill", "kill", ["da"]),
    "first-line-stone-kill-tl-swapped": ("kill", "kill", ["da"]),
    "first-line-stone-live-br": ("live", "live", ["nr", "ns", "ps"]),
    "first-line-stone-live-br-swapped": ("live", "live", ["nr", "ns", "ps"]),
    "small-board-9-straight-three-kill": ("kill", "kill", ["ba"]),
    "small-board-13-bulky-five-live": ("live", "live", ["lm"]),
}


def test_every_file_has_an_answer() -> None:
    assert sorted(p.stem for p in PLAIN.glob("*.sgf")) == sorted(ANSWERS)


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_plain_problem(name: str) -> None:
    goal, status, best = ANSWERS[name]
    path = PLAIN / f"{name}.sgf"
    pf = read_problem(path)
    inf = pf.inferred
    assert inf is not None and inf.goal == goal
    assert inf.rule in ("comment", "enclosure")
    assert inf.to_play == pf.problem.to_play
    # the region holds the book's answers; the frame stones surround it
    assert all(pf.problem.region >> m & 1 for m in pf.stated_moves)
    assert not inf.frame & pf.problem.region
    sol = solve(pf.problem, time_limit=60)
    assert sol.status == status
    assert sorted(sgf_moves(sol.best_moves, pf.problem.size) or ()) == best
    right = sorted(c.move()[1] for c in read_tree(path.read_bytes()).children if c.move())
    assert right == sorted(m for m in best if m != "pass")
    assert set(right) == {p for p in sgf_moves(pf.stated_moves, pf.problem.size) or ()}
