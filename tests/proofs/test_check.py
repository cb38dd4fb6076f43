"""``tsumego check``: every ``full`` tree written for problems/ is a proof, and the
checker rejects a tree with one flaw -- a loser's reply deleted, a winner's move swapped for a
losing one, a line cut before its end -- naming the node path and the reason. Files without a
claim, and readable trees, are bad input.

Each mutation is made on the exported tree (read with tsumego.io.sgf.read_tree, written back
with tsumego.io.sgf.serialize). The intact tree is proved, so the checker must stop exactly at
the flaw (or below a swapped move): the tests assert the reported path.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from tsumego import BLACK, WHITE, Board, IllegalMove, read_problem, solve
from tsumego.cli.main import main
from tsumego.go.board import bits
from tsumego.go.coords import from_sgf, to_sgf
from tsumego.go.problem import Problem
from tsumego.io.sgf import (
    MARK_BM,
    MARK_TE,
    MOVE_B,
    MOVE_W,
    MoveTree,
    SgfError,
    SgfNode,
    parse_problem,
    read_move_tree,
    read_move_tree_file,
    read_tree,
    serialize,
)
from tsumego.proofs.stones import IllegalPlay, Stones
from tsumego.proofs.tree import build_tree

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
PROBLEM_FILES = sorted(p.name for p in PROBLEMS.glob("*.sgf"))  # top level only

NOT_PROVED = re.compile(r"NOT proved at (.*): (.*)$")


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- walking a tree ----------------------------------------------------------------------------

@dataclass
class Site:
    """A node of the tree with what the checker knows there."""

    node: SgfNode
    parent: SgfNode | None
    path: list[str]  # the moves from the root, "B[ca]" / "W[]", this node's included
    chain: list[SgfNode]  # the nodes of those moves
    winner: int  # who wins the line through this node (by the claim and the first move's BM)

    @property
    def color(self) -> int:
        mv = self.node.move()
        assert mv is not None
        return BLACK if mv[0] == "B" else WHITE

    @property
    def to_move(self) -> int:
        return WHITE if self.color == BLACK else BLACK


def claim(root: SgfNode) -> tuple[int, int, int]:
    """(to_play, winner, balance) of the root's TSR."""
    to_play, winner, balance, _, _ = root.props["TSR"][0].split(":")
    c = {"B": BLACK, "W": WHITE}
    return c[to_play], c[winner], int(balance)


def label(node: SgfNode) -> str:
    mv = node.move()
    assert mv is not None
    return f"{mv[0]}[{mv[1]}]"


def sites(root: SgfNode) -> list[Site]:
    """Every non-root node, depth first, children in order."""
    to_play, _, _ = claim(root)
    out: list[Site] = []
    for first in root.children:
        # a correct first move (no BM) is a line its player wins, a wrong one a line it loses
        w = (WHITE if to_play == BLACK else BLACK) if "BM" in first.props else to_play
        stack = [(first, root, [first])]
        while stack:
            node, parent, chain = stack.pop()
            out.append(Site(node, parent, [label(n) for n in chain], chain, w))
            for c in reversed(node.children):
                stack.append((c, node, chain + [c]))
    return out


def load(path: Path) -> SgfNode:
    return read_tree(path.read_bytes(), str(path))


def check_file(tmp_path: Path, root: SgfNode, name: str = "mutated.sgf") -> tuple[int, str]:
    out = tmp_path / name
    out.write_bytes(serialize(root))
    r = invoke("check", str(out))
    return r.exit_code, r.output


def rejected_at(code: int, output: str) -> tuple[list[str], str]:
    """The path and reason of a rejection (asserting exit 1 and the message's shape)."""
    assert code == 1, output
    m = NOT_PROVED.search(output.strip())
    assert m, output
    where, reason = m.group(1), m.group(2)
    assert reason.strip(), output
    return ([] if where == "(root)" else where.split(" ")), reason


def problem_of(name: str) -> Problem:
    return read_problem(PROBLEMS / name).problem


# --- proofs are accepted -----------------------------------------------------------------------

@pytest.mark.parametrize("name", PROBLEM_FILES)
def test_every_full_export_is_proved(export, name):
    out = export(name, "full")
    r = invoke("check", str(out))
    assert r.exit_code == 0, r.output
    assert "proved" in r.stdout and "NOT" not in r.stdout


def test_full_export_where_the_side_to_play_loses_is_proved(export):
    # White to play in the square four: dead whatever White does; every White first move
    # is given with its refutation
    out = export("square-four.sgf", "full", "--to-play", "W")
    root = load(out)
    to_play, winner, _ = claim(root)
    assert (to_play, winner) == (WHITE, BLACK)
    assert root.children and all("BM" in c.props for c in root.children)
    r = invoke("check", str(out))
    assert r.exit_code == 0, r.output


