"""Solution trees written by ``tsumego solve -o``: every problem of problems/ in both
modes, read back with sgfmill and held to FF[4] and to the tree conventions; ko named in a
readable tree; exported files re-solve to the same answer; ``-o`` never overwrites by accident.

The exports go through the command line (click's CliRunner, in process) into a temporary
directory; each (problem, mode) is exported once per module.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sgfmill import sgf

import tsumego.proofs.export as export_module
from tsumego import BLACK, IllegalMove, read_problem, solve
from tsumego.cli.main import main
from tsumego.errors import BudgetExhausted
from tsumego.go.board import bits, color_from_name, opponent
from tsumego.go.coords import PASS, to_sgf
from tsumego.go.line import IllegalLine
from tsumego.go.problem import Problem, problem_from_diagram
from tsumego.io.sgf import read_move_tree, serialize
from tsumego.proofs.export import sgf_text, to_sgf_tree
from tsumego.proofs.tree import (
    INFINITE,
    TreeNode,
    _Builder,
    _Nodes,
    ahead_time,
    build_tree,
    estimate_full_tree,
    full_tree_size,
)
from tsumego.search.engine import Engine, SearchOptions
from tsumego.search.engines import new_engine

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
PROBLEM_FILES = sorted(p.name for p in PROBLEMS.glob("*.sgf"))  # top level only
MODES = ("readable", "full", "compact")
KO_PROBLEMS = [n for n in ("direct-ko.sgf", "approach-ko.sgf", "bent-four-corner.sgf")
               if n in PROBLEM_FILES]

SETUP = {"AB", "AW", "AE"}
MOVE = {"B", "W"}
MOVE_ANNOTATIONS = {"BM", "TE", "DO", "IT"}
ROOT_ONLY = {"FF", "GM", "CA", "SZ", "AP", "ST"}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def sgfmill_nodes(game: sgf.Sgf_game):
    """(node, parent) for every node, depth first."""
    stack = [(game.get_root(), None)]
    while stack:
        node, parent = stack.pop()
        yield node, parent
        stack.extend((c, node) for c in node)


def leaves_by_first_move(root: sgf.Tree_node):
    """(first move node, leaf) pairs: every leaf under each first move."""
    for first in root:
        stack = [first]
        while stack:
            n = stack.pop()
            if len(n) == 0:
                yield first, n
            stack.extend(n)


def setup_points(node: sgf.Tree_node) -> tuple[set, set, set]:
    b, w, e = node.get_setup_stones()
    return set(b), set(w), set(e)


def legal_first_moves(name: str) -> set[str]:
    """Every legal first move of the side in PL ("pass" included), by the board rules alone."""
    p = read_problem(PROBLEMS / name).problem
    board = p.board()
    out = {"pass"}
    for q in bits(board.empty & p.region):
        b = board.copy()
        try:
            b.play(q, p.to_play)
        except IllegalMove:
            continue
        out.add(to_sgf(q, p.size))
    return out


# --- FF[4] and the file's shape ---------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", PROBLEM_FILES)
def test_export_parses_with_sgfmill_and_obeys_ff4(export, name, mode):
    out = export(name, mode)
    data = out.read_bytes()
    game = sgf.Sgf_game.from_bytes(data)  # parses
    data.decode("utf-8")  # CA[UTF-8] is true
    src = sgf.Sgf_game.from_bytes((PROBLEMS / name).read_bytes())
    root, src_root = game.get_root(), src.get_root()

    # the root: FF[4] GM[1] CA[UTF-8] SZ AP[tsumego:...] PL, the markup unchanged, and the
    # setup the board solved (the SQ stubs filled, the target marked), read back as the same
    # problem
    assert root.get("FF") == 4
    assert root.get("GM") == 1
    assert root.get_raw("CA") == b"UTF-8"
    assert game.get_size() == src.get_size()
    assert root.get_raw("AP").decode().startswith("tsumego:")
    assert root.get_raw("PL") == src_root.get_raw("PL")
    assert set(root.get("MA")) >= set(src_root.get("MA"))
    solved, written = read_problem(PROBLEMS / name).problem, read_problem(out).problem
    assert (written.black, written.white, written.target, written.region) == (
        solved.black, solved.white, solved.target, solved.region)
    black, white, empty = setup_points(root)
    assert not empty and len(black) == bin(solved.black).count("1")
    assert len(white) == bin(solved.white).count("1")
    if src_root.has_property("SQ"):
        assert set(root.get("SQ")) == set(src_root.get("SQ"))
    assert root.get_move() == (None, None)
    assert root.get("C")  # the result in words
    assert len(root) > 0, "no first moves"

    pl = root.get("PL")  # "b" or "w"
    n_nodes = 0
    for node, parent in sgfmill_nodes(game):
        n_nodes += 1
        props = set(node.properties())
        where = f"{out.name}: node {props}"
        # setup and move properties never in one node
        assert not (props & SETUP and props & MOVE), where
        # at most one move-annotation property per node
        assert len(props & MOVE_ANNOTATIONS) <= 1, where
        if parent is None:
            continue
        assert not props & ROOT_ONLY, where
        assert not props & SETUP, where
        color, move = node.get_move()
        assert color is not None, f"{where}: a node without a move"
        # moves strictly alternate; the first move is the side in PL
        expected = pl if parent is root else ("w" if parent.get_move()[0] == "b" else "b")
        assert color == expected, f"{where}: moves do not alternate"
        if move is None:  # a pass is B[]/W[], and its comment says so
            assert node.get_raw(color.upper()) == b""
            assert "pass" in node.get("C").lower(), where
    assert n_nodes >= 2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", PROBLEM_FILES)
def test_export_marks_and_ends_lines(export, name, mode):
    """TE on correct first moves (every one, first), BM on wrong ones; correct lines end with
    RIGHT, wrong ones with "Wrong"; readable lines end on the winner's move."""
    game = sgf.Sgf_game.from_bytes(export(name, mode).read_bytes())
    root = game.get_root()
    pl = color_from_name(root.get("PL").upper())
    tsr = root.get("TSR").split(":")
    to_play, winner, balance = color_from_name(tsr[0]), color_from_name(tsr[1]), int(tsr[2])
    assert to_play == pl and tsr[4] == mode
    marks = ["TE" if c.has_property("TE") else "BM" if c.has_property("BM") else "-"
             for c in root]
    assert "-" not in marks, "every first move is marked TE or BM"
    assert marks == sorted(marks, key=lambda m: m != "TE"), "correct first moves come first"

    def move_of(node):
        color, _ = node.get_move()
        return node.get_raw(color.upper()).decode() or "pass"

    good = {move_of(c) for c in root if c.has_property("TE")}
    answer = _answer(PROBLEMS / name, "--threats", str(balance))
    assert good == set(answer["moves"]), "the correct first moves are every winning first move"
    assert (winner == pl) == bool(good)
    if mode != "readable":
        assert {move_of(c) for c in root} == legal_first_moves(name)

    names = {n.get("N") for n, _ in sgfmill_nodes(game) if n.has_property("N")}
    for first, leaf in leaves_by_first_move(root):
        text = leaf.get("C") if leaf.has_property("C") else ""
        if leaf.has_property("TSREF"):  # compact trees: the line goes on at a named node
            assert mode == "compact" and leaf.get("TSREF") in names, name
            assert f"Transposition: the same position as at {leaf.get('TSREF')}" in text
            continue
        if first.has_property("TE"):
            assert "RIGHT" in text, f"{name}: a correct line ends without RIGHT: {text!r}"
            line_winner = pl
        else:
            assert "Wrong" in text, f"{name}: a wrong line ends without 'Wrong': {text!r}"
            line_winner = opponent(pl)
        if mode == "readable":
            color = color_from_name(leaf.get_move()[0].upper())
            assert color == line_winner, f"{name}: a readable line ends on the loser's move"


