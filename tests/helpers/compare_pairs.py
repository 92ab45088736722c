"""Pairs of sessions made from the demo, each B differing from A (the demo) in one known way.

Used by tests/core/edits/test_compare.py and tests/gui/tabs/test_compare_window.py. Each `variant(name)` is the
demo's document changed as the name says; `write(document, path)` writes it as JSON, JSON Lines
(`.jsonl`) or either gzipped (`.gz`).
"""
from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

from tests.conftest import DEMO

VARIANTS = ("inserted", "dropped", "constant", "output", "unit", "unit-converted", "failure", "edit")


def demo_document() -> dict[str, Any]:
    return json.loads(DEMO.read_text())


def _entry(document: dict[str, Any], entry_id: str) -> dict[str, Any]:
    return next(e for e in document["store"] if e["id"] == entry_id)


def _body(document: dict[str, Any], body_id: str) -> dict[str, Any]:
    return next(b for b in document["bodies"] if b["id"] == body_id)


def variant(name: str) -> dict[str, Any]:
    """The demo with one thing changed (see VARIANTS)."""
    document = copy.deepcopy(demo_document())
    if name == "inserted":  # a body that makes one call, after b3
        at = next(i for i, b in enumerate(document["bodies"]) if b["id"] == "b3") + 1
        document["bodies"].insert(at, {"id": "b3x", "code": 'const z = inputs.last("dept.zones.zones");\n'
                                       'await modules.dept.zones.assign({ departmentId: "dept-img", zone: "z3" });\nreturn 1;',
                                       "result": {"ok": True, "returned": 1}})
        after = next(i for i, e in enumerate(document["store"]) if e["id"] == "c13") + 1
        document["store"].insert(after, {"id": "x1", "call": "dept.zones.assign", "unit": "mm", "body": "b3x",
                                         "input": {"departmentId": "dept-img", "zone": "z3"}, "output": {"ok": True}})
    elif name == "dropped":  # b6 and its eight calls are gone
        document["bodies"] = [b for b in document["bodies"] if b["id"] != "b6"]
        document["store"] = [e for e in document["store"] if e.get("body") != "b6"]
    elif name == "constant":  # b2's band depth 32 → 36, in its code and in the two calls it made with it
        body = _body(document, "b2")
        body["code"] = body["code"].replace("bandDepth: 32,", "bandDepth: 36,")
        for entry_id in ("c4", "c5"):
            _entry(document, entry_id)["input"]["bandDepth"] = 36
    elif name == "output":  # the module answered b4's first call differently
        _entry(document, "c14")["output"]["rooms"][1]["size"] = [3600, 5400]
    elif name == "unit":  # c20 recorded in cm with the same numbers: every length ten times longer
        _entry(document, "c20")["unit"] = "cm"
    elif name == "unit-converted":  # c20 recorded in cm, its lengths converted: the same call
        entry = _entry(document, "c20")
        entry["unit"] = "cm"
        entry["input"]["spine"] = [[x / 10, y / 10] for x, y in entry["input"]["spine"]]
        entry["input"]["clearWidth"] = entry["input"]["clearWidth"] / 10
        entry["input"]["bandDepth"] = entry["input"]["bandDepth"] / 10
        entry["output"]["length"] = entry["output"]["length"] / 10
    elif name == "failure":  # b6 stops after its seventh call with a TypeError
        document["store"] = [e for e in document["store"] if e["id"] != "c29"]
        _body(document, "b6")["result"] = {"ok": False, "logs": [],
                                           "error": "TypeError: Cannot read properties of undefined (reading 'outline')"}
    elif name == "edit":  # the person's edit e1 widened the band to 36, not 34
        _entry(document, "e1")["input"]["bandDepth"] = 36
    else:
        raise ValueError(f"unknown variant {name!r}; one of {', '.join(VARIANTS)}")
    return document


def write(document: dict[str, Any], path: Path) -> Path:
    """Write the document as JSON, or as JSON Lines when the name says `.jsonl`; gzipped for `.gz`."""
    name = path.name.removesuffix(".gz")
    if name.endswith(".jsonl"):
        header = {k: document[k] for k in ("format", "session", "caps", "scene", "modules") if k in document}
        bodies = {b["id"]: b for b in document["bodies"]}
        records: list[dict[str, Any]] = [header]
        done: set[str] = set()
        for entry in document["store"]:  # each body goes just before its first call (as the JSON form orders it)
            owner = entry.get("body")
            if owner in bodies and owner not in done:
                records.append({"kind": "body", **bodies[owner]})
                done.add(owner)
            records.append({"kind": "entry", **entry})
        records.extend({"kind": "body", **b} for b in document["bodies"] if b["id"] not in done)
        data = ("\n".join(json.dumps(r) for r in records) + "\n").encode()
    else:
        data = json.dumps(document).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path
