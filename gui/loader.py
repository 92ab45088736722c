"""Load a session off the GUI thread, with progress and Cancel.

The worker reads the file in chunks (progress by bytes), parses it with `core.session.load_bytes`,
then builds the `ManifestIndex` (every entry's size, which the bytes column and the status bar
need), so the window has nothing heavy left to do. Cancel is checked between chunks and phases;
a load cancelled during the parse finishes in the background and its result is dropped.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from core.filtering import ManifestIndex
from core.timeline import timeline_rows
from core.session import LoadError, Session, load_bytes
from core.reading import read_bytes
from gui.errors import log_exception

CHUNK = 4 * 1024 * 1024


class Cancelled(Exception):
    """The person pressed Cancel."""


@dataclass
class LoadedSession:
    """A session read off the GUI thread, with its manifest index and how long it took."""

    session: Session
    index: ManifestIndex
    path: Path
    seconds: float


class LoadThread(QThread):
    """One load: read, parse, index. Reports through signals (queued to the GUI thread)."""

    # Each signal carries the thread itself, so the loader (in the GUI thread) knows whose it is.
    progress = Signal(object, int, str)  # thread, percent, what it is doing
    loaded = Signal(object, object)  # thread, LoadedSession
    failed = Signal(object, str)  # thread, why the file cannot be opened at all

    def __init__(self, path: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.path = path
        self.cancelled = False

    def run(self) -> None:  # noqa: D102 — QThread's hook
        start = time.perf_counter()
        try:
            data = self._read()
            self._check()
            self.progress.emit(self, 35, f"parsing {self.path.name} ({len(data) / 1e6:.1f} MB)")
            session = load_bytes(data, self.path.name, self.path)
            del data
            self._check()
            self.progress.emit(self, 85, f"measuring {len(session.entries):,} entries")
            index = ManifestIndex(session.entries)
            timeline_rows(session)  # made here, off the GUI thread; the timeline view finds them ready
            self._check()
            self.progress.emit(self, 100, "done")
            self.loaded.emit(self, LoadedSession(session, index, self.path, time.perf_counter() - start))
        except Cancelled:
            return
        except LoadError as exc:
            self.failed.emit(self, str(exc))
        except MemoryError:
            self.failed.emit(self, f"{self.path}: too big to load in the memory available; try `wsi manifest` on it")
        except Exception as exc:  # a bug of ours: say so, log it, and keep the window up
            log_exception(exc)
            self.failed.emit(self, f"{self.path}: the inspector failed while loading it ({type(exc).__name__}: {exc}); "
                                   "this is a bug, the details are in the log")

    def _read(self) -> bytes:
        try:
            size = self.path.stat().st_size
            chunks = []
            done = 0
            with open(self.path, "rb") as handle:
                while chunk := handle.read(CHUNK):
                    chunks.append(chunk)
                    done += len(chunk)
                    self._check()
                    self.progress.emit(self, int(30 * done / max(size, 1)), f"reading {self.path.name}")
            return b"".join(chunks)
        except OSError:
            return read_bytes(self.path)  # raises LoadError saying why, as the CLI says it

    def _check(self) -> None:
        if self.cancelled:
            raise Cancelled


class SessionLoader(QObject):
    """Starts loads; a new load or Cancel drops the one running. Emits only for the current load."""

    progress = Signal(int, str)
    loaded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._current: LoadThread | None = None
        self._threads: set[LoadThread] = set()  # running threads are held until they end

    @property
    def busy(self) -> bool:
        """True while a load is running."""
        return self._current is not None

    def start(self, path: str | Path) -> None:
        """Load `path`; any load still running is dropped."""
        self.cancel(quiet=True)
        thread = LoadThread(Path(path), self)
        self._current = thread
        self._threads.add(thread)
        thread.progress.connect(self._progress)
        thread.loaded.connect(self._loaded)
        thread.failed.connect(self._failed)
        thread.finished.connect(self._ended)
        thread.start()

    def cancel(self, quiet: bool = False) -> None:
        """Stop waiting for the current load (it stops at its next check)."""
        if self._current is None:
            return
        self._current.cancelled = True
        self._current = None
        if not quiet:
            self.cancelled.emit()

    def wait(self, seconds: float = 30.0) -> None:
        """Wait for every thread still running (at exit)."""
        for thread in list(self._threads):
            thread.wait(int(seconds * 1000))

    def _progress(self, thread: LoadThread, percent: int, text: str) -> None:
        if thread is self._current:
            self.progress.emit(percent, text)

    def _loaded(self, thread: LoadThread, result: LoadedSession) -> None:
        if thread is self._current:
            self._current = None
            self.loaded.emit(result)

    def _failed(self, thread: LoadThread, message: str) -> None:
        if thread is self._current:
            self._current = None
            self.failed.emit(message)

    def _ended(self) -> None:
        for thread in [t for t in self._threads if t.isFinished()]:
            self._threads.discard(thread)
            if thread is self._current:  # ended without a result (cancelled inside)
                self._current = None
            thread.deleteLater()