@pytest.mark.parametrize("name", KO_PROBLEMS)
def test_readable_tree_of_a_ko_problem_names_the_ko(export, name):
    game = sgf.Sgf_game.from_bytes(export(name, "readable").read_bytes())
    root = game.get_root()
    assert re.search(r"\bko\b", root.get("C"), re.I), root.get("C")
    comments = [n.get("C") for n, parent in sgfmill_nodes(game)
                if parent is not None and n.has_property("C")]
    assert any(re.search(r"\bko\b", c, re.I) for c in comments), comments


def test_full_export_is_larger_than_readable(export):
    sizes = {}
    for name in PROBLEM_FILES:
        for mode in MODES:
            game = sgf.Sgf_game.from_bytes(export(name, mode).read_bytes())
            sizes[name, mode] = sum(1 for _ in sgfmill_nodes(game))
    assert all(sizes[n, "readable"] <= sizes[n, "full"] for n in PROBLEM_FILES), sizes


# --- reading back -------------------------------------------------------------------------------

_answers: dict[tuple[str, ...], dict] = {}


def _answer(path: Path, *extra: str) -> dict:
    """The ``--json`` answer without timing, node count and file name (cached for the files
    of problems/, which do not change)."""
    key = (str(path), *extra)
    if key in _answers:
        return _answers[key]
    r = invoke("solve", str(path), "--json", *extra)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for k in ("seconds", "nodes", "file"):
        d.pop(k)
    if path.parent == PROBLEMS:
        _answers[key] = d
    return d


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", PROBLEM_FILES)
def test_exported_file_resolves_to_the_same_answer(export, name, mode):
    out = export(name, mode)
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert len(game.get_root()) > 0  # it holds variations
    assert _answer(out) == _answer(PROBLEMS / name)
    other = "W" if game.get_root().get("PL") == "b" else "B"
    assert _answer(out, "--to-play", other) == _answer(PROBLEMS / name, "--to-play", other)


# --- -o never overwrites by accident ------------------------------------------------------------

def _one_line_error(r) -> str:
    err = r.stderr.strip()
    assert err.startswith("tsumego: error:"), err
    assert "\n" not in err, err
    return err


@pytest.mark.parametrize("verb", ["solve", "export"])
def test_output_refuses_to_overwrite_an_existing_file(tmp_path, verb):
    out = tmp_path / "out.sgf"
    out.write_text("keep me")
    r = invoke(verb, str(PROBLEMS / "straight-three.sgf"), "-o", str(out))
    assert r.exit_code == 2
    assert "exists" in _one_line_error(r)
    assert out.read_text() == "keep me"
    r = invoke(verb, str(PROBLEMS / "straight-three.sgf"), "-o", str(out), "--force")
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(b"(;FF[4]")


