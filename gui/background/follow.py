"""Follow a session file that is still being written: notice when it grows, and read what it appended.

A JSON Lines session grows by whole lines (the last may be partial: it waits for its newline). The
follower watches with QFileSystemWatcher and, because watchers miss events on some file systems and
after a file is replaced, also polls size and mtime. `grew` fires at the first change of a burst and
then at most every `settle_ms` while writes go on, so a steady stream of writes still updates the
views without one update per write. `read_appended` reads only the bytes after those already read
(`wsi_inspector.core.session.growing`), measured against the baseline the load took from the bytes it parsed
(`wsi_inspector.core.files.file_baseline`: never one taken later, which would splice two files); it answers None when the
file must be read again whole: another form than JSON Lines, a file replaced, cut shorter or
rewritten (then `reload_reason` says which, for the window to say), or a change that appending
cannot show (see wsi_inspector.core.session.growing). The file is read with bounded reads, never mapped: a file cut
shorter under the reader is a reload, not a SIGBUS.
"""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from wsi_inspector.core.files.file_baseline import Baseline, what_changed
from wsi_inspector.core.session.growing import Appended
from wsi_inspector.core.files.input_file import open_input
from wsi_inspector.core.session.reading import LoadError
from wsi_inspector.core.session.load import Session

# The watcher is not what delays an append: measured alone it tells of a write in 0.2 ms (median;
# the poll below would take 5 ms at 10 ms). What the 100,000-entry follow benchmark saw as watcher
# latency was the GUI thread still painting the last append, so the poll stays a slow fallback.
POLL_MS = 500
SETTLE_MS = 30  # appended lines are read in milliseconds: coalesce only what comes within this


class FileFollower(QObject):
    """Emits `grew` when the followed file's size or modification time changes."""

    grew = Signal()

    def __init__(self, parent: QObject | None = None, poll_ms: int = POLL_MS, settle_ms: int = SETTLE_MS):
        super().__init__(parent)
        self.path: Path | None = None
        self._stamp: tuple[int, int] | None = None
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._changed)
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self._changed)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(settle_ms)
        self._settle.timeout.connect(self._emit_if_changed)
        self._baseline: Baseline | None = None  # the file as the load read it (take_baseline)
        self.reload_reason: str | None = None  # why the last read_appended answered None, when the file changed so

    @property
    def active(self) -> bool:
        """True while a file is followed."""
        return self.path is not None

    def follow(self, path: str | Path) -> None:
        """Start following `path` from its current size."""
        self.stop()
        self.path = Path(path)
        self._stamp = _stamp(self.path)
        self._watcher.addPath(str(self.path))
        self._poll.start()

    def stop(self) -> None:
        """Stop following."""
        if self._watcher.files():
            self._watcher.removePaths(self._watcher.files())
        self._poll.stop()
        self._settle.stop()
        self.path = None
        self._stamp = None
        self._baseline = None

    def mark_read(self, baseline: Baseline | None = None) -> None:
        """The window has loaded the file: only later changes count, measured against `baseline` (the
        file as that load read it; None: whatever it is now, and changes are read again whole)."""
        if self.path is None:
            return
        self._baseline = baseline
        self._stamp = (baseline.size, baseline.mtime_ns) if baseline is not None else _stamp(self.path)
        if self._stamp != _stamp(self.path):
            QTimer.singleShot(0, self._changed)  # it changed between the load and now: look at once

    def _changed(self, *_args: object) -> None:
        if self.path is None:
            return
        if _stamp(self.path) != self._stamp:
            if str(self.path) not in self._watcher.files() and self.path.exists():
                self._watcher.addPath(str(self.path))  # replaced by a rename: watch the new file
            if not self._settle.isActive():
                self._emit_if_changed()  # the first change of a burst shows at once
                self._settle.start()  # the rest of the burst together, settle_ms later

    def _emit_if_changed(self) -> None:
        if self.path is None:
            return
        stamp = _stamp(self.path)
        if stamp != self._stamp:
            self._stamp = stamp
            self.grew.emit()


    def read_appended(self, session: Session | None) -> Appended | None:
        """Add to `session` the lines appended to the followed file since last read; None: read it again whole."""
        self.reload_reason = None
        baseline = self._baseline
        if (self.path is None or session is None or baseline is None or baseline.growth is None
                or baseline.growth.session is not session):
            return None
        growth = baseline.growth
        try:
            handle = open_input(self.path)
        except LoadError:
            self.reload_reason = "replaced by something that is not a regular file"
            return None
        try:
            self.reload_reason = what_changed(baseline, handle)
            if self.reload_reason is not None:
                return None
            info = os.fstat(handle)
            start = growth.offset
            tail = _read_range(handle, start, info.st_size)
        except OSError:
            self.reload_reason = "unreadable for a moment"
            return None
        finally:
            os.close(handle)
        appended = growth.feed(tail)
        if appended is None:
            self._baseline = None
            return None
        baseline.advanced(info, start, tail)
        self._stamp = (baseline.size, baseline.mtime_ns)
        return appended


def _read_range(handle: int, start: int, stop: int) -> bytes:
    """The bytes from `start` to `stop` (fewer when the file was cut meanwhile), in bounded reads."""
    pieces: list[bytes] = []
    while start < stop and (piece := os.pread(handle, min(stop - start, 16 * 1024 * 1024), start)):
        pieces.append(piece)
        start += len(piece)
    return b"".join(pieces)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns
