"""Fuzzing the readers: every input gives an answer or the project's own one-line error.

Random and mutated SGF (``tests/fuzzing.py``) go through the SGF readers (sgfmill's, the move
tree tokenizer and its numpy scan), the problem setup and the inference of plain problems
(random boards too), the checker, the verifier, and the command line (``tsumego solve`` and
``tsumego check``); damaged results files go through the reader of ``verify --resume``. A
library call may raise only :class:`~tsumego.io.sgf.SgfError`,
:class:`~tsumego.go.problem.ProblemError`, :class:`~tsumego.proofs.check.CheckError` or
:class:`~tsumego.batch.journal.JournalError`,
with one line of text; the command line exits 2 with one line ``tsumego: error: FILE: ...``
or answers. Searches get a small node budget so that a valid problem answers at once.

The suite runs 300 fixed examples a target (60 and 100 for the slower command line and
verifier: derandomized); a long run draws N fresh ones a target (N / 10 for those two):
``TSUMEGO_FUZZ_EXAMPLES=N python -m pytest tests/io/test_fuzz.py -p no:cacheprovider
--hypothesis-show-statistics``. Inputs that once failed are kept in ``tests/io/fuzz_corpus``
(``test_fuzz_corpus.py``)."""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner
from fuzzing import any_sgf, board_setup, mutated, sgf_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tsumego.batch.journal import JournalError, read_json_lines
from tsumego.batch.verify import CLASSES, Options, Task, resumable, verify_problem
from tsumego.cli.main import main
from tsumego.go.board import Board
from tsumego.go.problem import Problem, ProblemError, make_problem
from tsumego.io.sgf import (
    SgfError,
    _read_tokenized,
    parse_problem,
    read_move_games,
    read_move_tree,
    read_tree,
    split_collection,
)
from tsumego.knowledge.infer import InferenceError, infer_problem, infer_with_overrides
from tsumego.proofs.check import CheckError, check_games, check_tree
from tsumego.search.solver import solve

LONG = int(os.environ.get("TSUMEGO_FUZZ_EXAMPLES", "0"))
# a long run also flags inputs that take over 10 s (a hang in the making); the suite does not
# time anything
FUZZ = settings(
    max_examples=LONG or 300, derandomize=not LONG, database=None,
    deadline=timedelta(seconds=10) if LONG else None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much])
