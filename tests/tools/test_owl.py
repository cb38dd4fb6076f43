"""GNU Go's owl reader as the book measurement's point of comparison (tools/owl.py): it is
asked on the book's position, without our frame, and names the vital point of a straight
three. Skipped where GNU Go is not installed (Debian: apt-get install gnugo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_tool

from tsumego.go.coords import from_sgf
from tsumego.io.sgf import read_problem
from tsumego.knowledge.infer import book_board

owl = load_tool("owl")
measure = load_tool("measure_plain")
PLAIN = Path(__file__).resolve().parents[2] / "problems" / "plain"

pytestmark = pytest.mark.skipif(owl.gnugo_path() is None, reason="GNU Go is not installed")


@pytest.mark.parametrize("name, move", [("straight-three-kill-tl", "ba"),
                                        ("bulky-five-kill-br", "rs")])
def test_owl_names_the_vital_point_on_the_book_position(name: str, move: str) -> None:
    pf = read_problem(PLAIN / f"{name}.sgf")
    assert pf.inferred is not None  # a plain problem: framed by inference
    book = book_board(pf.problem, pf.inferred.frame)
    assert book.black | book.white != pf.problem.black | pf.problem.white  # the frame is off
    answer = owl.owl_answer(pf.problem, book)
    assert answer.code > 0 and answer.move == from_sgf(move, pf.problem.size)


def test_a_missing_program_is_an_owl_error() -> None:
    pf = read_problem(PLAIN / "straight-three-kill-tl.sgf")
    with pytest.raises(owl.OwlError, match="gnugo"):
        owl.owl_answer(pf.problem, program="/nonexistent/gnugo")


def test_measure_plain_reports_owl_beside_our_answer(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    book = tmp_path / "gogameguru-go-problems" / "weekly-go-problems" / "easy"
    book.mkdir(parents=True)
    for name in ("straight-three-kill-tl", "bent-three-live-tl"):
        text = (PLAIN / f"{name}.sgf").read_text().replace("C[RIGHT]", "C[Correct.]")
        (book / f"{name}.sgf").write_text(text)
    out = tmp_path / "run.jsonl"
    proc = subprocess.run(
        [sys.executable, str(PLAIN.parent.parent / "tools" / "measure_plain.py"),
         "--sets", "ggg-easy", "--data", str(tmp_path), "--gnugo", "--jobs", "1",
         "--max-nodes", "50000", "--out", str(out)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "ggg-easy: 2 problems; agree 2 (100%)" in proc.stdout, proc.stdout
    assert "GNU Go owl agrees 2 of 2 (100%)" in proc.stdout, proc.stdout
    recs = {r["problem"]: r for r in map(json.loads, out.read_text().splitlines()[1:])}
    assert recs["straight-three-kill-tl.sgf"]["owl_move"] == "ba"
    assert recs["bent-three-live-tl.sgf"]["owl_move"] == "aa"
