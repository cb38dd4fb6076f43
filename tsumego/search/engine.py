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
"""

from __future__ import annotations

import gc
import random
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

from tsumego.errors import BudgetExhausted
from tsumego.go.board import BLACK, Board, Undo, bits, opponent
from tsumego.go.coords import PASS
from tsumego.go.life import attacker_captures_alone, lost_in_atari, never_vital, target_benson_alive
from tsumego.go.line import PASS_KEY, SIDE_KEY, pair_state, position_key
from tsumego.go.problem import Problem
from tsumego.knowledge.eyespace import ALIVE, DIST, MAX_CELLS, database, index_of
from tsumego.search.bounds import (
    INF,
    NO_DEP,
    child_thresholds,
    node_bounds,
    select_child,
    solved_dependency,
)
from tsumego.search.table import NEG, POS, SolvedTable, WorkTable

NO_RANGE = 1 << 30  # lo of an empty range of stone counts (hi = -1)

if TYPE_CHECKING:
    from tsumego.go.line import Line


# moves, arrangement hashes, static winners, initial (phi, delta), the arrangement the
# attacker's forced win creates when it moves next (its immediate capture of the target, or its
# atari that the target cannot escape; 0 if none), stone counts, and the stone count of that
# forced arrangement (NO_RANGE for a capture, which no path can hold), and the attacker's win
# read from the eye-space database, as the (lo, hi, created) of the arrangements its plays
# create (None if none), to be checked against the path
EyeWin = tuple[int, int, frozenset[int] | None]
Expansion = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...],
                  tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[EyeWin | None, ...]]
# what an expansion knows of one play's child, as in an Expansion's columns but the move and
# the hash: static winner, stone count, eye-space kill, initial numbers, forced arrangement,
# its stone count
Child = tuple[int, int, EyeWin | None, tuple[int, int], int, int]
# what Engine._leave needs to undo Engine._enter: the board, the old index of a passed
# arrangement (or the pair state added), the history replaced (None if none), the old mask of
# the pair states' stone counts
_Token = tuple[Undo, int, dict[int, int] | None, int]


class Verdict(NamedTuple):
    """The winner of a position (0 where a search bounded by work did not settle it) and the
    work of its proof (nodes; 0 for a win the rules fix at once)."""

    winner: int
    work: int


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
    kofree: bool = True  # store proofs that meet no repetition as valid at every balance
    borrow: bool = True  # each of the two games' searches reads the other's wins that hold
    live_first: bool = True  # the defender to play: try the live game first (one search)
    # the attacker to play: first the balance where the defender has every threat (a win
    # there is a kill at every balance: one search instead of two)
    far_first: bool = True
    # Kawano's simulation: prove a child the way a sibling was proved, this many nodes per
    # try (0: off); tried only once the engine has searched ``simulation_from`` nodes: small
    # searches do not repay the tries, large ones (where siblings share long proofs) do
    simulation: int = 300
    simulation_from: int = 20000
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
SIM_MIN_WORK = 16  # simulate only siblings whose proof took at least this many nodes
_STATIC_AUX: tuple[int, int, frozenset[int] | None, bool] = (NO_RANGE, -1, _EMPTY, True)


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


def _forced_aux(h: int, count: int) -> tuple[int, int, frozenset[int] | None, bool]:
    """(lo, hi, created, ko-free) of the attacker's forced win at a child: nothing for a
    capture of the target, else the atari arrangement ``h`` with ``count`` stones, which
    must not repeat one of the path's (the defender's replies cannot matter)."""
    if count == NO_RANGE:
        return _STATIC_AUX
    return count, count, frozenset((h,)), True


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
                 options: SearchOptions = SearchOptions()) -> None:
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
        self.max_nodes = max_nodes
        self.deadline = deadline
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
        # the other game's table, whose wins for ``borrowed_winner`` hold here (borrow_wins)
        self.borrowed: SolvedTable | None = None
        self.borrowed_winner = 0
        # the winning move of proved nodes (by solved key), for simulation; and the children
        # a simulation was tried on (by solved key and balance), so each is tried once
        self._best: dict[int, int] = {}
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
    def _check_budget(self) -> None:
        self._next_check = self.nodes + self.options.check_every
        if self.max_nodes is not None:
            if self.nodes >= self.max_nodes:
                raise BudgetExhausted("nodes")
            self._next_check = min(self._next_check, self.max_nodes)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise BudgetExhausted("time")

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
                   ) -> EyeWin | bool | None:
        """The eye-space database on the current board (``stones`` stones, ``empty`` its empty
        points), ``to_move`` to move, the target being the one block ``blocks`` with the
        liberties ``libs``: True when the target is pass-alive (the defender wins on any path),
        the attacker's win as (lo, hi, created) of the arrangements its plays create (it holds
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
            return lo, hi, None
        zob = geo.zobrist
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
        return lo, hi, frozenset(created)

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
        phi, delta, *_ = self._lookup(color, balance, passed, h, (1, 1), seen, path, pairs, 0)
        if phi and delta:
            return 0, 0
        e = self.solved.data.get(self.solved_key(h, color, passed))
        return (color if phi == 0 else opponent(color)), (e[2] if e is not None else 0)

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
        e = self.solved.data.get(self.solved_key(line.board.hash, to_move, line.passed))
        return Verdict(w, e[2] if e is not None else self.nodes - before)

    def winner_after(self, line: Line, color: int, move: int, *,
                     max_work: int | None = None) -> Verdict:
        """:meth:`winner` after ``color`` plays ``move`` at the end of ``line`` (raises
        :class:`tsumego.go.line.IllegalLine` for an illegal move; the line is left as it was)."""
        step = line.play(color, move)
        try:
            if step.ended:
                return Verdict(step.ended, 0)
            return self.winner(line, 3 - color, max_work=max_work)
        finally:
            line.undo()

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
            phi, delta, dep, _, _, _, _ = self._mid(color, balance, passed, depth, INF, INF)
            if phi == 0 or delta == 0:
                return phi, delta, dep

    # --- df-pn --------------------------------------------------------------------------------
    def _expand(self, color: int) -> Expansion:
        """The children of the current board with ``color`` to move, independent of the path:
        moves (the pass last), arrangement hashes, the winner a play fixes statically (0 if
        none), initial (phi, delta) estimates, the attacker's forced win when it moves next
        (the arrangement after its capture of a target in atari, or after an atari the target
        cannot escape, :func:`tsumego.go.life.lost_in_atari`; 0 if none or with the rules turned
        off), the stone counts, the stone count of that forced arrangement, and the
        eye-space table's kill (:meth:`_eye_space`; None if none). An attacker's play that
        leaves the target in atari with no escape is a static win, like a capture, and so is
        a defender's win the table finds (a pass-alive target).

        Initial numbers: few target liberties make the attacker's proof short (phi = the
        liberties with the attacker to move), one-point eyes make the defender's short (3 less
        the eyes, at least 1). The number of the side *not* to move is a sum over the mover's
        replies once the node is expanded (several times its one-move estimate), so
        it starts ``sum_scale`` times larger: a fresh child then no longer looks better than
        an expanded sibling only because it has not been expanded, and the search goes deeper
        instead of expanding every sibling first. This loop is where most of the search's time
        goes, so it is written out in one piece."""
        board = self.board
        geo = board.geo
        full = geo.full
        dilate = geo.dilate
        flood = geo.flood
        spread = geo.spread
        play = board.play_fast
        attacker = self.attacker
        defender = self.defender
        target = self.target
        region = self.region
        knowledge = self.options.knowledge
        scale = self.options.sum_scale
        capture = self.options.capture
        atari = self.options.atari
        eyespace = self.options.eyespace
        opp = 3 - color
        moves: list[int] = []
        hashes: list[int] = []
        wins: list[int] = []
        ests: list[tuple[int, int]] = []
        caps: list[int] = []
        cap_counts: list[int] = []
        counts: list[int] = []
        eye_wins: list[EyeWin | None] = []
        defending = color == defender
        black0, white0, h0 = board.black, board.white, board.hash
        occupied = black0 | white0
        s0 = occupied.bit_count()
        # the blocks holding the target: they change only when the defender plays next to them
        blocks = flood(target, board.stones(defender))
        near = dilate(blocks)
        one_block = flood(blocks & -blocks, blocks) == blocks
        children = self._children
        side = _SIDE_KEY[color]
        for p in [*bits(full & ~occupied & region), PASS]:
            known: Child | None = None
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
                w = 0
                b = blocks
                single = one_block
                if p == PASS:
                    c = s0
                else:
                    w = self.static_after(color, cap)
                    # a capture of the target creates an arrangement no ancestor can hold (they
                    # all hold the target): no count, so no proof through it is kept from any
                    # path
                    c = (NO_RANGE if w and not defending else
                         s0 + 1 - cap.bit_count() if cap else s0 + 1)
                    if not w and defending and near >> p & 1:
                        b = flood(blocks | (1 << p), board.stones(defender))
                        single = one_block or flood(b & -b, b) == b
                eye_win = None
                if not w:
                    empty = full & ~(board.black | board.white)
                    libs = dilate(b) & empty
                    n = libs.bit_count()
                    if n == 1 and atari and not defending and self._lost_in_atari(h, b, libs):
                        w = attacker  # the defender to move cannot save the target
                    elif (eyespace and single and p != PASS
                          and (empty & region).bit_count() <= MAX_CELLS):
                        r = self._eye_space(b, libs, empty, opp, c)
                        if isinstance(r, tuple):
                            eye_win = r
                        elif r:
                            w = defender
                forced = 0
                forced_count = NO_RANGE
                if w:
                    est = (1, 1)
                else:
                    own = board.stones(defender)
                    # the attacker to move next: can it capture a target block at once (a target
                    # in atari, or one of several blocks), or give an atari that a target of one
                    # block with two liberties cannot escape? (The two cases never meet.)
                    try_capture = capture and n <= 4 and not (n > 1 and single)
                    try_atari = atari and n == 2 and single
                    if defending and (try_capture or try_atari):
                        b1, w1, h1 = board.black, board.white, board.hash
                        for q in bits(libs & region):
                            c2 = play(q, attacker)
                            if try_capture:
                                if c2 > 0 and c2 & target:
                                    forced = board.hash
                            elif c2 >= 0:
                                lib = dilate(b) & full & ~(board.black | board.white)
                                if not lib & (lib - 1) and self._lost_in_atari(
                                        board.hash, b, lib):
                                    forced = board.hash
                                    forced_count = (b1 | w1).bit_count() + 1 - c2.bit_count()
                            board.black, board.white, board.hash = b1, w1, h1
                            if forced:
                                break
                    if knowledge:
                        eyes = (empty & region & ~spread(full & ~own)).bit_count()
                        e = 3 - eyes if eyes < 2 else 1
                        est = (n, e * scale) if opp == attacker else (e, n * scale)
                    else:
                        est = (1, 1)
                known = (w, c, eye_win, est, forced, forced_count)
                if p != PASS:
                    if len(children) >= self._children_cap:
                        children.clear()
                    children[h ^ side] = known
            board.black, board.white, board.hash = black0, white0, h0
            w, c, eye_win, est, forced, forced_count = known
            moves.append(p)
            hashes.append(h)
            wins.append(w)
            counts.append(c)
            eye_wins.append(eye_win)
            ests.append(est)
            caps.append(forced)
            cap_counts.append(forced_count)
        return (tuple(moves), tuple(hashes), tuple(wins), tuple(ests), tuple(caps),
                tuple(counts), tuple(cap_counts), tuple(eye_wins))

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
                token = (snap, key, history, self.pair_counts)
                self.pair_counts |= 1 << s0
                self.history = {h0: depth + 1}
                self.seen = self.pair_counts
                return token
            old = history[h0]
            history[h0] = depth + 1
            return snap, old, None, 0
        board.play_fast(p, color)
        if threat >= 0:
            self.history = {h0: depth, board.hash: depth + 1}
            self.seen = self.pair_counts | (1 << s0) | (1 << count)
            return snap, -1, history, 0
        history[board.hash] = depth + 1
        self.seen = seen | (1 << count)
        return snap, -1, None, 0

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
                seen: int, path: Iterable[int], pairs: Iterable[int], pair_key: int
                ) -> tuple[int, int, int, int, frozenset[int] | None, bool]:
        """(phi, delta, lo, hi) of a child position: a solved result when the table holds one
        whose proof is valid here, else the work numbers or the initial estimate (then
        ``lo > hi``). ``seen`` is the mask of stone counts of the arrangements and pair states
        the child's path already holds, ``path`` those arrangements and ``pairs`` those pair
        states: a stored proof that creates an arrangement or a pair state with one of those
        counts might play into a repetition, or end the game by a pair, here, so it is used
        only if its exact set of created arrangements and pair states (kept for small proofs)
        misses both. Then that set (None: unknown or too large), and whether the result holds
        at every balance (its proof never meets a repetition)."""
        # the table key (:meth:`solved_key`, written out: this runs once per child per visit)
        sk = h ^ _SIDE_KEY[color]
        if passed:
            sk ^= _PASS_KEY
        e = self.solved.data.get(sk)
        if e is not None:
            # e = [minw, maxb, work, white lo, white hi, black lo, black hi]
            if balance >= e[1]:
                lo, hi, cs = e[5], e[6], e[8]
                if _fits(lo, hi, cs, seen, path, pairs):
                    return ((0, INF, lo, hi, cs, e[1] == NEG) if color == BLACK
                            else (INF, 0, lo, hi, cs, e[1] == NEG))
            if balance <= e[0]:
                lo, hi, cs = e[3], e[4], e[7]
                if _fits(lo, hi, cs, seen, path, pairs):
                    return ((INF, 0, lo, hi, cs, e[0] == POS) if color == BLACK
                            else (0, INF, lo, hi, cs, e[0] == POS))
        if self.borrowed is not None:
            e = self.borrowed.get(sk)
            if e is not None:
                bw = self.borrowed_winner
                if bw == BLACK:
                    ok, lo, hi, cs, kf = balance >= e[1], e[5], e[6], e[8], e[1] == NEG
                else:
                    ok, lo, hi, cs, kf = balance <= e[0], e[3], e[4], e[7], e[0] == POS
                if ok and _fits(lo, hi, cs, seen, path, pairs):
                    return ((0, INF, lo, hi, cs, kf) if color == bw
                            else (INF, 0, lo, hi, cs, kf))
        w = self.work.data.get(sk ^ _BALANCE_KEY[balance] ^ pair_key)
        if w is not None:
            return w[0], w[1], NO_RANGE, -1, None, False
        return est[0], est[1], NO_RANGE, -1, None, False

    # --- Kawano's simulation --------------------------------------------------------------------
    def _try_simulation(self, color: int, balance: int, passed: bool, depth: int, sel: list[int],
                        e_moves: tuple[int, ...], e_hash: tuple[int, ...], phis: list[int],
                        best: int) -> tuple[int, int, frozenset[int] | None, bool] | None:
        """At a child about to be searched (the board is on it, ``color`` to move): if a
        sibling move already lost to a known reply, try to prove that this child is won for
        ``color`` the same way (:meth:`_simulate`), once per child."""
        if 0 not in phis:
            return None  # no sibling lost yet (most calls), found by a C-level scan
        key = self.solved_key(e_hash[sel[best]], color, passed) ^ _BALANCE_KEY[balance]
        if key in self._sim_tried:
            return None
        for j in range(len(sel)):
            if phis[j] == 0 and j != best:
                sib = self.solved_key(e_hash[sel[j]], color, e_moves[sel[j]] == PASS)
                e = self.solved.get(sib)
                if sib in self._best and e is not None and e[2] >= SIM_MIN_WORK:
                    break
        else:
            return None
        if len(self._sim_tried) >= self._cache_cap:
            self._sim_tried.clear()
        self._sim_tried.add(key)
        return self._simulate(color, balance, passed, depth, color,
                              e_hash[sel[best]] ^ e_hash[sel[j]],
                              self.nodes + self.options.simulation)

    def _simulate(self, color: int, balance: int, passed: bool, depth: int, win: int, shadow: int,
                  limit: int) -> tuple[int, int, frozenset[int] | None, bool] | None:
        """Kawano's simulation: prove that ``win`` wins here by replaying the proof of a
        *shadow* position, whose arrangement hash is this one's XOR ``shadow`` (a sibling that
        differs by the loser's first move). At ``win``'s turns only the shadow's winning move
        is tried; at the loser's every move is answered. Any repetition, a reply that does not
        win, or more nodes than ``limit`` and the try fails (None); a success is an ordinary
        proof, checked on this board with this path, stored like any other: returns its
        (lo, hi, created, ko-free)."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_budget()
        if self.nodes > limit:
            return None
        board = self.board
        h0 = board.hash
        history = self.history
        seen = self.seen
        attacker = self.attacker
        opp = 3 - color
        start = self.nodes
        sk = self.solved_key(h0, color, passed)
        ex = self._expansions.get(h0 ^ _SIDE_KEY[color]) or self._expansion(color)
        e_moves, e_hash, e_win, e_est, e_cap, e_cnt, e_ccnt, e_eye = ex
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
            h = e_hash[i]
            w = e_win[i]
            if p == PASS:
                if passed:
                    return None  # a pair of passes: left to the full search
                if color == attacker and not self.live and len(history) == 1 and (
                        balance >= 0 if attacker == BLACK else balance <= 0):
                    if color == win:
                        return None
                    continue  # never the only win (module doc)
            elif h in history:
                return None  # repetition: left to the full search
            c_lo, c_hi, c_cs, c_kf = _STATIC_AUX
            if not w and e_cap[i] and e_cap[i] not in history and e_cap[i] != h:
                w = attacker
                c_lo, c_hi, c_cs, c_kf = _forced_aux(e_cap[i], e_ccnt[i])
            elif not w and p != PASS:
                ew = e_eye[i]
                if ew is not None and _fits(ew[0], ew[1], ew[2], seen, history):
                    w = attacker
                    c_lo, c_hi, c_cs = ew
            c = NO_RANGE if p == PASS else e_cnt[i]
            if w:
                if w != win:
                    return None
            else:
                phi_c, delta_c, c_lo, c_hi, c_cs, c_kf = self._lookup(
                    opp, balance, p == PASS, h, e_est[i], seen, history, self.pair_states,
                    self.pair_key)
                won = delta_c == 0 if color == win else phi_c == 0
                lost = phi_c == 0 if color == win else delta_c == 0
                if lost:
                    return None
                if not won:
                    tok = self._enter(p, color, h0, depth, -1, e_cnt[i], seen, 0)
                    try:
                        r = self._simulate(opp, balance, p == PASS, depth + 1, win, shadow, limit)
                    finally:
                        self._leave(p, h0, seen, tok)
                    if r is None:
                        return None
                    c_lo, c_hi, c_cs, c_kf = r
            lo, hi, created = _merge_created(lo, hi, created, c, h, c_lo, c_hi, c_cs, cap)
            kofree = kofree and c_kf
        black_wins = win == BLACK
        rec = NEG if black_wins else POS
        self.solved.record(sk, black_wins, rec if kofree and self.options.kofree else balance,
                           self.nodes - start + 1, lo, hi, created)
        self.work.discard(sk ^ _BALANCE_KEY[balance] ^ self.pair_key)
        if color == win:
            self._best[sk] = e_moves[order[0]]
        return lo, hi, created, kofree

    def _mid(self, color: int, balance: int, passed: bool, depth: int, th_phi: int,
             th_delta: int) -> tuple[int, int, int, int, int, frozenset[int] | None, bool]:
        """Multiple iterative deepening at the current board: returns (phi, delta, dependency,
        lo, hi, created) for ``color`` to move, once solved or once a threshold is reached;
        ``lo..hi`` is the range of stone counts of the arrangements the proof creates below the
        node, ``created`` those arrangements when there are at most ``options.created_max``
        (else None). The last item says a proof is *ko-free*: no move in it was illegal by
        repetition and the winner used no threat, so it holds at every balance and is stored
        so."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_budget()
        board = self.board
        opp = 3 - color
        h0 = board.hash
        history = self.history
        live = self.live
        attacker = self.attacker
        seen = self.seen
        s0 = (board.black | board.white).bit_count()

        # --- expand --------------------------------------------------------------------------
        ex = self._expansions.get(h0 ^ _SIDE_KEY[color]) or self._expansion(color)
        e_moves, e_hash, e_win, e_est, e_cap, e_cnt, e_ccnt, e_eye = ex
        # per legal child: its index in the expansion, the path index its play repeats (-1: a
        # fresh arrangement), the stone count it creates, (phi, delta), dependency, and
        # (lo, hi, created, ko-free) of its proof
        sel: list[int] = []
        c_threat: list[int] = []
        c_cnt: list[int] = []
        phis: list[int] = []
        deltas: list[int] = []
        deps: list[int] = []
        aux: list[tuple[int, int, frozenset[int] | None, bool]] = []
        rep_dep = NO_DEP  # smallest index among plays that repetition made illegal
        has_threat = (balance > 0) if color == BLACK else (balance < 0)
        step = -1 if color == BLACK else 1
        pairs = self.pair_states
        pair_key = self.pair_key
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
                elif color == attacker and not live and len(history) == 1 and (
                        balance >= 0 if attacker == BLACK else balance <= 0):
                    continue  # the attacker's pass, never the only win here (module doc)
            else:
                idx = history.get(h, -1)
                if idx >= 0 and not has_threat:
                    if idx < rep_dep:
                        rep_dep = idx
                    continue
                dep0 = NO_DEP if idx < 0 else idx
            static_aux = _STATIC_AUX
            if idx == PAIR:
                pass  # searched (or looked up) as the position after the pair
            elif not w and e_cap[i] and e_cap[i] not in history and e_cap[i] != h:
                w = attacker  # the attacker captures at once, or ataris with no escape
                static_aux = _forced_aux(e_cap[i], e_ccnt[i])
            elif not w and idx < 0:
                ew = e_eye[i]
                if ew is not None and _fits(ew[0], ew[1], ew[2], seen, history):
                    w = attacker  # the eye-space database's kill, legal on this path
                    static_aux = (ew[0], ew[1], ew[2], True)
            sel.append(i)
            c_threat.append(idx)
            # the arrangement (or pair state) a move creates, as a stone count for the proof's
            # range; none for a single pass (nothing new) or a capture of the target (the
            # expansion gives it no count)
            c_cnt.append(s0 if idx == PAIR else NO_RANGE if p == PASS else e_cnt[i])
            if w:
                if w == color:  # the child (the opponent to move) has lost
                    phis.append(INF)
                    deltas.append(0)
                else:
                    phis.append(0)
                    deltas.append(INF)
                deps.append(dep0)
                aux.append(static_aux)
            else:
                if idx == -1:
                    phi_c, delta_c, lo, hi, cs, kf = self._lookup(
                        opp, balance, p == PASS, h, e_est[i], seen, history, pairs, pair_key)
                elif idx == PAIR:
                    # after a pair: the history holds this arrangement alone, the balance is 0
                    # (so the result holds whatever the balance here), one pair state more
                    ps = pair_state(h0, opp)
                    phi_c, delta_c, lo, hi, cs, kf = self._lookup(
                        opp, 0, False, h, e_est[i], self.pair_counts | (1 << s0), (h0,),
                        (ps, *pairs), pair_key ^ ps)
                    kf = True
                else:
                    # a threat resets the history to this position and the child
                    phi_c, delta_c, lo, hi, cs, kf = self._lookup(
                        opp, balance + step, False, h, e_est[i], self.pair_counts | (1 << s0),
                        (h0,), pairs, pair_key)
                aux.append((lo, hi, cs, kf))
                phis.append(phi_c)
                deltas.append(delta_c)
                deps.append(NO_DEP if (phi_c and delta_c) or idx < 0 else idx)

        start_nodes = self.nodes
        n = len(sel)
        tie_phi = self.options.tie_phi
        # --- iterate --------------------------------------------------------------------------
        while True:
            if n == 0:
                phi, delta = INF, 0
                break
            phi, delta = node_bounds(phis, deltas)
            if phi == 0 or delta == 0 or phi >= th_phi or delta >= th_delta:
                break
            best, d2 = select_child(deltas, phis, by_phi=tie_phi)
            c_th = child_thresholds(th_phi, th_delta, delta, phis[best], d2,
                                    self.options.epsilon)
            # descend into the best child
            p = e_moves[sel[best]]
            idx = c_threat[best]
            child_balance = balance if idx == -1 else 0 if idx == PAIR else balance + step
            child_passed = p == PASS and idx != PAIR
            tok = self._enter(p, color, h0, depth, idx, c_cnt[best], seen, s0)
            try:
                sim = None
                if idx == -1 and self.nodes >= self._sim_from:
                    sim = self._try_simulation(opp, child_balance, child_passed, depth + 1,
                                               sel, e_moves, e_hash, phis, best)
                if sim is not None:
                    r_phi, r_delta, r_dep = 0, INF, NO_DEP
                    r_aux = sim
                else:
                    r_phi, r_delta, r_dep, r_lo, r_hi, r_cs, r_kf = self._mid(
                        opp, child_balance, child_passed, depth + 1, c_th.phi, c_th.delta)
                    r_aux = (r_lo, r_hi, r_cs, r_kf or idx == PAIR)
            finally:
                self._leave(p, h0, seen, tok)
            phis[best] = r_phi
            deltas[best] = r_delta
            aux[best] = r_aux
            if idx >= 0 and (r_phi == 0 or r_delta == 0):
                r_dep = min(r_dep, idx)
            deps[best] = r_dep

        # --- store --------------------------------------------------------------------------
        sk = self.solved_key(h0, color, passed)
        if phi == 0 or delta == 0:
            dep = solved_dependency(phi == 0, deltas, deps, rep_dep, depth)
            # the arrangements this proof creates: the chosen winning child's, or every child's
            lo, hi = NO_RANGE, -1
            chosen: range | list[int] = range(n)
            if phi == 0:
                j = -1
                for i in range(n):
                    if deltas[i] == 0 and (j < 0 or deps[i] > deps[j] or (
                            deps[i] == deps[j] and aux[i][3] and not aux[j][3])):
                        j = i
                chosen = [j]
                kofree = aux[j][3] and c_threat[j] < 0
                if depth == self._root_depth:
                    self.root_move = e_moves[sel[j]]
                if self.options.simulation:  # only simulation reads the best moves
                    if len(self._best) >= self._cache_cap:
                        self._best.clear()
                    self._best[sk] = e_moves[sel[j]]
            else:
                kofree = rep_dep == NO_DEP and all(a[3] for a in aux)
            created: frozenset[int] | None = _EMPTY
            cap = self.options.created_max
            for i in chosen:
                c_lo, c_hi, cs, _ = aux[i]
                made = e_hash[sel[i]] if c_threat[i] != PAIR else pair_state(h0, opp)
                lo, hi, created = _merge_created(lo, hi, created, c_cnt[i], made,
                                                 c_lo, c_hi, cs, cap)
            if dep == NO_DEP:
                black_wins = (color if phi == 0 else opp) == BLACK
                rec = (balance if not (kofree and self.options.kofree)
                       else NEG if black_wins else POS)
                self.solved.record(sk, black_wins, rec, self.nodes - start_nodes, lo, hi,
                                   created)
                self.work.discard(sk ^ _BALANCE_KEY[balance] ^ self.pair_key)
            return phi, delta, dep, lo, hi, created, kofree
        self.work.store(sk ^ _BALANCE_KEY[balance] ^ self.pair_key, phi, delta,
                        self.nodes - start_nodes)
        return phi, delta, NO_DEP, NO_RANGE, -1, None, False
