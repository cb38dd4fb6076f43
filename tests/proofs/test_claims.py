"""``tsumego check`` verifies the whole claim of a tree file: the winner at the stated balance,
in the stated game, and the status word, from the facts the file's game trees prove.

- The status logic (:func:`required`, :func:`implies`, :func:`refutation`) against every
  possible world: the winner at each balance in the game of rules.md and in the pass-alive
  game, monotone, and the defender's pass-alive wins being wins.
- Real files from ``problems/`` (kill, live, seki and ko, one tree or two): each claim edited
  to a false one (winner, balance, status, side to play) is rejected with a reason naming
  what is false, and the true claim is accepted; the two-proof files edited game by game.
- Trees of the pass-alive game, built for the random positions of the property test, have the
  brute force's winner and are proved by the checker's own terminal rule.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from test_check import PROBLEMS, invoke

from tsumego import BLACK, WHITE, read_problem, solve
from tsumego.io.sgf import SgfError, read_move_games, read_move_tree, split_collection
from tsumego.proofs.check import (
    PASS_ALIVE,
    RULES,
    STATUSES,
    Fact,
    K,
    check_file,
    check_tree,
    fact_words,
    implies,
    missing,
    refutation,
    required,
)

BALANCES = range(-K, K + 1)
FACTS = [Fact(w, b, g) for w in (BLACK, WHITE) for b in BALANCES for g in (RULES, PASS_ALIVE)]


# --- the status logic against every world -------------------------------------------------------

def _worlds(attacker: int):
    """Every assignment of a winner to each (game, balance) that the rules allow: monotone in
    the balance (Black wins from a threshold up), and the pass-alive game harder for the
    defender (its wins there are wins in the game of rules.md)."""
    defender = 3 - attacker
    for t_rules, t_alive in itertools.product(range(-K, K + 2), repeat=2):
        world = {(RULES, b): BLACK if b >= t_rules else WHITE for b in BALANCES}
        world |= {(PASS_ALIVE, b): BLACK if b >= t_alive else WHITE for b in BALANCES}
        if all(world[RULES, b] == defender for b in BALANCES
               if world[PASS_ALIVE, b] == defender):
            yield world


def _holds(world, fact: Fact) -> bool:
    return world[fact.game, fact.balance] == fact.winner


def _status(world, attacker: int) -> str:
    """The status by rules.md's definitions."""
    winners = {world[RULES, b] for b in BALANCES}
    if len(winners) == 2:
        return "ko"
    if winners == {attacker}:
        return "kill"
    most = K if attacker == BLACK else -K  # the attacker's best balance
    return "live" if world[PASS_ALIVE, most] != attacker else "seki"


@pytest.mark.parametrize("attacker", [BLACK, WHITE])
def test_a_fact_implies_exactly_what_holds_in_every_world_where_it_holds(attacker):
    worlds = list(_worlds(attacker))
    assert len(worlds) == 21  # 6 thresholds each, the pass-alive one on the defender's side
    for p, q in itertools.product(FACTS, FACTS):
        assert implies(p, q, attacker) == all(_holds(w, q) for w in worlds if _holds(w, p)), \
            (p, q)


@pytest.mark.parametrize("attacker", [BLACK, WHITE])
def test_the_facts_a_status_requires_hold_exactly_in_its_worlds(attacker):
    for world in _worlds(attacker):
        true = _status(world, attacker)
        facts = [f for f in FACTS if _holds(world, f)]
        for status in ("kill", "live", "seki", "ko"):
            needed = required(status, attacker)
            assert all(_holds(world, q) for q in needed) == (status == true)
            assert (not missing(status, facts, attacker)) == (status == true)
            # no fact of the world refutes its status; each other status is refuted by some
            refuted = refutation(status, facts, attacker)
            assert (refuted is None) == (status == true), (status, true, refuted)
            for p in facts:
                if refutation(status, [p], attacker) is not None:
                    assert status != true