CLI_FUZZ = settings(FUZZ, max_examples=LONG // 10 or 60)
NAME = "fuzz/in.sgf"
STATUSES = {"kill", "live", "seki", "ko", "unknown"}


def _one_line(e: BaseException, name: str | None = NAME) -> str:
    msg = str(e)
    assert msg and "\n" not in msg, repr(msg)
    if name is not None:
        assert msg.startswith(name + ": "), msg
    return msg


def _solve_quickly(problem: Problem) -> None:
    # (the time limit too: one node's exact pass-alive test may try 200,000 positions)
    sol = solve(problem, max_nodes=300, time_limit=2, tt_size=4096, all_moves=False)
    assert sol.status in STATUSES


@FUZZ
@given(any_sgf)
def test_sgf_readers(data: bytes) -> None:
    games = split_collection(data)
    assert all(g[:1] == b"(" and g[-1:] == b")" for g in games)
    try:
        read_tree(data, NAME)
    except SgfError as e:
        _one_line(e)
    try:
        pf = parse_problem(data, NAME)
    except SgfError as e:
        _one_line(e)
    else:
        _solve_quickly(pf.problem)


@FUZZ
@given(st.one_of(mutated(), sgf_text))
def test_move_tree_reader_and_checker(data: bytes) -> None:
    try:
        tree, root = read_move_tree(data, NAME)
    except SgfError as e:
        _one_line(e)
        return
    # what the numpy scan reads, the exact tokenizer reads the same
    pos = data.find(b"(", 3 if data[:3] == b"\xef\xbb\xbf" else 0)
    exact, exact_root = _read_tokenized(data, pos, NAME)
    assert (exact_root, bytes(exact.color), list(exact.point), bytes(exact.marks),
            list(exact.first_child), list(exact.next_sibling)) == (
        root, bytes(tree.color), list(tree.point), bytes(tree.marks), list(tree.first_child),
        list(tree.next_sibling))
    try:
        problem = parse_problem(root, NAME).problem
    except SgfError as e:
        _one_line(e)
        return
    try:
        result = check_tree(problem, tree)
    except CheckError as e:
        _one_line(e, None)
        return
    assert result.proved or result.reason


@FUZZ
@given(st.one_of(mutated(), sgf_text))
def test_whole_claim_checker(data: bytes) -> None:
    """Every game of the file read and its whole claim judged: an answer, or a one-line
    error (naming the game after the first as ``NAME#N``)."""
    try:
        games = read_move_games(data, NAME)
    except SgfError as e:
        assert _one_line(e, None).startswith((NAME + ": ", NAME + "#"))
        return
    try:
        got = check_games(games, NAME)
    except (CheckError, ProblemError) as e:
        _one_line(e, None)
        return
    assert got.proved or got.reason or not got.checks[-1].result.proved
    assert all("\n" not in t for t in (got.reason, got.meaning))


@FUZZ
@given(board_setup(), st.sampled_from([None, "kill", "live"]),
       st.sampled_from(["", "Black to play", "White to live", "Black to kill"]))
def test_problem_setup_and_inference(setup, goal, comment) -> None:  # type: ignore[no-untyped-def]
    size, stones, marked, squares, to_play = setup
    board = Board(size)
    for p, c in stones.items():
        board.place(p, c)
    try:
        problem = make_problem(board, marked, to_play=to_play, squares=squares)
    except ProblemError as e:
        _one_line(e, None)
    else:
        _solve_quickly(problem)
    try:
        problem, _ = infer_problem(board, to_play, comment, goal=goal, squares=squares)
    except InferenceError as e:
        _one_line(e, None)
    else:
        _solve_quickly(problem)


@FUZZ
@given(board_setup(), st.sampled_from([None, "aa", "aa bb", "A19", "zz", "pass", "", "a"]),
       st.sampled_from([None, "aa-cc", "aa:ee", "aa bb cc", "A1-C3", "zz-aa", "", "x-y"]))
def test_overrides(setup, target, region) -> None:  # type: ignore[no-untyped-def]
    size, stones, marked, squares, to_play = setup
    board = Board(size)
    for p, c in stones.items():
        board.place(p, c)
    try:
        problem, _ = infer_with_overrides(board, to_play, "", marked=marked, squares=squares,
                                          target=target, region=region)
    except (ProblemError, ValueError) as e:
        _one_line(e, None)
    else:
        _solve_quickly(problem)


@settings(FUZZ, max_examples=LONG // 10 or 100)
@given(any_sgf, st.booleans(), st.sampled_from(["auto", "right", "comment", "first-level"]))
def test_verify_problem_reports_bad_input_as_an_error(data: bytes, deep: bool,
                                                      answers: str) -> None:
    res = verify_problem(Task(0, NAME, 0, data),
                         Options(answers=answers, deep=deep, time_limit=2, tt_size=4096))
    assert res.cls in CLASSES
    if res.cls == "error":
        assert res.error is not None
        assert "internal error" not in res.error, res.error
        _one_line(Exception(res.error))


def _cli(args: list[str], path: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exc_info
    if r.exit_code == 2:
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"tsumego: error: {path}: "), r.stderr
    else:
        assert r.exit_code in (0, 1, 3), (r.exit_code, r.output)
        assert r.stdout.startswith(path), r.stdout


@CLI_FUZZ
@given(any_sgf)
def test_command_line_solve_and_check(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "in.sgf")
        Path(path).write_bytes(data)
        _cli(["solve", path, "--max-nodes", "300", "--time-limit", "2", "--tt-size", "4096",
              "--quick"], path)
        _cli(["check", path], path)


# a results file as a killed or damaged run may leave it: lines cut, bytes changed
RESULT = (b'{"file": "fuzz/in.sgf", "game": 0, "class": "agree", "to_play": "B", "answers": '
          b'"right", "book_correct": ["ba"], "book_wrong": [], "solver_moves": ["ba"], '
          b'"status": "kill", "best_threats": -2, "refutation": {}, "findings": [], "notes": '
          b'[], "seconds": 0.1, "error": null, "board": null, "cached": false, "key": "k"}\n')


@FUZZ
@given(st.lists(st.sampled_from([RESULT, b"\n", b"{}\n", b"[]\n", b'{"file": 3}\n']),
                max_size=4).map(b"".join),
       st.lists(st.tuples(st.integers(min_value=0, max_value=2000), st.binary(max_size=4)),
                max_size=3))
def test_results_files_read_back(body: bytes, cuts: list[tuple[int, bytes]]) -> None:
    data = bytearray(body)
    for at, piece in cuts:
        data[at:at + len(piece)] = piece
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "out.jsonl"
        path.write_bytes(bytes(data))
        try:
            records = read_json_lines(path)
        except JournalError as e:
            _one_line(e, str(path))
            return
    assert all(isinstance(r, dict) for r in records)
    try:
        got = resumable(records, [Task(0, NAME, 0, b"(;)")], Options())
    except JournalError as e:
        _one_line(e, None)
        return
    assert not got  # no key holds for this task
