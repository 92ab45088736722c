"""One real window: `wsi` under Xvfb (not offscreen), mapped, painted, closed like a person, exit 0.

The other GUI tests stay offscreen. This one needs `xvfb-run` (Debian's xvfb, which .ci/setup
installs); it is skipped without it on a developer's machine, and fails without it in CI.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DEMO

WSI = Path(sys.executable).with_name("wsi")
PROBE = Path(__file__).with_name("window_probe.py")


@pytest.mark.skipif(shutil.which("xvfb-run") is None and not os.environ.get("CI"),
                    reason="needs xvfb-run (apt-get install xvfb xauth, or bash .ci/setup)")
def test_wsi_opens_a_real_window_under_xvfb_paints_it_and_exits_0_when_closed(tmp_path):
    title = json.loads(DEMO.read_text(encoding="utf-8"))["session"]["title"]
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), WSI_LOG=str(tmp_path / "wsi.log"))
    shot = tmp_path / "window.ppm"
    done = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, str(PROBE), str(WSI), str(shot), title],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["title"] == f"{title} — demo.json — Worker Session Inspector", seen
    assert seen["colours"] >= 16, seen  # drawn: text, tables, the plot; a blank window has one or two
    assert seen["size"][0] >= 800 and seen["size"][1] >= 500, seen
    assert seen["exit"] == 0, seen
    assert "Traceback" not in seen["stderr"]
