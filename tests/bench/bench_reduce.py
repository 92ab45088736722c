"""Benchmark: `wsi reduce` on a generated 150-entry session whose failure needs 2 entries (issue 17).

Run: `.venv/bin/python tests/bench/bench_reduce.py`. Aim: under 100 runs and under 5 s.
Figures: the reduction in-process (runs, seconds, the warm pool's start included) and the whole
`wsi reduce` process; baselines measured in the same run: one warm run of the failing body, and
the naive reduction (drop one entry at a time, 150 sequential runs) on the same warm runner.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.reduce.reduce import Reducer, run_envelope  # noqa: E402
from wsi_inspector.core.reduce.repro import cut_after, cut_session  # noqa: E402
from wsi_inspector.core.runner.host import Runner  # noqa: E402
from wsi_inspector.core.session.load import load  # noqa: E402
from tests.bench.measure import WSI, run_process  # noqa: E402
from tests.helpers.reduce_sessions import NEEDED, failing_session  # noqa: E402

ENTRIES = 150


def reduce_in_process(path: Path) -> tuple[int, float, list[str]]:
    """(runs, seconds, ids of the entries kept) of one reduction, the runner's start included."""
    started = time.perf_counter()
    reducer = Reducer(load(path), "b6")
    try:
        reduction = reducer.reduce()
    finally:
        reducer.close()
    return reduction.runs, time.perf_counter() - started, [e.key for e in reduction.cut.received]


def naive(path: Path) -> tuple[int, float]:
    """Drop one entry at a time, keeping the drop when B still fails the same way: the baseline."""
    session = load(path)
    cut = cut_after(session, "b6")
    with Runner(size=1) as runner:
        runner.run(run_envelope(session, cut, "error", 10.0))  # warm
        started = time.perf_counter()
        expected = runner.run(run_envelope(session, cut, "error", 10.0))["error"]["message"]
        runs = 1
        received = list(cut.received)
        for entry in list(received):
            trial = cut.__class__(**{**cut.__dict__, "received": tuple(e for e in received if e is not entry)})
            result = runner.run(run_envelope(cut_session(trial), trial, "error", 10.0))
            runs += 1
            if result.get("error", {}).get("message") == expected:
                received.remove(entry)
        return runs, time.perf_counter() - started


def warm_run_s(path: Path) -> float:
    session = load(path)
    cut = cut_after(session, "b6")
    with Runner(size=1) as runner:
        envelope = run_envelope(session, cut, "error", 10.0)
        runner.run(envelope)
        started = time.perf_counter()
        for _ in range(20):
            runner.run(run_envelope(session, cut, "error", 10.0))
        return (time.perf_counter() - started) / 20


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = failing_session(Path(folder) / "long.json", ENTRIES)
        one = warm_run_s(path)
        runs, seconds, kept = reduce_in_process(path)
        assert kept == list(NEEDED), kept
        process_s, _ = run_process([str(WSI), "reduce", str(path), "--body", "b6", "--json"])
        naive_runs, naive_s = naive(path)
    print(f"one warm run of the failing body: {one * 1000:.1f} ms (baseline)")
    print(f"reduce {ENTRIES} entries to the {len(kept)} needed: {runs} runs in {seconds:.2f} s in-process "
          f"(aim: < 100 runs, < 5 s); {seconds / one:.0f}x one warm run")
    print(f"`wsi reduce` as a process: {process_s:.2f} s")
    print(f"naive one-at-a-time reduction (baseline): {naive_runs} runs in {naive_s:.2f} s; "
          f"ddmin makes {naive_runs / runs:.1f}x fewer runs, {naive_s / seconds:.1f}x the speed")


if __name__ == "__main__":
    main()
