"""df-pn over the game of rules.md, exact under repetition, external ko threats and pairs of
passes.

The search runs over a *path*: ``history`` maps each stone arrangement since the root (or since
the last ko threat or pair of passes) to its latest index on the path. A play that recreates
one of them is illegal unless the mover has a threat (``balance`` > 0 for Black, < 0 for White);
using one moves ``balance`` toward 0 and leaves only the two arrangements around the play in the
history. Two passes in a row (a *pair*) stand for an exchange of plays elsewhere: the player
who passed first moves next, the history holds only the current arrangement and ``balance`` is 0,
unless the arrangement with that player to move already stood right after an earlier pair on
the path, which ends the game (the defender wins; in the pass-alive game, only with a
pass-alive target). ``pair_states`` maps each such *pair state* on the path to its index.

Results carry a *dependency index* (background.md section 2): the smallest path index whose
position they rely on (a repetition that made a play illegal, or a pair state that ended the
game). Only results that depend on nothing above their own node are stored as solved; the
others live in the parent's local child list for as long as the parent's call. A stored proof
keeps the arrangements and the pair states its lines create (exactly for small proofs, else as
a range of stone counts): on a path that already holds one of them, a play of the proof would
be illegal or a pair of it would end the game, so the proof is used only where none is on the
path. Solved results go to a table keyed by (arrangement, side to move, a pass just made)
holding the ko-threat bounds ``maxb`` (Black wins whenever ``balance >= maxb``) and ``minw``
(White wins whenever ``balance <= minw``), so one entry answers every balance; a *ko-free* proof
(no move in it was illegal by repetition, and the winner used no threat) is the same at every
balance and is stored with its bound at infinity (the position after a pair is searched at
balance 0 whatever the balance before it, so a pair never makes a proof depend on it).
Unsolved work numbers are keyed by (arrangement, side to move, balance[, pass]).

Two games are searched: the game of rules.md (``live=False``) and the *pass-alive* game used
to tell life from seki (``live=True``): the same game, except that where a repeated pair ends
it the defender wins only with a pass-alive target.

In the game of rules.md the attacker's pass is not searched where it cannot be the only win:
where the history holds only the current arrangement and the balance does not favour the
defender. (Proof: after the pass, the defender may pass back; the attacker must then win the
same position with the balance at 0, the same history and one pair state more, and there by a
play, since passing again would end the game. One pair state more never helps the attacker,
and a balance at 0 never helps it more than its own threats do, so that play wins here too.)

Every pass that is searched is searched last (``SearchOptions.pass_last``): while a play of the
node is still open, the pass's numbers do not choose the child or set the node's ``phi``
(``bounds.deferred_deltas``); they still count in its ``delta``, so the node is disproved only
with its pass. Only the order of the search changes.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

from tsumego.errors import BudgetExhausted
from tsumego.go.board import BLACK, Board, Undo, bits, opponent
from tsumego.go.coords import PASS
from tsumego.go.life import (
    attacker_captures_alone,
    ladder_kill,
    lost_in_atari,
    never_vital,
    target_benson_alive,
)
from tsumego.go.line import PASS_KEY, SIDE_KEY, pair_state, position_key
from tsumego.go.problem import Problem
from tsumego.knowledge.eyespace import ALIVE, DIST, MAX_CELLS, database, index_of
from tsumego.search.bounds import (
    INF,
    NO_DEP,
    child_thresholds,
    deferred_deltas,
    killer_delta,
    node_bounds,
    select_child,
    solved_dependency,
)
from tsumego.search.patterns import PatternCounts, pattern_key, pattern_of_play, target_liberties
from tsumego.search.table import NEG, POS, ProofScope, SolvedTable, WorkTable

NO_RANGE = 1 << 30  # lo of an empty range of stone counts (hi = -1)

if TYPE_CHECKING:
    from tsumego.go.line import Line


class Kill(NamedTuple):
    """The attacker's win by a plan read without search (the eye-space database's, or a
    ladder's): the stone-count range ``lo..hi`` of the arrangements its plays create and
    those arrangements (None: too many to keep), to be checked against the path."""

    lo: int
    hi: int
    created: frozenset[int] | None


class Child(NamedTuple):
    """What an expansion knows of one play's child: a function of the child's arrangement and
    the mover alone, so it is cached across parents."""

    win: int  # the winner the play fixes statically (0 if none)
    estimate: tuple[int, int]  # initial (phi, delta)
    # the arrangement the forced win of the side to move next creates: the attacker's
    # immediate capture of the target or atari that the target cannot escape, or (set by
    # the expansion, Engine._defender_threats) the defender's play that leaves the target
    # pass-alive; 0 if none
    forced: int
    stones: int  # the child's stone count (NO_RANGE: a capture of the target, no path holds it)
    forced_count: int  # the forced arrangement's stone count (NO_RANGE for a capture)
    kill: Kill | None  # the eye-space database's kill (None if none)
    # a defender's move after which a ladder may kill: read only when the search selects the
    # child (Engine._ladder_selected)
    ladder: bool
    libs: int  # the target's liberties in the child, at most 3 (a feature of the pattern)


class Expansion(NamedTuple):
    """The children of a position with one side to move, independent of the path: the moves
    (the pass last), the children's arrangement hashes, then one column per field of
    :class:`Child`, in its order (``counts``: the stones). With the attacker to move,
    ``forced`` and ``forced_counts`` also hold the defender's refutations that the node's null
    move finds (:meth:`Engine._defender_threats`), which are not the child's alone."""

    moves: tuple[int, ...]
    hashes: tuple[int, ...]
    wins: tuple[int, ...]
    estimates: tuple[tuple[int, int], ...]
    forced: tuple[int, ...]
    counts: tuple[int, ...]
    forced_counts: tuple[int, ...]
    kills: tuple[Kill | None, ...]
    ladders: tuple[bool, ...]


class _Token(NamedTuple):
    """What :meth:`Engine._leave` needs to undo :meth:`Engine._enter`."""

    board: Undo
    old: int  # the old index of a passed arrangement, or the pair state added
    history: dict[int, int] | None  # the history replaced (None if none)
    pair_counts: int  # the old mask of the pair states' stone counts


class Lookup(NamedTuple):
    """A child's numbers read from the tables (or its initial estimate), and the scope of its
    proof when it is solved (:data:`OPEN` when not)."""

    phi: int
    delta: int
    scope: ProofScope


class MidResult(NamedTuple):
    """What a call of :meth:`Engine._mid` found: the numbers, the dependency index (NO_DEP
    for none) and the scope of the proof (:data:`OPEN` while unsolved)."""

    phi: int
    delta: int
    dep: int
    scope: ProofScope


class _Kids:
    """The legal children of a node during one call of :meth:`Engine._mid`, as parallel lists
    (the functions of :mod:`tsumego.search.bounds` take the numbers as lists): each child's
    index in the expansion, the path index its play repeats (-1: a fresh arrangement, PAIR:
    the second pass of a pair), the stone count it creates (NO_RANGE: none), its (phi, delta),
    its dependency index and the scope of its proof; and the smallest path index among the
    plays that repetition made illegal."""

    __slots__ = ("sel", "repeats", "counts", "phis", "deltas", "deps", "scopes", "rep_dep")

    def __init__(self) -> None:
        self.sel: list[int] = []
        self.repeats: list[int] = []
        self.counts: list[int] = []
        self.phis: list[int] = []
        self.deltas: list[int] = []
        self.deps: list[int] = []
        self.scopes: list[ProofScope] = []
        self.rep_dep = NO_DEP


class Verdict(NamedTuple):
    """The winner of a position (0 where a search bounded by work did not settle it) and the
    work of its proof (nodes; 0 for a win the rules fix at once)."""

    winner: int
    work: int


def verdict_after(winner: Callable[..., Verdict], line: Line, color: int, move: int,
                  max_work: int | None) -> Verdict:
    """``winner`` (an engine's :meth:`winner`) after ``color`` plays ``move`` at the end of
    ``line``: the rules' own end where the move ends the game. The line is left as it was;
    an illegal move raises :class:`tsumego.go.line.IllegalLine`."""
    step = line.play(color, move)
    try:
        if step.ended:
            return Verdict(step.ended, 0)
        return winner(line, 3 - color, max_work=max_work)
    finally:
        line.undo()


