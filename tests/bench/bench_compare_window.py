"""Benchmark: the compare window on two 10,000-body, 100,000-entry sessions against opening both, as windows.

Run: `.venv/bin/python tests/bench/bench_compare_window.py [RUNS]`. Issue 33's target, read as a person
meets it: File ▸ Compare with… (no session open: both read at once, compared, the window filled) in at most
1.2× the time of opening the two sessions, one main window each, one after the other, until each is
usable. Each side runs in a fresh offscreen process (`--child`), turn about, the best of RUNS (3) each.
`bench_compare.py` holds the same target to the core's work alone (the loads and the compare). `--real
[ENTRIES] [RUNS]` measures the same on make_real's real-shaped sessions in every form and across forms.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET_RATIO = 1.2


def child(mode: str, a: Path, b: Path) -> None:
    """In a fresh process: the seconds until the windows are usable, printed as JSON."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QEventLoop, QSettings

    from wsi_inspector.gui.tabs.compare.window import open_compare
    from wsi_inspector.gui.window.app import make_application
    from wsi_inspector.gui.window.main_window import MainWindow

    app = make_application([])
    with tempfile.TemporaryDirectory() as folder:
        def window(name: str) -> MainWindow:
            made = MainWindow(QSettings(str(Path(folder) / f"{name}.ini"), QSettings.Format.IniFormat))
            made.resize(1400, 900)
            made.show()
            return made

        main = window("main")
        app.processEvents()
        loop = QEventLoop()
        started = time.perf_counter()
        if mode == "both":
            for n, path in enumerate((a, b)):
                opened = main if n == 0 else window("second")
                opened.load_finished.connect(loop.quit)
                opened.open_file(path)
                loop.exec()
                app.processEvents()  # painted once
        else:
            view = open_compare(main, a, b)
            while view.compared is None:  # the job's result reaches the window through the event loop
                app.processEvents()
                time.sleep(0.001)
            app.processEvents()
        print(json.dumps({"seconds": time.perf_counter() - started}))


def timed(mode: str, a: Path, b: Path) -> float:
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(a), str(b)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1])["seconds"])


def main() -> None:
    from tests.bench.bench_compare import CALLS_PER_BODY, make_b
    from tests.bench.make_big import make_big

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory() as folder:
        a, b = Path(folder) / "a.json", Path(folder) / "b.json"
        make_big(a, 100_000, calls_per_body=CALLS_PER_BODY)
        make_b(a, b)
        row("make_big", a, b, runs)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def row(name: str, a: Path, b: Path, runs: int) -> None:
    """One pair: opening both as windows, then the compare window, turn about, the best of `runs` each."""
    both, compare = [], []
    for _ in range(runs):
        both.append(timed("both", a, b))
        compare.append(timed("compare", a, b))
    ratio = min(compare) / min(both)
    print(f"{name}: opening both, a main window each: {min(both):.2f} s (runs {', '.join(f'{s:.2f}' for s in both)}); "
          f"the compare window (both read at once, compared, shown): {min(compare):.2f} s = {ratio:.2f}× "
          f"(target ≤ {TARGET_RATIO}×) {'OK' if ratio <= TARGET_RATIO else 'OVER'}", flush=True)


def real(entries: int, runs: int) -> None:
    """`--real [ENTRIES] [RUNS]`: make_real's session (10 calls a body) as A and as B changed as bench_compare's
    `differ` changes it, in each form and across forms."""
    from tests.bench.bench_compare import CALLS_PER_BODY, differ
    from tests.bench.make_real import write_forms

    with tempfile.TemporaryDirectory() as folder:
        a_paths = write_forms(Path(folder) / "a", entries, CALLS_PER_BODY)
        b_paths = write_forms(Path(folder) / "b", entries, CALLS_PER_BODY, change=differ)
        for a_form, b_form in [("compact", "compact"), ("indent", "indent"), ("jsonl", "jsonl"), ("jsonl.gz", "jsonl.gz"),
                               ("compact", "indent")]:
            row(f"{a_form} vs {b_form}", a_paths[a_form], b_paths[b_form], runs)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))
    elif sys.argv[1:2] == ["--real"]:
        real(int(sys.argv[2]) if len(sys.argv) > 2 else 100_000, int(sys.argv[3]) if len(sys.argv) > 3 else 3)
    else:
        main()
