"""`wsi` as a person starts it: the version, no display, a display that does not answer, honest screenshot exits."""
import importlib.metadata
import json
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from wsi_inspector.gui.window.display import why_no_window
from tests.conftest import BROKEN, DEMO
from tests.helpers.cli import wsi_without_display as wsi


def test_version_prints_wsi_and_the_installed_version():
    done = wsi("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wsi {importlib.metadata.version('worker-session-inspector')}\n"


@pytest.mark.parametrize("args", [[], ["gui", DEMO]])
def test_without_a_display_wsi_says_so_in_one_line_and_exits_2(args):
    done = wsi(*args)
    assert done.returncode == 2  # not Qt's abort (-6 / 134)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "no display" in lines[0] and "--screenshot" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]


def test_an_x_display_that_does_not_answer_is_one_line_and_exit_2(tmp_path):
    done = wsi(env_changes={"DISPLAY": ":239", "XAUTHORITY": str(tmp_path / "none")})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert "cannot connect to the X display ':239'" in done.stderr


def test_a_wayland_display_that_does_not_answer_is_one_line_and_exit_2(tmp_path):
    done = wsi(env_changes={"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert "cannot connect to the Wayland display 'wayland-9'" in done.stderr


@pytest.mark.parametrize("environ, platform", [
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux"),
    ({"QT_QPA_PLATFORM": "minimal:enable_fonts"}, "linux"),
    ({}, "darwin"),
    ({}, "win32"),
])
def test_a_window_needs_no_display_offscreen_or_off_linux(environ, platform):
    assert why_no_window(environ, platform) is None


def at_window_size(image: QImage) -> bool:
    """The picture is the 1400×900 window in device pixels: 1400×900 at 100 %, 2100×1350 at 150 % (QT_FONT_DPI=144)."""
    width, height = image.size().toTuple()
    return width >= 1400 and width * 900 == height * 1400


def test_screenshot_names_the_session_it_loaded(tmp_path):
    out = tmp_path / "demo.png"
    done = wsi("gui", "--screenshot", out, cwd=tmp_path)  # no FILE: the bundled demo
    assert done.returncode == 0, done.stderr
    title = json.loads(DEMO.read_text(encoding="utf-8"))["session"]["title"]
    assert f"demo.json, “{title}”" in done.stdout
    assert done.stderr == ""  # nothing but errors goes there, and there are none
    assert at_window_size(QImage(str(out)))


# A missing file is bad usage (exit 2, no picture): tests/gui/window/test_gui_exit_codes.py.
@pytest.mark.parametrize("name, said", [
    ("broken/not_json.json", "not_json.json is not a session: 5:36"),
    ("broken/missing_format.json", "missing_format.json is not a session: /format"),
])
def test_screenshot_of_a_file_that_did_not_load_exits_1_and_still_writes_the_picture(tmp_path, name, said):
    out = tmp_path / "shot.png"
    done = wsi("gui", BROKEN.parent / name, "--screenshot", out)
    assert done.returncode == 1
    assert f"{Path(name).name} did not load" in done.stdout
    assert said in done.stderr and "the picture shows it" in done.stderr
    image = QImage(str(out))
    assert at_window_size(image)
    # The error notice (dark red text across the top) is in the picture: its band, at any display scale (a picture
    # at 200 % is twice the window's size, the notice twice as far down).
    top = image.height() * 80 // 900
    red_text = sum(image.pixelColor(x, y).name() == "#9b1c1c" for y in range(0, top, 2) for x in range(0, image.width(), 2))
    assert red_text > 25


def test_screenshot_of_a_file_with_errors_exits_1(tmp_path):
    done = wsi("gui", BROKEN / "bad_call.json", "--screenshot", tmp_path / "shot.png")
    assert done.returncode == 1
    assert "bad_call.json opened with 2 errors" in done.stderr and "wsi validate" in done.stderr
