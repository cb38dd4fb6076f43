"""tsumego: an exact solver for Go life-and-death problems.

Library API::

    from tsumego import read_problem, solve
    pf = read_problem("problems/straight-three.sgf")
    sol = solve(pf.problem)
    print(sol)            # the answer in words
    sol.best_moves        # (Point('C7', 'ca'),): points that print as GTP and know their SGF
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tsumego")  # the one place it is written: pyproject.toml
except PackageNotFoundError:  # (run from a source tree that was never installed)
    __version__ = "unknown"

from tsumego.go.board import EMPTY, Board, Color, IllegalMove  # noqa: E402
from tsumego.go.coords import PASS, Point  # noqa: E402
from tsumego.go.problem import Problem, ProblemError, make_problem, problem_from_diagram  # noqa: E402
from tsumego.io.sgf import ProblemFile, SgfError, parse_problem, read_problem  # noqa: E402
from tsumego.search.engine import SearchOptions  # noqa: E402
from tsumego.search.solver import Solution, solve  # noqa: E402

# the colours as the library returns them (equal to the board's integers 1 and 2)
BLACK = Color.BLACK
WHITE = Color.WHITE

__all__ = [
    "BLACK", "WHITE", "EMPTY", "Color", "PASS", "Point", "Board", "IllegalMove", "Problem",
    "ProblemError", "make_problem", "problem_from_diagram", "SearchOptions", "ProblemFile",
    "SgfError", "parse_problem", "read_problem", "Solution", "solve", "__version__",
]
