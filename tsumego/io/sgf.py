"""Reading problems from SGF, and SGF trees in and out. The only module that talks to sgfmill.

Problems and books are read with sgfmill. Solution trees, which run to millions of nodes, are
written piece by piece (:func:`serialize_chunks`) and read for checking by a small parser of
its own into flat arrays (:func:`read_move_tree`: numpy's scan of :mod:`tsumego.io.sgfscan` where
it takes the file, else a tokenizer)."""

from __future__ import annotations

import mmap
import re
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import numpy as np
from sgfmill import sgf as _sgf
from sgfmill import sgf_properties as _sgf_properties

from tsumego.go.board import BLACK, WHITE, Board
from tsumego.go.coords import PASS
from tsumego.go.problem import Problem, ProblemError, make_problem
from tsumego.io import sgfscan
from tsumego.io.sgfscan import Points
from tsumego.knowledge.infer import COMMENT_HEAD, Inference, TooOpen, infer_with_overrides

N = TypeVar("N")


class SgfError(ProblemError):
    """A file that cannot be read as a problem. The message names the file."""


@dataclass(frozen=True)
class ProblemFile:
    """A problem as read from a file, with what the book says about it."""

    path: str
    problem: Problem
    stated_moves: tuple[int, ...]  # first moves of the book's variations (may be empty)
    pl_given: bool  # whether the file had PL (else rules.md's fallbacks decided)
    comment: str
    inferred: Inference | None = None  # what was inferred for a plain problem (no MA)
    # the frame stones: those added around a plain problem, or the attacker stones a file
    # dims (DD), as a solution tree of a framed problem does
    frame: int = 0


class TooOpenFile(SgfError):
    """A plain problem whose inferred region is too open for a life-and-death problem
    (:class:`tsumego.knowledge.infer.TooOpen`). ``file`` is that reading, framed, for a caller
    that tries the position's other readings before it gives up; ``empty`` is its region's
    number of empty points."""

    def __init__(self, message: str, file: ProblemFile, empty: int) -> None:
        super().__init__(message)
        self.file = file
        self.empty = empty


# (the words between the colour and the verb are bounded: from each colour an unbounded gap
# was searched to the end of its sentence, quadratic in a long comment without a full stop)
_SIDE_IN_COMMENT = re.compile(r"\b(black|white)\b[^.\n]{0,200}?\b(to play|to move|to live|"
                              r"to kill|"
                              r"plays|moves|to capture|to save|lives|kills)|"
                              r"\b(?:can|how does|how can|how should|should)\s+(black|white)\s+"
                              r"(?:still\s+)?(?:live|kill|capture|save|play|make)\b", re.I)


def _parse_bytes(data: bytes, path: str) -> _sgf.Sgf_game:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not data.strip():
        raise SgfError(f"{path}: not an SGF file (empty)")
    try:
        return _sgf.Sgf_game.from_bytes(data)
    except ValueError as e:
        msg = str(e)
        size = _SGFMILL_SIZE.fullmatch(msg)
        if size:  # sgfmill checks SZ as it parses
            value = size.group(1) or size.group(2)
            raise SgfError(f"{path}: bad board size SZ[{value}] (a square board of 2 to 19 "
                           f"lines is needed)") from None
        raise SgfError(f"{path}: not an SGF file ({msg})") from None


# our own root property: the region of a solution tree of a framed problem, stated because
# it was cut to the frame's zone and is not the region rules.md 1 derives
REGION = "TSREGION"
_SGFMILL_SIZE = re.compile(r"size out of range: (.*)|bad SZ property: b'(.*)'")
_POINTS = ("AB", "AW", "AE", "MA", "SQ")


class _NotAPoint(ValueError):
    """A value of a point list read here (``TSREGION``, ``DD``) that is not a point."""


