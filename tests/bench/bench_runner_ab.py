"""Benchmark: warm runs of this checkout against another one, interleaved (issues 26 and 30's 2 ms target).

Run: `.venv/bin/python tests/bench/bench_runner_ab.py OTHER_CHECKOUT [RUNS]`, where OTHER_CHECKOUT is
another tree of the project (say `git worktree add /tmp/before main`; its C extension copied or built in
place). Each tree gets a worker process of its own holding one warm Runner; the two take turns, each run
after 100 ms in which nothing of either runs (as bench_runner's warm run: a person's pace, on a machine
whose idle CPUs halt and come back cold), alternating which goes first. Bodies: a trivial one, one read
(`inputs.last` and a path), twenty reads of different entries. The machine may be shared: only figures
of the same run compare, and the load is printed.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAP_S = 0.1
BODIES = {
    "trivial": "return 1;",
    "one read": "const b = inputs.last('pack.corridorRuns');\nreturn b.bandDepth;",
    "twenty reads": "let n = 0;\nfor (let i = 1; i <= 20; i++) { const e = inputs.at('c' + i); n += e ? 1 : 0; }\nreturn n;",
}


def worker(tree: str) -> None:
    """Hold one warm Runner of `tree`'s code; run the body named on each stdin line, print its wall milliseconds."""
    namespace = types.ModuleType("wsi_inspector")  # this tree's code, not the one the venv's editable install names
    namespace.__path__ = [tree]
    sys.modules["wsi_inspector"] = namespace
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner
    from wsi_inspector.core.session.load import load

    session = load(os.path.join(tree, "resources", "sessions", "demo.json"))
    envelopes = {name: build_envelope(session, code) for name, code in BODIES.items()}
    with Runner(size=1) as runner:
        for envelope in envelopes.values():
            runner.run(envelope)
        print("ready", flush=True)
        for line in sys.stdin:
            envelope = envelopes[line.strip()]
            started = time.perf_counter()
            result = runner.run(envelope)
            elapsed = (time.perf_counter() - started) * 1000
            assert result["ok"], result.get("error")
            print(f"{elapsed:.4f}", flush=True)


def main() -> None:
    other, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 60
    trees = {"this": str(ROOT), "other": str(Path(other).resolve())}
    workers = {name: subprocess.Popen([sys.executable, __file__, "--worker", tree], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True) for name, tree in trees.items()}
    for process in workers.values():
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    times: dict[tuple[str, str], list[float]] = {(name, body): [] for name in trees for body in BODIES}
    load_before = os.getloadavg()[0]
    for turn in range(runs):
        for body in BODIES:
            for name in (("this", "other") if turn % 2 == 0 else ("other", "this")):
                time.sleep(GAP_S)
                process = workers[name]
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(body + "\n")
                process.stdin.flush()
                times[(name, body)].append(float(process.stdout.readline()))
    load_after = os.getloadavg()[0]
    for process in workers.values():
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    print(f"load average {load_before:.2f} -> {load_after:.2f} on {os.cpu_count()} cores; {runs} runs of each, "
          f"{GAP_S * 1000:.0f} ms idle before each; medians (quartiles)")
    for body in BODIES:
        cells = []
        for name in trees:
            values = times[(name, body)]
            quartiles = statistics.quantiles(values, n=4)
            cells.append(f"{name} {statistics.median(values):5.2f} ms ({quartiles[0]:.2f}-{quartiles[2]:.2f})")
        difference = statistics.median(times[("this", body)]) - statistics.median(times[("other", body)])
        target = " (target: this <= 2 ms)" if body != "twenty reads" else ""
        print(f"{body:13s} " + "   ".join(cells) + f"   this - other {difference:+.2f} ms{target}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
