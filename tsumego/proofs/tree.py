"""Solution trees: the search's answer turned into lines a player can read or a checker replay.

A tree is built at one ko-threat balance by walking the game with its exact history and asking
the engine who wins each position. At the winner's turns one move is kept (an immediate win
first, else the move with the smallest subtree in ``full`` and the shortest win in
``readable``, found by a bounded lookahead, or where the lookahead does not reach the smallest
proof, in ``full`` a move whose subtree was built before and may be shared, else the smallest
proof on a liberty of a target block); at the loser's turns
``full`` keeps every legal reply, pass included, down to terminal positions (a complete proof),
and ``readable`` keeps the replies that resist longest and those next to the target within
the first six plies of a line, and the one that resists longest below, and stops each line
where the outcome is plain (capture, an unconditionally alive target).

A full tree repeats itself: the same position is reached by many lines (SGF cannot share a
subtree). The builder copies the subtree it built for a position met before, as array slices,
when no history can tell the two apart: no play probed in that subtree recreates an
arrangement of the history above either occurrence, so every node's legal replies are the
same on both paths (most of a large full tree is such copies), or where those plays
recreate arrangements of the first history, when the second holds the same ones and no
others.
The (black, white) stone counts of those plays, kept as bits, rule most clashes out; where
they cannot, the builder walks the subtree (:meth:`_Builder.unshaped`). A ``compact`` tree
is the ``full`` one with those copies not made: the node refers to the subtree copied, so
that a proof far too large to write out is held, and written, with each such subtree once.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from array import array
from dataclasses import dataclass

from tsumego.answer import TreeMode
from tsumego.errors import BudgetExhausted
from tsumego.go.board import BLACK, Board, bits, opponent
from tsumego.go.coords import PASS
from tsumego.go.life import attacker_captures_alone, never_vital, target_benson_alive
from tsumego.go.line import Line, pair_state, position_key
from tsumego.go.problem import Problem
from tsumego.search.engine import SearchOptions, deep_search
from tsumego.search.engines import SearchEngine, new_engine

MODES: tuple[TreeMode, ...] = ("readable", "full", "compact")
# positions the builder looks ahead at each winner's node, by default (see build_tree)
_LOOKAHEAD: dict[TreeMode, int] = {"readable": 2_000, "full": 200_000, "compact": 0}


TREE_BUDGETS = ("tree-nodes", "tree-time")  # the budgets of a tree itself



INFINITE = 1 << 62


_ENDS = ("", "capture", "alive", "passes")
_GOOD = (None, True, False)
_ROOT_MOVE = -2  # the move stored for the root, which has none


class _Nodes:
    """The nodes of one tree in preorder, in flat arrays (14 bytes a node, where an object a
    node took about 200 and capped full trees near 40,000,000 nodes in 10 GB): node ``i``'s
    subtree is the ``size[i]`` nodes from ``i`` on, so its children are ``i + 1``,
    ``i + 1 + size[i + 1]``, ...; sizes being relative, a subtree copies as array slices."""

    __slots__ = ("move", "color", "flags", "captures", "plies", "size", "origin", "copied")

    def __init__(self) -> None:
        self.move = array("h")
        self.color = array("b")
        # bit 0: threat; bits 1-2: index in _GOOD; bits 3-4: in _ENDS; bit 5: the second pass
        # of a pair that does not end the game
        self.flags = array("B")
        self.captures = array("H")  # stones the move captured
        self.plies = array("i")
        self.size = array("i")
        self.origin: dict[int, int] = {}  # a node given a copy -> the node copied
        self.copied: set[int] = set()  # the nodes copied

    def add(self, color: int, move: int, threat: bool = False, captures: int = 0,
            pair: bool = False) -> int:
        """Append a node (its subtree ends right after it until :meth:`close`)."""
        i = len(self.move)
        self.move.append(move)
        self.color.append(color)
        self.flags.append((1 if threat else 0) | (32 if pair else 0))
        self.captures.append(captures)
        self.plies.append(0)
        self.size.append(1)
        return i

    def close(self, i: int) -> None:
        """Node ``i``'s subtree is every node added since it."""
        self.size[i] = len(self.move) - i

    def copy(self, i: int, j: int) -> None:
        """Give node ``i``, the last node added, a copy of node ``j``'s subtree below it."""
        stop = j + self.size[j]
        for a in (self.move, self.color, self.flags, self.captures, self.plies, self.size):
            a.extend(a[j + 1:stop])
        self.size[i] = self.size[j]
        self.plies[i] = self.plies[j]
        j = self.origin.get(j, j)
        self.origin[i] = j
        self.copied.add(j)

    def set_end(self, i: int, end: str) -> None:
        self.flags[i] = self.flags[i] & ~0b11000 | _ENDS.index(end) << 3

    def set_good(self, i: int, good: bool) -> None:
        self.flags[i] = self.flags[i] & ~0b110 | (1 if good else 2) << 1

    def span(self, i: int) -> int:
        """The nodes of node ``i``'s subtree in the full tree."""
        return self.size[i]

    def children(self, i: int) -> list[int]:
        """Node ``i``'s children in preorder."""
        out = []
        j, stop, size = i + 1, i + self.size[i], self.size
        while j < stop:
            out.append(j)
            j += size[j]
        return out


class _Shared(_Nodes):
    """Nodes of a ``compact`` tree: a copy is not made; the node given it refers to the node
    copied (``origin``), so the store holds each subtree once. ``full`` counts the nodes of
    the tree the references stand for (64-bit: it is often far larger than what is held)."""

    __slots__ = ("full", "virtual", "before")

    def __init__(self) -> None:
        super().__init__()
        self.full = array("q")
        self.virtual = 0  # nodes the references stand for, beyond their own, so far
        self.before = array("q")  # ``virtual`` when each node was added

    def add(self, color: int, move: int, threat: bool = False, captures: int = 0,
            pair: bool = False) -> int:
        self.before.append(self.virtual)
        self.full.append(1)
        return super().add(color, move, threat, captures, pair)

    def close(self, i: int) -> None:
        super().close(i)
        self.full[i] = self.size[i] + self.virtual - self.before[i]

    def span(self, i: int) -> int:
        return self.full[i]

    def copy(self, i: int, j: int) -> None:
        j = self.origin.get(j, j)
        self.plies[i] = self.plies[j]
        self.full[i] = self.full[j]
        self.virtual += self.full[j] - 1
        self.origin[i] = j
        self.copied.add(j)


class TreeNode:
    """One move of a solution tree (the root has ``move is None``): a read-only view of a
    node of the tree's flat store. Below the root, a node's children come longest line first
    (the loser's replies that resist longest lead; the winner has one move)."""

    __slots__ = ("_nodes", "_i")

    def __init__(self, nodes: _Nodes, i: int) -> None:
        self._nodes = nodes
        self._i = i

    @property
    def color(self) -> int:
        """Who played ``move``."""
        return self._nodes.color[self._i]

    @property
    def move(self) -> int | None:
        """Point index, PASS, or None at the root."""
        m = self._nodes.move[self._i]
        return None if m == _ROOT_MOVE else m

    @property
    def children(self) -> list[TreeNode]:
        """The moves below this one (in a ``compact`` tree, those below the node a copy
        refers to: the view is the whole tree either way)."""
        nodes = self._nodes
        i = self._i
        kids = nodes.children(nodes.origin.get(i, i) if isinstance(nodes, _Shared) else i)
        if self._i and len(kids) > 1:
            plies = nodes.plies
            kids.sort(key=lambda k: -plies[k])
        return [TreeNode(nodes, k) for k in kids]

    @property
    def threat(self) -> bool:
        """The move recreates an arrangement: a ko threat was used first."""
        return bool(self._nodes.flags[self._i] & 1)

    @property
    def pair(self) -> bool:
        """The move is the second pass of a pair that does not end the game: both sides
        played elsewhere, the history starts afresh and the ko threats are gone."""
        return bool(self._nodes.flags[self._i] & 32)

    @property
    def captures(self) -> int:
        """Stones the move captured."""
        return self._nodes.captures[self._i]

    @property
    def plies(self) -> int:
        """Length of the line below this node under the tree's choices."""
        return self._nodes.plies[self._i]

    @property
    def good(self) -> bool | None:
        """For first moves: correct (True) or wrong (False)."""
        return _GOOD[self._nodes.flags[self._i] >> 1 & 3]

    @property
    def end(self) -> str:
        """At a leaf: "capture", "alive", "passes" (or "" where a readable line stops)."""
        return _ENDS[self._nodes.flags[self._i] >> 3 & 3]

    def size(self) -> int:
        """Nodes in the subtree, this one included (in a ``compact`` tree, as written out in
        full)."""
        nodes = self._nodes
        return nodes.full[self._i] if isinstance(nodes, _Shared) else nodes.size[self._i]

    def stored(self) -> int:
        """Nodes a ``compact`` tree holds for the subtree (a subtree met again is held once,
        and a copy counts the nodes of the subtree it refers to); in other trees
        :meth:`size`."""
        nodes, i = self._nodes, self._i
        return nodes.size[nodes.origin.get(i, i) if isinstance(nodes, _Shared) else i]

    @property
    def source(self) -> TreeNode:
        """The node whose subtree the builder copied below this one (itself if none): the
        same moves and annotations below it, and, unlike a copy in a ``full`` tree's store,
        the copies it holds in turn still known as copies."""
        nodes, i = self._nodes, self._i
        j = nodes.origin.get(i, i)
        return self if j == i else TreeNode(nodes, j)

    @property
    def repeat_key(self) -> int | None:
        """The same number for nodes whose subtrees below them the builder copied from one
        another (the moves and annotations below the node are the same; the node's own move
        may differ), None for the others."""
        nodes, i = self._nodes, self._i
        j = nodes.origin.get(i, i)
        return j if j in nodes.copied else None


@dataclass(frozen=True)
class SolutionTree:
    """A tree with what it claims: ``winner`` wins with ``to_play`` first at ``balance``, in
    the game of rules.md or (``live``) in the pass-alive game."""

    problem: Problem
    root: TreeNode
    to_play: int
    balance: int
    winner: int
    mode: TreeMode
    live: bool = False

    @property
    def nodes(self) -> int:
        """Nodes of the tree (a ``compact`` one counted as written out in full)."""
        return self.root.size()

    @property
    def stored_nodes(self) -> int:
        """Nodes the tree holds: :attr:`nodes`, except in a ``compact`` tree, where a subtree
        met again is held once and each other meeting is one node that refers to it."""
        return len(self.root._nodes.move)


def build_tree(problem: Problem, *, to_play: int | None = None, balance: int = 0,
               mode: TreeMode = "readable", max_nodes: int = 10_000_000,
               time_limit: float | None = None, lookahead: int | None = None,
               engine: SearchEngine | None = None, live: bool = False) -> SolutionTree:
    """Build the solution tree of ``problem`` with ``to_play`` first at ``balance``, in the
    game of rules.md or (``live``) in the pass-alive game, where a repeated pair of passes
    ends the game for the defender only with a pass-alive target (the attacker, playing
    alone, cannot capture it); a given ``engine`` searches the same game.

    At each of the winner's nodes the tree may look ahead (up to ``lookahead`` positions and
    ten times as many engine nodes there, ten times the positions and a hundred times the
    engine nodes over the whole tree, shared through a table keyed by position) and keep
    the winning move with the shortest forced win (``readable``) or the smallest subtree (``full``,
    counted with a branch-and-bound); where the lookahead runs out it keeps the move with the
    smallest proof, and it gives up at half of ``time_limit``. The default looks ahead 2,000
    positions in ``readable`` trees and 200,000 in ``full`` ones, where a small lookahead made
    trees larger (its counts by position miss the history) and a large one made them several
    times smaller. ``compact`` is ``full`` with each subtree the builder would copy held once
    (:attr:`SolutionTree.stored_nodes`; ``max_nodes`` counts those); its view, and
    :attr:`SolutionTree.nodes`, are the full tree with the same ``lookahead``'s. A compact tree
    looks ahead 0 positions by default: the lookahead counts full trees, and on the giants
    compact trees are for it made them larger and slower to build. A ``full`` tree with the
    default ``lookahead`` is the smaller of the trees without and with it (:func:`_full`: the
    lookahead makes some trees larger). Raises :class:`tsumego.errors.BudgetExhausted` past
    ``max_nodes`` tree nodes or ``time_limit``
    seconds (kinds ``tree-nodes``, ``tree-time``), and where a given ``engine``'s own limits
    stop it."""
    if mode not in MODES:
        raise ValueError(f"unknown tree mode {mode!r}")
    if engine is not None and engine.live != live:
        raise ValueError("the engine searches another game than the tree's")
    if mode == "full":
        nodes, color, winner = _full(problem, _Nodes, to_play, balance, max_nodes,
                                     time_limit, lookahead, engine, live)
    else:
        nodes = _Shared() if mode == "compact" else _Nodes()
        color, winner = _build(problem, nodes, to_play, balance, mode, max_nodes,
                               time_limit, lookahead, engine, live)
    return SolutionTree(problem, TreeNode(nodes, 0), color, balance, winner, mode, live)


# the build with the lookahead after the one without it: at most this many times the first
# one's time (the lookahead takes ten to twenty times as long, on some trees far longer), and
# at least this many seconds (a lookahead cut short finds less)
AHEAD_TIMES = 30
AHEAD_MIN_S = 180.0


def ahead_time(spent: float, left: float | None) -> float:
    """The time limit of a full tree's build with the lookahead, after the build without it
    took ``spent`` seconds and left ``left`` of the tree's time limit (None: no limit)."""
    cap = max(AHEAD_MIN_S, AHEAD_TIMES * spent)
    return cap if left is None else min(cap, left)


