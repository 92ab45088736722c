"""Generated sessions in which one body fails only because of a few specific entries among many.

Used by tests/core/reduce/test_reduce.py, tests/gui/actions/test_reduce_panel.py and tests/bench/bench_reduce.py.
`failing_session(path, n)` writes a JSON session of `n` store entries before body "b6" (module calls
and canvas edits, with five earlier bodies between them, ordered by `seq`, three kept values and a
scene of ten entities); b6 fails with a RangeError only because of two of them: the one
corridor-runs call (its band depth) and the zone edit "z-needed" (its width). A later body b7 and
its call follow; b1…b5 and b7 replay as recorded.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NEEDED = ("runs-needed", "z-needed")
FAILING_BODY = """const runs = inputs.last("pack.corridorRuns");
const zone = inputs.at("z-needed");
const site = await modules.site.boundary({ outline: scene.read("site-1").outline });
log("last rooms call", JSON.stringify(inputs.last("pack.rooms")), "area", site.area);
if (zone.width / runs.bandDepth > 10) {
  throw new RangeError(`band depth ${runs.bandDepth} is too thin for a zone ${zone.width} wide`);
}
return { ok: true };
"""
SITE = [[0, 0], [60000, 0], [60000, 36000], [0, 36000]]
CALLS = ("pack.rooms.rooms", "dept.zones.zones", "mep.risers.risers", "site.boundary.offset", "pack.rooms.place")


def failing_document(entries: int = 150, kept_needed: bool = False, seed: int = 7) -> dict[str, Any]:
    """The session as a document: `entries` store entries before b6, two of them needed for its failure.

    With `kept_needed`, b6 also reads `kept.spacing`, so that kept value is needed too.
    """
    store: list[dict[str, Any]] = []
    needed_at = {entries // 4: NEEDED[0], (entries * 3) // 4: NEEDED[1]}
    bodies: list[dict[str, Any]] = []
    per_body = max(1, entries // 5)
    state = seed
    for index in range(entries):
        state = (state * 1103515245 + 12345) % 2**31
        if index in needed_at and needed_at[index] == NEEDED[0]:
            store.append({"id": NEEDED[0], "call": "pack.corridorRuns.corridorRuns", "unit": "mm",
                          "input": {"spine": [[1500, 18000], [58500, 18000]], "bandDepth": 30}, "output": {"runs": 1}})
        elif index in needed_at:
            store.append({"id": NEEDED[1], "call": "dept.zones.zones", "unit": "mm", "applied": True,
                          "input": {"width": 9000, "depth": 7200}})
        elif index % 7 == 3:
            store.append({"id": f"z{index}", "call": "dept.zones.zones", "unit": "mm", "applied": True,
                          "input": {"width": 200 + state % 100, "depth": 7200}})
        else:
            call = CALLS[state % len(CALLS)]
            store.append({"id": f"c{index}", "call": call, "unit": "mm",
                          "input": {"n": index, "size": state % 5000, "tag": f"t{state % 97}"}, "output": {"ok": index}})
    for number in range(1, 6):
        keep = {"b1": {"spacing": 900}, "b3": {"levels": [1, 2, 3]}, "b5": {"label": "ward 2"}}.get(f"b{number}")
        record: dict[str, Any] = {"id": f"b{number}", "code": f"return {{ step: {number} }};", "seq": 10 * (number - 1) * per_body - 5,
                                  "result": {"ok": True, "returned": {"step": number}}}
        if keep is not None:
            record["keep"] = keep
        bodies.append(record)
    code = FAILING_BODY
    if kept_needed:
        code = code.replace("const zone", "if (kept.spacing !== 900) throw new Error('no spacing');\nconst zone")
    for index, entry in enumerate(store):
        entry["seq"] = 10 * index
    bodies.append({"id": "b6", "code": code, "at": "2026-11-18T10:00:00Z", "seq": 10 * entries - 5,
                   "result": {"ok": False, "error": "RangeError: band depth 30 is too thin for a zone 9000 wide"}})
    store.append({"id": "b6-site", "call": "site.boundary.boundary", "unit": "mm", "body": "b6",
                  "input": {"outline": SITE}, "output": {"area": 2160000000, "perimeter": 192000}, "seq": 10 * entries})
    bodies.append({"id": "b7", "code": "await modules.pack.rooms({ n: -1 });\nreturn 7;", "seq": 10 * entries + 5,
                   "result": {"ok": True, "returned": 7}})
    store.append({"id": "b7-call", "call": "pack.rooms.rooms", "unit": "mm", "body": "b7", "input": {"n": -1}, "output": {},
                  "seq": 10 * entries + 10})
    entities = [{"id": "site-1", "type": "site", "name": "plot", "outline": SITE}]
    entities += [{"id": f"room-{i}", "type": "room", "name": f"Bed {i}", "at": [i * 3000, 12000]} for i in range(1, 10)]
    return {
        "format": "worker-session/1",
        "session": {"id": "reduce-me", "title": "A failure buried in a long session", "createdAt": "2026-11-18T09:00:00Z"},
        "scene": {"unit": "mm", "entities": entities, "mocks": {"mep.risers.risers": {"echo": True},
                                                                "pack.rooms.place": {"returns": {"placed": True}}}},
        "modules": {"pack.corridorRuns": {"fns": ["corridorRuns"]}, "site.boundary": {"fns": ["boundary", "offset"]}},
        "store": store,
        "bodies": bodies,
    }


def failing_session(path: Path, entries: int = 150, kept_needed: bool = False) -> Path:
    """Write `failing_document(entries, kept_needed)` to `path`."""
    path.write_text(json.dumps(failing_document(entries, kept_needed)))
    return path
