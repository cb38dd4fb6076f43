"""Static life and death: Benson's unconditional life, a target in atari that cannot escape, and
an exact "pass-alive" test by search.

*Pass-alive* (rules.md): the attacker, playing alone in the region while the defender always
passes, cannot capture any target stone. Benson's algorithm proves it statically for blocks with
two small vital regions; :func:`attacker_captures_alone` decides it exactly (a one-player
search, used where Benson is silent).
"""

from __future__ import annotations

import time

from tsumego.errors import BudgetExhausted
from tsumego.go.board import BLACK, Board, bits, opponent


def benson_alive(board: Board, color: int, outside: int = 0) -> int:
    """Mask of ``color``'s stones that are unconditionally alive by Benson's algorithm.

    Regions are the edge-connected components of points without ``color`` stones. A region is
    vital to a block when every empty point of the region is a liberty of the block. Blocks with
    fewer than two vital regions are dropped, then regions touching a dropped block, until stable.
    ``outside``: points known to lie in a region that holds an empty point no ``color`` stone
    touches (:func:`never_vital`); a hint that only saves work, the answer is the same.
    """
    return _benson(board, color, outside, 0)


def _benson(board: Board, color: int, outside: int, target: int) -> int:
    """:func:`benson_alive`; with a ``target``, 0 as soon as one of its blocks is sure to die
    (the answer is then wrong for other blocks, but right for the target)."""
    geo = board.geo
    flood = geo.flood
    dilate = geo.dilate
    # read directly rather than by board.stones and board.empty: this runs once per new
    # defender's child (about 14% of a hard search's time) and the calls cost 5% of it
    own = board.black if color == BLACK else board.white
    if not own:
        return 0
    empty = geo.full & ~(board.black | board.white)
    others = geo.full & ~own
    # A region holding an empty point that touches no ``color`` stone is vital to nothing:
    # drop those regions first. Fewer than two candidate regions left means nobody lives.
    dead_seed = empty & ~dilate(own) | outside
    candidates = others & ~flood(dead_seed, others) if dead_seed else others
    if not candidates:
        return 0
    first = flood(candidates & -candidates, candidates)
    if first == candidates:
        return 0
    regions = [first, *geo.parts(candidates & ~first, candidates)]
    # only candidate regions can be vital (the others hold a point that is no block's
    # liberty), and only blocks next to one can have a vital region
    near = [dilate(r) for r in regions]
    holes = [r & empty for r in regions]
    # the blocks next to a candidate region, the target's first: only they can have a vital
    # region. vital[i]: the regions vital to block i, as a mask of region indices; touch[j]:
    # the blocks region j touches, as a mask of block indices (both fixed: only which blocks
    # and regions still stand changes below)
    blocks: list[int] = []
    vital: list[int] = []
    touch = [0] * len(regions)
    seeds = own & dilate(candidates)
    mine = flood(target, own) if target else 0  # the target's blocks
    got = 0
    for phase, rest in enumerate((seeds & mine, seeds & ~mine)):
        if phase and got != mine:
            return 0  # a target stone whose block touches no candidate region
        while rest:
            b = flood(rest & -rest, own)
            rest &= ~b
            got |= b
            i = len(blocks)
            blocks.append(b)
            libs = dilate(b) & empty
            v = 0
            for j, d in enumerate(near):
                if d & b:
                    touch[j] |= 1 << i
                    if not holes[j] & ~libs:
                        v |= 1 << j
            if v & (v - 1) == 0 and b & target:
                return 0  # a target block without two vital regions
            vital.append(v)
    alive = (1 << len(blocks)) - 1
    live = (1 << len(regions)) - 1
    while True:
        kept = alive
        for i, v in enumerate(vital):
            if kept >> i & 1:
                v &= live
                if v & (v - 1) == 0:
                    kept &= ~(1 << i)
        if kept == alive:
            break
        alive = kept
        for j, t in enumerate(touch):
            if t & ~alive:
                live &= ~(1 << j)
    out = 0
    for i, b in enumerate(blocks):
        if alive >> i & 1:
            out |= b
    return out


def never_vital(board: Board, region: int, color: int) -> int:
    """Points that lie, on this board and on every board play inside ``region`` can reach from
    it, in a region (for :func:`benson_alive`) holding an empty point that no ``color`` stone
    touches: the points outside ``region`` without a ``color`` stone (they never gain one)
    joined to an empty point whose neighbours all are such points. Seeding Benson's first
    flood with them spares it most of its steps on a board whose outside is wide open."""
    geo = board.geo
    own = board.stones(color)
    free = geo.full & ~region & ~own
    # empty, outside the region, and every neighbour outside the region without ``own``
    seeds = free & board.empty & ~geo.spread(geo.full & ~free)
    return geo.flood(seeds, free)


