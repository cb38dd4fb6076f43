"""tools/bench.py on a tiny collection written into tmp_path."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import load_tool

from tsumego.search.compiled import core_build

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "tools" / "bench.py"

# A straight three in the top-left corner of a 6x6 board, closed by a safe black wall:
#   . . . O X .
#   O O O O X .
#   X X X X X .
# Black kills at ba, White lives at ba.
STONES = "AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]"
THREE = f"(;FF[4]SZ[6]PL[B]MA[da]{STONES}(;B[ba]))\n"
WRONG = f"(;FF[4]SZ[6]PL[W]MA[da]{STONES}(;W[aa]))\n"  # the book's move fails: White dies
BROKEN = "(;FF[4]SZ[6]AB[aa"
NOT_SQUARE = f"(;FF[4]SZ[6:7]PL[B]MA[da]{STONES}(;B[ba]))\n"

PEER = """problem,to_play,result,ms,status,expected_first,first_ok
three.sgf,B,B[ba],2.0,win_even_if_opponent_km,B[ba],yes
three.sgf,W,TIMEOUT,60000.0,,,
sub/wrong.sgf,B,B[ba],1.0,win_even_if_opponent_km,W[aa],
sub/wrong.sgf,W,W[ba],0.5,win_even_if_opponent_km,W[aa],no
broken.sgf,B,ERROR: bad,,,,
broken.sgf,W,ERROR: bad,,,,
"""


@pytest.fixture()
def collection(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "three.sgf").write_text(THREE)
    (tmp_path / "sub" / "wrong.sgf").write_text(WRONG)
    (tmp_path / "broken.sgf").write_text(BROKEN)
    (tmp_path / "notes.txt").write_text("not a problem")
    return tmp_path


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def lines_for(out: str, problem: str) -> list[list[str]]:
    return [ln.split() for ln in out.splitlines() if ln.startswith(problem + " ")]


def test_text_output_and_totals(collection: Path) -> None:
    out = run(str(collection), "--time-limit", "20", "--no-board")
    three = lines_for(out, "three.sgf")
    assert [f[:6] for f in three] == [["three.sgf", "B", "kill", "B", "ba", "yes"],
                                      ["three.sgf", "W", "live", "W", "ba", "-"]]
    for f in three:
        assert int(f[6]) > 0 and float(f[7]) >= 0 and float(f[8]) >= 0
    wrong = lines_for(out, "sub/wrong.sgf")
    assert [f[:6] for f in wrong] == [["sub/wrong.sgf", "B", "kill", "B", "ba", "-"],
                                      ["sub/wrong.sgf", "W", "live", "W", "ba", "no"]]
    # the broken file is reported and the run goes on (it sorts first)
    broken = lines_for(out, "broken.sgf")
    assert len(broken) == 1 and broken[0][1:3] == ["-", "ERROR"]
    assert "not an SGF file" in " ".join(broken[0])
    lines = out.splitlines()
    assert out.index("broken.sgf") < out.index("three.sgf")
    assert "problem-sides run: 4; solved 4, unknown 0; errors 1 (1 files failed to load)" in out
    assert "peak RSS:" in out and "nodes/s" in out and "median" in out
    assert "stated-move mismatches: 1" in out
    assert any(ln.strip().startswith("sub/wrong.sgf W (live): stated aa") for ln in lines)
    assert "notes.txt" not in out
    assert "plays/s" not in out


def test_json_and_compare(collection: Path) -> None:
    (collection / "oblong.sgf").write_text(NOT_SQUARE)
    peer = collection / "peer.csv"
    peer.write_text(PEER)
    out = run(str(collection), "--json", "--no-board", "--compare", str(peer))
    objs = [json.loads(ln) for ln in out.splitlines()]
    results = [o for o in objs if o["kind"] == "result"]
    assert {(o["problem"], o["side"], o["status"]) for o in results} == {
        ("three.sgf", "B", "kill"), ("three.sgf", "W", "live"),
        ("sub/wrong.sgf", "B", "kill"), ("sub/wrong.sgf", "W", "live")}
    errors = [o for o in objs if o["kind"] == "error"]
    assert sorted(o["problem"] for o in errors) == ["broken.sgf", "oblong.sgf"]
    assert "oblong.sgf" in next(o["error"] for o in errors if o["problem"] == "oblong.sgf")
    (tot,) = [o for o in objs if o["kind"] == "totals"]
    assert (tot["solved"], tot["unknown"], tot["errors"], tot["runs"]) == (4, 0, 2, 4)
    assert len(tot["stated_mismatches"]) == 1 and tot["stated_checked"] == 2
    assert tot["nodes"] == sum(o["nodes"] for o in results) and tot["peak_rss_mib"] > 0
    cmp_rows = {(o["problem"], o["side"]): o for o in objs if o["kind"] == "compare"}
    assert cmp_rows[("broken.sgf", "B")]["excluded"] is True
    assert cmp_rows[("three.sgf", "W")]["peer_solved"] is False
    assert cmp_rows[("three.sgf", "W")]["ratio"] is None
    assert cmp_rows[("three.sgf", "B")]["ratio"] > 0
    (ct,) = [o for o in objs if o["kind"] == "compare_totals"]
    assert ct["compared"] == 4 and ct["excluded_both_error"] == 2
    assert ct["missing_in_peer"] == 2  # oblong.sgf, both sides
    assert (ct["ours_solved"], ct["peer_solved_in_limit"], ct["both_solved"]) == (4, 3, 3)
    assert ct["only_ours"] == 1 and ct["peer_timeout"] == 1
    assert ct["geomean_ratio"] is not None and ct["geomean_ratio"] > 0
    assert ct["we_faster"] >= 1  # at least the peer's timeout
    assert ct["peer_total_s"] == pytest.approx(60.0035)


def test_text_compare_and_board(collection: Path) -> None:
    peer = collection / "peer.csv"
    peer.write_text(PEER)
    out = run(str(collection), "--board-seconds", "0.05", "--compare", str(peer),
              "--jobs", "2")
    assert out.splitlines()[0].startswith("board 9x9: ")
    assert out.splitlines()[1].startswith("board 19x19: ")
    assert "plays/s" in out.splitlines()[0]
    assert "== compare totals" in out
    assert "solved within 10 s: ours 4, tsumego.js 3" in out
    assert "geometric mean" in out
    cmp_three = [ln.split() for ln in out.split("== compare with")[1].splitlines()
                 if ln.startswith("three.sgf ")]
    assert cmp_three[1][4:6] == ["60.000", "TIMEOUT"]
    # our slowest solved sides, slowest first: all four solved sides, each once
    slow = out.split("slowest solved problem-sides:")[1].split("ko class differs")[0]
    listed = [ln.split(":")[0].strip() for ln in slow.strip().splitlines()]
    assert sorted(listed) == ["sub/wrong.sgf B", "sub/wrong.sgf W", "three.sgf B",
                              "three.sgf W"]
    secs = [float(ln.split("ours ")[1].split()[0]) for ln in slow.strip().splitlines()]
    assert secs == sorted(secs, reverse=True)


def _load_bench() -> ModuleType:
    return load_tool("bench")


def test_random_games_are_legal() -> None:
    import random

    from tsumego.go.board import Board

    bench = _load_bench()
    rng = random.Random(3)
    for size in (9, 19):
        game = bench.random_game(size, rng)
        assert len(game) > size * size // 2
        b = Board(size)
        for p, c in game:
            b.play(p, c)  # checked: raises on an illegal play
        assert bin(b.empty).count("1") <= size * size // 2
    bs = bench.board_speed(9, seconds=0.02)
    assert bs.plays > 0 and bs.plays_per_s > 0


@pytest.mark.parametrize(
    "name", ["epsilon", "knowledge", "sumscale", "benson", "kofree", "capture", "atari",
             "borrow", "livefirst", "farfirst", "eyespace", "tiephi", "threats", "ladder",
             "patterns", "killer"])
@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_ablation_changes_the_work_not_the_answers(name: str, engine: str) -> None:
    """--ablate turns one technique off: the composed problems keep every answer, in both
    engines. (Without Benson's test the reference engine may need more than bench's 10 s a
    side on a loaded machine: a side the time limit stopped is no other answer.)"""
    base = run(str(REPO / "problems"), "--json", "--no-board", "--engine", engine)
    ablated = run(str(REPO / "problems"), "--json", "--no-board", "--engine", engine,
                  "--ablate", name)

    def answers(out: str) -> dict[tuple[str, str], tuple[str, str, str]]:
        return {(o["problem"], o["side"]): (o["status"], o["winner"], str(o["best_moves"]))
                for o in map(json.loads, out.splitlines()) if o["kind"] == "result"}

    def timed_out(out: str) -> set[tuple[str, str]]:
        return {(o["problem"], o["side"]) for o in map(json.loads, out.splitlines())
                if o["kind"] == "result" and o["status"] == "unknown" and o["limit"] == "time"}

    sides = 2 * len(list((REPO / "problems").rglob("*.sgf")))
    assert len(answers(base)) == sides and not timed_out(base)
    late = timed_out(ablated)
    assert len(late) <= sides // 10
    assert {k: v for k, v in answers(ablated).items() if k not in late} == {
        k: v for k, v in answers(base).items() if k not in late}


def test_simulation_from_the_first_node_changes_the_work_not_the_answers() -> None:
    """Kawano's simulation (the reference engine's): by default it waits for 20,000 nodes,
    which no composed problem reaches, so --ablate simulation changes nothing there;
    --simulation-from 0 tries it from the first node: other node counts, the same
    answers."""
    ref = ("--json", "--no-board", "--engine", "reference")
    base = run(str(REPO / "problems"), *ref)
    early = run(str(REPO / "problems"), *ref, "--simulation-from", "0")
    off = run(str(REPO / "problems"), *ref, "--ablate", "simulation")

    def results(out: str) -> list[dict[str, Any]]:
        return [o for o in map(json.loads, out.splitlines()) if o["kind"] == "result"]

    def answers(out: str) -> dict[tuple[str, str], tuple[str, str, str]]:
        return {(o["problem"], o["side"]): (o["status"], o["winner"], str(o["best_moves"]))
                for o in results(out)}

    def nodes(out: str) -> int:
        return sum(o["nodes"] for o in results(out))

    assert answers(early) == answers(base) == answers(off)
    assert len(answers(base)) == 2 * len(list((REPO / "problems").rglob("*.sgf")))
    assert nodes(off) == nodes(base) != nodes(early)


def test_simulation_options_are_checked() -> None:
    for flag in ("--simulation", "--simulation-from"):
        proc = subprocess.run([sys.executable, str(BENCH), "problems", flag, "-1"],
                              capture_output=True, text=True, cwd=REPO, timeout=60)
        assert proc.returncode == 2 and flag in proc.stderr


def test_ablation_names_are_checked() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "problems", "--ablate", "nonsense"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and "--ablate" in proc.stderr


def test_node_budget_makes_unknowns() -> None:
    out = run(str(REPO / "problems" / "rabbity-six.sgf"), "--json", "--no-board",
              "--max-nodes", "5")
    results = [o for o in map(json.loads, out.splitlines()) if o["kind"] == "result"]
    assert len(results) == 2
    assert all(o["status"] == "unknown" and o["limit"] == "nodes" for o in results)


def test_quick_gives_one_move_and_checks_it(collection: Path) -> None:
    """--quick: the same answers, one best move each, no move lists; the stated check asks
    whether that move is the file's."""
    out = run(str(collection), "--json", "--no-board", "--quick")
    results = {(o["problem"], o["side"]): o for o in map(json.loads, out.splitlines())
               if o["kind"] == "result"}
    assert {k: (o["status"], o["winner"], o["best"]) for k, o in results.items()} == {
        ("three.sgf", "B"): ("kill", "B", "ba"), ("three.sgf", "W"): ("live", "W", "ba"),
        ("sub/wrong.sgf", "B"): ("kill", "B", "ba"), ("sub/wrong.sgf", "W"): ("live", "W", "ba")}
    assert all(o["moves"] is None and o["best_moves"] is None for o in results.values())
    assert results[("three.sgf", "B")]["stated_ok"] == "yes"
    assert results[("sub/wrong.sgf", "W")]["stated_ok"] == "no"
    text = run(str(collection), "--no-board", "--quick")
    assert "quick (one correct first move)" in text