# --- (a) a loser's reply deleted ---------------------------------------------------------------

def _loser_nodes(root: SgfNode, min_children: int = 2) -> list[Site]:
    return [s for s in sites(root) if s.to_move != s.winner and
            len(s.node.children) >= min_children]


@pytest.mark.parametrize("mode", ["full", "compact"])
@pytest.mark.parametrize("which", ["move", "pass"])
def test_deleting_one_loser_reply_is_rejected(export, tmp_path, which, mode):
    mutated = 0
    for name in PROBLEM_FILES:
        root = load(export(name, mode))
        cands = [s for s in _loser_nodes(root)
                 if any((c.move()[1] == "") == (which == "pass") for c in s.node.children)]
        if not cands:
            continue
        site = max(cands, key=lambda s: len(s.path))  # the deepest one
        victim = next(c for c in reversed(site.node.children)
                      if (c.move()[1] == "") == (which == "pass"))
        site.node.children.remove(victim)
        path, reason = rejected_at(*check_file(tmp_path, root, f"{name}-a-{which}.sgf"))
        assert path == site.path, (name, reason)
        assert "missing" in reason, (name, reason)
        gone = victim.move()[1] or "pass"
        assert repr(gone) in reason, (name, reason)
        mutated += 1
    assert mutated >= 8, "too few problems with a loser's node to mutate"


def test_deleting_a_first_move_of_the_loser_is_rejected(export, tmp_path):
    root = load(export("square-four.sgf", "full", "--to-play", "W"))
    victim = root.children.pop(0)
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path == []
    assert "missing" in reason and repr(victim.move()[1] or "pass") in reason


# --- (b) a winner's move swapped for a losing one ----------------------------------------------

def test_swapping_the_key_move_for_a_wrong_first_move_is_rejected(export, tmp_path):
    """At the root: the correct first move's point replaced by a wrong first move's (one whose
    refutation the intact tree proves), its subtree kept."""
    mutated = 0
    for name in PROBLEM_FILES:
        root = load(export(name, "full"))
        to_play, winner, _ = claim(root)
        good = [c for c in root.children if "TE" in c.props]
        wrong = [c for c in root.children if "BM" in c.props and c.move()[1]]
        if winner != to_play or not good or not wrong:
            continue
        key, bad = good[0], wrong[0]
        color = key.move()[0]
        key.props[color] = [bad.move()[1]]
        root.children.remove(bad)
        path, reason = rejected_at(*check_file(tmp_path, root, f"{name}-b-root.sgf"))
        assert path[:1] == [f"{color}[{bad.move()[1]}]"], (name, path, reason)
        mutated += 1
    assert mutated >= 8


def _replay(problem: Problem, path: list[SgfNode]):
    """The board after ``path`` (moves only, no pass), or None if a move captured stones (then
    an arrangement could recur and a fresh problem would not be the same game)."""
    board = problem.board()
    for node in path:
        mv = node.move()
        assert mv is not None
        if not mv[1]:
            return None
        color = BLACK if mv[0] == "B" else WHITE
        if board.play(from_sgf(mv[1], problem.size), color):
            return None
    return board


def _losing_alternatives(problem: Problem, board, color: int, balance: int) -> list[str]:
    """Legal plays of ``color`` on ``board`` that lose (the solver on the position as a fresh
    problem: without captures on the path there is no repetition to remember)."""
    sub = Problem(problem.size, board.black, board.white, problem.target, problem.region,
                  problem.walls, color, problem.name)
    sol = solve(sub, threats=balance, time_limit=20)
    assert sol.limit is None and sol.winner == color
    legal = []
    for q in bits(board.empty & problem.region):
        b = board.copy()
        try:
            cap = b.play(q, color)
        except IllegalMove:
            continue
        if color == problem.attacker and cap & problem.target:
            continue
        legal.append(q)
    return [to_sgf(q, problem.size) for q in legal if q not in (sol.moves or ())]


def test_swapping_a_winner_move_deep_in_the_tree_is_rejected(export, tmp_path):
    """Below the first move (in a correct line or in a refutation): a winning play replaced by
    a legal play that the solver finds losing, the subtree kept."""
    mutated: list[str] = []
    for name in PROBLEM_FILES:
        problem = problem_of(name)
        root = load(export(name, "full"))
        _, _, balance = claim(root)
        for s in sites(root):
            if len(s.path) < 2 or s.color != s.winner or not s.node.move()[1]:
                continue
            chain = s.chain[:-1]  # the moves before the swapped one
            board = _replay(problem, chain)
            if board is None:
                continue
            alts = _losing_alternatives(problem, board, s.color, balance)
            if not alts:
                continue
            color = s.node.move()[0]
            s.node.props[color] = [alts[0]]
            path, reason = rejected_at(*check_file(tmp_path, root, f"{name}-b-deep.sgf"))
            swapped = s.path[:-1] + [f"{color}[{alts[0]}]"]
            assert path[:len(swapped)] == swapped, (name, swapped, path, reason)
            mutated.append(name)
            break
    assert len(mutated) >= 8, f"too few winner moves with a losing alternative: {mutated}"


