"""Write resources/sessions/broken/: one small file per kind of problem the loader reports (SPEC 2.4)."""
import gzip, json
from pathlib import Path
B = Path("resources/sessions/broken"); B.mkdir(parents=True, exist_ok=True)
def head(**extra):
    d = {"format": "worker-session/1", "session": {"id": "broken"}}; d.update(extra); return d
def entry(i, call="pack.corridorRuns.corridorRuns", **kw):
    e = {"id": i, "call": call, "input": {"bandDepth": 32}, "unit": "mm"}; e.update(kw); return e
def dump(name, obj): (B / name).write_text(json.dumps(obj, indent=1) + "\n")
(B / "not_json.json").write_text('{\n "format": "worker-session/1",\n "session": {"id": "x"},\n "store": [\n  {"id": "c1", "call": "pack.a.b", input: 1}\n ]\n}\n')
full = json.dumps(head(store=[entry("c1"), entry("c2")]), indent=1)
(B / "truncated.json").write_text(full[: len(full) // 2])
(B / "not_an_object.json").write_text("[1, 2, 3]\n")
d = head(store=[entry("c1")]); del d["format"]; dump("missing_format.json", d)
dump("newer_format.json", {**head(store=[entry("c1")]), "format": "worker-session/2"})
dump("missing_store.json", head())
dump("entry_missing_fields.json", head(store=[entry("c1"), {"call": "pack.a.b", "input": 1}, {"id": "c3", "input": 1}, {"id": "c4", "call": "pack.a.b"}]))
dump("bad_call.json", head(store=[entry("c1", call="pack.corridorRuns"), entry("c2", call="pack.corridor-runs.x"), entry("c3")]))
dump("bad_unit.json", head(store=[entry("c1", unit="yd"), entry("c2")]))
dump("duplicate_id.json", head(store=[entry("c1"), entry(2), entry("2")]))
dump("edit_of_unknown.json", head(store=[entry("c1"), entry("e1", applied=True, editOf="c9"), entry("e2", applied=True, editOf="c3"), entry("c3")]))
dump("edit_without_base.json", head(store=[entry("e1", call="pack.rooms.place", applied=True), entry("c1")]))
dump("refused_keep.json", head(store=[entry("c1")], bodies=[
    {"id": "b1", "code": "return {}", "keep": {"ward": {"__h": "h3"}}},
    {"id": "b2", "code": "return {}", "keep": {"2nd": 1}},
    {"id": "b3", "code": "return {}", "keep": {"big": "x" * 70000}}]))
dump("over_cap.json", head(caps={"storeBytes": 100}, store=[entry(f"c{i}", input={"spine": [[i, i]] * 10}) for i in range(5)]))
dump("bad_header.json", head(caps={"storeBytes": -5}, scene={"unit": "yd", "entities": [{"type": "room"}, {"id": "r1", "type": "room"}]}, store=[entry("c1")]))
lines = [json.dumps({"format": "worker-session/1", "session": {"id": "live"}}),
         json.dumps({"kind": "body", "id": "b1", "code": "return 1"}),
         json.dumps({"kind": "entry", **entry("c1")})]
(B / "partial_line.jsonl").write_text("\n".join(lines) + '\n{"kind": "entry", "id": "c2", "call": "pack.corr')
(B / "bad_lines.jsonl").write_text("\n".join([lines[0], lines[1], '{"kind": "entry", "id": }', json.dumps({"kind": "note", "text": "?"}), lines[2]]) + "\n")
(B / "truncated.json.gz").write_bytes(gzip.compress(full.encode())[:40])
(B / "not_utf8.json").write_bytes(b'{"format": "worker-session/1", "session": {"id": "\xff\xfe"}, "store": []}\n')