def _bad_point(nodes: Sequence[_sgf.Tree_node], moves: Sequence[_sgf.Tree_node],
               size: int) -> str | None:
    """The first value of a point property of ``nodes`` (or a move of ``moves``) that is
    not a point, a rectangle of points or (for a move) a pass of the board, as written."""
    for node, idents in [(n, _POINTS) for n in nodes] + [(m, ("B", "W")) for m in moves]:
        for ident in idents:
            if not node.has_property(ident):
                continue
            for raw in node.get_raw_list(ident):
                a, colon, b = raw.partition(b":")
                p = _go_point(a, size)
                q = _go_point(b, size) if colon else p
                if ident in ("B", "W") and not colon and (not raw or raw == b"tt"):
                    continue  # a pass
                if p is None or q is None or q[0] > p[0] or p[1] > q[1]:
                    return f"{ident}[{_shown(raw)}]"
    return None


def _shown(raw: bytes, limit: int = 20) -> str:
    """A value of the file as a message shows it: on one line, cut after ``limit``
    characters."""
    text = raw.decode("utf-8", "replace")
    short = text[:limit] + ("..." if len(text) > limit else "")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in short)


def _go_point(raw: bytes, size: int) -> tuple[int, int] | None:
    """sgfmill's (row, column) of a point value, None for a pass or a value that is not one."""
    try:
        pt: tuple[int, int] | None = _sgf_properties.interpret_go_point(raw, size)
    except ValueError:
        return None
    return pt


def _point(node_pt: tuple[int, int], size: int) -> int:
    row, col = node_pt  # sgfmill: (row from the bottom, column)
    return (size - 1 - row) * size + col


def file_error(path: str | Path, e: OSError) -> SgfError:
    """The one wording, for every command, of a file that cannot be read."""
    name = str(path)
    if isinstance(e, FileNotFoundError):
        return SgfError(f"{name}: file not found")
    if isinstance(e, IsADirectoryError):
        return SgfError(f"{name}: is a directory, not an SGF file")
    if isinstance(e, PermissionError):
        return SgfError(f"{name}: cannot read (permission denied)")
    return SgfError(f"{name}: cannot read ({e.strerror or e})")


def read_sgf_bytes(path: str | Path) -> bytes:
    """The bytes of an SGF file. Raises :class:`SgfError` worded by :func:`file_error`."""
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise file_error(path, e) from None


def read_problem(path: str | Path) -> ProblemFile:
    """Read a marked problem file. Raises :class:`SgfError` (a ProblemError) with a one-line
    message that names the file for every way the file can be bad."""
    return parse_problem(read_sgf_bytes(path), str(path))


@dataclass(frozen=True)
class SgfPosition:
    """An SGF game as a position: the board before the first move (the setup of the root
    and of the move-less nodes after it), the markup of a problem, the side to play (with
    rules.md's fallbacks) and the moves of the main line."""

    name: str
    board: Board
    targets: tuple[int, ...]  # MA points
    squares: tuple[int, ...]  # SQ points
    to_play: int
    pl_given: bool  # whether the file had PL (else rules.md's fallbacks decided)
    comment: str
    stated: tuple[int, ...]  # first moves of the variations by the side to play
    main_line: tuple[tuple[int, int], ...]  # (colour, point or PASS) along first children
    region: int | None = None  # the region the file states (TSREGION), as a mask
    dimmed: int = 0  # the points the file dims (DD): a written tree's frame stones

    @property
    def size(self) -> int:
        return self.board.size


def parse_position(data: bytes, name: str = "<sgf>") -> SgfPosition:
    """The first game of ``data`` as a position. Raises :class:`SgfError`."""
    game = _parse_bytes(data, name)
    root = game.get_root()
    try:
        size = game.get_size()
    except ValueError as e:
        raise SgfError(f"{name}: bad board size ({e})") from None
    if root.has_property("SZ"):
        raw = root.get_raw("SZ").decode("ascii", "replace")
        if ":" in raw:
            raise SgfError(f"{name}: the board is not square (SZ[{raw}])")
    if not 2 <= size <= 19:
        raise SgfError(f"{name}: board size {size} is not supported (2..19)")
    try:
        board = Board(size)
        setup_nodes = [root]
        node = root
        while len(node) > 0:
            child = node[0]
            if child.get_move()[0] is not None or child.has_property("B") or child.has_property(
                    "W"):
                break
            setup_nodes.append(child)
            node = child
        targets: list[int] = []
        squares: list[int] = []
        region: int | None = None
        dimmed = 0
        pl: int | None = None
        comment = ""
        for nd in setup_nodes:
            blacks, whites, empties = nd.get_setup_stones()
            for pt in empties:
                board.remove(_point(pt, size))
            for pt in blacks:
                board.place(_point(pt, size), BLACK)
            for pt in whites:
                board.place(_point(pt, size), WHITE)
            if nd.has_property("MA"):
                targets.extend(_point(pt, size) for pt in nd.get("MA"))
            if nd.has_property("SQ"):
                squares.extend(_point(pt, size) for pt in nd.get("SQ"))
            if nd.has_property("DD"):
                for raw in nd.get_raw_list("DD"):
                    dimmed |= _stated_region([raw], size, "DD") if raw else 0
            if nd.has_property(REGION):
                region = (region or 0) | _stated_region(nd.get_raw_list(REGION), size, REGION)
            if nd.has_property("PL"):
                raw_pl = nd.get_raw("PL").strip().upper()
                if raw_pl in (b"B", b"W"):  # an empty PL[] counts as missing
                    pl = BLACK if raw_pl == b"B" else WHITE
            if nd.has_property("C") and not comment:
                comment = nd.get("C")
        stated: list[int] = []
        stated_color: int | None = None
        for child in node:
            color, move = child.get_move()
            if color is None:
                continue
            c = BLACK if color == "b" else WHITE
            if stated_color is None:
                stated_color = c
            if c == stated_color:
                stated.append(PASS if move is None else _point(move, size))
        main: list[tuple[int, int]] = []
        line = node
        while len(line) > 0:
            line = line[0]
            color, move = line.get_move()
            if color is not None:
                main.append((BLACK if color == "b" else WHITE,
                             PASS if move is None else _point(move, size)))
    except _NotAPoint as e:
        raise SgfError(f"{name}: {e} is not a point of the {size}x{size} board") from None
    except ValueError as e:
        bad = _bad_point(setup_nodes, list(node), size)
        if bad is not None:
            raise SgfError(f"{name}: {bad} is not a point of the {size}x{size} board") from None
        raise SgfError(f"{name}: bad property value ({e})") from None
    pl_given = pl is not None
    if pl is None:
        if stated_color is not None:
            pl = stated_color
        else:
            m = _SIDE_IN_COMMENT.search(comment[:COMMENT_HEAD])
            named = (m.group(1) or m.group(3)) if m else None
            pl = (BLACK if named.lower() == "black" else WHITE) if named else BLACK
    if stated_color is not None and stated_color != pl:
        stated = []  # the book's moves are for the other side
    return SgfPosition(name, board, tuple(targets), tuple(squares), pl, pl_given, comment,
                       tuple(stated), tuple(main), region, dimmed)


def _stated_region(raws: Sequence[bytes], size: int, ident: str) -> int:
    """The mask of the points (and rectangles ``aa:cc``) of a property of point lists
    (``TSREGION``, ``DD``). Raises :class:`SgfError` for a value that is not a point of the
    board."""
    mask = 0
    for raw in raws:
        a, colon, b = raw.partition(b":")
        p = _go_point(a, size)
        q = _go_point(b, size) if colon else p
        if p is None or q is None or q[0] > p[0] or p[1] > q[1]:
            raise _NotAPoint(f"{ident}[{_shown(raw)}]")
        for row in range(q[0], p[0] + 1):
            for col in range(p[1], q[1] + 1):
                mask |= 1 << _point((row, col), size)
    return mask


def parse_problem(data: bytes, name: str = "<sgf>", *, goal: str | None = None,
                  target: str | None = None, region: str | None = None) -> ProblemFile:
    """Parse SGF bytes as a problem (see :func:`read_problem`). A file without ``MA`` is a
    plain problem: :mod:`tsumego.knowledge.infer` infers and frames it. ``goal`` (kill/live, for
    the side to play), ``target`` (points) and ``region`` (points or a rectangle) override the
    file and the inference."""
    return problem_of(parse_position(data, name), goal=goal, target=target, region=region)