def test_an_attacker_pass_instead_of_its_winning_move_is_rejected(export, tmp_path):
    """A pass in place of a killing play, with the play's subtree left below it."""
    mutated = 0
    for name in PROBLEM_FILES:
        problem = problem_of(name)
        root = load(export(name, "full"))
        for s in sites(root):
            if (len(s.path) >= 3 and s.winner == problem.attacker and s.color == s.winner
                    and s.node.move()[1] and s.node.children):
                color = s.node.move()[0]
                s.node.props[color] = [""]
                s.node.props.setdefault("C", ["passes"])
                path, reason = rejected_at(*check_file(tmp_path, root, f"{name}-b-pass.sgf"))
                swapped = s.path[:-1] + [f"{color}[]"]
                assert path[:len(swapped)] == swapped, (name, swapped, path, reason)
                mutated += 1
                break
    assert mutated >= 4


# --- pairs of passes ---------------------------------------------------------------------------

def _pair_sites(root: SgfNode) -> list[Site]:
    """The second passes of pairs that do not end the game, as the writer marks them."""
    return [s for s in sites(root) if s.node.move() and not s.node.move()[1]
            and "both sides play elsewhere" in (s.node.get("C") or "")]


def test_a_pair_of_passes_that_goes_on_is_written_and_proved(export, tmp_path):
    """Bent four in the corner with White holding two threats: Black's correct move is to
    pass, and the proof runs through pairs of passes that do not end the game (written as
    two pass nodes, the second saying what it means) to Black's capture."""
    path = export("bent-four-dead.sgf", "full", "--threats", "-2")
    root = load(path)
    assert claim(root)[:2] == (BLACK, BLACK)
    firsts = [c for c in root.children if c.get("TE")]
    assert [c.move() for c in firsts] == [("B", "")]
    pairs = _pair_sites(root)
    assert pairs
    code, out = check_file(tmp_path, root)
    assert code == 0, out


def test_a_pair_of_passes_ending_the_game_by_the_old_rule_is_rejected(export, tmp_path):
    """Under the old ending two passes ended the game: a tree that stops at a pair of passes
    that does not repeat an earlier one is not a proof (its leaf is not terminal)."""
    root = load(export("bent-four-dead.sgf", "full", "--threats", "-2"))
    site = _pair_sites(root)[0]
    site.node.children = []
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path == site.path and "not terminal" in reason


def test_the_attacker_pass_is_a_reply_the_loser_must_give(export, tmp_path):
    """Where the attacker loses, its pass is a legal reply like any other: a tree without
    it is rejected at that node."""
    root = load(export("straight-four.sgf", "full"))
    problem = problem_of("straight-four.sgf")
    for s in sites(root):
        kids = [c for c in s.node.children if c.move() and c.move()[0] ==
                ("B" if problem.attacker == BLACK else "W") and not c.move()[1]]
        if kids and s.winner == problem.defender:
            s.node.children.remove(kids[0])
            path, reason = rejected_at(*check_file(tmp_path, root))
            assert path == s.path and "pass" in reason, (path, reason)
            return
    raise AssertionError("no attacker's pass in a line the defender wins")


# --- (c) a line cut before its end -------------------------------------------------------------

@pytest.mark.parametrize("turn", ["winner", "loser"])
def test_cutting_a_line_before_its_end_is_rejected(export, tmp_path, turn):
    """Remove the subtree below a node of a line the attacker wins (no position there is an
    end: the target stands, the game goes on) -- at the winner's turn or at the loser's."""
    mutated = 0
    for name in PROBLEM_FILES:
        problem = problem_of(name)
        root = load(export(name, "full"))
        cands = [s for s in sites(root) if s.winner == problem.attacker and s.node.children
                 and (s.to_move == s.winner) == (turn == "winner")]
        if not cands:
            continue
        deep = [s for s in cands if len(s.path) >= 2]
        site = (deep or cands)[0]
        site.node.children.clear()
        path, reason = rejected_at(*check_file(tmp_path, root, f"{name}-c-{turn}.sgf"))
        assert path == site.path, (name, path, reason)
        assert "not terminal" in reason, (name, reason)
        mutated += 1
    assert mutated >= 8


def test_cutting_a_whole_wrong_line_after_the_first_move_is_rejected(export, tmp_path):
    root = load(export("straight-three.sgf", "full"))
    bad = next(c for c in root.children if "BM" in c.props)
    bad.children.clear()
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path == [label(bad)] and "not terminal" in reason


