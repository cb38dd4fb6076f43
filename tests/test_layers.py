"""The house's one-way doors: each layer imports only the layers below it. The core (the
rules, the knowledge, the search) never imports its satellites (SGF reading, proofs, batch
runs, the command line), and only tsumego.io.sgf talks to sgfmill."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tsumego"
# each layer and the layers it may import (besides itself and tsumego.errors)
ALLOWED = {
    "go": set(),
    "knowledge": {"go"},
    "search": {"go", "knowledge"},
    "io": {"go", "knowledge"},
    "proofs": {"go", "knowledge", "search", "io"},
    "batch": {"go", "knowledge", "search", "io"},
    "cli": {"go", "knowledge", "search", "io", "proofs", "batch"},
}


def _imports(path: Path) -> list[str]:
    """The modules a file imports (absolute names)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    wrong = []
    for path in sorted((PACKAGE / layer).glob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] != "tsumego" or len(parts) < 2:
                continue
            other = parts[1]
            if other in ALLOWED and other != layer and other not in ALLOWED[layer]:
                wrong.append(f"{path.name} imports {name}")
    assert not wrong, wrong


def test_only_the_sgf_module_talks_to_sgfmill() -> None:
    users = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
                   if any(n.split(".")[0] == "sgfmill" for n in _imports(p)))
    assert users == ["io/sgf.py"]


def test_the_checker_borrows_nothing_from_the_solver() -> None:
    """tsumego check judges the solver's proofs, so it plays with its own board
    (proofs/stones.py) and imports neither the search, the knowledge, the tree builder nor
    the solver's board: only colours and coordinates, the problem's data and SGF reading."""
    allowed = {"tsumego.answer", "tsumego.errors", "tsumego.go.coords", "tsumego.go.problem",
               "tsumego.io.sgf", "tsumego.io.sgfscan", "tsumego.proofs.stones"}
    for name in ("check.py", "stones.py"):
        tree = ast.parse((PACKAGE / "proofs" / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tsumego"):
                if node.module == "tsumego.go.board":  # the colours only
                    assert {a.name for a in node.names} <= {"BLACK", "WHITE",
                                                            "color_from_name"}, name
                else:
                    assert node.module in allowed, (name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("tsumego") for a in node.names), name
