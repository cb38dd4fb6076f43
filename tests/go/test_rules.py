"""The game of rules.md, checked through the solver: ko and the threat balance, what a threat
leaves in the history, passes and pairs of passes, the result classes, monotonicity.

Small positions are also checked against the brute-force minimax of tests/brute.py, which
follows the rules literally: the whole path as history, threats that reset it to the two
arrangements around the threat play, pairs of passes that start it afresh at balance 0 or
end the game where they repeat.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import sys
from pathlib import Path

import pytest
from conftest import sgf_moves

import tsumego.search.engine as search
from tsumego import BLACK, PASS, WHITE, problem_from_diagram, solve
from tsumego.errors import BudgetExhausted
from tsumego.go.board import bits, opponent
from tsumego.io.sgf import read_problem
from tsumego.search.engine import Engine, SearchOptions
from tsumego.search.solver import Searches

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from brute import BruteGame  # noqa: E402

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"

B, W = BLACK, WHITE
BALANCES = (-2, -1, 0, 1, 2)


def _brute(problem) -> BruteGame:  # type: ignore[no-untyped-def]
    cells = [1 if problem.black >> p & 1 else 2 if problem.white >> p & 1 else 0
             for p in range(problem.size * problem.size)]
    return BruteGame(problem.size, cells, bits(problem.region), bits(problem.target))


def reference_winner(problem, first: int, balance: int) -> int:  # type: ignore[no-untyped-def]
    """Winner by exhaustive search over the game of rules.md (tiny regions only)."""
    return _brute(problem).winner(first, balance)


def reference_moves(problem, first: int, balance: int) -> set[int]:  # type: ignore[no-untyped-def]
    """The winning first moves by the brute force (PASS included when it wins)."""
    return {PASS if m == "pass" else m for m in _brute(problem).winning_moves(first, balance)}


def winners(problem, first: int) -> dict[int, int]:  # type: ignore[no-untyped-def]
    game = _brute(problem)
    return {k: game.winner(first, k) for k in BALANCES}


# --- positions --------------------------------------------------------------------------------

# A direct ko in the corner. The black stones ba and cb each have the single liberty ca; White
# ca captures both and lives (two eyes). Black's throw-in at ab captures the white stone at aa
# and puts White in atari at ca: White must retake at aa, which repeats the position and so
# needs a threat; after it White finishes by capturing at ca.
#   Black to play: Black wins at 0 (White cannot retake); at -1 White retakes with her threat
#   and Black, who may not retake (the history holds the arrangement before White's retake),
#   cannot stop White's capture.
#   White to play: White lives at ca, or with a threat in hand by passing.
KO = """
    O X . @ X .
    . @ X @ X .
    @ @ @ @ X .
    X X X X X .
    . . . . . .
    . . . . . .
"""
KO_BY_THREATS = {-2: W, -1: W, 0: B, 1: B, 2: B}

# An approach ko: White takes the ko at aa first; Black can retake at ba with a threat, but to
# capture White he must still fill ac and bc, and White retakes after the first of those:
# Black needs two threats. Black to play approaches first (ac or bc), White takes at aa, and
# Black needs one threat.
APPROACH_KO = """
    . X @ X . .
    X @ @ X . .
    . . @ X . .
    @ @ @ X . .
    X X X X . .
    . . . . . .
"""
APPROACH_BY_THREATS = {B: {-2: W, -1: W, 0: W, 1: B, 2: B},
                       W: {-2: W, -1: W, 0: W, 1: W, 2: B}}

# A ko White can never finish (the old direct ko of this file): White's stone at da has one
# liberty (ca); Black takes it at ca, which also puts the target in atari (its last liberty is
# the eye at aa). White can retake at da only with a threat, and can then never close the
# eye: filling ca or aa is self-atari. After a pair of passes the threats are gone and Black
# takes again. Black wins at every balance, whoever plays first.
NEVER_FINISHED = """
    . @ . O X .
    @ @ @ X X .
    X X X X . .
    . . . . . .
    . . . . . .
    . . . . . .
