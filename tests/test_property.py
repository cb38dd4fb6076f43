"""Property test: the solver against the brute-force minimax of tests/brute.py.

Random walled positions (fixed seeds, so every run sees the same ones): corners and sides of
4x4..7x7 boards, a defender group around a small eye space, attacker stones inside it,
capturable stones of both colours, at most 7 empty points in the region. For each position and
each side to play, ``tsumego.solve`` must agree with the brute force on the winner at balances
-1, 0 and +1, and on the set of winning first moves at balance 0.

The brute force shares no code with the solver (its own board and rules, the whole history in
its memo key). A last test counts the kill / live / seki / ko cases per the brute force and
requires enough ko and seki ones, so the comparison cannot silently become trivial.

Run ``python tests/test_property.py`` for the case statistics.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tsumego import BLACK, PASS, WHITE, Board, ProblemError, make_problem, solve
from tsumego.problem import Problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from brute import BruteGame, diagram  # noqa: E402

N_POSITIONS = 240
MAX_EMPTY = 7  # empty points of the region
MIN_REGION = 8
MAX_REGION = 14  # all points of the region (capturable stones included)
MAX_STATES = 30_000  # brute-force memo size; bigger positions are regenerated
P_PLAIN = 0.3
P_KO_SHAPE = 0.4  # chance to stamp a ko shape into a candidate  # chance to keep a position that is kill or live for both sides to play
BALANCES = (-1, 0, 1)
MIN_KO = 15  # (position, side to play) cases per the brute force
MIN_SEKI = 8
MIN_KILL = 20
MIN_LIVE = 8


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cells_of(problem: Problem) -> bytes:
    n = problem.size * problem.size
    return bytes(1 if problem.black >> p & 1 else 2 if problem.white >> p & 1 else 0
                 for p in range(n))


def _nbrs(q: tuple[int, int], size: int) -> list[tuple[int, int]]:
    x, y = q
    return [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < size and 0 <= y + dy < size]


# --- positions -----------------------------------------------------------------------------
def random_problem(rng: random.Random) -> Problem | None:
    """One candidate walled position, or None (rejected: no safe wall, region too big...).

    A zone grown from a corner or the middle of a side is enclosed by attacker stones on all
    8-neighbours (the region flood is 8-connected). Zone points next to that wall mostly hold
    defender stones, the inner ones are mostly empty with a few stones of either colour; some
    stones outside the wall may weaken it into capturable blocks.
    """
    size = rng.choice((4, 5, 5, 6, 6, 7, 7))
    corner = rng.random() < 0.55
    if rng.random() < 0.5:
        # a blob grown from the corner or the middle of a side
        seed = (0, 0) if corner else (rng.randrange(1, size - 1), 0)
        zone = {seed}
        target_size = rng.randint(6, 16)
        max_depth = rng.choice((1, 2, 2, 3))
        for _ in range(200):
            if len(zone) >= target_size:
                break
            x, y = rng.choice(sorted(zone))
            dx, dy = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
            nx, ny = x + dx, y + dy
            if 0 <= nx < size and 0 <= ny <= min(max_depth, size - 1):
                zone.add((nx, ny))
    else:
        # a rectangle in the corner or on a side, with a corner or two bitten off
        w = rng.randint(2, min(size - 1 if corner else size - 2, 5))
        h = rng.randint(2, min(size - 1, 4))
        x0 = 0 if corner else rng.randint(1, size - 1 - w)
        zone = {(x0 + x, y) for x in range(w) for y in range(h)}
        for _ in range(rng.choice((0, 0, 1, 2))):
            far = [q for q in sorted(zone) if q[1] == h - 1 or q[0] in (x0, x0 + w - 1)]
            if len(zone) > 4:
                zone.discard(rng.choice(far))
    wall = set()
    for x, y in zone:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (x + dx, y + dy)
                if 0 <= q[0] < size and 0 <= q[1] < size and q not in zone:
                    wall.add(q)
    attacker = rng.choice((BLACK, WHITE))
    defender = 3 - attacker
    cells = {q: attacker for q in wall}
    style = rng.choice(("mixed", "inside", "ring", "carve", "seki", "seki"))
    ring = {q for q in zone if any((q[0] + dx, q[1] + dy) in wall
                                   for dx in (-1, 0, 1) for dy in (-1, 0, 1))}
    if style == "seki":
        # a solid defender ring around attacker stones that leave two or three points empty
        inner = sorted(zone - ring)
        if len(inner) < 3 or not ring:
            return None
        for q in ring:
            cells[q] = defender
        for q in inner:
            cells[q] = attacker
        for q in rng.sample(inner, rng.choice((2, 2, 3))):
            del cells[q]
        for _ in range(rng.choice((0, 0, 1))):
            cells[rng.choice(inner)] = defender
        for _ in range(rng.choice((0, 0, 1))):
            cells.pop(rng.choice(sorted(ring)), None)
    elif style == "carve":
        # a solid defender zone with an eye space carved out of it, holding a few attacker
        # stones, and a couple of defects anywhere
        for q in zone:
            cells[q] = defender
        for _eye in range(rng.choice((1, 2, 2))):
            start = rng.choice(sorted(zone))
            eye = {start}
            eye_size = rng.randint(1, 5)
            for _ in range(100):
                if len(eye) >= eye_size:
                    break
                x, y = rng.choice(sorted(eye))
                dx, dy = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
                if (x + dx, y + dy) in zone:
                    eye.add((x + dx, y + dy))
            p_in = rng.uniform(0.0, 0.6)
            for q in sorted(eye):
                if rng.random() < p_in:
                    cells[q] = attacker
                else:
                    cells.pop(q, None)
        for _ in range(rng.choice((0, 0, 1, 2))):
            q = rng.choice(sorted(zone))
            if rng.random() < 0.5:
                cells[q] = attacker
            else:
                cells.pop(q, None)
    else:
        if style == "mixed":
            p_ring, ring_att, p_att, p_def = (rng.uniform(0.6, 0.95), 0.3,
                                              rng.uniform(0.0, 0.3), rng.uniform(0.0, 0.3))
        elif style == "inside":  # attacker stones inside a solid ring
            p_ring, ring_att, p_att, p_def = (rng.uniform(0.85, 1.0), 0.3,
                                              rng.uniform(0.3, 0.6), rng.uniform(0.0, 0.1))
        else:  # attacker stones in the ring: cutting points and kos
            p_ring, ring_att, p_att, p_def = (rng.uniform(0.55, 0.85), rng.uniform(0.4, 0.8),
                                              rng.uniform(0.0, 0.25), rng.uniform(0.0, 0.3))
        for q in sorted(zone):
            r = rng.random()
            if q in ring:
                if r < p_ring:
                    cells[q] = defender
                elif r < p_ring + (1 - p_ring) * ring_att:
                    cells[q] = attacker
            elif r < p_att:
                cells[q] = attacker
            elif r < p_att + p_def:
                cells[q] = defender
    if rng.random() < P_KO_SHAPE:
        # a ko shape: a stone at a whose other neighbours are the opponent's, next to an empty
        # point e whose other neighbours are the stone's colour
        pairs = [(e, a) for e in sorted(zone) for a in _nbrs(e, size) if a in zone
                 and all(q in zone for q in _nbrs(a, size))]
        if pairs:
            e, a = rng.choice(pairs)
            c = attacker if any(q in wall for q in _nbrs(e, size)) else rng.choice(
                (attacker, defender))
            cells[a] = c
            cells.pop(e, None)
            for q in _nbrs(a, size):
                if q != e:
                    cells[q] = 3 - c
            for q in _nbrs(e, size):
                if q != a:
                    cells[q] = c
    p_out = rng.choice((0.0, 0.0, 0.15, 0.3))
    for x in range(size):
        for y in range(size):
            q = (x, y)
            if q not in zone and q not in wall and rng.random() < p_out:
                cells[q] = rng.choice((attacker, defender))
    t = rng.randrange(8)  # one of the 8 symmetries of the square

    def sym(x: int, y: int) -> int:
        if t & 1:
            x = size - 1 - x
        if t & 2:
            y = size - 1 - y
        if t & 4:
            x, y = y, x
        return y * size + x

    board = Board(size)
    for (x, y), c in sorted(cells.items()):
        board.place(sym(x, y), c)
    stones = [q for q in sorted(zone) if cells.get(q) == defender]
    if not stones:
        return None
    marks = rng.sample(stones, 1 if rng.random() < 0.8 or len(stones) < 2 else 2)
    try:
        problem = make_problem(board, [sym(*q) for q in marks], to_play=BLACK)
    except ProblemError:
        return None
    empty = _bits(problem.region & ~(problem.black | problem.white))
    if not 1 <= len(empty) <= MAX_EMPTY or not MIN_REGION <= len(_bits(problem.region)) <= MAX_REGION:
        return None
    return problem


@dataclass
class Case:
    seed: int
    problem: Problem
    winner: dict[tuple[int, int], int]  # (side to play, balance) -> winner, per the brute force
    moves: dict[int, frozenset[int]]  # side to play -> winning first moves at balance 0
    kind: dict[int, str]  # side to play -> kill / live / seki / ko, per the brute force
    states: int
    seconds: float

    def show(self) -> str:
        p = self.problem
        return diagram(p.size, cells_of(p), _bits(p.region), _bits(p.target))


def brute_case(seed: int, problem: Problem) -> Case | None:
    t0 = time.monotonic()
    cells = cells_of(problem)
    region = _bits(problem.region)
    target = _bits(problem.target)
    game = BruteGame(problem.size, cells, region, target, max_states=MAX_STATES)
    try:
        winner = {(c, k): game.winner(c, k) for c in (BLACK, WHITE) for k in BALANCES}
        moves = {c: frozenset(PASS if m == "pass" else m for m in game.winning_moves(c, 0))
                 for c in (BLACK, WHITE)}
        kind = {}
        for c in (BLACK, WHITE):
            ws = {winner[c, k] for k in BALANCES}
            if len(ws) == 2:
                kind[c] = "ko"
            elif ws == {problem.attacker}:
                kind[c] = "kill"
            else:
                # life or seki: can the defender win the pass-alive game even when the attacker
                # has a threat?
                live = BruteGame(problem.size, cells, region, target, live=True,
                                 max_states=MAX_STATES)
                worst = 1 if problem.attacker == BLACK else -1
                kind[c] = "live" if live.winner(c, worst) == problem.defender else "seki"
    except RuntimeError:  # too many states: too big for the brute force
        return None
    return Case(seed, problem, winner, moves, kind, len(game.memo), time.monotonic() - t0)


_cases: dict[int, Case] = {}


def case(i: int) -> Case:
    """Position number ``i``: the first candidate drawn from ``Random(seed)`` that is accepted
    (a valid problem, small enough for the brute force, and a ko or seki, or lucky)."""
    if i not in _cases:
        seed = 7919 * (i + 1)
        rng = random.Random(seed)
        while True:
            problem = random_problem(rng)
            if problem is None:
                continue
            c = brute_case(seed, problem)
            if c is None:
                continue
            # keep every ko or seki, only some of the plain kill/live ones
            if {"ko", "seki"} & set(c.kind.values()) or rng.random() < P_PLAIN:
                _cases[i] = c
                break
    return _cases[i]


def _name(c: int) -> str:
    return "Black" if c == BLACK else "White"


def _fmt_moves(ms: object, size: int) -> str:
    out = []
    for m in sorted(ms):  # type: ignore[call-overload]
        out.append("pass" if m == PASS else f"({m % size},{m // size})")
    return "{" + ", ".join(out) + "}"


def check(c: Case) -> list[str]:
    """Disagreements between the solver and the brute force for one position."""
    p = c.problem
    errors = []
    for side in (BLACK, WHITE):
        sol = solve(p, to_play=side, threats=0)
        assert sol.by_threats is not None and sol.moves is not None, sol.limit
        for k in BALANCES:
            if sol.by_threats[k] != c.winner[side, k]:
                errors.append(
                    f"{_name(side)} to play, balance {k:+d}: brute force says "
                    f"{_name(c.winner[side, k])} wins, solver says {_name(sol.by_threats[k])}")
        if sol.winner != c.winner[side, 0]:
            errors.append(f"{_name(side)} to play: Solution.winner {_name(sol.winner)} "
                          f"!= by_threats[0]")
        got = frozenset(sol.moves)
        if got != c.moves[side]:
            errors.append(
                f"{_name(side)} to play, balance 0: winning first moves (x,y): brute force "
                f"{_fmt_moves(c.moves[side], p.size)}, solver {_fmt_moves(got, p.size)}")
    return errors


def report(c: Case, errors: list[str]) -> str:
    p = c.problem
    return (f"position {c.seed} ({p.size}x{p.size}, attacker {_name(p.attacker)}, "
            f"target #/@, region empty points '.', outside '-'; brute force kinds: "
            f"Black to play {c.kind[BLACK]}, White to play {c.kind[WHITE]}):\n{c.show()}\n"
            + "\n".join(errors))


# --- sanity checks of the brute force itself (hand-verified positions) ----------------------
def _game(rows: str, target: list[tuple[int, int]]) -> BruteGame:
    lines = [ln.replace(" ", "") for ln in rows.strip().splitlines()]
    size = len(lines)
    cells = [{"X": 1, "O": 2}.get(ch, 0) for ln in lines for ch in ln]
    # region: the 8-connected flood from the target through non-attacker points (rules.md 1a)
    attacker = 3 - cells[target[0][1] * size + target[0][0]]
    zone = {y * size + x for x, y in target}
    todo = list(zone)
    while todo:
        p = todo.pop()
        x, y = p % size, p // size
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if 0 <= x + dx < size and 0 <= y + dy < size:
                    q = (y + dy) * size + x + dx
                    if q not in zone and cells[q] != attacker:
                        zone.add(q)
                        todo.append(q)
    return BruteGame(size, cells, zone, [y * size + x for x, y in target])


def test_brute_straight_three() -> None:
    g = _game("""
        . . . O X
        O O O O X
        X X X X X
        . . . . .
        . . . . .
    """, [(0, 1)])
    for k in BALANCES:
        assert g.winner(BLACK, k) == BLACK and g.winner(WHITE, k) == WHITE
    assert g.winning_moves(BLACK, 0) == {1}  # the vital point
    assert g.winning_moves(WHITE, 0) == {1}
    assert not g.attacker_captures_alone(g.play(g.start, 1, WHITE))  # two eyes: pass-alive
    assert g.attacker_captures_alone()


# White to play lives only by winning a ko, so with one more threat than Black (balance -1):
# W(1,0) leaves Black only B(2,0) (passing lets White pass too, B(0,0) and B(1,1) are suicides);
# White passes, B(1,1) must take the white stone at (2,1); W(2,1) retakes using the threat;
# Black cannot retake (that arrangement is the one just before the threat) and has no other
# legal play, so he passes and White passes: the target stands. At balance 0 the retake is
# illegal and B(0,0) captures everything. Black to play kills at balance 0 with (0,0), (1,0),
# (2,0) or (1,1); at balance -1 only B(1,0) kills, since every other play lets W(1,0) start the
# ko above.
KO_ROWS = """
    . . . X .
    @ . O X .
    @ @ X X .
    @ X X . .
    X X . . .
