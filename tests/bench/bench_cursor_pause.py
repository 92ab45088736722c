"""Benchmark: the same cursor move right after another, and after the person paused (issue 28.3's first jump).

Run: `.venv/bin/python tests/bench/bench_cursor_pause.py FILE [MOVES]` (FILE: a session, e.g. bench_gui.py's
real-1000000.json under WSI_BENCH_DATA). bench_gui.py's first jump comes after a half-second pause (the filter
line's clear button fading out) and every later jump right after the one before; the first was the slowest.
Here one move is timed both ways, alternately, in the same window: from a late body whose newest entry the
Inputs table shows, to an early body (that entry goes: the table, the entry's pane and the timeline all show
other rows), right after the untimed moves that set it up, and after PAUSE_S of an idle event loop.
Timed as bench_gui times a jump (`Settle.timed`: until no paint or layout is pending), wall and GUI-thread CPU.
A move after a pause costs more though it does the same work (no page faults: user time, the caches gone
cold); what a person's move costs is the paused figure. Each kind is broken down: the views following the cursor
before any painting (`set_cursor` itself), then the painting by widget (bench_gui's `Settle` stamps).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.bench_gui import Settle, median  # noqa: E402
from tests.bench.measure import opened_window  # noqa: E402

PAUSE_S = 0.5


def main(path: str, moves: int) -> None:
    """Open `path` offscreen, then time the move `moves` times each way; print the medians."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.gui.window.app import make_application

    make_application([])
    window = opened_window(path, "wsi-bench-pause")
    bodies, inputs, settle = window.context.session.bodies, window.views["inputs"], Settle(QApplication)
    late, early = bodies[len(bodies) * 7 // 13].id, bodies[len(bodies) * 2 // 13].id

    def idle(seconds: float) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            QApplication.processEvents()
            time.sleep(0.005)

    figures: dict[float, list[tuple[float, float]]] = {0.0: [], PAUSE_S: []}
    painting: dict[float, dict[str, list[float]]] = {0.0: {}, PAUSE_S: {}}  # widget → ms painting it, one per move
    work: dict[float, list[float]] = {0.0: [], PAUSE_S: []}  # the views following the cursor, before any painting

    def move() -> None:
        began = time.perf_counter()
        window.context.set_cursor(early)
        moved.append((time.perf_counter() - began) * 1000)

    moved: list[float] = []
    for number in range(2 * moves + 2):
        window.context.set_cursor(late)  # untimed: the late body, its newest entry chosen in the table
        inputs.table.setCurrentIndex(inputs.model.index(inputs.model.rowCount() - 1, 0))
        settle.until_quiet()
        pause = PAUSE_S if number % 2 else 0.0
        idle(pause)
        settle.painting.clear()
        timed = settle.timed(move)
        if number >= 2:  # the first two of each warm what a first move warms
            figures[pause].append(timed)
            work[pause].append(moved[-1])
            for name, spent in settle.painting.items():
                painting[pause].setdefault(name, []).append(sum(spent))
    print(f"{len(window.context.session.entries):,} entries; the move from body {late} (its newest entry shown) to body {early}, "
          f"{moves} times each way, alternately (machine shared with other jobs; load "
          f"{' '.join(f'{load:.2f}' for load in os.getloadavg())})")
    for pause, timed in figures.items():
        print(f"  {'right after the last move' if not pause else f'after a {pause} s pause':>26}: median {median(w for w, _ in timed):.1f} ms wall, "
              f"{median(c for _, c in timed):.1f} ms GUI-thread CPU; worst {max(w for w, _ in timed):.1f} / {max(c for _, c in timed):.1f} ms")
        shares = sorted(((median(ms), name) for name, ms in painting[pause].items()), reverse=True)[:5]
        print(f"  {'':>26}  the views' work before painting {median(work[pause]):.1f} ms; painting, by widget (median ms, "
              "from one paint to the next): " + ", ".join(f"{name} {ms:.1f}" for ms, name in shares))
    cold, hot = (median(c for _, c in figures[p]) for p in (PAUSE_S, 0.0))
    print(f"  after a pause / right after: {cold / hot:.2f}× (CPU)")
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8)
