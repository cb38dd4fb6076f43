"""Another reading of a plain problem whose first reading has no solution (search/reading.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import place, plain_sgf, pt, sgf_moves

from tsumego import BLACK, WHITE, solve
from tsumego.cli.main import main
from tsumego.go.board import bits
from tsumego.go.coords import to_sgf
from tsumego.knowledge.infer import infer_problem
from tsumego.search.reading import fails_everywhere, other_readings, poses

# Black to play. Black's largest block (e19-g19, e18-f18) is shut in with one liberty, h19,
# where Black may not play (it would take the block's last liberty): it cannot be saved. The
# corner (c19-c17, b17, a18) lives with b19, which makes two eyes (a19, b18); White to play
# kills there first. Our own composition.
TWO_BLOCKS = """
. . X O X X X . O
X . X O X X O O .
O X X O O O O . .
O O O O . . . . .
"""


def test_the_first_reading_of_the_two_blocks_has_no_solution() -> None:
    """The inference takes the largest enclosed block, which Black cannot save at any
    balance: no published problem asks that."""
    p, inf = infer_problem(place(TWO_BLOCKS), BLACK)
    assert inf.goal == "live" and inf.rule == "enclosure"
    assert {to_sgf(q, 19) for q in bits(p.target)} == {"ea", "fa", "ga", "eb", "fb"}
    black, white = (solve(p, to_play=c, time_limit=60, all_moves=False) for c in (BLACK, WHITE))
    assert fails_everywhere(black) and not fails_everywhere(white)
    assert not poses(black, white)


def test_another_target_poses_the_problem_and_its_answer_is_b19() -> None:
    p, inf = infer_problem(place(TWO_BLOCKS), BLACK)
    readings = other_readings(p, inf)
    first = readings[0]
    assert first.why == "another target, Black to save its block at C19 (ca), 4 stones"
    assert {to_sgf(q, 19) for q in bits(first.problem.target)} == {"ca", "cb", "cc", "bc"}
    black, white = (solve(first.problem, to_play=c, time_limit=60) for c in (BLACK, WHITE))
    assert poses(black, white)
    assert black.status == "live" and sgf_moves(black.best_moves, 19) == {"ba"}
    assert white.status == "kill"


def test_nothing_is_read_again_when_the_user_gave_the_target() -> None:
    b = place(TWO_BLOCKS)
    p, inf = infer_problem(b, BLACK, target=[pt("ea", 19)])
    assert inf.rule == "override"
    assert other_readings(p, inf) == []


def test_solve_says_it_read_the_problem_again_and_answers_that_reading(tmp_path: Path) -> None:
    f = tmp_path / "two-blocks.sgf"
    f.write_text(plain_sgf(TWO_BLOCKS, "B"))
    res = CliRunner().invoke(main, ["solve", str(f), "--time-limit", "60"])
    assert res.exit_code == 0, res.output
    first, _, again = res.output.partition("Read again: ")
    assert "Black to play: cannot live" in first
    assert again.startswith("as first inferred (Black to live), Black cannot live whatever the "
                            "ko threats")
    assert "Black to play: lives unconditionally with B19 (ba)" in again
    res = CliRunner().invoke(main, ["solve", str(f), "--time-limit", "60", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output.splitlines()[0])
    assert out["status"] == "live" and out["inferred"]["rule"] == "read again"
    assert any(n.startswith("as first inferred") for n in out["inferred"]["notes"])


def test_solve_answers_the_first_reading_when_the_user_gave_the_goal(tmp_path: Path) -> None:
    f = tmp_path / "two-blocks.sgf"
    f.write_text(plain_sgf(TWO_BLOCKS, "B"))
    res = CliRunner().invoke(main, ["solve", str(f), "--time-limit", "60", "--goal", "live"])
    assert res.exit_code == 0, res.output
    assert "Read again" not in res.output
    assert "Black to play: cannot live" in res.output


def test_verify_reads_the_problem_again_and_agrees_with_the_book(tmp_path: Path) -> None:
    """The book's right line, b19, is checked against the reading that poses a problem."""
    d = tmp_path / "book"
    d.mkdir()
    (d / "two-blocks.sgf").write_text(plain_sgf(TWO_BLOCKS, "B", right=["ba"]))
    out = tmp_path / "results.jsonl"
    res = CliRunner().invoke(main, ["verify", str(d), "--time-limit", "60", "--jobs", "1",
                                    "--json", str(out)])
    assert res.exit_code == 0, res.output
    [rec] = [json.loads(ln) for ln in out.read_text().splitlines() if '"file"' in ln]
    assert rec["class"] == "agree", rec
    assert any(n.startswith("read again: as first inferred (Black to live)")
               for n in rec["notes"])
