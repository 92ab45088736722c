"""`Runner.run` runs on the calling thread: Ctrl+C there stops the run, and the runner stays usable."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

INTERRUPTED = """
import os, signal, threading
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.session.load import load
session = load("resources/sessions/demo.json")
with Runner(size=1) as runner:
    assert runner.run(build_envelope(session, "return 1;"))["ok"]  # the guest is up: the interrupt falls in the body
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        runner.run(build_envelope(session, "while (true) {}", options={"timeout_s": 20}))
        raise SystemExit("the run was not interrupted")
    except KeyboardInterrupt:
        pass
    after = runner.run(build_envelope(session, "return 40 + 2;"))
    assert after["ok"] is True and after["returned"] == 42 and after["durationMs"] < 5000, after
    threads = runner.submit(build_envelope(session, "return 'from a worker';")).result()
    assert threads["returned"] == "from a worker", threads
print("ok")
"""


def test_ctrl_c_in_a_blocking_run_stops_it_and_the_next_run_gets_a_fresh_guest():
    done = subprocess.run([sys.executable, "-c", INTERRUPTED], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
