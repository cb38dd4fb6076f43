"""Static life and death: Benson's unconditional life, a target in atari that cannot escape, and
an exact "pass-alive" test by search.

*Pass-alive* (rules.md): the attacker, playing alone in the region while the defender always
passes, cannot capture any target stone. Benson's algorithm proves it statically for blocks with
two small vital regions; :func:`attacker_captures_alone` decides it exactly (a one-player
search, used where Benson is silent).
"""

from __future__ import annotations

import time

from .board import Board, bits, opponent


def benson_alive(board: Board, color: int) -> int:
    """Mask of ``color``'s stones that are unconditionally alive by Benson's algorithm.

    Regions are the edge-connected components of points without ``color`` stones. A region is
    vital to a block when every empty point of the region is a liberty of the block. Blocks with
    fewer than two vital regions are dropped, then regions touching a dropped block, until stable.
    """
    geo = board.geo
    own = board.stones(color)
    if not own:
        return 0
    empty = board.empty
    others = geo.full & ~own
    # A region holding an empty point that touches no ``color`` stone is vital to nothing:
    # drop those regions first. Fewer than two candidate regions left means nobody lives.
    dead_seed = empty & ~geo.dilate(own)
    candidates = others & ~geo.flood(dead_seed, others) if dead_seed else others
    if not candidates:
        return 0
    first = geo.flood(candidates & -candidates, candidates)
    if first == candidates:
        return 0
    # only candidate regions can be vital (the others hold a point that is no block's
    # liberty), and only blocks next to one can have a vital region
    blocks = geo.parts(own & geo.dilate(candidates), own)
    regions = [first, *geo.parts(candidates & ~first, candidates)]
    libs = [geo.dilate(b) & empty for b in blocks]
    # vital[r] = indices of blocks to which region r is vital
    alive_blocks = set(range(len(blocks)))
    live_regions = set(range(len(regions)))
    dil_regions = [geo.dilate(r) for r in regions]
    while True:
        changed = False
        for bi in list(alive_blocks):
            count = 0
            for ri in live_regions:
                r = regions[ri]
                if dil_regions[ri] & blocks[bi] and (r & empty) & ~libs[bi] == 0:
                    count += 1
                    if count >= 2:
                        break
            if count < 2:
                alive_blocks.discard(bi)
                changed = True
        for ri in list(live_regions):
            border = dil_regions[ri] & own
            for bi in range(len(blocks)):
                if bi not in alive_blocks and blocks[bi] & border:
                    live_regions.discard(ri)
                    changed = True
                    break
        if not changed:
            break
    out = 0
    for bi in alive_blocks:
        out |= blocks[bi]
    return out


def target_benson_alive(board: Board, target: int, defender: int) -> bool:
    """True when every target stone belongs to a Benson-alive block."""
    alive = benson_alive(board, defender)
    return target & alive == target


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
    att = board.stones(opponent(defender))
    empty = board.empty
    saving = lib  # the plays that may save the target
    adj = dilate(blocks) & att
    while adj:
        a = flood(adj & -adj, att)
        libs = dilate(a) & empty
        if not libs & (libs - 1):
            saving |= libs  # the defender can capture it
        adj &= ~a
    snap = board.snapshot()
    for p in bits(saving):
        if board.play_fast(p, defender) >= 0:
            libs = dilate(flood(blocks, board.stones(defender))) & board.empty
            board.undo(snap)
            if libs & (libs - 1) or not libs & region:
                return False  # two liberties, or one the attacker cannot fill
    return True


class SearchTooLarge(Exception):
    """The exact pass-alive test ran over its node limit."""


def attacker_captures_alone(board: Board, target: int, region: int, attacker: int,
                            limit: int = 200_000, deadline: float | None = None) -> bool:
    """Can the attacker, playing alone on empty region points (no suicide), capture a target
    stone? Exact; raises :class:`SearchTooLarge` past ``limit`` positions or past
    ``deadline`` (a ``time.monotonic()`` value; its ``args[0]`` is then ``"time"``).

    Alone, the attacker's stones are never captured and defender stones only disappear, so no
    arrangement can repeat and memoising visited arrangements is enough.
    """
    b = board.copy()
    seen: set[int] = set()
    defender = opponent(attacker)

    def rec() -> bool:
        if len(seen) > limit:
            raise SearchTooLarge("nodes")
        if deadline is not None and len(seen) % 512 == 511 and time.monotonic() > deadline:
            raise SearchTooLarge("time")
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