"""

# Two eyes: alive whoever plays, passing is White's only correct move.
ALIVE = """
    . @ . @ X .
    @ @ @ @ X .
    X X X X X .
    . . . . . .
    . . . . . .
    . . . . . .
"""

# A seki: White's group and Black's corner block (eye at aa) share the liberty ca. Whoever
# fills it is captured; the attacker alone could capture, so the target is not pass-alive.
SEKI = """
    . X . @ . @ X
    X X @ @ @ @ X
    @ @ @ X X X X
    X X X X . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""

# The rectangular six in the corner: whoever plays first decides (bf / be are vital).
CORNER_SIX = """
    . . . . . .
    . . . . . .
    X X X X X .
    @ @ @ @ X .
    . . . @ X .
    . . . @ X .
"""

# Small positions where the brute force's result is a ko for at least one side to play
# (found by a search over random walled positions).
SMALL_KOS = [
    """
    . O O O O
    X O # # #
    . O # . .
    . O # # O
    O O # O .
    """,
    """
    . X X X X
    . X @ @ @
    . X @ . .
    . X @ @ X
    . X @ X X
    """,
    """
    . . . . .
    O O O O O
    # # # # O
    O # O # O
    . O . # O
    """,
    """
    X . X O .
    O # O O .
    . O X O .
    X X X O .
    O O O O .
    """,
    """
    . . O # . O X
    . . O # O # .
    . . O # # # #
    . . O O O O O
    . . . . . . .
    . . . . . . .
    . . . . . . .
    """,
]

# Positions that were kos under the old ending by two passes: kos the defender can never
# finish, which the pairs of passes now decide for the attacker (the fifth has two of them on
# one group: eye at aa, ko points ca and ac).
NEVER_FINISHED_KOS = [
    """
    @ . . X .
    . O . X .
    O O O X .
    X X X X .
    . . . . .
    """,
    """
    . . O X .
    @ X O X .
    . O X X .
    X X X X .
    . . . . .
    """,
    """
    . . @ X .
    . @ @ X .
    O X @ X .
    X X X X .
    . . . . .
    """,
    """
    . O O X .
    @ X O X .
    . . X X .
    X X X X .
    . . . . .
    """,
    """
    . @ . O X . .
    @ @ @ X X . .
    . @ X X . . .
    O X X . . . .
    X X . . . . .
    . . . . . . .
    . . . . . . .
    """,
    NEVER_FINISHED,
]

SMALL_OTHERS = [
    """
    X . O X .
    @ @ . X .
    @ X . X .
    X X X X .
    . . . . .
    """,
    """
    X . @ X .
    X O . X .
    . X O X .
    X X X X .
    . . . . .
    """,
    """
    . O O X .
    @ . O X .
    @ @ . X .
    X X X X .
    . . . . .
    """,
    """
    . @ @ X .
    O . @ X .
    . @ @ X .
    X X X X .
    . . . . .
    """,
]


# --- the reference itself ----------------------------------------------------------------------


def test_reference_reads_the_kos_as_described():
    p = problem_from_diagram(KO)
    assert winners(p, B) == KO_BY_THREATS
    assert winners(p, W) == {k: W for k in BALANCES}
    a = problem_from_diagram(APPROACH_KO)
    assert winners(a, B) == APPROACH_BY_THREATS[B]
    assert winners(a, W) == APPROACH_BY_THREATS[W]
    n = problem_from_diagram(NEVER_FINISHED)
    assert winners(n, B) == winners(n, W) == {k: B for k in BALANCES}


# --- simple ko ----------------------------------------------------------------------------------


def test_ko_result_flips_with_the_balance():
    p = problem_from_diagram(KO)
    sol = solve(p, to_play=B)
    assert sol.status == "ko"
    assert sol.by_threats == KO_BY_THREATS
    assert solve(p, to_play=W).status == "live"


