"""The ``tsumego`` command end to end: text and JSON output, exit codes, and a one-line error
naming the file for every kind of bad input. Uses click's CliRunner and the installed command
in a real subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from tsumego.cli.main import main

EXIT_OK, EXIT_BAD_INPUT, EXIT_LIMIT = 0, 2, 3

# The rectangular six in the corner (6x6), Black to play kills at be/bf, White lives there:
#   . . . . . .
#   . . . . . .
#   X X X X X .
#   @ @ @ @ X .
#   . . . @ X .
#   . . . @ X .
SETUP = "AB[ac][bc][cc][dc][ec][ed][ee][ef]AW[ad][bd][cd][dd][de][df]"
SIX = f"(;GM[1]FF[4]SZ[6]PL[B]{SETUP}MA[ad])"
SIX_WHITE = f"(;GM[1]FF[4]SZ[6]PL[W]{SETUP}MA[ad])"

JSON_KEYS = {"file", "size", "to_play", "attacker", "defender", "target", "threats",
             "winner", "status", "by_threats", "moves", "best_moves", "best_threats", "best",
             "description", "nodes", "seconds", "limit", "inferred"}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_json(stdout: str) -> dict:
    """stdout must be exactly one JSON object (one line)."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, stdout
    obj = json.loads(lines[0])
    assert isinstance(obj, dict)
    return obj


def assert_bad_input(result, path: str) -> None:
    assert result.exit_code == EXIT_BAD_INPUT, (result.exit_code, result.output)
    err = result.stderr.strip()
    assert err, "no message on stderr"
    assert len(err.splitlines()) == 1, err
    assert path in err, err
    assert "Traceback" not in result.output
    assert result.stdout == ""


# --- text output -----------------------------------------------------------------------------


