"""The attacker's null move (threats of order 1): a defender's play that would leave the target
pass-alive at once refutes, without search, every attacker move after which it still does.
It only saves work: the answers are those of the search without it, and of the brute force
(``test_property.py`` runs the random positions with it on, and off)."""

from __future__ import annotations

from typing import Literal

import pytest
from positions import case

from tsumego import BLACK, WHITE, problem_from_diagram, solve
from tsumego.search.engine import SearchOptions

EngineName = Literal["compiled", "reference"]

# White's group on the top edge around a rectangle of eight points; Black's wall below it and
# open space beyond. Black to play gets a seki at best; White to play lives. Every Black play
# that misses the vital points is answered by a White play that makes two Benson eyes.
EIGHT = """
    . . . . @ X . . .
    . . . . @ X . . .
    @ @ @ @ @ X . . .
    X X X X X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_the_null_move_saves_work_and_changes_no_answer(engine: EngineName) -> None:
    problem = problem_from_diagram(EIGHT)
    # the learned shape patterns off in both, so that the work compared is the null move's
    on = SearchOptions(engine=engine, patterns=0)
    off = SearchOptions(engine=engine, threats=False, patterns=0)
    black = solve(problem, to_play=BLACK, options=on)
    assert (black.status, black.best_moves) == ("seki", ())
    white = solve(problem, to_play=WHITE, options=on)
    assert white.status == "live"
    assert "ba" in [p.sgf for p in white.best_moves]
    for side, a in ((BLACK, black), (WHITE, white)):
        b = solve(problem, to_play=side, options=off)
        assert (a.status, a.best_moves, a.by_threats) == (b.status, b.best_moves, b.by_threats)
        assert a.nodes * 2 < b.nodes


def test_the_null_move_fires_on_the_brute_force_positions() -> None:
    """The random positions the brute force checks (test_property.py) exercise the rule: on
    several of them the search with it reads fewer nodes, with the same answers."""
    fewer = 0
    for i in range(0, 60, 3):
        c = case(i)
        for side in (BLACK, WHITE):
            a = solve(c.problem, to_play=side, options=SearchOptions())
            b = solve(c.problem, to_play=side, options=SearchOptions(threats=False))
            assert (a.status, a.by_threats, a.best_moves) == (b.status, b.by_threats,
                                                              b.best_moves)
            fewer += a.nodes < b.nodes
    assert fewer >= 3
