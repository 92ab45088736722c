"""A body editor: line numbers, JavaScript/TypeScript highlighting from Pygments, marked error lines."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import (
    QFont,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from wsi_inspector.gui.window.look import monospace
from wsi_inspector.gui.window.theme import colour

STYLE = {  # Pygments token type (by name prefix) → (theme colour, bold, italic)
    "Keyword": ("code_keyword", True, False),
    "Name.Builtin": ("code_builtin", False, False),
    "Name.Function": ("code_function", False, False),
    "Name.Other": ("code_name", False, False),
    "Literal.String": ("code_string", False, False),
    "Literal.Number": ("code_number", False, False),
    "Comment": ("code_comment", False, True),
    "Operator": ("code_operator", False, False),
    "Punctuation": ("code_punctuation", False, False),
}
# The theme's shared colours (wsi_inspector.gui.window.theme): light or dark after the palette.
ERROR_LINE = colour("error_line")
WARNING_LINE = colour("warning_line")
GUTTER = colour("gutter")
GUTTER_TEXT = colour("gutter_text")
GUTTER_ERROR = colour("gutter_error")


@lru_cache(maxsize=2)
def _lexer(lang: str) -> Any:
    from pygments.lexers import JavascriptLexer, TypeScriptLexer

    return TypeScriptLexer() if lang == "ts" else JavascriptLexer()


def _format_for(token: Any, cache: dict[Any, QTextCharFormat | None]) -> QTextCharFormat | None:
    if token in cache:
        return cache[token]
    name = str(token).removeprefix("Token.")
    chosen = None
    for prefix, (colour_name, bold, italic) in STYLE.items():
        if name == prefix or name.startswith(prefix + "."):
            chosen = QTextCharFormat()
            chosen.setForeground(colour(colour_name))
            if bold:
                chosen.setFontWeight(QFont.Weight.DemiBold)
            chosen.setFontItalic(italic)
            break
    cache[token] = chosen
    return chosen


class PygmentsHighlighter(QSyntaxHighlighter):
    """Highlights each block with Pygments' JavaScript or TypeScript lexer.

    Block by block, so a multi-line comment or template string is only coloured as such on its
    first line; bodies are short and the cost of a whole-document lex per keystroke is not worth it.
    """

    def __init__(self, document: QTextDocument, lang: str = "js"):
        super().__init__(document)
        self.lang = lang
        self._formats: dict[Any, QTextCharFormat | None] = {}

    def set_lang(self, lang: str) -> None:
        """Switch lexers and re-colour the document."""
        if lang != self.lang:
            self.lang = lang
            self.rehighlight()

    def recolour(self) -> None:
        """The theme turned: formats are made again with its colours."""
        self._formats.clear()
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:  # noqa: N802 — Qt's hook
        position = 0
        for token, value in _lexer(self.lang).get_tokens(text):
            length = len(value)
            if value.endswith("\n") and position + length > len(text):
                length -= 1
            chosen = _format_for(token, self._formats)
            if chosen is not None and length > 0:
                self.setFormat(position, length, chosen)
            position += len(value)


class LineNumberArea(QWidget):
    """The gutter beside the editor: line numbers, the error line's number in red."""

    def __init__(self, editor: CodeEditor):
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt's hook
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """A monospace editor for a body, with line numbers, highlighting and marked lines."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFont(monospace())
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 2)
        self.gutter = LineNumberArea(self)
        self.highlighter = PygmentsHighlighter(self.document())
        self.marks: dict[int, tuple[str, str]] = {}  # line → (kind "error"|"warning", message)
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._update_gutter)
        self._update_gutter_width()

    def set_lang(self, lang: str) -> None:
        """Highlight as JavaScript ("js") or TypeScript ("ts")."""
        self.highlighter.set_lang(lang)

    def set_code(self, code: str, lang: str = "js") -> None:
        """Replace the text (not modified afterwards) and clear the marks."""
        self.highlighter.lang = lang
        self.setPlainText(code)
        self.document().setModified(False)
        self.clear_marks()

    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 12 + self.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def _update_gutter_width(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _update_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        area = self.contentsRect()
        self.gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), area.height()))

    def paint_gutter(self, event: QPaintEvent) -> None:
        """Draw the line numbers of the visible blocks."""
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), GUTTER)
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            bottom = top + round(self.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                line = block.blockNumber() + 1
                kind = self.marks.get(line, ("", ""))[0]
                painter.setPen(GUTTER_ERROR if kind == "error" else GUTTER_TEXT)
                painter.drawText(0, top, self.gutter.width() - 6, height, Qt.AlignmentFlag.AlignRight, str(line))
            block = block.next()
            top = bottom
        painter.end()

    def mark_line(self, line: int, kind: str = "error", message: str = "", column: int | None = None) -> None:
        """Colour line `line` (1-based) as an error or a warning; its tooltip says `message`."""
        if not 1 <= line <= self.blockCount():
            return
        current = self.marks.get(line)
        if current is None or current[0] != "error":
            self.marks[line] = (kind, message)
        self._apply_marks()
        if kind == "error":
            self.go_to(line, column)

    def clear_marks(self) -> None:
        """No line marked."""
        self.marks.clear()
        self._apply_marks()

    def go_to(self, line: int, column: int | None = None) -> None:
        """Put the text cursor at line:column (1-based) and show it."""
        block = self.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return
        cursor = QTextCursor(block)
        if column:
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=min(column - 1, max(block.length() - 1, 0)))
        self.setTextCursor(cursor)
        self.centerCursor()

    def mark_at(self, line: int) -> tuple[str, str] | None:
        """The mark of a line, if any."""
        return self.marks.get(line)

    def _apply_marks(self) -> None:
        selections = []
        for line, (kind, _message) in sorted(self.marks.items()):
            block = self.document().findBlockByNumber(line - 1)
            if not block.isValid():
                continue
            selection = QTextEdit.ExtraSelection()
            line_format = QTextCharFormat()
            line_format.setBackground(ERROR_LINE if kind == "error" else WARNING_LINE)
            line_format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selection.format = line_format
            selection.cursor = QTextCursor(block)
            selections.append(selection)
        self.setExtraSelections(selections)
        self.gutter.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 — Qt's hook
        """The text, then each marked line's message beside its code, as a debugger's editor does."""
        super().paintEvent(event)
        if not self.marks:
            return
        painter = QPainter(self.viewport())
        metrics = self.fontMetrics()
        offset = self.contentOffset()
        for line, (kind, message) in self.marks.items():
            block = self.document().findBlockByNumber(line - 1)
            if not message or not block.isValid() or not block.isVisible():
                continue
            box = self.blockBoundingGeometry(block).translated(offset)
            if box.bottom() < event.rect().top() or box.top() > event.rect().bottom():
                continue
            left = round(box.left() + self.document().documentMargin() + metrics.horizontalAdvance(block.text()) + 3 * metrics.averageCharWidth())
            room = self.viewport().width() - left - 4
            if room < 4 * metrics.averageCharWidth():
                continue  # no room beside the code: the tooltip and the Run tab's error line say it
            painter.setPen(GUTTER_ERROR if kind == "error" else GUTTER_TEXT)
            text = metrics.elidedText(f"◀ {message}", Qt.TextElideMode.ElideRight, room)
            painter.drawText(left, round(box.top()), room, metrics.height(), Qt.AlignmentFlag.AlignLeft, text)
        painter.end()

    def event(self, event: Any) -> bool:
        if event.type() == event.Type.ToolTip:
            cursor = self.cursorForPosition(event.pos() - self.viewport().pos())
            mark = self.marks.get(cursor.blockNumber() + 1)
            if mark and mark[1]:
                from PySide6.QtWidgets import QToolTip

                QToolTip.showText(event.globalPos(), mark[1], self)
                return True
        return super().event(event)