@pytest.mark.parametrize("threats", [-1, 0, 1])
def test_ko_winner_at_each_balance(threats):
    p = problem_from_diagram(KO)
    sol = solve(p, to_play=B, threats=threats)
    assert sol.threats == threats
    assert sol.winner == KO_BY_THREATS[threats]


@pytest.mark.parametrize("first", [B, W])
@pytest.mark.parametrize("threats", BALANCES)
def test_approach_ko_each_balance_alone(first, threats):
    """The game itself, one balance per fresh engine (no table carried between balances)."""
    p = problem_from_diagram(APPROACH_KO)
    assert Engine(p).solve(first, threats) == APPROACH_BY_THREATS[first][threats]


def test_ko_moves():
    p = problem_from_diagram(KO)
    # Black throws in at ab; at -1 nothing works for Black
    assert sgf_moves(solve(p, to_play=B, threats=0).moves, 6) == {"ab"}
    assert sgf_moves(solve(p, to_play=B, threats=1).moves, 6) == {"ab"}
    assert solve(p, to_play=B, threats=-1).moves == ()
    # White lives at ca; with a threat in hand she may also pass (Black's throw-in then
    # starts a ko she wins)
    assert sgf_moves(solve(p, to_play=W, threats=0).moves, 6) == {"ca"}
    assert sgf_moves(solve(p, to_play=W, threats=-1).moves, 6) == {"ca", "pass"}


def test_ko_best_balance():
    p = problem_from_diagram(KO)
    black = solve(p, to_play=B, threats=-2)
    assert black.best_threats == 0  # the balance least favourable to Black where she wins
    assert sgf_moves(black.best_moves, 6) == {"ab"}
    white = solve(p, to_play=W, threats=2)
    assert white.best_threats == 2  # White lives outright: even when Black has two threats
    assert sgf_moves(white.best_moves, 6) == {"ca"}


def test_approach_ko_moves():
    p = problem_from_diagram(APPROACH_KO)
    white = solve(p, to_play=W)
    assert white.status == "ko" and white.best_threats == 1
    assert sgf_moves(white.best_moves, 6) == {"aa"}  # taking the ko first
    black = solve(p, to_play=B)
    assert black.status == "ko" and black.best_threats == 1
    assert sgf_moves(black.best_moves, 6) == {"ac", "bc"}  # the approach first


# --- threats and the history ---------------------------------------------------------------------


def test_after_a_threat_the_arrangement_before_it_stays_forbidden():
    # KO, Black to play at -1: B ab, W aa (threat: balance 0, history = {after ab, after aa}).
    # Black's retake at ab recreates "after ab", which is still in the history: illegal. If the
    # threat cleared the whole history Black could retake and win.
    p = problem_from_diagram(KO)
    assert Engine(p).solve(B, -1) == W
    assert solve(p, to_play=B, threats=-1).winner == W


def test_two_threats_against_one():
    # Black has one threat more than needed at +1; in the approach ko, White's one threat at
    # -1 and Black's one at +1 leave the same results as none at all
    p = problem_from_diagram(KO)
    assert solve(p, to_play=B, threats=1).winner == B
    a = problem_from_diagram(APPROACH_KO)
    assert solve(a, to_play=W, threats=1).winner == W
    assert solve(a, to_play=W, threats=2).winner == B


@pytest.mark.parametrize("diagram", SMALL_KOS + [KO, APPROACH_KO])
@pytest.mark.parametrize("first", [B, W])
def test_small_kos_match_the_reference(diagram, first):
    p = problem_from_diagram(diagram)
    expected = winners(p, first)
    assert len(set(winners(p, B).values()) | set(winners(p, W).values())) == 2
    sol = solve(p, to_play=first)
    assert sol.by_threats == expected


@pytest.mark.parametrize("diagram", SMALL_KOS + [KO, APPROACH_KO])
@pytest.mark.parametrize("first", [B, W])
def test_small_kos_match_the_reference_balance_by_balance(diagram, first):
    p = problem_from_diagram(diagram)
    game = _brute(p)
    for k in BALANCES:
        assert Engine(p).solve(first, k) == game.winner(first, k), k