def test_a_round_trip_through_read_tree_and_serialize_is_still_a_proof(export, tmp_path):
    # the mutations above are written this way: unmutated, the file must still be proved
    root = load(export("bulky-five.sgf", "full"))
    code, output = check_file(tmp_path, copy.deepcopy(root))
    assert code == 0, output


# --- the flat reader that check uses -----------------------------------------------------------

@pytest.mark.parametrize("mode", ["readable", "full"])
@pytest.mark.parametrize("name", PROBLEM_FILES)
def test_the_flat_reader_reads_the_moves_sgfmill_reads(export, name, mode):
    path = export(name, mode)
    data = path.read_bytes()
    flat, root_game = read_move_tree(data, name)
    ref = MoveTree.from_node(load(path))
    assert flat.root.props == ref.root.props
    assert (flat.color, flat.point, flat.marks) == (ref.color, ref.point, ref.marks)
    assert (flat.first_child, flat.next_sibling) == (ref.first_child, ref.next_sibling)
    assert len(flat) == sum(1 for _ in sites(load(path))) + 1
    assert parse_problem(root_game, str(path)).problem == read_problem(path).problem


def test_the_flat_reader_on_escapes_variations_and_spacing():
    data = (b"\xef\xbb\xbf (;FF[4]SZ[9]C[a \\] b\\\\]AB[aa] [bb]\n"
            b"(;B[cc]BM[1]\n;W[]C[x]) (;B[dd]TE[1]C[y])) (;B[ee])")
    t, root_game = read_move_tree(data, "x.sgf")
    assert t.root.props == {"FF": ["4"], "SZ": ["9"], "C": ["a ] b\\"], "AB": ["aa", "bb"]}
    assert root_game == b"(;FF[4]SZ[9]C[a \\] b\\\\]AB[aa] [bb]\n)"
    assert t.children(0) == [1, 3] and t.children(1) == [2] and len(t) == 4
    assert [t.color[i] for i in range(1, 4)] == [MOVE_B, MOVE_W, MOVE_B]
    assert t.point[1:] == ["cc", "", "dd"]
    assert t.marks[1] == MARK_BM and t.marks[3] == MARK_TE and t.marks[2] == 0
    ref = MoveTree.from_node(read_tree(data, "x.sgf"))
    assert (t.color, t.point, t.marks) == (ref.color, ref.point, ref.marks)


@pytest.mark.parametrize("data", [b"", b"not sgf", b"(;FF[4]", b"(;FF[4]C[unclosed)",
                                  b"(;FF[4] ?? )", b"B[aa]", b"(B[aa])", b"()"])
def test_the_flat_reader_rejects_what_is_not_sgf(data):
    with pytest.raises(SgfError, match=r"^bad\.sgf: not an SGF file"):
        read_move_tree(data, "bad.sgf")


@pytest.mark.parametrize("data", [
    b"\xef\xbb\xbf (;FF[4]SZ[9]AB[aa](;B[cc]BM[1];W[])(;B[dd]TE[1]))",
    b"(;FF[4]SZ[9]AB[aa];B[cc];W[dd])(;B[ee])", b"", b"not sgf", b"(;FF[4]"])
def test_the_flat_reader_of_a_file_maps_it_and_reads_the_same(tmp_path, data):
    """``tsumego check`` maps the file rather than reading it into memory; it reads the same
    tree and rejects the same text (an empty file, which cannot be mapped, too), naming the
    file."""
    path = tmp_path / "t.sgf"
    path.write_bytes(data)
    try:
        want = read_move_tree(data, str(path))
    except SgfError as e:
        with pytest.raises(SgfError) as got:
            read_move_tree_file(path)
        assert str(got.value) == str(e) and str(e).startswith(f"{path}: not an SGF file")
        return
    got_tree, got_root = read_move_tree_file(path)
    assert got_root == want[1]
    assert (got_tree.color, got_tree.point, got_tree.marks) == \
        (want[0].color, want[0].point, want[0].marks)
    assert (got_tree.first_child, got_tree.next_sibling) == \
        (want[0].first_child, want[0].next_sibling)
    assert got_tree.root.props == want[0].root.props


# --- bad input ---------------------------------------------------------------------------------

def _bad_input(r) -> None:
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert err.startswith("tsumego: error:") and "\n" not in err, err


def test_a_file_without_a_claim_is_bad_input():
    _bad_input(invoke("check", str(PROBLEMS / "straight-three.sgf")))


@pytest.mark.parametrize("name", ["direct-ko.sgf", "straight-three.sgf", "seki.sgf"])
def test_a_readable_tree_is_bad_input(export, name):
    _bad_input(invoke("check", str(export(name, "readable"))))


@pytest.mark.parametrize("tsr", ["nonsense", "B:B:x:kill:full", "B:B:0:kill"])
def test_a_malformed_claim_is_bad_input(export, tmp_path, tsr):
    root = load(export("straight-three.sgf", "full"))
    root.props["TSR"] = [tsr]
    out = tmp_path / "bad-claim.sgf"
    out.write_bytes(serialize(root))
    _bad_input(invoke("check", str(out)))


