"""The search: df-pn over the game of rules.md (the reference engine in Python and the
compiled core behind one interface), and the solver that asks it every question of a
problem."""

from tsumego.search.engine import Engine, SearchOptions, Verdict
from tsumego.search.engines import SearchEngine, new_engine
from tsumego.search.solver import K, Solution, Status, solve

__all__ = ["Engine", "SearchOptions", "Verdict", "SearchEngine", "new_engine", "K",
           "Solution", "Status", "solve"]
