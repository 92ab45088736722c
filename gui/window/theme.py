"""The window's colours, light or dark after the application palette (the system's, or `WSI_THEME`).

Every colour a view draws with has a name here, with a light and a dark value chosen to read on
the palette's Base and Window colours. Views use `colour(name)` (a QColor) or `hex_of(name)` (for
rich text and style sheets). The QColor `colour(name)` returns is one shared object, changed in
place when the palette turns from light to dark or back, so table models that return it (and
modules that imported it, such as `wsi_inspector.gui.window.look.PERSON`) follow without being told.

`WSI_THEME=dark` or `light` overrides the system; by default a dark system palette (or Qt's dark
colour scheme) gives the dark theme.
"""
from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QProxyStyle, QScrollBar, QStyle, QStyleOptionComplex, QStyleOptionSlider, QWidget

LIGHT: dict[str, str] = {
    "person": "#a15200", "person_background": "#fff1de", "person_written": "#ffd9a8",
    "model": "#2f6db5", "model_written": "#e4dcf5", "model_ancestor": "#f3effa",  # violet-grey: not the selection's blue
    "highlight": "#fff5b8", "read_background": "#d7f5e3", "cursor_background": "#dbe9ff", "muted": "#6b7280", "faint": "#6b7280",
    "fallen_background": "#f3f3f3", "between_background": "#fde8c8",
    "ok": "#15803d", "error": "#b91c1c", "warning": "#b45309", "info": "#1e3a8a", "kept_ok": "#166534", "keep_refused": "#9a3412",
    "add": "#157a40", "remove": "#c62828", "replace": "#1f4fb8",
    "json_string": "#0b7a4b", "json_number": "#1f4fb8", "json_boolean": "#9c3d9a", "json_null": "#7a7a7a", "json_container": "#555555",
    "code_keyword": "#7c3aed", "code_builtin": "#0e7490", "code_function": "#1d4ed8", "code_name": "#111827",
    "code_string": "#b45309", "code_number": "#047857", "code_comment": "#6b7280", "code_operator": "#374151",
    "code_punctuation": "#4b5563", "error_line": "#fde2e1", "warning_line": "#fff4d6", "gutter": "#f3f4f6",
    "gutter_text": "#9ca3af", "gutter_error": "#dc2626",
    "notice_error": "#fde8e8", "notice_error_text": "#9b1c1c", "notice_warning": "#fff4e0", "notice_warning_text": "#8a4b00",
    "notice_info": "#e8f0fe", "notice_info_text": "#1e3a8a",
    "plot_background": "#ffffff", "plot_text": "#374151", "plot_ok": "#60a5fa", "plot_failed": "#f87171", "curve": "#4b5563",
    "header": "#f3f4f6", "header_text": "#374151", "grid": "#e5e7eb", "border": "#d1d5db",
    "selection": "#cfe0fc", "selection_text": "#111827", "status_text": "#374151",
    "focus": "#2563eb",  # the focus ring (wsi_inspector.gui.window.focus_ring): the accent, as the light palette's Highlight
}
DARK: dict[str, str] = {
    "person": "#f5a65b", "person_background": "#4a3217", "person_written": "#6b4317",
    "model": "#7fb2f0", "model_written": "#44385f", "model_ancestor": "#2c2638",
    "highlight": "#463c12", "read_background": "#1d4a33", "cursor_background": "#1f3b63", "muted": "#a3aab5", "faint": "#8b929c",
    "fallen_background": "#2a2a2a", "between_background": "#4d3a1c",
    "ok": "#4ade80", "error": "#f87171", "warning": "#fbbf24", "info": "#93c5fd", "kept_ok": "#86efac", "keep_refused": "#fdba74",
    "add": "#4ade80", "remove": "#f87171", "replace": "#93c5fd",
    "json_string": "#6ee7b7", "json_number": "#93c5fd", "json_boolean": "#f0abfc", "json_null": "#a3a3a3", "json_container": "#c4c4c4",
    "code_keyword": "#c4a7ff", "code_builtin": "#67e8f9", "code_function": "#93c5fd", "code_name": "#e5e7eb",
    "code_string": "#fcd34d", "code_number": "#6ee7b7", "code_comment": "#9ca3af", "code_operator": "#d1d5db",
    "code_punctuation": "#c0c4cc", "error_line": "#5b2424", "warning_line": "#4d4120", "gutter": "#262626",
    "gutter_text": "#8b929c", "gutter_error": "#f87171",
    "notice_error": "#4c1d1d", "notice_error_text": "#fecaca", "notice_warning": "#4a3411", "notice_warning_text": "#fde68a",
    "notice_info": "#1e2f4f", "notice_info_text": "#bfdbfe",
    "plot_background": "#1e1e1e", "plot_text": "#d1d5db", "plot_ok": "#60a5fa", "plot_failed": "#f87171", "curve": "#c4c4c4",
    "header": "#2d2d2d", "header_text": "#d1d5db", "grid": "#3a3a3a", "border": "#4a4a4a",
    "selection": "#2f4f7f", "selection_text": "#ffffff", "status_text": "#d1d5db",
    "focus": "#60a5fa",  # the focus ring: a light blue that stands out on the dark Base and Window
}
DARK_PALETTE = {  # Fusion with these roles: the dark theme when the system gives none
    QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6", QPalette.ColorRole.Base: "#1e1e1e",
    QPalette.ColorRole.AlternateBase: "#262626", QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#333333",
    QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#2f65ca", QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.ToolTipBase: "#333333", QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.PlaceholderText: "#8a8a8a",
    QPalette.ColorRole.Link: "#8ab4f8", QPalette.ColorRole.BrightText: "#ffffff", QPalette.ColorRole.Light: "#444444",
    QPalette.ColorRole.Midlight: "#3a3a3a", QPalette.ColorRole.Mid: "#303030", QPalette.ColorRole.Dark: "#1a1a1a",
    QPalette.ColorRole.Shadow: "#000000",
}
LIGHT_TWEAKS = {  # on Fusion's standard light palette: a calm window, a clear selection
    QPalette.ColorRole.Window: "#f7f7f8", QPalette.ColorRole.AlternateBase: "#f7f9fc", QPalette.ColorRole.Highlight: "#2563eb",
    QPalette.ColorRole.ToolTipBase: "#ffffff", QPalette.ColorRole.ToolTipText: "#111827",
}

