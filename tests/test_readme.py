"""The README as a test: its Python examples run (the ``>>>`` ones as doctests, the others as
scripts), its command output and GTP session are what the commands print, and its command
reference lists exactly the options and exit codes that ``tsumego COMMAND --help`` prints."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import tsumego.go.board
import tsumego.go.coords
from tsumego.cli.main import main
from tsumego.cli.util import EXIT_CODES, exit_codes_text

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = ("solve", "export", "check", "verify", "gtp")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.S | re.M)


def _run_doctest(text: str, name: str) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, name, str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


@pytest.fixture
def in_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_python_examples_run(in_root, tmp_path):
    blocks = _blocks("python")
    assert any(">>>" in b for b in blocks) and any(">>>" not in b for b in blocks)
    for i, block in enumerate(blocks):
        if ">>>" in block:
            _run_doctest(block, f"README block {i}")
            continue
        # a script, run as a user runs it (workers of verify_all import it again)
        script = tmp_path / f"example{i}.py"
        script.write_text(block, encoding="utf-8")
        p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           cwd=ROOT, timeout=600)
        assert p.returncode == 0, p.stderr
        assert p.stdout.strip() and "died" not in p.stdout, p.stdout


def test_module_docstring_examples():
    for module in (tsumego.go.coords, tsumego.go.board):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__


_TIMES = re.compile(r"\d[\d,]* nodes?, \d+\.\d+ s")


def test_solve_output_is_what_the_command_prints(in_root):
    block = next(b for b in _blocks("text") if b.startswith("$ tsumego solve"))
    command, *expected = block.rstrip("\n").splitlines()
    got = CliRunner().invoke(main, command.split()[2:]).stdout.rstrip("\n").splitlines()
    assert [_TIMES.sub("N", ln) for ln in got] == [_TIMES.sub("N", ln) for ln in expected]


def test_gtp_session_is_what_the_engine_answers(in_root):
    block = next(b for b in _blocks("text") if b.startswith("$ tsumego gtp"))
    lines = block.splitlines()[1:]
    commands = [ln for ln in lines if ln and ln[0] not in "=?"]
    expected = [ln for ln in lines if ln and ln[0] in "=?"]
    exe = [sys.executable, "-c", "from tsumego.cli.main import main; main()", "gtp"]
    p = subprocess.run(exe, input="\n".join(commands) + "\n", capture_output=True, text=True,
                       timeout=600, cwd=ROOT)
    got = [ln for ln in p.stdout.splitlines() if ln]
    assert got == expected
    for line in re.findall(r"`(tsumego: genmove .*?)`", README, re.S):
        assert " ".join(line.split()) in p.stderr


# --- the command reference against --help -------------------------------------------------

_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b")


def _help(command: str) -> str:
    r = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert r.exit_code == 0
    return r.output


def _help_options(text: str) -> set[str]:
    options = text.split("\nOptions:\n", 1)[1]
    out = set()
    for line in options.splitlines():
        entry = line.strip().split("  ")[0]  # the option column
        if entry.startswith("-"):
            out |= set(_OPTION.findall(entry))
    return out - {"--help"}


def _reference(command: str) -> str:
    section = README.split("## Command reference", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^#### `tsumego (\w+)[^`]*`$", section, flags=re.M)
    found = dict(zip(parts[1::2], parts[2::2]))
    assert set(found) == set(COMMANDS), sorted(found)
    return found[command]


def _reference_options(text: str) -> set[str]:
    out = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            first = line.split(" | ")[0]
            out |= {o for o in _OPTION.findall(first)}
    return out


def test_every_command_has_a_reference_section():
    r = CliRunner().invoke(main, ["--help"], terminal_width=200)
    listed = set(re.findall(r"^  (\w+)  ", r.output.split("Commands:\n", 1)[1], re.M))
    assert listed == set(COMMANDS) == set(EXIT_CODES)
    assert "--version" in r.output and "`tsumego --version`" in README


@pytest.mark.parametrize("command", COMMANDS)
def test_reference_lists_the_options_of_the_help(command):
    in_help = _help_options(_help(command))
    in_readme = _reference_options(_reference(command))
    assert in_help, command
    assert in_help - in_readme == set(), f"undocumented in the README: {in_help - in_readme}"
    assert in_readme - in_help == set(), f"not options of {command}: {in_readme - in_help}"


@pytest.mark.parametrize("command", COMMANDS)
def test_exit_codes_are_the_code_s(command):
    text = exit_codes_text(command)
    assert text in _reference(command)
    assert " ".join(text.split()) in " ".join(_help(command).split())
    codes = [int(c) for c in re.findall(r"(\d+) [a-z]", text.split(":", 1)[1])]
    assert codes == [c for c, _ in EXIT_CODES[command]]
