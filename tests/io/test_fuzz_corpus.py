"""Hostile inputs kept in ``tests/io/fuzz_corpus`` (those that once failed, and the kinds the
readers are expected to meet): each gets an answer or a one-line error naming the file, from
``tsumego solve``, ``tsumego check`` and the verifier."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner

from tsumego.batch.verify import CLASSES, Options, Task, verify_problem
from tsumego.cli.main import main

CORPUS = Path(__file__).parent / "fuzz_corpus"
FILES = sorted(p for p in CORPUS.iterdir() if p.name.endswith((".sgf", ".sgf.gz")))
# what the error of `tsumego solve` says, for some of them
SAYS = {
    "stone-off-the-board.sgf": "AB[zz] is not a point of the 5x5 board",
    "rectangle-upside-down.sgf": "AW[cc:aa] is not a point of the 5x5 board",
    "move-off-the-board.sgf": "B[zz] is not a point of the 7x7 board",
    "point-value-with-a-newline.sgf": "AB[a\\nb] is not a point of the 5x5 board",
    "board-size-0.sgf": "bad board size SZ[0]",
    "board-size-negative.sgf": "bad board size SZ[-3]",
    "board-size-99999.sgf": "bad board size SZ[99999]",
    "board-size-19-by-5.sgf": "bad board size SZ[19:5]",
    "board-size-20.sgf": "board size 20 is not supported",
    "mark-on-an-empty-point.sgf": "MA[dd] marks an empty point",
    "setup-without-liberties.sgf": "the B block at aa has no liberties",
    "unknown-charset.sgf": "unknown encoding: foo",
}
# and those that are problems the solver answers
ANSWERED = {"comment-of-10mb.sgf", "duplicate-properties.sgf", "not-utf8-bytes.sgf",
            "plain-goal-after-10mb-comment.sgf", "properties-in-wrong-nodes.sgf",
            "side-named-nowhere-in-10mb-comment.sgf", "variations-nested-100000-deep.sgf"}


def _answers_or_one_line(args: list[str], path: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exc_info
    if r.exit_code == 2:
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"tsumego: error: {path}: "), r.stderr
        return 2, lines[0]
    assert r.exit_code in (0, 1, 3) and r.stdout.startswith(path), (r.exit_code, r.output)
    return r.exit_code, r.stdout


@pytest.mark.parametrize("src", FILES, ids=[p.name for p in FILES])
def test_an_answer_or_a_one_line_error_naming_the_file(src: Path, tmp_path: Path) -> None:
    data = gzip.decompress(src.read_bytes()) if src.suffix == ".gz" else src.read_bytes()
    name = src.name.removesuffix(".gz")
    path = tmp_path / name
    path.write_bytes(data)
    code, text = _answers_or_one_line(["solve", str(path), "--max-nodes", "2000", "--quick"],
                                      str(path))
    if name in SAYS:
        assert code == 2 and SAYS[name] in text, text
    assert (code == 0) == (name in ANSWERED), text
    _answers_or_one_line(["check", str(path)], str(path))
    res = verify_problem(Task(0, str(path), 0, data), Options(time_limit=20))
    assert res.cls in CLASSES
    if res.cls == "error":
        assert res.error is not None and res.error.startswith(str(path))
        assert "\n" not in res.error and "internal error" not in res.error, res.error
    else:
        assert name in ANSWERED