@pytest.mark.parametrize("attacker", [BLACK, WHITE])
def test_a_claim_contradicts_itself_exactly_where_no_world_makes_it_true(attacker):
    """A claim is one fact and a status: it is refused outright exactly where no world has
    both (``kill`` won by the defender, ``live`` or ``seki`` by the attacker, a ``ko`` won
    at the balance least favourable to the winner, ...)."""
    worlds = list(_worlds(attacker))
    impossible = 0
    for p in FACTS:
        for status in ("kill", "live", "seki", "ko"):
            possible = any(_holds(w, p) and _status(w, attacker) == status for w in worlds)
            assert (refutation(status, [p], attacker) is None) == possible, (p, status)
            impossible += not possible
        assert refutation("unknown", [p], attacker) is None
    assert impossible


# --- real files: every claim edited to a false one ----------------------------------------------

# (problem, side to play, its status, the games its file holds)
FILES = [
    ("straight-three.sgf", "B", "kill", 1),  # the tree proves the kill as it stands
    ("bent-four-dead.sgf", "B", "kill", 2),  # the kill needs a tree at balance -2
    ("one-eye.sgf", "W", "kill", 1),  # the side to play loses
    ("straight-three.sgf", "W", "live", 1),
    ("straight-four.sgf", "B", "live", 1),  # the side to play loses
    ("seki.sgf", "W", "seki", 2),
    ("bent-four-corner.sgf", "B", "ko", 2),
    ("approach-ko.sgf", "W", "ko", 2),
    ("approach-ko.sgf", "B", "ko", 2),  # the side to play wins only with a threat: at +1
]
TSR = re.compile(rb"TSR\[([^\]]*)\]")
COLOR = {"B": BLACK, "W": WHITE}


def _games(path: Path) -> list[bytes]:
    return split_collection(path.read_bytes())


def _claims(games: list[bytes]) -> list[list[str]]:
    out = []
    for g in games:
        m = TSR.search(g)
        assert m, g[:200]
        out.append(m.group(1).decode().split(":"))
    return out


def _with_claims(games: list[bytes], claims: list[list[str]]) -> bytes:
    return b"\n".join(TSR.sub(f"TSR[{':'.join(c)}]".encode(), g, count=1)
                      for g, c in zip(games, claims))


def _check(tmp_path: Path, data: bytes, name: str = "edited.sgf"):
    out = tmp_path / name
    out.write_bytes(data)
    r = invoke("check", str(out))
    lines = r.stdout.strip().splitlines()
    assert r.exit_code in (0, 1), r.output
    assert lines and all(ln.startswith(str(out)) for ln in lines), r.output
    return r.exit_code, lines, out


_solutions: dict[tuple[str, int], object] = {}


def _truth(name: str, to_play: int):
    """(status, winner by balance) of ``name`` with ``to_play`` first, per the solver."""
    key = (name, to_play)
    if key not in _solutions:
        sol = solve(read_problem(PROBLEMS / name).problem, to_play=to_play)
        assert sol.by_threats is not None
        _solutions[key] = (sol.status, dict(sol.by_threats))
    return _solutions[key]


def _true(name: str, claims: list[list[str]]) -> bool:
    """Whether every game's claim is true: the status (``unknown`` states nothing) and the
    winner at the balance, in the game of rules.md or in the pass-alive game, whose winner
    the solver tells where the attacker wins the game of rules.md (it wins the pass-alive
    game too), where the target lives (the defender wins the pass-alive game everywhere)
    and, in a seki, at the attacker's best balance (there it wins the pass-alive game)."""
    problem = read_problem(PROBLEMS / name).problem
    attacker = problem.attacker
    for to_play, winner, balance, status, _, *game in claims:
        true_status, by = _truth(name, COLOR[to_play])
        if status not in (true_status, "unknown"):
            return False
        w, b = COLOR[winner], int(balance)
        if not game:
            alive_winner = by[b]
        elif by[b] == attacker or true_status == "seki" and b == (K if attacker == BLACK
                                                                  else -K):
            alive_winner = attacker
        else:
            assert true_status == "live", (name, to_play, balance)  # (else not known here)
            alive_winner = 3 - attacker
        if alive_winner != w:
            return False
    return True


