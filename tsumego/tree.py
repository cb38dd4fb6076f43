"""Solution trees: the search's answer turned into lines a player can read or a checker replay.

A tree is built at one ko-threat balance by walking the game with its exact history and asking
the engine who wins each position. At the winner's turns one move is kept (an immediate win
first, else the move whose proof is smallest, a proxy for the quickest); at the loser's turns
``full`` keeps every legal reply, pass included, down to terminal positions (a complete proof),
and ``readable`` keeps the replies that resist longest and those next to the target, and stops
each line where the outcome is plain (capture, an unconditionally alive target).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import BLACK, bits, opponent
from .coords import PASS
from .life import target_benson_alive
from .problem import Problem
from .search import Engine, SearchLimit, SearchOptions


class TreeTooLarge(Exception):
    """The tree ran over its node budget."""


@dataclass
class TreeNode:
    """One move of a solution tree (the root has ``move is None``)."""

    color: int  # who played ``move``
    move: int | None  # point index, PASS, or None at the root
    children: list[TreeNode] = field(default_factory=list)
    comment: str = ""
    threat: bool = False  # the move recreates an arrangement: a ko threat was used first
    captured: int = 0  # stones captured by the move (mask)
    plies: int = 0  # length of the line below this node under the tree's choices
    good: bool | None = None  # for first moves: correct (True) or wrong (False)
    end: str = ""  # at a leaf: "capture", "alive", "passes"

    def size(self) -> int:
        """Nodes in the subtree, this one included."""
        n = 0
        stack = [self]
        while stack:
            t = stack.pop()
            n += 1
            stack.extend(t.children)
        return n


@dataclass(frozen=True)
class SolutionTree:
    """A tree with what it claims: ``winner`` wins with ``to_play`` first at ``balance``."""

    problem: Problem
    root: TreeNode
    to_play: int
    balance: int
    winner: int
    mode: str

    @property
    def nodes(self) -> int:
        return self.root.size()


def build_tree(problem: Problem, *, to_play: int | None = None, balance: int = 0,
               mode: str = "readable", max_nodes: int = 200_000,
               engine: Engine | None = None) -> SolutionTree:
    """Build the solution tree of ``problem`` with ``to_play`` first at ``balance``.

    Raises :class:`TreeTooLarge` past ``max_nodes`` tree nodes and
    :class:`tsumego.search.SearchLimit` if the engine's own limits stop it."""
    if mode not in ("readable", "full"):
        raise ValueError(f"unknown tree mode {mode!r}")
    color = problem.to_play if to_play is None else to_play
    eng = engine if engine is not None else Engine(problem, options=SearchOptions())
    b = _Builder(problem, eng, mode, max_nodes)
    root = TreeNode(color=opponent(color), move=None)
    winner = b.first_moves(root, color, balance)
    return SolutionTree(problem, root, color, balance, winner, mode)


# kind, board snapshot, hash, old index, old mask of stone counts
_Token = tuple[str, tuple[int, int, int], int, int, int]


@dataclass
class _Child:
    move: int
    captured: int
    hash: int
    repeat: int  # path index of the arrangement the play repeats, -1 for none
    nkt: int
    static: int  # winner fixed by the play itself, 0 if none
    end: str


