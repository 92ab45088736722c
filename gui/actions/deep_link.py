"""Deep links: `wsi gui FILE --at B --tab run` opens FILE with the cursor at body B and that tab in front.

A bug report can then say exactly where to look. Without `--at` and `--tab`, a repro (a file with
`session.cut`, wsi_inspector.core.reduce.repro) opens at the body it was cut after, on the tab it was saved from. The cursor moves once the file has loaded (the
Run tab puts B's code in its editor); a B the file does not have is said in the notice bar, and
the window stays at the end of the session.
"""
from __future__ import annotations

import html

from wsi_inspector.gui.window.context import InspectorContext
from wsi_inspector.gui.window.services import WindowServices


def follow_link(context: InspectorContext, services: WindowServices, at: str | None, tab: str | None = None) -> None:
    """After the window's next load, move the cursor to body `at` and bring `tab` to the front."""
    if tab:
        services.show_tab(tab)
    if at is None:
        if tab is None:
            follow_saved_place(context, services)
        return

    def arrived() -> None:
        services.load_finished.disconnect(arrived)
        session = context.session
        if session is None:
            return
        body = session.body(at)
        if body is None:
            known = ", ".join(b.key for b in session.bodies[:12]) or "none"
            services.notify(
                f"<b>--at {html.escape(at)}</b>: {html.escape(session.name)} has no body {html.escape(repr(at), quote=False)}; "
                f"its bodies are: {html.escape(known)}. The cursor stays at the end of the session.", "warning")
            return
        context.choose_body(body)
        if tab:
            services.show_tab(tab)

    services.load_finished.connect(arrived)


def follow_saved_place(context: InspectorContext, services: WindowServices) -> None:
    """After the next load, open a repro where it was saved: its `session.cut.body`, on its `session.cut.tab`."""
    def arrived() -> None:
        services.load_finished.disconnect(arrived)
        session = context.session
        cut = session.info.get("cut") if session is not None else None
        if session is None or not isinstance(cut, dict) or cut.get("body") is None:
            return
        body = session.body(cut["body"])
        if body is not None:
            context.choose_body(body)
        tab = cut.get("tab")
        if isinstance(tab, str) and services.view(tab) is not None:
            services.show_tab(tab)

    services.load_finished.connect(arrived)