def _full(problem: Problem, make: type[_Nodes], to_play: int | None, balance: int,
          max_nodes: int, time_limit: float | None, lookahead: int | None,
          engine: SearchEngine | None, live: bool = False) -> tuple[_Nodes, int, int]:
    """A full tree in a store of type ``make``; returns (the nodes, side to play, winner).
    With a given ``lookahead``, one build. With the default, the smaller of the trees without
    and with the lookahead: the one without it comes first (seconds where the lookahead
    takes minutes); the one with it is built within :func:`ahead_time` and stopped once it
    reaches the first one's size. The lookahead makes most trees smaller but some
    larger."""
    if lookahead is not None:
        nodes = make()
        return (nodes, *_build(problem, nodes, to_play, balance, "full", max_nodes,
                               time_limit, lookahead, engine, live))
    start = time.monotonic()
    plain: tuple[_Nodes, int, int] | None = None
    try:
        nodes = make()
        plain = (nodes, *_build(problem, nodes, to_play, balance, "full", max_nodes,
                                time_limit, 0, engine, live))
    except BudgetExhausted as e:
        if e.kind not in TREE_BUDGETS or (
                time_limit is not None and time.monotonic() - start >= time_limit):
            raise
    spent = time.monotonic() - start
    left = None if time_limit is None else time_limit - spent
    # (a build counts the nodes below the root): the second tree must be smaller
    cap = max_nodes if plain is None else min(max_nodes, plain[0].span(0) - 2)
    if plain is not None and (cap < 1 or (left is not None and left <= 0)):
        return plain
    try:
        nodes = make()
        return (nodes, *_build(problem, nodes, to_play, balance, "full", cap,
                               left if plain is None else ahead_time(spent, left),
                               _LOOKAHEAD["full"], engine, live))
    except BudgetExhausted as e:
        if plain is None or e.kind not in TREE_BUDGETS:
            raise
        return plain


def full_tree_size(problem: Problem, *, to_play: int | None = None, balance: int = 0,
                   max_nodes: int = 1 << 62, time_limit: float | None = None,
                   lookahead: int | None = None) -> int:
    """The nodes of ``build_tree(problem, mode="full")`` with the same arguments (with the
    default ``lookahead``, the smaller of the two trees that builds), counted
    without holding the tree: the builder makes the same choices in the compact store, which
    holds each subtree it would copy once and counts the copies, so that trees far too large
    to write can be measured (in the time and memory of the part that is not a copy)."""
    return _full(problem, _Shared, to_play, balance, max_nodes, time_limit, lookahead,
                 None)[0].span(0)


def _build(problem: Problem, nodes: _Nodes, to_play: int | None, balance: int, mode: TreeMode,
           max_nodes: int, time_limit: float | None, lookahead: int | None,
           engine: SearchEngine | None, live: bool = False) -> tuple[int, int]:
    """Build a tree into ``nodes`` (node 0 its root); returns (side to play, winner)."""
    color = problem.to_play if to_play is None else to_play
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if lookahead is None:
        lookahead = _LOOKAHEAD[mode]
    eng = engine if engine is not None else _tree_engine(problem, deadline, live)
    b = _Builder(problem, eng, mode, max_nodes, deadline, lookahead, nodes)
    root = b.nodes.add(opponent(color), _ROOT_MOVE)
    try:
        # one pause of the collector for the whole build (a tree makes no reference cycles),
        # not one per engine question: otherwise each question's end turns it back on and a
        # collection walks the tree and the tables built so far
        with deep_search():
            winner = b.first_moves(color, balance)
    except BudgetExhausted as e:
        if engine is None and e.kind == "time":
            raise BudgetExhausted("tree-time",
                                  f"the tree took more than {time_limit:g} s") from None
        raise
    b.nodes.close(root)
    return color, winner


def _tree_engine(problem: Problem, deadline: float | None,
                 live: bool = False) -> SearchEngine:
    """The engine a tree is built with. It takes the first of the children tied at the least
    delta (the solver's default takes the one with the largest phi, which searches fewer nodes
    but finds other proofs, whose full trees are larger), and keeps proofs' created sets up to
    64 (the solver's 4,096 searches fewer nodes but makes larger full trees)."""
    return new_engine(problem, live=live, deadline=deadline,
                      options=SearchOptions(tie_phi=False, created_max=64))


@dataclass(frozen=True)
class TreeEstimate:
    """Knuth's estimate of the size of a ``full`` tree, from random lines through it.

    Each probe follows the tree from the root, taking the winner's move the builder keeps
    without its lookahead and a random reply at the loser's turns; the nodes the probe's
    depths would hold if every turn branched as the probe's did is an unbiased estimate of
    the tree's size. Where the size sits in a few long lines, the probes that find them are
    rare and huge, so ``mean`` is low until they are found and then dominated by them:
    ``largest`` and ``plies`` say how skewed the tree is."""

    probes: int
    mean: float  # the estimate: the mean of the probes' estimates
    median: float
    largest: float
    plies: int  # the longest line a probe followed, in moves


def estimate_full_tree(problem: Problem, *, to_play: int | None = None, balance: int = 0,
                       probes: int = 1_000, seed: int = 0,
                       time_limit: float | None = None) -> TreeEstimate:
    """Estimate the nodes of ``build_tree(problem, mode="full", lookahead=0)`` from
    ``probes`` random lines (Knuth, 1975), for sides whose full tree is too large to build:
    each probe asks the engine only about the positions on its line. Raises
    :class:`tsumego.errors.BudgetExhausted` past ``time_limit`` seconds."""
    if probes < 1:
        raise ValueError("an estimate needs at least one probe")
    color = problem.to_play if to_play is None else to_play
    deadline = None if time_limit is None else time.monotonic() + time_limit
    b = _Builder(problem, _tree_engine(problem, deadline), "full", INFINITE, deadline, 0)
    rng = random.Random(seed)
    estimates: list[float] = []
    longest = 0
    try:
        with deep_search():
            history, root = b.root_moves(color, balance)
            for _ in range(probes):
                c, winner, _ = root[rng.randrange(len(root))]
                mover, weight = color, len(root)
                est = 1 + weight  # the root and its children
                path: list[tuple[_Token, dict[int, int]]] = []  # undo token, parent history
                hist, depth = history, 0
                while not c.static:
                    parent = hist
                    hist, tok = b.enter(c, mover, hist, depth)
                    path.append((tok, parent))
                    passed, balance = c.passed, c.balance
                    mover, depth = opponent(mover), depth + 1
                    kids = b.children(mover, balance, passed, hist)
                    if mover == winner:
                        c = b.winner_pick(kids, mover, balance, passed, hist, depth)
                    else:
                        weight *= len(kids)
                        c = kids[rng.randrange(len(kids))]
                    est += weight
                for tok, parent in reversed(path):
                    b.leave(tok, parent)
                estimates.append(float(est))
                longest = max(longest, depth + 1)
    except BudgetExhausted as e:
        if e.kind == "time":
            raise BudgetExhausted("tree-time",
                                  f"the estimate took more than {time_limit:g} s") from None
        raise
    return TreeEstimate(probes, statistics.fmean(estimates), statistics.median(estimates),
                        max(estimates), longest)


# what leave() restores besides the line: the pair bits of the history above the move
_Token = int
# a subtree line() built: its node, the pair bits of every play probed in it, and the
# arrangements of the history above it that those plays recreate (what shaped it)
_Variant = tuple[int, int, frozenset[int]]
_UNSHAPED: frozenset[int] = frozenset()  # (one object for the many subtrees nothing shaped)
# an arrangement of b black and w white stones has bit (b * _PAIR + w) & _PAIRS in the pair
# masks: no two pairs within 20 stones of each other share a bit
_PAIR = 37
_PAIRS = 1023


