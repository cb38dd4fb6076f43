"""The killer play: the play that won the last node proved at the same depth starts with a
smaller initial delta (bounds.killer_delta), so it is searched first at the next node of that
depth. It only orders the search: the answers stay, in both engines, and the two engines
order alike (the same nodes on the composed problems)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tsumego import BLACK, WHITE, read_problem, solve
from tsumego.search.engine import SearchOptions

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"


def test_a_negative_divisor_is_refused() -> None:
    with pytest.raises(ValueError, match="killer"):
        SearchOptions(killer=-1)


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_the_killer_play_keeps_the_answers(engine: str) -> None:
    """Every composed problem, both sides: the same status, winners at every balance and
    winning first moves with the killer play first and without it."""
    for path in sorted(PROBLEMS.glob("*.sgf"))[:12]:
        p = read_problem(path).problem
        for color in (BLACK, WHITE):
            off = solve(p, to_play=color,
                        options=SearchOptions(engine=engine, killer=0))  # type: ignore[arg-type]
            on = solve(p, to_play=color,
                       options=SearchOptions(engine=engine))  # type: ignore[arg-type]
            assert (on.status, on.by_threats, on.moves, on.best_moves) == (
                off.status, off.by_threats, off.moves, off.best_moves), (path.name, color)


def test_both_engines_put_the_killer_play_first_alike() -> None:
    """The compiled core and the reference engine search the same nodes with the killer play
    on, and it changes the work of some problem (so the comparison reads the killer play)."""
    changed = 0
    for path in sorted(PROBLEMS.glob("*.sgf")):
        p = read_problem(path).problem
        for color in (BLACK, WHITE):
            nodes = {}
            for engine in ("compiled", "reference"):
                s = solve(p, to_play=color,
                          options=SearchOptions(engine=engine))  # type: ignore[arg-type]
                nodes[engine] = s.nodes
            assert nodes["compiled"] == nodes["reference"], (path.name, color)
            off = solve(p, to_play=color, options=SearchOptions(killer=0))
            changed += off.nodes != nodes["compiled"]
    assert changed > 0
