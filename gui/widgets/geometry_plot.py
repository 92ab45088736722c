"""The Edits view's drawing: the model's geometry and the person's overlaid, changed vertices marked.

Both drawn in one unit (the model call's: the person's lengths are converted before they get
here), named on the axes. Equal scale by default; "equal scale" off stretches each axis to its own
data, so a 600 mm bend of a 57 m line shows. The model's line is dashed and drawn on top of the
person's; a moved vertex is marked where it went, with a thin line from where it was (a hollow
mark, in the model's colour; a removed vertex too). The drawing fits the data when it is first
shown (not while it has no size) and `zoom_to_change` frames one change's vertices. Curves are made
once and updated with `setData`; a polyline of 50,000 points is drawn as one curve. Hovering a
marked vertex shows it and its change; hovering any vertex of a short polyline shows its pointer
and coordinates.
"""
from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import PySide6  # noqa: F401,E402 — pyqtgraph must find PySide6 first
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtGui import QResizeEvent, QShowEvent  # noqa: E402
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPushButton, QVBoxLayout, QWidget  # noqa: E402

from wsi_inspector.core.edits.geometry import Shape, VertexMark  # noqa: E402
from wsi_inspector.gui.window.theme import hex_of  # noqa: E402

HOVER_VERTICES = 4000  # up to this many vertices, every vertex answers hover
FIT_PADDING = 0.08
OPEN_MARGIN = 1.6  # the drawing opens on all the changes with this many times their extent around them
CHANGE_MARGIN = 4.0  # a zoomed change shows this many times its own extent around it


