"""Benchmark: what structured places (wsi_inspector.core.session.place) cost a load, against the load itself.

Run: `.venv/bin/python tests/bench/bench_places.py [ENTRIES]`. Every entry and body has a Place where
before issue 13 it had the printed text. JSON Lines makes one per line while loading; the JSON form
keeps an entry's `/store/N` text and makes its Place when first asked (few are). Measured in the same
run on a generated session of ENTRIES small entries, best of 5: each load; ENTRIES places made the
JSON Lines loader's way against ENTRIES f-strings (what a place cost before); and asking every
loaded JSON-form entry its place (the deferred cost, paid only by code that asks them all).
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.session.place import Place  # noqa: E402
from wsi_inspector.core.session.load import load  # noqa: E402


def best(runs: int, work: Callable[[], object]) -> float:
    """The fastest of `runs` runs of `work`, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main(entries: int) -> None:
    records = [{"id": f"c{i}", "call": "pack.a.b", "input": {"n": i, "p": [[i, i + 1]]}, "unit": "mm"} for i in range(entries)]
    head = {"format": "worker-session/1", "session": {"id": "bench"}}
    with tempfile.TemporaryDirectory() as folder:
        json_path, lines_path = Path(folder) / "s.json", Path(folder) / "s.jsonl"
        json_path.write_text(json.dumps({**head, "store": records}))
        lines_path.write_text("\n".join(json.dumps(r) for r in [head, *({"kind": "entry", **r} for r in records)]) + "\n")
        load_json = best(5, lambda: load(json_path))
        load_lines = best(5, lambda: load(lines_path))
        asked = []
        for _ in range(5):
            entries_of = load(json_path).entries
            start = time.perf_counter()
            places = [entry.where for entry in entries_of]
            asked.append(time.perf_counter() - start)
            assert len(places) == entries
    texts = best(5, lambda: [f"line {i}" for i in range(entries)])
    lines = best(5, lambda: [Place.record_line(i) for i in range(entries)])
    print(f"load, {entries:,} entries: JSON {load_json:.3f} s, JSON Lines {load_lines:.3f} s")
    print(f"{entries:,} places as text (before): {texts * 1000:.1f} ms; as Place.record_line (JSON Lines, now): {lines * 1000:.1f} ms "
          f"-> {(lines - texts) / load_lines:.1%} of a JSON Lines load")
    print(f"every JSON-form entry asked its place after the load: {min(asked) * 1000:.1f} ms ({min(asked) / load_json:.1%} of a JSON load; "
          "the load itself makes none)")

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
