"""tsumego: an exact solver for Go life-and-death problems.

Library API::

    from tsumego import read_problem, solve
    pf = read_problem("problems/straight-three.sgf")
    sol = solve(pf.problem)
    print(sol)            # the answer in words
    sol.best_moves        # (Point('C7', 'ca'),): points that print as GTP and know their SGF
"""

from .board import EMPTY, Board, Color, IllegalMove
from .coords import PASS, Point
from .problem import Problem, ProblemError, make_problem, problem_from_diagram
from .search import SearchOptions
from .sgf import ProblemFile, SgfError, parse_problem, read_problem
from .solver import Solution, solve

__version__ = "0.1.0"

# the colours as the library returns them (equal to the board's integers 1 and 2)
BLACK = Color.BLACK
WHITE = Color.WHITE

__all__ = [
    "BLACK", "WHITE", "EMPTY", "Color", "PASS", "Point", "Board", "IllegalMove", "Problem",
    "ProblemError", "make_problem", "problem_from_diagram", "SearchOptions", "ProblemFile",
    "SgfError", "parse_problem", "read_problem", "Solution", "solve", "__version__",
]