class GeometryPlot(QWidget):
    """A pyqtgraph plot of two sets of shapes (the model's, the person's) and the changed vertices."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        model_colour, person_colour = hex_of("model"), hex_of("person")  # the theme's, when the view is built
        self.model_colour, self.person_colour = model_colour, person_colour
        self.plot = pg.PlotWidget(self, background=hex_of("plot_background"))
        self.plot.setObjectName("editsPlot")
        self.plot.setAspectLocked(True)
        self.marks_by_path: dict[str, list[VertexMark]] = {}
        self._names: tuple[str | None, str | None] = (None, None)  # the legend's, as last drawn
        self._unit: str | None = "not drawn yet"  # the axes' unit, as last labelled
        self._fit_pending = False  # fit to the data once the plot has a size (a hidden tab's plot has none)
        self.fitted = False  # showing the whole of the data, as fit() left it: a resize fits again
        self.plot.getViewBox().sigRangeChangedManually.connect(self._moved_by_hand)
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.plot.setMenuEnabled(False)
        self.legend = self.plot.addLegend(offset=(10, 10))
        self.model_curves: list[pg.PlotDataItem] = []
        self.person_curves: list[pg.PlotDataItem] = []
        self.vertices = pg.ScatterPlotItem(size=6, hoverable=True, tip=_tip, pen=None, brush=pg.mkBrush(person_colour + "80"))
        self.removed_marks = pg.ScatterPlotItem(size=11, hoverable=True, tip=_tip, symbol="o",
                                                pen=pg.mkPen(model_colour, width=2), brush=pg.mkBrush(255, 255, 255, 0))
        self.marks = pg.ScatterPlotItem(size=9, hoverable=True, tip=_tip, symbol="o",
                                        pen=pg.mkPen("#ffffff", width=1), brush=pg.mkBrush(person_colour))
        self.moves = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(person_colour, width=1.5))  # moved-from → moved-to
        self.moves.setZValue(9)
        self.plot.addItem(self.moves)
        for item in (self.vertices, self.removed_marks, self.marks):
            item.setZValue(10)
            self.plot.addItem(item)
        self._curve(self.model_curves, model_colour, Qt.PenStyle.DashLine)
        self._curve(self.person_curves, person_colour, Qt.PenStyle.SolidLine)
        self.equal_scale = QCheckBox("equal scale", self)
        self.equal_scale.setObjectName("equalScale")
        self.equal_scale.setChecked(True)
        self.equal_scale.setToolTip("on: x and y at one scale, the true shape; off: each axis stretched to its data, "
                                    "so a small change of a long line shows")
        self.equal_scale.toggled.connect(self.set_equal_scale)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 0, 4, 0)
        self.fit_all_button = QPushButton("Fit all", self)
        self.fit_all_button.setObjectName("fitAll")
        self.fit_all_button.setToolTip("show the whole of both inputs (the drawing opens on the changed region)")
        self.fit_all_button.clicked.connect(self.fit_all)
        bar.addStretch(1)
        bar.addWidget(self.fit_all_button)
        bar.addWidget(self.equal_scale)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.plot)

    def _curve(self, pool: list[pg.PlotDataItem], colour: str, style: Qt.PenStyle) -> pg.PlotDataItem:
        curve = pg.PlotDataItem(pen=self._pen(colour, style), skipFiniteCheck=True)
        curve.setZValue(2 if style == Qt.PenStyle.DashLine else 1)  # the model's dashes stay visible over the person's line
        self.plot.addItem(curve)
        pool.append(curve)
        return curve

    def _fill(self, pool: list[pg.PlotDataItem], shapes: list[Shape], colour: str, style: Qt.PenStyle) -> None:
        while len(pool) < len(shapes):
            self._curve(pool, colour, style)
        for curve, shape in zip(pool, shapes):
            xs = [p[0] for p in shape.points]
            ys = [p[1] for p in shape.points]
            if shape.kind == "point":
                curve.setData(xs, ys, pen=None, symbol="s", symbolSize=8, symbolPen=pg.mkPen(colour),
                              symbolBrush=pg.mkBrush(255, 255, 255, 0))
            else:
                curve.setData(xs, ys, pen=self._pen(colour, style), symbol=None)
        for curve in pool[len(shapes):]:
            curve.setData([], [])

    @staticmethod
    def _pen(colour: str, style: Qt.PenStyle) -> Any:
        return pg.mkPen(colour, width=2 if style == Qt.PenStyle.DashLine else 3, style=style)

    def set_geometry(self, model: list[Shape], person: list[Shape], marks: list[VertexMark], unit: str | None,
                     model_name: str = "model's call", person_name: str = "person's edit") -> None:
        """Draw the model's shapes dashed, the person's solid, and the changed vertices on top."""
        if not (model or person or marks):
            self.clear()
            return
        self._fill(self.model_curves, model, self.model_colour, Qt.PenStyle.DashLine)
        self._fill(self.person_curves, person, self.person_colour, Qt.PenStyle.SolidLine)
        names = (model_name if model else None, person_name if person else None)
        if names != self._names:  # a legend or an axis relaid out costs milliseconds: only when it changes
            self._names = names
            self.legend.clear()
            for curves, name in ((self.model_curves, names[0]), (self.person_curves, names[1])):
                if name is not None:
                    self.legend.addItem(curves[0], name)
        after = [m for m in marks if m.after is not None]
        before = [m for m in marks if m.after is None and m.before is not None]
        moved = [m for m in after if m.before is not None]
        self._scatter(self.marks, [{"pos": m.after, "data": m.text} for m in after])
        self._scatter(self.removed_marks, [{"pos": m.before, "data": m.text} for m in before + moved])
        self.moves.setData([c for m in moved for c in (m.before[0], m.after[0])],  # type: ignore[index]
                           [c for m in moved for c in (m.before[1], m.after[1])])  # type: ignore[index]
        self.marks_by_path = {}
        for mark in marks:
            self.marks_by_path.setdefault(mark.path, []).append(mark)
        count = sum(len(shape.points) for shape in person if shape.kind == "polyline")
        spots = [{"pos": p, "data": f"{shape.path}/{i}  ({p[0]:g}, {p[1]:g})"}
                 for shape in person if shape.kind == "polyline" for i, p in enumerate(shape.points)] if count <= HOVER_VERTICES else []
        self._scatter(self.vertices, spots)
        if unit != self._unit:
            self._unit = unit
            label = f" ({unit})" if unit else ""
            self.plot.setLabel("bottom", f"x{label}")
            self.plot.setLabel("left", f"y{label}")
        self.fit()

    def clear(self) -> None:
        """Draw nothing (no edit chosen): only what holds data is emptied, nothing is laid out again."""
        for curve in self.model_curves + self.person_curves + [self.moves]:
            xs, _ys = curve.getData()
            if xs is not None and len(xs):
                curve.setData([], [])
        for item in (self.marks, self.removed_marks, self.vertices):
            self._scatter(item, [])
        self.marks_by_path = {}

    @staticmethod
    def _scatter(item: pg.ScatterPlotItem, spots: list[dict[str, Any]]) -> None:
        if spots or len(item.data):  # setData on an empty scatter still costs milliseconds
            item.setData(spots)

    def fit(self) -> None:
        """Show all of the data; done again once the plot has a size when it has none yet."""
        view = self.plot.getViewBox()
        if not self.isVisible() or view.width() < 2 or view.height() < 2:
            self._fit_pending = True
            return
        self._fit_pending = False
        changed = [p for marks in self.marks_by_path.values() for m in marks for p in (m.before, m.after) if p is not None]
        if not changed or not self._frame(changed, OPEN_MARGIN):  # opens on the changed region, with room around it
            self.plot.enableAutoRange()
            self.plot.autoRange(padding=FIT_PADDING)
        self.fitted = True

    def fit_all(self) -> None:
        """Fit all: the whole of both inputs."""
        self.plot.enableAutoRange()
        self.plot.autoRange(padding=FIT_PADDING)
        self.fitted = False  # the person chose this view: a resize keeps it

    def _moved_by_hand(self, *_args: Any) -> None:
        self.fitted = False  # the person zoomed or panned: a resize keeps their view
    def set_equal_scale(self, equal: bool) -> None:
        """Equal scale (the true shape) or each axis stretched to its own data; fits the data again."""
        self.equal_scale.setChecked(equal)
        self.plot.setAspectLocked(equal)
        self.fit()

    def zoom_to_change(self, path: str) -> bool:
        """Frame the vertices a change at `path` moved, added or removed; False when it moved none."""
        points = [p for m in self.marks_by_path.get(path, []) for p in (m.before, m.after) if p is not None]
        if not points or not self._frame(points):
            return False
        self.fitted = False
        return True

    def _frame(self, points: list[tuple[float, float]], margin: float = CHANGE_MARGIN) -> bool:
        """Show `points` with `margin` times their extent around them (at least 2% of the data's); False without data."""
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        (x0, x1), (y0, y1) = self.plot.getViewBox().childrenBounds()
        if None in (x0, x1, y0, y1):
            return False
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        box = self.plot.getViewBox()
        if box.state["aspectLocked"]:  # equal scale: the spans in the box's own proportions
            # A square region in a wide, short box (the Edits tab stacked at 1024 px) was widened by the aspect lock
            # to five times the changes' width: the side that needs more of the box's proportion decides.
            data_span = max(x1 - x0, y1 - y0, 1e-9)
            ratio = max(box.width(), 1.0) / max(box.height(), 1.0)
            span_x = max(max(xs) - min(xs), (max(ys) - min(ys)) * ratio, data_span * 0.02) * margin
            span_y = span_x / ratio
        else:  # each axis stretched: each framed on its own
            span_x = max(max(xs) - min(xs), (x1 - x0) * 0.02, 1e-9) * margin
            span_y = max(max(ys) - min(ys), (y1 - y0) * 0.02, 1e-9) * margin
        self.plot.setRange(xRange=(cx - span_x / 2, cx + span_x / 2), yRange=(cy - span_y / 2, cy + span_y / 2), padding=0)
        return True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt's hook
        super().showEvent(event)
        if self._fit_pending:
            self.fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 — Qt's hook
        super().resizeEvent(event)
        if self._fit_pending or self.fitted:
            QTimer.singleShot(0, self.fit)  # once the plot inside has its new size

    def drawn(self, which: str) -> list[tuple[list[float], list[float]]]:
        """The (xs, ys) of each non-empty curve of `which` ("model" or "person"): what is on screen."""
        pool = self.model_curves if which == "model" else self.person_curves
        out = []
        for curve in pool:
            xs, ys = curve.getData()
            if xs is not None and len(xs):
                out.append((list(xs), list(ys)))
        return out


def _tip(x: float, y: float, data: Any) -> str:
    return str(data) if data else f"({x:g}, {y:g})"
