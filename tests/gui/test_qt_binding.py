"""The Qt binding the project installs keeps Python alive: processEvents() must not leak references to None.

PySide6 6.12.0 dropped one reference to None per call, and Python 3.11 aborts once None's count
reaches zero; pyproject.toml keeps that release out.
"""
import sys

from PySide6.QtWidgets import QApplication


def test_process_events_keeps_references_to_none(qapp):
    before = sys.getrefcount(None)
    for _ in range(2_000):
        QApplication.processEvents()
    assert sys.getrefcount(None) >= before - 50
