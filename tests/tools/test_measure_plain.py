"""tools/measure_plain.py end to end: on two of Cho Chikun's elementary problems (the shared
data; skipped when absent) it runs, and both agree with the book; a killed run resumes; the
frame's flags are recorded and counted, and --infer-only frames without searching. And its
check of the book's moves: the winner at every balance, each book move's result, and a book
move that never settles not hiding another's win."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal

import pytest
from conftest import load_tool, place, plain_sgf, pt

from tsumego import BLACK, WHITE, problem_from_diagram, solve
from tsumego.errors import BudgetExhausted
from tsumego.go.coords import from_sgf
from tsumego.knowledge.infer import infer_problem
from tsumego.search.compiled import core_build
from tsumego.search.engine import SearchOptions, Verdict
from tsumego.search.reading import wider_framings

measure = load_tool("measure_plain")
REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "sanderland-tsumego"


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared problem collections are absent")
def test_two_elementary_problems_agree_with_the_book() -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "tools" / "measure_plain.py"), "--sets", "cho-elementary",
         "--problems", "Prob0001.json,Prob0002.json", "--max-nodes", "20000", "--jobs", "1"],
        capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "cho-elementary: 2 problems; agree 2 (100%)" in proc.stdout, proc.stdout


# measure_plain.py, its worker hanging (as if the search never ended) on the problems whose
# file name holds "hang": a run that stops at a known point, whatever the machine's load
HANGING = """
import multiprocessing, sys, time
from conftest import load_tool, place, plain_sgf, pt
multiprocessing.set_start_method("fork", force=True)  # the workers see the hang
measure = load_tool("measure_plain")
real = measure.run
def run(task):
    while "hang" in task.path:
        time.sleep(1)
    return real(task)
