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
cpus = os.sched_getaffinity(0)
with Runner(size=1) as runner:
    assert runner.run(build_envelope(session, "return 1;"))["ok"]  # the guest is up: the interrupt falls in the body
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        runner.run(build_envelope(session, "while (true) {}", options={"timeout_s": 20}))
        raise SystemExit("the run was not interrupted")
    except KeyboardInterrupt:
        pass
    assert os.sched_getaffinity(0) == cpus, "the interrupted run kept the thread on one CPU"
    after = runner.run(build_envelope(session, "return 40 + 2;"))
    assert after["ok"] is True and after["returned"] == 42 and after["durationMs"] < 5000, after
    threads = runner.submit(build_envelope(session, "return 'from a worker';")).result()
    assert threads["returned"] == "from a worker", threads
print("ok")
"""


def test_ctrl_c_in_a_blocking_run_stops_it_and_the_next_run_gets_a_fresh_guest():
    done = subprocess.run([sys.executable, "-c", INTERRUPTED], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_run_holds_the_calling_thread_on_one_cpu_and_gives_it_back_whatever_its_end(demo, monkeypatch):
    """The host talks with its guest from one CPU (host._on_this_cpu: the guest answers there), and the calling
    thread's CPUs are its own again after a run that ends well, throws or times out (after Ctrl+C: above)."""
    import os

    from wsi_inspector.core.runner import result
    from wsi_inspector.core.runner.envelope import build_envelope
    from wsi_inspector.core.runner.host import Runner

    during: list[set[int]] = []
    answer = result.CallTrace.answer

    def spy(self, *args, **kwargs):
        during.append(os.sched_getaffinity(0))
        return answer(self, *args, **kwargs)

    monkeypatch.setattr(result.CallTrace, "answer", spy)
    before = os.sched_getaffinity(0)
    with Runner(size=1) as runner:
        for code, options in (("await modules.mep.risers({ level: 1 });\nreturn 1;", {}), ("throw new Error('x');", {}),
                              ("while (true) {}", {"timeout_s": 0.3})):
            runner.run(build_envelope(demo, code, options=options))
            assert os.sched_getaffinity(0) == before
    assert during and all(len(cpus) == 1 and cpus <= before for cpus in during)


def test_a_thread_whose_cpu_cannot_be_named_runs_free(demo, monkeypatch):
    # sched_getcpu answers -1 where the kernel cannot say: os.sched_setaffinity raised ValueError, and the run failed.
    import os

    from wsi_inspector.core.runner import host
    from wsi_inspector.core.runner.envelope import build_envelope

    monkeypatch.setattr(host, "_current_cpu", lambda: -1)
    before = os.sched_getaffinity(0)
    with host.Runner(size=1) as runner:
        assert runner.run(build_envelope(demo, "return 1;"))["returned"] == 1
    assert os.sched_getaffinity(0) == before
