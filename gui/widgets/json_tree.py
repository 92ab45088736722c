"""A lazy JSON tree: expand and collapse, copy value / JSON Pointer / JSON, and annotation hooks.

Children are made only when a node is expanded, in batches (`fetchMore`), so a 50,000-point
polyline opens at once. Other views annotate nodes through `JsonTreeModel.set_annotations`: an
extra column, a tooltip and a background colour computed from each node's JSON Pointer and value
(the Edits view shows provenance that way).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

import orjson
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QModelRoleDataSpan, QPersistentModelIndex, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QAction, QFontMetrics, QGuiApplication, QKeySequence, QRegion, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTreeView, QWidget

from wsi_inspector.core.edits.diff import parse_pointer, pointer
from wsi_inspector.core.jsrules.jsonsize import compact_json, js_keys, json_bytes
from wsi_inspector.core.jsrules.run_inputs import js_type
from wsi_inspector.gui.window.look import DISPLAY, delegate_asks, monospace, still_header
from wsi_inspector.gui.window.theme import colour

BATCH = 500
KEY_LEAST, KEY_SHARE = 150, 0.45  # the key column: its first width, and the most of a tree's width it takes
TYPE_WIDTH, TYPE_SHARE = 90, 0.18  # the type column ("array · 4"), and its most share of a narrow tree
NARROW_CHARS, NARROW_KEY_SHARE = 30, 0.55  # a tree narrower than 30 monospace characters: no type column, keys take more
ANNOTATION_SHARE = 0.25  # an annotation column (a compact mark, "e1 ← c4" whole: its words are the cell's tooltip); with keys at 45%, the value keeps 30%
REVEAL_ROWS = 5000  # a node deeper into an array than this is shown by selecting the array rather than opening it that far
PREVIEW_CHARS = 120
Annotation = Callable[[str, Any], Any]
Index = QModelIndex | QPersistentModelIndex


def kind_of(value: Any) -> str:
    """The JSON type name of a value (a Python object no JSON holds shows its class)."""
    kind = js_type(value)
    return kind if kind != "object" or isinstance(value, dict) else type(value).__name__


def pretty_json(value: Any) -> str:
    """The value as indented JSON for the clipboard."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode("utf-8")
    except TypeError:  # big integers, lone surrogates: the standard library can write them
        return json.dumps(value, indent=2, ensure_ascii=False, default=lambda _: None)


def preview(value: Any) -> str:
    """What the value column shows: scalars as JSON, short containers inline, long ones by size."""
    if isinstance(value, (dict, list)):
        size = f"{len(value):,} key{'s' if len(value) != 1 else ''}" if isinstance(value, dict) else f"{len(value):,} item{'s' if len(value) != 1 else ''}"
        if len(value) <= 12:
            text = compact_json(value, PREVIEW_CHARS)
            if len(text) <= PREVIEW_CHARS:
                return text
        return ("{…} " if isinstance(value, dict) else "[…] ") + size
    return compact_json(value, PREVIEW_CHARS * 4)


class JsonNode:
    """One value in the tree; its children are made when first asked for."""

    __slots__ = ("parent", "row", "key", "value", "children", "_child_keys", "_pointer", "_preview")

    def __init__(self, parent: JsonNode | None, row: int, key: str | int, value: Any):
        self.parent, self.row, self.key, self.value = parent, row, key, value
        self.children: list[JsonNode] = []
        self._child_keys: list[str | int] | None = None
        self._pointer: str | None = None
        self._preview: str | None = None

    @property
    def shown(self) -> str:
        """What the value column shows (`preview`), made once: the row is measured and painted, and painted again."""
        if self._preview is None:
            self._preview = preview(self.value)
        return self._preview

    @property
    def child_keys(self) -> list[str | int]:
        if self._child_keys is None:
            if isinstance(self.value, dict):
                self._child_keys = list(js_keys(self.value))
            elif isinstance(self.value, list):
                self._child_keys = list(range(len(self.value)))
            else:
                self._child_keys = []
        return self._child_keys

    @property
    def total(self) -> int:
        return len(self.value) if isinstance(self.value, (dict, list)) else 0

    @property
    def pointer(self) -> str:
        """This node's JSON Pointer from the tree's root value (`""` for the root), made once.

        Up the tree to the nearest node whose pointer is made (a loop: a value may be a thousand deep);
        an annotation asks for it on every paint of the node's row."""
        if self._pointer is None:
            tokens: list[str | int] = []
            node = self
            while node.parent is not None and node._pointer is None:
                tokens.append(node.key)
                node = node.parent
            self._pointer = (node._pointer or "") + pointer(tokens[::-1])
        return self._pointer

    def fetch(self, count: int) -> list[JsonNode]:
        """Make up to `count` more children and return them."""
        keys = self.child_keys
        start = len(self.children)
        made = [JsonNode(self, start + i, key, self.value[key]) for i, key in enumerate(keys[start : start + count])]
        self.children.extend(made)
        return made


