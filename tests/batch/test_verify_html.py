"""The HTML report of ``tsumego verify``: self-contained, a board per problem, filterable by
class; rendered in headless Chromium when it is installed."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from tsumego.batch.report import board_svg, html_page
from tsumego.batch.verify import Options, Task, collect, verify_problem

BOOK = Path(__file__).resolve().parents[1] / "verify_data" / "book"


@pytest.fixture(scope="module")
def results():
    tasks = collect([BOOK])
    return [verify_problem(t, Options(time_limit=30)) for t in tasks]


@pytest.fixture(scope="module")
def page(results) -> str:
    return html_page(results, title="composed collection", meta="test")


def test_page_is_self_contained_with_a_board_per_problem(results, page: str) -> None:
    # nothing is loaded from elsewhere: no external scripts, styles, images or fonts
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page
    boards = page.count('<svg class="board"')
    with_board = sum(1 for r in results if r.board)
    assert boards == with_board == len(results) - 3  # three problems are broken files
    assert page.count('class="card"') == len(results)
    for cls in {r.cls for r in results}:
        assert f'value="{cls}"' in page  # a filter box for each class present
    assert 'value="agree"> agree' in page  # agree starts unchecked (findings first)


def test_board_marks_book_and_solver_moves(results) -> None:
    r = next(r for r in results if r.file.endswith("book-move-fails.sgf"))
    svg = board_svg(r, cell=20)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert 'stroke="#1a9641"' in svg  # the book's correct move (green ring)
    assert 'fill="#2b83ba"' in svg  # the solver's move (blue dot)
    assert 'stroke="#f16913"' in svg  # the refutation (orange square)
    assert svg.count("<circle") >= 15  # 15 stones plus the marks
    wrong = next(r for r in results if r.file.endswith("wrong-line-works.sgf"))
    assert 'stroke="#d7191c"' in board_svg(wrong)  # the book's wrong move (red cross)


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run_chromium(exe: str, profile: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", *args],
        capture_output=True, timeout=90)


@pytest.mark.required
@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed")
def test_page_renders_and_filters_in_headless_chromium(page: str, results,
                                                       tmp_path: Path) -> None:
    exe = _chromium()
    assert exe is not None
    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    # the filter script runs: with #only=book-move-fails only those cards stay visible
    dom = _run_chromium(exe, tmp_path / "p1", "--dump-dom",
                        html.as_uri() + "#only=book-move-fails").stdout.decode()
    cards = re.findall(r'<div class="card" data-cls="([a-z-]+)"( hidden="")?', dom)
    assert len(cards) == len(results)
    visible = [c for c, hidden in cards if not hidden]
    assert visible and set(visible) == {"book-move-fails"}
    assert f'<span id="shown">{len(visible)}</span>' in dom
    # and it draws: a screenshot of the page (to look at one: tests/verify_data/README.md)
    shot = tmp_path / "report.png"
    _run_chromium(exe, tmp_path / "p2", "--window-size=1280,1600", f"--screenshot={shot}",
                  html.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 1600)
    assert len(data) > 50_000  # boards and text, not a blank page


def test_frame_stones_are_drawn_dimmed_and_the_legend_says_what_they_are() -> None:
    """A plain problem's board: its frame stones (not in the book) dimmed and dashed, the
    book's stones as they are; the legend names the frame stone. (Black to kill: in the
    frame every move kills, where the book's is the only one.)"""
    data = (b"(;FF[4]GM[1]SZ[19]PL[B]C[Black to play and kill]"
            b"AB[la][lb][ac][bc][cc][dc][ec][fc][gc][hc][ic][jc][kc][lc]AW[ab][bb][cb][db]"
            b"(;B[eb]C[RIGHT]))")
    r = verify_problem(Task(0, "room.sgf", 0, data), Options(time_limit=30))
    assert r.board is not None and r.board["frame"] == ["ha", "hb"]
    svg = board_svg(r)
    assert svg.count('class="frame"') == 2
    stones = len(r.board["black"]) + len(r.board["white"])
    assert svg.count('stroke-dasharray="3,2"') == 2
    assert svg.count("<circle") >= stones
    page = html_page([r], title="t", meta="test")
    assert "frame stone: added around a plain problem, not in the book" in page
    assert 'value="frame-sensitive"' in page
