"""`wsi --install-desktop`: put the inspector in the desktop's menu and offer it for session files.

Writes, under $XDG_DATA_HOME (default ~/.local/share), `applications/worker-session-inspector.desktop`
(Exec: this `wsi` with `gui %f`, MIME types of the session files) and the icon
`icons/hicolor/scalable/apps/worker-session-inspector.svg`. Only files of these names are written; run
it again after moving the install. Nothing else on the machine changes (no desktop database is
rebuilt: menus pick new entries up on their own).
"""
from __future__ import annotations

import argparse
import importlib.resources
import os
import shutil
import sys
from pathlib import Path

APP_ID = "worker-session-inspector"
MIME_TYPES = ("application/json", "application/x-ndjson", "application/jsonl", "application/gzip")


def data_home(environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """$XDG_DATA_HOME when set to an absolute path (the spec ignores a relative one), else ~/.local/share."""
    value = environ.get("XDG_DATA_HOME", "")
    return Path(value) if value and Path(value).is_absolute() else Path.home() / ".local" / "share"


def wsi_command() -> str:
    """The `wsi` this process is, as an absolute path (found on PATH when started by name)."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else "wsi"
    found = shutil.which(argv0) if os.sep not in argv0 else argv0
    if found and Path(found).name.startswith("wsi"):
        return str(Path(found).resolve())
    return str(Path(shutil.which("wsi") or "wsi"))


def desktop_text(command: str) -> str:
    """The .desktop entry (freedesktop Desktop Entry 1.5) that opens a session file in the inspector."""
    quoted = '"' + command.replace("\\", "\\\\").replace('"', '\\"') + '"' if " " in command else command
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.5",
        "Name=Worker Session Inspector",
        "GenericName=Session inspector",
        "Comment=Look inside recorded run_worker sessions: inputs, kept values, edits, runs",
        f"Exec={quoted} gui %f",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Development;Debugger;",
        "MimeType=" + ";".join(MIME_TYPES) + ";",
        "StartupWMClass=wsi",
        "",
    ])


def install(home: Path, command: str) -> list[Path]:
    """Write the entry and the icon under `home`; the paths written (OSError when a folder cannot be written)."""
    entry = home / "applications" / f"{APP_ID}.desktop"
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    entry.parent.mkdir(parents=True, exist_ok=True)
    icon.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(desktop_text(command), encoding="utf-8")
    icon.write_bytes((importlib.resources.files("wsi_inspector.resources") / "icons" / f"{APP_ID}.svg").read_bytes())
    return [entry, icon]


class InstallDesktopAction(argparse.Action):
    """`--install-desktop`: write the desktop entry and icon, say where, and exit (0 done, 1 not written)."""

    def __init__(self, option_strings: list[str], dest: str, **_kwargs: object):
        super().__init__(option_strings, dest, nargs=0,
                         help="add the inspector to the desktop's menu (a .desktop entry and an icon under $XDG_DATA_HOME) and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> None:
        home = data_home()
        try:
            written = install(home, wsi_command())
        except OSError as exc:
            print(f"wsi: cannot write under {home} ({exc.strerror or exc}); set XDG_DATA_HOME to a folder you can write to",
                  file=sys.stderr)
            parser.exit(1)
        for path in written:
            print(f"wrote {path}")
        parser.exit(0)