@pytest.mark.parametrize("diagram", NEVER_FINISHED_KOS)
@pytest.mark.parametrize("first", [B, W])
def test_a_ko_the_defender_never_finishes_is_lost_at_every_balance(diagram, first):
    p = problem_from_diagram(diagram)
    sol = solve(p, to_play=first)
    assert sol.by_threats == winners(p, first) == {k: p.attacker for k in BALANCES}
    assert sol.status == "kill"


@pytest.mark.parametrize("diagram", SMALL_OTHERS + [ALIVE, SEKI, CORNER_SIX])
@pytest.mark.parametrize("first", [B, W])
def test_small_positions_match_the_reference(diagram, first):
    p = problem_from_diagram(diagram)
    sol = solve(p, to_play=first)
    assert sol.by_threats == winners(p, first)


@pytest.mark.parametrize("diagram", SMALL_KOS + SMALL_OTHERS + NEVER_FINISHED_KOS
                         + [KO, APPROACH_KO, ALIVE, SEKI])
@pytest.mark.parametrize("first", [B, W])
def test_winning_moves_match_the_reference(diagram, first):
    """Every listed move wins and every unlisted legal move (or pass) loses, at balance 0."""
    p = problem_from_diagram(diagram)
    sol = solve(p, to_play=first)
    assert set(sol.moves) == reference_moves(p, first, 0)


# --- passes and the end of the game ------------------------------------------------------------


def test_alive_group_defender_passes():
    p = problem_from_diagram(ALIVE)
    white = solve(p, to_play=W)
    assert white.winner == W and white.status == "live"
    assert sgf_moves(white.moves, 6) == {"pass"}  # filling an eye would lose
    assert white.best == PASS


def test_alive_group_attacker_cannot_kill():
    p = problem_from_diagram(ALIVE)
    black = solve(p, to_play=B)
    assert black.winner == W and black.status == "live"
    assert black.moves == ()
    assert black.by_threats == {k: W for k in BALANCES}
    assert black.best is None and black.best_threats is None


def test_seki_defender_passes_attacker_cannot_capture():
    p = problem_from_diagram(SEKI)
    white = solve(p, to_play=W)
    assert white.status == "seki" and white.winner == W
    assert sgf_moves(white.moves, 7) == {"pass"}
    black = solve(p, to_play=B)
    assert black.status == "seki" and black.winner == W
    assert black.moves == ()


@pytest.mark.parametrize("diagram", [KO, APPROACH_KO, CORNER_SIX])
@pytest.mark.parametrize("threats", [-1, 0, 1])
def test_attacker_pass_is_listed_only_where_it_wins(diagram, threats):
    """Where the attacker must act (take a ko, approach it, play the vital point), its pass
    is no correct move; it is one where the group is dead as it stands."""
    p = problem_from_diagram(diagram)
    sol = solve(p, to_play=p.attacker, threats=threats)
    assert PASS not in sol.moves
    assert PASS not in (sol.best_moves or ())
    assert sol.best != PASS
    dead = solve(problem_from_diagram(NEVER_FINISHED), to_play=B, threats=threats)
    assert PASS in dead.moves


def test_the_attacker_waits_in_bent_four_in_the_corner():
    """Bent four in the corner: with White holding two threats Black's only correct move is
    to pass; the pair of passes takes the threats away and Black then starts the ko."""
    p = read_problem(PROBLEMS / "bent-four-dead.sgf").problem
    sol = solve(p, to_play=B, threats=-2)
    assert sol.winner == B and sol.moves == (PASS,)


def test_defender_pass_listed_only_when_it_wins():
    p = problem_from_diagram(CORNER_SIX)
    white = solve(p, to_play=W)
    assert white.winner == W
    assert PASS not in white.moves  # passing lets Black kill


