"""Batch verification: book reading, exact classification of a composed collection
with planted mistakes, the worker pool and its time limit, the cache, exit codes, Dask."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tsumego.batch.verify import (
    CLASSES,
    Cache,
    IllegalLine,
    LinePosition,
    Options,
    Result,
    Task,
    book_tree,
    collect,
    detect_convention,
    mark_correct,
    read_jsonl,
    run_pool,
    verify_problem,
)
from tsumego.cli.main import main
from tsumego.go.board import BLACK, WHITE
from tsumego.go.coords import PASS, from_sgf
from tsumego.io.sgf import parse_problem, read_tree

DATA = Path(__file__).resolve().parents[1] / "verify_data"
BOOK = DATA / "book"
SLOW = DATA / "slow"

# the composed collection: (file, game) -> class, without and with --deep
EXPECTED = {
    ("agree-right.sgf", 0): ("agree", "agree"),
    ("agree-comment.sgf", 0): ("agree", "agree"),
    ("agree-first-level.sgf", 0): ("agree", "agree"),
    ("book-move-fails.sgf", 0): ("book-move-fails", "book-move-fails"),
    ("ko-not-clean.sgf", 0): ("book-move-fails", "book-move-fails"),
    ("extra-solutions.sgf", 0): ("extra-solutions", "extra-solutions"),
    ("wrong-line-works.sgf", 0): ("wrong-line-works", "wrong-line-works"),
    ("no-solution.sgf", 0): ("no-solution", "no-solution"),
    ("no-answer.sgf", 0): ("no-answer", "no-answer"),
    ("broken.sgf", 0): ("error", "error"),
    ("no-wall.sgf", 0): ("error", "error"),
    ("collection.sgf", 0): ("agree", "agree"),
    ("collection.sgf", 1): ("book-move-fails", "book-move-fails"),
    ("collection.sgf", 2): ("error", "error"),
    ("deep-second-move.sgf", 0): ("agree", "book-move-fails"),
    ("deep-weak-reply.sgf", 0): ("agree", "weak-reply"),
    ("deep-bad-refutation.sgf", 0): ("agree", "bad-refutation"),
    ("deep-wrong-turn.sgf", 0): ("agree", "agree"),
    ("deep-wrong-works.sgf", 0): ("agree", "book-move-fails"),
}


def _invoke(args: list[str]) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["verify", *args], catch_exceptions=False)
    return r.exit_code, r.output


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _key(d: dict) -> tuple[str, int]:
    return Path(d["file"]).name, d["game"]


def _comparable(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in d.items() if k not in ("seconds", "cached")} for d in rows]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    """The composed collection verified by the command: --jobs 2, --jobs 1, --deep."""
    tmp = tmp_path_factory.mktemp("verify")
    out: dict[str, list[dict]] = {}
    for name, extra in (("jobs2", ["--jobs", "2"]), ("jobs1", ["--jobs", "1"]),
                        ("deep", ["--jobs", "2", "--deep"])):
        js = tmp / f"{name}.jsonl"
        code, text = _invoke([str(BOOK), "--time-limit", "30", "--json", str(js), *extra])
        assert code == 1, text
        out[name] = _load(js)
        out[name + ".text"] = [{"text": text}]
    return out


# --- reading the book -----------------------------------------------------------------------

def _tree(sgf: str):
    return book_tree(read_tree(sgf.encode()))


def test_conventions_and_correct_marks() -> None:
    right = _tree("(;SZ[5];B[aa](;W[ba];B[ca]C[good: RIGHT])(;W[ca];B[ba]C[no]))"
                  "(;SZ[5];B[bb]C[wrong])")
    assert detect_convention(right) == "right"
    mark_correct(right, "right")
    (aa,) = right
    assert aa.correct and [c.correct for c in aa.children] == [True, False]

    comment = _tree("(;SZ[5](;B[aa]C[ Also correct.])(;B[bb];W[cc]C[Not correct: "
                    "White lives])(;B[cc];W[dd]C[correct, White dies]))")
    assert detect_convention(comment) == "comment"
    mark_correct(comment, "comment")
    assert [m.correct for m in comment] == [True, False, True]

    plain = _tree("(;SZ[5]AB[aa](;B[bb];W[cc])(;B[dd]))")
    assert detect_convention(plain) == "first-level"
    mark_correct(plain, "first-level")
    assert all(m.correct for m in plain)
    # first-level ignores RIGHT comments when asked for
    mark_correct(right, "first-level")
    assert all(m.correct for m in right[0].children)


def test_setup_nodes_and_moveless_nodes_are_spliced() -> None:
    tree = _tree("(;SZ[5];AB[aa]C[setup node];AW[bb](;C[a comment node];B[cc];C[RIGHT])"
                 "(;B[dd]))")
    assert [(m.point, m.color) for m in tree] == [("cc", BLACK), ("dd", BLACK)]
    mark_correct(tree, detect_convention(tree))
    assert [m.correct for m in tree] == [True, False]  # the move-less leaf's RIGHT counts


def test_collect_directories_collections_and_missing_paths(tmp_path: Path) -> None:
    tasks = collect([BOOK])
    names = [(Path(t.file).name, t.game) for t in tasks]
    assert sorted(names) == sorted(EXPECTED)
    coll = [t for t in tasks if t.file.endswith("collection.sgf")]
    assert [t.game for t in coll] == [0, 1, 2] and all(t.multi for t in coll)
    assert coll[1].name.endswith("collection.sgf#1")
    assert len({t.index for t in tasks}) == len(tasks)
    # the same file named twice (or through its directory) counts once
    assert len(collect([BOOK, BOOK / "agree-right.sgf"])) == len(tasks)
    with pytest.raises(FileNotFoundError):
        collect([tmp_path / "nope.sgf"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_a_directory_is_an_error_not_a_wait(tmp_path: Path) -> None:
    (tmp_path / "a.sgf").write_bytes((BOOK / "agree-right.sgf").read_bytes())
    os.mkfifo(tmp_path / "b.sgf")  # reading it would wait for a writer that never comes
    tasks = collect([tmp_path])
    assert [(Path(t.file).name, t.read_error) for t in tasks] == [
        ("a.sgf", None), ("b.sgf", f"{tmp_path / 'b.sgf'}: not a regular file (a pipe or a "
                                   f"device)")]


def test_a_file_name_that_is_not_utf8_is_reported_and_resumed(tmp_path: Path) -> None:
    d = os.fsencode(tmp_path / "names")
    os.mkdir(d)
    with open(os.path.join(d, b"\xffname.sgf"), "wb") as f:
        f.write((BOOK / "agree-right.sgf").read_bytes())
    js, html = tmp_path / "out.jsonl", tmp_path / "out.html"
    code, text = _invoke([os.fsdecode(d), "--jobs", "1", "--json", str(js), "--html",
                          str(html)])
    assert code == 0, text
    (row,) = read_jsonl(js)
    assert os.fsencode(row.file).endswith(b"/\xffname.sgf") and row.cls == "agree"
    assert "name.sgf" in html.read_text(encoding="utf-8")
    code, text = _invoke([os.fsdecode(d), "--jobs", "1", "--json", str(js), "--resume"])
    assert code == 0 and "1 from the earlier run" in text


# --- positions along a line -----------------------------------------------------------------

def test_line_position_repetition_needs_a_threat() -> None:
    pf = parse_problem((BOOK / "deep-weak-reply.sgf").read_bytes())
    p = pf.problem
    line = LinePosition(p, deadline=None, tt_size=10_000, balance=0)
    with pytest.raises(IllegalLine) as e:
        line.push(BLACK, from_sgf("ca", 7))
    assert e.value.kind == "suicide"
    line.push(BLACK, from_sgf("ab", 7))  # Black throws in and takes the ko
    with pytest.raises(IllegalLine) as e:
        line.push(WHITE, from_sgf("aa", 7))  # the retake repeats the root: needs a threat
    assert e.value.kind == "repetition"
    assert line.winner_after(WHITE, from_sgf("aa", 7)) is None
    line.balance = -1  # White has a threat
    line.push(WHITE, from_sgf("aa", 7))
    assert line.balance == 0 and line.history and len(line.history) == 2
    line.pop()
    assert line.balance == -1
    assert line.threshold(WHITE, from_sgf("aa", 7)) == -1
    assert line.threshold(WHITE, PASS) is None


def test_line_position_pair_of_passes() -> None:
    """Two passes in a row stand for plays elsewhere: the history starts afresh, the balance
    is 0 and the first to pass moves next; the same pair again ends the game."""
    pf = parse_problem((BOOK / "deep-weak-reply.sgf").read_bytes())
    line = LinePosition(pf.problem, deadline=None, tt_size=10_000, balance=-2)
    line.push(BLACK, from_sgf("ab", 7))
    line.push(WHITE, from_sgf("aa", 7))  # a retake with a threat
    assert line.balance == -1
    line.push(BLACK, PASS)
    line.push(WHITE, PASS)
    assert (line.balance, line.passed, line.ended) == (0, False, 0)
    assert list(line.history.values()) == [line.depth] and len(line.pair_states) == 1
    line.push(BLACK, from_sgf("ab", 7))  # the ko may be taken again at once
    line.pop()
    line.push(BLACK, PASS)
    line.push(WHITE, PASS)  # the same position, Black to move, as after the first pair
    assert line.ended == WHITE
    for _ in range(6):
        line.pop()
    assert (line.balance, line.depth, line.pair_states) == (-2, 0, {})


# --- classification -------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["jobs2", "deep"])
def test_composed_collection_is_classified_exactly(runs: dict[str, list[dict]],
                                                   mode: str) -> None:
    rows = runs[mode]
    got = {_key(d): d["class"] for d in rows}
    want = {k: v[1 if mode == "deep" else 0] for k, v in EXPECTED.items()}
    assert got == want
    for d in rows:  # every object has the documented fields
        assert {"file", "game", "class", "to_play", "book_correct", "book_wrong",
                "solver_moves", "status", "refutation", "seconds", "error"} <= set(d)
        assert d["class"] in CLASSES


def test_findings_say_what_is_wrong(runs: dict[str, list[dict]]) -> None:
    by = {_key(d): d for d in runs["jobs2"]}
    d = by["book-move-fails.sgf", 0]
    assert d["book_correct"] == ["ba"] and d["solver_moves"] == ["ca"]
    assert d["refutation"] == {"ba": ["ca"]}
    assert {f["class"] for f in d["findings"]} == {"book-move-fails", "extra-solutions"}
    assert d["answers"] == "right" and d["status"] == "kill" and d["to_play"] == "B"

    ko = by["ko-not-clean.sgf", 0]
    assert ko["solver_moves"] == ["ba"] and ko["book_correct"] == ["bb"]
    text = next(f["text"] for f in ko["findings"] if f["class"] == "book-move-fails")
    assert "ko" in text and "unconditionally" in text

    assert by["extra-solutions.sgf", 0]["solver_moves"] == ["aa", "ba", "pass"]
    assert by["wrong-line-works.sgf", 0]["book_wrong"] == ["ba"]
    assert by["no-solution.sgf", 0]["solver_moves"] == []
    assert by["no-answer.sgf", 0]["solver_moves"] == ["ca"]
    assert "not an SGF file" in by["broken.sgf", 0]["error"]
    assert "safe wall" in by["no-wall.sgf", 0]["error"]
    assert "collection.sgf#2" in by["collection.sgf", 2]["error"]
    assert by["agree-comment.sgf", 0]["answers"] == "comment"
    assert by["agree-first-level.sgf", 0]["answers"] == "first-level"

    deep = {_key(d): d for d in runs["deep"]}
    t = " ".join(f["text"] for f in deep["deep-second-move.sgf", 0]["findings"])
    assert "move 3" in t and "da (D7)" in t and "cb (C6)" in t
    t = " ".join(f["text"] for f in deep["deep-weak-reply.sgf", 0]["findings"])
    assert "move 2" in t and "aa (A7)" in t
    t = " ".join(f["text"] for f in deep["deep-bad-refutation.sgf", 0]["findings"])
    assert "refutation" in t and "ca (C7)" in t
    assert {f["class"] for f in deep["deep-wrong-works.sgf", 0]["findings"]} == {
        "book-move-fails", "wrong-line-works"}


def test_jobs_1_and_2_give_the_same_report(runs: dict[str, list[dict]]) -> None:
    assert _comparable(runs["jobs1"]) == _comparable(runs["jobs2"])


def test_terminal_summary(runs: dict[str, list[dict]]) -> None:
    text = runs["jobs2.text"][0]["text"]
    assert "verified 19 of 19 problems" in text
    assert "median" in text
    lines = text.splitlines()
    assert any(ln.split() == ["book-move-fails", "3", "a", "move", "the", "book", "calls",
                              "correct", "loses"] for ln in lines)
    assert any("collection.sgf#1: book-move-fails:" in ln for ln in lines)
    assert not any("agree-right.sgf" in ln for ln in lines)  # one line per finding only


# --- exit codes -----------------------------------------------------------------------------

def test_exit_codes(tmp_path: Path) -> None:
    code, text = _invoke([str(BOOK / "agree-right.sgf"), str(BOOK / "agree-first-level.sgf"),
                          "--jobs", "1"])
    assert code == 0, text
    code, _ = _invoke([str(BOOK / "extra-solutions.sgf"), "--jobs", "1"])
    assert code == 1
    (tmp_path / "empty").mkdir()
    for bad in ([str(tmp_path / "missing.sgf")], [str(BOOK), "--time-limit", "0"],
                [str(BOOK), "--jobs", "0"], [str(BOOK), "--answers", "bogus"],
                [str(tmp_path / "empty")], []):
        code, text = _invoke(bad)
        assert code == 2, (bad, text)


# --- the pool, the time limit, the cache ----------------------------------------------------

def test_time_limit_stops_a_long_problem(tmp_path: Path) -> None:
    js = tmp_path / "out.jsonl"
    start = time.monotonic()
    code, text = _invoke([str(SLOW / "open-corner.sgf"), str(BOOK / "agree-right.sgf"),
                          "--jobs", "2", "--time-limit", "1", "--json", str(js)])
    wall = time.monotonic() - start
    assert code == 1, text
    got = {_key(d): d for d in _load(js)}
    assert got["open-corner.sgf", 0]["class"] == "unknown"
    assert got["agree-right.sgf", 0]["class"] == "agree"
    assert got["open-corner.sgf", 0]["seconds"] < 1 + 4.5  # within the hard limit
    assert wall < 10


def test_a_hung_worker_is_killed_and_replaced() -> None:
    tasks = [t for t in collect([BOOK]) if Path(t.file).name in (
        "agree-right.sgf", "extra-solutions.sgf", "no-answer.sgf", "no-solution.sgf")]
    tasks = [Task(i, t.file, t.game, t.data) for i, t in enumerate(tasks)]
    hang = next(t for t in tasks if t.file.endswith("extra-solutions.sgf"))
    options = Options(time_limit=0.5, grace=0.5, hang_on="extra-solutions")
    got: dict[int, Result] = {}
    start = time.monotonic()
    run_pool(tasks, options, 1, lambda t, r: got.__setitem__(t.index, r), chunk=4)
    assert time.monotonic() - start < 8
    assert sorted(got) == [t.index for t in tasks]  # the rest of the chunk was requeued
    assert got[hang.index].cls == "unknown"
    assert "stopped and replaced" in got[hang.index].findings[0]["text"]
    others = {Path(t.file).name: got[t.index].cls for t in tasks if t is not hang}
    assert others == {"agree-right.sgf": "agree", "no-answer.sgf": "no-answer",
                      "no-solution.sgf": "no-solution"}


def test_cache_hit_and_resume(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    first = [str(BOOK / "agree-right.sgf"), str(BOOK / "collection.sgf")]
    code, text = _invoke([*first, "--jobs", "1", "--cache", str(cache)])
    assert code == 1 and "from the cache" not in text
    # a bigger run resumes: the four problems done before come from the cache
    js = tmp_path / "all.jsonl"
    code, text = _invoke([str(BOOK), "--jobs", "2", "--cache", str(cache), "--json", str(js)])
    assert code == 1 and "4 from the cache" in text
    rows = _load(js)
    assert sum(d["cached"] for d in rows) == 4
    assert {_key(d): d["class"] for d in rows} == {k: v[0] for k, v in EXPECTED.items()}
    # everything cached now: a rerun is instant and gives the same report
    start = time.monotonic()
    js2 = tmp_path / "again.jsonl"
    code, text = _invoke([str(BOOK), "--jobs", "2", "--cache", str(cache), "--json", str(js2)])
    assert code == 1 and "19 from the cache" in text
    assert time.monotonic() - start < 2
    assert _comparable(_load(js2)) == _comparable(rows)
    # a cached error names the file it was asked about
    again = {_key(d): d for d in _load(js2)}
    assert again["collection.sgf", 2]["error"].startswith(str(BOOK / "collection.sgf") + "#2")
    # other options are other keys
    code, text = _invoke([str(BOOK / "agree-right.sgf"), "--jobs", "1", "--deep",
                          "--cache", str(cache)])
    assert "from the cache" not in text


# the command, with the worker hanging (as if the search never ended) on the files whose name
# holds argv[1]: a run that stops at a known point, whatever the machine's load
HANGING = ("import functools, sys\n"
           "from tsumego.batch import verify\n"
           "from tsumego.cli import verify as verify_cli\n"
           "verify_cli.Options = functools.partial(verify.Options, hang_on=sys.argv[1])\n"
           "from tsumego.cli.main import main\n"
           "main(sys.argv[2:], prog_name='tsumego')\n")


def _start_hanging(hang_on: str, args: list[str]) -> subprocess.Popen[str]:
    # (SIGINT as a terminal gives it: a run started in the background by a shell, as a CI
    # may be, inherits SIGINT ignored, and so would the command)
    return subprocess.Popen(
        [sys.executable, "-c", HANGING, hang_on, "verify", *args, "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen[str]) -> None:
    """Until ``path`` holds ``n`` whole lines (a generous bound: the start alone can take
    seconds on a loaded machine)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {n} lines")


