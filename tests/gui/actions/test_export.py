"""File ▸ Export (Ctrl+E) writes the view's data: the same JSON bytes as `wsi … --json`, or the table as CSV."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.conftest import DEMO

WSI = Path(sys.executable).with_name("wsi")


def wsi_json(*args) -> bytes:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(WSI), *map(str, args), "--json"], capture_output=True, env=env, timeout=120)
    return done.stdout


@pytest.fixture
def ready_window(window, open_file, qtbot):
    open_file(window, DEMO)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=3000)
    return window


def export_with_keys(qtbot, window, monkeypatch, path: Path, csv_chosen: bool = False) -> None:
    """Press Ctrl+E and answer the save dialog with `path`, as a person would; wait for the file."""
    from wsi_inspector.gui.actions import export

    asked = []

    def dialog(_parent, title, start, filters):
        asked.append((title, start, filters))
        return str(path), export.CSV_FILTER if csv_chosen else export.JSON_FILTER

    monkeypatch.setattr(export.QFileDialog, "getSaveFileName", dialog)
    target = QApplication.focusWidget() or window
    qtbot.keyClick(target, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked, "Ctrl+E did not ask where to export"
    qtbot.waitUntil(lambda: "exported" in window.status.currentMessage(), timeout=30_000)


@pytest.mark.parametrize("tab, command", [
    ("inputs", ["manifest", DEMO, "--at", "b5"]),
    ("kept", ["kept", DEMO, "--at", "b5"]),
    ("edits", ["diff", DEMO]),
    ("trim", ["trim", DEMO, "--cap", "5713", "--at", "b5"]),
    ("problems", ["validate", DEMO]),
])
def test_export_json_is_what_wsi_json_prints(qtbot, ready_window, monkeypatch, tmp_path, tab, command):
    ready_window.context.set_cursor("b5")
    ready_window.show_tab(tab)
    qtbot.wait(50)
    out = tmp_path / f"{tab}.json"
    export_with_keys(qtbot, ready_window, monkeypatch, out)
    assert out.read_bytes() == wsi_json(*command)


def test_export_of_changes_is_what_wsi_changes_prints(qtbot, ready_window, monkeypatch, tmp_path):
    ready_window.context.set_cursor("b5")
    ready_window.show_tab("changes")
    view = ready_window.views["changes"]
    qtbot.waitUntil(lambda: view.document is not None, timeout=10_000)
    out = tmp_path / "changes.json"
    export_with_keys(qtbot, ready_window, monkeypatch, out)
    assert out.read_bytes() == wsi_json("changes", DEMO, "--from", "b4", "--to", "b5")


def test_export_csv_of_the_inputs_table_has_a_row_per_entry(qtbot, ready_window, monkeypatch, tmp_path):
    ready_window.context.set_cursor("b5")
    ready_window.show_tab("inputs")
    out = tmp_path / "inputs"  # no ending: the CSV filter decides the form; the name is kept as typed (issue 27)
    export_with_keys(qtbot, ready_window, monkeypatch, out, csv_chosen=True)
    rows = list(csv.reader(out.open(newline="", encoding="utf-8")))
    manifest = json.loads(wsi_json("manifest", DEMO, "--at", "b5"))
    assert rows[0] == ["id", "call", "unit", "applied", "shape", "bytes"]
    assert [r[0] for r in rows[1:]] == [str(e["id"]) for e in manifest["entries"]]
    assert [int(r[5]) for r in rows[1:]] == [e["bytes"] for e in manifest["entries"]]
    assert rows[-1][3] == "true" and rows[1][3] == "false"  # e3 is a person's edit, c1 is not


def test_export_of_the_run_tab_is_the_last_result_and_of_the_replay_page_the_replay(qtbot, ready_window, monkeypatch, tmp_path):
    ready_window.show_tab("run")
    view = ready_window.views["run"]
    export_with_keys_refused = []
    monkeypatch.setattr("wsi_inspector.gui.actions.export.QFileDialog.getSaveFileName", lambda *a: export_with_keys_refused.append(a) or ("", ""))
    qtbot.keyClick(ready_window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert not export_with_keys_refused and "run a body" in ready_window.status.currentMessage()
    view.editor.set_code("return await modules.mep.risers({ level: 2 });", "js")
    with qtbot.waitSignal(view.bridge.finished, timeout=20_000):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    out = tmp_path / "run.json"
    export_with_keys(qtbot, ready_window, monkeypatch, out)
    assert json.loads(out.read_bytes()) == view.last_result
    with qtbot.waitSignal(view.bridge.replay_done, timeout=60_000):
        qtbot.mouseClick(view.replay_button, Qt.MouseButton.LeftButton)
    ready_window.status.clearMessage()
    replay = tmp_path / "replay.csv"
    export_with_keys(qtbot, ready_window, monkeypatch, replay, csv_chosen=True)
    rows = list(csv.reader(replay.open(newline="", encoding="utf-8")))
    assert [r[:2] for r in rows[1:]] == [[f"b{i}", "true"] for i in range(1, 9)]


def test_an_export_that_cannot_be_written_says_so_in_the_window(qtbot, ready_window, monkeypatch, tmp_path):
    ready_window.show_tab("kept")
    from wsi_inspector.gui.actions import export

    monkeypatch.setattr(export.QFileDialog, "getSaveFileName", lambda *a: (str(tmp_path / "missing" / "k.json"), export.JSON_FILTER))
    qtbot.keyClick(ready_window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ready_window.notice.isVisible(), timeout=10_000)
    assert "cannot write" in ready_window.notice.label.text() and "missing" in ready_window.notice.label.text()
