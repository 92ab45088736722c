"""Benchmark: `json_bytes` on number-dense corrections (~4 MB at the default count), against `len(orjson.dumps(v))` on the same value.

Moved here from tests/core/jsrules/test_jsonsize.py (issue 13), which asserted it took under 3 s: a per-match
rescan of the text would take minutes, so the figure to watch is the ratio to orjson, which stays
roughly constant while the counting is linear. The answer is checked against `js_stringify` too.

Run: `.venv/bin/python tests/bench/bench_dense_numbers.py [COUNT]` (default 300,000).
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.jsrules.jsonsize import js_stringify, json_bytes  # noqa: E402
from tests.helpers.json_values import dense_corrections  # noqa: E402


def best(runs: int, measure: Callable[[], object]) -> float:
    """The fastest wall seconds of `runs` calls."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        measure()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
    for size in (count // 4, count):  # two sizes: linear time keeps seconds/size (and the ratio) flat
        value = dense_corrections(size)
        assert json_bytes(value) == len(js_stringify(value).encode())
        ours = best(3, lambda value=value: json_bytes(value))
        baseline = best(3, lambda value=value: len(orjson.dumps(value)))
        megabytes = json_bytes(value) / 1e6
        print(f"dense corrections ×{size:,} ({megabytes:.1f} MB): json_bytes {ours:.3f} s, orjson.dumps {baseline:.3f} s, "
              f"ratio {ours / baseline:.1f}×, {megabytes / ours:.0f} MB/s")


if __name__ == "__main__":
    main()
