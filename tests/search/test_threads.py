"""The compiled core lets the process's other threads run while it searches (a progress
display, the GTP reader that interrupts a search), and its searches stay one at a time; an
interrupt (a ``threading.Event``) set from another thread stops a solve."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from tsumego import BLACK, WHITE, SearchOptions, read_problem, solve
from tsumego.errors import BudgetExhausted
from tsumego.search.engines import new_engine

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import scale  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_another_thread_stops_a_search_by_its_deadline() -> None:
    # an open corner of 24 points: far more than the node cap below to solve
    engine = new_engine(scale.scale_problem(24, "open"), max_nodes=3_000_000)

    def interrupt() -> None:
        time.sleep(0.2)
        engine.deadline = 0.0  # at once: the search stops at its next budget check

    t = threading.Thread(target=interrupt)
    t.start()
    with pytest.raises(BudgetExhausted) as e:
        engine.solve(BLACK, 0)
    t.join()
    # without the other thread running during the search, only the node cap would stop it
    assert e.value.kind == "time"
    assert engine.nodes < 3_000_000


def test_searches_in_two_threads_take_turns_and_answer_as_one_thread_does() -> None:
    problem = read_problem(str(ROOT / "problems" / "semeai.sgf")).problem
    big = scale.scale_problem(14, "open")
    alone = {c: new_engine(problem).solve(c, 0) for c in (BLACK, WHITE)}
    alone_big = new_engine(big).solve(BLACK, 0)
    got: dict[str, int] = {}

    def other() -> None:
        got["big"] = new_engine(big).solve(BLACK, 0)

    t = threading.Thread(target=other)
    t.start()
    for c in (BLACK, WHITE):
        got[str(c)] = new_engine(problem).solve(c, 0)
    t.join()
    assert got == {"big": alone_big, str(BLACK): alone[BLACK], str(WHITE): alone[WHITE]}


def test_an_interrupt_set_by_another_thread_stops_solve_with_an_unknown_answer() -> None:
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    sol = solve(scale.scale_problem(24, "open"), to_play=BLACK, max_nodes=3_000_000,
                interrupt=stop)
    timer.join()
    assert (sol.status, sol.limit) == ("unknown", "interrupt")
    assert sol.nodes < 3_000_000


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_an_interrupt_already_set_stops_either_engine_at_once(engine: str) -> None:
    stop = threading.Event()
    stop.set()
    sol = solve(scale.scale_problem(12, "open"), to_play=BLACK, interrupt=stop,
                options=SearchOptions(engine=engine))  # type: ignore[arg-type]
    assert (sol.status, sol.limit, sol.nodes) == ("unknown", "interrupt", 1)
    # and without it the same problem is answered
    assert solve(scale.scale_problem(12, "open"), to_play=BLACK,
                 options=SearchOptions(engine=engine)).limit is None  # type: ignore[arg-type]

