"""Load a session off the GUI thread, with progress and Cancel (a `wsi_inspector.gui.background.jobs` job named "load").

The job (its work is wsi_inspector.gui.background.load_work, free of Qt) reads the file in chunks
(progress by bytes), parses it with `wsi_inspector.core.session.load.load_bytes`, then builds the
`ManifestIndex` (every entry's size, which the bytes column and the status bar need), the trimStore
index the views share, the timeline's rows and the views' facts over every entry, so the window has
nothing heavy left to do. A load `wsi gui FILE` started before the window (wsi_inspector.gui.background.early_load)
is adopted by the job rather than started again. Cancel is checked between chunks and phases; a load cancelled during the parse finishes
in the background and its result is dropped (`wsi_inspector.gui.background.jobs` drops the news of a cancelled job).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from wsi_inspector.core.session.load import LoadError
from wsi_inspector.gui.background import early_load
from wsi_inspector.gui.background.jobs import Jobs
from wsi_inspector.gui.background.load_work import LoadedSession, failure_text, load_session

__all__ = ["LoadedSession", "SessionLoader", "failure_text", "load_session"]  # the work itself is in load_work


class SessionLoader(QObject):
    """Starts loads; a new load or Cancel drops the one running. Emits only for the current load."""

    progress = Signal(int, str)
    loaded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.jobs = Jobs(self)

    @property
    def busy(self) -> bool:
        """True while a load is running."""
        return self.jobs.busy("load")

    def start(self, path: str | Path) -> None:
        """Load `path`; any load still running is dropped."""
        path = Path(path)
        early = early_load.take(path)  # `wsi gui FILE` began reading FILE before the window was built
        work = (lambda job: early.adopt(job)) if early is not None else (lambda job: load_session(job, path))
        self.jobs.start("load", work, on_done=self.loaded.emit,
                        on_failed=lambda exc: self.failed.emit(failure_text(path, exc)), on_progress=self.progress.emit,
                        expected=(LoadError, MemoryError))

    def cancel(self, quiet: bool = False) -> None:
        """Stop waiting for the current load (it stops at its next check)."""
        if not self.busy:
            return
        self.jobs.cancel("load")
        if not quiet:
            self.cancelled.emit()

    def wait(self, seconds: float = 30.0) -> None:
        """Wait for every load still running, cancelled ones too (at exit)."""
        for job in self.jobs.running():
            job.wait(seconds)
