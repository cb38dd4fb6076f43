"""Where the frame of a plain problem decides the answer, the program says so.

Two composed positions, diagrams in the top left corner of an empty 19x19 board (``X`` black,
``O`` white), written as plain problem files (no ``MA``, a comment, the book's answer):

- a chase across the board: the two white stones are caught by a ladder that runs to the far
  edge. No frame stands in for that: the problem is refused, in one line, by ``solve`` and by
  ``verify``.
- a frame too close: a white group on the second line whose room along the edge runs to
  Black's wall on the M line. The default frame puts Black stones on the H line, and the
  answer changes from "lives" (the book's real position) to "cannot live";
  ``inferred.frame_sensitive`` says why. Since a published problem has a solution, the
  problem is then read again in a wider frame, which gives the book's answer, and says so;
  where the side to play wins in the frame too, ``verify`` files the disagreement with the
  book as ``frame-sensitive``, never as the book's mistake.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import place, plain_sgf, replay_with_sgfmill, sgf_moves
from sgfmill import sgf

from tsumego import BLACK, WHITE, Problem, read_problem, solve
from tsumego.batch.verify import Options, Task, verify_problem
from tsumego.cli.main import main
from tsumego.go.board import bits
from tsumego.io.sgf import parse_problem
from tsumego.knowledge.infer import Framing, InferenceError, infer_problem
from tsumego.search.reading import other_readings, read_again
from tsumego.search.solver import Solution

# Black E16 (ed) ataris; White D15 (de) runs, and every Black atari after it sends the two
# stones one step further along the diagonal, to the far edge (D15 first would let White
# out at E16)
CHASE = """
. . . . . .
. . . . . .
. . X X . .
. X O O . .
. . X . . .
"""

# White's room on the first two lines runs to Black's wall on the M line: White lives
# (B19 or E18). The default frame is drawn two lines past White's stones (H19, H18).
ROOM = """
. . . . . . . . . . . X
O O O O . . . . . . . X
X X X X X X X X X X X X
"""
# the book's real position: the whole inside of Black's wall, no frame stone needed
ROOM_REGION = "aa-kb"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The two problems as files: ``chase`` (Black to capture, the book's E16) and ``room``
    (White to live, the book's B19 and E18)."""
    d = tmp_path_factory.mktemp("frame")
    out = {"chase": d / "chase-ladder.sgf", "room": d / "second-line-room.sgf"}
    out["chase"].write_text(plain_sgf(CHASE, "B", "Black to play and capture the two white "
                                      "stones", ["ed"]))
    out["room"].write_text(plain_sgf(ROOM, "W", "White to play and live", ["ba", "eb"]))
    return out


def test_the_files_hold_the_diagrams(files: dict[str, Path]) -> None:
    for key, diagram in (("chase", CHASE), ("room", ROOM)):
        pos = place(diagram)
        root = sgf.Sgf_game.from_bytes(files[key].read_bytes()).get_root()
        black, white, _ = root.get_setup_stones()
        assert {(18 - r) * 19 + c for r, c in black} == set(bits(pos.black))
        assert {(18 - r) * 19 + c for r, c in white} == set(bits(pos.white))


# --- a chase across the board ----------------------------------------------------------------

