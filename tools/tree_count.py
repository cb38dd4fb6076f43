#!/usr/bin/env python3
"""Exact sizes of full solution trees, counted without holding them.

    python tools/tree_count.py FILE... [--time-limit S] [--tree-time-limit S]

Each problem is solved for the side in its ``PL`` (``--time-limit`` seconds, default 60), and
its full tree, at the balance the command line builds it at, is counted by
:func:`tsumego.proofs.tree.full_tree_size`: the same choices as ``build_tree`` (the smaller of its
trees without and with the lookahead, within ``--tree-time-limit``, default 1800 s like the
command line's), with the subtrees the builder would copy counted instead of made. So a tree
far too large to write (or to hold) gets its exact size. One line per problem: name, side,
balance, nodes, seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from tree_stats import for_each_solved

from tsumego.errors import BudgetExhausted
from tsumego.go.problem import Problem
from tsumego.proofs.tree import full_tree_size


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--time-limit", type=float, default=60.0, help="solve limit, seconds")
    ap.add_argument("--tree-time-limit", type=float, default=1800.0)
    args = ap.parse_args(argv)
    print(f"{'problem':30} {'pl':2} {'bal':>4} {'nodes':>22} {'s':>7}")

    def count_one(f: str, problem: Problem, side: str, balance: int) -> None:
        t0 = time.monotonic()
        try:
            n = full_tree_size(problem, to_play=problem.to_play, balance=balance,
                               time_limit=args.tree_time_limit)
        except BudgetExhausted as err:
            print(f"{f:30} {side:2} {balance:+4d} {err}", flush=True)
            return
        print(f"{f:30} {side:2} {balance:+4d} {n:22,d} {time.monotonic() - t0:7.1f}",
              flush=True)

    for_each_solved(args.files, args.time_limit, count_one)
    return 0


if __name__ == "__main__":
    sys.exit(main())
