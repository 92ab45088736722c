"""`wsi` run as a person runs it, in a child process: the helpers the CLI's tests share."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

WSI = Path(sys.executable).with_name("wsi")  # the console script installed beside this interpreter
DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE")


def wsi(*args, cwd=None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`wsi ARGS…` with Qt offscreen; no traceback may reach stderr."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(WSI), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
    assert "Traceback" not in done.stderr
    return done


def wsi_without_display(*args, env_changes=None, cwd=None) -> subprocess.CompletedProcess[str]:
    """`wsi ARGS…` as started where there is no display (none of DISPLAY_VARIABLES), plus `env_changes`."""
    env = {k: v for k, v in os.environ.items() if k not in DISPLAY_VARIABLES}
    env.update(env_changes or {})
    done = subprocess.run([str(WSI), *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)
    assert "Traceback" not in done.stderr
    return done


def help_text(*args: str) -> str:
    """What `wsi ARGS… --help` prints (it must exit 0)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(WSI), *args, "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def options_in_help(text: str) -> set[str]:
    """The options a --help lists (its option lines, not its prose), without --help itself."""
    found = set()
    for line in text.splitlines():
        match = re.match(r"\s{1,4}(?:-\w(?: [A-Z_]+)?, )?(--[a-z][a-z-]*)", line)  # "-o OUT, --out OUT" too
        if match:
            found.add(match.group(1))
    return found - {"--help"}