"""


def test_brute_ko() -> None:
    g = _game(KO_ROWS.replace("@", "O"), [(0, 1)])
    assert g.winner(WHITE, -1) == WHITE and g.winning_moves(WHITE, -1) == {1}
    assert g.winner(WHITE, 0) == BLACK and g.winner(WHITE, 1) == BLACK
    assert g.winning_moves(BLACK, 0) == {0, 1, 2, 6}
    assert g.winning_moves(BLACK, -1) == {1}
    live = BruteGame(g.size, g.start, g.region, g.target, live=True)
    assert live.winner(WHITE, -1) == BLACK  # the won ko leaves no pass-alive group


def test_ko_regression() -> None:
    """The same hand-verified ko position through the solver."""
    from tsumego import problem_from_diagram

    p = problem_from_diagram(KO_ROWS)
    sol = solve(p, to_play=WHITE, threats=-1)
    assert sol.by_threats == {-2: WHITE, -1: WHITE, 0: BLACK, 1: BLACK, 2: BLACK}
    assert sol.winner == WHITE and set(sol.moves or ()) == {1}
    sol = solve(p, to_play=BLACK, threats=-1)
    assert sol.winner == BLACK and set(sol.moves or ()) == {1}


# --- the property ---------------------------------------------------------------------------
@pytest.mark.parametrize("i", range(N_POSITIONS))
def test_solver_matches_brute_force(i: int) -> None:
    c = case(i)
    errors = check(c)
    assert not errors, report(c, errors)


def test_enough_interesting_cases() -> None:
    counts = {"kill": 0, "live": 0, "seki": 0, "ko": 0}
    for i in range(N_POSITIONS):
        for side in (BLACK, WHITE):
            counts[case(i).kind[side]] += 1
    assert counts["ko"] >= MIN_KO, counts
    assert counts["seki"] >= MIN_SEKI, counts
    assert counts["kill"] >= MIN_KILL, counts
    assert counts["live"] >= MIN_LIVE, counts


if __name__ == "__main__":
    t0 = time.monotonic()
    counts: dict[str, int] = {}
    bad = 0
    for i in range(N_POSITIONS):
        c = case(i)
        for side in (BLACK, WHITE):
            counts[c.kind[side]] = counts.get(c.kind[side], 0) + 1
    t1 = time.monotonic()
    for i in range(N_POSITIONS):
        errs = check(case(i))
        if errs:
            bad += 1
            print(report(case(i), errs), "\n")
    t2 = time.monotonic()
    slowest = max(_cases.values(), key=lambda c: c.seconds)
    print(f"{N_POSITIONS} positions, cases {counts}, disagreeing positions {bad}; brute force "
          f"{t1 - t0:.1f}s (slowest {slowest.seconds:.2f}s, {slowest.states} states), "
          f"solver {t2 - t1:.1f}s")