measure.run = run
sys.exit(measure.main(sys.argv[1:]))
"""
PLAIN = REPO / "problems" / "plain"


def _records(path: Path) -> dict[str, dict]:
    lines = [json.loads(ln) for ln in path.read_text().splitlines()]
    assert lines[0]["kind"] == "run"
    assert lines[0]["core"] == core_build()  # (the runs here use the compiled core)
    out = {d["problem"]: {k: v for k, v in d.items() if k != "seconds"} for d in lines[1:]}
    assert len(out) == len(lines) - 1  # each problem once
    return out


def test_a_killed_run_resumes_with_the_records_of_an_uninterrupted_one(tmp_path: Path) -> None:
    book = tmp_path / "data" / "gogameguru-go-problems" / "weekly-go-problems" / "easy"
    book.mkdir(parents=True)
    for name, src in (("a", "straight-three-kill-tl"), ("b-hang", "bent-three-live-tl"),
                      ("c", "bulky-five-kill-br"), ("d", "side-three-kill-tl")):
        text = (PLAIN / f"{src}.sgf").read_text().replace("C[RIGHT]", "C[Correct.]")
        (book / f"{name}.sgf").write_text(text)
    (book / "e.sgf").write_text("(;SZ[19]")
    args = ["--data", str(tmp_path / "data"), "--sets", "ggg-easy", "--max-nodes", "20000",
            "--jobs", "1"]
    whole = tmp_path / "whole.jsonl"
    tool = [sys.executable, str(REPO / "tools" / "measure_plain.py")]
    subprocess.run([*tool, *args, "--out", str(whole)], check=True, capture_output=True,
                   timeout=300)
    part = tmp_path / "part.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", HANGING, *args, "--out", str(part)],
                            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:  # a.sgf, then b-hang.sgf hangs: 2 lines, the run line first
        deadline = time.monotonic() + 300
        while not (part.exists() and part.read_bytes().count(b"\n") >= 2):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no record came"
            time.sleep(0.05)
        proc.kill()
    finally:
        proc.kill()
        proc.communicate()
    assert list(_records(part)) == ["a.sgf"]
    with open(part, "ab") as f:  # and a power cut left half a line behind
        f.write(b'{"set": "ggg-easy", "problem": "b-ha')
    done = subprocess.run([*tool, *args, "--out", str(part), "--resume"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "1 done by the earlier run" in done.stdout
    assert _records(part) == _records(whole)
    assert {d["cls"] for d in _records(whole).values()} == {"agree", "error"}
    again = subprocess.run([*tool, *args, "--out", str(part)], capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 2 and "exists" in again.stderr
    assert _records(part) == _records(whole)


# the two composed positions of tests/knowledge/test_frame_sensitive.py, as a book writes them:
# a ladder across the board (refused: a chase) and a second-line group whose room the frame
# cuts (its frame is flagged, and the book's moves fail in the frame)
CHASE = ("(;FF[4]GM[1]SZ[19]PL[B]C[Black to play and capture the two white stones]"
         "AB[cc][dc][bd][ce]AW[cd][dd](;B[ed]C[Correct.]))")
ROOM = ("(;FF[4]GM[1]SZ[19]PL[W]C[White to play and live]"
        "AB[la][lb][ac][bc][cc][dc][ec][fc][gc][hc][ic][jc][kc][lc]AW[ab][bb][cb][db]"
        "(;W[eb]C[Correct.])(;W[ba]C[Correct.]))")


def test_the_frame_flags_are_recorded_and_counted_and_infer_only_searches_nothing(
        tmp_path: Path) -> None:
    book = tmp_path / "data" / "gogameguru-go-problems" / "weekly-go-problems" / "easy"
    book.mkdir(parents=True)
    for name in ("straight-three-kill-tl", "false-eye-kill-bl"):
        text = (PLAIN / f"{name}.sgf").read_text().replace("C[RIGHT]", "C[Correct.]")
        (book / f"{name}.sgf").write_text(text)
    (book / "chase.sgf").write_text(CHASE)
    (book / "room.sgf").write_text(ROOM)
    tool = [sys.executable, str(REPO / "tools" / "measure_plain.py"), "--data",
            str(tmp_path / "data"), "--sets", "ggg-easy", "--jobs", "1"]
    out = tmp_path / "infer.jsonl"
    proc = subprocess.run([*tool, "--infer-only", "--out", str(out)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert lines[0]["options"]["infer_only"] is True
    recs = _records(out)
    assert {k: r["cls"] for k, r in recs.items()} == {
        "straight-three-kill-tl.sgf": "framed", "false-eye-kill-bl.sgf": "framed",
        "chase.sgf": "error", "room.sgf": "framed"}
    assert not any("nodes" in r for r in recs.values())  # nothing was searched
    assert recs["chase.sgf"]["chase"] is True
    assert recs["straight-three-kill-tl.sgf"]["frame_sensitive"] is None
    assert recs["false-eye-kill-bl.sgf"]["frame_sensitive"].startswith(
        "Black's stones at F1 (fs) have at most 2 liberties in the book")
    assert recs["room.sgf"]["frame_sensitive"].startswith(
        "the target's way out reaches the frame at G19 (ga), G18 (gb)")
    assert ("ggg-easy: 4 problems; error 1 (1 refused as chases); framed 3; frame flagged 2 "
            "of 3 framed (67%)\n") in proc.stdout, proc.stdout
    # a run that searches: White cannot live in the frame of room.sgf (the frame is flagged),
    # and is read again in the frame two lines farther out, where the book's moves are right
    out = tmp_path / "search.jsonl"
    proc = subprocess.run([*tool, "--max-nodes", "2000000", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    recs = _records(out)
    assert recs["room.sgf"]["cls"] == "agree"
    assert recs["room.sgf"]["reading"] == ("the same target, White to live, framed 2 lines "
                                           "farther out (18 empty points)")
    assert recs["room.sgf"]["frame_sensitive"] is None  # (Black's own wall shuts White in)
    assert ("ggg-easy: 4 problems; agree 3 (75%); (all listed moves 3 (75%)); error 1 (1 "
            "refused as chases); frame flagged 1 of 3 framed (33%);") in proc.stdout, \
        proc.stdout


def test_a_disagreement_is_rechecked_in_the_wider_frames() -> None:
    """The book's moves of the second-line room (White lives with B19 or E18) fail in its
    frame and are right two lines farther out; Black's E18 then kills in the frame, and in
    the box around the stones. The summary counts the disagreements a wider frame
    resolves."""
    b = place("""
        . . . . . . . . . . . X
        O O O O . . . . . . . X
        X X X X X X X X X X X X
        """)
    comment = "White to play and live"
    problem, inf = infer_problem(b, WHITE, comment)
    task = measure.Task("ggg-easy", "room.sgf", "sgf", None, 2_000_000, measure.Framing(),
                        True)
    looser, box = (f for _, f in wider_framings(task.framing))
    book = [pt("ba", 19), pt("eb", 19)]
    assert measure.wider_frame(problem, inf, comment, book, task, looser) == "agree"
    assert measure.wider_frame(problem, inf, comment, book, task, box) == "agree"
    black, bi = infer_problem(b, BLACK, "Black to play and kill")
    assert measure.wider_frame(black, bi, "", [pt("eb", 19)], task, box) == "agree"
    recs = [{"cls": "no-win", "looser": "agree", "frame_sensitive": "the way out ...",
             "cause": "frame"},
            {"cls": "no-win", "looser": "disagree", "box": "agree", "frame_sensitive": None,
             "cause": "frame"},
            {"cls": "book-loses", "looser": "disagree", "box": "disagree", "cause": "book"}]
    assert ("3 problems; agree 0 (0%); (all listed moves 0 (0%)); no-win 2; book-loses 1; "
            "frame flagged 1 of 3 framed (33%); disagreements flagged 1 of 3; a wider frame "
            "agrees on 2 (flagged 1); causes: frame 2, book 1") in measure.summary("x", recs)


# --- the check of the book's moves --------------------------------------------------------------

# The rectangular six in the corner, Black to play: be and bf kill, aa does not.
CORNER_SIX = """
    . . . . . .
    . . . . . .
    X X X X X .
    @ @ @ @ X .
    . . . @ X .
    . . . @ X .
