"""``tsumego gtp`` end to end: a scripted GTP controller starts the engine as a subprocess
and talks GTP v2 over pipes (setup, loadsgf of the bundled problems, genmove, play, undo,
final_status_list, the analyze commands of GoGui and Sabaki, errors as ``? message``), as
Sabaki and GoGui do."""

from __future__ import annotations

import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tsumego import BLACK, read_problem
from tsumego.cli.gtp import GtpEngine, GtpError, parse_line

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
SLOW = Path(__file__).resolve().parents[1] / "verify_data" / "slow"
REQUIRED = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
            "boardsize", "clear_board", "komi", "play", "genmove", "undo", "loadsgf",
            "final_status_list", "gogui-setup", "gogui-setup_player",
            "gogui-analyze_commands", "gogui-interrupt", "analyze")
READ_TIMEOUT = 120.0  # seconds a response may take before the test gives up


def _command() -> list[str]:
    exe = shutil.which("tsumego")
    if exe is None:  # not on PATH: the same entry point through the interpreter
        return [sys.executable, "-c", "from tsumego.cli.main import main; main()"]
    return [exe]


class Controller:
    """A GTP controller: sends commands and reads responses (``=``/``?`` and the text up
    to the empty line) from the engine's stdout, with a reader thread so that a hung engine
    fails the test instead of blocking it."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(_command() + ["gtp", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines),
                         daemon=True).start()
        self._stderr = threading.Thread(target=self._drain, daemon=True)
        self._stderr.start()

    @staticmethod
    def _pump(stream, into) -> None:
        for line in stream:
            into.put(line.rstrip("\n"))
        into.put(None)

    def _drain(self) -> None:
        for line in self.proc.stderr:
            self.err.append(line.rstrip("\n"))

    def send(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        got = self.lines.get(timeout=READ_TIMEOUT)
        assert got is not None, "the engine closed its output"
        return got

    def response(self) -> tuple[bool, str]:
        """(success, text) of the next response."""
        first = self.line()
        assert first[:1] in ("=", "?"), first
        body = [first[1:].lstrip("0123456789").strip()]
        while True:
            ln = self.line()
            if ln == "":
                break
            body.append(ln)
        return first[0] == "=", "\n".join(body).strip()

    def ok(self, command: str) -> str:
        self.send(command)
        good, text = self.response()
        assert good, f"{command}: ? {text}"
        return text

    def fails(self, command: str) -> str:
        self.send(command)
        good, text = self.response()
        assert not good, f"{command} succeeded: {text}"
        return text

    def close(self) -> int:
        """``quit``; the exit code (stderr is read to its end)."""
        if self.proc.poll() is None:
            self.send("quit")
            self.response()
        code = self.proc.wait(timeout=READ_TIMEOUT)
        self._stderr.join(timeout=READ_TIMEOUT)
        return code


@pytest.fixture
def gtp():
    c = Controller()
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def _board(showboard: str) -> dict[str, str]:
    """The stones of a ``showboard`` response: GTP vertex -> X or O."""
    rows = [ln.split() for ln in showboard.splitlines() if ln.strip()]
    letters = rows[0]
    out = {}
    for row in rows[1:-1]:
        n = row[0]
        for letter, cell in zip(letters, row[1:-1]):
            if cell in "XO":
                out[f"{letter}{n}"] = cell
    return out


# --- the protocol ----------------------------------------------------------------------------

def test_required_commands_and_protocol(gtp):
    assert gtp.ok("protocol_version") == "2"
    assert gtp.ok("name") == "tsumego"
    assert gtp.ok("version")
    listed = gtp.ok("list_commands").split("\n")
    for name in REQUIRED:
        assert name in listed
        assert gtp.ok(f"known_command {name}") == "true"
    assert gtp.ok("known_command frobnicate") == "false"
    # ids are echoed, comments and empty lines ignored, errors are "? message"
    gtp.send("# a comment")
    gtp.send("")
    gtp.send("7 name")
    assert gtp.line() == "=7 tsumego"
    assert gtp.line() == ""
    assert gtp.fails("frobnicate") == "unknown command"
    gtp.send("8 frobnicate")
    assert gtp.line() == "?8 unknown command"
    assert gtp.line() == ""
    assert gtp.fails("boardsize 25") == "unacceptable size"
    assert gtp.ok("boardsize 9") == "" and gtp.ok("clear_board") == ""
    assert gtp.ok("komi 6.5") == ""
    assert gtp.fails("play B Z9").startswith("invalid vertex")
    assert gtp.fails("play purple A1").startswith("invalid color")
    assert gtp.fails("undo") == "cannot undo"
    # an empty board holds no problem: genmove says so instead of guessing
    assert "no life-and-death problem" in gtp.fails("genmove b")
    assert gtp.close() == 0


def test_loadsgf_genmove_undo_and_analysis(gtp):
    path = PROBLEMS / "bent-four-corner.sgf"
    assert gtp.fails("loadsgf no/such/file.sgf") == (
        "cannot load file: no/such/file.sgf: file not found")
    gtp.ok(f"loadsgf {path} 1")  # the problem before its first move
    status = gtp.ok("tsumego-status b")
    assert status.startswith("Black to play kills with a ko with A6 (ab)")
    gfx = gtp.ok("tsumego-gfx b").split("\n")
    assert "CIRCLE A6" in gfx and gfx[-1].startswith("TEXT Black to play kills")
    assert gtp.ok("tsumego-main_line b").split()[0] == "A6"
    problem = gtp.ok("tsumego-problem").split("\n")
    assert problem[0] == "SQUARE C7 B6 C6 B5 A4 B4"  # the MA target's stones
    assert gtp.ok("tsumego-explain").startswith("Target: White C7 B6 C6 B5 A4 B4")
    assert gtp.ok("genmove b") == "A6"  # the only correct move
    assert _board(gtp.ok("showboard"))["A6"] == "X"
    # White cannot live now: every move loses, so the engine resigns
    assert gtp.ok("genmove w") == "resign"
    assert gtp.ok("final_status_list dead") == "C7 B6 C6 B5 A4 B4"
    gtp.ok("undo")
    assert "A6" not in _board(gtp.ok("showboard"))
    # White to play lives at A6 or A7 (both proved correct)
    assert gtp.ok("genmove w") in ("A6", "A7")
    assert gtp.ok("final_status_list dead") == ""
    assert "B6" in gtp.ok("final_status_list alive").split()
    assert gtp.ok("genmove b") == "resign"
    assert gtp.close() == 0
    assert any(ln.startswith("tsumego: genmove W: resign (proved:") for ln in gtp.err), gtp.err


def test_loadsgf_replays_the_main_line(gtp):
    # without a move number, GTP's loadsgf plays the whole main line (here the answer)
    gtp.ok(f"loadsgf {PROBLEMS / 'straight-three.sgf'}")
    assert _board(gtp.ok("showboard"))["C7"] == "X"
    # the file's target (MA) is kept: Black has killed it, White has nothing
    assert gtp.ok("tsumego-status w").startswith("White to play cannot live")
    assert gtp.ok("genmove w") == "resign"
    gtp.ok("undo")  # the main line's move is a move of the game
    assert "C7" not in _board(gtp.ok("showboard"))
    assert gtp.ok("genmove b") == "C7"


def test_seki(gtp):
    gtp.ok(f"loadsgf {PROBLEMS / 'seki.sgf'} 1")
    assert gtp.ok("tsumego-status w").startswith("White to play lives in seki with F7 (fa)")
    assert gtp.ok("genmove w") == "F7"
    status = gtp.ok("tsumego-status b")
    assert status.startswith("Black to play cannot kill") and "White lives in seki" in status
    seki = gtp.ok("final_status_list seki").split()
    assert "A6" in seki and gtp.ok("final_status_list dead") == ""
    assert gtp.ok("genmove b") == "resign"


def test_ko_repetition_and_threats(gtp):
    """A direct ko: retaking at once repeats a position, illegal without a ko threat; with
    one (the balance) it is legal and uses it."""
    gtp.ok(f"loadsgf {PROBLEMS / 'direct-ko.sgf'} 1")
    gtp.ok("play b A6")  # the throw-in takes the ko
    err = gtp.fails("play w A7")
    assert err.startswith("illegal move") and "ko threat" in err
    assert gtp.ok("tsumego-status w").startswith("White to play cannot live")
    assert gtp.ok("genmove w") == "resign"
    gtp.ok("tsumego-param threats -1")  # White has one more ko threat
    assert "[string] threats -1" in gtp.ok("tsumego-param")
    assert gtp.ok("tsumego-status w").startswith("White to play lives with a ko with A7")
    assert gtp.ok("genmove w") == "A7"  # retakes, using the threat
    # the threat is spent: Black cannot retake, every move loses
    assert gtp.fails("play b A6").startswith("illegal move")
    assert gtp.ok("genmove b") == "resign"
    assert gtp.fails("tsumego-param threats 5").startswith("bad value")


def test_setup_by_plays_is_inferred_and_a_replay_finds_the_problem_again(gtp):
    """Sabaki sends a problem's stones as plays; the problem is inferred from the board as
    ``tsumego solve`` infers a plain problem. A replay from an empty board (clear_board and
    the same plays, as Sabaki syncs after going back) finds the same problem and history."""
    setup = [("B", "A17"), ("B", "B17"), ("B", "C17"), ("B", "D17"), ("B", "E18"),
             ("B", "E19"), ("W", "A18"), ("W", "B18"), ("W", "C18"), ("W", "D18"),
             ("W", "D19")]  # straight-three-kill-tl: White's eye space A19 B19 C19
    gtp.ok("boardsize 19")
    for c, v in setup:
        gtp.ok(f"play {c} {v}")
    assert gtp.ok("tsumego-status b").startswith("Black to play kills unconditionally with B19")
    assert "virtual Black stones" in gtp.ok("tsumego-explain")
    assert gtp.ok("genmove b") == "B19"
    gtp.ok("clear_board")
    for c, v in setup + [("B", "B19")]:
        gtp.ok(f"play {c} {v}")
    assert gtp.ok("tsumego-status w").startswith("White to play cannot live")


def test_gogui_setup_and_player(gtp):
    gtp.ok("boardsize 7")
    gtp.ok("gogui-setup b F7 b F6 b A5 b B5 b C5 b D5 b E5 b F5 "
           "w A7 w E7 w A6 w B6 w C6 w D6 w E6")  # straight-three.sgf without its MA
    gtp.ok("gogui-setup_player b")
    assert gtp.ok("tsumego-status").startswith("Black to play kills unconditionally with C7")
    assert gtp.fails("gogui-setup b A1 w").startswith("gogui-setup needs")
    analyze = gtp.ok("gogui-analyze_commands").split("\n")
    assert "gfx/Tsumego: correct moves/tsumego-gfx %m" in analyze
    for entry in analyze:
        kind, label, command = entry.split("/", 2)
        assert kind in ("pstring", "gfx", "var", "string", "param", "none")
        assert command.split()[0] in gtp.ok("list_commands").split("\n")


def test_a_play_elsewhere_is_a_pass_of_the_problem(gtp):
    gtp.ok("boardsize 19")
    gtp.ok(f"loadsgf {PROBLEMS / 'plain' / 'straight-three-kill-tl.sgf'} 1")
    assert gtp.ok("tsumego-status b").startswith("Black to play kills")
    gtp.ok("play b Q4")  # far away: Black passes in the problem
    assert gtp.ok("tsumego-status w").startswith("White to play lives")
    gtp.ok("play w B19")  # White's vital point
    assert gtp.ok("genmove b") == "resign"
    gtp.ok("undo")
    gtp.ok("undo")
    assert gtp.ok("genmove b") == "B19"


def test_sabaki_analyze_streams_until_the_next_input(gtp):
    gtp.ok(f"loadsgf {PROBLEMS / 'bent-four-corner.sgf'} 1")
    gtp.send("analyze B 50")
    assert gtp.line() == "="
    info = gtp.line()
    assert info.startswith("info move A6 ") and "winrate 10000" in info
    assert " pv A6 " in info  # the main line of the best move
    assert "winrate 0 " in info  # the other moves, proved to lose
    gtp.send("name")  # any input ends the analysis
    assert gtp.line() == ""
    assert gtp.response() == (True, "tsumego")


def test_interrupt_stops_a_long_search():
    """GoGui's ``# interrupt`` line stops genmove; the engine says that nothing was proved
    and passes rather than guess."""
    c = Controller("--time-limit", "600")
    try:
        c.ok(f"loadsgf {SLOW / 'open-corner.sgf'} 1")
        c.send("genmove b")
        time.sleep(0.5)
        c.send("# interrupt")
        assert c.response() == (True, "pass")
        assert c.close() == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
    assert any("unproven" in ln and "interrupted" in ln for ln in c.err), c.err


def test_time_limit_is_honest():
    c = Controller("--time-limit", "0.2")
    try:
        c.ok(f"loadsgf {SLOW / 'open-corner.sgf'} 1")
        status = c.ok("tsumego-status b")
        assert "unknown (the time limit" in status
        assert c.ok("genmove b") == "pass"
        c.close()
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
    assert any("unproven: the time limit (0.2 s)" in ln for ln in c.err), c.err


def test_bad_options_are_one_line_errors():
    p = subprocess.run(_command() + ["gtp", "--threats", "3"], capture_output=True, text=True,
                       timeout=READ_TIMEOUT, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "-2..2" in p.stderr


# --- in-process: the pieces ---------------------------------------------------------------

def test_parse_line():
    assert parse_line("  12 play\tb  A1 # comment") == ("12", "play", ["b", "A1"])
    assert parse_line("name") == ("", "name", [])
    assert parse_line("# only a comment") is None and parse_line("   ") is None
    assert parse_line("play\x01 b A1") == ("", "play", ["b", "A1"])


def test_engine_never_raises_anything_but_gtp_errors():
    e = GtpEngine(time_limit=5)
    for name, args in [("play", []), ("play", ["b"]), ("boardsize", ["x"]), ("komi", []),
                       ("final_status_list", ["bogus"]), ("loadsgf", []),
                       ("gogui-setup", ["b", "pass"]), ("tsumego-param", ["nope", "1"]),
                       ("genmove", [])]:
        with pytest.raises(GtpError):
            e.execute(name, args)


def test_a_move_next_to_the_problem_sets_it_up_again_and_undo_takes_it_back(gtp):
    gtp.ok(f"loadsgf {PROBLEMS / 'straight-three.sgf'} 1")
    gtp.ok("play w G5")  # a liberty of Black's wall: the problem's surroundings change
    status = gtp.ok("tsumego-status b")
    assert "the problem is set up again from the board" in status
    gtp.ok("undo")
    assert gtp.ok("tsumego-status b") == "Black to play kills unconditionally with C7 (ca)"
    assert "SQUARE A7 E7 A6 B6 C6 D6 E6" == gtp.ok("tsumego-problem").split("\n")[0]


def test_a_new_balance_that_forbids_a_retake_played_sets_the_problem_up_again(gtp):
    gtp.ok(f"loadsgf {PROBLEMS / 'direct-ko.sgf'} 1")
    gtp.ok("tsumego-param threats -1")
    gtp.ok("play b A6")
    gtp.ok("play w A7")  # legal with White's threat
    gtp.ok("tsumego-param threats 0")  # now it is not: the engine says so
    status = gtp.ok("tsumego-status b")
    assert "repeats an earlier position" in status and "set up again" in status
    # the board is the problem's own start again: the file's problem is taken back
    assert status.startswith("Black to play kills with a ko with A6 (ab)")


def test_moves_after_the_end_change_nothing(gtp):
    gtp.ok(f"loadsgf {PROBLEMS / 'bent-four-corner.sgf'} 1")
    assert gtp.ok("genmove w") in ("A6", "A7")  # White lives: the problem is decided
    gtp.ok("play b B7")
    gtp.ok("play w pass")
    assert gtp.ok("tsumego-status b") == ("White has won: the target can no longer be "
                                          "captured.")
    assert gtp.ok("genmove b") == "resign" and gtp.ok("genmove w") == "pass"
    for _ in range(4):  # genmove's pass, White's pass, B7, White's move
        gtp.ok("undo")
    assert gtp.ok("tsumego-status b").startswith("Black to play kills with a ko")


def test_choosing_the_target(gtp):
    """The stones sent by a board program carry no MA: the target is inferred, and
    tsumego-target (GoGui: click a stone) chooses another."""
    path = PROBLEMS / "semeai.sgf"
    from tsumego.go.board import bits
    from tsumego.go.coords import to_gtp
    from tsumego.io.sgf import parse_position
    pos = parse_position(path.read_bytes(), str(path))
    gtp.ok(f"boardsize {pos.size}")
    for color, stones in (("B", pos.board.black), ("W", pos.board.white)):
        for p in bits(stones):
            gtp.ok(f"play {color} {to_gtp(p, pos.size)}")
    marked = to_gtp(pos.targets[0], pos.size)
    gtp.ok(f"tsumego-target {marked}")
    assert gtp.ok("tsumego-status b").startswith("Black to play kills unconditionally with B9")
    assert marked in gtp.ok("tsumego-problem").split("\n")[0].split()
    assert gtp.fails("tsumego-target E5") == "target ee is an empty point"
    assert gtp.ok("tsumego-status b").startswith("Black to play kills unconditionally with B9")
    gtp.ok("tsumego-target")  # back to the inference: White's larger block, H9-J6
    assert gtp.ok("tsumego-problem").split("\n")[0].split()[:2] == ["SQUARE", "H9"]
    # Black cannot kill it, so the problem is read again, as tsumego solve reads it: the
    # next block, C9, the marked one
    assert gtp.ok("tsumego-status b").startswith("Black to play kills unconditionally with B9")
    assert ("as first inferred (Black to kill), Black cannot kill White's target whatever the "
            "ko threats, and a published problem has a solution; read instead as another "
            "target, Black to kill White's block at C9 (ca), 4 stones") in gtp.ok(
                "tsumego-explain")


def test_the_problem_says_where_the_frame_may_decide(gtp, tmp_path):
    """A plain problem whose frame cuts the group's room
    (tests/knowledge/test_frame_sensitive.py): the problem's text says the frame may decide
    the result, and why."""
    f = tmp_path / "room.sgf"
    f.write_text("(;FF[4]GM[1]SZ[19]PL[W]C[White to play and live]"
                 "AB[la][lb][ac][bc][cc][dc][ec][fc][gc][hc][ic][jc][kc][lc]"
                 "AW[ab][bb][cb][db](;W[eb]C[RIGHT]))")
    gtp.ok(f"loadsgf {f}")
    text = gtp.ok("tsumego-problem").split("\n")[-1]
    assert text.startswith("TEXT Target: White A18 B18 C18 D18")
    assert text.endswith("; 2 virtual Black stones frame the problem; the frame may decide the "
                         "result: the target's way out reaches the frame at G19 (ga), G18 "
                         "(gb): frame stones, not Black's own, stop it there")


def test_a_board_with_no_solution_in_its_frame_is_read_again_in_a_wider_frame():
    """tests/knowledge/test_frame_sensitive.py's second-line room set up on the board, White
    to live: in the default frame White cannot live; read again two lines farther out (the
    room along the edge runs to Black's wall), White lives, and genmove plays a living move,
    as ``tsumego solve`` answers."""
    e = GtpEngine(time_limit=60)
    e.execute("boardsize", ["19"])
    e.execute("clear_board", [])
    for v in ("M19", "M18", *(f"{c}17" for c in "ABCDEFGHJKLM")):
        e.execute("play", ["b", v])
    for v in ("A18", "B18", "C18", "D18"):
        e.execute("play", ["w", v])
    assert e.execute("genmove", ["w"]) in ("B19", "E18")
    explain = e.execute("tsumego-explain", [])
    assert "rule: read again" in explain
    assert ("as first inferred (White to live), White cannot live whatever the ko threats, "
            "and a published problem has a solution; read instead as the same target, White "
            "to live, framed 2 lines farther out (18 empty points)") in explain
    assert "virtual" not in explain.splitlines()[0]  # Black's own wall: no frame stone


def test_a_board_too_open_as_first_read_is_read_again():
    """tests/search/test_reading.py's WRONG_WAY_ROUND set up on the board: first read, Black
    defends its stone at C19 in a region of 65 empty points (too open); with the roles
    swapped, Black kills White's corner, and genmove plays a killing move."""
    e = GtpEngine(time_limit=30)
    e.execute("boardsize", ["19"])
    e.execute("clear_board", [])
    for v in ("C19", "A17", "B17", "C17", "D17", "F17", "G17", "H17", "J17", "E16"):
        e.execute("play", ["b", v])
    for v in ("A18", "B18", "C18", "D18"):
        e.execute("play", ["w", v])
    explain = e.execute("tsumego-explain", [])
    assert "rule: read again" in explain
    assert ("as first inferred (Black to live), the framed region has 65 empty points, too "
            "open for a life-and-death problem; read instead as the roles swapped, Black to "
            "kill") in explain
    assert explain.startswith("Target: White A18 B18 C18 D18")
    assert e.execute("genmove", ["b"]) in ("E18", "B19", "D19", "E19")


def test_the_gtp_engine_reads_a_problem_again_under_its_interrupt() -> None:
    """A reading tried again (the first has no solution for the side to play) is solved
    under the command's interrupt, as the first reading is: GoGui's interrupt stops it."""
    gtp = GtpEngine(time_limit=600)
    gtp.interrupt()  # as GoGui's "# interrupt" line does, from the reader thread
    sol = gtp._solve_reading(read_problem(str(SLOW / "open-corner.sgf")).problem, BLACK)
    assert (sol.status, sol.limit) == ("unknown", "interrupt")
