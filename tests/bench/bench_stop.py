"""Benchmark: how soon each Stop takes effect, against a baseline from the same run.

Moved here from three tests (issue 13): the tests assert that a stop happens (the error name, the
exit status 130, the partial report); how soon is a figure, measured here.

- the runner's `stop()` of a body looping forever, until its result arrives (baseline: one warm run);
- `wsi check` on endless sessions, from Ctrl+C to the process's exit (baseline: the whole `wsi check`
  of one clean session, start-up included);
- `wsi reduce` of a 150-entry session with slow bodies, from Ctrl+C to the exit (same baseline).

Two time bounds stay in the tests because they are behaviour, not speed: a run from the Run tab
returns to the event loop at once (tests/gui/tabs/test_run_view.py: the window never waits on a body, which
here loops forever), and a hostile body ends within its own `timeout_s` (tests/core/runner/
test_hostile_bodies.py: the option's contract). The tests' other waits are bounds against hanging.

Run: `.venv/bin/python tests/bench/bench_stop.py`.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from wsi_inspector.core.runner.envelope import build_envelope  # noqa: E402
from wsi_inspector.core.runner.host import Runner  # noqa: E402
from wsi_inspector.core.session.load import load  # noqa: E402
from tests.bench.measure import WSI, run_process  # noqa: E402
from tests.helpers.check_corpus import session, write  # noqa: E402
from tests.helpers.reduce_sessions import failing_document  # noqa: E402

DEMO = ROOT / "resources" / "sessions" / "demo.json"


def runner_stop() -> tuple[float, float]:
    """Seconds from `stop()` to the result of a body looping forever, and one warm run's seconds."""
    demo = load(DEMO)
    with Runner(size=1) as runner:
        runner.run(build_envelope(demo, "return 1;"))  # warm
        started = time.perf_counter()
        runner.run(build_envelope(demo, "return 1;"))
        warm = time.perf_counter() - started
        future = runner.submit(build_envelope(demo, "while (true) {}", options={"timeout_s": 30}))
        time.sleep(0.3)
        started = time.perf_counter()
        runner.stop(future)
        result = future.result(timeout=60)
        stopped = time.perf_counter() - started
    assert result["error"]["name"] == "StoppedError", result
    return stopped, warm


def interrupt(argv: list[str]) -> float:
    """Seconds from SIGINT (sent once the process reports progress on stderr) to its exit; exit 130 expected."""
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    proc.stderr.readline()
    started = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    elapsed = time.perf_counter() - started
    assert proc.returncode == 130, proc.stderr.read()
    return elapsed


def main() -> None:
    stopped, warm = runner_stop()
    print(f"runner stop → result: {stopped * 1000:.0f} ms; one warm run {warm * 1000:.1f} ms; ratio {stopped / warm:.1f}×")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        clean = write(tmp / "clean" / "c.json", session("clean", bodies=1))
        baseline, _ = run_process([str(WSI), "check", str(clean), "--jobs", "1"])
        endless = tmp / "endless"
        write(endless / "a0.json", session("fast", bodies=1))
        for n in range(1, 8):
            write(endless / f"a{n}.json", session(f"slow{n}", bodies=2, endless=True))
        check = interrupt([str(WSI), "check", str(endless), "--jobs", "1", "--json", "--timeout", "2"])
        print(f"wsi check Ctrl+C → exit: {check:.2f} s; a whole wsi check of one session {baseline:.2f} s; "
              f"ratio {check / baseline:.2f}×")
        document = failing_document(150)
        document["bodies"][5]["code"] = "for (let i = 0; i < 4e7; i++) {}\n" + document["bodies"][5]["code"]
        slow = tmp / "slow.json"
        slow.write_text(json.dumps(document))
        reduce = interrupt([str(WSI), "reduce", str(slow), "--body", "b6", "--json", "--jobs", "1"])
        print(f"wsi reduce Ctrl+C → exit: {reduce:.2f} s; ratio to the one-session check {reduce / baseline:.2f}×")


if __name__ == "__main__":
    main()
