"""A table's cells painted in one pass, from its model's row looks, as Qt's own delegate and style paint them (issue 28.3).

Qt paints a table cell by cell: per cell it asks the model through Python (`index`, `multiData`), hands the cell to a
delegate (through Python again where the column cuts ids in the middle) and to the style, which lays the text out
once to elide it and again to draw it. A cursor move after a pause repainted the Inputs table in about 5 ms, every
row another colour (the entries stop falling at the cap). Here the viewport's cells are painted by one loop: the
looks the model made for the move (`row_keys`, `looks_of`: font, alignment, foreground, text, background), each text's
elision kept from paint to paint, the backgrounds filled and the texts drawn with one QPainter.

What it draws is what Fusion draws, pixel for pixel (tests/gui/widgets/test_cell_painting.py compares the two): the
alternate rows' base and a selected row's highlight, a cell's background, its text between the style's margins
(`PM_FocusFrameHMargin` + 1 a side), placed as Qt's text layout places a line and cut where the column's delegate cuts
it (`elide.IdRowsElided`: ids in the middle; else the view's mode; a wrapped text as QCommonStyle cuts it, `_laid_out`),
the grid. A cell this loop does not draw as Qt would goes through Qt's own path (`_paint_as_qt`): the current cell
while the view has the focus (its focus frame), a row the selection holds in part, a column painted by a delegate of
another kind (a note mark's column has its texts drawn here and its marks by its delegate), a text of several lines.
Spans are not drawn (`can_paint` checks the first cell's only: the Inputs table sets none).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from PySide6.QtCore import QLineF, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QFontMetricsF, QPainter, QPalette, QPen, QRegion, QTextLayout, QTextOption
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTableView

from wsi_inspector.gui.widgets.elide import IdRowsElided, every_row, no_row

SHOWN_KEPT = 4096  # elided texts kept from paint to paint: the texts of a screenful many times over
LINE_BREAKS = ("\n", "\r", "\u2028", "\u2029")  # a text of several lines is laid out by Qt (its delegate's path)
ELIDE_MIDDLE = int(Qt.TextElideMode.ElideMiddle.value)
LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
TEXT, WITH_MARK, AS_QT = "text", "mark", "qt"  # how a column is painted (`_column_ways`)


class CellPainter:
    """Paints a table's cells in one pass; keeps the elided texts from paint to paint (`SHOWN_KEPT`)."""

    def __init__(self, table: QTableView):
        self.table = table
        self._shown: dict[tuple[Any, ...], tuple[str, float, float] | None] = {}  # a text in a cell → how it is shown (`_placed`)

    def can_paint(self) -> bool:
        """Whether the one pass paints the table as Qt would: a model with row looks, enabled, left to right, no spans,
        no widget on the viewport (an editor, which Qt paints its cell under)."""
        table = self.table
        return (getattr(table.model(), "looks_of", None) is not None and table.isEnabled()
                and table.layoutDirection() == Qt.LayoutDirection.LeftToRight and not table.viewport().children()
                and not table.verticalHeader().sectionsHidden() and not table.verticalHeader().sectionsMoved()
                and table.rowSpan(0, 0) == 1 and table.columnSpan(0, 0) == 1 and type(table.itemDelegate()) is QStyledItemDelegate)

    def paint(self, region: QRegion) -> None:
        """Paint the cells of the rows and columns `region` meets, then the grid (QTableView.paintEvent's order)."""
        table = self.table
        model = table.model()
        viewport = table.viewport()
        vertical, horizontal = table.verticalHeader(), table.horizontalHeader()
        if model.rowCount() == 0 or model.columnCount() == 0:
            return
        bounds = region.boundingRect()
        right_end = horizontal.length() - horizontal.offset() - 1  # the last column's last pixel
        bottom_end = vertical.length() - vertical.offset() - 1
        area = bounds.intersected(QRect(0, 0, right_end + 1, bottom_end + 1))
        if area.isEmpty():
            return
        first, last = table.rowAt(area.top()), table.rowAt(area.bottom())
        last = last if last >= 0 else model.rowCount() - 1
        if first < 0:
            return
        left, right = horizontal.visualIndexAt(area.left()), horizontal.visualIndexAt(area.right())
        right = right if right >= 0 else horizontal.count() - 1
        columns = [logical for logical in map(horizontal.logicalIndex, range(max(left, 0), right + 1))
                   if not horizontal.isSectionHidden(logical)]
        grid = 1 if table.showGrid() else 0
        places = [(column, table.columnViewportPosition(column), table.columnWidth(column) - grid) for column in columns]
        ways = self._column_ways(columns)
        palette = table.palette()
        group = QPalette.ColorGroup.Normal if table.isActiveWindow() else QPalette.ColorGroup.Inactive
        text_colour, alternate = palette.color(group, QPalette.ColorRole.Text), palette.color(group, QPalette.ColorRole.AlternateBase)
        highlight, highlighted_text = palette.color(group, QPalette.ColorRole.Highlight), palette.color(group, QPalette.ColorRole.HighlightedText)
        alternating = table.alternatingRowColors()
        margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
        view_font, view_mode, wrap = table.font(), int(table.textElideMode().value), table.wordWrap()
        fonts: dict[int, FontFacts] = {}  # id of a look's font → what placing its texts needs
        current = table.currentIndex()
        focus = (current.row(), current.column()) if (table.hasFocus() or viewport.hasFocus()) and current.isValid() else None
        selected, partly = _selected_rows(table.selectionModel(), first, last, model.columnCount())
        left_edge, right_edge = places[0][1] if places else 0, places[-1][1] + places[-1][2] + grid if places else 0
        painter = QPainter(viewport)
        try:
            pen: QColor | None = None
            painter_font: QFont | None = None
            as_qt: list[tuple[int, int, QRect, bool]] = []  # cells Qt's own path paints after the loop (True: a mark only)
            # A repaint of the cells that changed (StillRowsTable._repaint_changed) asks for a region of a few
            # rectangles: a cell none of them meets is left as it is (the painter would cut all of it away).
            dirty = ([(rect.left(), rect.top(), rect.right(), rect.bottom()) for rect in region]  # type: ignore[attr-defined]  # iterable at run time
                     if region.rectCount() > 1 else None)
            for row, key in zip(range(first, last + 1), model.row_keys(first, last)):  # type: ignore[attr-defined]
                top, height = table.rowViewportPosition(row), table.rowHeight(row) - grid
                band = None if dirty is None else [(left, right) for left, upper, right, lower in dirty
                                                   if upper <= top + height and lower >= top]
                if band is not None and not band:
                    continue  # nothing of this row to paint
                looks = model.looks_of(key)  # type: ignore[attr-defined]
                chosen = row in selected
                if chosen or (alternating and row % 2 == 1):  # the row's panel (its columns' grid lines drawn over it)
                    painter.fillRect(QRect(left_edge, top, right_edge - left_edge, height), highlight if chosen else alternate)
                for column, x, width in places:
                    if band is not None and not any(left <= x + width and right >= x for left, right in band):
                        continue
                    way, cut = ways[column]
                    font, align, foreground, text, background = looks[column]
                    if way is AS_QT or row in partly or (focus is not None and focus == (row, column)):
                        as_qt.append((row, column, QRect(x, top, width, height), False))  # another delegate's, or its frame
                        continue
                    if background is not None and not chosen:
                        painter.fillRect(x, top, width, height, background)
                    if text:
                        if cut is None:
                            mode = view_mode
                        elif isinstance(cut, IdRowsElided):  # ids in the middle where the delegate says so
                            mode = ELIDE_MIDDLE if cut.is_id(model.index(row, column)) else view_mode
                        else:
                            mode = cut
                        font = font if font is not None else view_font
                        facts = fonts.get(id(font))
                        if facts is None:
                            facts = fonts[id(font)] = _font_facts(font)
                        placed = self._placed(text, facts, mode, width - 2 * margin, height, align if align is not None else LEFT, wrap)
                        if placed is None:  # shown over several lines: Qt lays it out
                            as_qt.append((row, column, QRect(x, top, width, height), False))
                            continue
                        if painter_font is not facts.font:
                            painter.setFont(font)
                            painter_font = facts.font
                        colour = highlighted_text if chosen else foreground if foreground is not None else text_colour
                        if pen is not colour:
                            painter.setPen(colour)
                            pen = colour
                        shown, left_offset, baseline = placed
                        at = QPointF(x + margin + left_offset, top + baseline)
                        if baseline - facts.ascent < 0 or baseline - facts.ascent + facts.height > height:
                            painter.setClipRect(x, top, width, height)  # a line taller than its cell: cut there, as Qt's style cuts it
                            painter.drawText(at, shown)
                            painter.setClipping(False)
                        else:
                            painter.drawText(at, shown)
                    if way is WITH_MARK:
                        as_qt.append((row, column, QRect(x, top, width, height), True))  # its mark, drawn by its delegate over the text
            for row, column, cell, mark_only in as_qt:
                self._paint_as_qt(painter, row, column, cell, mark_only, focus == (row, column))
            if grid:
                option = QStyleOptionViewItem()
                table.initViewItemOption(option)  # Fusion's grid is the option's palette's Window, darker
                hint = table.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, option, table)
                painter.setPen(QPen(QColor.fromRgba(hint & 0xFFFFFFFF), 1, table.gridStyle()))
                # Through the middle of the pixels (at 1.5× they fall where Qt's do); all in one call.
                painter.drawLines([QLineF(area.left() + 0.5, y, area.right() + 0.5, y)
                                   for y in (table.rowViewportPosition(row) + table.rowHeight(row) - 0.5 for row in range(first, last + 1))]
                                  + [QLineF(x + width + 0.5, area.top() + 0.5, x + width + 0.5, area.bottom() + 0.5) for _column, x, width in places])
        finally:
            painter.end()

    def _column_ways(self, columns: list[int]) -> dict[int, tuple[str, Any]]:
        """How each column is painted and where its texts are cut: (TEXT, cut) drawn here; (WITH_MARK, cut) a note mark's
        column, its texts drawn here and its marks by its delegate; (AS_QT, None) a delegate of another kind paints it.
        The cut: None (the view's elide mode), ElideMiddle (a column of ids), or the IdRowsElided that names its id rows."""
        ways: dict[int, tuple[str, Any]] = {}
        for column in columns:
            delegate = self.table.itemDelegateForColumn(column)
            if delegate is None:
                ways[column] = (TEXT, None)
                continue
            if not isinstance(delegate, IdRowsElided) or (type(delegate) is not IdRowsElided and not hasattr(delegate, "paint_mark")):
                ways[column] = (AS_QT, None)
                continue
            cut = ELIDE_MIDDLE if delegate.is_id is every_row else None if delegate.is_id is no_row else delegate
            ways[column] = (TEXT if type(delegate) is IdRowsElided else WITH_MARK, cut)
        return ways

    def _placed(self, text: str, facts: FontFacts, mode: int, room: int, height: int, align: int,
                wrap: bool) -> tuple[str, float, float] | None:
        """`text` as Qt's style shows it in a cell `room` px wide between its margins and `height` high: the text shown
        (whole, or cut), its left offset in the room and its baseline below the cell's top; None: shown over lines.

        Kept from paint to paint. A line of ASCII that fits is placed from the font's line (`_font_facts`); any other
        text is laid out as QCommonStyle lays it out (`_laid_out`): word-wrapped where the view wraps, the last line
        shown ending in "…"."""
        key = (text, facts.key, mode, room, height, align, wrap)
        if key in self._shown:
            return self._shown[key]
        if len(self._shown) >= SHOWN_KEPT:
            self._shown.clear()
        if text.isascii() and text.isprintable() and not text.endswith(" "):
            advance = round(facts.metrics.horizontalAdvance(text) * 64)  # Qt's text engine counts in 64ths
            if advance <= room * 64:
                placed = self._shown[key] = (text, _aligned(align, room * 64, advance), _vertical(align, height, facts.height) + facts.ascent)
                return placed
        several = any(breaks in text for breaks in LINE_BREAKS)  # lines: Qt's own path
        laid_out = self._shown[key] = None if several else _laid_out(text, facts.font, Qt.TextElideMode(mode), room, height, align, wrap)
        return laid_out

    def _paint_as_qt(self, painter: QPainter, row: int, column: int, cell: QRect, mark_only: bool, focus: bool) -> None:
        """Paint a cell as QTableView does (its row's panel, then its delegate); `mark_only`: a note mark's cell whose
        text the one pass drew, only its mark."""
        table = self.table
        index = table.model().index(row, column)
        delegate = table.itemDelegateForIndex(index)
        if mark_only:
            delegate.paint_mark(painter, cell, index)  # type: ignore[attr-defined]  # WITH_MARK's
            return
        option = QStyleOptionViewItem()
        table.initViewItemOption(option)
        option.rect = cell
        if table.alternatingRowColors():
            if row % 2:
                option.features |= QStyleOptionViewItem.ViewItemFeature.Alternate
            else:
                option.features &= ~QStyleOptionViewItem.ViewItemFeature.Alternate
        if table.selectionModel() is not None and table.selectionModel().isSelected(index):
            option.state |= QStyle.StateFlag.State_Selected
        if focus:
            option.state |= QStyle.StateFlag.State_HasFocus
        option.palette.setCurrentColorGroup(QPalette.ColorGroup.Normal if table.isActiveWindow() else QPalette.ColorGroup.Inactive)
        painter.save()
        table.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewRow, option, painter, table)
        delegate.paint(painter, option, index)
        painter.restore()


