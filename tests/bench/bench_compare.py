"""Benchmark: `wsi compare` on two 10,000-body, 100,000-entry sessions that differ in a few places.

Run: `.venv/bin/python tests/bench/bench_compare.py [ENTRIES]`. A is `make_big` with 10 calls per
body (10,000 bodies); B is A with one body inserted, one dropped, one call's input changed and one
body failing. Targets (issue 33): the compare itself at most 2 s headless; what the compare window
does (both read at once, then compared) at most 1.2× reading both one after the other, measured in
the same run (the machine is shared: figures vary with its load). Also shown: the window opened by File ▸
Compare with… on the open session, which takes A as the main window loaded it and reads only B.
`--real [ENTRIES]` measures the same on make_real's real-shaped session in every form (see `real_forms`).
"""
from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.edits.compare import compare_sessions, load_pair  # noqa: E402
from wsi_inspector.core.session.load import load  # noqa: E402
from tests.bench.make_big import make_big  # noqa: E402

TARGET_SECONDS = 2.0
TARGET_WINDOW_RATIO = 1.2
CALLS_PER_BODY = 10


def make_b(a: Path, b: Path) -> None:
    """A written again as B, changed by `differ`."""
    document = orjson.loads(a.read_bytes())
    differ(document)
    b.write_bytes(orjson.dumps(document))


def differ(document: dict) -> None:
    """A body inserted (at a fifth), one dropped (at 7 tenths), an input changed (half way), a failure (9 tenths)."""
    bodies, store = document["bodies"], document["store"]
    count = len(bodies)
    dropped = bodies[count * 7 // 10]["id"]
    document["bodies"] = [b for b in bodies if b["id"] != dropped]
    document["store"] = [e for e in store if e.get("body") != dropped]
    at = next(i for i, e in enumerate(document["store"]) if e.get("body") == bodies[count // 5]["id"])
    document["bodies"].insert(count // 5, {"id": "inserted", "code": "return 1;", "result": {"ok": True, "returned": 1}})
    document["store"].insert(at, {"id": "x1", "call": "pack.rooms.place", "unit": "mm", "body": "inserted",
                                  "input": {"n": 1}})
    document["store"][len(store) // 2]["input"]["bandDepth"] = 36
    document["bodies"][count * 9 // 10]["result"] = {"ok": False, "error": "TypeError: x is undefined"}


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as folder:
        a, b = Path(folder) / "a.json", Path(folder) / "b.json"
        make_big(a, entries, calls_per_body=CALLS_PER_BODY)
        make_b(a, b)
        started = time.perf_counter()
        session_a, session_b = load(a), load(b)
        loaded = time.perf_counter() - started
        gc.collect()
        started = time.perf_counter()
        document = compare_sessions(session_a, session_b)
        seconds = time.perf_counter() - started
        del session_a, session_b
        gc.collect()
        started = time.perf_counter()  # what the compare window's job does: both read at once, then compared
        session_a, session_b = load_pair(a, b)
        compare_sessions(session_a, session_b)
        window = time.perf_counter() - started
        del session_b
        gc.collect()
        # File ▸ Compare with… on the open session: A is the main window's, only B is read.
        started = time.perf_counter()
        session_b = load(b)
        compare_sessions(session_a, session_b)
        from_open = time.perf_counter() - started
    differ = [(s["a"], s["b"]) for s in document["steps"] if not s["same"]]
    print(f"{len(session_a.bodies):,} / {len(session_b.bodies):,} bodies, {len(session_a.entries):,} / "
          f"{len(session_b.entries):,} entries: {len(document['steps']):,} steps, {len(differ)} differ: {differ}")
    print(f"first divergence: {document['firstDivergence']['why'] if document['firstDivergence'] else None}")
    print(f"loading both: {loaded:.2f} s; compare: {seconds:.2f} s (target ≤ {TARGET_SECONDS} s) "
          f"{'OK' if seconds <= TARGET_SECONDS else 'OVER'}")
    print(f"the compare window's work (both read at once, then compared): {window:.2f} s = {window / loaded:.2f}× "
          f"loading both (target ≤ {TARGET_WINDOW_RATIO}×) {'OK' if window <= TARGET_WINDOW_RATIO * loaded else 'OVER'}")
    print(f"the compare window from the open session (A as loaded, B read, then compared): {from_open:.2f} s = "
          f"{from_open / loaded:.2f}× loading both {'OK' if from_open <= TARGET_WINDOW_RATIO * loaded else 'OVER'}")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def real_forms(entries: int) -> None:
    """`--real [ENTRIES]`: make_real's real-shaped session (full doubles, outputs; 10 calls a body) as A, and B, A
    changed as `differ` changes it, each in every form; compared in each form and across forms, each row
    against loading both in the same run (issue 33's targets on users' shapes)."""
    from tests.bench.make_real import write_forms

    with tempfile.TemporaryDirectory() as folder:
        a_paths = write_forms(Path(folder) / "a", entries, CALLS_PER_BODY)
        b_paths = write_forms(Path(folder) / "b", entries, CALLS_PER_BODY, change=differ)
        for a_form, b_form in [("compact", "compact"), ("indent", "indent"), ("jsonl", "jsonl"), ("jsonl.gz", "jsonl.gz"),
                               ("compact", "jsonl"), ("compact", "indent")]:
            a, b = a_paths[a_form], b_paths[b_form]
            gc.collect()
            started = time.perf_counter()
            session_a, session_b = load(a), load(b)
            loaded = time.perf_counter() - started
            started = time.perf_counter()
            document = compare_sessions(session_a, session_b)
            seconds = time.perf_counter() - started
            differ_count = sum(not s["same"] for s in document["steps"])
            del session_a, session_b
            gc.collect()
            started = time.perf_counter()
            compare_sessions(*load_pair(a, b))
            window = time.perf_counter() - started
            print(f"{a_form:>8} vs {b_form:<8} ({len(document['steps']):,} steps, {differ_count} differ): loading both "
                  f"{loaded:.2f} s, compare {seconds:.2f} s ({'OK' if seconds <= TARGET_SECONDS else 'OVER'} ≤ {TARGET_SECONDS} s), "
                  f"the window's work {window:.2f} s = {window / loaded:.2f}× "
                  f"({'OK' if window <= TARGET_WINDOW_RATIO * loaded else 'OVER'} ≤ {TARGET_WINDOW_RATIO}×)", flush=True)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--real"]:
        real_forms(int(sys.argv[2]) if len(sys.argv) > 2 else 50_000)
    else:
        main()
