"""Benchmark: the trim preview on a 1,000,000-entry store, against trim_store's linear scan on the same store.

Run: `.venv/bin/python tests/bench/bench_trim.py [ENTRIES] [--no-gui]`. Targets (issue 5): one cap
query at most 50 µs; a slider move repaints the Trim view in at most 30 ms.
Baselines, measured in the same run: for a query, `trim_store(store, cap, sizes)` with the sizes
already measured (answering a cap without the preview's running sums); for a slider move, a
repaint of the same view at 1280×820 with nothing changed (what painting it costs at all).
A move is timed from the slider's value change until the event loop has painted what changed;
the plot's cap line moves on every move, so a move whose plot was not painted is an error, not a
fast move. The view is let settle after it is shown, so the first move does not carry the show's
deferred layout and paint (the show is timed on its own). The moves are timed again with a
second cap to compare with, which words what falls between the two caps on every move.
"""
from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wsi_inspector.core.session.model import Entry  # noqa: E402
from wsi_inspector.core.jsrules.run_inputs import trim_store  # noqa: E402
from wsi_inspector.core.trim.preview import StoreIndex  # noqa: E402

CALLS = ["pack.corridorRuns.corridorRuns", "pack.corridorRuns.score", "pack.rooms.place", "dept.zones.zones", "mep.risers.risers"]


def make_store(count: int, seed: int = 5) -> list[Entry]:
    """`count` entries with small varied inputs; one in 97 a canvas edit."""
    rng = random.Random(seed)
    store = []
    for i in range(count):
        points = [[round(rng.uniform(0, 6e4), 3), round(rng.uniform(0, 3.6e4), 3)] for _ in range(rng.randint(1, 6))]
        store.append(Entry(f"c{i}", CALLS[i % len(CALLS)], {"level": i % 6, "spine": points, "w": rng.random()},
                           unit="mm", applied=i % 97 == 5))
    return store


