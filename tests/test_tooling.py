"""The house's checks run with the tests (issue 13, point 7): ruff, mypy, import-linter, and no new `Any`.

Each tool reads its settings from pyproject.toml and runs from this interpreter's environment (the
test extra installs them), so `.venv/bin/pytest` alone runs everything CI runs.
"""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "core"
TESTS = ROOT / "tests"
BIN = Path(sys.executable).parent

# `Any` in the signatures of core's public functions and methods, per module, as of 2026-12-02. A count
# may only go down (then lower it here); a module not listed may have none. Prefer a precise type, a
# TypedDict or a Protocol; a JSON value is `wsi_inspector.core.jsrules.js_value`'s business.
ANY_ALLOWANCE = {
    "wsi_inspector.core.edits.align": 9,
    "wsi_inspector.core.trim.changes": 2,
    "wsi_inspector.core.check.check": 8,
    "wsi_inspector.core.check.cluster": 3,
    "wsi_inspector.core.cli.dispatch": 2,
    "wsi_inspector.core.cli.output": 1,
    "wsi_inspector.core.edits.diff": 7,
    "wsi_inspector.core.cli.documents": 2,
    "wsi_inspector.core.edits.edits": 1,
    "wsi_inspector.core.search.filtering": 2,
    "wsi_inspector.core.session.formats.worker_session_1.header": 1,  # read_header(document: dict[str, Any]): a JSON header object
    "wsi_inspector.core.edits.geometry": 2,
    "wsi_inspector.core.jsrules.js_value": 4,
    "wsi_inspector.core.jsrules.json_values": 6,
    "wsi_inspector.core.jsrules.jsonsize": 2,
    "wsi_inspector.core.search.manifest": 2,
    "wsi_inspector.core.session.model": 8,
    "wsi_inspector.core.edits.provenance": 5,
    "wsi_inspector.core.session.reading": 1,
    "wsi_inspector.core.session.records": 2,
    "wsi_inspector.core.reduce.reduce": 1,
    "wsi_inspector.core.handoff.redact": 5,  # records_of, redact_records, units_used: the session's records as parsed JSON objects
    "wsi_inspector.core.handoff.redact_file": 1,  # Source.records: the session's records as parsed JSON objects
    "wsi_inspector.core.reduce.repro": 4,
    "wsi_inspector.core.jsrules.run_inputs": 15,
    "wsi_inspector.core.runner.envelope": 9,
    "wsi_inspector.core.runner.guest": 10,
    "wsi_inspector.core.runner.host": 1,
    "wsi_inspector.core.runner.mock_modules": 8,
    "wsi_inspector.core.runner.protocol": 3,
    "wsi_inspector.core.runner.replay": 11,
    "wsi_inspector.core.runner.report": 4,
    "wsi_inspector.core.runner.result": 4,
    "wsi_inspector.core.runner.scene": 3,
    "wsi_inspector.core.runner.typescript": 1,
    "wsi_inspector.core.session.schema": 1,
    "wsi_inspector.core.session.timeline": 3,
    "wsi_inspector.core.edits.units": 5,
}


def tool(name: str) -> str:
    """The tool installed beside this interpreter (the test extra), else on PATH."""
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    done = run(tool("ruff"), "check", "--no-cache", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_core_or_gui():
    done = run(tool("mypy"))  # files and settings: [tool.mypy] in pyproject.toml
    assert done.returncode == 0, done.stdout + done.stderr


def test_core_imports_no_qt_by_import_linter():
    done = run(tool("lint-imports"), "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr


def any_count(annotation: ast.expr | None) -> int:
    """How many times `Any` (or `typing.Any`) is written in an annotation."""
    if annotation is None:
        return 0
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):  # a quoted annotation
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return 0
    return sum(1 for node in ast.walk(annotation)
               if (isinstance(node, ast.Name) and node.id == "Any") or (isinstance(node, ast.Attribute) and node.attr == "Any"))


def public_functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level public functions, and the public methods (and `__init__`) of public classes."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            found.append(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found.extend(item for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and (not item.name.startswith("_") or item.name == "__init__"))
    return found


def signature_any(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return sum(any_count(a.annotation) for a in every if a is not None) + any_count(function.returns)


def any_in_core() -> dict[str, int]:
    """`Any` written in the public signatures of each core module (modules without any left out)."""
    counts = {}
    for path in sorted(CORE.rglob("*.py")):
        module = "wsi_inspector." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
        count = sum(signature_any(f) for f in public_functions(ast.parse(path.read_text(encoding="utf-8"))))
        if count:
            counts[module] = count
    return counts


def test_any_counter_reads_every_spelling():
    tree = ast.parse("from typing import Any\nimport typing\n"
                     "def f(a: Any, *b: 'list[Any]', c: dict[str, typing.Any] = {}, **d: int) -> Any | None: ...\n"
                     "def _private(a: Any) -> Any: ...\n"
                     "class C:\n    def __init__(self, x: Any): ...\n    def m(self) -> Any: ...\n    def _n(self, y: Any): ...\n"
                     "class _Hidden:\n    def m(self) -> Any: ...\n")
    assert [(f.name, signature_any(f)) for f in public_functions(tree)] == [("f", 4), ("__init__", 1), ("m", 1)]


def test_no_new_any_in_cores_public_signatures():
    counts = any_in_core()
    grown = {m: f"{n} (allowed {ANY_ALLOWANCE.get(m, 0)})" for m, n in counts.items() if n > ANY_ALLOWANCE.get(m, 0)}
    assert grown == {}, "new `Any` in core's public signatures: write the type (see ANY_ALLOWANCE in this file)"
    shrunk = {m: f"{counts.get(m, 0)} (allowed {n})" for m, n in ANY_ALLOWANCE.items() if counts.get(m, 0) < n}
    assert shrunk == {}, "fewer `Any` than allowed: lower ANY_ALLOWANCE in this file to the new counts, so they stay down"


def imported_test_modules(source: str, module: str) -> list[tuple[int, str]]:
    """(line, name) of each test module (`tests…test_*`) that the code of module `module` imports, however spelled."""
    package = module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[:len(package) - node.level + 1], *([node.module] if node.module else [])]) if node.level else node.module or ""
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.extend((node.lineno, name) for name in names
                     if name.split(".")[0] == "tests" and name.rsplit(".", 1)[-1].startswith("test_"))
    return found


def test_test_import_finder_reads_every_spelling():
    source = ("import tests.core.test_a\nfrom tests.core.test_b import x\nfrom tests.core import test_c, helpers\n"
              "from .test_d import y\nfrom . import test_e\nfrom tests.helpers.cli import wsi\nfrom tests.conftest import DEMO\n"
              "def f():\n    from tests.gui.test_f import z\n")
    assert imported_test_modules(source, "tests.core.test_here") == [
        (1, "tests.core.test_a"), (2, "tests.core.test_b"), (3, "tests.core.test_c"), (4, "tests.core.test_d"), (5, "tests.core.test_e"),
        (9, "tests.gui.test_f")]


def test_no_test_module_imports_another():
    """Shared fixtures live in tests/helpers/ or a conftest.py: a test module imported by another runs its
    module-level code twice and hands its fixtures on by name (ruff sees an unused import)."""
    found = [f"{path.relative_to(ROOT)}:{line}: imports {name}"
             for path in sorted(TESTS.rglob("*.py"))
             for line, name in imported_test_modules(path.read_text(encoding="utf-8"), ".".join(path.relative_to(ROOT).with_suffix("").parts))]
    assert found == [], "move what they share to tests/helpers/ (data, builders) or the nearest conftest.py (fixtures):\n" + "\n".join(found)