@pytest.mark.parametrize("verb", ["solve", "export"])
def test_output_never_overwrites_the_problem_file(tmp_path, monkeypatch, verb):
    src = tmp_path / "p.sgf"
    original = (PROBLEMS / "bent-three.sgf").read_bytes()
    src.write_bytes(original)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    for spelling in (str(src), "p.sgf", "./p.sgf", "sub/../p.sgf"):
        r = invoke(verb, str(src), "-o", spelling)
        assert r.exit_code == 2, (spelling, r.output)
        _one_line_error(r)
        assert src.read_bytes() == original
    before = _answer(src)
    # with --force the problem file may be replaced by its solution tree, which re-solves
    r = invoke(verb, str(src), "-o", str(src), "--force")
    assert r.exit_code == 0, r.output
    assert src.read_bytes() != original
    assert _answer(src) == before


def test_output_into_a_missing_directory_is_a_one_line_error(tmp_path):
    r = invoke("solve", str(PROBLEMS / "bent-three.sgf"), "-o", str(tmp_path / "no" / "x.sgf"))
    assert r.exit_code == 2
    _one_line_error(r)


@pytest.mark.parametrize("verb", ["solve", "export"])
def test_a_tree_over_its_node_limit_is_not_written(tmp_path, verb):
    out = tmp_path / "x.sgf"
    r = invoke(verb, str(PROBLEMS / "rabbity-six.sgf"), "-o", str(out), "--tree", "full",
               "--tree-max-nodes", "50")
    assert r.exit_code == 3, r.output
    assert "no full tree written" in r.stderr and "more than 50 nodes" in r.stderr
    assert "--tree readable" in r.stderr
    assert not out.exists()
    r = invoke(verb, str(PROBLEMS / "rabbity-six.sgf"), "-o", str(out), "--tree", "readable",
               "--tree-max-nodes", "2")
    assert r.exit_code == 3, r.output
    assert "no readable tree written" in r.stderr and "--tree readable" not in r.stderr
    r = invoke(verb, str(PROBLEMS / "rabbity-six.sgf"), "-o", str(out), "--tree", "full")
    assert r.exit_code == 0, r.output
    assert out.exists()


def test_tree_limits_raise():
    problem = read_problem(PROBLEMS / "rabbity-six.sgf").problem
    with pytest.raises(BudgetExhausted):
        build_tree(problem, mode="full", max_nodes=50)
    with pytest.raises(BudgetExhausted):
        build_tree(problem, mode="full", time_limit=1e-9)


@pytest.mark.parametrize("name", ["rabbity-six.sgf", "bulky-five.sgf", "semeai.sgf",
                                  "bent-four-corner.sgf"])
def test_lookahead_never_lengthens_the_main_line(name):
    """In a readable tree the winner's moves chosen by looking ahead give a main line no
    longer than the smallest-proof choice, for the same winner."""
    problem = read_problem(PROBLEMS / name).problem
    plain = build_tree(problem, mode="readable", lookahead=0)
    ahead = build_tree(problem, mode="readable")
    assert ahead.winner == plain.winner
    assert ahead.root.plies <= plain.root.plies


def test_readable_lines_branch_only_near_their_start():
    """A readable tree shows the loser's alternatives within the first six plies of a line and
    one reply below them (rabbity-six with Black first: lines of nine plies)."""
    problem = read_problem(PROBLEMS / "rabbity-six.sgf").problem
    black = color_from_name("B")
    tree = build_tree(problem, to_play=black, mode="readable")
    assert tree.winner == black and tree.root.plies == 9
    widths: dict[bool, list[int]] = {False: [], True: []}  # ply >= 6: the loser's choices
    stack = [(first, 1, black if first.good else opponent(black))
             for first in tree.root.children]
    while stack:
        node, ply, winner = stack.pop()  # node's children are the moves of ply ``ply``
        if node.children and node.children[0].color != winner:
            widths[ply >= 6].append(len(node.children))
        stack.extend((c, ply + 1, winner) for c in node.children)
    assert max(widths[False]) > 1, "alternatives near the start"
    assert widths[True] and max(widths[True]) == 1, "one reply deeper"


@pytest.mark.parametrize("caps", [None, (400, 150), (0, 0)])
@pytest.mark.parametrize("name", ["bent-four-corner.sgf", "rabbity-six.sgf"])
@pytest.mark.parametrize("mode", MODES)
def test_the_streamed_text_is_the_serialized_tree(mode, name, caps, monkeypatch):
    """``sgf_text`` (what the command line writes, piece by piece, with the text below a
    copied subtree written once and repeated) is the text of ``to_sgf_tree`` (the tree as
    SgfNode objects) serialized, whatever text it keeps (``caps``: the characters kept in
    all and for one subtree; small ones make it drop the oldest and write others anew)."""
    if caps is not None:
        monkeypatch.setattr(export_module, "_BELOW_CHARS", caps[0])
        monkeypatch.setattr(export_module, "_PIECE_CHARS", caps[1])
    problem = read_problem(PROBLEMS / name).problem
    sol = solve(problem)
    tree = build_tree(problem, mode=mode)
    text = "".join(sgf_text(tree, None, [sol], "test")).encode("utf-8")
    assert text == serialize(to_sgf_tree(tree, None, [sol], "test"))
    assert len(read_move_tree(text)[0]) == tree.stored_nodes
    if mode != "compact":
        assert tree.stored_nodes == tree.nodes
    if mode == "full":  # the builder copied subtrees: the repeated text is used
        keys = []
        stack = [tree.root]
        while stack:
            t = stack.pop()
            keys.append(t.repeat_key)
            stack.extend(t.children)
        assert sum(k is not None for k in keys) > len(set(keys) - {None})


