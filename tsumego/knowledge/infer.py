"""Plain problems: infer what a problem without markup is about, and frame it (rules.md,
"Plain problems"; docs/inference.md explains every choice and its measured effect).

A plain problem is a corner or side position on an otherwise empty board, a comment such as
"Black to play" and nothing else. :func:`infer_problem` turns it into a walled
:class:`~tsumego.go.problem.Problem` in four steps:

1. **Roles from the comment.** English phrases such as "Black to kill", "White to live",
   "Black to play and live", "Can White live?" name the defender (the side that lives) or the
   attacker (the side that kills). Rule ``comment``.
2. **Roles from the position** when the comment says nothing: what a Go player sees first, the
   group that is shut in. For each colour we flood from its stones through empty points that
   are not next to an opponent stone (a straight gap of up to two points in a wall does not
   count as a way out);
   a block that cannot reach the open board (points four or more lines from every stone) is
   *enclosed*. The colour with the larger share of enclosed stones defends (rule
   ``enclosure``); when nobody is enclosed the test is repeated with gaps up to two points
   wide closed (``enclosure-2``); when the board has no open part, the colour whose stones sit
   lower (closer to the edge) defends (rule ``height``). Equal shares are refused: the user
   names the goal or the target.
3. **The target**: the largest enclosed block of the defender (the group in question;
   small blocks beside it may be sacrificed, and the attacker wins by capturing *any* target
   stone, so they are not targets).
4. **The frame** (default ``inside`` mode). The zone is the inside of the attacker's wall: a
   flood from the target through defender stones, empty points and shut-in attacker stones,
   within :attr:`Framing.distance` lines, stopped by the attacker's outer stones; plus
   :attr:`Framing.beyond` line of empty board beyond it and the empty pockets the zone shuts
   in. Every empty point one line (edge or diagonal) outside the zone gets a *virtual attacker
   stone*: a closed ring that can never be captured (its liberties lie outside the region,
   where nobody plays). The defender cannot escape through it and gains no liberties or eyes
   outside; the attacker's own stones keep the strength they have in the book, plus whatever
   joining the ring gives them ("the outside is the attacker's"). The region is then derived
   from the target inside the ring exactly as for a marked problem (rules.md 1a-c); when that
   derivation fails the whole zone is the region. The ``box``, ``flood`` and ``voronoi`` modes
   differ only in the zone (docs/inference.md).

Where the frame may decide the answer, we say so rather than answer another problem: a target
that can run into the open board (:func:`_runs`) is a chase across the board, not a
life-and-death problem, and is refused (:data:`CHASE`); otherwise :func:`frame_risks` gives
the reasons the frame may decide the result (:attr:`Inference.frame_sensitive`).

The user can override each inference (goal, target, region); an override is reported as
rule ``override`` with full confidence. With a target or a region given, a target that can
run is framed as asked, and flagged.

This module is pure Go logic: no files, no SGF.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tsumego.go.board import (
    BLACK,
    WHITE,
    Board,
    Geometry,
    bits,
    color_name,
    geometry,
    opponent,
)
from tsumego.go.coords import to_sgf
from tsumego.go.problem import Problem, ProblemError, derive_region, walls_around

GOALS = ("kill", "live")
MAX_REGION = 60  # more empty points than this in an inferred region: not a tsumego
# what the refusal of a chase across the board says of its target (tools count refusals by it)
CHASE = "can run into the open board"
COMMENT_HEAD = 10_000  # characters of a comment searched for the goal or the side to play


class InferenceError(ProblemError):
    """A plain problem whose target, roles or region cannot be inferred."""


class TooOpen(InferenceError):
    """The inferred region has more than :data:`MAX_REGION` empty points: too open for a
    life-and-death problem. ``problem`` and ``inferred`` are that reading, framed, so that a
    caller may try the other readings of the position (:mod:`tsumego.search.reading`);
    ``empty`` is the region's number of empty points."""

    def __init__(self, problem: Problem, inferred: Inference, empty: int) -> None:
        super().__init__(f"the framed region has {empty} empty points: too open for a "
                         f"life-and-death problem (give the region)")
        self.problem = problem
        self.inferred = inferred
        self.empty = empty


@dataclass(frozen=True)
class Framing:
    """How the outside of a plain problem is made to behave (see the module docstring)."""

    mode: str = "inside"  # "inside", "voronoi", "flood" (ring at ``distance``) or "box"
    distance: int = 2  # inside/flood/voronoi: lines the zone may reach past the target
    beyond: int = 1  # inside mode: lines of empty board kept beyond the inside
    margin: int = 1  # box mode: empty lines between the outermost stones and the ring
    snap: int = 3  # a box side this close to the edge (lines of empty board) is extended to it
    reach: int = 3  # stones within this many lines (Chebyshev) of the box join it
    derive: bool = True  # region derived from the target inside the ring (else the whole box)
    targets: str = "largest"  # "largest" enclosed block, or "enclosed": every enclosed block of 2+


DEFAULT_FRAMING = Framing()


