"""The Edits view's drawing: the model's geometry and the person's overlaid, changed vertices marked.

Equal aspect; both drawn in one unit (the model call's: the person's lengths are converted before
they get here), named on the axes. Curves are made once and updated with `setData`; a polyline of
50,000 points is drawn as one curve. Hovering a marked vertex shows it and its change;
hovering any vertex of a short polyline shows its pointer and coordinates.
"""
from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import PySide6  # noqa: F401,E402 — pyqtgraph must find PySide6 first
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QVBoxLayout, QWidget  # noqa: E402

from core.geometry import Shape, VertexMark  # noqa: E402
from gui.models import PERSON  # noqa: E402

MODEL_COLOUR = "#2f6db5"
PERSON_COLOUR = PERSON.name()
HOVER_VERTICES = 4000  # up to this many vertices, every vertex answers hover


class GeometryPlot(QWidget):
    """A pyqtgraph plot of two sets of shapes (the model's, the person's) and the changed vertices."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.plot = pg.PlotWidget(self, background="w")
        self.plot.setObjectName("editsPlot")
        self.plot.setAspectLocked(True)
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.plot.setMenuEnabled(False)
        self.legend = self.plot.addLegend(offset=(10, 10))
        self.model_curves: list[pg.PlotDataItem] = []
        self.person_curves: list[pg.PlotDataItem] = []
        self.vertices = pg.ScatterPlotItem(size=6, hoverable=True, tip=_tip, pen=None, brush=pg.mkBrush(PERSON_COLOUR + "80"))
        self.removed_marks = pg.ScatterPlotItem(size=11, hoverable=True, tip=_tip, symbol="o",
                                                pen=pg.mkPen(MODEL_COLOUR, width=2), brush=pg.mkBrush(255, 255, 255, 0))
        self.marks = pg.ScatterPlotItem(size=9, hoverable=True, tip=_tip, symbol="o",
                                        pen=pg.mkPen("#ffffff", width=1), brush=pg.mkBrush(PERSON_COLOUR))
        for item in (self.vertices, self.removed_marks, self.marks):
            item.setZValue(10)
            self.plot.addItem(item)
        self._curve(self.model_curves, MODEL_COLOUR, Qt.PenStyle.DashLine)
        self._curve(self.person_curves, PERSON_COLOUR, Qt.PenStyle.SolidLine)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
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
        self._fill(self.model_curves, model, MODEL_COLOUR, Qt.PenStyle.DashLine)
        self._fill(self.person_curves, person, PERSON_COLOUR, Qt.PenStyle.SolidLine)
        self.legend.clear()
        if model:
            self.legend.addItem(self.model_curves[0], model_name)
        if person:
            self.legend.addItem(self.person_curves[0], person_name)
        after = [m for m in marks if m.after is not None]
        before = [m for m in marks if m.after is None and m.before is not None]
        self.marks.setData([{"pos": m.after, "data": m.text} for m in after])
        self.removed_marks.setData([{"pos": m.before, "data": m.text} for m in before])
        spots = [{"pos": p, "data": f"{shape.path}/{i}  ({p[0]:g}, {p[1]:g})"}
                 for shape in person if shape.kind == "polyline" for i, p in enumerate(shape.points)]
        self.vertices.setData(spots if len(spots) <= HOVER_VERTICES else [])
        label = f" ({unit})" if unit else ""
        self.plot.setLabel("bottom", f"x{label}")
        self.plot.setLabel("left", f"y{label}")
        self.plot.enableAutoRange()
        self.plot.autoRange(padding=0.08)

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
