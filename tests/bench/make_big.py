"""Generate a big float-heavy session for the benchmarks: 100,000 entries, ~150 MB, spines of 10–60 points
with 6–12 significant digits.

`python tests/bench/make_big.py OUT.json [ENTRIES]`; `make_big(path, entries)` from code. The same
seed gives the same file, so figures from two runs compare.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import orjson

CALLS = ["pack.corridorRuns.corridorRuns", "pack.corridorRuns.score", "pack.rooms.place", "dept.zones.zones", "mep.risers.risers"]


def _coordinate(rng: random.Random, value: float) -> float:
    """A CAD coordinate in mm with 6 to 12 significant digits, as real spines carry them."""
    digits = rng.randint(6, 12)
    return float(f"{value:.{digits}g}")


def _entry(rng: random.Random, index: int, body: str) -> dict:
    points = rng.randint(10, 60)
    x, y = rng.uniform(1000, 59000), rng.uniform(1000, 35000)
    spine = []
    for _ in range(points):
        x += rng.uniform(-900.0, 900.0)
        y += rng.uniform(-900.0, 900.0)
        spine.append([_coordinate(rng, x), _coordinate(rng, y)])
    entry = {"id": f"c{index}", "call": CALLS[index % len(CALLS)], "unit": "mm", "body": body,
             "input": {"level": index % 6, "spine": spine, "bandDepth": _coordinate(rng, rng.uniform(28, 40)),
                       "clearWidth": rng.choice([2400, 2600, 3000]), "label": f"run {index} — ward {index % 7}",
                       "offsets": [_coordinate(rng, rng.uniform(-3000, 3000)) for _ in range(rng.randint(10, 40))]}}
    if index % 97 == 5:
        entry["applied"] = True
        entry.pop("body")
    return entry


def make_big(path: Path, entries: int = 100_000, calls_per_body: int = 50, seed: int = 7) -> Path:
    """Write the session to `path` and return it."""
    rng = random.Random(seed)
    store, bodies = [], []
    for index in range(1, entries + 1):
        body = f"b{(index - 1) // calls_per_body + 1}"
        if not bodies or bodies[-1]["id"] != body:
            bodies.append({"id": body, "code": "return await modules.pack.corridorRuns(inputs.last('pack.corridorRuns'))",
                           "result": {"ok": True}})
        store.append(_entry(rng, index, body))
    session = {"format": "worker-session/1", "session": {"id": "big", "title": "generated"},
               "caps": {"storeBytes": 64 * 1024 * 1024}, "store": store, "bodies": bodies}
    path = Path(path)
    path.write_bytes(orjson.dumps(session))
    return path


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "big.json")
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    make_big(out, count)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB, {count:,} entries)")