@dataclass(frozen=True)
class Framed:
    """A plain problem framed (:func:`frame_problem`): the problem on the framed board, the
    virtual attacker stones added (``frame``), the attacker's real stones on the frame's ring
    kept in the region because they can be captured (``ring_stones``: part of the wall for
    :func:`frame_risks`), and the framing in words (``note``)."""

    problem: Problem
    frame: int
    ring_stones: int
    note: str


@dataclass(frozen=True)
class Inference:
    """What was inferred about a plain problem, and how.

    ``goal`` is the objective of the side to play (``"kill"`` when it attacks, ``"live"`` when
    it defends). ``target`` holds the target points (every stone of the target blocks),
    ``region`` the mask of points where plays are allowed, ``frame`` the mask of the virtual
    attacker stones added around the problem. ``confidence`` is 0..1 (1 for the comment or an
    override). ``rule`` names the rule that fixed the roles (``comment``, ``enclosure``,
    ``enclosure-2``, ``height``, ``override``, ``marked``, or ``read again`` where the first
    reading had no solution: :mod:`tsumego.search.reading`); ``notes`` says what else was
    decided, in words.
    """

    goal: str
    to_play: int
    attacker: int
    defender: int
    target: tuple[int, ...]
    region: int
    frame: int
    confidence: float
    rule: str
    notes: tuple[str, ...]
    # why the frame may decide the result (None: no check found a reason); see
    # :func:`frame_risks`
    frame_sensitive: str | None = None

    def to_json(self, size: int) -> dict[str, object]:
        """The ``"inferred"`` object of ``tsumego solve --json`` (SGF coordinates)."""
        return {
            "goal": self.goal,
            "to_play": color_name(self.to_play),
            "attacker": color_name(self.attacker),
            "defender": color_name(self.defender),
            "target": [to_sgf(p, size) for p in self.target],
            "region": [to_sgf(p, size) for p in bits(self.region)],
            "frame": [to_sgf(p, size) for p in bits(self.frame)],
            "confidence": round(self.confidence, 3),
            "rule": self.rule,
            "notes": list(self.notes),
            "frame_sensitive": self.frame_sensitive,
        }

    @property
    def framed(self) -> bool:
        """Whether the problem solved is not the file's marked problem: it was inferred, or
        set up with an override (then the region, and any frame stones, are ours)."""
        return self.rule != "marked"

    def framed_words(self, size: int) -> str:
        """What was added to the file's position, in words, for the root comment of a
        solution tree (whose setup holds the frame stones, dimmed with ``DD``, and the region
        as ``TSREGION``)."""
        side = "Black" if self.to_play == BLACK else "White"
        att = "Black" if self.attacker == BLACK else "White"
        how = ("set up with the options given" if self.rule == "override" else
               "inferred (the file marks no target)")
        text = (f"Framed problem: tsumego {how}: {side} to play and {self.goal} (rule "
                f"{self.rule}, confidence {self.confidence:.2f}), the target marked MA "
                f"({_count(len(self.target), 'stone')})")
        n = bin(self.frame).count("1")
        if n:
            text += (f"; {_count(n, 'virtual ' + att + ' stone')} added around it, dimmed ("
                     f"{' '.join(to_sgf(p, size) for p in bits(self.frame))}): they stand for "
                     f"an outside that belongs to {att}")
        r = bin(self.region).count("1")
        text += (f"; the plays are in the region TSREGION ({_count(r, 'point')}), and every "
                 f"line is played on this board, frame included.")
        if self.frame_sensitive:
            text += (f" The frame may decide the result: {self.frame_sensitive}. The answer is "
                     f"exact for this framed board, and may not be the book's.")
        return text

    def explain(self, problem: Problem) -> str:
        """Several lines for ``tsumego solve --explain``: the goal, the rule and its confidence,
        the target, the region and the notes (the command line adds a diagram)."""
        side = "Black" if self.to_play == BLACK else "White"
        who = "Black" if self.defender == BLACK else "White"
        from tsumego.go.coords import to_gtp

        size = problem.size
        n = bin(self.region).count("1")
        lines = [
            f"Inferred: {side} to play and {self.goal}; defender {who} "
            f"(rule: {self.rule}, confidence {self.confidence:.2f})",
            "Target: " + ", ".join(f"{to_gtp(p, size)} ({to_sgf(p, size)})"
                                   for p in self.target),
            f"Region: {n} point{'s' if n != 1 else ''} (where the plays are)",
        ]
        lines += [f"  - {n}" for n in self.notes]
        if self.frame_sensitive:
            lines.append(f"  - the frame may decide the result: {self.frame_sensitive}")
        elif self.framed:
            lines.append("  - the frame's checks found no sign that it decides the result")
        return "\n".join(lines)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def crop_diagram(problem: Problem, frame: int = 0) -> str:
    """:meth:`Problem.diagram` with frame stones in lower case, cropped to the region and the
    frame plus one line."""
    geo = problem.board().geo
    rows = problem.diagram().splitlines()
    keep = _dilate8(geo, problem.region | frame) if problem.region | frame else geo.full
    xs = [p % problem.size for p in bits(keep)]
    ys = [p // problem.size for p in bits(keep)]
    out = []
    for y in range(min(ys), max(ys) + 1):
        cells = rows[y].split(" ")
        for x in range(problem.size):
            if frame >> (y * problem.size + x) & 1:
                cells[x] = cells[x].lower()
        out.append(" ".join(cells[min(xs):max(xs) + 1]))
    return "\n".join(out)


# --- the comment ------------------------------------------------------------------------------

_COLOR = r"(black|white)"
_LIVE = r"(?:live|lives|living|life|alive|survive|survives|save|saves|saving|make (?:two )?eyes)"
_KILL = r"(?:kill|kills|killing|capture|captures|capturing)"
_DEAD = r"(?:dead|die|dies|death)"
_GOAL_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # "Black to live", "White to play and kill", "Black to play: live", "Black lives"
    (re.compile(_COLOR + r"\s+(?:to\s+)?(?:(?:play|move)\s*(?:and|[:,-])?\s*)?(?:to\s+)?"
                + _LIVE + r"\b", re.I), "live"),
    (re.compile(_COLOR + r"\s+(?:to\s+)?(?:(?:play|move)\s*(?:and|[:,-])?\s*)?(?:to\s+)?"
                + _KILL + r"\b", re.I), "kill"),
    # "Can Black live?", "How can White kill?", "how does Black live"
    (re.compile(r"\b(?:can|does|should|will|must)\s+" + _COLOR + r"\s+(?:still\s+)?" + _LIVE
                + r"\b", re.I), "live"),
    (re.compile(r"\b(?:can|does|should|will|must)\s+" + _COLOR + r"\s+(?:still\s+)?" + _KILL
                + r"\b", re.I), "kill"),
    # the named colour is the one that dies: "White is dead", "Is Black dead?", "White dies"
    (re.compile(r"\b" + _COLOR + r"\s+(?:is\s+|group\s+is\s+|will\s+)?(?:already\s+)?"
                + _DEAD + r"\b", re.I), "dead"),
    (re.compile(r"\b(?:is|are)\s+(?:the\s+)?" + _COLOR + r"\s+(?:group\s+|stones?\s+)?"
                + r"(?:already\s+)?" + _DEAD + r"\b", re.I), "dead"),
]
# no colour named: "to play and live", "Live.", "Kill!" (the side to play)
_BARE_GOAL: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(?:^|\bto play and |\band |[.:;!]\s*)" + _LIVE + r"\b", re.I), "live"),
    (re.compile(r"(?:^|\bto play and |\band |[.:;!]\s*)" + _KILL + r"\b", re.I), "kill"),
]


