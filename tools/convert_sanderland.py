#!/usr/bin/env python3
"""Convert "Ten Thousand Tsumego" problems (sanderland/tsumego JSON) to SGF.

    python tools/convert_sanderland.py SRC... -o OUTDIR

Each SRC is a ``*.json`` file or a directory searched recursively; every problem becomes one
SGF file under OUTDIR, at the same path relative to its SRC directory, with ``.sgf`` for
``.json``. The JSON format (one problem per file)::

    {"AB": ["eb", ...], "AW": ["da", ...], "SZ": "19", "C": "Black to play: Elementary",
     "SOL": [["B", "ba", "Correct.", ""]]}

becomes ``(;FF[4]GM[1]SZ[19]PL[B]AB[..]AW[..]C[Black to play: Elementary](;B[ba]C[RIGHT]))``:
the setup in the root, ``PL`` the colour of the listed moves, and every listed first move as a
variation whose comment starts with ``RIGHT`` (the JSON's own comment and note follow it). A
problem whose ``SOL`` lists no point ("No correct solution on file") gets no variation, and
its root comment says so. There is no ``MA``: the files are plain problems and
``tsumego solve`` infers the target (docs/inference.md). Exits 1 if any file could not be
converted (the others are still written).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tsumego.io.sgf import SgfNode, serialize


class ConvertError(ValueError):
    """A JSON problem that cannot be converted."""


def _check_point(s: object, size: int, what: str) -> str:
    if not isinstance(s, str) or len(s) != 2 or not s.isalpha() or not s.islower():
        raise ConvertError(f"{what}: not an SGF point: {s!r}")
    if ord(s[0]) - 97 >= size or ord(s[1]) - 97 >= size:
        raise ConvertError(f"{what}: point {s!r} is off a {size}x{size} board")
    return s


def convert(obj: Any, name: str = "") -> bytes:
    """One JSON problem (already decoded) as SGF bytes. Raises :class:`ConvertError`."""
    if not isinstance(obj, dict):
        raise ConvertError("not a JSON object")
    try:
        size = int(obj.get("SZ", 19))
    except (TypeError, ValueError):
        raise ConvertError(f"bad SZ: {obj.get('SZ')!r}") from None
    if not 2 <= size <= 19:
        raise ConvertError(f"board size {size} is not supported (2..19)")
    root = SgfNode({"FF": ["4"], "GM": ["1"], "CA": ["UTF-8"], "SZ": [str(size)]}, [])
    seen: set[str] = set()
    for prop in ("AB", "AW"):
        pts = obj.get(prop) or []
        if not isinstance(pts, list):
            raise ConvertError(f"{prop} is not a list")
        vals = []
        for s in pts:
            _check_point(s, size, prop)
            if s in seen:
                raise ConvertError(f"{prop}: point {s} is set twice")
            seen.add(s)
            vals.append(s)
        if vals:
            root.props[prop] = vals
    comment = str(obj.get("C") or "").strip()
    sol = obj.get("SOL") or []
    if not isinstance(sol, list):
        raise ConvertError("SOL is not a list")
    color: str | None = None
    no_answer = False
    moves: set[str] = set()
    for i, entry in enumerate(sol):
        if not isinstance(entry, list) or len(entry) < 2:
            raise ConvertError(f"SOL[{i}] is not [colour, point, ...]")
        c = str(entry[0]).upper()
        if c not in ("B", "W"):
            raise ConvertError(f"SOL[{i}]: bad colour {entry[0]!r}")
        if color is None:
            color = c
        elif c != color:
            raise ConvertError("SOL lists moves of both colours")
        point = entry[1]
        text = " ".join(str(t).strip() for t in entry[2:] if str(t).strip())
        if not point:
            no_answer = True
            if text:
                comment = f"{comment}\n\n{text}" if comment else text
            continue
        _check_point(point, size, f"SOL[{i}]")
        if point in seen:
            raise ConvertError(f"SOL[{i}]: {point} is occupied")
        if point in moves:
            continue
        moves.add(point)
        root.children.append(SgfNode({c: [point], "C": ["RIGHT" + (f"\n\n{text}" if text
                                                                   else "")]}, []))
    if color is not None:
        root.props["PL"] = [color]
    if no_answer and not moves and "no correct solution" not in comment.lower():
        comment = f"{comment}\n\nNo correct solution on file." if comment else (
            "No correct solution on file.")
    if comment:
        root.props["C"] = [comment]
    if name:
        root.props["GN"] = [name]
    return serialize(root)


def convert_file(path: Path, name: str = "") -> bytes:
    """Read and convert one JSON file. Raises :class:`ConvertError` (with the file name)."""
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConvertError(f"{path}: cannot read JSON ({e})") from None
    try:
        return convert(obj, name or path.stem)
    except ConvertError as e:
        raise ConvertError(f"{path}: {e}") from None


def _sources(src: Path) -> list[tuple[Path, Path]]:
    """(json file, relative output path) pairs for one SRC argument."""
    if src.is_file():
        return [(src, Path(src.name).with_suffix(".sgf"))]
    found = sorted(p for p in src.rglob("*.json") if p.is_file())
    return [(p, p.relative_to(src).with_suffix(".sgf")) for p in found]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="+", help="JSON files or directories")
    ap.add_argument("-o", "--out", required=True, help="output directory")
    ap.add_argument("-q", "--quiet", action="store_true", help="no per-file output")
    args = ap.parse_args(argv)
    out = Path(args.out)
    failed = written = 0
    for s in args.sources:
        src = Path(s)
        if not src.exists():
            print(f"convert_sanderland: {src}: not found", file=sys.stderr)
            failed += 1
            continue
        for path, rel in _sources(src):
            try:
                data = convert_file(path)
            except ConvertError as e:
                print(f"convert_sanderland: {e}", file=sys.stderr)
                failed += 1
                continue
            dest = out / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            written += 1
            if not args.quiet:
                print(dest)
    print(f"converted {written} problem(s), {failed} failure(s)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
