"""tools/convert_sanderland.py: "Ten Thousand Tsumego" JSON to SGF (positions of our own)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_tool

from tsumego import WHITE, parse_problem, solve
from tsumego.go.coords import from_sgf
from tsumego.io.sgf import read_tree

conv = load_tool("convert_sanderland")

# a straight three in the top-left corner (our own position)
PROBLEM = {"AB": ["ea", "eb", "ac", "bc", "cc", "dc", "ec"],
           "AW": ["da", "ab", "bb", "cb", "db"], "SZ": "19",
           "C": "Black to play: Elementary", "SOL": [["B", "ba", "Correct.", ""]]}


def test_convert_one_problem() -> None:
    data = conv.convert(PROBLEM, "Prob0001")
    root = read_tree(data)
    assert root.props["SZ"] == ["19"] and root.props["PL"] == ["B"]
    assert root.props["C"] == ["Black to play: Elementary"]
    assert root.props["GN"] == ["Prob0001"]
    assert sorted(root.props["AB"]) == sorted(PROBLEM["AB"])
    assert sorted(root.props["AW"]) == sorted(PROBLEM["AW"])
    assert "MA" not in root.props
    (var,) = root.children
    assert var.move() == ("B", "ba")
    assert (var.get("C") or "").startswith("RIGHT")
    assert "Correct." in (var.get("C") or "")


def test_converted_problem_solves_as_a_plain_problem() -> None:
    pf = parse_problem(conv.convert(PROBLEM), "p.sgf")
    assert pf.inferred is not None and pf.problem.defender == WHITE
    assert pf.stated_moves == (from_sgf("ba", 19),)
    sol = solve(pf.problem)
    assert sol.best_moves == pf.stated_moves


def test_several_answers_become_several_variations() -> None:
    obj = dict(PROBLEM, SOL=[["W", "ba", "", ""], ["W", "aa", "", "Backup solution detector "
                                                     "used, solution may be incorrect."],
                             ["W", "ba", "", ""]])
    root = read_tree(conv.convert(obj))
    assert root.props["PL"] == ["W"]
    assert [c.move() for c in root.children] == [("W", "ba"), ("W", "aa")]
    assert "Backup solution" in (root.children[1].get("C") or "")


def test_no_answer_on_file() -> None:
    obj = dict(PROBLEM, C="Black to play",
               SOL=[["B", "", "No correct solution on file, possibly there is none.", ""]])
    root = read_tree(conv.convert(obj))
    assert not root.children
    assert "No correct solution on file" in root.props["C"][0]
    assert root.props["PL"] == ["B"]


def test_integer_size_and_small_boards() -> None:
    obj = dict(PROBLEM, SZ=9)
    assert read_tree(conv.convert(obj)).props["SZ"] == ["9"]


def test_escaping_in_comments() -> None:
    obj = dict(PROBLEM, C="Black to play [hard] \\ really")
    root = read_tree(conv.convert(obj))
    assert root.props["C"] == ["Black to play [hard] \\ really"]


@pytest.mark.parametrize("bad,match", [
    ({"AB": ["zz"]}, "off a 19x19"),
    ({"AB": ["a"]}, "not an SGF point"),
    ({"AW": ["ea"]}, "set twice"),
    ({"SZ": "big"}, "bad SZ"),
    ({"SZ": "25"}, "not supported"),
    ({"SOL": [["B", "ea", "", ""]]}, "occupied"),
    ({"SOL": [["B", "ba", "", ""], ["W", "aa", "", ""]]}, "both colours"),
    ({"SOL": [["X", "ba"]]}, "bad colour"),
    ({"SOL": "ba"}, "not a list"),
])
def test_errors(bad: dict[str, object], match: str) -> None:
    with pytest.raises(conv.ConvertError, match=match):
        conv.convert(dict(PROBLEM, **bad))


def test_main_converts_a_tree_of_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    src = tmp_path / "src" / "Some Book"
    src.mkdir(parents=True)
    (src / "Prob0001.json").write_text(json.dumps(PROBLEM))
    (src / "Prob0002.json").write_text(json.dumps(dict(PROBLEM, AB=["zz"])))
    (src / "notes.txt").write_text("not a problem")
    out = tmp_path / "out"
    rc = conv.main([str(tmp_path / "src"), "-o", str(out), "-q"])
    assert rc == 1  # one file failed, the other was written
    assert (out / "Some Book" / "Prob0001.sgf").is_file()
    assert not (out / "Some Book" / "Prob0002.sgf").exists()
    err = capsys.readouterr().err
    assert "Prob0002.json" in err and "converted 1 problem(s), 1 failure(s)" in err
    rc = conv.main([str(src / "Prob0001.json"), "-o", str(out / "single")])
    assert rc == 0 and (out / "single" / "Prob0001.sgf").is_file()
    assert conv.main([str(tmp_path / "missing"), "-o", str(out)]) == 1