"""


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_check_book_finds_the_winner_at_every_balance_and_each_book_moves_result(
        engine: Literal["compiled", "reference"]) -> None:
    p = problem_from_diagram(CORNER_SIX, to_play=BLACK)
    vital, wrong = from_sgf("be", 6), from_sgf("aa", 6)
    chk = measure.check_book(p, [wrong, vital], None, None, options=SearchOptions(engine=engine))
    assert chk.limit is None
    assert chk.by_threats == {k: BLACK for k in range(-2, 3)}
    assert chk.best_k == -2  # Black kills even where White has both threats
    assert chk.book_wins == {wrong: False, vital: True}


def test_book_moves_that_win_at_every_balance_need_no_search_of_the_balances(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The book's moves are searched first where White has both threats: be wins there, so
    Black wins at every balance, -2 is the least favourable winning balance and be is among
    the best moves there; the balances are never searched."""
    p = problem_from_diagram(CORNER_SIX, to_play=BLACK)
    vital, wrong = from_sgf("be", 6), from_sgf("aa", 6)

    def no_balances(self: object, balance: int) -> None:
        raise AssertionError("the balances were searched")

    monkeypatch.setattr(measure.Searches, "winners", no_balances)
    chk = measure.check_book(p, [wrong, vital], None, None)
    assert chk.limit is None
    assert chk.by_threats == {k: BLACK for k in range(-2, 3)}
    assert chk.best_k == -2
    assert chk.book_wins == {wrong: False, vital: True}


# The bent four in the corner, Black to play: a6 (ab) takes the ko first; Black kills unless
# White has one more threat.
BENT_FOUR = """
    . . O X . . .
    . O @ X . . .
    . O X X . . .
    O O X . . . .
    X X X . . . .
    . . . . . . .
    . . . . . . .
"""


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_book_ko_is_checked_at_the_balances_it_wins(
        engine: Literal["compiled", "reference"]) -> None:
    """The book's move loses where White has both threats (the answer is a ko), so the
    check goes on to the balances: the same winners as solve() finds, and the book's move
    wins at the least favourable balance that Black still wins."""
    p = problem_from_diagram(BENT_FOUR, to_play=BLACK)
    ko = from_sgf("ab", 7)
    chk = measure.check_book(p, [ko], None, None, options=SearchOptions(engine=engine))
    sol = solve(p, all_moves=False)
    assert sol.status == "ko" and sol.by_threats is not None
    assert chk.limit is None
    assert chk.by_threats == {k: int(w) for k, w in sol.by_threats.items()}
    assert chk.best_k == sol.best_threats and chk.best_k != -2
    assert chk.book_wins == {ko: True}


