"""docs/architecture.md stays a true map: every module of core/ and gui/ is in a room, and each how-to names its start."""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def named_places() -> set[str]:
    return set(re.findall(r"`((?:core|gui)/[\w/.]*)`", DOC.read_text(encoding="utf-8")))


def section(heading: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    assert f"\n## {heading}\n" in text, f"docs/architecture.md has no section {heading!r}"
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_every_module_of_core_and_gui_is_in_a_room_of_the_map():
    named = named_places()
    folders = {n for n in named if n.endswith("/") and n not in ("core/", "gui/")}  # a package is a room; the two tops are not
    modules = [str(p.relative_to(ROOT)) for top in ("core", "gui") for p in sorted((ROOT / top).rglob("*.py"))
               if p.parent != ROOT / top or p.name != "__init__.py"]
    missing = [m for m in modules if m not in named and not any(m.startswith(f) for f in folders)]
    assert missing == [], "add these to docs/architecture.md's map of rooms (one line per room)"


@pytest.mark.parametrize(("heading", "name", "path"), [("Add a view", "TABS", "gui/window/main_window.py"),
                                                       ("Add a CLI command", "COMMANDS", "core/cli/dispatch.py")])
def test_each_how_to_starts_at_one_place_that_exists(heading, name, path):
    assert f"Start at `{name}` in `{path}`" in section(heading)
    assert re.search(rf"^{name}\b[^\n]*=", (ROOT / path).read_text(encoding="utf-8"), re.M), f"{path} defines no {name}"


def test_adding_a_format_version_starts_at_the_format_registry():
    assert "Start at `core/session/formats/__init__.py`" in section("Add a format version")


def test_the_readme_links_the_map():
    assert "(docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def main_window_importers() -> list[str]:
    """The gui modules that import `MainWindow` by name."""
    found = []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("main_window") and any(a.name == "MainWindow" for a in node.names):
                found.append(path.relative_to(ROOT).as_posix())
    return found


def test_no_gui_module_but_the_app_imports_the_main_window():
    """Views and actions take the context and the window's services, never `MainWindow` (issue 29): no import circle."""
    assert set(main_window_importers()) <= {"gui/window/app.py"}
