"""Follow a session file that is still being written: notice when it grows, so the window re-reads it.

A JSON Lines session grows by whole lines (the last may be partial: the loader reports it and
loads everything before it). The follower watches with QFileSystemWatcher and, because watchers
miss events on some file systems and after a file is replaced, also polls size and mtime. Bursts
of writes are coalesced: `grew` fires `settle_ms` after the first change
of a burst, so a steady stream of writes still updates the views.
"""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

POLL_MS = 500
SETTLE_MS = 150


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

    def mark_read(self) -> None:
        """The window has read the file as it is now: only later growth counts."""
        if self.path is not None:
            self._stamp = _stamp(self.path)

    def _changed(self, *_args: object) -> None:
        if self.path is None:
            return
        if _stamp(self.path) != self._stamp:
            if str(self.path) not in self._watcher.files() and self.path.exists():
                self._watcher.addPath(str(self.path))  # replaced by a rename: watch the new file
            if not self._settle.isActive():  # a steady stream of writes still reloads every settle_ms
                self._settle.start()

    def _emit_if_changed(self) -> None:
        if self.path is None:
            return
        stamp = _stamp(self.path)
        if stamp != self._stamp:
            self._stamp = stamp
            self.grew.emit()


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns
