"""Write `resources/sessions/demo.json`: a believable ward-layout session, every value reproducible.

Each body's code is real JavaScript (one TypeScript) and this script computes, in Python, exactly
the calls it makes and the values it returns, with the editor's module outputs recorded, so that
`wsi replay` finds every body the same. Run: `python tests/make_demo.py` (a test checks the file
matches this script).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DEMO = Path(__file__).resolve().parent.parent / "resources" / "sessions" / "demo.json"
START = "2026-11-18T09:{:02d}:{:02d}Z"

SITE = [[0, 0], [60000, 0], [60000, 36000], [0, 36000]]
ENTITIES: list[dict[str, Any]] = [
    {"id": "site-1", "type": "site", "name": "North wing plot", "outline": SITE},
    {"id": "level-2", "type": "level", "name": "Level 2", "elevation": 4200},
    {"id": "ward-1", "type": "ward", "name": "Ward 2A", "beds": 24},
    {"id": "ward-2", "type": "ward", "name": "Ward 2B", "beds": 24},
    {"id": "ward-3", "type": "ward", "name": "Ward 2C", "beds": 16},
    {"id": "corridor-1", "type": "corridor", "name": "Main street"},
    {"id": "dept-icu", "type": "department", "name": "Intensive care", "rooms": 4},
    {"id": "dept-surg", "type": "department", "name": "Surgical", "rooms": 3},
    {"id": "dept-img", "type": "department", "name": "Imaging", "rooms": 2},
    {"id": "core-1", "type": "core", "name": "Stair core west", "at": [6000, 30000]},
    {"id": "core-2", "type": "core", "name": "Stair core east", "at": [54000, 30000]},
    {"id": "riser-1", "type": "riser", "name": "Riser R1", "at": [12000, 20400]},
    {"id": "riser-2", "type": "riser", "name": "Riser R2", "at": [30000, 20400]},
    {"id": "riser-3", "type": "riser", "name": "Riser R3", "at": [48000, 20400]},
    {"id": "room-1", "type": "room", "name": "Bed 1", "at": [3000, 12000]},
    {"id": "room-2", "type": "room", "name": "Bed 2", "at": [6600, 12000]},
    {"id": "room-3", "type": "room", "name": "Bed 3", "at": [10200, 12000]},
    {"id": "room-4", "type": "room", "name": "Nurse station", "at": [13800, 12000]},
    {"id": "wall-1", "type": "wall", "name": "Fire wall", "from": [30000, 0], "to": [30000, 36000]},
    {"id": "stair-1", "type": "stair", "name": "Escape stair", "at": [58000, 2000]},
]
MOCKS = {
    "mep.risers.risers": {"echo": True},
    "site.boundary.offset": {"throws": "offset distance must be positive (got a negative distance)"},
    "dept.zones.assign": {"returns": {"assigned": True}},
}
MODULES = {
    "site.boundary": {"fns": ["boundary", "offset"], "doc": "The site outline: area, perimeter, offsets."},
    "pack.corridorRuns": {"fns": ["corridorRuns", "score"], "doc": "Lay corridor runs along a spine and score them."},
    "pack.rooms": {"fns": ["rooms", "place"], "doc": "Generate room boxes for a department and place them."},
    "dept.zones": {"fns": ["zones", "assign"], "doc": "Split the floor into department zones along the spine."},
    "mep.risers": {"fns": ["risers"], "doc": "Service risers for a level."},
}

# The editor's modules, as far as the recorded outputs need them.


def boundary(inp: dict) -> dict:
    xs = [p[0] for p in inp["outline"]]
    ys = [p[1] for p in inp["outline"]]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    return {"area": w * h, "perimeter": 2 * (w + h)}


def offset(inp: dict) -> dict:
    d = inp["distance"]
    (x0, y0), (x1, y1) = inp["outline"][0], inp["outline"][2]
    return {"outline": [[x0 + d, y0 + d], [x1 - d, y0 + d], [x1 - d, y1 - d], [x0 + d, y1 - d]]}


def corridor_runs(inp: dict) -> dict:
    spine = inp["spine"]
    length = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in zip(spine, spine[1:]))
    return {"runs": len(spine) - 1, "length": length, "rooms": length // (inp["bandDepth"] * 100) * 2}


def score(inp: dict) -> dict:
    return {"score": round(min(1.0, inp["clearWidth"] / 3600 + inp["bandDepth"] / 400), 4)}


def zones(inp: dict) -> dict:
    xs = [p[0] for p in inp["spine"]]
    step = (max(xs) - min(xs)) // len(inp["departments"])
    return {"zones": [{"id": f"z{i + 1}", "department": d, "from": min(xs) + i * step, "to": min(xs) + (i + 1) * step}
                      for i, d in enumerate(inp["departments"])]}


def rooms(inp: dict) -> dict:
    w, d = inp["module"]
    return {"rooms": [{"id": f"{inp['departmentId']}-r{i + 1}", "size": [w, d]} for i in range(inp["count"])]}


def place(inp: dict) -> dict:
    return {"placed": len(inp["rooms"]), "clashes": 0}


class Recorder:
    """Collects the store and bodies in order, giving each call a fresh id and a time."""

    def __init__(self) -> None:
        self.store: list[dict] = []
        self.bodies: list[dict] = []
        self.minute = 0
        self.second = 0
        self.calls = 0

    def tick(self, seconds: int = 2) -> str:
        self.second += seconds
        self.minute += self.second // 60
        self.second %= 60
        return START.format(self.minute, self.second)

    def body(self, body_id: str, code: str, lang: str = "js") -> dict:
        body = {"id": body_id, "code": code.strip("\n"), "lang": lang, "at": self.tick(40)}
        self.bodies.append(body)
        self.current = body_id
        return body

    def call(self, call: str, inp: Any, output: Any = None, unit: str | None = "mm", record_output: bool = True) -> Any:
        self.calls += 1
        entry: dict[str, Any] = {"id": f"c{self.calls}", "call": call, "input": inp}
        if unit:
            entry["unit"] = unit
        entry["body"] = self.current
        if record_output:
            entry["output"] = output
        entry["at"] = self.tick()
        self.store.append(entry)
        return output

    def edit(self, edit_id: str, call: str, inp: Any, edit_of: str | None = None, note: str = "") -> None:
        entry: dict[str, Any] = {"id": edit_id, "call": call, "input": inp, "unit": "mm", "applied": True}
        if edit_of:
            entry["editOf"] = edit_of
        entry["at"] = self.tick(30)
        if note:
            entry["note"] = note
        self.store.append(entry)

    def last(self, wanted: str) -> Any:
        for entry in reversed(self.store):
            if entry["call"] == wanted or (wanted.count(".") == 1 and entry["call"].startswith(wanted + ".")):
                return entry["input"]
        return None


B1 = """
// Read the plot and inset it by the fire-access strip.
const site = scene.read("site-1");
const outline = site.outline;
const { area, perimeter } = await modules.site.boundary.boundary({ siteId: "site-1", outline });
const inset = await modules.site.boundary.offset({ outline, distance: 1500 });
const risers = await modules.mep.risers({ level: 2, outline: inset.outline, spacing: 18000 });
log("site", area / 1e6, "m2, perimeter", perimeter / 1000, "m");
return { area, perimeter, inset: inset.outline.length, risers: risers.spacing };
"""

B2 = """
// Propose the corridor spine along the long axis of the inset plot.
const inset = inputs.last("mep.risers").outline;
const y = (inset[0][1] + inset[2][1]) / 2;
const spine = [[inset[0][0], y], [15000, y], [30000, y], [45000, y], [inset[1][0], y]];
const input = { level: 2, spine, bandDepth: 32, clearWidth: 2400, doubleLoaded: true };
const runs = await modules.pack.corridorRuns(input);
const { score } = await modules.pack.corridorRuns.score(input);
const variants = [];
for (const bandDepth of [28, 30, 34, 36]) {
  variants.push((await modules.pack.corridorRuns.score({ ...input, bandDepth })).score);
}
console.log("runs", runs.runs, "length", runs.length, "score", score);
return { runs: runs.runs, rooms: runs.rooms, score, variants, keep: { spine } };
"""

B3 = """
// Split the floor into department zones along the kept spine.
const departments = scene.entities({ type: "department" }).map((d) => d.id);
const { zones } = await modules.dept.zones({ level: 2, spine: kept.spine, departments });
await Promise.all(zones.map((z) => modules.dept.zones.assign({ departmentId: z.department, zone: z.id })));
const icu = zones.find((z) => z.department === "dept-icu");
return { zones: zones.length, icu: icu.id, keep: { departmentId: icu.department, zoneWidth: icu.to - icu.from } };
"""

B4 = """
// Rooms for each department, then place them against the corridor band.
const placed = [];
for (const id of ["dept-icu", "dept-surg", "dept-img"]) {
  const count = scene.read(id).rooms;
  const { rooms } = await modules.pack.rooms({ departmentId: id, count, module: [3600, 4800] });
  const at = rooms.map((r, i) => ({ id: r.id, at: [3000 + i * 3600, 12000], size: r.size }));
  const res = await modules.pack.rooms.place({ level: 2, rooms: at });
  placed.push(res.placed);
}
return { placed };
"""

B5 = """
// Re-run the corridors from the band the person finished with, a little wider.
const base = inputs.last("pack.corridorRuns.corridorRuns");
const input = { ...base, clearWidth: 2600 };
const runs = await modules.pack.corridorRuns(input);
const { score } = await modules.pack.corridorRuns.score(input);
const ward = scene.get("ward-2");
log("re-run", runs.runs, "runs; score", score);
return { runs: runs.runs, score, keep: { spine: input.spine, ward } };
"""

B6 = """
// Risers on every level, in parallel.
const inset = inputs.last("site.boundary.offset");
const levels = [1, 2, 3, 4, 5, 6, 7, 8];
const all = await Promise.all(levels.map((level) =>
  modules.mep.risers({ level, outline: inputs.last("mep.risers").outline, spacing: 18000 })));