@functools.lru_cache(maxsize=1 << 14)
def _reach(black: int, white: int, mover: int) -> int:
    """The pair bits (see ``_PAIR``) of every arrangement a play by ``mover`` from an
    arrangement of ``black`` and ``white`` stones may lead to: the mover has one stone more,
    the other side as many or fewer (captured). A mask, so that the walk's test at each node
    is one ``&`` (a loop there was a tenth of a large compact build's time)."""
    if mover == BLACK:
        spots = (((black + 1) * _PAIR + w) & _PAIRS for w in range(white + 1))
    else:
        spots = ((b * _PAIR + white + 1) & _PAIRS for b in range(black + 1))
    mask = 0
    for s in spots:
        mask |= 1 << s
    return mask


@dataclass
class _Child:
    move: int
    captured: int
    hash: int
    repeat: int  # path index of the arrangement the play repeats, -1 for none
    balance: int  # the balance after the move
    static: int  # winner fixed by the play itself, 0 if none
    end: str
    pair: bool = False  # the second pass of a pair that does not end the game

    @property
    def passed(self) -> bool:
        """The position after the move is one where a pass would make a pair."""
        return self.move == PASS and not self.pair


class _Walked:
    """What :meth:`_Builder.unshaped` keeps of a node it walked: the node's position, the
    pair bits its mover's plays may reach (:func:`_reach`), whether it is a leaf, the (node,
    move) of its children but threats and the second passes of pairs (a reference's own
    move leads to the node it refers to), and the arrangements the plays probed there lead to
    (None until the walk needs them)."""

    __slots__ = ("at", "reach", "leaf", "kids", "made")

    def __init__(self, at: tuple[int, int, int], mover: int, leaf: bool,
                 kids: list[tuple[int, int]]) -> None:
        self.at = at
        self.reach = _reach(at[0].bit_count(), at[1].bit_count(), mover)
        self.leaf = leaf
        self.kids = kids
        self.made: list[int] | None = None