def test_quick_mismatch_names_our_move(collection: Path) -> None:
    out = run(str(collection), "--no-board", "--quick")
    assert ("sub/wrong.sgf W (live): stated aa; our move ba is not among them" in out), out


def test_ratio_breakdown_by_peer_time_and_status() -> None:
    bench = _load_bench()

    def row(peer_s: float, ours_s: float, status: str) -> Any:
        return bench.CompareRow("p.sgf", "B", ours_s, status, peer_s, "B[aa]", True, True, True,
                                ours_s / peer_s, None, None, False)

    rows = [row(0.002, 0.004, "kill"), row(0.005, 0.020, "ko"), row(0.5, 0.25, "kill"),
            row(20.0, 2.0, "live")]
    unsolved = bench.CompareRow("q.sgf", "W", 10.0, "unknown", 1.0, "W[bb]", False, True, True,
                                None, None, None, False)
    got = bench.ratio_breakdown(rows + [unsolved])
    by_time = {b["band"]: b for b in got["by_peer_time"]}
    assert list(by_time) == ["under 10 ms", "0.1-1 s", "over 10 s"]  # empty bands left out
    assert by_time["under 10 ms"]["sides"] == 2
    assert by_time["under 10 ms"]["geomean_ratio"] == pytest.approx((2.0 * 4.0) ** 0.5)
    assert by_time["under 10 ms"]["we_faster"] == 0
    assert by_time["over 10 s"]["we_faster"] == 1
    by_status = {b["band"]: b for b in got["by_status"]}
    assert set(by_status) == {"kill", "ko", "live"}  # the unsolved side is in neither table
    assert by_status["kill"]["geomean_ratio"] == pytest.approx((2.0 * 0.5) ** 0.5)
    assert by_status["kill"]["we_faster"] == 1


