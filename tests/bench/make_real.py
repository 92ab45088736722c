"""Generate real-shaped sessions for the benchmarks, in every form a session is written in.

make_big.py writes coordinates of 6–12 significant digits; geometry that a body computes in
JavaScript (`x0 + Math.cos(a) * r`, an offset, a rotation) has 15–17, and that is what the editor
records. Here every coordinate is computed that way (some grid-snapped to integers), every call
records an `output` as big as its input, some entries are canvas edits (`applied: true`, `editOf`),
and labels carry non-ASCII text and escapes. Numbers are written as JavaScript writes doubles.

`python tests/bench/make_real.py DIR [ENTRIES]` writes real-ENTRIES.json (compact, as
JSON.stringify), real-ENTRIES-indent.json (JSON.stringify(s, null, 2)), real-ENTRIES.jsonl and
real-ENTRIES.jsonl.gz; `real_sessions(entries)` from code (cached under WSI_BENCH_DATA). The same
seed gives the same files.
"""
from __future__ import annotations

import gzip
import math
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.jsrules.jsonsize import js_number  # noqa: E402

CALLS = ["pack.corridorRuns.corridorRuns", "pack.rooms.place", "dept.zones.zones", "mep.risers.risers", "pack.grid.snap"]
LABELS = ["Station 3 — Südflügel", "Pflege \"B\" / Ost", "病棟 4F", "Réa\tlits 1–12", "OP-Saal ✚ 2\n(neu)", "ward\\annex 🏥"]
FORMS = {"compact": ".json", "indent": "-indent.json", "jsonl": ".jsonl", "jsonl.gz": ".jsonl.gz"}
_MARK = re.compile(rb'"\\u0000([^"]*)"')  # a number orjson would spell unlike JavaScript, written later


def _num(x: float | int) -> float | int | str:
    """x as orjson can write it as JavaScript does: integral values as ints; the few doubles orjson
    spells otherwise (1e16 to 1e21: `1e+16` where JavaScript writes all digits) marked for later."""
    if isinstance(x, int) or (x.is_integer() and abs(x) < 2**53):
        return int(x) if x != 0 or math.copysign(1, x) > 0 else x
    if 1e16 <= abs(x) < 1e21:
        return "\0" + js_number(x)
    return x


def _polygon(rng: random.Random, x0: float, y0: float, snapped: bool) -> list[list]:
    """A room outline as a body computes it: points on a rotated, offset ellipse."""
    sides, turn = rng.randint(4, 14), rng.uniform(0, math.pi)
    rx, ry = rng.uniform(2000, 9000), rng.uniform(2000, 9000)
    points = []
    for i in range(sides):
        a = 2 * math.pi * i / sides
        px, py = math.cos(a) * rx, math.sin(a) * ry
        x, y = x0 + px * math.cos(turn) - py * math.sin(turn), y0 + px * math.sin(turn) + py * math.cos(turn)
        if snapped:
            x, y = round(x / 50) * 50.0, round(y / 50) * 50.0
        points.append([_num(x), _num(y)])
    return points


def _input(rng: random.Random, index: int) -> dict:
    x0, y0 = rng.uniform(1000, 59000), rng.uniform(1000, 35000)
    rooms = [_polygon(rng, x0 + rng.uniform(-9000, 9000), y0 + rng.uniform(-9000, 9000), rng.random() < 0.2)
             for _ in range(rng.randint(2, 6))]
    special = rng.choice([1e21, 1.5e-7, 2.5e-8, 1e16 + 2, 123456789012345680000.0, 5e-324, 0.1 + 0.2])
    return {"level": index % 6, "rooms": rooms, "origin": [_num(x0), _num(y0)], "turn": rng.uniform(-math.pi, math.pi),
            "clearWidth": rng.choice([2400, 2600, 3000]), "label": f"{rng.choice(LABELS)} {index}",
            "offsets": [_num(rng.uniform(-3000, 3000) * math.cos(i)) for i in range(rng.randint(5, 20))],
            "tolerance": _num(special)}


def _output(rng: random.Random, given: dict) -> dict:
    """The module's answer: runs along the rooms, as big as the input."""
    runs = [[[_num(p[0] + math.sin(j) * 12.5), _num(p[1] * 1.0000001)]
             for j, p in enumerate(room)] for room in given["rooms"]]
    return {"runs": runs, "score": rng.random(), "area": _num(rng.uniform(1e6, 9e8)), "ok": rng.random() < 0.9,
            "notes": [f"run {i} ↔ {given['label']}" for i in range(len(runs))]}