def test_unreadable_files_are_bad_input(tmp_path):
    junk = tmp_path / "junk.sgf"
    junk.write_text("this is not SGF")
    _bad_input(invoke("check", str(junk)))
    _bad_input(invoke("check", str(tmp_path / "missing.sgf")))
    _bad_input(invoke("check", str(tmp_path)))


def test_the_pass_alive_memo_gives_every_answer_a_fresh_search_gives():
    """The checker's pass-alive test shares, between the leaves of one tree, the arrangements
    from which it found no capture (gop/13409 B's full tree checked in 0.64 s instead of
    9.6 s). Along random lines of every problem, with the defender's stones kept, each answer
    with the shared memo is the answer of a search of its own, and both answers occur."""
    import random

    from tsumego.proofs.check import _attacker_can_capture_alone

    rng = random.Random(11)
    answers = set()
    for f in sorted(PROBLEMS.glob("*.sgf")):
        problem = read_problem(f).problem
        safe: set[tuple[int, int]] = set()
        for _ in range(15):
            board = Stones(problem.size, problem.black, problem.white)
            for _ in range(rng.randrange(0, 8)):
                empty = list(bits(board.empty & problem.region))
                if not empty:
                    break
                try:
                    cap = board.play(rng.choice(empty), rng.choice((BLACK, WHITE)))
                except IllegalPlay:
                    continue
                if cap & problem.target:
                    break
            if (board.stones(problem.defender) & problem.target) != problem.target:
                continue
            alone = _attacker_can_capture_alone(board, problem.target, problem.region,
                                                problem.attacker)
            shared = _attacker_can_capture_alone(board, problem.target, problem.region,
                                                 problem.attacker, safe)
            assert alone == shared, f.name
            answers.add(alone)
    assert answers == {True, False}


def _board(diagram: str) -> tuple[Stones, int]:
    """The checker's board from a diagram (``X``/``O`` stones, ``@`` white target stones,
    ``.`` empty) and the target's stones."""
    rows = [r.replace(" ", "") for r in diagram.strip().splitlines()]
    black = white = target = 0
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            p = y * len(rows) + x
            if ch in "O@":
                white |= 1 << p
            elif ch == "X":
                black |= 1 << p
            if ch == "@":
                target |= 1 << p
    return Stones(len(rows), black, white), target


@pytest.mark.parametrize("diagram, alive", [
    # two eyes of one point
    ("""
     . @ X . .
     @ @ X . .
     . @ X . .
     @ @ X . .
     X X X . .""", True),
    # two eyes, one of them of two points holding an attacker stone
    ("""
     . @ X . .
     @ @ X . .
     X @ X . .
     . @ X . .
     @ @ X . .""", True),
    # one eye of two points
    ("""
     . @ X . .
     . @ X . .
     @ @ X . .
     X X X . .
     . . . . .""", False),
    # two eyes, but one of them false: the chain is two chains joined only through it
    ("""
     . @ X . .
     @ . @ X .
     X @ @ X .
     X X X X .
     . . . . .""", False),
    # seki: the defender wins, but not unconditionally
    ("""
     . X @ X .
     X X @ X .
     @ @ @ X .
     X X X X .
     . . . . .""", False),
])
def test_the_checkers_own_benson_test(diagram, alive):
    from tsumego.proofs.check import _attacker_can_capture_alone, _unconditionally_alive

    board, target = _board(diagram)
    assert _unconditionally_alive(board, target, WHITE) == alive
    if alive:
        assert not _attacker_can_capture_alone(board, target, board.empty, BLACK)


def test_the_checkers_benson_test_never_calls_a_capturable_target_alive():
    """The checker takes a leaf whose target Benson's test calls alive without its exhaustive
    search: on random boards (no block without a liberty), no target it calls alive can be
    captured by the attacker playing alone, and it calls many alive."""
    import random

    from tsumego.go.board import geometry
    from tsumego.proofs.check import _attacker_can_capture_alone, _unconditionally_alive

    rng = random.Random(3)
    called = 0
    for _ in range(1500):
        size = rng.choice((4, 5, 6))
        geometry(size)
        board = Board(size)
        for p in range(size * size):
            r = rng.random()
            if r < 0.55:
                board.place(p, WHITE)
            elif r < 0.7:
                board.place(p, BLACK)
        geo = board.geo
        for color in (BLACK, WHITE):
            own = board.stones(color)
            while own:
                block = geo.flood(own & -own, board.stones(color))
                own &= ~block
                if not geo.spread(block) & board.empty:
                    for q in bits(block):
                        board.remove(q)
        white = board.white
        if not white:
            continue
        target = geo.flood(white & -white, white)
        stones = Stones(size, board.black, board.white)
        if _unconditionally_alive(stones, target, WHITE):
            called += 1
            assert not _attacker_can_capture_alone(stones, target, board.empty, BLACK), board
    assert called > 300


