"""Solution trees as annotated SGF (FF[4]), for SGF editors and for ``tsumego check``.

Conventions: correct first moves carry ``TE[1]``, wrong ones ``BM[1]``; lines under a correct
first move end with a comment containing ``RIGHT`` (the goproblems convention) and words; a play
that recreates an earlier arrangement, legal only because a ko threat was used first, carries
``KO[]``; a pass is ``B[]``/``W[]`` with a comment. In a ``compact`` tree a position met
again under a history that cannot tell it from the first meeting is written once: that node
gets a name ``N[T<number>]``, and each later meeting is a leaf with ``TSREF[T<number>]`` (our
own property) and a comment saying where the line goes on. The root holds the board solved
(for a framed plain problem the frame stones too, dimmed with ``DD``, and the region as
``TSREGION``), the target (``MA``) and the file's markup, ``PL``, a comment with the result in
words (and how a plain problem was framed), and ``TSR`` (our own property) with
the machine-readable claim: ``to_play:winner:balance:status:mode``, and ``:pass-alive`` after
them for a tree of the pass-alive game (where a repeated pair of passes ends the game for the
defender only with a pass-alive target). A file may hold more than one such tree, each a game
of its own: the proofs a status needs (:mod:`tsumego.proofs.check`).
"""

from __future__ import annotations

from collections.abc import Iterator

from tsumego.go.board import BLACK, bits, color_name
from tsumego.go.coords import PASS, to_gtp, to_sgf
from tsumego.io.sgf import REGION, SgfNode, node_text, serialize_chunks
from tsumego.knowledge.infer import Inference
from tsumego.proofs.tree import SolutionTree, TreeNode
from tsumego.search.solver import Solution, Status

# the file's root properties a tree keeps (its setup is written from the problem solved)
_KEEP_ROOT = ("SQ", "TR", "CR", "LB", "MN", "GN", "GC", "SO", "N", "DT", "PB", "PW", "RU", "KM",
              "ST")


def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def _stones(n: int) -> str:
    return f"{n} stone{'s' if n != 1 else ''}"


def result_words(solutions: list[Solution]) -> str:
    """The root comment: one sentence per side to play."""
    return " ".join(s.describe() + "." for s in solutions)


def to_sgf_tree(tree: SolutionTree, original_root: SgfNode | None, solutions: list[Solution],
                version: str, note: str = "", *,
                inferred: Inference | None = None) -> SgfNode:
    """The SGF tree of ``tree``; ``original_root`` (the problem file's root) supplies the
    markup and the game information, ``note`` ends the root's comment, ``inferred`` is what
    was inferred for a plain problem (its frame and region are written into the setup, see
    :func:`_root`)."""
    root, ctx = _root(tree, original_root, solutions, version, note, inferred)
    for child in tree.root.children:
        root.children.append(ctx.convert(child, first=True, good=bool(child.good)))
    return root


_Item = tuple[TreeNode | None, bool, bool]  # a node (None: the root), first move?, good line?


def sgf_text(tree: SolutionTree, original_root: SgfNode | None, solutions: list[Solution],
             version: str, note: str = "", *,
             inferred: Inference | None = None) -> Iterator[str]:
    """The text of :func:`to_sgf_tree`'s SGF, in pieces, without building the
    :class:`SgfNode` tree: full trees run to millions of nodes."""
    root, ctx = _root(tree, original_root, solutions, version, note, inferred)

    def props(item: _Item) -> dict[str, list[str]]:
        t, first, good = item
        return root.props if t is None else ctx.props(t, first=first, good=good)

    def children(item: _Item) -> list[_Item]:
        t, _, good = item
        if t is None:
            return [(c, True, bool(c.good)) for c in tree.root.children]
        if ctx.refers(t) is not None:
            return []  # the line goes on at the node referred to
        # (below a copy, the subtree copied: the same text, and its own copies known as such,
        # so that pieces() finds their text kept)
        return [(c, False, good) for c in t.source.children]

    # the text below the nodes whose subtrees the builder copied, by (repeat_key, good)
    below: dict[tuple[int, bool], str] = {}
    kept = [0]  # characters in ``below``

    def pieces(t: TreeNode, first: bool, good: bool, out: list[str]) -> None:
        """Append the text of ``t``'s subtree to ``out`` (recursive: ``t.plies`` is bounded)."""
        out.append(node_text(ctx.props(t, first=first, good=good)))
        if ctx.refers(t) is not None:
            return
        key = None if ctx.compact else t.repeat_key
        if key is not None:
            got = below.pop((key, good), None)
            if got is not None:
                below[key, good] = got  # (the last used last: the first to go is the oldest)
                out.append(got)
                return
            t = t.source  # (whose copies below are known as such, and so kept as text)
        start = len(out)
        kids = t.children
        if len(kids) == 1:
            out.append("\n")
            pieces(kids[0], False, good, out)
        else:
            for c in kids:
                out.append("\n(")
                pieces(c, False, good, out)
                out.append(")")
        if key is not None:
            text = "".join(out[start:])
            if len(text) <= _PIECE_CHARS:
                while below and kept[0] + len(text) > _BELOW_CHARS:
                    kept[0] -= len(below.pop(next(iter(below))))
                below[key, good] = text
                kept[0] += len(text)
            del out[start:]
            out.append(text)

    def whole(item: _Item) -> str | None:
        t, first, good = item
        if t is None or t.stored() > _WHOLE_NODES or t.plies > _WHOLE_PLIES:
            return None  # the root, and the subtrees too large or too deep to hold as text
        out: list[str] = []
        pieces(t, first, good, out)
        return "".join(out)

    top: _Item = (None, True, True)
    return serialize_chunks(top, props, children, whole)


