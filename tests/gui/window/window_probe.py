"""Run inside an X server (`xvfb-run`): start `wsi`, wait for its window, grab it, close it like a person.

`python window_probe.py WSI OUT.ppm` prints one JSON line: the window's title, its size, how many
distinct colours the grab holds, how `wsi` exited, and its stderr. The grab is written to OUT.ppm
so a failure can be looked at. Talks X11 itself (python-xlib) so it sees what the X server sees.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

from Xlib import X, Xatom, display, error, protocol

APP_TITLE = "Worker Session Inspector"
WAIT_S = 60.0


def window_title(dpy: display.Display, window: Any) -> str:
    """The window's _NET_WM_NAME (UTF-8), else WM_NAME."""
    try:
        prop = window.get_full_property(dpy.intern_atom("_NET_WM_NAME"), dpy.intern_atom("UTF8_STRING"))
        if prop is not None:
            return bytes(prop.value).decode("utf-8", "replace")
        name = window.get_full_property(Xatom.WM_NAME, X.AnyPropertyType)
        return bytes(name.value).decode("latin-1") if name is not None else ""
    except error.XError:
        return ""  # the window went away while we looked


def find_mapped_window(dpy: display.Display, loaded: str) -> Any | None:
    """A viewable top-level window whose title says the session `loaded` is open."""
    for window in dpy.screen().root.query_tree().children:
        try:
            viewable = window.get_attributes().map_state == X.IsViewable
        except error.XError:
            continue
        title = window_title(dpy, window)
        if viewable and APP_TITLE in title and loaded in title:
            return window
    return None


def grab(dpy: display.Display, window: Any) -> tuple[int, int, bytes]:
    """The window's pixels as the X server holds them (32 bits a pixel at depth 24), as far as they are on the screen:
    the server refuses to read past its edge (BadMatch), where a window the size of the screen lands at 200 %."""
    geometry = window.get_geometry()
    screen = dpy.screen()
    origin = window.translate_coords(screen.root, 0, 0)  # the screen's corner in the window's coordinates
    left, top = max(0, origin.x), max(0, origin.y)
    width = max(0, min(geometry.width, screen.width_in_pixels + origin.x) - left)
    height = max(0, min(geometry.height, screen.height_in_pixels + origin.y) - top)
    image = window.get_image(left, top, width, height, X.ZPixmap, 0xFFFFFFFF)
    return width, height, bytes(image.data)


def colours(data: bytes) -> int:
    """How many distinct colours the pixels hold (the padding byte ignored)."""
    pixels = memoryview(data).cast("I")
    return len({p & 0xFFFFFF for p in pixels[:: 7]})


def write_ppm(path: str, width: int, height: int, data: bytes) -> None:
    """BGRX pixels as a binary PPM."""
    rgb = bytearray(width * height * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = data[2::4][: width * height], data[1::4][: width * height], data[0::4][: width * height]
    with open(path, "wb") as out:
        out.write(f"P6 {width} {height} 255\n".encode() + bytes(rgb))


def close_like_a_person(dpy: display.Display, window: Any) -> None:
    """What a window manager sends when the close button is pressed: WM_PROTOCOLS / WM_DELETE_WINDOW."""
    event = protocol.event.ClientMessage(
        window=window, client_type=dpy.intern_atom("WM_PROTOCOLS"),
        data=(32, [dpy.intern_atom("WM_DELETE_WINDOW"), X.CurrentTime, 0, 0, 0]))
    window.send_event(event, event_mask=X.NoEventMask)
    dpy.flush()


def main(wsi: str, out: str, loaded: str) -> dict[str, Any]:
    """Start `wsi`, wait for its window showing `loaded`, grab it, close it; what was seen."""
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    app = subprocess.Popen([wsi], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: dict[str, Any] = {"title": None, "size": None, "colours": 0}
    dpy = display.Display()
    deadline = time.monotonic() + WAIT_S
    try:
        window = None
        while window is None and app.poll() is None and time.monotonic() < deadline:
            window = find_mapped_window(dpy, loaded)
            time.sleep(0.2)
        if window is not None:
            seen["title"] = window_title(dpy, window)
            # The title changes when the load is in; the views paint right after: grab until they have.
            for _attempt in range(60):
                width, height, data = grab(dpy, window)
                seen["size"], seen["colours"] = [width, height], colours(data)
                if seen["colours"] >= 16:
                    break
                time.sleep(0.3)
            write_ppm(out, width, height, data)
            close_like_a_person(dpy, window)
        stdout, stderr = app.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        app.kill()
        stdout, stderr = app.communicate()
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        dpy.close()
    seen.update(exit=app.returncode, stderr=stderr[-2000:], stdout=stdout[-2000:])
    return seen


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], sys.argv[3])))
