"""Imported first by the worker processes' forkserver (`wsi_inspector.gui.background.jobs`): the server runs below the window.

The forkserver starts with the first process job (the Edits tab diffing a big session) and imports
`wsi_inspector.core.edits.edits` there: half a second of CPU that, at the window's priority, took a core from the GUI
thread just as the tab prepared. Lowered before that import, the server and every worker forked
from it run `WORKER_NICENESS` below the window. Imported anywhere else (no Qt here) it does nothing.
"""
from __future__ import annotations

import os
import sys

WORKER_NICENESS = 10  # a worker process's niceness above the window's


def in_forkserver() -> bool:
    """True in multiprocessing's forkserver process (started as `python -c "from multiprocessing.forkserver …"`)."""
    return "multiprocessing.forkserver" in sys.modules and sys.argv[:1] == ["-c"]


lowered = False  # this process (and every process forked from it) already runs WORKER_NICENESS below
if hasattr(os, "nice") and in_forkserver():
    os.nice(WORKER_NICENESS)
    lowered = True
