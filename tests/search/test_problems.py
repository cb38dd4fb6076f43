"""The regression set in problems/: every problem's proved answer, for both sides to play.

The expected answers below come from Go reasoning about each shape (see the notes in the
table), not from the solver's output. Points are SGF coordinates; "pass" is a pass.

For each problem and each side to play the table gives:
- ``status``: kill | live | seki | ko (rules.md, "Result classes");
- ``balances``: for ko problems, the winner at ko-threat balances -2..2 as a five-letter
  string ("WWBBB": White wins at -2 and -1, Black at 0, 1, 2); for the other classes it
  follows from the status (the attacker everywhere for kill, the defender everywhere else);
- ``moves``: every winning first move at balance 0 (empty when that side loses at 0);
- ``best``: the winning first moves at the balance least favourable to that side at which it
  still wins (the solver's ``best_moves``); the same as ``moves`` unless given.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from sgfmill import sgf

from tsumego import BLACK, PASS, WHITE, read_problem, solve
from tsumego.go.coords import to_sgf
from tsumego.search.engine import SearchOptions

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"

K = 2

# file -> {side to play: expectation}. "B"/"W" name the side to play.
EXPECTED: dict[str, dict[str, dict[str, object]]] = {
    # White's eye space ba-ca-da on the top edge. The middle point splits it into two eyes
    # for White and leaves one eye after Black's placement (nakade).
    "straight-three.sgf": {
        "B": dict(status="kill", moves={"ca"}),
        "W": dict(status="live", moves={"ca"}),
    },
    # Eye space ba-ca-cb, bent at ca: the bend is the only vital point for both sides.
    "bent-three.sgf": {
        "B": dict(status="kill", moves={"ca"}),
        "W": dict(status="live", moves={"ca"}),
    },
    # Straight four ba-ca-da-ea: the two middle points are miai, so Black cannot kill.
    # White may pass, or play a middle point (two eyes: one and two points); playing an end
    # point leaves a straight three that Black kills.
    "straight-four.sgf": {
        "B": dict(status="live", moves=set()),
        "W": dict(status="live", moves={"ca", "da", "pass"}),
    },
    # Bent four with the bend on the 1-1 point (eye space aa, ab, ac, ba). Black's 1-2 point
    # (ab) is the only try: White aa is then forced, Black ba captures it and puts White in
    # atari, and White must retake the ko at once -- a ko that Black takes first, so White
    # needs one threat. Any other Black play lets White live with ab. White to play lives
    # at ab (two eyes) or aa (Black's ab is then captured at ac).
    "bent-four-corner.sgf": {
        "B": dict(status="ko", balances="WWBBB", moves={"ab"}),
        "W": dict(status="live", moves={"aa", "ab"}),
    },
    # Square four in the corner is dead as it stands: every play inside is a kill (White's
    # captures only ever leave a killable two- or three-point eye), and White cannot live, so
    # Black may also simply pass.
    "square-four.sgf": {
        "B": dict(status="kill", moves={"aa", "ba", "ab", "bb", "pass"}),
        "W": dict(status="kill", moves=set()),
    },
    # Bulky five ba, ca, da, bb, cb: ca (touching three others) is vital; any other Black play
    # lets White live at ca. White lives at ca, and also at cb (leaving the bent four
    # bb-ba-ca-da) or ba (leaving the zigzag bb-cb-ca-da), whose two middle points are miai.
    # White bb leaves a pyramid four and White da a square four: dead.
    "bulky-five.sgf": {
        "B": dict(status="kill", moves={"ca"}),
        "W": dict(status="live", moves={"ba", "ca", "cb"}),
    },
    # Crossed five around cb: the centre is the only vital point; an arm by White leaves a
    # pyramid four.
    "crossed-five.sgf": {
        "B": dict(status="kill", moves={"cb"}),
        "W": dict(status="live", moves={"cb"}),
    },
    # Rabbity six ca, bb, cb, db, cc, dc: cb (touching four) is vital for Black. White lives at
    # cb, and also at db or cc, which leave a five-point "T with a tail" that is alive; White
    # ca or bb leaves a bulky five, dc a crossed five: dead.
    "rabbity-six.sgf": {
        "B": dict(status="kill", moves={"cb"}),
        "W": dict(status="live", moves={"cb", "db", "cc"}),
    },
    # Pyramid four ba, ca, da, cb: the centre ca is vital for both; a White end point leaves a
    # straight or bent three.
    "pyramid-four.sgf": {
        "B": dict(status="kill", moves={"ca"}),
        "W": dict(status="live", moves={"ca"}),
    },
    # White's eye da is made of the lone stone ea, which only has the liberty da: Black da
    # captures it and puts White (one eye left, aa) in atari, so White must retake at once
    # with a threat. Then White still cannot close the eye: filling da or aa leaves it one
    # liberty. Once the threats are gone (a pair of passes), Black takes again for good: a ko
    # White can never finish, so White is dead at every balance. White to play can only make
    # things worse (da or aa is self-atari); Black to play may take at da or simply pass.
    "never-finished-edge-ko.sgf": {
        "B": dict(status="kill", moves={"da", "pass"}),
        "W": dict(status="kill", moves=set()),
    },
    # The same shape rotated to the lower right with the colours swapped.
    "never-finished-edge-ko-black.sgf": {
        "W": dict(status="kill", moves={"dg", "pass"}),
        "B": dict(status="kill", moves=set()),
    },
    # White's group (ba, ab, bb, cb, cc) has the one liberty aa beside the ko: White's capture
    # of ca at da gains the liberty ca but leaves the capturing stone in atari, so Black
    # retakes; White can retake only with a threat and can never close the ko, since aa and
    # ca are its last liberties. Dead at every balance. Black to play captures at aa, fills
    # da (White's capture is then gone), or passes.
    "never-finished-ko.sgf": {
        "W": dict(status="kill", moves=set()),
        "B": dict(status="kill", moves={"aa", "da", "pass"}),
    },
    # Bent four in the corner: three black stones aa-ba-ca inside White's corner, sharing the
    # liberties ab and da with White. Black ab puts both in atari, White captures four stones
    # at da and the corner is a bent-four eye space where Black's ba starts a ko that White
    # takes first; White lives only by winning it. Black need not start it while White has
    # threats: he passes, and after a pair of passes the threats are gone. So it is dead at
    # every balance, and at -2 passing is Black's only win. White to play has nothing: da
    # and ab only shorten its liberties.
    "bent-four-dead.sgf": {
        "B": dict(status="kill", moves={"ab", "pass"}, best={"pass"}),
        "W": dict(status="kill", moves=set()),
    },
    # White's corner eye space: the white stone aa, the empty ab and ca, and the black stones
    # ba and cb, which both have the single liberty ca. White ca captures both and lives.
    # Black's throw-in at ab captures aa and puts White in atari at ca: White must retake at
    # aa (a ko White needs one threat for), and then finishes by capturing at ca.
    "direct-ko.sgf": {
        "B": dict(status="ko", balances="WWBBB", moves={"ab"}),
        "W": dict(status="live", moves={"ca"}),
    },
    # The black stones ba (liberty aa) and ab (liberties aa, ac) sit in White's corner, whose
    # outside liberties are ac and bc. White aa captures ba and takes the ko first. Black can
    # retake at ba with a threat, but to capture White he must still fill ac and bc, and
    # after his first approach move White retakes: Black needs two threats (an approach ko).
    # White may also pass at balance 0 (Black, without a threat, has nothing). Black to play
    # approaches first at ac or bc; White takes the ko at aa and Black needs one threat.
    "approach-ko.sgf": {
        "W": dict(status="ko", balances="WWWWB", moves={"aa", "pass"}, best={"aa"}),
        "B": dict(status="ko", balances="WWWBB", moves=set(), best={"ac", "bc"}),
    },
    # Three black stones ba-ca-da sit in White's edge eye space; White's liberties are aa, ea
    # and fa. White fa leaves aa and ea shared with the black stones: whoever fills one is
    # captured, and if Black does, White's capture leaves a living straight four -- seki.
    # Black to play kills with fa (connecting out under White) or ea (threatening to connect
    # at fa). White's ea or aa fails: Black fa, and White's capture leaves a straight three.
    "seki.sgf": {
        "W": dict(status="seki", moves={"fa"}),
        "B": dict(status="kill", moves={"ea", "fa"}),
    },
    # The marked bb-cb have liberties ba and ca; ca also touches White's living group. Black's
    # throw-in at ca puts them in atari; White's capture at ba leaves bb-cb-ba with the single
    # liberty ca, and Black retakes there: snapback. Black ba fails (White connects at ca),
    # and White to play connects at ca.
    "snapback.sgf": {
        "B": dict(status="kill", moves={"ca"}),
        "W": dict(status="live", moves={"ca"}),
    },
    # Race between White's marked stones (outside liberties ba, bb) and Black's four stones
    # da-ea-fa-fb (outside liberties ga, gb next to White's living group on the right); no
    # shared liberties, so whoever fills the other's outside liberties first wins. White,
    # having captured, connects to the living group.
    "semeai.sgf": {
        "B": dict(status="kill", moves={"ba", "bb"}),
        "W": dict(status="live", moves={"ga", "gb"}),
    },
    # Black (the defender here) has two eyes: aa and the two-point ca-da. Black may pass or
    # fill either point of the two-point eye; filling aa leaves one eye.
    "alive.sgf": {
        "B": dict(status="live", moves={"pass", "ca", "da"}),
        "W": dict(status="live", moves=set()),
    },
    # A two-point eye (aa-ba) is one eye: Black plays either point, White's capture leaves a
    # single eye, and Black captures everything there; or Black passes, and White has nothing.
    "one-eye.sgf": {
        "B": dict(status="kill", moves={"aa", "ba", "pass"}),
        "W": dict(status="kill", moves=set()),
    },
}


def _files() -> list[str]:
    return sorted(p.name for p in PROBLEMS.glob("*.sgf"))


CASES = [(name, side) for name in sorted(EXPECTED) for side in ("B", "W")]


@cache
def _solution(name: str, side: str):  # type: ignore[no-untyped-def]
    pf = read_problem(PROBLEMS / name)
    return solve(pf.problem, to_play=BLACK if side == "B" else WHITE)


def _points(moves: tuple[int, ...] | None, size: int) -> set[str] | None:
    return None if moves is None else {to_sgf(m, size) for m in moves}


def _balances(name: str, side: str) -> dict[int, str]:
    exp = EXPECTED[name][side]
    if "balances" in exp:
        s = str(exp["balances"])
        assert len(s) == 2 * K + 1
        return {k: s[k + K] for k in range(-K, K + 1)}
    problem = read_problem(PROBLEMS / name).problem
    attacker = "B" if problem.attacker == BLACK else "W"
    defender = "W" if attacker == "B" else "B"
    winner = attacker if exp["status"] == "kill" else defender
    return {k: winner for k in range(-K, K + 1)}


def test_every_problem_has_an_expectation() -> None:
    assert _files() == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_problem_file_is_well_formed(name: str) -> None:
    data = (PROBLEMS / name).read_bytes()
    game = sgf.Sgf_game.from_bytes(data)
    root = game.get_root()
    assert root.get("FF") == 4
    assert root.get("GM") == 1
    assert 5 <= game.get_size() <= 9
    assert root.has_property("MA") and root.has_property("PL")
    assert root.get("C").strip()
    pl = root.get("PL")
    variations = list(root)
    assert variations, "no first-level variation"
    for child in variations:
        colour, _ = child.get_move()
        assert colour == pl
        assert child.get("C").strip() == "RIGHT"
    pf = read_problem(PROBLEMS / name)  # derives the region: raises without a safe wall
    assert pf.pl_given
    assert pf.problem.walls
    assert len(pf.stated_moves) == len(variations)


@pytest.mark.parametrize("name,side", CASES)
def test_status_and_balances(name: str, side: str) -> None:
    sol = _solution(name, side)
    exp = EXPECTED[name][side]
    assert sol.limit is None
    assert sol.status == exp["status"]
    got = {k: ("B" if w == BLACK else "W") for k, w in (sol.by_threats or {}).items()}
    assert got == _balances(name, side)


@pytest.mark.parametrize("name,side", CASES)
def test_winning_first_moves(name: str, side: str) -> None:
    sol = _solution(name, side)
    exp = EXPECTED[name][side]
    size = sol.problem.size
    assert _points(sol.moves, size) == exp["moves"]
    assert _points(sol.best_moves, size) == exp.get("best", exp["moves"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_stated_right_moves_are_best(name: str) -> None:
    pf = read_problem(PROBLEMS / name)
    side = "B" if pf.problem.to_play == BLACK else "W"
    size = pf.problem.size
    stated = {"pass" if m == PASS else to_sgf(m, size) for m in pf.stated_moves}
    assert stated, "the file states no first move"
    # the file agrees with the table ...
    assert stated <= set(EXPECTED[name][side].get("best", EXPECTED[name][side]["moves"]))
    # ... and with the solver
    best = _points(_solution(name, side).best_moves, size)
    assert best is not None and stated <= best


@pytest.mark.parametrize("name,side", CASES)
def test_quick_solve_gives_the_answer_and_one_best_move(name: str, side: str) -> None:
    """``all_moves=False`` proves the same answer and names one of the best first moves."""
    pf = read_problem(PROBLEMS / name)
    sol = solve(pf.problem, to_play=BLACK if side == "B" else WHITE, all_moves=False)
    exp = EXPECTED[name][side]
    size = sol.problem.size
    assert sol.limit is None
    assert sol.status == exp["status"]
    got = {k: ("B" if w == BLACK else "W") for k, w in (sol.by_threats or {}).items()}
    assert got == _balances(name, side)
    assert sol.moves is None and sol.best_moves is None
    best = set(exp.get("best", exp["moves"]))  # type: ignore[call-overload]
    if best:
        assert sol.best is not None and to_sgf(sol.best, size) in best
    else:
        assert sol.best is None


def test_both_engines_search_the_same_nodes_on_the_composed_problems() -> None:
    """The compiled core keeps a proof's created arrangements as a Bloom filter, the reference
    engine as an exact set: a false hit of the filter makes the core search a proof again
    that the reference engine reuses. On the composed problems (kos among them) the filter
    refuses nothing the exact set accepts: both engines search exactly the same nodes."""
    for name, side in CASES:
        p = read_problem(PROBLEMS / name).problem
        color = BLACK if side == "B" else WHITE
        nodes = [solve(p, to_play=color, options=SearchOptions(engine=engine)).nodes
                 for engine in ("compiled", "reference")]
        assert nodes[0] == nodes[1], (name, side, nodes)
