"""Build the eye-space database stored in the package (``tsumego/knowledge/data/eyespace.npz``).

    python tools/build_eyespace.py [--max-cells N] [--out PATH]

Every shape of at most N cells (default :data:`tsumego.knowledge.eyespace.MAX_CELLS`) is solved
by retrograde analysis over all its contents (:func:`tsumego.knowledge.eyespace.solve_shape`);
the arrays are written with numpy's compressed format. The build is deterministic: the same code
writes the same table, and ``tests/knowledge/test_eyespace.py`` re-solves a sample of shapes
against the stored one.
It refuses to overwrite an existing file unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from tsumego.knowledge.eyespace import MAX_CELLS, all_shapes, make_shape, solve_shape

DEFAULT_OUT = (Path(__file__).resolve().parent.parent / "tsumego" / "knowledge" / "data"
               / "eyespace.npz")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-cells", type=int, default=MAX_CELLS)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--force", action="store_true", help="overwrite an existing file")
    args = ap.parse_args(argv)
    if not 1 <= args.max_cells <= MAX_CELLS:
        ap.error(f"--max-cells must be within 1..{MAX_CELLS}")
    if args.out.exists() and not args.force:
        print(f"{args.out}: exists (use --force to overwrite)", file=sys.stderr)
        return 1
    start = time.monotonic()
    keys = all_shapes(args.max_cells)
    cells = np.zeros((len(keys), MAX_CELLS), dtype=np.uint8)
    sizes = np.zeros(len(keys), dtype=np.uint8)
    tadj = np.zeros(len(keys), dtype=np.uint8)
    values = bytearray()
    for i, (cs, t) in enumerate(keys):
        cells[i, :len(cs)] = [y * 8 + x for x, y in cs]
        sizes[i] = len(cs)
        tadj[i] = t
        values += solve_shape(make_shape(cs, t))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "wb") as f:
        np.savez_compressed(f, cells=cells, sizes=sizes, tadj=tadj,
                            values=np.frombuffer(bytes(values), dtype=np.uint8))
    print(f"{len(keys)} shapes, {len(values):,} values, {args.out.stat().st_size:,} bytes "
          f"written to {args.out} in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
