"""The two "bytes" of an entry say which they are (issue 32 point 8): the Inputs table's is the input's,
the Trim table's the whole injected entry's, and each column's tooltip says so and names the other."""
import json

from PySide6.QtCore import Qt

from wsi_inspector.core.jsrules.jsonsize import json_bytes
from wsi_inspector.core.jsrules.sizes import ENTRY_BYTES_TIP, INPUT_BYTES_TIP
from wsi_inspector.gui.tabs.inputs.models import BYTES, ManifestModel
from wsi_inspector.gui.tabs.trim.view import TrimModel
from tests.conftest import DEMO

TIP = Qt.ItemDataRole.ToolTipRole


def test_each_bytes_column_says_which_size_it_is(qtbot):
    inputs, trim = ManifestModel(), TrimModel()
    assert inputs.headerData(BYTES, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) == "bytes"
    assert inputs.headerData(BYTES, Qt.Orientation.Horizontal, TIP) == INPUT_BYTES_TIP
    column = TrimModel.HEADERS.index("bytes")
    assert trim.headerData(column, Qt.Orientation.Horizontal, TIP) == ENTRY_BYTES_TIP
    assert "input alone" in INPUT_BYTES_TIP and "Trim tab" in INPUT_BYTES_TIP
    assert "whole entry" in ENTRY_BYTES_TIP and "Inputs tab" in ENTRY_BYTES_TIP


def test_the_figures_the_docs_quote_are_the_demo_s():
    c1 = json.loads(DEMO.read_text())["store"][0]
    assert json_bytes(c1["input"]) == 71
    assert json_bytes({k: c1[k] for k in ("id", "call", "input", "unit")}) == 135