# full trees that the lookahead makes smaller: (problem, side to play) -> nodes without, with it
# (semeai B was 89 without it until the builder read known proofs without a search, whose
# proof sizes no longer grow by the questions asked again: 71 either way since)
SMALLER_FULL = {("snapback.sgf", "W"): (30, 26)}


@pytest.mark.parametrize("name", PROBLEM_FILES)
@pytest.mark.parametrize("side", ["B", "W"])
def test_full_tree_lookahead_keeps_the_smaller_subtree(name, side):
    """In a full tree the winner's move with the smallest counted subtree replaces the
    smallest proof: never a larger tree on problems/, a smaller one where the sizes differ,
    and the same winner. (The default's trees, lookahead on, are the ones the command line
    exports, and test_check.py has ``check`` prove every one of them.)"""
    problem = read_problem(PROBLEMS / name).problem
    color = color_from_name(side)
    plain = build_tree(problem, to_play=color, mode="full", lookahead=0)
    ahead = build_tree(problem, to_play=color, mode="full")
    assert ahead.winner == plain.winner
    assert ahead.nodes <= plain.nodes
    if (name, side) in SMALLER_FULL:
        assert (plain.nodes, ahead.nodes) == SMALLER_FULL[(name, side)]


@pytest.mark.parametrize("name", PROBLEM_FILES)
@pytest.mark.parametrize("side", ["B", "W"])
def test_the_default_full_tree_is_the_smaller_of_without_and_with_the_lookahead(name, side):
    """The default full tree (the command line's) is the build without the lookahead or,
    where it is smaller, the one with it: never larger than either, with the same winner
    and first moves."""
    problem = read_problem(PROBLEMS / name).problem
    color = color_from_name(side)
    plain = build_tree(problem, to_play=color, mode="full", lookahead=0)
    ahead = build_tree(problem, to_play=color, mode="full", lookahead=200_000)
    tree = build_tree(problem, to_play=color, mode="full")
    assert tree.nodes == min(plain.nodes, ahead.nodes)
    assert tree.winner == plain.winner
    assert [(k.move, k.good) for k in tree.root.children] == \
        [(k.move, k.good) for k in plain.root.children]
    assert full_tree_size(problem, to_play=color) == tree.nodes


def test_the_lookahead_build_stops_at_the_size_of_the_one_without(monkeypatch) -> None:
    """The build with the lookahead comes second and is stopped once it reaches the size of
    the build without it, within :func:`ahead_time`; where it is stopped, the first tree is
    the answer."""
    import tsumego.proofs.tree as tree_module

    calls: list[tuple[int, float | None, int | None]] = []
    real = tree_module._build

    def spy(problem, nodes, to_play, balance, mode, max_nodes, time_limit, lookahead,
            engine, live=False):
        calls.append((max_nodes, time_limit, lookahead))
        return real(problem, nodes, to_play, balance, mode, max_nodes, time_limit,
                    lookahead, engine, live)

    monkeypatch.setattr(tree_module, "_build", spy)
    problem = read_problem(PROBLEMS / "rabbity-six.sgf").problem
    tree = build_tree(problem, mode="full", time_limit=500)
    assert [c[2] for c in calls] == [0, 200_000]
    assert calls[0][0] == 10_000_000 and calls[0][1] == 500
    # equal sizes (1,372 nodes either way): the first tree is kept; (a budget counts the nodes
    # below the root) the second had to be smaller
    assert tree.nodes == 1372 and calls[1][0] == tree.nodes - 2
    assert calls[1][1] is not None and calls[1][1] <= min(500.0, tree_module.AHEAD_MIN_S)


def test_a_full_tree_over_its_nodes_without_the_lookahead_may_fit_with_it() -> None:
    """Snapback's full tree with White to play has 30 nodes without the lookahead and 26
    with it, so a budget of 28 nodes below the root gets the second, and 24 neither."""
    problem = read_problem(PROBLEMS / "snapback.sgf").problem
    color = color_from_name("W")
    assert build_tree(problem, to_play=color, mode="full", max_nodes=28).nodes == 26
    assert full_tree_size(problem, to_play=color, max_nodes=28) == 26
    with pytest.raises(BudgetExhausted):
        build_tree(problem, to_play=color, mode="full", max_nodes=24)


def test_the_lookahead_build_gets_thirty_times_the_first_one_s_time() -> None:
    """:func:`ahead_time`: thirty times the first build's time, at least 180 s, never more
    than the tree's time left."""
    assert ahead_time(0.5, None) == 180.0
    assert ahead_time(10.0, None) == 300.0
    assert ahead_time(10.0, 120.0) == 120.0
    assert ahead_time(1.0, 1000.0) == 180.0