# bench.py, hanging (as if the search never ended) on White's side of the files whose name
# holds "hang": a run that stops at a known point, whatever the machine's load
HANGING = """
import sys, time
from conftest import load_tool
bench = load_tool("bench")
real = bench.solve_sides
def solve_sides(task, spec, sides):
    for side in sides:
        while "hang" in task.rel and side == bench.WHITE:
            time.sleep(1)
        rows = list(real(task, spec, [side]))
        yield from rows
        if rows[0].side == "-":  # the file did not load: one row for both sides
            return
bench.solve_sides = solve_sides
sys.exit(bench.main(sys.argv[1:]))
"""


def _rows(path: Path) -> list[dict[str, Any]]:
    """The rows of an --out file without what the clock and the machine decide."""
    lines = [json.loads(ln) for ln in path.read_text().splitlines()]
    assert lines[0]["kind"] == "run"
    assert lines[0]["core"] == core_build()  # (the runs here use the compiled core)
    return [{k: v for k, v in d.items() if k not in ("seconds", "cpu", "rss_mib", "nodes_per_s")}
            for d in lines[1:]]


def test_a_killed_run_resumes_with_the_rows_of_an_uninterrupted_one(collection: Path) -> None:
    (collection / "c-hang.sgf").write_text(THREE)
    (collection / "d.sgf").write_text(WRONG)
    args = [str(collection), "--no-board", "--max-nodes", "20000", "--json"]
    whole = collection / "whole.jsonl"
    run(*args, "--out", str(whole))
    part = collection / "part.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", HANGING, *args, "--out", str(part)],
                            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:  # the run line, broken.sgf's row, c-hang.sgf's for Black; then White's hangs
        deadline = time.monotonic() + 300
        while not (part.exists() and part.read_bytes().count(b"\n") >= 3):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no row came"
            time.sleep(0.05)
        proc.kill()
    finally:
        proc.kill()
        proc.communicate()
    killed = [json.loads(ln) for ln in part.read_text().splitlines()][1:]
    assert [(d["problem"], d["side"]) for d in killed] == [("broken.sgf", "-"),
                                                           ("c-hang.sgf", "B")]
    with open(part, "ab") as f:  # and a power cut left half a line behind
        f.write(b'{"kind": "result", "problem": "c-hang.sgf", "si')
    out = run(*args, "--out", str(part), "--resume")
    assert _rows(part) == _rows(whole)
    # the side done before the kill was not solved again: its row is the killed run's (to
    # the CPU time it took)
    resumed = [json.loads(ln) for ln in part.read_text().splitlines()]
    assert [(d["cpu"], d["seconds"]) for d in resumed
            if (d.get("problem"), d.get("side")) == ("c-hang.sgf", "B")] == [
        (killed[1]["cpu"], killed[1]["seconds"])]
    printed = [json.loads(ln) for ln in out.splitlines()]
    assert [(o["problem"], o["side"]) for o in printed if o["kind"] != "totals"] == [
        (d["problem"], d["side"]) for d in _rows(whole)]
    (tot,) = [o for o in printed if o["kind"] == "totals"]
    assert (tot["runs"], tot["solved"], tot["errors"]) == (8, 8, 1)
    # a finished run resumed solves nothing; other options are refused
    again = [json.loads(ln) for ln in run(*args, "--out", str(part), "--resume").splitlines()]
    assert [o["nodes"] for o in again[:-1]] == [o["nodes"] for o in printed[:-1]]
    assert again[-1]["nodes"] == tot["nodes"]
    proc2 = subprocess.run([sys.executable, str(BENCH), *args, "--out", str(part), "--resume",
                            "--quick"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc2.returncode == 2 and "all_moves True, now False" in proc2.stderr
    proc2 = subprocess.run([sys.executable, str(BENCH), *args, "--out", str(part)],
                           capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc2.returncode == 2 and "exists" in proc2.stderr
    assert _rows(part) == _rows(whole)
