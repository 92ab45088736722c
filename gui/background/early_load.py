"""`wsi gui FILE` starts loading FILE before Qt and the window are imported, so the two overlap.

The window's own start-up (importing Qt, pyqtgraph and the views, building the window, its first
paint) takes about a second, and the load job used to start after it. Reading the file and the
store scan (core/session/_store_scan.c) run without the interpreter's lock, so on two cores the load
moves on while the GUI thread imports: `start(path)` runs the load job's work
(wsi_inspector.gui.background.load_work) in a plain thread at once, importing no Qt. When the window
then opens that path, its "load" job adopts the early load (`take`) instead of starting another: it
hands on the progress said so far and after, waits for the answer, and a Cancel stops the early
work at its next check as it would its own.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from wsi_inspector.gui.background.load_work import LoadedSession, LoadJob, load_session

_pending: EarlyLoad | None = None  # the one load started before the window, until the window takes it
_lock = threading.Lock()


class EarlyLoad:
    """The load job's work on `path`, already running in its own thread; a job adopts it later."""

    def __init__(self, path: Path):
        self.path = path
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._job: LoadJob | None = None  # the job that adopted this load: progress goes to it, its Cancel stops the work
        self._said: tuple[int, str] | None = None  # the last progress, for the job that adopts it later
        self._result: LoadedSession | None = None
        self._error: BaseException | None = None
        self._abandoned = False  # the window opened another file first: the work stops at its next check
        self.thread = threading.Thread(target=self._run, daemon=True, name="wsi-early-load")  # daemon: `wsi gui` may end first (bad usage, no display)
        self.thread.start()

    def _run(self) -> None:
        try:
            result = load_session(self, self.path)
            with self._lock:
                if not self._abandoned:  # else nobody takes it: dropped now, not held by this object
                    self._result = result
        except Abandoned:
            pass
        except BaseException as exc:  # handed to the job that adopts the load, which reports it as its own
            self._error = exc
        finally:
            self._done.set()

    # --- what load_session asks of its job ---------------------------------------------------------
    def check(self) -> None:
        """Stop where the adopting job was cancelled (raises as its `check` does), or when abandoned."""
        if self._abandoned:
            raise Abandoned
        job = self._job
        if job is not None:
            job.check()

    def progress(self, percent: int, text: str) -> None:
        with self._lock:
            self._said = (percent, text)
            job = self._job
        if job is not None:
            job.progress(percent, text)

    def abandon(self) -> None:
        """Nobody will take this load: its work stops at its next check, and an answer it already has is dropped."""
        with self._lock:
            self._abandoned = True
            self._result = None

    # --- the job that takes it over ------------------------------------------------------------------
    def adopt(self, job: Any, poll_s: float = 0.05) -> LoadedSession:
        """The answer of the load, for `job` (the window's "load" job): its progress from now on, its Cancel."""
        with self._lock:
            self._job = job
            said = self._said
        if said is not None:
            job.progress(*said)
        while not self._done.wait(poll_s):
            job.check()  # Cancel: the work stops at its own next check, and this job stops waiting now
        job.check()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


class Abandoned(Exception):
    """The early load's file was not the one the window opened: its work stops."""


def start(path: str | Path) -> EarlyLoad:
    """Start loading `path` now, for the window that will open it (`take`)."""
    global _pending
    early = EarlyLoad(Path(path))
    with _lock:
        _pending = early
    return early


def take(path: str | Path) -> EarlyLoad | None:
    """The early load of `path`, once (the window's first open of it); None when there is none.

    The window opening another file first abandons the early load: it was for nothing.
    """
    global _pending
    with _lock:
        early, _pending = _pending, None
    if early is not None and not _same_file(early.path, Path(path)):
        early.abandon()
        return None
    return early


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b
