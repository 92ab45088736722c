"""Run by test_theme in a child process: the window with the application's look (wsi_inspector.gui.window.theme.apply_look),
which the other GUI tests leave out; prints what it found as JSON. `python look_probe.py DEMO`."""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["WSI_THEME"] = "light"
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))


def main(demo: str) -> None:
    from PySide6.QtCore import QEventLoop, QSettings
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication, QHeaderView, QLineEdit, QStyle, QStyleOption, QTabBar

    from wsi_inspector.gui.window import theme
    from wsi_inspector.gui.window.app import make_application
    from wsi_inspector.gui.window.main_window import MainWindow

    app = make_application([])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(QSettings(str(Path(folder) / "wsi.ini"), QSettings.Format.IniFormat))
        window.show()
        loop = QEventLoop()
        window.load_finished.connect(loop.quit)
        window.open_file(demo)
        loop.exec()

        def seen() -> dict[str, object]:
            inputs = window.views["inputs"]
            table, tree, json_tree = inputs.table, window.timeline.tree, inputs.tree
            option = QStyleOption()
            option.initFrom(table)
            grid = QColor.fromRgba(table.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, option, table) & 0xFFFFFFFF)
            return {
                "app_sheet": app.styleSheet(),
                "styles": {view.objectName(): view.style().metaObject().className() for view in (table, tree, json_tree)},
                "selection": [view.palette().color(QPalette.ColorRole.Highlight).name() for view in (table, tree, json_tree)],
                "grid": grid.name(),
                "header_rules": all("QHeaderView::section" in h.styleSheet() for h in window.findChildren(QHeaderView)),
                "tab_rules": all("padding: 6px 14px" in t.styleSheet() for t in window.findChildren(QTabBar)),
                "line_edit_rules": all("padding: 3px 5px" in e.styleSheet() + (e.parentWidget() or e).styleSheet()
                                       for e in window.findChildren(QLineEdit)),  # a spin box's: in the spin box's sheet
                "expected": {"selection": theme.hex_of("selection"), "grid": theme.hex_of("grid")},
            }

        light = seen()
        app.setPalette(theme.application_palette(app.style().standardPalette(), True))
        app.processEvents()
        dark = seen()
        print(json.dumps({"light": light, "dark": dark}))
        window.close()


if __name__ == "__main__":
    main(sys.argv[1])
    os._exit(0)
