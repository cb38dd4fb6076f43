"""The training run of the profile-guided build (tools/train_core.py): it solves the composed
problems for both sides, and fails where there is nothing to train on, so that setup.py
builds the core without a profile rather than with an empty one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import load_tool

from tsumego.search.compiled import core_build

train_core = load_tool("train_core")
PROBLEMS = Path(__file__).resolve().parents[2] / "problems"


def test_trains_on_both_sides_of_each_problem(tmp_path: Path) -> None:
    shutil.copy(PROBLEMS / "bent-four-corner.sgf", tmp_path)
    (tmp_path / "plain").mkdir()
    shutil.copy(PROBLEMS / "plain" / "bent-three-kill-bl.sgf", tmp_path / "plain")
    sides, nodes = train_core.train(tmp_path)
    assert sides == 4
    assert nodes > 4


def test_nothing_to_train_on_is_an_error(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert train_core.main([str(tmp_path)]) == 1
    assert f"no problems in {tmp_path}" in capsys.readouterr().err
    assert train_core.main([]) == 2
    assert "train_core.py PROBLEMS_DIR" in capsys.readouterr().err


def test_a_bad_file_is_one_line_naming_it(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cut.sgf").write_text("(;FF[4]GM[1]SZ[7]AB[da]")
    assert train_core.main([str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"train_core: error: {tmp_path / 'cut.sgf'}: not an SGF file")


def test_the_core_says_how_it_was_built() -> None:
    """What benchmarks print beside their figures; the instrumented core exists only during
    the build's training run."""
    assert core_build() in ("profile-guided", "plain")


def test_the_composed_problems_train(capsys: pytest.CaptureFixture[str]) -> None:
    assert train_core.main([str(PROBLEMS)]) == 0
    files = len(list(PROBLEMS.rglob("*.sgf")))
    assert f"train_core: {2 * files} sides solved" in capsys.readouterr().out
