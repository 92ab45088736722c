"""What a followed file was when it was loaded, to tell an append from a replace or a rewrite (issue 27, case 7).

The window follows a JSON Lines session being written. Only lines appended after what was loaded
may be read on their own; anything else (another file renamed over it, logrotate's `copytruncate`,
a record rewritten in place) must be read again whole, or the window would show a session that does
not exist: the old header and bodies spliced to the new file's later lines.

`take_baseline(session, data, info)` is taken by the load itself, from the very bytes it parsed and
the `fstat` of the file it read them from: device and inode, size, modification time, a digest of
the first 4 KiB and the 64 bytes just before where the loaded lines end. `what_changed(baseline,
handle)` compares the file now against it and names what happened ("replaced by another file",
"cut shorter", "rewritten"), or None when the file only grew past what was loaded. A change in the
middle of the file at the same time as an append is not seen (that would need the whole file read
again at every append); every other change is.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from wsi_inspector.core.session.growing import Growth
from wsi_inspector.core.session.load import Session
from wsi_inspector.core.session.reading import GZIP_MAGIC

HEAD = 4096
MARK = 64  # bytes before the read point kept to notice a file rewritten rather than appended to


@dataclass
class Baseline:
    """The followed file as loaded, and where reading on starts (`growth.offset`)."""

    device: int
    inode: int
    size: int  # the bytes read so far (loaded, then appended)
    mtime_ns: int
    head_length: int
    head_digest: bytes
    growth: Growth | None  # None: not a JSON Lines session, it is always read again whole
    mark: bytes  # the MARK bytes just before growth.offset

    def advanced(self, info: os.stat_result, start: int, tail: bytes | bytearray) -> None:
        """`tail`, the file's bytes from `start` (the old `growth.offset`) to its end, has been fed to `growth`."""
        assert self.growth is not None
        self.size, self.mtime_ns = start + len(tail), info.st_mtime_ns
        self.mark = (self.mark + bytes(tail[:self.growth.offset - start]))[-MARK:]


def _digest(data: bytes | bytearray | memoryview) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def take_baseline(session: Session, data: bytes | bytearray, info: os.stat_result) -> Baseline:
    """The baseline of a file whose bytes `data` (as read, before gzip) were loaded into `session`."""
    growth = None
    if session.form == "jsonl" and data[:2] != GZIP_MAGIC and session.is_session:
        growth = Growth(session, data)
    offset = growth.offset if growth is not None else len(data)
    head = min(len(data), HEAD)
    return Baseline(info.st_dev, info.st_ino, len(data), info.st_mtime_ns, head, _digest(memoryview(data)[:head]),
                    growth, bytes(data[max(0, offset - MARK):offset]))


def what_changed(baseline: Baseline, handle: int) -> str | None:
    """How the open file differs from its baseline other than by growing; None when it only grew (or not at all)."""
    info = os.fstat(handle)
    if (info.st_dev, info.st_ino) != (baseline.device, baseline.inode):
        return "replaced by another file"
    offset = baseline.growth.offset if baseline.growth is not None else baseline.size
    if info.st_size < max(baseline.size, offset):
        return "cut shorter"
    if _digest(os.pread(handle, baseline.head_length, 0)) != baseline.head_digest:
        return "rewritten"
    if os.pread(handle, len(baseline.mark), offset - len(baseline.mark)) != baseline.mark:
        return "rewritten"
    if info.st_size == baseline.size and info.st_mtime_ns != baseline.mtime_ns:
        return "rewritten in place"
    return None
