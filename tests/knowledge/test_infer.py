"""Inference and framing of plain problems (tsumego/infer.py, docs/inference.md).

Positions are small diagrams of our own placed in a corner of an otherwise empty board
(``X`` black, ``O`` white, ``.`` empty), as plain collections print them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import place, pt, sgf_moves, sgf_set

from tsumego import BLACK, WHITE, Board, ProblemError, SgfError, parse_problem, solve
from tsumego.cli.main import main
from tsumego.go.board import bits
from tsumego.knowledge.infer import (
    Framing,
    InferenceError,
    goal_from_comment,
    infer_problem,
    parse_region,
    roles_from_position,
)

STRAIGHT_THREE = """
. . . O X
O O O O X
X X X X .
"""

# Black's wall is loose: one-point gaps at ea-fb and at the edge (ac), stones one line apart.
LOOSE_WALL = """
. . . O . X .
O O O O X . .
. . . X . . .
X X X . . . .
"""

# Black's stone at ca sits inside White's eye space.
INSIDE_STONE = """
. . X . O X
O O O O O X
X X X X X .
"""

# A black group under a white wall: "to live" from the position.
BLACK_LIVES = """
. . . X O .
X X X X O .
O O O O . .
"""


# --- the comment ------------------------------------------------------------------------------

@pytest.mark.parametrize("comment,to_play,defender", [
    ("Black to kill", BLACK, WHITE),
    ("White to live", BLACK, WHITE),
    ("Black to play and live", BLACK, BLACK),
    ("White to play and kill.", WHITE, BLACK),
    ("Black to play: kill the white group", BLACK, WHITE),
    ("Can White live?", WHITE, WHITE),
    ("How should Black kill?", BLACK, WHITE),
    ("White to save the corner stones", WHITE, WHITE),
    ("Black to capture", BLACK, WHITE),
    # the named colour is the one that dies
    ("White is dead?", BLACK, WHITE),
    ("Is Black dead?", WHITE, BLACK),
    ("Black to play. White dies", BLACK, WHITE),
    ("To play and live.", WHITE, WHITE),
    ("Problem 12. Kill!", BLACK, WHITE),
])
def test_goal_from_comment(comment: str, to_play: int, defender: int) -> None:
    said = goal_from_comment(comment, to_play)
    assert said is not None and said[0] == defender


@pytest.mark.parametrize("comment", [
    "Black to play: Elementary", "Black to play.\n\nhttps://gogameguru.com/", "White to play",
    "", "Black to move first", "No correct solution on file, possibly there is none.",
])
def test_comments_without_a_goal(comment: str) -> None:
    assert goal_from_comment(comment, BLACK) is None


# --- roles from the position ------------------------------------------------------------------

@pytest.mark.parametrize("corner", ["tl", "tr", "bl", "br"])
def test_corner_kill_from_the_position(corner: str) -> None:
    b = place(STRAIGHT_THREE, corner)
    p, inf = infer_problem(b, BLACK, "Black to play")
    assert inf.rule == "enclosure" and inf.confidence > 0.9
    assert inf.defender == WHITE and inf.attacker == BLACK and inf.goal == "kill"
    assert p.target == b.white  # the whole white group is one block here
    # the eye space and the wall's inner face are in the region, the open board is not
    eye = {"tl": "aa ba ca", "tr": "sa ra qa", "bl": "as bs cs", "br": "ss rs qs"}[corner]
    for s in eye.split():
        assert p.region >> pt(s, 19) & 1
    assert bin(p.region).count("1") < 30
    sol = solve(p)
    assert sol.status == "kill"
    assert sgf_moves(sol.best_moves, 19) == {
        "tl": {"ba"}, "tr": {"ra"}, "bl": {"bs"}, "br": {"rs"}}[corner]


def test_white_to_play_lives_in_the_same_frame() -> None:
    b = place(STRAIGHT_THREE)
    p, inf = infer_problem(b, WHITE, "White to play")
    assert inf.goal == "live" and inf.defender == WHITE
    sol = solve(p)
    assert sol.status == "live" and sgf_moves(sol.best_moves, 19) == {"ba"}


def test_black_defends_when_black_is_shut_in() -> None:
    b = place(BLACK_LIVES, "br")
    roles = roles_from_position(b)
    assert roles.defender == BLACK and roles.rule == "enclosure"
    p, inf = infer_problem(b, BLACK, "")
    assert inf.goal == "live" and p.defender == BLACK


def test_attacker_stone_inside_the_eye_space() -> None:
    """The black stone inside White's eye space is shut in too, but White's whole group is:
    White still defends, and the stone does not stop the region at the eye."""
    b = place(INSIDE_STONE)
    p, inf = infer_problem(b, BLACK, "Black to play")
    assert inf.defender == WHITE and inf.goal == "kill"
    assert "1/" in inf.notes[0]  # one black stone shut in (of eight)
    assert all(p.region >> pt(s, 19) & 1 for s in ("aa", "ba", "ca", "da"))
    assert not inf.frame & pts_mask("aa ba da")
    sol = solve(p)
    assert sol.status == "kill" and sgf_moves(sol.best_moves, 19) == {"ba"}
    p2, _ = infer_problem(b, WHITE, "White to play")
    sol2 = solve(p2)
    assert sol2.status == "live" and sgf_moves(sol2.best_moves, 19) == {"ba"}


# Black's stone at ea stands on the first line next to White's eye space and is not shut in
# (fa and ga lead out): the frame's ring passes through it, yet it can be captured.
FIRST_LINE_STONE = """
. O . . X . . .
. O O O O . X .
O O X X X X X .
X X X . . . . .
"""


def test_a_captured_stone_on_the_ring_can_be_played_again() -> None:
    """Black's ea stands on the frame's ring, but all its liberties (da, fa) are inside: it is
    capturable (rules.md 1b), so its point stays in the region. Black da kills: if White
    captures da-ea with ca, Black plays on ea again and White's second eye is gone. Were ea
    cut out of the region, nobody could play there once it was captured, and White would
    live with an eye the board does not give it."""
    b = place(FIRST_LINE_STONE)
    p, inf = infer_problem(b, BLACK, "Black to play")
    assert inf.defender == WHITE and inf.goal == "kill"
    assert p.region >> pt("ea", 19) & 1
    # in the escape check it is still part of Black's wall: no flag
    assert inf.frame_sensitive is None
    sol = solve(p, time_limit=60)
    assert sol.status == "kill" and sgf_moves(sol.best_moves, 19) == {"da"}
    p2, _ = infer_problem(b, WHITE, "White to play")
    sol2 = solve(p2, time_limit=60)
    assert sol2.status == "live" and sgf_moves(sol2.best_moves, 19) == {"da", "fa", "fb"}


def pts_mask(text: str, size: int = 19) -> int:
    m = 0
    for s in text.split():
        m |= 1 << pt(s, size)
    return m


def test_the_frame_stops_an_escape() -> None:
    """The wall has gaps (ec-fb, the edge at ac): with the open board around, White would run
    out; the frame closes the outside one line beyond the wall, so the book's answer holds."""
    b = place(LOOSE_WALL)
    p, inf = infer_problem(b, BLACK, "Black to play")
    assert inf.defender == WHITE and inf.goal == "kill"
    assert inf.frame  # virtual black stones were added
    assert not inf.frame & b.occupied
    # no white block can ever get a liberty outside the region: nobody plays there, and
    # every empty point next to the region is a frame stone now
    board = p.board()
    open_empty = board.empty & ~p.region
    for blk in board.blocks(WHITE):
        assert not b.geo.dilate(blk) & open_empty
    # the gaps themselves are in the region: both sides may play there
    assert all(p.region >> pt(s, 19) & 1 for s in ("ea", "ac"))
    sol = solve(p, time_limit=60)
    assert sol.status == "kill" and sgf_moves(sol.best_moves, 19) == {"ba"}
    # White to play lives at the same point
    p2, _ = infer_problem(b, WHITE, "White to play")
    sol2 = solve(p2, time_limit=60)
    assert sol2.status == "live" and "ba" in (sgf_moves(sol2.best_moves, 19) or set())


