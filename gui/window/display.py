"""Can a window open here? Checked before Qt starts, because Qt aborts the process when it cannot.

Qt ends the process with SIGABRT when its platform plugin cannot load (a missing Debian library) or
cannot reach the display, before any Python code can say why. So before the QApplication exists,
`why_no_window` looks at the environment the way Qt will, loads the platform plugin Qt will pick (the
dynamic loader names the first missing library) and, for X11, opens and closes one connection to the
display. Only Linux needs this: macOS and Windows always have their window system.
"""
from __future__ import annotations

import ctypes
import importlib.util
import os
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

# Platforms that draw without a window system (QT_QPA_PLATFORM=offscreen is the one to suggest).
WINDOWLESS = {"offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay"}
PICTURE_HINT = ("for a picture instead, run `wsi gui FILE --screenshot OUT.png` "
                "(or set QT_QPA_PLATFORM=offscreen)")
LIBRARIES_HINT = ("on Debian, `bash .ci/setup` as root installs the libraries Qt needs "
                  "(see docs/troubleshooting.md)")


def why_no_window(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> str | None:
    """None when a window can open; else one line saying why, and how to get a picture anyway."""
    if not platform.startswith("linux"):
        return None
    chosen = [name.split(":")[0].strip() for name in environ.get("QT_QPA_PLATFORM", "").split(";") if name.strip()]
    if chosen and chosen[0] in WINDOWLESS:
        return None
    display, wayland = environ.get("DISPLAY", ""), environ.get("WAYLAND_DISPLAY", "")
    if not display and not wayland:
        return f"wsi: there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); {PICTURE_HINT}"
    plugin = _platform_plugin(chosen, environ)
    missing = _missing_library(plugin)
    if missing is not None:
        return f"wsi: the window cannot start: Qt's {plugin} platform cannot load ({missing}); {LIBRARIES_HINT}"
    if plugin == "xcb" and not _x_display_answers(display):
        return (f"wsi: cannot connect to the X display {display!r} (DISPLAY): start the X server or correct "
                f"DISPLAY; {PICTURE_HINT}")
    if plugin == "wayland" and not _wayland_display_answers(wayland, environ):
        return (f"wsi: cannot connect to the Wayland display {wayland!r} (WAYLAND_DISPLAY): start the compositor, "
                f"or set QT_QPA_PLATFORM=xcb to use XWayland; {PICTURE_HINT}")
    return None


def _platform_plugin(chosen: list[str], environ: Mapping[str, str]) -> str:
    # Qt's own order: QT_QPA_PLATFORM first; else Wayland in a Wayland session that has a Wayland
    # display, else X11 (xcb), which is also where a Wayland session's XWayland display leads.
    if chosen:
        return chosen[0]
    wayland_session = environ.get("XDG_SESSION_TYPE") == "wayland" and environ.get("WAYLAND_DISPLAY")
    return "wayland" if wayland_session or not environ.get("DISPLAY") else "xcb"


def _missing_library(plugin: str) -> str | None:
    """The loader's complaint when the plugin's shared library (and all it links) cannot load, else None."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return "PySide6 is not installed"
    library = Path(list(spec.submodule_search_locations)[0]) / "Qt" / "plugins" / "platforms" / f"libq{plugin}.so"
    if not library.exists():
        return None  # not a plugin of this Qt build: Qt itself says which ones it has
    try:
        ctypes.CDLL(str(library))
    except OSError as exc:
        return str(exc).replace(str(library) + ": ", "")
    return None


def _x_display_answers(display: str) -> bool:
    """True when an X connection to `display` opens (libxcb reads XAUTHORITY as Qt will)."""
    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return True  # cannot ask; leave the verdict to Qt
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return connection is not None and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection is not None:
            xcb.xcb_disconnect(connection)


def _wayland_display_answers(display: str, environ: Mapping[str, str]) -> bool:
    """True when the compositor's socket (`$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY`, or an absolute path) accepts."""
    if environ.get("WAYLAND_SOCKET"):
        return True  # an inherited connection: nothing to check
    folder = environ.get("XDG_RUNTIME_DIR", "")
    if not os.path.isabs(display) and not folder:
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(os.path.join(folder, display))
        except OSError:
            return False
    return True
