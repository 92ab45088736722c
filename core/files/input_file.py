"""The one way every command, `wsi check` worker and the window read a file the person named (issue 27).

- Regular files only, refused at once otherwise: a FIFO is opened without waiting for a writer and
  refused (it would hang every reader), a device such as `/dev/zero` is refused (it never ends), a
  folder is named as one.
- Read into memory with bounded reads, never mapped: another program cutting the file shorter while
  it is read gives a shorter text (which the parsers then call cut short), never a SIGBUS. What is read
  is at most the size the file had when opened, plus what it had grown by when that much was read
  (looked at once: a file appended to forever cannot keep a reader busy). Reading into memory costs
  the file's size once (`wsi manifest` on a 65 MB session: 153 MB peak, where the mapping it replaces
  peaked at 105 MB) and is what makes every reader safe.
- The first bytes are looked at before the rest is read: a file of NUL bytes (a disk image, space
  reserved and never written) is refused at once however big it is, and text in UTF-16 or UTF-32 is
  named, with or without its byte order mark, instead of being called "not JSON".
"""
from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from wsi_inspector.core.text.plain_text import shown
from wsi_inspector.core.session.reading import GZIP_MAGIC, JsonSyntaxError, LoadError

HEAD = 4096  # what is looked at before the rest is read
CHUNK = 4 * 1024 * 1024
# How the first bytes of text look in each encoding that is not UTF-8: (name, iconv name, pattern of
# NULs in each group of 4 bytes for ASCII text: True where a byte is NUL).
_WIDE = (
    ("UTF-32 (little-endian)", "UTF-32LE", b"\xff\xfe\x00\x00", (False, True, True, True)),
    ("UTF-32 (big-endian)", "UTF-32BE", b"\x00\x00\xfe\xff", (True, True, True, False)),
    ("UTF-16 (little-endian)", "UTF-16LE", b"\xff\xfe", (False, True, False, True)),
    ("UTF-16 (big-endian)", "UTF-16BE", b"\xfe\xff", (True, False, True, False)),
)


def open_input(path: str | Path) -> int:
    """An open descriptor on `path`, a regular file; LoadError (one line, what to do) for anything else."""
    name = shown(str(path))
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise LoadError(f"{name}: no such file; check the path") from None
    except IsADirectoryError:
        raise LoadError(f"{name}: is a folder; give a session file (.json, .jsonl, .gz)") from None
    except PermissionError:
        raise LoadError(f"{name}: permission denied; the file cannot be read") from None
    except OSError as exc:
        raise LoadError(f"{name}: cannot be read: {exc.strerror or exc}") from None
    mode = os.fstat(handle).st_mode
    if stat.S_ISREG(mode):
        os.set_blocking(handle, True)
        return handle
    os.close(handle)
    if stat.S_ISDIR(mode):
        raise LoadError(f"{name}: is a folder; give a session file (.json, .jsonl, .gz)")
    what = "a pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    raise LoadError(f"{name}: is {what}, not a regular file; save what it gives to a file and open that")


def read_input(path: str | Path, limit: int | None = None,
               on_progress: Callable[[int, int], None] | None = None) -> bytearray:
    """The bytes of the regular file at `path`: `read_input_stat` without the file's status."""
    return read_input_stat(path, limit, on_progress)[0]


def read_input_stat(path: str | Path, limit: int | None = None,
                    on_progress: Callable[[int, int], None] | None = None) -> tuple[bytearray, os.stat_result]:
    """The bytes of the regular file at `path` (see the module docstring).

    LoadError when it cannot be read at all; JsonSyntaxError (at 1:1) when its first bytes show it is
    NUL bytes or text not in UTF-8; TooBig when `limit` is given and the file is larger.
    `on_progress(done, size)` is called after each chunk (it may raise to stop the read). With the bytes
    comes the `fstat` of the file they were read from (what a follower compares later: wsi_inspector.core.files.file_baseline).
    """
    handle = open_input(path)
    try:
        info = os.fstat(handle)
        size = info.st_size
        if limit is not None and size > limit:
            raise TooBig(size, limit)
        head = _head(handle)
        refuse_foreign_text(head)  # before a buffer of the whole size is made: a 5 GB NUL file costs 4 KiB
        data = bytearray(max(size, len(head)))
        data[:len(head)] = head
        done = _fill(handle, data, len(head), on_progress)
        if done == len(data):  # it may have grown since: read on once, to the size it has now
            grown = os.fstat(handle).st_size
            if grown > done and (limit is None or grown <= limit):
                data.extend(bytes(grown - done))
                done = _fill(handle, data, done, on_progress)
        del data[done:]  # it shrank while read: the parsers say where the text stops
        return data, info
    finally:
        os.close(handle)


class TooBig(Exception):
    """The file is larger than the bound the caller gave."""

    def __init__(self, size: int, limit: int):
        super().__init__(f"the file is {size:,} bytes, over the limit of {limit:,}")
        self.size = size
        self.limit = limit


def _head(handle: int) -> bytes:
    """The first HEAD bytes (fewer when the file is shorter)."""
    pieces: list[bytes] = []
    held = 0
    while held < HEAD and (piece := os.read(handle, HEAD - held)):
        pieces.append(piece)
        held += len(piece)
    return b"".join(pieces)


def _fill(handle: int, data: bytearray, start: int, on_progress: Callable[[int, int], None] | None) -> int:
    """Read into data[start:] in bounded chunks until it is full or the file ends; the bytes now held."""
    done = start
    with memoryview(data) as view:
        while done < len(data):
            got = os.readv(handle, [view[done:done + CHUNK]])
            if got == 0:
                break
            done += got
            if on_progress is not None:
                on_progress(done, len(data))
    return done


def refuse_foreign_text(head: bytes | bytearray | memoryview) -> None:
    """JsonSyntaxError at 1:1 when the first bytes of a text are NUL bytes or text in UTF-16/UTF-32."""
    head = bytes(head[:HEAD])
    if head[:2] == GZIP_MAGIC or not head:
        return
    for name, iconv, bom, nulls in _WIDE:
        if head.startswith(bom) or _pattern_of(head, nulls):
            marked = "with" if head.startswith(bom) else "without"
            raise JsonSyntaxError(f"the file is text in {name}, {marked} a byte order mark, not UTF-8; save it as "
                                  f"UTF-8 (e.g. iconv -f {iconv} -t UTF-8 FILE > NEW.json)", 1, 1)
    if head[0] == 0:
        leading = len(head) - len(head.lstrip(b"\0"))
        more = "+" if leading == len(head) else ""
        raise JsonSyntaxError(f"not JSON: the file starts with {leading:,}{more} NUL bytes (a disk image, or space "
                              "reserved and never written), not a session", 1, 1)


def _pattern_of(head: bytes, nulls: tuple[bool, bool, bool, bool]) -> bool:
    """True when at least 8 groups of 4 bytes follow the NUL pattern of ASCII text in a wide encoding."""
    groups = [head[i:i + 4] for i in range(0, len(head) - len(head) % 4, 4)][:64]
    if len(groups) < 2:
        return False
    fits = sum(all((b == 0) == n for b, n in zip(group, nulls)) for group in groups)
    return fits >= max(2, len(groups) * 3 // 4)
