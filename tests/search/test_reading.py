"""Another reading of a plain problem whose first reading has no solution, is too open, or
was stopped by a limit (search/reading.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import place, plain_sgf, pt, sgf_moves

from tsumego import BLACK, WHITE, solve
from tsumego.cli.main import main
from tsumego.go.board import bits
from tsumego.go.coords import to_sgf
from tsumego.go.problem import Problem
from tsumego.knowledge.infer import DEFAULT_FRAMING, Framing, TooOpen, infer_problem
from tsumego.search.reading import (
    fails_everywhere,
    other_readings,
    poses,
    read_again,
    read_tighter,
    tighter_frame,
    tighter_framing,
)
from tsumego.search.solver import Solution

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


# Black to play. Black's stone at c19 is the only stone shut in, so the position rule takes
# Black as the defender; the frame around it takes in Black's wall and holds 65 empty points,
# too open for a life-and-death problem. Read the other way round, White's corner (a18-d18,
# c19 in its eye space) is the problem: Black kills with e18 (b19, d19 and e19 kill too), and
# White moving first lives only with b19. Our own composition.
WRONG_WAY_ROUND = """
. . X . . . . . . . . .
O O O O . . . . . . . .
X X X X . X X X X . . .
. . . . X . . . . . . .
"""

# As above, with a longer white group and Black's wall two stones along: the first reading is
# too open (70 empty points), and White's group, read as the target, can run into the open
# board: no reading poses a problem. Our own composition.
NO_OTHER_READING = """
. . X . . . . . . .
O O O O . . . O . .
X X X X . O O X . .
. . . . X . . X . .
. . . X . . X . . .
"""


def test_a_reading_too_open_is_refused_with_the_reading_itself() -> None:
    with pytest.raises(TooOpen, match="65 empty points: too open") as e:
        infer_problem(place(WRONG_WAY_ROUND), BLACK)
    assert e.value.empty == 65
    assert e.value.inferred.goal == "live" and e.value.inferred.rule == "enclosure"
    assert {to_sgf(q, 19) for q in bits(e.value.problem.target)} == {"ca"}


def test_the_roles_swapped_pose_the_problem_the_first_reading_left_too_open() -> None:
    with pytest.raises(TooOpen) as e:
        infer_problem(place(WRONG_WAY_ROUND), BLACK)
    first, inferred = e.value.problem, e.value.inferred
    # read the usual way, Black's wall comes first, as another target
    assert other_readings(first, inferred)[0].why.startswith("another target")
    readings = other_readings(first, inferred, too_open=True)
    assert readings[0].why == "the roles swapped, Black to kill"

    def solve_one(p: Problem, color: int) -> Solution:
        return solve(p, to_play=color, time_limit=60, all_moves=False)

    r = read_again(first, inferred, "", solve_one, too_open=True)
    assert r is not None and r.why == "the roles swapped, Black to kill"
    assert {to_sgf(q, 19) for q in bits(r.problem.target)} == {"ab", "bb", "cb", "db"}
    black, white = (solve(r.problem, to_play=c, time_limit=60) for c in (BLACK, WHITE))
    assert black.status == "kill" and white.status == "live"
    assert sgf_moves(black.moves, 19) == {"ba", "da", "ea", "eb"}
    assert sgf_moves(white.moves, 19) == {"ba"}


def test_solve_reads_a_problem_too_open_again_and_says_so(tmp_path: Path) -> None:
    f = tmp_path / "wrong-way-round.sgf"
    f.write_text(plain_sgf(WRONG_WAY_ROUND, "B"))
    res = CliRunner().invoke(main, ["solve", str(f), "--time-limit", "60", "--quick"])
    assert res.exit_code == 0, res.output
    assert res.output.lstrip().startswith(
        "Read again: as first inferred (Black to live), the framed region has 65 empty points, "
        "too open for a life-and-death problem; read instead as the roles swapped, Black to "
        "kill.")
    assert "Black to play: kills unconditionally with E18 (eb)" in res.output
    assert "White to play: lives unconditionally with B19 (ba)" in res.output
    res = CliRunner().invoke(main, ["solve", str(f), "--time-limit", "60", "--quick", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output.splitlines()[0])
    assert out["status"] == "kill" and out["inferred"]["rule"] == "read again"
    assert out["inferred"]["notes"][-1].startswith("as first inferred (Black to live), the "
                                                   "framed region has 65 empty points")


def test_a_problem_too_open_with_no_other_reading_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "no-other-reading.sgf"
    f.write_text(plain_sgf(NO_OTHER_READING, "B"))
    res = CliRunner().invoke(main, ["solve", str(f), "--time-limit", "60"])
    assert res.exit_code == 2
    assert res.output.strip() == (f"tsumego: error: {f}: the framed region has 70 empty points: "
                                  "too open for a life-and-death problem (give the region)")


def test_a_problem_too_open_is_not_read_again_when_the_user_gave_the_goal(
        tmp_path: Path) -> None:
    f = tmp_path / "wrong-way-round.sgf"
    f.write_text(plain_sgf(WRONG_WAY_ROUND, "B"))
    res = CliRunner().invoke(main, ["solve", str(f), "--goal", "live"])
    assert res.exit_code == 2
    assert "65 empty points: too open" in res.output and "Read again" not in res.output


def test_verify_reads_a_problem_too_open_again_and_refuses_one_with_no_other_reading(
        tmp_path: Path) -> None:
    d = tmp_path / "book"
    d.mkdir()
    (d / "wrong-way-round.sgf").write_text(plain_sgf(WRONG_WAY_ROUND, "B",
                                                     right=["eb", "ba", "da", "ea"]))
    (d / "no-other-reading.sgf").write_text(plain_sgf(NO_OTHER_READING, "B", right=["db"]))
    out = tmp_path / "results.jsonl"
    CliRunner().invoke(main, ["verify", str(d), "--time-limit", "60", "--jobs", "1",
                              "--json", str(out)])
    recs = {Path(r["file"]).name: r for r in map(json.loads, out.read_text().splitlines())
            if "file" in r}
    agree = recs["wrong-way-round.sgf"]
    assert agree["class"] == "agree", agree
    assert any(n.startswith("read again: as first inferred (Black to live), the framed "
                            "region has 65 empty points") for n in agree["notes"])
    # the note on the frame is the new reading's: Black's stones frame White's corner
    assert agree["notes"][0].endswith("virtual Black stones frame it"), agree["notes"]
    refused = recs["no-other-reading.sgf"]
    assert refused["class"] == "error" and "70 empty points: too open" in refused["error"]
    assert refused["notes"] == [] and refused["board"] is None


# Black to play and kill White's second-line group. Black's stones stand loose around it: the
# default frame's region holds 22 empty points, and its search runs far past 100,000 nodes.
# Framed within one line of White's stones (13 empty points), Black kills with f19 and White
# to play lives with a18. Our own composition.
LOOSE_NET = """
. . . . . . . . .
. O O O O O . X .
. X . . . X . . .
. . . X X . . . .
. X . . . . . . .
"""

# Another of the same kind, White's group bent down at e17 and Black's b15 gone: framed
# closer, White cannot live even moving first, so that frame poses no problem.
LOOSE_NET_SHORT = """
. . . . . . . . .
. O O O O . . X .
. X . . O X . . .
. . . X X . . . .
. . . . . . . . .
"""


def test_the_tighter_frame_is_one_line_around_the_defender() -> None:
    tight = tighter_framing(DEFAULT_FRAMING)
    assert tight == Framing(distance=1, beyond=0)
    assert tighter_framing(tight) is None  # nothing closer
    assert tighter_framing(Framing(mode="box")) is None


def test_a_stopped_first_reading_is_read_in_the_tighter_frame() -> None:
    p, inf = infer_problem(place(LOOSE_NET), BLACK, "Black to play")
    assert inf.goal == "kill"
    first = solve(p, to_play=BLACK, max_nodes=100_000, all_moves=False)
    assert first.status == "unknown" and first.limit == "nodes"

    def solve_one(q: Problem, color: int) -> Solution:
        return solve(q, to_play=color, max_nodes=100_000, all_moves=False)

    r = read_tighter(p, inf, "Black to play", solve_one)
    assert r is not None
    assert r.why == ("the same target, Black to kill, framed closer, within 1 line of the "
                     "defender's stones (13 empty points)")
    assert r.problem.target == p.target
    black = solve(r.problem, to_play=BLACK, max_nodes=100_000)
    white = solve(r.problem, to_play=WHITE, max_nodes=100_000, all_moves=False)
    assert black.status == "kill" and "fa" in sgf_moves(black.best_moves, 19)
    assert white.status == "live"


def test_a_tighter_frame_that_poses_no_problem_is_not_taken() -> None:
    p, inf = infer_problem(place(LOOSE_NET_SHORT), BLACK, "Black to play")
    r = tighter_frame(p, inf, "Black to play")
    assert r is not None  # it can be drawn, and it is smaller
    white = solve(r.problem, to_play=WHITE, max_nodes=100_000, all_moves=False)
    assert fails_everywhere(white)  # White cannot live even moving first: no problem

    def solve_one(q: Problem, color: int) -> Solution:
        return solve(q, to_play=color, max_nodes=100_000, all_moves=False)

    assert read_tighter(p, inf, "Black to play", solve_one) is None


def test_no_tighter_reading_when_the_user_gave_the_target() -> None:
    b = place(LOOSE_NET)
    p, inf = infer_problem(b, BLACK, target=[pt("bb", 19)])
    assert tighter_frame(p, inf) is None


def test_solve_says_the_limit_stopped_the_first_reading_and_answers_the_tighter_one(
        tmp_path: Path) -> None:
    f = tmp_path / "loose-net.sgf"
    f.write_text(plain_sgf(LOOSE_NET, "B"))
    res = CliRunner().invoke(main, ["solve", str(f), "--max-nodes", "100000", "--quick"])
    assert res.exit_code == 0, res.output
    first, _, again = res.output.partition("Read again: ")
    assert "Black to play: unknown (stopped by the node limit)" in first
    assert again.startswith("as first inferred (Black to kill), the node limit stopped the "
                            "search; read instead as the same target, Black to kill, framed "
                            "closer")
    assert "Black to play: kills unconditionally" in again
    assert "White to play: lives unconditionally" in again
    # the user's goal: the first reading is answered, unknown
    res = CliRunner().invoke(main, ["solve", str(f), "--max-nodes", "100000", "--quick",
                                    "--goal", "kill"])
    assert res.exit_code == 3, res.output
    assert "Read again" not in res.output
