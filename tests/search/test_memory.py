"""Memory held to its bound: every table and cache the engine keeps is capped by --tt-size.
A search of a few seconds (well over a million nodes) under a small table size stays under a
bound a table that grew with the search would pass many times over."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"

# tt_size 20,000: the tables and caches hold a few megabytes; the interpreter, numpy and the
# package take about 40 MB. A search that kept every position it met (about 150 bytes each in
# the compiled core, 500 in the reference engine) would hold hundreds of megabytes here.
BOUND_MIB = 120

# The peak is read from /proc/self/status (VmHWM, the peak of this process's own memory map):
# getrusage's ru_maxrss survives exec, so a child of a large pytest process would report the
# parent's peak.
SCRIPT = """
import resource, sys
def peak_mib():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
sys.path.insert(0, sys.argv[1])
import scale
from tsumego import BLACK, solve
from tsumego.search.engine import SearchOptions
p = scale.scale_problem(16, "open")
sol = solve(p, to_play=BLACK, time_limit=4.0, tt_size=20_000,
            options=SearchOptions(engine=sys.argv[2]))
print(sol.nodes, peak_mib())
"""


def test_a_long_search_stays_under_the_bound_of_its_table_size() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(TOOLS), "compiled"],
                         capture_output=True, text=True, check=True, timeout=120)
    nodes, peak_mib = map(int, out.stdout.split())
    assert nodes > 300_000  # long enough that unbounded tables would show
    assert peak_mib < BOUND_MIB, (nodes, peak_mib)