_shared: dict[str, QColor] = {}
_current = {"dark": False}


def is_dark(palette: QPalette | None = None) -> bool:
    """True when the palette's window is darker than its text (a dark theme)."""
    palette = palette if palette is not None else QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < palette.color(QPalette.ColorRole.WindowText).lightness()


def dark() -> bool:
    """Whether the dark colours are in use."""
    return _current["dark"]


def values() -> dict[str, str]:
    """The colour values of the theme in use, by name."""
    return DARK if _current["dark"] else LIGHT


def hex_of(name: str) -> str:
    """A colour of the theme in use as `#rrggbb`, for rich text and style sheets."""
    return values()[name]


def colour(name: str) -> QColor:
    """The shared QColor for `name`; it changes in place when the theme does."""
    shared = _shared.get(name)
    if shared is None:
        shared = _shared[name] = QColor(values()[name])
    return shared


def use_palette(palette: QPalette | None = None) -> bool:
    """Take light or dark colours after `palette` (default: the application's); True when that changed them."""
    wanted = is_dark(palette)
    if wanted == _current["dark"] and _shared:
        return False
    _current["dark"] = wanted
    for name, shared in _shared.items():
        shared.setRgba(QColor(values()[name]).rgba())
    return True


def system_prefers_dark() -> bool:
    """`WSI_THEME` when set (dark / light), else Qt's colour scheme, else the platform palette's lightness."""
    chosen = os.environ.get("WSI_THEME", "").strip().lower()
    if chosen in ("dark", "light"):
        return chosen == "dark"
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme != Qt.ColorScheme.Unknown:
        return scheme == Qt.ColorScheme.Dark
    return is_dark(QGuiApplication.palette())


def application_palette(base: QPalette, dark_wanted: bool) -> QPalette:
    """The palette the application uses: Fusion's standard light one with tweaks, or the dark one."""
    palette = QPalette(base)
    for role, value in (DARK_PALETTE if dark_wanted else LIGHT_TWEAKS).items():
        palette.setColor(role, QColor(value))
    if dark_wanted:
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return palette


