"""What every view draws with: the item roles, the shared colours and tags, fonts, status icons, column widths.

The colours are wsi_inspector.gui.window.theme's shared QColors (changed in place when the palette turns dark or light),
so a model that returns `PERSON` follows the theme without being told.
"""
from __future__ import annotations

import heapq
import importlib.resources
from collections.abc import Iterable
from functools import cache

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, QModelRoleDataSpan, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontInfo, QFontMetrics, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSplitter, QTableView, QTreeView, QWidget

from wsi_inspector.gui.widgets.splitter_room import room_for, widen_later
from wsi_inspector.gui.window.theme import colour

Index = QModelIndex | QPersistentModelIndex
DISPLAY, TOOLTIP, FONT = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole
FOREGROUND, BACKGROUND = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole
DECORATION, ALIGN, USER = Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.UserRole
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
CENTRE = int(Qt.AlignmentFlag.AlignCenter)
# What Qt 6's item delegate asks of each cell it paints, in one multiData call, in this order
# (QStyledItemDelegate::initStyleOption): a model answering it there is called once per cell, not seven times.
DELEGATE_ROLES = tuple(map(int, (FONT, ALIGN, FOREGROUND, Qt.ItemDataRole.CheckStateRole, DECORATION, DISPLAY, BACKGROUND)))

# Shared colours of the theme in use (wsi_inspector.gui.window.theme): light or dark after the palette, changed in place.
PERSON = colour("person")  # the person's-edit marker, on every view
PERSON_BACKGROUND = colour("person_background")
HIGHLIGHT = colour("highlight")  # the resolver's answer
READ_FOREGROUND = colour("ok")  # the mark of an entry the cursor's body read (READ_MARK)
READ_BACKGROUND = colour("read_background")  # a path the cursor's body read (SPEC 7): green, not the selection's blue
CURSOR_BACKGROUND = colour("cursor_background")
MUTED = colour("muted")
STATUS_COLOURS = {"ok": "#1a8f4c", "failed": "#c62828", "refused": "#d97706", "none": "#9ca3af",
                  "error": "#c62828", "warning": "#d97706", "person": "#b25b00", "end": "#2563eb",
                  "kept": "#7c3aed", "same": "#1a8f4c", "diverged": "#c62828",
                  "same-failed": "#d97706",  # replays as recorded, and the record is a failure: not a green "same"
                  "recorded-ok": "#9ca3af"}  # ran ok as recorded, but its replay differs: grey, not a green ✓ beside ≠
STATUS_GLYPHS = {"ok": "✓", "failed": "✗", "refused": "!", "none": "·", "error": "✗", "warning": "!",
                 "person": "✎", "end": "■", "kept": "K", "same": "=", "diverged": "≠", "same-failed": "=", "recorded-ok": "✓"}
BADGE_WORDS = {"same-failed": "same ✗"}  # a replay badge as a column shows it (the rest as they are)
BADGE_TIPS = {"same": "replays as recorded", "same-failed": "replays as recorded, and fails as recorded (the same error)",
              "failed": "the replay failed where the record did not", "diverged": "the replay differs from the record"}
REPLAY_NOT_SAME = ("diverged", "failed")  # replay badges that say the body no longer comes out as recorded
PERSON_TAG = "✎ person"
PERSON_MARK = "✎"  # the same, where a column is only as wide as its mark (the words in its tooltip)
READ_MARK = "●"  # an entry the cursor's body read, in a column as narrow as the mark (the read in its tooltip)
FALLS_TAG = "⤓ falls"  # an entry the cap trims before a body runs


def delegate_asks(span: QModelRoleDataSpan) -> bool:
    """True when a multiData request is the delegate's (DELEGATE_ROLES, in their order): two roles are looked at."""
    return len(span) == len(DELEGATE_ROLES) and span[5].role() == DELEGATE_ROLES[5] and span[0].role() == DELEGATE_ROLES[0]  # type: ignore[arg-type, index]  # a sequence at run time; PySide6's stub has no __len__, __getitem__


SHIPPED_FONTS = ("DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf")  # resources/fonts, with LICENSE-DejaVu.txt
SHIPPED_FAMILY = "DejaVu Sans Mono"


