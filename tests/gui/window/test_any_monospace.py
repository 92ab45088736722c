"""Issue 29.6: the window draws the same whatever the machine's monospace font is.

On a Debian machine whose monospace font was Noto Sans Mono, test_small_screens failed twice (the
font was not fixed-pitch to Qt, and ids were wider than the columns fitted for them). The app now
ships DejaVu Sans Mono (resources/fonts) and draws ids, calls, code and JSON with it. Here the
system's monospace font is switched (a fontconfig file that puts another family first, in a fresh
process, for fontconfig reads its configuration once) and the small-screen tests run again.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <match target="pattern">
    <test qual="any" name="family"><string>monospace</string></test>
    <edit name="family" mode="prepend" binding="strong"><string>{family}</string></edit>
  </match>
</fontconfig>
"""
PROBE = ("from PySide6.QtWidgets import QApplication; from PySide6.QtGui import QFontDatabase, QFontInfo; "
         "app = QApplication([]); print(QFontInfo(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)).family())")


def _env(tmp_path, family: str) -> dict[str, str]:
    conf = tmp_path / "fonts.conf"
    conf.write_text(CONF.format(family=family))
    return {**os.environ, "FONTCONFIG_FILE": str(conf), "QT_QPA_PLATFORM": "offscreen"}


@pytest.mark.parametrize("family", ["Noto Sans Mono", "DejaVu Serif"])  # Debian's other monospace, and a proportional font
def test_the_small_screen_tests_pass_whatever_the_system_monospace_font(tmp_path, family):
    env = _env(tmp_path, family)
    probe = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    if probe.stdout.strip() != family:
        pytest.skip(f"{family} is not installed here (the system's fixed font stays {probe.stdout.strip()!r})"
                    + ("; `apt-get install fonts-noto-mono` adds it" if "Noto" in family else ""))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/gui/window/test_small_screens.py"],
                         env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
