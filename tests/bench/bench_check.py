"""Benchmark: `wsi check` sessions per second on a generated corpus, at --jobs 1 and --jobs 2, and the ratio.

Run: `.venv/bin/python tests/bench/bench_check.py [--sessions 1000]`. The corpus is written to a
temporary folder: mixed sizes (1 to 12 bodies, 4 to 400 points a call), every form (.json, .jsonl,
.gz), some with a canvas edit, a few that replay differently. Each figure is the whole command, as a
user runs it (worker start-up included), timed by wall clock; the baseline is `--jobs 1` in the same
run, so the scaling ratio is jobs-2 rate / jobs-1 rate (2.0 would be perfect on two free cores).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.helpers.check_corpus import session, write  # noqa: E402

FORMS = (".json", ".jsonl", ".json.gz", ".jsonl.gz")


def make_corpus(folder: Path, count: int, seed: int = 19) -> int:
    """Write `count` sessions of mixed sizes; returns how many bodies they hold."""
    rng = random.Random(seed)
    bodies = 0
    for n in range(count):
        size = rng.choices([1, 3, 6, 12], weights=[4, 3, 2, 1])[0]
        points = rng.choice([4, 40, 400])
        document = session(f"s{n}", bodies=size, points=points, edit=rng.random() < 0.3,
                           differs=rng.random() < 0.05, other_module=rng.random() < 0.2)
        write(folder / f"part{n % 10}" / f"s{n:04d}{FORMS[n % len(FORMS)]}", document)
        bodies += size
    return bodies


def timed_check(folder: Path, jobs: int) -> tuple[float, dict]:
    """Wall seconds of `wsi check FOLDER --jobs N --json`, and its document."""
    started = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).parent / "wsi"), "check", str(folder), "--jobs", str(jobs), "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"wsi check failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wsi-bench-check-") as tmp:
        folder = Path(tmp)
        bodies = make_corpus(folder, args.sessions)
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        print(f"corpus: {args.sessions:,} sessions, {bodies:,} bodies, {size / 1e6:.1f} MB on disk; "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (the machine is shared)")
        rates = {}
        for jobs in (1, 2):
            seconds, document = timed_check(folder, jobs)
            assert document["checked"] == args.sessions, document["checked"]
            rates[jobs] = args.sessions / seconds
            print(f"--jobs {jobs}: {seconds:6.1f} s, {rates[jobs]:6.1f} sessions/s, {bodies / seconds:6.1f} bodies/s "
                  f"({document['notClean']} not clean)")
        print(f"scaling --jobs 2 / --jobs 1: {rates[2] / rates[1]:.2f}x (baseline: --jobs 1 in this run)")


if __name__ == "__main__":
    main()
