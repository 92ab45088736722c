"""Benchmark: following a 100,000-entry JSON Lines session while 1,000 records are appended one by one.

Run: `.venv/bin/python tests/bench/bench_follow.py [ENTRIES] [APPENDS]`. Target (issue 18): one appended
record shows in the window within 100 ms of its write (median and worst reported), without the
file being read again. A writer thread appends one record (a call of the last body; every 50th a
new body) and waits until the window has shown it before the next; a record counts as shown when
the Inputs table has inserted its row and the window has painted after that (the first paint
event after the insert, then one turn of the event loop: Qt paints every changed widget of a
window in one pass). Baseline, measured in the same run: the window opening the whole file (what following
cost before: every change re-read it). The first append also starts the following (where the
loader's whole lines end, the store's size and state; once per followed session); it is reported apart.
"""
from __future__ import annotations

import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.measure import DATA, big_session  # noqa: E402

EVERY_BODY = 50


def jsonl_session(entries: int) -> Path:
    """The big session as JSON Lines (header, then each body followed by its calls), made once."""
    import orjson

    path = DATA / f"big-{entries}.jsonl"
    if path.exists():
        return path
    document = orjson.loads(big_session(entries).read_bytes())
    header = {k: v for k, v in document.items() if k not in ("store", "bodies")}
    calls: dict[str, list] = {}
    lone = []
    for entry in document["store"]:
        (calls.setdefault(entry["body"], []) if "body" in entry else lone).append(entry)
    with path.open("wb") as out:
        out.write(orjson.dumps(header) + b"\n")
        for body in document["bodies"]:
            out.write(orjson.dumps({"kind": "body", **body}) + b"\n")
            for entry in calls.get(body["id"], []):
                out.write(orjson.dumps({"kind": "entry", **entry}) + b"\n")
        for entry in lone:
            out.write(orjson.dumps({"kind": "entry", **entry}) + b"\n")
    return path


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    appends = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import orjson
    from PySide6.QtCore import QEvent, QEventLoop, QObject, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.gui.window.app import make_application
    from wsi_inspector.gui.window.main_window import MainWindow

    source = jsonl_session(entries)
    live = DATA / "follow-live.jsonl"
    shutil.copyfile(source, live)
    make_application([])
    window = MainWindow(QSettings(str(DATA / "wsi-bench-follow.ini"), QSettings.Format.IniFormat))
    window.show()
    loop = QEventLoop()
    window.load_finished.connect(loop.quit)
    began = time.perf_counter()
    window.open_file(live)
    loop.exec()
    QApplication.processEvents()
    open_s = time.perf_counter() - began
    session = window.context.session
    last_body = session.bodies[-1].key
    window.set_follow(True)
    inputs = window.views["inputs"].model
    shown = threading.Event()
    written: list[float] = []
    delays: list[float] = []

    def mark() -> None:
        while len(delays) < len(written) and len(written) and inputs.rowCount() >= len(session.entries):
            delays.append((time.perf_counter() - written[len(delays)]) * 1000)
        shown.set()

    inserted = [False]

    class Painted(QObject):
        """Marks a record shown at the first paint after its row went in, once that paint pass is done."""

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
            if inserted[0] and event.type() == QEvent.Type.Paint:
                inserted[0] = False
                QTimer.singleShot(0, mark)
            return False

    painted = Painted()
    QApplication.instance().installEventFilter(painted)
    inputs.rowsInserted.connect(lambda *_: inserted.__setitem__(0, True))
    reloads = []
    window.loader.loaded.connect(reloads.append)

    def writer() -> None:
        nonlocal last_body
        with live.open("ab") as handle:
            for n in range(appends):
                if n % EVERY_BODY == EVERY_BODY - 1:
                    last_body = f"follow-b{n}"
                    handle.write(orjson.dumps({"kind": "body", "id": last_body, "code": "return 1"}) + b"\n")
                record = {"kind": "entry", "id": f"follow-c{n}", "call": "pack.rooms.place", "unit": "mm",
                          "body": last_body, "input": {"spine": [[n, n + 0.5], [n + 1, n * 2.25]], "label": f"appended {n}"}}
                shown.clear()
                written.append(time.perf_counter())
                handle.write(orjson.dumps(record) + b"\n")
                handle.flush()
                if not shown.wait(10):
                    print(f"record {n} not shown within 10 s", flush=True)
                time.sleep(0.005)

    # The window waits for events as the app's own loop does (QApplication.exec): a loop spinning on
    # processEvents would take a whole core from the writer and from Qt on a shared machine.
    following = QEventLoop()
    check = QTimer()
    check.timeout.connect(lambda: thread.is_alive() or following.quit())
    check.start(100)
    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    following.exec()
    thread.join()
    QApplication.processEvents()
    first, rest = delays[0], delays[1:]
    print(f"{entries:,}-entry JSON Lines session ({live.stat().st_size / 1e6:.1f} MB); machine shared with other jobs")
    print(f"baseline: opening the whole file in the window   {open_s * 1000:9.0f} ms")
    print(f"first append (starts following the session)       {first:9.1f} ms")
    print(f"appends shown: {len(delays):,} of {appends:,}; median {statistics.median(rest):.1f} ms, "
          f"90th {sorted(rest)[int(len(rest) * 0.9)]:.1f} ms, worst {max(rest):.1f} ms "
          f"(median {statistics.median(rest) / (open_s * 1000):.3f}x the baseline)")
    print(f"whole-file reloads while following: {len(reloads)}; entries now {len(window.context.session.entries):,}")
    window.close()


if __name__ == "__main__":
    main()