def test_a_book_move_that_never_settles_does_not_hide_another_ones_win() -> None:
    """The book's moves are searched side by side: the second move's win is found in its
    third slice although the first never settles; the limit then stops the first, and the
    problem agrees with the book, whether every listed move wins left open (null)."""
    p = problem_from_diagram(CORNER_SIX, to_play=BLACK)
    hard, easy = 0, 1
    asked: list[tuple[int, int]] = []

    class Engine:
        def winner_after(self, line: object, color: int, move: int, *,
                         max_work: int) -> Verdict:
            asked.append((move, max_work))
            won = move == easy and max_work >= 4 * measure.RACE_SLICE
            return Verdict(color if won else 0, 0)

        def solve_after(self, color: int, move: int, balance: int) -> int:
            raise BudgetExhausted("time")

    wins: dict[int, bool] = {}
    with pytest.raises(BudgetExhausted):
        measure.race_moves(Engine(), p, 0, [hard, easy], wins)
    assert wins == {easy: True}
    s = measure.RACE_SLICE
    assert asked == [(hard, s), (easy, s), (hard, 2 * s), (easy, 2 * s), (hard, 4 * s),
                     (easy, 4 * s)]
    chk = measure.Check(by_threats={k: BLACK for k in range(-2, 3)}, best_k=-2,
                        book_wins=wins, limit="time")
    task = measure.Task("plain", "x.sgf", "right", 10, None, measure.Framing(), False)
    rec: dict[str, object] = {}
    assert measure.classify(p, 0, chk, [hard, easy], task, rec) == "agree"
    assert rec["agree_all"] is None