class _Builder:
    def __init__(self, problem: Problem, engine: Engine, mode: str, max_nodes: int) -> None:
        self.problem = problem
        self.engine = engine
        self.board = engine.board
        self.mode = mode
        self.max_nodes = max_nodes
        self.count = 0
        self.attacker = problem.attacker
        self.defender = problem.defender
        self.target = problem.target
        self.seen = 0  # stone counts of the arrangements in the history (see search.py)

    # --- the game, as the engine plays it ---------------------------------------------------
    def children(self, color: int, nkt: int, passed: bool,
                 history: dict[int, int]) -> list[_Child]:
        """Every legal move with ``color`` to move (pass last), with static outcomes."""
        board = self.board
        out: list[_Child] = []
        has_threat = nkt > 0 if color == BLACK else nkt < 0
        step = -1 if color == BLACK else 1
        for p in bits(board.empty & self.problem.region):
            snap = board.snapshot()
            cap = board.play_fast(p, color)
            if cap < 0:
                continue
            h = board.hash
            idx = history.get(h, -1)
            if idx >= 0 and not has_threat:
                board.undo(snap)
                continue
            static, end = 0, ""
            if color == self.attacker and cap & self.target:
                static, end = self.attacker, "capture"
            elif color == self.defender and target_benson_alive(board, self.target,
                                                                self.defender):
                static, end = self.defender, "alive"
            board.undo(snap)
            out.append(_Child(p, cap, h, idx, nkt + step if idx >= 0 else nkt, static, end))
        static, end = 0, ""
        if passed:
            static, end = self.engine._end_by_passes(), "passes"
        out.append(_Child(PASS, 0, board.hash, -1, nkt, static, end))
        return out

    def enter(self, c: _Child, color: int, history: dict[int, int],
              depth: int) -> tuple[dict[int, int], _Token]:
        """Play child ``c``; returns the child's history and an undo token."""
        board = self.board
        h0 = board.hash
        snap = board.snapshot()
        seen = self.seen
        if c.move == PASS:
            old = history.get(h0, -1)
            history[h0] = depth + 1
            return history, ("pass", snap, h0, old, seen)
        s0 = (board.black | board.white).bit_count()
        board.play_fast(c.move, color)
        count = (board.black | board.white).bit_count()
        if c.repeat >= 0:
            self.seen = (1 << s0) | (1 << count)
            return {h0: depth, board.hash: depth + 1}, ("threat", snap, 0, 0, seen)
        self.seen = seen | (1 << count)
        history[board.hash] = depth + 1
        return history, ("play", snap, board.hash, 0, seen)

    def leave(self, token: _Token, history: dict[int, int]) -> None:
        kind, snap, h, old, self.seen = token
        if kind == "pass":
            if old < 0:
                del history[h]
            else:
                history[h] = old
        elif kind == "play":
            del history[h]
        self.board.undo(snap)

    def winner_after(self, c: _Child, color: int, history: dict[int, int],
                     depth: int) -> tuple[int, int]:
        """(winner, proof work) of the position after ``c``."""
        if c.static:
            return c.static, 0
        hist, tok = self.enter(c, color, history, depth)
        before = self.engine.nodes
        try:
            w = self.engine.solve_here(opponent(color), c.nkt, c.move == PASS, hist,
                                       self.seen, depth + 1)
            key = self.engine._solved_key(self.board.hash, opponent(color), c.move == PASS)
            e = self.engine.solved.get(key)
            work = e[2] if e is not None else self.engine.nodes - before
        finally:
            self.leave(tok, history)
        return w, work

    # --- building ------------------------------------------------------------------------------
    def first_moves(self, root: TreeNode, color: int, balance: int) -> int:
        """Fill the root: every correct first move (best first), then the wrong ones."""
        board = self.board
        history = {board.hash: 0}
        self.seen = 1 << (board.black | board.white).bit_count()
        kids = self.children(color, balance, False, history)
        scored = []
        for c in kids:
            if color == self.attacker and c.move == PASS:
                w, work = self.defender, 0  # the defender passes back and the game ends
            else:
                w, work = self.winner_after(c, color, history, 0)
            scored.append((c, w, work))
        winners = [s for s in scored if s[1] == color]
        losers = [s for s in scored if s[1] != color]
        winner = color if winners else opponent(color)
        # correct moves: immediate wins first, then the smallest proofs
        winners.sort(key=lambda s: (not s[0].static, s[0].move == PASS, s[2]))
        keep_wrong = losers
        if self.mode == "readable":
            keep_wrong = [s for s in losers if self._tempting(s[0])]
        for c, w, _ in winners + keep_wrong:
            node = self.line(c, color, history, 0, w)
            node.good = w == color
            root.children.append(node)
        good = [n for n in root.children if n.good]
        root.plies = 1 + min((n.plies for n in good), default=max(
            (n.plies for n in root.children), default=-1))
        return winner

    def _tempting(self, c: _Child) -> bool:
        """A wrong first move worth showing in a readable tree: next to the target or to a
        target liberty."""
        if c.move == PASS:
            return False
        geo = self.board.geo
        blocks = geo.flood(self.target, self.board.stones(self.defender))
        near = geo.dilate(geo.dilate(blocks))
        return bool(near >> c.move & 1)

    def line(self, c: _Child, color: int, history: dict[int, int], depth: int,
             winner: int) -> TreeNode:
        """The node for move ``c`` by ``color`` and the tree below it; ``winner`` wins."""
        self.count += 1
        if self.count > self.max_nodes:
            raise TreeTooLarge(f"the tree has more than {self.max_nodes} nodes")
        node = TreeNode(color=color, move=c.move, threat=c.repeat >= 0, captured=c.captured)
        if c.static:
            node.end = c.end
            return node
        hist, tok = self.enter(c, color, history, depth)
        try:
            self.expand(node, opponent(color), c.nkt, c.move == PASS, hist, depth + 1, winner)
        finally:
            self.leave(tok, history)
        return node

    def expand(self, node: TreeNode, color: int, nkt: int, passed: bool,
               history: dict[int, int], depth: int, winner: int) -> None:
        """Children of ``node`` where ``color`` is to move and ``winner`` wins."""
        kids = self.children(color, nkt, passed, history)
        if color == winner:
            best: tuple[tuple[int, int, int], _Child] | None = None
            for c in kids:
                if c.move == PASS and color == self.attacker and not c.static:
                    continue  # the attacker's pass never wins
                w, work = self.winner_after(c, color, history, depth)
                if w != color:
                    continue
                key = (0 if c.static else 1, 1 if c.move == PASS else 0, work)
                if best is None or key < best[0]:
                    best = (key, c)
                if c.static:
                    break
            if best is None:
                raise AssertionError("the engine's winner has no winning move")
            child = self.line(best[1], color, history, depth, winner)
            node.children.append(child)
            node.plies = child.plies + 1
            return
        # the loser's turn
        if self.mode == "full":
            chosen = kids
        else:
            if self._plain(kids, winner):
                return
            scored = []
            for c in kids:
                if c.move == PASS:
                    continue
                _, work = self.winner_after(c, color, history, depth)
                scored.append((work, c))
            scored.sort(key=lambda s: -s[0])
            chosen = [c for _, c in scored[:2]]
            for _, c in scored[2:]:
                if len(chosen) >= 3:
                    break
                if self._tempting(c):
                    chosen.append(c)
            if not chosen:
                chosen = [kids[-1]]  # only the pass is left
        for c in chosen:
            node.children.append(self.line(c, color, history, depth, winner))
        node.children.sort(key=lambda t: -t.plies)
        node.plies = 1 + node.children[0].plies

    def _plain(self, kids: list[_Child], winner: int) -> bool:
        """In a readable tree, stop where the outcome is plain: the defender has won and the
        target is unconditionally alive."""
        return winner == self.defender and target_benson_alive(self.board, self.target,
                                                               self.defender)


__all__ = ["TreeNode", "SolutionTree", "build_tree", "TreeTooLarge", "SearchLimit"]
