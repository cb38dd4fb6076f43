"""The ``tsumego`` command."""

from __future__ import annotations

import json
import sys

import click

from .board import BLACK, WHITE, color_from_name
from .coords import PASS, to_gtp, to_sgf
from .problem import ProblemError
from .sgf import read_problem
from .solver import Solution, solve

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_LIMIT = 3


def _fail(message: str) -> None:
    click.echo(f"tsumego: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def _moves_text(moves: tuple[int, ...] | None, size: int) -> str:
    if moves is None:
        return "(not finished)"
    if not moves:
        return "none"
    return ", ".join("pass" if m == PASS else f"{to_gtp(m, size)} ({to_sgf(m, size)})"
                     for m in moves)


def _balances_text(sol: Solution) -> str:
    if sol.by_threats is None:
        return "(not finished)"
    parts = []
    for k, w in sorted(sol.by_threats.items()):
        parts.append(f"{k:+d}:{'B' if w == BLACK else 'W'}")
    return " ".join(parts)


@click.group()
@click.version_option(package_name="tsumego")
def main() -> None:
    """Exact solver for Go life-and-death problems (tsumego)."""


@main.command("solve")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--to-play", type=click.Choice(["B", "W", "b", "w"]), default=None,
              help="Side to play first (default: the file's PL).")
@click.option("--threats", type=int, default=0, show_default=True,
              help="Ko-threat balance: positive means Black has that many more threats.")
@click.option("--time-limit", type=float, default=None, help="Seconds per side to play.")
@click.option("--max-nodes", type=int, default=None, help="Node budget per side to play.")
@click.option("--tt-size", type=int, default=2_000_000, show_default=True,
              help="Transposition table capacity (entries).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve_cmd(file: str, to_play: str | None, threats: int, time_limit: float | None,
              max_nodes: int | None, tt_size: int, as_json: bool) -> None:
    """Solve a marked problem: who wins, how, and every correct first move."""
    if time_limit is not None and time_limit <= 0:
        _fail("--time-limit must be positive")
    if max_nodes is not None and max_nodes <= 0:
        _fail("--max-nodes must be positive")
    if tt_size < 1024:
        _fail("--tt-size must be at least 1024")
    if abs(threats) > 64:
        _fail("--threats must be within -64..64")
    try:
        pf = read_problem(file)
    except ProblemError as e:
        _fail(str(e))
        return
    problem = pf.problem
    first = problem.to_play if to_play is None else color_from_name(to_play)
    kw = dict(threats=threats, time_limit=time_limit, max_nodes=max_nodes, tt_size=tt_size)
    sol = solve(problem, to_play=first, **kw)  # type: ignore[arg-type]
    if as_json:
        click.echo(json.dumps(sol.to_json(file)))
        sys.exit(EXIT_LIMIT if sol.limit else EXIT_OK)
    size = problem.size
    other = solve(problem, to_play=BLACK if first == WHITE else WHITE, **kw)  # type: ignore[arg-type]
    click.echo(file)
    click.echo(problem.diagram())
    click.echo("  (# @ target, X O stones, . region, - outside the region)")
    side = "Black" if problem.attacker == BLACK else "White"
    click.echo(f"Attacker: {side}; defender: {'White' if side == 'Black' else 'Black'}; "
               f"ko-threat balance {threats:+d}")
    for s in (sol, other):
        click.echo("")
        click.echo(s.describe())
        if s.limit is None:
            click.echo(f"  status: {s.status}; winner by balance: {_balances_text(s)}")
            click.echo(f"  winning first moves: {_moves_text(s.moves, size)}")
            if s.best_threats is not None and s.best_moves != s.moves:
                click.echo(f"  best first moves (win at balance {s.best_threats:+d}): "
                           f"{_moves_text(s.best_moves, size)}")
        click.echo(f"  {s.nodes} nodes, {s.seconds:.3f} s")
    sys.exit(EXIT_LIMIT if sol.limit or other.limit else EXIT_OK)


if __name__ == "__main__":
    main()
