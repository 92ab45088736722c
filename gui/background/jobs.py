"""Background work for the window: the one way a view runs something off the GUI thread.

A view (or the window) owns a `Jobs`. `jobs.start(name, work, on_done=…)` runs `work(job)` on a
worker thread; the work reports with `job.progress(percent, text)` and `job.report(value)` (a
partial answer: a batch of rows), checks `job.check()` between steps (it raises `Cancelled`), and
returns its answer. Progress, reports, the answer and the error reach the GUI thread as queued
signals, and reach the view's callbacks only while the job is current:

- starting another job of the same name cancels the one before (a new session, cursor or edit):
  whatever it says later is dropped, so a stale answer never lands in the view;
- `cancel(name)` and `cancel_all()` (a view calls it when the session changes) drop them too;
  `job.on_cancel(hook)` lets the work be stopped at once (a guest killed, a process ended);
- `shutdown()` cancels every job and waits for its thread: the main window's `closeEvent` calls it
  on every `Jobs` it holds (`shutdown_all`), so no thread outlives the window;
- a `Jobs` deleted with its view first stops every emission into it (emitting and deleting take the
  same lock), so a late answer never reaches a deleted view.

`job.in_process(function, *args)` runs a top-level function of `core` in a worker process (forkserver
on Linux, else spawn) and returns its answer; what the function passes to its `report` argument
comes back through `on_report` on the job's thread. Pure-Python work that takes seconds (diffing
every edit of a session) goes there: in a thread it holds the interpreter's lock, and every call Qt
makes into Python on the GUI thread (each cell's data, each slot) waits for it. Arguments and
answers must pickle; a cancelled job's process is terminated. As in any program using
multiprocessing, the program's main module must be safe to import (`if __name__ == "__main__"`):
each worker imports it. A worker process runs at a lower CPU priority than the window.

Threads are plain Python threads: a QThread object deleted while it runs aborts the program
("QThread: Destroyed while thread is still running"); a Python thread has no Qt object to delete.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from wsi_inspector.gui.background import worker_priority
from wsi_inspector.gui.window.errors import log_exception

SHUTDOWN_S = 30.0  # how long closing a window waits for a job's thread once told to stop
POLL_S = 0.05  # how often a job waiting on its process looks for Cancel


class Cancelled(Exception):
    """The job was cancelled: the work stops where it is."""


class JobError(Exception):
    """The work in a worker process failed: its exception's type, message and traceback, as text."""


class Job:
    """One piece of background work: its name, whether it was cancelled, and how it reports."""

    def __init__(self, name: str, owner: _Owner):
        self.name = name
        self._owner = owner
        self._cancelled = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.thread: threading.Thread | None = None

    @property
    def cancelled(self) -> bool:
        """True once cancelled (by a newer job of the same name, the view, or the window closing)."""
        return self._cancelled.is_set()

    def check(self) -> None:
        """Raise `Cancelled` if the job was cancelled: called by the work between its steps."""
        if self._cancelled.is_set():
            raise Cancelled

    def cancel(self) -> None:
        """Stop the job: its hooks run now, and whatever it reports later is dropped."""
        with self._lock:
            if self._cancelled.is_set():
                return
            self._cancelled.set()
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            try:
                hook()
            except Exception as exc:  # a hook that fails must not stop the others
                log_exception(exc)

    def on_cancel(self, hook: Callable[[], None]) -> None:
        """Call `hook` when the job is cancelled (at once when it already is)."""
        with self._lock:
            if not self._cancelled.is_set():
                self._hooks.append(hook)
                return
        hook()

    def progress(self, percent: int, text: str) -> None:
        """Tell the view how far the work is (0–100) and what it is doing."""
        self._owner.emit(self, "progress", (percent, text))

    def report(self, value: Any) -> None:
        """Hand the view a partial answer (a batch of rows) now."""
        self._owner.emit(self, "report", value)

    def wait(self, seconds: float | None = None) -> bool:
        """Wait for the job's thread to end; True when it has."""
        if self.thread is None:
            return True
        self.thread.join(seconds)
        return not self.thread.is_alive()

    def in_process(self, function: Callable[..., Any], *args: Any, on_report: Callable[[Any], None] | None = None) -> Any:
        """Run `function(*args, report)` in a worker process; its reports go to `on_report` (on this thread)."""
        self.check()
        parent, child = _context().Pipe(duplex=False)
        process = _context().Process(target=_process_main, args=(child, function, args), daemon=True,
                                     name=f"wsi-{self.name}")
        process.start()
        child.close()
        self.on_cancel(process.terminate)
        try:
            while True:
                if self.cancelled:
                    raise Cancelled
                if not parent.poll(POLL_S):
                    if not process.is_alive() and not parent.poll(0):
                        raise JobError(f"the worker process ended without an answer (exit {process.exitcode})")
                    continue
                try:
                    kind, value = parent.recv()
                except EOFError:
                    self.check()
                    raise JobError(f"the worker process ended without an answer (exit {process.exitcode})") from None
                if kind == "report":
                    self.check()
                    if on_report is not None:
                        on_report(value)
                elif kind == "done":
                    return value
                else:
                    raise JobError(value)
        finally:
            parent.close()
            if process.is_alive():
                process.terminate()
            process.join(5)


def _context() -> Any:
    # forkserver forks workers from a clean server process (never from this one and its threads);
    # wsi_inspector.core.edits.edits is imported there once, so each worker starts warm; wsi_inspector.gui.background.worker_priority first, so
    # the server imports it (and forks every worker) below the window's CPU priority.
    if sys.platform.startswith("linux"):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["wsi_inspector.gui.background.worker_priority", "wsi_inspector.core.edits.edits"])
        return context
    return multiprocessing.get_context("spawn")


