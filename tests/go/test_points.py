"""The library's points and colours: ``Point`` and ``Color`` convert and print as Go players
write them and stay equal to the board indices and integers the rest of the package uses;
``Solution`` prints readably and its JSON is complete."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from tsumego import BLACK, PASS, WHITE, Color, Point, read_problem, solve
from tsumego.go import board as board_module
from tsumego.go.coords import from_sgf


def test_point_notations():
    p = Point.from_gtp("B2", 6)
    assert (p.sgf, p.gtp, p.col, p.row, p.size) == ("be", "B2", 1, 4, 6)
    assert p == from_sgf("be", 6) == 25  # the board index
    assert Point.from_sgf("be", 6) == p and Point.at(1, 4, 6) == p
    assert str(p) == "B2" and f"{p:>4}" == "  B2"
    assert repr(p) == "Point('B2', 'be')"
    # GTP skips I; row numbers count from the bottom
    assert Point.from_sgf("ja", 19).gtp == "K19" and Point.from_gtp("T1", 19).sgf == "ss"


def test_point_pass():
    for p in (Point.from_sgf("pass", 9), Point.from_sgf("", 9), Point.from_gtp("PASS", 9),
              Point(PASS, 9)):
        assert p.is_pass and p == PASS
        assert (p.sgf, p.gtp, p.col, p.row) == ("pass", "pass", -1, -1)
        assert repr(p) == "Point('pass')"


@pytest.mark.parametrize("make", [
    lambda: Point(36, 6), lambda: Point(-2, 6), lambda: Point.from_gtp("Z9", 6),
    lambda: Point.from_sgf("zz", 6), lambda: Point.at(6, 0, 6), lambda: Point(0, 0)])
def test_point_rejects_what_is_off_the_board(make):
    with pytest.raises(ValueError):
        make()


def test_point_is_immutable_and_survives_copies():
    p = Point.from_gtp("C3", 9)
    with pytest.raises(AttributeError):
        p.size = 19  # type: ignore[misc]
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p), copy.copy(p)):
        assert q == p and q.size == 9 and isinstance(q, Point)
    assert json.dumps([p]) == f"[{int(p)}]"


def test_color_is_the_board_integer():
    assert Color.BLACK == board_module.BLACK == BLACK == 1
    assert Color.WHITE == board_module.WHITE == WHITE == 2
    assert {1: "x"}[Color.BLACK] == "x" and hash(Color.WHITE) == hash(2)
    assert str(Color.BLACK) == "Black" and f"{Color.WHITE}" == "White"
    assert repr(Color.WHITE) == "Color.WHITE"
    assert Color.BLACK.opponent is Color.WHITE and Color.WHITE.letter == "W"
    assert Color.parse("black") is Color.BLACK and Color.parse("W") is Color.WHITE
    with pytest.raises(ValueError):
        Color.parse("red")


def test_solution_speaks_points_and_colours():
    pf = read_problem("problems/bent-four-corner.sgf")
    sol = solve(pf.problem, to_play=BLACK)
    assert sol.to_play is Color.BLACK and sol.winner is Color.BLACK
    assert sol.attacker is Color.BLACK and sol.defender is Color.WHITE
    assert sol.best == Point.from_sgf("ab", 7) and isinstance(sol.best, Point)
    assert [m.gtp for m in sol.best_moves] == ["A6"]
    assert all(isinstance(m, Point) for m in sol.moves)
    assert sol.by_threats == {-2: WHITE, -1: WHITE, 0: BLACK, 1: BLACK, 2: BLACK}
    assert all(isinstance(w, Color) for w in sol.by_threats.values())
    assert {p.sgf for p in sol.target} == {"ca", "bb", "cb", "bc", "ad", "bd"}
    text = repr(sol)
    assert "to_play=Black" in text and "Point('A6', 'ab')" in text
    assert "-2: White" in text and "+0: Black" in text
    assert "Problem(" not in text  # no bitboards
    assert str(sol) == sol.describe() == (
        "Black to play: kills with a ko with A6 (ab), unless White has 1 more ko threat")


def test_solution_pass_is_a_point():
    # two eyes: White's only correct move is to pass
    from tsumego import parse_problem
    pf = parse_problem(b"(;GM[1]FF[4]SZ[6]PL[W]AW[ba][da][ab][bb][cb][db]"
                       b"AB[ea][eb][ac][bc][cc][dc][ec]MA[ba])")
    sol = solve(pf.problem)
    assert sol.best is not None and sol.best.is_pass and sol.best == PASS
    assert sol.moves == (Point(PASS, 6),)


def test_to_json_is_complete():
    pf = read_problem("problems/straight-three.sgf")
    sol = solve(pf.problem)
    obj = sol.to_json("f.sgf")
    assert obj["size"] == 7 and obj["file"] == "f.sgf"
    assert obj["description"] == sol.describe()
    assert obj["inferred"] is None
    assert obj["best"] == sol.best.sgf and obj["moves"] == [m.sgf for m in sol.moves]
    json.dumps(obj)  # plain data only
    plain = read_problem("problems/plain/bent-three-kill-bl.sgf")
    obj = solve(plain.problem).to_json(inferred=plain.inferred)
    assert obj["inferred"]["goal"] == "kill"


def test_unknown_solution_prints():
    pf = read_problem("problems/rabbity-six.sgf")
    sol = solve(pf.problem, max_nodes=1)
    assert sol.status == "unknown" and sol.limit == "nodes"
    assert "limit='nodes'" in repr(sol) and "unknown" in str(sol)