class Interrupt(Protocol):
    """What stops a search from outside it, another thread setting it (``threading.Event``
    is one): the engines ask ``is_set()`` at each budget check and stop, ``BudgetExhausted``
    of kind ``"interrupt"``, once it is true."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class SearchOptions:
    """Tuning switches (each can be turned off to measure its gain)."""

    epsilon: float = 0.25  # the 1+epsilon threshold trick; 0 turns it off
    knowledge: bool = True  # initial proof numbers and ordering from liberties
    # with knowledge: the initial number of the side not to move sums over the mover's
    # replies, so it starts this many times the one-move estimate (1: the same; at least 1)
    sum_scale: int = 8
    benson: bool = True  # stop when the target is unconditionally alive
    capture: bool = True  # forced moves: a target in atari with the attacker to move is lost
    atari: bool = True  # forced moves: a target in atari that cannot escape is lost
    # the eye-space database: a target whose only open area is a small enclosed space is
    # pass-alive, or dead with the attacker's plays known, without search (eyespace.py)
    eyespace: bool = True
    # the attacker's null move (lambda search's threats of order 1): a defender's play that
    # would leave the target pass-alive at once, were the attacker to pass, refutes without
    # search every attacker move after which it still does
    threats: bool = True
    # ladders (lambda search's threats of order 1 for the attacker): a target of one block
    # that successive ataris capture, whatever the defender's saving plays, is lost without
    # search; the attacker's plays are checked against the path (life.ladder_kill)
    ladder: bool = True
    kofree: bool = True  # store proofs that meet no repetition as valid at every balance
    borrow: bool = True  # each of the two games' searches reads the other's wins that hold
    live_first: bool = True  # the defender to play: try the live game first (one search)
    # the two ends of the balances before balance 0, the side to play's own worst end first
    # (a win there is a win at every balance: one search instead of two or three)
    far_first: bool = True
    # Kawano's simulation: prove a child the way a sibling was proved, this many nodes per
    # try (0: off); tried only once the engine has searched ``simulation_from`` nodes: small
    # searches do not repay the tries, large ones (where siblings share long proofs) do
    simulation: int = 300
    simulation_from: int = 20000
    # a pass searched only once every play is refuted (a pass wins only by waiting, lifting
    # a repetition ban or running down threats; searched among the plays, its numbers and
    # the pairs of passes behind it pull df-pn into long detours)
    pass_last: bool = True
    # shape patterns learned during the search (search/patterns.py): a play's initial delta
    # scaled by how often plays of its pattern (3x3 shape, distance to the target, the
    # target's liberties after it, capture, role) proved a node, within [1/patterns,
    # patterns]; 0 turns it off
    patterns: int = 4
    # the killer play: the play that won the last node proved at the same depth (the
    # attacker's vital point after each defender try) starts with its initial delta divided
    # by this (bounds.killer_delta); 0 or 1 turns it off
    killer: int = 4
    # among children tied at the least delta, search the one with the largest phi (the
    # farthest from the opponent's proof) rather than the first (bounds.select_child)
    tie_phi: bool = True
    # the created arrangements a stored proof keeps exactly (beyond: their stone-count range
    # only, and the proof is searched again on every path whose counts overlap it: a small
    # cap makes the search prove large proofs again and again)
    created_max: int = 4096
    check_every: int = 1024  # nodes between budget checks
    # the engine that searches: the compiled core, or the reference engine in Python
    engine: Literal["compiled", "reference"] = "compiled"

    def __post_init__(self) -> None:
        # an initial number of 0 reads as a proof: a scale below 1 would answer without search
        if self.sum_scale < 1:
            raise ValueError(f"sum_scale must be at least 1, not {self.sum_scale}")
        if self.created_max < 0:
            raise ValueError(f"created_max must be at least 0, not {self.created_max}")
        if self.patterns < 0:
            raise ValueError(f"patterns must be at least 0, not {self.patterns}")
        if self.killer < 0:
            raise ValueError(f"killer must be at least 0, not {self.killer}")


@contextmanager
def deep_search() -> Iterator[None]:
    """Around a search: room on the stack for its recursion (one frame per ply), and Python's
    cyclic garbage collector paused, then both restored. Search nodes make no reference cycles
    (a whole solve leaves about two objects of cyclic garbage), so a collection frees nothing,
    but a full one walks every table entry, and they come more often as the tables grow.
    (The switch is process-wide: another thread's cyclic
    garbage waits until the search ends.) Nested, only the outermost restores: a solve holds
    it around all its searches and lets its engines go first, so that the collector, back
    on, does not walk their tables once per search."""
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20000))
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        sys.setrecursionlimit(old_limit)


_rng = random.Random(0x4E4B54)
_SIDE_KEY = SIDE_KEY
_PASS_KEY = PASS_KEY
_BALANCE_KEY = {k: _rng.getrandbits(64) for k in range(-64, 65)}
PAIR = -2  # a child's repetition index that marks the second pass of a pair
_EMPTY: frozenset[int] = frozenset()
# the attacker's null move: how many of the defender's plays that would make the target
# pass-alive at once are tried after each attacker move (Engine._defender_threats)
THREAT_TRIES = 2
SIM_MIN_WORK = 16  # simulate only siblings whose proof took at least this many nodes
# the scope of a static result: it creates nothing and holds at every balance
_STATIC = ProofScope(NO_RANGE, -1, _EMPTY, True)
# the scope of an unsolved node
OPEN = ProofScope(NO_RANGE, -1, None, False)


def _merge_created(lo: int, hi: int, created: frozenset[int] | None, count: int, h: int,
                   c_lo: int, c_hi: int, c_created: frozenset[int] | None, cap: int
                   ) -> tuple[int, int, frozenset[int] | None]:
    """Add to a proof's created arrangements (stone-count range ``lo..hi`` and the exact set,
    None once unknown or over ``cap``) one child's: the arrangement ``h`` its move creates
    (stone count ``count``; ``NO_RANGE`` for none) and its own proof's."""
    if count != NO_RANGE:
        lo = min(lo, count)
        hi = max(hi, count)
    lo = min(lo, c_lo)
    hi = max(hi, c_hi)
    if created is not None:
        if c_created is None:
            return lo, hi, None
        # one copy (sets now reach thousands of arrangements)
        created = created.union(c_created, (h,)) if count != NO_RANGE else created | c_created
        if len(created) > cap:
            return lo, hi, None
    return lo, hi, created


def _forced_scope(h: int, count: int) -> ProofScope:
    """The scope of a forced win at a child: nothing for the attacker's capture of the
    target, else the arrangement ``h`` with ``count`` stones that the forced play creates
    (the attacker's atari, or the defender's play that leaves the target pass-alive), which
    must not repeat one of the path's (the opponent's replies cannot matter)."""
    if count == NO_RANGE:
        return _STATIC
    return ProofScope(count, count, frozenset((h,)), True)


def _fits(lo: int, hi: int, created: frozenset[int] | None, seen: int,
          path: Iterable[int], pairs: Iterable[int] = ()) -> bool:
    """Can a stored proof be used on this path? Yes when no arrangement or pair state on the
    path has a stone count in the range ``lo..hi`` of those the proof creates (``seen`` is the
    mask of the path's counts), or when the proof's exact ``created`` set misses both the
    path's arrangements ``path`` and its pair states ``pairs``."""
    return lo > hi or not (seen >> lo) & ((2 << (hi - lo)) - 1) or (
        created is not None and created.isdisjoint(path) and created.isdisjoint(pairs))


