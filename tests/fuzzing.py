"""Inputs for the fuzz tests (``tests/io/test_fuzz.py``): SGF text made from a grammar of the
properties the readers know (long repeated comments and deep nesting among them), real files
cut and changed at random, and random boards.

The strategies give bytes (SGF) or boards; what a reader must do with them is the test's."""

from __future__ import annotations

import functools
from pathlib import Path

from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
SEED_FILES = sorted((REPO / "problems").glob("*.sgf")) + sorted(
    (REPO / "problems" / "plain").glob("*.sgf")) + sorted(
    (REPO / "tests" / "verify_data" / "book").glob("*.sgf"))


@functools.cache
def seeds() -> tuple[bytes, ...]:
    """Real files: the bundled problems, the verify collection, and full and compact solution
    trees of three small problems (made here, so that they follow the writer)."""
    from tsumego.go.board import BLACK, WHITE
    from tsumego.io.sgf import parse_problem
    from tsumego.proofs.export import sgf_text
    from tsumego.proofs.tree import build_tree
    from tsumego.search.solver import solve

    out = [p.read_bytes() for p in SEED_FILES]
    for name in ("straight-three", "bent-three", "one-eye"):
        pf = parse_problem((REPO / "problems" / f"{name}.sgf").read_bytes(), name)
        sols = [solve(pf.problem, to_play=c, max_nodes=20_000) for c in (BLACK, WHITE)]
        for mode in ("full", "compact"):
            tree = build_tree(pf.problem, to_play=pf.problem.to_play, balance=0, mode=mode,
                              max_nodes=10_000, time_limit=30)
            out.append("".join(sgf_text(tree, None, sols, "fuzz")).encode("utf-8"))
    return tuple(out)


# --- SGF from a grammar -----------------------------------------------------------------------

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
small_letter = st.sampled_from("abcdefghijklmnopqrs")

point = st.one_of(
    st.tuples(small_letter, small_letter).map("".join),  # on a 19x19 board
    st.tuples(st.sampled_from(LETTERS), st.sampled_from(LETTERS)).map("".join),
    st.just("tt"), st.just(""),
    st.tuples(small_letter, small_letter, small_letter, small_letter).map(
        lambda t: f"{t[0]}{t[1]}:{t[2]}{t[3]}"),  # a compressed point list
    st.text(alphabet="ab:[]\\;()x\n", max_size=5),
)
size_value = st.one_of(
    st.integers(min_value=-5, max_value=25).map(str),
    st.sampled_from(["0", "-3", "99999", "19:5", "5:5", "7:19", "", "x", "1e3", " 9 ",
                     "9\\]", "٩", "00000000000000000000000000019"]),
)
# long comments of words the readers look for, repeated: a pattern that backtracks over them
# shows as a run that takes seconds (TSUMEGO_FUZZ_EXAMPLES runs have a deadline)
repeated = st.tuples(
    st.sampled_from(["black ", "white to ", "can black ", "Black\t", "to play and ", " ",
                     "black.", "live ", "\\]", "x"]),
    st.integers(min_value=1, max_value=4000)).map(lambda t: t[0] * t[1])
text_value = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["Black to play", "White to live", "RIGHT", "Correct.", "ko",
                     "Black to kill\\]x", "\\", "a\\\nb"]),
    repeated,
)
PROPS = {
    "SZ": size_value, "AB": point, "AW": point, "AE": point, "MA": point, "SQ": point,
    "B": point, "W": point, "PL": st.sampled_from(["B", "W", "b", "", "X", "white"]),
    "C": text_value, "N": text_value, "TSR": st.sampled_from(
        ["B:B:0:kill:full", "W:W:0:live:compact", "B:W:0:live:full", "B:B:x:kill:full",
         "B:B:0:kill", "Q:B:0:kill:full", "B:B:0:kill:readable", "", "W:B:2:seki:full:pass-alive",
         "B:B:0:ko:full:live", "W:W:0:kill:full", "B:B:5:kill:full", "B:B:0:dead:full"]),
    "TSREF": st.sampled_from(["T1", "T2", "T0", ""]), "BM": st.just("1"),
    "TE": st.just("1"), "FF": st.sampled_from(["4", "3", "x"]), "GM": st.sampled_from(
        ["1", "2"]), "CA": st.sampled_from(["UTF-8", "ISO-8859-1", "utf-16", "foo", ""]),
    "KM": st.sampled_from(["6.5", "x"]), "LB": st.just("aa:x"), "XX": text_value,
}
prop = st.sampled_from(sorted(PROPS)).flatmap(
    lambda ident: st.tuples(st.just(ident), st.lists(PROPS[ident], min_size=1, max_size=4)))


def _node(props: list[tuple[str, list[str]]]) -> str:
    # values are written as drawn, unescaped: bad escapes are part of the input
    return ";" + "".join(ident + "".join(f"[{v}]" for v in values)
                         for ident, values in props)


