"""Benchmark: 50 concurrent `wsi run` processes with a 2 s timeout (issue 12), beside one run alone.

Run: `.venv/bin/python tests/bench/bench_runner_load.py [N]`. Half the runs return at once, half loop
until their timeout. For each group it prints the wall time of a run (median and worst) and the CPU
its processes used (`wsi run` and its guest, from wait4), and checks that a timed-out run stays
within the timeout plus 1 s of its own CPU. Baseline: the same two runs, alone, in the same run.
On a machine with few cores the wall time under load is mostly waiting for a core: 50 processes
each start Python and V8.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "sessions" / "demo.json"
WSI = Path(sys.executable).with_name("wsi")
TIMEOUT_S = 2.0
BODIES = {"returns at once": "return 40 + 2;\n", "loops until its timeout": "while (true) {}\n"}


def start(body: Path) -> tuple[subprocess.Popen, float]:
    command = [str(WSI), "run", str(DEMO), str(body), "--timeout", f"{TIMEOUT_S:g}", "--json"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), time.monotonic()


def run_all(bodies: list[Path]) -> list[tuple[float, float, int]]:
    """Start every run at once; for each, in order: (wall s, CPU s of it and the children it reaped, exit status)."""
    started = [start(body) for body in bodies]
    order = {process.pid: i for i, (process, _) in enumerate(started)}
    results: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * len(started)
    for _ in started:
        pid, status, usage = os.wait4(-1, 0)  # whichever ends first: its wall time is its own
        i = order[pid]
        process, at = started[i]
        process.returncode = os.waitstatus_to_exitcode(status)
        results[i] = (time.monotonic() - at, usage.ru_utime + usage.ru_stime, process.returncode)
    return results


def report(label: str, runs: list[tuple[float, float, int]], alone: tuple[float, float, int]) -> bool:
    walls = [wall for wall, _, _ in runs]
    cpus = [cpu for _, cpu, _ in runs]
    median = statistics.median(walls)
    print(f"{label:24} {len(runs):3} runs  wall median {median:6.2f} s, worst {max(walls):6.2f} s "
          f"({median / alone[0]:.1f}× alone, {alone[0]:.2f} s)  CPU median {statistics.median(cpus):.2f} s, "
          f"worst {max(cpus):.2f} s (alone {alone[1]:.2f} s)  exit {sorted(set(code for _, _, code in runs))}")
    return max(max(cpus), alone[1]) <= TIMEOUT_S + 1.0


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for label, code in BODIES.items():
            paths[label] = Path(folder) / f"{len(paths)}.js"
            paths[label].write_text(code)
        alone = {label: run_all([path])[0] for label, path in paths.items()}
        labels = [label for i in range(count) for label in [list(BODIES)[i % 2]]]
        wall_started = time.monotonic()
        runs = run_all([paths[label] for label in labels])
        total = time.monotonic() - wall_started
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {count} concurrent `wsi run`, "
          f"timeout {TIMEOUT_S:g} s; all done in {total:.1f} s")
    within = True
    for label in BODIES:
        group = [run for run, of in zip(runs, labels) if of == label]
        ok = report(label, group, alone[label])
        if label == "loops until its timeout":
            within = ok
    print(f"a timed-out run within timeout + 1 s of its own CPU ({TIMEOUT_S + 1:g} s): {'yes' if within else 'NO'}")


if __name__ == "__main__":
    main()
