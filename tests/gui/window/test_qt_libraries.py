"""Every system library Qt's platform plugins load is installed (what .ci/setup installs; Qt aborts without them)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import PySide6

PLUGINS = Path(PySide6.__file__).parent / "Qt" / "plugins"
NEEDED = ["platforms/libqxcb.so", "platforms/libqwayland.so", "platforms/libqoffscreen.so",
          "xcbglintegrations/libqxcb-glx-integration.so", "xcbglintegrations/libqxcb-egl-integration.so"]


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="ldd is Linux's")
@pytest.mark.parametrize("plugin", NEEDED)
def test_the_plugin_finds_every_library_it_links(plugin):
    linked = subprocess.run(["ldd", str(PLUGINS / plugin)], capture_output=True, text=True, timeout=60)
    assert linked.returncode == 0, linked.stderr
    missing = [line.split()[0] for line in linked.stdout.splitlines() if "not found" in line]
    assert missing == [], f"{plugin} needs {missing}: bash .ci/setup installs them (docs/troubleshooting.md)"