def target_benson_alive(board: Board, target: int, defender: int, outside: int = 0) -> bool:
    """True when every target stone belongs to a Benson-alive block (``outside``: as for
    :func:`benson_alive`)."""
    alive = _benson(board, defender, outside, target)
    return target & alive == target


def saving_plays(board: Board, blocks: int, lib: int, attacker: int) -> int:
    """The defender's plays that may save the target ``blocks`` in atari at ``lib``: the play
    at ``lib`` itself, and the last liberty of each attacker block next to them (its
    capture)."""
    geo = board.geo
    att = board.stones(attacker)
    empty = board.empty
    saving = lib
    adj = geo.dilate(blocks) & att
    while adj:
        a = geo.flood(adj & -adj, att)
        libs = geo.dilate(a) & empty
        if not libs & (libs - 1):
            saving |= libs
        adj &= ~a
    return saving


def lost_in_atari(board: Board, blocks: int, lib: int, region: int, defender: int) -> bool:
    """With ``defender`` to move and the target ``blocks`` in atari at the single point
    ``lib``: is the target lost whatever the defender does?

    Only two kinds of play can give the target a liberty: the play at ``lib`` itself, and the
    capture of an attacker block next to the target (a play at the last liberty of a block in
    atari). The target is lost when ``lib`` is in the region and each of those plays is
    suicide or leaves the target one liberty, in the region (a snapback, for instance). Every
    defender move (a pass, or a play that uses a threat, included) then leaves target stones
    in atari in the region, and capturing them is legal on any path, since every earlier
    arrangement holds the target: the attacker wins at every balance. The board is left as it
    was."""
    if not lib & region:
        return False
    geo = board.geo
    flood = geo.flood
    dilate = geo.dilate
    snap = board.snapshot()
    for p in bits(saving_plays(board, blocks, lib, opponent(defender))):
        if board.play_fast(p, defender) >= 0:
            libs = dilate(flood(blocks, board.stones(defender))) & board.empty
            board.undo(snap)
            if libs & (libs - 1) or not libs & region:
                return False  # two liberties, or one the attacker cannot fill
    return True


LADDER_DEPTH = 12  # ataris in one ladder read
LADDER_PLAYS = 256  # plays in one read; beyond it the read claims nothing


class _LadderRead:
    """One ladder read on ``board``: the plays it has made, the arrangements of its line
    (an attacker play may not recreate one) and the attacker's plays of the read's proof,
    as (arrangement, stone count)."""

    def __init__(self, board: Board, target: int, region: int, defender: int) -> None:
        self.board = board
        self.target = target
        self.region = region
        self.defender = defender
        self.attacker = opponent(defender)
        self.plays = 0
        self.over = False
        self.line = [board.hash]
        self.made: list[tuple[int, int]] = []

    def over_budget(self) -> bool:
        """Count one more play; True (and the read is over) beyond ``LADDER_PLAYS``."""
        self.plays += 1
        self.over = self.plays > LADDER_PLAYS
        return self.over

    def target_libs(self) -> tuple[int, int]:
        """The target's block (one block: the read starts only then, and inside it the
        defender's plays only join stones to it) and its liberties."""
        board = self.board
        geo = board.geo
        blk = geo.flood(self.target, board.stones(self.defender))
        return blk, geo.dilate(blk) & board.empty

    def extension_escapes(self, libs: int, q: int, r: int) -> bool:
        """Does the target's extension at ``r``, after the attacker's atari at ``q``, plainly
        get three liberties (the target's, and ``r``'s empty neighbours, but ``q`` and ``r``)?
        Its block only grows by joins and its liberties by captures, so the atari is then
        refuted without a play."""
        board = self.board
        ext = (libs | board.geo.dilate(1 << r) & board.empty) & ~(1 << q | 1 << r)
        return ext.bit_count() >= 3

    def attack(self, depth: int) -> bool:
        """The attacker to move: does it capture by ataris, within ``depth`` of them?"""
        libs = self.target_libs()[1]
        n = libs.bit_count()
        if n == 1:
            return bool(libs & self.region)
        if n != 2 or depth == 0:
            return False
        board = self.board
        snap = board.snapshot()
        for q in bits(libs & self.region):
            if self.extension_escapes(libs, q, (libs & ~(1 << q)).bit_length() - 1):
                continue
            if self.over_budget():
                return False
            if board.play_fast(q, self.attacker) < 0:
                continue
            h = board.hash
            if h in self.line:
                board.undo(snap)
                continue
            mark = len(self.made)
            self.made.append((h, (board.black | board.white).bit_count()))
            self.line.append(h)
            won = self.defend(depth - 1)
            self.line.pop()
            board.undo(snap)
            if won:
                return True
            del self.made[mark:]
            if self.over:
                return False
        return False

    def defend(self, depth: int) -> bool:
        """The defender to move, the target in atari: does every saving play lose, to a
        capture or to a ladder of at most ``depth`` more ataris?"""
        blk, lib = self.target_libs()
        if lib.bit_count() != 1 or not lib & self.region:
            return False
        board = self.board
        geo = board.geo
        if (geo.spread(lib) & board.empty).bit_count() >= 3:
            return False  # the extension at the liberty escapes: no play needed
        snap = board.snapshot()
        for p in bits(saving_plays(board, blk, lib, self.attacker)):
            if self.over_budget():
                return False
            if board.play_fast(p, self.defender) < 0:
                continue
            ok = False
            libs2 = self.target_libs()[1]
            m = libs2.bit_count()
            if m == 1:
                ok = bool(libs2 & self.region)
            elif m == 2 and depth > 0:
                self.line.append(board.hash)
                ok = self.attack(depth)
                self.line.pop()
            board.undo(snap)
            if not ok:
                return False
        return True