def problem_of(pos: SgfPosition, *, to_play: int | None = None, goal: str | None = None,
               target: str | None = None, region: str | None = None) -> ProblemFile:
    """The problem of a position (``to_play``: another side to play than the file's; the
    other arguments as for :func:`parse_problem`). Raises :class:`SgfError`."""
    name = pos.name
    pl = pos.to_play if to_play is None else to_play
    stated = pos.stated if pl == pos.to_play else ()
    if pos.region is not None and not pos.targets:
        raise SgfError(f"{name}: the file states a region ({REGION}) but marks no target (MA)")
    if not pos.targets or goal is not None or target is not None or region is not None:
        try:
            problem, inferred = infer_with_overrides(
                pos.board, pl, pos.comment, marked=pos.targets, squares=pos.squares, goal=goal,
                target=target, region=region, name=name, stated_region=pos.region)
        except TooOpen as e:
            raise TooOpenFile(f"{name}: {e}", ProblemFile(
                name, e.problem, stated, pos.pl_given, pos.comment, e.inferred,
                e.inferred.frame), e.empty) from None
        except (ProblemError, ValueError) as e:
            raise SgfError(f"{name}: {e}") from None
        return ProblemFile(name, problem, stated, pos.pl_given, pos.comment, inferred,
                           inferred.frame if inferred.framed else
                           pos.dimmed & problem.board().stones(problem.attacker))
    try:
        problem = make_problem(pos.board, pos.targets, to_play=pl, squares=pos.squares,
                               name=name, region=pos.region)
    except ProblemError as e:
        raise SgfError(f"{name}: {e}") from None
    return ProblemFile(name, problem, stated, pos.pl_given, pos.comment,
                       frame=pos.dimmed & problem.board().stones(problem.attacker))


# --- plain trees, for the modules that read books and write solutions ------------------------

@dataclass
class SgfNode:
    """One SGF node as plain data: property identifiers to lists of raw string values (as
    sgfmill decodes them: text unescaped, points as SGF letters), and the children."""

    props: dict[str, list[str]]
    children: list[SgfNode]

    def get(self, ident: str, default: str | None = None) -> str | None:
        v = self.props.get(ident)
        return v[0] if v else default

    def move(self) -> tuple[str, str] | None:
        """("B"|"W", SGF point or "" for a pass) if the node has a move."""
        for c in ("B", "W"):
            if c in self.props:
                return c, self.props[c][0] if self.props[c] else ""
        return None


def read_tree(data: bytes, name: str = "<sgf>") -> SgfNode:
    """The whole first game of ``data`` as a plain :class:`SgfNode` tree (iteratively safe for
    deep trees). Raises :class:`SgfError`."""
    game = _parse_bytes(data, name)
    root = game.get_root()
    out = SgfNode({}, [])
    stack = [(root, out)]
    while stack:
        src, dst = stack.pop()
        for ident in src.properties():
            raw = src.get_raw_list(ident)
            dst.props[ident] = [_unescape(v) for v in raw]
        for c in src:
            child = SgfNode({}, [])
            dst.children.append(child)
            stack.append((c, child))
    return out


# --- flat move trees: what a checker needs of a tree too large for SgfNode objects ----------

# (a value is written as runs of plain bytes between escapes: the same texts as the plain
# "(?:[^\]\\]|\\.)*", read several times faster, which a comment of megabytes shows)
_TOKEN = re.compile(rb"\s*(?:([();])|([A-Za-z]+)\s*((?:\[[^\]\\]*(?:\\.[^\]\\]*)*\]\s*)+))",
                    re.S)
_VALUE = re.compile(rb"\[([^\]\\]*(?:\\.[^\]\\]*)*)\]", re.S)
NO_MOVE, MOVE_B, MOVE_W = 0, 1, 2  # MoveTree.color
MARK_BM, MARK_TE = 1, 2  # MoveTree.marks