def per_call(fn: Callable[[int], object], caps: list[int]) -> float:
    """Mean seconds of fn(cap) over the caps, best of three passes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for cap in caps:
            fn(cap)
        best = min(best, (time.perf_counter() - start) / len(caps))
    return best


def bench_core(count: int, store: list[Entry]) -> None:
    gc.disable()
    start = time.perf_counter()
    index = StoreIndex(store)
    build = time.perf_counter() - start
    start = time.perf_counter()
    index = StoreIndex(store)
    rebuild = time.perf_counter() - start
    preview = index.preview()
    total = preview.total_bytes
    rng = random.Random(1)
    caps = [rng.randrange(0, total + 1) for _ in range(2000)]
    fell = per_call(preview.fell_at, caps)
    tail_bytes = per_call(preview.tail_bytes, caps)
    summary = per_call(preview.summary, caps[:500])
    sizes = index.sizes
    baseline_caps = caps[:5]
    start = time.perf_counter()
    for cap in baseline_caps:
        trim_store(store, cap, sizes)
    baseline = (time.perf_counter() - start) / len(baseline_caps)
    assert all(preview.fell_at(c) == trim_store(store, c, sizes)[1] for c in baseline_caps)
    gc.enable()
    print(f"store: {count:,} entries, {total / 1e6:.1f} MB as the editor injects it")
    print(f"index build, measuring every input: {build:.2f} s, once per session; "
          f"again with inputs measured: {rebuild:.2f} s; a cursor move: no rebuild")
    print(f"fell_at(cap):     {fell * 1e6:6.2f} µs per query (target ≤ 50 µs)")
    print(f"tail_bytes(cap):  {tail_bytes * 1e6:6.2f} µs per query")
    print(f"summary(cap):     {summary * 1e6:6.2f} µs per query (words + warnings input)")
    print(f"baseline trim_store scan: {baseline * 1e3:.1f} ms per cap; "
          f"ratio fell_at / baseline = {fell / baseline:.2e} ({baseline / fell:,.0f}× faster)")


def paint_counter(widget: object) -> object:
    """An event filter on `widget` that counts its paint events (in `.count`)."""
    from PySide6.QtCore import QEvent, QObject

    class Counter(QObject):
        def __init__(self) -> None:
            super().__init__(widget)
            self.count = 0
            widget.installEventFilter(self)

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
            if event.type() == QEvent.Type.Paint:
                self.count += 1
            return False

    return Counter()


def bench_view(store: list[Entry]) -> None:
    """Slider moves on the real Trim view over a session of `store`, offscreen, through the event loop."""
    import os
    import statistics

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.core.session.load import Session
    from wsi_inspector.gui.window.context import InspectorContext
    from wsi_inspector.gui.tabs.trim.view import SLIDER_STEPS, TrimView

    app = QApplication.instance() or QApplication([])
    session = Session("bench")
    session.format = "worker-session/1"
    session.timeline = list(store)
    session.finish()
    gc.freeze()
    context = InspectorContext()
    context.set_session(session)
    start = time.perf_counter()
    view = TrimView(context)
    view.resize(1280, 820)
    view.show()  # a hidden Trim tab indexes nothing; showing it builds the index and paints
    app.processEvents()
    build = time.perf_counter() - start
    settle = time.perf_counter() + 0.5
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.01)
    painted = paint_counter(view.plot.viewport())
    idle = []
    for _ in range(15):
        start = time.perf_counter()
        view.repaint()
        idle.append(time.perf_counter() - start)
    positions = list(range(SLIDER_STEPS // 10, SLIDER_STEPS, SLIDER_STEPS // 60))

    def drag(positions: list[int]) -> list[float]:
        """Seconds of each move, as a drag makes them: one step, then the event loop paints what changed."""
        moves = []
        for position in positions:
            painted.count = 0
            start = time.perf_counter()
            view.slider.setValue(position)
            app.processEvents()
            moves.append(time.perf_counter() - start)
            if not painted.count:
                raise SystemExit(f"slider position {position}: the event loop returned before the plot was painted")
        return moves

    def figures(moves: list[float]) -> str:
        p90 = sorted(moves)[int(len(moves) * 0.9)]
        return (f"median {statistics.median(moves) * 1e3:.1f} ms, p90 {p90 * 1e3:.1f} ms, "
                f"max {max(moves) * 1e3:.1f} ms over {len(moves)} moves")

    moves = drag(positions)
    forced = []
    for position in reversed(positions):  # the upper bound: every widget of the view painted again
        start = time.perf_counter()
        view.slider.setValue(position)
        view.repaint()
        app.processEvents()
        forced.append(time.perf_counter() - start)
    # Again from the session's cap, with a second cap to compare with below every position: a move
    # words what falls between the two, up to the whole store.
    view.reset_cap()
    view.set_compare_cap(view.scale.cap(positions[0]) - 1)
    app.processEvents()
    compared = drag(positions)
    base = statistics.median(idle)
    median = statistics.median(moves)
    print(f"Trim view over {len(store):,} entries: shown in {build:.2f} s the first time (index from the session's measured sizes)")
    print(f"slider move + event-loop repaint: {figures(moves)} (target ≤ 30 ms)")
    print(f"the same with a compare cap set: {figures(compared)}")
    print(f"slider move + forced repaint of the whole view: median {statistics.median(forced) * 1e3:.1f} ms, "
          f"max {max(forced) * 1e3:.1f} ms")
    print(f"baseline idle repaint of the view: {base * 1e3:.1f} ms; ratio move / idle repaint = {median / base:.2f}")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 1_000_000
    store = make_store(count)
    gc.freeze()  # as wsi_inspector.core.session.reading.no_gc does after a load: a million entries are no work for the collector
    bench_core(count, store)
    if "--no-gui" not in sys.argv:
        bench_view(store)


if __name__ == "__main__":
    main()