@cache
def shipped_family() -> str | None:
    """Register the monospace font the package ships (once per process); its family, or None when it cannot load.

    Ids, calls, code and JSON are drawn with it on every machine, so widths measured here are the
    widths everywhere (a machine whose fixed font is Noto Sans Mono drew them wider than the columns
    fitted for another). Without it (a broken install) the system's fixed font is used.
    """
    folder = importlib.resources.files("wsi_inspector.resources") / "fonts"
    families: list[str] = []
    for name in SHIPPED_FONTS:
        with importlib.resources.as_file(folder / name) as path:
            font_id = QFontDatabase.addApplicationFont(str(path)) if path.is_file() else -1
        families += QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    return SHIPPED_FAMILY if SHIPPED_FAMILY in families else None


@cache
def monospace() -> QFont:
    """The font for ids, calls, sizes, code and JSON: the shipped DejaVu Sans Mono at the system's fixed size."""
    system = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font = QFont(system)
    family = shipped_family()
    # Ids, calls, sizes and JSON are text that needs no shaping (a script that does is still shaped):
    # shaping it anyway was a seventh of painting a table, and a cursor move repaints every row in view.
    # The family is named first: the strategy alone makes the font database pick another font.
    font.setFamily(family if family is not None else QFontInfo(system).family())
    font.setFixedPitch(True)
    font.setPointSizeF(max(system.pointSizeF(), 9.5))
    font.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)
    return font


@cache
def bold_monospace() -> QFont:
    """The monospace font, bold: the row the cursor is on."""
    font = QFont(monospace())
    font.setBold(True)
    return font


@cache
def status_icon(kind: str) -> QIcon:
    """A small round icon with a glyph: ok ✓, failed ✗, refused keep !, person ✎, …"""
    pixmap = QPixmap(32, 32)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(STATUS_COLOURS.get(kind, "#9ca3af")))
    painter.drawEllipse(QRectF(2, 2, 28, 28))
    painter.setPen(QColor("white"))
    font = QFont()
    font.setPixelSize(19)
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(QRectF(0, 0, 32, 32), Qt.AlignmentFlag.AlignCenter, STATUS_GLYPHS.get(kind, "?"))
    painter.end()
    icon = QIcon(pixmap)
    icon.addPixmap(pixmap, QIcon.Mode.Selected)  # its own colours when selected: a red ✗ tinted by the selection read purple
    return icon


CELL_PADDING = 18  # a cell's margins and the header's sort arrow
CELL_MARGIN = 10  # a cell's margins alone (3 px a side, and some): a column's texts need no room for the header's arrow
WIDEST_SAMPLED = 24  # texts measured per column: the longest by characters (ids and calls are monospace)


def fit_column(view: QAbstractItemView, column: int, texts: Iterable[str], least: int = 36, most: int = 420,
               extra: int = 0, mark: bool = False) -> int:
    """Size a column to its widest text and its title, between `least` and `most` pixels; returns the width.

    The texts need their cell's margins; the title those and room for the header's sort arrow, but where the
    column is a `mark` (one glyph, ✎ or ●, its words in the tooltips), as narrow as its glyph: at 1024 px the
    Inputs table's calls are whole beside two marks.

    Wider texts are cut where their column cuts them (its delegate's say, else the view's mode, which is left
    alone: an id column asks for the middle with `elide.ids_in_the_middle`, prose ends in "…"), their full
    text in the tooltip. `extra` is room for an icon. Only the longest few texts are measured: a monospace font's width
    follows the characters, and a 100,000-row column is not walked twice.
    """
    metrics = QFontMetrics(monospace())
    longest = heapq.nlargest(WIDEST_SAMPLED, texts, key=len)
    header = view.horizontalHeader() if isinstance(view, QTableView) else getattr(view, "header", lambda: None)()
    title = str(view.model().headerData(column, Qt.Orientation.Horizontal) or "")
    title_width = header.fontMetrics().horizontalAdvance(title) if header is not None else 0
    texts_width = max((metrics.horizontalAdvance(text) for text in longest), default=0)
    width = max(texts_width + CELL_MARGIN, title_width + (CELL_MARGIN if mark else CELL_PADDING)) + extra
    width = max(least, min(most, width))
    if header is not None:
        if header.minimumSectionSize() > width:  # Qt's least section (26 px) is wider than a mark's
            header.setMinimumSectionSize(width)
        header.resizeSection(column, width)
    return width