def _variants(claims: list[list[str]]):
    """(what was edited, the claims edited): the winner and the balance of the first game's
    claim; the status and the side to play of every game's (the file's claim)."""
    first = claims[0]
    yield "winner", [[first[0], "W" if first[1] == "B" else "B", *first[2:]], *claims[1:]]
    for b in BALANCES:
        if b != int(first[2]):
            yield "balance", [[*first[:2], str(b), *first[3:]], *claims[1:]]
    for s in STATUSES:
        if s != first[3]:
            yield "status", [[c[0], c[1], c[2], s, *c[4:]] for c in claims]
    yield "to_play", [["W" if c[0] == "B" else "B", *c[1:]] for c in claims]


@pytest.mark.parametrize("name, side, status, count", FILES)
def test_every_false_claim_is_rejected_naming_what_is_false(export, tmp_path, name, side,
                                                             status, count):
    games = _games(export(name, "full", "--to-play", side))
    claims = _claims(games)
    assert len(games) == count and claims[0][:1] == [side] and claims[0][3] == status
    assert _true(name, claims)
    code, lines, out = _check(tmp_path, _with_claims(games, claims), "true.sgf")
    assert code == 0 and lines[-1].startswith(f"{out}: proved: the status {status}: ")
    assert "NOT" not in "\n".join(lines)
    rejected = 0
    for field, edited in _variants(claims):
        code, lines, out = _check(tmp_path, _with_claims(games, edited), f"{field}.sgf")
        if _true(name, edited):
            continue  # (a true claim this file is no proof of may be rejected too)
        rejected += 1
        text = "\n".join(lines)
        assert code == 1 and "NOT proved" in lines[-1], (field, edited, text)
        first = edited[0]
        if field == "status":
            # one line, about the status: refused, refuted by a game or lacking a proof
            assert f"the status {first[3]}" in lines[-1] and lines[-1].count("NOT") == 1, text
        else:
            # the false fact is named: in the claim the checker refused outright, or in the
            # claim of the game whose tree is no proof of it, before the failure
            said = fact_words(COLOR[first[0]], Fact(COLOR[first[1]], int(first[2])))
            assert said in text, (field, said, text)
            if "the claim contradicts itself" not in lines[-1]:
                assert lines[-2] == f"{out}: the claim: {said} (full tree, " + \
                    lines[-2].split("(full tree, ")[1], text
                assert lines[-1].startswith(f"{out}: NOT proved at "), text
    assert rejected >= 4  # (the winner, three statuses at least)


def test_a_kill_claimed_for_the_defender_is_refused_before_any_replay(export, tmp_path):
    """``W:W:0:kill`` on straight-three (White the defender): refused from the claim alone,
    even where the file holds no tree at all, only the root."""
    games = _games(export("straight-three.sgf", "full", "--to-play", "W"))
    root = read_move_tree(games[0])[1].replace(b"W:W:0:live", b"W:W:0:kill")
    code, lines, out = _check(tmp_path, root)
    assert code == 1 and lines == [
        f"{out}: NOT proved: the claim contradicts itself: White to play wins at balance +0, "
        f"but the status kill is the attacker's (Black's) win at every balance"]


@pytest.mark.parametrize("tsr, words", [
    ("B:B:0:live:full", "Black to play wins at balance +0, but the status live"),
    ("B:B:-2:ko:full", "Black to play wins at balance -2, but the status ko"),
    ("B:B:0:seki:full", "Black to play wins at balance +0, but the status seki"),
    ("B:W:2:ko:full:pass-alive", "Black to play, White wins the pass-alive game at balance "
                                 "+2, but the status ko"),
])
def test_impossible_claims_are_refused_outright(export, tmp_path, tsr, words):
    """A status its own claim rules out: life or seki won by the attacker, a ko won at the
    balance least favourable to the winner (then it wins at every balance)."""
    games = _games(export("straight-three.sgf", "full", "--to-play", "B"))
    code, lines, out = _check(tmp_path, TSR.sub(f"TSR[{tsr}]".encode(), games[0]))
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith(f"{out}: NOT proved: the claim contradicts itself: {words}")


# --- two proofs in one file ---------------------------------------------------------------------

