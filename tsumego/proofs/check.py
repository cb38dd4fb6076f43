"""An independent checker for ``full`` solution trees.

It shares no search code with the solver: it reads the problem the root shows (its setup,
frame stones included, its target ``MA`` and its region: nothing is inferred or framed,
:func:`tree_problem`) and the claim in the root's ``TSR`` property, then replays every line
under the rules of rules.md with its own history and ko-threat bookkeeping, and its own
pass-alive test. A tree proves its claim
when, at each node of the claimed winner, at least one move is given and every given move wins,
at each node of the loser every legal reply (the pass included, the attacker's too) is given,
and every leaf is terminal: a target stone captured, a pair of passes at an arrangement that
already stood, with the same player to move, right after an earlier pair (a pair that does not
end the game starts the history afresh at balance 0), or (for a defender's win) a target the
attacker cannot capture playing alone. A claim ending in ``:pass-alive`` is one of the
pass-alive game, where the repeated pair ends the game for the defender only if the target is
pass-alive, and for the attacker otherwise.

A tree proves one fact (:class:`Fact`: the winner at a balance, in a game); the status word of
the claim is proved by the facts of every game tree of the file (:func:`check_games`: a ko or
a seki needs two trees), from what the rules say of the statuses (:func:`required`,
:func:`implies`). The tree is walked in the flat form that
:func:`tsumego.io.sgf.read_move_tree` reads (a few bytes a node), so that trees of millions of
nodes can be checked. A subtree met again below another path (full trees repeat themselves)
is not replayed when the check of its first copy looked up no arrangement of either history:
then every rule gives the same answers in both places (a large full tree is checked several
times faster so). The (black, white) stone counts of the arrangements looked up
rule most clashes out; where they cannot, the lookups are replayed over the subtree, each
node from each arrangement once, without the rest of the check.

A ``compact`` tree is the same proof with such repeats written once: a node with a reference
(``TSREF``) stands for the subtree below the earlier node of that name (``N``), and the check
replays that subtree from the reference's own position and history, under the same rules (the
memo above then spares most of the replays).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, get_args

import numpy as np

from tsumego.answer import Status, TreeMode
from tsumego.errors import InputError
from tsumego.go.board import BLACK, WHITE, color_from_name
from tsumego.go.coords import PASS, from_sgf, to_sgf
from tsumego.go.problem import Problem
from tsumego.io.sgf import (
    MARK_BM,
    MOVE_B,
    MoveTree,
    SgfNode,
    parse_position,
    problem_of,
    read_move_games_file,
)
from tsumego.io.sgfscan import Points
from tsumego.proofs.stones import IllegalPlay, Stones, each_point

Arrangement = tuple[int, int]  # (black, white) stones
History = dict[Arrangement, int]  # the arrangements of a line -> their index in it (plies)
# the arrangements that stood right after a pair of passes on the line, with the player to
# move next (the player who passed first)
PairStates = frozenset[tuple[int, int, int]]


class CheckError(InputError):
    """The file is not a checkable tree (no claim, bad claim)."""


@dataclass(frozen=True)
class CheckResult:
    """``proved`` or the first failure: the path of moves to it and the reason."""

    proved: bool
    path: tuple[str, ...] = ()
    reason: str = ""
    nodes: int = 0


K = 2  # statuses are read at the balances -K..K (rules.md, "Result classes")
RULES, PASS_ALIVE = "rules", "pass-alive"  # the game of rules.md, and the pass-alive game
STATUSES: tuple[Status, ...] = get_args(Status)


@dataclass(frozen=True)
class Fact:
    """What a proof tree proves: with the claim's side to play first at ``balance``,
    ``winner`` wins ``game`` (the game of rules.md, or the pass-alive game: the same game,
    except that where a repeated pair of passes ends it the defender wins only with a
    pass-alive target)."""

    winner: int
    balance: int
    game: str = RULES


@dataclass(frozen=True)
class Claim:
    """A root's ``TSR``: ``to_play:winner:balance:status:mode``, and ``:pass-alive`` after
    them for a tree of the pass-alive game."""

    to_play: int
    winner: int
    balance: int
    status: Status
    mode: TreeMode
    game: str = RULES

    @property
    def fact(self) -> Fact:
        return Fact(self.winner, self.balance, self.game)


def tree_problem(root_game: bytes, name: str) -> Problem:
    """The problem a tree's root shows: its stones (frame stones included), its target
    (``MA``) and its region (``TSREGION``, else derived as rules.md 1 derives a marked
    problem's). Nothing is inferred or framed: a root that marks no target is refused.
    Raises :class:`CheckError` or :class:`~tsumego.io.sgf.SgfError`."""
    pos = parse_position(root_game, name)
    if not pos.targets:
        raise CheckError(f"{name}: the root marks no target (MA): the checker infers and "
                         f"frames nothing (a tree of a plain problem written by an earlier "
                         f"version: write it again)")
    return problem_of(pos).problem


def read_claim(root: SgfNode) -> Claim:
    raw = root.get("TSR")
    if not raw:
        raise CheckError("no TSR claim in the root: not a tree written by tsumego solve -o")
    parts = raw.split(":")
    if len(parts) not in (5, 6) or len(parts) == 6 and parts[5] != PASS_ALIVE:
        raise CheckError(f"malformed TSR claim {raw!r}")
    status = next((s for s in get_args(Status) if s == parts[3]), None)
    mode = next((m for m in get_args(TreeMode) if m == parts[4]), None)
    if status is None:
        raise CheckError(f"malformed TSR claim {raw!r} (the status is one of "
                         f"{', '.join(get_args(Status))})")
    if mode is None:
        raise CheckError(f"malformed TSR claim {raw!r} (the tree mode is one of "
                         f"{', '.join(get_args(TreeMode))})")
    try:
        claim = Claim(color_from_name(parts[0]), color_from_name(parts[1]), int(parts[2]),
                      status, mode, parts[5] if len(parts) == 6 else RULES)
    except ValueError as e:
        raise CheckError(f"malformed TSR claim {raw!r} ({e})") from None
    if abs(claim.balance) > K:
        raise CheckError(f"malformed TSR claim {raw!r} (the balance is within -{K}..{K})")
    return claim


class _Failure(Exception):
    def __init__(self, path: list[str], reason: str) -> None:
        super().__init__(reason)
        self.path = tuple(path)
        self.reason = reason


SAFE_MAX = 2_000_000  # arrangements the pass-alive memo keeps
MEMO_MIN = 64  # subtrees this large are looked up in the memo of checked subtrees
MEMO_MAX = 2_000_000  # checked subtrees the memo keeps
_NO_REACH = 1 << 30  # a history index no line reaches
LOOKED_MAX = 100_000  # lookups a remembered subtree keeps as a set, at most
KEPT_MAX = 20_000_000  # and all of them together


def _pair(black: int, white: int) -> int:
    """An arrangement's bit in a pair mask: from its (black, white) stone counts. No two pairs
    within 20 stones of each other share a bit."""
    return 1 << ((black.bit_count() * 37 + white.bit_count()) & 1023)


def _plays(b: Stones, color: int, region: int) -> Iterator[tuple[int, Stones, int]]:
    """Every legal play of ``color`` in ``region`` from ``b``: (point, the board after it,
    the stones it captured). Repetition is the caller's to judge."""
    for p in each_point(b.empty & region):
        nb = b.copy()
        try:
            cap = nb.play(p, color)
        except IllegalPlay:
            continue
        yield p, nb, cap


def _unconditionally_alive(board: Stones, target: int, defender: int) -> bool:
    """Benson's test, written here apart from the solver's: are the blocks holding the target
    alive with the attacker playing anywhere on the board and the defender always passing?
    Chains with fewer than two vital regions (regions of non-defender points that hold a
    liberty of the chain and no other empty point) are taken out, then the regions that touch
    a chain taken out, until nothing changes. A sufficient condition for a pass-alive target: the
    attacker of rules.md plays only in the region, which can only make its task harder."""
    own = board.stones(defender)
    empty = board.empty
    others = board.full & ~own

    def parts(mask: int, within: int) -> list[int]:
        out = []
        while mask:
            part = board.flood(mask & -mask, within)
            out.append(part)
            mask &= ~part
        return out

    chains = parts(own, own)
    regions = parts(others, others)
    near = [board.spread(c) for c in chains]
    alive = list(range(len(chains)))
    while True:
        keep = [c for c in alive
                if sum(1 for r in regions
                       if r & near[c] & empty and not r & empty & ~near[c]) >= 2]
        if len(keep) == len(alive):
            break
        gone = own
        for c in keep:
            gone &= ~chains[c]
        alive = keep
        regions = [r for r in regions if not board.spread(r) & gone]
    living = 0
    for c in alive:
        living |= chains[c]
    return target & ~living == 0


def _attacker_can_capture_alone(board: Stones, target: int, region: int, attacker: int,
                                 safe: set[Arrangement] | None = None) -> bool:
    """Exhaustive: can ``attacker`` capture a target stone with successive plays, the defender
    passing? Arrangements never repeat (stones only appear, and defender stones only go).
    ``safe`` holds arrangements from which earlier calls found no capture (shared between the
    leaves of one tree, whose searches overlap); this call adds its own when it finds none."""
    seen: set[tuple[int, int]] = set()
    known = safe if safe is not None else set()
    stack = [board.copy()]
    while stack:
        b = stack.pop()
        for _, nb, cap in _plays(b, attacker, region):
            if cap & target:
                return True
            key = (nb.black, nb.white)
            if key not in seen and key not in known:
                seen.add(key)
                stack.append(nb)
        if len(seen) > 500_000:
            raise CheckError("pass-alive test too large")
    if safe is not None:
        if len(safe) > SAFE_MAX:
            safe.clear()  # a bounded memo: what it forgets is searched again
        safe |= seen
    return False


def _targets(tree: MoveTree, ends: array[int]) -> dict[int, int]:
    """The node each valid reference (TSREF) of ``tree`` stands for: the one node of that
    name, whose subtree ends at or before the reference (invalid ones are left out, and
    fail where the check meets them)."""
    out: dict[int, int] = {}
    for r, name in tree.refs.items():
        named = tree.names.get(name, [])
        if len(named) == 1 and ends[named[0]] <= r:
            out[r] = named[0]
    return out


class _Checked(NamedTuple):
    """A subtree the check remembers (see :class:`_TreeCheck`)."""

    probes: int  # the pair bits of the arrangements looked up in it
    nodes: int
    # the points where the plays looked up in it put black and white stones, and where they
    # capture black and white ones
    moved: tuple[int, int, int, int]
    put: int  # the point (as a bit) of the move above it
    caps: int  # and its captures
    looked: frozenset[int] | None  # the hashes of the arrangements looked up in it (None:
    # too many)


MemoKey = tuple[int, int, str, int, int, bool, int, bytes, PairStates]


def check_tree(problem: Problem, root: SgfNode | MoveTree,
               fact: Fact | None = None) -> CheckResult:
    """Check that a full or compact tree proves the fact its root claims (the winner at the
    balance, in the game), or ``fact`` instead (the same tree read at another balance or in
    the other game). The status word is :func:`check_games`' to judge."""
    tree = root if isinstance(root, MoveTree) else MoveTree.from_node(root)
    claim = read_claim(tree.root)
    if claim.mode not in ("full", "compact"):
        raise CheckError(f"only full and compact trees are proofs (this one is {claim.mode!r})")
    if tree.refs and claim.mode != "compact":
        raise CheckError("a full tree with transpositions (TSREF): only compact trees have them")
    return _TreeCheck(problem, tree, claim.fact if fact is None else fact).run(claim.to_play)


class _TreeCheck:
    """The check of one tree against one fact: a walk of the tree from the problem's board
    that replays every move on the checker's own board under the rules (the repetition
    history, the threats, the pairs of passes), asks every play of the loser at its nodes,
    and ends every line at a capture of the target, a repeated pair of passes or a pass-alive
    target.

    Subtrees met again (a full tree repeats the same lines below many paths): a subtree
    proved once is proved again from the same arrangement, side, balance, pass state and
    winner when the history cannot tell the two places apart, that is when no arrangement the
    check of the subtree looked up is in either history: the first by the index of the
    earliest one found (``reach``), the second by their (black, white) stone counts ("pair"
    bits) or, where those clash, by replaying the lookups (:meth:`unshaped`). Subtrees are
    known by a 128-bit BLAKE2 digest of their moves and shape.

    Compact trees: a node with a reference (TSREF) stands for the subtree below the node
    named so (N), which must come before it and not above it (so that following references
    ends); the check replays that subtree from the reference's own position."""

    def __init__(self, problem: Problem, tree: MoveTree, fact: Fact) -> None:
        self.tree = tree
        self.fact = fact
        self.live = fact.game == PASS_ALIVE
        self.board = Stones(problem.size, problem.black, problem.white)
        self.size = problem.size
        self.attacker, self.defender = problem.attacker, problem.defender
        self.target = problem.target
        self.region = problem.region
        self.count = 0  # nodes checked
        self.colors, self.points = tree.color, tree.point
        self.path: list[str] = []  # the moves to the node being checked
        self.safe: set[Arrangement] = set()  # arrangements the attacker cannot capture from
        self.ends = tree.subtree_ends()
        self.siblings = np.frombuffer(tree.next_sibling,
                                      dtype=np.dtype(f"i{tree.next_sibling.itemsize}"))
        self.memo: dict[MemoKey, _Checked] = {}
        self.probes = 0  # pair bits of the arrangements looked up in the subtree being checked
        # and what the plays looked up there do to the board: the points where black and
        # white stones are put, and those where black and white stones are captured (see
        # may_recur)
        self.moved = [0, 0, 0, 0]
        self.effect = (0, 0)  # the point (as a bit) and the captures of the move play() made
        # The arrangements looked up so far (their hashes), the last LOOKED_MAX or more of
        # them: the lookups of a subtree are a run of them, and a remembered subtree keeps them
        # as a set when there are at most LOOKED_MAX (KEPT_MAX in all), so that where it is met
        # again only the history need be looked up in that set (a hash that clashes only costs
        # a check of the subtree). Where a subtree met again has no set, ``gap`` marks the
        # place: the subtrees around it cannot know what it looked up.
        self.looked: list[int] = []
        self.looked_base = 0  # lookups dropped from the front of ``looked``
        self.gap = -1  # the lookup where the last subtree without a set was taken from the memo
        self.kept = 0  # hashes kept in the memo's sets
        # the least index in the history of an arrangement the check of the subtree being
        # checked found there (a lookup that hit)
        self.reach = _NO_REACH
        self.refers = _targets(tree, self.ends)
        self.refarr = np.full(len(tree) if self.refers else 0, -1, dtype=np.int64)
        for r, t in self.refers.items():
            self.refarr[r] = t
        self.with_ref = (np.concatenate(([0], np.cumsum(self.refarr >= 0)))
                         if self.refers else None)
        points = self.points
        self.span: Callable[[int, int], bytes] = (
            points.span_bytes if isinstance(points, Points)
            else lambda i, end: ",".join(points[i:end]).encode("utf-8"))

    def run(self, to_play: int) -> CheckResult:
        """The check from the root, ``to_play`` first: correct first moves (TE or no BM) must
        win, wrong ones (BM) must lose."""
        tree, fact, board, colors, points = (self.tree, self.fact, self.board, self.colors,
                                             self.points)
        start: History = {(board.black, board.white): 0}
        try:
            first = tree.children(0)
            if not first:
                raise _Failure([], "the tree has no moves")
            good = [c for c in first if not tree.marks[c] & MARK_BM]
            if fact.winner == to_play and not good:
                raise _Failure([], "no correct first move for the claimed winner")
            if fact.winner != to_play and good:
                raise _Failure([], "a first move is marked correct but the claim is a loss")
            wrong = [c for c in first if tree.marks[c] & MARK_BM]
            if fact.winner != to_play:
                given = {points[c] or "pass" for c in first}
                missing = self.legal_moves(board, to_play, fact.balance, start) - given
                if missing:
                    raise _Failure([], f"first moves {sorted(missing)} are missing")
            for group, w in ((good, to_play), (wrong, 3 - to_play)):
                for c in group:
                    if not colors[c] or (BLACK if colors[c] == MOVE_B else WHITE) != to_play:
                        raise _Failure([], "a first move by the wrong side")
                    self.count += 1
                    self.step(points[c] or "pass", c, board, to_play, fact.balance, start,
                              _pair(board.black, board.white), False, w, frozenset())
        except _Failure as f:
            return CheckResult(False, f.path, f.reason, self.count)
        return CheckResult(True, (), "", self.count)

    def looked_at(self) -> int:
        """The number of lookups so far (those dropped from ``looked`` included)."""
        return self.looked_base + len(self.looked)

    def digest(self, i: int) -> bytes:
        """The digest of the subtree at node ``i``: its moves, its shape, its references."""
        end = self.ends[i]
        h = hashlib.blake2b(self.colors[i:end], digest_size=16)
        h.update(self.span(i, end))
        rel = self.siblings[i + 1:end]
        h.update(np.where(rel >= 0, rel - i, -1).tobytes())
        if self.refers:
            h.update(self.refarr[i:end].tobytes())  # the subtrees the references stand for
        return h.digest()

    def fail(self, reason: str, last: str | None = None) -> _Failure:
        return _Failure(self.path + ([last] if last else []), reason)

    def pass_alive(self, b: Stones) -> bool:
        """Can the attacker, playing alone, not capture the target? (Benson's test first.)"""
        return (_unconditionally_alive(b, self.target, self.defender) or
                not _attacker_can_capture_alone(b, self.target, self.region, self.attacker,
                                                self.safe))

    def legal_moves(self, b: Stones, color: int, balance: int, history: History) -> set[str]:
        """The moves of ``color`` from ``b`` the rules allow after ``history``, as SGF points
        and "pass"; each arrangement looked up is recorded."""
        out = {"pass"}
        has_threat = balance > 0 if color == BLACK else balance < 0
        seen = put = caps = 0
        target, looked, size = self.target, self.looked, self.size
        for p, nb, cap in _plays(b, color, self.region):
            put |= 1 << p
            caps |= cap
            arr = (nb.black, nb.white)
            if not cap & target:  # (no arrangement in a history lacks a target stone)
                seen |= _pair(nb.black, nb.white)
                looked.append(hash(arr))
            at = history.get(arr, -1)
            if at >= 0:
                self.reach = min(self.reach, at)
                if not has_threat:
                    continue
            out.add(to_sgf(p, size))
        self.probes |= seen
        self.record(color, put, caps)
        return out

    def record(self, color: int, put: int, caps: int) -> None:
        """Plays of ``color`` looked up below: they put stones on ``put`` and capture
        ``caps``."""
        if color == BLACK:
            self.moved[0] |= put
            self.moved[3] |= caps
        else:
            self.moved[1] |= put
            self.moved[2] |= caps

    def visit(self, node: int, b: Stones, to_move: int, balance: int, history: History,
              pairs: int, passed: bool, winner: int, pstates: PairStates) -> None:
        """``node``'s children are the moves of ``to_move`` from position ``b``; ``pstates``
        are the pair states of the line."""
        tree, colors, points = self.tree, self.colors, self.points
        self.count += 1
        kids = tree.children(node)
        if node in tree.refs:
            if kids:
                raise self.fail("a transposition (TSREF) with moves below it")
            t = self.refers.get(node)
            if t is None:
                raise self.fail(f"a transposition to {tree.refs[node]!r}, which names no "
                                f"single node before it and outside its line")
            kids = tree.children(t)
        if not kids:
            if winner == self.defender and self.pass_alive(b):
                return
            raise self.fail("a leaf that is not terminal")
        moves = []
        for child in kids:
            if not colors[child]:
                raise self.fail("a node without a move")
            color = BLACK if colors[child] == MOVE_B else WHITE
            if color != to_move:
                raise self.fail("moves do not alternate", f"{'BW'[color - 1]}[{points[child]}]")
            moves.append((points[child] or "pass", child))
        given = {m for m, _ in moves}
        if len(given) != len(moves):
            raise self.fail("the same move is given twice")
        if to_move != winner:
            missing = self.legal_moves(b, to_move, balance, history) - given
            if missing:
                raise self.fail(f"the loser's replies {sorted(missing)} are missing")
        for m, child in moves:
            self.step(m, child, b, to_move, balance, history, pairs, passed, winner, pstates)

    def step(self, m: str, child: int, b: Stones, to_move: int, balance: int,
             history: History, pairs: int, passed: bool, winner: int,
             pstates: PairStates) -> None:
        """Play ``m`` (SGF point or "pass") for ``to_move`` and check ``child``'s subtree,
        from the memo where it tells the same; ``pairs`` holds the pair bits of
        ``history``."""
        at = self.refers.get(child, child)  # a reference's subtree is the one it refers to
        with_ref, ends = self.with_ref, self.ends
        if ends[at] - at < MEMO_MIN and (with_ref is None or
                                         with_ref[ends[at]] == with_ref[at]):
            self.play(m, child, b, to_move, balance, history, pairs, passed, winner, pstates)
            self.record(to_move, *self.effect)
            return
        # (the pair states are part of the position: a pair below ends the game or not)
        key = (b.black, b.white, m, to_move, balance, passed, winner, self.digest(at), pstates)
        got = self.memo.get(key)
        if got is not None and self.same_below(got, child, m, b, to_move, winner, history,
                                               pairs):
            self.reuse(got, to_move)
            return
        outer, self.probes = self.probes, 0
        outer_moved = self.moved[:]
        self.moved[:] = [0, 0, 0, 0]
        outer_reach, self.reach = self.reach, _NO_REACH
        before = self.count
        start = self.looked_at()
        self.play(m, child, b, to_move, balance, history, pairs, passed, winner, pstates)
        mine = self.probes
        self.probes = outer | mine
        moved = self.moved
        mine_moved = (moved[0], moved[1], moved[2], moved[3])
        for k in range(4):
            moved[k] |= outer_moved[k]
        put, caps = self.effect
        self.record(to_move, put, caps)
        mine_reach = self.reach
        self.reach = min(outer_reach, mine_reach)
        # no lookup below hit an arrangement of the history above (index len(path) or less)
        if not mine & pairs or mine_reach > len(self.path):
            self.remember(key, start, _Checked(mine, self.count - before, mine_moved, put,
                                               caps, None))
        if len(self.looked) > 2 * LOOKED_MAX:  # only the last LOOKED_MAX can make a set
            del self.looked[:LOOKED_MAX]
            self.looked_base += LOOKED_MAX

    def same_below(self, got: _Checked, child: int, m: str, b: Stones, to_move: int,
                   winner: int, history: History, pairs: int) -> bool:
        """Whether the remembered subtree ``got`` is proved here too: none of its lookups can
        hit ``history`` (by the pair bits, the set of what it looked up, or a replay)."""
        if not got.probes & pairs:
            return True
        if got.looked is not None:
            return not any(hash(a) in got.looked for a in history)
        return (not self.may_recur(b, to_move, got, history) or
                self.unshaped(child, m, b, to_move, winner, history))

    def reuse(self, got: _Checked, to_move: int) -> None:
        """Count the remembered subtree ``got`` as checked here, with what it looked up."""
        self.count += got.nodes
        self.probes |= got.probes
        for k in range(4):
            self.moved[k] |= got.moved[k]
        self.record(to_move, got.put, got.caps)
        if got.looked is not None:
            self.looked.extend(got.looked)
        else:  # the subtrees around this one cannot know what it looked up
            self.gap = self.looked_at()
            self.looked.append(0)

    def remember(self, key: MemoKey, start: int, got: _Checked) -> None:
        """Keep the subtree just checked (its lookups from ``start`` on) in the memo."""
        if len(self.memo) >= MEMO_MAX:
            self.memo.clear()  # a bounded memo: what it forgets is checked again
            self.kept = 0
        n = self.looked_at() - start
        if self.gap < start and start >= self.looked_base and n <= LOOKED_MAX and \
                self.kept + n <= KEPT_MAX:
            made = frozenset(self.looked[start - self.looked_base:])
            self.kept += len(made)
            got = got._replace(looked=made)
        self.memo[key] = got

    def may_recur(self, b: Stones, to_move: int, got: _Checked, history: History) -> bool:
        """Whether a play looked up in a remembered subtree (``got``, below ``to_move``'s move
        from ``b``) may recreate an arrangement of ``history``, as far as what those plays do
        to the board tells: from the position after the move, every stone the arrangement
        lacks must be captured by one of them and every stone it has that the position lacks
        must be put by one of them. Where no arrangement of ``history`` passes that test
        (and the test of its stone counts), no walk of the subtree is needed (a third of the
        walks, where the subtree keeps no set). The move's own arrangement passes
        it, so that a move that repeats one is walked."""
        put_b, put_w, cap_b, cap_w = got.moved
        if to_move == BLACK:
            black, white = b.black | got.put, b.white & ~got.caps
        else:
            black, white = b.black & ~got.caps, b.white | got.put
        for a_black, a_white in history:
            if not _pair(a_black, a_white) & got.probes:
                continue
            if black & ~a_black & ~cap_b or white & ~a_white & ~cap_w:
                continue  # a stone of the position the arrangement lacks is never captured
            if a_black & ~black & ~put_b or a_white & ~white & ~put_w:
                continue  # a stone of the arrangement the position lacks is never put
            return True
        return False

    def unshaped(self, child: int, m: str, b: Stones, to_move: int, winner: int,
                 history: History) -> bool:
        """Whether the check of ``child``'s subtree (``to_move`` playing ``m`` from ``b``)
        looks up no arrangement of ``history``: every play from each loser's node, and
        every move given, replayed over the subtree (each node from each arrangement once,
        below threats too, where the history starts afresh: more than needed). Then the
        subtree's check is the same as where it was remembered, whose history no lookup
        hit either. Only references (compact trees) lead to a node twice, so only they need
        the set of what was walked: in a full tree it would hold every node walked, gigabytes
        in the largest trees."""
        tree, refers, points, target = self.tree, self.refers, self.points, self.target
        stack = [(child, m, b, to_move)]
        seen: set[tuple[int, int, int, int]] | None = set() if refers else None
        while stack:
            node, mv, pos, mover = stack.pop()
            nb = pos
            if mv != "pass":
                nb = pos.copy()
                try:
                    cap = nb.play(from_sgf(mv, self.size), mover)
                except (IllegalPlay, ValueError):
                    return False
                if cap & target:
                    continue  # the game ends
                if (nb.black, nb.white) in history:
                    return False
            nxt = 3 - mover
            if seen is not None:
                k = (node, nb.black, nb.white, nxt)
                if k in seen:
                    continue
                seen.add(k)
            kids = tree.children(refers.get(node, node))
            if kids and nxt != winner:  # the loser's turn: every play was looked up
                for _, q, cap in _plays(nb, nxt, self.region):
                    if not cap & target and (q.black, q.white) in history:
                        return False
            stack.extend((kid, points[kid] or "pass", nb, nxt) for kid in kids)
        return True

    def play(self, m: str, child: int, b: Stones, to_move: int, balance: int,
             history: History, pairs: int, passed: bool, winner: int,
             pstates: PairStates) -> None:
        """Play ``m`` for ``to_move`` under the rules and check ``child``'s subtree from the
        position it makes; sets ``effect`` to the move's point and captures."""
        self.path.append(f"{'B' if to_move == BLACK else 'W'}[{'' if m == 'pass' else m}]")
        if m == "pass":
            self.passes(child, b, to_move, balance, history, pairs, passed, winner, pstates)
            self.path.pop()
            self.effect = (0, 0)
            return
        try:
            p = from_sgf(m, self.size)
        except ValueError as e:
            raise self.fail(f"bad point ({e})") from None
        if p == PASS or not (self.region >> p) & 1:
            raise self.fail("a move outside the region")
        nb = b.copy()
        try:
            cap = nb.play(p, to_move)
        except IllegalPlay as e:
            raise self.fail(f"illegal move ({e})") from None
        arr = (nb.black, nb.white)
        if cap & self.target:
            if self.tree.first_child[child] >= 0:
                raise self.fail("moves after the target was captured")
            if winner != self.attacker:
                raise self.fail("the target is captured in a line the defender wins")
        else:
            self.probes |= _pair(nb.black, nb.white)
            self.looked.append(hash(arr))
            if arr in history:
                self.reach = min(self.reach, history[arr])
                has_threat = balance > 0 if to_move == BLACK else balance < 0
                if not has_threat:
                    raise self.fail("a repetition without a ko threat")
                # the threat and its answer: only the arrangements before and after this play
                self.visit(child, nb, 3 - to_move,
                           balance - 1 if to_move == BLACK else balance + 1,
                           {(b.black, b.white): len(self.path) - 1, arr: len(self.path)},
                           _pair(b.black, b.white) | _pair(*arr), False, winner, pstates)
            else:
                history[arr] = len(self.path)
                self.visit(child, nb, 3 - to_move, balance, history, pairs | _pair(*arr),
                           False, winner, pstates)
                del history[arr]
        self.path.pop()
        self.effect = (1 << p, cap)  # (set once the subtree below has set its own)

    def passes(self, child: int, b: Stones, to_move: int, balance: int, history: History,
               pairs: int, passed: bool, winner: int, pstates: PairStates) -> None:
        """A pass of ``to_move``: the first of a pair, the end of the game (a pair of passes
        repeated), or a pair that stands for plays elsewhere."""
        if not passed:
            self.visit(child, b, 3 - to_move, balance, history, pairs, True, winner, pstates)
        elif (b.black, b.white, 3 - to_move) in pstates:
            # a pair of passes where one stood before: the game ends, the target standing
            if self.tree.first_child[child] >= 0:
                raise self.fail("moves after the game ended (a pair of passes repeated)")
            if not self.live:
                if winner != self.defender:
                    raise self.fail("a repeated pair of passes ends the game for the defender")
            elif winner == self.defender:  # the pass-alive game: only with a pass-alive target
                if not self.pass_alive(b):
                    raise self.fail("a repeated pair of passes ends the pass-alive game for "
                                    "the attacker: the target is not pass-alive")
            elif self.pass_alive(b):
                raise self.fail("a repeated pair of passes ends the pass-alive game for the "
                                "defender: the target is pass-alive")
        else:
            # a pair of passes: both sides play elsewhere; the player who passed first moves
            # next, the history starts afresh and the threats are gone
            arr = (b.black, b.white)
            self.visit(child, b, 3 - to_move, 0, {arr: len(self.path)}, _pair(*arr), False,
                       winner, pstates | {(b.black, b.white, 3 - to_move)})


# --- the status word: which facts prove it, and which refute it ------------------------------
#
# Statuses are read off the winner at the balances -K..K (rules.md, "Result classes"), and
# winner(first, balance) is monotone in both games (more threats never hurt their owner: a side
# with a threat more may leave it unused). So a win at one balance is a win at every balance
# more favourable to the winner, and each status is a conjunction of wins at the ends of the
# range: a kill is the attacker's win where the defender has K more threats; life the
# defender's win in the pass-alive game where the attacker has K more; seki the defender's win
# there in the game of rules.md and the attacker's in the pass-alive game; a ko a win of each
# side, each at the end of the range that favours it. The pass-alive game is harder for the
# defender (the same moves, a harder end), so the defender's wins in it are wins in the game
# of rules.md, and the attacker's wins in the game of rules.md are wins in it.


def _favours(color: int) -> int:
    """The balance of -K..K most favourable to ``color``."""
    return K if color == BLACK else -K


def required(status: str, attacker: int) -> tuple[Fact, ...]:
    """The facts that together prove ``status`` (none for ``unknown``, which states nothing)."""
    defender = 3 - attacker
    most, least = _favours(attacker), _favours(defender)  # for the attacker, the defender
    return {
        "kill": (Fact(attacker, least),),
        "live": (Fact(defender, most, PASS_ALIVE),),
        "seki": (Fact(defender, most), Fact(attacker, most, PASS_ALIVE)),
        "ko": (Fact(attacker, most), Fact(defender, least)),
    }.get(status, ())


def implies(p: Fact, q: Fact, attacker: int) -> bool:
    """Whether fact ``p`` proved proves ``q`` too: the same winner, at ``q``'s balance if it is
    at least as favourable to the winner, in the same game or in the one the winner finds
    easier."""
    if p.winner != q.winner:
        return False
    if p.game != q.game and not (p.game == PASS_ALIVE if p.winner != attacker
                                 else p.game == RULES):
        return False
    return q.balance >= p.balance if p.winner == BLACK else q.balance <= p.balance


def _negation(q: Fact) -> Fact:
    """The fact that holds exactly where ``q`` does not (the game has a winner)."""
    return Fact(3 - q.winner, q.balance, q.game)


def refutation(status: str, facts: Sequence[Fact], attacker: int) -> Fact | None:
    """A fact of ``facts`` that rules ``status`` out (it proves the negation of a fact the
    status needs), or None."""
    for q in required(status, attacker):
        for p in facts:
            if implies(p, _negation(q), attacker):
                return p
    return None


def missing(status: str, facts: Sequence[Fact], attacker: int) -> list[Fact]:
    """The facts ``status`` needs that ``facts`` do not prove."""
    return [q for q in required(status, attacker)
            if not any(implies(p, q, attacker) for p in facts)]


def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def fact_words(to_play: int, fact: Fact) -> str:
    """``Black to play wins at balance +0``, ``Black to play, White wins the pass-alive
    game at balance -2``."""
    who = (f"{_side(to_play)} to play wins" if fact.winner == to_play else
           f"{_side(to_play)} to play, {_side(fact.winner)} wins")
    game = " the pass-alive game" if fact.game == PASS_ALIVE else ""
    return f"{who}{game} at balance {fact.balance:+d}"


def win_words(fact: Fact) -> str:
    """``White's win at balance -1``, ``Black's win in the pass-alive game at balance +2``."""
    game = " in the pass-alive game" if fact.game == PASS_ALIVE else ""
    return f"{_side(fact.winner)}'s win{game} at balance {fact.balance:+d}"


def needed_words(q: Fact, facts: Sequence[Fact], attacker: int) -> str:
    """A fact the status needs, in words, at the balances where a proof of it may be found
    (those that prove it and that ``facts`` do not rule out): ``White's win at balance
    -1``, ``Black's win at a balance from +0 to +2``."""
    at = [b for b in range(-K, K + 1)
          if implies(Fact(q.winner, b, q.game), q, attacker) and
          not any(implies(p, _negation(Fact(q.winner, b, q.game)), attacker) for p in facts)]
    game = " in the pass-alive game" if q.game == PASS_ALIVE else ""
    if len(at) <= 1:
        return win_words(Fact(q.winner, at[0] if at else q.balance, q.game))
    where = ("at any balance" if len(at) == 2 * K + 1 else
             f"at a balance from {at[0]:+d} to {at[-1]:+d}")
    return f"{_side(q.winner)}'s win{game} {where}"


def status_meaning(status: str, attacker: int) -> str:
    """What ``status`` states, in words."""
    att, dfd = _side(attacker), _side(3 - attacker)
    return {
        "kill": f"the attacker, {att}, wins even where the defender has {K} more threats",
        "live": f"the defender, {dfd}, wins the pass-alive game (its target ends pass-alive) "
                f"even where the attacker has {K} more threats",
        "seki": f"the defender, {dfd}, wins even where the attacker has {K} more threats, "
                f"but not the pass-alive game there",
        "ko": "the winner changes with the balance",
        "unknown": "it states nothing more",
    }[status]


def status_definition(status: str, attacker: int) -> str:
    """What ``status`` is, for the reason a claim that rules it out is refused."""
    return {
        "kill": f"the attacker's ({_side(attacker)}'s) win at every balance",
        "live": f"the defender's ({_side(3 - attacker)}'s) win in the pass-alive game at "
                f"every balance",
        "seki": f"the defender's ({_side(3 - attacker)}'s) win at every balance, but not in "
                f"the pass-alive game where the attacker has {K} more threats",
        "ko": f"a winner that changes with the balance, from -{K} to +{K}",
    }[status]


# --- a file's whole claim ------------------------------------------------------------------------


@dataclass(frozen=True)
class TreeCheck:
    """One game tree of a file checked for a fact: the one its claim states, or (``again``)
    one the status needs, the same tree checked a second time."""

    game: int  # the game's index in the file
    label: str  # the file's name, with ``#N`` for a game after the first
    fact: Fact
    mode: str
    nodes: int  # the game tree's nodes as written, the root included
    again: bool
    result: CheckResult


@dataclass(frozen=True)
class FileCheck:
    """The check of a file's whole claim: the fact each game tree's claim states, and the
    status word the claims share. ``checks`` are the checks made, in order (where a tree
    does not prove its claim, the last one); ``reason`` says in one line why the claim is
    not proved where no tree failed; ``meaning`` what the status proved states."""

    claim: Claim  # the first game's
    attacker: int
    checks: tuple[TreeCheck, ...]
    proved: bool
    reason: str = ""
    meaning: str = ""


def check_file(path: str | Path,
               progress: Callable[[str], AbstractContextManager[object]] | None = None
               ) -> FileCheck:
    """:func:`check_games` of the games of the file at ``path``."""
    return check_games(read_move_games_file(path), str(path), progress)


def check_games(games: Sequence[tuple[MoveTree, bytes]], name: str,
                progress: Callable[[str], AbstractContextManager[object]] | None = None
                ) -> FileCheck:
    """Check the whole claim of a file (``name``) holding ``games`` (each a tree and its root
    node alone as a game, as :func:`tsumego.io.sgf.read_move_games` reads them).

    Each game tree is a proof of one fact, the one its claim (``TSR``) states; every game of
    the file is the same problem with the same side to play and claims the same status. The
    claim is proved when every tree proves its fact and those facts prove the status
    (:func:`required`); a claim whose own fact rules its status out is refused before any
    tree is checked (one fact rules a status out where it rules it out with others: each
    status is a conjunction of facts). Where a fact the status needs is missing, a tree of
    the same winner is checked again for it (a tree at one balance is often a proof at
    another, or in the pass-alive game, as it stands).
    ``progress(label)``, if given, wraps each tree's check. Raises :class:`CheckError` and
    :class:`tsumego.io.sgf.SgfError` for a file that is not a checkable tree."""
    labels = [name if i == 0 else f"{name}#{i}" for i in range(len(games))]
    claims: list[Claim] = []
    problems: list[Problem] = []
    for label, (tree, root) in zip(labels, games):
        try:
            claims.append(read_claim(tree.root))
        except CheckError as e:
            raise CheckError(f"{label}: {e}") from None
        problems.append(tree_problem(root, label))
    main, problem = claims[0], problems[0]
    attacker = problem.attacker
    status, to_play = main.status, main.to_play
    checks: list[TreeCheck] = []

    def refused(reason: str) -> FileCheck:
        return FileCheck(main, attacker, tuple(checks), False, reason)

    for label, claim, other in zip(labels[1:], claims[1:], problems[1:]):
        if _setup(other) != _setup(problem):
            return refused(f"{label} is another problem than {name} (its stones, target or "
                           f"region differ): its proof says nothing of this one")
        if claim.to_play != to_play:
            return refused(f"{label} claims {_side(claim.to_play)} to play, {name} "
                           f"{_side(to_play)} to play")
        if claim.status != status:
            return refused(f"{label} claims the status {claim.status}, {name} {status}")
    for label, claim in zip(labels, claims):
        if refutation(status, [claim.fact], attacker) is not None:
            where = "" if label == name else f" ({label})"
            return refused(f"the claim contradicts itself: {fact_words(to_play, claim.fact)}"
                           f"{where}, but the status {status} is "
                           f"{status_definition(status, attacker)}")

    def run(i: int, fact: Fact | None) -> CheckResult:
        tree = games[i][0]
        what = "" if fact is None else f" again ({fact_words(to_play, fact)})"
        label = f"checking {labels[i]}{what} ({len(tree):,} nodes)"
        with progress(label) if progress is not None else nullcontext():
            try:
                return check_tree(problems[i], tree, fact)
            except CheckError as e:
                if fact is not None:  # (the pass-alive test's own cap: no proof of it)
                    return CheckResult(False, (), str(e))
                raise CheckError(f"{labels[i]}: {e}" if i else str(e)) from None

    proved: list[Fact] = []
    for i, claim in enumerate(claims):
        result = run(i, None)
        checks.append(TreeCheck(i, labels[i], claim.fact, claim.mode, len(games[i][0]), False,
                                result))
        if not result.proved:
            return refused("")
        proved.append(claim.fact)
    for q in missing(status, proved, attacker):
        for i, claim in enumerate(claims):
            if claim.winner == q.winner:
                result = run(i, q)
                checks.append(TreeCheck(i, labels[i], q, claim.mode, len(games[i][0]), True,
                                        result))
                if result.proved:
                    proved.append(q)  # (a fact the status needs: it rules nothing out)
                    break
    left = missing(status, proved, attacker)
    if left:
        what = ("a second proof" if len(left) == 1 and len(games) == 1 else
                "another proof" if len(left) == 1 else "more proofs")
        needs = " and ".join(needed_words(q, proved, attacker) for q in left)
        note = ""
        tried = [c for c in checks if c.again and c.fact == left[0]]
        if len(left) == 1 and tried:
            c = tried[-1]
            where = " ".join(c.result.path) or "(root)"
            note = f"; {c.label} checked again for it fails at {where}: {c.result.reason}"
        return refused(f"the status {status} needs {what}: {needs} (not in this file{note})")
    meaning = status_meaning(status, attacker)
    if status == "ko":
        first, second = (_strongest(proved, w, attacker) for w in (main.winner, 3 - main.winner))
        meaning += f" ({_side(main.winner)} wins at {first:+d}, {_side(3 - main.winner)} at " \
                   f"{second:+d})"
    return FileCheck(main, attacker, tuple(checks), True, meaning=meaning)


def _setup(p: Problem) -> tuple[int, int, int, int, int]:
    """What makes two games the same problem: the board, its stones, the target, the
    region."""
    return p.size, p.black, p.white, p.target, p.region


def _strongest(facts: Sequence[Fact], winner: int, attacker: int) -> int:
    """The balance least favourable to ``winner`` at which ``facts`` prove its win in the
    game of rules.md."""
    at = [f.balance for f in facts if implies(f, Fact(winner, f.balance), attacker)]
    return min(at) if winner == BLACK else max(at)
