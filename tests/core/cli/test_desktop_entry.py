"""Issue 31.13: `wsi --install-desktop` writes a .desktop entry and an icon under $XDG_DATA_HOME, nothing else."""
from __future__ import annotations

import configparser
import os
import subprocess
import sys
from pathlib import Path

from wsi_inspector.core.cli.desktop_entry import APP_ID, data_home, desktop_text
from tests.conftest import ROOT


def test_install_desktop_writes_the_entry_and_the_icon_under_xdg_data_home(tmp_path):
    home = tmp_path / "share"
    env = {**os.environ, "XDG_DATA_HOME": str(home)}
    run = subprocess.run([sys.executable, "-m", "wsi_inspector.gui.window.launch", "--install-desktop"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    entry = home / "applications" / f"{APP_ID}.desktop"
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    assert run.stdout.splitlines() == [f"wrote {entry}", f"wrote {icon}"]
    parsed = configparser.ConfigParser(interpolation=None)
    parsed.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parsed.read(entry)
    desktop = parsed["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Icon"] == APP_ID
    assert desktop["Exec"].endswith(" gui %f") and "application/json" in desktop["MimeType"].split(";")
    assert icon.read_bytes() == (ROOT / "resources" / "icons" / f"{APP_ID}.svg").read_bytes()
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file()) == [
        f"applications/{APP_ID}.desktop", f"icons/hicolor/scalable/apps/{APP_ID}.svg"]


def test_a_folder_that_cannot_be_written_is_one_line_and_exit_1(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = {**os.environ, "XDG_DATA_HOME": str(blocker)}  # a file where the folder should be
    run = subprocess.run([sys.executable, "-m", "wsi_inspector.gui.window.launch", "--install-desktop"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stderr.startswith(f"wsi: cannot write under {blocker}") and "Traceback" not in run.stderr


def test_a_relative_xdg_data_home_is_ignored_and_a_path_with_spaces_is_quoted():
    assert data_home({"XDG_DATA_HOME": "rel/share"}) == Path.home() / ".local" / "share"
    assert data_home({"XDG_DATA_HOME": "/x/share"}) == Path("/x/share")
    assert 'Exec="/opt/my apps/wsi" gui %f' in desktop_text("/opt/my apps/wsi")
