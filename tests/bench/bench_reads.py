"""Benchmark: what recording a body's reads (issue 30, core/runner/reads.js) costs, beside baselines of the same run.

Run: `.venv/bin/python tests/bench/bench_reads.py`. Figures, each the median of many warm runs on one
runner (each finding its realm ready, as bench_runner's warm run): a trivial body (no read), a body making one `inputs.last` and one path read, and one making
twenty reads of different entries (each read takes a stack to find the body's line). Inside one run,
a hot loop of a million property reads through the traced value against the same loop over an
untraced copy made by hand (the tracer's per-read cost). The machine may be shared: read the ratios.
"""
from __future__ import annotations

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


def median_run_ms(runner: Runner, envelope, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        time.sleep(0.02)  # the guest makes the next run's realm: a warm run finds it ready
        started = time.perf_counter()
        runner.run(envelope)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    session = load(DEMO)
    with Runner(size=1) as runner:
        envelopes = {name: build_envelope(session, code) for name, code in (("trivial", TRIVIAL), ("one read", ONE_READ),
                                                                             ("twenty reads", TWENTY))}
        for envelope in envelopes.values():
            runner.run(envelope)  # warm
        figures = {name: median_run_ms(runner, envelope) for name, envelope in envelopes.items()}
        hot = runner.run(build_envelope(session, HOT, options={"deterministic": False}))["returned"]
    base = figures["trivial"]
    print(f"warm trivial run (no read, baseline): {base:.2f} ms")
    for name in ("one read", "twenty reads"):
        print(f"warm run, {name}: {figures[name]:.2f} ms ({figures[name] / base:.2f}x the trivial run, "
              f"+{figures[name] - base:.2f} ms)")
    per_read_ns = (hot["traced"] - hot["plain"]) * 1e6 / 1e6
    print(f"1,000,000 reads of one key: {hot['traced']} ms traced, {hot['plain']} ms over an untraced copy "
          f"(about {per_read_ns:.0f} ns more per read)")


if __name__ == "__main__":
    main()