def _session(entries: int, seed: int = 28, calls_per_body: int = 40) -> tuple[dict, list[dict], list[dict]]:
    """The header, the store and the bodies; a body stands just before the entries its calls made."""
    store, bodies = [], []
    for kind, record in records(entries, seed, calls_per_body):
        (bodies if kind == "body" else store).append(record)
    return HEADER, store, bodies


HEADER = {"format": "worker-session/1", "session": {"id": "real", "title": "real-shaped — Klinikum Süd"},
          "caps": {"storeBytes": 64 * 1024 * 1024}}


def records(entries: int, seed: int = 28, calls_per_body: int = 40) -> Iterator[tuple[str, dict]]:
    """The session's records in timeline order, ("body", body) or ("entry", entry), one at a time:
    a million entries are written as they are made (bench_gui), never held."""
    rng = random.Random(seed)
    body: dict | None = None
    edited: dict | None = None  # the last model call: a canvas edit edits it
    for index in range(1, entries + 1):
        name = f"b{(index - 1) // calls_per_body + 1}"
        if body is None or body["id"] != name:
            body = {"id": name, "code": "const r = await modules.pack.corridorRuns(inputs.last('pack.corridorRuns'));\nreturn {ok: true, keep: {r}};",
                    "result": {"ok": True, "logs": [f"placed {index} — ✓"]}}
            yield "body", body
        call = CALLS[index % len(CALLS)]
        if index % 53 == 7 and edited is not None:  # a person moved the last model call's rooms on the canvas
            moved = dict(edited["input"], rooms=[[[_num(p[0] + 250.5), p[1]] for p in room]
                                                 for room in edited["input"]["rooms"]])
            yield "entry", {"id": f"e{index}", "call": edited["call"], "unit": "mm", "applied": True, "editOf": edited["id"], "input": moved}
            continue
        given = _input(rng, index)
        edited = {"id": f"c{index}", "call": call, "unit": "mm", "body": name, "input": given, "output": _output(rng, given)}
        yield "entry", edited


def _js(value: object, option: int = 0) -> bytes:
    return _MARK.sub(rb"\1", orjson.dumps(value, option=option))


def write_forms(directory: Path, entries: int, calls_per_body: int = 40,
                change: Callable[[dict], None] | None = None) -> dict[str, Path]:
    """Write the four forms of one session into `directory`; their paths by form. `change`, when given, changes
    the whole document (its `store` and `bodies` lists) before it is written."""
    header, store, bodies = _session(entries, calls_per_body=calls_per_body)
    directory.mkdir(parents=True, exist_ok=True)
    paths = {form: directory / f"real-{entries}{suffix}" for form, suffix in FORMS.items()}
    whole = dict(header, store=store, bodies=bodies)
    if change is not None:
        change(whole)
        store, bodies = whole["store"], whole["bodies"]
    paths["compact"].write_bytes(_js(whole))
    paths["indent"].write_bytes(_js(whole, orjson.OPT_INDENT_2))
    lines = [_js(header)]
    named = {body["id"]: body for body in bodies}
    placed = set()
    for entry in store:  # the file's order is the timeline: each body just before its first call
        name = entry.get("body")
        if name is not None and name not in placed:
            placed.add(name)
            lines.append(_js(dict({"kind": "body"}, **named[name])))
        lines.append(_js(dict({"kind": "entry"}, **entry)))
    text = b"\n".join(lines) + b"\n"
    paths["jsonl"].write_bytes(text)
    paths["jsonl.gz"].write_bytes(gzip.compress(text, compresslevel=6, mtime=0))
    return paths


def real_sessions(entries: int = 50_000) -> dict[str, Path]:
    """The four forms, made once and cached under WSI_BENCH_DATA."""
    from tests.bench.measure import DATA

    paths = {form: DATA / f"real-{entries}{suffix}" for form, suffix in FORMS.items()}
    if not all(p.exists() for p in paths.values()):
        print(f"generating real-shaped sessions of {entries:,} entries in {DATA} …", flush=True)
        paths = write_forms(DATA, entries)
    return paths


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
    for form, path in write_forms(out, count).items():
        print(f"{form:9} {path} ({path.stat().st_size / 1e6:.1f} MB)")
