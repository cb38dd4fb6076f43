"""An independent checker for ``full`` solution trees.

It shares no search code with the solver: it reads the problem (setup, target, region) and the
claim in the root's ``TSR`` property, then replays every line under the rules of rules.md with
its own history and ko-threat bookkeeping, and its own pass-alive test. A tree proves its claim
when, at each node of the claimed winner, at least one move is given and every given move wins,
at each node of the loser every legal reply (the pass included) is given, and every leaf is
terminal: a target stone captured, two passes in a row, or (for a defender's win) a target the
attacker cannot capture playing alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import BLACK, WHITE, Board, IllegalMove, bits, color_from_name
from .coords import PASS, from_sgf, to_sgf
from .problem import Problem
from .sgf import SgfNode


class CheckError(ValueError):
    """The file is not a checkable tree (no claim, bad claim)."""


@dataclass(frozen=True)
class CheckResult:
    """``proved`` or the first failure: the path of moves to it and the reason."""

    proved: bool
    path: tuple[str, ...] = ()
    reason: str = ""
    nodes: int = 0


@dataclass(frozen=True)
class Claim:
    to_play: int
    winner: int
    balance: int
    status: str
    mode: str


def read_claim(root: SgfNode) -> Claim:
    raw = root.get("TSR")
    if not raw:
        raise CheckError("no TSR claim in the root: not a tree written by tsumego solve -o")
    parts = raw.split(":")
    if len(parts) != 5:
        raise CheckError(f"malformed TSR claim {raw!r}")
    try:
        return Claim(color_from_name(parts[0]), color_from_name(parts[1]), int(parts[2]),
                     parts[3], parts[4])
    except ValueError as e:
        raise CheckError(f"malformed TSR claim {raw!r} ({e})") from None


class _Failure(Exception):
    def __init__(self, path: list[str], reason: str) -> None:
        super().__init__(reason)
        self.path = tuple(path)
        self.reason = reason


def _attacker_can_capture_alone(board: Board, target: int, region: int, attacker: int) -> bool:
    """Exhaustive: can ``attacker`` capture a target stone with successive plays, the defender
    passing? Arrangements never repeat (stones only appear, and defender stones only go)."""
    seen: set[tuple[int, int]] = set()
    stack = [board.copy()]
    while stack:
        b = stack.pop()
        for p in bits(b.empty & region):
            nb = b.copy()
            try:
                cap = nb.play(p, attacker)
            except IllegalMove:
                continue
            if cap & target:
                return True
            key = (nb.black, nb.white)
            if key not in seen:
                seen.add(key)
                stack.append(nb)
        if len(seen) > 500_000:
            raise CheckError("pass-alive test too large")
    return False


def check_tree(problem: Problem, root: SgfNode) -> CheckResult:
    """Check a full tree against its root claim."""
    claim = read_claim(root)
    if claim.mode != "full":
        raise CheckError(f"only full trees are proofs (this one is {claim.mode!r})")
    board = problem.board()
    size = problem.size
    attacker, defender = problem.attacker, problem.defender
    target = problem.target
    region = problem.region
    count = [0]

    def legal_moves(b: Board, color: int, nkt: int, history: list[tuple[int, int]]) -> set[str]:
        out = {"pass"}
        has_threat = nkt > 0 if color == BLACK else nkt < 0
        for p in bits(b.empty & region):
            nb = b.copy()
            try:
                nb.play(p, color)
            except IllegalMove:
                continue
            if (nb.black, nb.white) in history and not has_threat:
                continue
            out.add(to_sgf(p, size))
        return out

    def visit(node: SgfNode, b: Board, to_move: int, nkt: int,
              history: list[tuple[int, int]], passed: bool, winner: int,
              path: list[str]) -> None:
        """``node``'s children are the moves of ``to_move`` from position ``b``."""
        count[0] += 1
        if not node.children:
            if winner == defender and not _attacker_can_capture_alone(b, target, region,
                                                                      attacker):
                return
            raise _Failure(path, "a leaf that is not terminal")
        moves = []
        for child in node.children:
            mv = child.move()
            if mv is None:
                raise _Failure(path, "a node without a move")
            color = BLACK if mv[0] == "B" else WHITE
            if color != to_move:
                raise _Failure(path + [f"{mv[0]}[{mv[1]}]"], "moves do not alternate")
            moves.append((mv[1] or "pass", child))
        given = {m for m, _ in moves}
        if len(given) != len(moves):
            raise _Failure(path, "the same move is given twice")
        if to_move != winner:
            missing = legal_moves(b, to_move, nkt, history) - given
            if missing:
                raise _Failure(path, f"the loser's replies {sorted(missing)} are missing")
        for m, child in moves:
            step(m, child, b, to_move, nkt, history, passed, winner, path)

    def step(m: str, child: SgfNode, b: Board, to_move: int, nkt: int,
             history: list[tuple[int, int]], passed: bool, winner: int,
             path: list[str]) -> None:
        """Play ``m`` (SGF point or "pass") for ``to_move`` and check ``child``'s subtree."""
        here = path + [f"{'B' if to_move == BLACK else 'W'}[{'' if m == 'pass' else m}]"]
        if m == "pass":
            if passed:
                # two passes: the game ends with the target standing
                if child.children:
                    raise _Failure(here, "moves after two passes")
                if winner != defender:
                    raise _Failure(here, "two passes end the game for the defender")
                return
            visit(child, b, 3 - to_move, nkt, history, True, winner, here)
            return
        try:
            p = from_sgf(m, size)
        except ValueError as e:
            raise _Failure(here, f"bad point ({e})") from None
        if p == PASS or not (region >> p) & 1:
            raise _Failure(here, "a move outside the region")
        nb = b.copy()
        try:
            cap = nb.play(p, to_move)
        except IllegalMove as e:
            raise _Failure(here, f"illegal move ({e})") from None
        arr = (nb.black, nb.white)
        new_nkt, new_hist = nkt, history + [arr]
        if arr in history:
            has_threat = nkt > 0 if to_move == BLACK else nkt < 0
            if not has_threat:
                raise _Failure(here, "a repetition without a ko threat")
            new_nkt = nkt - 1 if to_move == BLACK else nkt + 1
            new_hist = [(b.black, b.white), arr]
        if cap & target:
            if child.children:
                raise _Failure(here, "moves after the target was captured")
            if winner != attacker:
                raise _Failure(here, "the target is captured in a line the defender wins")
            return
        visit(child, nb, 3 - to_move, new_nkt, new_hist, False, winner, here)

    start = [(board.black, board.white)]
    to_play = claim.to_play
    try:
        if not root.children:
            raise _Failure([], "the tree has no moves")
        # the root: correct first moves (TE or no BM) must win, wrong ones (BM) must lose
        good = [c for c in root.children if "BM" not in c.props]
        if claim.winner == to_play and not good:
            raise _Failure([], "no correct first move for the claimed winner")
        if claim.winner != to_play and good:
            raise _Failure([], "a first move is marked correct but the claim is a loss")
        wrong = [c for c in root.children if "BM" in c.props]
        if claim.winner != to_play:
            given = set()
            for c in root.children:
                mv = c.move()
                given.add((mv[1] if mv else "") or "pass")
            missing = legal_moves(board, to_play, claim.balance, start) - given
            if missing:
                raise _Failure([], f"first moves {sorted(missing)} are missing")
        for group, w in ((good, to_play), (wrong, 3 - to_play)):
            for c in group:
                mv = c.move()
                if mv is None or color_from_name(mv[0]) != to_play:
                    raise _Failure([], "a first move by the wrong side")
                count[0] += 1
                step(mv[1] or "pass", c, board, to_play, claim.balance, start, False, w, [])
    except _Failure as f:
        return CheckResult(False, f.path, f.reason, count[0])
    return CheckResult(True, (), "", count[0])
