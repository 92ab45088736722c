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
BIN = Path(sys.executable).parent

# `Any` in the signatures of core's public functions and methods, per module, as of 2026-12-02. A count
# may only go down (then lower it here); a module not listed may have none. Prefer a precise type, a
# TypedDict or a Protocol; a JSON value is `core.js_value`'s business.
ANY_ALLOWANCE = {
    "core.align": 9,
    "core.changes": 4,
    "core.check": 9,
    "core.check_cluster": 3,
    "core.check_report": 3,
    "core.check_where": 3,
    "core.cli.dispatch": 2,
    "core.cli.output": 2,
    "core.commands.resolve": 2,
    "core.diff": 7,
    "core.documents": 12,
    "core.edits": 3,
    "core.filtering": 2,
    "core.formats.worker_session_1.header": 1,  # read_header(document: dict[str, Any]): a JSON header object
    "core.geometry": 2,
    "core.js_value": 4,
    "core.json_values": 6,
    "core.jsonsize": 2,
    "core.manifest": 4,
    "core.model": 8,
    "core.provenance": 7,
    "core.reading": 1,
    "core.records": 2,
    "core.reduce": 1,
    "core.redact": 5,  # records_of, redact_records, units_used: the session's records as parsed JSON objects
    "core.redact_file": 1,  # Source.records: the session's records as parsed JSON objects
    "core.repro": 4,
    "core.run_inputs": 19,
    "core.runner.envelope": 9,
    "core.runner.guest": 14,
    "core.runner.host": 1,
    "core.runner.mock_modules": 8,
    "core.runner.protocol": 3,
    "core.runner.replay": 16,
    "core.runner.report": 5,
    "core.runner.result": 4,
    "core.runner.scene": 3,
    "core.runner.typescript": 1,
    "core.schema": 1,
    "core.timeline": 3,
    "core.units": 5,
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


def test_mypy_finds_nothing_in_core():
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
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
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