class JsonTreeModel(QAbstractItemModel):
    """A JSON value as a tree model: key, value, type, and an optional annotation column."""

    HEADERS = ("key", "value", "type")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._root: JsonNode | None = None  # holds the one visible top row
        self._holder = JsonNode(None, 0, "", None)
        self._extra_title: str | None = None
        self._extra: Annotation | None = None
        self._tooltip: Annotation | None = None
        self._colour: Annotation | None = None
        # The top row's children in view (first, last; last < first: none), told by the view: `_refill` compares those.
        self.children_shown: Callable[[], tuple[int, int]] | None = None

    # --- what other views use -------------------------------------------------------------------
    def set_value(self, value: Any, label: str = "value", present: bool = True) -> None:
        """Show `value` under one top row named `label`; `present=False` shows nothing.

        The top row is taken out and another put in, not the model reset: a reset resets the view's
        header too, which repaints it (on every cursor move that shows another entry). A value with the
        rows shown (`_refill`) is shown in them instead."""
        if present and self._refill(value, label):
            return
        self._signalling = True  # as in _end_reset: no fetching inside these signals
        try:
            if self._holder.children:
                self.beginRemoveRows(QModelIndex(), 0, len(self._holder.children) - 1)
                self._root, self._holder.children = None, []
                self.endRemoveRows()
            if present:
                self.beginInsertRows(QModelIndex(), 0, 0)
                self._root = JsonNode(None, 0, label, value)
                self._holder.children = [self._root]
                self.endInsertRows()
        finally:
            self._signalling = False

    def _refill(self, value: Any, label: str) -> bool:
        """Show `value` in the rows shown when it has their frame: the same label, the same keys, each child as
        open or closed as before, nothing below the top row's children made, no annotation column. Then only the
        cells whose text or colour changes are repainted, and nothing is laid out: consecutive entries of one call
        have the same keys, and every cursor move took the rows out, put others in, laid the tree out and painted
        every cell (issue 28.3). False: it has not, and the rows are made afresh."""
        root = self._root
        if root is None or root.key != label or self._extra is not None or not isinstance(value, (dict, list)) \
                or type(value) is not type(root.value) or len(value) != len(root.children) or len(value) != root.total:
            return False
        children = root.children
        if any(child.children for child in children):
            return False  # a row below the top row's children was made (opened once): made afresh
        keys: list[str | int] = list(js_keys(value)) if isinstance(value, dict) else list(range(len(value)))
        if keys != root.child_keys:
            return False
        values = [value[key] for key in keys] if isinstance(value, dict) else list(value)
        if any(_opens(child.value) != _opens(new) for child, new in zip(children, values)):
            return False  # a row that opens and one that does not draw their branches differently
        changed: list[tuple[int, int, JsonNode]] = []  # (row, column, node) to repaint; the top row is row 0 of none
        first, last = self.children_shown() if self.children_shown is not None else (0, len(children) - 1)
        for node, new in ((root, value), *zip(children, values)):
            if node is not root and not first <= node.row <= last:  # out of view: its texts are made when it is painted
                node.value, node._preview, node._child_keys = new, None, None
                continue
            before = (node.shown if node._preview is not None else None, self._text(node, 2),
                      self._colour(node.pointer, node.value) if self._colour is not None else None)
            node.value, node._preview, node._child_keys = new, None, None
            after = (node.shown, self._text(node, 2), self._colour(node.pointer, new) if self._colour is not None else None)
            columns = range(len(self.HEADERS)) if before[2] != after[2] else [c for c in (1, 2) if before[c - 1] != after[c - 1]]
            changed += [(node.row, column, node) for column in columns]
        root._child_keys = keys
        for row, column, node in changed:  # one cell each: Qt repaints the whole viewport for a range of cells
            index = self.createIndex(row, column, node)
            self.dataChanged.emit(index, index)
        return True

    def set_annotations(self, title: str | None = None, column: Annotation | None = None,
                        tooltip: Annotation | None = None, colour: Annotation | None = None) -> None:
        """Hooks called with (JSON Pointer, value): an extra column titled `title`, a tooltip, a QColor."""
        self.beginResetModel()
        self._extra_title, self._extra, self._tooltip, self._colour = title, column, tooltip, colour
        self._end_reset()

    def node(self, index: Index) -> JsonNode | None:
        """The node behind an index (None for the invisible root)."""
        if not index.isValid():
            return None
        return index.internalPointer()

    def root_index(self) -> QModelIndex:
        """The index of the top row (invalid when nothing is shown)."""
        return self.index(0, 0) if self._root is not None else QModelIndex()

    # --- QAbstractItemModel ---------------------------------------------------------------------
    _signalling = False  # inside this model's own reset or insert signals

    def _end_reset(self) -> None:
        # A slot on modelReset or rowsAboutToBeInserted (Qt's model tester, a proxy) that fetches would
        # insert rows before the listeners connected after it have seen the change: no fetching inside.
        self._signalling = True
        try:
            self.endResetModel()
        finally:
            self._signalling = False

    def _node_or_holder(self, index: Index) -> JsonNode:
        return index.internalPointer() if index.isValid() else self._holder

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(self.HEADERS) + (1 if self._extra is not None else 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node_or_holder(parent).children)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, self._node_or_holder(parent).children[row])

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        node: JsonNode = index.internalPointer()
        if node.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.row, 0, node.parent)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        if not parent.isValid():
            return bool(self._holder.children)
        if parent.column() != 0:
            return False
        return self._node_or_holder(parent).total > 0

    def canFetchMore(self, parent: Index) -> bool:
        if self._signalling or not parent.isValid() or parent.column() != 0:
            return False
        node = self._node_or_holder(parent)
        return len(node.children) < node.total

    def fetchMore(self, parent: Index) -> None:
        if self._signalling or not parent.isValid():
            return
        node = self._node_or_holder(parent)
        start = len(node.children)
        count = min(BATCH, node.total - start)
        if count <= 0:
            return
        self._signalling = True
        try:
            self.beginInsertRows(parent, start, start + count - 1)
            node.fetch(count)
            self.endInsertRows()
        finally:
            self._signalling = False

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section < len(self.HEADERS):
            return self.HEADERS[section]
        return self._extra_title or ""

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _ROW_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def multiData(self, index: Index, span: QModelRoleDataSpan) -> None:  # type: ignore[override]  # noqa: N802 — Qt's name; Qt hands a span (the stub's QModelRoleData is a C++ conversion)
        # The delegate asks a cell's seven roles in one call (wsi_inspector.gui.window.look.DELEGATE_ROLES): one call into
        # Python per cell. Every role is set, None too: the request is handed from cell to cell.
        if not index.isValid() or not delegate_asks(span):
            super().multiData(index, span)  # each role through data()
            return
        node: JsonNode = index.internalPointer()
        column = index.column()
        foreground = _VALUE_COLOURS.get(kind_of(node.value)) if column == 1 else None
        background = self._colour(node.pointer, node.value) if self._colour is not None else None
        for slot, value in enumerate((monospace(), None, foreground, None, None, self._text(node, column), background)):
            span[slot].setData(value)  # type: ignore[index]  # the span is a sequence at run time; its stub says not

    def _text(self, node: JsonNode, column: int) -> str | None:
        """What a cell shows: the key, the value's preview, its type, or the annotation column's text."""
        if column == 0:
            return str(node.key)
        if column == 1:
            return node.shown
        if column == 2:
            kind = kind_of(node.value)
            return f"{kind} · {len(node.value):,}" if kind in ("array", "object") else kind
        if self._extra is not None:
            text = self._extra(node.pointer, node.value)
            return None if text is None else str(text)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node: JsonNode = index.internalPointer()
        column = index.column()
        if role == DISPLAY:
            return self._text(node, column)
        elif role == Qt.ItemDataRole.ToolTipRole:
            parts = [node.pointer or "(root)"]
            if column == 1 and isinstance(node.value, str) and len(node.value) > 60:
                parts.append(node.value[:2000])
            if column == 1:  # the type column's text too: a narrow tree hides it
                parts.append(str(self._text(node, 2)))
            if isinstance(node.value, (dict, list)):
                parts.append(f"{json_bytes(node.value):,} bytes as JSON")
            if self._tooltip is not None:
                extra = self._tooltip(node.pointer, node.value)
                if extra:
                    parts.append(str(extra))
            return "\n".join(parts)
        elif role == Qt.ItemDataRole.FontRole:
            return monospace()
        elif role == Qt.ItemDataRole.ForegroundRole and column == 1:
            return _VALUE_COLOURS.get(kind_of(node.value))
        elif role == Qt.ItemDataRole.BackgroundRole and self._colour is not None:
            colour = self._colour(node.pointer, node.value)
            return colour
        return None