@dataclass
class MoveTree:
    """The moves of an SGF game tree in flat arrays, a few bytes a node (node 0 is the root;
    the nodes are in preorder): each node's move (the first of ``B``, ``W`` in it), its
    ``BM``/``TE`` marks, its name (``N``) and reference (``TSREF``, in compact trees) and
    its children in order. Other properties of the nodes below the root are not kept."""

    root: SgfNode  # the root's properties (no children)
    color: bytearray  # NO_MOVE, MOVE_B or MOVE_W
    point: list[str] | Points  # the move's SGF point, "" for a pass
    marks: bytearray  # MARK_BM | MARK_TE
    first_child: array[int]
    next_sibling: array[int]
    # compact trees: node names (``N``) -> nodes, and nodes -> the name in their ``TSREF``
    names: dict[str, list[int]] = field(default_factory=dict)
    refs: dict[int, str] = field(default_factory=dict)

    def children(self, i: int) -> list[int]:
        out = []
        c = self.first_child[i]
        while c >= 0:
            out.append(c)
            c = self.next_sibling[c]
        return out

    def __len__(self) -> int:
        return len(self.color)

    def subtree_ends(self) -> array[int]:
        """For each node, the index just past its subtree (nodes are kept in preorder): one
        past its last descendant, found by pointer jumping (a node's last child is the last
        sibling of its first child): a few passes of numpy over the nodes where a loop over
        them took minutes on trees of hundreds of millions of nodes, in two arrays of the
        nodes' links' size (the jumps are made in place, a slice at a time)."""
        n = len(self.color)
        kind = np.dtype(f"i{self.first_child.itemsize}")
        first = np.frombuffer(self.first_child, dtype=kind)[:n]
        nxt = np.frombuffer(self.next_sibling, dtype=kind)[:n]
        last = np.empty(n, dtype=kind)  # each node's last sibling
        for a in range(0, n, _SLICE):
            b = min(n, a + _SLICE)
            last[a:b] = np.where(nxt[a:b] >= 0, nxt[a:b], np.arange(a, b, dtype=kind))
        _settle(last)
        ends = array(self.first_child.typecode, bytes(n * kind.itemsize))
        deepest = np.frombuffer(ends, dtype=kind)
        for a in range(0, n, _SLICE):
            b = min(n, a + _SLICE)
            f = first[a:b]
            deepest[a:b] = np.where(f >= 0, last[np.maximum(f, 0)], np.arange(a, b, dtype=kind))
        del last
        _settle(deepest)
        deepest += 1
        del deepest
        return ends

    @classmethod
    def empty(cls, root_props: dict[str, list[str]]) -> MoveTree:
        """A tree with no nodes yet (node 0, the root, is added first)."""
        return cls(SgfNode(root_props, []), bytearray(), [], bytearray(), array("i"),
                   array("i"))

    @classmethod
    def from_node(cls, root: SgfNode) -> MoveTree:
        """The flat form of an :class:`SgfNode` tree."""
        t = cls.empty(dict(root.props))
        last = array("i")
        stack: list[tuple[SgfNode, int]] = [(root, -1)]
        while stack:
            node, parent = stack.pop()
            i = t._add(parent, last)
            if i:
                mv = node.move()
                if mv is not None:
                    t.color[i] = MOVE_B if mv[0] == "B" else MOVE_W
                    t.point[i] = mv[1]  # type: ignore[index]  # (a list: from empty())
                t.marks[i] = ("BM" in node.props) * MARK_BM | ("TE" in node.props) * MARK_TE
                t._name(i, node.props.get("N", []), node.props.get("TSREF", []))
            stack.extend((c, i) for c in reversed(node.children))
        return t

    def _name(self, i: int, names: list[str], refs: list[str]) -> None:
        for n in names:
            self.names.setdefault(n, []).append(i)
        if refs:
            self.refs[i] = refs[0]

    def _add(self, parent: int, last: array[int]) -> int:
        i = len(self.color)
        self.color.append(NO_MOVE)
        points = self.point
        if not isinstance(points, list):
            raise TypeError("a tree read by the scan takes no more nodes")
        points.append("")
        self.marks.append(0)
        self.first_child.append(-1)
        self.next_sibling.append(-1)
        last.append(-1)
        if parent >= 0:
            if self.first_child[parent] < 0:
                self.first_child[parent] = i
            else:
                self.next_sibling[last[parent]] = i
            last[parent] = i
        return i


