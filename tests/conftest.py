"""Shared helpers: points and masks written the way Go players write them."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sgfmill import boards, sgf, sgf_grammar

from tsumego.go.board import BLACK, WHITE, Board, bits
from tsumego.go.coords import PASS, from_sgf, to_sgf

TOOLS = Path(__file__).resolve().parent.parent / "tools"
PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
# CI sets it: a test marked ``required`` (what the project advertises: the Dask runner, the
# HTML report in a browser) fails instead of skipping when what it needs is missing
REQUIRE_ALL = os.environ.get("TSUMEGO_REQUIRE_ALL", "") not in ("", "0")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[Any]:
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_ALL and report.skipped and item.get_closest_marker("required") is not None:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = (f"skipped, but TSUMEGO_REQUIRE_ALL is set and this test is "
                           f"required: {reason}")


@pytest.fixture(scope="session")
def export(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``export(name, mode, *extra)``: the path of ``problems/name`` written by ``tsumego
    solve -o --tree mode`` with the extra options, once per session (the tree tests and the
    checker's share the files)."""
    from click.testing import CliRunner

    from tsumego.cli.main import main

    out_dir = tmp_path_factory.getbasetemp() / "tree-exports"
    out_dir.mkdir(exist_ok=True)

    def _export(name: str, mode: str, *extra: str) -> Path:
        tag = "".join(f"-{x.strip('-')}" for x in extra)
        out = out_dir / f"{Path(name).stem}-{mode}{tag}.sgf"
        if not out.exists():
            part = out.with_suffix(".part")
            r = CliRunner().invoke(main, ["solve", str(PROBLEMS / name), "-o", str(part),
                                          "--tree", mode, "--force", *extra],
                                   catch_exceptions=False)
            assert r.exit_code == 0, r.output
            assert f"Wrote the {mode} solution tree to {part}" in r.stdout
            part.rename(out)
        return out

    return _export


def load_tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py`` as module ``name`` (the tools are scripts, not a package:
    run as one, a tool finds its sibling tools beside it, as Python puts a script's folder
    first on the path)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def pt(s: str, size: int) -> int:
    """Board index of an SGF point (``"aa"`` is the top-left corner)."""
    return from_sgf(s, size)


def pts(text: str, size: int) -> int:
    """Mask of space-separated SGF points, e.g. ``pts("aa ba", 5)``."""
    m = 0
    for s in text.split():
        m |= 1 << from_sgf(s, size)
    return m


def place(diagram: str, corner: str = "tl", size: int = 19) -> Board:
    """The diagram (``X`` Black, ``O`` White, ``.`` empty) in a corner of an empty board
    (``tl``, ``tr``, ``bl``, ``br``)."""
    rows = [r.split() for r in diagram.strip().splitlines()]
    b = Board(size)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            xx = size - 1 - x if corner in ("tr", "br") else x
            yy = size - 1 - y if corner in ("bl", "br") else y
            b.place(yy * size + xx, BLACK if ch == "X" else WHITE)
    return b


def plain_sgf(diagram: str, to_play: str, comment: str = "", right: Sequence[str] = ()) -> str:
    """A plain problem file of ``diagram`` in the top left corner of a 19x19 board: no MA,
    the comment (if any), the book's right moves (comment ``RIGHT``)."""
    b = place(diagram)
    stones = "".join(f"{prop}{''.join(f'[{to_sgf(p, 19)}]' for p in bits(mask))}"
                     for prop, mask in (("AB", b.black), ("AW", b.white)))
    lines = "".join(f"(;{to_play}[{m}]C[RIGHT])" for m in right)
    said = f"C[{comment}]" if comment else ""
    return f"(;FF[4]GM[1]SZ[19]PL[{to_play}]{said}{stones}{lines})"


def sgf_set(mask: int, size: int) -> set[str]:
    """The SGF points of ``mask``, for readable assertion failures."""
    return {to_sgf(p, size) for p in bits(mask)}


def sgf_moves(moves: tuple[int, ...] | None, size: int) -> set[str] | None:
    """Moves (indices or PASS) as SGF strings (``"pass"`` for a pass)."""
    if moves is None:
        return None
    return {"pass" if m == PASS else to_sgf(m, size) for m in moves}


def diagram_mask(text: str, chars: str) -> int:
    """Mask of the points of a square diagram whose character is one of ``chars``
    (spaces between columns are ignored)."""
    lines = [ln.replace(" ", "") for ln in text.strip().splitlines() if ln.strip()]
    size = len(lines)
    assert all(len(ln) == size for ln in lines), "diagram is not square"
    m = 0
    for y, ln in enumerate(lines):
        for x, ch in enumerate(ln):
            if ch in chars:
                m |= 1 << (y * size + x)
    return m


@pytest.fixture
def write_sgf(tmp_path):
    """Write SGF text (or bytes) to a file in ``tmp_path`` and return its path as a str."""

    def _write(content: str | bytes, name: str = "problem.sgf") -> str:
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        return str(path)

    return _write


def replay_with_sgfmill(data: bytes) -> tuple[int, int, list[str]]:
    """Every line of every game of a file (a full tree's file may hold the further proofs its
    status needs as further games) replayed from its root's setup with sgfmill's board alone:
    the games, the moves played, and each play on an occupied point or that takes its own last
    liberty."""
    games = [sgf.Sgf_game.from_coarse_game_tree(g)
             for g in sgf_grammar.parse_sgf_collection(data)]
    played, bad = 0, []
    for game in games:
        root = game.get_root()
        board = boards.Board(game.get_size())
        assert board.apply_setup(*root.get_setup_stones())
        stack = [(child, board) for child in root]
        while stack:
            node, before = stack.pop()
            color, move = node.get_move()
            after = before
            if move is not None:
                played += 1
                after = before.copy()
                row, col = move
                if after.get(row, col) is not None:
                    bad.append(f"{color} {move}: occupied")
                    continue
                after.play(row, col, color)
                if after.get(row, col) is None:
                    bad.append(f"{color} {move}: suicide")
                    continue
            stack.extend((child, after) for child in node)
    return len(games), played, bad