def ladder_kill(board: Board, target: int, region: int, defender: int,
                attacker_to_move: bool) -> tuple[tuple[int, int], ...] | None:
    """Does the attacker capture the target, one block, by a ladder: successive ataris?
    The arrangements the attacker's plays of the proof create, as (arrangement hash, stone
    count), or None.

    Against an atari the defender has only the two kinds of saving play of
    :func:`lost_in_atari` (the play at the liberty, the capture of an attacker block next to
    the target); every other move, a pass or a play with a threat included, leaves the
    target in atari, to be captured. The attacker wins when every saving play leaves the
    target one liberty in the region (captured next) or two (ataried again, at most
    ``LADDER_DEPTH`` ataris in all). The attacker never passes, so no pair of passes arises,
    and uses no threat: the win holds in both games, at every balance, on any path whose
    arrangements its plays do not recreate (the caller checks the returned arrangements
    against the path; inside the read, an attacker play that recreates an arrangement of its
    own line is not tried). A defender's play illegal on the path only narrows its choice.
    At most ``LADDER_PLAYS`` plays: beyond, None. The board is left as it was."""
    blk = board.geo.flood(target, board.stones(defender))
    if board.geo.flood(blk & -blk, blk) != blk:
        return None
    read = _LadderRead(board, target, region, defender)
    won = read.attack(LADDER_DEPTH) if attacker_to_move else read.defend(LADDER_DEPTH)
    return tuple(read.made) if won else None


def attacker_captures_alone(board: Board, target: int, region: int, attacker: int,
                            limit: int = 200_000, deadline: float | None = None) -> bool:
    """Can the attacker, playing alone on empty region points (no suicide), capture a target
    stone? Exact; raises :class:`tsumego.errors.BudgetExhausted` past ``limit`` positions or past
    ``deadline`` (a ``time.monotonic()`` value; its kind is then ``"time"``).

    Alone, the attacker's stones are never captured and defender stones only disappear, so no
    arrangement can repeat and memoising visited arrangements is enough.
    """
    b = board.copy()
    seen: set[int] = set()
    defender = opponent(attacker)

    def rec() -> bool:
        if len(seen) > limit:
            raise BudgetExhausted("pass-alive")
        if deadline is not None and len(seen) % 512 == 511 and time.monotonic() > deadline:
            raise BudgetExhausted("time")
        moves = b.empty & region
        for p in bits(moves):
            snap = b.snapshot()
            cap = b.play_fast(p, attacker)
            if cap < 0:
                continue
            if cap & target:
                b.undo(snap)
                return True
            h = b.hash
            if h not in seen:
                seen.add(h)
                if rec():
                    b.undo(snap)
                    return True
            b.undo(snap)
        return False

    if b.stones(defender) & target != target:
        return True
    return rec()


def pass_alive(board: Board, target: int, region: int, defender: int) -> bool:
    """Exact pass-alive test: Benson first, then the one-player search."""
    if target_benson_alive(board, target, defender):
        return True
    return not attacker_captures_alone(board, target, region, opponent(defender))
