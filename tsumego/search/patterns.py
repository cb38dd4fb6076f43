"""Shape patterns learned during the search: which plays tend to be the winning move.

A df-pn proof spends most of its nodes on the winner's wrong turns (design.md, section 3: with
an oracle of the winners the same searches take about five times fewer nodes). The search
learns, as it goes, which local shapes are the winning moves of the nodes it proves: a play's
*pattern* is its 3x3 neighbourhood (each of the 8 points empty, the mover's, the other
side's or off the board), its distance to the target (a liberty of the target's blocks, a
point next to such a liberty, or farther), the target's liberties after the play (0, 1, 2 or
more), whether it captures, and the mover's role. Each search counts, per pattern (in
hashed slots), how often a play of that pattern was among a fresh expansion's plays
(``avail``) and how often it was the move that proved a node (``wins``); a play's initial
``delta`` (the mover's proof number through it) is then scaled by the mean win rate over the
pattern's, shrunk toward the mean, within ``[1/strength, strength]``. Only the order
of the search changes, so no answer can; the compiled core does the same in the same order,
so that both engines search the same nodes.
"""

from __future__ import annotations

from tsumego.go.board import Board

PRIOR = 5  # tries at the mean win rate every pattern starts with (shrinks rare patterns)
MIN_WINS = 50  # proved nodes before the counts scale anything
ONE = 64  # the fixed-point unit of the scale
PATTERNS = 1 << 22  # 8 neighbours of 2 bits, 2 distance bits, 2 liberty bits, capture, role
SLOT_BITS = 19  # the counters: 2^19 slots (a search meets a few tens of thousands of patterns)

# the 8 neighbours in the order of the key's digits: the row above, the two beside, the row below
_AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def pattern_key(board: Board, p: int, color: int, near: int, far: int, libs: int,
                captures: bool, attacker: int) -> int:
    """The pattern of ``color``'s play at ``p`` on ``board`` (before the play): its 8
    neighbours (0 empty, 1 ``color``'s, 2 the other's, 3 off the board), then whether ``p``
    is in ``near`` (the target's blocks and their liberties) and in ``far`` (``near`` and
    its neighbours), the target's liberties after the play (``libs``, at most 3), whether
    the play ``captures``, and whether ``color`` is the attacker."""
    size = board.size
    x, y = p % size, p // size
    own = board.stones(color)
    other = board.stones(3 - color)
    key = 0
    for dx, dy in _AROUND:
        xx, yy = x + dx, y + dy
        if 0 <= xx < size and 0 <= yy < size:
            q = yy * size + xx
            v = 1 if own >> q & 1 else 2 if other >> q & 1 else 0
        else:
            v = 3
        key = key * 4 + v
    key = (key * 2 + (near >> p & 1)) * 2 + (far >> p & 1)
    return ((key * 4 + libs) * 2 + captures) * 2 + (color == attacker)


def target_liberties(board: Board, target: int, defender: int) -> int:
    """The liberties of the ``target``'s blocks on ``board``, at most 3 (0: captured): after
    a play, a function of the arrangement alone (the expansions cache it with the child)."""
    geo = board.geo
    blocks = geo.flood(target, board.stones(defender))
    empty = geo.full & ~(board.black | board.white)
    return min((geo.dilate(blocks) & empty).bit_count(), 3)


def pattern_of_play(board: Board, p: int, color: int, target: int, defender: int) -> int:
    """The pattern of ``color``'s legal play at ``p`` on ``board``, its features read by
    playing it (the board is left as it was): the key an expansion gives the same play."""
    geo = board.geo
    near = geo.dilate(geo.flood(target, board.stones(defender)))
    snap = board.snapshot()
    captured = board.play_fast(p, color)
    libs = target_liberties(board, target, defender)
    board.undo(snap)
    return pattern_key(board, p, color, near, geo.dilate(near), libs, captured > 0,
                       3 - defender)


def pattern_slot(key: int) -> int:
    """The counters' slot of pattern ``key``: a multiplicative hash into ``2^SLOT_BITS``."""
    return (key * 0x9E3779B1 & 0xFFFFFFFF) >> (32 - SLOT_BITS)


def scaled_delta(delta: int, wins: int, avail: int, total_wins: int, total_avail: int,
                 strength: int) -> int:
    """A play's initial ``delta`` scaled by its pattern's record (``wins`` of ``avail``)
    against all patterns' (``total_wins`` of ``total_avail``): times ``W (a + P) / (A w + P W)``
    (the mean rate over the pattern's, shrunk by ``PRIOR`` tries at the mean), in fixed point
    and clamped to ``[1/strength, strength]``; at least 1. Unscaled before ``MIN_WINS``
    proofs."""
    if strength <= 0 or total_wins < MIN_WINS:
        return delta
    num = total_wins * (avail + PRIOR) * ONE
    den = total_avail * wins + PRIOR * total_wins
    r = num // den if den else ONE * strength
    r = max(ONE // strength, min(ONE * strength, r))
    return max(1, delta * r // ONE)


class PatternCounts:
    """One search's counts: per pattern's slot (:func:`pattern_slot`), the plays offered
    (``avail``) and the nodes proved by such a play (``wins``)."""

    __slots__ = ("avail", "wins", "total_avail", "total_wins", "strength")

    def __init__(self, strength: int) -> None:
        self.avail: dict[int, int] = {}
        self.wins: dict[int, int] = {}
        self.total_avail = 0
        self.total_wins = 0
        self.strength = strength

    def offer(self, key: int, delta: int) -> int:
        """Count a play of pattern ``key`` in a fresh expansion; its scaled ``delta``."""
        key = pattern_slot(key)
        a = self.avail.get(key, 0) + 1
        self.avail[key] = a
        self.total_avail += 1
        return scaled_delta(delta, self.wins.get(key, 0), a, self.total_wins,
                            self.total_avail, self.strength)

    def won(self, key: int) -> None:
        """Count a node proved by a play of pattern ``key``."""
        key = pattern_slot(key)
        self.wins[key] = self.wins.get(key, 0) + 1
        self.total_wins += 1