def test_pairs_of_passes_go_on_until_one_repeats():
    """Black has no legal play at all in the region (both points are eyes): he passes, White
    passes, and the game goes on afresh with Black to move; the next pair at the same
    position ends it, the target standing."""
    p = problem_from_diagram(ALIVE)
    assert Engine(p).solve(B, 0) == W
    assert Engine(p).solve_after(W, PASS, 0) == W
    assert Engine(p).solve_after(B, PASS, 0) == W
    game = _brute(p)
    state = game.root(B, 2)
    for _ in range(2):
        state = dict(game.children(*state))["pass"]  # type: ignore[misc]
    board, to_move, balance, passed, history, pairs = state  # type: ignore[misc]
    assert (to_move, balance, passed, history) == (B, 0, False, frozenset((board,)))
    for _ in range(1):
        state = dict(game.children(*state))["pass"]  # type: ignore[misc]
    assert dict(game.children(*state))["pass"] == W  # type: ignore[misc]


# --- result classes ----------------------------------------------------------------------------


def test_kill_and_live_classes():
    p = problem_from_diagram(CORNER_SIX)
    black = solve(p, to_play=B)
    assert black.status == "kill" and black.winner == B
    assert black.by_threats == {k: B for k in BALANCES}
    assert sgf_moves(black.moves, 6) == {"be", "bf"}
    white = solve(p, to_play=W)
    assert white.status == "live" and white.winner == W
    assert sgf_moves(white.moves, 6) == {"be", "bf"}


def test_solution_fields_are_consistent():
    p = problem_from_diagram(CORNER_SIX)
    sol = solve(p, to_play=B)
    assert sol.to_play == B and sol.attacker == B and sol.defender == W
    assert sol.limit is None and sol.nodes > 0 and sol.seconds >= 0
    assert sol.best in sol.best_moves


def test_threats_out_of_range():
    p = problem_from_diagram(ALIVE)
    with pytest.raises(ValueError):
        solve(p, threats=65)


# --- monotonicity ------------------------------------------------------------------------------


def monotone(by: dict[int, int]) -> bool:
    """A Black win at k holds at every larger k (and a White win at every smaller one)."""
    ks = sorted(by)
    return all(not (by[a] == B and by[b] == W) for a, b in zip(ks, ks[1:]))


@pytest.mark.parametrize("diagram", SMALL_KOS + SMALL_OTHERS + NEVER_FINISHED_KOS
                         + [KO, APPROACH_KO, ALIVE, SEKI, CORNER_SIX])
def test_results_are_monotone_in_the_balance(diagram):
    p = problem_from_diagram(diagram)
    for first in (B, W):
        sol = solve(p, to_play=first)
        assert monotone(sol.by_threats)
        for k in BALANCES:
            assert solve(p, to_play=first, threats=k).winner == sol.by_threats[k]


# --- ko-free proofs are stored for every balance -------------------------------------------------


def test_ko_free_proof_answers_every_balance_from_the_table():
    """A result whose proof meets no repetition is stored as valid at every balance: the
    next balance is answered by the root's children from the table. A ko's proof is not
    stored so (its winner changes with the balance)."""
    from tsumego.search.table import NEG, POS

    for diagram, first in ((CORNER_SIX, W), (SEKI, B), (SEKI, W)):
        p = problem_from_diagram(diagram)
        e = Engine(p)
        w = e.solve(first, 0)
        n = e.nodes
        assert e.solve(first, 2 if w == W else -2) == w
        assert e.nodes - n == 1, diagram  # the root alone: its winning children are table hits
        off = Engine(p, options=SearchOptions(kofree=False))
        assert off.solve(first, 0) == w
        n = off.nodes
        assert off.solve(first, 2 if w == W else -2) == w
        assert off.nodes - n > 1
    ko = problem_from_diagram(KO)
    k = Engine(ko)
    assert k.solve(B, 0) == KO_BY_THREATS[0]
    assert not all(e.minw == POS or e.maxb == NEG for e in k.solved.data.values())
    assert k.solve(B, -1) == KO_BY_THREATS[-1]