def _cached(cache: Path) -> int:
    with sqlite3.connect(cache) as db:
        return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def test_ctrl_c_stops_cleanly_and_keeps_what_is_done(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    js = tmp_path / "out.jsonl"
    files = [str(BOOK / "agree-right.sgf"), str(BOOK / "no-answer.sgf"),
             str(BOOK / "extra-solutions.sgf")]
    proc = _start_hanging("extra-solutions", [*files, "--jobs", "1", "--time-limit", "60",
                                              "--cache", str(cache), "--json", str(js)])
    try:
        _wait_for_lines(js, 2, proc)  # the third one hangs until the signal
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (out, err)
    assert "INTERRUPTED" in out and "Traceback" not in err
    rows = _load(js)
    assert [(_key(d), d["class"]) for d in rows] == [(("agree-right.sgf", 0), "agree"),
                                                     (("no-answer.sgf", 0), "no-answer")]
    assert _cached(cache) == 2
    # resume: the finished ones come from the cache
    code, text = _invoke([*files[:2], "--jobs", "1", "--cache", str(cache)])
    assert code == 1 and "2 from the cache" in text


def test_a_killed_run_resumes_with_nothing_lost_or_repeated(
        runs: dict[str, list[dict]], tmp_path: Path) -> None:
    """SIGKILL in the middle of a run (a worker hangs on one problem; every other result is
    in): the results file and the cache hold every finished result; the resumed run takes
    them, runs the rest, and ends with the report of a run that was never stopped."""
    names = ["agree-right.sgf", "no-answer.sgf", "extra-solutions.sgf", "no-solution.sgf",
             "collection.sgf", "broken.sgf"]  # 8 problems (collection.sgf holds 3)
    files = [str(BOOK / n) for n in names]
    cache = tmp_path / "cache.sqlite"
    js = tmp_path / "out.jsonl"
    args = [*files, "--jobs", "2", "--time-limit", "30", "--json", str(js)]
    proc = _start_hanging("extra-solutions", [*args, "--cache", str(cache)])
    try:
        _wait_for_lines(js, 7, proc)
        proc.kill()
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    killed = _load(js)
    assert len(killed) == 7 and len({_key(d) for d in killed}) == 7
    assert ("extra-solutions.sgf", 0) not in {_key(d) for d in killed}
    assert _cached(cache) == 7
    with open(js, "ab") as f:  # and a power cut left half a line behind
        f.write(b'{"file": "' + files[2].encode() + b'", "game": 0, "cla')
    code, text = _invoke([*args, "--resume"])
    assert code == 1, text
    assert "verified 8 of 8 problems" in text and "7 from the earlier run" in text
    resumed = _load(js)
    assert [(Path(d["file"]).name, d["game"]) for d in resumed] == [
        (n, g) for n in names for g in (range(3) if n == "collection.sgf" else [0])]
    whole = {_key(d): d for d in _comparable(runs["jobs2"])}
    assert _comparable(resumed) == [whole[_key(d)] for d in resumed]
    assert _comparable(killed) == [whole[_key(d)] for d in killed]


def test_results_files_are_not_overwritten_unless_asked(tmp_path: Path) -> None:
    js = tmp_path / "out.jsonl"
    html = tmp_path / "out.html"
    one = [str(BOOK / "agree-right.sgf"), "--jobs", "1"]
    code, _ = _invoke([*one, "--json", str(js), "--html", str(html)])
    assert code == 0
    before = js.read_bytes(), html.read_bytes()
    for extra in (["--json", str(js)], ["--html", str(html)]):
        code, text = _invoke([*one, *extra])
        assert code == 2 and "exists" in text and "--force" in text
    assert (js.read_bytes(), html.read_bytes()) == before
    code, text = _invoke([*one, "--resume"])
    assert code == 2 and "--resume needs --json" in text
    # --resume with everything done runs nothing; --force starts afresh
    code, text = _invoke([*one, "--json", str(js), "--html", str(html), "--resume"])
    assert code == 0 and "1 from the earlier run" in text
    assert _comparable(_load(js)) == _comparable([json.loads(before[0])])
    code, text = _invoke([*one, "--json", str(js), "--force"])
    assert code == 0 and "from the earlier run" not in text
    # another time limit is another run: nothing of the earlier one holds
    r = CliRunner().invoke(main, ["verify", *one, "--json", str(js), "--resume",
                                  "--time-limit", "20"])
    assert r.exit_code == 0 and "from the earlier run" not in r.output
    assert "1 of its 1 results are of other files, options or engine code" in r.stderr
    # a report to a folder that does not exist is refused before anything runs
    for opt in ("--json", "--html"):
        code, text = _invoke([*one, opt, str(tmp_path / "nowhere" / "out")])
        assert code == 2 and "no such directory" in text
    # a file that is not a results file is refused, and left as it was
    js.write_text("not json\n{}\n")
    code, text = _invoke([*one, "--json", str(js), "--resume"])
    assert code == 2 and "line 1" in text
    assert js.read_text() == "not json\n{}\n"


def test_verify_problem_never_raises_on_bad_input() -> None:
    for data in (b"", b"(;FF[4]SZ[25]AB[aa]MA[aa])", b"(;SZ[5]AB[aa]AW[bb]MA[zz])",
                 b"(;SZ[5]PL[B]AB[cc][dc][ec]AW[bb]MA[bb](;B[zz]C[RIGHT]))"):
        r = verify_problem(Task(0, "x.sgf", 0, data), Options(time_limit=5))
        assert r.cls in CLASSES
        if r.cls == "error":
            assert r.error and r.error.startswith("x.sgf")


# --- Dask -----------------------------------------------------------------------------------

@pytest.mark.required
def test_dask_local_cluster_gives_the_same_report(runs: dict[str, list[dict]],
                                                  tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        js = tmp_path / "dask.jsonl"
        code, text = _invoke([str(BOOK), "--time-limit", "30", "--dask",
                              cluster.scheduler_address, "--json", str(js)])
    assert code == 1, text
    assert "dask" in text
    assert _comparable(_load(js)) == _comparable(runs["jobs2"])


@pytest.mark.skipif(os.environ.get("TSUMEGO_SLOW_TESTS") is None,
                    reason="set TSUMEGO_SLOW_TESTS=1 to check the tsumego.js collection")
def test_tsumegojs_collection_runs() -> None:  # pragma: no cover - manual
    path = Path(__file__).resolve().parents[3] / "shared" / "data" / "tsumegojs"
    code, _ = _invoke([str(path), "--answers", "first-level", "--time-limit", "10"])
    assert code in (0, 1)


def test_a_changed_engine_misses_the_old_cache(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is keyed by the fingerprint of the code that decides answers: a result kept
    by one engine is not read back by another (here: the fingerprint changed)."""
    import tsumego.batch.cache as cache_module
    from tsumego.fingerprint import engine_fingerprint

    task = collect([BOOK / "agree-right.sgf"])[0]
    options = Options(time_limit=10)
    cache = Cache(tmp_path / "c.sqlite", options)
    cache.put(task, verify_problem(task, options))
    assert cache.get(task) is not None
    assert len(engine_fingerprint()) == 64
    monkeypatch.setattr(cache_module, "engine_fingerprint", lambda: "another engine")
    assert cache.get(task) is None
    cache.close()
