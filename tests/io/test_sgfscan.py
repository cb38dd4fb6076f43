"""The fast scan of move trees (tsumego.io.sgfscan) reads what the exact tokenizer reads.

``read_move_tree`` first tries the scan and falls back to the tokenizer, so these tests compare
the two on our own exports, on hand-made texts with what the scan refuses, and on random texts
(with tiny chunks, so that values, names and game trees straddle chunk boundaries)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tsumego.io import sgfscan
from tsumego.io.sgf import MoveTree, SgfError, _read_scanned, _read_tokenized, read_move_tree


def both(data: bytes) -> tuple[tuple[MoveTree, bytes] | None, tuple[MoveTree, bytes] | str]:
    """(the scan's reading or None, the tokenizer's reading or its error)."""
    pos = data.find(b"(", 3 if data[:3] == b"\xef\xbb\xbf" else 0)
    exact: tuple[MoveTree, bytes] | str
    try:
        exact = _read_tokenized(data, pos, "x.sgf") if pos >= 0 else "no game"
    except SgfError as e:
        exact = str(e)
    fast = _read_scanned(data, pos) if pos >= 0 else None
    return fast, exact


def same(a: tuple[MoveTree, bytes], b: tuple[MoveTree, bytes]) -> bool:
    ta, tb = a[0], b[0]
    return (a[1] == b[1] and ta.root.props == tb.root.props and ta.color == tb.color
            and ta.point == tb.point and ta.marks == tb.marks
            and ta.first_child == tb.first_child and ta.next_sibling == tb.next_sibling
            and ta.names == tb.names and ta.refs == tb.refs)


def agree(data: bytes) -> tuple[MoveTree, bytes] | None:
    """Assert the scan reads ``data`` as the tokenizer does, or refuses it; return what it
    read."""
    fast, exact = both(data)
    if fast is not None:
        assert not isinstance(exact, str), f"the scan read a text the tokenizer refuses: {exact}"
        assert same(fast, exact)
    return fast


@pytest.fixture(params=[1 << 26, 5, 17, 64])
def chunk(request, monkeypatch):
    monkeypatch.setattr(sgfscan, "CHUNK", request.param)
    return request.param


TREE = (b"(;FF[4]GM[1]SZ[9]C[Black to play: kills]AB[aa][ba]MA[ba]TSR[B:B:0:kill:full]\n"
        b"(;B[cc]TE[1]C[a (comment; with [brackets)]\n;W[dd]\n(;B[ee]C[RIGHT])\n(;B[]KO[]))\n"
        b"(;B[ff]BM[1]\n;W[gg]C[Wrong: White captures 3 stones])\n(;B[]BM[1]\n;W[hh]))")


def test_the_scan_reads_a_tree_as_the_tokenizer_does(chunk):
    got = agree(TREE)
    assert got is not None  # the form tsumego solve -o writes is the scan's
    t = got[0]
    assert t.children(0) == [1, 5, 7] and t.children(2) == [3, 4]
    assert t.point[1:] == ["cc", "dd", "ee", "", "ff", "gg", "", "hh"]
    assert t.marks[1] == 2 and t.marks[5] == 1 and t.marks[7] == 1
    assert read_move_tree(TREE)[0].point == t.point


def test_the_scan_reads_the_first_game_only(chunk):
    data = b"junk (;SZ[5](;B[aa])(;B[bb];W[cc]))(;SZ[5];B[dd]) trailing ]]] text"
    got = agree(data)
    assert got is not None and len(got[0]) == 4


@pytest.mark.parametrize("data", [
    b"(;SZ[5];B[aa]C[x \\] y])",  # an escape
    b"(;SZ[5];B [aa])",  # a space before a value
    b"(;SZ[5];AB[aa] [bb])",  # a space between values
    b"(;SZ[5];B[aa]N[x](;W[bb])(;W[cc]TSREF[x]))",  # names and references
    b"(;SZ[5](;B[aa]);W[bb])",  # a node after a ')': the tokenizer's leniency
    b"(;SZ[5];B[aa]",  # no end
    b"(;SZ[5];B[aa]C[open)",  # a value never closed
    b"(;SZ[5]()(;B[aa]))",  # a game tree with no node
    b"(;SZ[5];B[aa]]",  # a ']' outside a value
    b"(;C[x](RIGHT]))",  # a ']' outside a value, and no '[' after the root at all
    b"(;SZ[5];B[aa]12[x])",  # not a name
    b"(;SZ[5];B[aa]ABCDEFGHIJKLMNOPQR[x])",  # a name longer than the scan looks back
    b"(;SZ[5](B[aa]))",  # a property outside a node
])
def test_the_scan_refuses_what_it_does_not_take(data, chunk):
    fast, _ = both(data)
    assert fast is None


def test_the_scan_reads_odd_moves_and_long_names_as_the_tokenizer_does(chunk):
    data = (b"(;SZ[19];B[ s ]Verylong[x]ttt[y];W[tt]W[aa];B[\xc3\xa9\xc3\xa9];W[a];B[];W[1 2]"
            b"BM[1]TE[1]BM[2])")
    got = agree(data)
    assert got is not None
    assert got[0].point[1:] == ["s", "tt", "\u00e9\u00e9", "a", "", "1 2"]
    assert got[0].marks[6] == 3


# --- random texts -------------------------------------------------------------------------

_POINTS = ["aa", "sb", "", "tt", "a", " c", "zz"]
_OTHER = [b"C[a (b; c) [d]", b"C[]", b"KO[]", b"BM[1]", b"TE[1]", b"N[x]", b"LB[aa:1][bb:2]",
          b"AB[aa][bb]", b"C[\\]]", b"FF [4]", b"W[cc]", b"XYZ[1]"]


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A random game tree below a root: sequences and variations, with odd properties and
    some spacing."""
    out = b""
    for _ in range(draw(st.integers(1, 3))):
        props = b""
        if draw(st.booleans()):
            props += b"BW"[draw(st.integers(0, 1)):][:1] + b"[" + draw(
                st.sampled_from(_POINTS)).encode() + b"]"
        for _ in range(draw(st.integers(0, 2))):
            props += draw(st.sampled_from(_OTHER))
        out += b";" + props + draw(st.sampled_from([b"", b"", b"\n", b" "]))
    if depth < 3:
        for _ in range(draw(st.integers(0, 3))):
            out += b"(" + draw(trees(depth + 1)) + b")" + draw(st.sampled_from([b"", b"\n"]))
    return out


