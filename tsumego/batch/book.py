"""The book's answers: its variation tree as moves, and which of them it calls correct (by its
convention: RIGHT comments, comments starting "Correct", or every first move)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tsumego.go.board import BLACK, WHITE
from tsumego.io.sgf import SgfNode

_CORRECT_COMMENT = re.compile(r"^\s*(also\s+)?correct", re.I)
_KO_WORD = re.compile(r"\bko\b", re.I)


# --- the book -------------------------------------------------------------------------------

@dataclass
class BookMove:
    """A move of the book's tree (nodes without a move are spliced out)."""

    color: int
    point: str  # the SGF value as written ("" for a pass)
    comment: str  # this node's comment and those of move-less leaves right below it
    children: list[BookMove] = field(default_factory=list)
    correct: bool = False  # some correct line passes through this move


def _book_start(root: SgfNode) -> SgfNode:
    """The last setup node: the node whose children hold the first moves (a chain of
    move-less nodes with one child each counts as setup)."""
    node = root
    while len(node.children) == 1 and node.children[0].move() is None:
        node = node.children[0]
    return node


def book_tree(root: SgfNode) -> list[BookMove]:
    """The book's first moves, each with its subtree (iterative: deep trees are fine)."""
    start = _book_start(root)
    top: list[BookMove] = []
    # (sgf node, list to append moves to, the BookMove owning that list or None)
    stack: list[tuple[SgfNode, list[BookMove], BookMove | None]] = [
        (c, top, None) for c in reversed(start.children)]
    while stack:
        node, into, owner = stack.pop()
        mv = node.move()
        comment = " ".join(node.props.get("C", []))
        if mv is None:
            if not node.children and owner is not None and comment:
                owner.comment = (owner.comment + " " + comment).strip()
            for c in reversed(node.children):
                stack.append((c, into, owner))
            continue
        bm = BookMove(BLACK if mv[0] == "B" else WHITE, mv[1].strip().lower(), comment)
        into.append(bm)
        for c in reversed(node.children):
            stack.append((c, bm.children, bm))
    return top


def _walk(moves: list[BookMove]) -> Iterator[BookMove]:
    stack = list(moves)
    while stack:
        m = stack.pop()
        yield m
        stack.extend(m.children)


def detect_convention(moves: list[BookMove]) -> str:
    """The ``auto`` choice for this tree."""
    leaves = [m for m in _walk(moves) if not m.children]
    if any("RIGHT" in m.comment for m in leaves):
        return "right"
    if any(_CORRECT_COMMENT.match(m.comment) for m in leaves):
        return "comment"
    return "first-level"


def mark_correct(moves: list[BookMove], convention: str) -> None:
    """Set ``correct`` on every move by ``convention`` (right, comment or first-level)."""
    order = list(_walk(moves))
    for m in reversed(order):  # children before parents
        if m.children:
            m.correct = any(c.correct for c in m.children)
        elif convention == "right":
            m.correct = "RIGHT" in m.comment
        elif convention == "comment":
            m.correct = bool(_CORRECT_COMMENT.match(m.comment))
        else:
            m.correct = True


def _book_says_ko(top: list[BookMove], c: int) -> bool:
    """Do the book's correct lines for ``c`` speak of a ko?"""
    stack = [m for m in top if m.color == c and m.correct]
    while stack:
        m = stack.pop()
        if _KO_WORD.search(m.comment):
            return True
        stack.extend(x for x in m.children if x.correct)
    return False


def _merge(moves: list[BookMove]) -> list[BookMove]:
    """Book moves with the same colour and point merged (the tree may repeat a move)."""
    out: dict[tuple[int, str], BookMove] = {}
    for m in moves:
        key = (m.color, m.point)
        if key in out:
            prev = out[key]
            out[key] = BookMove(m.color, m.point, prev.comment, prev.children + m.children,
                                prev.correct or m.correct)
        else:
            out[key] = m
    return list(out.values())
