"""Benchmark: small files feel instant. `wsi --version` and `wsi manifest demo.json --json`, whole process.

Run: `.venv/bin/python tests/bench/bench_startup.py [RUNS]`. Target (issue 28): each at most 150 ms wall
on this machine. Printed beside `python -c pass` (the interpreter alone, measured in the same run) and
the ratio to it, best of RUNS (10) each, as the machine is shared. `python -X importtime` says where
the rest goes.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.measure import WSI, best_of  # noqa: E402

DEMO = Path(__file__).resolve().parents[2] / "resources" / "sessions" / "demo.json"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    bare, _ = best_of(runs, [sys.executable, "-c", "pass"])
    print(f"best of {runs}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'python -c pass':40} {bare * 1000:6.0f} ms")
    for name, argv in [("wsi --version", [str(WSI), "--version"]),
                       ("wsi manifest demo.json --json", [str(WSI), "manifest", str(DEMO), "--json"])]:
        wall, _ = best_of(runs, argv)
        print(f"{name:40} {wall * 1000:6.0f} ms  {wall / bare:5.1f}× python -c pass  (target ≤ 150 ms)")


if __name__ == "__main__":
    main()
