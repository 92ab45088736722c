"""`core` never imports Qt, pyqtgraph or `gui` (DESIGN 1): checked in the source and in a fresh interpreter."""
import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "wsi_inspector.gui")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_core_module_imports_qt_or_gui():
    offenders = {
        str(path.relative_to(CORE.parent)): sorted(n for n in imported_modules(path) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))
        for path in CORE.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_every_core_module_loads_no_qt():
    modules = sorted(
        "wsi_inspector." + ".".join(path.relative_to(CORE.parent).with_suffix("").parts)
        for path in CORE.rglob("*.py")
        if path.name != "__main__.py" and "guest" not in path.name
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = [m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in {FORBIDDEN!r})]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=CORE.parent)
    assert done.returncode == 0, done.stdout + done.stderr