_SLICE = 1 << 22  # nodes a pass of subtree_ends() takes at a time


def _settle(step: np.ndarray) -> None:
    """Follow ``step`` (node -> node further along its chain; a node that stays put is an end)
    from every node to its end, in place: each pass sets every node to where its node
    points, a slice at a time (a node may then jump further than by doubling: it still only
    moves along its chain, so the passes end, at the ends, as doubling does)."""
    while True:
        moved = False
        for a in range(0, len(step), _SLICE):
            part = step[a:a + _SLICE]
            nxt = step[part]
            if not moved and not np.array_equal(nxt, part):
                moved = True
            part[:] = nxt
        if not moved:
            return


def read_move_tree_file(path: str | Path) -> tuple[MoveTree, bytes]:
    """:func:`read_move_tree` of the file at ``path`` (errors name it), mapped rather than
    read, so that the text of a tree of millions of nodes (about 21 bytes a node) stays in
    the page cache instead of the process's memory. Raises :class:`SgfError` (a file that
    cannot be read too, worded by :func:`file_error`)."""
    return _mapped(path, read_move_tree)


def read_move_games_file(path: str | Path) -> list[tuple[MoveTree, bytes]]:
    """:func:`read_move_games` of the file at ``path``, mapped as by
    :func:`read_move_tree_file`."""
    return _mapped(path, read_move_games)


_R = TypeVar("_R")


def _mapped(path: str | Path, read: Callable[[bytes | mmap.mmap, str], _R]) -> _R:
    """``read(data, name)`` of the file at ``path``, mapped (read, where it is empty)."""
    label = str(path)
    try:
        f = open(path, "rb")
    except OSError as e:
        raise file_error(path, e) from None
    with f:
        try:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            return read(f.read(), label)
        try:
            return read(data, label)
        finally:
            try:
                data.close()
            except BufferError:
                pass  # an exception's frames still hold views of it: it closes when they go


def read_move_tree(data: bytes | mmap.mmap, name: str = "<sgf>") -> tuple[MoveTree, bytes]:
    """The first game of ``data`` as a :class:`MoveTree`, and its root node alone as a game
    (for :func:`parse_problem`). A parser of its own, not sgfmill's, so that trees of millions
    of nodes take little memory: :func:`tsumego.io.sgfscan.scan` where it takes the file (a full
    tree of 584,538 nodes, 15 MB: 1.6 s instead of 6.2), else a token at a time. Raises
    :class:`SgfError`."""
    tree, root, _ = _read_game(data, _first_game(data, name), name)
    return tree, root


def read_move_games(data: bytes | mmap.mmap,
                    name: str = "<sgf>") -> list[tuple[MoveTree, bytes]]:
    """Every game of the collection ``data`` in order, each read as :func:`read_move_tree`
    reads the first (anything between two games is skipped up to the next ``(``). Raises
    :class:`SgfError`; an error in game N after the first names it ``name#N``."""
    pos = _first_game(data, name)
    games: list[tuple[MoveTree, bytes]] = []
    while pos >= 0:
        label = f"{name}#{len(games)}" if games else name
        tree, root, end = _read_game(data, pos, label)
        games.append((tree, root))
        pos = data.find(b"(", end)
    return games


def _first_game(data: bytes | mmap.mmap, name: str) -> int:
    """The byte where the first game of ``data`` begins (its ``(``)."""
    pos = data.find(b"(", 3 if data[:3] == b"\xef\xbb\xbf" else 0)
    if pos < 0:
        raise SgfError(f"{name}: not an SGF file (no game)")
    return pos


def _read_game(data: bytes | mmap.mmap, pos: int, name: str) -> tuple[MoveTree, bytes, int]:
    """The game that begins at byte ``pos``: its tree, its root node alone as a game, and
    the byte just past its closing parenthesis."""
    fast = _scanned(data, pos)
    if fast is not None:
        return fast
    return _tokenized(data, pos, name)