def _aligned(align: int, width64: int, advance64: int) -> float:
    """A line's left offset in its room, as Qt's text engine aligns it (QTextEngine::alignLine, in 64ths of a px)."""
    if align & Qt.AlignmentFlag.AlignRight:
        return (width64 - advance64) / 64
    if align & Qt.AlignmentFlag.AlignHCenter:
        return int((width64 - advance64) / 2) / 64  # QFixed's division: towards zero
    return 0.0


def _vertical(align: int, height: int, line_height: int) -> int:
    """The top of a text `line_height` high in a cell `height` high (QStyle::alignedRect; C++'s division)."""
    if align & Qt.AlignmentFlag.AlignBottom:
        return height - line_height
    if align & Qt.AlignmentFlag.AlignVCenter:
        return int((height - line_height) / 2)
    return 0


def _lines(layout: QTextLayout, width: int, most: int = -1) -> int:
    """Lay `layout` out in lines `width` wide (QCommonStyle's viewItemTextLayout); with `most`, stop at the last line
    that fits in `most` px and return its number where more text follows (else -1)."""
    last = -1
    height = 0.0
    layout.beginLayout()
    number = 0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        line.setPosition(QPointF(0, height))
        height += line.height()
        if most > 0 and height + line.height() > most:
            last = number if layout.createLine().isValid() else -1
            break
        number += 1
    layout.endLayout()
    return last


