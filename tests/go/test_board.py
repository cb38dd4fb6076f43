"""The board: captures, suicide, checked and fast play, undo, Zobrist hashing, geometry,
coordinates. Positions are ASCII diagrams (X black, O white, . empty)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import pt, pts, sgf_set

from tsumego.go.board import BLACK, EMPTY, WHITE, Board, IllegalMove, bits, geometry
from tsumego.go.coords import PASS, from_gtp, from_sgf, parse_point, to_gtp, to_sgf


def B(text: str) -> Board:
    return Board.from_diagram(text)


def same(board: Board, text: str) -> None:
    """Assert the board shows the diagram (stones only)."""
    expected = Board.from_diagram(text)
    assert board == expected, f"\n{board.diagram()}\n!=\n{expected.diagram()}"


# --- captures ------------------------------------------------------------------------------


def test_single_stone_capture_in_the_middle():
    b = B("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .
    """)
    captured = b.play(pt("cd", 5), BLACK)
    assert sgf_set(captured, 5) == {"cc"}
    same(b, """
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .
    """)


def test_multi_stone_capture():
    b = B("""
        . . . . . .
        . X X X . .
        X O O O X .
        . X O X . .
        . . . . . .
        . . . . . .
    """)
    captured = b.play(pt("ce", 6), BLACK)
    assert sgf_set(captured, 6) == {"bc", "cc", "dc", "cd"}
    same(b, """
        . . . . . .
        . X X X . .
        X . . . X .
        . X . X . .
        . . X . . .
        . . . . . .
    """)


def test_several_blocks_captured_at_once():
    # the play at cc takes the last liberty of four separate white stones
    b = B("""
        . . X . . .
        . X O X . .
        X O . O X .
        . X O X . .
        . . X . . .
        . . . . . .
    """)
    captured = b.play(pt("cc", 6), BLACK)
    assert sgf_set(captured, 6) == {"cb", "bc", "dc", "cd"}
    same(b, """
        . . X . . .
        . X . X . .
        X . X . X .
        . X . X . .
        . . X . . .
        . . . . . .
    """)


def test_capture_on_the_edge():
    b = B("""
        . X O X .
        . . X . .
        . . . . .
        . . . . .
        . . . . .
    """)
    # the white stone on the edge already has no liberty but one: cb is black, so play
    b = B("""
        . X O . .
        . . X . .
        . . . . .
        . . . . .
        . . . . .
    """)
    captured = b.play(pt("da", 5), BLACK)
    assert sgf_set(captured, 5) == {"ca"}
    assert b.color_at(pt("ca", 5)) == EMPTY


def test_capture_in_the_corner():
    b = B("""
        O . . .
        X . . .
        . . . .
        . . . .
    """)
    captured = b.play(pt("ba", 4), BLACK)
    assert sgf_set(captured, 4) == {"aa"}
    same(b, """
        . X . .
        X . . .
        . . . .
        . . . .
    """)


def test_corner_group_of_two_captured():
    b = B("""
        O O X .
        X X . .
        . . . .
        . . . .
    """)
    # set up without the capturing stone, then play it
    b.remove(pt("ca", 4))
    captured = b.play(pt("ca", 4), BLACK)
    assert sgf_set(captured, 4) == {"aa", "ba"}
    assert b.white == 0


def test_capture_returns_zero_when_nothing_is_taken():
    b = B("""
        . . . .
        . O . .
        . . . .
        . . . .
    """)
    assert b.play(pt("cb", 4), BLACK) == 0
    assert b.color_at(pt("bb", 4)) == WHITE


# --- suicide ---------------------------------------------------------------------------------


def test_single_stone_suicide_is_illegal():
    b = B("""
        . O . .
        O . . .
        . . . .
        . . . .
    """)
    with pytest.raises(IllegalMove):
        b.play(pt("aa", 4), BLACK)
    assert b.color_at(pt("aa", 4)) == EMPTY


def test_multi_stone_suicide_is_illegal():
    # Black's two stones would fill their own last liberty
    b = B("""
        X . O .
        O O O .
        . . . .
        . . . .
    """)
    with pytest.raises(IllegalMove):
        b.play(pt("ba", 4), BLACK)
    same(b, """
        X . O .
        O O O .
        . . . .
        . . . .
    """)


