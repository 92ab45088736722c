"""Standard output and error that survive any terminal and any closed stream (issue 27, case 12).

- A terminal or pipe whose encoding cannot spell `─ → ≈` (`PYTHONIOENCODING=ascii`, an old console)
  gets them as escapes (`\\u2500`), never a UnicodeEncodeError.
- Standard error closed (`2>&-`): Python would print error lines to standard output (print with no
  file) ahead of the JSON document; they go nowhere instead, and stdout holds only the JSON.
- Standard output closed (`>&-`) or full (`> /dev/full`): one line on standard error saying so, exit 2
  (like a file that cannot be written), never "internal error".
"""
from __future__ import annotations

import io
import os
import sys

OUTPUT_FAILED = 2


def prepare() -> str | None:
    """Make the streams safe as the module docstring says; the error line when stdout is closed, else None."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 — for the process's life
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if sys.stdout is None:
        return "wsi: standard output is closed; nothing could be printed (redirect it to a file or /dev/null)"
    return None


def failure_line(exc: OSError) -> str:
    """The one line for standard output that could not be written (full disk, closed, I/O error)."""
    return f"wsi: cannot write to standard output ({exc.strerror or exc}); the output is incomplete"


def is_output_failure(exc: OSError) -> bool:
    """True for an OSError from writing standard output: commands turn file errors into their own lines,
    and those carry a file name; a failed write to stdout carries none."""
    return exc.filename is None and not isinstance(exc, (BrokenPipeError, ConnectionError, TimeoutError))


def flush_stdout() -> None:
    """Flush standard output (OSError when it cannot be written)."""
    if sys.stdout is not None:
        sys.stdout.flush()