def test_a_ko_file_holds_both_winners_and_without_the_second_the_status_is_not_proved(
        export, tmp_path):
    games = _games(export("bent-four-corner.sgf", "full", "--to-play", "B"))
    assert [c[:3] for c in _claims(games)] == [["B", "B", "0"], ["B", "W", "-1"]]
    code, lines, out = _check(tmp_path, b"\n".join(games))
    assert code == 0 and lines[1].startswith(f"{out}#1: proved: Black to play, White wins at "
                                             f"balance -1 (full tree, ")
    code, lines, out = _check(tmp_path, games[0])
    assert code == 1 and lines == [
        lines[0],
        f"{out}: NOT proved: the status ko needs a second proof: White's win at a balance "
        f"from -2 to -1 (not in this file)"]
    assert lines[0].startswith(f"{out}: proved: Black to play wins at balance +0 (full tree, ")
    # the second proof alone: the first is missing
    code, lines, out = _check(tmp_path, games[1])
    assert code == 1 and lines[-1] == (
        f"{out}: NOT proved: the status ko needs a second proof: Black's win at a balance "
        f"from +0 to +2 (not in this file)")


def test_the_second_game_edited_is_checked_as_a_claim_of_its_own(export, tmp_path):
    games = _games(export("bent-four-corner.sgf", "full", "--to-play", "B"))
    claims = _claims(games)

    def second(*edit: str) -> tuple[int, list[str], Path]:
        edited = [claims[0], [*claims[1][:1], *edit, *claims[1][3:]]]
        return _check(tmp_path, _with_claims(games, edited))

    # White wins at -2 too (more threats never hurt): the same tree proves it
    code, lines, out = second("W", "-2")
    assert code == 0, lines
    # White does not win at +0: the tree is no proof of it (nor is Black's win at -1 true)
    for edit in (("W", "0"), ("B", "-1")):
        code, lines, out = second(*edit)
        said = fact_words(BLACK, Fact(COLOR[edit[0]], int(edit[1])))
        assert code == 1 and lines[-2].startswith(f"{out}#1: the claim: {said} (full tree, ")
        assert lines[-1].startswith(f"{out}#1: NOT proved at "), lines


def test_games_of_one_file_must_claim_the_same_problem_side_and_status(export, tmp_path):
    games = _games(export("bent-four-corner.sgf", "full", "--to-play", "B"))
    other = _games(export("direct-ko.sgf", "full", "--to-play", "B"))
    code, lines, out = _check(tmp_path, games[0] + b"\n" + other[1])
    assert code == 1 and lines == [f"{out}: NOT proved: {out}#1 is another problem than {out} "
                                   f"(its stones, target or region differ): its proof says "
                                   f"nothing of this one"]
    claims = _claims(games)
    code, lines, out = _check(tmp_path, _with_claims(games, [claims[0], [
        "W", *claims[1][1:]]]))
    assert lines == [f"{out}: NOT proved: {out}#1 claims White to play, {out} Black to play"]
    code, lines, out = _check(tmp_path, _with_claims(games, [claims[0], [
        *claims[1][:3], "kill", *claims[1][4:]]]))
    assert lines == [f"{out}: NOT proved: {out}#1 claims the status kill, {out} ko"]


def test_a_status_the_other_game_rules_out_is_refused(export, tmp_path):
    """The ko file claimed a kill: its second game claims White's win at -1."""
    games = _games(export("bent-four-corner.sgf", "full", "--to-play", "B"))
    claims = [[*c[:3], "kill", *c[4:]] for c in _claims(games)]
    code, lines, out = _check(tmp_path, _with_claims(games, claims))
    assert code == 1 and lines == [
        f"{out}: NOT proved: the claim contradicts itself: Black to play, White wins at "
        f"balance -1 ({out}#1), but the status kill is the attacker's (Black's) win at every "
        f"balance"]
    # seki claimed as life: the second game claims the attacker's pass-alive win
    games = _games(export("seki.sgf", "full", "--to-play", "W"))
    claims = [[*c[:3], "live", *c[4:]] for c in _claims(games)]
    code, lines, out = _check(tmp_path, _with_claims(games, claims))
    assert code == 1 and lines[-1].startswith(
        f"{out}: NOT proved: the claim contradicts itself: White to play, Black wins the "
        f"pass-alive game at balance +2 ({out}#1), but the status live")