def share_width(table: QTableView, column: int, wanted: int, leave: int, least: int = 170,
                splitter: QSplitter | None = None, keep: int = 0) -> None:
    """Give `column` its `wanted` width when the table has room, else what leaves `leave` px to the
    stretched column (never under `least`): long calls are cut in the middle, the shape stays readable.

    With a `splitter` (two panes, the table in one) a table short of room takes it from the other pane,
    down to `keep` px there, once the splitter has its new width (`splitter_room`): ids whole before the prose
    beside them (docs/window.md, "Nothing cut off"). A handle the person dragged stays where they put it
    until the splitter's width changes (the window's, the dock's), a pane or the table's scroll bar shows or
    hides, or the calls shown change.
    """
    room = room_for(table, column)
    if splitter is not None:
        widen_later(table, splitter, column, wanted, leave, keep)
    table.horizontalHeader().resizeSection(column, min(wanted, max(least, room - leave)))


def header_apart(view: QTableView | QTreeView) -> QHeaderView:
    """Keep the view's column header out of its row selection; returns the header.

    A header shares its view's selection model and repaints whole whenever the selection changes
    (every cursor move that chooses another row: 0.2–0.3 ms a header). Given a selection model of its
    own it repaints when its sections do. A table's titles no longer turn bold while a row is chosen
    (Qt's highlight of the columns a selection crosses): they read the same, chosen row or none, and
    as wide as `fit_column` measured them. Call it after `setModel`.
    """
    header = view.horizontalHeader() if isinstance(view, QTableView) else view.header()
    header.setSelectionModel(QItemSelectionModel(view.model(), header))
    return header


class StillHeader(QHeaderView):
    """A tree's column header that stays as it is when only the tree's rows change.

    A tree lays its header out after every change of its rows (an entry shown, a node expanded), and
    a header laid out, or its stretched section fitted again, repaints whole though no section moved.
    Here that happens only when the sections may move: their number is not the model's columns', one
    fits its contents, or the header's width or hidden sections changed since they were last fitted.
    """

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None):
        super().__init__(orientation, parent)
        self._fitted_to: tuple[int, int, int] | None = None  # sections, hidden ones and width when last fitted

    def _sections_stand(self) -> bool:
        model = self.model()
        fitted = QHeaderView.ResizeMode.ResizeToContents
        return (model is not None and self.count() == model.columnCount(self.rootIndex())
                and all(self.sectionResizeMode(section) != fitted for section in range(self.count())))

    def doItemsLayout(self) -> None:  # noqa: N802 — Qt's slot
        if not self._sections_stand():
            super().doItemsLayout()

    def updateGeometries(self) -> None:  # noqa: N802 — Qt's slot
        shape = (self.count(), self.hiddenSectionCount(), self.viewport().width())
        if shape == self._fitted_to and self._sections_stand():
            return
        self._fitted_to = shape
        super().updateGeometries()


def still_header(tree: QTreeView) -> QHeaderView:
    """Give `tree` a `StillHeader` set as Qt sets a tree's own, kept out of its row selection
    (`header_apart`); returns it. Call it after `setModel`."""
    header = StillHeader(Qt.Orientation.Horizontal, tree)
    header.setSectionsMovable(True)
    header.setStretchLastSection(True)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    tree.setHeader(header)
    return header_apart(tree)


def size_tooltip(n: int) -> str:
    """Exact bytes, for the tooltip of a size shown in KiB/MiB."""
    return f"{n:,} bytes"


def row_table(model: QAbstractItemModel, name: str, alternating: bool = True) -> QTableView:
    """A table that selects one whole row, no row numbers, the last column stretched: where every tab's table starts."""
    table = QTableView()
    table.setObjectName(name)
    table.setModel(model)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setAlternatingRowColors(alternating)
    table.verticalHeader().setVisible(False)
    header = header_apart(table)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    return table