def test_play_that_captures_is_not_suicide():
    # Black at aa has no liberty of its own, but it takes White's last liberty first
    b = B("""
        . O X .
        O X . .
        X . . .
        . . . .
    """)
    captured = b.play(pt("aa", 4), BLACK)
    assert sgf_set(captured, 4) == {"ba", "ab"}
    same(b, """
        X . X .
        . X . .
        X . . .
        . . . .
    """)


# --- checked play ----------------------------------------------------------------------------


def test_play_on_an_occupied_point_raises():
    b = B("""
        . . .
        . X .
        . . .
    """)
    before = b.snapshot()
    for color in (BLACK, WHITE):
        with pytest.raises(IllegalMove):
            b.play(pt("bb", 3), color)
    assert b.snapshot() == before


@pytest.mark.parametrize("p", [-2, 9, 100])
def test_play_off_the_board_raises(p):
    b = Board(3)
    with pytest.raises(IllegalMove):
        b.play(p, BLACK)
    assert b.occupied == 0 and b.hash == 0


def test_play_with_a_bad_colour_raises():
    b = Board(3)
    with pytest.raises(IllegalMove):
        b.play(0, EMPTY)


def test_illegal_move_is_a_value_error():
    assert issubclass(IllegalMove, ValueError)


# --- fast play ---------------------------------------------------------------------------------


def test_play_fast_returns_minus_one_for_suicide_and_leaves_the_board_unchanged():
    b = B("""
        X . O .
        O O O .
        . . . .
        . . . .
    """)
    before = b.snapshot()
    assert b.play_fast(pt("ba", 4), BLACK) == -1
    assert b.snapshot() == before
    # single-stone suicide too
    b2 = B("""
        . O . .
        O . . .
        . . . .
        . . . .
    """)
    before2 = b2.snapshot()
    assert b2.play_fast(pt("aa", 4), BLACK) == -1
    assert b2.snapshot() == before2


def test_play_fast_returns_the_captured_mask():
    b = B("""
        . X O X
        . . X .
        . . . .
        . . . .
    """)
    b.remove(pt("da", 4))
    assert b.play_fast(pt("da", 4), BLACK) == pts("ca", 4)


def test_play_fast_agrees_with_play_on_every_point():
    diagram = """
        . X O . X
        X O . O X
        O . O X .
        X O X . O
        . X . O .
    """
    for color in (BLACK, WHITE):
        for p in range(25):
            b1, b2 = B(diagram), B(diagram)
            if b1.color_at(p) != EMPTY:
                continue
            r = b1.play_fast(p, color)
            try:
                r2 = b2.play(p, color)
            except IllegalMove:
                r2 = -1
            assert r == r2
            assert b1 == b2 and b1.hash == b2.hash


# --- snapshot / undo -------------------------------------------------------------------------


