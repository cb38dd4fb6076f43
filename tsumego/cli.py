"""The ``tsumego`` command."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import click

from .board import BLACK, WHITE, color_from_name, color_name
from .coords import PASS, to_gtp, to_sgf
from .infer import crop_diagram
from .problem import ProblemError
from .sgf import parse_problem, read_problem
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
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write the solution tree as annotated SGF to this file.")
@click.option("--tree", "tree_mode", type=click.Choice(["readable", "full", "compact"]),
              default="readable", show_default=True,
              help="readable: key lines and refutations; full: a complete proof; compact: "
                   "the same proof with each repeated position written once (TSREF).")
@click.option("--tree-time-limit", type=float, default=1800.0, show_default=True,
              help="Seconds to build the solution tree (-o).")
@click.option("--tree-max-nodes", type=int, default=10_000_000, show_default=True,
              help="Largest solution tree to write (nodes).")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option("--quick", is_flag=True,
              help="Prove the answer and one correct first move; skip proving or refuting "
                   "every other first move.")
@click.option("--explain", is_flag=True,
              help="Show what was inferred for a plain problem (goal, target, region).")
@click.option("--goal", type=click.Choice(["kill", "live"]), default=None,
              help="Plain problems: the goal of the side to play (overrides the inference).")
@click.option("--target", "target_pts", default=None, metavar="POINTS",
              help="Target stone(s), SGF or GTP points (overrides MA and the inference).")
@click.option("--region", default=None, metavar="POINTS|RECT",
              help="Region: points, or a rectangle such as aa-ff (overrides the framing).")
def solve_cmd(file: str, to_play: str | None, threats: int, time_limit: float | None,
              max_nodes: int | None, tt_size: int, as_json: bool, output: str | None,
              tree_mode: str, tree_time_limit: float, tree_max_nodes: int, force: bool,
              quick: bool, explain: bool, goal: str | None, target_pts: str | None,
              region: str | None) -> None:
    """Solve a problem: who wins, how, and every correct first move. A problem without MA
    (a plain problem) is inferred and framed first (--explain shows how)."""
    if time_limit is not None and time_limit <= 0:
        _fail("--time-limit must be positive")
    if max_nodes is not None and max_nodes <= 0:
        _fail("--max-nodes must be positive")
    if tree_time_limit <= 0:
        _fail("--tree-time-limit must be positive")
    if tree_max_nodes <= 0:
        _fail("--tree-max-nodes must be positive")
    if tt_size < 1024:
        _fail("--tt-size must be at least 1024")
    if abs(threats) > 64:
        _fail("--threats must be within -64..64")
    if output is not None:
        _check_output(file, output, force)
    try:
        if goal is None and target_pts is None and region is None:
            pf = read_problem(file)
        else:
            try:
                data = Path(file).read_bytes()
            except OSError:
                pf = read_problem(file)  # raises the usual error for a missing file
            else:
                pf = parse_problem(data, file, goal=goal, target=target_pts, region=region)
    except ProblemError as e:
        _fail(str(e))
        return
    problem = pf.problem
    first = problem.to_play if to_play is None else color_from_name(to_play)
    kw = dict(threats=threats, time_limit=time_limit, max_nodes=max_nodes, tt_size=tt_size,
              all_moves=not quick)
    sol = solve(problem, to_play=first, **kw)  # type: ignore[arg-type]
    other: Solution | None = None
    if output is not None or not as_json:
        other = solve(problem, to_play=BLACK if first == WHITE else WHITE, **kw)  # type: ignore[arg-type]
    tree_note = ""
    tree_failed = False
    if output is not None and sol.limit is None:
        assert other is not None
        tree_note, tree_failed = _write_tree(file, output, sol, other, tree_mode,
                                             tree_time_limit, tree_max_nodes)
    if as_json:
        obj = sol.to_json(file)
        obj["inferred"] = None if pf.inferred is None else pf.inferred.to_json(problem.size)
        click.echo(json.dumps(obj))
        if tree_failed:
            click.echo(f"tsumego: {tree_note}", err=True)
        sys.exit(EXIT_LIMIT if sol.limit or tree_failed else EXIT_OK)
    assert other is not None
    size = problem.size
    click.echo(file)
    inf = pf.inferred
    if inf is not None and (explain or inf.rule != "marked"):
        if explain:
            click.echo(inf.explain(problem))
        else:
            click.echo(crop_diagram(problem, inf.frame))
            click.echo("  (# @ target, X O stones, x o virtual frame stones, . region, "
                       "- outside the region)")
            click.echo(f"Plain problem: inferred {color_name(inf.to_play)} to {inf.goal} "
                       f"(rule {inf.rule}, confidence {inf.confidence:.2f}; "
                       "--explain says more)")
    else:
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
            if quick:
                best = () if s.best is None else (s.best,)
                click.echo(f"  a correct first move (others not examined: --quick): "
                           f"{_moves_text(best, size)}")
            else:
                click.echo(f"  winning first moves: {_moves_text(s.moves, size)}")
            if not quick and s.best_threats is not None and s.best_moves != s.moves:
                click.echo(f"  best first moves (win at balance {s.best_threats:+d}): "
                           f"{_moves_text(s.best_moves, size)}")
        click.echo(f"  {s.nodes} nodes, {s.seconds:.3f} s")
    if tree_note:
        click.echo("")
        click.echo(tree_note, err=tree_failed)
    sys.exit(EXIT_LIMIT if sol.limit or other.limit or tree_failed else EXIT_OK)


def _check_output(source: str, output: str, force: bool) -> None:
    """Refuse to overwrite anything (the problem file above all) unless asked."""
    out = Path(output)
    if out.exists() and not force:
        _fail(f"{output}: exists; pass --force to overwrite it")
    try:
        same = out.exists() and out.resolve() == Path(source).resolve()
    except OSError:
        same = False
    if same and not force:
        _fail(f"{output}: is the problem file itself; pass --force to overwrite it")


def _write_tree(file: str, output: str, sol: Solution, other: Solution, mode: str,
                time_limit: float, max_nodes: int) -> tuple[str, bool]:
    """Build, annotate and write the solution tree; returns a line for the report and
    whether a limit stopped the tree (then nothing is written)."""
    from . import __version__
    from .export import sgf_text
    from .sgf import read_tree
    from .tree import TreeTooLarge, build_tree

    problem = sol.problem
    balance = sol.threats
    if sol.winner != sol.to_play and sol.best_threats is not None:
        balance = sol.best_threats  # show how the side to play wins with the threats it needs
    try:
        tree = build_tree(problem, to_play=sol.to_play, balance=balance, mode=mode,
                          max_nodes=max_nodes, time_limit=time_limit)
    except TreeTooLarge as e:
        hint = ("; a readable tree (--tree readable) keeps only the best resistance and is "
                "far smaller" if mode != "readable" else "")
        return (f"{file}: no {mode} tree written: {e} (--tree-time-limit, "
                f"--tree-max-nodes){hint}"), True
    try:
        original = read_tree(Path(file).read_bytes(), file)
    except (OSError, ProblemError):
        original = None
    text = sgf_text(tree, original, [sol, other] if sol.to_play == BLACK else [other, sol],
                    __version__)
    # written in pieces to a new file beside the output, then renamed: never a partial file
    part: Path | None = None
    try:
        fd, name = tempfile.mkstemp(dir=Path(output).parent, prefix=".tsumego-",
                                    suffix=".sgf.part")
        part = Path(name)
        with os.fdopen(fd, "wb") as f:  # a buffered file: the pieces go out in blocks
            f.writelines(piece.encode("utf-8") for piece in text)
        umask = os.umask(0)
        os.umask(umask)
        part.chmod(0o666 & ~umask)  # as a plain write would have made it
        part.replace(output)
    except OSError as e:
        if part is not None:
            part.unlink(missing_ok=True)
        _fail(f"{output}: cannot write ({e.strerror or e})")
    size = f"{tree.nodes} nodes"
    if mode == "compact":
        size = f"{tree.stored_nodes} nodes, standing for a full tree of {tree.nodes}"
    return (f"Wrote the {mode} solution tree to {output}: {size}, "
            f"main line {tree.root.plies} moves, balance {tree.balance:+d}."), False


@main.command("export")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), required=True,
              help="The SGF file to write.")
@click.option("--tree", "tree_mode", type=click.Choice(["readable", "full", "compact"]),
              default="readable", show_default=True)
@click.option("--to-play", type=click.Choice(["B", "W", "b", "w"]), default=None)
@click.option("--threats", type=int, default=0, show_default=True)
@click.option("--time-limit", type=float, default=None)
@click.option("--tree-time-limit", type=float, default=1800.0, show_default=True)
@click.option("--tree-max-nodes", type=int, default=10_000_000, show_default=True)
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.pass_context
def export_cmd(ctx: click.Context, file: str, output: str, tree_mode: str,
               to_play: str | None, threats: int, time_limit: float | None,
               tree_time_limit: float, tree_max_nodes: int, force: bool) -> None:
    """Write the solution tree of a problem as annotated SGF (same as solve -o)."""
    ctx.invoke(solve_cmd, file=file, to_play=to_play, threats=threats, time_limit=time_limit,
               max_nodes=None, tt_size=2_000_000, as_json=False, output=output,
               tree_mode=tree_mode, tree_time_limit=tree_time_limit,
               tree_max_nodes=tree_max_nodes, force=force)


@main.command("check")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
def check_cmd(file: str) -> None:
    """Check that a full or compact solution tree proves its stated result (exit 0 proved,
    1 not)."""
    from .check import CheckError, check_tree
    from .sgf import parse_problem, read_move_tree_file

    try:
        tree, root_game = read_move_tree_file(file)
        result = check_tree(parse_problem(root_game, file).problem, tree)
    except (ProblemError, CheckError) as e:
        msg = str(e)
        _fail(msg if msg.startswith(file) else f"{file}: {msg}")
        return
    except OSError as e:
        _fail(f"{file}: cannot read ({e.strerror or e})")
        return
    if result.proved:
        click.echo(f"{file}: proved ({result.nodes} nodes checked)")
        sys.exit(EXIT_OK)
    where = " ".join(result.path) or "(root)"
    click.echo(f"{file}: NOT proved at {where}: {result.reason}")
    sys.exit(1)


from .verify_cli import verify  # noqa: E402
main.add_command(verify)


if __name__ == "__main__":
    main()
