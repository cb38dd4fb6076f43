"""The ``tsumego`` command."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import click

from tsumego.cli.diagram import problem_diagram
from tsumego.cli.util import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    exit_codes_text,
    fail,
    plural,
    progress,
    show_progress,
)
from tsumego.errors import BudgetExhausted
from tsumego.go.board import BLACK, color_from_name, opponent
from tsumego.go.coords import Point
from tsumego.go.problem import Problem, ProblemError
from tsumego.io.sgf import (
    ProblemFile,
    TooOpenFile,
    parse_problem,
    read_sgf_bytes,
    split_collection,
)
from tsumego.search.reading import (
    OPEN_NODES,
    fails_everywhere,
    limit_note,
    open_note,
    read_again,
    read_tighter,
    reading_note,
    stopped_by_limit,
)
from tsumego.search.solver import K, Solution, solve

if TYPE_CHECKING:
    from tsumego.io.sgf import SgfNode
    from tsumego.knowledge.infer import Inference
    from tsumego.proofs.tree import SolutionTree, TreeMode

__all__ = ["main", "EXIT_OK", "EXIT_BAD_INPUT", "EXIT_LIMIT", "EXIT_FINDINGS"]


def _side(color: int) -> str:
    return "Black" if color == BLACK else "White"


def _moves_text(moves: tuple[Point, ...] | None) -> str:
    if moves is None:
        return "(not finished)"
    if not moves:
        return "none"
    return ", ".join("pass" if m.is_pass else f"{m.gtp} ({m.sgf})" for m in moves)


def _balances_text(sol: Solution) -> str:
    if sol.by_threats is None:
        return "(not finished)"
    return " ".join(f"{k:+d}:{'B' if w == BLACK else 'W'}" for k, w in
                    sorted(sol.by_threats.items()))


@click.group()
@click.version_option(package_name="tsumego")
def main() -> None:
    """Exact solver for Go life-and-death problems (tsumego)."""


def _load(file: str, game: int | None, goal: str | None, target: str | None,
          region: str | None) -> tuple[ProblemFile, bytes, TooOpenFile | None]:
    """The problem of ``file`` (of its game ``game`` in a collection), that game's bytes, and
    the refusal of a plain problem too open to solve as inferred (then the problem is that
    reading, for :func:`_read_again`); a one-line error and exit 2 for bad input, a one-line
    notice when other games of a collection are skipped."""
    try:
        data = read_sgf_bytes(file)
    except ProblemError as e:
        fail(str(e))
    games = split_collection(data)
    name = file
    if len(games) > 1:
        n = 0 if game is None else game
        if not 0 <= n < len(games):
            fail(f"{file}: --game {n}: the file holds {len(games)} games, numbered 0 to "
                 f"{len(games) - 1}")
        if game is None:
            click.echo(f"tsumego: {file} holds {len(games)} games: this is the first, "
                       f"{file}#0 (--game N picks another, 0 to {len(games) - 1})", err=True)
        data = games[n]
        name = f"{file}#{n}"
    elif game is not None and game != 0:
        fail(f"{file}: --game {game}: the file holds one game (--game 0)")
    try:
        return parse_problem(data, name, goal=goal, target=target, region=region), data, None
    except TooOpenFile as e:
        return e.file, data, e
    except ProblemError as e:
        fail(str(e))


@main.command("solve", epilog=exit_codes_text("solve"))
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--to-play", type=click.Choice(["B", "W", "b", "w"]), default=None,
              help="Solve with this side to play, and only this side (default: both sides, "
                   "the file's PL first; with --json, the file's PL only).")
@click.option("--both", is_flag=True,
              help="Solve both sides to play, --to-play's first (the default of the text "
                   "output without --to-play).")
@click.option("--game", type=int, default=None, metavar="N",
              help="In a file holding several games: solve game N, numbered from 0 as "
                   "verify names them (FILE#N). Default: the first, with a notice.")
@click.option("--threats", type=int, default=0, show_default=True,
              help="Ko-threat balance, -2 to 2: positive means Black has that many more "
                   "threats.")
@click.option("--time-limit", type=float, default=None,
              help="Seconds for each side solved (default: no limit).")
@click.option("--max-nodes", type=int, default=None,
              help="Nodes for each side solved (default: no limit).")
@click.option("--tt-size", type=int, default=2_000_000, show_default=True,
              help="Transposition table capacity (entries).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (a line) per side solved instead of text.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write the solution tree of the first side solved as annotated SGF.")
@click.option("--tree", "tree_mode", type=click.Choice(["readable", "full", "compact"]),
              default="readable", show_default=True,
              help="With -o. readable: key lines and refutations; full: a complete proof; "
                   "compact: the same proof with each repeated position written once "
                   "(TSREF).")
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
@click.option("--progress/--no-progress", "show", default=None,
              help="Show a spinner with the time spent on each search and tree on stderr "
                   "(default: when stderr is a terminal).")
def solve_cmd(file: str, to_play: str | None, both: bool, game: int | None, threats: int,
              time_limit: float | None, max_nodes: int | None, tt_size: int, as_json: bool,
              output: str | None, tree_mode: TreeMode, tree_time_limit: float,
              tree_max_nodes: int, force: bool, quick: bool, explain: bool, goal: str | None,
              target_pts: str | None, region: str | None, show: bool | None) -> None:
    """Solve a problem: who wins, how, and every correct first move. A problem without MA
    (a plain problem) is inferred and framed first (--explain shows how)."""
    if time_limit is not None and time_limit <= 0:
        fail("--time-limit must be positive")
    if max_nodes is not None and max_nodes <= 0:
        fail("--max-nodes must be positive")
    if tree_time_limit <= 0:
        fail("--tree-time-limit must be positive")
    if tree_max_nodes <= 0:
        fail("--tree-max-nodes must be positive")
    if tt_size < 1024:
        fail("--tt-size must be at least 1024")
    if abs(threats) > K:
        fail(f"--threats must be within -{K}..{K}: the ko-threat balances the rules define "
             f"(docs/rules.md)")
    if output is not None:
        _check_output(file, output, force)
    pf, data, too_open = _load(file, game, goal, target_pts, region)
    shown = show_progress(show)
    if too_open is not None:
        opened = _read_again(pf, threats, time_limit, max_nodes, tt_size, shown, as_json,
                             too_open=too_open)
        if opened is None:
            fail(str(too_open))
        pf = opened
    problem = pf.problem
    first = problem.to_play if to_play is None else color_from_name(to_play)
    sides = [first, opponent(first)] if both or (to_play is None and not as_json) else [first]
    if not as_json:
        _header(pf, sides, threats, explain, to_play is not None and not both)
    limit = "" if time_limit is None else f" (limit {time_limit:g} s)"

    def solve_side(color: int) -> Solution:
        """The answer for ``color`` to play on the current problem, reported as it comes."""
        with progress(f"solving {_side(color)} to play{limit}", shown):
            sol = solve(problem, to_play=color, threats=threats, time_limit=time_limit,
                        max_nodes=max_nodes, tt_size=tt_size, all_moves=not quick)
        if not as_json:
            _report(sol, quick)
        return sol

    sols = [solve_side(first)]
    first_stopped = stopped_by_limit(sols[0])
    if (first == problem.to_play and pf.inferred is not None and goal is None
            and target_pts is None and region is None
            and (first_stopped or fails_everywhere(sols[0]))):
        again = _read_again(pf, threats, time_limit, max_nodes, tt_size, shown, as_json,
                            stopped=sols[0] if first_stopped else None)
        if again is not None:  # the sides again, on the problem of the new reading
            pf, problem = again, again.problem
            if not as_json:
                _header(pf, sides, threats, explain, to_play is not None and not both)
            sols = [solve_side(first)]
    sols += [solve_side(color) for color in sides[1:]]
    tree_note = ""
    tree_failed = False
    if output is not None and sols[0].limit is None:
        tree_note, tree_failed = _write_tree(pf, data, output, sols, tree_mode,
                                             tree_time_limit, tree_max_nodes, shown)
    stopped = any(s.limit for s in sols) or tree_failed
    if as_json:
        for s in sols:
            click.echo(json.dumps(s.to_json(pf.path, pf.inferred)))
        if tree_failed:
            click.echo(f"tsumego: {tree_note}", err=True)
    elif tree_note:
        click.echo("")
        click.echo(tree_note, err=tree_failed)
    sys.exit(EXIT_LIMIT if stopped else EXIT_OK)


def _read_again(pf: ProblemFile, threats: int, time_limit: float | None,
                max_nodes: int | None, tt_size: int, shown: bool, as_json: bool, *,
                too_open: TooOpenFile | None = None,
                stopped: Solution | None = None) -> ProblemFile | None:
    """The problem file read again where the inferred reading has no solution for the side
    to play (the solver proved it), is too open to solve (``too_open``, its refusal), or
    was stopped by the time or node limit (``stopped``, its answer): the first other reading
    in which it wins at some balance (:mod:`tsumego.search.reading`) that poses a problem,
    its note added to what was inferred; None if none does. The notice goes to the output,
    as the answer it explains (with ``as_json``, only into the notes of ``"inferred"``)."""
    inferred = pf.inferred
    assert inferred is not None
    why = ("is too open" if too_open is not None else "was stopped by a limit"
           if stopped is not None else "has no solution")

    nodes = max_nodes
    if time_limit is None and max_nodes is None:
        nodes = OPEN_NODES  # searches the user did not ask for, before the first answer

    def solve_one(problem: Problem, color: int) -> Solution:
        return solve(problem, to_play=color, threats=threats, time_limit=time_limit,
                     max_nodes=nodes, tt_size=tt_size, all_moves=False)

    with progress(f"the first reading {why}: reading again", shown):
        if stopped is not None:
            r = read_tighter(pf.problem, inferred, pf.comment, solve_one, name=pf.path)
        else:
            r = read_again(pf.problem, inferred, pf.comment, solve_one, name=pf.path,
                           too_open=too_open is not None)
    if r is None:
        return None
    if stopped is not None:
        note = limit_note(inferred, stopped, r)
    elif too_open is not None:
        note = open_note(inferred, too_open.empty, r)
    else:
        note = reading_note(inferred, r)
    if not as_json:
        click.echo("")
        click.echo(f"Read again: {note}.")
        click.echo("")
    return dataclasses.replace(pf, problem=r.problem, inferred=r.answered_for(inferred, note),
                               frame=r.inferred.frame)


def _header(pf: ProblemFile, sides: list[int], threats: int, explain: bool,
            one_asked: bool) -> None:
    """The problem, before the answers: the file, the diagram, the roles, the sides."""
    problem = pf.problem
    click.echo(pf.path)
    inf = pf.inferred
    if inf is not None and explain:
        click.echo(inf.explain(problem))
        click.echo(problem_diagram(problem, pf.frame))
    else:
        click.echo(problem_diagram(problem, pf.frame))
        if inf is not None and inf.rule != "marked":
            click.echo(f"Plain problem: inferred {_side(inf.to_play)} to {inf.goal} "
                       f"(rule {inf.rule}, confidence {inf.confidence:.2f}; "
                       "--explain says more)")
            if inf.frame_sensitive:
                click.echo(f"The frame may decide the result: {inf.frame_sensitive}")
    click.echo(f"Attacker: {_side(problem.attacker)}; defender: {_side(problem.defender)}; "
               f"ko-threat balance {threats:+d}")
    if len(sides) == 2:
        click.echo(f"Sides solved: {_side(sides[0])} to play, then {_side(sides[1])} to play "
                   "(the limits apply to each)")
    else:
        why = "as asked" if one_asked else "the side to play"
        click.echo(f"Sides solved: {_side(sides[0])} to play only ({why}; --both solves "
                   f"{_side(opponent(sides[0]))} to play too)")


def _report(s: Solution, quick: bool) -> None:
    """The answer for one side to play."""
    click.echo("")
    click.echo(s.describe())
    if s.limit is None:
        click.echo(f"  status: {s.status}; winner by balance: {_balances_text(s)}")
        if quick:
            best = () if s.best is None else (s.best,)
            click.echo(f"  a correct first move (others not examined: --quick): "
                       f"{_moves_text(best)}")
        else:
            click.echo(f"  winning first moves: {_moves_text(s.moves)}")
        if not quick and s.best_threats is not None and s.best_moves != s.moves:
            click.echo(f"  best first moves (win at balance {s.best_threats:+d}): "
                       f"{_moves_text(s.best_moves)}")
    click.echo(f"  {plural(s.nodes, 'node')}, {s.seconds:.3f} s")


def _check_output(source: str, output: str, force: bool) -> None:
    """Refuse to overwrite anything (the problem file above all) unless asked."""
    out = Path(output)
    if out.exists() and not force:
        fail(f"{output}: exists; pass --force to overwrite it")
    try:
        same = out.exists() and out.resolve() == Path(source).resolve()
    except OSError:
        same = False
    if same and not force:
        fail(f"{output}: is the problem file itself; pass --force to overwrite it")


def _write_tree(pf: ProblemFile, data: bytes, output: str, sols: list[Solution],
                mode: TreeMode, time_limit: float, max_nodes: int,
                shown: bool) -> tuple[str, bool]:
    """Build, annotate and write the solution tree of ``sols[0]`` (``data``: the problem's
    SGF, whose markup the tree keeps; its setup is the board solved, frame included), and for
    a full or compact tree the proofs its status needs beyond it (:func:`_status_proofs`), as
    further games of the file; returns a line for the report and whether a limit stopped a
    tree (then nothing is written). ``time_limit`` is for all the trees."""
    name = pf.path
    from tsumego import __version__
    from tsumego.io.sgf import read_tree
    from tsumego.proofs.export import sgf_text
    from tsumego.proofs.tree import build_tree

    sol = sols[0]
    problem = sol.problem
    balance = sol.threats
    if sol.winner != sol.to_play and sol.best_threats is not None:
        balance = sol.best_threats  # show how the side to play wins with the threats it needs
    deadline = time.monotonic() + time_limit
    hint = ("; a readable tree (--tree readable) keeps only the best resistance and is far "
            "smaller" if mode != "readable" else "")
    try:
        original = read_tree(data, name)
    except ProblemError:
        original = None
    ordered = sorted(sols, key=lambda s: s.to_play)  # Black's sentence first
    # written in pieces to a new file beside the output, then renamed: never a partial file
    part: Path | None = None
    try:
        with progress(f"building the {mode} tree of {_side(sol.to_play)} to play (limits "
                      f"{time_limit:g} s, {max_nodes:,} nodes)", shown):
            tree = build_tree(problem, to_play=sol.to_play, balance=balance, mode=mode,
                              max_nodes=max_nodes, time_limit=time_limit)
        fd, tmp = tempfile.mkstemp(dir=Path(output).parent, prefix=".tsumego-",
                                   suffix=".sgf.part")
        part = Path(tmp)
        with os.fdopen(fd, "wb") as f:  # a buffered file: the pieces go out in blocks
            with progress(f"writing {output}", shown):
                f.writelines(piece.encode("utf-8")
                             for piece in sgf_text(tree, original, ordered, __version__,
                                                   inferred=pf.inferred))
            more = ""
            if mode != "readable":
                f.flush()
                more = _status_proofs(f, part, sol, tree, original, ordered, deadline,
                                      max_nodes, shown, pf.inferred)
        umask = os.umask(0)
        os.umask(umask)
        part.chmod(0o666 & ~umask)  # as a plain write would have made it
        part.replace(output)
    except BudgetExhausted as e:
        if part is not None:
            part.unlink(missing_ok=True)
        return (f"{name}: no {mode} tree written: {e} (--tree-time-limit, "
                f"--tree-max-nodes){hint}"), True
    except OSError as e:
        if part is not None:
            part.unlink(missing_ok=True)
        fail(f"{output}: cannot write ({e.strerror or e})")
    size = plural(tree.nodes, "node")
    if mode == "compact":
        size = f"{plural(tree.stored_nodes, 'node')}, standing for a full tree of {tree.nodes:,}"
    return (f"Wrote the {mode} solution tree to {output}: {size}, "
            f"main line {plural(tree.root.plies, 'move')}, balance {tree.balance:+d}{more}."), \
        False


def _status_proofs(f: BinaryIO, part: Path, sol: Solution, tree: SolutionTree,
                   original: SgfNode | None, ordered: list[Solution], deadline: float,
                   max_nodes: int, shown: bool, inferred: Inference | None = None) -> str:
    """Append to ``f`` (the file ``part``, which holds the proof tree ``tree`` of ``sol``) a
    game for each fact its status needs that the tree does not prove (the checker's own
    check of the tree says which): a full or compact tree of the same side to play, the
    winner of the fact, at its balance, in its game (a ko's other winner at the balance
    nearest the tree's), each with the setup and the frame (``inferred``) of the first.
    Returns what was added, for the report; raises
    :class:`BudgetExhausted` past ``deadline`` or ``max_nodes``."""
    from tsumego import __version__
    from tsumego.io.sgf import read_move_tree_file
    from tsumego.proofs.check import (
        PASS_ALIVE,
        CheckError,
        Fact,
        check_tree,
        missing,
        tree_problem,
        win_words,
    )
    from tsumego.proofs.export import sgf_text
    from tsumego.proofs.tree import build_tree

    problem = sol.problem
    status = sol.status
    to_play = sol.to_play
    need = missing(status, [Fact(tree.winner, tree.balance)], problem.attacker)
    if not need:
        return ""
    moves, root = read_move_tree_file(part)
    written = tree_problem(root, str(part))  # the problem as the checker reads it
    notes: list[str] = []
    game = 0
    for q in need:
        if q.winner == tree.winner:
            try:
                proved = check_tree(written, moves, q).proved
            except CheckError:
                proved = False
            if proved:
                notes.append(f"it proves {win_words(q)} too, for the status {status}")
                continue
        balance = q.balance
        if status == "ko" and sol.by_threats is not None:  # the ko's flip, nearest the tree
            balance = min((b for b, w in sol.by_threats.items() if w == q.winner),
                          key=lambda b: (abs(b - tree.balance), b))
        fact = Fact(q.winner, balance, q.game)
        left = deadline - time.monotonic()
        what = f"the proof of {win_words(fact)} for the status {status}"
        try:
            if left <= 0:
                raise BudgetExhausted("tree-time")
            with progress(f"building {what}", shown):
                extra = build_tree(problem, to_play=to_play, balance=balance, mode=tree.mode,
                                   max_nodes=max_nodes, time_limit=left,
                                   live=q.game == PASS_ALIVE)
        except BudgetExhausted as e:
            raise BudgetExhausted(e.kind, f"{what}: {e}") from None
        game += 1
        note = (f"This game proves {win_words(fact)} for the status {status} (tsumego "
                f"check reads every game of the file).")
        f.write(b"\n")
        f.writelines(piece.encode("utf-8")
                     for piece in sgf_text(extra, original, ordered, __version__, note,
                                           inferred=inferred))
        notes.append(f"game {game} proves {win_words(fact)}, for the status {status} "
                     f"({plural(extra.nodes, 'node')})")
    return "".join(f"; {n}" for n in notes)


@main.command("export", epilog=exit_codes_text("export"))
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), required=True,
              help="The SGF file to write.")
@click.option("--tree", "tree_mode", type=click.Choice(["readable", "full", "compact"]),
              default="readable", show_default=True,
              help="readable: key lines and refutations; full: a complete proof; compact: "
                   "the same proof with each repeated position written once (TSREF).")
@click.option("--to-play", type=click.Choice(["B", "W", "b", "w"]), default=None,
              help="The side to play of the tree, and the only side solved (default: the "
                   "file's PL, both sides solved for the root's comment).")
@click.option("--game", type=int, default=None, metavar="N",
              help="In a file holding several games: game N, numbered from 0 (FILE#N).")
@click.option("--threats", type=int, default=0, show_default=True,
              help="Ko-threat balance, -2 to 2: positive means Black has that many more "
                   "threats.")
@click.option("--time-limit", type=float, default=None,
              help="Seconds for each side solved (default: no limit).")
@click.option("--tree-time-limit", type=float, default=1800.0, show_default=True,
              help="Seconds to build the solution tree.")
@click.option("--tree-max-nodes", type=int, default=10_000_000, show_default=True,
              help="Largest solution tree to write (nodes).")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option("--progress/--no-progress", "show", default=None,
              help="Show a spinner with the time spent on each search and tree on stderr "
                   "(default: when stderr is a terminal).")
@click.pass_context
def export_cmd(ctx: click.Context, file: str, output: str, tree_mode: TreeMode,
               to_play: str | None, game: int | None, threats: int,
               time_limit: float | None, tree_time_limit: float, tree_max_nodes: int,
               force: bool, show: bool | None) -> None:
    """Write the solution tree of a problem as annotated SGF (the same as solve -o)."""
    ctx.invoke(solve_cmd, file=file, to_play=to_play, game=game, threats=threats,
               time_limit=time_limit, output=output, tree_mode=tree_mode,
               tree_time_limit=tree_time_limit, tree_max_nodes=tree_max_nodes, force=force,
               show=show)


@main.command("check", epilog=exit_codes_text("check"))
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--progress/--no-progress", "show", default=None,
              help="Show a spinner with the time spent on stderr (default: when stderr is a "
                   "terminal).")
def check_cmd(file: str, show: bool | None) -> None:
    """Check that a full or compact solution tree (tsumego solve -o --tree full) proves the
    claim its root states, replaying it under the rules with a checker of its own: the winner
    at the balance, and the status word (with the second proof some statuses need, which
    solve -o writes as another game of the same file). The board checked is the one the
    root shows, frame stones included: nothing is inferred or framed."""
    from tsumego.proofs.check import CheckError, check_file, fact_words

    shown = show_progress(show)
    try:
        result = check_file(file, lambda label: progress(label, shown))
    except (ProblemError, CheckError) as e:
        msg = str(e)
        fail(msg if msg.startswith(file) else f"{file}: {msg}")
    to_play = result.claim.to_play
    for c in result.checks:
        # nodes as the tree writer counts them: every node of the game, the root included
        what = fact_words(to_play, c.fact)
        if c.result.proved:
            how = ("the same tree, checked again" if c.again else
                   f"{c.mode} tree, {plural(c.nodes, 'node')}")
            click.echo(f"{c.label}: proved: {what} ({how})")
        elif not c.again:
            where = " ".join(c.result.path) or "(root)"
            click.echo(f"{c.label}: the claim: {what} ({c.mode} tree, "
                       f"{plural(c.nodes, 'node')})")
            click.echo(f"{c.label}: NOT proved at {where}: {c.result.reason}")
    status = result.claim.status
    if result.proved:
        click.echo(f"{file}: proved: the status {status}: {result.meaning}")
        sys.exit(EXIT_OK)
    if result.reason:
        click.echo(f"{file}: NOT proved: {result.reason}")
    sys.exit(EXIT_FINDINGS)


@main.command("gtp", epilog=exit_codes_text("gtp"))
@click.option("--time-limit", type=float, default=10.0, show_default=True,
              help="Seconds for each genmove and each analysis; a search stopped by it says "
                   "so.")
@click.option("--threats", type=int, default=0, show_default=True,
              help="Ko-threat balance of the games played, -2 to 2: positive means Black "
                   "has that many more threats.")
@click.option("--resign/--no-resign", default=True, show_default=True,
              help="genmove resigns when every move loses (--no-resign: it plays on, the "
                   "move whose refutation took the longest search).")
@click.option("--tt-size", type=int, default=1_000_000, show_default=True,
              help="Transposition table capacity (entries).")
def gtp_cmd(time_limit: float, threats: int, resign: bool, tt_size: int) -> None:
    """Run as a GTP engine on stdin and stdout, for board programs (Sabaki, GoGui...): it
    solves the position on the board as a life-and-death problem, plays proven moves and
    shows the correct moves with analyze commands."""
    if time_limit <= 0:
        fail("--time-limit must be positive")
    if abs(threats) > K:
        fail(f"--threats must be within -{K}..{K}: the ko-threat balances the rules define "
             f"(docs/rules.md)")
    if tt_size < 1024:
        fail("--tt-size must be at least 1024")
    from tsumego.cli.gtp import GtpEngine, serve

    try:
        serve(GtpEngine(time_limit=time_limit, threats=threats, resign=resign,
                        tt_size=tt_size))
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_OK)


from tsumego.cli.verify import verify  # noqa: E402

main.add_command(verify)


if __name__ == "__main__":
    main()