# sgf_text holds subtrees of up to this many nodes and plies as text, and keeps the text below
# the copies of a subtree (each up to _PIECE_CHARS) up to _BELOW_CHARS characters, the least
# recently used going first: written once, repeated as it is. (Taken from the copies themselves,
# whose own copies the store no longer knows as such, it would be rebuilt node by node below
# them: hours for the largest trees instead of a minute.)
_WHOLE_NODES = 200_000
_WHOLE_PLIES = 500
_BELOW_CHARS = 1_000_000_000
_PIECE_CHARS = 20_000_000


def _root(tree: SolutionTree, original_root: SgfNode | None, solutions: list[Solution],
          version: str, note: str = "",
          inferred: Inference | None = None) -> tuple[SgfNode, _Context]:
    """The root node (no children) and the context that annotates the moves below it.

    Its setup is the board solved, as it is: every stone (``AB``/``AW``: the frame stones of a
    framed problem too, dimmed with ``DD``, and the ``SQ`` stubs filled), the target (``MA``)
    and, for a framed problem, the region (``TSREGION``), so that the tree is read, replayed
    and checked on the board it shows. The comment says the result, how the problem was
    framed (``inferred``) and ends with ``note``."""
    p = tree.problem
    size = p.size
    props: dict[str, list[str]] = {}
    if original_root is not None:
        for k in _KEEP_ROOT:
            if k in original_root.props:
                props[k] = list(original_root.props[k])
    props["AB"] = [to_sgf(q, size) for q in bits(p.black)]
    props["AW"] = [to_sgf(q, size) for q in bits(p.white)]
    props["MA"] = [to_sgf(q, size) for q in bits(p.target)]
    framed = inferred is not None and inferred.framed
    if framed:
        assert inferred is not None
        if inferred.frame:
            props["DD"] = [to_sgf(q, size) for q in bits(inferred.frame)]
        props[REGION] = [to_sgf(q, size) for q in bits(p.region)]
    for k in ("AB", "AW"):
        if not props[k]:
            del props[k]
    props["FF"] = ["4"]
    props["GM"] = ["1"]
    props["CA"] = ["UTF-8"]
    props["SZ"] = [str(size)]
    props["AP"] = [f"tsumego:{version}"]
    props["PL"] = [color_name(tree.to_play)]
    sol = next((s for s in solutions if s.to_play == tree.to_play), None)
    status: Status = sol.status if sol is not None else "unknown"
    words = result_words(solutions)
    if tree.balance:
        words += (f" Solution tree at a ko-threat balance of {tree.balance:+d} "
                  f"({_side(BLACK if tree.balance > 0 else 3 - BLACK)} has "
                  f"{abs(tree.balance)} more threat{'s' if abs(tree.balance) != 1 else ''}).")
    if framed:
        assert inferred is not None
        words += " " + inferred.framed_words(size)
    if note:
        words += " " + note
    props["C"] = [words]
    game = ":pass-alive" if tree.live else ""
    props["TSR"] = [f"{color_name(tree.to_play)}:{color_name(tree.winner)}:{tree.balance}:"
                    f"{status}:{tree.mode}{game}"]
    return SgfNode(props, []), _Context(tree, status)


