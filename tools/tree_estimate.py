#!/usr/bin/env python3
"""Estimated sizes of full solution trees too large to build (Knuth's estimator).

    python tools/tree_estimate.py FILE... [--probes N] [--seed S] [--time-limit S]
                                  [--estimate-time-limit S]

Each problem is solved for the side in its ``PL`` (``--time-limit`` seconds, default 60), and
the full tree at the balance the command line builds it at is estimated from ``--probes``
random lines (:func:`tsumego.proofs.tree.estimate_full_tree`: the builder's choices without its
lookahead, which makes built trees smaller). One line per problem: name, side, balance,
probes, the estimate (the probes' mean), their median and largest, the longest line probed
in moves, and the seconds the estimate took. A mean close to ``largest / probes`` comes
from a single probe: the tree's size sits in rare long lines, and the figure is a floor more
than an estimate.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from tree_stats import for_each_solved

from tsumego.errors import BudgetExhausted
from tsumego.go.problem import Problem
from tsumego.proofs.tree import estimate_full_tree


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--probes", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0, help="solve limit, seconds")
    ap.add_argument("--estimate-time-limit", type=float, default=1800.0)
    args = ap.parse_args(argv)
    print(f"{'problem':30} {'pl':2} {'bal':>4} {'probes':>7} {'mean':>9} {'median':>9} "
          f"{'largest':>9} {'plies':>5} {'s':>7}")

    def estimate_one(f: str, problem: Problem, side: str, balance: int) -> None:
        t0 = time.monotonic()
        try:
            e = estimate_full_tree(problem, to_play=problem.to_play, balance=balance,
                                   probes=args.probes, seed=args.seed,
                                   time_limit=args.estimate_time_limit)
        except BudgetExhausted as err:
            print(f"{f:30} {side:2} {balance:+4d} {err}", flush=True)
            return
        print(f"{f:30} {side:2} {balance:+4d} {e.probes:7d} {e.mean:9.3g} {e.median:9.3g} "
              f"{e.largest:9.3g} {e.plies:5d} {time.monotonic() - t0:7.1f}", flush=True)

    for_each_solved(args.files, args.time_limit, estimate_one)
    return 0


if __name__ == "__main__":
    sys.exit(main())
