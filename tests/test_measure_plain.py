"""tools/measure_plain.py end to end on two of Cho Chikun's elementary problems (the shared data;
skipped when absent): it runs, and both agree with the book."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "sanderland-tsumego"


@pytest.mark.skipif(not DATA.is_dir(), reason="the shared problem collections are absent")
def test_two_elementary_problems_agree_with_the_book() -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "tools" / "measure_plain.py"), "--sets", "cho-elementary",
         "--problems", "Prob0001.json,Prob0002.json", "--max-nodes", "20000", "--jobs", "1"],
        capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "cho-elementary: 2 problems; agree 2 (100%)" in proc.stdout, proc.stdout
