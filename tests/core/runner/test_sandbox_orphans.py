"""No orphans: a guest exits within a second or so of losing its host, whatever its body is doing."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HOST = """
import sys, time
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO

runner = Runner(size=1)
guest = runner._idle.get()
runner._idle.put(guest)
runner.submit(build_envelope(load(DEMO), sys.argv[1], options={"timeout_s": 60}))
time.sleep(1.0)  # the body is running now
print(guest.proc.pid, flush=True)
time.sleep(120)
"""


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for its new parent to reap it counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("body", ["while (true) {}", "await 1;\nwhile (true) {}", "await new Promise(() => {});"])
def test_a_guest_exits_soon_after_its_host_is_killed(body):
    host = subprocess.Popen([sys.executable, "-c", HOST, body], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        pid = int(host.stdout.readline())
        assert not gone(pid)
        os.kill(host.pid, signal.SIGKILL)
        killed = time.monotonic()
        host.wait()
        while not gone(pid) and time.monotonic() - killed < 2.0:
            time.sleep(0.02)
        assert gone(pid), f"guest {pid} still runs {time.monotonic() - killed:.1f} s after its host was killed"
    finally:
        host.kill()
