"""Benchmark: `wsi manifest big.json --json`, whole process, against a bare orjson parse of the file.

Run: `.venv/bin/python tests/bench/bench_manifest.py [ENTRIES]`. Target (issue 18): at most 1.0× the
parse (garbage collector off), peak memory at most 1.5× the file. Both are timed in the same run,
best of three each; the CPU seconds (user + system) are printed too, as they move less than the
wall time when the machine is shared.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.measure import WSI, big_session  # noqa: E402


def run(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak resident bytes of one process, its output thrown away."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{argv[0]} failed")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def best_of(runs: int, argv: list[str]) -> tuple[float, float, int]:
    """The fastest wall and CPU time of `runs` runs, and the largest peak memory seen."""
    results = [run(argv) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path = big_session(entries)
    size = path.stat().st_size
    parse = [sys.executable, "-c", f"import gc, orjson; gc.disable(); orjson.loads(open({str(path)!r},'rb').read())"]
    base_s, base_cpu, base_mem = best_of(3, parse)
    wsi_s, wsi_cpu, wsi_mem = best_of(3, [str(WSI), "manifest", str(path), "--json"])
    print(f"file: {path.name}, {size / 1e6:.1f} MB, {entries:,} entries")
    print(f"orjson.loads baseline: {base_s:.2f} s ({base_cpu:.2f} s CPU), peak {base_mem / 1e6:.0f} MB")
    print(f"wsi manifest --json:   {wsi_s:.2f} s ({wsi_cpu:.2f} s CPU), peak {wsi_mem / 1e6:.0f} MB")
    print(f"ratio: {wsi_s / base_s:.2f}× the parse ({wsi_cpu / base_cpu:.2f}× in CPU; target ≤ 1.0×); "
          f"memory {wsi_mem / size:.2f}× the file (target ≤ 1.5×)")


if __name__ == "__main__":
    main()
