"""Benchmark: the Inputs table's whole viewport painted in one pass (cell_painting) against Qt's painting of it (issue 28.3).

Run: `.venv/bin/python tests/bench/bench_table_paint.py FILE [REPAINTS]` (FILE: a session, e.g. bench_gui.py's
real-50000.json under WSI_BENCH_DATA). Opens FILE offscreen, moves the cursor to a body 7/13 of the way in (the table
scrolled to a screenful of other rows), then repaints the table's viewport REPAINTS times each way, alternately, in
the same window (`StillRowsTable.one_pass`), hot: what a cursor move that changes every row shown paints. Prints the
medians of three rounds and their ratio (the machine is shared: measured in the same run).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.bench_gui import median  # noqa: E402
from tests.bench.measure import opened_window  # noqa: E402


def main(path: str, repaints: int) -> None:
    """Open `path`, then time `repaints` whole repaints of the Inputs table each way; print the figures."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.gui.window.app import make_application

    make_application([])
    window = opened_window(path, "wsi-bench-table-paint")
    bodies = window.context.session.bodies
    window.context.set_cursor(bodies[len(bodies) * 7 // 13].id)
    QApplication.processEvents()
    table = window.views["inputs"].table
    assert table.cells.can_paint(), "the table paints in one pass"

    def round_of(one_pass: bool) -> float:
        table.one_pass = one_pass
        began = time.perf_counter()
        for _ in range(repaints):
            table.viewport().repaint()
        table.one_pass = True
        return (time.perf_counter() - began) / repaints * 1000

    figures: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(3):
        for one_pass in (True, False):
            figures[one_pass].append(round_of(one_pass))
    ours, qts = median(figures[True]), median(figures[False])
    rows = table.rowAt(table.viewport().height() - 1) - table.rowAt(0) + 1
    print(f"{len(window.context.session.entries):,} entries; the Inputs table's viewport ({rows} rows × "
          f"{sum(not table.isColumnHidden(c) for c in range(table.model().columnCount()))} columns) repainted whole "
          f"{repaints} times each way, three rounds (machine shared with other jobs; load "
          f"{' '.join(f'{load:.2f}' for load in os.getloadavg())})")
    print(f"  one pass: {ours:.2f} ms a repaint; Qt's delegate and style: {qts:.2f} ms; {qts / ours:.1f}× faster")
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200)