WIDGET_RULES = {  # per class of widget, the few style rules the window adds to Fusion (`dress`)
    "QTabBar": "QTabBar::tab {{ padding: 6px 14px; }}",
    "QHeaderView": "QHeaderView::section {{ padding: 3px 6px; background: {header}; border: none; "
                   "border-right: 1px solid {grid}; border-bottom: 1px solid {border}; color: {header_text}; }}",
    "QLineEdit": "QLineEdit {{ padding: 3px 5px; }}",
    "QAbstractSpinBox": "QLineEdit {{ padding: 3px 5px; }}",  # sized as it was with the rule application-wide
    "QStatusBar": "QStatusBar QLabel {{ color: {status_text}; }}",
}


def widget_rules(widget: QWidget) -> str | None:
    """The style rules `widget` takes, in the theme's colours (None: it takes none)."""
    for name, rules in WIDGET_RULES.items():
        if widget.inherits(name):
            parent = widget.parentWidget()
            if name == "QLineEdit" and parent is not None and parent.inherits("QAbstractSpinBox"):
                return None  # a spin box's own line edit takes the rule from its spin box's sheet
            return rules.format(**values())
    return None


def dress(widget: QWidget) -> None:
    """Give one widget the window's look beyond Fusion: its style rules, or its colours.

    No style sheet is set on the application: with one, Qt paints every widget through its slower
    style-sheet style, and a cursor move repaints the tables and trees row by row. Only tab bars,
    headers, line edits, spin boxes and the status bar take rules (their own, small); tables and
    trees take their selection colours from their palette, tables their grid's from `GridStyle`.
    A widget that sets a sheet of its own keeps it (after the rules).
    """
    rules = widget_rules(widget)
    if rules is not None:
        _dress_with_rules(widget, rules)
        return
    roles: tuple[tuple[QPalette.ColorRole, str], ...] = ()
    if widget.inherits("QTableView") and _grid_style and widget.style() is not _grid_style[0]:
        widget.setStyle(_grid_style[0])
    if widget.inherits("QTableView") or widget.inherits("QTreeView"):
        roles = ((QPalette.ColorRole.Highlight, "selection"), (QPalette.ColorRole.HighlightedText, "selection_text"))
    if roles:
        palette = widget.palette()
        if any(palette.color(role) != QColor(values()[name]) for role, name in roles):
            for role, name in roles:
                palette.setColor(role, QColor(values()[name]))  # every colour group, as the style sheet did
            widget.setPalette(palette)


def _dress_with_rules(widget: QWidget, rules: str) -> None:
    """Set `rules` as the widget's sheet, followed by the sheet its owner set, if any (kept across theme turns)."""
    current, dressed = widget.styleSheet(), widget.property("wsiDressed")
    if current != dressed:  # the owner set a sheet of its own since (or cleared it)
        widget.setProperty("wsiOwnSheet", current)
    own = widget.property("wsiOwnSheet") or ""
    sheet = rules if not own else f"{rules}\n{own}" if "{" in own else f"{rules}\n* {{ {own} }}"
    widget.setProperty("wsiDressed", sheet)
    if current != sheet:
        widget.setStyleSheet(sheet)


SCROLL_GROOVE = QStyle.SubControl.SC_ScrollBarGroove
GROOVES_KEPT = 64  # scroll bar grooves kept drawn: every scroll bar of the window in each size it had lately


