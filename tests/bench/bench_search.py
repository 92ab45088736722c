"""Benchmark: the Inputs text search over every entry of the 100,000-entry session.

Run: `.venv/bin/python tests/bench/bench_search.py [ENTRIES]`. Targets (issue 18): a value search that
matches every entry in at most 200 ms, one that matches few in at most 50 ms, without keeping more
than a batch of text. Baseline, measured in the same run: one bare `bytes.find` of a missing needle
over the whole file's bytes (what reading every byte once costs at all). The first search of a
session also reads where each hit record's input lies (kept for later searches); it is shown apart.
Each figure is the best of three.
"""
from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.filtering import ManifestIndex  # noqa: E402
from core.session import load  # noqa: E402
from tests.bench.measure import big_session  # noqa: E402

SEARCHES = {"every entry (ward)": "ward", "every entry, a key (bandDepth)": "bandDepth",
            "one entry (run 5000 )": "run 5000 ", "no entry (zqxj)": "zqxj", "punctuation (\"level\":3)": '"level":3'}


def _best(action, runs: int = 3) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        began = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - began)
    return min(times) * 1000, result


def _baseline(path: Path) -> float:
    """Milliseconds of one bare `bytes.find` over the file's bytes (best of three); the bytes let go after."""
    data = path.read_bytes()
    ms, _ = _best(lambda: data.find(b"zqxj-not-there"))
    return ms


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path = big_session(entries)
    baseline = _baseline(path)
    session = load(path)
    gc.collect()
    index = ManifestIndex(session.entries)
    rows = range(len(session.entries))
    began = time.perf_counter()
    first = len(index.containing(rows, "ward"))
    first_ms = (time.perf_counter() - began) * 1000
    print(f"{len(session.entries):,} entries, {path.stat().st_size / 1e6:.1f} MB; baseline bytes.find over the file: {baseline:.1f} ms")
    print(f"first search of the session (ward, {first:,} rows, reads input spans): {first_ms:.0f} ms ({first_ms / baseline:.1f}x)")
    for label, text in SEARCHES.items():
        ms, found = _best(lambda t=text: index.containing(rows, t))
        print(f"{label:34} {len(found):>7,} rows {ms:8.1f} ms  {ms / baseline:5.1f}x baseline")


if __name__ == "__main__":
    main()