def goal_from_comment(comment: str, to_play: int) -> tuple[int, str] | None:
    """``(defender, phrase)`` named by an English comment, or None when it names no goal.

    A phrase naming a colour decides the defender directly ("White to live": White; "Black to
    kill": White); a bare "to play and live" / "kill" refers to the side to play. Only the
    first :data:`COMMENT_HEAD` characters are read (a problem says its goal first, and a
    comment of megabytes would take seconds)."""
    text = (comment or "")[:COMMENT_HEAD]
    best: tuple[int, int, str] | None = None  # position, defender, phrase
    for pat, goal in _GOAL_PATTERNS:
        m = pat.search(text)
        if m and (best is None or m.start() < best[0]):
            named = BLACK if m.group(1).lower() == "black" else WHITE
            defender = named if goal in ("live", "dead") else opponent(named)
            best = (m.start(), defender, m.group(0).strip())
    if best is None:
        for pat, goal in _BARE_GOAL:
            m = pat.search(text)
            if m and (best is None or m.start() < best[0]):
                defender = to_play if goal == "live" else opponent(to_play)
                best = (m.start(), defender, m.group(0).strip(" .:;!"))
    if best is None:
        return None
    return best[1], best[2]


# --- geometry helpers -------------------------------------------------------------------------

def _dilate8(geo: Geometry, m: int) -> int:
    """``m`` plus its 8 neighbours."""
    h = m | ((m << 1) & geo.not_left) | ((m >> 1) & geo.not_right)
    return h | ((h << geo.size) & geo.full) | (h >> geo.size)


def _flood8(geo: Geometry, seeds: int, passable: int) -> int:
    """``seeds`` plus every point of ``passable`` 8-connected to them through ``passable``."""
    grown = frontier = seeds
    while frontier:
        frontier = _dilate8(geo, frontier) & passable & ~grown
        grown |= frontier
    return grown