def _random_ko_trees(count: int, balances: tuple[int, ...], mode: str):
    """(case, side, balance, CheckResult) of the trees of the ko positions among the property
    test's first ``count`` random positions, both sides to play."""
    from positions import case

    from tsumego.proofs.check import check_tree
    from tsumego.proofs.export import sgf_text
    from tsumego.proofs.tree import build_tree

    for i in range(count):
        c = case(i)
        if "ko" not in c.kind.values():
            continue
        for side in (BLACK, WHITE):
            sol = solve(c.problem, to_play=side)
            for k in balances:
                tree = build_tree(c.problem, to_play=side, balance=k, mode=mode)
                text = "".join(sgf_text(tree, None, [sol], "test")).encode("utf-8")
                yield i, side, k, check_tree(c.problem, read_move_tree(text)[0])


@pytest.mark.parametrize("mode", ["full", "compact"])
def test_full_trees_of_random_ko_positions_are_proved(mode):
    """Full and compact trees where the history matters: every ko position among the property
    test's first 150 random positions, both sides to play, balances -1..1, is proved by the
    checker. The builder shares a subtree it built before for a position met again only when
    no play probed in it recreates an arrangement of the history above either place; with
    that condition dropped, some are not proved (the next test): a shared subtree lacks a
    reply that only the new path's history makes legal."""
    cases = set()
    for i, side, k, result in _random_ko_trees(150, (-1, 0, 1), mode):
        cases.add(i)
        assert result.proved, (i, side, k, result.path, result.reason)
    assert len(cases) >= 30


def test_the_cheapest_win_is_a_winning_move_on_a_target_liberty_where_one_wins(monkeypatch):
    """Where nothing was measured and the engine holds no proof of a winning move, the
    builder finds the winner's move with searches bounded by the smallest proof found so far
    (``_Builder.cheapest_win``). Among the random ko positions' compact trees, with first
    rounds of one node (so that most searches stop and go on in later rounds), every pick is
    a winning move, on a liberty of a target block wherever such a move wins, and a pass only
    where nothing else wins; and every tree is proved."""
    from tsumego.go.coords import PASS
    from tsumego.proofs.tree import _Builder

    monkeypatch.setattr(_Builder, "FIRST_BUDGET", 1)
    cheapest = _Builder.cheapest_win
    picks = []

    def spy(self, kids, color, history, depth):
        pick = cheapest(self, kids, color, history, depth)
        libs = self.board.liberties(self._target_blocks())
        wins = [c for c in kids if self.winner_after(c, color, history, depth)[0] == color]
        assert pick in wins
        on_libs = [c for c in wins if c.move != PASS and libs >> c.move & 1]
        assert pick in on_libs if on_libs else pick.move != PASS or len(wins) == 1
        picks.append(bool(on_libs))
        return pick

    monkeypatch.setattr(_Builder, "cheapest_win", spy)
    for i, side, k, result in _random_ko_trees(60, (-1, 1), "compact"):
        assert result.proved, (i, side, k, result.path, result.reason)
    assert True in picks and False in picks


def test_a_winner_move_whose_subtree_was_built_before_is_taken_without_a_search(
        monkeypatch):
    """Where nothing was measured, the builder takes a winning move whose subtree it built
    before and may share here (``_Builder.shared_win``) before it searches for one. Among the
    random ko positions' compact trees such picks are made, each is a move the engine says
    wins, the node below it refers to the subtree found, and every tree is proved."""
    from tsumego.proofs.tree import _Builder

    shared_win = _Builder.shared_win
    picks = []

    def spy(self, kids, color, history):
        pick = shared_win(self, kids, color, history)
        if pick is not None:
            assert self.fitted is not None and self.fitted[0] is pick
            depth = max(history.values())
            assert self.winner_after(pick, color, history, depth)[0] == color
            picks.append(pick)
        return pick

    monkeypatch.setattr(_Builder, "shared_win", spy)
    for i, side, k, result in _random_ko_trees(60, (-1, 1), "compact"):
        assert result.proved, (i, side, k, result.path, result.reason)
    assert len(picks) >= 10


def test_shared_subtrees_need_the_walk_that_tells_histories_apart(monkeypatch):
    """Where the stone counts cannot tell a subtree built before from the history above the
    new place, the builder walks it (``_Builder.unshaped``) for a play that recreates an
    arrangement of that history. Taking every such subtree without the walk makes full trees
    the checker rejects among the random ko positions, so the walk decides something."""
    from tsumego.proofs.tree import _Builder

    monkeypatch.setattr(_Builder, "unshaped", lambda self, *args: True)
    failed = [(i, side, k) for i, side, k, result in _random_ko_trees(60, (-1, 1), "full")
              if not result.proved]
    assert failed