@settings(max_examples=300, deadline=None)
@given(body=trees(), cut=st.integers(0, 3), size=st.sampled_from([3, 8, 16, 40, 1 << 20]))
def test_the_scan_agrees_with_the_tokenizer_on_random_trees(body, cut, size):
    old = sgfscan.CHUNK
    sgfscan.CHUNK = size
    try:
        data = b"(;FF[4]SZ[19]" + body + b")"
        if cut:
            data = data[:-cut]  # (often no longer a game)
        agree(data)
        # and whatever the scan does, read_move_tree reads what the tokenizer reads
        fast, exact = both(data)
        if isinstance(exact, str):
            with pytest.raises(SgfError):
                read_move_tree(data, "x.sgf")
        else:
            assert same(read_move_tree(data, "x.sgf"), exact)
    finally:
        sgfscan.CHUNK = old


def test_the_scan_takes_the_random_trees_without_what_it_refuses():
    """The random texts the scan reads are not only the trivial ones: with no escapes,
    spacing or names, it reads them all."""
    data = (b"(;FF[4]SZ[19];B[aa]C[x (y) ;z [w)]\n(;W[bb]LB[aa:1][bb:2]\n;B[]KO[])"
            b"(;W[cc](;B[dd])(;B[ee]TE[1]))\n(;W[]BM[1]))")
    for size in (3, 8, 16, 40, 1 << 20):
        old = sgfscan.CHUNK
        sgfscan.CHUNK = size
        try:
            assert agree(data) is not None
        finally:
            sgfscan.CHUNK = old


def _ends_by_walk(t: MoveTree) -> list[int]:
    """Each node's subtree end, by walking the tree (the definition)."""
    ends = [0] * len(t)

    def walk(i: int) -> int:
        end = i + 1
        for c in t.children(i):
            end = walk(c)
        ends[i] = end
        return end

    walk(0)
    return ends


@settings(max_examples=100, deadline=None)
@given(body=trees(), piece=st.sampled_from([1, 3, 1 << 22]))
def test_subtree_ends_by_pointer_jumping_are_the_walk_s(body, piece):
    import tsumego.io.sgf as sgf_module
    old = sgf_module._SLICE
    sgf_module._SLICE = piece
    try:
        data = b"(;FF[4]SZ[19]" + body.replace(b"\\", b"").replace(b"N[x]", b"") + b")"
        try:
            t = read_move_tree(data, "x.sgf")[0]
        except SgfError:
            return
        assert list(t.subtree_ends()) == _ends_by_walk(t)
    finally:
        sgf_module._SLICE = old


def test_points_read_by_the_scan_take_two_bytes_a_node_and_read_as_strings():
    data = b"(;SZ[19];B[aa];W[];B[sS];W[ZZ];B[t t];W[q])"
    t = agree(data)[0]
    assert isinstance(t.point, sgfscan.Points) and t.point.codes.itemsize == 2
    assert list(t.point) == ["", "aa", "", "sS", "ZZ", "t t", "q"]
    assert t.point[-1] == "q" and t.point[2:4] == ["", "sS"]
    assert t.point == ["", "aa", "", "sS", "ZZ", "t t", "q"] != t.point[:-1]
    # spans tell the points apart, the odd ones included
    spans = {t.point.span_bytes(i, j) for i in range(7) for j in range(i + 1, 8)}
    assert len(spans) == len({tuple(t.point[i:j]) for i in range(7) for j in range(i + 1, 8)})


def test_an_interrupted_scan_of_a_mapped_file_raises_what_stopped_it(tmp_path, monkeypatch):
    """Ctrl-C (or a kill that unwinds like it) during the scan of a mapped file stops the read
    with that, not with the map refusing to close under the scan's views of it."""
    from tsumego.io.sgf import read_move_tree_file

    path = tmp_path / "t.sgf"
    path.write_bytes(TREE)

    def stop(self, skind):
        raise KeyboardInterrupt

    monkeypatch.setattr(sgfscan._Scanner, "link", stop)
    with pytest.raises(KeyboardInterrupt):
        read_move_tree_file(path)
