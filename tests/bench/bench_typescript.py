"""Benchmark: preparing a TypeScript body (issue 15), each figure beside a baseline measured in the same run.

Run: `.venv/bin/python tests/bench/bench_typescript.py`. Targets: a typical 40-line body stripped warm in at
most 2 ms; the first run of a fresh runner at most 200 ms with the stripper's start-up included.
Baselines: a bare V8 start in a fresh process (the floor of the stripper's start-up), stripping a one-line
body (the floor of a call), and the same first run with the body already in JavaScript.
Cold figures are taken in fresh processes, best of three; the machine may be shared, so read the ratios.
"First run of a fresh runner" is timed from making the `Runner` (in a process that has imported
`core` and read the session) to its result: the guest's start and, for TypeScript, the stripper's.
"A whole `wsi run`" is the command from spawn to exit, the same body as .ts and as .js.
`Runner(typescript=True)` (what the window makes) starts the stripper on its own thread beside the guest;
a plain `Runner()` leaves it to the first TypeScript envelope, as the command line does.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from wsi_inspector.core.runner.typescript import erase_types, prepare  # noqa: E402

DEMO = ROOT / "resources" / "sessions" / "demo.json"
BODY = """interface Segment { a: Point; b: Point; layer?: string }
type Point = { x: number; y: number };
const tolerance: number = 1e-6;

function length(s: Segment): number {
  const dx = s.b.x - s.a.x, dy = s.b.y - s.a.y;
  return Math.hypot(dx, dy);
}

function midpoint<T extends Segment>(s: T): Point {
  return { x: (s.a.x + s.b.x) / 2, y: (s.a.y + s.b.y) / 2 };
}

class Bucket<K extends string> {
  private items: Map<K, Segment[]> = new Map();
  add(key: K, s: Segment): void {
    const list = this.items.get(key) ?? [];
    list.push(s);
    this.items.set(key, list);
  }
  get size(): number { return this.items.size; }
}

const segments: Segment[] = (inputs?.segments as Segment[] | undefined) ?? [
  { a: { x: 0, y: 0 }, b: { x: 3, y: 4 }, layer: "walls" },
  { a: { x: 1, y: 1 }, b: { x: 1, y: 2 } },
];
const bucket = new Bucket<string>();
let total = 0;
for (const s of segments) {
  const len = length(s);
  if (len < tolerance) continue;
  bucket.add(s.layer ?? "default", s);
  total += len;
}
const mids = segments.map((s): Point => midpoint(s));
const result = { total, layers: bucket.size, mids } satisfies Record<string, unknown>;
console.log(`segments: ${segments.length}`);
return result as typeof result;
"""

V8_START = """
import json, time
t = time.perf_counter()
from py_mini_racer import MiniRacer
racer = MiniRacer(); racer.eval("1")
print(json.dumps({"ms": (time.perf_counter() - t) * 1000}))
racer.close()
"""
STRIPPER_START = """
import json, sys, time
t = time.perf_counter()
from wsi_inspector.core.runner.typescript import erase_types, prepare
prepare()
ready = time.perf_counter()
erase_types(sys.argv[1])
print(json.dumps({"ms": (time.perf_counter() - t) * 1000, "ready_ms": (ready - t) * 1000}))
"""
FIRST_RUN = """
import json, sys, time
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.session.load import load
session = load(sys.argv[1])
lang, overlap = sys.argv[3], sys.argv[4] == "overlap"
t = time.perf_counter()  # from making the runner: the process's own imports and the session are not the runner's
with Runner(size=1, typescript=overlap) as runner:  # typescript=True: the stripper starts while the guest does
    result = runner.run(build_envelope(session, sys.argv[2], lang))
    elapsed = (time.perf_counter() - t) * 1000
assert result["ok"], result
print(json.dumps({"ms": elapsed}))
"""


def wsi_run_ms(body: str, suffix: str, runs: int = 3) -> float:
    """Best wall milliseconds of a whole `wsi run DEMO BODY --json` process, spawn to exit."""
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as file:
        file.write(body)
    best = float("inf")
    try:
        command = [str(Path(sys.executable).with_name("wsi")), "run", str(DEMO), file.name, "--json"]
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            best = min(best, (time.perf_counter() - start) * 1000)
    finally:
        os.unlink(file.name)
    return best


def fresh(script: str, *args: str, runs: int = 3, key: str = "ms") -> float:
    """Best wall milliseconds of `script` (which prints {"ms": …}) over `runs` fresh processes."""
    best = float("inf")
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True, check=True)
        best = min(best, json.loads(out.stdout.strip().splitlines()[-1])[key])
    return best


def per_call_ms(code: str, calls: int, skip: int) -> float:
    """Median milliseconds of erase_types(code) over `calls` calls after `skip` unmeasured ones."""
    for _ in range(skip):
        erase_types(code)
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        erase_types(code)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    lines = BODY.count("\n")
    javascript = erase_types(BODY)
    print(f"TypeScript body: {lines} lines, {len(BODY)} characters")

    v8 = fresh(V8_START)
    stripper = fresh(STRIPPER_START, BODY)
    ready = fresh(STRIPPER_START, BODY, key="ready_ms")
    print(f"stripper start-up + first strip, fresh process: {stripper:7.1f} ms   (bare V8 start {v8:.1f} ms, "
          f"ratio {stripper / v8:.2f}; of which ready, warm-up strip included: {ready:.1f} ms)")

    prepare()
    floor = per_call_ms("let a: number = 1;", 50, 10)
    for label, skip in (("warm (calls 11-60)", 10), ("steady (after 1,000 calls)", 1000)):
        warm = per_call_ms(BODY, 50, skip)
        print(f"40-line body, {label:27}: {warm:6.3f} ms   (one-line body {floor:.3f} ms, ratio {warm / floor:.1f}; "
              f"target ≤ 2 ms)")

    first_js = fresh(FIRST_RUN, str(DEMO), javascript, "js", "sequential")
    first_ts = fresh(FIRST_RUN, str(DEMO), BODY, "ts", "sequential")
    overlapped = fresh(FIRST_RUN, str(DEMO), BODY, "ts", "overlap")
    print(f"first run of a fresh runner, TypeScript:        {first_ts:7.1f} ms   (same body as JavaScript "
          f"{first_js:.1f} ms, ratio {first_ts / first_js:.2f}; target ≤ 200 ms)")
    print(f"  the same from Runner(typescript=True) (the window's): {overlapped:7.1f} ms   (ratio to JavaScript "
          f"{overlapped / first_js:.2f}; target ≤ 200 ms)")

    command_js = wsi_run_ms(javascript, ".js")
    command_ts = wsi_run_ms(BODY, ".ts")
    print(f"a whole `wsi run BODY.ts` process:              {command_ts:7.1f} ms   (the same body as .js {command_js:.1f} ms, "
          f"ratio {command_ts / command_js:.2f}; the stripper and the guest start before the session is read)")


if __name__ == "__main__":
    main()