def test_an_unbounded_region_is_refused() -> None:
    """A framing that lets the region run over the open board is refused, not searched."""
    b = place(LOOSE_WALL)
    with pytest.raises(InferenceError, match="too open"):
        infer_problem(b, BLACK, "Black to play", framing=Framing(mode="flood", distance=18,
                                                                  derive=False))


def test_side_problem() -> None:
    b = place("""
        . . . . . X O . . . O X . . .
        . . . . . X O O O O O X . . .
        . . . . . . X X X X X . . . .
    """)
    p, inf = infer_problem(b, BLACK, "Black to play")
    assert inf.defender == WHITE and inf.goal == "kill"
    sol = solve(p)
    assert sol.status == "kill" and sgf_moves(sol.best_moves, 19) == {"ia"}


def test_open_position_is_refused() -> None:
    b = Board(9)
    b.place(pt("cc", 9), BLACK)
    b.place(pt("dd", 9), WHITE)
    with pytest.raises(InferenceError, match="shut in"):
        infer_problem(b, BLACK, "")


def test_one_colour_is_refused() -> None:
    b = Board(9)
    b.place(pt("cc", 9), BLACK)
    with pytest.raises(InferenceError):
        infer_problem(b, BLACK, "")


def test_small_board_without_open_area_uses_height() -> None:
    b = Board.from_diagram("""
        . . . O X .
        O O O O X .
        X X X X X .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    p, inf = infer_problem(b, BLACK, "")
    assert inf.rule == "height" and inf.defender == WHITE and inf.confidence < 0.9
    sol = solve(p)
    assert sol.status == "kill" and sgf_moves(sol.best_moves, 6) == {"ba"}


# --- overrides ----------------------------------------------------------------------------------

def test_goal_override_swaps_the_roles() -> None:
    b = place(STRAIGHT_THREE)
    # Black's wall to live: it can run into the open board, a chase, refused
    with pytest.raises(InferenceError, match="can run into the open board"):
        infer_problem(b, BLACK, "Black to play", goal="live")
    # within a region the user gives, it is framed, and the frame may decide the result
    p, inf = infer_problem(b, BLACK, "Black to play", goal="live",
                           region=parse_region("aa-gf", 19))
    assert inf.rule == "override" and inf.defender == BLACK and p.defender == BLACK
    assert inf.frame_sensitive is not None
    assert inf.frame_sensitive.startswith("the target can run into the open board")


def test_target_override() -> None:
    b = place(INSIDE_STONE)
    p, inf = infer_problem(b, BLACK, "", target=[pt("ca", 19)])
    assert inf.rule == "override" and p.defender == BLACK
    assert sgf_set(p.target, 19) == {"ca"}
    assert inf.goal == "live"


def test_goal_contradicting_the_target_is_an_error() -> None:
    b = place(STRAIGHT_THREE)
    with pytest.raises(InferenceError, match="contradicts"):
        infer_problem(b, BLACK, "", target=[pt("ab", 19)], goal="live")


def test_region_override_is_used_as_given() -> None:
    b = place(STRAIGHT_THREE)
    region = parse_region("aa-dc", 19)
    p, inf = infer_problem(b, BLACK, "", region=region)
    assert p.region == region == inf.region
    assert inf.frame == (pts_mask("ea eb ec ed ad bd cd dd") & b.empty)
    assert solve(p).status == "kill"


def test_region_must_hold_the_target() -> None:
    b = place(STRAIGHT_THREE)
    with pytest.raises(InferenceError, match="target"):
        infer_problem(b, BLACK, "", region=parse_region("aa-ba", 19))


@pytest.mark.parametrize("text,expected", [
    ("aa-cb", "aa ba ca ab bb cb"),
    ("cb:aa", "aa ba ca ab bb cb"),
    ("A19-B18", "aa ba ab bb"),
    ("aa ba,ca", "aa ba ca"),
    ("A19 cc", "aa cc"),
])
def test_parse_region(text: str, expected: str) -> None:
    assert parse_region(text, 19) == pts_mask(expected)


@pytest.mark.parametrize("text", ["", "zz", "aa-", "pass"])
def test_parse_region_errors(text: str) -> None:
    with pytest.raises(ValueError):
        parse_region(text, 19)


# --- SGF and the command line ------------------------------------------------------------------

PLAIN = ("(;FF[4]GM[1]SZ[19]PL[B]C[Black to play: Elementary]"
         "AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db](;B[ba]C[RIGHT]))\n")
MARKED = ("(;FF[4]GM[1]SZ[19]PL[B]MA[da]"
          "AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db](;B[ba]C[RIGHT]))\n")


def test_parse_plain_problem() -> None:
    pf = parse_problem(PLAIN.encode(), "plain.sgf")
    assert pf.inferred is not None and pf.inferred.goal == "kill"
    assert pf.problem.defender == WHITE and pf.stated_moves == (pt("ba", 19),)
    assert solve(pf.problem).best_moves == (pt("ba", 19),)


def test_ma_wins_over_inference() -> None:
    pf = parse_problem(MARKED.encode(), "marked.sgf")
    assert pf.inferred is None
    pf2 = parse_problem(MARKED.encode(), "marked.sgf", goal="kill")
    assert pf2.inferred is not None and pf2.inferred.rule == "marked"
    assert pf2.problem.region == pf.problem.region
    with pytest.raises(SgfError, match="contradicts"):
        parse_problem(MARKED.encode(), "marked.sgf", goal="live")


def test_target_override_replaces_ma() -> None:
    pf = parse_problem(MARKED.encode(), "marked.sgf", target="ea")
    assert pf.problem.defender == BLACK and pf.inferred is not None
    assert pf.inferred.rule == "override"


def test_inference_failure_names_the_file() -> None:
    data = b"(;FF[4]SZ[9]AB[cc]AW[dd])"
    with pytest.raises(SgfError, match=r"^open\.sgf: .*shut in"):
        parse_problem(data, "open.sgf")
    with pytest.raises(ProblemError):
        parse_problem(b"(;FF[4]SZ[9]AB[cc]AW[dd])", "x.sgf", target="ee")


def test_cli_explain_and_json(tmp_path: Path) -> None:
    f = tmp_path / "plain.sgf"
    f.write_text(PLAIN)
    r = CliRunner().invoke(main, ["solve", str(f), "--explain"])
    assert r.exit_code == 0, r.output
    assert "Inferred: Black to play and kill; defender White (rule: enclosure" in r.output
    assert "Black to play: kills unconditionally with B19 (ba)" in r.output
    r = CliRunner().invoke(main, ["solve", str(f), "--json"])
    obj = json.loads(r.output)
    assert obj["best_moves"] == ["ba"] and obj["status"] == "kill"
    inf = obj["inferred"]
    assert inf["goal"] == "kill" and inf["defender"] == "W" and inf["rule"] == "enclosure"
    assert set(inf["target"]) == {"da", "ab", "bb", "cb", "db"}
    assert "ba" in inf["region"] and 0 < inf["confidence"] <= 1
    # a marked file: "inferred" is null, the other keys are unchanged
    g = tmp_path / "marked.sgf"
    g.write_text(MARKED)
    obj = json.loads(CliRunner().invoke(main, ["solve", str(g), "--json"]).output)
    assert obj["inferred"] is None and obj["best_moves"] == ["ba"]


def test_cli_overrides(tmp_path: Path) -> None:
    f = tmp_path / "plain.sgf"
    f.write_text(PLAIN)
    # Black's wall as the group to save: it can run into the open board, and a frame around
    # it would make up the problem: refused, in one line naming the file
    r = CliRunner().invoke(main, ["solve", str(f), "--json", "--goal", "live"])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert f"{f}: the target (Black's block at E19 (ea)) can run into the open board" in \
        r.output
    r = CliRunner().invoke(main, ["solve", str(f), "--json", "--goal", "kill"])
    obj = json.loads(r.output)
    assert obj["defender"] == "W" and obj["inferred"]["rule"] == "override"
    r = CliRunner().invoke(main, ["solve", str(f), "--json", "--region", "aa-dc"])
    obj = json.loads(r.output)
    assert obj["best_moves"] == ["ba"]
    assert len(obj["inferred"]["region"]) == 12
    r = CliRunner().invoke(main, ["solve", str(f), "--json", "--target", "D19"])
    assert json.loads(r.output)["target"] == ["da", "ab", "bb", "cb", "db"]
    r = CliRunner().invoke(main, ["solve", str(f), "--region", "zz"])
    assert r.exit_code == 2 and "plain.sgf" in r.output
    r = CliRunner().invoke(main, ["solve", str(tmp_path / "missing.sgf"), "--goal", "kill"])
    assert r.exit_code == 2 and "not found" in r.output


def test_inference_to_json_lists_the_frame() -> None:
    b = place(LOOSE_WALL)
    p, inf = infer_problem(b, BLACK, "")
    d = inf.to_json(19)
    assert set(d["frame"]) == sgf_set(inf.frame, 19)
    assert set(d["region"]) == sgf_set(p.region, 19)
    assert all(b.color_at(q) == 0 for q in bits(inf.frame))