# --- initial numbers --------------------------------------------------------------------------


def test_initial_number_of_the_side_not_to_move_starts_as_a_sum():
    """A fresh child starts at the target's liberties (the attacker's number) and 3 less the
    one-point eyes (the defender's). The number of the side not to move sums over the
    mover's replies once the child is expanded, so it starts ``sum_scale`` times larger; the
    number of the side to move does not. The answers stay; the work changes. (Without the
    eye-space table, which answers this space in two nodes either way.)"""
    p = problem_from_diagram(CORNER_SIX)  # B2 is the vital point: White lives, Black kills
    plain = Engine(p, options=SearchOptions(sum_scale=1, eyespace=False))
    scaled = Engine(p, options=SearchOptions(eyespace=False))  # the default scale, 8
    checked = 0
    for mover in (p.attacker, p.defender):
        ex1 = plain._expand(mover)
        ex8 = scaled._expand(mover)
        assert (ex8.moves, ex8.wins) == (ex1.moves, ex1.wins)
        for w, (phi, delta), est8 in zip(ex1.wins, ex1.estimates, ex8.estimates):
            if not w:
                assert est8 == (phi, 8 * delta)
                checked += 1
    assert checked >= 10
    assert solve(p, to_play=W).status == solve(
        p, to_play=W, options=SearchOptions(sum_scale=1)).status == "live"
    assert plain.solve(B, 0) == scaled.solve(B, 0)
    assert plain.nodes != scaled.nodes


@pytest.mark.parametrize("scale", [0, -8])
def test_a_scale_that_would_break_exactness_is_refused(scale):
    """An initial number of 0 reads as a proof: a scale below 1 must not reach the search."""
    with pytest.raises(ValueError, match="sum_scale"):
        SearchOptions(sum_scale=scale)


# --- the order of the balances ----------------------------------------------------------------


def _balances_searched(monkeypatch: pytest.MonkeyPatch, diagram: str, to_play: int,
                       options: SearchOptions) -> list[int]:
    """The balances the normal game's searches ran at, in order, for a quick solve."""
    seen: list[int] = []
    original = Engine.solve

    def recording(self: Engine, color: int, balance: int, *, passed: bool = False) -> int:
        if not self.live:
            seen.append(balance)
        return original(self, color, balance, passed=passed)

    monkeypatch.setattr(Engine, "solve", recording)
    solve(problem_from_diagram(diagram), to_play=to_play, all_moves=False,
          options=dataclasses.replace(options, engine="reference"))
    return seen


def test_the_attacker_to_play_kills_in_one_search_at_the_far_end(monkeypatch):
    # Black kills the corner six at every balance: the search where White has both threats
    # proves it alone; starting at balance 0 takes a second search for the far end
    assert _balances_searched(monkeypatch, CORNER_SIX, B, SearchOptions()) == [-2]
    assert _balances_searched(monkeypatch, CORNER_SIX, B,
                              SearchOptions(far_first=False)) == [0, -2]


def test_the_attacker_to_play_in_a_ko_searches_both_ends_then_balance_0(monkeypatch):
    # Black takes the ko and wins at 0; White wins with one threat. After the two ends (a
    # White win where White has both threats, a Black win where Black has them), balance 0 (a
    # Black win) and the middle, -1, are left: a ko costs the one search at Black's end more
    assert _balances_searched(monkeypatch, KO, B, SearchOptions()) == [-2, 2, 0, -1]
    assert _balances_searched(monkeypatch, KO, B, SearchOptions(far_first=False)) == [0, -2, -1]


def test_the_attacker_to_play_in_a_seki_needs_only_the_two_ends(monkeypatch):
    # Black cannot win at any balance: the end where Black has both threats settles every
    # balance, and balance 0 (often df-pn's dearest search) is never searched
    assert _balances_searched(monkeypatch, SEKI, B, SearchOptions()) == [-2, 2]
    assert _balances_searched(monkeypatch, SEKI, B, SearchOptions(far_first=False)) == [0, 2]


