"""Test set-up: Qt renders offscreen (no display in CI), and shared fixtures."""
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = ROOT / "resources" / "sessions"
DEMO = SESSIONS / "demo.json"
BROKEN = SESSIONS / "broken"


@pytest.fixture
def demo_path() -> Path:
    return DEMO