def test_a_tree_at_a_balance_more_favourable_to_its_winner_is_proved(tmp_path, export):
    """The ko's first game claimed at +2 instead of +0: Black's extra threats change none of
    White's replies, and the status words give the balances claimed."""
    games = _games(export("bent-four-corner.sgf", "full", "--to-play", "B"))
    claims = _claims(games)
    code, lines, out = _check(tmp_path, _with_claims(games, [[*claims[0][:2], "2",
                                                              *claims[0][3:]], claims[1]]))
    assert code == 0 and lines[-1].endswith("(Black wins at +2, White at -1)")


def test_seki_needs_the_attackers_win_in_the_pass_alive_game(export, tmp_path):
    games = _games(export("seki.sgf", "full", "--to-play", "W"))
    claims = _claims(games)
    assert [c[:3] + c[5:] for c in claims] == [["W", "W", "0"], ["W", "B", "2", PASS_ALIVE]]
    code, lines, out = _check(tmp_path, b"\n".join(games))
    assert code == 0 and lines == [
        lines[0], lines[1],
        f"{out}: proved: White to play wins at balance +2 (the same tree, checked again)",
        f"{out}: proved: the status seki: the defender, White, wins even where the attacker "
        f"has 2 more threats, but not the pass-alive game there"]
    assert lines[1].startswith(f"{out}#1: proved: White to play, Black wins the pass-alive "
                               f"game at balance +2 (full tree, ")
    code, lines, out = _check(tmp_path, games[0])
    assert code == 1 and lines[-1] == (
        f"{out}: NOT proved: the status seki needs a second proof: Black's win in the "
        f"pass-alive game at any balance (not in this file)")


def test_a_tree_is_checked_in_the_game_its_claim_names(export, tmp_path):
    """The seki's pass-alive tree claimed in the game of rules.md ends lines with repeated
    pairs of passes the defender wins there; the seki's tree of the game of rules.md,
    claimed in the pass-alive game, ends lines with repeated pairs where the target is not
    pass-alive. Both are rejected at such a pair, with the rule that decides it."""
    games = _games(export("seki.sgf", "full", "--to-play", "W"))
    claims = _claims(games)
    code, lines, out = _check(tmp_path, _with_claims([games[1]], [[*claims[1][:3], "ko",
                                                                   "full"]]))
    assert code == 1 and lines[-1].endswith(
        "a repeated pair of passes ends the game for the defender"), lines
    code, lines, out = _check(tmp_path, _with_claims([games[0]], [[*claims[0][:3], "seki",
                                                                   "full", PASS_ALIVE]]))
    assert code == 1 and lines[-1].endswith(
        "a repeated pair of passes ends the pass-alive game for the attacker: the target is "
        "not pass-alive"), lines


def test_a_kill_tree_that_is_no_proof_at_the_defenders_best_balance_says_why(export,
                                                                              tmp_path):
    """bent-four-dead at +0: White (the defender) with threats could retake the ko, which the
    tree at +0 does not answer, so the kill needs the tree at -2 that solve -o writes."""
    games = _games(export("bent-four-dead.sgf", "full", "--to-play", "B"))
    code, lines, out = _check(tmp_path, games[0])
    assert code == 1
    assert re.fullmatch(
        rf"{re.escape(str(out))}: NOT proved: the status kill needs a second proof: Black's win "
        rf"at balance -2 \(not in this file; {re.escape(str(out))} checked again for it fails "
        rf"at .*: the loser's replies \[.*\] are missing\)", lines[-1]), lines[-1]


@pytest.mark.parametrize("mode", ["full", "compact"])
@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("name", sorted(p.name for p in PROBLEMS.glob("*.sgf")))
def test_every_file_solve_writes_proves_its_whole_claim(export, name, side, mode):
    """Both sides of every problem, full and compact: the file proves the winner and the
    status the solver found, each game the fact its claim states."""
    path = export(name, mode, "--to-play", side)
    result = check_file(path)
    assert result.proved, (result.reason, [c.result for c in result.checks])
    status, by = _truth(name, COLOR[side])
    assert result.claim.status == status
    for c in result.checks:
        if c.fact.game == RULES:
            assert by[c.fact.balance] == c.fact.winner


