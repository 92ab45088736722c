"""Issue 29.2: actions take the context and a `WindowServices`, never the window; no module but the app imports
`MainWindow`, and no gui module imports another inside a function (the old way round an import circle)."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

STARTUP = {"gui/window/app.py", "gui/window/launch.py"}  # the entry points import the window late, so `wsi --help` starts fast


def _gui_imports(path: Path) -> list[tuple[str, bool]]:
    """(module, inside a function) for every `gui.…` import of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom) and (child.module or "").startswith("gui"):
                found.append((child.module or "", inside))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, inside) for alias in child.names if alias.name.startswith("gui"))
            visit(child, inside)

    visit(tree, False)
    return found


def test_only_the_app_imports_the_main_window_and_no_gui_import_hides_in_a_function():
    importers, hidden = [], []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for module, inside in _gui_imports(path):
            if module == "wsi_inspector.gui.window.main_window" and name not in STARTUP and name != "gui/window/main_window.py":
                importers.append(name)
            if inside and name not in STARTUP:
                hidden.append(f"{name}: {module}")
    assert importers == [] and hidden == []


def test_the_actions_read_what_the_person_chose_from_the_context(window):
    # Save repro, Reduce… and Export are built from the context and the window's services alone.
    from wsi_inspector.gui.actions.export import Exporter
    from wsi_inspector.gui.actions.save_repro import saver_for

    services = window.services
    assert saver_for(window.context, services).context is window.context
    assert Exporter(window.context, services).services is services
    assert window.keyboard.context is window.context
    assert window.context.run.timeout_s == window.views["run"].timeout_box.value()
    window.views["run"].timeout_box.setValue(3.5)
    assert window.context.run.timeout_s == 3.5  # typed in the widget, held by the context
