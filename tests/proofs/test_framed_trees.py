"""Solution trees of framed problems are true to themselves: the tree of a plain problem
carries its frame in its setup (the virtual stones as ``AB``/``AW``, dimmed with ``DD``), its
target (``MA``) and its region (``TSREGION``), its root comment says how it was framed, every
line is legal on the board the file shows, replayed with sgfmill alone, and ``tsumego check``
checks that board, inferring nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import replay_with_sgfmill
from sgfmill import sgf, sgf_grammar

from tsumego import read_problem
from tsumego.cli.main import main
from tsumego.go.board import bits
from tsumego.go.coords import to_sgf

PLAIN = Path(__file__).resolve().parents[2] / "problems" / "plain"
TREE_FILES = sorted(p.name for p in PLAIN.glob("*.sgf"))


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """``written(name, mode)``: the tree of ``problems/plain/name`` written with ``--tree
    mode`` (once per module)."""
    out_dir = tmp_path_factory.mktemp("framed-trees")

    def _write(name: str, mode: str) -> Path:
        out = out_dir / f"{Path(name).stem}-{mode}.sgf"
        if not out.exists():
            r = invoke("solve", str(PLAIN / name), "--to-play",
                       "B" if read_problem(PLAIN / name).problem.to_play == 1 else "W",
                       "-o", str(out), "--tree", mode, "--time-limit", "120")
            assert r.exit_code == 0, r.output
        return out

    return _write


@pytest.mark.parametrize("mode", ["readable", "full"])
@pytest.mark.parametrize("name", TREE_FILES)
def test_every_line_is_legal_on_the_board_the_file_shows(written, name, mode):
    games, played, bad = replay_with_sgfmill(written(name, mode).read_bytes())
    assert games >= 1 and played > 0
    assert bad == []


@pytest.mark.parametrize("name", TREE_FILES)
def test_the_setup_holds_the_frame_dimmed_the_target_and_the_region(written, name):
    pf = read_problem(PLAIN / name)
    inf = pf.inferred
    assert inf is not None
    size = pf.problem.size
    root = sgf.Sgf_game.from_bytes(written(name, "readable").read_bytes()).get_root()
    black, white, empty = root.get_setup_stones()
    assert not empty
    on_board = {(size - 1 - r) * size + c for r, c in black | white}
    assert on_board == set(bits(pf.problem.black | pf.problem.white))
    assert set(root.get_raw_list("DD")) == {to_sgf(p, size).encode() for p in bits(inf.frame)}
    assert inf.frame and inf.frame & ~(pf.problem.black | pf.problem.white) == 0
    assert {p.decode() for p in root.get_raw_list("TSREGION")} == {
        to_sgf(p, size) for p in bits(pf.problem.region)}
    assert {(size - 1 - r) * size + c for r, c in root.get("MA")} == set(bits(pf.problem.target))
    comment = root.get("C")
    assert "Framed problem" in comment and "virtual" in comment
    # read again, the tree is the problem solved, with its frame stones known as such
    again = read_problem(written(name, "readable"))
    assert again.inferred is None
    assert (again.problem.black, again.problem.white, again.problem.target,
            again.problem.region) == (pf.problem.black, pf.problem.white, pf.problem.target,
                                      pf.problem.region)
    assert again.frame == inf.frame


@pytest.mark.parametrize("name", TREE_FILES)
def test_every_game_of_a_full_tree_shows_the_same_framed_board(written, name):
    """The further proofs a status needs, written as further games of the file, carry the
    same setup, frame, target and region as the first."""
    data = written(name, "full").read_bytes()
    roots = [sgf.Sgf_game.from_coarse_game_tree(g).get_root()
             for g in sgf_grammar.parse_sgf_collection(data)]
    if name == "false-eye-kill-bl.sgf":  # kill at -2 needs its own proof
        assert len(roots) == 2

    def shown(root: sgf.Tree_node) -> dict[str, list[bytes]]:
        return {p: root.get_raw_list(p) for p in ("AB", "AW", "MA", "DD", "TSREGION")
                if root.has_property(p)}

    assert all(shown(r) == shown(roots[0]) for r in roots[1:])
    assert all("Framed problem" in r.get("C") for r in roots)


@pytest.mark.parametrize("name", TREE_FILES)
def test_check_proves_the_full_tree_on_the_board_it_shows(written, name):
    out = written(name, "full")
    r = invoke("check", str(out))
    assert r.exit_code == 0, r.output
    assert ": proved:" in r.output


def test_check_refuses_a_tree_whose_root_marks_no_target(written, tmp_path):
    """A tree of a plain problem without its frame (as earlier versions wrote them) is not
    checked against a frame made up again."""
    name = TREE_FILES[0]
    text = written(name, "full").read_text()
    root_end = text.index("\n")
    root = text[:root_end]
    for prop in ("MA", "DD", "TSREGION"):
        start = root.index(prop + "[")
        end = start + len(prop)
        while end < len(root) and root[end] == "[":
            end = root.index("]", end) + 1
        root = root[:start] + root[end:]
    bare = tmp_path / "bare.sgf"
    bare.write_text(root + text[root_end:])
    r = invoke("check", str(bare))
    assert r.exit_code == 2
    assert r.output.count("\n") == 1
    assert f"{bare}: the root marks no target (MA)" in r.output
