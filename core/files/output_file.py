"""The one way every command and the window write a file the person named (issue 27).

A report, a reduced session, a picture: each is written whole or not at all, and never onto
something the person did not mean:

- `check_output(out, inputs)` refuses, before any work starts, an OUT that is a folder, a device
  or anything else that is not a regular file (writing there would replace `/dev/stdout` with a
  file, or fail only at the end), one whose folder does not exist, and one that is the same file as
  an input (same device and inode: through symlinks and hard links too).
- `write_output(out, data, inputs)` checks again, then writes a temporary file beside OUT with a
  name nobody can guess (created exclusively, no link followed), flushes it to the disk and renames
  it over OUT in one step. A crash, a full disk or a kill leaves OUT as it was; two writers of one
  OUT each leave a whole file (the last rename wins); a symlink named OUT is replaced, never
  written through.
"""
from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from wsi_inspector.core.text.plain_text import shown

_TRIES = 100


class OutputRefused(OSError):
    """OUT cannot be written as asked: the message says why and what to do instead."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def check_output(out: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """OUT as a Path when it can be written; OutputRefused saying why not (nothing is touched)."""
    out = Path(out)
    name = shown(str(out))
    try:
        target = os.stat(out)  # follows links: a link to the session is the session
    except FileNotFoundError:
        target = None
    except OSError as exc:
        raise OutputRefused(f"{name}: cannot be checked ({exc.strerror or exc}); choose another path") from None
    if target is not None:
        if stat.S_ISDIR(target.st_mode):
            raise OutputRefused(f"{name}: is a folder; give a file name inside it")
        if not stat.S_ISREG(target.st_mode):
            # No hint of stdout: what these write (a session, a picture, a JUnit report) has no form for it.
            raise OutputRefused(f"{name}: is not a regular file (a device, pipe or socket), which is never replaced; "
                                "give the path of a file")
        for given in inputs:
            try:
                if _same_file(target, os.stat(given)):
                    raise OutputRefused(f"{name}: that is the input {shown(str(given))} (the same file), which is never "
                                        "written; choose another path")
            except FileNotFoundError:
                continue
    folder = out.parent
    if not folder.is_dir():
        raise OutputRefused(f"{name}: no folder {shown(str(folder))}; choose a path in a folder that exists")
    return out


def write_output(out: str | Path, data: bytes | Callable[[BinaryIO], None], inputs: Iterable[str | Path] = ()) -> Path:
    """Write `data` (bytes, or a function writing to a binary file) to OUT whole, as the module docstring says.

    OSError (OutputRefused among them) when it cannot be written; OUT is then as it was.
    """
    out = check_output(out, list(inputs))
    handle, temporary = _temporary_beside(out)
    try:
        with os.fdopen(handle, "wb") as file:
            if callable(data):
                data(file)
            else:
                file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, out)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    _sync_folder(out.parent)
    return out


def _temporary_beside(out: Path) -> tuple[int, Path]:
    """A new file beside OUT with an unguessable name, created exclusively and without following a link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_TRIES):
        candidate = out.with_name(f".{out.name}.{secrets.token_hex(8)}.tmp")
        try:
            return os.open(candidate, flags, 0o666), candidate  # the umask applies, as for any new file
        except FileExistsError:
            continue
    raise OutputRefused(f"{shown(str(out))}: no free temporary name beside it after {_TRIES} tries; choose another folder")


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: some file systems cannot sync a folder)."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
