"""Issue 28, point 3: `wsi gui FILE` loads FILE while Qt and the window are imported, and the window takes that load over."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wsi_inspector.gui.background import early_load, loader
from wsi_inspector.gui.background.loader import SessionLoader
from wsi_inspector.gui.window.app import early_file


@pytest.fixture(autouse=True)
def nothing_pending():
    """No early load is left for another test's window to take."""
    yield
    early_load.take("")


@pytest.fixture
def never_twice(monkeypatch):
    """The window's loader must not load a file again that an early load is loading."""
    def again(_job, path):
        raise AssertionError(f"{path} loaded a second time")
    monkeypatch.setattr(loader, "load_session", again)


def test_the_window_takes_over_the_load_started_before_it(qtbot, demo_path, never_twice):
    early = early_load.start(demo_path)
    seen: list[int] = []
    window_loader = SessionLoader()
    window_loader.progress.connect(lambda percent, _text: seen.append(percent))
    with qtbot.waitSignal(window_loader.loaded, timeout=20_000) as done:
        window_loader.start(demo_path)
    result = done.args[0]
    assert result.path == demo_path and len(result.session.entries) == 36 and not result.session.errors
    assert seen and seen[-1] == 100 and seen == sorted(seen)
    assert early_load.take(demo_path) is None  # taken once: opening the file again reads it again
    early.thread.join(5)
    window_loader.wait()


def test_a_file_that_cannot_be_read_fails_in_the_window_as_it_would_have(qtbot, tmp_path, never_twice):
    missing = tmp_path / "gone.json"
    early_load.start(missing)
    window_loader = SessionLoader()
    with qtbot.waitSignal(window_loader.failed, timeout=20_000) as failed:
        window_loader.start(missing)
    assert "gone.json" in failed.args[0] and "no such file" in failed.args[0]
    window_loader.wait()


def test_opening_another_file_first_abandons_the_early_load(qtbot, demo_path, tmp_path):
    other = tmp_path / "other.json"
    other.write_bytes(demo_path.read_bytes())
    early = early_load.start(other)
    window_loader = SessionLoader()
    with qtbot.waitSignal(window_loader.loaded, timeout=20_000) as done:
        window_loader.start(demo_path)
    assert done.args[0].path == demo_path
    early.thread.join(20)
    assert not early.thread.is_alive() and early._result is None  # stopped at its next check, nothing kept
    window_loader.wait()


def test_cancel_stops_the_adopted_load(qtbot, demo_path):
    early_load.start(demo_path)
    window_loader = SessionLoader()
    window_loader.start(demo_path)
    with qtbot.waitSignal(window_loader.cancelled, timeout=5_000):
        window_loader.cancel()
    assert not window_loader.busy
    window_loader.wait()


@pytest.mark.parametrize(("argv", "expected"), [
    (["s.json"], "s.json"),
    (["--tab", "run", "--at", "b5", "s.json"], "s.json"),
    (["s.json", "--screenshot", "out.png"], "s.json"),
    ([], None),  # the demo: small, loaded by the window
    (["--help"], None),
    (["--gzip-limit", "lots", "s.json"], None),  # bad usage: said once, by the full parse
])
def test_the_file_is_read_from_the_arguments_before_the_window_is_imported(argv, expected):
    found = early_file(argv)
    assert (str(found) if found is not None else None) == expected


def test_wsi_gui_starts_the_load_before_importing_qt(tmp_path, demo_path):
    """`wsi gui FILE --screenshot` with early_load.start watched: it is called before PySide6 is imported."""
    out = tmp_path / "shot.png"
    script = (
        "import sys\n"
        "from wsi_inspector.gui.background import early_load\n"
        "started = early_load.start\n"
        "def start(path):\n"
        "    print('qt imported when the load started:', 'PySide6.QtWidgets' in sys.modules, flush=True)\n"
        "    return started(path)\n"
        "early_load.start = start\n"
        "from wsi_inspector.gui.window.app import run_app\n"
        f"sys.exit(run_app([{str(demo_path)!r}, '--screenshot', {str(out)!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert "qt imported when the load started: False" in done.stdout
    assert out.is_file() and Path(out).stat().st_size > 0
