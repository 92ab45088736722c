"""Load a session off the GUI thread, with progress and Cancel (a `wsi_inspector.gui.background.jobs` job named "load").

The job reads the file in chunks (progress by bytes), parses it with `wsi_inspector.core.session.load.load_bytes`,
then builds the `ManifestIndex` (every entry's size, which the bytes column and the status bar
need), the trimStore index the views share and the timeline's rows, so the window has nothing heavy
left to do. Cancel is checked between chunks and phases; a load cancelled during the parse finishes
in the background and its result is dropped (`wsi_inspector.gui.background.jobs` drops the news of a cancelled job).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from wsi_inspector.core.search.filtering import ManifestIndex
from wsi_inspector.core.files.file_baseline import Baseline, take_baseline
from wsi_inspector.core.files.input_file import read_input_stat
from wsi_inspector.core.session.reading import JsonSyntaxError
from wsi_inspector.core.session.load import LoadError, Session, load_bytes, refused_session
from wsi_inspector.core.session.timeline import timeline_rows
from wsi_inspector.gui.background.jobs import Job, Jobs
from wsi_inspector.gui.background.session_facts import prepare
from wsi_inspector.gui.tabs.inputs.models import store_index_of

CHUNK = 4 * 1024 * 1024


@dataclass
class LoadedSession:
    """A session read off the GUI thread, with its manifest index and how long it took."""

    session: Session
    index: ManifestIndex
    path: Path
    seconds: float
    baseline: Baseline | None = None  # the file as loaded, for the follower (wsi_inspector.core.files.file_baseline)


def load_session(job: Job, path: Path) -> LoadedSession:
    """The load job: read, parse, index; progress as it goes, stopping at Cancel."""
    start = time.perf_counter()
    try:
        data, info = _read(job, path)
    except JsonSyntaxError as exc:  # NUL bytes, UTF-16: refused from the first bytes, shown as the CLI shows it
        data, info = bytearray(), None
        refused: JsonSyntaxError | None = exc
    else:
        refused = None
    job.check()
    job.progress(35, f"parsing {path.name} ({len(data) / 1e6:.1f} MB)")
    session = load_bytes(data, path.name, path) if refused is None else refused_session(path, refused)
    baseline = take_baseline(session, data, info) if info is not None else None  # from the bytes parsed, not later ones
    del data
    job.check()
    job.progress(85, f"measuring {len(session.entries):,} entries")
    index = ManifestIndex(session.entries)
    store_index_of(index)  # the running sums the Inputs, Trim and status bar read (0.3 s on a million entries)
    timeline_rows(session)  # made here, off the GUI thread; the timeline view finds them ready
    prepare(session)  # what the views show of every entry or body (wsi_inspector.gui.background.session_facts)
    job.check()
    job.progress(100, "done")
    return LoadedSession(session, index, path, time.perf_counter() - start, baseline)


def _read(job: Job, path: Path) -> tuple[bytearray, os.stat_result]:
    """The file's bytes, read as every command reads them (wsi_inspector.core.files.input_file: regular files only, bounded,
    a FIFO or a device refused at once), checking Cancel after each chunk."""
    def progress(done: int, size: int) -> None:
        job.check()
        job.progress(int(30 * done / max(size, 1)), f"reading {path.name}")

    return read_input_stat(path, on_progress=progress)


def failure_text(path: Path, exc: BaseException) -> str:
    """Why `path` could not be opened, in words a person can act on."""
    if isinstance(exc, LoadError):
        return str(exc)
    if isinstance(exc, MemoryError):
        return f"{path}: too big to load in the memory available; try `wsi manifest` on it"
    # a bug of ours (wsi_inspector.gui.background.jobs logged it): say so and keep the window up
    return (f"{path}: the inspector failed while loading it ({type(exc).__name__}: {exc}); "
            "this is a bug, the details are in the log")


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
        self.jobs.start("load", lambda job: load_session(job, path), on_done=self.loaded.emit,
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
