"""Benchmark: what recording a body's reads (issue 30, core/runner/reads.js) costs, beside baselines of the same run.

Run: `.venv/bin/python tests/bench/bench_reads.py`. Figures, each the median of many warm runs on one
runner (each finding its realm ready), after 20 ms and after 100 ms idle (bench_runner's warm run), on the
demo and on a real-shaped session (make_real, 5,000 entries, cached under WSI_BENCH_DATA): a trivial body
(no read), a body making one `inputs.last` and one path read, and one making twenty reads of different
entries (each read takes a stack to find the body's line). Inside one run,
a hot loop of a million property reads through the traced value against the same loop over an
untraced copy made by hand (the tracer's per-read cost). The machine may be shared: read the ratios.

Issue 30's target: with reads recorded, a warm run stays within issue 12's 2 ms (bench_runner's warm run, a trivial
body; here the trivial run and the run with one read). Twenty reads of different entries are twenty lookups, inputs
parsed and places found, the body's own work growing with its reads: printed to show how reads add up.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.runner.envelope import build_envelope  # noqa: E402
from wsi_inspector.core.runner.host import Runner  # noqa: E402
from wsi_inspector.core.session.load import load  # noqa: E402
from tests.conftest import DEMO  # noqa: E402

RUNS = 100
REAL_ENTRIES = 5_000  # make_real's shape: full-precision geometry, outputs, edits; the store a body is handed ~4 MB
TRIVIAL = "return 1;"
ONE_READ = "const b = inputs.last('pack.corridorRuns');\nreturn b.bandDepth;"
TWENTY = "let n = 0;\nfor (let i = 1; i <= 20; i++) { const e = inputs.at('c' + i); n += e ? 1 : 0; }\nreturn n;"
HOT = """const b = inputs.last("pack.corridorRuns");
const copy = {};
for (const k of Reflect.ownKeys(b)) copy[k] = b[k];
let t = Date.now(), s = 0;
for (let i = 0; i < 1e6; i++) s += b.bandDepth;
const traced = Date.now() - t;
t = Date.now();
for (let i = 0; i < 1e6; i++) s += copy.bandDepth;
return { traced, plain: Date.now() - t, s };"""


# The idle time before each run: the guest makes the next run's realm meanwhile, so every run finds it ready.
# 20 ms leaves this VM's CPUs awake; after 100 ms (bench_runner's warm run, a person's pace) they come back from
# idle cold, and everything a run touches is slower (docs/runner.md).
GAPS_S = (0.02, 0.1)


def median_run_ms(runner: Runner, envelopes: dict, gap_s: float, runs: int = RUNS) -> dict[str, float]:
    """Each body's median wall time, the bodies taking turns."""
    times: dict[str, list[float]] = {name: [] for name in envelopes}
    for _ in range(runs):
        for name, envelope in envelopes.items():
            time.sleep(gap_s)
            started = time.perf_counter()
            runner.run(envelope)
            times[name].append((time.perf_counter() - started) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    from tests.bench.make_real import real_sessions

    real = load(real_sessions(REAL_ENTRIES)["compact"])
    sessions = {"the demo": (load(DEMO), None),
                f"a real-shaped session of {REAL_ENTRIES:,} entries at its middle body": (real, real.bodies[len(real.bodies) // 2].id)}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; medians of {RUNS} warm runs each")
    for label, (session, at) in sessions.items():
        with Runner(size=1) as runner:
            envelopes = {name: build_envelope(session, code, at=at) for name, code in (
                ("trivial", TRIVIAL), ("one read", ONE_READ), ("twenty reads", TWENTY))}
            for envelope in envelopes.values():
                runner.run(envelope)  # warm
            figures = {gap: median_run_ms(runner, envelopes, gap) for gap in GAPS_S}
        print(f"{label} (store {len(envelopes['trivial'].store_json) / 1e6:.1f} MB):")
        for gap, figure in figures.items():
            base = figure["trivial"]
            print(f"  after {gap * 1000:.0f} ms idle: trivial run (no read, baseline) {base:.2f} ms; " + "; ".join(
                f"{name} {figure[name]:.2f} ms ({figure[name] / base:.2f}x, +{figure[name] - base:.2f} ms)"
                for name in ("one read", "twenty reads")) + " (target: trivial and one read <= 2 ms)")
    with Runner(size=1) as runner:
        hot = runner.run(build_envelope(load(DEMO), HOT, options={"deterministic": False}))["returned"]
    per_read_ns = (hot["traced"] - hot["plain"]) * 1e6 / 1e6
    print(f"1,000,000 reads of one key: {hot['traced']} ms traced, {hot['plain']} ms over an untraced copy "
          f"(about {per_read_ns:.0f} ns more per read)")


if __name__ == "__main__":
    main()
