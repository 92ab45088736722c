"""Blame with evidence (SPEC 7): a value a body's call carries is the earlier entry's only if the body read it.

`wsi_inspector.core.edits.provenance` says which earlier entry holds each leaf's value (by equal values along the
call's chain). A body that typed the same value again gets the same answer as one that read it; the
runner's reads tell them apart. A leaf of a body's call is `read` when the body read an entry (or a
kept value) at a path holding that leaf with the same value: at the same place (a copy, a spread) or
under the path read (a renamed key); its origin is then that entry's origin there, whatever the
call's own chain says. A leaf the chain carries that no read explains is `equal`: the body typed it
again and it is the body's own. A person's value stays the person's through a body only by a read.
"""
from __future__ import annotations

import json
from typing import Any, Callable, TypedDict

from wsi_inspector.core.edits.diff import Token
from wsi_inspector.core.session.model import Entry, Id
from wsi_inspector.core.jsrules.json_values import json_equal
from wsi_inspector.core.edits.provenance import LeafOrigin, Path, Provenance, leaves

class Read(TypedDict, total=False):
    """One of a run's `reads` (SPEC 7), as the runner reports it."""

    what: str  # inputs.last, inputs.at, inputs.list (entry None: manifest lines, not an input), kept, scene.read, scene.get, scene.entities
    arg: str | None
    entry: Id | None
    name: str  # the kept name, for `kept`
    paths: list[str]
    pathsCut: int
    line: int
    column: int


def _js_path(path: str) -> str:
    """`/spine/0` as JavaScript: `.spine[0]`."""
    out = ""
    for token in path.split("/")[1:] if path else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if token.isdigit():
            out += f"[{token}]"
        elif token.isidentifier():
            out += f".{token}"
        else:
            out += f"[{json.dumps(token)}]"
    return out


def read_expression(read: Read, path: str) -> str:
    """The expression the body read a value with: `inputs.last("pack.corridorRuns").bandDepth`."""
    if read["what"] == "kept":
        head = f"kept{_js_path('/' + str(read.get('name', '')).replace('~', '~0').replace('/', '~1'))}"
    else:
        head = f"{read['what']}({json.dumps(read['arg']) if read['arg'] is not None else ''})"
    return head + _js_path(path)


def _is_prefix(read_path: str, path: str) -> bool:
    return read_path == "" or path == read_path or path.startswith(read_path + "/")


MAX_TRIES = 500_000  # places looked at for one call's leaves; past it the rest are by value only


def _tokens(path: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]] if path else []


def _at(value: Any, path: Path) -> Any:
    """The value at `path` inside `value`, or _MISSING."""
    for token in path:
        if isinstance(value, dict) and isinstance(token, str) and token in value:
            value = value[token]
        elif isinstance(value, list) and isinstance(token, int) and 0 <= token < len(value):
            value = value[token]
        else:
            return _MISSING
    return value


def _as_path(tokens: list[str], value: Any) -> Path | None:
    """Pointer tokens as a provenance path (indices as ints), following `value`; None where it does not lead."""
    out: list[Token] = []
    for token in tokens:
        if isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                return None
            out.append(int(token))
            value = value[int(token)]
        elif isinstance(value, dict) and token in value:
            out.append(token)
            value = value[token]
        else:
            return None
    return tuple(out)


_MISSING = object()


class Evidence:
    """Each leaf of a body's call judged by that body's reads: read there, or only equal (typed again)."""

    def __init__(self, provenance: Provenance):
        self.provenance = provenance
        self.session = provenance.session
        self.budget = MAX_TRIES

    def _read_places(self, entry: Entry, reads: list[Read]) -> list[tuple[Read, str, Entry | None, Any, Path]]:
        """Each place the body read: (record, path read, the entry read or None for kept, the value there, its path)."""
        places: list[tuple[Read, str, Entry | None, Any, Path]] = []
        kept: dict[str, Any] | None = None
        for record in reads:
            source: Entry | None = None
            if record.get("entry") is not None:
                source = self.session.entry(record["entry"])
                if source is None or source.key == entry.key:
                    continue
                held = source.input
            elif record.get("what") == "kept":
                if kept is None:
                    kept = self.session.state_at(entry.body).kept
                if record.get("name") not in kept:
                    continue
                held = kept[record["name"]]
            else:
                continue
            for read_path in record.get("paths", []):
                read_at = _as_path(_tokens(read_path), held)
                if read_at is not None:
                    places.append((record, read_path, source, held, read_at))
        return places

    def _read_source(self, path: Path, value: Any, places: list[tuple[Read, str, Entry | None, Any, Path]]
                     ) -> tuple[Read, str, Entry | None, Path] | None:
        """The read that handed the body this leaf: (record, path read, entry read or None for kept, leaf path there).

        The leaf is looked for at the same place there (a copy, a spread), then under the path read with
        the call's path shortened from the front (a renamed key: `{route: base.spine}`, `{spine: kept.route}`).
        """
        for record, read_path, source, held, read_at in places:
            for cut in range(len(path) + 1):
                candidate = path if cut == 0 else read_at + path[cut:]
                self.budget -= 1
                if candidate[: len(read_at)] == read_at and json_equal(_at(held, candidate), value):
                    return record, read_path, source, candidate
        return None

    def judge_shown(self, origins: dict[str, dict[str, LeafOrigin]], reads_of: Callable[[Id], list[Read] | None]) -> None:
        """Judge every body's call among `origins` (entry key → pointer → origin, as `wsi_inspector.core.edits.provenance.blame` made them
        in leaf order); `reads_of(body id)` gives that body's reads (or None)."""
        for key, by_path in origins.items():
            entry = self.session.entry(key)
            if entry is not None and not entry.applied and entry.body is not None:
                self.judge(entry, list(by_path.values()), reads_of(entry.body))

    def judge(self, entry: Entry, origins: list[LeafOrigin], reads: list[Read] | None) -> None:
        """Give each leaf of `entry` (a body's call) its evidence, in place; nothing without reads."""
        if reads is None or entry.applied or entry.body is None:
            return
        paths = [path for path, _ in leaves(entry.input)]
        places = self._read_places(entry, reads)
        self.budget = MAX_TRIES
        for origin, path in zip(origins, paths):
            if self.budget <= 0:  # past the bound, the rest stay by value (no evidence)
                break
            found = self._read_source(path, origin.value, places)
            if found is not None:
                record, read_path, source, at = found
                origin.evidence = "read"
                origin.read = {"body": entry.body, "line": record["line"], "column": record["column"],
                               "expr": read_expression(record, read_path)}
                if source is not None:
                    origin.setter = self.provenance.setters(source).get(at, source)
            elif origin.carried and (origin.setter.applied or str(origin.setter.body) != str(entry.body)):
                origin.evidence = "equal"
                origin.equal_to = origin.setter
                origin.setter = entry