def test_a_limit_in_the_balances_records_the_winners_found_so_far(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the limit stops the search of the balances, the check says so and keeps the
    balances already settled, so that an unknown says how far it got."""
    p = problem_from_diagram(CORNER_SIX, to_play=BLACK)

    class Loses:  # the book's move, searched first where White has both threats, loses
        nodes = depth_sum = depth_max = 0

        def solve_after(self, color: int, move: int, balance: int) -> int:
            assert balance == -2
            return WHITE

    class Stopped:
        def __init__(self, *args: object) -> None:
            self.by: dict[int, int] = {}
            self.engine = Loses()

        def winners(self, balance: int) -> None:
            self.by.update({1: BLACK, 2: BLACK})  # a Black win at +1 holds at +2
            raise BudgetExhausted("time")  # before balance 0 and White's end settle

        def nodes(self) -> int:
            return 1234

    monkeypatch.setattr(measure, "Searches", Stopped)
    chk = measure.check_book(p, [from_sgf("be", 6)], 10, None)
    assert chk.limit == "time" and chk.stopped_in == "balances"
    assert chk.by_threats is None
    assert chk.settled == {1: BLACK, 2: BLACK}
    assert chk.nodes == 1234


def test_ablate_turns_a_technique_off_in_the_check_and_says_so_in_the_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--ablate NAME (tools/bench.py's names): the search runs with that technique off, the
    answers stay, and the run's first line records it (a run resumed without it is refused)."""
    p = problem_from_diagram(CORNER_SIX, to_play=BLACK)
    vital, wrong = from_sgf("be", 6), from_sgf("aa", 6)
    on = measure.check_book(p, [wrong, vital], None, None)
    off = measure.check_book(p, [wrong, vital], None, None,
                             options=measure.options_without(["eyespace"]))
    assert (off.by_threats, off.best_k, off.book_wins) == (on.by_threats, on.best_k,
                                                           on.book_wins)
    assert off.nodes != on.nodes
    seen: list[object] = []
    real = measure.Searches

    def spy(problem: object, color: int, tt: int, max_nodes: object, deadline: object,
            options: object) -> object:
        seen.append(options)
        return real(problem, color, tt, max_nodes, deadline, options)

    monkeypatch.setattr(measure, "Searches", spy)
    task = measure.Task("plain", "x.sgf", "right", 10, None, measure.Framing(), False,
                        ablate=("threats", "passlast"))
    measure.check_book(p, [vital], None, None, options=task.options())
    opts = seen[-1]
    assert isinstance(opts, SearchOptions)
    assert (opts.threats, opts.pass_last, opts.benson, opts.live_first) == (False, False, True,
                                                                             False)
    ap = measure.arg_parser()
    args = ap.parse_args(["--sets", "plain", "--ablate", "threats", "--ablate", "eyespace"])
    assert measure.run_options(args, measure.Framing())["ablate"] == ["eyespace", "threats"]
    plain = ap.parse_args(["--sets", "plain"])
    assert "ablate" not in measure.run_options(plain, measure.Framing())


def test_a_run_resumed_without_its_ablation_is_refused_naming_it() -> None:
    """An option the earlier run had and this one lacks (``--ablate``) is named in the
    one-line refusal, as a changed one is."""
    was = {"max_nodes": 100, "ablate": ["threats"]}
    with pytest.raises(ValueError) as e:
        measure.finished([{"kind": "run", "options": was}], {"max_nodes": 100}, "out.jsonl")
    assert str(e.value) == ("out.jsonl: the earlier run had other options (ablate ['threats'], "
                            "now None): resume it with those, or write to a new file")
    with pytest.raises(ValueError, match=r"max_nodes 100, now 200"):
        measure.finished([{"kind": "run", "options": was}], {"max_nodes": 200,
                                                              "ablate": ["threats"]}, "out.jsonl")


def test_a_node_budget_alone_runs_without_a_clock() -> None:
    # --max-nodes alone: no time limit, so the records do not depend on the machine's load
    args = measure.parse_args(["--sets", "plain", "--max-nodes", "1000"])
    assert args.time_limit is None
    assert measure.run_options(args, measure.Framing())["time_limit"] is None
    tasks = measure.tasks_for("plain", Path(args.data), 1, 0, args, measure.Framing())
    assert tasks and all(t.time_limit is None and t.max_nodes == 1000 for t in tasks)
    # both limits when both are given; 10 s when neither is
    both = measure.parse_args(["--max-nodes", "1000", "--time-limit", "5"])
    assert (both.time_limit, both.max_nodes) == (5.0, 1000)
    assert measure.parse_args([]).time_limit == 10.0
    assert measure.run_options(measure.parse_args([]), measure.Framing())["time_limit"] == 10.0


def test_a_run_with_neither_limit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        measure.parse_args(["--time-limit", "0"])
    assert e.value.code == 2
    assert "--time-limit 0 needs --max-nodes" in capsys.readouterr().err


def test_a_task_without_a_clock_searches_with_no_deadline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a task of a node budget alone hands the search its budget and no deadline
    seen: list[tuple[object, ...]] = []

    class Budgeted:
        def __init__(self, *args: object) -> None:
            seen.append(args)
            raise BudgetExhausted("nodes")

    monkeypatch.setattr(measure, "Searches", Budgeted)
    args = measure.parse_args(["--sets", "plain", "--max-nodes", "1000"])
    task = measure.tasks_for("plain", Path(args.data), 1, 0, args, measure.Framing())[0]
    with pytest.raises(BudgetExhausted):
        measure.check_book(problem_from_diagram(CORNER_SIX, to_play=BLACK), [],
                           task.time_limit, task.max_nodes)
    (_, _, _, max_nodes, deadline, _), = seen
    assert (max_nodes, deadline) == (1000, None)


@pytest.mark.parametrize(("rec", "expected"), [
    ({"cls": "outside"}, "frame"),
    ({"cls": "no-win", "looser": "agree"}, "frame"),
    ({"cls": "roles", "looser": "disagree"}, "inference"),
    ({"cls": "no-win", "looser": "disagree", "other_target": "agree"}, "inference"),
    ({"cls": "book-loses", "looser": "disagree", "other_target": None,
      "frame_sensitive": None}, "book"),
    ({"cls": "book-weaker", "looser": "disagree", "other_target": "disagree",
      "frame_sensitive": None}, "book"),
    # a flag of the frame, or a looser frame that could not be searched to the end, leaves
    # the frame as a possible cause: not the book's
    ({"cls": "book-loses", "looser": "disagree", "frame_sensitive": "the way out ..."},
     "not told apart"),
    ({"cls": "book-loses", "looser": "unknown", "frame_sensitive": None}, "out of time"),
    ({"cls": "no-win", "looser": "disagree", "other_target": "unknown"}, "out of time"),
    ({"cls": "no-win", "looser": "error", "other_target": None}, "not told apart"),
    ({"cls": "no-win", "looser": "disagree", "other_target": "disagree"}, "not told apart"),
    # the box around the stones, where the looser frame does not agree
    ({"cls": "no-win", "looser": "disagree", "box": "agree"}, "frame"),
    ({"cls": "book-loses", "looser": "error", "box": "agree", "frame_sensitive": None},
     "frame"),
    ({"cls": "no-win", "looser": "disagree", "box": "unknown", "other_target": "disagree"},
     "out of time"),
    # (the book's move fails in our frame and the looser one, unflagged: the box, out of
    # time, does not stop the proof from saying the book is wrong)
    ({"cls": "book-loses", "looser": "disagree", "box": "unknown", "frame_sensitive": None},
     "book"),
    ({"cls": "book-weaker", "looser": "disagree", "box": "disagree", "other_target": None,
      "frame_sensitive": None}, "book"),
    ({"cls": "no-win", "looser": "disagree", "box": "disagree", "other_target": "disagree"},
     "not told apart"),
    # the roles swapped: a search a limit stopped could have told; one that settled could not
    ({"cls": "no-win", "swapped": None, "looser": "disagree", "other_target": None},
     "out of time"),
    ({"cls": "no-win", "swapped": False, "looser": "disagree", "other_target": None},
     "not told apart"),
])
def test_a_disagreements_cause_is_what_its_rechecks_tell(rec: dict, expected: str) -> None:
    assert measure.cause(rec) == expected
    assert expected in measure.CAUSES



def _book_record(set_name: str, problem: str, max_nodes: int = 200_000) -> dict:
    """measure_plain's record of one book problem, with a node budget for each search."""
    args = measure.parse_args(["--problems", problem, "--max-nodes", str(max_nodes)])
    [task] = measure.tasks_for(set_name, DATA.parent, 1, 0, args, measure.Framing())
    rec: dict = measure.run(task)
    return rec


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared problem collections are absent")
def test_a_book_problem_whose_first_reading_has_no_solution_is_read_again() -> None:
    """Cho elementary 202: our first target, Black's largest block (d19-e18), is shut in with
    no room for an eye, and Black cannot save it; read again with the next block as the
    target (b17-c17-b16, beside a18), Black lives with the book's b19."""
    rec = _book_record("cho-elementary", "Prob0202.json")
    assert rec["reading"] == "another target, Black to save its block at B17 (bc), 3 stones"
    assert rec["cls"] == "agree" and rec["target"] == ["bc", "cc", "bd"]


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared problem collections are absent")
def test_a_book_that_saves_another_block_is_told_apart_as_the_inferences_doing() -> None:
    """Cho advanced 151: Black wins in our reading, but not with the book's move, which
    loses at every balance, in the looser frame too; with Black's next largest block as the
    target, the book's move is a right one. The disagreement is the inference's."""
    rec = _book_record("cho-advanced", "Prob0151.json")
    assert "reading" not in rec
    assert rec["cls"] == "book-loses"
    assert rec["looser"] == "disagree" and rec["other_target"] == "agree"
    assert rec["cause"] == "inference"


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared problem collections are absent")
def test_a_book_problem_is_read_again_with_the_roles_swapped_and_another_target() -> None:
    """Cho elementary 310: Black cannot save its largest block, nor another; with the roles
    swapped, White's largest block is lost whatever White does (no problem), but its block at
    E18 is one, and the book's moves kill it."""
    rec = _book_record("cho-elementary", "Prob0310.json", max_nodes=1_000_000)
    assert rec["reading"] == ("the roles swapped and another target, Black to kill White's "
                              "block at E18 (eb), 2 stones")
    assert rec["cls"] == "agree"


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared problem collections are absent")
def test_a_book_problem_too_open_as_first_read_is_read_again() -> None:
    """Cho intermediate 310: Black's throw-in at b19 is the only stone shut in, so Black is
    first read as the defender, and the frame around Black's wall holds 63 empty points (too
    open); with the roles swapped, Black kills White's corner with the book's d18."""
    rec = _book_record("cho-intermediate", "Prob0310.json")
    assert rec["reading"] == "the roles swapped, Black to kill"
    assert rec["cls"] == "agree" and rec["target"] == ["ab", "bb", "cb"]


# tests/search/test_reading.py's WRONG_WAY_ROUND: first read, Black defends its throw-in at c19
# in a region of 65 empty points (too open); with the roles swapped Black kills at e18
WRONG_WAY_ROUND = """
. . X . . . . . . . . .
O O O O . . . . . . . .
X X X X . X X X X . . .
. . . . X . . . . . . .
"""


def test_a_problem_too_open_is_read_again_unless_only_inferred(tmp_path: Path) -> None:
    book = tmp_path / "data" / "gogameguru-go-problems" / "weekly-go-problems" / "easy"
    book.mkdir(parents=True)
    (book / "open.sgf").write_text(plain_sgf(WRONG_WAY_ROUND, "B", right=["eb"])
                                   .replace("C[RIGHT]", "C[Correct.]"))
    tool = [sys.executable, str(REPO / "tools" / "measure_plain.py"), "--data",
            str(tmp_path / "data"), "--sets", "ggg-easy", "--jobs", "1"]
    for extra, cls in ((["--infer-only"], "error"), ([], "agree")):
        out = tmp_path / f"{cls}.jsonl"
        proc = subprocess.run([*tool, *extra, "--out", str(out)], capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        rec = _records(out)["open.sgf"]
        assert rec["cls"] == cls, rec
        if cls == "error":  # --infer-only searches nothing, so it cannot read again
            assert "65 empty points: too open" in rec["error"]
        else:
            assert rec["reading"] == "the roles swapped, Black to kill"
            assert rec["target"] == ["ab", "bb", "cb", "db"]