def _opens(value: Any) -> bool:
    """Whether a value's row has rows under it (a container with items): its branch is drawn."""
    return isinstance(value, (dict, list)) and len(value) > 0


_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable  # made once: Python's enum flags are slow to combine
_VALUE_COLOURS = {  # the theme's shared colours (wsi_inspector.gui.window.theme): light or dark after the palette
    "string": colour("json_string"),
    "number": colour("json_number"),
    "boolean": colour("json_boolean"),
    "null": colour("json_null"),
    "array": colour("json_container"),
    "object": colour("json_container"),
}


class JsonTreeView(QTreeView):
    """A tree view over a `JsonTreeModel` with Copy value / Copy JSON Pointer / Copy as JSON."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.json_model = JsonTreeModel(self)
        self.json_model.children_shown = self._children_shown
        self.setModel(self.json_model)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        header = still_header(self)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the value takes the room; type stays in view
        self.setColumnWidth(0, KEY_LEAST)
        self.setColumnWidth(2, TYPE_WIDTH)
        # Deep keys are not lost behind their indentation: the key column is measured once per turn of
        # the event loop after expands, not on each (expandAll of a value 988 deep is 988 expands, and
        # each measure walks up to a thousand rows: minutes on the GUI thread).
        self._key_wanted = KEY_LEAST  # what the keys on show last asked for (fit_keys)
        self._style_indent = self.indentation()  # a small tree indents less (share_columns)
        self._narrow = False  # share_columns found the tree narrow: no type column, keys take more (_key_room)
        self._type_wanted = True  # False: the view hid the type column for good (hide_type_column)
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit_keys)
        self.expanded.connect(self._expanded)
        # What the keys were last measured on, when a value had just been shown (its top row open, nothing
        # else): another value with the same keys at the same widths measures the same (`_same_keys_shown`).
        self._shown_keys: tuple[Any, ...] | None = None  # set_value's, until fit_keys measures them
        self._measured_keys: tuple[Any, ...] | None = None  # what fit_keys last measured, when it was set_value's
        self.copy_value_action = self._action("Copy value", self.copy_value, QKeySequence.StandardKey.Copy)
        self.copy_pointer_action = self._action("Copy JSON Pointer", self.copy_pointer, "Ctrl+Shift+C")
        self.copy_json_action = self._action("Copy as JSON", self.copy_json, "Ctrl+Alt+C")
        self.expand_action = self._action("Expand children", self.expand_current, None)
        self.collapse_action = self._action("Collapse all", self.collapseAll, None)

    def _action(self, text: str, slot: Callable[[], Any], shortcut: Any) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _children_shown(self) -> tuple[int, int]:
        """The rows of the top row's children in view, first and last (`JsonTreeModel._refill` compares only these: a
        value of 500 items had 500 previews made and compared on each cursor move, for the twenty or so in view)."""
        model = self.json_model
        top, bottom = (model.node(self.indexAt(QPoint(0, y))) for y in (0, self.viewport().height() - 1))
        first = 0 if top is None or top.parent is None else top.row  # None: nothing at the top (not laid out yet)
        if bottom is None:  # room below the rows, or not laid out yet
            root = model.node(model.root_index())
            return first, len(root.children) - 1 if root is not None else -1
        return first, -1 if bottom.parent is None else bottom.row

    def repaint_pointers(self, pointers: Collection[str]) -> None:
        """Repaint the rows in view whose JSON Pointer is one of `pointers` (their annotation colour changed): the
        Inputs tab repainted the whole tree when the paths its body read or its search matched changed (issue 28.3)."""
        if not pointers:
            return
        model, viewport = self.json_model, self.viewport()
        bottom, width = viewport.height(), viewport.width()
        region = QRegion()
        index = self.indexAt(QPoint(0, 0))
        while index.isValid():
            rect = self.visualRect(index)
            if rect.top() >= bottom:
                break
            node = model.node(index)
            if node is not None and node.pointer in pointers:
                region += QRect(0, rect.top(), width, rect.height())
            index = self.indexBelow(index)
        if not region.isEmpty():
            viewport.update(region)

    def set_value(self, value: Any, label: str = "value", present: bool = True) -> None:
        """Show `value` with its top row expanded."""
        self.json_model.set_value(value, label, present)
        root = self.json_model.root_index()
        if root.isValid():
            self.expand(root)
            self.setCurrentIndex(root)
        self.share_columns()
        self._same_keys_shown()

    def _keys_on_show(self) -> tuple[Any, ...] | None:
        """What the key column's measure depends on while a value is freshly shown: its label and the keys of its
        children made so far (the only rows), the indentation, the font, the widths; None when nothing is shown."""
        root = self.json_model.node(self.json_model.root_index())
        if root is None:
            return None
        keys = root.child_keys[:len(root.children)]  # the rows made (a batch at most): the rows measured
        return (root.key, tuple(keys), self.indentation(), monospace().key(), self.columnWidth(0), self.viewport().width(),
                self.json_model.columnCount())

    def _expanded(self, index: QModelIndex) -> None:
        """Measure the keys on the next turn; a row below the top one opened: more keys than set_value's."""
        self._fit_timer.start()
        if index.parent().isValid():
            self._shown_keys = None

    def _same_keys_shown(self) -> None:
        """The keys of a value just shown are measured on the next turn of the event loop (fit_keys), unless they are
        the keys last measured, at the same widths: then the measure is the one made, and nothing would change.
        Consecutive entries of one call have the same keys: a cursor move measured them again (a fifth of a
        millisecond of each move on a real-shaped session, issue 28.3)."""
        self._shown_keys = self._keys_on_show()
        if self._shown_keys is not None and self._shown_keys == self._measured_keys:
            self._fit_timer.stop()
        elif self._shown_keys is not None:
            self._fit_timer.start()  # a value shown in the rows it had opened nothing: measured all the same

    def fit_keys(self) -> None:
        """Widen the key column to the keys on show and their indentation, up to KEY_SHARE of the tree (the pointer is in each tooltip)."""
        self._fit_timer.stop()
        shown, self._shown_keys = self._shown_keys, None
        # Measured on set_value's rows alone (nothing expanded since): remembered with the widths it leaves.
        fresh = shown is not None and shown == self._keys_on_show()
        wanted = self._key_wanted = self.sizeHintForColumn(0)
        room = self._key_room()
        if wanted > self.columnWidth(0):
            self.setColumnWidth(0, min(wanted, room))
        self.share_columns()
        self._measured_keys = self._keys_on_show() if fresh else None

    def share_columns(self) -> None:
        """The value takes the room: key, type and an annotation column are held to their shares of a narrow tree."""
        width = self.viewport().width()
        if width <= 0:
            return
        # A narrow tree (the Inputs tab at 1024 px, beside whole calls) gives the type column's room to keys
        # and values: "obj…" said nothing the value's `{…} 2 keys` does not; the type is in the value's tooltip.
        # So does a tree whose keys (ids: never cut while there is room) want more than their share beside it.
        metrics = QFontMetrics(monospace())
        small = width < metrics.horizontalAdvance("0" * NARROW_CHARS)
        narrow = small or self._key_wanted > int(width * KEY_SHARE)
        # A small tree indents less (a character and a half a level, not the style's 20 px): "size" four levels
        # down read "s…" in Inputs at 1024 px. Only the width decides, so the keys measured again cannot flip it.
        indent = metrics.horizontalAdvance("0") * 3 // 2 if small else self._style_indent
        if self.indentation() != indent:
            self.setIndentation(indent)
            self._fit_timer.start()  # the keys are measured again with it
        self._narrow = narrow
        hidden = narrow or not self._type_wanted
        if self.isColumnHidden(2) != hidden:
            self.setColumnHidden(2, hidden)
        wanted = {} if hidden else {2: max(40, min(TYPE_WIDTH, int(width * TYPE_SHARE)))}
        if self.json_model.columnCount() > 3:  # an annotation (e.g. Edits' "set by"): a compact mark, its words in the tooltip
            # Its title whole too where there is room ("set b" over marks as short as "c4").
            title = self.header().sectionSizeHint(3)
            wanted[3] = max(40, min(max(self.sizeHintForColumn(3), title), int(width * ANNOTATION_SHARE)))
        for column, size in wanted.items():
            if self.columnWidth(column) != size:  # an unchanged width is not set again: the header would repaint
                self.setColumnWidth(column, size)
        key, room = self.columnWidth(0), self._key_room()
        if key > room or key < min(self._key_wanted, room):  # held to its share; grown back with the tree
            self.setColumnWidth(0, min(max(self._key_wanted, KEY_LEAST // 2), room))

    def hide_type_column(self) -> None:
        """Hide the type column for good (a view that gives its room to an annotation column)."""
        self._type_wanted = False
        self.setColumnHidden(2, True)

    def _key_room(self) -> int:
        """The most the key column takes: KEY_SHARE of the tree (NARROW_KEY_SHARE of a narrow tree with neither
        a type nor an annotation column), never under half its first width."""
        share = NARROW_KEY_SHARE if self._narrow and self.json_model.columnCount() == 3 else KEY_SHARE
        return max(KEY_LEAST // 2, int(self.viewport().width() * share))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        self.share_columns()

    def reveal(self, pointer: str) -> bool:
        """Expand the tree down to the node at JSON Pointer `pointer` (fetching rows as needed), make it current.

        A node past REVEAL_ROWS of its array is not opened: its array is made current instead."""
        model = self.json_model
        index = model.root_index()
        if not index.isValid():
            return False
        for token in parse_pointer(pointer):
            node = model.node(index)
            assert node is not None  # the index is valid: the root's, then a row fetched above
            keys = [str(k) for k in node.child_keys]
            if token not in keys:
                break
            row = keys.index(token)
            if row >= REVEAL_ROWS:
                break  # the view lays out every row it shows: past this many, the container is selected instead
            while model.rowCount(index) <= row and model.canFetchMore(index):
                model.fetchMore(index)
            self.expand(index)
            index = model.index(row, 0, index)
        self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.fit_keys()  # now, not on the next turn: the revealed key shows whole at once
        return True

    def current_node(self) -> JsonNode | None:
        """The node of the current row."""
        return self.json_model.node(self.currentIndex())

    def copy_value(self) -> str | None:
        """Put the current value on the clipboard: a string as its text, anything else as JSON."""
        node = self.current_node()
        if node is None:
            return None
        text = node.value if isinstance(node.value, str) else compact_json(node.value)
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_pointer(self) -> str | None:
        """Put the current node's JSON Pointer on the clipboard."""
        node = self.current_node()
        if node is None:
            return None
        QGuiApplication.clipboard().setText(node.pointer)
        return node.pointer

    def copy_json(self) -> str | None:
        """Put the current value on the clipboard as indented JSON."""
        node = self.current_node()
        if node is None:
            return None
        text = pretty_json(node.value)
        QGuiApplication.clipboard().setText(text)
        return text

    def expand_current(self) -> None:
        """Expand the current node and its children one level down (bounded, for big arrays)."""
        index = self.currentIndex().siblingAtColumn(0)
        if not index.isValid():
            return
        self.expand(index)
        model = self.json_model
        for row in range(min(model.rowCount(index), BATCH)):
            self.expand(model.index(row, 0, index))

    def _menu(self, position: Any) -> None:
        menu = QMenu(self)
        for action in (self.copy_value_action, self.copy_pointer_action, self.copy_json_action, None,
                       self.expand_action, self.collapse_action):
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        menu.exec(self.viewport().mapToGlobal(position))
