"""Shared benchmark helpers: time a whole process with its peak memory, and cache generated inputs."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(os.environ.get("WSI_BENCH_DATA", "/tmp/wsi-bench"))
WSI = Path(sys.executable).with_name("wsi")


def run_process(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident bytes of one process, its output thrown away."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{argv[0]} failed: {proc.stderr.read().decode()}")
    proc.stderr.close()
    return elapsed, usage.ru_maxrss * 1024


def best_of(runs: int, argv: list[str]) -> tuple[float, int]:
    """The fastest of `runs` runs, and the largest peak memory seen."""
    results = [run_process(argv) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results)


def big_session(entries: int = 100_000) -> Path:
    """The generated big session, made once and cached under WSI_BENCH_DATA."""
    from tests.bench.make_big import make_big

    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"big-{entries}.json"
    if not path.exists():
        print(f"generating {path} …", flush=True)
        make_big(path, entries)
    return path


def opened_window(path: Path, settings: str):
    """A main window with a settings file of its own (`settings`.ini under TMPDIR), shown, `path` opened and
    loaded (the event loop run until the load job is done). The application must exist."""
    from PySide6.QtCore import QEventLoop, QSettings

    from wsi_inspector.gui.window.main_window import MainWindow

    window = MainWindow(QSettings(str(Path(os.environ.get("TMPDIR", "/tmp")) / f"{settings}.ini"), QSettings.Format.IniFormat))
    window.show()
    loop = QEventLoop()
    window.load_finished.connect(loop.quit)
    window.open_file(path)
    loop.exec()
    return window