def test_the_defender_to_play_searches_its_own_end_first(monkeypatch):
    # White lives in seki at every balance; the live game (a pass-alive target) is lost, so
    # the game of rules.md is searched: at White's own worst end (Black has both threats)
    # first, which settles every balance
    assert _balances_searched(monkeypatch, SEKI, W, SearchOptions()) == [2]
    assert _balances_searched(monkeypatch, SEKI, W, SearchOptions(far_first=False)) == [0, 2]


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_limit_after_the_balances_keeps_the_winner_at_each(engine):
    """The seki with the attacker to play: 8 nodes settle every balance (White wins at each),
    the live game that tells seki from life needs more. A limit between the two leaves the
    status unknown, with the winner at every balance in the answer."""
    p = problem_from_diagram(SEKI, to_play=B)
    options = SearchOptions(engine=engine)
    search = Searches(p, B, 1_000_000, None, None, options)
    search.winners(0)
    settled = search.nodes()
    assert settled == 8 and solve(p, all_moves=False, options=options).status == "seki"
    sol = solve(p, all_moves=False, max_nodes=settled + 1, options=options)
    assert sol.status == "unknown" and sol.limit == "nodes"
    assert sol.by_threats == {k: W for k in range(-2, 3)} and sol.winner == W
    assert str(sol) == ("Black to play: unknown (stopped by the node limit); "
                        "White wins at every balance")
    assert sol.to_json()["by_threats"] == {str(k): "W" for k in range(-2, 3)}
    before = solve(p, all_moves=False, max_nodes=settled - 1, options=options)
    assert before.status == "unknown" and before.by_threats is None


# --- the search's environment -----------------------------------------------------------------


@pytest.mark.parametrize("enabled", [True, False])
def test_search_pauses_the_garbage_collector_and_restores_it(enabled, monkeypatch):
    """Inside a search the cyclic collector is off (its full collections walk every table
    entry); afterwards it is as the caller left it, also when the search stops at a limit."""
    seen = []
    expand = Engine._expand

    def spy(self, color):
        seen.append(gc.isenabled())
        return expand(self, color)

    monkeypatch.setattr(Engine, "_expand", spy)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        p = problem_from_diagram(CORNER_SIX)
        e = Engine(p)
        assert e.solve(W, 0) == W
        assert e.solve_after(B, next(bits(p.region & p.board().empty)), 0) in (B, W)
        assert gc.isenabled() == enabled
        with pytest.raises(BudgetExhausted):
            Engine(p, max_nodes=1, options=SearchOptions(check_every=1)).solve(B, 0)
        assert gc.isenabled() == enabled
        assert seen and not any(seen)
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.parametrize("all_moves", [True, False])
def test_a_solve_pauses_the_collector_once_and_lets_its_engines_go_first(all_moves,
                                                                          monkeypatch):
    """``solve`` runs several searches (balances, the live game, first moves): the collector
    stays off across all of them, and when it is turned back on the engines and their tables
    are gone, so that it has nothing of theirs to walk."""
    import weakref

    engines = []
    init = Engine.__init__

    def track(self, *args, **kw):
        init(self, *args, **kw)
        engines.append(weakref.ref(self))

    enables = []
    real_enable = gc.enable

    def enable():
        enables.append([r() is not None for r in engines])
        real_enable()

    monkeypatch.setattr(Engine, "__init__", track)
    monkeypatch.setattr(gc, "enable", enable)
    was = gc.isenabled()
    try:
        real_enable()
        sol = solve(problem_from_diagram(CORNER_SIX), to_play=W, all_moves=all_moves,
                    options=SearchOptions(engine="reference"))
        assert sol.status == "live" and gc.isenabled()
        assert len(engines) >= 2  # the game's engine and the live game's
        assert enables == [[False] * len(engines)]  # once, with every engine gone
    finally:
        real_enable() if was else gc.disable()


