"""The Qt binding the project installs keeps Python alive: calls must not leak references to None or True.

PySide6 6.12.0 dropped one reference to None on every processEvents() and every call returning
nothing (setText…), and Python 3.11 aborts once None's count reaches zero ("none_dealloc");
pyproject.toml keeps that release out.
"""
import sys

from PySide6.QtWidgets import QApplication, QLabel


def test_process_events_keeps_references_to_none(qapp):
    before = sys.getrefcount(None)
    for _ in range(2_000):
        QApplication.processEvents()
    assert sys.getrefcount(None) >= before - 50


def test_void_calls_keep_references_to_none_and_true(qapp):
    label = QLabel()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(2_000):
        label.setText("x")
        label.setEnabled(True)
        label.isVisible()
    assert sys.getrefcount(None) >= none_before - 50
    assert sys.getrefcount(True) >= true_before - 50
