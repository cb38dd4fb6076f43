"""The README and the docs as tests: the README's Python examples run (the ``>>>`` ones as
doctests, the others as scripts), its command examples and GTP session are what the commands
print, its links lead to files (and headings) that exist, and it stays short and free of
history; the command reference, ``docs/commands.md``, lists exactly the options and exit
codes that ``tsumego COMMAND --help`` prints."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import tsumego.go.board
import tsumego.go.coords
from tsumego.cli.main import main
from tsumego.cli.util import EXIT_CODES, exit_codes_text

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REFERENCE = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
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


# what changes from run to run, or with the search's work: node counts, times, the jobs
_VOLATILE = ((re.compile(r"\d[\d,]* nodes?\b"), "N nodes"), (re.compile(r"\d+\.\d+ s\b"), "T s"),
             (re.compile(r"main line \d+ moves?"), "main line M moves"),
             (re.compile(r"\(jobs \d+\)"), "(jobs J)"))


def _steady(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        for pattern, text in _VOLATILE:
            line = pattern.sub(text, line)
        out.append(line.rstrip())
    return out


def _follows(expected: list[str], got: list[str]) -> bool:
    """Does ``got`` read as ``expected``, where a line ``...`` stands for any lines?"""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    first, *middle, last = parts if len(parts) > 1 else (parts[0], parts[0])
    if len(parts) == 1:
        return got == expected
    if got[:len(first)] != first:
        return False
    pos = len(first)
    for part in middle:
        at = next((i for i in range(pos, len(got) - len(part) + 1)
                   if got[i:i + len(part)] == part), None)
        if at is None:
            return False
        pos = at + len(part)
    return len(got) - len(last) >= pos and got[len(got) - len(last):] == last


def _command_blocks() -> list[str]:
    return [b for b in _blocks("text")
            if b.startswith("$ tsumego ") and not b.startswith("$ tsumego gtp")]


@pytest.mark.parametrize("block", _command_blocks(), ids=lambda b: b.splitlines()[0][2:])
def test_command_examples_are_what_the_commands_print(block, tmp_path):
    """Each ``$ tsumego ...`` example of the README, run in a fresh folder that sees the
    project's problems and tests: its output is the README's, node counts and times aside
    (``...`` stands for lines left out)."""
    for name in ("problems", "tests"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    runs: list[tuple[str, list[str]]] = []
    for line in block.rstrip("\n").splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        else:
            runs[-1][1].append(line)
    assert runs
    for command, expected in runs:
        args = shlex.split(command)
        assert args[0] == "tsumego", command
        exe = [sys.executable, "-c", "from tsumego.cli.main import main; main()", *args[1:]]
        p = subprocess.run(exe, capture_output=True, text=True, timeout=600, cwd=tmp_path)
        got = p.stdout.rstrip("\n").splitlines()
        assert _follows(_steady(expected), _steady(got)), (
            f"{command} printed:\n{p.stdout}{p.stderr}")


def test_the_first_example_is_the_whole_output_of_solve():
    block = _command_blocks()[0]
    assert block.startswith("$ tsumego solve problems/bent-four-corner.sgf\n")
    assert "\n...\n" not in block


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
    """The section of ``command`` in docs/commands.md."""
    parts = re.split(r"^## `tsumego (\w+)[^`]*`$", REFERENCE, flags=re.M)
    found = {name: text.split("\n## ", 1)[0] for name, text in zip(parts[1::2], parts[2::2])}
    assert set(found) == set(COMMANDS), sorted(found)
    return found[command]


def _reference_options(text: str) -> set[str]:
    """The options in the first column of the section's tables of options."""
    out = set()
    in_options = False
    for line in text.splitlines():
        if line.startswith("| option |"):
            in_options = True
        elif not line.startswith("|"):
            in_options = False
        elif in_options and line.startswith("| `"):
            first = line.split(" | ")[0]
            out |= {o for o in _OPTION.findall(first)}
    return out


def test_every_command_has_a_reference_section():
    r = CliRunner().invoke(main, ["--help"], terminal_width=200)
    listed = set(re.findall(r"^  (\w+)  ", r.output.split("Commands:\n", 1)[1], re.M))
    assert listed == set(COMMANDS) == set(EXIT_CODES)
    assert "--version" in r.output and "`tsumego --version`" in REFERENCE


@pytest.mark.parametrize("command", COMMANDS)
def test_reference_lists_the_options_of_the_help(command):
    in_help = _help_options(_help(command))
    in_readme = _reference_options(_reference(command))
    assert in_help, command
    assert in_help - in_readme == set(), f"undocumented in commands.md: {in_help - in_readme}"
    assert in_readme - in_help == set(), f"not options of {command}: {in_readme - in_help}"


@pytest.mark.parametrize("command", COMMANDS)
def test_exit_codes_are_the_code_s(command):
    text = exit_codes_text(command)
    assert text in _reference(command)
    assert " ".join(text.split()) in " ".join(_help(command).split())
    codes = [int(c) for c in re.findall(r"(\d+) [a-z]", text.split(":", 1)[1])]
    assert codes == [c for c, _ in EXIT_CODES[command]]


# --- the documents as a newcomer reads them ----------------------------------------------------

DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(text: str) -> set[str]:
    """The anchors a Markdown renderer (GitHub's) gives the headings of ``text``."""
    out = set()
    for heading in re.findall(r"^#+ (.*)$", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M),
                              re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_lead_to_files_and_headings_that_exist(doc):
    text = doc.read_text(encoding="utf-8")
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.exists(), f"{doc.name}: {target} does not exist"
        if anchor:
            assert anchor in _anchors(file.read_text(encoding="utf-8")), \
                f"{doc.name}: no heading {target}"


def test_the_readme_is_short():
    assert len(README.splitlines()) < 200


@pytest.mark.parametrize("doc", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_user_documents_tell_no_history_of_the_work(doc):
    """The README and docs/ describe the program as it is: no work sessions, no issue
    numbers (the CHANGELOG keeps the history)."""
    found = re.findall(r"\bsessions?\b|issue #?[0-9]+", doc.read_text(encoding="utf-8"), re.I)
    assert not found, found
