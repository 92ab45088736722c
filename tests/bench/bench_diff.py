"""Benchmark: `wsi_inspector.core.edits.diff.diff` on a 50,000-point spine (1 point inserted, 3 moved, 1 scalar changed) vs `jsonpatch.make_patch`.

Run: `.venv/bin/python tests/bench/bench_diff.py [POINTS]`. Targets: at most 0.5 s, and at most 0.1× jsonpatch's
time on the same pair in the same run (issue 14). Also checks the result is exactly 5 changes that rebuild the edit.
"""
from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

import jsonpatch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.edits.diff import apply_changes, diff  # noqa: E402
from wsi_inspector.core.jsrules.json_values import json_equal  # noqa: E402

TARGET_SECONDS = 0.5
TARGET_RATIO = 0.1


def make_pair(points: int, seed: int = 7) -> tuple[dict[str, Any], dict[str, Any]]:
    """The model's input (a wandering spine of `points` points) and the person's edit of it."""
    rng = random.Random(seed)
    x, y, spine = 0.0, 18000.0, []
    for _ in range(points):
        x += rng.uniform(50.0, 900.0)
        y += rng.uniform(-300.0, 300.0)
        spine.append([round(x, 3), round(y, 3)])
    model = {"level": 2, "spine": spine, "bandDepth": 32, "clearWidth": 2400, "doubleLoaded": True}
    edited = [list(p) for p in spine]
    edited.insert(12, [round((spine[11][0] + spine[12][0]) / 2, 3), spine[11][1] + 600])
    for i in (points // 10, points // 2, points - 7):
        edited[i] = [edited[i][0], round(edited[i][1] + 600, 3)]
    return model, {**model, "spine": edited, "bandDepth": 34}


def best_seconds(runs: int, measure: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of `runs` timings of `measure()`, and what it returned."""
    best, result = float("inf"), None
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = measure()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    model, edit = make_pair(points)
    ours_s, changes = best_seconds(5, lambda: diff(model, edit))
    theirs_s, patch = best_seconds(3, lambda: jsonpatch.make_patch(model, edit))
    exact = json_equal(apply_changes(model, changes), edit)
    in_cm = {**edit, "spine": [[x / 10, y / 10] for x, y in edit["spine"]], "bandDepth": edit["bandDepth"] / 10,
             "clearWidth": edit["clearWidth"] / 10}
    cm_s, cm_changes = best_seconds(3, lambda: diff(model, in_cm, "mm", "cm"))
    ratio = ours_s / theirs_s
    print(f"diff of a {points:,}-point spine (1 inserted, 3 moved, 1 scalar): {len(changes)} changes, "
          f"rebuilds exactly: {exact}")
    print(f"wsi_inspector.core.edits.diff.diff        {ours_s * 1000:8.1f} ms   (target ≤ {TARGET_SECONDS * 1000:.0f} ms)")
    print(f"jsonpatch.make_patch  {theirs_s * 1000:8.1f} ms   ({len(list(patch))} operations)")
    print(f"ratio to jsonpatch    {ratio:8.2f}×   (target ≤ {TARGET_RATIO:.1f}×)")
    print(f"the same edit in cm   {cm_s * 1000:8.1f} ms   ({len(cm_changes)} changes, compared in mm)")
    ok = len(changes) == 5 and exact and ours_s <= TARGET_SECONDS and ratio <= TARGET_RATIO
    print("PASS" if ok else "FAIL")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