class _Context:
    def __init__(self, tree: SolutionTree, status: Status) -> None:
        self.tree = tree
        self.status = status
        self.size = tree.problem.size
        self.compact = tree.mode == "compact"
        self.written: set[int] = set()  # compact trees: the subtrees named so far
        self.ref_node: TreeNode | None = None  # the last node props() made a reference
        self.ref: int | None = None

    def convert(self, t: TreeNode, *, first: bool, good: bool) -> SgfNode:
        """Iteratively convert the subtree of ``t`` (deep trees are fine), in preorder: the
        order the nodes are written in, which names and references follow."""
        out = self._node(t, first=first, good=good)
        stack = [] if self.refers(t) is not None else [(c, out) for c in reversed(t.children)]
        while stack:
            src, parent = stack.pop()
            n = self._node(src, first=False, good=good)
            parent.children.append(n)
            if self.refers(src) is None:
                stack.extend((c, n) for c in reversed(src.children))
        return out

    def _node(self, t: TreeNode, *, first: bool, good: bool) -> SgfNode:
        return SgfNode(self.props(t, first=first, good=good), [])

    def refers(self, t: TreeNode) -> int | None:
        """In a compact tree, the name of the node ``t``'s subtree was written below (then
        ``t`` is a leaf that refers to it), else None. Call after :meth:`props`."""
        return self.ref if self.ref_node is t else None

    def props(self, t: TreeNode, *, first: bool, good: bool) -> dict[str, list[str]]:
        """The SGF properties of move ``t``: the move, its mark and its comment. In a compact
        tree, in the order the nodes are written: the first node of each set of nodes with
        the same subtree below them is named, and the others refer to it."""
        assert t.move is not None
        c = color_name(t.color)
        props: dict[str, list[str]] = {c: ["" if t.move == PASS else to_sgf(t.move, self.size)]}
        notes: list[str] = []
        if first:
            props["TE" if good else "BM"] = ["1"]
        if t.threat:
            props["KO"] = [""]
            notes.append(f"{_side(t.color)} uses a ko threat (played elsewhere and answered) "
                         f"before this retake.")
        if t.move == PASS:
            if t.end == "passes":
                notes.append(f"{_side(t.color)} passes: the same position as after an earlier "
                             f"pair of passes, so the game ends.")
            elif t.pair:
                notes.append(f"{_side(t.color)} passes too: both sides play elsewhere. The ko "
                             f"may be retaken, the ko threats are gone, and "
                             f"{_side(3 - t.color)} moves next.")
            elif t.color == self._winner(good):
                notes.append(f"{_side(t.color)} passes: the best move here.")
            else:
                notes.append(f"{_side(t.color)} passes.")
        key = t.repeat_key if self.compact else None
        self.ref_node, self.ref = None, None
        if key is not None and key in self.written:
            self.ref_node, self.ref = t, key
            props["TSREF"] = [f"T{key}"]
            notes.append(f"Transposition: the same position as at T{key}, where the line "
                         f"goes on.")
        elif key is not None:
            self.written.add(key)
            props["N"] = [f"T{key}"]
        if self.ref_node is None and t.size() == 1:  # a leaf
            notes.append(self._ending(t, good))
        if notes:
            props["C"] = [" ".join(notes)]
        return props

    def _ending(self, t: TreeNode, good: bool) -> str:
        tree = self.tree
        p = tree.problem
        solver = tree.to_play
        if t.end == "capture":
            what = f"{_side(p.attacker)} captures {_stones(t.captures)}"
        elif t.end == "alive":
            what = f"{_side(p.defender)} lives: the group cannot be captured"
        elif t.end == "passes" and tree.live and self._winner(good) == p.attacker:
            what = (f"the game ends; {_side(p.defender)}'s group stands but is not pass-alive "
                    f"({_side(p.attacker)} could capture it playing alone), so "
                    f"{_side(p.attacker)} wins the pass-alive game")
        elif t.end == "passes":
            what = f"the game ends and {_side(p.defender)}'s group stands"
            if tree.live:
                what += ", pass-alive"
            elif self.status == "seki":
                what += " (seki)"
        else:
            # a readable line stopped where the outcome is plain
            what = (f"{_side(p.defender)} lives" if t.color == p.defender or
                    p.defender == self._winner(good) else f"{_side(p.attacker)} wins")
        if good:
            text = f"RIGHT. Correct: {what}"
            if self.status == "ko" and tree.balance != 0:
                need = BLACK if tree.balance > 0 else 3 - BLACK
                if need == solver:
                    text += (f"; ko, {_side(solver)} needs {abs(tree.balance)} "
                             f"threat{'s' if abs(tree.balance) != 1 else ''}")
            elif self.status == "ko":
                text += "; ko"
            return text + "."
        return f"Wrong: {what}."

    def _winner(self, good: bool) -> int:
        return self.tree.to_play if good else 3 - self.tree.to_play


def main_line(tree: SolutionTree) -> list[str]:
    """The first line of the tree in GTP coordinates (for messages)."""
    out = []
    node = tree.root
    while node.children:
        node = node.children[0]
        assert node.move is not None
        out.append(to_gtp(node.move, tree.problem.size))
    return out
