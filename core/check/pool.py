"""Check many sessions in N worker processes, each holding one warm runner across the sessions it gets.

Each worker takes one session at a time over a pipe and sends its report back. A worker that dies
(a crash, the kernel's OOM killer) costs only the session it held, reported as `crashed`; one that
runs past the session's budget plus a grace is killed and its session reported as `timeout`; either
way a fresh worker takes its place. At most `most_jobs()` workers run (twice the cores: each runs a
V8 guest, and 500 of them on 2 cores made healthy sessions time out). Workers ignore SIGINT: the parent decides what Ctrl+C means
(stop, report what is done) and ends them. Workers are started with `spawn`, never `fork`: the
parent may be the window, with Qt's threads running.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from wsi_inspector.core.check.check import CheckOptions, SessionReport, check_file, failed_report

WATCHDOG_GRACE_S = 60.0  # loading a big session counts against the budget too; this is for a stuck worker
STOP_GRACE_S = 3.0
POLL_S = 0.1
JOBS_PER_CORE = 2


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def most_jobs() -> int:
    """The most worker processes a check starts: JOBS_PER_CORE per core (see the module docstring)."""
    return JOBS_PER_CORE * default_jobs()


def _worker_main(conn: Connection, options: dict[str, Any], where_texts: list[str]) -> None:
    """A worker: one warm runner, then sessions one by one until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # unwinds to `finally`: the guests are killed
    from wsi_inspector.core.check.where import parse_where
    from wsi_inspector.core.runner.host import Runner

    where = parse_where(where_texts) if where_texts else None
    check_options = CheckOptions(**options)
    runner = Runner(size=1)
    try:
        while True:
            task = conn.recv()
            if task is None:
                break
            conn.send(check_file(task, runner, check_options, where))
    except (EOFError, OSError, KeyboardInterrupt):
        pass
    finally:
        runner.close()


@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: tuple[int, Path] | None = None
    started: float = 0.0


@dataclass
class LocalChecker:
    """Runs `check_file` over paths in `jobs` worker processes; reports arrive through `on_report`."""

    options: CheckOptions = field(default_factory=CheckOptions)
    jobs: int = field(default_factory=default_jobs)
    where_texts: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.jobs = max(1, min(self.jobs, most_jobs()))

    def run(self, paths: Sequence[Path], on_report: Callable[[int, SessionReport], None],
            should_stop: Callable[[], bool] = lambda: False) -> bool:
        """Check every path; `on_report(index, report)` for each as it comes. False when stopped early."""
        context = multiprocessing.get_context("spawn")
        pending = deque(enumerate(paths))
        workers = [self._start(context) for _ in range(max(1, min(self.jobs, len(paths))))]
        limit = self.options.budget_s + self.options.timeout_s + WATCHDOG_GRACE_S
        try:
            while pending or any(w.task for w in workers):
                if should_stop():
                    return False
                for worker in workers:
                    if worker.task is None and pending:
                        worker.task = pending.popleft()
                        worker.started = time.monotonic()
                        worker.conn.send(worker.task[1])
                busy = [w for w in workers if w.task is not None]
                ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=POLL_S)
                for i, worker in enumerate(workers):
                    if worker.task is None:
                        continue
                    index, path = worker.task
                    report = None
                    if worker.conn in ready or worker.process.sentinel in ready:
                        report = self._receive(worker)
                    elif time.monotonic() - worker.started > limit:
                        report = failed_report(str(path), "timeout", f"not finished after {limit:g} s; its worker was "
                                               "stopped (raise --session-budget, or check it alone)")
                        self._end(worker)
                    if report is None:
                        continue
                    worker.task = None
                    if not worker.process.is_alive():
                        workers[i] = self._start(context)
                    on_report(index, report)
            return True
        finally:
            for worker in workers:
                self._end(worker)

    def _start(self, context: Any) -> _Worker:
        parent, child = context.Pipe()
        process = context.Process(target=_worker_main, args=(child, self.options.as_json(), self.where_texts),
                                  name="wsi-check", daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _receive(self, worker: _Worker) -> SessionReport | None:
        """The worker's report, or a `crashed` report when it died without one; None if not ready yet."""
        assert worker.task is not None
        try:
            if worker.conn.poll():
                return worker.conn.recv()
        except (EOFError, OSError):
            pass
        if worker.process.is_alive():
            return None
        worker.process.join(1)
        code = worker.process.exitcode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        return failed_report(str(worker.task[1]), "crashed", f"its worker process died ({how}) while checking it; "
                             "the other sessions went on (check it alone to see why)")

    def _end(self, worker: _Worker) -> None:
        """Stop a worker: ask, then SIGTERM (its runner's guests die with it), then SIGKILL."""
        process = worker.process
        if process.is_alive() and worker.task is None:
            try:
                worker.conn.send(None)
            except (OSError, ValueError):
                pass
            process.join(STOP_GRACE_S)
        if process.is_alive():
            process.terminate()
            process.join(STOP_GRACE_S)
        if process.is_alive():
            process.kill()
            process.join(STOP_GRACE_S)
        worker.conn.close()