def parse_region(text: str, size: int) -> int:
    """A region given by the user: SGF/GTP points separated by spaces or commas, or a
    rectangle given by two corners ``aa-ff`` / ``aa:ff`` / ``A19-F14``. Raises ValueError."""
    from tsumego.go.coords import parse_point

    t = text.strip()
    m = re.fullmatch(r"\s*([A-Za-z]{1,2}\d{0,2})\s*[-:]\s*([A-Za-z]{1,2}\d{0,2})\s*", t)
    if m:
        a, b = parse_point(m.group(1), size), parse_point(m.group(2), size)
        if a < 0 or b < 0:
            raise ValueError("a rectangle corner cannot be a pass")
        ax, ay, bx, by = a % size, a // size, b % size, b // size
        return geometry(size).rect(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
    region = 0
    for tok in re.split(r"[\s,]+", t):
        if not tok:
            continue
        p = parse_point(tok, size)
        if p < 0:
            raise ValueError("a region point cannot be a pass")
        region |= 1 << p
    if not region:
        raise ValueError("empty region")
    return region


# --- roles from the position ------------------------------------------------------------------

def _open_area(board: Board) -> int:
    """Empty points four or more lines (Chebyshev) away from every stone."""
    geo = board.geo
    near = board.occupied
    for _ in range(3):
        near = _dilate8(geo, near)
    return geo.full & ~near


def _enclosed(board: Board, color: int, gap: int, open_area: int) -> int:
    """Stones of ``color`` that cannot reach ``open_area`` through empty points farther than
    ``gap`` lines (edge distance) from every opponent stone, nor through their own stones."""
    geo = board.geo
    own = board.stones(color)
    blocked = board.stones(opponent(color))
    for _ in range(gap):
        blocked = geo.dilate(blocked)
    passable = (board.empty & ~blocked) | own
    free = geo.flood(open_area & passable, passable)
    return own & ~free


def _heights(board: Board, color: int) -> list[int]:
    size = board.size
    return [min(p % size, p // size, size - 1 - p % size, size - 1 - p // size)
            for p in bits(board.stones(color))]


@dataclass(frozen=True)
class _Roles:
    defender: int
    enclosed: int  # the defender's enclosed stones (0 when none)
    rule: str
    confidence: float
    note: str


def roles_from_position(board: Board) -> _Roles:
    """The defender as a Go player sees it (see the module docstring, step 2)."""
    nb = bin(board.black).count("1")
    nw = bin(board.white).count("1")
    if not nb or not nw:
        raise InferenceError("the position needs stones of both colours")
    open_area = _open_area(board)
    if open_area:
        for gap, rule, scale in ((1, "enclosure", 1.0), (2, "enclosure-2", 0.8)):
            eb = _enclosed(board, BLACK, gap, open_area)
            ew = _enclosed(board, WHITE, gap, open_area)
            fb = bin(eb).count("1") / nb
            fw = bin(ew).count("1") / nw
            if fb == fw == 0:
                continue
            if fb != fw:
                d = BLACK if fb > fw else WHITE
                enc = eb if d == BLACK else ew
                conf = 0.5 + 0.5 * abs(fb - fw) * scale
                return _Roles(d, enc, rule, conf,
                              f"{bin(eb).count('1')}/{nb} black and {bin(ew).count('1')}/{nw} "
                              f"white stones are shut in (gaps up to {gap} closed)")
        raise InferenceError("no group is shut in: the position does not look like a "
                             "life-and-death problem (mark the target with MA, or give the "
                             "target or the goal)")
    hb = _heights(board, BLACK)
    hw = _heights(board, WHITE)
    mb = sum(hb) / len(hb)
    mw = sum(hw) / len(hw)
    d = BLACK if mb < mw else WHITE if mw < mb else BLACK
    conf = 0.5 + min(0.3, abs(mb - mw) / 6)
    if mb == mw:
        conf = 0.3
    return _Roles(d, 0, "height", conf,
                  f"mean height above the edge: black {mb:.1f}, white {mw:.1f}; "
                  "the lower colour defends")


def _pick_target(board: Board, defender: int, enclosed: int, how: str) -> int:
    """The target mask: the largest enclosed block of the defender (or, with ``how ==
    "enclosed"``, every enclosed block of two or more stones); without enclosed stones, the
    defender's largest block among the lowest ones."""
    blocks = board.blocks(defender)
    pool = [b for b in blocks if b & enclosed] or blocks
    if how == "enclosed" and enclosed:
        big = [b for b in pool if b & (b - 1)]
        if big:
            t = 0
            for b in big:
                t |= b
            return t
    size = board.size

    def low(b: int) -> float:
        hs = [min(p % size, p // size, size - 1 - p % size, size - 1 - p // size)
              for p in bits(b)]
        return sum(hs) / len(hs)

    return max(pool, key=lambda b: (bin(b).count("1"), -low(b), -(b & -b).bit_length()))


# --- the frame --------------------------------------------------------------------------------

def frame_box(board: Board, target: int, framing: Framing) -> int:
    """The box of the problem (step 4): the target's bounding box, grown over nearby stones,
    snapped to close edges, plus the margin; the ring of frame stones surrounds it and never
    touches a defender stone."""
    size = board.size
    geo = board.geo
    stones = board.occupied
    defender = board.color_at((target & -target).bit_length() - 1)
    x0, y0, x1, y1 = geo.bbox(target)
    while True:
        near = geo.rect(x0 - framing.reach, y0 - framing.reach, x1 + framing.reach,
                        y1 + framing.reach) & stones
        nx0, ny0, nx1, ny1 = geo.bbox(near | geo.rect(x0, y0, x1, y1))
        if framing.snap >= 0:
            nx0 = 0 if nx0 <= framing.snap else nx0
            ny0 = 0 if ny0 <= framing.snap else ny0
            nx1 = size - 1 if nx1 >= size - 1 - framing.snap else nx1
            ny1 = size - 1 if ny1 >= size - 1 - framing.snap else ny1
        box = geo.rect(nx0 - framing.margin, ny0 - framing.margin, nx1 + framing.margin,
                       ny1 + framing.margin)
        ring = _dilate8(geo, box) & ~box
        if (nx0, ny0, nx1, ny1) == (x0, y0, x1, y1) and not ring & board.stones(defender):
            return box
        if (nx0, ny0, nx1, ny1) == (x0, y0, x1, y1):
            # a defender stone on the ring: take it (and its surroundings) in
            nx0, ny0, nx1, ny1 = geo.bbox(ring & board.stones(defender)
                                          | geo.rect(x0, y0, x1, y1))
        x0, y0, x1, y1 = nx0, ny0, nx1, ny1


def flood_zone(board: Board, target: int, distance: int) -> int:
    """The zone of the problem in flood mode: the 8-neighbour flood from the target through
    points without attacker stones (rules.md 1a) that lie within ``distance`` lines
    (Chebyshev) of a defender stone of the zone; defender stones always let the flood through,
    so no defender stone is ever left next to the ring."""
    geo = board.geo
    defender = board.color_at((target & -target).bit_length() - 1)
    own = board.stones(defender)
    non_attacker = geo.full & ~board.stones(opponent(defender))
    zone = target
    while True:
        near = own & zone
        for _ in range(distance):
            near = _dilate8(geo, near)
        passable = (non_attacker & near) | own
        grown = _flood8(geo, zone, passable)
        if grown == zone:
            return zone
        zone = grown


def _distances(geo: Geometry, sources: int, limit: int) -> list[int]:
    """Masks of the points at Chebyshev distance exactly 0, 1, ..., ``limit`` from
    ``sources``."""
    out = [sources]
    seen = sources
    for _ in range(limit):
        nxt = _dilate8(geo, seen) & ~seen
        out.append(nxt)
        seen |= nxt
    return out


def voronoi_zone(board: Board, target: int, distance: int) -> int:
    """The zone of the problem in voronoi mode: the 8-neighbour flood from the target through
    points without attacker stones that are at most ``distance`` lines from a defender stone
    of the zone and no farther from it than from the attacker's *outer* stones (those not shut
    in: stones inside the defender's eye space do not bound the problem)."""
    geo = board.geo
    defender = board.color_at((target & -target).bit_length() - 1)
    attacker = opponent(defender)
    own = board.stones(defender)
    opp = board.stones(attacker)
    open_area = _open_area(board)
    outer = opp & ~_enclosed(board, attacker, 1, open_area) if open_area else opp
    # points strictly closer to an outer attacker stone than ``d``: att_within[d]
    att_layers = _distances(geo, outer, distance + 1)
    non_attacker = geo.full & ~opp
    zone = target
    while True:
        layers = _distances(geo, own & zone, distance)
        ok = 0
        att_closer = 0  # points at distance < d from the outer attacker stones
        for d, layer in enumerate(layers):
            ok |= layer & ~att_closer
            att_closer |= att_layers[d]
        passable = (non_attacker & ok) | own
        grown = _flood8(geo, zone, passable)
        if grown == zone:
            return zone
        zone = grown


def _holes(board: Board, zone: int, open_area: int) -> int:
    """Empty points outside ``zone`` that are shut in by it and by stones: their empty
    (edge-connected) area reaches neither the open board nor a point three lines from the
    zone. A frame stone there would be an attacker stone inside the defender's space."""
    geo = board.geo
    free = board.empty & ~zone
    far = zone
    for _ in range(3):
        far = _dilate8(geo, far)
    seeds = free & (open_area | ~far)
    return free & ~geo.flood(seeds, free)


def inside_zone(board: Board, target: int, distance: int, beyond: int = 1) -> int:
    """The zone of the problem in inside mode: what a Go player sees as the inside of the
    attacker's wall, plus one line.

    1. Flood (edge neighbours) from the target through defender stones, empty points and the
       attacker's *shut-in* stones (those inside the defender's space), at most ``distance``
       lines (Chebyshev) from a defender stone; an empty point next to an *outer* attacker
       stone joins but does not pass the flood on (the wall stops it, one-point gaps
       included).
    2. Add every empty point one line (edge or diagonal) beyond that inside: the gaps
       between the wall and the edge, and the first line outside the wall, where both sides
       may play.
    Defender stones reached in 2 join and the flood resumes from them."""
    geo = board.geo
    defender = board.color_at((target & -target).bit_length() - 1)
    attacker = opponent(defender)
    own = board.stones(defender)
    opp = board.stones(attacker)
    open_area = _open_area(board)
    inner_opp = _enclosed(board, attacker, 1, open_area) if open_area else 0
    outer = opp & ~inner_opp
    stop = geo.dilate(outer) & board.empty  # empty points next to the outer wall
    passable = own | inner_opp | board.empty
    inside = target
    while True:
        near = own & inside
        for _ in range(distance):
            near = _dilate8(geo, near)
        frontier = inside
        while frontier:
            grow = geo.dilate(frontier & ~stop) & passable & near & ~inside
            inside |= grow
            frontier = grow
        zone = inside
        for _ in range(beyond):
            zone |= _dilate8(geo, zone) & (board.empty | own)
        zone |= _dilate8(geo, zone) & own  # no defender stone on the ring
        zone |= _holes(board, zone, open_area)
        more = zone & own & ~inside
        if not more:
            return zone
        inside |= more


def frame_problem(board: Board, target: int, to_play: int, framing: Framing = DEFAULT_FRAMING,
                  *, region: int | None = None, name: str = "") -> Framed:
    """Frame a plain problem around ``target``.

    With ``region`` given (an override), the ring of frame stones surrounds that region and
    the region is used as it is."""
    geo = board.geo
    defender = board.color_at((target & -target).bit_length() - 1)
    attacker = opponent(defender)
    if region is not None:
        if target & ~region:
            raise InferenceError("the region does not contain the whole target")
        box = region
    elif framing.mode == "flood":
        box = flood_zone(board, target, framing.distance)
    elif framing.mode == "inside":
        box = inside_zone(board, target, framing.distance, framing.beyond)
    elif framing.mode == "voronoi":
        box = voronoi_zone(board, target, framing.distance)
    else:
        box = frame_box(board, target, framing)
    ring = _dilate8(geo, box) & ~box
    b = board.copy()
    frame = ring & b.empty
    for p in bits(frame):
        b.place(p, attacker)
    # a defender block left without liberties by the frame (only with a user's region)
    for blk in b.blocks(defender):
        if not b.liberties(blk):
            raise InferenceError("the frame around the region would capture defender stones; "
                                 "choose a larger region")
    ring_stones = 0
    if region is not None:
        reg = region
        note = "region given by the user; frame stones on every empty point around it"
    elif framing.derive:
        try:
            derived, _ = derive_region(b, target)
            reg = derived & box
            # A capturable attacker block (rules.md 1b) on the frame's ring keeps its points
            # in the region when all its liberties lie inside: once captured, its points are
            # played again, as on the board. Cut off, they would be holes nobody may fill, an
            # eye the defender never had.
            for blk in geo.parts(derived & ~box, b.stones(attacker)):
                if not geo.dilate(blk) & b.empty & ~box:
                    ring_stones |= blk
            reg |= ring_stones
            note = "region derived from the target inside the frame (rules.md 1a-c)"
        except ProblemError:
            reg = box
            note = "region: the whole framed box"
    else:
        reg = box
        note = "region: the whole framed box"
    x0, y0, x1, y1 = geo.bbox(box)
    where = (f"up to {framing.distance} lines around the defender" if region is None
             and framing.mode != "box" else
             f"columns {x0 + 1}-{x1 + 1}, rows {y0 + 1}-{y1 + 1}")
    note = (f"frame: {bin(frame).count('1')} virtual {color_name(attacker)} stones, "
            f"{where}; " + note)
    problem = Problem(b.size, b.black, b.white, target, reg, walls_around(b, reg, attacker),
                      to_play, name)
    return Framed(problem, frame, ring_stones, note)


# --- where the frame may decide the result --------------------------------------------------

WEAK_LIBERTIES = 2  # a wall block with this many liberties or fewer in the book is weak


def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def _points(mask: int, size: int, limit: int = 6) -> str:
    """Points for people: ``E5 (ee), F5 (fe)``, the first ``limit`` of them."""
    from tsumego.go.coords import to_gtp

    ps = list(bits(mask))
    text = ", ".join(f"{to_gtp(p, size)} ({to_sgf(p, size)})" for p in ps[:limit])
    return text + (f" and {len(ps) - limit} more" if len(ps) > limit else "")


def frame_risks(problem: Problem, frame: int, ring_stones: int = 0) -> list[str]:
    """Why the frame stones ``frame`` around ``problem`` may decide its result, in words
    (empty: no reason found). ``ring_stones`` are the attacker's real stones on the frame's
    ring that the region keeps (:class:`Framed`).

    The checks are conservative (a reason does not say the answer is wrong, only that the
    frame, not the book's position, may be what decides it), and each reason is a fact:

    - **escape**: the target's way out reaches the frame. A flood from the target through
      the region's points (the ring's stones excepted) and the defender's stones, not
      passing on from a point next to one of the attacker's real stones outside the region
      or on the ring (its wall: a one-point gap in it counts as closed), comes next to a
      frame stone. There the frame stones, not the attacker's stones, stop the target.
    - **weak wall**: an attacker block of the book's position next to the region has at
      most :data:`WEAK_LIBERTIES` liberties in the book, one of them outside the region
      (:func:`weak_walls`): in the book the defender may live by capturing it from outside;
      the framed problem never lets it be captured.
    """
    b = problem.board()
    geo = b.geo
    size = problem.size
    attacker, defender = problem.attacker, problem.defender
    region = problem.region & ~ring_stones  # the ring's stones count as outside: wall
    out: list[str] = []
    if frame:
        wall = b.stones(attacker) & ~region & ~frame
        stop = geo.dilate(wall)
        passable = region | b.stones(defender)
        own = b.stones(defender)
        reach = frontier = problem.target
        while frontier:
            grow = geo.dilate(frontier & (own | ~stop)) & passable & ~reach
            reach |= grow
            frontier = grow
        touch = reach & geo.dilate(frame)
        if touch:
            out.append(f"the target's way out reaches the frame at {_points(touch, size)}: "
                       f"frame stones, not {_side(attacker)}'s own, stop it there")
    weak = weak_walls(book_board(problem, frame), problem)
    if weak:
        out.append(f"{_side(attacker)}'s stones at {_points(weak, size)} have at most "
                   f"{WEAK_LIBERTIES} liberties in the book, but cannot be captured in the "
                   f"frame (their liberties outside the region are never played)")
    return out


def book_board(problem: Problem, frame: int) -> Board:
    """The board of ``problem`` without the stones of ``frame``: the position it was framed
    from."""
    b = problem.board()
    for p in bits(frame):
        b.remove(p)
    return b


def weak_walls(book: Board, problem: Problem) -> int:
    """The attacker's weak walls: its blocks in the book's position (``book``) that touch the
    region from outside, with at most :data:`WEAK_LIBERTIES` liberties in the book, one of them
    outside the region. The framed problem never lets them be captured (their liberties
    outside the region are never played, and frame stones may join them), while in the book
    the defender may live by attacking them from outside."""
    geo = book.geo
    region = problem.region
    weak = seen = 0
    for p in bits(book.stones(problem.attacker) & geo.dilate(region) & ~region):
        if seen >> p & 1:
            continue
        blk = book.block(p)
        seen |= blk
        libs = book.liberties(blk)
        if bin(libs).count("1") <= WEAK_LIBERTIES and libs & ~region:
            weak |= blk
    return weak


# --- the whole inference ----------------------------------------------------------------------

def infer_problem(
    board: Board,
    to_play: int,
    comment: str = "",
    *,
    goal: str | None = None,
    target: Sequence[int] = (),
    region: int | None = None,
    squares: Sequence[int] = (),
    name: str = "",
    framing: Framing = DEFAULT_FRAMING,
) -> tuple[Problem, Inference]:
    """Infer and frame a plain problem (see the module docstring).

    ``goal`` (``"kill"``/``"live"``, for the side to play), ``target`` (points of the target
    blocks) and ``region`` (a mask) override the inference. ``squares`` (SQ) are filled with
    attacker stones once the attacker is known. Raises :class:`InferenceError`."""
    if goal is not None and goal not in GOALS:
        raise InferenceError(f"unknown goal {goal!r}: use kill or live")
    b = board.copy()
    geo = b.geo
    notes: list[str] = []
    target_mask = 0
    enclosed = 0
    confidence = 1.0
    # --- roles
    if target:
        colors = {b.color_at(p) for p in target}
        if 0 in colors:
            p = next(p for p in target if b.color_at(p) == 0)
            raise InferenceError(f"target {to_sgf(p, b.size)} is an empty point")
        if len(colors) > 1:
            raise InferenceError("the target has stones of both colours")
        defender = colors.pop()
        for p in target:
            target_mask |= b.block(p)
        rule = "override"
        notes.append("target given")
        if goal is not None and (goal == "live") != (to_play == defender):
            raise InferenceError(
                f"goal {goal} contradicts the target: the side to play "
                f"({color_name(to_play)}) {'defends' if to_play == defender else 'attacks'} it")
    elif goal is not None:
        defender = to_play if goal == "live" else opponent(to_play)
        rule = "override"
        notes.append(f"goal given: {color_name(to_play)} to {goal}")
    else:
        said = goal_from_comment(comment, to_play)
        if said is not None:
            defender, phrase = said
            rule = "comment"
            notes.append(f'the comment says "{phrase}"')
        else:
            roles = roles_from_position(b)
            defender, enclosed = roles.defender, roles.enclosed
            rule = roles.rule
            confidence = roles.confidence
            notes.append(roles.note)
    attacker = opponent(defender)
    for p in squares:
        if b.color_at(p) == 0:
            b.place(p, attacker)
    for color in (BLACK, WHITE):
        for blk in b.blocks(color):
            if not geo.dilate(blk) & b.empty:
                p = (blk & -blk).bit_length() - 1
                raise InferenceError(f"illegal setup: the {color_name(color)} block at "
                                     f"{to_sgf(p, b.size)} has no liberties")
    if not b.stones(defender):
        raise InferenceError(f"the defender ({color_name(defender)}) has no stones")
    # --- target
    if not target_mask:
        if not enclosed:
            open_area = _open_area(b)
            if open_area:
                for gap in (1, 2):
                    enclosed = _enclosed(b, defender, gap, open_area)
                    if enclosed:
                        break
        target_mask = _pick_target(b, defender, enclosed, framing.targets)
        blocks = [blk for blk in b.blocks(defender) if blk & target_mask]
        n = bin(target_mask).count("1")
        notes.append(f"target: {'the largest enclosed' if enclosed else 'the largest'} "
                     f"{color_name(defender)} block" + ("s" if len(blocks) > 1 else "")
                     + f" ({n} stone{'s' if n != 1 else ''})")
    runs = _runs(b, target_mask, defender)
    if runs and not target and region is None:
        p = (target_mask & -target_mask).bit_length() - 1
        raise InferenceError(
            f"the target ({_side(defender)}'s block at {_points(1 << p, b.size)}) {CHASE}: "
            f"a chase across the board is not a life-and-death problem "
            f"for this solver (a frame around the target would decide the answer; mark the "
            f"target with MA and wall it in, or give the region)")
    # --- frame and region
    framed = frame_problem(b, target_mask, to_play, framing, region=region, name=name)
    problem, frame = framed.problem, framed.frame
    notes.append(framed.note)
    goal_out = "kill" if to_play == attacker else "live"
    risks = frame_risks(problem, frame, framed.ring_stones)
    if runs:
        risks.insert(0, f"the target {CHASE}, where the frame stops it")
    inference = Inference(goal_out, to_play, attacker, defender, tuple(bits(target_mask)),
                          problem.region, frame, confidence, rule, tuple(notes),
                          "; ".join(risks) if risks else None)
    n_empty = problem.region_empty
    if region is None and n_empty > MAX_REGION:
        raise TooOpen(problem, inference, n_empty)
    return problem, inference


def _runs(board: Board, target: int, defender: int) -> bool:
    """Whether the target can run into the open board: a flood from it through the
    defender's stones and the empty points that are neither next to an attacker stone nor on
    the board's edge (crawling along the first line is no way out) reaches the open board
    (points four lines from every stone). Such a group is chased, not killed in place, and a
    chase across the board is not a life-and-death problem: a frame around it would decide
    the answer."""
    open_area = _open_area(board)
    if not open_area:
        return False
    geo = board.geo
    size = board.size
    edge = geo.rect(0, 0, size - 1, size - 1) & ~geo.rect(1, 1, size - 2, size - 2)
    blocked = geo.dilate(board.stones(opponent(defender))) | edge
    passable = (board.empty & ~blocked) | board.stones(defender)
    return bool(geo.flood(target, passable) & open_area)


def infer_with_overrides(
    board: Board,
    to_play: int,
    comment: str = "",
    *,
    marked: Sequence[int] = (),
    squares: Sequence[int] = (),
    goal: str | None = None,
    target: str | None = None,
    region: str | None = None,
    name: str = "",
    framing: Framing = DEFAULT_FRAMING,
    stated_region: int | None = None,
) -> tuple[Problem, Inference]:
    """The entry point of :func:`tsumego.io.sgf.parse_problem`: ``marked`` are the file's ``MA``
    points, ``target`` and ``region`` the user's overrides as text (points in SGF or GTP
    notation; a region may be a rectangle ``aa-ff``). A marked file with only ``goal`` given
    keeps its marked region (``stated_region``, when the file states one; the goal must agree
    with the mark); a ``target`` override replaces ``MA``; otherwise the problem is inferred
    and framed. Raises :class:`InferenceError` or ValueError."""
    from tsumego.go.coords import parse_point
    from tsumego.go.problem import make_problem

    size = board.size
    target_pts: list[int] = []
    if target is not None:
        for tok in re.split(r"[\s,]+", target.strip()):
            if tok:
                p = parse_point(tok, size)
                if p < 0:
                    raise InferenceError("the target cannot be a pass")
                target_pts.append(p)
        if not target_pts:
            raise InferenceError("empty target")
    region_mask = None if region is None else parse_region(region, size)
    if marked and target is None and region is None:
        problem = make_problem(board, list(marked), to_play=to_play, squares=squares,
                               name=name, region=stated_region)
        if goal is not None and (goal == "live") != (to_play == problem.defender):
            raise InferenceError(
                f"goal {goal} contradicts the MA mark: the side to play "
                f"({color_name(to_play)}) "
                f"{'defends' if to_play == problem.defender else 'attacks'} the marked group")
        g = "kill" if to_play == problem.attacker else "live"
        inf = Inference(g, to_play, problem.attacker, problem.defender,
                        tuple(bits(problem.target)), problem.region, 0, 1.0, "marked",
                        ("the target is marked in the file (MA); the region is derived as "
                         "for every marked problem",))
        return problem, inf
    return infer_problem(board, to_play, comment, goal=goal,
                         target=target_pts or list(marked), region=region_mask,
                         squares=squares, name=name, framing=framing)


__all__ = ["infer_with_overrides", "Framing", "DEFAULT_FRAMING", "Inference", "InferenceError",
           "TooOpen", "infer_problem",
           "goal_from_comment", "roles_from_position", "frame_problem", "Framed", "frame_box",
           "parse_region", "crop_diagram", "frame_risks", "weak_walls", "book_board", "CHASE"]
