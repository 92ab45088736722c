"""Where a column's text is cut when it must be: ids in the middle, prose at its end (docs/window.md, "Nothing cut off").

A view has one elide mode for all its columns. Its prose (shapes, words) ends in "…" after the view's mode
(`Qt.ElideRight`); a column of ids is given this delegate, so that when no room can be had for one both of
its ends read (`pack.corr…corridorRuns`), its whole text in the tooltip.
"""
from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QStyleOptionViewItem


class MiddleElided(QStyledItemDelegate):
    """Paints a cell as the view does, its text cut in the middle when it is too wide."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802 — Qt's hook
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle  # type: ignore[attr-defined]


def ids_in_the_middle(view: QAbstractItemView, *columns: int) -> None:
    """Prose in `view` elides at its end; the id `columns` in the middle. Called again, it changes nothing."""
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    delegate = view.findChild(MiddleElided) or MiddleElided(view)
    for column in columns:
        if view.itemDelegateForColumn(column) is not delegate:
            view.setItemDelegateForColumn(column, delegate)
