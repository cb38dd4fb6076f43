"""The durable JSON lines files of long runs (tsumego.batch.journal)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tsumego.batch.journal import Journal, JournalError, read_json_lines, write_json_lines


def test_each_record_is_in_the_file_when_append_returns(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    j = Journal(path)
    assert path.read_bytes() == b""
    j.append({"a": 1, "text": "é"})
    j.append({"b": [1, 2]})
    # read while the journal is still open, as a reader after a kill would see it
    assert read_json_lines(path) == [{"a": 1, "text": "é"}, {"b": [1, 2]}]
    assert path.read_text(encoding="utf-8").count("\n") == 2
    j.append({"c": 3}, sync=False)  # in the file at once, on the disk at the next sync
    assert read_json_lines(path)[-1] == {"c": 3}
    j.sync()
    j.close()
    with pytest.raises(ValueError):
        j.append({"d": 4})


def test_a_journal_starts_with_the_records_it_keeps(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text('{"old": 1}\n{"old": 2}\n{"torn": ')
    with Journal(path, [{"old": 1}]) as j:
        j.append({"new": 3})
    assert read_json_lines(path) == [{"old": 1}, {"new": 3}]
    assert path.read_text() == '{"old": 1}\n{"new": 3}\n'


@pytest.mark.parametrize("tail", [b'{"file": "x", "ga', b'{"whole": true}', b"\x00\x00\x00",
                                  b"\x00\x00\x00\n", b"garbage\n\n", b"[" * 100_000 + b"\n"])
def test_a_last_line_cut_short_is_left_out(tmp_path: Path, tail: bytes) -> None:
    path = tmp_path / "out.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"b": 2}\n' + tail)
    assert read_json_lines(path) == [{"a": 1}, {"b": 2}]


@pytest.mark.parametrize("body", [b"not json\n{}\n", b'{"a": 1}\n[1, 2]\n{"b": 2}\n',
                                  b'\xff\xfe\n{"a": 1}\n'])
def test_a_line_that_is_not_an_object_before_the_last_is_an_error(tmp_path: Path,
                                                                  body: bytes) -> None:
    path = tmp_path / "out.jsonl"
    path.write_bytes(body)
    with pytest.raises(JournalError) as e:
        read_json_lines(path)
    assert str(e.value).startswith(f"{path}: line ") and "\n" not in str(e.value)


def test_a_file_is_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    write_json_lines(path, [{"a": 1}])

    def records():  # type: ignore[no-untyped-def]
        yield {"b": 2}
        raise KeyboardInterrupt  # stopped while writing the new file

    with pytest.raises(KeyboardInterrupt):
        write_json_lines(path, records())
    assert read_json_lines(path) == [{"a": 1}]
    assert os.listdir(tmp_path) == ["out.jsonl"]  # nothing left beside it
    write_json_lines(path, [{"c": 3}])
    assert read_json_lines(path) == [{"c": 3}]


def test_text_that_utf8_cannot_carry_is_kept_exactly(tmp_path: Path) -> None:
    """A file name that was not UTF-8 on the disk reaches Python with a lone surrogate."""
    path = tmp_path / "out.jsonl"
    records = [{"file": "d/\udcffbad.sgf"}, {"file": "é"}]
    with Journal(path) as j:
        for r in records:
            j.append(r)
    assert read_json_lines(path) == records
    assert "é" in path.read_text(encoding="utf-8")  # readable where it can be