class Engine:
    """df-pn for one problem. Reuse one engine for several balances and first moves: the
    solved table carries over."""

    def __init__(self, problem: Problem, *, live: bool = False, tt_size: int = 2_000_000,
                 max_nodes: int | None = None, deadline: float | None = None,
                 options: SearchOptions = SearchOptions(),
                 interrupt: Interrupt | None = None) -> None:
        self.problem = problem
        self.board: Board = problem.board()
        self.region = problem.region
        self.target = problem.target
        self.defender = problem.defender
        self.attacker = problem.attacker
        self.live = live
        self.options = options
        self.solved = SolvedTable(max(1024, tt_size // 2))
        self.work = WorkTable(max(1024, tt_size - tt_size // 2))
        self.nodes = 0
        self.depth_sum = 0  # the depths of the nodes searched, summed (over nodes: their mean)
        self.depth_max = 0  # the deepest node searched
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.interrupt = interrupt
        self._next_check = 1  # the first node checks the budget, then every check_every
        self._root_depth = 0
        self._benson: dict[int, bool] = {}  # arrangement -> target Benson-alive
        # points outside the region in a region Benson never counts as vital, on every board
        # the search reaches (plays stay in the region): a hint that shortens Benson's flood
        self._outside = never_vital(self.board, self.region, self.defender)
        self._alone: dict[int, bool] = {}  # arrangement -> the attacker captures alone
        # arrangement -> the target, in atari with the defender to move, is lost (the target's
        # blocks and their liberty follow from the arrangement: lost_in_atari's answer is a
        # function of it, and a third to a half of the calls repeat one)
        self._lost: dict[int, bool] = {}
        # (arrangement ^ side key) -> the attacker's ladder there, read (Engine._ladder)
        self._ladders: dict[int, Kill | None] = {}
        # the other game's table, whose wins for ``borrowed_winner`` hold here (borrow_wins)
        self.borrowed: SolvedTable | None = None
        self.borrowed_winner = 0
        # the winning move of proved nodes (by solved key), for simulation; and the children
        # a simulation was tried on (by solved key and balance), so each is tried once
        self._best: dict[int, int] = {}
        # the shapes of the plays that proved nodes, learned as the search goes
        self._patterns = PatternCounts(options.patterns)
        # depth -> the winning play of the last node proved at that depth (the killer play)
        self._killers: dict[int, int] = {}
        self._sim_tried: set[int] = set()
        # the node count from which simulation is tried (never when it is off)
        self._sim_from = options.simulation_from if options.simulation else sys.maxsize
        # the small caches' entries (Benson's answers, the best moves, ...) are small: capped
        # at tt_size, a large search empties them rarely
        self._cache_cap = max(1024, tt_size)
        self.root_move: int | None = None  # a winning move of the last root proved a win
        self.history: dict[int, int] = {}
        # the pair states on the path (pair_state -> path index), and the mask of their stone
        # counts
        self.pair_states: dict[int, int] = {}
        self.pair_counts = 0
        # the XOR of the pair states' keys: the work numbers of a position are kept apart for
        # each set of pair states (the position after a pair is the position before it with
        # one pair state more; sharing its numbers, df-pn would pass its own thresholds to
        # the position below and make no progress)
        self.pair_key = 0
        # mask of the stone counts of the arrangements in the history and of the pair states
        self.seen = 0
        # expansions by (arrangement ^ side key): a plain dict (cheaper per hit than an LRU)
        self._expansions: dict[int, Expansion] = {}
        self._expansions_cap = max(256, tt_size // 8)
        # a play's child by (arrangement ^ side key of the mover): (static winner, stone count,
        # eye-space kill, initial numbers, forced arrangement, its stone count), all functions
        # of the child's arrangement and the mover; many children of an expansion were made
        # before under another parent (transpositions)
        self._children: dict[int, Child] = {}
        # (its own cap, four times the expansions': its entries are a tenth of their size)
        self._children_cap = max(1024, tt_size // 2)
        # the eye-space table's shapes by (space, its cells next to the target) as (shape
        # index, the board points in the shape's cell order), and the attacker's plans by
        # (shape index, content as attacker | defender << 8, attacker to move)
        self._eye_shapes: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        self._eye_plans: dict[tuple[int, int, bool], frozenset[int] | None] = {}

    def share_caches(self, other: Engine) -> None:
        """Use ``other``'s caches of expansions and Benson answers: they depend only on the
        board, the region and the target, not on the game searched (live or not) or the
        path, so an engine for the same problem can share them."""
        assert other.problem is self.problem or (
            other.region == self.region and other.target == self.target
            and other.board.size == self.board.size)
        self._expansions = other._expansions
        self._expansions_cap = other._expansions_cap
        self._children = other._children
        self._children_cap = other._children_cap
        self._benson = other._benson
        self._alone = other._alone
        self._lost = other._lost
        self._ladders = other._ladders
        self._eye_shapes = other._eye_shapes
        self._eye_plans = other._eye_plans
        self._cache_cap = other._cache_cap

    def borrow_wins(self, other: Engine) -> None:
        """Read the wins that ``other`` (the same problem, the other game) has proved and
        that hold in this game too. The live game is harder for the defender (same moves,
        same repetition rules; a repeated pair of passes ends it for the defender only with a
        pass-alive target; the attacker's pass, pruned in the game of rules.md, never makes
        an attacker's win there): the attacker's wins in
        the game of rules.md are attacker's wins in the live game, and the defender's wins in
        the live game are defender's wins in the game of rules.md."""
        assert self.live != other.live
        self.borrowed = other.solved
        self.borrowed_winner = self.defender if other.live else self.attacker

    # --- budget ------------------------------------------------------------------------------
    def _visit(self, depth: int) -> None:
        """Count a node searched at ``depth`` (its depth too), checking the budget every
        ``check_every`` nodes."""
        self.nodes += 1
        self.depth_sum += depth
        self.depth_max = max(self.depth_max, depth)
        if self.nodes >= self._next_check:
            self._check_budget()

    def _check_budget(self) -> None:
        self._next_check = self.nodes + self.options.check_every
        if self.max_nodes is not None:
            if self.nodes >= self.max_nodes:
                raise BudgetExhausted("nodes")
            self._next_check = min(self._next_check, self.max_nodes)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise BudgetExhausted("time")
        if self.interrupt is not None and self.interrupt.is_set():
            raise BudgetExhausted("interrupt")

    # --- keys ----------------------------------------------------------------------------------
    def solved_key(self, h: int, color: int, passed: bool) -> int:
        """Table key of arrangement ``h`` with ``color`` to move, ``passed`` saying the last
        move was a pass (then a pass makes a pair: another position)."""
        return position_key(h, color, passed)

    def _count(self) -> int:
        """Stones on the board."""
        return (self.board.black | self.board.white).bit_count()

    # --- static evaluation ------------------------------------------------------------------
    def static_after(self, mover: int, captured: int) -> int:
        """Winner fixed by the play just made (0 if none): the attacker captured a target
        stone, or the defender made the target unconditionally alive (Benson)."""
        if mover == self.attacker:
            if captured & self.target:
                return self.attacker
        elif self.options.benson and self.benson_alive(self.board.hash):
            return self.defender
        return 0

    def end_by_passes(self) -> int:
        """Winner when a repeated pair of passes ends the game with the target standing: the
        defender, except in the live game, where the target must also be pass-alive."""
        if self.live:
            # Benson first (cached), then the exact one-player search, cached by arrangement:
            # the same final arrangement ends many lines
            h = self.board.hash
            dead = self._alone.get(h)
            if dead is None:
                dead = False
                if not self.benson_alive(h):
                    dead = attacker_captures_alone(self.board, self.target, self.region,
                                                   self.attacker, deadline=self.deadline)
                if len(self._alone) >= self._cache_cap:
                    self._alone.clear()
                self._alone[h] = dead
            if dead:
                return self.attacker
        return self.defender

    def _lost_in_atari(self, h: int, blocks: int, lib: int) -> bool:
        """:func:`tsumego.go.life.lost_in_atari` on the current board (arrangement ``h``), whose
        target ``blocks`` have the one liberty ``lib``; cached by arrangement."""
        lost = self._lost.get(h)
        if lost is None:
            if len(self._lost) >= self._cache_cap:
                self._lost.clear()
            lost = lost_in_atari(self.board, blocks, lib, self.region, self.defender)
            self._lost[h] = lost
        return lost

    def benson_alive(self, h: int) -> bool:
        """Is the target Benson-alive on the current board (arrangement ``h``)? Cached: the
        same arrangement is met again through other parents."""
        alive = self._benson.get(h)
        if alive is None:
            if len(self._benson) >= self._cache_cap:
                self._benson.clear()
            alive = target_benson_alive(self.board, self.target, self.defender, self._outside)
            self._benson[h] = alive
        return alive

    def _eye_space(self, blocks: int, libs: int, empty: int, to_move: int, stones: int
                   ) -> Kill | bool | None:
        """The eye-space database on the current board (``stones`` stones, ``empty`` its empty
        points), ``to_move`` to move, the target being the one block ``blocks`` with the
        liberties ``libs``: True when the target is pass-alive (the defender wins on any path),
        the attacker's win with the arrangements its plays create (:class:`Kill`; it holds
        on a path that holds none of them), or None: not an enclosed space of the database, or
        neither answer."""
        board = self.board
        geo = board.geo
        region = self.region
        # the space, grown within the region (cheap: a space reaching outside it is not used)
        space = geo.flood(libs, region & ~blocks)
        # holding every liberty (one outside the region can never be filled), enclosed by the
        # target alone, and holding every empty point of the region
        if not space or libs & ~space or space.bit_count() > MAX_CELLS or (
                geo.spread(space) & ~space & ~blocks or space & empty != empty & region):
            return None
        touching = space & geo.spread(blocks)
        eyes = database()
        key = (space, touching)
        got = self._eye_shapes.get(key)
        if got is None:
            size = geo.size
            pts = list(bits(space))
            k, order = eyes.locate([(p % size, p // size) for p in pts],
                                   [bool(touching >> p & 1) for p in pts])
            if len(self._eye_shapes) >= self._cache_cap:
                self._eye_shapes.clear()
            got = self._eye_shapes[key] = (k, tuple(pts[i] for i in order))
        k, points = got
        if k < 0:
            return None
        att_stones = board.stones(self.attacker)
        def_stones = board.stones(self.defender)
        a = d = 0
        for i, p in enumerate(points):
            if att_stones >> p & 1:
                a |= 1 << i
            elif def_stones >> p & 1:
                d |= 1 << i
        index = index_of(a, d)
        atm = to_move == self.attacker
        v = eyes.value(k, index, atm)
        if v & ALIVE:
            return True
        if not v & DIST:
            return None
        if len(self._eye_plans) >= self._cache_cap:
            self._eye_plans.clear()
        plan = eyes.plan(k, a, d, atm, self._eye_plans)
        if plan is None:
            return None
        # the arrangements the plan creates: this one's outside the space with each content
        outside = stones - (a | d).bit_count()
        lo, hi = NO_RANGE, -1
        for c in plan:
            count = outside + ((c & 0xFF) | c >> 8).bit_count()
            lo = min(lo, count)
            hi = max(hi, count)
        if len(plan) > self.options.created_max:
            return Kill(lo, hi, None)
        return Kill(lo, hi, self._plan_arrangements(points, a, d, plan))

    def _plan_arrangements(self, points: tuple[int, ...], a: int, d: int, plan: frozenset[int]
                           ) -> frozenset[int]:
        """The hashes of the arrangements an eye-space plan creates: the current board with
        the space's ``points`` (holding attacker stones ``a`` and defender stones ``d``, as
        bits in the points' order) holding each content of ``plan`` instead."""
        board = self.board
        zob = board.geo.zobrist
        attacker = self.attacker
        defender = self.defender
        h_out = board.hash
        for i, p in enumerate(points):
            if a >> i & 1:
                h_out ^= zob[p][attacker]
            elif d >> i & 1:
                h_out ^= zob[p][defender]
        created = []
        for c in plan:
            h = h_out
            for i, p in enumerate(points):
                if c >> i & 1:
                    h ^= zob[p][attacker]
                elif c >> (i + 8) & 1:
                    h ^= zob[p][defender]
            created.append(h)
        return frozenset(created)

    # --- the public entry points -------------------------------------------------------------
    def solve(self, color: int, balance: int, *, passed: bool = False) -> int:
        """Winner with ``color`` to move at ``balance`` from the current board, whose
        arrangement is the root of the history. Raises :class:`BudgetExhausted`."""
        with deep_search():
            self._start_path()
            phi, delta, _ = self._root(color, balance, passed, 0)
        return color if phi == 0 else opponent(color)

    def solve_after(self, color: int, move: int, balance: int) -> int | None:
        """Winner after ``color`` plays ``move`` (or passes) from the root at ``balance``;
        ``None`` when the move is illegal. The root stays the first arrangement of the history."""
        b = self.board
        snap = b.snapshot()
        with deep_search():
            try:
                return self._after(color, move, balance)
            finally:
                b.undo(snap)

    def _after(self, color: int, move: int, balance: int) -> int | None:
        """:meth:`solve_after` without its setting: may leave the board changed."""
        b = self.board
        root_hash = b.hash
        self._start_path()
        opp = opponent(color)
        if move == PASS:
            self.history[root_hash] = 1
            phi, delta, _ = self._root(opp, balance, True, 1)
            return color if delta == 0 else opp
        if not (b.empty & self.region) >> move & 1:
            return None
        cap = b.play_fast(move, color)
        if cap < 0:
            return None
        w = self.static_after(color, cap)
        if w:
            return w
        self.history[b.hash] = 1
        self.seen |= 1 << self._count()
        phi, delta, _ = self._root(opp, balance, False, 1)
        return color if delta == 0 else opp

    def _start_path(self) -> None:
        """Make the current board the root of the path: its history holds only this
        arrangement, at index 0, and no pair state."""
        self.history = {self.board.hash: 0}
        self.pair_states = {}
        self.pair_counts = 0
        self.pair_key = 0
        self.seen = 1 << self._count()

    def solve_here(self, color: int, balance: int, passed: bool, history: dict[int, int],
                   seen: int, depth: int, *, pair_states: dict[int, int] | None = None,
                   pair_counts: int = 0, max_work: int | None = None) -> int:
        """Winner with ``color`` to move at the current board, reached by a path whose
        arrangements (since the root or the last threat or pair of passes) are ``history``
        (arrangement -> latest index), whose pair states (:func:`pair_state`) are
        ``pair_states`` (-> index), ``pair_counts`` the mask of their stone counts, ``seen``
        the mask of the stone counts of both, and ``depth`` its length. ``passed``: the last
        move was a pass. With ``max_work``, 0 where the search needs more nodes than that
        (what it proved on the way stays in the table)."""
        saved = self.history, self.seen, self.pair_states, self.pair_counts, self.pair_key
        own_max = self.max_nodes
        stop = None if max_work is None else self.nodes + max_work + 1
        if stop is not None and (own_max is None or stop < own_max):
            self.max_nodes = stop
            self._next_check = min(self._next_check, stop)
        else:
            stop = None  # the engine's own budget ends first
        with deep_search():
            try:
                self.history = history
                self.seen = seen
                self.pair_states = {} if pair_states is None else pair_states
                self.pair_counts = pair_counts
                self.pair_key = 0
                for k in self.pair_states:
                    self.pair_key ^= k
                phi, _, _ = self._root(color, balance, passed, depth)
            except BudgetExhausted as e:
                if stop is None or e.kind != "nodes":
                    raise
                return 0
            finally:
                (self.history, self.seen, self.pair_states, self.pair_counts,
                 self.pair_key) = saved
                if stop is not None:
                    self.max_nodes = own_max
                    self._next_check = self.nodes + 1  # the next node sets it afresh
        return color if phi == 0 else opponent(color)

    def known_winner(self, color: int, balance: int, passed: bool, h: int, seen: int,
                     path: Iterable[int], pairs: Iterable[int] = ()) -> tuple[int, int]:
        """(winner, proof work) of arrangement ``h`` with ``color`` to move, read from the
        table without a search: a proof the engine already holds and may use on this path
        (the rule of :meth:`_lookup`; ``seen``, ``path`` and ``pairs`` are the stone counts,
        the arrangements and the pair states of the path *above* the position); (0, 0) when
        it holds none. A caller that asks about many positions it met before (the tree
        builder) saves the expansion and the children's look-ups a search from the root would
        make."""
        phi, delta, _ = self._lookup(color, balance, passed, h, (1, 1), seen, path, pairs, 0)
        if phi and delta:
            return 0, 0
        e = self.solved.get(self.solved_key(h, color, passed))
        return (color if phi == 0 else opponent(color)), (e.work if e is not None else 0)

    # --- lines (the engine interface the tree builder, the verifier and GTP use) -----------
    def winner(self, line: Line, to_move: int, *, max_work: int | None = None) -> Verdict:
        """The winner with ``to_move`` to play at the end of ``line`` (a line of play from
        this engine's problem), and the work of its proof; with ``max_work``, winner 0 where
        a search of that many nodes does not settle it."""
        if line.ended:
            return Verdict(line.ended, 0)
        b = self.board
        root = b.snapshot()
        b.black, b.white, b.hash = line.board.black, line.board.white, line.board.hash
        before = self.nodes
        try:
            w = self.solve_here(to_move, line.balance, line.passed, dict(line.history), line.seen,
                                line.depth, pair_states=dict(line.pair_states),
                                pair_counts=line.pair_counts, max_work=max_work)
        finally:
            b.undo(root)
        if not w:
            return Verdict(0, 0)
        e = self.solved.get(self.solved_key(line.board.hash, to_move, line.passed))
        return Verdict(w, e.work if e is not None else self.nodes - before)

    def winner_after(self, line: Line, color: int, move: int, *,
                     max_work: int | None = None) -> Verdict:
        """:meth:`winner` after ``color`` plays ``move`` at the end of ``line`` (raises
        :class:`tsumego.go.line.IllegalLine` for an illegal move; the line is left as it was)."""
        return verdict_after(self.winner, line, color, move, max_work)

    def known_after(self, line: Line, color: int, move: int) -> Verdict:
        """The winner after ``color`` plays ``move`` (a legal move) at the end of ``line``
        where the engine already holds a proof it may use on this path (no search), else
        Verdict(0, 0). A move that uses a threat or makes a pair of passes starts the history
        afresh and is never read this way; one that ends the game is not looked up."""
        b = line.board
        h = b.hash
        if move == PASS:
            if line.passed:
                return Verdict(0, 0)
        else:
            snap = b.snapshot()
            cap = b.play_fast(move, color)
            h = b.hash
            b.undo(snap)
            if cap < 0 or h in line.history or (color == self.attacker and cap & self.target):
                return Verdict(0, 0)
        w, work = self.known_winner(3 - color, line.balance, move == PASS, h, line.seen,
                                    line.history, line.pair_states)
        return Verdict(w, work)

    def _root(self, color: int, balance: int, passed: bool, depth: int) -> tuple[int, int, int]:
        self._root_depth = depth
        self.root_move = None
        while True:
            r = self._mid(color, balance, passed, depth, INF, INF)
            if r.phi == 0 or r.delta == 0:
                return r.phi, r.delta, r.dep

    # --- df-pn --------------------------------------------------------------------------------
    def _expand(self, color: int) -> Expansion:
        """The children of the current board with ``color`` to move, independent of the path
        (see :class:`Expansion`). A child's arrangement met before under another parent is
        read from the cache of children, else worked out (:meth:`_new_child`)."""
        board = self.board
        geo = board.geo
        flood = geo.flood
        play = board.play_fast
        defender = self.defender
        black0, white0, h0 = board.black, board.white, board.hash
        occupied = black0 | white0
        s0 = occupied.bit_count()
        # the blocks holding the target: they change only when the defender plays next to them
        blocks = flood(self.target, board.stones(defender))
        near = geo.dilate(blocks)
        one_block = flood(blocks & -blocks, blocks) == blocks
        children = self._children
        side = _SIDE_KEY[color]
        moves: list[int] = []
        hashes: list[int] = []
        kids: list[Child] = []
        captures: list[int] = []
        for p in [*bits(geo.full & ~occupied & self.region), PASS]:
            known: Child | None = None
            cap = 0
            if p == PASS:
                h = h0
            else:
                cap = play(p, color)
                if cap < 0:
                    continue  # suicide
                h = board.hash
                # the same child met under another parent: what follows is a function of the
                # child's arrangement and the mover alone
                known = children.get(h ^ side)
            if known is None:
                known = self._new_child(p, cap, h, color, blocks, near, one_block, s0)
                if p != PASS:
                    if len(children) >= self._children_cap:
                        children.clear()
                    children[h ^ side] = known
            board.black, board.white, board.hash = black0, white0, h0
            moves.append(p)
            hashes.append(h)
            kids.append(known)
            captures.append(cap)
        forced = [k.forced for k in kids]
        forced_counts = [k.forced_count for k in kids]
        estimates = [k.estimate for k in kids]
        if self.options.patterns:
            counts = self._patterns
            far = geo.dilate(near)
            for i, p in enumerate(moves):
                if p != PASS:
                    phi, delta = estimates[i]
                    key = pattern_key(board, p, color, near, far, kids[i].libs,
                                      captures[i] != 0, self.attacker)
                    estimates[i] = (phi, counts.offer(key, delta))
        if color == self.attacker and self.options.threats and self.options.benson:
            # the defender's plays within two points of the target's blocks: a narrower scan
            # (which plays are tried changes no result)
            scan = geo.dilate(near) & ~occupied & self.region
            self._defender_threats(scan, moves, [k.win for k in kids], forced, forced_counts)
        return Expansion(tuple(moves), tuple(hashes), tuple(k.win for k in kids),
                         tuple(estimates), tuple(forced),
                         tuple(k.stones for k in kids), tuple(forced_counts),
                         tuple(k.kill for k in kids), tuple(k.ladder for k in kids))

    def _defender_threats(self, scan: int, moves: list[int], wins: list[int],
                          forced: list[int], forced_counts: list[int]) -> None:
        """The attacker's null move (threat order 1 of lambda search), with the attacker to
        move on the current board and ``moves`` its children: were the attacker to pass,
        which defender plays among the points ``scan`` would leave the target pass-alive at
        once (Benson)? The first ``THREAT_TRIES`` of them, in point order, are tried after
        each child not yet decided; a child after which one is legal and still leaves the
        target pass-alive is lost for the attacker: ``forced`` gets the arrangement that play
        creates (checked against the path like the attacker's forced wins) and
        ``forced_counts`` its stone count. Exact: the winner is what Benson's test says on
        the board after both plays; the candidates only choose which plays to test. A
        function of the node's arrangement alone."""
        board = self.board
        play = board.play_fast
        defender = self.defender
        black0, white0, h0 = board.black, board.white, board.hash
        candidates: list[int] = []
        for d in bits(scan):
            alive = play(d, defender) >= 0 and self.benson_alive(board.hash)
            board.black, board.white, board.hash = black0, white0, h0
            if alive:
                candidates.append(d)
                if len(candidates) == THREAT_TRIES:
                    break
        if not candidates:
            return
        for i, p in enumerate(moves):
            if wins[i] or forced[i]:
                continue
            if p != PASS:
                play(p, self.attacker)
            b1, w1, h1 = board.black, board.white, board.hash
            for d in candidates:
                if d != p and play(d, defender) >= 0 and self.benson_alive(board.hash):
                    forced[i] = board.hash
                    forced_counts[i] = (board.black | board.white).bit_count()
                board.black, board.white, board.hash = b1, w1, h1
                if forced[i]:
                    break
            board.black, board.white, board.hash = black0, white0, h0

    def _new_child(self, p: int, cap: int, h: int, color: int, blocks: int, near: int,
                   one_block: bool, s0: int) -> Child:
        """What :meth:`_expand` knows of the child the board is on: ``color`` just played
        ``p`` (or passed), capturing ``cap``, from a board of ``s0`` stones whose target
        ``blocks`` (``one_block``: a single block) have the points ``near`` around them; ``h``
        is the child's arrangement.

        A capture of the target is a static win, and so are an attacker's play that leaves
        the target in atari with no escape (:func:`tsumego.go.life.lost_in_atari`) and a
        defender's win the eye-space table finds (a pass-alive target); the table's kill is
        kept to be checked against the path. Initial numbers: few target liberties make the
        attacker's proof short (phi = the liberties with the attacker to move), one-point eyes
        make the defender's short (3 less the eyes, at least 1). The number of the side *not*
        to move is a sum over the mover's replies once the node is expanded (several times its
        one-move estimate), so it starts ``sum_scale`` times larger: a fresh child then no
        longer looks better than an expanded sibling only because it has not been expanded,
        and the search goes deeper instead of expanding every sibling first."""
        board = self.board
        geo = board.geo
        full = geo.full
        flood = geo.flood
        defender = self.defender
        region = self.region
        options = self.options
        defending = color == defender
        opp = 3 - color
        w = 0
        b = blocks
        single = one_block
        if p == PASS:
            c = s0
        else:
            w = self.static_after(color, cap)
            # a capture of the target creates an arrangement no ancestor can hold (they all
            # hold the target): no count, so no proof through it is kept from any path
            c = (NO_RANGE if w and not defending else
                 s0 + 1 - cap.bit_count() if cap else s0 + 1)
            if not w and defending and near >> p & 1:
                b = flood(blocks | (1 << p), board.stones(defender))
                single = one_block or flood(b & -b, b) == b
        if w:
            return Child(w, (1, 1), 0, c, NO_RANGE, None, False,
                         0 if w == self.attacker else target_liberties(board, self.target,
                                                                       defender))
        empty = full & ~(board.black | board.white)
        libs = geo.dilate(b) & empty
        n = libs.bit_count()
        n3 = min(n, 3)  # b: the target's blocks in the child
        kill = None
        if n == 1 and options.atari and not defending and self._lost_in_atari(h, b, libs):
            # the defender to move cannot save the target
            return Child(self.attacker, (1, 1), 0, c, NO_RANGE, None, False, n3)
        if (options.eyespace and single and p != PASS
                and (empty & region).bit_count() <= MAX_CELLS):
            r = self._eye_space(b, libs, empty, opp, c)
            if isinstance(r, Kill):
                kill = r
            elif r:
                return Child(defender, (1, 1), 0, c, NO_RANGE, None, False, n3)
        forced, forced_count = self._forced_win(b, libs, single) if defending else (0, NO_RANGE)
        # a ladder may kill: read only when the search selects the child
        ladder = (defending and options.ladder and not forced and kill is None and n == 2
                  and single)
        if options.knowledge:
            own = board.stones(defender)
            eyes = (empty & region & ~geo.spread(full & ~own)).bit_count()
            e = 3 - eyes if eyes < 2 else 1
            scale = options.sum_scale
            est = (n, e * scale) if opp == self.attacker else (e, n * scale)
        else:
            est = (1, 1)
        return Child(0, est, forced, c, forced_count, kill, ladder, n3)

    def _ladder(self, p: int, h: int) -> Kill | None:
        """The attacker's ladder after the defender's move ``p`` (arrangement ``h``; PASS:
        the current board), :func:`tsumego.go.life.ladder_kill`, as a kill whose plays'
        arrangements the path must not hold; None if none. Cached by arrangement."""
        key = h ^ _SIDE_KEY[self.attacker]
        if key in self._ladders:
            return self._ladders[key]
        board = self.board
        snap = board.snapshot()
        if p != PASS:
            board.play_fast(p, self.defender)
        made = ladder_kill(board, self.target, self.region, self.defender, True)
        board.undo(snap)
        kill = None
        if made == ():
            kill = Kill(NO_RANGE, -1, frozenset())  # a capture at once: nothing to check
        elif made is not None:
            counts = [c for _, c in made]
            created = frozenset(h for h, _ in made)
            kill = Kill(min(counts), max(counts),
                        created if len(created) <= self.options.created_max else None)
        if len(self._ladders) >= self._cache_cap:
            self._ladders.clear()
        self._ladders[key] = kill
        return kill

    def _ladder_selected(self, ex: Expansion, kids: _Kids, best: int) -> bool:
        """The child ``best`` of ``kids``, a defender's move that may meet a ladder, is
        selected for search: read the ladder, and where it kills with plays legal on this
        path, prove the child for the attacker without a node. Reading only the children the
        search selects spares the reads of the many children it never enters; the result is
        the same in both engines, whatever they cache, since a read depends on the
        arrangement alone."""
        i = kids.sel[best]
        kill = self._ladder(ex.moves[i], ex.hashes[i])
        if kill is None or not _fits(kill.lo, kill.hi, kill.created, self.seen, self.history):
            return False
        kids.phis[best] = 0
        kids.deltas[best] = INF
        kids.deps[best] = NO_DEP
        kids.scopes[best] = ProofScope(kill.lo, kill.hi, kill.created, True)
        return True

    def _forced_win(self, blocks: int, libs: int, single: bool) -> tuple[int, int]:
        """The attacker to move next on the current board, whose target ``blocks`` (``single``:
        one block) have the liberties ``libs``: can it capture a target block at once (a
        target in atari, or one of several blocks), or give an atari that a target of one
        block with two liberties cannot escape? (The two cases never meet.) The arrangement
        that play makes and its stone count (NO_RANGE for a capture), or (0, NO_RANGE)."""
        n = libs.bit_count()
        try_capture = self.options.capture and n <= 4 and not (n > 1 and single)
        try_atari = self.options.atari and n == 2 and single
        if not (try_capture or try_atari):
            return 0, NO_RANGE
        board = self.board
        geo = board.geo
        play = board.play_fast
        attacker = self.attacker
        target = self.target
        b1, w1, h1 = board.black, board.white, board.hash
        forced, forced_count = 0, NO_RANGE
        for q in bits(libs & self.region):
            c2 = play(q, attacker)
            if try_capture:
                if c2 > 0 and c2 & target:
                    forced = board.hash
            elif c2 >= 0:
                lib = geo.dilate(blocks) & geo.full & ~(board.black | board.white)
                if not lib & (lib - 1) and self._lost_in_atari(board.hash, blocks, lib):
                    forced = board.hash
                    forced_count = (b1 | w1).bit_count() + 1 - c2.bit_count()
            board.black, board.white, board.hash = b1, w1, h1
            if forced:
                break
        return forced, forced_count

    def _expansion(self, color: int) -> Expansion:
        """Expand the current board for ``color`` and cache the result (the cache is emptied
        when full: an expansion is recomputed at no loss of exactness)."""
        ex = self._expand(color)
        if len(self._expansions) >= self._expansions_cap:
            self._expansions.clear()
        self._expansions[self.board.hash ^ _SIDE_KEY[color]] = ex
        return ex

    def _enter(self, p: int, color: int, h0: int, depth: int, threat: int, count: int,
               seen: int, s0: int) -> _Token:
        """Play ``color``'s child move ``p`` (or pass) from the node at ``depth`` (arrangement
        ``h0``, ``s0`` stones, path counts ``seen``) and extend the path: a single pass records
        the arrangement again one ply deeper; the second pass of a pair (``threat`` is
        ``PAIR``) starts the history afresh from this arrangement and adds the pair state; a
        play that used a threat (``threat`` >= 0) resets the history to the two arrangements
        around it. ``count`` is the child's stone count. Returns what :meth:`_leave` needs."""
        board = self.board
        snap = board.snapshot()
        history = self.history
        if p == PASS:
            if threat == PAIR:
                key = pair_state(h0, 3 - color)
                self.pair_states[key] = depth + 1
                self.pair_key ^= key
                token = _Token(snap, key, history, self.pair_counts)
                self.pair_counts |= 1 << s0
                self.history = {h0: depth + 1}
                self.seen = self.pair_counts
                return token
            old = history[h0]
            history[h0] = depth + 1
            return _Token(snap, old, None, 0)
        board.play_fast(p, color)
        if threat >= 0:
            self.history = {h0: depth, board.hash: depth + 1}
            self.seen = self.pair_counts | (1 << s0) | (1 << count)
            return _Token(snap, -1, history, 0)
        history[board.hash] = depth + 1
        self.seen = seen | (1 << count)
        return _Token(snap, -1, None, 0)

    def _leave(self, p: int, h0: int, seen: int, token: _Token) -> None:
        """Undo :meth:`_enter`."""
        snap, old, saved, pair_counts = token
        self.seen = seen
        if p == PASS:
            if saved is not None:  # a pair: ``old`` is its pair state
                del self.pair_states[old]
                self.pair_key ^= old
                self.pair_counts = pair_counts
                self.history = saved
            else:
                self.history[h0] = old
            return
        if saved is not None:
            self.history = saved
        else:
            del self.history[self.board.hash]
        self.board.undo(snap)

    def _lookup(self, color: int, balance: int, passed: bool, h: int, est: tuple[int, int],
                seen: int, path: Iterable[int], pairs: Iterable[int], pair_key: int) -> Lookup:
        """The numbers of a child position: a solved result when the table holds one whose
        proof is valid here (with its proof's scope), else the work numbers or the initial
        estimate (with the scope :data:`OPEN`). ``seen`` is the mask of stone counts of the
        arrangements and pair states the child's path already holds, ``path`` those
        arrangements and ``pairs`` those pair states: a stored proof that creates an
        arrangement or a pair state with one of those counts might play into a repetition, or
        end the game by a pair, here, so it is used only if its exact set of created
        arrangements and pair states (kept for small proofs) misses both."""
        # the table key (:meth:`solved_key`, written out: this runs once per child per visit)
        sk = h ^ _SIDE_KEY[color]
        if passed:
            sk ^= _PASS_KEY
        e = self.solved.data.get(sk)
        if e is not None:
            if balance >= e.maxb:
                sc = e.black
                if _fits(sc.lo, sc.hi, sc.created, seen, path, pairs):
                    return Lookup(0, INF, sc) if color == BLACK else Lookup(INF, 0, sc)
            if balance <= e.minw:
                sc = e.white
                if _fits(sc.lo, sc.hi, sc.created, seen, path, pairs):
                    return Lookup(INF, 0, sc) if color == BLACK else Lookup(0, INF, sc)
        if self.borrowed is not None:
            e = self.borrowed.get(sk)
            if e is not None:
                bw = self.borrowed_winner
                if bw == BLACK:
                    ok, sc = balance >= e.maxb, e.black
                else:
                    ok, sc = balance <= e.minw, e.white
                if ok and _fits(sc.lo, sc.hi, sc.created, seen, path, pairs):
                    return Lookup(0, INF, sc) if color == bw else Lookup(INF, 0, sc)
        w = self.work.data.get(sk ^ _BALANCE_KEY[balance] ^ pair_key)
        if w is not None:
            return Lookup(w.phi, w.delta, OPEN)
        return Lookup(est[0], est[1], OPEN)

    # --- Kawano's simulation --------------------------------------------------------------------
    def _try_simulation(self, color: int, balance: int, passed: bool, depth: int, kids: _Kids,
                        ex: Expansion, best: int) -> ProofScope | None:
        """At the child ``best`` of ``kids`` about to be searched (the board is on it,
        ``color`` to move): if a sibling move already lost to a known reply, try to prove that
        this child is won for ``color`` the same way (:meth:`_simulate`), once per child."""
        phis = kids.phis
        if 0 not in phis:
            return None  # no sibling lost yet (most calls), found by a C-level scan
        sel = kids.sel
        e_moves, e_hash = ex.moves, ex.hashes
        key = self.solved_key(e_hash[sel[best]], color, passed) ^ _BALANCE_KEY[balance]
        if key in self._sim_tried:
            return None
        for j in range(len(sel)):
            if phis[j] == 0 and j != best:
                sib = self.solved_key(e_hash[sel[j]], color, e_moves[sel[j]] == PASS)
                e = self.solved.get(sib)
                if sib in self._best and e is not None and e.work >= SIM_MIN_WORK:
                    break
        else:
            return None
        if len(self._sim_tried) >= self._cache_cap:
            self._sim_tried.clear()
        self._sim_tried.add(key)
        return self._simulate(color, balance, passed, depth, color,
                              e_hash[sel[best]] ^ e_hash[sel[j]],
                              self.nodes + self.options.simulation)

    def _simulate(self, color: int, balance: int, passed: bool, depth: int, win: int,
                  shadow: int, limit: int) -> ProofScope | None:
        """Kawano's simulation: prove that ``win`` wins here by replaying the proof of a
        *shadow* position, whose arrangement hash is this one's XOR ``shadow`` (a sibling that
        differs by the loser's first move). At ``win``'s turns only the shadow's winning move
        is tried; at the loser's every move is answered. Any repetition, a reply that does not
        win, or more nodes than ``limit`` and the try fails (None); a success is an ordinary
        proof, checked on this board with this path, stored like any other: returns its
        scope."""
        self._visit(depth)
        if self.nodes > limit:
            return None
        h0 = self.board.hash
        start = self.nodes
        sk = self.solved_key(h0, color, passed)
        ex = self._expansions.get(h0 ^ _SIDE_KEY[color]) or self._expansion(color)
        e_moves = ex.moves
        if color == win:
            m = self._best.get(self.solved_key(h0 ^ shadow, color, passed))
            if m is None or m not in e_moves:
                return None
            order = [e_moves.index(m)]
        else:
            order = list(range(len(e_moves)))
        lo, hi = NO_RANGE, -1
        created: frozenset[int] | None = _EMPTY
        kofree = True
        cap = self.options.created_max
        for i in order:
            p = e_moves[i]
            if p == PASS and not passed and self._pass_never_only_win(color, balance):
                if color == win:
                    return None
                continue
            sc = self._simulate_child(ex, i, color, balance, passed, depth, win, shadow, limit)
            if sc is None:
                return None
            c = NO_RANGE if p == PASS else ex.counts[i]
            lo, hi, created = _merge_created(lo, hi, created, c, ex.hashes[i], sc.lo, sc.hi,
                                             sc.created, cap)
            kofree = kofree and sc.kofree
        black_wins = win == BLACK
        rec = NEG if black_wins else POS
        self.solved.record(sk, black_wins, rec if kofree and self.options.kofree else balance,
                           self.nodes - start + 1, lo, hi, created)
        self.work.discard(sk ^ _BALANCE_KEY[balance] ^ self.pair_key)
        if color == win:
            self._best[sk] = e_moves[order[0]]
        return ProofScope(lo, hi, created, kofree)

    def _simulate_child(self, ex: Expansion, i: int, color: int, balance: int, passed: bool,
                        depth: int, win: int, shadow: int, limit: int) -> ProofScope | None:
        """In :meth:`_simulate`: the scope of ``win``'s win after ``color``'s move ``i`` of the
        expansion ``ex``, read from the rules or the table or simulated in turn; None where
        the try fails."""
        p = ex.moves[i]
        h = ex.hashes[i]
        w = ex.wins[i]
        history = self.history
        seen = self.seen
        attacker = self.attacker
        if p == PASS:
            if passed:
                return None  # a pair of passes: left to the full search
        elif h in history:
            return None  # repetition: left to the full search
        scope = _STATIC
        forced = ex.forced[i]
        if not w and forced and forced not in history and forced != h:
            w = 3 - color  # the mover's opponent wins by its forced play
            scope = _forced_scope(forced, ex.forced_counts[i])
        elif not w and p != PASS:
            ew = ex.kills[i]
            if ew is not None and _fits(ew.lo, ew.hi, ew.created, seen, history):
                w = attacker
                scope = ProofScope(ew.lo, ew.hi, ew.created, True)
        if w:
            return scope if w == win else None
        opp = 3 - color
        lk = self._lookup(opp, balance, p == PASS, h, ex.estimates[i], seen, history,
                          self.pair_states, self.pair_key)
        if (lk.phi if color == win else lk.delta) == 0:
            return None  # the child is won for the loser
        if (lk.delta if color == win else lk.phi) == 0:
            return lk.scope
        h0 = self.board.hash
        tok = self._enter(p, color, h0, depth, -1, ex.counts[i], seen, 0)
        try:
            return self._simulate(opp, balance, p == PASS, depth + 1, win, shadow, limit)
        finally:
            self._leave(p, h0, seen, tok)

    def _pass_never_only_win(self, color: int, balance: int) -> bool:
        """Is ``color``'s single pass one that is never the only win here, and so not searched
        (the module doc): the attacker's, in the game of rules.md, where the history holds
        only the current arrangement and the balance does not favour the defender."""
        return color == self.attacker and not self.live and len(self.history) == 1 and (
            balance >= 0 if color == BLACK else balance <= 0)

    def _mid(self, color: int, balance: int, passed: bool, depth: int, th_phi: int,
             th_delta: int) -> MidResult:
        """Multiple iterative deepening at the current board, ``color`` to move at ``balance``:
        searches the most-proving child until the node is solved or one of the thresholds is
        reached, then stores and returns the node's result (:meth:`_store`)."""
        self._visit(depth)
        board = self.board
        h0 = board.hash
        s0 = (board.black | board.white).bit_count()
        seen = self.seen
        ex = self._expansions.get(h0 ^ _SIDE_KEY[color]) or self._expansion(color)
        kids = self._legal_children(ex, color, balance, passed, h0, s0,
                                    self._killers.get(depth))
        start_nodes = self.nodes
        sel, repeats, phis, deltas = kids.sel, kids.repeats, kids.phis, kids.deltas
        e_moves = ex.moves
        n = len(sel)
        opp = 3 - color
        step = -1 if color == BLACK else 1
        tie_phi = self.options.tie_phi
        # the pass is searched last (bounds.deferred_deltas); the expansion lists it last
        wait = n - 1 if self.options.pass_last and n > 1 and e_moves[sel[-1]] == PASS else -1
        while True:
            if n == 0:
                phi, delta = INF, 0
                break
            ds = deltas if wait < 0 else deferred_deltas(deltas, wait)
            phi, delta = node_bounds(phis, ds)
            if phi == 0 or delta == 0 or phi >= th_phi or delta >= th_delta:
                break
            best, d2 = select_child(ds, phis, by_phi=tie_phi)
            if (ex.ladders[sel[best]] and repeats[best] == -1
                    and self._ladder_selected(ex, kids, best)):
                continue
            c_th = child_thresholds(th_phi, th_delta, delta, phis[best], d2,
                                    self.options.epsilon)
            # descend into the best child
            p = e_moves[sel[best]]
            idx = repeats[best]
            child_balance = balance if idx == -1 else 0 if idx == PAIR else balance + step
            child_passed = p == PASS and idx != PAIR
            tok = self._enter(p, color, h0, depth, idx, kids.counts[best], seen, s0)
            try:
                sim = None
                if idx == -1 and self.nodes >= self._sim_from:
                    sim = self._try_simulation(opp, child_balance, child_passed, depth + 1,
                                               kids, ex, best)
                if sim is not None:
                    r = MidResult(0, INF, NO_DEP, sim)
                else:
                    r = self._mid(opp, child_balance, child_passed, depth + 1, c_th.phi,
                                  c_th.delta)
                    if idx == PAIR and not r.scope.kofree:
                        # after a pair the balance is 0 whatever it is here
                        r = r._replace(scope=r.scope._replace(kofree=True))
            finally:
                self._leave(p, h0, seen, tok)
            phis[best] = r.phi
            deltas[best] = r.delta
            kids.scopes[best] = r.scope
            kids.deps[best] = (min(r.dep, idx) if idx >= 0 and (r.phi == 0 or r.delta == 0)
                               else r.dep)
        return self._store(kids, ex, color, balance, passed, depth, h0, phi, delta,
                           start_nodes)

    def _legal_children(self, ex: Expansion, color: int, balance: int, passed: bool, h0: int,
                        s0: int, killer: int | None) -> _Kids:
        """The legal children of the current node (arrangement ``h0``, ``s0`` stones,
        ``color`` to move) on this path, with their numbers: a static result (the rules, a
        forced win, the eye-space database) or what the tables hold."""
        kids = _Kids()
        sel, repeats, counts = kids.sel, kids.repeats, kids.counts
        phis, deltas, deps, scopes = kids.phis, kids.deltas, kids.deps, kids.scopes
        opp = 3 - color
        history = self.history
        attacker = self.attacker
        seen = self.seen
        rep_dep = NO_DEP  # smallest index among plays that repetition made illegal
        has_threat = (balance > 0) if color == BLACK else (balance < 0)
        step = -1 if color == BLACK else 1
        pairs = self.pair_states
        pair_key = self.pair_key
        e_moves, e_hash, e_win, e_est, e_cap, e_cnt, e_ccnt, e_kill, _ = ex
        for i in range(len(e_moves)):
            p = e_moves[i]
            h = e_hash[i]
            w = e_win[i]
            dep0 = NO_DEP  # the path index a static result relies on
            if p == PASS:
                idx = -1
                if passed:
                    # the second pass of a pair: the game ends where the pair state stood
                    # before on the path (that index is what the result relies on), else
                    # the game goes on afresh (PAIR)
                    at = pairs.get(pair_state(h0, opp), -1) if pairs else -1
                    if at >= 0:
                        w = self.end_by_passes()
                        dep0 = at
                    else:
                        idx = PAIR
                elif self._pass_never_only_win(color, balance):
                    continue
            else:
                idx = history.get(h, -1)
                if idx >= 0 and not has_threat:
                    if idx < rep_dep:
                        rep_dep = idx
                    continue
                dep0 = NO_DEP if idx < 0 else idx
            scope = _STATIC
            if idx == PAIR:
                pass  # searched (or looked up) as the position after the pair
            elif not w and e_cap[i] and e_cap[i] not in history and e_cap[i] != h:
                # the attacker captures at once, or ataris with no escape; or, after the
                # attacker's move, the defender makes the target pass-alive at once
                w = 3 - color
                scope = _forced_scope(e_cap[i], e_ccnt[i])
            elif not w and idx < 0:
                ew = e_kill[i]
                if ew is not None and _fits(ew.lo, ew.hi, ew.created, seen, history):
                    w = attacker  # the eye-space database's kill, legal on this path
                    scope = ProofScope(ew.lo, ew.hi, ew.created, True)
            sel.append(i)
            repeats.append(idx)
            # the arrangement (or pair state) a move creates, as a stone count for the proof's
            # range; none for a single pass (nothing new) or a capture of the target (the
            # expansion gives it no count)
            counts.append(s0 if idx == PAIR else NO_RANGE if p == PASS else e_cnt[i])
            if w:
                # the child (the opponent to move) has lost, or won
                phis.append(INF if w == color else 0)
                deltas.append(0 if w == color else INF)
                deps.append(dep0)
                scopes.append(scope)
                continue
            est = e_est[i]
            if p == killer:
                est = (est[0], killer_delta(est[1], self.options.killer))
            if idx == -1:
                lk = self._lookup(opp, balance, p == PASS, h, est, seen, history, pairs,
                                  pair_key)
            else:
                lk = self._lookup_afresh(opp, 0 if idx == PAIR else balance + step, idx == PAIR,
                                         h, est, h0, s0)
            scopes.append(lk.scope)
            phis.append(lk.phi)
            deltas.append(lk.delta)
            deps.append(NO_DEP if (lk.phi and lk.delta) or idx < 0 else idx)
        kids.rep_dep = rep_dep
        return kids

    def _lookup_afresh(self, color: int, balance: int, pair: bool, h: int,
                       est: tuple[int, int], h0: int, s0: int) -> Lookup:
        """:meth:`_lookup` of a child (arrangement ``h``, ``color`` to move at ``balance``)
        whose move from the current node (arrangement ``h0``, ``s0`` stones) starts the history
        afresh: a play that used a threat (the history holds the two arrangements around it)
        or the second pass of a pair (the history holds this arrangement alone with one pair
        state more, and ``balance`` is 0, so the result holds whatever the balance here)."""
        pairs = self.pair_states
        seen = self.pair_counts | (1 << s0)
        if not pair:
            return self._lookup(color, balance, False, h, est, seen, (h0,), pairs,
                                self.pair_key)
        ps = pair_state(h0, color)
        lk = self._lookup(color, balance, False, h, est, seen, (h0,), (ps, *pairs),
                          self.pair_key ^ ps)
        return lk if lk.scope.kofree else lk._replace(scope=lk.scope._replace(kofree=True))

    def _store(self, kids: _Kids, ex: Expansion, color: int, balance: int, passed: bool,
               depth: int, h0: int, phi: int, delta: int, start_nodes: int) -> MidResult:
        """The end of :meth:`_mid`: store the node's result, and return it. A solved node's
        proof creates the arrangements of its chosen winning child's, or of every child's
        (a loss); it goes to the solved table only where it depends on nothing above the
        node, at every balance where it is ko-free. An unsolved node's numbers go to the
        work table."""
        sk = self.solved_key(h0, color, passed)
        if phi and delta:
            self.work.store(sk ^ _BALANCE_KEY[balance] ^ self.pair_key, phi, delta,
                            self.nodes - start_nodes)
            return MidResult(phi, delta, NO_DEP, OPEN)
        sel, repeats, deltas, deps, scopes = (kids.sel, kids.repeats, kids.deltas, kids.deps,
                                              kids.scopes)
        n = len(sel)
        opp = 3 - color
        dep = solved_dependency(phi == 0, deltas, deps, kids.rep_dep, depth)
        chosen: range | list[int] = range(n)
        if phi == 0:
            j = -1
            for i in range(n):
                if deltas[i] == 0 and (j < 0 or deps[i] > deps[j] or (
                        deps[i] == deps[j] and scopes[i].kofree and not scopes[j].kofree)):
                    j = i
            chosen = [j]
            kofree = scopes[j].kofree and repeats[j] < 0
            won = ex.moves[sel[j]]  # the winning play
            if depth == self._root_depth:
                self.root_move = won
            if won != PASS:
                self._killers[depth] = won
                if self.options.patterns:
                    self._patterns.won(pattern_of_play(self.board, won, color, self.target,
                                                       self.defender))
            if self.options.simulation:  # only simulation reads the best moves
                if len(self._best) >= self._cache_cap:
                    self._best.clear()
                self._best[sk] = won
        else:
            kofree = kids.rep_dep == NO_DEP and all(sc.kofree for sc in scopes)
        lo, hi = NO_RANGE, -1
        created: frozenset[int] | None = _EMPTY
        cap = self.options.created_max
        for i in chosen:
            sc = scopes[i]
            made = ex.hashes[sel[i]] if repeats[i] != PAIR else pair_state(h0, opp)
            lo, hi, created = _merge_created(lo, hi, created, kids.counts[i], made, sc.lo, sc.hi,
                                             sc.created, cap)
        if dep == NO_DEP:
            black_wins = (color if phi == 0 else opp) == BLACK
            rec = (balance if not (kofree and self.options.kofree)
                   else NEG if black_wins else POS)
            self.solved.record(sk, black_wins, rec, self.nodes - start_nodes, lo, hi, created)
            self.work.discard(sk ^ _BALANCE_KEY[balance] ^ self.pair_key)
        return MidResult(phi, delta, dep, ProofScope(lo, hi, created, kofree))
