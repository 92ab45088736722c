"""Screenshots of every tab at a size, light or dark: `python -m tests.gui.shots W H OUTDIR [light|dark] [BODY] [--replay]`.

Renders offscreen with its own settings file; the cursor at body BODY (default b5) of the demo session; with
--replay, after the Run tab's Replay all (the timeline's replay column, the Inputs table's read marks). For
looking at views (issue 16 asks for 1024×700 and 1400×900, light and dark), not a test.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv: list[str]) -> int:
    """Write OUTDIR/<tab>.png for every tab; returns the exit status."""
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    replay = "--replay" in argv
    argv = [arg for arg in argv if arg != "--replay"]
    width, height, out = int(argv[0]), int(argv[1]), Path(argv[2])
    os.environ["WSI_THEME"] = "dark" if argv[3:4] == ["dark"] else "light"
    from wsi_inspector.gui.window.app import make_application
    from wsi_inspector.gui.window.main_window import TABS, MainWindow

    app = make_application([])
    assert isinstance(app, QApplication)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(QSettings(str(Path(folder) / "wsi.ini"), QSettings.Format.IniFormat))
        window.resize(width, height)
        window.show()
        loop = QEventLoop()
        window.load_finished.connect(loop.quit)
        window.open_file(Path(__file__).resolve().parents[2] / "resources" / "sessions" / "demo.json")
        loop.exec()
        if replay:
            run = window.views["run"]
            window.show_tab("run")
            run.bridge.replay_done.connect(loop.quit)
            run.replay_button.click()
            loop.exec()
        window.context.set_cursor(argv[4] if len(argv) > 4 else "b5")
        for name, _title, _spec in TABS:
            window.show_tab(name)
            QTimer.singleShot(400, loop.quit)
            loop.exec()
            window.grab().save(str(out / f"{name}.png"))
        print(f"{window.width()}×{window.height()}, timeline {window.timeline_dock.width()} px → {out}")
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
