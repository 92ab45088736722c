"""Session files for `wsi check`'s tests and benchmark: clean ones, and each way one can fail."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

CALL = "pack.corridorRuns.corridorRuns"
OTHER_CALL = "pack.rooms.place"


def spine(points: int, shift: int = 0) -> list[list[int]]:
    """A polyline of `points` points."""
    return [[1500 + 100 * i + shift, 18000 + (i % 7) * 50] for i in range(points)]


def session(sid: str, bodies: int = 2, points: int = 4, cap: int | None = None, edit: bool = False,
            differs: bool = False, endless: bool = False, other_module: bool = False) -> dict[str, Any]:
    """A worker-session/1 document whose bodies replay the same, unless asked otherwise.

    `edit`: a person's canvas edit of the first call; `differs`: the last body's record returned
    something else; `endless`: the last body loops forever; `other_module`: calls pack.rooms.place too.
    """
    store: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    for number in range(1, bodies + 1):
        call = OTHER_CALL if other_module and number == bodies else CALL
        value = {"spine": spine(points, number), "bandDepth": 32}
        code = (f"const spine = {json.dumps(value['spine'])};\n"
                f"const r = await modules.{call}({{ spine, bandDepth: 32 }});\n"
                "return { runs: r.runs };")
        if endless and number == bodies:
            code = "while (true) {}\nreturn { runs: 1 };"
        store.append({"id": f"c{number}", "call": call, "unit": "mm", "body": f"b{number}", "input": value,
                      "output": {"runs": 1}})
        records.append({"id": f"b{number}", "code": code,
                        "result": {"ok": True, "returned": {"runs": 2 if differs and number == bodies else 1}}})
        if edit and number == 1:
            store.append({"id": "e1", "call": call, "unit": "mm", "applied": True, "editOf": "c1",
                          "input": {"spine": spine(points, 7), "bandDepth": 34}})
    document: dict[str, Any] = {"format": "worker-session/1", "session": {"id": sid, "title": f"Session {sid}"},
                                "store": store, "bodies": records}
    if cap is not None:
        document["caps"] = {"storeBytes": cap}
    return document


def write(path: Path, document: dict[str, Any]) -> Path:
    """Write a document in the form its name says: .json, .jsonl, either optionally .gz."""
    path.parent.mkdir(parents=True, exist_ok=True)
    name = path.name.removesuffix(".gz")
    if name.endswith(".jsonl"):
        header = {k: v for k, v in document.items() if k not in ("store", "bodies", "kept")}
        # JSON Lines is in time order: each body just before the calls it made.
        lines = [header]
        by_body: dict[str, list[dict[str, Any]]] = {}
        loose: list[dict[str, Any]] = []
        for entry in document["store"]:
            (by_body.setdefault(entry["body"], []) if "body" in entry else loose).append(entry)
        for body in document.get("bodies", []):
            lines.append({"kind": "body", **body})
            lines.extend({"kind": "entry", **e} for e in by_body.get(body["id"], []))
            if body["id"] == "b1":
                lines.extend({"kind": "entry", **e} for e in loose)
        text = "\n".join(json.dumps(line) for line in lines) + "\n"
    else:
        text = json.dumps(document)
    data = text.encode()
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


def edit_falling_cap(document: dict[str, Any]) -> int:
    """A cap at which the session's canvas edit (the second entry) falls but the newest entry is kept."""
    sizes = [len(json.dumps({k: e[k] for k in ("id", "call", "input", "unit", "applied") if k in e},
                            separators=(",", ":")).encode()) for e in document["store"]]
    return 2 + sum(sizes[2:]) + len(sizes[2:]) - 1
