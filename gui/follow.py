"""Follow a session file that is still being written: notice when it grows, and read what it appended.

A JSON Lines session grows by whole lines (the last may be partial: it waits for its newline). The
follower watches with QFileSystemWatcher and, because watchers miss events on some file systems and
after a file is replaced, also polls size and mtime. `grew` fires at the first change of a burst and
then at most every `settle_ms` while writes go on, so a steady stream of writes still updates the
views without one update per write. `read_appended` reads only the bytes after those already read
(`core.growing`); it answers None when the file must be read again whole: another form than JSON
Lines, a file replaced or rewritten (its bytes before that point changed), or a change that
appending cannot show (see core.growing).
"""
from __future__ import annotations

import mmap
import os
from pathlib import Path
from typing import BinaryIO

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from core.growing import Appended, Growth
from core.session import Session

# The watcher is not what delays an append: measured alone it tells of a write in 0.2 ms (median;
# the poll below would take 5 ms at 10 ms). What the 100,000-entry follow benchmark saw as watcher
# latency was the GUI thread still painting the last append, so the poll stays a slow fallback.
POLL_MS = 500
SETTLE_MS = 30  # appended lines are read in milliseconds: coalesce only what comes within this
MARK = 64  # bytes before the read point kept to notice a file rewritten rather than appended to


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
        self._growth: Growth | None = None
        self._mark: tuple[int, bytes] | None = None  # the file's inode and the bytes just before growth.offset

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
        self._growth = None

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
        if self.path is None or session is None or session.form != "jsonl" or self.path.suffix == ".gz":
            return None
        try:
            with self.path.open("rb") as handle:
                info = os.fstat(handle.fileno())
                if self._growth is None or self._growth.session is not session:
                    self._start(session, handle, info.st_ino)
                growth = self._growth
                if growth is None or self._mark is None or self._mark[0] != info.st_ino or info.st_size < growth.offset:
                    return None
                before = self._mark[1]
                start = growth.offset - len(before)  # where `tail` starts in the file
                handle.seek(start)
                tail = handle.read()
        except OSError:
            return None
        if not tail.startswith(before):  # rewritten, not appended to
            return None
        appended = growth.feed(tail[len(before):])
        if appended is None:
            self._growth = None
            return None
        self._mark = (info.st_ino, tail[max(0, growth.offset - MARK - start):growth.offset - start])
        return appended

    def _start(self, session: Session, handle: BinaryIO, inode: int) -> None:
        """Find where the loaded session's lines end in the file (once per session it follows)."""
        size = os.fstat(handle.fileno()).st_size
        if not size:
            return
        with mmap.mmap(handle.fileno(), size, access=mmap.ACCESS_READ) as data:
            growth = Growth(session, data)
            self._mark = (inode, data[max(0, growth.offset - MARK):growth.offset])
        self._growth = growth


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns
