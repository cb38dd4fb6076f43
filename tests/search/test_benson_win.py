"""A defender's play that leaves the target pass-alive (Benson's test) is a static win: the
search proves it without a node beneath it, in the game of rules.md and in the live game,
in both engines."""

from __future__ import annotations

from typing import Literal

import pytest

from tsumego import BLACK, WHITE, SearchOptions, problem_from_diagram, solve
from tsumego.go.coords import to_sgf
from tsumego.search.engines import new_engine

Engine = Literal["compiled", "reference"]

# White's straight three on the edge: the play in its middle (B7) makes two eyes at once.
STRAIGHT_THREE = """
    . . . O X . .
    O @ O O X . .
    X X X X X . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("live", [False, True])
def test_the_play_that_makes_two_eyes_wins_without_a_node_beneath_it(engine: Engine,
                                                                     live: bool) -> None:
    p = problem_from_diagram(STRAIGHT_THREE, to_play=WHITE)
    e = new_engine(p, live=live, options=SearchOptions(engine=engine))
    assert e.solve(WHITE, 0) == WHITE
    assert e.nodes == 1  # the root alone: B7 is a static win
    assert e.root_move is not None and to_sgf(e.root_move, p.size) == "ba"
    # the same point kills for Black
    e = new_engine(p, live=live, options=SearchOptions(engine=engine))
    assert e.solve(BLACK, 0) == BLACK


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_both_sides_answers_are_the_straight_threes(engine: Engine) -> None:
    p = problem_from_diagram(STRAIGHT_THREE, to_play=WHITE)
    options = SearchOptions(engine=engine)
    white = solve(p, to_play=WHITE, options=options)
    assert white.status == "live" and [m.sgf for m in white.best_moves] == ["ba"]
    black = solve(p, to_play=BLACK, options=options)
    assert black.status == "kill" and [m.sgf for m in black.best_moves] == ["ba"]