node = st.lists(prop, max_size=5).map(_node)


def _tree(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(st.lists(node, min_size=1, max_size=4),
                     st.lists(children, max_size=3)).map(
        lambda t: "(" + "".join(t[0]) + "".join(t[1]) + ")")


game = st.recursive(
    st.lists(node, min_size=1, max_size=3).map(lambda ns: "(" + "".join(ns) + ")"),
    _tree, max_leaves=12)

root_setup = st.tuples(
    st.sampled_from(["", "FF[4]", "GM[1]FF[4]"]),
    st.one_of(st.integers(min_value=2, max_value=19).map(lambda n: f"SZ[{n}]"),
              size_value.map(lambda v: f"SZ[{v}]"), st.just("")),
    st.lists(st.tuples(st.sampled_from(["AB", "AW", "MA", "SQ", "AE"]),
                       st.lists(point, min_size=1, max_size=8)), max_size=6).map(_node),
)


def _problem_like(t: tuple[tuple[str, str, str], str]) -> str:
    (ff, sz, setup), rest = t
    body = rest[1:] if rest.startswith("(") else rest + ")"
    return "(;" + ff + sz + setup[1:] + body


problem_like = st.tuples(root_setup, game).map(_problem_like)


def _encode(text: str, how: int) -> bytes:
    if how == 0:
        return text.encode("utf-8")
    if how == 1:
        return text.encode("latin-1", "replace")
    return text.encode("utf-16-le", "surrogatepass")


# variations nested deep, closed or not, below a problem
nested = st.tuples(st.sampled_from(range(len(SEED_FILES[:5]))),
                   st.integers(min_value=1, max_value=3000), st.booleans()).map(
    lambda t: SEED_FILES[t[0]].read_bytes().rstrip().rstrip(b")") + b"(;B[aa]" * t[1]
    + (b")" * (t[1] + 2) if t[2] else b""))
sgf_text = st.tuples(st.one_of(game, problem_like), st.sampled_from([0, 0, 0, 1, 2])).map(
    lambda t: _encode(*t)) | nested


# --- real files changed ------------------------------------------------------------------------

JUNK = [b"(", b")", b";", b"[", b"]", b"\\", b"(;", b")(", b"B[aa]", b"W[]", b"AB[zz]",
        b"MA[aa]", b"SZ[0]", b"SZ[-3]", b"SZ[99999]", b"SZ[19:5]", b"PL[W]", b"\xff\xfe",
        b"\xc3", b"\x00", b"\n", b"TSREF[T1]", b"N[T1]", b"TSR[B:B:0:kill:full]", b"C[",
        b"\xef\xbb\xbf", b"CA[UTF-16]", b"AE[aa]"]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A real file with a few random changes: cut short, bytes flipped, pieces inserted,
    removed or repeated."""
    data = bytearray(draw(st.sampled_from(range(len(seeds()))).map(lambda i: seeds()[i])))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.integers(min_value=0, max_value=5))
        n = len(data)
        at = draw(st.integers(min_value=0, max_value=n))
        if kind == 0:  # cut short
            del data[at:]
        elif kind == 1 and n:  # a byte changed
            data[min(at, n - 1)] = draw(st.integers(min_value=0, max_value=255))
        elif kind == 2:  # a piece of SGF inserted
            data[at:at] = draw(st.sampled_from(JUNK))
        elif kind == 3:  # a range removed
            end = draw(st.integers(min_value=at, max_value=min(n, at + 40)))
            del data[at:end]
        elif kind == 4:  # a range repeated
            end = draw(st.integers(min_value=at, max_value=min(n, at + 40)))
            data[at:at] = data[at:end] * draw(st.integers(min_value=1, max_value=3))
        else:  # random bytes inserted
            data[at:at] = draw(st.binary(max_size=8))
    return bytes(data)


any_sgf = st.one_of(sgf_text, mutated(), st.binary(max_size=64))


# --- random boards -----------------------------------------------------------------------------

@st.composite
def board_setup(draw: st.DrawFn) -> tuple[int, dict[int, int], list[int], list[int], int]:
    """(size, point -> colour, marked points, SQ points, side to play): any stones, some
    possibly without liberties, marks possibly on empty points."""
    size = draw(st.integers(min_value=2, max_value=19))
    n = size * size
    pts = st.integers(min_value=0, max_value=n - 1)
    stones = draw(st.dictionaries(pts, st.sampled_from([1, 2]), max_size=min(n, 40)))
    marked = draw(st.lists(st.one_of(pts, st.sampled_from(sorted(stones)) if stones
                                     else pts), max_size=3))
    squares = draw(st.lists(pts, max_size=3))
    to_play = draw(st.sampled_from([1, 2]))
    return size, stones, marked, squares, to_play
