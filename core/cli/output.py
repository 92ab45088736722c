"""What a `wsi` command prints on stdout: one JSON document, a plain table, a problem as one line."""
from __future__ import annotations

import json
import sys
from typing import Any

import orjson

from wsi_inspector.core.session.model import Problem
from wsi_inspector.core.text.plain_text import shown

printed_json = False  # set once a command's document is out, so a later failure adds no second one


def format_problem(name: str, problem: Problem) -> str:
    """One plain line: `FILE:line:col: error: …` or `FILE: /store/3/call: error: …`."""
    where = problem.where
    place = f"{name}:{where}" if problem.place.is_spot else (f"{name}: {where}" if where else name)
    return shown(f"{place}: {problem.severity}: {problem.message}")  # a name or value with a newline stays one line


def dumps(obj: Any) -> bytes:
    """JSON bytes; the standard library takes what orjson refuses (lone surrogates, huge integers)."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, separators=(",", ":")).encode()


def print_json(obj: Any) -> None:
    """Exactly one JSON document on stdout."""
    global printed_json
    text = dumps(obj)  # made whole first: a failure here leaves stdout empty for the error document
    printed_json = True
    out = sys.stdout.buffer
    out.write(text)
    out.write(b"\n")  # not `text + b"\n"`: a copy of a big document at the command's peak (a manifest of 50,000 entries: 8 MB)
    out.flush()


def print_table(headers: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """A plain aligned table on stdout; columns in `right` are right-aligned (numbers)."""
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(headers), line(["─" * w for w in widths])]
    out.extend(line(row) for row in rows)
    sys.stdout.write("\n".join(out) + "\n")