def test_text_output_kill(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", path)
    assert r.exit_code == EXIT_OK, r.output
    out = r.stdout
    assert path in out
    assert "Black to play: kills unconditionally" in out
    assert "White to play: lives unconditionally" in out
    assert "be" in out and "B2" in out  # SGF and GTP coordinates of the vital point
    assert "status: kill" in out and "status: live" in out
    assert r.stderr == ""


def test_text_output_white_first(write_sgf):
    path = write_sgf(SIX_WHITE)
    r = run("solve", path)
    assert r.exit_code == EXIT_OK
    lines = r.stdout.splitlines()
    first = next(ln for ln in lines if "to play:" in ln)
    assert first.startswith("White to play: lives unconditionally")


def test_quick_names_one_correct_move(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--quick", path)
    assert r.exit_code == EXIT_OK, r.output
    out = r.stdout
    assert "Black to play: kills unconditionally" in out
    assert "White to play: lives unconditionally" in out
    assert "a correct first move (others not examined: --quick)" in out
    assert "winning first moves" not in out
    r = run("solve", "--quick", "--json", path)
    obj = one_json(r.stdout)
    assert obj["status"] == "kill" and obj["winner"] == "B"
    assert obj["best"] in ("be", "bf")
    assert obj["moves"] is None and obj["best_moves"] is None


# --- JSON output -------------------------------------------------------------------------------


def test_json_output(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--json", path)
    assert r.exit_code == EXIT_OK, r.output
    obj = one_json(r.stdout)
    assert set(obj) == JSON_KEYS
    assert obj["file"] == path
    assert obj["to_play"] == "B"
    assert obj["attacker"] == "B" and obj["defender"] == "W"
    assert obj["target"] == ["ad", "bd", "cd", "dd", "de", "df"]
    assert obj["threats"] == 0
    assert obj["winner"] == "B"
    assert obj["status"] == "kill"
    assert obj["by_threats"] == {str(k): "B" for k in (-2, -1, 0, 1, 2)}
    assert sorted(obj["moves"]) == ["be", "bf"]
    assert obj["best"] in obj["best_moves"]
    assert set(obj["best_moves"]) <= set(obj["moves"])
    assert obj["best_threats"] == -2  # Black kills even when White has 2 more threats
    assert isinstance(obj["nodes"], int) and obj["nodes"] > 0
    assert isinstance(obj["seconds"], (int, float)) and obj["seconds"] >= 0
    assert obj["limit"] is None
    assert r.stderr == ""


def test_json_to_play_override_and_threats(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--json", "--to-play", "W", "--threats", "1", path)
    assert r.exit_code == EXIT_OK
    obj = one_json(r.stdout)
    assert obj["to_play"] == "W"
    assert obj["threats"] == 1
    assert obj["winner"] == "W" and obj["status"] == "live"
    assert sorted(obj["moves"]) == ["be", "bf"]


def test_json_defender_pass_is_written_pass(write_sgf):
    # two eyes: White's only correct move is to pass
    path = write_sgf("(;GM[1]FF[4]SZ[6]PL[W]AW[ba][da][ab][bb][cb][db]"
                     "AB[ea][eb][ac][bc][cc][dc][ec]MA[ba])")
    obj = one_json(run("solve", "--json", path).stdout)
    assert obj["moves"] == ["pass"] and obj["best"] == "pass"
    assert obj["status"] == "live"


# --- limits ------------------------------------------------------------------------------------


def test_node_limit(write_sgf):
    """One node: the search stops before anything is known (two already prove the kill at
    the asked balance, through the eye-space table: then ``winner`` is given, ``status`` not)."""
    path = write_sgf(SIX)
    r = run("solve", "--json", "--max-nodes", "1", path)
    assert r.exit_code == EXIT_LIMIT, r.output
    obj = one_json(r.stdout)
    assert set(obj) == JSON_KEYS
    assert obj["status"] == "unknown"
    assert obj["limit"] == "nodes"
    assert obj["by_threats"] is None and obj["moves"] is None and obj["best"] is None
    assert obj["winner"] is None


def test_node_limit_text(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--max-nodes", "5", path)
    assert r.exit_code == EXIT_LIMIT
    assert "unknown (stopped by the node limit)" in r.stdout


def test_time_limit(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--json", "--time-limit", "0.000001", path)
    assert r.exit_code == EXIT_LIMIT, r.output
    obj = one_json(r.stdout)
    assert obj["status"] == "unknown" and obj["limit"] == "time"


@pytest.mark.parametrize("args", [
    ["--max-nodes", "0"],
    ["--time-limit", "-1"],
    ["--threats", "100"],
    ["--tt-size", "10"],
])
def test_bad_options(write_sgf, args):
    path = write_sgf(SIX)
    r = run("solve", *args, path)
    assert r.exit_code == EXIT_BAD_INPUT
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


# --- PL and its fallbacks (rules.md, "Problem files" 3) -----------------------------------------


@pytest.mark.parametrize("sgf,expected", [
    (f"(;GM[1]FF[4]SZ[6]{SETUP}MA[ad])", "B"),  # nothing: Black
    (f"(;GM[1]FF[4]SZ[6]{SETUP}MA[ad];W[be])", "W"),  # the first move of the first variation
    (f"(;GM[1]FF[4]SZ[6]{SETUP}MA[ad]C[White to live.])", "W"),  # the root comment
    (f"(;GM[1]FF[4]SZ[6]{SETUP}MA[ad]C[Can White live?])", "W"),  # a question names it too
    (f"(;GM[1]FF[4]SZ[6]PL[B]{SETUP}MA[ad];W[be])", "B"),  # PL wins over the variation
])
def test_side_to_play_fallbacks(write_sgf, sgf, expected):
    path = write_sgf(sgf)
    obj = one_json(run("solve", "--json", path).stdout)
    assert obj["to_play"] == expected


# --- bad input ---------------------------------------------------------------------------------

BAD_SGF = {
    "garbage": b"\x00\xff\xfe\x89PNG\r\n\x1a\n not an sgf at all \x00",
    "empty": b"",
    "whitespace": b"   \n\n  ",
    "no_ma_one_colour": b"(;GM[1]FF[4]SZ[9]AB[cc][dc])",
    "no_ma_no_stones": b"(;GM[1]FF[4]SZ[9])",
    "ma_on_empty": f"(;GM[1]FF[4]SZ[6]PL[B]{SETUP}MA[aa])".encode(),
    "no_safe_wall": b"(;GM[1]FF[4]SZ[5]PL[B]AW[bb][cb]AB[ad]MA[bb])",
    "no_black_at_all": b"(;GM[1]FF[4]SZ[5]PL[B]AW[bb]MA[bb])",
    # White's stone at aa has no liberty (Black at ba and ab)
    "block_without_liberties": f"(;GM[1]FF[4]SZ[6]PL[B]{SETUP}AB[ba][ab]AW[aa]MA[ad])".encode(),
    "non_square": b"(;GM[1]FF[4]SZ[9:7]PL[B]AB[cc]AW[dd]MA[dd])",
    "too_large": b"(;GM[1]FF[4]SZ[21]PL[B]AB[cc]AW[dd]MA[dd])",
    "too_small": b"(;GM[1]FF[4]SZ[1]PL[B])",
}

EXPECTED_WORDS = {
    "garbage": "not an SGF",
    "empty": "not an SGF",
    "whitespace": "not an SGF",
    "ma_on_empty": "empty point",
    "no_safe_wall": "no safe wall",
    "no_black_at_all": "no safe wall",
    "block_without_liberties": "no liberties",
    "non_square": "square",  # says what is wrong, not just "bad SZ"
    "too_large": "21",
}


@pytest.mark.parametrize("kind", sorted(BAD_SGF))
@pytest.mark.parametrize("as_json", [False, True])
def test_bad_sgf_is_a_one_line_error_naming_the_file(write_sgf, kind, as_json):
    path = write_sgf(BAD_SGF[kind], name=f"{kind}.sgf")
    r = run("solve", *(["--json"] if as_json else []), path)
    assert_bad_input(r, path)
    if kind in EXPECTED_WORDS:
        assert EXPECTED_WORDS[kind] in r.stderr


def test_file_not_found(tmp_path):
    path = str(tmp_path / "missing.sgf")
    r = run("solve", path)
    assert_bad_input(r, path)
    assert "not found" in r.stderr


def test_directory(tmp_path):
    path = str(tmp_path)
    r = run("solve", path)
    assert_bad_input(r, path)
    assert "directory" in r.stderr


def test_unreadable_file(write_sgf):
    path = write_sgf(SIX, name="locked.sgf")
    os.chmod(path, 0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who can read a mode-000 file (root)")
        r = run("solve", path)
        assert_bad_input(r, path)
    finally:
        os.chmod(path, 0o644)


# --- the installed command ---------------------------------------------------------------------


def _command() -> list[str]:
    exe = shutil.which("tsumego")
    if exe is None:  # not on PATH: the same entry point through the interpreter
        return [sys.executable, "-c", "from tsumego.cli.main import main; main()"]
    return [exe]


def test_installed_command_json(write_sgf):
    path = write_sgf(SIX)
    p = subprocess.run(_command() + ["solve", "--json", path], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == EXIT_OK, p.stderr
    assert p.stderr == ""
    obj = one_json(p.stdout)
    assert set(obj) == JSON_KEYS
    assert obj["winner"] == "B" and obj["status"] == "kill"
    assert sorted(obj["moves"]) == ["be", "bf"]


def test_installed_command_text(write_sgf):
    path = write_sgf(SIX)
    p = subprocess.run(_command() + ["solve", path], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == EXIT_OK, p.stderr
    assert "kills unconditionally" in p.stdout


def test_installed_command_bad_input(write_sgf):
    path = write_sgf(b"\x00\x01garbage", name="bad.sgf")
    p = subprocess.run(_command() + ["solve", path], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == EXIT_BAD_INPUT
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and path in lines[0]


def test_installed_command_limit(write_sgf):
    path = write_sgf(SIX)
    p = subprocess.run(_command() + ["solve", "--json", "--max-nodes", "5", path],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == EXIT_LIMIT
    obj = one_json(p.stdout)
    assert obj["status"] == "unknown" and obj["limit"] == "nodes"


# --- the sides solved, the diagram, collections, the wording of bad input -------------------


def test_to_play_solves_that_side_only_and_says_so(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--to-play", "W", path)
    assert r.exit_code == EXIT_OK, r.output
    assert "White to play: lives unconditionally" in r.stdout
    assert "Black to play:" not in r.stdout.replace("Black to play too", "")
    assert "Sides solved: White to play only (as asked; --both solves Black to play too)" in \
        r.stdout
    r = run("solve", "--to-play", "W", "--both", path)
    lines = [ln for ln in r.stdout.splitlines() if ": " in ln and " to play: " in ln]
    assert [ln.split(":")[0] for ln in lines] == ["White to play", "Black to play"]
    assert "Sides solved: White to play, then Black to play" in r.stdout
    r = run("solve", path)  # no side given: both, the file's PL first
    assert "Sides solved: Black to play, then White to play" in r.stdout


def test_json_both_prints_one_object_per_side(write_sgf):
    path = write_sgf(SIX)
    r = run("solve", "--json", "--both", path)
    assert r.exit_code == EXIT_OK
    objs = [json.loads(ln) for ln in r.stdout.splitlines()]
    assert [o["to_play"] for o in objs] == ["B", "W"]
    assert [o["winner"] for o in objs] == ["B", "W"]


def test_diagram_has_coordinates_and_a_legend_in_words(write_sgf):
    path = write_sgf(SIX)
    out = run("solve", "--to-play", "B", path).stdout.splitlines()
    top = out.index("  A B C D E F")  # cropped to the problem and one line around it
    assert out[top + 1] == "5 - - - - - - 5"
    assert out[top + 3] == "3 @ @ @ @ X - 3"  # ad is A3: row numbers count from the bottom
    assert out[top + 5] == "1 . . . @ X - 1"
    assert out[top + 6] == "  A B C D E F"
    legend = " ".join(out[top + 7:top + 9])
    assert "X Black" in legend and "@ the target (White)" in legend
    assert ". empty point of the region" in legend


def test_plain_problem_diagram_is_cropped_with_real_coordinates():
    out = run("solve", "--to-play", "B", "problems/plain/bulky-five-kill-br.sgf").stdout
    assert "   N O P Q R S T" in out
    assert " 1 - - X @ . . .  1" in out
    assert "x Black stone added around a plain problem (the frame)" in out


def test_explain_gives_gtp_and_sgf_points():
    out = run("solve", "--explain", "--to-play", "B",
              "problems/plain/bent-three-kill-bl.sgf").stdout
    assert "Target: A3 (aq), B3 (bq), B2 (br), C2 (cr), C1 (cs)" in out
    assert "Region: 12 points" in out


COLLECTION = "tests/verify_data/book/collection.sgf"


def test_collection_solves_the_first_game_and_says_others_were_skipped():
    r = run("solve", "--to-play", "B", COLLECTION)
    assert r.exit_code == EXIT_OK, r.output
    notice = r.stderr.strip().splitlines()
    assert len(notice) == 1 and "holds 3 games" in notice[0] and "--game N" in notice[0]
    assert r.stdout.startswith(f"{COLLECTION}#0\n")
    r = run("solve", "--to-play", "B", "--game", "1", "--json", COLLECTION)
    assert r.stderr == "" and one_json(r.stdout)["file"] == f"{COLLECTION}#1"
    r = run("solve", "--game", "2", COLLECTION)  # a bad problem: named with its game
    assert_bad_input(r, f"{COLLECTION}#2")
    assert_bad_input(run("solve", "--game", "3", COLLECTION), COLLECTION)


def test_game_in_a_single_game_file(write_sgf):
    path = write_sgf(SIX)
    assert run("solve", "--game", "0", "--json", path).exit_code == EXIT_OK
    assert_bad_input(run("solve", "--game", "1", path), path)


@pytest.mark.parametrize("value", ["3", "-3", "5"])
def test_threats_are_limited_to_the_defined_balances(write_sgf, value):
    path = write_sgf(SIX)
    r = run("solve", "--threats", value, path)
    assert r.exit_code == EXIT_BAD_INPUT
    assert r.stderr.strip() == ("tsumego: error: --threats must be within -2..2: the "
                                "ko-threat balances the rules define (docs/rules.md)")


def test_counts_are_plural_only_when_plural():
    from tsumego.cli.util import plural
    assert plural(1, "node") == "1 node" and plural(2, "node") == "2 nodes"
    assert plural(1234567, "node") == "1,234,567 nodes" and plural(0, "move") == "0 moves"


def test_check_states_what_it_proved_and_counts_as_the_writer(write_sgf, tmp_path):
    """A ko needs two proofs: solve -o writes the second as game 1 of the file, and check
    says what each game proves, with the nodes the writer counted, then the status."""
    out = str(tmp_path / "tree.sgf")
    r = run("solve", "problems/bent-four-corner.sgf", "-o", out, "--tree", "full",
            "--to-play", "B")
    assert r.exit_code == EXIT_OK, r.output
    written = next(ln for ln in r.stdout.splitlines() if ln.startswith("Wrote"))
    n = written.split(": ")[1].split(" nodes")[0]  # "52"
    m = written.split("game 1 proves White's win at balance -1, for the status ko (")[1]
    m = m.split(" nodes")[0]
    r = run("check", out)
    assert r.exit_code == EXIT_OK, r.output
    assert r.stdout.strip().splitlines() == [
        f"{out}: proved: Black to play wins at balance +0 (full tree, {n} nodes)",
        f"{out}#1: proved: Black to play, White wins at balance -1 (full tree, {m} nodes)",
        f"{out}: proved: the status ko: the winner changes with the balance (Black wins at "
        f"+0, White at -1)"]


def test_check_names_the_winner_when_the_side_to_play_loses(tmp_path):
    out = str(tmp_path / "tree.sgf")
    run("solve", "problems/one-eye.sgf", "-o", out, "--tree", "full", "--to-play", "W")
    r = run("check", out)
    assert r.exit_code == EXIT_OK, r.output
    assert "proved: White to play, Black wins at balance +0 (full tree" in r.stdout
    assert r.stdout.strip().splitlines()[-1] == (
        f"{out}: proved: the status kill: the attacker, Black, wins even where the defender "
        f"has 2 more threats")


@pytest.mark.parametrize("command", [["solve"], ["export", "-o", "OUT"], ["check"],
                                     ["verify"]])
def test_one_wording_for_each_input_fault(tmp_path, command, write_sgf):
    """A missing file, a directory and a file that is not SGF get the same words from
    every command."""
    out = str(tmp_path / "out.sgf")
    args = [a if a != "OUT" else out for a in command]
    missing = str(tmp_path / "missing.sgf")
    r = run(*args, missing)
    assert r.exit_code == EXIT_BAD_INPUT
    assert r.stderr.strip() == f"tsumego: error: {missing}: file not found"
    if command[0] != "verify":  # (verify searches a directory for SGF files)
        r = run(*args, str(tmp_path))
        assert r.stderr.strip() == (f"tsumego: error: {tmp_path}: is a directory, not an "
                                    "SGF file")
    garbage = write_sgf(b"\x00\x01 not sgf", name="garbage.sgf")
    r = run(*args, garbage)
    if command[0] == "verify":  # a bad file is a finding of class error, worded the same
        assert r.exit_code == 1 and f"{garbage}: not an SGF file" in r.stdout
    else:
        assert r.exit_code == EXIT_BAD_INPUT
        assert r.stderr.strip().startswith(f"tsumego: error: {garbage}: not an SGF file")


def test_check_not_proved_gives_the_claim_then_the_failure(tmp_path):
    out = tmp_path / "tree.sgf"
    run("solve", "problems/one-eye.sgf", "-o", str(out), "--tree", "full", "--to-play", "B")
    text = out.read_text()
    # (a ko: a White win is possible, and this tree is no proof of one)
    out.write_text(text.replace("TSR[B:B:0:kill:full]", "TSR[B:W:0:ko:full]"))
    r = run("check", str(out))
    assert r.exit_code == 1
    claim, failure = r.stdout.strip().splitlines()
    assert claim == (f"{out}: the claim: Black to play, White wins at balance +0 "
                     f"(full tree, {text.count(';')} nodes)")
    assert failure.startswith(f"{out}: NOT proved at (root): ")


def test_an_internal_cap_is_reported_as_what_it_is() -> None:
    """The pass-alive test's own cap, when it stops a search, is named as such: never as a
    limit the user did not set."""
    from tsumego.errors import BudgetExhausted, budget_words

    e = BudgetExhausted("pass-alive")
    assert "pass-alive test" in str(e) and "node limit" not in str(e)
    assert budget_words("pass-alive") == e.limit
    assert budget_words("nodes") == "the node limit"
