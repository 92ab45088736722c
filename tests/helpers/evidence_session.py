"""The session of the blame-with-evidence tests (SPEC 7, issue 30): body b1's call c1, the person's edit
e1 of it (band depth 32 → 34), then body b2 whose call c2 has the same input as e1, made as the test says."""
from __future__ import annotations

import json

SPINE = [[0, 0], [6000, 0], [12000, 0]]
C1 = {"level": 2, "spine": SPINE, "bandDepth": 32, "clearWidth": 2400}
E1 = {**C1, "bandDepth": 34}


def session_file(tmp_path, code, c2_input, name="s.json", keep=None):
    """The session; with `keep`, body b1 also keeps these values (b2 is handed them as `kept`)."""
    document = {
        "format": "worker-session/1",
        "session": {"id": "evidence", "title": "evidence", "createdAt": "2026-11-18T09:00:00Z"},
        "caps": {"storeBytes": 65536, "keepBytes": 65536},
        "scene": {"unit": "mm", "entities": [{"id": "site-1", "type": "site", "name": "site"}]},
        "modules": {"pack.corridorRuns": {"fns": ["corridorRuns", "score"], "doc": "runs"}},
        "store": [
            {"id": "c1", "call": "pack.corridorRuns.corridorRuns", "unit": "mm", "body": "b1", "at": "2026-11-18T09:01:01Z",
             "input": C1, "output": {"runs": 1}},
            {"id": "e1", "call": "pack.corridorRuns.corridorRuns", "unit": "mm", "applied": True, "editOf": "c1",
             "at": "2026-11-18T09:02:00Z", "input": E1},
            {"id": "c2", "call": "pack.corridorRuns.corridorRuns", "unit": "mm", "body": "b2", "at": "2026-11-18T09:03:01Z",
             "input": c2_input, "output": {"runs": 2}},
        ],
        "bodies": [
            {"id": "b1", "lang": "js", "at": "2026-11-18T09:01:00Z",
             "code": f"await modules.pack.corridorRuns({json.dumps(C1)});\nreturn 1;\n", "result": {"ok": True, "returned": 1}},
            {"id": "b2", "lang": "js", "at": "2026-11-18T09:03:00Z", "code": code, "result": {"ok": True, "returned": 2}},
        ],
    }
    if keep is not None:
        document["bodies"][0]["keep"] = keep
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path