def test_a_subtree_a_history_shaped_stands_again_only_where_the_same_arrangements_do(
        monkeypatch):
    """A subtree whose plays recreated arrangements of the history above it is shared again
    below the same move only where the new history holds those arrangements too (and no
    other the plays recreate). Among the random ko positions' full trees such subtrees are
    shared and every tree is proved; taking them where the new history lacks some of those
    arrangements (and the walk finds no other) makes trees the checker rejects."""
    from tsumego.proofs.tree import _Builder

    fits = _Builder.fits
    shared = []

    def spy(self, got, c, color, history, outer):
        at = fits(self, got, c, color, history, outer)
        if got[2] and at is not None:
            shared.append(got[0])
        return at

    monkeypatch.setattr(_Builder, "fits", spy)
    for i, side, k, result in _random_ko_trees(60, (-1, 1), "full"):
        assert result.proved, (i, side, k, result.path, result.reason)
    assert shared

    def blind(self, got, c, color, history, outer):
        held = dict(history)
        for h in got[2]:
            held.setdefault(h, 0)  # as if this history held them too
        return fits(self, got, c, color, held, outer)

    monkeypatch.setattr(_Builder, "fits", blind)
    assert [(i, side, k) for i, side, k, result in _random_ko_trees(60, (-1, 1), "full")
            if not result.proved]


def _with_and_without_memo(monkeypatch, problem: Problem, tree: MoveTree):
    """The check of ``tree`` with the memo used for every subtree, in each of the ways it
    tells histories apart, asserted equal to the check without the memo: the sets of the
    arrangements each subtree looked up (large enough for any of these trees; three lookups
    at most, so that most subtrees have none and the list of lookups is cut often; every
    hash alike, so that every set clashes with every history), and with no sets, the test
    of what the lookups put and capture, then the walk."""
    import tsumego.proofs.check as checker

    monkeypatch.setattr(checker, "MEMO_MIN", 1 << 62)
    without = checker.check_tree(problem, tree)
    monkeypatch.setattr(checker, "MEMO_MIN", 1)
    for looked_max, same_hash in ((100_000, False), (3, False), (100_000, True), (0, False)):
        monkeypatch.setattr(checker, "LOOKED_MAX", looked_max)
        if same_hash:
            monkeypatch.setattr(checker, "hash", lambda _: 0, raising=False)
        assert checker.check_tree(problem, tree) == without, (looked_max, same_hash)
        monkeypatch.delattr(checker, "hash", raising=False)
    return without


def test_the_memo_of_checked_subtrees_changes_no_verdict(monkeypatch):
    """The checker remembers subtrees it has proved and accepts them again where the history
    cannot tell the places apart. With the memo used for every subtree and with it off, the
    checker gives the same result (verdict, failing path, reason, nodes checked) on the full
    trees of the property test's ko positions, and on flawed trees: those of a builder whose
    copies of subtrees ignore the history (so that some lines lack a reply the history makes
    legal), read in order and with every node's children reversed."""
    from positions import case

    import tsumego.proofs.check as checker
    from tsumego.proofs.export import sgf_text
    from tsumego.proofs.tree import _Builder, build_tree

    def reverse(root: SgfNode) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            node.children.reverse()
            stack.extend(node.children)

    def both(problem: Problem, tree: MoveTree) -> checker.CheckResult:
        return _with_and_without_memo(monkeypatch, problem, tree)

    failed = proved = 0
    for blind in (False, True):
        if blind:
            monkeypatch.setattr(_Builder, "pair", lambda self: 0)
        for i in range(60):
            c = case(i)
            if "ko" not in c.kind.values():
                continue
            for side in (BLACK, WHITE):
                sol = solve(c.problem, to_play=side)
                for k in (-1, 1):
                    tree = build_tree(c.problem, to_play=side, balance=k, mode="full")
                    text = "".join(sgf_text(tree, None, [sol], "test")).encode("utf-8")
                    for flip in (False, True):
                        root = read_tree(text)
                        if flip:
                            reverse(root)
                        result = both(c.problem, MoveTree.from_node(root))
                        proved += result.proved
                        failed += not result.proved
                        assert result.proved or blind
    assert failed and proved


# --- compact trees: each repeated position written once -----------------------------------------

def _lines(t) -> tuple:
    """A TreeNode's subtree as nested (move, children) tuples, children in order."""
    return (t.move, t.color, tuple(_lines(c) for c in t.children))