def _process_main(connection: Any, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """In the worker process: run the function, sending its reports, then its answer or its error."""
    if hasattr(os, "nice") and not worker_priority.lowered:  # forked from a lowered forkserver: already below
        # Below the window: on a busy machine the scheduler runs the GUI first. (Not done to threads:
        # a thread holding the interpreter's lock at a low priority would keep the GUI thread waiting.)
        os.nice(worker_priority.WORKER_NICENESS)
    try:
        value = function(*args, lambda batch: connection.send(("report", batch)))
        connection.send(("done", value))
    except BaseException as exc:  # the parent turns it into the job's failure
        text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        connection.send(("failed", f"{text}\n{traceback.format_exc()}"))
    finally:
        connection.close()


class _Owner:
    """What a job's thread shares with its Jobs: the signal to emit on, and whether it still may."""

    def __init__(self, jobs: Jobs):
        self.lock = threading.Lock()
        self.alive = True
        self.jobs = jobs

    def emit(self, job: Job, kind: str, value: Any) -> None:
        if job.cancelled:
            return
        with self.lock:  # the Jobs is not deleted while this emits
            if self.alive:
                self.jobs.news.emit(job, kind, value)

    def gone(self) -> None:
        with self.lock:
            self.alive = False


class _Callbacks:
    __slots__ = ("done", "failed", "progress", "report")

    def __init__(self, done: Callable[[Any], None] | None, failed: Callable[[BaseException], None] | None,
                 progress: Callable[[int, str], None] | None, report: Callable[[Any], None] | None):
        self.done, self.failed, self.progress, self.report = done, failed, progress, report


class Jobs(QObject):
    """A view's background jobs: at most one current job per name; every job's news on the GUI thread."""

    news = Signal(object, str, object)  # job, "progress" | "report" | "done" | "failed", value

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._owner = owner = _Owner(self)
        self._current: dict[str, tuple[Job, _Callbacks]] = {}
        self._running: set[Job] = set()  # every job whose thread may still run, current or not
        self._running_lock = threading.Lock()
        self.news.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        running, running_lock = self._running, self._running_lock

        def deleted(*_args: Any) -> None:  # must not hold the Jobs: it is being deleted
            owner.gone()
            with running_lock:
                jobs = list(running)
            for job in jobs:
                job.cancel()

        self.destroyed.connect(deleted)

    def start(self, name: str, work: Callable[[Job], Any], on_done: Callable[[Any], None] | None = None,
              on_failed: Callable[[BaseException], None] | None = None,
              on_progress: Callable[[int, str], None] | None = None,
              on_report: Callable[[Any], None] | None = None,
              expected: tuple[type[BaseException], ...] = ()) -> Job:
        """Run `work(job)` on a worker thread; the job named `name` before it (if any) is cancelled.

        An exception the work raises goes to `on_failed`; unless it is one of `expected` (the person's
        to act on: a file that cannot be read) it is a bug of ours and is logged with its traceback.
        """
        self.cancel(name)
        job = Job(name, self._owner)
        self._current[name] = (job, _Callbacks(on_done, on_failed, on_progress, on_report))
        with self._running_lock:
            self._running.add(job)
        job.thread = threading.Thread(target=self._run, args=(job, work, expected), daemon=True, name=f"wsi-job-{name}")
        job.thread.start()
        return job

    def _run(self, job: Job, work: Callable[[Job], Any], expected: tuple[type[BaseException], ...]) -> None:
        try:
            value = work(job)
        except Cancelled:
            pass
        except BaseException as exc:  # the view says what went wrong; the window goes on
            if not job.cancelled and not isinstance(exc, expected):
                log_exception(exc)
            self._owner.emit(job, "failed", exc)
        else:
            self._owner.emit(job, "done", value)
        finally:
            with self._running_lock:
                self._running.discard(job)

    def _deliver(self, job: Job, kind: str, value: Any) -> None:
        current = self._current.get(job.name)
        if current is None or current[0] is not job or job.cancelled:
            return  # a stale job: a newer one of its name, or cancelled, since it spoke
        callbacks = current[1]
        if kind in ("done", "failed"):
            del self._current[job.name]
        callback: Any = getattr(callbacks, kind)
        if callback is None:
            return
        if kind == "progress":
            callback(*value)
        else:
            callback(value)

    def current(self, name: str) -> Job | None:
        """The job of that name still running and not cancelled, if any."""
        found = self._current.get(name)
        return found[0] if found is not None else None

    def busy(self, name: str | None = None) -> bool:
        """True while a current job (of that name) has not given its answer."""
        return bool(self._current) if name is None else name in self._current

    def cancel(self, name: str) -> None:
        """Cancel the job of that name: it stops at its next check and its news is dropped."""
        found = self._current.pop(name, None)
        if found is not None:
            found[0].cancel()

    def cancel_all(self) -> None:
        """Cancel every job (the session changed: every answer in flight is stale)."""
        for name in list(self._current):
            self.cancel(name)

    def running(self) -> list[Job]:
        """Every job whose thread has not ended, cancelled ones too."""
        with self._running_lock:
            return list(self._running)

    def shutdown(self, seconds: float = SHUTDOWN_S) -> bool:
        """Cancel every job and wait for its thread (the window is closing); True when all ended."""
        self.cancel_all()
        ended = True
        for job in self.running():
            job.cancel()
            ended = job.wait(seconds) and ended
        return ended


def shutdown_all(root: QObject, seconds: float = SHUTDOWN_S) -> bool:
    """Cancel and wait for every job of every `Jobs` under `root` (a window's closeEvent)."""
    ended = True
    for jobs in root.findChildren(Jobs):
        ended = jobs.shutdown(seconds) and ended
    return ended