class _Builder:
    """Builds one solution tree into a node store, depth first from the problem's position.

    Its parts, in the order of the methods:

    - **the line**: the moves from the root to the node being built, kept by a
      :class:`tsumego.go.line.Line` (the rules' bookkeeping: history, pairs of passes, the
      balance); :meth:`children` lists the legal moves with their static outcomes,
      :meth:`enter`/:meth:`leave` play and take back one of them;
    - **the engine's answers**: :meth:`winner_after` and :meth:`known` ask the engine who
      wins after a move, with the proof work it spent;
    - **the tree**: :meth:`first_moves` fills the root, :meth:`line` adds a move and the tree
      below it, :meth:`expand` a node's children (every reply of the loser, one move of the
      winner);
    - **transpositions** (full and compact trees): a subtree built once stands again where
      the history cannot tell the two places apart (:meth:`built_key`, :meth:`fitting`,
      :meth:`fits`, :meth:`unshaped`); a compact tree writes a reference to it;
    - **the winner's move**: :meth:`winner_pick` chooses among the winning moves, with the
      lookahead (:meth:`lookahead_pick`, :meth:`estimate`) measuring the subtrees of the
      candidates within its budgets of positions, engine nodes and time.
    """

    def __init__(self, problem: Problem, engine: SearchEngine, mode: TreeMode, max_nodes: int,
                 deadline: float | None = None, lookahead: int = 2_000,
                 nodes: _Nodes | None = None) -> None:
        self.problem = problem
        self.deadline = deadline
        self.lookahead = lookahead
        self.reserve = 10 * lookahead  # the lookahead's positions over the whole tree
        # engine nodes the lookahead may spend over the whole tree, and at one winner's node
        self.search_reserve = 100 * lookahead
        self.search_stop = 0
        self.budget = 0
        # lookahead table: (position key, ko balance, winner) -> (size, plies, move)
        self.sizes: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.on_path: set[tuple[int, int, int]] = set()
        # full trees: sizes a position's subtree is known to reach (from cut-off counts)
        self.lower: dict[tuple[int, int, int], int] = {}
        # the lookahead gives up at half the tree's time, so the build still ends in time
        self.look_deadline = None if deadline is None else \
            time.monotonic() + (deadline - time.monotonic()) * self.LOOK_SHARE
        self.engine = engine
        # the pass-alive game: a repeated pair of passes ends it for the defender only with a
        # pass-alive target (answers cached by arrangement)
        self.live = engine.live
        self._pass_alive: dict[int, bool] = {}
        # the line being built: the rules' bookkeeping, on the builder's own board
        self._benson: dict[int, bool] = {}
        self._outside = never_vital(problem.board(), problem.region, problem.defender)
        self.game = Line(problem, alive=self._alive)
        self.board = self.game.board
        self.mode = mode
        self.full = mode != "readable"  # "full" and "compact" trees are the same proof
        self.compact = mode == "compact"
        self.max_nodes = max_nodes
        self.count = 0
        self.nodes = _Nodes() if nodes is None else nodes
        # full trees: subtrees built so far, for positions met again: (position, mover,
        # balance, passed, winner) -> up to VARIANTS of (node, pair bits of the arrangements
        # every play probed in the subtree leads to, the arrangements of the history above it
        # that those plays recreate); see line()
        self.built: dict[tuple[int, int, int, bool, int, int], list[_Variant]] = {}
        self.probes = 0  # those pair bits for the subtree being built
        # full trees: the pair bits of the plays probed below a node, for subtrees of at least
        # BELOW_MIN nodes (unshaped() walks into the others)
        self.below: dict[int, int] = {}
        self.last_probes = 0  # and for the plays of the last call of children()
        # full trees: what unshaped() learnt of a node it walked (_walked): a node's position
        # and mover are fixed, so its children and the plays probed there are too (without
        # it, the walks spend much of a large compact build playing them again)
        self.walked: dict[int, _Walked] = {}
        # the arrangements of the history that plays probed in the subtree being built
        # recreate, with their history index (those below the subtree's own position are
        # the ones that shaped it), and those of the plays of the last call of children()
        self.hits: dict[int, int] = {}
        self.last_hits: dict[int, int] = {}
        # the winner's move shared_win() picked, with the subtree it found for it, so that
        # line() need not look again
        self.fitted: tuple[_Child, _Variant, dict[int, int]] | None = None
        self.attacker = problem.attacker
        self.defender = problem.defender
        self.target = problem.target
        self.pairs = 0  # the (black, white) counts of the history, one bit a pair (pair())

    def _alive(self, board: Board) -> bool:
        """Is the target unconditionally alive (Benson) on ``board``? Cached by
        arrangement."""
        alive = self._benson.get(board.hash)
        if alive is None:
            if len(self._benson) >= self.BENSON_MAX:
                self._benson.clear()
            alive = target_benson_alive(board, self.target, self.defender, self._outside)
            self._benson[board.hash] = alive
        return alive

    def end_winner(self) -> int:
        """The winner where a repeated pair of passes ends the game on the current board:
        the defender, except in the pass-alive game where the attacker, playing alone, can
        capture the target."""
        if not self.live:
            return self.defender
        board = self.board
        alive = self._pass_alive.get(board.hash)
        if alive is None:
            if len(self._pass_alive) >= self.BENSON_MAX:
                self._pass_alive.clear()
            alive = self._alive(board) or not attacker_captures_alone(
                board, self.target, self.problem.region, self.attacker,
                deadline=self.deadline)
            self._pass_alive[board.hash] = alive
        return self.defender if alive else self.attacker

    # --- the game, as the engine plays it ---------------------------------------------------
    def children(self, color: int, balance: int, passed: bool,
                 history: dict[int, int]) -> list[_Child]:
        """Every legal move with ``color`` to move (pass last), with static outcomes."""
        board = self.board
        out: list[_Child] = []
        has_threat = balance > 0 if color == BLACK else balance < 0
        step = -1 if color == BLACK else 1
        bc, wc = board.black.bit_count(), board.white.bit_count()
        if color == BLACK:
            after, cap_step = (bc + 1) * _PAIR + wc, 1
        else:
            after, cap_step = bc * _PAIR + wc + 1, _PAIR
        target = self.target
        probes = 0
        hits: dict[int, int] = {}
        for p in bits(board.empty & self.problem.region):
            snap = board.snapshot()
            cap = board.play_fast(p, color)
            if cap < 0:
                continue
            if not cap & target:  # (a capture of the target recreates nothing: it ends the game)
                probes |= 1 << ((after - cap_step * cap.bit_count()) & _PAIRS)
            h = board.hash
            idx = history.get(h, -1)
            if idx >= 0:
                hits[h] = idx
                if not has_threat:
                    board.undo(snap)
                    continue
            static, end = 0, ""
            if color == self.attacker and cap & self.target:
                static, end = self.attacker, "capture"
            elif color == self.defender and self._alive(board):
                static, end = self.defender, "alive"
            board.undo(snap)
            out.append(_Child(p, cap, h, idx, balance + step if idx >= 0 else balance, static, end))
        if not passed:
            out.append(_Child(PASS, 0, board.hash, -1, balance, 0, ""))
        elif pair_state(board.hash, opponent(color)) in self.game.pair_states:
            # the pair state stood before: the game ends, the target standing
            out.append(_Child(PASS, 0, board.hash, -1, balance, self.end_winner(), "passes"))
        else:  # both sides play elsewhere: the game goes on afresh at balance 0
            out.append(_Child(PASS, 0, board.hash, -1, 0, 0, "", True))
        self.last_probes = probes
        self.last_hits = hits
        return out

    def enter(self, c: _Child, color: int, history: dict[int, int],
              depth: int) -> tuple[dict[int, int], _Token]:
        """Play child ``c`` on the line; returns the child's history and an undo token."""
        token = self.pairs
        p0 = self.pair()
        self.game.play(color, c.move, check=False)
        if c.pair:
            self.pairs = self.pair()
        elif c.repeat >= 0:
            self.pairs = p0 | self.pair()
        elif c.move != PASS:
            self.pairs |= self.pair()
        return self.game.history, token

    def pair(self) -> int:
        """The current arrangement's bit in ``pairs``: its (black, white) stone counts."""
        b = self.board
        return 1 << ((b.black.bit_count() * _PAIR + b.white.bit_count()) & _PAIRS)

    def leave(self, token: _Token, history: dict[int, int]) -> None:
        """Take back the move :meth:`enter` played (``token`` is what it returned)."""
        self.game.undo()
        self.pairs = token

    def winner_after(self, c: _Child, color: int, history: dict[int, int],
                     depth: int, limit: int | None = None) -> tuple[int, int]:
        """(winner, proof work) of the position after ``c``: a proof the engine holds and
        may use on this path is read without a search (a third of the searches of a large
        full tree). With ``limit``, (0, 0)
        where a search of that many nodes does not settle it."""
        if c.static:
            return c.static, 0
        known = self.known(c, color, history)
        if known[0]:
            return known
        v = self.engine.winner_after(self.game, color, c.move, max_work=limit)
        return v.winner, v.work

    def known(self, c: _Child, color: int, history: dict[int, int]) -> tuple[int, int]:
        """(winner, proof work) of the position after ``c`` if the engine holds a proof of it
        that it may use on this path (none is read through a threat or a pair of passes,
        which reset the path), else (0, 0)."""
        if c.repeat >= 0 or c.pair:
            return 0, 0
        v = self.engine.known_after(self.game, color, c.move)
        return v.winner, v.work

    # --- building ------------------------------------------------------------------------------
    def root_moves(self, color: int, balance: int) -> tuple[dict[int, int],
                                                            list[tuple[_Child, int, int]]]:
        """Start the game at the problem's position: its history, and every first move of
        ``color`` with its (winner, proof work)."""
        self.game = Line(self.problem, balance, alive=self._alive)
        self.board = self.game.board
        history = self.game.history
        self.pairs = self.pair()
        scored = []
        for c in self.children(color, balance, False, history):
            w, work = self.winner_after(c, color, history, 0)
            scored.append((c, w, work))
        return history, scored

    def first_moves(self, color: int, balance: int) -> int:
        """Fill the root (node 0): every correct first move (best first), then the wrong
        ones."""
        history, scored = self.root_moves(color, balance)
        winners = [s for s in scored if s[1] == color]
        losers = [s for s in scored if s[1] != color]
        winner = color if winners else opponent(color)
        # correct moves: immediate wins first, then the smallest proofs
        winners.sort(key=lambda s: (not s[0].static, s[0].move == PASS, s[2]))
        keep_wrong = losers
        if self.mode == "readable":
            keep_wrong = [s for s in losers if self._tempting(s[0])]
        nodes = self.nodes
        firsts: list[tuple[int, bool]] = []
        for c, w, _ in winners + keep_wrong:
            i = self.line(c, color, history, 0, w)
            nodes.set_good(i, w == color)
            firsts.append((i, w == color))
        plies = nodes.plies
        plies[0] = 1 + min((plies[i] for i, good in firsts if good), default=max(
            (plies[i] for i, _ in firsts), default=-1))
        return winner

    def _tempting(self, c: _Child) -> bool:
        """A wrong first move worth showing in a readable tree: next to the target or to a
        target liberty."""
        if c.move == PASS:
            return False
        geo = self.board.geo
        near = geo.dilate(geo.dilate(self._target_blocks()))
        return bool(near >> c.move & 1)

    def line(self, c: _Child, color: int, history: dict[int, int], depth: int,
             winner: int) -> int:
        """Add the node for move ``c`` by ``color`` and the tree below it (``winner`` wins);
        returns the node's index. In a full tree, a subtree built before for the same
        position, balance, pass state and winner is copied when the plays probed in it
        recreate the same arrangements of this history as of its own (:meth:`fits`; see the
        module's docstring); the tests' random ko positions fail the checker without that
        condition. Up to ``VARIANTS`` subtrees built under different histories are kept for
        one position."""
        self.count += 1
        if self.count > self.max_nodes:
            raise BudgetExhausted("tree-nodes", f"the tree has more than {self.max_nodes} nodes")
        if self.deadline is not None and self.count & 63 == 0 \
                and time.monotonic() > self.deadline:
            raise BudgetExhausted("tree-time", "the tree ran over its time limit")
        nodes = self.nodes
        i = nodes.add(color, c.move, c.repeat >= 0, c.captured.bit_count(), c.pair)
        if c.static:
            nodes.set_end(i, c.end)
            return i
        outer = self.pairs  # pair bits of the arrangements in the history above the move
        key = self.built_key(c, color, winner)
        if self.full:
            fitted, self.fitted = self.fitted, None
            found = fitted[1:] if fitted is not None and fitted[0] is c else \
                self.fitting(key, c, color, history, outer)
            if found is not None:
                got, at = found
                if not self.compact:  # (a compact tree holds the copy as one node)
                    self.count += nodes.size[got[0]] - 1
                if self.count > self.max_nodes:
                    raise BudgetExhausted("tree-nodes",
                                          f"the tree has more than {self.max_nodes} nodes")
                nodes.copy(i, got[0])
                self.probes |= got[1]
                self.hits.update(at)  # (what shaped it shapes the tree above it too)
                return i
        probes, self.probes = self.probes, 0
        hits, self.hits = self.hits, {}
        hist, tok = self.enter(c, color, history, depth)
        try:
            self.expand(i, opponent(color), c.balance, c.passed, hist, depth + 1, winner)
        finally:
            self.leave(tok, history)
        nodes.close(i)
        mine = self.probes
        self.probes = probes | mine
        # the arrangements from above the move (index ``depth`` or less) that plays probed
        # below recreate: the part of the history this subtree was built with that shaped it
        shaped = {h: at for h, at in self.hits.items() if at <= depth} if self.hits else {}
        self.hits = hits
        if shaped:
            hits.update(shaped)
        if self.full and nodes.size[i] >= self.BELOW_MIN:
            self.below[i] = mine
        # (below a threat the history starts afresh: its subtree stands elsewhere only where
        # no history shaped it)
        if self.full and (not shaped or c.repeat < 0):
            if len(self.built) >= self.BUILT_MAX:
                self.built.clear()  # a bounded memo: what it forgets is built again
            variants = self.built.setdefault(key, [])
            if len(variants) >= self.VARIANTS:
                del variants[0]
            variants.append((i, mine, frozenset(shaped) if shaped else _UNSHAPED))
        return i

    def built_key(self, c: _Child, color: int, winner: int
                  ) -> tuple[int, int, int, bool, int, int]:
        """The key of ``built`` for the subtree below ``color``'s move ``c`` that ``winner``
        wins: the position after it, the mover, the balance, the pass state, the winner and
        the pair states of the path below the move."""
        key = self.game.pair_key
        if c.pair:
            key ^= pair_state(c.hash, opponent(color))
        return c.hash, color, c.balance, c.passed, winner, key

    def fitting(self, key: tuple[int, int, int, bool, int, int], c: _Child, color: int,
                history: dict[int, int], outer: int
                ) -> tuple[_Variant, dict[int, int]] | None:
        """The first subtree built for ``key`` that may stand below ``color``'s move ``c``
        here (:meth:`fits`), with the arrangements of ``history`` that shaped it; None if
        none may."""
        for got in self.built.get(key, ()):
            at = self.fits(got, c, color, history, outer)
            if at is not None:
                return got, at
        return None

    def fits(self, got: _Variant, c: _Child, color: int, history: dict[int, int],
             outer: int) -> dict[int, int] | None:
        """Whether subtree ``got``, built below ``color``'s move to the position after ``c``
        on another path, may stand here too: the plays probed in it recreate the same
        arrangements of this history as of the one it was built with (the arrangements
        that shaped it, if any), so every node's legal replies are the same on both paths.
        A subtree that a history shaped stands only below a move that is not a threat
        (below a threat the history starts afresh). Returns those arrangements with their
        index in ``history``, or None where the subtree may not stand."""
        j, probes, shaped = got
        if not shaped:
            if not probes & outer:
                return {}  # no play probed in it has the stone counts of an arrangement here
            return {} if self.unshaped(j, c, color, history, outer) else None
        if c.repeat >= 0:
            return None
        at = {h: history.get(h, -1) for h in shaped}
        if -1 in at.values() or not self.unshaped(j, c, color, history, outer, shaped):
            return None
        return at

    def unshaped(self, j: int, c: _Child, color: int, history: dict[int, int],
                 outer: int, shaped: frozenset[int] = frozenset()) -> bool:
        """Whether node ``j``'s subtree, built below ``color``'s move to the position after
        ``c`` on another path (where the plays probed in it recreated the arrangements
        ``shaped`` of that path's history and no others), may stand here too, given that
        ``history`` (whose pair bits are ``outer``) holds those: no play probed in it
        recreates another arrangement of ``history``, so every node's legal replies are the
        same on both paths. The pair bits tell most subtrees apart; this walk over the
        subtree, each shared part once, decides where they cannot (compact trees half the
        size). It plays the probes only at nodes where the pair
        bits allow a clash, and enters a subtree only if its own pair bits do; what it
        learns of a node is kept for the next walk (:class:`_Walked`: the same subtrees are
        walked again and again). Below a threat or a
        pair of passes, which start the history afresh, nothing is probed."""
        board, region, target = self.board, self.problem.region, self.target
        below, walked = self.below, self.walked
        if len(walked) >= self.WALKED_MAX:
            walked.clear()  # a bounded memo: what it forgets is played again
        start = board.snapshot()
        root = self.nodes.origin.get(j, j)
        try:
            if root not in walked:
                if c.move != PASS:
                    board.play_fast(c.move, color)
                walked[root] = self._walked(root, board.snapshot(), opponent(color))
            stack = [(root, opponent(color))]
            seen: set[int] = set()
            while stack:
                k, mover = stack.pop()
                if k in seen:
                    continue
                seen.add(k)
                entry = walked[k]
                at, made = entry.at, entry.made
                if entry.leaf:
                    continue  # nothing was probed there
                if outer & entry.reach:
                    if made is None:
                        board.undo(at)
                        made = []
                        for p in bits(board.empty & region):
                            cap = board.play_fast(p, mover)
                            if cap >= 0 and not cap & target:
                                made.append(board.hash)
                            board.undo(at)
                        entry.made = made
                    for h in made:
                        if h in history and h not in shaped:
                            return False
                for sub, m in entry.kids:
                    if not below.get(sub, -1) & outer:
                        continue  # no play probed below it has a pair of the history
                    if sub not in walked:
                        board.undo(at)
                        if m != PASS:
                            board.play_fast(m, mover)
                        walked[sub] = self._walked(sub, board.snapshot(), opponent(mover))
                    stack.append((sub, opponent(mover)))
            return True
        finally:
            board.undo(start)

    def _walked(self, k: int, at: tuple[int, int, int], mover: int) -> _Walked:
        """What :meth:`unshaped` keeps of node ``k``, whose position is ``at`` and whose
        mover is ``mover``."""
        nodes = self.nodes
        origin, move, flags = nodes.origin, nodes.move, nodes.flags
        kids = nodes.children(k)
        return _Walked(at, mover, not kids, [(origin.get(kid, kid), move[kid]) for kid in kids
                                             if not flags[kid] & 33])

    def expand(self, node: int, color: int, balance: int, passed: bool,
               history: dict[int, int], depth: int, winner: int) -> None:
        """Add the children of node ``node``, where ``color`` is to move and ``winner``
        wins."""
        kids = self.children(color, balance, passed, history)
        self.probes |= self.last_probes
        if self.last_hits:
            self.hits.update(self.last_hits)
        if color == winner:
            child = self.line(self.winner_pick(kids, color, balance, passed, history, depth),
                              color, history, depth, winner)
            self.nodes.plies[node] = self.nodes.plies[child] + 1
            return
        # the loser's turn
        if self.full:
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
            if depth >= self.BRANCH_PLIES:
                chosen = [c for _, c in scored[:1]]
            else:
                chosen = [c for _, c in scored[:2]]
                for _, c in scored[2:]:
                    if len(chosen) >= 3:
                        break
                    if self._tempting(c):
                        chosen.append(c)
            if not chosen:
                chosen = [kids[-1]]  # only the pass is left
        # (the views list them longest line first: TreeNode.children)
        plies = self.nodes.plies
        plies[node] = 1 + max(plies[self.line(c, color, history, depth, winner)]
                              for c in chosen)

    # --- choosing the winner's move --------------------------------------------------------
    def winner_pick(self, kids: list[_Child], color: int, balance: int, passed: bool,
                    history: dict[int, int], depth: int) -> _Child:
        """The winner's move kept in the tree: an immediate win; in a ``full`` tree the move
        the lookahead measured best here, if it measured this position (the sizes above it
        counted on that choice, so it is kept even after the lookahead's budget has run
        out); else, while the lookahead has budget, its pick among the winning moves; once
        it has none, in a ``full`` tree :meth:`unmeasured_pick` among the proofs the engine
        already holds (no search of the other moves: where the lookahead has run out, the
        winner's nodes are most of the build's time), and where it holds none the same pick
        found with bounded searches (:meth:`cheapest_win`); in a readable tree, the smallest
        proof of all."""
        for c in kids:
            if c.static == color:
                return c
        if self.full:  # the winner is the side to move here: ``color`` keys its tables
            got = self.sizes.get(self.size_key(color, balance, passed, color))
            if got is not None and got[0] < INFINITE:
                was = next((c for c in kids if c.move == got[2]), None)
                if was is not None and \
                        self.winner_after(was, color, history, depth)[0] == color:
                    return was
            if not self.can_look():
                shared = self.shared_win(kids, color, history)
                if shared is not None:
                    return shared
                known = self.winning_moves(kids, color, history, depth, search=False)
                if known:
                    return self.unmeasured_pick(known)
                return self.cheapest_win(kids, color, history, depth)
        cands = self.winning_moves(kids, color, history, depth)
        if not cands:
            raise AssertionError("the engine's winner has no winning move")
        if len(cands) < 2 or not self.can_look():
            return self.unmeasured_pick(cands) if self.full else cands[0]
        self.budget = min(self.lookahead, self.reserve)
        start, nodes0 = self.budget, self.engine.nodes
        self.search_stop = nodes0 + min(10 * self.lookahead, self.search_reserve)
        pick = self.lookahead_pick(cands, color, history, depth, color)
        self.reserve -= start - max(self.budget, 0)
        self.search_reserve -= self.engine.nodes - nodes0
        return pick

    def _target_blocks(self) -> int:
        """The stones of every block that holds a target stone."""
        return self.board.geo.flood(self.target, self.board.stones(self.defender))

    def _target_liberties(self) -> int:
        """The liberties of the blocks that hold a target stone: where the winner's unmeasured
        moves are looked for first."""
        return self.board.liberties(self._target_blocks())

    @staticmethod
    def _never_wins(c: _Child, color: int) -> bool:
        """A move of ``color`` not worth a search for a win: a static result (a win is taken
        before any search)."""
        return bool(c.static)

    def unmeasured_pick(self, cands: list[_Child]) -> _Child:
        """The winner's move in a full tree where the lookahead measured nothing: the
        smallest proof among the moves on a liberty of a target block, else the smallest
        proof. A small proof alone may not bring the end closer (the attacker may fill its own
        points one a turn while every defender turn multiplies the tree), and the trees it
        makes are far larger."""
        libs = self._target_liberties()
        for c in cands:
            if c.move != PASS and libs >> c.move & 1:
                return c
        return cands[0]

    def shared_win(self, kids: list[_Child], color: int,
                   history: dict[int, int]) -> _Child | None:
        """Where the lookahead measured nothing, the winning move whose subtree was built
        before and may stand here (:meth:`fitting`; of several, the one with the smallest
        subtree), or None where no winning move has one. It proves the win without a search,
        costs a compact tree one node, and ends the lines that would otherwise build one more
        variant of a position a round of throw-ins and captures led back to (without it some
        compact trees are never finished)."""
        outer, span = self.pairs, self.nodes.span
        best: tuple[int, _Child, _Variant, dict[int, int]] | None = None
        for c in kids:
            if self._never_wins(c, color):
                continue
            found = self.fitting(self.built_key(c, color, color), c, color, history, outer)
            if found is not None:
                size = span(found[0][0])
                if best is None or size < best[0]:
                    best = (size, c, *found)
        if best is None:
            return None
        self.fitted = best[1:]
        return best[1]

    def cheapest_win(self, kids: list[_Child], color: int, history: dict[int, int],
                     depth: int) -> _Child:
        """:meth:`unmeasured_pick` of :meth:`winning_moves`, found with bounded searches:
        the winning move on a liberty of a target block with the smallest proof (the first
        of those tied), else the non-pass one with the smallest proof, else the pass. Each
        group is searched in rounds of growing node budgets, and a move is searched only as
        far as it could still beat the smallest proof found: most moves win there, and the
        full searches of every move were most of a compact build's time."""
        libs = self._target_liberties()
        groups: tuple[list[_Child], list[_Child], list[_Child]] = ([], [], [])
        for c in kids:
            if self._never_wins(c, color):
                continue
            groups[2 if c.move == PASS else 0 if libs >> c.move & 1 else 1].append(c)
        for group in groups:
            best: tuple[int, int] | None = None  # (work, index) of the smallest proof
            pending = [(i, c, 0) for i, c in enumerate(group)]
            budget = self.FIRST_BUDGET
            while pending:
                left = []
                for i, c, _ in pending:
                    # a search of ``work + 1`` nodes settles a proof of ``work`` (the root's
                    # own node is not its work)
                    limit = budget if best is None else min(budget, best[0] + 1)
                    w, work = self.winner_after(c, color, history, depth, limit)
                    if not w:
                        left.append((i, c, limit))
                    elif w == color and (best is None or (work, i) < best):
                        best = (work, i)
                # a move stopped at the best proof's size or beyond cannot beat it
                pending = [p for p in left if best is None or p[2] <= best[0]]
                budget *= 8
            if best is not None:
                return group[best[1]]
        raise AssertionError("the engine's winner has no winning move")

    def can_look(self) -> bool:
        """The lookahead has positions, engine nodes and time left."""
        return self.reserve > 0 and self.search_reserve > 0 and (
            self.look_deadline is None or time.monotonic() < self.look_deadline)

    def winning_moves(self, kids: list[_Child], color: int, history: dict[int, int],
                      depth: int, *, search: bool = True) -> list[_Child]:
        """The winning moves among ``kids``: an immediate win alone, else all of them, the
        smallest proofs first; with ``search=False``, only those whose proofs the engine
        already holds."""
        for c in kids:
            if c.static == color:
                return [c]  # before any search: the searches of the other moves are not needed
        scored: list[tuple[tuple[int, int], _Child]] = []
        for c in kids:
            if self._never_wins(c, color):
                continue  # (an immediate win returned above)
            w, work = (self.winner_after(c, color, history, depth) if search
                       else self.known(c, color, history))
            if w == color:
                scored.append(((1 if c.move == PASS else 0, work), c))
        scored.sort(key=lambda s: s[0])
        return [c for _, c in scored]

    def size_key(self, color: int, balance: int, passed: bool,
                 winner: int) -> tuple[int, int, int]:
        """The lookahead tables' key of the current position with ``color`` to move."""
        return position_key(self.board.hash, color, passed), balance, winner

    def _objective(self, size: int, plies: int) -> tuple[int, int]:
        return (size, plies) if self.full else (plies, size)

    def lookahead_pick(self, cands: list[_Child], color: int, history: dict[int, int],
                       depth: int, winner: int) -> _Child:
        """The candidate with the smallest subtree (full) or the shortest win (readable), as
        far as the lookahead budget reaches; where it does not, the smallest proof
        (:meth:`unmeasured_pick` in ``full`` trees).

        In ``full`` trees the smallest proof is kept unless its own subtree was measured and
        another candidate's is smaller (each later candidate is measured only up to the best
        size so far); a candidate measured in full is never traded for one that was not;
        where not even the first could be measured, :meth:`unmeasured_pick` chooses."""
        full = self.full
        best: tuple[tuple[int, int], _Child] | None = None
        for i, c in enumerate(cands[:self.WIDTH]):
            bound = best[0][0] + 1 if full and best is not None else INFINITE
            try:
                size, plies = self.estimate_child(c, color, history, depth, winner, bound)
            except BudgetExhausted as e:
                if e.kind != "lookahead":
                    raise
                if full and i == 0:
                    return self.unmeasured_pick(cands)
                continue
            if full and size >= bound:
                continue  # no smaller than the best so far
            key = self._objective(size, plies)
            if best is None or key < best[0]:
                best = (key, c)
        return cands[0] if best is None else best[1]

    WIDTH = 4  # winning candidates compared at each winner's node
    BENSON_MAX = 1_000_000  # arrangements the builder remembers Benson's answer for
    FIRST_BUDGET = 16  # engine nodes of cheapest_win()'s first round of searches
    BUILT_MAX = 4_000_000  # positions line() remembers subtrees of for copying
    VARIANTS = 4  # subtrees it remembers of one position (built under different histories)
    BELOW_MIN = 8  # subtrees this large keep their pair bits for unshaped()
    WALKED_MAX = 500_000  # nodes unshaped() remembers (beyond, it starts afresh)
    LOOK_SHARE = 0.5  # the share of the tree's time limit the lookahead may take
    # readable trees: the loser's replies branch only within the first plies of a line; deeper,
    # a line follows the one reply with the largest proof (branching all the way down made
    # readable trees of a ko a thousand times larger)
    BRANCH_PLIES = 6

    def estimate_child(self, c: _Child, color: int, history: dict[int, int], depth: int,
                       winner: int, bound: int = INFINITE) -> tuple[int, int]:
        """(nodes, plies) of the subtree of move ``c`` under the lookahead's choices; in
        ``full`` trees a size of ``bound`` or more only says the subtree is that large."""
        if c.static:
            return 1, 1
        hist, tok = self.enter(c, color, history, depth)
        try:
            size, plies = self.estimate(opponent(color), c.balance, c.passed, hist,
                                        depth + 1, winner, bound - 1)
        finally:
            self.leave(tok, history)
        return min(INFINITE, 1 + size), min(INFINITE, 1 + plies)

    def estimate(self, color: int, balance: int, passed: bool, history: dict[int, int],
                 depth: int, winner: int, bound: int = INFINITE) -> tuple[int, int]:
        """(nodes, plies) below the current position with ``color`` to move, as a full tree
        would have them. Shared between paths by position (history aside: an estimate).

        In ``full`` trees the count stops once it reaches ``bound`` (a branch-and-bound on the
        size: the winner's candidates are measured only up to the best so far) and returns a
        size of at least ``bound``, kept as a lower bound for the position."""
        key = self.size_key(color, balance, passed, winner)
        got = self.sizes.get(key)
        if got is not None:
            return got[0], got[1]
        if key in self.on_path:
            return INFINITE, INFINITE
        full = self.full
        low = self.lower.get(key, 0)
        if full and low >= bound:
            return low, 0
        self.budget -= 1
        if self.budget < 0 or self.engine.nodes > self.search_stop:
            raise BudgetExhausted("lookahead")
        if self.look_deadline is not None and self.budget & 63 == 0 \
                and time.monotonic() > self.look_deadline:
            self.reserve = 0  # no more lookahead in this tree
            raise BudgetExhausted("lookahead")
        kids = self.children(color, balance, passed, history)
        self.on_path.add(key)
        try:
            if color == winner:
                cands = self.winning_moves(kids, color, history, depth)
                res = (INFINITE, INFINITE, PASS)
                for c in cands[:self.WIDTH]:
                    cb = min(bound, res[0] + 1) if full else INFINITE
                    size, plies = self.estimate_child(c, color, history, depth, winner, cb)
                    if full and size >= cb:
                        continue  # no smaller than the best so far, or over the bound
                    if self._objective(size, plies) < self._objective(res[0], res[1]):
                        res = (size, plies, c.move)
                    if c.static:
                        break
                cut = full and res[0] >= bound
                if cut:
                    res = (bound, 0, PASS)
            else:
                total, longest, cut = 0, 0, False
                for c in kids:
                    cb = bound - total if full else INFINITE
                    size, plies = self.estimate_child(c, color, history, depth, winner, cb)
                    total = min(INFINITE, total + size)
                    longest = max(longest, plies)
                    if full and size >= cb:
                        cut = True  # the replies so far already reach the bound
                        break
                res = (total, longest, PASS)
        finally:
            self.on_path.discard(key)
        if cut:
            self.lower[key] = max(low, res[0])
            return res[0], 0
        self.sizes[key] = res
        return res[0], res[1]

    def _plain(self, kids: list[_Child], winner: int) -> bool:
        """In a readable tree, stop where the outcome is plain: the defender has won and the
        target is unconditionally alive."""
        return winner == self.defender and self._alive(self.board)


__all__ = ["MODES", "TreeNode", "SolutionTree", "build_tree", "full_tree_size", "TREE_BUDGETS",
           "BudgetExhausted", "TreeEstimate", "estimate_full_tree", "TreeMode"]