@pytest.mark.parametrize("name", PROBLEM_FILES)
def test_every_compact_export_is_proved_and_stands_for_the_full_tree(export, name):
    r = invoke("check", str(export(name, "compact")))
    assert r.exit_code == 0, r.output
    problem = problem_of(name)
    for lookahead in (0, 200_000):  # (compact trees look ahead 0 positions by default)
        full = build_tree(problem, mode="full", lookahead=lookahead)
        compact = build_tree(problem, mode="compact", lookahead=lookahead)
        assert compact.nodes == full.nodes and compact.stored_nodes <= full.nodes
        assert _lines(compact.root) == _lines(full.root)  # the same proof, move for move
    assert build_tree(problem, mode="compact").nodes == \
        build_tree(problem, mode="full", lookahead=0).nodes


def test_a_compact_tree_is_smaller_than_the_full_one(export):
    """rabbity-six: the compact tree stands for the full one and holds each repeat once: far
    fewer nodes, and the file written holds exactly those."""
    compact = build_tree(problem_of("rabbity-six.sgf"), mode="compact")
    assert compact.nodes == build_tree(problem_of("rabbity-six.sgf"), mode="full",
                                       lookahead=0).nodes
    assert compact.stored_nodes * 3 < compact.nodes
    root = load(export("rabbity-six.sgf", "compact"))
    assert sum(1 for _ in sites(root)) + 1 == compact.stored_nodes


def _references(root: SgfNode) -> list[Site]:
    return [s for s in sites(root) if "TSREF" in s.node.props]


def _named(root: SgfNode) -> dict[str, Site]:
    return {s.node.props["N"][0]: s for s in sites(root) if "N" in s.node.props}


def test_a_transposition_to_no_node_is_rejected(export, tmp_path):
    root = load(export("rabbity-six.sgf", "compact"))
    site = _references(root)[0]
    site.node.props["TSREF"] = ["T123456789"]
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path == site.path and "names no single node" in reason, reason


def test_a_transposition_to_a_later_node_is_rejected(export, tmp_path):
    """A reference must point back: the node named must come before it, outside its line
    (so that following references always ends)."""
    root = load(export("rabbity-six.sgf", "compact"))
    site = _references(root)[0]
    name = site.node.props["TSREF"][0]
    named = _named(root)[name]
    del named.node.props["N"]
    last = sites(root)[-1]
    assert len(last.path) > 1 and "TSREF" not in last.node.props
    last.node.props["N"] = [name]
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path == site.path and "names no single node" in reason, reason


def test_a_transposition_with_moves_below_it_is_rejected(export, tmp_path):
    root = load(export("rabbity-six.sgf", "compact"))
    site = _references(root)[0]
    named = _named(root)[site.node.props["TSREF"][0]]
    site.node.children = copy.deepcopy(named.node.children)  # even the right ones
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path == site.path and "moves below it" in reason, reason


def test_a_transposition_to_another_position_is_rejected(export, tmp_path):
    """Redirected to a node of the other colour: the moves it stands for do not alternate."""
    root = load(export("rabbity-six.sgf", "compact"))
    order = sites(root)
    site = _references(root)[-1]
    before = order[:next(i for i, s in enumerate(order) if s.node is site.node)]
    other = next(s.node.props["N"][0] for s in before if "N" in s.node.props and
                 s.color != site.color and s.path != site.path[:len(s.path)])
    site.node.props["TSREF"] = [other]
    path, reason = rejected_at(*check_file(tmp_path, root))
    assert path[:len(site.path)] == site.path and "alternate" in reason, (path, reason)


def test_transpositions_in_a_tree_claimed_full_are_bad_input(export, tmp_path):
    root = load(export("rabbity-six.sgf", "compact"))
    root.props["TSR"] = [root.props["TSR"][0].replace(":compact", ":full")]
    out = tmp_path / "claimed-full.sgf"
    out.write_bytes(serialize(root))
    _bad_input(invoke("check", str(out)))


_GOP = Path(__file__).resolve().parents[3] / "shared" / "data" / "tsumegojs" / "gop"


@pytest.mark.skipif(not (_GOP / "15589.sgf").is_file(),
                    reason="the shared tsumego.js collection is absent")
def test_the_memo_takes_subtrees_whose_stone_counts_clash_only_after_a_replay(monkeypatch):
    """The compact trees of gop/15589 (White first at balance 0, Black at +1) share subtrees
    whose lookups' stone counts clash with the new history (the builder's walk found no
    arrangement of it). The checker's memo takes them after replaying their lookups; with
    the memo used for every subtree and with it off, the results are the same: proved."""
    from tsumego.proofs.export import sgf_text

    problem = read_problem(_GOP / "15589.sgf").problem
    for color, balance in ((WHITE, 0), (BLACK, 1)):
        sol = solve(problem, to_play=color)
        tree = build_tree(problem, to_play=color, balance=balance, mode="compact")
        text = "".join(sgf_text(tree, None, [sol], "test")).encode("utf-8")
        moves = read_move_tree(text)[0]
        result = _with_and_without_memo(monkeypatch, problem, moves)
        assert result.proved, result