def test_a_chase_across_the_board_is_refused_not_solved_in_a_frame(
        files: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(InferenceError, match="can run into the open board"):
        infer_problem(place(CHASE), BLACK, "Black to play and capture the two white stones")
    path = files["chase"]
    tree = tmp_path / "tree.sgf"
    for extra in ([], ["--json"], ["-o", str(tree)]):
        r = invoke("solve", str(path), *extra)
        assert r.exit_code == 2, r.output
        assert r.stdout == ""
        assert r.stderr.count("\n") == 1
        assert r.stderr == (
            f"tsumego: error: {path}: the target (White's block at C16 (cd)) can run into the "
            f"open board: a chase across the board is not a life-and-death problem for this "
            f"solver (a frame around the target would decide the answer; mark the target with "
            f"MA and wall it in, or give the region)\n")
    assert not tree.exists()


def test_a_chase_in_a_region_the_user_gives_is_flagged(files: dict[str, Path]) -> None:
    """Given a region, the user has framed it: solved in that frame, and said to be a chase
    the frame stops."""
    pf = parse_problem(files["chase"].read_bytes(), region="aa-ki")
    assert pf.inferred is not None and pf.inferred.rule == "comment"
    why = pf.inferred.frame_sensitive
    assert why is not None
    assert why.startswith("the target can run into the open board, where the frame stops it; "
                          "the target's way out reaches the frame at L19 (ka)")


def test_verify_files_a_chase_as_an_error_not_an_answer(files: dict[str, Path]) -> None:
    path = files["chase"]
    res = verify_problem(Task(0, str(path), 0, path.read_bytes()), Options(time_limit=20))
    assert res.cls == "error"
    assert res.solver_moves is None and res.status is None
    assert res.error is not None and "can run into the open board" in res.error


# --- a frame too close -------------------------------------------------------------------------

def test_a_frame_too_close_changes_the_answer_and_says_so(files: dict[str, Path]) -> None:
    path = files["room"]
    # (the goal given: the first reading is answered, not read again)
    r = invoke("solve", str(path), "--json", "--to-play", "W", "--goal", "live")
    assert r.exit_code == 0, r.output
    framed = json.loads(r.stdout)
    r = invoke("solve", str(path), "--json", "--to-play", "W", "--region", ROOM_REGION,
               "--time-limit", "120")
    assert r.exit_code == 0, r.output
    real = json.loads(r.stdout)
    # the book's real position: Black's own wall shuts White in, no frame stone is added
    assert real["inferred"]["frame"] == [] and real["inferred"]["frame_sensitive"] is None
    assert (real["status"], sorted(real["best_moves"])) == ("live", ["ba", "eb"])
    # the default frame two lines out takes White's room away: another answer, and it says so
    assert framed["inferred"]["frame"] == ["ha", "hb"]
    assert (framed["status"], framed["best_moves"]) == ("kill", [])
    assert framed["inferred"]["frame_sensitive"] == (
        "the target's way out reaches the frame at G19 (ga), G18 (gb): frame stones, not "
        "Black's own, stop it there")
    # a looser frame (three lines out) finds the real answer too
    pf = read_problem(path)
    assert pf.inferred is not None
    looser, inf = infer_problem(place(ROOM), WHITE, "White to play and live",
                                framing=Framing(distance=4))
    assert inf.frame != pf.inferred.frame
    sol = solve(looser, time_limit=120)
    assert sol.status == "live"
    assert sorted(sgf_moves(sol.best_moves, 19) or ()) == ["ba", "eb"]


def test_the_text_explain_and_the_tree_say_the_frame_may_decide(
        files: dict[str, Path], tmp_path: Path) -> None:
    path = files["room"]
    r = invoke("solve", str(path), "--to-play", "W", "--goal", "live")
    assert r.exit_code == 0, r.output
    assert ("The frame may decide the result: the target's way out reaches the frame at G19 "
            "(ga), G18 (gb)") in r.stdout
    r = invoke("solve", str(path), "--to-play", "W", "--goal", "live", "--explain")
    assert "  - the frame may decide the result: the target's way out" in r.stdout
    out = tmp_path / "tree.sgf"
    r = invoke("solve", str(path), "--to-play", "B", "-o", str(out))
    assert r.exit_code == 0, r.output
    comment = sgf.Sgf_game.from_bytes(out.read_bytes()).get_root().get("C")
    assert "The frame may decide the result: the target's way out reaches the frame" in comment
    assert "may not be the book's" in comment
    # its lines are legal on the board the tree shows, frame stones included
    for mode in ("readable", "full"):
        r = invoke("solve", str(path), "--to-play", "B", "-o", str(out), "--tree", mode,
                   "--force")
        assert r.exit_code == 0, r.output
        games, played, bad = replay_with_sgfmill(out.read_bytes())
        assert games >= 1 and played > 0 and bad == []


# --- read again in a wider frame ---------------------------------------------------------------

WIDER = "the same target, White to live, framed 2 lines farther out (18 empty points)"


def test_the_wider_frames_come_after_the_other_readings() -> None:
    """No other White block and roles stated by the comment: the wider frames alone. Two
    lines farther out, Black's own wall shuts White in and no frame stone is needed; the box
    around the stones gives the same region, and is left out."""
    first, inferred = infer_problem(place(ROOM), WHITE, "White to play and live")
    readings = other_readings(first, inferred, "White to play and live")
    assert [r.why for r in readings] == [WIDER]
    looser = readings[0]
    assert looser.problem.target == first.target and looser.inferred.goal == "live"
    assert looser.inferred.frame == 0 and looser.inferred.frame_sensitive is None
    # the roles and the target found as in the first reading; the frame is the wider one's
    assert looser.inferred.notes[:-1] == inferred.notes[:-1]
    assert looser.inferred.notes[-1] != inferred.notes[-1]
    # a first reading too open is not read in a wider frame: it is more open still
    assert [r.why for r in other_readings(first, inferred, "White to play and live",
                                          too_open=True)] == []

    def solve_one(p: Problem, color: int) -> Solution:
        return solve(p, to_play=color, time_limit=120, all_moves=False)

    r = read_again(first, inferred, "White to play and live", solve_one)
    assert r is not None and r.why == WIDER


def test_solve_reads_a_frame_too_close_again_in_a_wider_frame(files: dict[str, Path]) -> None:
    path = files["room"]
    r = invoke("solve", str(path), "--to-play", "W", "--time-limit", "120")
    assert r.exit_code == 0, r.output
    first, _, again = r.stdout.partition("Read again: ")
    assert "White to play: cannot live" in first
    assert again.startswith("as first inferred (White to live), White cannot live whatever the "
                            f"ko threats, and a published problem has a solution; read instead "
                            f"as {WIDER}.")
    assert "White to play: lives unconditionally with B19 (ba)" in again
    r = invoke("solve", str(path), "--json", "--to-play", "W", "--time-limit", "120")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert (out["status"], sorted(out["best_moves"])) == ("live", ["ba", "eb"])
    assert out["inferred"]["rule"] == "read again" and out["inferred"]["frame"] == []
    assert out["inferred"]["frame_sensitive"] is None
    assert any(n.endswith(f"read instead as {WIDER}") for n in out["inferred"]["notes"])


def test_verify_agrees_with_the_book_in_the_wider_frame(tmp_path: Path) -> None:
    """The book: White lives with B19 or E18. In the frame White cannot live; read again in
    the wider frame, the book's moves are the right ones."""
    data = plain_sgf(ROOM, "W", "White to play and live", ["ba", "eb"]).encode()
    res = verify_problem(Task(0, "room.sgf", 0, data), Options(time_limit=60))
    assert res.cls == "agree", res
    assert res.frame_sensitive is None
    assert any(n == f"read again: as first inferred (White to live), White cannot live "
                    f"whatever the ko threats, and a published problem has a solution; read "
                    f"instead as {WIDER}" for n in res.notes), res.notes


@pytest.mark.parametrize("to_play,comment,right,was", [
    # the book: Black kills with E18 alone; in the frame every move kills
    ("B", "Black to play and kill", ["eb"], "extra-solutions"),
])
def test_verify_files_the_disagreement_as_frame_sensitive(
        tmp_path: Path, to_play: str, comment: str, right: list[str], was: str) -> None:
    data = plain_sgf(ROOM, to_play, comment, right).encode()
    res = verify_problem(Task(0, "room.sgf", 0, data), Options(time_limit=20))
    assert res.cls == "frame-sensitive"
    assert res.frame_sensitive is not None
    assert res.frame_sensitive.startswith("the target's way out reaches the frame")
    assert [f["class"] for f in res.findings] == ["frame-sensitive"]
    assert res.findings[0]["text"].startswith(f"{was}, but the frame may decide the result (")
    # and through the command: the class in the JSON lines and the summary
    f = tmp_path / "room.sgf"
    f.write_bytes(data)
    js = tmp_path / "out.jsonl"
    r = invoke("verify", str(f), "--jobs", "1", "--json", str(js))
    assert r.exit_code == 1, r.output
    row = json.loads(js.read_text().splitlines()[0])
    assert row["class"] == "frame-sensitive" and row["frame_sensitive"] == res.frame_sensitive
    counted = [line.split()[0] for line in r.output.split("\nfindings:")[0].splitlines()[1:]
               if line.startswith("  ") and line.split()[1].isdigit()]
    assert counted == ["frame-sensitive", "total"]
    assert f"{f}: frame-sensitive: {was}, but the frame may decide the result" in r.output