def _read_tokenized(data: bytes | mmap.mmap, pos: int, name: str) -> tuple[MoveTree, bytes]:
    """:func:`read_move_tree` of the game that begins at byte ``pos``, a token at a time: the
    exact reader, which words the errors."""
    tree, root, _ = _tokenized(data, pos, name)
    return tree, root


def _read_scanned(data: bytes | mmap.mmap, pos: int) -> tuple[MoveTree, bytes] | None:
    """:func:`read_move_tree` of the game that begins at byte ``pos`` by
    :func:`tsumego.io.sgfscan.scan` (the root node by the tokenizer), or None where the scan does
    not take the file (then the tokenizer reads it all)."""
    got = _scanned(data, pos)
    return None if got is None else (got[0], got[1])


def _tokenized(data: bytes | mmap.mmap, pos: int, name: str) -> tuple[MoveTree, bytes, int]:
    """:func:`_read_game` by the tokenizer."""
    t = MoveTree.empty({})
    last = array("i")
    stack: list[int] = []  # the current node at each open "("
    cur = -1
    root_start = root_end = -1
    props = t.root.props
    intern = sys.intern
    while True:
        m = _TOKEN.match(data, pos)
        if m is None:
            what = ("unterminated game" if not data[pos:].strip()
                    else f"unexpected text at byte {pos}")
            raise SgfError(f"{name}: not an SGF file ({what})")
        pos = m.end()
        tok = m.group(1)
        if tok is not None:
            if root_start >= 0 > root_end:
                root_end = m.start(1)
            if tok == b"(":
                stack.append(cur)
            elif tok == b")":
                if not stack:
                    raise SgfError(f"{name}: not an SGF file (unbalanced parentheses)")
                cur = stack.pop()
                if not stack:
                    break
            else:
                if not stack or (cur < 0 and len(t.color)):
                    raise SgfError(f"{name}: not an SGF file (a node outside the game tree)")
                if cur < 0:
                    root_start = m.start(1)
                cur = t._add(cur, last)
            continue
        if cur < 0:
            raise SgfError(f"{name}: not an SGF file (a property outside a node)")
        ident = m.group(2)
        if cur == 0:
            _add_property(props, m)
        elif ident == b"B" or ident == b"W":
            if not t.color[cur]:
                t.color[cur] = MOVE_B if ident == b"B" else MOVE_W
                value = _VALUE.match(m.group(3).lstrip())
                assert value is not None  # the token matched a value
                t.point[cur] = intern(  # type: ignore[index]  # (a list: from empty())
                    value.group(1).decode("utf-8", "replace").strip())
        elif ident == b"N" or ident == b"TSREF":
            values = [_unescape(v) for v in _VALUE.findall(m.group(3))]
            if ident == b"N":
                t._name(cur, values, [])
            else:
                t._name(cur, [], values)
        elif ident == b"BM":
            t.marks[cur] |= MARK_BM
        elif ident == b"TE":
            t.marks[cur] |= MARK_TE
    if not len(t.color):
        raise SgfError(f"{name}: not an SGF file (an empty game)")
    return t, b"(" + data[root_start:root_end] + b")", pos


def _add_property(props: dict[str, list[str]], m: re.Match[bytes]) -> None:
    """Add the property that token ``m`` of :data:`_TOKEN` holds (a name and its values)."""
    props.setdefault(m.group(2).decode("ascii"), []).extend(
        _unescape(v) for v in _VALUE.findall(m.group(3)))


def _scanned(data: bytes | mmap.mmap, pos: int) -> tuple[MoveTree, bytes, int] | None:
    """:func:`_read_game` by :func:`tsumego.io.sgfscan.scan` (the root node by the
    tokenizer), or None where the scan does not take the file."""
    m = _TOKEN.match(data, pos)
    if m is None or m.group(1) != b"(":
        return None
    m = _TOKEN.match(data, m.end())
    if m is None or m.group(1) != b";":
        return None
    root_start = m.start(1)
    props: dict[str, list[str]] = {}
    while True:
        m = _TOKEN.match(data, m.end())
        if m is None:
            return None
        if m.group(1) is not None:
            root_end = m.start(1)
            break
        _add_property(props, m)
    got = sgfscan.scan(data, root_end)
    if got is None:
        return None
    t = MoveTree(SgfNode(props, []), got.color, got.point, got.marks, got.first_child,
                 got.next_sibling)
    return t, b"(" + data[root_start:root_end] + b")", got.end


