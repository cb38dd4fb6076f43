"""tsumego: an exact solver for Go life-and-death problems.

Library API::

    from tsumego import read_problem, solve
    pf = read_problem("problems/straight-three.sgf")
    sol = solve(pf.problem)
    print(sol.describe())
"""

from .board import BLACK, EMPTY, WHITE, Board, IllegalMove
from .coords import PASS
from .problem import Problem, ProblemError, make_problem, problem_from_diagram
from .search import SearchOptions
from .sgf import ProblemFile, SgfError, parse_problem, read_problem
from .solver import Solution, solve

__version__ = "0.1.0"

__all__ = [
    "BLACK", "WHITE", "EMPTY", "PASS", "Board", "IllegalMove", "Problem", "ProblemError",
    "make_problem", "problem_from_diagram", "SearchOptions", "ProblemFile", "SgfError",
    "parse_problem", "read_problem", "Solution", "solve", "__version__",
]
