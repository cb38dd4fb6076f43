"""Reading problems from SGF. The only module that talks to sgfmill."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sgfmill import sgf as _sgf

from .board import BLACK, WHITE, Board
from .coords import PASS
from .infer import Inference, infer_with_overrides
from .problem import Problem, ProblemError, make_problem


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


_SIDE_IN_COMMENT = re.compile(r"\b(black|white)\b[^.\n]*\b(to play|to move|to live|to kill|"
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
        raise SgfError(f"{path}: not an SGF file ({e})") from None


def _point(node_pt: tuple[int, int], size: int) -> int:
    row, col = node_pt  # sgfmill: (row from the bottom, column)
    return (size - 1 - row) * size + col


def read_problem(path: str | Path) -> ProblemFile:
    """Read a marked problem file. Raises :class:`SgfError` (a ProblemError) with a one-line
    message that names the file for every way the file can be bad."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise SgfError(f"{name}: file not found") from None
    except IsADirectoryError:
        raise SgfError(f"{name}: is a directory, not an SGF file") from None
    except OSError as e:
        raise SgfError(f"{name}: cannot read ({e.strerror or e})") from None
    return parse_problem(data, name)


def parse_problem(data: bytes, name: str = "<sgf>", *, goal: str | None = None,
                  target: str | None = None, region: str | None = None) -> ProblemFile:
    """Parse SGF bytes as a problem (see :func:`read_problem`). A file without ``MA`` is a
    plain problem: :mod:`tsumego.infer` infers and frames it. ``goal`` (kill/live, for the side
    to play), ``target`` (points) and ``region`` (points or a rectangle) override the file and
    the inference."""
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
    except ValueError as e:
        raise SgfError(f"{name}: bad property value ({e})") from None
    pl_given = pl is not None
    if pl is None:
        if stated_color is not None:
            pl = stated_color
        else:
            m = _SIDE_IN_COMMENT.search(comment)
            named = (m.group(1) or m.group(3)) if m else None
            pl = (BLACK if named.lower() == "black" else WHITE) if named else BLACK
    if stated_color is not None and stated_color != pl:
        stated = []  # the book's moves are for the other side
    if not targets or goal is not None or target is not None or region is not None:
        try:
            problem, inferred = infer_with_overrides(
                board, pl, comment, marked=targets, squares=squares, goal=goal, target=target,
                region=region, name=name)
        except (ProblemError, ValueError) as e:
            raise SgfError(f"{name}: {e}") from None
        return ProblemFile(name, problem, tuple(stated), pl_given, comment, inferred)
    try:
        problem = make_problem(board, targets, to_play=pl, squares=squares, name=name)
    except ProblemError as e:
        raise SgfError(f"{name}: {e}") from None
    return ProblemFile(name, problem, tuple(stated), pl_given, comment)


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


def _unescape(raw: bytes) -> str:
    """An SGF raw property value as text (escapes removed, soft line breaks joined)."""
    s = raw.decode("utf-8", "replace")
    out = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            if nxt == "\n":
                i += 2
                continue
            out.append(nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


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


def serialize(root: SgfNode) -> bytes:
    """An :class:`SgfNode` tree as SGF text (UTF-8), one node per line on the main line.
    Iterative, so deep trees are fine."""
    out: list[str] = []
    # stack items: a node to open, or the string ")" to close a variation
    stack: list[SgfNode | str] = [root]
    out.append("(")
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node = item
        idents = sorted(node.props, key=lambda k: (_ORDER.index(k) if k in _ORDER else 99, k))
        out.append(";" + "".join(
            ident + "".join(f"[{_escape(v)}]" for v in node.props[ident]) for ident in idents))
        if len(node.children) == 1:
            out.append("\n")
            stack.append(node.children[0])
        elif node.children:
            for child in reversed(node.children):
                stack.append(")")
                stack.append(child)
                stack.append("\n(")
    out.append(")\n")
    return "".join(out).encode("utf-8")