def _unescape(raw: bytes) -> str:
    """An SGF raw property value as text (escapes removed, soft line breaks joined)."""
    s = raw.decode("utf-8", "replace")
    if "\\" not in s:
        return s
    return _ESCAPED.sub(_unescaped, s)


_ESCAPED = re.compile(r"\\(.)", re.S)  # a backslash and the character it escapes


def _unescaped(m: re.Match[str]) -> str:
    return "" if m.group(1) == "\n" else m.group(1)


def split_collection(data: bytes) -> list[bytes]:
    """Split an SGF collection (several ``(;...)`` games in one file) into one byte string per
    game, respecting bracketed property values. A file with one game gives a list of one."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    games: list[bytes] = []
    depth = 0
    start = -1
    in_value = False
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if in_value:
            if c == 0x5C:  # backslash escapes the next byte
                i += 2
                continue
            if c == 0x5D:  # ]
                in_value = False
        elif c == 0x5B:  # [
            in_value = True
        elif c == 0x28:  # (
            if depth == 0:
                start = i
            depth += 1
        elif c == 0x29:  # )
            if depth > 0:
                depth -= 1
                if depth == 0 and start >= 0:
                    games.append(data[start:i + 1])
                    start = -1
        i += 1
    return games


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


# FF[4] root properties first, then setup, then the rest in a stable order
_ORDER = ["FF", "GM", "CA", "SZ", "AP", "PL", "AB", "AW", "AE", "B", "W", "C", "BM", "TE",
          "DO", "IT", "MA", "SQ", "TR", "CR", "LB", "N"]
_RANK = {k: i for i, k in enumerate(_ORDER)}


def serialize(root: SgfNode) -> bytes:
    """An :class:`SgfNode` tree as SGF text (UTF-8), one node per line on the main line.
    Iterative, so deep trees are fine."""
    return "".join(serialize_chunks(root, _props_of, _children_of)).encode("utf-8")


def _props_of(node: SgfNode) -> dict[str, list[str]]:
    return node.props


def _children_of(node: SgfNode) -> list[SgfNode]:
    return node.children


_OPEN, _CLOSE = 0, 1  # markers on serialize_chunks's stack


def node_text(props: dict[str, list[str]]) -> str:
    """One node as SGF text: ``;`` and its properties, in the order of ``_ORDER``."""
    idents = sorted(props, key=lambda k: (_RANK.get(k, 99), k))
    return ";" + "".join(
        ident + "".join(f"[{_escape(v)}]" for v in props[ident]) for ident in idents)


def serialize_chunks(root: N, props_of: Callable[[N], dict[str, list[str]]],
                     children_of: Callable[[N], Sequence[N]],
                     whole: Callable[[N], str | None] | None = None) -> Iterator[str]:
    """The SGF text of any tree, in pieces, node by node: ``props_of`` gives a node's
    properties and ``children_of`` its children, so a large tree can be written without
    first being turned into :class:`SgfNode` objects. ``whole``, if given, may give the
    text of a node's whole subtree at once."""
    stack: list[tuple[int, N | None]] = [(_OPEN, root)]
    yield "("
    while stack:
        kind, node = stack.pop()
        if node is None:
            yield ")" if kind == _CLOSE else "\n("
            continue
        if whole is not None:
            text = whole(node)
            if text is not None:
                yield text
                continue
        yield node_text(props_of(node))
        children = children_of(node)
        if len(children) == 1:
            yield "\n"
            stack.append((_OPEN, children[0]))
        elif children:
            for child in reversed(children):
                stack.append((_CLOSE, None))
                stack.append((_OPEN, child))
                stack.append((_OPEN, None))
    yield ")\n"