def test_undo_restores_stones_and_hash_after_a_capture():
    b = B("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .
    """)
    snap = b.snapshot()
    black, white, h = b.black, b.white, b.hash
    b.play(pt("cd", 5), BLACK)
    assert b.hash != h
    b.undo(snap)
    assert (b.black, b.white, b.hash) == (black, white, h)


def test_undo_a_sequence_in_reverse():
    b = Board(5)
    seq = [("cc", BLACK), ("cd", WHITE), ("dc", BLACK), ("bc", WHITE), ("cb", BLACK)]
    records = []
    states = []
    for s, c in seq:
        states.append((b.black, b.white, b.hash))
        records.append(b.snapshot())
        b.play(pt(s, 5), c)
    for rec, st in zip(reversed(records), reversed(states)):
        b.undo(rec)
        assert (b.black, b.white, b.hash) == st
    assert b.occupied == 0 and b.hash == 0


def test_copy_is_independent():
    b = B("""
        . . .
        . X .
        . . .
    """)
    c = b.copy()
    c.play(0, WHITE)
    assert b.color_at(0) == EMPTY and c.color_at(0) == WHITE
    assert b.hash != c.hash


# --- Zobrist hash ------------------------------------------------------------------------------


def rebuilt(b: Board) -> Board:
    """The same arrangement placed stone by stone on a fresh board."""
    f = Board(b.size)
    for p in bits(b.black):
        f.place(p, BLACK)
    for p in bits(b.white):
        f.place(p, WHITE)
    return f


def test_hash_is_incremental_through_plays_and_captures():
    b = Board(5)
    moves = ["cc", "cd", "dc", "bc", "cb", "dd", "bd", "ce", "ec", "be", "de", "ed",
             "ad", "ab", "ac", "bb", "ba", "ca", "ae", "da"]
    color = BLACK
    for s in moves:
        p = pt(s, 5)
        if b.color_at(p) == EMPTY and b.play_fast(p, color) >= 0:
            assert b.hash == rebuilt(b).hash, s
        color = WHITE if color == BLACK else BLACK
    assert b.hash == rebuilt(b).hash


def test_hash_of_the_empty_board_is_zero_and_place_remove_cancel():
    b = Board(9)
    assert b.hash == 0
    b.place(40, BLACK)
    b.place(41, WHITE)
    b.remove(40)
    b.remove(41)
    assert b.hash == 0
    # place replaces: a white stone put over a black one hashes as white
    b.place(10, BLACK)
    b.place(10, WHITE)
    f = Board(9)
    f.place(10, WHITE)
    assert b.hash == f.hash


def test_hash_distinguishes_colour_and_point():
    b1, b2, b3 = Board(9), Board(9), Board(9)
    b1.place(0, BLACK)
    b2.place(0, WHITE)
    b3.place(1, BLACK)
    assert len({b1.hash, b2.hash, b3.hash}) == 3


def test_zobrist_keys_are_distinct_and_nonzero():
    g = geometry(19)
    keys = [k for triple in g.zobrist for k in triple[1:]]
    assert all(k for k in keys)
    assert len(set(keys)) == len(keys)
    assert all(triple[0] == 0 for triple in g.zobrist)  # EMPTY has no key


# Fixed values: a change of the seed or of the key generation breaks stored tables and
# recorded benchmarks, so it must be deliberate.
FIXED_DIAGRAM = """
    . . . . .
    . X O . .
    . O X . .
    . . . . .
    . . . . .
"""
FIXED_HASH = 0xB3C516C7DF977B7E


def test_zobrist_values_are_fixed():
    assert geometry(19).zobrist[0][BLACK] == 0x71C4AE6ED5C5FD26
    assert geometry(19).zobrist[0][WHITE] == 0xF606868AC7473FEC
    assert geometry(19).zobrist[360][WHITE] == 0x62436E7757074527
    assert geometry(9).zobrist[40][BLACK] == 0x135F25B5164A6E05
    assert B(FIXED_DIAGRAM).hash == FIXED_HASH


def test_zobrist_hash_is_the_same_in_another_process():
    code = ("from tsumego.go.board import Board\n"
            f"print(Board.from_diagram({FIXED_DIAGRAM!r}).hash)\n")
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True)
        assert int(out.stdout) == FIXED_HASH


# --- geometry ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(2, 20))
def test_geometry(size):
    g = geometry(size)
    n = size * size
    assert g.size == size
    assert g.full == (1 << n) - 1
    assert len(g.neighbours) == len(g.nbr_mask) == len(g.nbr8_mask) == len(g.zobrist) == n
    last = size - 1
    for p in range(n):
        x, y = g.xy(p)
        assert g.point(x, y) == p
        on_edge_x = x in (0, last)
        on_edge_y = y in (0, last)
        expected = 4 - on_edge_x - on_edge_y
        assert len(g.neighbours[p]) == expected
        assert bin(g.nbr_mask[p]).count("1") == expected
        assert sum(1 << q for q in g.neighbours[p]) == g.nbr_mask[p]
        for q in g.neighbours[p]:
            qx, qy = g.xy(q)
            assert abs(qx - x) + abs(qy - y) == 1
        n8 = bin(g.nbr8_mask[p]).count("1")
        expected8 = {4: 8, 3: 5, 2: 3}[expected]
        assert n8 == expected8
        assert g.nbr_mask[p] & ~g.nbr8_mask[p] == 0
        assert g.dilate(1 << p) == g.nbr_mask[p] | (1 << p)
    assert geometry(size) is g  # shared


def test_dilate_does_not_wrap_around_rows():
    g = geometry(5)
    right_column = pts("ea eb ec ed ee", 5)
    grown = g.dilate(right_column)
    assert sgf_set(grown, 5) == sgf_set(right_column | pts("da db dc dd de", 5), 5)
    left_column = pts("aa ab ac ad ae", 5)
    assert sgf_set(g.dilate(left_column), 5) == sgf_set(left_column | pts("ba bb bc bd be", 5),
                                                        5)


def test_flood_is_edge_connected_only():
    g = geometry(4)
    within = pts("aa bb cc", 4)  # diagonal chain: no edge connection
    assert g.flood(pts("aa", 4), within) == pts("aa", 4)
    within = pts("aa ab bb cb", 4)
    assert g.flood(pts("aa", 4), within) == within


@pytest.mark.parametrize("size", [0, 1, 20, 25])
def test_geometry_rejects_unsupported_sizes(size):
    with pytest.raises(ValueError):
        geometry(size)
    with pytest.raises(ValueError):
        Board(size)


def test_blocks_and_liberties():
    b = B("""
        X X . O
        . X O O
        X . . .
        . . . X
    """)
    black_blocks = {frozenset(sgf_set(m, 4)) for m in b.blocks(BLACK)}
    assert black_blocks == {frozenset({"aa", "ba", "bb"}), frozenset({"ac"}),
                            frozenset({"dd"})}
    white_blocks = {frozenset(sgf_set(m, 4)) for m in b.blocks(WHITE)}
    assert white_blocks == {frozenset({"da", "cb", "db"})}
    assert sgf_set(b.liberties(b.block(pt("aa", 4))), 4) == {"ca", "ab", "bc"}
    assert sgf_set(b.liberties(b.block(pt("db", 4))), 4) == {"ca", "cc", "dc"}
    assert b.block(pt("cc", 4)) == 0


def test_from_diagram_and_diagram_round_trip():
    text = "X . O\n. O .\nX X ."
    b = Board.from_diagram(text)
    assert b.diagram() == text
    with pytest.raises(ValueError):
        Board.from_diagram("X .\n. . .")


# --- coordinates -------------------------------------------------------------------------------


def test_sgf_aa_is_top_left_and_column_first():
    assert to_sgf(0, 19) == "aa"
    assert from_sgf("aa", 19) == 0
    assert from_sgf("ba", 19) == 1  # column b, row a
    assert from_sgf("ab", 19) == 19  # column a, row b
    assert to_sgf(360, 19) == "ss"


def test_gtp_a19_is_top_left_and_skips_i():
    assert to_gtp(0, 19) == "A19"
    assert to_gtp(18, 19) == "T19"
    assert to_gtp(360, 19) == "T1"
    assert to_gtp(342, 19) == "A1"
    assert to_gtp(8, 19) == "J19"  # the ninth column is J: there is no I
    assert to_gtp(7, 19) == "H19"
    assert all("I" not in to_gtp(p, 19) for p in range(361))
    assert from_gtp("A19", 19) == 0
    assert from_gtp("j19", 19) == 8
    with pytest.raises(ValueError):
        from_gtp("I5", 19)
    assert to_gtp(0, 9) == "A9"
    assert to_gtp(80, 9) == "J1"


def test_pass_notation():
    assert PASS == -1
    assert to_sgf(PASS, 9) == "pass"
    assert to_gtp(PASS, 9) == "pass"
    assert from_sgf("pass", 9) == PASS
    assert from_sgf("", 9) == PASS
    assert from_sgf("tt", 19) == PASS
    assert from_gtp("pass", 9) == PASS


@pytest.mark.parametrize("size", range(2, 20))
def test_coordinates_round_trip(size):
    for p in range(size * size):
        s = to_sgf(p, size)
        g = to_gtp(p, size)
        assert from_sgf(s, size) == p
        assert from_gtp(g, size) == p
        assert parse_point(s, size) == p
        assert parse_point(g, size) == p


def test_off_board_coordinates_are_rejected():
    with pytest.raises(ValueError):
        from_sgf("ja", 9)
    with pytest.raises(ValueError):
        from_sgf("abc", 9)
    with pytest.raises(ValueError):
        from_gtp("A10", 9)
    with pytest.raises(ValueError):
        from_gtp("K1", 9)


def test_a_board_from_bitboards_is_the_board_its_stones_placed_one_by_one_make() -> None:
    b = B("""
        . X O . .
        X X O O .
        . X . O .
        . . X O .
        . . . . .
    """)
    made = Board.from_stones(5, b.black, b.white)
    assert (made.black, made.white, made.hash) == (b.black, b.white, b.hash)
    # a point in both bitboards is White's, as if it were placed last
    both = Board.from_stones(5, b.black | b.white, b.white)
    assert (both.black, both.white, both.hash) == (b.black, b.white, b.hash)
    assert Board.from_stones(5, 0, 0).hash == Board(5).hash == 0