def test_a_size_count_stops_at_its_bound():
    """The full tree's size count (a branch-and-bound over the winner's candidates) returns
    the exact size under its bound and, at or over it, a size of at least the bound, kept
    only as a lower bound for the position."""
    problem = read_problem(PROBLEMS / "semeai.sgf").problem
    color = problem.to_play

    def builder() -> _Builder:
        b = _Builder(problem, Engine(problem, options=SearchOptions()), "full", 10**6,
                     None, 10**6)
        b.budget, b.search_stop = 10**6, 10**9
        b.seen = 1 << (b.board.black | b.board.white).bit_count()
        return b

    def count(b: _Builder, bound: int) -> tuple[int, int]:
        return b.estimate(color, 0, False, {b.board.hash: 0}, 0, color, bound)

    exact = count(builder(), INFINITE)
    assert 1 < exact[0] < INFINITE
    assert count(builder(), exact[0] + 1) == exact
    b = builder()
    cut = count(b, exact[0] // 2)
    assert exact[0] // 2 <= cut[0] <= exact[0]
    assert not b.sizes.get(b.size_key(color, 0, False, color))
    assert b.lower[b.size_key(color, 0, False, color)] == cut[0]


def test_where_nothing_was_measured_the_winner_plays_on_a_target_liberty() -> None:
    """Where the lookahead measured nothing, a full tree's winner plays the first of its
    winning moves (smallest proof first) that is on a liberty of a target block, and the
    first one only when none is: here the centre of the eye space (*) is no liberty of the
    ring, the point beside it (a) is, and a pass is none."""
    problem = problem_from_diagram("""
        . . . . . . .
        X X X X X X .
        O O O O O X .
        O . a . O X .
        @ . * . O X .
        O . . . O X .
        O O O O O X .
        """.replace("a", ".").replace("*", "."))
    b = _Builder(problem, Engine(problem), "full", 10**6)
    kids = {c.move: c for c in b.children(BLACK, 0, False, {b.board.hash: 0})}
    centre, beside = kids[b.board.geo.point(2, 4)], kids[b.board.geo.point(2, 3)]
    assert b.unmeasured_pick([centre, beside]) is beside
    assert b.unmeasured_pick([beside, centre]) is beside
    assert b.unmeasured_pick([centre, kids[PASS]]) is centre
    assert b.unmeasured_pick([kids[PASS], centre]) is kids[PASS]


TSUMEGOJS = Path(__file__).resolve().parents[3] / "shared" / "data" / "tsumegojs"


@pytest.mark.skipif(not (TSUMEGOJS / "gop" / "18354.sgf").is_file(),
                    reason="the shared tsumego.js collection is absent")
def test_readable_tree_of_a_position_whose_numbers_grew_round_cycles() -> None:
    """gop/18354 with Black first: the readable tree's engine calls met proof numbers doubled
    round cycles up to INF, read as a proof with both numbers non-zero, and the root returned
    at once for ever (bounds.py now caps finite sums at BIG). Black kills."""
    problem = read_problem(TSUMEGOJS / "gop" / "18354.sgf").problem
    tree = build_tree(problem, to_play=color_from_name("B"), mode="readable", time_limit=300)
    assert tree.winner == color_from_name("B")
    assert tree.root.children and tree.root.children[0].good


def test_the_tree_engine_takes_the_first_of_tied_children(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The solver searches the tied child with the largest phi first (fewer nodes); the
    tree's own engine keeps the first, whose proofs made smaller full trees (gop/15589 W
    15,956 nodes against 21,940). The answer and the tree's proof are the same either way."""
    import tsumego.proofs.tree as tree_module

    seen: list[SearchOptions] = []
    make = tree_module.new_engine

    def spy(problem: Problem, **kw: Any) -> Any:
        seen.append(kw["options"])
        return make(problem, **kw)

    monkeypatch.setattr(tree_module, "new_engine", spy)
    problem = read_problem(Path(__file__).resolve().parents[2] / "problems" /
                           "rabbity-six.sgf").problem
    tree = build_tree(problem, mode="full")
    assert seen and not seen[-1].tie_phi and SearchOptions().tie_phi
    # and keeps created sets up to 64 (larger caps made larger full trees: gop/11089 W
    # 102,936 nodes against 83,954)
    assert seen[-1].created_max == 64 < SearchOptions().created_max
    assert tree.root.size() > 1


@pytest.mark.parametrize("name", ["rabbity-six.sgf", "semeai.sgf", "direct-ko.sgf",
                                  "bent-four-corner.sgf"])
def test_a_known_winner_is_the_searched_winner(name: str) -> None:
    """The builder reads a proof the engine already holds instead of searching
    (Engine.known_after): along random lines of a problem, in an engine warmed by searches
    of the root and its children, every answer it reads is the one a fresh engine's search
    gives on that line, and it reads some (else the test would prove nothing)."""
    import random

    from tsumego.go.line import Line

    problem = read_problem(PROBLEMS / name).problem
    rng = random.Random(7)
    warm = Engine(problem, options=SearchOptions(tie_phi=False, created_max=64))
    read = 0
    for first in (problem.attacker, problem.defender):
        warm.solve(first, 0)
        for m in [*bits(problem.board().empty & problem.region), PASS]:
            warm.solve_after(first, m, 0)  # proofs below the root too
        for _ in range(20):
            line = Line(problem)
            color = first
            for _ in range(rng.randrange(1, 8)):
                moves = []
                for m in line.candidates():
                    try:
                        line.play(color, m)
                    except IllegalLine:
                        continue
                    ended = line.ended
                    line.undo()
                    if not ended:
                        moves.append(m)
                if not moves:
                    break
                m = rng.choice(moves)
                w, _ = warm.known_after(line, color, m)
                if w:
                    read += 1
                    fresh = Engine(problem, options=SearchOptions())
                    assert w == fresh.winner_after(line, color, m).winner, (name, line.moves)
                line.play(color, m)
                color = opponent(color)
    assert read > 0


def test_the_collector_is_paused_for_the_whole_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build pauses Python's cyclic collector once, around all its engine questions (each
    question's own pause used to turn it back on at its end, and a collection then walked
    the tree and the tables: 10% of gop/17623 B's full tree), and restores it after."""
    import gc

    enables: list[int] = []
    real_enable = gc.enable

    def enable() -> None:
        enables.append(1)
        real_enable()

    monkeypatch.setattr(gc, "enable", enable)
    was = gc.isenabled()
    gc.enable()
    try:
        problem = read_problem(PROBLEMS / "rabbity-six.sgf").problem
        enables.clear()
        tree = build_tree(problem, mode="full", lookahead=200_000)  # one build
        assert tree.nodes > 1
        assert enables == [1] and gc.isenabled()
    finally:
        real_enable() if was else gc.disable()


@pytest.mark.parametrize("name,side", [("bent-three.sgf", "B"), ("snapback.sgf", "W"),
                                       ("seki.sgf", "W"), ("semeai.sgf", "W"),
                                       ("pyramid-four.sgf", "W")])
def test_the_size_estimate_finds_the_full_tree_it_estimates(name: str, side: str) -> None:
    """Knuth's estimate from random lines is unbiased: over 3,000 probes (a fixed seed) it
    comes within 10% of the size of the full tree built with the same choices (no lookahead).
    It fails if a loser's turn is weighted by anything but its number of replies, or if the
    winner's move differs from the builder's."""
    problem = read_problem(PROBLEMS / name).problem
    color = color_from_name(side)
    size = build_tree(problem, to_play=color, mode="full", lookahead=0).nodes
    est = estimate_full_tree(problem, to_play=color, probes=3_000, seed=0)
    assert est.probes == 3_000
    assert abs(est.mean / size - 1) < 0.1, (size, est)
    assert est.median <= est.largest and 1 <= est.plies


def test_a_size_estimate_needs_a_probe() -> None:
    problem = read_problem(PROBLEMS / "snapback.sgf").problem
    with pytest.raises(ValueError):
        estimate_full_tree(problem, probes=0)


def test_the_estimate_tool_prints_a_line_per_problem(tmp_path: Path) -> None:
    """tools/tree_estimate.py: one line per problem with the estimate, and a one-line error
    for a file it cannot read; the estimate is the library's (seki W: 78 nodes in full)."""
    import subprocess
    import sys

    tool = PROBLEMS.parent / "tools" / "tree_estimate.py"
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;FF[4]SZ[6]AB[aa")
    r = subprocess.run([sys.executable, str(tool), str(PROBLEMS / "seki.sgf"), str(broken),
                        "--probes", "3000"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and lines[0].split()[:4] == ["problem", "pl", "bal", "probes"]
    fields = lines[1].split()
    assert fields[1:4] == ["W", "+0", "3000"]
    size = build_tree(read_problem(PROBLEMS / "seki.sgf").problem, mode="full",
                      lookahead=0).nodes
    assert abs(float(fields[4]) / size - 1) < 0.1
    assert lines[2].startswith(str(broken)) and "ERROR" in lines[2]


def test_tree_stats_estimates_a_full_tree_over_its_limit() -> None:
    """tools/tree_stats.py --estimate: a full tree over --max-tree-nodes is not built, and its
    row says so and gives the estimated size (rabbity-six B's full tree has 1,372 nodes
    without lookahead)."""
    import subprocess
    import sys

    tool = PROBLEMS.parent / "tools" / "tree_stats.py"
    r = subprocess.run([sys.executable, str(tool), str(PROBLEMS / "rabbity-six.sgf"),
                        "--max-tree-nodes", "500", "--estimate", "3000"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    row = r.stdout.splitlines()[1]
    assert "full tree: the tree has more than 500 nodes" in row
    m = re.search(r"estimated (\S+) nodes without lookahead \(3000 probes", row)
    assert m is not None, row
    assert 500 < float(m.group(1)) < 2_000


def test_tree_stats_stopped_with_sigterm_removes_its_temporary_trees(tmp_path: Path) -> None:
    """tools/tree_stats.py killed (SIGTERM, as ``kill`` and ``timeout`` send) in the middle of
    a run exits non-zero and leaves no temporary directory of trees behind."""
    import os
    import signal
    import subprocess
    import sys

    tool = PROBLEMS.parent / "tools" / "tree_stats.py"
    env = dict(os.environ, TMPDIR=str(tmp_path))
    with subprocess.Popen([sys.executable, str(tool), str(PROBLEMS)], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as p:
        assert p.stdout is not None
        assert p.stdout.readline().startswith("problem")  # the directory is made by now
        assert [d.name for d in tmp_path.iterdir() if d.name.startswith("tree-stats-")]
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=60) == 128 + signal.SIGTERM
    assert not [d for d in tmp_path.iterdir() if d.name.startswith("tree-stats-")]


def test_the_estimate_tool_goes_on_after_a_crash(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """One problem whose estimate fails unexpectedly gets an ERROR line; the next problem
    is still estimated."""
    import sys

    from conftest import TOOLS, load_tool

    monkeypatch.syspath_prepend(str(TOOLS))
    tool = load_tool("tree_estimate")
    real = tool.estimate_full_tree
    calls: list[int] = []

    def flaky(problem, **kw):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return real(problem, **kw)

    monkeypatch.setattr(tool, "estimate_full_tree", flaky)
    seki = str(PROBLEMS / "seki.sgf")
    assert tool.main([str(PROBLEMS / "snapback.sgf"), seki, "--probes", "50"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert "ERROR crash: RuntimeError: boom" in lines[1]
    assert lines[2].startswith(seki) and lines[2].split()[1:4] == ["W", "+0", "50"]
    sys.modules.pop("tree_stats", None)  # imported by the tool from tools/
    sys.modules.pop("tree_estimate", None)


def test_the_flat_store_reads_back_as_tree_nodes() -> None:
    """Nodes kept in preorder in flat arrays: each node's fields read back, subtree sizes come
    from the preorder ends, the root keeps its first moves in the order given, and below it the
    children come longest line first (the loser's longest resistance leads)."""
    black, white = color_from_name("B"), color_from_name("W")
    nodes = _Nodes()
    root = nodes.add(white, -2)
    key = nodes.add(black, 10, captures=0)
    nodes.set_good(key, True)
    short = nodes.add(white, 11)  # a reply answered by a capture at once
    cap = nodes.add(black, 12, captures=3)
    nodes.set_end(cap, "capture")
    nodes.close(short)
    nodes.plies[short] = 1
    long = nodes.add(white, PASS)  # a reply that holds out longer
    retake = nodes.add(black, 13, threat=True)
    end = nodes.add(white, PASS)
    nodes.set_end(end, "passes")
    nodes.close(retake)
    nodes.plies[retake] = 1
    nodes.close(long)
    nodes.plies[long] = 2
    nodes.close(key)
    nodes.plies[key] = 3
    wrong = nodes.add(black, 14)
    nodes.set_good(wrong, False)
    nodes.set_end(wrong, "alive")
    nodes.close(root)

    top = TreeNode(nodes, root)
    assert top.move is None and top.size() == 8
    first, bad = top.children
    assert (first.move, first.good, first.plies, first.size()) == (10, True, 3, 6)
    assert (bad.move, bad.good, bad.end, bad.children) == (14, False, "alive", [])
    assert [c.move for c in first.children] == [PASS, 11]  # longest line first
    resist, quick = first.children
    assert resist.color == white and quick.children[0].captures == 3
    assert quick.children[0].end == "capture" and quick.children[0].good is None
    (again,) = resist.children
    assert again.threat and not resist.threat and again.children[0].end == "passes"


def test_counting_a_full_tree_gives_the_size_of_the_built_one(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``full_tree_size`` makes the builder's choices and counts the subtrees it would copy:
    the size of every problem's full tree, both sides to play, is the built tree's; and
    tools/tree_count.py prints it."""
    from tsumego import BLACK, WHITE
    from tsumego.proofs.tree import full_tree_size

    copied = 0
    for path in sorted(PROBLEMS.glob("*.sgf")):
        problem = read_problem(path).problem
        for side in (BLACK, WHITE):
            tree = build_tree(problem, to_play=side, mode="full")
            assert full_tree_size(problem, to_play=side) == tree.nodes, (path.name, side)
            copied += len(tree.root._nodes.origin)
    assert copied > 100  # the counts stand in for copies

    import sys

    from conftest import TOOLS, load_tool

    monkeypatch.syspath_prepend(str(TOOLS))
    tool = load_tool("tree_count")
    assert tool.main([str(PROBLEMS / "rabbity-six.sgf")]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[1:4] == ["B", "+0", "1,372"]
    sys.modules.pop("tree_stats", None)  # imported by the tool from tools/
    sys.modules.pop("tree_count", None)


@pytest.mark.skipif(not (TSUMEGOJS / "gop" / "16163.sgf").is_file(),
                    reason="the shared tsumego.js collection is absent")
def test_compact_tree_shares_what_the_full_tree_repeats() -> None:
    """gop/16163 with Black first (balance +1, as the command line builds it), without the
    lookahead: the compact tree stands for the full tree node for node, and holds a small
    part of it (a subtree met again is shared wherever its plays recreate the same
    arrangements of both histories)."""
    problem = read_problem(TSUMEGOJS / "gop" / "16163.sgf").problem
    full = full_tree_size(problem, to_play=BLACK, balance=1, lookahead=0)
    tree = build_tree(problem, to_play=BLACK, balance=1, mode="compact", lookahead=0)
    assert tree.nodes == full
    assert tree.stored_nodes * 5 < full


def test_reach_matches_the_pairs_a_play_can_reach() -> None:
    """_reach (the walk's filter at each node) against a brute force over every number of
    captured stones, wrapping pair indices included."""
    import random

    from tsumego.go.board import WHITE
    from tsumego.proofs.tree import _PAIR, _PAIRS, _reach

    rng = random.Random(3)
    for _ in range(3000):
        black, white = rng.randrange(60), rng.randrange(60)
        pairs = 0
        for _ in range(rng.randrange(1, 6)):
            pairs |= 1 << ((rng.randrange(70) * _PAIR + rng.randrange(70)) & _PAIRS)
        for mover in (BLACK, WHITE):
            if mover == BLACK:
                reach = [(black + 1, w) for w in range(white + 1)]
            else:
                reach = [(b, white + 1) for b in range(black + 1)]
            brute = any(pairs >> ((b * _PAIR + w) & _PAIRS) & 1 for b, w in reach)
            assert bool(pairs & _reach(black, white, mover)) == brute, (black, white, mover)


def _plain_unshaped(b: _Builder, j: int, c, color: int, history: dict[int, int],
                    shaped: frozenset[int]) -> bool:
    """_Builder.unshaped without its filters: every play probed at every node of the
    subtree (below threats and pairs of passes aside, which start the history afresh) is
    looked up in the history, where only the arrangements ``shaped`` may be found."""
    board, nodes = b.board, b.nodes
    start = board.snapshot()
    if c.move != PASS:
        board.play_fast(c.move, color)
    stack = [(nodes.origin.get(j, j), opponent(color), board.snapshot())]
    seen: set[int] = set()
    try:
        while stack:
            k, mover, at = stack.pop()
            if k in seen:
                continue
            seen.add(k)
            board.undo(at)
            kids = nodes.children(k)
            if not kids:
                continue
            for p in bits(board.empty & b.problem.region):
                cap = board.play_fast(p, mover)
                hit = cap >= 0 and not cap & b.target and board.hash in history \
                    and board.hash not in shaped
                board.undo(at)
                if hit:
                    return False
            for kid in kids:
                if nodes.flags[kid] & 33:  # a threat, or the second pass of a pair
                    continue
                if nodes.move[kid] != PASS:
                    board.play_fast(nodes.move[kid], mover)
                stack.append((nodes.origin.get(kid, kid), opponent(mover), board.snapshot()))
                board.undo(at)
        return True
    finally:
        board.undo(start)


@pytest.mark.skipif(not (TSUMEGOJS / "gop" / "15589.sgf").is_file(),
                    reason="the shared tsumego.js collection is absent")
def test_the_walk_filters_change_no_verdict(monkeypatch) -> None:
    """unshaped() plays the probes only where the pair bits allow a clash and enters only
    subtrees whose pair bits do: on the compact trees of gop/15589 (either side first at
    balance 0, built by the tree's own engine and by one with the solver's options, whose
    proofs differ), where references below a walked subtree come by other moves than the
    nodes they refer to, and the full trees of problems/ (both sides), every verdict is the
    plain walk's, and both verdicts occur, for subtrees no history shaped and for those
    that one did."""
    verdicts: list[tuple[bool, bool]] = []
    filtered = _Builder.unshaped

    def both(self, j, c, color, history, outer, shaped=frozenset()):
        got = filtered(self, j, c, color, history, outer, shaped)
        assert got == _plain_unshaped(self, j, c, color, history, shaped)
        verdicts.append((bool(shaped), got))
        return got

    monkeypatch.setattr(_Builder, "unshaped", both)
    problem = read_problem(TSUMEGOJS / "gop" / "15589.sgf").problem
    for color in (opponent(BLACK), BLACK):
        build_tree(problem, to_play=color, balance=0, mode="compact")
        build_tree(problem, to_play=color, balance=0, mode="compact",
                   engine=new_engine(problem))
    for name in PROBLEM_FILES:
        p = read_problem(PROBLEMS / name).problem
        for color in (BLACK, opponent(BLACK)):
            build_tree(p, to_play=color, mode="full", lookahead=0)
    assert set(verdicts) == {(False, False), (False, True), (True, False), (True, True)}


def test_a_copy_has_the_subtree_of_its_source():
    """``TreeNode.source`` (where the writer takes the text below a copy from) has below it
    the moves, marks and ends of the copy, node for node; and it is the node itself where the
    node is no copy."""
    problem = read_problem(PROBLEMS / "rabbity-six.sgf").problem
    tree = build_tree(problem, mode="full")

    def below(t):
        out, stack = [], list(reversed(t.children))
        while stack:
            n = stack.pop()
            out.append((n.color, n.move, n.threat, n.captures, n.plies, n.end))
            stack.extend(reversed(n.children))
        return out

    copies = 0
    stack = [tree.root]
    while stack:
        t = stack.pop()
        src = t.source
        if src is not t:
            copies += 1
            assert t.repeat_key is not None and below(src) == below(t)
            assert src.source is src  # (a copy's source is the first of them)
        stack.extend(t.children)
    assert copies > 0


def test_tree_stats_names_a_file_with_its_folder_so_resume_tells_same_names_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Files given one by one are named with their folder (``cc3/7.sgf``, ``sim/7.sgf``), as a
    folder's files are, so that --resume skips only the one already run."""
    from conftest import TOOLS, load_tool

    monkeypatch.syspath_prepend(str(TOOLS))
    tool = load_tool("tree_stats")
    for folder, problem in (("cc3", "snapback.sgf"), ("sim", "straight-three.sgf")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "7.sgf").write_bytes((PROBLEMS / problem).read_bytes())
    first, second = str(tmp_path / "cc3" / "7.sgf"), str(tmp_path / "sim" / "7.sgf")
    assert tool.main([first]) == 0
    earlier = tmp_path / "earlier.txt"
    earlier.write_text(capsys.readouterr().out)

    def rows(out: str) -> list[list[str]]:
        return [f for f in map(str.split, out.splitlines()) if f and f[0].endswith("/7.sgf")]

    assert [r[0] for r in rows(earlier.read_text())] == ["cc3/7.sgf"]
    assert tool.main([first, second, "--resume", str(earlier)]) == 0
    again = rows(capsys.readouterr().out)
    assert [r[0] for r in again] == ["cc3/7.sgf", "sim/7.sgf"]
    assert all(r[7] == "proved" for r in again), again


def test_tree_stats_an_unreadable_earlier_run_is_a_one_line_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--resume with a file that cannot be read: one line naming it, exit 2, nothing run."""
    from conftest import TOOLS, load_tool

    monkeypatch.syspath_prepend(str(TOOLS))
    tool = load_tool("tree_stats")
    missing = tmp_path / "no-such-run.txt"
    assert tool.main([str(PROBLEMS / "snapback.sgf"), "--resume", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"tree_stats: {missing}: cannot read the earlier run: "
                                "No such file or directory"]