def test_lost_in_atari_is_decided_once_per_arrangement(monkeypatch):
    """The test of a target in atari that cannot escape is a function of the arrangement, and
    the same arrangement is met through many parents (rabbity six: 393 calls for 75
    arrangements without the cache): each is decided once, and the answer stands. (Without the
    eye-space table, which answers most of these positions first.)"""
    calls = []
    real = search.lost_in_atari

    def spy(board, *args):
        calls.append(board.hash)
        return real(board, *args)

    monkeypatch.setattr(search, "lost_in_atari", spy)
    problem = read_problem(str(PROBLEMS / "rabbity-six.sgf")).problem
    result = solve(problem, options=SearchOptions(eyespace=False, engine="reference"))
    assert result.status == "kill"
    assert len(calls) > 20
    assert len(calls) == len(set(calls))


def test_an_expansion_reads_a_child_met_before_as_it_would_work_it_out():
    """What an expansion knows of a play's child (static winner, stone count, forced win,
    eye-space answer, initial numbers) is kept by the child's arrangement and the mover and
    read back when another parent makes the same child: along random lines of every problem
    in problems/, an engine whose caches a whole solve filled expands each position exactly
    as a fresh engine does."""
    rng = random.Random(7)
    hits = 0
    for path in sorted(Path(__file__).resolve().parents[2].glob("problems/*.sgf")):
        p = read_problem(path).problem
        warm = Engine(p)
        for first in (B, W):
            warm.solve(first, 0)
        for _ in range(6):
            board = p.board()
            color = rng.choice((B, W))
            for _ply in range(rng.randrange(6)):
                empty = [q for q in bits(board.empty & p.region)]
                rng.shuffle(empty)
                for q in empty:
                    if board.play_fast(q, color) >= 0:
                        break
                color = opponent(color)
            if not board.stones(p.defender) & p.target == p.target:
                continue  # the target was captured: no search goes on from there
            cold = Engine(p)
            for e in (warm, cold):
                e.board.black, e.board.white, e.board.hash = board.black, board.white, board.hash
            side = search._SIDE_KEY[color]
            before = set(warm._children)
            expected = cold._expand(color)
            assert warm._expand(color) == expected, (path.name, board.diagram())
            hits += sum(1 for h, m in zip(expected.hashes, expected.moves)
                        if m != PASS and h ^ side in before)
    assert hits >= 50  # the warm engine did read children it had made under other parents


def test_a_search_bounded_by_work_stops_with_no_answer_and_leaves_the_engine_whole():
    """``solve_here(max_work=N)`` gives 0 once N nodes leave the position unsolved, with the
    board, the history and the engine's own node budget as they were; a later search from
    the same engine still finds the winner. The engine's own budget, ending first, still
    raises."""
    p = read_problem(PROBLEMS / "seki.sgf").problem
    full = Engine(p)
    winner = full.solve(p.to_play, 0)
    assert full.nodes > 10

    def here(e: Engine, max_work: int | None) -> int:
        history = {e.board.hash: 0}
        seen = 1 << (e.board.black | e.board.white).bit_count()
        return e.solve_here(p.to_play, 0, False, history, seen, 0, max_work=max_work)

    e = Engine(p, max_nodes=10**6)
    h, black, white = e.board.hash, e.board.black, e.board.white
    assert here(e, 3) == 0
    assert e.nodes == 4  # the fourth node stopped it
    assert (e.board.hash, e.board.black, e.board.white) == (h, black, white)
    assert e.max_nodes == 10**6 and e.history == {}
    assert here(e, 10) == 0
    assert here(e, None) == winner
    assert here(e, 1) == winner  # the root was proved: one node reads its children's proofs
    with pytest.raises(BudgetExhausted) as stop:
        here(Engine(p, max_nodes=5), 10**6)
    assert stop.value.kind == "nodes"