class LookStyle(QProxyStyle):
    """Fusion that dresses each widget as it is polished (`dress`), and draws a scroll bar's groove
    from a picture of it. The calls of the style that go through Python: once per widget polished,
    once per complex control painted (a scroll bar, a spin box), never per cell."""

    def __init__(self, key: str):
        super().__init__(key)
        self._grooves: dict[tuple[Any, ...], QPixmap] = {}

    def polish(self, target: Any) -> Any:  # noqa: D102 — QStyle's overloads: a widget, a palette, the application
        if isinstance(target, QWidget):
            super().polish(target)
            dress(target)
            if isinstance(target, QScrollBar) and target.style() is self:
                # Its groove, a picture as wide and high as the bar (`_groove`), covers every pixel: Qt need not paint
                # what lies beneath first. A cursor move scrolls the Inputs table and the timeline, and under their bars
                # Qt painted the timeline's dock (its title and frame), the views' frames and the bars' containers
                # again: 0.15 ms of each move, hot (issue 28.3).
                target.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, not self._transient(target))
            return None
        return super().polish(target)

    def unpolish(self, target: Any) -> Any:  # noqa: D102 — QStyle's overloads: a widget, the application
        if isinstance(target, QScrollBar):
            target.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)  # another style may leave pixels to what is beneath
        return super().unpolish(target)

    def _transient(self, bar: QScrollBar) -> bool:
        """A bar that fades in and out over its view: its groove is drawn as it fades, not from a picture."""
        return bool(self.styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, None, bar))

    def drawComplexControl(self, control: QStyle.ComplexControl, option: QStyleOptionComplex, painter: QPainter,  # noqa: N802
                           widget: QWidget | None = None) -> None:
        """A scroll bar's groove comes from `_groove`, the rest from Fusion.

        Fusion fills the groove with a gradient pixel by pixel: half a millisecond for a bar the height
        of a table, and a cursor move scrolls two or three of them. The groove does not change as the
        bar's handle moves: it is drawn once per size and colours, then copied.
        """
        if (control == QStyle.ComplexControl.CC_ScrollBar and isinstance(option, QStyleOptionSlider)
                and option.subControls & SCROLL_GROOVE
                and not self.styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, option, widget)):  # as in _transient
            painter.drawPixmap(option.rect.topLeft(), self._groove(option, painter, widget))
            rest = QStyleOptionSlider(option)
            rest.subControls = option.subControls & ~SCROLL_GROOVE
            super().drawComplexControl(control, rest, painter, widget)
            return
        super().drawComplexControl(control, option, painter, widget)

    def _groove(self, option: QStyleOptionSlider, painter: QPainter, widget: QWidget | None) -> QPixmap:
        """Fusion's groove of a scroll bar of this size, direction and colours, drawn once."""
        ratio = painter.device().devicePixelRatioF()
        size, palette = option.rect.size(), option.palette
        key = (option.orientation, size.width(), size.height(), ratio,  # Fusion draws it from Button and Window
               palette.button().color().rgba(), palette.window().color().rgba())
        groove = self._grooves.get(key)
        if groove is None:
            if len(self._grooves) >= GROOVES_KEPT:
                self._grooves.clear()
            groove = QPixmap(size * ratio)
            groove.setDevicePixelRatio(ratio)
            groove.fill(palette.window().color())
            alone = QStyleOptionSlider(option)
            alone.rect = QRect(QPoint(0, 0), size)
            alone.subControls = SCROLL_GROOVE
            drawing = QPainter(groove)
            super().drawComplexControl(QStyle.ComplexControl.CC_ScrollBar, alone, drawing, widget)
            drawing.end()
            self._grooves[key] = groove
        return groove


class GridStyle(QProxyStyle):
    """Fusion with the theme's grid colour, for tables: Fusion darkens the palette's Window for it, and
    the light theme's grid is lighter than any window. Only a table's own questions to its style go
    through Python here, a handful per paint (its cells' drawing stays in C++; its scroll bars and
    header keep the application's style)."""

    def styleHint(self, hint: QStyle.StyleHint, option: Any = None, widget: Any = None, returned: Any = None) -> int:  # noqa: N802
        if hint == QStyle.StyleHint.SH_Table_GridLineColor:
            rgba = QColor(values()["grid"]).rgba()
            return rgba - (1 << 32) if rgba >= 1 << 31 else rgba  # an int, as Qt's C++ signature has it
        return super().styleHint(hint, option, widget, returned)


_grid_style: list[GridStyle] = []  # made once, with the application's style; shared by every table


def apply_look(app: object) -> None:
    """Give the application Fusion (dressed: `LookStyle`) and the palette the system asks for (light or dark)."""
    assert isinstance(app, QApplication)
    if not _grid_style:
        _grid_style.append(GridStyle("Fusion"))
    app.setStyle(LookStyle("Fusion"))
    app.setPalette(application_palette(app.style().standardPalette(), system_prefers_dark()))
    use_palette(app.palette())


class PaletteFollower(QObject):
    """Turns the theme when the application's palette changes (the system switched to dark, say)."""

    changed = Signal()  # the theme turned: re-colour what was drawn with hex_of

    def __init__(self, parent: QObject):
        super().__init__(parent)
        use_palette()
        # Watch the window, not the whole application: a Python filter on the application is called
        # for every event of every widget, and while a worker thread holds the GIL each call waits
        # for it (1,400 events cost two seconds of the GUI thread while 20,000 edits were diffed).
        # Qt sends ApplicationPaletteChange to every window as well as to the application.
        parent.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt's hook
        if event.type() == QEvent.Type.ApplicationPaletteChange and watched is self.parent():
            if use_palette():
                for widget in QApplication.allWidgets():
                    dress(widget)
                self.changed.emit()
        return False