return { levels: all.map((r) => r.level), inset: inset.distance };
"""

B7 = """
// Try a tighter inset on the east side.
const outline = inputs.at("c2").outline;
const tighter = await modules.site.boundary.offset({ outline, distance: -200 });
return { tighter };
"""

B8 = """
// Summarise the layout for the person.
interface Band { bandDepth: number; clearWidth: number; spine: number[][] }
const band = inputs.last("pack.corridorRuns") as Band;
const zonesIn = inputs.last("dept.zones.zones") as { departments: string[] };
const rooms: { rooms: number[] } = { rooms: [] };
for (const d of zonesIn.departments) {
  const r = await modules.pack.rooms({ departmentId: d, count: 1, module: [band.bandDepth * 100, 4800] });
  rooms.rooms.push(r.rooms.length);
}
const summary = { bandDepth: band.bandDepth, clearWidth: band.clearWidth, points: band.spine.length,
  department: kept.departmentId };
return { summary, rooms: rooms.rooms, keep: { summary } };
"""


def build() -> dict[str, Any]:
    """The demo session as a JSON-ready dict."""
    r = Recorder()
    entity = {e["id"]: e for e in ENTITIES}

    b1 = r.body("b1", B1)
    outline = entity["site-1"]["outline"]
    bnd = r.call("site.boundary.boundary", {"siteId": "site-1", "outline": outline}, boundary({"outline": outline}))
    inset = r.call("site.boundary.offset", {"outline": outline, "distance": 1500}, offset({"outline": outline, "distance": 1500}))
    ris_in = {"level": 2, "outline": inset["outline"], "spacing": 18000}
    r.call("mep.risers.risers", ris_in, ris_in)
    b1["result"] = {"ok": True, "returned": {**bnd, "inset": 4, "risers": 18000},
                    "logs": [f"site {bnd['area'] / 1e6:g} m2, perimeter {bnd['perimeter'] / 1000:g} m"]}

    b2 = r.body("b2", B2)
    pts = inset["outline"]
    y = (pts[0][1] + pts[2][1]) // 2
    spine = [[pts[0][0], y], [15000, y], [30000, y], [45000, y], [pts[1][0], y]]
    cr_in = {"level": 2, "spine": spine, "bandDepth": 32, "clearWidth": 2400, "doubleLoaded": True}
    runs = r.call("pack.corridorRuns.corridorRuns", cr_in, corridor_runs(cr_in))
    sc = r.call("pack.corridorRuns.score", cr_in, score(cr_in))
    model_corridor = r.store[-2]["id"]
    variants = []
    for depth in [28, 30, 34, 36]:
        v_in = {**cr_in, "bandDepth": depth}
        variants.append(r.call("pack.corridorRuns.score", v_in, score(v_in))["score"])
    b2["result"] = {"ok": True, "returned": {"runs": runs["runs"], "rooms": runs["rooms"], "score": sc["score"],
                                             "variants": variants, "keep": {"spine": spine}},
                    "logs": [f"runs {runs['runs']} length {runs['length']} score {sc['score']}"]}
    b2["keep"] = {"spine": spine}

    b3 = r.body("b3", B3)
    departments = [e["id"] for e in ENTITIES if e["type"] == "department"]
    z_in = {"level": 2, "spine": spine, "departments": departments}
    zs = r.call("dept.zones.zones", z_in, zones(z_in))["zones"]
    for z in zs:
        # Mocked by the scene's rule; the editor did not record an output for these.
        r.call("dept.zones.assign", {"departmentId": z["department"], "zone": z["id"]}, unit=None, record_output=False)
    icu = next(z for z in zs if z["department"] == "dept-icu")
    keep3 = {"departmentId": icu["department"], "zoneWidth": icu["to"] - icu["from"]}
    b3["result"] = {"ok": True, "returned": {"zones": len(zs), "icu": icu["id"], "keep": keep3}, "logs": []}
    b3["keep"] = keep3

    b4 = r.body("b4", B4)
    placed = []
    for dept in ["dept-icu", "dept-surg", "dept-img"]:
        rm_in = {"departmentId": dept, "count": entity[dept]["rooms"], "module": [3600, 4800]}
        rms = r.call("pack.rooms.rooms", rm_in, rooms(rm_in))["rooms"]
        at = [{"id": x["id"], "at": [3000 + i * 3600, 12000], "size": x["size"]} for i, x in enumerate(rms)]
        placed.append(r.call("pack.rooms.place", {"level": 2, "rooms": at}, place({"rooms": at}))["placed"])
    b4["result"] = {"ok": True, "returned": {"placed": placed}, "logs": []}
    last_place = r.store[-1]

    # The person's canvas edits: the band widened and the spine bent round the west core (with
    # editOf), then nudged again (a second edit of the same call), then a room dragged (no editOf).
    edited = json.loads(json.dumps(cr_in))
    edited["bandDepth"] = 34
    edited["spine"] = [[1500, 18000], [15000, 18600], [22500, 18600], [30000, 18000], [45000, 17400], [58500, 18000]]
    r.edit("e1", "pack.corridorRuns.corridorRuns", edited, edit_of=model_corridor, note="widened the band, bent the spine")
    again = json.loads(json.dumps(edited))
    again["spine"][2] = [22500, 19200]
    r.edit("e2", "pack.corridorRuns.corridorRuns", again, note="pulled the new point north")
    moved = json.loads(json.dumps(last_place["input"]))
    moved["rooms"][1]["at"] = [6600, 13200]
    r.edit("e3", "pack.rooms.place", moved)

    b5 = r.body("b5", B5)
    b5_in = {**again, "clearWidth": 2600}
    runs5 = r.call("pack.corridorRuns.corridorRuns", b5_in, corridor_runs(b5_in))
    sc5 = r.call("pack.corridorRuns.score", b5_in, score(b5_in))
    b5["keep"] = {"spine": again["spine"], "ward": {"__h": "h1"}}
    b5["result"] = {"ok": False, "logs": [f"re-run {runs5['runs']} runs; score {sc5['score']}"],
                    "error": "InvalidKeepError: keep.ward is a handle, which dies with the worker; keep the entity id "
                             "or the points it was built from instead"}

    b6 = r.body("b6", B6)
    for level in [1, 2, 3, 4, 5, 6, 7, 8]:
        inp = {"level": level, "outline": inset["outline"], "spacing": 18000}
        r.call("mep.risers.risers", inp, inp)
    b6["result"] = {"ok": True, "returned": {"levels": [1, 2, 3, 4, 5, 6, 7, 8], "inset": 1500}, "logs": []}

    b7 = r.body("b7", B7)
    r.call("site.boundary.offset", {"outline": outline, "distance": -200}, record_output=False)
    b7["result"] = {"ok": False, "logs": [], "error": "Error: offset distance must be positive (got a negative distance)"}

    b8 = r.body("b8", B8, lang="ts")
    rooms8 = []
    for dept in departments:
        rm_in = {"departmentId": dept, "count": 1, "module": [b5_in["bandDepth"] * 100, 4800]}
        rooms8.append(len(r.call("pack.rooms.rooms", rm_in, rooms(rm_in))["rooms"]))
    summary = {"bandDepth": b5_in["bandDepth"], "clearWidth": b5_in["clearWidth"], "points": len(b5_in["spine"]),
               "department": keep3["departmentId"]}
    b8["keep"] = {"summary": summary}
    b8["result"] = {"ok": True, "returned": {"summary": summary, "rooms": rooms8, "keep": {"summary": summary}}, "logs": []}

    session = {
        "format": "worker-session/1",
        "session": {"id": "demo-ward-2", "title": "Ward layout, level 2 (demo)", "createdAt": "2026-11-18T09:00:00Z",
                    "model": "layout-agent", "editor": "ward-cad 4.2"},
        "caps": {"storeBytes": 0, "keepBytes": 65536},
        "scene": {"unit": "mm", "entities": ENTITIES, "mocks": MOCKS},
        "modules": MODULES,
        "store": r.store,
        "bodies": r.bodies,
    }
    session["caps"]["storeBytes"] = _cap_dropping(r.store, 3)
    return session


def _cap_dropping(store: list[dict], fall: int) -> int:
    """A round cap (a multiple of 256 bytes) at which trimStore drops exactly the `fall` oldest entries."""
    sys.path.insert(0, str(DEMO.parents[2]))
    from wsi_inspector.core.jsrules.jsonsize import json_bytes

    shaped = [{k: e[k] for k in ("id", "call", "input", "unit", "applied") if k in e} for e in store]
    sizes = [json_bytes(s) for s in shaped]
    keep_size = 2 + sum(sizes[fall:]) + len(sizes) - fall - 1
    bigger = keep_size + sizes[fall - 1] + 1
    cap = (keep_size + 255) // 256 * 256
    if cap >= bigger:
        cap = keep_size
    return cap


def render() -> str:
    """The demo file's text, as committed."""
    return json.dumps(build(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    DEMO.parent.mkdir(parents=True, exist_ok=True)
    DEMO.write_text(render(), encoding="utf-8")
    print(f"wrote {DEMO}")