@pytest.mark.parametrize("name", sorted(p.name for p in (PROBLEMS / "plain").glob("*.sgf")))
def test_every_plain_problem_file_proves_its_whole_claim(tmp_path, name):
    """The plain problems too (inferred and framed): the tree of the side to play, as
    ``solve -o --tree full`` writes it by default, and the status's other proofs."""
    path = PROBLEMS / "plain" / name
    side = "B" if read_problem(path).problem.to_play == BLACK else "W"
    out = tmp_path / "tree.sgf"
    r = invoke("solve", str(path), "-o", str(out), "--tree", "full", "--to-play", side)
    assert r.exit_code == 0, r.output
    r = invoke("check", str(out))
    assert r.exit_code == 0 and "NOT" not in r.stdout, r.output


def test_a_game_that_is_no_proof_tree_is_bad_input_named_by_its_number(export, tmp_path):
    games = _games(export("bent-four-corner.sgf", "full", "--to-play", "B"))
    out = tmp_path / "readable.sgf"
    out.write_bytes(games[0] + b"\n" + games[1].replace(b":full]", b":readable]"))
    r = invoke("check", str(out))
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr.strip() == (f"tsumego: error: {out}#1: only full and compact trees are "
                                f"proofs (this one is 'readable')")
    out.write_bytes(games[0] + b"\n" + games[1].replace(b"TSR[", b"XX["))
    r = invoke("check", str(out))
    assert r.exit_code == 2 and r.stderr.startswith(f"tsumego: error: {out}#1: no TSR claim")


def test_the_reader_reads_every_game_and_names_the_one_that_is_not_sgf():
    data = (b"(;FF[4]SZ[5]AB[aa]TSR[x](;B[bb]BM[1];W[cc])(;B[dd]TE[1]))\n"
            b"(;FF[4]SZ[5]C[a \\] b]AB[ab];B[bb]N[T1];W[])\n")
    games = read_move_games(data, "f.sgf")
    assert [len(t) for t, _ in games] == [4, 3]
    assert [r for _, r in games] == [b"(;FF[4]SZ[5]AB[aa]TSR[x])",
                                     b"(;FF[4]SZ[5]C[a \\] b]AB[ab])"]
    assert games[1][0].names == {"T1": [1]}
    first = read_move_tree(data, "f.sgf")
    assert (first[0].color, first[1]) == (games[0][0].color, games[0][1])
    with pytest.raises(SgfError, match=r"^f\.sgf#2: not an SGF file"):
        read_move_games(data + b"(;B[", "f.sgf")


# --- trees of the pass-alive game, against the brute force ---------------------------------------

def test_trees_of_the_pass_alive_game_have_the_brute_forces_winner_and_are_proved():
    """For the property test's random positions where the defender wins at every balance
    (life and seki), both sides to play: the tree of the pass-alive game at the balance
    most favourable to the attacker is won by the brute force's winner of that game, and
    the checker proves it with its own terminal rule; a seki's tree (the attacker's win),
    read as a tree of the game of rules.md, is refused at a repeated pair of passes."""
    from brute import BruteGame
    from positions import _bits, case, cells_of

    from tsumego.proofs.export import sgf_text
    from tsumego.proofs.tree import build_tree

    seen = {"live": 0, "seki": 0}
    for i in range(60):
        c = case(i)
        p = c.problem
        most = K if p.attacker == BLACK else -K
        sides = [s for s in (BLACK, WHITE) if c.kind[s] in seen]
        if not sides:
            continue
        brute = BruteGame(p.size, cells_of(p), _bits(p.region), _bits(p.target), live=True)
        for side in sides:
            kind = c.kind[side]
            tree = build_tree(p, to_play=side, balance=most, mode="full", live=True)
            assert tree.winner == brute.winner(side, most) == (
                p.defender if kind == "live" else p.attacker), (i, side, kind)
            sol = solve(p, to_play=side)
            text = "".join(sgf_text(tree, None, [sol], "test")).encode("utf-8")
            moves = read_move_tree(text)[0]
            assert moves.root.props["TSR"][0].endswith(":pass-alive")
            result = check_tree(p, moves)
            assert result.proved, (i, side, result)
            if kind == "seki":
                rules = check_tree(p, moves, Fact(tree.winner, most, RULES))
                assert not rules.proved and "repeated pair" in rules.reason, (i, side, rules)
            seen[kind] += 1
    assert seen["live"] >= 5 and seen["seki"] >= 5, seen