def _laid_out(text: str, font: QFont, mode: Qt.TextElideMode, room: int, height: int, align: int,
              wrap: bool) -> tuple[str, float, float] | None:
    """What QCommonStyle shows of `text` in a cell (calculateElidedText, then viewItemDrawText's layout): the text,
    its left offset and baseline; None when it is shown over more than one line."""
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap if wrap else QTextOption.WrapMode.ManualWrap)
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    option.setAlignment(Qt.AlignmentFlag(align))
    layout = QTextLayout(text, font)
    layout.setTextOption(option)
    last_visible = _lines(layout, room, height if align & Qt.AlignmentFlag.AlignVCenter else -1)
    top = float(_vertical(align, height, layout.boundingRect().size().toSize().height()))
    shown, depth, count = "", 0.0, layout.lineCount()
    for number in range(count):
        line = layout.lineAt(number)
        depth += line.height()
        if depth + top <= 0:
            top += line.height()  # above the cell
            continue
        part = text[line.textStart():line.textStart() + line.textLength()]
        elided = line.naturalTextWidth() > room
        last = last_visible == number
        if not elided and number + 1 < count and int(depth + layout.lineAt(number + 1).height() / 2) + top > height:
            last = True  # less than half the next line would show
        if elided or last:
            if last:
                part = part.removesuffix("\u2028") + "\u2026"
            shown += QFontMetrics(font).elidedText(part, mode, room)
            if number < count - 1 and not shown.endswith("\u2028"):
                shown += "\u2028"
        else:
            shown += part
        if depth + top >= height - 1 or last_visible == number:  # the cell's bottom (QRect.bottom: its last pixel)
            break
    drawn = QTextLayout(shown, font)
    drawn.setTextOption(option)
    _lines(drawn, room)
    lines = [drawn.lineAt(number) for number in range(drawn.lineCount())]
    if not lines or any(shown[line.textStart():line.textStart() + line.textLength()].strip("\u2028") for line in lines[1:]):
        return None  # a second line with text: Qt's own path draws them
    line = lines[0]
    advance = round(line.naturalTextWidth() * 64)
    return shown.rstrip("\u2028"), _aligned(align, room * 64, advance), top + line.ascent()


class FontFacts(NamedTuple):
    """A font and what placing a line of it takes: its key (texts are kept per font), the ascent and the height of a
    line as Qt's text layout places it (the height rounded up from the ascent and descent: what Qt's style centres in
    a cell), its metrics."""

    font: QFont
    key: str
    ascent: float
    height: int
    metrics: QFontMetricsF


def _font_facts(font: QFont) -> FontFacts:
    """`font`'s FontFacts, from a line laid out in it."""
    layout = QTextLayout("x", font)
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    return FontFacts(font, font.key(), line.ascent(), round(layout.boundingRect().height()), QFontMetricsF(font))


def _selected_rows(selection: Any, first: int, last: int, columns: int) -> tuple[set[int], set[int]]:
    """The rows from `first` to `last` the selection holds whole, and those it holds in part (a few ranges)."""
    whole: set[int] = set()
    part: set[int] = set()
    if selection is None:
        return whole, part
    ranges = selection.selection()
    for number in range(ranges.size()):
        selected = ranges.at(number)
        if selected.parent().isValid():
            continue
        rows = range(max(selected.top(), first), min(selected.bottom(), last) + 1)
        (whole if selected.left() == 0 and selected.right() == columns - 1 else part).update(rows)
    return whole - part, part
