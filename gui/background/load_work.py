"""The load job's work, free of Qt: read, parse, index, and what the views need of every entry or body.

`load_session(job, path)` is what the window's "load" job runs (wsi_inspector.gui.background.loader);
`job` is anything with `check()` (raises to stop) and `progress(percent, text)`. It imports no Qt so
that `wsi gui FILE` can start it before Qt and the window are imported (wsi_inspector.gui.background.early_load):
on two cores the load runs beside the window's own start-up.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from wsi_inspector.core.search.filtering import ManifestIndex
from wsi_inspector.core.files.file_baseline import Baseline, take_baseline
from wsi_inspector.core.files.input_file import read_input_stat
from wsi_inspector.core.session.reading import JsonSyntaxError, no_gc
from wsi_inspector.core.session.load import LoadError, Session, load_bytes, refused_session
from wsi_inspector.core.session.timeline import timeline_rows
from wsi_inspector.gui.background.session_facts import prepare, store_index_of


class LoadJob(Protocol):
    """What the work needs of the job running it: a place to stop, and a way to say how far it is."""

    def check(self) -> None: ...

    def progress(self, percent: int, text: str) -> None: ...


CHUNK = 4 * 1024 * 1024


@dataclass
class LoadedSession:
    """A session read off the GUI thread, with its manifest index and how long it took."""

    session: Session
    index: ManifestIndex
    path: Path
    seconds: float
    baseline: Baseline | None = None  # the file as loaded, for the follower (wsi_inspector.core.files.file_baseline)


def load_session(job: LoadJob, path: Path) -> LoadedSession:
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
    # Millions of objects that live as long as the session, and hold no cycles: made with the collector
    # out of the way and frozen after, as the parse's are (no_gc). Left to it, they were walked by each
    # full collection from then on, and one could fall in a cursor move on the GUI thread.
    with no_gc():
        index = ManifestIndex(session.entries)
        store_index_of(index)  # the running sums the Inputs, Trim and status bar read (0.3 s on a million entries)
        index.index_positions()  # where an entry chosen in the timeline stands in the store
        timeline_rows(session)  # made here, off the GUI thread; the timeline view finds them ready
        prepare(session)  # what the views show of every entry or body (wsi_inspector.gui.background.session_facts)
    job.check()
    job.progress(100, "done")
    return LoadedSession(session, index, path, time.perf_counter() - start, baseline)


def _read(job: LoadJob, path: Path) -> tuple[bytearray, os.stat_result]:
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
