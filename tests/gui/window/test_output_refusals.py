"""Issue 27, case 1: the window's Export, Save Screenshot and Save repro never write onto the open
session (also through a hard link), and Export keeps the name the person typed."""
from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QApplication

from tests.conftest import DEMO


@pytest.fixture
def opened(window, open_file, tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(DEMO.read_bytes())
    open_file(window, path)
    window.context.set_cursor("b5")
    return window, path


def answer_dialog(monkeypatch, module: str, path, chosen_filter: str = "") -> None:
    monkeypatch.setattr(f"{module}.QFileDialog.getSaveFileName", lambda *_a, **_k: (str(path), chosen_filter))


def test_save_screenshot_onto_the_open_session_is_refused_with_a_notice(qtbot, opened, monkeypatch):
    window, path = opened
    answer_dialog(monkeypatch, "wsi_inspector.gui.window.main_window", path)
    window._choose_screenshot()
    assert path.read_bytes() == DEMO.read_bytes()
    assert window.notice.isVisible() and "that is the input" in window.notice.label.text()


def test_save_screenshot_writes_a_png_elsewhere(qtbot, opened, monkeypatch, tmp_path):
    window, _path = opened
    out = tmp_path / "shot.png"
    answer_dialog(monkeypatch, "wsi_inspector.gui.window.main_window", out)
    window._choose_screenshot()
    assert out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("through", ["same", "hard link"])
def test_export_onto_the_open_session_is_refused(qtbot, opened, monkeypatch, tmp_path, through):
    from wsi_inspector.gui.actions import export

    window, path = opened
    target = path
    if through == "hard link":
        target = tmp_path / "linked.json"
        os.link(path, target)
    answer_dialog(monkeypatch, "wsi_inspector.gui.actions.export", target, export.JSON_FILTER)
    failures = []
    window.exporter = export.Exporter(window.context, window.services)
    window.exporter.failed.connect(failures.append)
    window.show_tab("inputs")
    window.export_view()
    qtbot.waitUntil(lambda: bool(failures), timeout=20_000)
    assert "that is the input" in failures[0]
    assert path.read_bytes() == DEMO.read_bytes()


def test_save_repro_onto_a_hard_link_of_the_open_session_is_refused(qtbot, opened, tmp_path):
    from wsi_inspector.gui.actions.save_repro import saver_for

    window, path = opened
    link = tmp_path / "linked.json"
    os.link(path, link)
    saver = saver_for(window.context, window.services)
    failures = []
    saver.failed.connect(failures.append)
    assert saver.save(link)
    qtbot.waitUntil(lambda: bool(failures), timeout=20_000)
    assert "that is the input" in failures[0]
    assert path.read_bytes() == DEMO.read_bytes()


def test_export_with_the_csv_filter_keeps_the_typed_name_and_never_touches_another_file(qtbot, opened, monkeypatch, tmp_path):
    from wsi_inspector.gui.actions import export

    window, _path = opened
    other = tmp_path / "report.csv"
    other.write_text("someone else's table\n")
    typed = tmp_path / "report.json"
    answer_dialog(monkeypatch, "wsi_inspector.gui.actions.export", typed, export.CSV_FILTER)
    window.show_tab("inputs")
    window.export_view()
    qtbot.waitUntil(lambda: "exported" in window.status.currentMessage(), timeout=20_000)
    assert other.read_text() == "someone else's table\n"
    assert json.loads(typed.read_text())["entries"]  # the typed name, in the form its ending says
    QApplication.processEvents()
