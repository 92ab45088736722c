"""Benchmark: replaying a real-shaped session, a body at a time, in every form a session is written in.

Run: `.venv/bin/python tests/bench/bench_replay.py [ENTRIES]` (default 5,000: 125 bodies, each handed a store of
up to 5,000 entries, ~5 MB, with labels past ASCII, as make_real.py writes them). Replay, `wsi retyped`, `wsi check`
and the Edits tab's evidence hand every body its own store: each run's state crosses to the guest and into a
fresh realm. The figure is a replayed body (`replay.replay_body`: its envelope, its run, the comparison with the
record), the whole session replayed as `wsi replay` does; the baseline, measured in the same run after it, is each
body's envelope run again on a realm already holding its state: what the body's own run costs. Their ratio is what
handing over the state adds.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.make_real import real_sessions  # noqa: E402
from wsi_inspector.core.runner.envelope import build_envelope  # noqa: E402
from wsi_inspector.core.runner.host import Runner  # noqa: E402
from wsi_inspector.core.runner.replay import replay_body  # noqa: E402
from wsi_inspector.core.session.load import load  # noqa: E402


def replay_figures(path: Path) -> tuple[int, float, float, float]:
    """Bodies, the whole replay in seconds, and the medians of a replayed body and of its re-run, in ms."""
    session = load(path)
    replayed, again = [], []
    with Runner(size=1) as runner:
        started = time.perf_counter()
        for body in session.bodies:
            start = time.perf_counter()
            replay_body(session, body, runner)
            replayed.append(time.perf_counter() - start)
        whole = time.perf_counter() - started
        for body in session.bodies:
            envelope = build_envelope(session, body.code, body.lang, at=body.id, body_id=body.id)
            runner.run(envelope)  # its state crosses; the realm made after this run holds it
            start = time.perf_counter()
            runner.run(envelope)
            again.append(time.perf_counter() - start)
    return len(session.bodies), whole, statistics.median(replayed) * 1000, statistics.median(again) * 1000


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    paths = real_sessions(entries)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; a real-shaped session of {entries:,} entries")
    for form, path in paths.items():
        bodies, whole, body_ms, again_ms = replay_figures(path)
        print(f"  {form:9} ({path.stat().st_size / 1e6:.1f} MB): a replayed body {body_ms:.1f} ms "
              f"({body_ms / again_ms:.1f}x its re-run on the state the realm holds, {again_ms:.1f} ms); "
              f"{bodies} bodies in {whole:.1f} s")


if __name__ == "__main__":
    main()
